#!/usr/bin/env python3
"""Held keys and buttons in a real kernel (inside scripts/vm-run, as root): a pan that
holds alt and steps Tab, a three-finger drag that holds the left button with gestured's
pointer following the fingers, read by `libinput debug-events` as an application would;
then every way a held gesture can end mid-way (the session locked, by a stand-in logind on
a private bus taken for the system bus; the panel unplugged; a reload; SIGTERM; SIGKILL),
each checked with the kernel's own key state of gestured's keyboard and pointer
(EVIOCGKEY) or, once they are gone, with what libinput read of them.
    tests/e2e/held.py GESTURED"""
import fcntl, math, os, re, signal, subprocess, sys, time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
from fixtures import HEADER, Recording  # noqa: E402
from uinput_panel import Panel, Reader, check, failures, suite, twins_in, wait_for  # noqa: E402

gestured, work, config_path = suite("held")

# The panel of fixtures.HEADER: 3840 × 2160 units, 13 a millimetre.
WIDTH_MM, HEIGHT_MM = 3839 / 13, 2159 / 13
KEY_LEFTALT, BTN_LEFT = 56, 0x110


def pan(fingers, path, origin=(80, 60), lift=True):
    """Fingers 15 mm apart moving along `path` (offsets in mm, 10 ms apart), then lifted."""
    r = Recording()
    for dx, dy in path:
        r.frame({s: (origin[0] + 15 * s + dx, origin[1] + dy) for s in range(fingers)})
    if lift:
        r.frame({s: None for s in range(fingers)})
    return r.text()


def switching(long=False):
    """Four fingers right 70 mm and back 40 mm (`long`: then 2 s more, slowly right)."""
    path = [(i, 0) for i in range(0, 71, 2)] + [(70 - i, 0) for i in range(0, 41, 2)]
    if long:
        path += [(30 + i / 10, 0) for i in range(200)]
    return pan(4, path)


def keys(lines):
    return [" ".join(m.groups()) for m in (re.search(r"(KEY_\w+) \(\d+\) (pressed|released)", l) for l in lines) if m]


def down(node):
    """The key and button codes the kernel holds down for `node` (EVIOCGKEY); None once it is gone."""
    try:
        fd = os.open(node, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        bits = fcntl.ioctl(fd, 0x80000000 | (96 << 16) | (0x45 << 8) | 0x18, bytes(96))
    finally:
        os.close(fd)
    return [i * 8 + b for i, byte in enumerate(bits) for b in range(8) if byte & (1 << b)]


def settle():
    time.sleep(1.0)


# A private bus taken for the system bus, with the stand-in logind on it: the lock.
bus = subprocess.run(["dbus-daemon", "--session", "--fork", "--print-address=1"], capture_output=True, text=True, check=True).stdout.strip()
os.environ["DBUS_SYSTEM_BUS_ADDRESS"] = bus
flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libsystemd"], capture_output=True, text=True, check=True).stdout.split()
subprocess.run(["gcc", "-O2", "-o", os.path.join(work, "fake_logind"), os.path.join(os.path.dirname(__file__), "..", "fake_logind.c"), *flags], check=True)
logind = subprocess.Popen([os.path.join(work, "fake_logind")], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
assert logind.stdout.readline().strip() == "ready"


def tell_logind(command):
    logind.stdin.write(command + "\n")
    logind.stdin.flush()
    assert logind.stdout.readline().strip() == "done"


panel = Panel(HEADER)
log = open(os.path.join(work, "daemon.log"), "a+")
text = lambda: open(log.name).read()
found = re.compile(r"virtual keyboard and pointer for [^:]*: (/dev/input/event\d+), (/dev/input/event\d+)")


def start():
    """The daemon, its keyboard's and pointer's nodes and libinput readers, once it isolates the panel."""
    made = len(found.findall(text()))
    daemon = subprocess.Popen([gestured, "run", "--config", config_path, "--verbose"], stdout=log, stderr=log)
    ok = wait_for(20, lambda: len(found.findall(text())) > made) and wait_for(20, lambda: len(twins_in(text(), panel)) > 0)
    if not ok:
        sys.exit("the daemon did not start\n--- daemon log\n" + text())
    keyboard_node, pointer_node = found.findall(text())[-1]
    return daemon, keyboard_node, pointer_node, Reader(keyboard_node), Reader(pointer_node)


daemon, keyboard_node, pointer_node, keyboard, pointer = start()

# 1. Alt held for the whole pan, Tab at each step, shift+Tab back, alt released at the lift.
mark = len(keyboard.lines)
panel.play(switching())
settle()
pressed = keys(keyboard.since(mark, "KEYBOARD_KEY"))
tab, back = ["KEY_TAB pressed", "KEY_TAB released"], ["KEY_LEFTSHIFT pressed", "KEY_TAB pressed", "KEY_TAB released", "KEY_LEFTSHIFT released"]
check("four fingers right 70 mm and back 40: alt held, three Tabs, two shift+Tabs, alt released at the lift (%s)" % ", ".join(pressed),
      pressed == ["KEY_LEFTALT pressed"] + tab * 3 + back * 2 + ["KEY_LEFTALT released"])
check("and the kernel holds no key of gestured's keyboard", down(keyboard_node) == [])

# 2. Three fingers drag from (80, 60) mm by (90, 50) mm: the left button held from their
# landing to their lift, the pointer following their centroid.
mark = len(pointer.lines)
path = [(90 * i / 60, 50 * i / 60) for i in range(61)]
panel.play(pan(3, path))
settle()
lines = pointer.since(mark)
motion = [(float(m.group(1)) / 100 * WIDTH_MM, float(m.group(2)) / 100 * HEIGHT_MM)
          for m in (re.search(r"([\d.]+)/\s*([\d.]+)", l) for l in lines if "POINTER_MOTION_ABSOLUTE" in l) if m]
buttons = [(i, m.group(1), m.group(2)) for i, m in enumerate(re.search(r"(BTN_\w+) \(\d+\) (pressed|released)", l) for l in lines) if m]
start_mm, end_mm = (80 + 15, 60), (80 + 15 + 90, 60 + 50)
length = math.dist(start_mm, end_mm)


def off_the_path(p):
    """Distance (mm) from the segment the centroid moved along."""
    t = max(0, min(1, ((p[0] - start_mm[0]) * (end_mm[0] - start_mm[0]) + (p[1] - start_mm[1]) * (end_mm[1] - start_mm[1])) / length ** 2))
    return math.dist(p, (start_mm[0] + t * (end_mm[0] - start_mm[0]), start_mm[1] + t * (end_mm[1] - start_mm[1])))


worst = max((off_the_path(p) for p in motion), default=None)
check("the drag: the left button pressed once and released once, at the end (%s)" % [b[1:] for b in buttons],
      [b[1:] for b in buttons] == [("BTN_LEFT", "pressed"), ("BTN_LEFT", "released")]
      and all("POINTER_MOTION_ABSOLUTE" not in l for l in lines[buttons[-1][0]:]) if len(buttons) == 2 else False)
check("the pointer moves along the fingers' centroid: %d moves, at most %s mm off the %.0f mm path (5 %%: %.1f mm)"
      % (len(motion), "%.1f" % worst if worst is not None else "-", length, 0.05 * length),
      len(motion) >= 30 and worst is not None and worst <= 0.05 * length)
check("from where they landed (%s) to where they lifted (%s)" % (motion[:1], motion[-1:]),
      bool(motion) and math.dist(motion[0], start_mm) <= 0.05 * length and math.dist(motion[-1], end_mm) <= 0.05 * length)
check("and the kernel holds no button of gestured's pointer", down(pointer_node) == [])


def held_then(interrupt, recording, holding=(KEY_LEFTALT,), node=None):
    """Plays `recording`, calls `interrupt()` once the kernel holds `holding` down on
    gestured's keyboard (or `node`), and plays on."""
    node = node or keyboard_node
    done = []

    def on_frame(_):
        if not done and all(code in (down(node) or []) for code in holding):
            done.append(True)
            interrupt()
    panel.play(recording, on_frame=on_frame)
    return bool(done)


# 3. The session locks mid-pan: alt goes up at once, the fingers still down.
after_lock = []
interrupted = held_then(lambda: (tell_logind("lock"), time.sleep(0.3), after_lock.append(down(keyboard_node))), switching(long=True))
settle()
check("locked mid-pan, alt held: at once nothing is held (%s)" % after_lock, interrupted and after_lock == [[]])
tell_logind("unlock")
check("and after the lift neither", down(keyboard_node) == [] and down(pointer_node) == [])

# 4. A reload mid-pan: the pan keeps what it held to its lift, then lets go.
during_reload = []
interrupted = held_then(lambda: (daemon.send_signal(signal.SIGHUP), time.sleep(0.5), during_reload.append(down(keyboard_node))), switching(long=True))
settle()
check("a reload mid-pan: the pan keeps alt (%s), and lets go at the lift (%s)" % (during_reload, down(keyboard_node)),
      interrupted and during_reload == [[KEY_LEFTALT]] and down(keyboard_node) == [])

# 5. The panel unplugged mid-drag: the button goes up.
after_unplug = []
drag = pan(3, [(i, i / 2) for i in range(200)])
interrupted = held_then(lambda: (panel.destroy(), time.sleep(0.5), after_unplug.append(down(pointer_node))), drag,
                        holding=(BTN_LEFT,), node=pointer_node)
check("unplugged mid-drag, the button held: it goes up (%s)" % after_unplug, interrupted and after_unplug == [[]])
isolations = len(twins_in(text(), panel))
panel = Panel(HEADER)
check("the panel plugged in again, it is isolated again", wait_for(20, lambda: len(twins_in(text(), panel)) > isolations))

# 6. SIGTERM mid-pan: gestured lets go before its devices go.
mark = len(keyboard.lines)
interrupted = held_then(lambda: daemon.send_signal(signal.SIGTERM), switching(long=True))
check("SIGTERM mid-pan (alt held: %s)" % interrupted, interrupted)
if not interrupted:
    daemon.send_signal(signal.SIGTERM)
check("it exits 0", daemon.wait(timeout=10) == 0)
released = keys(keyboard.since(mark, "KEYBOARD_KEY"))
stopping = text().rfind("stopping (signal 15)")
check("having let go of alt itself (%s; its log: %s)" % (released, re.findall(r"switcher: lets go of alt", text()[stopping:])),
      interrupted and released[:1] == ["KEY_LEFTALT pressed"] and released[-1:] == ["KEY_LEFTALT released"]
      and stopping >= 0 and "switcher: lets go of alt" in text()[stopping:])
for reader in (keyboard, pointer):
    reader.close()

# 7. SIGKILL mid-drag: the kernel removes gestured's devices and releases what they held.
daemon, keyboard_node, pointer_node, keyboard, pointer = start()
interrupted = held_then(lambda: daemon.kill(), drag, holding=(BTN_LEFT,), node=pointer_node)
daemon.wait()
check("SIGKILL mid-drag: its devices are gone", wait_for(5, lambda: not os.path.exists(pointer_node)))
buttons = [m.groups() for m in (re.search(r"(BTN_\w+) \(\d+\) (pressed|released)", l) for l in pointer.lines) if m]
check("and the button held was released by the kernel (%s)" % buttons,
      interrupted and buttons[-2:] == [("BTN_LEFT", "pressed"), ("BTN_LEFT", "released")])
check("with no bug logged", ": bug: " not in text())
for reader in (keyboard, pointer):
    reader.close()
logind.kill()
if failures():
    print("--- daemon log\n" + text()[-4000:])
sys.exit(1 if failures() else 0)
