// Linux interfaces Glibc's Swift module leaves out (epoll, timerfd, signalfd, the auxiliary
// vector, malloc's settings), exposed
// as they are (see swift-nio's CNIOLinux).
#pragma once
#include <malloc.h>
#include <signal.h>
#include <sys/auxv.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>


// Declared by <unistd.h> only under _GNU_SOURCE, which Swift's Glibc module is not built with.
extern int pipe2(int pipefd[2], int flags);

// posix_spawn's flag for a new session (glibc 2.26), defined under _GNU_SOURCE only.
extern const short CLinux_POSIX_SPAWN_SETSID;

// memfd_create(2) (glibc 2.27), declared under _GNU_SOURCE only: a file in memory that a
// child process can take as its stdin.
extern int memfd_create(const char *name, unsigned int flags);
extern const unsigned int CLinux_MFD_CLOEXEC;

// open(2)'s O_PATH (a handle on a path's last component, a symbolic link included, that
// reads nothing), defined under _GNU_SOURCE only.
extern const int CLinux_O_PATH;

// prctl(2)'s PR_SET_PDEATHSIG with SIGKILL: the calling process dies with its parent
// (prctl is variadic, which Swift does not call).
extern int CLinux_die_with_parent(void);

// ioctl(2)'s TIOCGWINSZ (ioctl is variadic, which Swift does not call): a terminal's rows
// and columns; -1 with errno set when `fd` is no terminal.
extern int CLinux_terminal_size(int fd, unsigned short *rows, unsigned short *columns);
