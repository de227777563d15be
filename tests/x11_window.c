/* What a window manager does to a window, for a test on a display without one; or, on a
 * display with one, what is asked of it:
 *   x11_window WINDOW move X Y     moves it (and raises it to the top)
 *   x11_window WINDOW lower        puts it at the bottom of the stack
 *   x11_window WINDOW activate     asks the window manager to make it the active window
 *                                  (a _NET_ACTIVE_WINDOW message to the root, as a pager sends)
 * WINDOW as xwininfo prints it (0x...); the display is $DISPLAY. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xcb/xcb.h>

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: x11_window WINDOW move X Y | lower | activate\n");
        return 2;
    }
    xcb_connection_t *c = xcb_connect(NULL, NULL);
    if (xcb_connection_has_error(c)) return 1;
    xcb_window_t window = (xcb_window_t)strtoul(argv[1], NULL, 0);
    if (strcmp(argv[2], "move") == 0 && argc == 5) {
        uint32_t values[] = {(uint32_t)atoi(argv[3]), (uint32_t)atoi(argv[4]), XCB_STACK_MODE_ABOVE};
        xcb_configure_window(c, window, XCB_CONFIG_WINDOW_X | XCB_CONFIG_WINDOW_Y | XCB_CONFIG_WINDOW_STACK_MODE, values);
    } else if (strcmp(argv[2], "lower") == 0) {
        uint32_t values[] = {XCB_STACK_MODE_BELOW};
        xcb_configure_window(c, window, XCB_CONFIG_WINDOW_STACK_MODE, values);
    } else if (strcmp(argv[2], "activate") == 0) {
        const char *name = "_NET_ACTIVE_WINDOW";
        xcb_intern_atom_reply_t *atom = xcb_intern_atom_reply(c, xcb_intern_atom(c, 0, strlen(name), name), NULL);
        if (!atom) return 1;
        xcb_client_message_event_t event = {0};
        event.response_type = XCB_CLIENT_MESSAGE;
        event.format = 32;
        event.window = window;
        event.type = atom->atom;
        event.data.data32[0] = 2; /* from a pager: the user asked */
        xcb_window_t root = xcb_setup_roots_iterator(xcb_get_setup(c)).data->root;
        xcb_send_event(c, 0, root, XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY, (const char *)&event);
        free(atom);
    } else {
        return 2;
    }
    /* A round trip: the request is done when this returns. */
    free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL));
    xcb_disconnect(c);
    return 0;
}
