// Linux interfaces Glibc's Swift module leaves out (epoll, timerfd, signalfd), exposed
// as they are (see swift-nio's CNIOLinux).
#pragma once
#include <signal.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>

