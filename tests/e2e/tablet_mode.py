#!/usr/bin/env python3
"""A 2-in-1's posture in a real kernel (inside scripts/vm-run, as root): a uinput switch
with SW_TABLET_MODE beside a uinput panel, and two swipes, down only in tablet mode and
right only out of it (when_tablet). The switch is read where it starts, followed as it
flips, kept through its unplugging, and a new one plugged in tablet mode is read again.
    tests/e2e/tablet_mode.py GESTURED"""
import os, sys, time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
from fixtures import HEADER, TABLET_SWITCH, three_finger_swipe_down, three_finger_swipe_right  # noqa: E402
from uinput_panel import Panel, check, failures, flip_tablet_switch, start_daemon, suite, wait_for  # noqa: E402

FIRED = "/tmp/tablet-mode.fired"

gestured, work, config_path = suite("tablet-mode")
if os.path.exists(FIRED):
    os.remove(FIRED)


def fired_by_both_swipes():
    """Plays the swipe down and the swipe right: the commands that ran for them."""
    before = open(FIRED).read().split() if os.path.exists(FIRED) else []
    panel.play(three_finger_swipe_down().text())
    panel.play(three_finger_swipe_right().text())
    time.sleep(1)
    return (open(FIRED).read().split() if os.path.exists(FIRED) else [])[len(before):]


switch = Panel(TABLET_SWITCH)
panel = Panel(HEADER)
daemon, text = start_daemon(gestured, config_path, work)
check("the daemon reads the switch, a laptop at the start",
      wait_for(20, lambda: f"{switch.node}: 'gestured tablet switch': the tablet-mode switch, a laptop now" in text()))
check("and the panel", wait_for(20, lambda: f"{panel.node}: 'gestured test panel'" in text()))
if failures():
    sys.exit("--- daemon log\n" + text())
fired = fired_by_both_swipes()
check(f"a laptop: the swipe right fires, the swipe down rests ({fired})", fired == ["next-desktop"])

mark = len(text())
flip_tablet_switch(switch, True)
check("folded into a tablet: the daemon says so", wait_for(10, lambda: "tablet mode: gestures with when_tablet = false rest" in text()[mark:]))
fired = fired_by_both_swipes()
check(f"a tablet: the swipe down fires, the swipe right rests ({fired})", fired == ["keyboard"])

switch.destroy()
check("the switch unplugged: the daemon says the posture stays", wait_for(10, lambda: "the tablet-mode switch is gone" in text()))
fired = fired_by_both_swipes()
check(f"still a tablet ({fired})", fired == ["keyboard"])

# Flipped at once: udev says the new device well after the kernel holds its position.
flip_tablet_switch(switch := Panel(TABLET_SWITCH), True)
check("a switch plugged in as a tablet is read so",
      wait_for(10, lambda: f"{switch.node}: 'gestured tablet switch': the tablet-mode switch, a tablet now" in text()))
mark = len(text())
flip_tablet_switch(switch, False)
check("opened out into a laptop again: the daemon says so", wait_for(10, lambda: "laptop mode: gestures with when_tablet = true rest" in text()[mark:]))
fired = fired_by_both_swipes()
check(f"a laptop again ({fired})", fired == ["next-desktop"])
check("with no bug logged", ": bug: " not in text())

daemon.terminate()
daemon.wait()
switch.destroy()
panel.destroy()
if failures():
    print("--- daemon log\n" + text()[-4000:])
sys.exit(1 if failures() else 0)
