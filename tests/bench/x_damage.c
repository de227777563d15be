/* What a compositor sees of the overlay: the X server's damage on the root window, as
 * raw rectangles (XDamage, as x11vnc and compositing managers follow a screen), each
 * printed as "DAMAGE RECEIVED X Y WIDTH HEIGHT" with when it was read (CLOCK_MONOTONIC,
 * ns, at once). Prints "ready" once it follows the screen; runs until killed.
 *   x_damage                                   (on $DISPLAY; line-buffered on stdout) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <xcb/damage.h>
#include <xcb/xcb.h>

int main(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    xcb_connection_t *c = xcb_connect(NULL, NULL);
    if (xcb_connection_has_error(c)) {
        fprintf(stderr, "x_damage: cannot connect to $DISPLAY\n");
        return 1;
    }
    const xcb_query_extension_reply_t *damage = xcb_get_extension_data(c, &xcb_damage_id);
    if (!damage || !damage->present) {
        fprintf(stderr, "x_damage: no DAMAGE extension\n");
        return 1;
    }
    free(xcb_damage_query_version_reply(c, xcb_damage_query_version(c, 1, 1), NULL));
    xcb_window_t root = xcb_setup_roots_iterator(xcb_get_setup(c)).data->root;
    xcb_damage_create(c, xcb_generate_id(c), root, XCB_DAMAGE_REPORT_LEVEL_RAW_RECTANGLES);
    free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL));
    printf("ready\n");
    xcb_generic_event_t *event;
    while ((event = xcb_wait_for_event(c))) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((event->response_type & 0x7f) == damage->first_event + XCB_DAMAGE_NOTIFY) {
            xcb_damage_notify_event_t *notify = (xcb_damage_notify_event_t *)event;
            printf("DAMAGE %lld %d %d %u %u\n", (long long)now.tv_sec * 1000000000LL + now.tv_nsec, notify->area.x,
                   notify->area.y, notify->area.width, notify->area.height);
        }
        free(event);
    }
    return 0;
}
