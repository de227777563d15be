/* A reader of gestured's properties as fast as the bus lets it: GetAll on
 * /org/gestured/Gestured1 with 64 calls in flight at once, until killed (what anyone
 * may do on the system bus under the shipped policy). bus_flood [--system] */
#include <string.h>
#include <systemd/sd-bus.h>

static int in_flight = 0;

static int on_reply(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)m; (void)userdata; (void)error;
    in_flight--;
    return 0;
}

int main(int argc, char **argv) {
    sd_bus *bus = NULL;
    int system = argc > 1 && strcmp(argv[1], "--system") == 0;
    if ((system ? sd_bus_open_system(&bus) : sd_bus_open_user(&bus)) < 0) return 1;
    for (;;) {
        while (in_flight < 64) {
            if (sd_bus_call_method_async(bus, NULL, "org.gestured.Gestured1", "/org/gestured/Gestured1",
                                         "org.freedesktop.DBus.Properties", "GetAll", on_reply, NULL, "s",
                                         "org.gestured.Gestured1") < 0)
                return 1;
            in_flight++;
        }
        int r = sd_bus_process(bus, NULL);
        if (r < 0) return 1;
        if (r == 0 && sd_bus_wait(bus, (uint64_t)-1) < 0) return 1;
    }
}
