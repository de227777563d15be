#!/usr/bin/env python3
"""The desktop's own workspace animation, driven by gestured's touchpad, in a real KWin
session on the VM's DRM card, and KWin's own touchscreen gesture taken over
(tests/e2e/service.sh's suite, run on Debian 13 with VM_QEMU_OPTS='-device virtio-vga':
a headless desktop reads no input device). tess logs in on a VT (PAM, logind) and her
session runs kwin_wayland --drm, which reads the panel's twin and gestured's virtual
touchpad through libinput as on a laptop, with two virtual desktops and a GTK 4 window
on the first. It renders in software, for which KWin turns its animations off:
KWIN_EFFECTS_FORCE_ANIMATIONS=1 turns them back on, as a GPU would have them.
A three-finger pan given to the touchpad (`touchpad = true`) that stops after 16 mm and
holds: the screen (the buffer the card scans out) shows the window moved part of the way
with the fingers; after the lift KWin is on the other desktop and the window is off the
screen. Then three fingers across the panel: with nothing of gestured's on three
fingers, KWin's own gesture switches desktops; with a three-finger swipe bound,
gestured's fires and KWin's does not."""
import os, subprocess, sys, threading, time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
from fixtures import HEADER, Recording  # noqa: E402
from drm_screenshot import scanout  # noqa: E402
from seat_sessions import journal, read, run, session_of  # noqa: E402
from uinput_panel import Panel, check, failures, twins_in, wait_for  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
MACHINE = """[daemon]
bus = "system"
isolate = true

[[gesture]]
name = "workspaces"
type = "pan"
fingers = 3
touchpad = true
"""

with open("/etc/gestured/gestured.toml", "w") as f:
    f.write(MACHINE)
run("systemctl", "reset-failed", "gestured")
run("systemctl", "restart", "gestured")
panel = Panel(HEADER.replace("gestured test panel", "gestured laptop panel"))
check("the service isolates the panel", wait_for(30, lambda: twins_in(journal(), panel)))
libinput = subprocess.Popen(["libinput", "debug-events"], stdout=open("/tmp/libinput.txt", "w"), stderr=subprocess.STDOUT)

run("useradd", "--create-home", "tess")
uid = run("id", "-u", "tess").stdout.strip()
os.makedirs("/home/tess/.config")
with open("/home/tess/.config/kwinrc", "w") as f:
    f.write("[Desktops]\nNumber=2\nRows=1\n")
run("chown", "-R", "tess:tess", "/home/tess/.config")
bus = f"unix:path=/run/user/{uid}/bus"
run("systemd-run", "--unit=tess-session", "-p", "PAMName=login", "-p", "User=tess", "-p", "TTYPath=/dev/tty2",
    "-p", "StandardInput=tty-force", "-p", "StandardOutput=file:/tmp/kwin.txt", "-p", "StandardError=file:/tmp/kwin.txt",
    "-E", "LIBGL_ALWAYS_SOFTWARE=1", "-E", "KWIN_EFFECTS_FORCE_ANIMATIONS=1", "-E", f"DBUS_SESSION_BUS_ADDRESS={bus}",
    "kwin_wayland", "--drm", "--no-lockscreen", "--socket", "wayland-kwin")
check("logind opens tess's session on tty2", wait_for(30, lambda: session_of("tess-session")))
run("loginctl", "activate", session_of("tess-session") or "?")
as_tess = ["setpriv", "--reuid=tess", "--regid=tess", "--init-groups"]
tess_env = dict(os.environ, HOME="/home/tess", XDG_RUNTIME_DIR=f"/run/user/{uid}", DBUS_SESSION_BUS_ADDRESS=bus,
                WAYLAND_DISPLAY="wayland-kwin", GDK_BACKEND="wayland", GSK_RENDERER="cairo")


def kwin(*args):
    return subprocess.run(as_tess + ["dbus-send", "--session", "--print-reply", "--dest=org.kde.KWin", *args],
                          env=tess_env, capture_output=True, text=True, timeout=30).stdout


def desktop():
    """KWin's current virtual desktop (its id)."""
    said = kwin("/VirtualDesktopManager", "org.freedesktop.DBus.Properties.Get", "string:org.kde.KWin.VirtualDesktopManager",
                "string:current")
    return said.split('"')[1] if '"' in said else None


check("KWin runs on the DRM card in her session, with two desktops", wait_for(120, lambda: desktop() is not None))
window = subprocess.Popen(as_tess + ["gjs", os.path.join(HERE, "..", "gtk_window.js"), "firefox"], env=tess_env,
                          stdout=subprocess.DEVNULL, stderr=open("/tmp/window.txt", "w"))
# The screens seen, where scripts/vm-run-systemd hands them back (VM_KEEP=DIR) to be looked at.
SHOTS = "/run/job" if os.path.isdir("/run/job") else "/tmp"


def lit_columns(name):
    """The screen as the DRM card scans it out (saved as NAME.png), and the columns of
    its middle row that the light window covers (KWin alone draws a black background)."""
    shown = scanout(f"{SHOTS}/{name}.png")
    if shown is None:
        return []
    width, height, rows = shown
    row = rows[height // 2]
    return [x for x in range(width) if sum(row[3 * x:3 * x + 3]) > 600]


check("the window shows on the first desktop", wait_for(60, lambda: len(lit_columns("before")) > 50))
before = lit_columns("before")


def pan(fingers, dx_mm):
    """`fingers` 15 mm apart from the panel's middle, 8 steps of `dx_mm`, held still 6 s,
    17 steps more, then lifted: played on a thread (returned). KWin takes a few
    millimetres of a touchpad swipe for a part of the way to the next desktop."""
    rec = Recording()
    x = 148
    for step in range(9):
        rec.frame({s: (x + step * dx_mm, 50 + 15 * s) for s in range(fingers)}, advance_ms=25)
    rec.wait(6000)
    for step in range(9, 26):
        rec.frame({s: (x + step * dx_mm, 50 + 15 * s) for s in range(fingers)}, advance_ms=25)
    rec.frame({s: None for s in range(fingers)})
    playing = threading.Thread(target=panel.play, args=(rec.text(),))
    playing.start()
    return playing


start_desktop = desktop()
playing = pan(3, -2)
time.sleep(2.5)
mid = lit_columns("mid-pan")
playing.join()
time.sleep(3)
after = lit_columns("after-pan")
shift = (before[0] - mid[0]) if before and mid else None
check(f"mid-pan, the screen shows the window moved part of the way with the fingers (its left edge {before[:1]} → {mid[:1]})",
      shift is not None and 20 < shift < len(before) + before[0])
check("after the lift, a three-finger pan on the panel has switched KWin's desktop through the touchpad",
      desktop() not in (None, start_desktop))
check(f"and the window is off the screen ({len(after)} columns lit)", len(after) == 0)
libinput.terminate()
swipes = [line for line in read("/tmp/libinput.txt").splitlines() if "GESTURE_SWIPE_BEGIN" in line]
check(f"libinput took the touchpad's fingers for a swipe ({swipes[:1]})", len(swipes) > 0)


def swipe(fingers, dx_mm):
    """A quick swipe of `fingers` by `dx_mm` (20 frames, 200 ms), played now."""
    rec = Recording()
    for step in range(21):
        rec.frame({s: (148 + step * dx_mm / 20, 50 + 15 * s) for s in range(fingers)}, advance_ms=10)
    rec.frame({s: None for s in range(fingers)})
    panel.play(rec.text())


def reload(config):
    with open("/etc/gestured/gestured.toml", "w") as f:
        f.write(config)
    mark = len(journal())
    run("systemctl", "reload", "gestured")
    check("the service takes it (reload)", wait_for(20, lambda: "gestures (applied in" in journal()[mark:]))


# KWin's own touchscreen gesture: three fingers across the screen switch desktops. With
# nothing of gestured's on three fingers the twin hands them to KWin; with a swipe bound,
# gestured takes them and KWin sees none.
reload('[daemon]\nbus = "system"\nisolate = true\n\n[[gesture]]\nname = "two"\ntype = "tap"\nfingers = 2\ncommand = "true"\n')
shown = desktop()
swipe(3, 100)
time.sleep(3)
check("KWin switches desktops for a three-finger swipe on the touchscreen (its own gesture)", desktop() not in (None, shown))
reload('[daemon]\nbus = "system"\nisolate = true\n\n[[gesture]]\nname = "taken"\ntype = "swipe"\nfingers = 3\ncommand = "true"\n')
shown, mark = desktop(), len(journal())
swipe(3, -100)
time.sleep(3)
check("with a three-finger swipe bound, gestured's fires", wait_for(10, lambda: "taken (swipe) recognized" in journal()[mark:]))
check("and KWin's does not: its desktop stays", desktop() == shown)

if failures():
    print("--- KWin\n" + read("/tmp/kwin.txt")[-3000:])
    print("--- libinput\n" + read("/tmp/libinput.txt")[-3000:])
    print("--- journal\n" + journal()[-3000:])
window.kill()
sys.exit(1 if failures() else 0)
