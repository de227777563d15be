"""Recordings the daemon tests generate: evemu files of a 13.3" panel (3840x2160, 13 units
per mm) with touches placed in millimetres, at 100 frames a second."""

HEADER = """# EVEMU 1.3
N: gestured test panel
I: 0018 0000 0000 0000
P: 02 00 00 00 00 00 00 00
A: 00 0 3839 0 0 13
A: 01 0 2159 0 0 13
A: 2f 0 9 0 0 0
A: 35 0 3839 0 0 13
A: 36 0 2159 0 0 13
A: 39 0 65535 0 0 0
"""

class Recording:
    def __init__(self):
        self.lines = [HEADER.rstrip("\n")]
        self.t = 0  # microseconds
        self.next_id = 1
        self.down = {}  # slot -> tracking id

    def _ev(self, typ, code, value):
        self.lines.append("E: %d.%06d %04x %04x %d" % (self.t // 1_000_000, self.t % 1_000_000, typ, code, value))

    def frame(self, touches, advance_ms=10):
        """touches: {slot: (x_mm, y_mm) or None to lift}."""
        for slot, pos in sorted(touches.items()):
            self._ev(3, 0x2f, slot)
            if pos is None:
                self._ev(3, 0x39, -1)
                self.down.pop(slot, None)
                continue
            if slot not in self.down:
                self.down[slot] = self.next_id
                self._ev(3, 0x39, self.next_id)
                self.next_id += 1
            self._ev(3, 0x35, round(pos[0] * 13))
            self._ev(3, 0x36, round(pos[1] * 13))
        self._ev(0, 0, 0)
        self.t += advance_ms * 1000

    def wait(self, ms):
        self.t += int(ms * 1000)

    def stroke(self, corners, step_mm=1.5):
        """One finger through the corner points (mm), then lifted."""
        points = [corners[0]]
        for (ax, ay), (bx, by) in zip(corners, corners[1:]):
            n = max(1, int(((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5 / step_mm))
            points += [(ax + (bx - ax) * i / n, ay + (by - ay) * i / n) for i in range(1, n + 1)]
        for p in points:
            self.frame({0: p})
        self.frame({0: None})

    def tap(self, at=(150, 100), hold_ms=50):
        self.frame({0: at}, advance_ms=hold_ms)
        self.frame({0: None})

    def pinch(self, center=(150, 100), start=20, end=60, steps=20):
        for i in range(steps + 1):
            r = start + (end - start) * i / steps
            self.frame({0: (center[0] - r, center[1]), 1: (center[0] + r, center[1])})
        self.frame({0: None, 1: None})

    def text(self):
        return "\n".join(self.lines) + "\n"

    def save(self, path):
        with open(path, "w") as f:
            f.write(self.text())
        return path

def checkmark(origin=(150, 100)):
    r = Recording()
    ox, oy = origin
    r.stroke([(ox, oy), (ox + 10, oy + 12), (ox + 35, oy - 25)])
    return r
