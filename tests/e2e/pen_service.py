#!/usr/bin/env python3
"""A touchscreen's pen under the shipped unit, inside scripts/vm-run-systemd: the udev
rule lets the service read a tablet on the screen (INPUT_PROP_DIRECT) and not a
graphics tablet; a checkmark drawn with the pen fires the pen's gesture, not the
fingers' one."""
import os, subprocess, sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
from fixtures import PEN_HEADER, pen_checkmark  # noqa: E402
from uinput_panel import Panel, check, failures, wait_for  # noqa: E402

CONFIG = """[daemon]
bus = "system"

[[gesture]]
name = "confirm"
type = "checkmark"
tool = "pen"
command = "echo drawn with a $GESTURE_TOOL"

[[gesture]]
name = "by-finger"
type = "checkmark"
tool = "finger"
command = "echo drawn with fingers"
"""


def journal():
    return subprocess.run(["journalctl", "-u", "gestured", "--no-pager", "-o", "cat"], capture_output=True, text=True).stdout


with open("/etc/gestured/gestured.toml", "w") as f:
    f.write(CONFIG)
subprocess.run(["systemctl", "reset-failed", "gestured"])
subprocess.run(["systemctl", "start", "gestured"], check=True)
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
sys.exit(1 if failures() else 0)
