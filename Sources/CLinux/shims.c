// Built with _GNU_SOURCE, which Swift's Glibc module is not: the GNU extensions the
// header declares are defined from the real macros here.
#define _GNU_SOURCE
#include <spawn.h>
#include <sys/mman.h>
#include <fcntl.h>
#include "CLinux.h"

const short CLinux_POSIX_SPAWN_SETSID = POSIX_SPAWN_SETSID;
const unsigned int CLinux_MFD_CLOEXEC = MFD_CLOEXEC;
const int CLinux_O_PATH = O_PATH;

#include <sys/prctl.h>
int CLinux_die_with_parent(void) { return prctl(PR_SET_PDEATHSIG, SIGKILL); }

#include <sys/ioctl.h>
int CLinux_terminal_size(int fd, unsigned short *rows, unsigned short *columns) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) < 0) return -1;
    *rows = size.ws_row;
    *columns = size.ws_col;
    return 0;
}
