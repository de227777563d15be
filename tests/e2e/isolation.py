#!/usr/bin/env python3
"""Isolation in a real kernel (inside scripts/vm-run, as root): a uinput panel the daemon
grabs, its twin read by `libinput debug-events` (the app underneath) and by a raw reader.
    tests/e2e/isolation.py GESTURED"""
import math, os, signal, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
from fixtures import HEADER, Recording, checkmark, three_finger_swipe_down, drag, tap  # noqa: E402
from uinput_panel import Panel, Twin, check, failures, frames, read_events, twins_in, wait_for  # noqa: E402

gestured = os.path.abspath(sys.argv[1])
work = tempfile.mkdtemp(prefix="isolation.")
config_path = os.path.join(work, "gestured.toml")
def configure(gestures):
    with open(config_path, "w") as f:
        f.write('[daemon]\nbus = "none"\nisolate = true\n\n' + gestures)


MENU = '[[gesture]]\nname = "menu"\ntype = "swipe"\nfingers = 3\ndirection = "down"\ncommand = "true"\n'


class Daemon:
    started = 0

    def __init__(self):
        Daemon.started += 1
        self.log = open(os.path.join(work, "daemon-%d.log" % Daemon.started), "a+")
        self.process = subprocess.Popen([gestured, "run", "--config", config_path, "--verbose"],
                                        stdout=self.log, stderr=self.log)

    def text(self):
        return open(self.log.name).read()

    def twin_of(self, panel):
        found = twins_in(self.text(), panel)
        return found[-1] if found else None

    def reload(self, gestures):
        before = self.text().count("reload: ")
        configure(gestures)
        self.process.send_signal(signal.SIGHUP)
        wait_for(10, lambda: self.text().count("reload: ") > before)


def circle():
    r = Recording()
    r.stroke([(150 + 30 * math.cos(a / 10), 100 + 30 * math.sin(a / 10)) for a in range(63)])
    return r


def settle():
    time.sleep(1.0)


configure(MENU)
panel = Panel(HEADER)
daemon = Daemon()
check("the daemon grabs the panel and makes a twin", wait_for(20, lambda: daemon.twin_of(panel)))
if not daemon.twin_of(panel):
    sys.exit("--- daemon log\n" + daemon.text())
twin = Twin(daemon.twin_of(panel))
check("libinput takes the twin for a touchscreen", any("DEVICE_ADDED" in l and "touch" in l for l in twin.lines))
check("gestured does not open its own twin as a touchscreen",
      wait_for(5, lambda: twin.node + ": a gestured twin" in daemon.text()) and twin.node + ": '" not in daemon.text())

# 1. A three-finger swipe, defaults (three fingers and more are held once all are down):
# the twin sees nothing of it.
mark = twin.mark()
panel.play(three_finger_swipe_down().text())
settle()
check("three-finger swipe: the twin sees nothing of it (%d events)" % (len(twin.raw) - mark[1]),
      len(twin.raw) == mark[1] and not twin.touch_events(mark))
check("and the swipe ran its command", "menu (swipe) recognized" in daemon.text())

# 2. One finger, when only a three-finger gesture is bound: every frame passes, as it was.
for name, recording in [("drag", drag(seconds=1)), ("tap", tap())]:
    mark = twin.mark()
    written = []
    panel.play(recording.text(), on_frame=written.append)
    settle()
    got = twin.raw[mark[1]:]
    expected = frames([tuple(int(x, 16) if i < 2 else int(x) for i, x in enumerate(l.split()[2:]))
                       for l in recording.text().splitlines() if l.startswith("E:")])
    check("1-finger %s: the twin gets all %d frames, positions equal to the panel's (got %d)"
          % (name, len(expected), len(twin.frames_since(mark))), twin.frames_since(mark) == expected)
    if name == "drag":
        twin_frames = [e[0] for e in got if e[1] == 0 and e[2] == 0]
        delays = sorted((t - w) * 1e6 for t, w in zip(twin_frames, written))
        if delays:
            p50, p99 = delays[len(delays) // 2], delays[min(len(delays) - 1, int(len(delays) * 0.99))]
            print("     passthrough delay, panel write to twin event: p50 %.0f µs, p99 %.0f µs over %d frames at 100 Hz"
                  % (p50, p99, len(delays)))

# 1b. With delays_touches_began = false the twin saw its touches, then has them cancelled.
daemon.reload(MENU + "delays_touches_began = false\n")
mark = twin.mark()
panel.play(three_finger_swipe_down().text())
settle()
seen = twin.touch_events(mark)
check("three-finger swipe, delays_touches_began = false: the twin's touches are cancelled (%d TOUCH_CANCEL, %d TOUCH_UP)"
      % (seen.count("TOUCH_CANCEL"), seen.count("TOUCH_UP")),
      seen.count("TOUCH_DOWN") == 3 and seen.count("TOUCH_CANCEL") == 3 and seen.count("TOUCH_UP") == 0)

# 3. A checkmark with delays_touches_began: nothing of it; a circle reaches the twin whole.
daemon.reload('[[gesture]]\nname = "confirm"\ntype = "checkmark"\ndelays_touches_began = true\ncommand = "true"\n')
mark = twin.mark()
panel.play(checkmark().text())
settle()
check("checkmark: the twin sees nothing of it (%d events)" % (len(twin.raw) - mark[1]), len(twin.raw) == mark[1])
check("and it was recognized", "confirm (checkmark) recognized" in daemon.text())
mark = twin.mark()
shape = circle()
panel.play(shape.text())
settle()
expected = frames([tuple(int(x, 16) if i < 2 else int(x) for i, x in enumerate(l.split()[2:]))
                   for l in shape.text().splitlines() if l.startswith("E:")])
got = twin.frames_since(mark)
check("a circle (not a checkmark) reaches the twin whole once it fails (%d of %d frames)" % (len(got), len(expected)),
      got == expected)
if got != expected:
    print("     first difference:", next(((i, a, b) for i, (a, b) in enumerate(zip(got, expected)) if a != b), None))

# 4. A double tap with delays: a lone tap reaches the twin once the double-tap window passed.
daemon.reload('[[gesture]]\nname = "double"\ntype = "tap"\ntaps = 2\nmax_interval_ms = 350\ndelays_touches_began = true\n')
mark = twin.mark()
ended = []
panel.play(tap().text(), on_frame=ended.append)
settle()
got = twin.raw[mark[1]:]
late = (got[0][0] - ended[-1]) * 1000 if got and ended else -1
check("a lone tap reaches the twin after the double-tap window (%.0f ms after the lift, window 350 ms)" % late,
      late >= 300 and len(twin.frames_since(mark)) == 2)

# A reload that leaves isolation as it was, mid-drag: the panel stays open and grabbed with
# the same twin, and the touch in flight lives on to its lift (no cancel).
daemon.reload(MENU)
twins_before = len(twins_in(daemon.text(), panel))
mark = twin.mark()
playing = threading.Thread(target=panel.play, args=(drag(seconds=2).text(),))
playing.start()
time.sleep(0.6)
daemon.reload(MENU)
playing.join()
settle()
seen = twin.touch_events(mark)
check("SIGHUP mid-drag, isolate = true unchanged: the panel stays open with the same twin (%d twins made before, %d after)"
      % (twins_before, len(twins_in(daemon.text(), panel))),
      len(twins_in(daemon.text(), panel)) == twins_before and os.path.exists(twin.node) and "isolated now" not in daemon.text())
check("and the touch in flight lives on to its lift (%s)" % " ".join(sorted(set(seen))),
      seen.count("TOUCH_DOWN") == 1 and seen.count("TOUCH_UP") == 1 and "TOUCH_CANCEL" not in seen
      and seen.count("TOUCH_MOTION") > 50)

# Events dropped by the kernel (SYN_DROPPED): the daemon stopped during a long drag. After
# the resync the twin is fed the difference: no touch stays stuck on it.
daemon.reload(MENU)
mark = twin.mark()
playing = threading.Thread(target=panel.play, args=(drag(seconds=4).text(),), kwargs={"speed": 2})
playing.start()
time.sleep(0.3)  # the twin has the touch
daemon.process.send_signal(signal.SIGSTOP)
playing.join()  # the rest of the drag and its lift: more than the kernel's buffer holds
daemon.process.send_signal(signal.SIGCONT)
settle()
check("SYN_DROPPED: the daemon resynced", wait_for(10, lambda: "SYN_DROPPED" in daemon.text()))
after = twin.frames_since(mark)
check("and the touch the twin had is not stuck on it (%d frames, the last: %s)" % (len(after), after[-1] if after else "none"),
      any(after) and after[-1] == {})

# 5. SIGKILL mid-gesture: the twin goes, and the panel is everybody's again.
playing = threading.Thread(target=panel.play, args=(drag(seconds=3).text(),))
playing.start()
time.sleep(0.5)
daemon.process.kill()
daemon.process.wait()
check("SIGKILL: the twin disappears", wait_for(5, lambda: not os.path.exists(twin.node)))
after_kill, stop = [], []
threading.Thread(target=read_events, args=(panel.node, lambda: stop, after_kill), daemon=True).start()
playing.join()
stop.append(True)
check("and another reader of the panel sees its touches again (%d events)" % len(after_kill), len(after_kill) > 50)
twin.close()

# 6. Unplugged mid-gesture: the twin goes, nothing stuck; a new panel gets a new twin.
configure(MENU)
daemon = Daemon()
check("restarted, it grabs the panel again with a new twin", wait_for(20, lambda: daemon.twin_of(panel)))
old_twin = daemon.twin_of(panel)
playing = threading.Thread(target=panel.play, args=(drag(seconds=3).text(),))
playing.start()
time.sleep(0.5)
panel.destroy()
playing.join()
check("unplugged mid-gesture: the twin disappears", wait_for(5, lambda: not os.path.exists(old_twin)))
check("and the daemon stays up", daemon.process.poll() is None)
second = Panel(HEADER.replace("gestured test panel", "gestured second panel"))
check("a new panel gets a new twin", wait_for(20, lambda: daemon.twin_of(second)))
new_twin = Twin(daemon.twin_of(second))
mark = new_twin.mark()
second.play(tap().text())
settle()
seen = new_twin.touch_events(mark)
check("and a tap on it passes to its twin (%s; %d raw frames)" % (" ".join(seen), len(new_twin.frames_since(mark))),
      seen.count("TOUCH_DOWN") == 1 and seen.count("TOUCH_UP") == 1 and len(new_twin.frames_since(mark)) == 2)
new_twin.close()

# A reload that turns isolation off lets the panel go and removes its twin.
second_twin = daemon.twin_of(second)
with open(config_path, "w") as f:
    f.write('[daemon]\nbus = "none"\n\n' + MENU)
daemon.process.send_signal(signal.SIGHUP)
check("a reload without isolation removes the twin", wait_for(10, lambda: not os.path.exists(second_twin)))
daemon.reload(MENU)
check("a reload with isolation again makes a new twin", wait_for(10, lambda: len(twins_in(daemon.text(), second)) > 1))
last_twin = daemon.twin_of(second)
daemon.process.terminate()
check("SIGTERM: it exits 0", daemon.process.wait(timeout=10) == 0)
check("and its twin is gone", not os.path.exists(last_twin))
check("with no bug logged", ": bug: " not in daemon.text())
if failures():
    print("--- daemon log\n" + daemon.text()[-4000:])
sys.exit(1 if failures() else 0)
