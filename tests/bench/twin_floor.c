/* The pass-through's floor: the least an isolating daemon can do for a touch that is
 * not a gesture. Grabs the touchscreen (EVIOCGRAB, as gestured does), makes a uinput
 * device with its capabilities, and writes each event it reads there at once: a
 * blocking read, no decoding, no deciding. Prints the copy's event node, then runs
 * until killed.  twin_floor NODE */
#include <errno.h>
#include <fcntl.h>
#include <libevdev/libevdev-uinput.h>
#include <libevdev/libevdev.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: twin_floor NODE\n");
        return 2;
    }
    int fd = open(argv[1], O_RDONLY);
    struct libevdev *panel = NULL;
    struct libevdev_uinput *twin = NULL;
    if (fd < 0 || libevdev_new_from_fd(fd, &panel) < 0 || libevdev_grab(panel, LIBEVDEV_GRAB) < 0
        || libevdev_uinput_create_from_device(panel, LIBEVDEV_UINPUT_OPEN_MANAGED, &twin) < 0) {
        perror("twin_floor");
        return 1;
    }
    printf("%s\n", libevdev_uinput_get_devnode(twin));
    fflush(stdout);
    struct input_event ev;
    for (;;) {
        int rc = libevdev_next_event(panel, LIBEVDEV_READ_FLAG_NORMAL | LIBEVDEV_READ_FLAG_BLOCKING, &ev);
        if (rc == LIBEVDEV_READ_STATUS_SYNC) {
            /* Dropped events: write the device's state as libevdev resyncs it. */
            while (libevdev_next_event(panel, LIBEVDEV_READ_FLAG_SYNC, &ev) == LIBEVDEV_READ_STATUS_SYNC)
                libevdev_uinput_write_event(twin, ev.type, ev.code, ev.value);
        } else if (rc == LIBEVDEV_READ_STATUS_SUCCESS) {
            libevdev_uinput_write_event(twin, ev.type, ev.code, ev.value);
        } else if (rc != -EAGAIN) {
            return 0;
        }
    }
}
