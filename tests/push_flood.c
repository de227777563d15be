/* Another user's flood of SetUserConfiguration on the system bus: CONNECTIONS connections,
 * each keeping one call in flight whose text is MEGABYTES long, for SECONDS (a call
 * answered, the next goes; each written out before the next is made). What gestured must never copy, hold or keep from a caller
 * it refuses.
 *   push_flood MEGABYTES SECONDS CONNECTIONS
 * prints "done SENT ANSWERED REFUSED" (gestured's answers; refused: its errors). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <systemd/sd-bus.h>

#define MOST_CONNECTIONS 64

static char *text;
static long sent;
static int answers, refused;

static long long now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000LL + t.tv_nsec / 1000;
}

struct connection {
    sd_bus *bus;
    int waiting;
};

static int answered(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    struct connection *c = userdata;
    c->waiting = 0;
    /* Only gestured's answers count: a call's own timeout comes as an error too. */
    const sd_bus_error *e = sd_bus_message_get_error(m);
    if (e && e->name && strncmp(e->name, "org.gestured.", 13) != 0) return 0;
    answers++;
    if (e) refused++;
    return 0;
}

static void push(struct connection *c) {
    sd_bus_message *m = NULL;
    if (sd_bus_message_new_method_call(c->bus, &m, "org.gestured.Gestured1", "/org/gestured/Gestured1",
                                       "org.gestured.Gestured1", "SetUserConfiguration") < 0) return;
    static const unsigned char document[] = {0};
    if (sd_bus_message_append(m, "ss", "flood.toml", text) >= 0
        && sd_bus_message_append_array(m, 'y', document, sizeof document) >= 0
        && sd_bus_call_async(c->bus, NULL, m, answered, c, 20000000) >= 0) {
        c->waiting = 1;
        sent++;
    }
    sd_bus_message_unref(m);
    /* Written out before the next is made: this process holds one message at a time (32
     * of them would take a small machine's memory), the calls stay in flight. */
    sd_bus_flush(c->bus);
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc != 4) return 2;
    long bytes = atol(argv[1]) * 1024 * 1024;
    int seconds = atoi(argv[2]), count = atoi(argv[3]);
    if (count < 1) count = 1;
    if (count > MOST_CONNECTIONS) count = MOST_CONNECTIONS;
    text = malloc(bytes + 1);
    memset(text, 'a', bytes);
    text[bytes] = 0;
    struct connection connections[MOST_CONNECTIONS] = {{0}};
    for (int i = 0; i < count; i++)
        if (sd_bus_open_system(&connections[i].bus) < 0) return 1;
    long long end = now_us() + seconds * 1000000LL;
    while (now_us() < end) {
        for (int i = 0; i < count; i++) {
            if (!connections[i].waiting) push(&connections[i]);
            while (sd_bus_process(connections[i].bus, NULL) > 0) {}
        }
        usleep(1000);
    }
    long long drain = now_us() + 3000000LL;
    while (now_us() < drain) {
        for (int i = 0; i < count; i++)
            while (sd_bus_process(connections[i].bus, NULL) > 0) {}
        usleep(10000);
    }
    for (int i = 0; i < count; i++) sd_bus_flush_close_unref(connections[i].bus);
    printf("done %ld %d %d\n", sent, answers, refused);
    return 0;
}
