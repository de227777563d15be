/* A desktop's reporter of the application in front, on a test's session bus: it calls
 * org.gestured.Gestured1.ReportApp as the shipped KWin script and GNOME Shell extension
 * do, and stays on the bus between calls as they do. A command a line on standard input:
 *   report SOURCE APP_ID WM_CLASS INSTANCE   one report ("-" for an empty field); prints
 *                                           "done" or "error NAME"
 *   windows SOURCE LAYOUT                   ReportWindows: LAYOUT, the rest of the line,
 *                                           the JSON (prints as report does)
 *   huge                                    a report whose app id is 1 MB
 *   flood RATE SECONDS [CONNECTIONS]        RATE reports a second for SECONDS, two apps in
 *                                           turn, without waiting for answers, from this
 *                                           connection or round the CONNECTIONS opened for
 *                                           it; prints "done SENT ANSWERED REFUSED"
 *                                           (gestured's answers within 3 s of the last;
 *                                           refused: its errors)
 * It prints "ready" once connected: to the session bus, or with --system to the system bus.
 * A call not answered within 2 s is an error (org.freedesktop.DBus.Error.NoReply). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <systemd/sd-bus.h>

static sd_bus *bus;
static int system_bus;

static const char *field(const char *word) { return strcmp(word, "-") == 0 ? "" : word; }

/* One call of `member` with string arguments (ReportApp's four, ReportWindows's two),
 * printing "done" or "error NAME"; asked to call again (the system service let the first
 * call of a caller it did not know yet go while it asked who it is), once more, as the
 * session agent does. */
static int call(const char *member, const char *types, ...) {
    sd_bus_error error = SD_BUS_ERROR_NULL;
    sd_bus_message *reply = NULL;
    int rc = 0;
    for (int attempt = 0; attempt < 2; attempt++) {
        sd_bus_error_free(&error);
        sd_bus_message_unref(reply);
        reply = NULL;
        va_list arguments;
        va_start(arguments, types);
        rc = sd_bus_call_methodv(bus, "org.gestured.Gestured1", "/org/gestured/Gestured1", "org.gestured.Gestured1",
                                 member, &error, &reply, types, arguments);
        va_end(arguments);
        if (rc >= 0 || !error.name || strcmp(error.name, "org.gestured.Gestured1.Error.AskAgain") != 0) break;
    }
    if (rc < 0) printf("error %s\n", error.name ? error.name : "unknown");
    else printf("done\n");
    sd_bus_error_free(&error);
    sd_bus_message_unref(reply);
    return rc;
}

static long long now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000LL + t.tv_nsec / 1000;
}

static int answers, refused;

static int answered(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)userdata; (void)error;
    /* Only gestured's answers count: a call's own timeout comes as an error too, and
     * dbus-daemon refuses calls beyond its limit of replies awaited. */
    const sd_bus_error *e = sd_bus_message_get_error(m);
    if (e && e->name && strncmp(e->name, "org.gestured.", 13) != 0) return 0;
    answers++;
    if (e) refused++;
    return 0;
}

#define MOST_CONNECTIONS 256

/* Calls without waiting for their answers (counted as they come), at `rate` a second,
 * round `count` connections (this one alone for 1). */
static void flood(int rate, int seconds, int count) {
    sd_bus *buses[MOST_CONNECTIONS] = {bus};
    if (count < 1) count = 1;
    if (count > MOST_CONNECTIONS) count = MOST_CONNECTIONS;
    for (int i = 1; i < count; i++)
        if ((system_bus ? sd_bus_open_system(&buses[i]) : sd_bus_open_user(&buses[i])) < 0) count = i;
    long long start = now_us(), end = start + seconds * 1000000LL;
    long sent = 0;
    answers = refused = 0;
    while (now_us() < end) {
        long due = (long)((now_us() - start) * rate / 1000000LL);
        while (sent < due) {
            sd_bus_call_method_async(buses[sent % count], NULL, "org.gestured.Gestured1", "/org/gestured/Gestured1",
                                     "org.gestured.Gestured1", "ReportApp", answered, NULL, "ssss", "flood",
                                     sent % 2 ? "kitty" : "firefox", "", "");
            sent++;
        }
        for (int i = 0; i < count; i++)
            while (sd_bus_process(buses[i], NULL) > 0) {}
        usleep(1000);
    }
    long long drain = now_us() + 3000000LL;
    while (now_us() < drain) {
        for (int i = 0; i < count; i++)
            while (sd_bus_process(buses[i], NULL) > 0) {}
        usleep(10000);
    }
    for (int i = 1; i < count; i++) sd_bus_flush_close_unref(buses[i]);
    printf("done %ld %d %d\n", sent, answers, refused);
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    system_bus = argc > 1 && strcmp(argv[1], "--system") == 0;
    if ((system_bus ? sd_bus_open_system(&bus) : sd_bus_open_user(&bus)) < 0) return 1;
    sd_bus_set_method_call_timeout(bus, 2000000);
    printf("ready\n");
    char line[8192];
    while (fgets(line, sizeof line, stdin)) {
        char a[128], b[128], c[128], d[128];
        int rate, seconds, connections = 1, layout = 0;
        if (strncmp(line, "windows ", 8) == 0 && sscanf(line, "windows %127s %n", a, &layout) == 1 && layout > 0) {
            line[strcspn(line, "\n")] = 0;
            call("ReportWindows", "ss", field(a), line + layout);
        } else if (sscanf(line, "report %127s %127s %127s %127s", a, b, c, d) == 4) {
            call("ReportApp", "ssss", field(a), field(b), field(c), field(d));
        } else if (strncmp(line, "huge", 4) == 0) {
            char *app = malloc(1 << 20);
            memset(app, 'a', (1 << 20) - 1);
            app[(1 << 20) - 1] = 0;
            call("ReportApp", "ssss", "huge", app, "", "");
            free(app);
        } else if (sscanf(line, "flood %d %d %d", &rate, &seconds, &connections) >= 2) {
            flood(rate, seconds, connections);
        }
    }
    sd_bus_flush_close_unref(bus);
    return 0;
}
