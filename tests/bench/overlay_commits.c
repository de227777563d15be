/* Loaded into gestured-overlay (LD_PRELOAD) by tests/bench/vm_overlay.py, to time the
 * layer-shell overlay's commits as the compositor receives them. The overlay draws each
 * update into one of the BUFFERS buffers of one shared-memory pool and commits it; its
 * loop sends what it committed with wl_display_flush. After each flush this writes, to
 * the file OVERLAY_COMMITS, the monotonic time (ns) and the rightmost coloured pixel of
 * row OVERLAY_ROW in the buffers drawn since the last flush (the newest trail's head),
 * when it moved: the frame shown is told by where its dot is, as for X11's damage.
 * OVERLAY_WIDTH is the output's width in pixels. One row of each buffer is read a flush:
 * little beside the drawing it times. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

struct wl_display;

enum { BUFFERS = 3 };  /* helpers/gestured-overlay.c's */

static uint32_t *pool;
static size_t pool_bytes;
static long width, row = -1;
/* Each buffer's head at the last flush: a buffer whose head moved was drawn anew (one
 * not drawn into since may hold an older drag's trail). */
static long heads[BUFFERS] = { -1, -1, -1 };
static FILE *out;

__attribute__((constructor)) static void start(void) {
    const char *path = getenv("OVERLAY_COMMITS"), *w = getenv("OVERLAY_WIDTH"), *r = getenv("OVERLAY_ROW");
    if (!path || !w || !r) return;
    out = fopen(path, "w");
    width = atol(w);
    row = atol(r);
}

/* The overlay's own mmap of its pool (glibc's allocator maps memory without this symbol). */
void *mmap(void *address, size_t length, int protection, int flags, int fd, off_t offset) {
    static void *(*real)(void *, size_t, int, int, int, off_t);
    if (!real) real = (void *(*)(void *, size_t, int, int, int, off_t))dlsym(RTLD_NEXT, "mmap");
    void *mapped = real(address, length, protection, flags, fd, offset);
    if (mapped != MAP_FAILED && fd >= 0 && (flags & MAP_SHARED) && (protection & PROT_WRITE)) {
        pool = mapped;
        pool_bytes = length;
    }
    return mapped;
}

int wl_display_flush(struct wl_display *display) {
    static int (*real)(struct wl_display *);
    if (!real) real = (int (*)(struct wl_display *))dlsym(RTLD_NEXT, "wl_display_flush");
    int sent = real(display);
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    size_t buffer_pixels = pool_bytes / BUFFERS / 4;
    if (!out || !pool || width <= 0 || (size_t)((row + 1) * width) > buffer_pixels) return sent;
    long head = -2;
    for (int b = 0; b < BUFFERS; b++) {
        const uint32_t *line = pool + (size_t)b * buffer_pixels + (size_t)(row * width);
        long x = width - 1;
        while (x >= 0 && !line[x]) x--;
        if (x != heads[b] && x > head) head = x;
        heads[b] = x;
    }
    if (head != -2) {
        fprintf(out, "COMMIT %lld %ld\n", (long long)now.tv_sec * 1000000000LL + now.tv_nsec, head);
        fflush(out);
    }
    return sent;
}
