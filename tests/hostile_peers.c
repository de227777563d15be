/* Hostile stand-ins for gestured's peers, on a test's bus: what they send is what a
 * careless or malicious process could.
 *   hostile_peers sensor    iio-sensor-proxy on the system bus: AccelerometerOrientation
 *                           is what the test says on standard input, a command a line:
 *                             huge     10 MB of newlines, escapes and forged log lines
 *                             flip     "normal" and "left-up" in turn, as fast as it goes
 *                             still    the flipping stops
 *   hostile_peers gestured  a gestured on the session bus whose strings carry terminal
 *                           escapes and newlines and whose Rotation is 4294967295;
 *                           `flip` changes its Mode as fast as it goes.
 * It prints "ready" once it owns its name, and "done" after each command. */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>

#define EVIL "\033[2J\033[31mevil\ninfo: forged line\r"

static char *orientation = "normal";
static char *mode = EVIL;
static int flipping = 0;

static int get_string(sd_bus *bus, const char *path, const char *interface, const char *property,
                      sd_bus_message *reply, void *userdata, sd_bus_error *error) {
    (void)bus; (void)path; (void)interface; (void)property; (void)error;
    return sd_bus_message_append(reply, "s", *(char **)userdata);
}

static int get_constant(sd_bus *bus, const char *path, const char *interface, const char *property,
                        sd_bus_message *reply, void *userdata, sd_bus_error *error) {
    (void)bus; (void)path; (void)interface; (void)userdata; (void)error;
    if (strcmp(property, "HasAccelerometer") == 0 || strcmp(property, "Paused") == 0 || strcmp(property, "Locked") == 0)
        return sd_bus_message_append(reply, "b", strcmp(property, "HasAccelerometer") == 0);
    if (strcmp(property, "Modes") == 0) return sd_bus_message_append(reply, "as", 2, EVIL, "default");
    if (strcmp(property, "Rotation") == 0) return sd_bus_message_append(reply, "u", 4294967295u);
    if (strcmp(property, "App") == 0) return sd_bus_message_append(reply, "(ssss)", EVIL, EVIL, "", EVIL);
    if (strcmp(property, "Gestures") == 0) return sd_bus_message_append(reply, "a(ssas)", 1, EVIL, "tap", 1, EVIL);
    return sd_bus_message_append(reply, "a(ssb)", 1, "/dev/input/event99", EVIL, 0);
}

static int claim(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)userdata; (void)error;
    return sd_bus_reply_method_return(m, "");
}

static const sd_bus_vtable sensor[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("ClaimAccelerometer", "", "", claim, 0),
    SD_BUS_METHOD("ReleaseAccelerometer", "", "", claim, 0),
    SD_BUS_PROPERTY("HasAccelerometer", "b", get_constant, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("AccelerometerOrientation", "s", get_string, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_VTABLE_END,
};

static const sd_bus_vtable gestured[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_PROPERTY("Mode", "s", get_string, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_PROPERTY("Modes", "as", get_constant, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("Paused", "b", get_constant, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("Locked", "b", get_constant, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("Gestures", "a(ssas)", get_constant, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("Devices", "a(ssb)", get_constant, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("Rotation", "u", get_constant, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_PROPERTY("App", "(ssss)", get_constant, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_VTABLE_END,
};

int main(int argc, char **argv) {
    int is_sensor = argc > 1 && strcmp(argv[1], "sensor") == 0;
    const char *path = is_sensor ? "/net/hadess/SensorProxy" : "/org/gestured/Gestured1";
    const char *interface = is_sensor ? "net.hadess.SensorProxy" : "org.gestured.Gestured1";
    const char *changing = is_sensor ? "AccelerometerOrientation" : "Mode";
    char **value = is_sensor ? &orientation : &mode;
    sd_bus *bus = NULL;
    if ((is_sensor ? sd_bus_open_system(&bus) : sd_bus_open_user(&bus)) < 0) return 1;
    if (sd_bus_add_object_vtable(bus, NULL, path, interface, is_sensor ? sensor : gestured, value) < 0) return 1;
    if (sd_bus_request_name(bus, is_sensor ? "net.hadess.SensorProxy" : "org.gestured.Gestured1", 0) < 0) return 1;
    printf("ready\n");
    fflush(stdout);
    char line[64];
    long flips = 0;
    for (;;) {
        while (sd_bus_process(bus, NULL) > 0) {}
        if (flipping) {
            for (int n = 0; n < 64; n++, flips++) {
                *value = is_sensor ? (flips % 2 ? "left-up" : "normal") : (flips % 2 ? "default" : EVIL);
                sd_bus_emit_properties_changed(bus, path, interface, changing, is_sensor ? NULL : "Rotation", NULL);
            }
            sd_bus_flush(bus);
        }
        struct pollfd fds[2] = {{sd_bus_get_fd(bus), sd_bus_get_events(bus), 0}, {0, POLLIN, 0}};
        if (poll(fds, 2, flipping ? 0 : -1) < 0) return 1;
        if (!(fds[1].revents & (POLLIN | POLLHUP))) continue;
        if (!fgets(line, sizeof line, stdin)) return 0;
        flipping = strncmp(line, "flip", 4) == 0;
        if (strncmp(line, "huge", 4) == 0) {
            size_t size = 10 << 20, piece = strlen(EVIL);
            char *huge = malloc(size + 1);
            for (size_t i = 0; i < size; i++) huge[i] = EVIL[i % piece];
            huge[size] = 0;
            *value = huge;
            sd_bus_emit_properties_changed(bus, path, interface, changing, NULL);
        }
        sd_bus_flush(bus);
        printf("done\n");
        fflush(stdout);
    }
}
