/* The D-Bus floor of the latency benchmark: emits a signal like gestured's Gesture,
 * COUNT times 0.3 s apart, printing the monotonic clock (ns) just before each send, so
 * that the bus's own hop to the listener (listen.c) is measured apart. emit COUNT */
#include <stdio.h>
#include <stdlib.h>
#include <systemd/sd-bus.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    sd_bus *bus = NULL;
    if (argc < 2 || sd_bus_open_user(&bus) < 0) return 1;
    for (int i = 0; i < atoi(argv[1]); i++) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        printf("%lld\n", (long long)now.tv_sec * 1000000000LL + now.tv_nsec);
        if (sd_bus_emit_signal(bus, "/org/gestured/Gestured1", "org.gestured.Gestured1", "Gesture", "sss",
                               "floor", "floor", "recognized") < 0 || sd_bus_flush(bus) < 0)
            return 1;
        usleep(300000);
    }
    return 0;
}
