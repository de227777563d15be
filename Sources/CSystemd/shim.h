#pragma once
#include <systemd/sd-bus.h>
#include <systemd/sd-daemon.h>

// sd-bus builds its object tables with macros; this one exports the Gesture signal on
// PATH under INTERFACE so `busctl introspect` shows it.
static inline int gestured_bus_add_gesture_object(sd_bus *bus, const char *path, const char *interface) {
    static const sd_bus_vtable vtable[] = {
        SD_BUS_VTABLE_START(0),
        SD_BUS_SIGNAL_WITH_NAMES("Gesture", "sssa{sv}",
                                 SD_BUS_PARAM(name) SD_BUS_PARAM(type) SD_BUS_PARAM(phase) SD_BUS_PARAM(values), 0),
        SD_BUS_VTABLE_END,
    };
    return sd_bus_add_object_vtable(bus, NULL, path, interface, vtable, NULL);
}
