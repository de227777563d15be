#define _GNU_SOURCE
#include "CXcb.h"
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>

static struct {
    xcb_connection_t *(*connect)(const char *, int *);
    int (*connection_has_error)(xcb_connection_t *);
    int (*get_file_descriptor)(xcb_connection_t *);
    const xcb_setup_t *(*get_setup)(xcb_connection_t *);
    xcb_screen_iterator_t (*setup_roots_iterator)(const xcb_setup_t *);
    void (*disconnect)(xcb_connection_t *);
    int (*flush)(xcb_connection_t *);
    xcb_intern_atom_cookie_t (*intern_atom)(xcb_connection_t *, uint8_t, uint16_t, const char *);
    xcb_get_property_cookie_t (*get_property)(xcb_connection_t *, uint8_t, xcb_window_t, xcb_atom_t, xcb_atom_t, uint32_t, uint32_t);
    xcb_void_cookie_t (*change_window_attributes)(xcb_connection_t *, xcb_window_t, uint32_t, const void *);
    int (*poll_for_reply)(xcb_connection_t *, unsigned int, void **, xcb_generic_error_t **);
    xcb_generic_event_t *(*poll_for_event)(xcb_connection_t *);
    xcb_generic_event_t *(*poll_for_queued_event)(xcb_connection_t *);
    uint64_t (*total_read)(xcb_connection_t *);
    void *(*get_property_value)(const xcb_get_property_reply_t *);
    int (*get_property_value_length)(const xcb_get_property_reply_t *);
    xcb_query_tree_cookie_t (*query_tree)(xcb_connection_t *, xcb_window_t);
    xcb_window_t *(*query_tree_children)(const xcb_query_tree_reply_t *);
    int (*query_tree_children_length)(const xcb_query_tree_reply_t *);
    xcb_get_geometry_cookie_t (*get_geometry)(xcb_connection_t *, xcb_drawable_t);
    xcb_get_window_attributes_cookie_t (*get_window_attributes)(xcb_connection_t *, xcb_window_t);
    uint32_t (*generate_id)(xcb_connection_t *);
    xcb_void_cookie_t (*create_window)(xcb_connection_t *, uint8_t, xcb_window_t, xcb_window_t, int16_t, int16_t, uint16_t,
                                       uint16_t, uint16_t, uint16_t, xcb_visualid_t, uint32_t, const void *);
    xcb_void_cookie_t (*map_window)(xcb_connection_t *, xcb_window_t);
    xcb_void_cookie_t (*unmap_window)(xcb_connection_t *, xcb_window_t);
    xcb_void_cookie_t (*clear_area)(xcb_connection_t *, uint8_t, xcb_window_t, int16_t, int16_t, uint16_t, uint16_t);
    xcb_void_cookie_t (*configure_window)(xcb_connection_t *, xcb_window_t, uint16_t, const void *);
} xcb;

// libxcb-shape's one call, declared here: its -dev package is not needed to build.
static xcb_void_cookie_t (*shape_rectangles)(xcb_connection_t *, uint8_t operation, uint8_t kind, uint8_t ordering,
                                             xcb_window_t, int16_t, int16_t, uint32_t, const xcb_rectangle_t *);

static int loaded;

int gestured_xcb_load(const char **why) {
    if (loaded) return 0;
    void *library = dlopen("libxcb.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) { *why = dlerror(); return -1; }
#define FIND(field, name) if (!(*(void **)&xcb.field = dlsym(library, name))) { *why = dlerror(); dlclose(library); return -1; }
    FIND(connect, "xcb_connect")
    FIND(connection_has_error, "xcb_connection_has_error")
    FIND(get_file_descriptor, "xcb_get_file_descriptor")
    FIND(get_setup, "xcb_get_setup")
    FIND(setup_roots_iterator, "xcb_setup_roots_iterator")
    FIND(disconnect, "xcb_disconnect")
    FIND(flush, "xcb_flush")
    FIND(intern_atom, "xcb_intern_atom")
    FIND(get_property, "xcb_get_property")
    FIND(change_window_attributes, "xcb_change_window_attributes")
    FIND(poll_for_reply, "xcb_poll_for_reply")
    FIND(poll_for_event, "xcb_poll_for_event")
    FIND(poll_for_queued_event, "xcb_poll_for_queued_event")
    FIND(total_read, "xcb_total_read")
    FIND(get_property_value, "xcb_get_property_value")
    FIND(get_property_value_length, "xcb_get_property_value_length")
    FIND(query_tree, "xcb_query_tree")
    FIND(query_tree_children, "xcb_query_tree_children")
    FIND(query_tree_children_length, "xcb_query_tree_children_length")
    FIND(get_geometry, "xcb_get_geometry")
    FIND(get_window_attributes, "xcb_get_window_attributes")
    FIND(generate_id, "xcb_generate_id")
    FIND(create_window, "xcb_create_window")
    FIND(map_window, "xcb_map_window")
    FIND(unmap_window, "xcb_unmap_window")
    FIND(clear_area, "xcb_clear_area")
    FIND(configure_window, "xcb_configure_window")
#undef FIND
    loaded = 1;
    return 0;
}

struct attempt {
    char *display;
    int fd;
};

static void *connect_thread(void *argument) {
    struct attempt *attempt = argument;
    xcb_connection_t *c = xcb.connect(attempt->display, NULL);
    // A write of a pointer to a pipe is atomic; the reader closes its end after it.
    if (write(attempt->fd, &c, sizeof c) != sizeof c) xcb.disconnect(c);
    close(attempt->fd);
    free(attempt->display);
    free(attempt);
    return NULL;
}

int gestured_xcb_connect_async(const char *display) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) < 0) return -1;
    struct attempt *attempt = calloc(1, sizeof *attempt);
    if (!attempt) { close(fds[0]); close(fds[1]); errno = ENOMEM; return -1; }
    attempt->display = display ? strdup(display) : NULL;
    attempt->fd = fds[1];
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_t thread;
    int rc = pthread_create(&thread, &attributes, connect_thread, attempt);
    pthread_attr_destroy(&attributes);
    if (rc != 0) {
        free(attempt->display); free(attempt); close(fds[0]); close(fds[1]);
        errno = rc;
        return -1;
    }
    return fds[0];
}

xcb_connection_t *gestured_xcb_connected(int fd) {
    xcb_connection_t *c = NULL;
    ssize_t n = read(fd, &c, sizeof c);
    close(fd);
    return n == sizeof c ? c : NULL;
}

int gestured_xcb_has_error(xcb_connection_t *c) { return xcb.connection_has_error(c); }
int gestured_xcb_fd(xcb_connection_t *c) { return xcb.get_file_descriptor(c); }
void gestured_xcb_disconnect(xcb_connection_t *c) { xcb.disconnect(c); }
int gestured_xcb_flush(xcb_connection_t *c) { return xcb.flush(c); }

xcb_window_t gestured_xcb_root(xcb_connection_t *c, uint16_t *width, uint16_t *height) {
    xcb_screen_iterator_t screens = xcb.setup_roots_iterator(xcb.get_setup(c));
    if (screens.rem <= 0) return 0;
    *width = screens.data->width_in_pixels;
    *height = screens.data->height_in_pixels;
    return screens.data->root;
}

unsigned int gestured_xcb_intern_atom(xcb_connection_t *c, const char *name) {
    return xcb.intern_atom(c, 0, (uint16_t)strlen(name), name).sequence;
}

unsigned int gestured_xcb_get_property(xcb_connection_t *c, xcb_window_t window, xcb_atom_t property, uint32_t longs) {
    return xcb.get_property(c, 0, window, property, XCB_GET_PROPERTY_TYPE_ANY, 0, longs).sequence;
}

unsigned int gestured_xcb_select_root_events(xcb_connection_t *c, xcb_window_t root) {
    uint32_t mask = XCB_EVENT_MASK_PROPERTY_CHANGE | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY;
    return xcb.change_window_attributes(c, root, XCB_CW_EVENT_MASK, &mask).sequence;
}

unsigned int gestured_xcb_select_destroy(xcb_connection_t *c, xcb_window_t window, int watch) {
    uint32_t mask = watch ? XCB_EVENT_MASK_STRUCTURE_NOTIFY : XCB_EVENT_MASK_NO_EVENT;
    return xcb.change_window_attributes(c, window, XCB_CW_EVENT_MASK, &mask).sequence;
}

unsigned int gestured_xcb_query_tree(xcb_connection_t *c, xcb_window_t window) { return xcb.query_tree(c, window).sequence; }

const xcb_window_t *gestured_xcb_tree_children(xcb_query_tree_reply_t *reply, int *count) {
    *count = xcb.query_tree_children_length(reply);
    return xcb.query_tree_children(reply);
}

unsigned int gestured_xcb_get_geometry(xcb_connection_t *c, xcb_window_t window) { return xcb.get_geometry(c, window).sequence; }

unsigned int gestured_xcb_get_window_attributes(xcb_connection_t *c, xcb_window_t window) {
    return xcb.get_window_attributes(c, window).sequence;
}

int gestured_xcb_poll_for_reply(xcb_connection_t *c, unsigned int sequence, void **reply) {
    xcb_generic_error_t *error = NULL;
    *reply = NULL;
    int done = xcb.poll_for_reply(c, sequence, reply, &error);
    free(error);
    return done;
}

xcb_generic_event_t *gestured_xcb_poll_for_event(xcb_connection_t *c) { return xcb.poll_for_event(c); }

xcb_generic_event_t *gestured_xcb_poll_for_queued_event(xcb_connection_t *c) { return xcb.poll_for_queued_event(c); }

uint64_t gestured_xcb_total_read(xcb_connection_t *c) { return xcb.total_read(c); }

const void *gestured_xcb_property_value(xcb_get_property_reply_t *reply, int *length) {
    *length = xcb.get_property_value_length(reply);
    return xcb.get_property_value(reply);
}

int gestured_xcb_load_shape(const char **why) {
    if (shape_rectangles) return 0;
    void *library = dlopen("libxcb-shape.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) { *why = dlerror(); return -1; }
    if (!(*(void **)&shape_rectangles = dlsym(library, "xcb_shape_rectangles"))) { *why = dlerror(); dlclose(library); return -1; }
    return 0;
}

enum { SHAPE_SET = 0, SHAPE_BOUNDING = 0, SHAPE_INPUT = 2 };

xcb_window_t gestured_xcb_overlay_create(xcb_connection_t *c, uint32_t pixel) {
    xcb_screen_iterator_t screens = xcb.setup_roots_iterator(xcb.get_setup(c));
    if (screens.rem <= 0 || !shape_rectangles) return 0;
    xcb_screen_t *screen = screens.data;
    xcb_window_t window = xcb.generate_id(c);
    uint32_t values[] = {pixel, 1};
    xcb.create_window(c, XCB_COPY_FROM_PARENT, window, screen->root, 0, 0, screen->width_in_pixels, screen->height_in_pixels, 0,
                      XCB_WINDOW_CLASS_INPUT_OUTPUT, XCB_COPY_FROM_PARENT, XCB_CW_BACK_PIXEL | XCB_CW_OVERRIDE_REDIRECT, values);
    shape_rectangles(c, SHAPE_SET, SHAPE_INPUT, 0, window, 0, 0, 0, NULL);
    shape_rectangles(c, SHAPE_SET, SHAPE_BOUNDING, 0, window, 0, 0, 0, NULL);
    return window;
}

void gestured_xcb_overlay_show(xcb_connection_t *c, xcb_window_t window, uint32_t pixel, const xcb_rectangle_t *rects, uint32_t count) {
    xcb.change_window_attributes(c, window, XCB_CW_BACK_PIXEL, &pixel);
    shape_rectangles(c, SHAPE_SET, SHAPE_BOUNDING, 0, window, 0, 0, count, rects);
    uint32_t above = XCB_STACK_MODE_ABOVE;
    xcb.configure_window(c, window, XCB_CONFIG_WINDOW_STACK_MODE, &above);
    xcb.map_window(c, window);
    xcb.clear_area(c, 0, window, 0, 0, 0, 0);
}

void gestured_xcb_overlay_hide(xcb_connection_t *c, xcb_window_t window) {
    xcb.unmap_window(c, window);
    shape_rectangles(c, SHAPE_SET, SHAPE_BOUNDING, 0, window, 0, 0, 0, NULL);
}
