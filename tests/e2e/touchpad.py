#!/usr/bin/env python3
"""The desktop's own touchpad gestures from a touchscreen, in a real kernel (inside
scripts/vm-run, as root): a three-finger pan and a two-finger pinch bound with
`touchpad = true` on an isolated panel, read by `libinput debug-events` on gestured's
virtual touchpad, as a compositor's libinput reads it: libinput's own swipe and pinch,
their deltas against the fingers' travel; and on the twin, none of those touches.
    tests/e2e/touchpad.py GESTURED"""
import os, re, signal, sys, time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
from fixtures import HEADER, Recording, three_finger_swipe_right  # noqa: E402
from uinput_panel import Panel, Reader, Twin, check, failures, start_daemon, suite, twins_in, wait_for  # noqa: E402

gestured, work, config_path = suite("touchpad")


panel = Panel(HEADER)
daemon, text = start_daemon(gestured, config_path, work)
found = re.compile(r"virtual keyboard and pointer and touchpad for [^:]*: (/dev/input/event\d+), /dev/input/event\d+, (/dev/input/event\d+)")
check("the daemon makes its virtual touchpad", wait_for(20, lambda: found.search(text())))
check("and isolates the panel", wait_for(20, lambda: twins_in(text(), panel)))
if not found.search(text()) or not twins_in(text(), panel):
    sys.exit("--- daemon log\n" + text())
keyboard_node, touchpad_node = found.search(text()).groups()
touchpad, twin = Reader(touchpad_node), Twin(twins_in(text(), panel)[-1])
added = next((l for l in touchpad.lines if "DEVICE_ADDED" in l), "")
check("libinput takes it for a touchpad with gestures (%s)" % added.strip(), "gestured touchpad" in added and re.search(r"cap:\S*g", added))


def gesture_lines(mark, kind):
    return [l for l in touchpad.since(mark) if "GESTURE_" + kind in l]


# 1. Three fingers 80 mm to the right: libinput's three-finger swipe, as far as the fingers
# went. The panel keeps its frames' gaps (as a panel stamps its scans) however loaded the
# machine: a jump libinput finds is then gestured's.
mark, twin_mark = len(touchpad.lines), twin.mark()
panel.play(three_finger_swipe_right(origin=(60, 50), length=80).text(), keep_gaps=True)
time.sleep(1.5)
swipe = gesture_lines(mark, "SWIPE")
begins = [l for l in swipe if "SWIPE_BEGIN" in l]
updates = [float(m.group(1)) for m in (re.search(r"\(\s*(-?[\d.]+)/\s*(-?[\d.]+) unaccelerated\)", l) for l in swipe if "SWIPE_UPDATE" in l) if m]
# libinput's unit for a touchpad's unaccelerated deltas is its own (1000 dpi times a
# slowdown that changes between versions): read off this swipe, whose fingers move 2 mm a
# frame, as the median update; a frame dropped (a jump) or the motion before the begin
# not made up shows in the sum, not in the median.
per_mm = sorted(updates)[len(updates) // 2] / 2 if updates else 0
dx, travel = sum(updates), 80 * per_mm
events = ["jump" for l in touchpad.since(mark) if "jump detected" in l]
check("three fingers right: GESTURE_SWIPE_BEGIN with 3 fingers (%s)" % [l.split()[-1] for l in begins],
      len(begins) == 1 and begins[0].split()[-1] == "3")
check("%d updates summing dx %.0f, within 20 %% of the fingers' 80 mm (%.0f at libinput's %.2f a mm)" % (len(updates), dx, travel, per_mm),
      len(updates) >= 10 and dx > 0 and abs(dx - travel) <= 0.2 * travel)
check("no touch libinput takes for a jump of the sensor (%d)" % len(events), not events)
check("and GESTURE_SWIPE_END, not cancelled", any("SWIPE_END" in l and "cancelled" not in l for l in swipe))
check("none of its touches reaches the twin (%s)" % twin.touch_events(twin_mark), twin.touch_events(twin_mark) == [])

# 2. Two fingers spreading from 40 to 120 mm apart: libinput's pinch, scale above 1.
mark, twin_mark = len(touchpad.lines), twin.mark()
spread = Recording()
spread.pinch(center=(150, 90), start=20, end=60, steps=40)
panel.play(spread.text(), keep_gaps=True)
time.sleep(1.5)
pinch = gesture_lines(mark, "PINCH")
scales = [float(m.group(1)) for m in (re.search(r"unaccelerated\)\s+(-?[\d.]+)\s*@", l) for l in pinch if "PINCH_UPDATE" in l) if m]
check("two fingers spreading: GESTURE_PINCH_BEGIN with 2 fingers (%s)" % [l.split()[-1] for l in pinch if "PINCH_BEGIN" in l],
      [l.split()[-1] for l in pinch if "PINCH_BEGIN" in l] == ["2"])
check("its scale rising above 1 (last %s, expected about 3)" % (scales[-1:] or None), bool(scales) and scales[-1] > 1.5)
check("and GESTURE_PINCH_END", any("PINCH_END" in l for l in pinch))
check("none of its touches reaches the twin (%s)" % twin.touch_events(twin_mark), twin.touch_events(twin_mark) == [])

# 3. A one-finger touch is no touchpad gesture's: it reaches the twin, not the touchpad.
mark, twin_mark = len(touchpad.lines), twin.mark()
one = Recording()
one.tap(at=(150, 90))
panel.play(one.text())
time.sleep(1.5)
check("a tap reaches the twin (%s) and not the touchpad" % twin.touch_events(twin_mark),
      "TOUCH_DOWN" in twin.touch_events(twin_mark) and not any("TOUCH" in l or "GESTURE" in l for l in touchpad.since(mark)))

# 4. A reload without touchpad gestures removes the touchpad alone; one with them makes it again.
with open(config_path) as f:
    original = f.read()
with open(config_path, "w") as f:
    f.write(original.replace("touchpad = true\n", ""))
daemon.send_signal(signal.SIGHUP)
check("reloaded without touchpad gestures, the touchpad goes", wait_for(10, lambda: not os.path.exists(touchpad_node)))
# The device goes, then the line is logged: waited for.
check("and the keyboard stays (%s)" % keyboard_node,
      wait_for(5, lambda: "virtual touchpad removed" in text()) and os.path.exists(keyboard_node))
with open(config_path, "w") as f:
    f.write(original)
daemon.send_signal(signal.SIGHUP)
again = wait_for(10, lambda: re.search(r"virtual touchpad: /dev/input/event\d+", text()))
check("reloaded with them, a touchpad again (%s)" % re.findall(r"virtual touchpad: \S+", text()), again)

# 5. SIGTERM while the touchpad's frames wait their turn: the daemon, stopped, misses a
# swipe's frames as they come and then reads them all at once (the panel stamped them
# 10 ms apart), with the SIGTERM sent meanwhile. They still go out at a touchpad's pace,
# libinput's swipe ending as the fingers did, before the daemon exits.
touchpad.close()
touchpad = Reader(re.findall(r"virtual touchpad: (/dev/input/event\d+)", text())[-1])
mark = len(touchpad.lines)
os.kill(daemon.pid, signal.SIGSTOP)
panel.play(three_finger_swipe_right(origin=(60, 50), length=80).text(), keep_gaps=True)
daemon.terminate()
stopped_at = time.monotonic()
os.kill(daemon.pid, signal.SIGCONT)
status = daemon.wait(timeout=10)
took = time.monotonic() - stopped_at
time.sleep(1)
swipe = gesture_lines(mark, "SWIPE")
updates = [l for l in swipe if "SWIPE_UPDATE" in l]
stamps = [float(m.group(1)) for m in (re.search(r"\s\+?(\d+\.\d+)s", l) for l in updates) if m]
gaps = sorted(b - a for a, b in zip(stamps, stamps[1:]))
check("SIGTERM with frames waiting: it exits 0 (%s) within 2 s (%.2f s)" % (status, took), status == 0 and took < 2)
check("saying it first writes the touchpad's waiting frames", "touchpad's waiting frames" in text())
check("after writing them: %d updates and GESTURE_SWIPE_END" % len(updates),
      len(updates) >= 10 and any("SWIPE_END" in l for l in swipe))
check("at a touchpad's pace: the median gap between updates %.1f ms (at least 4)" % (1000 * gaps[len(gaps) // 2] if gaps else 0),
      bool(gaps) and gaps[len(gaps) // 2] >= 0.004)
check("no touch libinput takes for a jump (%s)" % [l.strip() for l in touchpad.since(mark) if "jump" in l],
      not any("jump" in l for l in touchpad.since(mark)))
check("with no bug logged", ": bug: " not in text())
touchpad.close()
twin.close()
if failures():
    print("--- daemon log\n" + text()[-4000:])
    print("--- touchpad\n" + "".join(touchpad.lines))
sys.exit(1 if failures() else 0)
