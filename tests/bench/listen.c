/* The D-Bus client of the latency benchmark: subscribes to gestured's Gesture signal on
 * the session bus and appends the monotonic clock (ns) of each one's arrival to a file,
 * stamped as soon as sd-bus hands it over. listen FILE */
#include <stdio.h>
#include <systemd/sd-bus.h>
#include <time.h>

static int on_signal(sd_bus_message *m, void *file, sd_bus_error *error) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    (void)m; (void)error;
    fprintf(file, "signal %lld\n", (long long)now.tv_sec * 1000000000LL + now.tv_nsec);
    fflush(file);
    return 0;
}

int main(int argc, char **argv) {
    sd_bus *bus = NULL;
    FILE *file = argc > 1 ? fopen(argv[1], "a") : NULL;
    if (!file || sd_bus_open_user(&bus) < 0) return 1;
    if (sd_bus_match_signal(bus, NULL, NULL, "/org/gestured/Gestured1", "org.gestured.Gestured1", "Gesture", on_signal, file) < 0)
        return 1;
    printf("listening\n");
    fflush(stdout);
    for (;;) {
        int r = sd_bus_process(bus, NULL);
        if (r < 0) return 1;
        if (r == 0 && sd_bus_wait(bus, (uint64_t)-1) < 0) return 1;
    }
}
