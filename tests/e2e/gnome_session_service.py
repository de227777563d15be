#!/usr/bin/env python3
"""GNOME Shell as a session on the VM's DRM card (tests/e2e/service.sh's suite, run on
Debian 13 with VM_QEMU_OPTS='-device virtio-vga' VM_CPU='max,avx2=off': GNOME Shell's
software renderer crashed on AVX2's gathers under QEMU 7.2's emulation, twice, and again
with Mesa's GALLIUM_OVERRIDE_CPU_CAPS=avx). gina logs in on a VT and her session runs
`gnome-shell --wayland --display-server`, which reads the panel's twin and gestured's
virtual touchpad through libinput as on a laptop (its settings in memory: dynamic
workspaces, an empty one after the last). A GTK 4 window on the first workspace. The
installed extension enabled, her agent passes its layout on to the system service: with
the window focused, a three-finger swipe begun on it is firefox's, one beside it not. A
three-finger pan given to the touchpad that holds after 16 mm: the screen (as the card
scans it out) shows the workspace part of the way with the fingers, and after the lift
the window is off the screen (the next workspace). Then GNOME's own three-finger
touchscreen swipe: with nothing of gestured's on three fingers it brings the window
back; with a three-finger swipe bound, gestured's fires and GNOME's does not."""
import os, sys, time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
from desktop_session import (NOTHING_ON_THREE, SWIPE_ON_THREE, TOUCHPAD, Session, lit_columns, reload, slides_with_the_fingers,  # noqa: E402
                             swipe, window_under_the_finger)
from gnome_shell import overview_left  # noqa: E402
from seat_sessions import isolated_panel, journal  # noqa: E402
from uinput_panel import check, wait_for  # noqa: E402

panel = isolated_panel(TOUCHPAD, "gestured laptop panel")
# Without GDM the Shell warns once that it cannot lock the screen (its main.js): a banner
# that came up mid-test over the screen the test reads. Warned already, as a user who
# has seen it once.
session = Session("gina", "wayland-0", ["gnome-shell", "--wayland", "--no-x11", "--display-server"],
                  ["GSETTINGS_BACKEND=memory", "XDG_SESSION_TYPE=wayland"],
                  {".local/share/gnome-shell/lock-warning-shown": ""})


def shell(*args):
    return session.call("org.gnome.Shell", "/org/gnome/Shell", *args)


check("GNOME Shell runs on the DRM card in her session", wait_for(240, lambda: "boolean" in shell(
    "org.freedesktop.DBus.Properties.Get", "string:org.gnome.Shell", "string:OverviewActive")))
window = session.window("firefox")
check("the window shows on the first workspace", wait_for(120, lambda: len(lit_columns("gnome-before")) > 50))
# Once started (its window shown), as it shows its overview at the end of its start.
check("and GNOME leaves its overview", wait_for(120, lambda: overview_left(shell) and overview_left(shell) and overview_left(shell)))
check("GNOME Shell enables the installed extension", wait_for(60, lambda: "boolean true" in shell(
    "org.gnome.Shell.Extensions.EnableExtension", "string:gestured@gestured.github.io")))
window_under_the_finger(panel, session, "GNOME", "GNOME Shell: gestured@gestured.github.io runs")
time.sleep(2)
after = slides_with_the_fingers(panel, "gnome-shell", "gnome-")
check(f"after the lift GNOME is on the next workspace: the window is off the screen ({len(after)} columns lit)", len(after) == 0)

# GNOME's own touchscreen gesture: three fingers sideways switch workspaces.
reload(NOTHING_ON_THREE)
swipe(panel, 3, 100)
swiped = time.monotonic()
back = wait_for(30, lambda: len(lit_columns("gnome-own-swipe")) > 50)
took = time.monotonic() - swiped
check(f"GNOME switches workspaces for a three-finger swipe on the touchscreen (its own gesture): the window is back "
      f"({took:.1f} s after it)", back)
# Twice as long and at least 10 s, the window is watched for a swipe of GNOME's that
# should not come: the Shell, drawn in software under emulation, may take seconds.
watch_s = max(10, 2 * took)
reload(SWIPE_ON_THREE)
mark = len(journal())
swipe(panel, 3, -100)
check("with a three-finger swipe bound, gestured's fires", wait_for(10, lambda: "taken (swipe) recognized" in journal()[mark:]))
check(f"and GNOME's does not: the window stays (watched {watch_s:.0f} s)",
      not wait_for(watch_s, lambda: len(lit_columns("gnome-taken-swipe")) <= 50))

window.kill()
sys.exit(session.ended("GNOME Shell", ["/tmp/firefox-window.txt", "/tmp/agent.txt"]))
