/* A stand-in for logind on a test's bus: org.freedesktop.login1 with seat0, whose
 * ActiveSession is session c1 of user 0 (and user 0's Display is c1 too), whose
 * LockedHint the test sets on standard input, a command a line:
 *   lock | unlock        LockedHint, announced with PropertiesChanged (with its value)
 *   switch               seat0's ActiveSession from c1 to c2 (of user 65534, never
 *                        locked) or back, announced with PropertiesChanged (with its
 *                        value), and the sessions' Active with it
 *   stream | still       start or stop a stream of PropertiesChanged of the seat and the
 *                        session that change nothing, as fast as the bus takes them
 *   sleep | wake         the Manager's PrepareForSleep, true or false
 * fake_logind [locked] */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include <unistd.h>

#define SEAT "/org/freedesktop/login1/seat/seat0"
#define SESSION "/org/freedesktop/login1/session/c1"
#define OTHER_SESSION "/org/freedesktop/login1/session/c2"
#define USER "/org/freedesktop/login1/user/_0"
#define OTHER_USER "/org/freedesktop/login1/user/_65534"

static int locked_hint = 0;
static int other_in_front = 0;
static int idle_hint = 0;
static int streaming = 0;

static int get_session(sd_bus *bus, const char *path, const char *interface, const char *property,
                       sd_bus_message *reply, void *userdata, sd_bus_error *error) {
    (void)bus; (void)interface; (void)property; (void)userdata; (void)error;
    if (other_in_front && strcmp(path, SEAT) == 0) return sd_bus_message_append(reply, "(so)", "c2", OTHER_SESSION);
    return sd_bus_message_append(reply, "(so)", "c1", SESSION);
}

static int get_locked(sd_bus *bus, const char *path, const char *interface, const char *property,
                      sd_bus_message *reply, void *userdata, sd_bus_error *error) {
    (void)bus; (void)interface; (void)property; (void)userdata; (void)error;
    return sd_bus_message_append(reply, "b", strcmp(path, SESSION) == 0 && locked_hint);
}

static int get_active(sd_bus *bus, const char *path, const char *interface, const char *property,
                      sd_bus_message *reply, void *userdata, sd_bus_error *error) {
    (void)bus; (void)interface; (void)property; (void)userdata; (void)error;
    return sd_bus_message_append(reply, "b", (strcmp(path, SESSION) == 0) != other_in_front);
}

static int get_session_user(sd_bus *bus, const char *path, const char *interface, const char *property,
                            sd_bus_message *reply, void *userdata, sd_bus_error *error) {
    (void)bus; (void)interface; (void)property; (void)userdata; (void)error;
    if (strcmp(path, SESSION) == 0) return sd_bus_message_append(reply, "(uo)", 0, USER);
    return sd_bus_message_append(reply, "(uo)", 65534, OTHER_USER);
}

static int get_idle(sd_bus *bus, const char *path, const char *interface, const char *property,
                    sd_bus_message *reply, void *userdata, sd_bus_error *error) {
    (void)bus; (void)path; (void)interface; (void)property; (void)userdata; (void)error;
    return sd_bus_message_append(reply, "b", idle_hint);
}

static int get_user(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)userdata; (void)error;
    return sd_bus_reply_method_return(m, "o", USER);
}

static const sd_bus_vtable seat[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_PROPERTY("ActiveSession", "(so)", get_session, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_VTABLE_END,
};
static const sd_bus_vtable user[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_PROPERTY("Display", "(so)", get_session, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_VTABLE_END,
};
static const sd_bus_vtable session[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_PROPERTY("LockedHint", "b", get_locked, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_PROPERTY("IdleHint", "b", get_idle, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_PROPERTY("User", "(uo)", get_session_user, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("Active", "b", get_active, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_VTABLE_END,
};
static const sd_bus_vtable manager[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("GetUser", "u", "o", get_user, 0),
    SD_BUS_VTABLE_END,
};

int main(int argc, char **argv) {
    sd_bus *bus = NULL;
    locked_hint = argc > 1 && strcmp(argv[1], "locked") == 0;
    if (sd_bus_open_system(&bus) < 0) return 1;
    if (sd_bus_add_object_vtable(bus, NULL, SEAT, "org.freedesktop.login1.Seat", seat, NULL) < 0 ||
        sd_bus_add_object_vtable(bus, NULL, USER, "org.freedesktop.login1.User", user, NULL) < 0 ||
        sd_bus_add_object_vtable(bus, NULL, SESSION, "org.freedesktop.login1.Session", session, NULL) < 0 ||
        sd_bus_add_object_vtable(bus, NULL, OTHER_SESSION, "org.freedesktop.login1.Session", session, NULL) < 0 ||
        sd_bus_add_object_vtable(bus, NULL, "/org/freedesktop/login1", "org.freedesktop.login1.Manager", manager, NULL) < 0)
        return 1;
    if (sd_bus_request_name(bus, "org.freedesktop.login1", 0) < 0) return 1;
    printf("ready\n");
    fflush(stdout);
    char line[64];
    for (;;) {
        while (sd_bus_process(bus, NULL) > 0) {}
        if (streaming) {
            for (int n = 0; n < 64; n++) {
                sd_bus_emit_properties_changed(bus, SEAT, "org.freedesktop.login1.Seat", "ActiveSession", NULL);
                sd_bus_emit_properties_changed(bus, SESSION, "org.freedesktop.login1.Session", "IdleHint", NULL);
            }
            sd_bus_flush(bus);
        }
        struct pollfd fds[2] = {{sd_bus_get_fd(bus), sd_bus_get_events(bus), 0}, {0, POLLIN, 0}};
        if (poll(fds, 2, streaming ? 0 : -1) < 0) return 1;
        if (!(fds[1].revents & (POLLIN | POLLHUP))) continue;
        if (!fgets(line, sizeof line, stdin)) return 0;
        if (strncmp(line, "lock", 4) == 0 || strncmp(line, "unlock", 6) == 0) {
            locked_hint = line[0] == 'l';
            sd_bus_emit_properties_changed(bus, SESSION, "org.freedesktop.login1.Session", "LockedHint", NULL);
        } else if (strncmp(line, "switch", 6) == 0) {
            other_in_front = !other_in_front;
            sd_bus_emit_properties_changed(bus, SEAT, "org.freedesktop.login1.Seat", "ActiveSession", NULL);
            sd_bus_emit_properties_changed(bus, SESSION, "org.freedesktop.login1.Session", "Active", NULL);
            sd_bus_emit_properties_changed(bus, OTHER_SESSION, "org.freedesktop.login1.Session", "Active", NULL);
        } else if (strncmp(line, "sleep", 5) == 0 || strncmp(line, "wake", 4) == 0) {
            sd_bus_emit_signal(bus, "/org/freedesktop/login1", "org.freedesktop.login1.Manager", "PrepareForSleep", "b", line[0] == 's');
        } else {
            streaming = strncmp(line, "stream", 6) == 0;
        }
        sd_bus_flush(bus);
        printf("done\n");
        fflush(stdout);
    }
}
