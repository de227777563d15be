#pragma once
#include <string.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-daemon.h>

// sd-bus builds its object tables with macros for constant handlers; Swift's handlers are
// known at run time, so the table is filled then and kept (sd-bus holds on to it). One
// method handler and one property getter take every member, by name; Rotation alone is
// written. The methods and the setter are marked unprivileged: the bus policy (dbus/) decides who may call them, as sd-bus would
// otherwise ask for CAP_SYS_ADMIN on the system bus.
static inline const sd_bus_vtable *gestured_service_vtable(sd_bus_message_handler_t method, sd_bus_property_get_t property,
                                                           sd_bus_property_set_t set) {
    static sd_bus_vtable vtable[30];
    const uint64_t changes = SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE;
    const sd_bus_vtable filled[] = {
        SD_BUS_VTABLE_START(0),
        SD_BUS_SIGNAL_WITH_NAMES("Gesture", "sssa{sv}",
                                 SD_BUS_PARAM(name) SD_BUS_PARAM(type) SD_BUS_PARAM(phase) SD_BUS_PARAM(values), 0),
        SD_BUS_SIGNAL("AppWanted", "", 0),
        SD_BUS_SIGNAL_WITH_NAMES("Act", "ssas", SD_BUS_PARAM(binding) SD_BUS_PARAM(kind) SD_BUS_PARAM(environment), 0),
        SD_BUS_SIGNAL_WITH_NAMES("Feedback", "sssdsad", SD_BUS_PARAM(panel) SD_BUS_PARAM(output) SD_BUS_PARAM(gesture)
                                 SD_BUS_PARAM(progress) SD_BUS_PARAM(verdict) SD_BUS_PARAM(fingers), 0),
        SD_BUS_SIGNAL_WITH_NAMES("Progress", "ssds", SD_BUS_PARAM(gesture) SD_BUS_PARAM(tag) SD_BUS_PARAM(progress) SD_BUS_PARAM(phase), 0),
        SD_BUS_SIGNAL_WITH_NAMES("Inspection", "sddbssdsa(idd)a(ssds)", SD_BUS_PARAM(panel) SD_BUS_PARAM(width_mm)
                                 SD_BUS_PARAM(height_mm) SD_BUS_PARAM(over) SD_BUS_PARAM(app)
                                 SD_BUS_PARAM(gesture) SD_BUS_PARAM(progress) SD_BUS_PARAM(verdict) SD_BUS_PARAM(touches)
                                 SD_BUS_PARAM(gestures), 0),
        SD_BUS_METHOD_WITH_NAMES("SetMode", "s", SD_BUS_PARAM(mode), "", , method, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD_WITH_NAMES("Pause", "u", SD_BUS_PARAM(seconds), "", , method, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD("Resume", "", "", method, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD("Reload", "", "", method, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD("LockTouch", "", "", method, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD("UnlockTouch", "", "", method, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD_WITH_NAMES("ReportApp", "ssss", SD_BUS_PARAM(source) SD_BUS_PARAM(app_id) SD_BUS_PARAM(wm_class) SD_BUS_PARAM(instance),
                                 "", , method, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD_WITH_NAMES("ReportWindows", "ss", SD_BUS_PARAM(source) SD_BUS_PARAM(layout),
                                 "", , method, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD_WITH_NAMES("SetUserConfiguration", "ssay", SD_BUS_PARAM(file) SD_BUS_PARAM(text) SD_BUS_PARAM(document),
                                 "", , method, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD_WITH_NAMES("Inspect", "s", SD_BUS_PARAM(request), "", , method, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_PROPERTY("Mode", "s", property, 0, changes),
        SD_BUS_PROPERTY("Modes", "as", property, 0, changes),
        SD_BUS_PROPERTY("Paused", "b", property, 0, changes),
        SD_BUS_PROPERTY("Locked", "b", property, 0, changes),
        SD_BUS_PROPERTY("TouchLocked", "b", property, 0, changes),
        SD_BUS_PROPERTY("Idle", "b", property, 0, changes),
        SD_BUS_PROPERTY("LastTouch", "t", property, 0, changes),
        SD_BUS_PROPERTY("Gestures", "a(ssas)", property, 0, changes),
        SD_BUS_PROPERTY("Devices", "a(ssb)", property, 0, changes),
        SD_BUS_WRITABLE_PROPERTY("Rotation", "u", property, set, 0, changes | SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_PROPERTY("App", "(ssss)", property, 0, changes),
        SD_BUS_PROPERTY("Session", "(subus)", property, 0, changes),
        SD_BUS_VTABLE_END,
    };
    _Static_assert(sizeof filled == sizeof vtable, "the table's size");
    memcpy(vtable, filled, sizeof filled);
    return vtable;
}

static inline int gestured_bus_add_object(sd_bus *bus, const char *path, const char *interface,
                                          sd_bus_message_handler_t method, sd_bus_property_get_t property,
                                          sd_bus_property_set_t set, void *userdata) {
    return sd_bus_add_object_vtable(bus, NULL, path, interface, gestured_service_vtable(method, property, set), userdata);
}

// One object per touchscreen under `prefix` (a fallback vtable: sd-bus asks `find` whether
// a path is a device's), listed for introspection by `enumerate`. Rotation alone is
// written, and unprivileged for the same reason as above.
static inline int gestured_bus_add_devices(sd_bus *bus, const char *prefix, const char *interface,
                                           sd_bus_property_get_t property, sd_bus_property_set_t set,
                                           sd_bus_object_find_t find, sd_bus_node_enumerator_t enumerate, void *userdata) {
    static sd_bus_vtable vtable[7];
    const sd_bus_vtable filled[] = {
        SD_BUS_VTABLE_START(0),
        SD_BUS_PROPERTY("Node", "s", property, 0, SD_BUS_VTABLE_PROPERTY_CONST),
        SD_BUS_PROPERTY("Name", "s", property, 0, SD_BUS_VTABLE_PROPERTY_CONST),
        SD_BUS_PROPERTY("Isolated", "b", property, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        SD_BUS_PROPERTY("Screen", "s", property, 0, 0),
        SD_BUS_WRITABLE_PROPERTY("Rotation", "u", property, set, 0,
                                 SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE | SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_VTABLE_END,
    };
    _Static_assert(sizeof filled == sizeof vtable, "the table's size");
    memcpy(vtable, filled, sizeof filled);
    int rc = sd_bus_add_fallback_vtable(bus, NULL, prefix, interface, vtable, find, userdata);
    return rc < 0 ? rc : sd_bus_add_node_enumerator(bus, NULL, prefix, enumerate, userdata);
}

// The session agent's object on the session bus: ReportApp and ReportWindows, as gestured's own, for the
// KWin script and the GNOME Shell extension when gestured is the system service.
static inline const sd_bus_vtable *gestured_agent_vtable(sd_bus_message_handler_t method) {
    static sd_bus_vtable vtable[4];
    const sd_bus_vtable filled[] = {
        SD_BUS_VTABLE_START(0),
        SD_BUS_METHOD_WITH_NAMES("ReportApp", "ssss", SD_BUS_PARAM(source) SD_BUS_PARAM(app_id) SD_BUS_PARAM(wm_class) SD_BUS_PARAM(instance),
                                 "", , method, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD_WITH_NAMES("ReportWindows", "ss", SD_BUS_PARAM(source) SD_BUS_PARAM(layout),
                                 "", , method, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_VTABLE_END,
    };
    _Static_assert(sizeof filled == sizeof vtable, "the table's size");
    memcpy(vtable, filled, sizeof filled);
    return vtable;
}

static inline int gestured_bus_add_agent(sd_bus *bus, const char *path, const char *interface,
                                         sd_bus_message_handler_t method, void *userdata) {
    return sd_bus_add_object_vtable(bus, NULL, path, interface, gestured_agent_vtable(method), userdata);
}

// The signature a table declares for a method's arguments or a signal's (NULL: it has no
// such member): what gestured's messages are checked against.
static inline const char *gestured_vtable_signature(const sd_bus_vtable *table, const char *member) {
    for (; table->type != _SD_BUS_VTABLE_END; table++) {
        if (table->type == _SD_BUS_VTABLE_METHOD && strcmp(table->x.method.member, member) == 0) return table->x.method.signature;
        if (table->type == _SD_BUS_VTABLE_SIGNAL && strcmp(table->x.signal.member, member) == 0) return table->x.signal.signature;
    }
    return NULL;
}

// The variadic calls Swift cannot make.
static inline int gestured_bus_reply_empty(sd_bus_message *call) {
    return sd_bus_reply_method_return(call, NULL);
}

static inline int gestured_bus_emit_changed(sd_bus *bus, const char *path, const char *interface, const char *property) {
    return sd_bus_emit_properties_changed(bus, path, interface, property, NULL);
}

