#!/usr/bin/env python3
"""A touchscreen's pen under the shipped unit, inside scripts/vm-run-systemd: the udev
rule lets the service read a tablet on the screen (INPUT_PROP_DIRECT) and not a
graphics tablet; a checkmark drawn with the pen fires the pen's gesture, not the
fingers' one; while the pen hovers over its isolated touchscreen (one
LIBINPUT_DEVICE_GROUP), a palm's swipe fires nothing and reaches the twin whole, and
after it leaves (and palm_after_pen_ms) swipes fire again. With withhold_palm, the twin
gets no touch while the pen is near and palm_after_pen_ms after, and a finger down when
it comes near ends there as a cancel."""
import os, subprocess, sys, time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
from fixtures import HEADER, PEN_HEADER, Recording, pen_checkmark, suite_config, three_finger_swipe_down  # noqa: E402
from uinput_panel import Panel, Twin, check, failures, twins_in, wait_for  # noqa: E402
from service_journal import journal, start_service  # noqa: E402

CONFIG = suite_config("pen")


start_service(CONFIG)
pen = Panel(PEN_HEADER)
graphics_tablet = Panel(PEN_HEADER.replace("gestured test pen", "gestured graphics tablet").replace("P: 02", "P: 00"))
subprocess.run(["udevadm", "settle"])
tags = subprocess.run(["udevadm", "info", pen.node], capture_output=True, text=True).stdout
check("udev tags the pen for gestured", "gestured" in tags and "ID_INPUT_TABLET=1" in tags)
check("the service reads the pen", wait_for(30, lambda: f"{pen.node}: 'gestured test pen'" in journal()))
check("but not a graphics tablet (no INPUT_PROP_DIRECT)", "gestured graphics tablet" not in journal())
pen.play(pen_checkmark().text())
check("a checkmark drawn with the pen fires the pen's gesture", wait_for(10, lambda: "confirm: drawn with a pen" in journal()))
check("and not the fingers' one", "drawn with fingers" not in journal())
pen.destroy()
graphics_tablet.destroy()
subprocess.run(["systemctl", "stop", "gestured"])

# The palm: a pen and its touchscreen, two interfaces of one USB device (libinput's one group).
with open("/etc/gestured/gestured.toml", "w") as f:
    f.write('[daemon]\nbus = "system"\nisolate = true\npalm_after_pen_ms = 500\n\n'
            '[[gesture]]\nname = "menu"\ntype = "swipe"\nfingers = 3\ndirection = "down"\ncommand = "echo menu opened"\n')
subprocess.run(["systemctl", "start", "gestured"], check=True)
panel = Panel(HEADER.replace("gestured test panel", "gestured pen panel"), phys="usb-0000:00:14.0-3/input0")
pen = Panel(PEN_HEADER.replace("I: 0003 1234 5679", "I: 0003 1234 5678"), phys="usb-0000:00:14.0-3/input1")
subprocess.run(["udevadm", "settle"])


def group(node):
    info = subprocess.run(["udevadm", "info", node], capture_output=True, text=True).stdout
    return next((line.split("=", 1)[1] for line in info.splitlines() if "LIBINPUT_DEVICE_GROUP=" in line), None)


check(f"libinput's udev rules put the pen and the panel in one group ({group(pen.node)})",
      group(pen.node) is not None and group(pen.node) == group(panel.node))
check("the service isolates the panel", wait_for(30, lambda: twins_in(journal(), panel)))
check("and reads the pen", wait_for(30, lambda: f"{pen.node}: 'gestured test pen'" in journal()))
if not twins_in(journal(), panel):
    sys.exit(journal()[-3000:])
twin = Twin(twins_in(journal(), panel)[-1])


def swipe():
    """(touches up, touches cancelled on the twin, whether menu fired) for a 3-finger swipe."""
    before = journal().count("menu (swipe) recognized")
    mark = twin.mark()
    panel.play(three_finger_swipe_down().text())
    time.sleep(1.5)
    seen = twin.touch_events(mark)
    return seen.count("TOUCH_UP"), seen.count("TOUCH_CANCEL"), journal().count("menu (swipe) recognized") > before


def hover(near):
    pen.write(1, 0x140, 1 if near else 0)
    pen.write(3, 0, 1000)
    pen.write(3, 1, 1000)
    pen.write(0, 0, 0)


hover(True)
time.sleep(0.5)
up, cancelled, fired = swipe()
check(f"the pen hovering, a palm's swipe fires nothing and reaches the twin whole ({up} up, {cancelled} cancelled)",
      not fired and up == 3 and cancelled == 0)
hover(False)
time.sleep(1.0)
up, cancelled, fired = swipe()
check(f"the pen gone (and 500 ms), the swipe fires again, reaching the twin not at all ({up} up, {cancelled} cancelled)",
      fired and up == 0 and cancelled == 0)
twin.close()
subprocess.run(["systemctl", "stop", "gestured"])

# withhold_palm: nothing reaches the twin while the pen is near, and palm_after_pen_ms after.
# The window is widened to 3 s: starting evemu-play on a loaded machine can take longer
# than 500 ms, and the swipe must begin inside the window for the check to mean anything.
with open("/etc/gestured/gestured.toml", "w") as f:
    f.write('[daemon]\nbus = "system"\nisolate = true\npalm_after_pen_ms = 3000\n\n'
            '[[gesture]]\nname = "menu"\ntype = "swipe"\nfingers = 3\ndirection = "down"\ncommand = "echo menu opened"\n'
            '\n[[device]]\nname = "gestured pen panel"\nwithhold_palm = true\n')
subprocess.run(["systemctl", "start", "gestured"], check=True)
check("the service isolates the panel again", wait_for(30, lambda: len(twins_in(journal(), panel)) >= 2))
twin = Twin(twins_in(journal(), panel)[-1])
up, cancelled, fired = swipe()
check(f"withhold_palm, the pen away: the swipe fires, reaching the twin not at all ({up} up, {cancelled} cancelled)",
      fired and up == 0 and cancelled == 0)
hover(True)
time.sleep(0.5)
mark = twin.mark()
up, cancelled, fired = swipe()
seen = twin.touch_events(mark)
check(f"the pen hovering, the palm's swipe fires nothing and reaches no application ({' '.join(seen) or 'nothing'})",
      not fired and not seen)
hover(False)
time.sleep(0.1)
mark = twin.mark()
up, cancelled, fired = swipe()
seen = twin.touch_events(mark)
check(f"within palm_after_pen_ms (3000) after the pen left, nothing either ({' '.join(seen) or 'nothing'})", not fired and not seen)
time.sleep(3.5)
# A finger down when the pen comes near: it ends on the twin, as a cancel.
resting = Recording()
for _ in range(5):
    resting.frame({0: (60, 60)}, advance_ms=20)
rest = len(resting.lines)
resting.frame({0: None})
mark = twin.mark()
panel.play("\n".join(resting.lines[:rest]))
time.sleep(0.5)
hover(True)
time.sleep(0.5)
panel.play("\n".join(resting.lines[rest:]))
time.sleep(1.0)
seen = twin.touch_events(mark)
check(f"a finger down when the pen comes near ends on the twin as a cancel ({' '.join(x for x in seen if x != 'TOUCH_MOTION')})",
      seen.count("TOUCH_DOWN") == 1 and seen.count("TOUCH_CANCEL") == 1 and "TOUCH_UP" not in seen)
hover(False)
time.sleep(3.5)
up, cancelled, fired = swipe()
check(f"the pen gone (and 3000 ms): the swipe fires and, as before, reaches the twin not at all ({up} up, {cancelled} cancelled)",
      fired and up == 0 and cancelled == 0)
twin.close()
pen.destroy()
panel.destroy()
subprocess.run(["systemctl", "stop", "gestured"])
sys.exit(1 if failures() else 0)
