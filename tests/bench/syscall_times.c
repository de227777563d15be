/* Loaded (LD_PRELOAD) into gestured or the twin's floor by tests/bench/vm_frame_time.py,
 * to time what a process does between its system calls while it passes touches through:
 * the monotonic time (ns) of each epoll_wait's return, each read's return (its size) and
 * each write's start (its size; 1 after the size when it is whole input_events ending in
 * a SYN_REPORT, a frame for a twin). Kept in memory, written at exit (or at SIGTERM when
 * SYSCALL_TIMES_ON_TERM is set: the floor is killed) to SYSCALL_TIMES.PID, one line each:
 * "ns kind size [syn]", kind e (epoll), r (read), w (write). Each costs a clock read,
 * the same in both. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <linux/input.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

enum { most = 1 << 18 };
static struct { long long ns; char kind; long size; int syn; } seen[most];
static int count;

static void note(char kind, long size, int syn) {
    if (count == most) return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    seen[count].ns = now.tv_sec * 1000000000LL + now.tv_nsec;
    seen[count].kind = kind;
    seen[count].size = size;
    seen[count].syn = syn;
    count++;
}

static void write_out(void) {
    const char *prefix = getenv("SYSCALL_TIMES");
    if (!prefix) return;
    char path[4096];
    snprintf(path, sizeof path, "%s.%d", prefix, (int)getpid());
    FILE *out = fopen(path, "w");
    if (!out) return;
    for (int i = 0; i < count; i++) fprintf(out, "%lld %c %ld %d\n", seen[i].ns, seen[i].kind, seen[i].size, seen[i].syn);
    fclose(out);
}

static void on_term(int signal) {
    (void)signal;
    write_out();
    _exit(0);
}

__attribute__((constructor)) static void start(void) {
    if (getenv("SYSCALL_TIMES_ON_TERM")) signal(SIGTERM, on_term);
}

__attribute__((destructor)) static void end(void) { write_out(); }

int epoll_wait(int epoll, struct epoll_event *events, int most_events, int timeout) {
    static int (*real)(int, struct epoll_event *, int, int);
    if (!real) real = (int (*)(int, struct epoll_event *, int, int))dlsym(RTLD_NEXT, "epoll_wait");
    int ready = real(epoll, events, most_events, timeout);
    note('e', ready, 0);
    return ready;
}

ssize_t read(int fd, void *buffer, size_t size) {
    static ssize_t (*real)(int, void *, size_t);
    if (!real) real = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
    ssize_t got = real(fd, buffer, size);
    note('r', got, 0);
    return got;
}

ssize_t write(int fd, const void *buffer, size_t size) {
    static ssize_t (*real)(int, const void *, size_t);
    if (!real) real = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
    const struct input_event *events = buffer;
    size_t whole = size / sizeof *events;
    int frame = size > 0 && size % sizeof *events == 0 && events[whole - 1].type == EV_SYN && events[whole - 1].code == SYN_REPORT;
    note('w', (long)size, frame);
    return real(fd, buffer, size);
}
