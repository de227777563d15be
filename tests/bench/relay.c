/* The whole path's floor for the signal benchmark: the least a daemon can do between a
 * lift and a D-Bus client. Reads the touchscreen's event node (read(2), no library) and,
 * at the SYN_REPORT of a frame in which the last touch lifted after going left (or
 * right), emits the signal gestured emits for it (three strings and a dictionary of seven
 * entries) and flushes it. It runs beside gestured, whose binding is a swipe the other
 * way, on swipes that take turns left and right: both read every frame, each answers its
 * own lifts, and a drift of the machine's speed falls on both alike. Measured to the same
 * listener (listen.c); emit.c measures the bus's hop alone.  relay NODE [left|right] */
#include <fcntl.h>
#include <linux/input.h>
#include <systemd/sd-bus.h>
#include <unistd.h>

/* gestured's Gesture signal for a one-finger swipe bound as `name = WAY` on the
 * benchmark's panel, entry for entry (GestureFields, BusService.gestureSignal): the same
 * message for sd-bus to build and for dbus-daemon to route. */
static int emit(sd_bus *bus, const char *way) {
    sd_bus_message *m = NULL;
    int r = sd_bus_message_new_signal(bus, &m, "/org/gestured/Gestured1", "org.gestured.Gestured1", "Gesture");
    if (r >= 0) r = sd_bus_message_append(m, "sss", way, "swipe", "recognized");
    if (r >= 0)
        r = sd_bus_message_append(m, "a{sv}", 7, "fingers", "i", 1, "tool", "s", "finger", "direction", "s", way,
                                  "x", "d", 0.5, "y", "d", 0.5, "velocity", "d", 500.0, "device", "s", "gestured test panel");
    if (r >= 0) r = sd_bus_send(bus, m, NULL);
    sd_bus_message_unref(m);
    return r < 0 ? r : sd_bus_flush(bus);
}

int main(int argc, char **argv) {
    sd_bus *bus = NULL;
    int fd = argc > 1 ? open(argv[1], O_RDONLY) : -1;
    int rightward = argc > 2 && argv[2][0] == 'r';
    if (fd < 0 || sd_bus_open_user(&bus) < 0) return 1;
    int touching = 0, lifted = 0, first_x = 0, last_x = 0, moved = 0;
    struct input_event events[64];
    for (;;) {
        ssize_t n = read(fd, events, sizeof events);
        if (n <= 0) return 1;
        for (size_t i = 0; i < (size_t)n / sizeof *events; i++) {
            const struct input_event *e = &events[i];
            if (e->type == EV_ABS && e->code == ABS_MT_TRACKING_ID) {
                if (e->value >= 0 && touching++ == 0) moved = 0;
                else if (e->value < 0 && touching > 0 && --touching == 0) lifted = 1;
            } else if (e->type == EV_ABS && e->code == ABS_MT_POSITION_X) {
                if (!moved) first_x = e->value;
                last_x = e->value;
                moved = 1;
            } else if (e->type == EV_SYN && e->code == SYN_REPORT && lifted) {
                lifted = 0;
                if ((rightward ? last_x > first_x : last_x < first_x) && emit(bus, rightward ? "right" : "left") < 0) return 1;
            }
        }
    }
}
