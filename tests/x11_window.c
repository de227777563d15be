/* What a window manager does to a window, for a test on a display without one:
 *   x11_window WINDOW move X Y     moves it (and raises it to the top)
 *   x11_window WINDOW lower        puts it at the bottom of the stack
 * WINDOW as xwininfo prints it (0x...); the display is $DISPLAY. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xcb/xcb.h>

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: x11_window WINDOW move X Y | lower\n");
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
    } else {
        return 2;
    }
    /* A round trip: the request is done when this returns. */
    free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL));
    xcb_disconnect(c);
    return 0;
}
