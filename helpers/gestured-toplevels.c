/* gestured-toplevels: which application is in front of a wlroots compositor (labwc,
 * wayfire, river, sway...), through its zwlr_foreign_toplevel_manager_v1: one line on
 * standard output whenever the activated toplevel changes, its app id (an empty line:
 * none activated). gestured and its session agent start it and read its lines (see
 * Sources/Input/Desktop/ToplevelWatcher.swift), so that libwayland-client is loaded, and a
 * compositor that stalls a round trip waited for, in this process and not in theirs.
 * Exits 2 when the compositor offers no such manager, 1 when the connection fails or
 * ends.
 *
 * The protocol's two interfaces are declared here from their wire signatures
 * (wlr-foreign-toplevel-management-unstable-v1, version 3): requests and events in
 * their order, each argument's type and interface. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wayland-client.h>

extern const struct wl_interface wl_output_interface, wl_seat_interface, wl_surface_interface;
static const struct wl_interface handle_interface;

static const struct wl_interface *no_types[] = { NULL, NULL, NULL, NULL, NULL };
static const struct wl_interface *handle_type[] = { &handle_interface };
static const struct wl_interface *output_type[] = { &wl_output_interface };
static const struct wl_interface *seat_type[] = { &wl_seat_interface };
static const struct wl_interface *rectangle_types[] = { &wl_surface_interface, NULL, NULL, NULL, NULL };

static const struct wl_message manager_requests[] = { { "stop", "", no_types } };
static const struct wl_message manager_events[] = {
    { "toplevel", "n", handle_type },
    { "finished", "", no_types },
};
static const struct wl_interface manager_interface = {
    "zwlr_foreign_toplevel_manager_v1", 3, 1, manager_requests, 2, manager_events,
};

static const struct wl_message handle_requests[] = {
    { "set_maximized", "", no_types }, { "unset_maximized", "", no_types },
    { "set_minimized", "", no_types }, { "unset_minimized", "", no_types },
    { "activate", "o", seat_type }, { "close", "", no_types },
    { "set_rectangle", "oiiii", rectangle_types }, { "destroy", "", no_types },
    { "set_fullscreen", "2?o", output_type }, { "unset_fullscreen", "2", no_types },
};
static const struct wl_message handle_events[] = {
    { "title", "s", no_types }, { "app_id", "s", no_types },
    { "output_enter", "o", output_type }, { "output_leave", "o", output_type },
    { "state", "a", no_types }, { "done", "", no_types }, { "closed", "", no_types },
    { "parent", "3?o", handle_type },
};
static const struct wl_interface handle_interface = {
    "zwlr_foreign_toplevel_handle_v1", 3, 10, handle_requests, 8, handle_events,
};

enum { STATE_ACTIVATED = 2, HANDLE_DESTROY = 7, LONGEST_NAME = 256 };

struct toplevel {
    char app_id[LONGEST_NAME + 1];
    int activated; /* as the last done said */
    int pending_activated;
};

static struct wl_proxy *manager;
static struct toplevel *active;
static char said[LONGEST_NAME + 1];
static int said_any;

/* The app id in front, a line: printable bytes only, so that a line is one app id. */
static void say(const char *app_id) {
    if (said_any && strcmp(said, app_id) == 0) return;
    said_any = 1;
    snprintf(said, sizeof said, "%s", app_id);
    if (!*app_id) {
        puts("none");
    } else {
        fputs("app ", stdout);
        for (const char *c = app_id; *c; c++) putchar((unsigned char)*c < 0x20 || *c == 0x7f ? '?' : *c);
        putchar('\n');
    }
    fflush(stdout);
}

static void title(void *data, struct wl_proxy *handle, const char *title) { (void)data; (void)handle; (void)title; }

static void app_id(void *data, struct wl_proxy *handle, const char *app_id) {
    (void)handle;
    struct toplevel *toplevel = data;
    /* A longer one is no name gestured matches: left empty, not cut. */
    snprintf(toplevel->app_id, sizeof toplevel->app_id, "%s", strlen(app_id) <= LONGEST_NAME ? app_id : "");
}

static void output(void *data, struct wl_proxy *handle, struct wl_proxy *output) { (void)data; (void)handle; (void)output; }

static void state(void *data, struct wl_proxy *handle, struct wl_array *states) {
    (void)handle;
    struct toplevel *toplevel = data;
    toplevel->pending_activated = 0;
    uint32_t *entry;
    wl_array_for_each(entry, states) if (*entry == STATE_ACTIVATED) toplevel->pending_activated = 1;
}

static void done(void *data, struct wl_proxy *handle) {
    (void)handle;
    struct toplevel *toplevel = data;
    toplevel->activated = toplevel->pending_activated;
    if (toplevel->activated) {
        active = toplevel;
        say(toplevel->app_id);
    } else if (active == toplevel) {
        active = NULL;
        say("");
    }
}

static void closed(void *data, struct wl_proxy *handle) {
    struct toplevel *toplevel = data;
    if (active == toplevel) {
        active = NULL;
        say("");
    }
    wl_proxy_marshal_flags(handle, HANDLE_DESTROY, NULL, wl_proxy_get_version(handle), WL_MARSHAL_FLAG_DESTROY);
    free(toplevel);
}

static void parent(void *data, struct wl_proxy *handle, struct wl_proxy *parent) { (void)data; (void)handle; (void)parent; }

static const struct {
    void (*title)(void *, struct wl_proxy *, const char *);
    void (*app_id)(void *, struct wl_proxy *, const char *);
    void (*output_enter)(void *, struct wl_proxy *, struct wl_proxy *);
    void (*output_leave)(void *, struct wl_proxy *, struct wl_proxy *);
    void (*state)(void *, struct wl_proxy *, struct wl_array *);
    void (*done)(void *, struct wl_proxy *);
    void (*closed)(void *, struct wl_proxy *);
    void (*parent)(void *, struct wl_proxy *, struct wl_proxy *);
} handle_listener = { title, app_id, output, output, state, done, closed, parent };

static void new_toplevel(void *data, struct wl_proxy *manager, struct wl_proxy *handle) {
    (void)data; (void)manager;
    struct toplevel *toplevel = calloc(1, sizeof *toplevel);
    if (!toplevel) exit(1);
    wl_proxy_add_listener(handle, (void (**)(void))&handle_listener, toplevel);
}

static void finished(void *data, struct wl_proxy *manager) {
    (void)data; (void)manager;
    fprintf(stderr, "gestured-toplevels: the compositor stopped the toplevel manager\n");
    exit(1);
}

static const struct {
    void (*toplevel)(void *, struct wl_proxy *, struct wl_proxy *);
    void (*finished)(void *, struct wl_proxy *);
} manager_listener = { new_toplevel, finished };

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    (void)data;
    if (strcmp(interface, manager_interface.name) != 0 || manager) return;
    manager = wl_registry_bind(registry, name, &manager_interface, version < 3 ? version : 3);
    wl_proxy_add_listener(manager, (void (**)(void))&manager_listener, NULL);
}

static void global_remove(void *data, struct wl_registry *registry, uint32_t name) { (void)data; (void)registry; (void)name; }

static const struct wl_registry_listener registry_listener = { global, global_remove };

int main(void) {
    struct wl_display *display = wl_display_connect(NULL);
    if (!display) {
        fprintf(stderr, "gestured-toplevels: cannot connect to the Wayland compositor ($WAYLAND_DISPLAY)\n");
        return 1;
    }
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    if (wl_display_roundtrip(display) < 0) return 1;
    if (!manager) {
        fprintf(stderr, "gestured-toplevels: the compositor offers no zwlr_foreign_toplevel_manager_v1\n");
        return 2;
    }
    while (wl_display_dispatch(display) >= 0) {}
    fprintf(stderr, "gestured-toplevels: the Wayland connection ended\n");
    return 1;
}
