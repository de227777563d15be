#!/usr/bin/env python3
"""rotation = "auto" under the shipped unit, inside scripts/vm-run-systemd: Debian's
iio-sensor-proxy reads an accelerometer made through uinput (INPUT_PROP_ACCELEROMETER,
ABS_X/Y/Z, 1 g = 256, read by its input-accel driver), and the service turns what the
panel measures with it, from the next touch sequence; with the proxy stopped the last
rotation stays, and it is followed again when the proxy restarts. A 2-in-1's tablet-mode
switch is readable by the service's user and followed."""
import os, re, subprocess, sys, threading, time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
from fixtures import HEADER, TABLET_SWITCH, Recording, suite_config  # noqa: E402
from uinput_panel import Panel, check, failures, flip_tablet_switch, wait_for  # noqa: E402
from service_journal import journal, start_service  # noqa: E402

CONFIG = suite_config("rotation")

ACCELEROMETER = """N: gestured accelerometer
I: 0006 1234 5679 0001
P: 40 00 00 00 00 00 00 00
B: 00 09 00 00 00 00 00 00 00
B: 03 07 00 00 00 00 00 00 00
A: 00 -512 512 0 0 0
A: 01 -512 512 0 0 0
A: 02 -512 512 0 0 0
"""
# What the accelerometer reports (1 g = 256) for each orientation, as iio-sensor-proxy 3.0
# turns its input readings (both axes the other way round: y = +1 g reads as bottom-up).
TILTS = {"normal": (0, -256, 0), "left-up": (256, 0, 0)}
WIDTH, HEIGHT = 3839 / 13, 2159 / 13  # the panel's millimetres
OBJECT = ["org.gestured.Gestured1", "/org/gestured/Gestured1", "org.gestured.Gestured1"]


def count(text):
    return journal().count(text)


def tilt(accelerometer, orientation):
    for code, value in enumerate(TILTS[orientation]):
        accelerometer.write(3, code, value)
    accelerometer.write(0, 0, 0)


def toward_the_panels_left(hold_ms=0):
    """One finger from 220 mm to 160 mm across the panel at mid-height, after holding
    still (the swipe's average speed stays above 25 mm/s for a hold up to 2 s)."""
    rec = Recording()
    for _ in range(hold_ms // 10):
        rec.frame({0: (220, 80)})
    for i in range(13):
        rec.frame({0: (220 - 5 * i, 80)})
    rec.frame({0: None})
    return rec


def chevron_right_on_the_turned_screen():
    """'>' drawn upright on the display turned a quarter clockwise (left-up): screen
    millimetres (x across the turned screen, y down it) mapped back onto the panel."""
    rec = Recording()
    rec.stroke([(y, HEIGHT - x) for x, y in [(50, 80), (90, 120), (50, 160)]])
    return rec


def fired(name, before):
    return wait_for(10, lambda: count(f"{name} (") > before)


accelerometer = Panel(ACCELEROMETER)
tilt(accelerometer, "normal")
start_service(CONFIG)
check("the service claims iio-sensor-proxy's accelerometer",
      wait_for(60, lambda: "rotation: following iio-sensor-proxy's accelerometer" in journal()))
panel = Panel(HEADER.replace("gestured test panel", "gestured turning panel"))
check("and reads the panel", wait_for(30, lambda: "'gestured turning panel'" in journal()))

# A 2-in-1's tablet-mode switch: 70-gestured.rules lets the service's user read it, and
# it is followed (tests/e2e/tablet_mode.py plays the gestures it keeps to a posture).
switch = Panel(TABLET_SWITCH)
subprocess.run(["udevadm", "settle"])
acl = subprocess.run(["getfacl", "-p", switch.node], capture_output=True, text=True).stdout
check(f"udev lets the service read the tablet-mode switch ({' '.join(l for l in acl.split() if 'gestured' in l)})", "user:gestured:r--" in acl)
check("and the service reads it", wait_for(20, lambda: f"{switch.node}: 'gestured tablet switch': the tablet-mode switch, a laptop now" in journal()))
flip_tablet_switch(switch, True)
check("and follows it", wait_for(10, lambda: "tablet mode: gestures with when_tablet = false rest" in journal()))
switch.destroy()

before = count("left (swipe)")
panel.play(toward_the_panels_left().text())
check("upright, a swipe toward the panel's left edge is left", fired("left", before))

tilt(accelerometer, "left-up")
check("tilted left-up, the display's rotation is 90°",
      wait_for(15, lambda: "display rotation: 90° clockwise for panels whose rotation is auto or external (iio-sensor-proxy: left-up)" in journal()))
before = count("up (swipe)")
panel.play(toward_the_panels_left().text())
check("the same swipe is up on the turned screen", fired("up", before))
before = count("chevron-right (chevron)")
panel.play(chevron_right_on_the_turned_screen().text())
check("a chevron pointing right on the turned screen is chevron-right", fired("chevron-right", before))

# Tilted back while a finger is down: that swipe keeps the rotation it began with.
before_up, before_left = count("up (swipe)"), count("left (swipe)")
rec = toward_the_panels_left(hold_ms=1500)
player = threading.Thread(target=panel.play, args=(rec.text(),))
player.start()
time.sleep(0.2)
tilt(accelerometer, "normal")
player.join()
check("a tilt during a swipe changes nothing until its lift", fired("up", before_up) and count("left (swipe)") == before_left)
check("though the service heard of it meanwhile", "display rotation: 0° clockwise" in journal())
before = count("left (swipe)")
panel.play(toward_the_panels_left().text())
check("the next swipe is left again", fired("left", before))

# The proxy away: the last rotation stays; back, it is claimed again.
subprocess.run(["systemctl", "stop", "iio-sensor-proxy"])
check("the proxy stopped, the service says the rotation stays",
      wait_for(15, lambda: re.search(r"rotation: iio-sensor-proxy went away; the rotation stays 0°", journal())))
tilt(accelerometer, "left-up")
time.sleep(1.5)
before = count("left (swipe)")
panel.play(toward_the_panels_left().text())
check("meanwhile the last rotation stays", fired("left", before))
subprocess.run(["systemctl", "start", "iio-sensor-proxy"])
check("the proxy back, the service follows it again",
      wait_for(30, lambda: journal().count("display rotation: 90° clockwise") >= 2))
before = count("up (swipe)")
panel.play(toward_the_panels_left().text())
check("and the swipe is up again", fired("up", before))

# A compositor's hook for this panel alone writes its own object (root, under the shipped
# policy; nobody is refused), and monitor beside the service follows it.
monitor_out = open("/tmp/monitor-rotation.txt", "w")
monitor = subprocess.Popen(["gestured", "monitor", "--config", "/etc/gestured/gestured.toml"], stdout=monitor_out,
                           stderr=subprocess.STDOUT, text=True)
shown = lambda: open("/tmp/monitor-rotation.txt").read()
check("monitor follows the service", wait_for(15, lambda: "following the service on the system bus" in shown()))
device = ["org.gestured.Gestured1", "/org/gestured/Gestured1/devices/" + os.path.basename(panel.node), "org.gestured.Gestured1.Device"]
def busctl(*args, user="root"):
    return subprocess.run(["runuser", "-u", user, "--", "busctl", "--system", *args], capture_output=True, text=True, timeout=30)
check("the panel's object says 90°", busctl("get-property", *device, "Rotation").stdout.strip() == "u 90")
refused = busctl("set-property", *device, "Rotation", "u", "0", user="nobody")
check(f"nobody may not set it ({refused.stderr.strip()})", refused.returncode != 0 and "Access denied" in refused.stderr)
written = busctl("set-property", *device, "Rotation", "u", "0")
check(f"root sets it to 0° ({written.stderr.strip()})", written.returncode == 0)
check("the service says so",
      wait_for(15, lambda: "gestured turning panel: rotation 0° clockwise from its next touch sequence (the control interface)" in journal()))
before = count("left (swipe)")
panel.play(toward_the_panels_left().text())
check("the swipe is left on this panel", fired("left", before))
check("the display's rotation stays 90°", busctl("get-property", *OBJECT, "Rotation").stdout.strip() == "u 90")
check("monitor shows the panel's rotation",
      wait_for(15, lambda: "gestured turning panel: rotation 0° clockwise from its next touch sequence (the service, for this panel)" in shown()))
monitor.terminate()
monitor.wait()
check("the service stays active", subprocess.run(["systemctl", "is-active", "gestured"], capture_output=True, text=True).stdout.strip() == "active")

panel.destroy()
accelerometer.destroy()
subprocess.run(["systemctl", "stop", "gestured"])
sys.exit(1 if failures() else 0)
