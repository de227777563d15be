/* What an application's toolkit gets, and when: libinput (the path backend, as a
 * compositor's) on the event nodes given, printing each touch and gesture event as
 * "NAME DISPATCHED EVENT_TIME": when libinput handed it over (CLOCK_MONOTONIC, ns, read
 * at once) and the kernel's time stamp of the frame it comes from (µs, the same clock).
 * Prints "ready" once every device is added; runs until killed.
 *   libinput_events NODE...                       (line-buffered on stdout) */
#include <errno.h>
#include <fcntl.h>
#include <libinput.h>
#include <poll.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static int open_restricted(const char *path, int flags, void *data) {
    (void)data;
    int fd = open(path, flags);
    return fd < 0 ? -errno : fd;
}

static void close_restricted(int fd, void *data) {
    (void)data;
    close(fd);
}

static const struct libinput_interface interface = {open_restricted, close_restricted};

static const char *name_of(enum libinput_event_type type) {
    switch (type) {
    case LIBINPUT_EVENT_TOUCH_DOWN: return "TOUCH_DOWN";
    case LIBINPUT_EVENT_TOUCH_MOTION: return "TOUCH_MOTION";
    case LIBINPUT_EVENT_TOUCH_UP: return "TOUCH_UP";
    case LIBINPUT_EVENT_TOUCH_CANCEL: return "TOUCH_CANCEL";
    case LIBINPUT_EVENT_TOUCH_FRAME: return "TOUCH_FRAME";
    case LIBINPUT_EVENT_GESTURE_SWIPE_BEGIN: return "GESTURE_SWIPE_BEGIN";
    case LIBINPUT_EVENT_GESTURE_SWIPE_UPDATE: return "GESTURE_SWIPE_UPDATE";
    case LIBINPUT_EVENT_GESTURE_SWIPE_END: return "GESTURE_SWIPE_END";
    default: return NULL;
    }
}

static unsigned long long event_time(struct libinput_event *event) {
    struct libinput_event_touch *touch = libinput_event_get_touch_event(event);
    if (touch) return libinput_event_touch_get_time_usec(touch);
    struct libinput_event_gesture *gesture = libinput_event_get_gesture_event(event);
    return gesture ? libinput_event_gesture_get_time_usec(gesture) : 0;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    struct libinput *li = libinput_path_create_context(&interface, NULL);
    for (int i = 1; i < argc; i++) {
        if (!libinput_path_add_device(li, argv[i])) {
            fprintf(stderr, "libinput_events: cannot add %s\n", argv[i]);
            return 1;
        }
    }
    printf("ready\n");
    struct pollfd pfd = {libinput_get_fd(li), POLLIN, 0};
    for (;;) {
        if (poll(&pfd, 1, -1) < 0 && errno != EINTR) return 1;
        libinput_dispatch(li);
        struct libinput_event *event;
        while ((event = libinput_get_event(li))) {
            struct timespec now;
            clock_gettime(CLOCK_MONOTONIC, &now);
            const char *name = name_of(libinput_event_get_type(event));
            if (name)
                printf("%s %lld %llu\n", name, (long long)now.tv_sec * 1000000000LL + now.tv_nsec, event_time(event));
            libinput_event_destroy(event);
        }
    }
}
