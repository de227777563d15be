#!/usr/bin/env python3
"""The window under the finger, the desktop's own workspace animation driven by
gestured's touchpad, and KWin's own touchscreen gesture taken over, in a real KWin
session on the VM's DRM card
(tests/e2e/service.sh's suite, run on Debian 13 with VM_QEMU_OPTS='-device virtio-vga':
a headless desktop reads no input device). tess logs in on a VT (PAM, logind) and her
session runs kwin_wayland --drm, which reads the panel's twin and gestured's virtual
touchpad through libinput as on a laptop, with two virtual desktops and a GTK 4 window
on the first. Her session's agent loads the packaged KWin script, whose layout it
passes on to the system service: with firefox focused, a three-finger swipe begun on
the window (where the screen shows it) is firefox's, one beside it not.
It renders in software, for which KWin turns its animations off:
KWIN_EFFECTS_FORCE_ANIMATIONS=1 turns them back on, as a GPU would have them.
A three-finger pan given to the touchpad (`touchpad = true`) that stops after 16 mm and
holds: the screen (the buffer the card scans out) shows the window moved part of the way
with the fingers; after the lift KWin is on the other desktop and the window is off the
screen. Then three fingers across the panel: with nothing of gestured's on three
fingers, KWin's own gesture switches desktops; with a three-finger swipe bound,
gestured's fires and KWin's does not."""
import os, subprocess, sys, time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
from desktop_session import (NOTHING_ON_THREE, SWIPE_ON_THREE, TOUCHPAD, Session, lit_columns, reload, slides_with_the_fingers,  # noqa: E402
                             swipe, window_under_the_finger)
from seat_sessions import isolated_panel, journal, read  # noqa: E402
from uinput_panel import check, wait_for  # noqa: E402

panel = isolated_panel(TOUCHPAD, "gestured laptop panel")
libinput = subprocess.Popen(["libinput", "debug-events"], stdout=open("/tmp/libinput.txt", "w"), stderr=subprocess.STDOUT)
session = Session("tess", "wayland-kwin", ["kwin_wayland", "--drm", "--no-lockscreen", "--socket", "wayland-kwin"],
                  ["LIBGL_ALWAYS_SOFTWARE=1", "KWIN_EFFECTS_FORCE_ANIMATIONS=1"],
                  {".config/kwinrc": "[Desktops]\nNumber=2\nRows=1\n"})


def desktop():
    """KWin's current virtual desktop (its id)."""
    said = session.call("org.kde.KWin", "/VirtualDesktopManager", "org.freedesktop.DBus.Properties.Get",
                        "string:org.kde.KWin.VirtualDesktopManager", "string:current")
    return said.split('"')[1] if '"' in said else None


check("KWin runs on the DRM card in her session, with two desktops", wait_for(120, lambda: desktop() is not None))
window = session.window("firefox")
check("the window shows on the first desktop", wait_for(60, lambda: len(lit_columns("before")) > 50))

window_under_the_finger(panel, session, "KDE", "KWin: loaded gestured's script")
reload(TOUCHPAD)
start_desktop = desktop()
after = slides_with_the_fingers(panel, "kwin_wayland", "")
check("after the lift, a three-finger pan on the panel has switched KWin's desktop through the touchpad",
      desktop() not in (None, start_desktop))
check(f"and the window is off the screen ({len(after)} columns lit)", len(after) == 0)
libinput.terminate()
swipes = [line for line in read("/tmp/libinput.txt").splitlines() if "GESTURE_SWIPE_BEGIN" in line]
check(f"libinput took the touchpad's fingers for a swipe ({swipes[:1]})", len(swipes) > 0)

# KWin's own touchscreen gesture: three fingers across the screen switch desktops. With
# nothing of gestured's on three fingers the twin hands them to KWin; with a swipe bound,
# gestured takes them and KWin sees none.
reload(NOTHING_ON_THREE)
shown = desktop()
swipe(panel, 3, 100)
time.sleep(3)
check("KWin switches desktops for a three-finger swipe on the touchscreen (its own gesture)", desktop() not in (None, shown))
reload(SWIPE_ON_THREE)
shown, mark = desktop(), len(journal())
swipe(panel, 3, -100)
time.sleep(3)
check("with a three-finger swipe bound, gestured's fires", wait_for(10, lambda: "taken (swipe) recognized" in journal()[mark:]))
check("and KWin's does not: its desktop stays", desktop() == shown)

window.kill()
sys.exit(session.ended("KWin", ["/tmp/libinput.txt", "/tmp/agent.txt"]))
