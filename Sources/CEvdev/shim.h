#pragma once
#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>
#include <linux/uinput.h>
#include <sys/ioctl.h>

/* ioctl is variadic: Swift cannot call it. UI_SET_PHYS, before the device is created. */
static inline int CEvdev_uinput_set_phys(int fd, const char *phys) {
    return ioctl(fd, UI_SET_PHYS, phys);
}
