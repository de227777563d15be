"""What a DRM card is showing, read from the buffer its first lit CRTC scans out (root may
map another process's framebuffer: DRM_IOCTL_MODE_GETFB gives it a handle, MAP_DUMB an
offset to map), as the screen's rows of RGB; saved as a PNG to be looked at. For a desktop
session on the VM's virtio-gpu card, whose buffers are dumb buffers (software rendering)."""
import ctypes, fcntl, mmap, os, struct, zlib


def _iowr(number, size):
    return (3 << 30) | (size << 16) | (ord("d") << 8) | number


GETRESOURCES = _iowr(0xA0, 64)
GETCRTC = _iowr(0xA1, 104)
GETFB = _iowr(0xAD, 28)
MAP_DUMB = _iowr(0xB3, 16)


def scanout(path, card="/dev/dri/card0"):
    """The screen's (width, height, rows of RGB bytes), also written as a PNG to `path`;
    None while no CRTC shows a framebuffer."""
    fd = os.open(card, os.O_RDWR)
    try:
        crtcs = struct.unpack("4Q4I4I", fcntl.ioctl(fd, GETRESOURCES, bytes(64)))[5]
        ids = (ctypes.c_uint32 * max(crtcs, 1))()
        fcntl.ioctl(fd, GETRESOURCES, struct.pack("4Q4I4I", 0, ctypes.addressof(ids), 0, 0, 0, crtcs, 0, 0, 0, 0, 0, 0))
        for crtc in ids[:crtcs]:
            answer = fcntl.ioctl(fd, GETCRTC, struct.pack("QII", 0, 0, crtc) + bytes(104 - 16))
            framebuffer = struct.unpack_from("I", answer, 16)[0]
            if framebuffer:
                return _read(fd, framebuffer, path)
        return None
    finally:
        os.close(fd)


def _read(fd, framebuffer, path):
    _, width, height, pitch, bpp, _, handle = struct.unpack("7I", fcntl.ioctl(fd, GETFB, struct.pack("7I", framebuffer, 0, 0, 0, 0, 0, 0)))
    offset = struct.unpack("IIQ", fcntl.ioctl(fd, MAP_DUMB, struct.pack("IIQ", handle, 0, 0)))[2]
    with mmap.mmap(fd, pitch * height, mmap.MAP_SHARED, mmap.PROT_READ, offset=offset) as pixels:
        data = pixels[:]
    rows = []
    for y in range(height):
        # XRGB8888: B, G, R, X in memory; slices keep the copying in C (the VM emulates the CPU).
        line, row = data[y * pitch:y * pitch + 4 * width], bytearray(3 * width)
        row[0::3], row[1::3], row[2::3] = line[2::4], line[1::4], line[0::4]
        rows.append(bytes(row))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(b"".join(b"\0" + row for row in rows))) + chunk(b"IEND", b""))
    return width, height, rows
