/* gestured-overlay: the session agent's overlay on a Wayland compositor with the layer
 * shell (zwlr_layer_shell_v1: sway, Hyprland, labwc, wayfire, river, KDE Plasma): one
 * surface on the overlay layer over the whole output, an empty input region (every touch
 * and click goes to what is under it), drawn in shared memory. The agent starts it and
 * writes a line per update on its standard input (see Sources/Effects/Overlay/
 * WaylandOverlay.swift), so that libwayland-client is loaded, and a compositor that stalls
 * waited for, in this process and not in the agent's:
 *     COLOUR PROGRESS X Y [X Y]...     fingers down (normalized 0..1), the bar's progress
 *                                      (0..1), the colour as RRGGBB
 *     COLOUR PROGRESS                  the fingers lifted: the trail stays LINGER ms
 * Each finger's trail grows until the fingers lift. Exits 2 when the compositor offers no
 * layer shell, 1 when the connection fails or ends, 0 at the end of its input.
 *
 * The protocol's two interfaces are declared here from their wire signatures
 * (wlr-layer-shell-unstable-v1, version 1 of it is enough): requests and events in their
 * order, each argument's type and interface. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>

extern const struct wl_interface wl_surface_interface, wl_output_interface;
static const struct wl_interface layer_surface_interface;
/* get_popup's argument: never sent, declared so that the request's types are complete. */
static const struct wl_interface popup_interface = { "xdg_popup", 1, 0, NULL, 0, NULL };

static const struct wl_interface *no_types[] = { NULL, NULL, NULL, NULL };
static const struct wl_interface *get_layer_surface_types[] = {
    &layer_surface_interface, &wl_surface_interface, &wl_output_interface, NULL, NULL,
};
static const struct wl_interface *popup_types[] = { &popup_interface };

static const struct wl_message shell_requests[] = {
    { "get_layer_surface", "no?ous", get_layer_surface_types },
};
static const struct wl_interface shell_interface = { "zwlr_layer_shell_v1", 1, 1, shell_requests, 0, NULL };

static const struct wl_message layer_surface_requests[] = {
    { "set_size", "uu", no_types },   { "set_anchor", "u", no_types },
    { "set_exclusive_zone", "i", no_types }, { "set_margin", "iiii", no_types },
    { "set_keyboard_interactivity", "u", no_types }, { "get_popup", "o", popup_types },
    { "ack_configure", "u", no_types }, { "destroy", "", no_types },
};
static const struct wl_message layer_surface_events[] = {
    { "configure", "uuu", no_types },
    { "closed", "", no_types },
};
static const struct wl_interface layer_surface_interface = {
    "zwlr_layer_surface_v1", 1, 8, layer_surface_requests, 2, layer_surface_events,
};

enum { OVERLAY_LAYER = 3, ALL_EDGES = 15, MOST_FINGERS = 10, MOST_POINTS = 512, LINGER_MS = 700, DOT = 8 };

static struct wl_compositor *compositor;
static struct wl_shm *shm;
static struct wl_proxy *shell;
static struct wl_proxy *layer_surface;
static struct wl_surface *surface;
static uint32_t width, height;
static int configured, closed;
/* A rectangle of the surface, [x0, x1) × [y0, y1); empty when x0 >= x1. */
struct box { int x0, y0, x1, y1; };
/* Each buffer, and the box around what is drawn in it (the rest is transparent). A
 * compositor that copies a buffer as it takes it (one that renders on a GPU) lets it go
 * at once, and two are all it needs; one that reads the buffer itself as it renders
 * (pixman) holds the one shown until the next commit is applied, and updates coming
 * faster than it applies commits would wait for it. The third is for that: drawn into
 * only then, so that until then its pages (of a memfd) are never touched. */
enum { BUFFERS = 3 };
static struct buffer { struct wl_buffer *buffer; uint32_t *pixels; int busy; struct box drawn; } buffers[BUFFERS];
/* The buffer the compositor shows (none yet: NULL). */
static struct buffer *shown;
/* The last drawing skipped while the compositor held every buffer: drawn as soon as it
 * lets one go, rather than at the next update (none comes after a lift's hiding). */
static struct { uint32_t colour; double progress; int visible, waiting; } skipped;
static float trails[MOST_FINGERS][MOST_POINTS][2];
static int trail_points[MOST_FINGERS];
static int lifted = 1;
/* An update's colour and the bar's progress. */
struct update { uint32_t colour; double progress; };

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    (void)data;
    if (strcmp(interface, "wl_compositor") == 0) compositor = wl_registry_bind(registry, name, &wl_compositor_interface, version < 4 ? version : 4);
    else if (strcmp(interface, "wl_shm") == 0) shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
    else if (strcmp(interface, "zwlr_layer_shell_v1") == 0) shell = wl_registry_bind(registry, name, &shell_interface, 1);
}
static void global_remove(void *data, struct wl_registry *registry, uint32_t name) { (void)data; (void)registry; (void)name; }
static const struct wl_registry_listener registry_listener = { global, global_remove };

static void buffer_release(void *data, struct wl_buffer *buffer) { (void)buffer; ((struct buffer *)data)->busy = 0; }
static const struct wl_buffer_listener buffer_listener = { buffer_release };

static void make_buffers(void) {
    size_t size = (size_t)width * height * 4;
    if (width > INT32_MAX / 4 || size > INT32_MAX / BUFFERS) {
        fprintf(stderr, "the compositor's output of %ux%u pixels is too large to draw on\n", width, height);
        exit(1);
    }
    int fd = memfd_create("gestured-overlay", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, (off_t)(size * BUFFERS)) < 0) exit(1);
    uint8_t *memory = mmap(NULL, size * BUFFERS, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (memory == MAP_FAILED) exit(1);
    struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, (int32_t)(size * BUFFERS));
    for (int i = 0; i < BUFFERS; i++) {
        buffers[i].buffer = wl_shm_pool_create_buffer(pool, (int32_t)(size * i), (int32_t)width, (int32_t)height, (int32_t)width * 4,
                                                      WL_SHM_FORMAT_ARGB8888);
        buffers[i].pixels = (uint32_t *)(memory + size * i);
        wl_buffer_add_listener(buffers[i].buffer, &buffer_listener, &buffers[i]);
    }
    wl_shm_pool_destroy(pool);
    close(fd);
}

static void configure(void *data, struct wl_proxy *proxy, uint32_t serial, uint32_t w, uint32_t h) {
    (void)data;
    wl_proxy_marshal(proxy, 6, serial);  /* ack_configure */
    if (!configured && w > 0 && h > 0) {
        width = w;
        height = h;
        make_buffers();
    }
    configured = 1;
}
static void layer_closed(void *data, struct wl_proxy *proxy) { (void)data; (void)proxy; closed = 1; }
static const struct { void (*configure)(void *, struct wl_proxy *, uint32_t, uint32_t, uint32_t); void (*closed)(void *, struct wl_proxy *); }
    layer_surface_listener = { configure, layer_closed };

/* `box` grown to hold [x0, x1) × [y0, y1), clipped to the surface. */
static void grow(struct box *box, int x0, int y0, int x1, int y1) {
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > (int)width) x1 = (int)width;
    if (y1 > (int)height) y1 = (int)height;
    if (x0 >= x1 || y0 >= y1) return;
    if (box->x0 >= box->x1) { *box = (struct box){ x0, y0, x1, y1 }; return; }
    if (x0 < box->x0) box->x0 = x0;
    if (y0 < box->y0) box->y0 = y0;
    if (x1 > box->x1) box->x1 = x1;
    if (y1 > box->y1) box->y1 = y1;
}

static void dot(uint32_t *pixels, struct box *drawn, int cx, int cy, uint32_t colour) {
    for (int y = cy - DOT / 2; y < cy + DOT / 2; y++)
        for (int x = cx - DOT / 2; x < cx + DOT / 2; x++)
            if (x >= 0 && y >= 0 && (uint32_t)x < width && (uint32_t)y < height) pixels[(size_t)y * width + (size_t)x] = colour;
    grow(drawn, cx - DOT / 2, cy - DOT / 2, cx + DOT / 2, cy + DOT / 2);
}

/* The trails and the bar, in `colour` (opaque), on a transparent surface; nothing at all
 * when `visible` is 0. A frame with every buffer still held by the compositor waits
 * (`skipped`) for one to be let go, a later update replacing it. Only what changed is touched: the
 * buffer's old drawing is cleared, not the whole buffer, and the compositor told of the
 * boxes around what it shows and what replaces it (a whole screen cleared and composited
 * at every update costs a kiosk's 4K panel hundreds of megabytes a second). */
static void draw(uint32_t colour, double progress, int visible) {
    if (!configured || !buffers[0].buffer) return;
    struct buffer *b = NULL;
    for (int i = 0; i < BUFFERS && !b; i++)
        if (!buffers[i].busy) b = &buffers[i];
    if (!b) {
        skipped.colour = colour, skipped.progress = progress, skipped.visible = visible, skipped.waiting = 1;
        return;
    }
    skipped.waiting = 0;
    for (int y = b->drawn.y0; y < b->drawn.y1; y++)
        memset(b->pixels + (size_t)y * width + (size_t)b->drawn.x0, 0, (size_t)(b->drawn.x1 - b->drawn.x0) * 4);
    struct box drawn = { 0, 0, 0, 0 };
    if (visible) {
        uint32_t argb = 0xff000000u | colour;
        for (int f = 0; f < MOST_FINGERS; f++) {
            for (int i = 0; i < trail_points[f]; i++) {
                float x = trails[f][i][0] * (float)width, y = trails[f][i][1] * (float)height;
                if (i > 0) {
                    float px = trails[f][i - 1][0] * (float)width, py = trails[f][i - 1][1] * (float)height;
                    int steps = (int)(fabsf(x - px) + fabsf(y - py)) / (DOT / 2) + 1;
                    if (steps > 64) steps = 64;
                    for (int s = 1; s <= steps; s++) dot(b->pixels, &drawn, (int)(px + (x - px) * s / steps), (int)(py + (y - py) * s / steps), argb);
                } else {
                    dot(b->pixels, &drawn, (int)x, (int)y, argb);
                }
            }
        }
        int bar = (int)(300 * (progress < 0 ? 0 : progress > 1 ? 1 : progress)) + 1;
        for (int y = 16; y < 26 && (uint32_t)y < height; y++)
            for (int x = 0; x < bar; x++) {
                int px = (int)width / 2 - 150 + x;
                if (px >= 0 && (uint32_t)px < width) b->pixels[(size_t)y * width + (size_t)px] = argb;
            }
        grow(&drawn, (int)width / 2 - 150, 16, (int)width / 2 - 150 + bar, 26);
    }
    /* What changed since the buffer shown: its drawing and this one's; the first, all. */
    struct box damage = shown ? shown->drawn : (struct box){ 0, 0, (int)width, (int)height };
    grow(&damage, drawn.x0, drawn.y0, drawn.x1, drawn.y1);
    wl_surface_attach(surface, b->buffer, 0, 0);
    if (damage.x0 < damage.x1) wl_surface_damage(surface, damage.x0, damage.y0, damage.x1 - damage.x0, damage.y1 - damage.y0);
    wl_surface_commit(surface);
    b->busy = 1;
    b->drawn = drawn;
    shown = b;
}

static int64_t now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* One update from the agent, into the trails and `latest`: drawn once the lines read
 * together are all taken (drawing each would spend a buffer on a frame never seen). */
static int take(char *line, int64_t *hide_at, struct update *latest) {
    unsigned int colour;
    double progress;
    int used = 0;
    if (sscanf(line, "%6x %lf%n", &colour, &progress, &used) != 2) return 0;
    char *rest = line + used;
    double x, y;
    int fingers = 0, n;
    if (lifted) memset(trail_points, 0, sizeof trail_points);
    while (fingers < MOST_FINGERS && sscanf(rest, " %lf %lf%n", &x, &y, &n) == 2) {
        if (trail_points[fingers] == MOST_POINTS) {
            memmove(trails[fingers], trails[fingers] + 1, sizeof trails[fingers] - sizeof trails[fingers][0]);
            trail_points[fingers]--;
        }
        trails[fingers][trail_points[fingers]][0] = (float)x;
        trails[fingers][trail_points[fingers]][1] = (float)y;
        trail_points[fingers]++;
        fingers++;
        rest += n;
    }
    lifted = fingers == 0;
    *hide_at = lifted ? now_ms() + LINGER_MS : -1;
    *latest = (struct update){ colour, progress };
    return 1;
}

int main(void) {
    struct wl_display *display = wl_display_connect(NULL);
    if (!display) { fprintf(stderr, "cannot connect to the Wayland display\n"); return 1; }
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    if (wl_display_roundtrip(display) < 0) return 1;
    if (!compositor || !shm || !shell) { fprintf(stderr, "the compositor offers no layer shell (zwlr_layer_shell_v1)\n"); return 2; }
    surface = wl_compositor_create_surface(compositor);
    struct wl_region *nothing = wl_compositor_create_region(compositor);
    wl_surface_set_input_region(surface, nothing);
    wl_region_destroy(nothing);
    layer_surface = wl_proxy_marshal_constructor(shell, 0, &layer_surface_interface, NULL, surface, NULL, OVERLAY_LAYER, "gestured-overlay");
    wl_proxy_add_listener(layer_surface, (void (**)(void))&layer_surface_listener, NULL);
    wl_proxy_marshal(layer_surface, 1, ALL_EDGES);   /* set_anchor: the whole output */
    wl_proxy_marshal(layer_surface, 0, 0, 0);        /* set_size: the compositor's */
    wl_proxy_marshal(layer_surface, 2, -1);          /* set_exclusive_zone: over panels too */
    wl_proxy_marshal(layer_surface, 4, 0);           /* set_keyboard_interactivity: none */
    wl_surface_commit(surface);
    if (wl_display_roundtrip(display) < 0) return 1;

    char line[4096];
    size_t have = 0;
    int64_t hide_at = -1;
    struct pollfd fds[2] = { { .fd = STDIN_FILENO, .events = POLLIN }, { .fd = wl_display_get_fd(display), .events = POLLIN } };
    while (!closed) {
        while (wl_display_prepare_read(display) != 0) wl_display_dispatch_pending(display);
        wl_display_flush(display);
        int timeout = hide_at < 0 ? -1 : (int)(hide_at - now_ms() > 0 ? hide_at - now_ms() : 0);
        int ready = poll(fds, 2, timeout);
        if (ready < 0 && errno != EINTR) { wl_display_cancel_read(display); return 1; }
        if (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) {
            if (wl_display_read_events(display) < 0) return 1;
        } else {
            wl_display_cancel_read(display);
        }
        if (wl_display_dispatch_pending(display) < 0) return 1;
        struct update latest = { 0, 0 };
        int taken = 0;
        if (fds[0].revents & (POLLIN | POLLHUP)) {
            ssize_t n = read(STDIN_FILENO, line + have, sizeof line - 1 - have);
            if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) return 0;
            if (n > 0) have += (size_t)n;
            char *start = line, *end;
            while ((end = memchr(start, '\n', have - (size_t)(start - line)))) {
                *end = '\0';
                taken |= take(start, &hide_at, &latest);
                start = end + 1;
            }
            have -= (size_t)(start - line);
            memmove(line, start, have);
            if (have == sizeof line - 1) have = 0;  /* a line too long: dropped */
        }
        /* One drawing an iteration, the newest: the hiding is due only when no update came
         * since the lift, and either replaces a drawing still waiting for a buffer. */
        if (hide_at >= 0 && now_ms() >= hide_at) {
            hide_at = -1;
            draw(0, 0, 0);
        } else if (taken) {
            draw(latest.colour, latest.progress, 1);
        } else if (skipped.waiting) {
            draw(skipped.colour, skipped.progress, skipped.visible);
        }
    }
    return 1;
}
