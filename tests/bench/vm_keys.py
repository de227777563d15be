"""Keys in a real kernel (inside scripts/vm-run by scripts/benchmarks, as root): from the
frame that ends a 1-finger right swipe, written to a uinput touchscreen, to the first key
press a reader of input devices gets (the kernel's time stamp of the event, as libinput
reads it), for gestured's own `keys = "ctrl+Right"` and for the same binding done as
`command = "ydotool key ctrl+Right"` (Debian 12's ydotool 0.1.8, which has no ydotoold:
each call makes its own uinput device), in the same boot.
    python3 tests/bench/vm_keys.py GESTURED OUT.json [SWIPES]
"""
import fcntl, json, os, shutil, signal, struct, subprocess, sys, tempfile, threading, time

here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [here, os.path.join(here, ".."), os.path.join(here, "..", "e2e")]
from common import play_swipes, summary  # noqa: E402
from fixtures import Recording  # noqa: E402
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
with open(out_path, "w") as f:
    json.dump(figures, f, indent=1)
print(json.dumps(figures, indent=1))
