/* The bound command of the latency benchmark: its first instruction appends the
 * monotonic clock (ns) and its label to a file, so the time from the frame that ended
 * a gesture to the command running is measured from outside. stamp FILE LABEL */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (argc < 3) return 2;
    char line[128];
    int n = snprintf(line, sizeof line, "%s %lld\n", argv[2], (long long)now.tv_sec * 1000000000LL + now.tv_nsec);
    int fd = open(argv[1], O_WRONLY | O_APPEND | O_CREAT, 0644);
    if (fd < 0 || write(fd, line, (size_t)n) != n) return 1;
    return close(fd);
}
