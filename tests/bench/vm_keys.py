"""Keys in a real kernel (inside scripts/vm-run by scripts/benchmarks, as root): from the
frame that ends a 1-finger right swipe, written to a uinput touchscreen, to the first key
press a reader of input devices gets (the kernel's time stamp of the event, as libinput
reads it), for gestured's own `keys = "ctrl+Right"` and for the same binding done as
`command = "ydotool key ctrl+Right"` (Debian 12's ydotool 0.1.8, which has no ydotoold:
each call makes its own uinput device), in the same boot; and from each frame of a
three-finger pan bound with `touchpad = true` to the frame gestured's virtual touchpad
makes of it (both kernel time stamps).
    python3 tests/bench/vm_keys.py GESTURED OUT.json [SWIPES]
"""
import fcntl, json, os, shutil, signal, struct, subprocess, sys, tempfile, threading, time

here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [here, os.path.join(here, ".."), os.path.join(here, "..", "e2e")]
from common import play_swipes, summary  # noqa: E402
from fixtures import Recording, three_finger_swipe_right  # noqa: E402
from uinput_panel import EVENT, EVIOCSCLOCKID, Panel, wait_for  # noqa: E402

gestured, out_path = os.path.abspath(sys.argv[1]), sys.argv[2]
swipes = int(sys.argv[3]) if len(sys.argv) > 3 else 40
work = tempfile.mkdtemp()


class KeyWatcher:
    """Every input device there is and every one that appears (ydotool's come and go),
    opened at once with monotonic time stamps: the times of key presses."""
    def __init__(self, ignore):
        self.ignore, self.open, self.presses, self.stopped = set(ignore), {}, [], False
        threading.Thread(target=self.run, daemon=True).start()

    def run(self):
        while not self.stopped:
            for name in os.listdir("/dev/input"):
                node = "/dev/input/" + name
                if not name.startswith("event") or node in self.open or node in self.ignore:
                    continue
                try:
                    fd = os.open(node, os.O_RDONLY | os.O_NONBLOCK)
                    fcntl.ioctl(fd, EVIOCSCLOCKID, struct.pack("i", time.CLOCK_MONOTONIC))
                    self.open[node] = fd
                except OSError:
                    pass
            for node, fd in list(self.open.items()):
                try:
                    data = os.read(fd, EVENT.size * 64)
                except BlockingIOError:
                    continue
                except OSError:  # gone: its node may come back as another device
                    os.close(fd)
                    del self.open[node]
                    continue
                for sec, usec, typ, code, value in EVENT.iter_unpack(data):
                    if typ == 1 and value == 1:
                        self.presses.append(sec * 1_000_000_000 + usec * 1000)
            time.sleep(0.001)


def measure(binding, gap_s):
    config = os.path.join(work, "gestured.toml")
    with open(config, "w") as f:
        f.write('[daemon]\nbus = "none"\n[[gesture]]\nname = "right"\ntype = "swipe"\ndirection = "right"\n' + binding)
    log = os.path.join(work, "daemon.log")
    daemon = subprocess.Popen([gestured, "run", "--config", config], stdout=open(log, "w"), stderr=subprocess.STDOUT)
    wait_for(20, lambda: panel.node + ": '" in open(log).read())
    watcher = KeyWatcher(ignore=[panel.node])
    time.sleep(1)
    lifts = play_swipes(panel, swipes, gap_s)
    time.sleep(gap_s)
    watcher.stopped = True
    daemon.send_signal(signal.SIGTERM)
    daemon.wait(timeout=20)
    ms = []
    for i, lift in enumerate(lifts):
        until = lifts[i + 1] if i + 1 < len(lifts) else float("inf")
        after = [t for t in watcher.presses if lift <= t < until]
        if after:
            ms.append((min(after) - lift) / 1e6)
    return summary(ms, swipes)


def frame_times(fd):
    """The kernel's time stamps of the SYN_REPORTs waiting on `fd` (monotonic ns)."""
    times = []
    while True:
        try:
            data = os.read(fd, EVENT.size * 256)
        except BlockingIOError:
            return times
        times += [sec * 1_000_000_000 + usec * 1000 for sec, usec, typ, code, _ in EVENT.iter_unpack(data) if typ == 0 and code == 0]


def measure_touchpad():
    """Each panel frame of the pans to the touchpad's first frame after it (before the panel's next)."""
    config = os.path.join(work, "gestured.toml")
    with open(config, "w") as f:
        f.write('[daemon]\nbus = "none"\n[[gesture]]\nname = "workspaces"\ntype = "pan"\nfingers = 3\ntouchpad = true\n')
    log = os.path.join(work, "daemon.log")
    daemon = subprocess.Popen([gestured, "run", "--config", config], stdout=open(log, "w"), stderr=subprocess.STDOUT)
    wait_for(20, lambda: panel.node + ": '" in open(log).read() and "touchpad for" in open(log).read())
    node = open(log).read().split("touchpad for", 1)[1].split("\n", 1)[0].split(", ")[-1].strip()
    readers = []
    for watched in (panel.node, node):
        fd = os.open(watched, os.O_RDONLY | os.O_NONBLOCK)
        fcntl.ioctl(fd, EVIOCSCLOCKID, struct.pack("i", time.CLOCK_MONOTONIC))
        readers.append(fd)
    time.sleep(1)
    panel_frames, pad_frames = [], []
    for _ in range(swipes):
        panel.play(three_finger_swipe_right().text())
        time.sleep(0.6)
        panel_frames += frame_times(readers[0])
        pad_frames += frame_times(readers[1])
    daemon.send_signal(signal.SIGTERM)
    daemon.wait(timeout=20)
    for fd in readers:
        os.close(fd)
    ms = []
    for i, frame in enumerate(panel_frames):
        until = panel_frames[i + 1] if i + 1 < len(panel_frames) else float("inf")
        after = [t for t in pad_frames if frame <= t < until]
        if after:
            ms.append((min(after) - frame) / 1e6)
    figures = summary(ms, len(ms))
    figures["panel_frames"], figures["touchpad_frames"] = len(panel_frames), len(pad_frames)
    return figures


panel = Panel(Recording().text())
time.sleep(1)
figures = {"swipes": swipes, "keys": measure('keys = "ctrl+Right"\n', 0.6)}
if shutil.which("ydotool"):
    # Started from the VM's /tmp, in memory, as from an installed system's disk (the VM's
    # root, 9p without a cache, reads a program again at every start).
    ydotool = shutil.copy(shutil.which("ydotool"), work)
    figures["ydotool"] = measure(f'command = "{ydotool} key ctrl+Right"\n', 1.5)
else:
    figures["ydotool"] = None
figures["touchpad"] = measure_touchpad()
with open(out_path, "w") as f:
    json.dump(figures, f, indent=1)
print(json.dumps(figures, indent=1))
