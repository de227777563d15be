#pragma once
#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>
#include <linux/uinput.h>
#include <sys/ioctl.h>
#include <errno.h>

/* ioctl is variadic: Swift cannot call it. UI_SET_PHYS, before the device is created;
   0, or -errno as libevdev's calls return it. */
static inline int CEvdev_uinput_set_phys(int fd, const char *phys) {
    return ioctl(fd, UI_SET_PHYS, phys) < 0 ? -errno : 0;
}
