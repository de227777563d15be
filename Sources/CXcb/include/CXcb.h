// libxcb for following X11's active window and for the session agent's overlay, opened
// with dlopen only when an X display is followed or drawn on: a daemon on a kiosk without
// X, or in a Wayland session, never loads it.
// The calls go through a table filled once (gestured_xcb_load). xcb_connect's handshake
// is the one call libxcb only makes blocking: it runs on a thread of its own, which
// writes the connection to a pipe the loop watches, so that an X server that never
// answers holds up that thread and nothing else.
#pragma once
#include <stdint.h>
#include <xcb/xcb.h>

// 0 once libxcb.so.1 and every function are there; -1 otherwise, with dlerror's words in `why`.
int gestured_xcb_load(const char **why);

// Starts connecting to `display` (NULL: $DISPLAY); the descriptor to watch, readable
// once the attempt is over (then gestured_xcb_connected), or -1 with errno.
int gestured_xcb_connect_async(const char *display);
// The attempt's outcome, read from its descriptor (closed here): a connection, or NULL.
xcb_connection_t *gestured_xcb_connected(int fd);

int gestured_xcb_has_error(xcb_connection_t *c);
int gestured_xcb_fd(xcb_connection_t *c);
// The first screen's root window, and its size in pixels.
xcb_window_t gestured_xcb_root(xcb_connection_t *c, uint16_t *width, uint16_t *height);
void gestured_xcb_disconnect(xcb_connection_t *c);
int gestured_xcb_flush(xcb_connection_t *c);
unsigned int gestured_xcb_intern_atom(xcb_connection_t *c, const char *name);
unsigned int gestured_xcb_get_property(xcb_connection_t *c, xcb_window_t window, xcb_atom_t property, uint32_t longs);
// The root's property changes, and its children mapped, unmapped, moved and restacked.
unsigned int gestured_xcb_select_root_events(xcb_connection_t *c, xcb_window_t root);
// Another client's window: its own structure events (DestroyNotify) come to this
// connection, or (watch 0) no longer do.
unsigned int gestured_xcb_select_destroy(xcb_connection_t *c, xcb_window_t window, int watch);
unsigned int gestured_xcb_query_tree(xcb_connection_t *c, xcb_window_t window);
// A QueryTree reply's children, bottom of the stack first.
const xcb_window_t *gestured_xcb_tree_children(xcb_query_tree_reply_t *reply, int *count);
unsigned int gestured_xcb_get_geometry(xcb_connection_t *c, xcb_window_t window);
unsigned int gestured_xcb_get_window_attributes(xcb_connection_t *c, xcb_window_t window);
// 1 with the reply (free it) or an error (NULL reply), 0 when not there yet.
int gestured_xcb_poll_for_reply(xcb_connection_t *c, unsigned int sequence, void **reply);
xcb_generic_event_t *gestured_xcb_poll_for_event(xcb_connection_t *c);
// An event libxcb has already read, without reading the socket; NULL when none.
xcb_generic_event_t *gestured_xcb_poll_for_queued_event(xcb_connection_t *c);
// Bytes read from the server so far: what a reply's poll or a flush read shows here.
uint64_t gestured_xcb_total_read(xcb_connection_t *c);
// A GetProperty reply's value and its length in bytes.
const void *gestured_xcb_property_value(xcb_get_property_reply_t *reply, int *length);

// The overlay (the session agent's, `overlay = true`): an override-redirect window over
// the first screen that takes no input (an empty input shape) and shows only what its
// bounding shape says, painted one colour: drawn without a compositor. libxcb-shape is
// opened when the first overlay is made (0, or -1 with dlerror's words in `why`).
int gestured_xcb_load_shape(const char **why);
// The window, hidden; 0 when the screen or the shape extension is missing.
xcb_window_t gestured_xcb_overlay_create(xcb_connection_t *c, uint32_t pixel);
// Shows these rectangles of it, in `pixel` (0xRRGGBB), above every other window.
void gestured_xcb_overlay_show(xcb_connection_t *c, xcb_window_t window, uint32_t pixel, const xcb_rectangle_t *rects, uint32_t count);
void gestured_xcb_overlay_hide(xcb_connection_t *c, xcb_window_t window);
