/* What tests/e2e/overlay_service.py looks at the screen with: a window that says whether
 * a click reached it, the click through XTEST (as a pointer would), and the screen's pixels.
 *   x11_probe X Y W H      maps a white window there, prints "ready"; then for each line
 *                          on stdin:
 *     click X Y            moves the pointer there, clicks, and prints "reached" or
 *                          "missed" (the window's ButtonPress within 2 s)
 *     pixel X Y            prints the screen's colour there, as RRGGBB
 * The display is $DISPLAY. libXtst's header is not needed: its two calls are declared here. */
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int XTestFakeMotionEvent(Display *, int screen, int x, int y, unsigned long delay);
int XTestFakeButtonEvent(Display *, unsigned int button, Bool press, unsigned long delay);

int main(int argc, char **argv) {
    if (argc != 5) return 2;
    Display *d = XOpenDisplay(NULL);
    if (!d) return 1;
    Window w = XCreateSimpleWindow(d, DefaultRootWindow(d), atoi(argv[1]), atoi(argv[2]), atoi(argv[3]), atoi(argv[4]), 0, 0,
                                   0xffffff);
    XSetWindowAttributes a = {.override_redirect = True};
    XChangeWindowAttributes(d, w, CWOverrideRedirect, &a);
    XSelectInput(d, w, ButtonPressMask);
    XMapWindow(d, w);
    XSync(d, False);
    printf("ready\n");
    fflush(stdout);
    char line[128];
    while (fgets(line, sizeof line, stdin)) {
        int x, y;
        if (sscanf(line, "pixel %d %d", &x, &y) == 2) {
            XImage *image = XGetImage(d, DefaultRootWindow(d), x, y, 1, 1, AllPlanes, ZPixmap);
            printf("%06lx\n", image ? XGetPixel(image, 0, 0) & 0xffffff : 0);
            if (image) XDestroyImage(image);
            fflush(stdout);
            continue;
        }
        if (sscanf(line, "click %d %d", &x, &y) != 2) continue;
        while (XPending(d)) { XEvent e; XNextEvent(d, &e); }
        XTestFakeMotionEvent(d, -1, x, y, 0);
        XTestFakeButtonEvent(d, 1, True, 0);
        XTestFakeButtonEvent(d, 1, False, 0);
        XSync(d, False);
        int reached = 0;
        struct pollfd p = {.fd = ConnectionNumber(d), .events = POLLIN};
        for (int waited = 0; waited < 20 && !reached; waited++) {
            while (XPending(d)) {
                XEvent e;
                XNextEvent(d, &e);
                if (e.type == ButtonPress && e.xbutton.window == w) reached = 1;
            }
            if (!reached) poll(&p, 1, 100);
        }
        printf("%s\n", reached ? "reached" : "missed");
        fflush(stdout);
    }
    return 0;
}
