"""Recordings the daemon tests generate: evemu files of a 13.3" panel (3840x2160, 13 units
per mm) with touches placed in millimetres, at 100 frames a second."""
import math, os, re

def suite_config(name):
    """tests/configs/NAME.toml: a suite's configuration, a file that `gestured check` reads
    like any other (tests/test_daemon.py checks them all)."""
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "configs", name + ".toml")) as f:
        return f.read()

def description(name, ids, direct, masks, axes=()):
    """A device as evemu-record describes it: its NAME, IDS (bus, vendor, product and
    version in hex), INPUT_PROP_DIRECT or not, MASKS {event type: (codes, bytes)} (each
    type's bitmask over that many bytes, 8 a line) and AXES (code, minimum, maximum,
    fuzz, flat, resolution)."""
    lines = ["# EVEMU 1.3", "N: " + name, "I: " + ids, "P: %02x" % (2 if direct else 0) + " 00" * 7]
    for event_type, (codes, size) in masks.items():
        data = [0] * size
        for code in codes:
            data[code // 8] |= 1 << (code % 8)
        lines += ["B: %02x " % event_type + " ".join("%02x" % b for b in data[i:i + 8]) for i in range(0, size, 8)]
    return "\n".join(lines + ["A: %02x %d %d %d %d %d" % axis for axis in axes]) + "\n"

EV_SYN, EV_KEY, EV_ABS, EV_SW = 0, 1, 3, 5
KEYS = 96  # bytes of an EV_KEY bitmask, as evemu writes them

def keyboard():
    """A keyboard's description: EV_KEY with KEY_ESC to KEY_S (udev's test for a keyboard)."""
    return description("gestured test keyboard", "0003 1234 5680 0001", False,
                       {EV_SYN: ([EV_SYN, EV_KEY], 8), EV_KEY: (range(1, 32), KEYS)})

# INPUT_PROP_DIRECT; EV_SYN, EV_KEY, EV_ABS; BTN_TOUCH; ABS_X, ABS_Y, ABS_MT_SLOT,
# ABS_MT_POSITION_X/Y, ABS_MT_TRACKING_ID: what the kernel needs to see a touchscreen
# (evemu-device builds it from this), the other types' masks empty as evemu-record writes them.
HEADER = description("gestured test panel", "0003 1234 5678 0001", True,
                     {EV_SYN: ([EV_SYN, EV_KEY, EV_ABS], 8), EV_KEY: ([0x14a], KEYS), 2: ([], 8),
                      EV_ABS: ([0x00, 0x01, 0x2f, 0x35, 0x36, 0x39], 8),
                      **{event_type: ([], 8) for event_type in (4, EV_SW, 0x11, 0x12, 0x14, 0x15)}},
                     [(0x00, 0, 3839, 0, 0, 13), (0x01, 0, 2159, 0, 0, 13), (0x2f, 0, 9, 0, 0, 0),
                      (0x35, 0, 3839, 0, 0, 13), (0x36, 0, 2159, 0, 0, 13), (0x39, 0, 65535, 0, 0, 0)])

# EV_SYN and EV_SW; SW_TABLET_MODE: what an ACPI tablet-mode switch says it has.
TABLET_SWITCH = description("gestured tablet switch", "0019 0000 0006 0000", False, {EV_SYN: ([EV_SYN, EV_SW], 8), EV_SW: ([1], 8)})

class Recording:
    def __init__(self, name="gestured test panel"):
        self.lines = [HEADER.rstrip("\n").replace("gestured test panel", name)]
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

# A touchscreen's pen node: INPUT_PROP_DIRECT, BTN_TOOL_PEN, BTN_TOOL_RUBBER, BTN_TOUCH,
# ABS_X/ABS_Y over the same 295 x 166 mm, ABS_PRESSURE.
PEN_HEADER = description("gestured test pen", "0003 1234 5679 0001", True,
                         {EV_SYN: ([EV_SYN, EV_KEY, EV_ABS], 8), EV_KEY: ([0x140, 0x141, 0x14a], KEYS), EV_ABS: ([0x00, 0x01, 0x18], 8)},
                         [(0x00, 0, 3839, 0, 0, 13), (0x01, 0, 2159, 0, 0, 13), (0x18, 0, 4095, 0, 0, 0)])

class PenRecording(Recording):
    """The pen: near (BTN_TOOL_PEN), hovering, then its tip drawing (BTN_TOUCH), lifted, gone."""
    def __init__(self, name="gestured test pen"):
        super().__init__(name)
        self.lines = [PEN_HEADER.rstrip("\n").replace("gestured test pen", name)]

    def point(self, pos, tip=None, near=None, advance_ms=10):
        if near is not None:
            self._ev(1, 0x140, near)
        self._ev(3, 0x00, round(pos[0] * 13))
        self._ev(3, 0x01, round(pos[1] * 13))
        if tip is not None:
            self._ev(1, 0x14a, tip)
            self._ev(3, 0x18, 900 if tip else 0)
        self._ev(0, 0, 0)
        self.t += advance_ms * 1000

    def stroke(self, corners, step_mm=1.5):
        """Comes near 10 mm off the first corner, hovers to it, draws through the corners,
        lifts and leaves."""
        x, y = corners[0]
        self.point((x - 10, y), near=1)
        for i in range(1, 11):
            self.point((x - 10 + i, y))
        points = [corners[0]]
        for (ax, ay), (bx, by) in zip(corners, corners[1:]):
            n = max(1, int(((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5 / step_mm))
            points += [(ax + (bx - ax) * i / n, ay + (by - ay) * i / n) for i in range(1, n + 1)]
        self.point(points[0], tip=1)
        for p in points[1:]:
            self.point(p)
        self.point(points[-1], tip=0)
        self.point(points[-1], near=0)

def pen_checkmark(origin=(150, 100)):
    r = PenRecording()
    ox, oy = origin
    r.stroke([(ox, oy), (ox + 10, oy + 12), (ox + 35, oy - 25)])
    return r

def checkmark(origin=(150, 100), scale=1.0):
    r = Recording()
    ox, oy = origin
    r.stroke([(ox, oy), (ox + 10 * scale, oy + 12 * scale), (ox + 35 * scale, oy - 25 * scale)])
    return r

def small_checkmark():
    """A checkmark 12 mm across: too small for min_size_mm = 25."""
    return checkmark(scale=0.35)

def three_finger_swipe_down(origin=(120, 40), length=60):
    r = Recording()
    ox, oy = origin
    steps = int(length / 2)
    for i in range(steps + 1):
        r.frame({s: (ox + 20 * s, oy + 2 * i) for s in range(3)})
    r.frame({0: None, 1: None, 2: None})
    return r

def three_finger_swipe_right(origin=(60, 50), length=80):
    r = Recording()
    ox, oy = origin
    for i in range(int(length / 2) + 1):
        r.frame({s: (ox + 2 * i, oy + 20 * s) for s in range(3)})
    r.frame({0: None, 1: None, 2: None})
    return r

def long_press(at=(100, 60), ms=900):
    """One finger held still: a frame every 100 ms, as a panel that repeats positions."""
    r = Recording()
    for _ in range(ms // 100 + 1):
        r.frame({0: at}, advance_ms=100)
    r.frame({0: None})
    return r

def rotation(center=(150, 80), radius=30, turns=((0, 90),), step_deg=1):
    """Two fingers opposite each other turning through each (from, to) in degrees,
    clockwise for a rising angle (y points down), a frame per step."""
    r = Recording()
    angles = []
    for start, end in turns:
        direction = 1 if end >= start else -1
        angles += list(range(start, end + direction, direction * step_deg))
    for a in angles:
        c, s = math.cos(math.radians(a)), math.sin(math.radians(a))
        r.frame({0: (center[0] - radius * c, center[1] - radius * s), 1: (center[0] + radius * c, center[1] + radius * s)})
    r.frame({0: None, 1: None})
    return r

def two_finger_pan(origin=(120, 30), down_mm=80, steps=80):
    """Two fingers 20 mm apart moving straight down."""
    r = Recording()
    for i in range(steps + 1):
        y = origin[1] + down_mm * i / steps
        r.frame({0: (origin[0], y), 1: (origin[0] + 20, y)})
    r.frame({0: None, 1: None})
    return r

def tap(at=(150, 100)):
    r = Recording()
    r.tap(at)
    return r

def two_taps(apart_ms):
    """A tap, then another `apart_ms` later: a replay that keeps the daemon up that long."""
    r = Recording()
    r.tap()
    r.wait(apart_ms)
    r.tap()
    return r

def drag(origin=(60, 140), length=120, seconds=3):
    """One finger dragging right slowly: a pan under way for a while."""
    r = Recording()
    steps = int(seconds * 100)
    for i in range(steps + 1):
        r.frame({0: (origin[0] + length * i / steps, origin[1])})
    r.frame({0: None})
    return r

def extreme_pan():
    """A panel whose axes span all of 32 bits at 1 unit/mm (4,295 km across), one finger
    crossing it diagonally with frames 1 µs apart: speeds beyond any integer."""
    r = Recording("gestured extreme panel")
    for axis in ("00", "01", "35", "36"):
        r.lines[0] = re.sub(r"A: %s .*" % axis, "A: %s -2147483648 2147483647 0 0 1" % axis, r.lines[0])
    low = -2 ** 31
    for i in range(30):
        if i == 0:
            r._ev(3, 0x2f, 0)
            r._ev(3, 0x39, 1)
        r._ev(3, 0x35, low + i * 148_000_000)
        r._ev(3, 0x36, low + i * 148_000_000)
        r._ev(0, 0, 0)
        r.t += 1
    r._ev(3, 0x39, -1)
    r._ev(0, 0, 0)
    return r

def storm(events=300_000, seed=10):
    """Garbage at full speed (all at one time, so evemu-play does not wait): slots out of
    range, tracking ids churning, values at the ends of 32 bits, BTN_TOUCH flapping, long
    stretches without SYN_REPORT, SYN_DROPPED and MT_REPORT; then every slot lifted, as a
    panel would end."""
    import random
    rng = random.Random(seed)
    r = Recording()
    extremes = [-2**31, -1, 0, 2**31 - 1, 65535, 3839, 2159]
    for _ in range(events):
        roll = rng.random()
        value = rng.choice(extremes) if rng.random() < 0.2 else rng.randint(-100, 4000)
        if roll < 0.15:
            r._ev(3, 0x2f, rng.randint(-3, 14))
        elif roll < 0.30:
            r._ev(3, 0x39, rng.choice([-1, -1, rng.randint(0, 8), rng.randint(0, 2**31 - 1)]))
        elif roll < 0.55:
            r._ev(3, rng.choice([0x35, 0x36]), value)
        elif roll < 0.65:
            r._ev(3, rng.choice([0, 1]), value)
        elif roll < 0.72:
            r._ev(1, 0x14a, rng.randint(0, 1))
        elif roll < 0.90:
            r._ev(0, 0, 0)
        elif roll < 0.93:
            r._ev(0, rng.choice([2, 3]), 0)
        else:
            r._ev(rng.randint(0, 5), rng.randint(0, 0x3ff), value)
    for slot in range(10):
        r._ev(3, 0x2f, slot)
        r._ev(3, 0x39, -1)
    r._ev(1, 0x14a, 0)
    r._ev(0, 0, 0)
    return r

if __name__ == "__main__":
    # fixtures.py KIND [NAME]: a recording on stdout (desc, pen-desc, keyboard, checkmark, pen-checkmark, small-checkmark,
    # swipe3, drag, tap, storm).
    import sys
    kind, name = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "gestured test panel")
    if kind == "desc":
        print(Recording(name).text(), end="")
    elif kind == "pen-desc":
        print(PenRecording().text(), end="")
    elif kind == "keyboard":
        print(keyboard(), end="")
    else:
        r = {"pen-checkmark": pen_checkmark, "checkmark": checkmark, "small-checkmark": small_checkmark, "swipe3": three_finger_swipe_down, "drag": drag, "tap": tap, "storm": storm}[kind]()
        print(r.text().replace("gestured test panel", name), end="")
