"""What the desktop session suites share (inside scripts/vm-run-systemd with a virtio-gpu
card): the machine's touchpad configuration, a user's session on a
VT running a desktop on the DRM card, the screen as the card scans it out, and the pans,
swipes and reloads the suites make."""
import glob, os, subprocess, threading, time

from drm_screenshot import scanout
from fixtures import Recording, suite_config
from seat_sessions import journal, read, run, session_of
from uinput_panel import check, failures, holds_open, wait_for

# The screens seen, where scripts/vm-run-systemd hands them back (VM_KEEP=DIR) to be looked at.
SHOTS = "/run/job" if os.path.isdir("/run/job") else "/tmp"
TOUCHPAD = suite_config("desktop-touchpad")
NOTHING_ON_THREE = '[daemon]\nbus = "system"\nisolate = true\n\n[[gesture]]\nname = "two"\ntype = "tap"\nfingers = 2\ncommand = "true"\n'
# A swipe for the window under the first finger: firefox's, else the other one.
TOUCHED = ('[daemon]\nbus = "system"\nisolate = true\n\n[[gesture]]\nname = "elsewhere"\ntype = "swipe"\nfingers = 3\ncommand = "true"\n\n'
           '[[gesture]]\nname = "on-firefox"\ntype = "swipe"\nfingers = 3\napps = ["firefox"]\napps_window = "touched"\ncommand = "true"\n')
SWIPE_ON_THREE = '[daemon]\nbus = "system"\nisolate = true\n\n[[gesture]]\nname = "taken"\ntype = "swipe"\nfingers = 3\ncommand = "true"\n'


class Session:
    """`user`'s session on tty2 (PAM, logind), in front, running `command` with `variables`
    (its output in /tmp/USER-desktop.txt); `files` ({path under home: text}) written
    first. `env` is for the user's own programs on the desktop `display`."""
    def __init__(self, user, display, command, variables=(), files=None):
        run("useradd", "--create-home", user)
        uid = run("id", "-u", user).stdout.strip()
        for path, text in (files or {}).items():
            os.makedirs(os.path.dirname(f"/home/{user}/{path}"), exist_ok=True)
            with open(f"/home/{user}/{path}", "w") as f:
                f.write(text)
        run("chown", "-R", f"{user}:{user}", f"/home/{user}")
        bus = f"unix:path=/run/user/{uid}/bus"
        self.log = f"/tmp/{user}-desktop.txt"
        setting = [arg for variable in [*variables, f"DBUS_SESSION_BUS_ADDRESS={bus}"] for arg in ("-E", variable)]
        run("systemd-run", f"--unit={user}-session", "-p", "PAMName=login", "-p", f"User={user}", "-p", "TTYPath=/dev/tty2",
            "-p", "StandardInput=tty-force", "-p", f"StandardOutput=file:{self.log}", "-p", f"StandardError=file:{self.log}",
            *setting, *command)
        check(f"logind opens {user}'s session on tty2", wait_for(30, lambda: session_of(f"{user}-session")))
        run("loginctl", "activate", session_of(f"{user}-session") or "?")
        self.as_user = ["setpriv", f"--reuid={user}", f"--regid={user}", "--init-groups"]
        self.env = dict(os.environ, HOME=f"/home/{user}", XDG_RUNTIME_DIR=f"/run/user/{uid}", DBUS_SESSION_BUS_ADDRESS=bus,
                        WAYLAND_DISPLAY=display, GDK_BACKEND="wayland", GSK_RENDERER="cairo")

    def call(self, destination, *args):
        """A method call on the session's bus, as its user: the reply's text."""
        return subprocess.run(self.as_user + ["dbus-send", "--session", "--print-reply", f"--dest={destination}", *args],
                              env=self.env, capture_output=True, text=True, timeout=30).stdout

    def ended(self, name, logs=()):
        """The suite's end: on a failure, what the desktop `name` said, the `logs` (paths),
        gestured's journal and the machine's last lines (a desktop that crashed is only
        there); the exit status."""
        if failures():
            print(f"--- {name}\n" + read(self.log)[-3000:])
            for path in logs:
                print(f"--- {path}\n" + read(path)[-3000:])
            print("--- gestured's journal\n" + journal()[-3000:])
            print("--- the machine's journal\n" + run("journalctl", "-b", "--no-pager", "-n", "150").stdout)
        return 1 if failures() else 0

    def window(self, app):
        """A GTK 4 window of app id `app` on the desktop (light grey, drawn with cairo)."""
        return subprocess.Popen(self.as_user + ["gjs", os.path.join(os.path.dirname(__file__), "..", "gtk_window.js"), app],
                                env=self.env, stdout=subprocess.DEVNULL, stderr=open(f"/tmp/{app}-window.txt", "w"))


def lit_columns(name):
    """The screen as the DRM card scans it out (saved as NAME.png), and the columns of its
    middle row that a light window covers (the desktops' backgrounds are dark)."""
    shown = scanout(f"{SHOTS}/{name}.png")
    if shown is None:
        return []
    width, height, rows = shown
    row = rows[height // 2]
    return [x for x in range(width) if sum(row[3 * x:3 * x + 3]) > 600]


# How long held_pan holds the fingers still mid-way: GNOME Shell drawn in software under
# emulation was seen to follow 9 s late.
HOLD_S = 15


def held_pan(panel, fingers, dx_mm):
    """`fingers` 15 mm apart from the panel's middle, 8 steps of `dx_mm` (200 ms), held
    still HOLD_S, 17 steps more, then lifted: played on a thread (returned). A desktop
    takes a few millimetres of a touchpad swipe for a part of the way to the next
    workspace."""
    rec = Recording()
    for step in range(9):
        rec.frame({s: (148 + step * dx_mm, 50 + 15 * s) for s in range(fingers)}, advance_ms=25)
    rec.wait(HOLD_S * 1000)
    for step in range(9, 26):
        rec.frame({s: (148 + step * dx_mm, 50 + 15 * s) for s in range(fingers)}, advance_ms=25)
    rec.frame({s: None for s in range(fingers)})
    playing = threading.Thread(target=panel.play, args=(rec.text(),))
    playing.start()
    return playing


def command_holds_open(command, name):
    """Whether a process of COMMAND (its comm) holds the input device called NAME open:
    a compositor takes a new device from logind once udev has told it, seconds later
    under emulation."""
    nodes = {f"/dev/input/{path.split('/')[4]}" for path in glob.glob("/sys/class/input/event*/device/name")
             if read(path).strip() == name}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if read(f"/proc/{pid}/comm").strip() == command and holds_open(pid, nodes):
                return True
        except OSError:
            continue  # gone while /proc was listed
    return False


def slides_with_the_fingers(panel, compositor, prefix):
    """A held three-finger pan to the left (`held_pan`) once COMPOSITOR (its comm) has
    gestured's touchpad open, the screen saved as PREFIXbefore, PREFIXmid-pan (while the
    fingers are held) and PREFIXafter-pan (after the lift): checks that mid-pan the
    window has moved part of the way with the fingers, and returns the columns the window
    covers after the lift, once it is off the screen or 30 s have passed. A desktop drawn
    in software under emulation may take seconds to follow (GNOME Shell, seen), so the
    screen is looked at again until the fingers lift, and after."""
    check(f"{compositor} has gestured's touchpad open", wait_for(60, lambda: command_holds_open(compositor, "gestured touchpad")))
    before = lit_columns(f"{prefix}before")
    started = time.monotonic()
    playing = held_pan(panel, 3, -2)
    time.sleep(1)
    while True:
        looked = time.monotonic() - started
        mid = lit_columns(f"{prefix}mid-pan")
        moved = bool(before and mid) and 20 < before[0] - mid[0] < len(before) + before[0]
        if moved or looked > HOLD_S - 1:
            break
    check(f"mid-pan, the screen shows the window moved part of the way with the fingers (its left edge {before[:1]} → "
          f"{mid[:1]}, {looked:.1f} s into the pan)", moved)
    playing.join()
    after = []

    def off_the_screen():
        after[:] = lit_columns(f"{prefix}after-pan")
        return not after
    wait_for(30, off_the_screen)
    return after


def swipe(panel, fingers, dx_mm, start=(148, 50)):
    """A quick swipe of `fingers` by `dx_mm` (20 frames, 200 ms) from `start` (mm; the
    first finger's, the others 15 mm below each other), played now."""
    rec = Recording()
    for step in range(21):
        rec.frame({s: (start[0] + step * dx_mm / 20, start[1] + 15 * s) for s in range(fingers)}, advance_ms=10)
    rec.frame({s: None for s in range(fingers)})
    panel.play(rec.text())


def reload(config):
    """The machine's configuration replaced and reloaded; checked taken."""
    with open("/etc/gestured/gestured.toml", "w") as f:
        f.write(config)
    mark = len(journal())
    run("systemctl", "reload", "gestured")
    check("the service takes it (reload)", wait_for(20, lambda: "gestures (applied in" in journal()[mark:]))


def window_under_the_finger(panel, session, desktop, loaded):
    """The window under the finger through the installed product's path, with TOUCHED in
    force (then TOUCHPAD again): the session's agent (for `desktop`, its
    XDG_CURRENT_DESKTOP, once its log says `loaded`: the KWin script loaded, the GNOME
    Shell extension running) passes on the desktop's layout to the system service. With
    the session's one window focused, a three-finger swipe begun on it (where the screen
    as the card scans it out shows it) is firefox's, one beside it not; until the first
    layout has come, the focused window decides, and beside it is firefox's too: swiped
    until it is not."""
    reload(TOUCHED)
    agent = subprocess.Popen(session.as_user + ["gestured", "agent", "--verbose"], env=dict(session.env, XDG_CURRENT_DESKTOP=desktop),
                             stdout=subprocess.DEVNULL, stderr=open("/tmp/agent.txt", "w"))
    check(f"her agent follows her desktop ({loaded})", wait_for(60, lambda: loaded in read("/tmp/agent.txt")))
    shown, lit = scanout(f"{SHOTS}/touched.png"), lit_columns("touched")
    width = shown[0] if shown else 1
    inside, outside = ((lit[0] + lit[-1]) / 2, (lit[-1] + width) / 2) if lit else (0, 0)

    def swiped(x):
        mark = len(journal())
        swipe(panel, 3, -25 if x == outside else 25, start=(x / width * 295, 83))
        wait_for(10, lambda: "(swipe) recognized" in journal()[mark:])
        said = journal()[mark:]
        return "on-firefox" if "on-firefox (swipe) recognized" in said else "elsewhere" if "elsewhere (swipe) recognized" in said else None
    known = wait_for(30, lambda: swiped(inside) == "on-firefox" and swiped(outside) == "elsewhere")
    fired = [swiped(inside), swiped(outside)]
    check(f"a swipe begun on the window is firefox's, one beside it not, firefox focused ({fired}; the window at "
          f"{lit[:1]}..{lit[-1:]} of {width})", known and fired == ["on-firefox", "elsewhere"])
    agent.terminate()
    agent.wait(timeout=10)
    reload(TOUCHPAD)
