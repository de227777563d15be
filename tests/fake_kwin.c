/* A stand-in KWin on a test's session bus: org.kde.KWin's scripting interface as
 * gestured uses it (org.kde.kwin.Scripting's isScriptLoaded and loadScript on /Scripting,
 * org.kde.kwin.Script's run on /Scripting/Script0). It prints "ready" once it owns its
 * name, then a line per call: "isScriptLoaded NAME", "loadScript FILE NAME", "run PATH". */
#include <stdio.h>
#include <string.h>
#include <systemd/sd-bus.h>

static int loaded;

static int is_loaded(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)userdata; (void)error;
    const char *name = NULL;
    if (sd_bus_message_read(m, "s", &name) < 0) return -22;
    printf("isScriptLoaded %s\n", name);
    return sd_bus_reply_method_return(m, "b", loaded);
}

static int load(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)userdata; (void)error;
    const char *file = NULL, *name = NULL;
    if (sd_bus_message_read(m, "ss", &file, &name) < 0) return -22;
    printf("loadScript %s %s\n", file, name);
    loaded = 1;
    return sd_bus_reply_method_return(m, "i", 0);
}

static int run(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)userdata; (void)error;
    printf("run %s\n", sd_bus_message_get_path(m));
    return sd_bus_reply_method_return(m, "");
}

static const sd_bus_vtable scripting[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("isScriptLoaded", "s", "b", is_loaded, 0),
    SD_BUS_METHOD("loadScript", "ss", "i", load, 0),
    SD_BUS_VTABLE_END,
};

static const sd_bus_vtable script[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("run", "", "", run, 0),
    SD_BUS_VTABLE_END,
};

int main(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    sd_bus *bus = NULL;
    if (sd_bus_open_user(&bus) < 0) return 1;
    if (sd_bus_add_object_vtable(bus, NULL, "/Scripting", "org.kde.kwin.Scripting", scripting, NULL) < 0) return 1;
    if (sd_bus_add_object_vtable(bus, NULL, "/Scripting/Script0", "org.kde.kwin.Script", script, NULL) < 0) return 1;
    if (sd_bus_request_name(bus, "org.kde.KWin", 0) < 0) return 1;
    printf("ready\n");
    for (;;) {
        int r = sd_bus_process(bus, NULL);
        if (r < 0) return 1;
        if (r == 0 && sd_bus_wait(bus, (uint64_t)-1) < 0) return 1;
    }
}
