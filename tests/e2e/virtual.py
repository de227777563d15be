#!/usr/bin/env python3
"""Keys, clicks, steps and scrolling in a real kernel (inside scripts/vm-run, as root):
gesture recordings played on a uinput panel the daemon isolates, and `libinput
debug-events` reading gestured's virtual keyboard and pointer as an application would.
    tests/e2e/virtual.py GESTURED"""
import os, re, subprocess, sys, threading, time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
from fixtures import HEADER, Recording, long_press, rotation, three_finger_swipe_right, two_finger_pan, two_taps  # noqa: E402
from uinput_panel import Panel, Reader, Twin, check, failures, suite, twins_in, wait_for  # noqa: E402

gestured, work, config_path = suite("virtual")


def keys(lines):
    """'KEY_LEFTCTRL pressed' for each KEYBOARD_KEY line."""
    out = []
    for l in lines:
        m = re.search(r"(KEY_\w+) \(\d+\) (pressed|released)", l)
        if m:
            out.append(m.group(1) + " " + m.group(2))
    return out


def settle():
    time.sleep(1.0)


panel = Panel(HEADER)
log = open(os.path.join(work, "daemon.log"), "a+")
daemon = subprocess.Popen([gestured, "run", "--config", config_path, "--verbose"], stdout=log, stderr=log)
text = lambda: open(log.name).read()
found = re.compile(r"virtual keyboard and pointer for [^:]*: (/dev/input/event\d+), (/dev/input/event\d+)")
check("the daemon makes its virtual keyboard and pointer", wait_for(20, lambda: found.search(text())))
check("and isolates the panel", wait_for(20, lambda: twins_in(text(), panel)))
if not found.search(text()) or not twins_in(text(), panel):
    sys.exit("--- daemon log\n" + text())
keyboard_node, pointer_node = found.search(text()).groups()
keyboard, pointer, twin = Reader(keyboard_node), Reader(pointer_node), Twin(twins_in(text(), panel)[-1])
check("libinput takes them for a keyboard and a pointer",
      any("keyboard" in l for l in keyboard.lines if "DEVICE_ADDED" in l)
      and any("pointer" in l for l in pointer.lines if "DEVICE_ADDED" in l))
check("gestured reads neither", wait_for(5, lambda: keyboard_node + ": a gestured twin or virtual device" in text()
                                         or keyboard_node + ": '" not in text()) and pointer_node + ": '" not in text())

# 1. A three-finger swipe right: ctrl, alt, Right pressed in order, released in reverse;
# the twin gets none of it.
mark, twin_mark = len(keyboard.lines), twin.mark()
panel.play(three_finger_swipe_right().text())
settle()
pressed = keys(keyboard.since(mark, "KEYBOARD_KEY"))
check("three fingers right: %s" % ", ".join(pressed), pressed == [
    "KEY_LEFTCTRL pressed", "KEY_LEFTALT pressed", "KEY_RIGHT pressed",
    "KEY_RIGHT released", "KEY_LEFTALT released", "KEY_LEFTCTRL released"])
seen = twin.touch_events(twin_mark)
check("and the swipe reaches the twin not at all (%d touch events)" % len(seen), not seen)

# 2. A long press at (100, 60) mm on a 295 × 166 mm panel: a right click there.
mark = len(pointer.lines)
panel.play(long_press(at=(100, 60)).text())
settle()
motion = [re.search(r"([\d.]+)/\s*([\d.]+)", l) for l in pointer.since(mark, "POINTER_MOTION_ABSOLUTE")]
buttons = [re.search(r"(BTN_\w+) \(\d+\) (pressed|released)", l).groups() for l in pointer.since(mark, "POINTER_BUTTON")]
at = tuple(float(v) for v in motion[-1].groups()) if motion and motion[-1] else None
expected = (100 / (3839 / 13) * 100, 60 / (2159 / 13) * 100)
check("a long press: the pointer moves to the finger (%s%%, expected %.2f/%.2f%%)" % (at, *expected),
      at is not None and abs(at[0] - expected[0]) <= 1 and abs(at[1] - expected[1]) <= 1)
check("and clicks right there (%s)" % buttons, buttons == [("BTN_RIGHT", "pressed"), ("BTN_RIGHT", "released")])

# 2b. A double tap: a double left click.
mark = len(pointer.lines)
panel.play(two_taps(150).text())
settle()
buttons = [re.search(r"(BTN_\w+) \(\d+\) (pressed|released)", l).groups() for l in pointer.since(mark, "POINTER_BUTTON")]
check("a double tap: two left clicks (%s)" % buttons, buttons == [("BTN_LEFT", "pressed"), ("BTN_LEFT", "released")] * 2)

# 3. Two fingers turning 90° clockwise and back, step 15: six VolumeUp, then six VolumeDown.
mark = len(keyboard.lines)
panel.play(rotation(turns=((0, 90), (90, 0))).text())
settle()
volume = [k.split()[0] for k in keys(keyboard.since(mark, "KEYBOARD_KEY")) if k.endswith("pressed")]
check("a quarter turn and back in steps of 15°: %d VolumeUp then %d VolumeDown"
      % (volume.count("KEY_VOLUMEUP"), volume.count("KEY_VOLUMEDOWN")),
      volume == ["KEY_VOLUMEUP"] * 6 + ["KEY_VOLUMEDOWN"] * 6)

# 4. Two fingers panning 80 mm down, 8 mm a notch: the wheel turns ten notches up (natural).
mark = len(pointer.lines)
panel.play(two_finger_pan(down_mm=80).text())
settle()
v120 = [float(m.group(1)) for m in (re.search(r"vert\s+-?[\d.]+/(-?[\d.]+)", l) for l in pointer.since(mark, "POINTER_SCROLL_WHEEL")) if m]
check("a two-finger pan of 80 mm scrolls %.0f units (1200 expected within 5 %%, content following the fingers)" % sum(v120),
      abs(abs(sum(v120)) - 1200) <= 60 and sum(v120) < 0)

# 5. Four fingers flung 60 mm up in 0.2 s (kinetic = true): the wheel goes on after the
# lift, slowing down; flung again, a tap 0.3 s after the lift stops it.
def fling():
    flung = Recording()
    for i in range(21):
        flung.frame({s: (80 + 15 * s, 130 - i * 3) for s in range(4)})
    flung.frame({s: None for s in range(4)})
    return flung


def wheel(since):
    return [float(m.group(1)) for m in (re.search(r"vert\s+-?[\d.]+/(-?[\d.]+)", l) for l in pointer.since(since, "POINTER_SCROLL_WHEEL")) if m]


mark = len(pointer.lines)
panel.play(fling().text())
lifted = len(pointer.lines)
time.sleep(4.5)
units, glide = wheel(mark), wheel(lifted)
# Fingers going up turn the wheel the other way from fingers going down (section 4).
check("a fling of 60 mm scrolls on after the lift: %.0f units in all, the fingers' 900 and %d wheel events after"
      % (sum(units), len(glide)), sum(units) > 900 * 1.5 and len(glide) > 20)
check("slowing down: its first %s, its last %s (units an event)" % (glide[:3], glide[-3:]),
      len(glide) > 20 and all(v >= 0 for v in glide) and sum(glide[-5:]) < sum(glide[:5]) / 3)
panel.play(fling().text())
time.sleep(0.3)
tap = Recording()
tap.tap(at=(150, 100))
panel.play(tap.text())
time.sleep(0.2)
mark = len(pointer.lines)
time.sleep(1.0)
check("a touch stops the glide: %d wheel events in the second after it" % len(wheel(mark)), not wheel(mark))

daemon.terminate()
check("SIGTERM: it exits 0", daemon.wait(timeout=10) == 0)
check("and its virtual devices are gone", wait_for(5, lambda: not os.path.exists(keyboard_node) and not os.path.exists(pointer_node)))

# Killed (SIGKILL) mid-rotation: the kernel removes the devices; nothing stays pressed.
daemon = subprocess.Popen([gestured, "run", "--config", config_path], stdout=log, stderr=log)
check("restarted, it makes its devices again", wait_for(20, lambda: len(found.findall(text())) > 1))
keyboard_node, pointer_node = found.findall(text())[-1]
killed_reader = Reader(keyboard_node)
playing = threading.Thread(target=panel.play, args=(rotation(turns=((0, 360),)).text(),))
playing.start()
wait_for(10, lambda: any("KEY_VOLUMEUP" in l for l in killed_reader.lines))
daemon.kill()
daemon.wait()
playing.join()
check("SIGKILL mid-rotation: its devices are gone", wait_for(5, lambda: not os.path.exists(keyboard_node)))
killed = keys(killed_reader.lines)
check("and every key pressed was released (%d pressed, %d released)" % (sum(k.endswith("pressed") for k in killed), sum(k.endswith("released") for k in killed)),
      sum(k.endswith("pressed") for k in killed) >= 1
      and sum(k.endswith("pressed") for k in killed) == sum(k.endswith("released") for k in killed))
killed_reader.close()
released = keys(keyboard.lines)
check("no key was left down (%d pressed, %d released)" % (sum(k.endswith("pressed") for k in released), sum(k.endswith("released") for k in released)),
      sum(k.endswith("pressed") for k in released) == sum(k.endswith("released") for k in released))
check("with no bug logged", ": bug: " not in text())
for reader in (keyboard, pointer):
    reader.close()
twin.close()
if failures():
    print("--- daemon log\n" + text()[-4000:])
    print("--- pointer\n" + "".join(pointer.lines[-30:]))
sys.exit(1 if failures() else 0)
