"""A touchscreen made with /dev/uinput from an evemu description, played through its own
uinput fd. evemu-play writes to the event node instead, which the kernel ignores while
another reader holds the grab (EVIOCGRAB): an isolated panel needs this."""
import fcntl, os, re, struct, subprocess, sys, tempfile, threading, time
from fixtures import EV_SW, EV_SYN, suite_config

UI_SET_EVBIT, UI_SET_KEYBIT, UI_SET_ABSBIT, UI_SET_PROPBIT = 0x40045564, 0x40045565, 0x40045567, 0x4004556E
UI_SET_MSCBIT, UI_SET_SWBIT = 0x40045568, 0x4004556D
UI_SET_PHYS = 0x4008556C  # _IOW("U", 108, char *)
UI_DEV_SETUP, UI_ABS_SETUP, UI_DEV_CREATE, UI_DEV_DESTROY = 0x405C5503, 0x401C5504, 0x5501, 0x5502
EVIOCSCLOCKID = 0x400445A0
SETBITS = {1: UI_SET_KEYBIT, 3: UI_SET_ABSBIT, 4: UI_SET_MSCBIT, 5: UI_SET_SWBIT}
EVENT = struct.Struct("llHHi")


def ui_get_sysname(length=64):
    return 0x80000000 | (length << 16) | (0x55 << 8) | 44


def parse_description(text):
    """(name, (bus, vendor, product, version), props, {type: [codes]}, {code: (min, max, fuzz, flat, res)})."""
    name, ids, props, bits, axes = "panel", (3, 0, 0, 1), [], {}, {}
    masks = {}
    for line in text.splitlines():
        f = line.split()
        if not f:
            continue
        if f[0] == "N:":
            name = line[3:].strip()
        elif f[0] == "I:":
            ids = tuple(int(x, 16) for x in f[1:5])
        elif f[0] == "P:":
            props += [int(x, 16) for x in f[1:]]
        elif f[0] == "B:":
            masks.setdefault(int(f[1], 16), []).extend(int(x, 16) for x in f[2:])
        elif f[0] == "A:":
            values = [int(x) for x in f[2:]]
            axes[int(f[1], 16)] = tuple(values + [0] * (5 - len(values)))[:5]
    for typ, data in masks.items():
        bits[typ] = [i * 8 + b for i, byte in enumerate(data) for b in range(8) if byte & (1 << b)]
    prop_codes = [i * 8 + b for i, byte in enumerate(props) for b in range(8) if byte & (1 << b)]
    return name, ids, prop_codes, bits, axes


class Panel:
    def __init__(self, description_text, phys=None):
        """phys: where it is plugged in; devices of one device share its part before the
        last '/' (libinput's device group, which pairs a pen with its touchscreen)."""
        name, ids, props, bits, axes = parse_description(description_text)
        self.name = name
        self.fd = os.open("/dev/uinput", os.O_WRONLY | os.O_NONBLOCK)
        if phys:
            fcntl.ioctl(self.fd, UI_SET_PHYS, phys.encode() + b"\0")
        for typ in [t for t in bits[0] if t != 0] if 0 in bits else [1, 3]:
            fcntl.ioctl(self.fd, UI_SET_EVBIT, typ)
            for code in bits.get(typ, []):
                if typ in SETBITS:
                    fcntl.ioctl(self.fd, SETBITS[typ], code)
        for prop in props:
            fcntl.ioctl(self.fd, UI_SET_PROPBIT, prop)
        fcntl.ioctl(self.fd, UI_DEV_SETUP, struct.pack("HHHH80sI", *ids, name.encode()[:79], 0))
        for code, (lo, hi, fuzz, flat, res) in axes.items():
            fcntl.ioctl(self.fd, UI_ABS_SETUP, struct.pack("HxxiiiiiI", code, 0, lo, hi, fuzz, flat, res))
        fcntl.ioctl(self.fd, UI_DEV_CREATE)
        sysname = fcntl.ioctl(self.fd, ui_get_sysname(), bytes(64)).rstrip(b"\0").decode()
        events = [e for e in os.listdir("/sys/devices/virtual/input/%s" % sysname) if e.startswith("event")]
        self.node = "/dev/input/" + events[0]

    def write(self, typ, code, value):
        os.write(self.fd, EVENT.pack(0, 0, typ, code, value))

    def play(self, recording_text, speed=1.0, on_frame=None, before_frame=None, keep_gaps=False):
        """Plays the E: lines at their pace; on_frame(monotonic time) after each SYN_REPORT,
        before_frame() just before it is written (no reader can answer a frame before then).
        keep_gaps: each event waits its gap after the one before is written, as a panel
        stamps its scans, instead of keeping to the recording's clock: a player held up
        70 ms by a loaded machine then writes seven frames within a millisecond, a jump of
        the fingers that no panel reports."""
        start, first = time.monotonic(), None
        for line in recording_text.splitlines():
            f = line.split()
            if len(f) != 5 or f[0] != "E:":
                continue
            t = float(f[1])
            first = t if first is None else first
            delay = start + (t - first) / speed - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            typ, code, value = int(f[2], 16), int(f[3], 16), int(f[4])
            if typ == 0 and code == 0 and before_frame:
                before_frame()
            try:
                self.write(typ, code, value)
            except OSError:
                return  # destroyed meanwhile: unplugged
            if keep_gaps:
                start, first = time.monotonic(), t
            if typ == 0 and code == 0 and on_frame:
                on_frame(time.clock_gettime(time.CLOCK_MONOTONIC))

    def destroy(self):
        fd, self.fd = self.fd, -1
        fcntl.ioctl(fd, UI_DEV_DESTROY)
        os.close(fd)


def flip_tablet_switch(switch, tablet):
    """A switch made from fixtures.TABLET_SWITCH says tablet mode (True) or a laptop."""
    switch.write(EV_SW, 1, 1 if tablet else 0)  # SW_TABLET_MODE
    switch.write(EV_SYN, 0, 0)


def read_events(node, stop, out, clock=True):
    """Appends (time, type, code, value) read from an event node until stop() (monotonic times)."""
    try:
        fd = os.open(node, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        return  # gone already
    if clock:
        fcntl.ioctl(fd, EVIOCSCLOCKID, struct.pack("i", time.CLOCK_MONOTONIC))
    try:
        while not stop():
            try:
                data = os.read(fd, EVENT.size * 64)
            except BlockingIOError:
                time.sleep(0.002)
                continue
            except OSError:
                return  # the device went away
            for i in range(0, len(data), EVENT.size):
                sec, usec, typ, code, value = EVENT.unpack_from(data, i)
                out.append((sec + usec / 1e6, typ, code, value))
    finally:
        os.close(fd)


def frames(events):
    """Slot states after each SYN_REPORT: [{slot: (tracking id, x, y)}], touches only."""
    slot, slots, result = 0, {}, []
    for e in events:
        typ, code, value = e[-3:]
        if typ == 3 and code == 0x2F:
            slot = value
        elif typ == 3 and code in (0x35, 0x36, 0x39):
            state = list(slots.get(slot, (-1, 0, 0)))
            state[{0x39: 0, 0x35: 1, 0x36: 2}[code]] = value
            slots[slot] = tuple(state)
        elif typ == 0 and code == 0:
            result.append({s: v for s, v in slots.items() if v[0] >= 0})
    return result


failed = []


def twins_in(log, panel):
    """The twins a daemon log says it made for this panel (its node may have been another's before)."""
    return re.findall(re.escape(panel.node) + ": '" + re.escape(panel.name) + r"'.*isolated: its twin is (/dev/input/event\d+)", log)


def check(what, ok):
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failed.append(what)


def failures():
    return len(failed)


def holds_open(pid, nodes):
    """Whether process PID has one of NODES (device paths) open. Its descriptors may close
    while they are listed (a daemon opens and closes while it looks), and it may be gone."""
    fds = f"/proc/{pid}/fd"
    try:
        names = os.listdir(fds)
    except FileNotFoundError:
        return False
    for fd in names:
        try:
            if os.readlink(os.path.join(fds, fd)) in nodes:
                return True
        except FileNotFoundError:
            pass
    return False


def wait_for(seconds, test):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if test():
            return True
        time.sleep(0.1)
    return test()


class Twin:
    """The app underneath: libinput debug-events on the twin, and the twin's raw events."""
    def __init__(self, node):
        self.node, self.raw, self.stopped = node, [], False
        self.libinput = subprocess.Popen(["libinput", "debug-events", "--device", node],
                                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines = []
        threading.Thread(target=lambda: self.lines.extend(iter(self.libinput.stdout.readline, "")), daemon=True).start()
        threading.Thread(target=read_events, args=(node, lambda: self.stopped, self.raw), daemon=True).start()
        wait_for(30, lambda: any("DEVICE_ADDED" in l for l in self.lines))

    def mark(self):
        return len(self.lines), len(self.raw)

    def frames_since(self, mark):
        """The twin's touch states after each frame since the mark, values it already had included."""
        return frames(self.raw)[len(frames(self.raw[:mark[1]])):]

    def touch_events(self, since):
        return [l.split()[1] for l in self.lines[since[0]:] if re.search(r"TOUCH_(DOWN|UP|CANCEL|MOTION)", l)]

    def close(self):
        self.stopped = True
        self.libinput.terminate()
        self.libinput.wait()




def suite(name):
    """A VM suite's start: the build it was given (its first argument), a work folder, and
    tests/configs/NAME.toml written there: (gestured, work, the configuration's path)."""
    work = tempfile.mkdtemp(prefix=name + ".")
    path = os.path.join(work, "gestured.toml")
    with open(path, "w") as f:
        f.write(suite_config(name))
    return os.path.abspath(sys.argv[1]), work, path


def start_daemon(gestured, config_path, work):
    """`gestured run --verbose` with its log in WORK/daemon.log: (the process, a function
    that reads the log so far)."""
    log = open(os.path.join(work, "daemon.log"), "a+")
    process = subprocess.Popen([gestured, "run", "--config", config_path, "--verbose"], stdout=log, stderr=log)
    return process, lambda: open(log.name).read()


def isolated_twin(text, panel):
    """The twin the daemon (whose log `text` reads) makes for `panel`; the suite ends with
    the log when none comes within 30 s."""
    check("the daemon isolates the panel", wait_for(30, lambda: twins_in(text(), panel)))
    if not twins_in(text(), panel):
        sys.exit("--- daemon log\n" + text())
    return twins_in(text(), panel)[-1]


class Reader:
    """libinput debug-events on one device, keys shown: what an application reads."""
    def __init__(self, node):
        self.process = subprocess.Popen(["libinput", "debug-events", "--show-keycodes", "--device", node],
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines = []
        threading.Thread(target=lambda: self.lines.extend(iter(self.process.stdout.readline, "")), daemon=True).start()
        wait_for(30, lambda: any("DEVICE_ADDED" in l for l in self.lines))

    def since(self, mark, kind=""):
        """Its lines from the mark'th on that contain `kind`."""
        return [l for l in self.lines[mark:] if kind in l]

    def close(self):
        self.process.terminate()
        self.process.wait()
