#!/usr/bin/env python3
"""The overlay in an X11 session and on sway, inside scripts/vm-run-systemd (tests/e2e/service.sh,
one of its suites): the machine's `overlay = true`, dana logged in on a VT (tty8: PAM, logind)
with her agent on an Xvfb display; a slow three-finger pan on the isolated panel. Mid-way
the screen's pixels show the trail along the fingers' path and a click on the trail
reaches the window under it (tests/x11_probe.c: XGetImage, and XTEST); a second after
the lift the overlay is gone. The updates are
addressed to dana's agent alone: a listener of another user's, or of hers outside the
agent, hears none. Then fay's session in front runs sway headless with two foot windows:
grim shows the trail her agent draws through the layer shell, a click on it (sway's seat
cursor) focuses the window under it, and it is gone after the lift. Last, gina's session
in front runs GNOME Shell headless: its screenshots show the trail the extension draws
from her agent's updates, and none after the lift."""
import json, os, subprocess, sys, threading, time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
from fixtures import Recording, suite_config  # noqa: E402
from gnome_shell import overview_left  # noqa: E402
from svg_screenshots import png_pixels  # noqa: E402
from seat_sessions import isolated_panel, journal, read, run, session_of  # noqa: E402
from uinput_panel import check, failures, wait_for  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DISPLAY = ":5"
WIDTH, HEIGHT = 1280, 800
PANEL_MM = (3839 / 13, 2159 / 13)
MACHINE = suite_config("overlay")


def coloured(rgb):
    """One of the overlay's colours (blue, green, red), not Xvfb's black or the window's white."""
    return rgb in ("3584e4", "33d17a", "e01b24")


panel = isolated_panel(MACHINE, "gestured kiosk panel")

xvfb = subprocess.Popen(["Xvfb", DISPLAY, "-ac", "-noreset", "-screen", "0", f"{WIDTH}x{HEIGHT}x24"],
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
check("an X server (Xvfb)", wait_for(20, lambda: run("xwininfo", "-root", "-display", DISPLAY).returncode == 0))

for user in ("dana", "erik"):
    run("useradd", "--create-home", user)
    os.makedirs(f"/home/{user}/.config/gestured")
    with open(f"/home/{user}/.config/gestured/gestured.toml", "w") as f:
        f.write('[[gesture]]\nname = "mine"\ntype = "tap"\nfingers = 4\ncommand = "true"\n')
    run("chown", "-R", f"{user}:{user}", f"/home/{user}/.config")
uid = run("id", "-u", "dana").stdout.strip()
run("systemd-run", "--unit=dana-session", "-p", "PAMName=login", "-p", "User=dana", "-p", "TTYPath=/dev/tty8",
    "-p", "StandardInput=tty-force", "-p", "StandardError=file:/tmp/agent-dana.txt", "-E", f"DISPLAY={DISPLAY}",
    "gestured", "agent", "--verbose")


check("logind opens dana's session, her agent in it", wait_for(30, lambda: session_of("dana-session")))
session = session_of("dana-session") or "?"
run("loginctl", "activate", session)
check("her session in front, gestured takes her configuration from her agent",
      wait_for(30, lambda: f"uid {uid}'s configuration taken" in journal()))

# Listeners that must hear nothing: erik (another user), and dana herself outside her agent.
listeners = {}
for user in ("erik", "dana"):
    listeners[user] = f"/tmp/feedback-{user}.txt"
    subprocess.Popen(["setpriv", f"--reuid={user}", f"--regid={user}", "--init-groups", "dbus-monitor", "--system",
                      "type='signal',interface='org.gestured.Gestured1',member='Feedback'"],
                     stdout=open(listeners[user], "w"), stderr=subprocess.STDOUT)
root_monitor = subprocess.Popen(["dbus-monitor", "--system", "type='signal',member='Feedback'"], stdout=open("/tmp/feedback-root.txt", "w"),
                                stderr=subprocess.DEVNULL)

# A window under where the fingers will go, that says whether a click reaches it.
subprocess.run(["gcc", "-O2", "-o", "/tmp/x11_probe", os.path.join(HERE, "..", "x11_probe.c"), "-lX11", "-l:libXtst.so.6"], check=True)
probe = subprocess.Popen(["/tmp/x11_probe", "100", "100", "900", "500"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                         env=dict(os.environ, DISPLAY=DISPLAY))
check("a window under the path", probe.stdout.readline().strip() == "ready")


def ask(line):
    probe.stdin.write(line + "\n")
    probe.stdin.flush()
    return probe.stdout.readline().strip()


def pixel(mm):
    """The screen's colour where a point of the panel (mm) is: the panel spans the screen."""
    return ask("pixel %d %d" % (int(mm[0] / PANEL_MM[0] * WIDTH), int(mm[1] / PANEL_MM[1] * HEIGHT)))


def started_pan(seconds):
    """Three fingers 15 mm apart from (60, 50) mm, 100 mm to the right in `seconds`,
    played on a thread of its own (returned, to join). Half-way, the first finger at 110 mm,
    they rest 4 s: a screen shot mid-way is taken within it, and not after the lift on a
    loaded machine."""
    pan = Recording()
    for i in range(101):
        pan.frame({s: (60 + i, 50 + 15 * s) for s in range(3)}, advance_ms=seconds * 10)
        if i == 50:
            pan.wait(4000)
    pan.frame({s: None for s in range(3)})
    playing = threading.Thread(target=panel.play, args=(pan.text(),))
    playing.start()
    return playing


time.sleep(1)
playing = started_pan(2)
time.sleep(1.4)
# Where the first finger went by then (from 60 mm to its rest at 110): sampled every 5 mm from 65 to 100.
on_trail = [pixel((x, 50)) for x in range(65, 101, 5)]
check(f"mid-way, the screen shows the first finger's trail along its path ({on_trail})", all(map(coloured, on_trail)))
off_trail = [pixel((x, 130)) for x in range(65, 101, 5)]
check(f"and nothing where no finger went ({off_trail})", not any(map(coloured, off_trail)))
x, y = int(80 / PANEL_MM[0] * WIDTH), int(50 / PANEL_MM[1] * HEIGHT)
check("a click on the trail reaches the window under the overlay", ask(f"click {x} {y}") == "reached")
playing.join()
time.sleep(1.5)
after = [pixel((x, 50)) for x in range(65, 101, 5)]
check(f"a second after the lift, the overlay is gone ({after})", not any(map(coloured, after)))

updates = read("/tmp/feedback-root.txt").count("member=Feedback")
check(f"gestured sent its updates ({updates}; at most 60 a second: {2.2 * 60:.0f} in the pan's 2.2 s)", 10 <= updates <= 2.2 * 60 + 5)
for user, path in listeners.items():
    heard = read(path).count("member=Feedback")
    check(f"{user}'s own listener (not the agent) heard none of them ({heard})", heard == 0)
agent_log = read("/tmp/agent-dana.txt")
check("the agent drew without an error", "overlay:" not in agent_log)

probe.stdin.close()
probe.kill()
xvfb.kill()

# The same on a Wayland desktop: fay's session runs sway, headless, with two foot windows
# side by side, the right one focused; her agent draws through the layer shell.
run("useradd", "--create-home", "fay")
fay = run("id", "-u", "fay").stdout.strip()
run("systemd-run", "--unit=fay-session", "-p", "PAMName=login", "-p", "User=fay", "-p", "TTYPath=/dev/tty9",
    "-p", "StandardInput=tty-force", "-p", "StandardError=file:/tmp/agent-fay.txt", "-E", "WAYLAND_DISPLAY=wayland-1",
    "gestured", "agent", "--verbose")
check("logind opens fay's session, her agent in it", wait_for(30, lambda: session_of("fay-session")))
runtime = f"/run/user/{fay}"
wait_for(15, lambda: os.path.isdir(runtime))
as_fay = ["setpriv", "--reuid=fay", "--regid=fay", "--init-groups"]
sway_env = dict(os.environ, HOME=f"/home/fay", XDG_RUNTIME_DIR=runtime, WLR_BACKENDS="headless", WLR_RENDERER="pixman",
                WLR_LIBINPUT_NO_DEVICES="1")
sway_env.pop("DISPLAY", None)
with open("/tmp/sway-fay.conf", "w") as f:
    f.write("output HEADLESS-1 resolution 1280x800\n")
sway = subprocess.Popen(as_fay + ["sway", "-c", "/tmp/sway-fay.conf"], env=sway_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
check("sway runs headless in her session", wait_for(30, lambda: os.path.exists(f"{runtime}/wayland-1")))
ipc = lambda: next((f"{runtime}/{f}" for f in os.listdir(runtime) if f.startswith("sway-ipc.")), "")
swaymsg = lambda *args: run(*as_fay, "swaymsg", "-s", ipc(), *args).stdout
client_env = dict(sway_env, WAYLAND_DISPLAY="wayland-1")
windows = []
for app_id in ("left", "right"):
    windows.append(subprocess.Popen(as_fay + ["foot", "--app-id", app_id, "sleep", "600"], env=client_env,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    wait_for(20, lambda: f'"app_id": "{app_id}"' in swaymsg("-t", "get_tree"))


def focused():
    """The app id of the window sway has focused."""
    def find(node):
        if node.get("focused"):
            return node.get("app_id") or node.get("name")
        for child in node.get("nodes", []) + node.get("floating_nodes", []):
            found = find(child)
            if found:
                return found
        return None
    try:
        return find(json.loads(swaymsg("-t", "get_tree"))) or "?"
    except ValueError:
        return "?"


check(f"two foot windows, the right one focused ({focused()})", focused() == "right")
run("loginctl", "activate", session_of("fay-session") or "?")
check("fay's session in front, her configuration taken", wait_for(30, lambda: f"uid {fay}'s configuration taken" in journal()))


def shot(name):
    """The output's pixels (grim, PPM): a function of (x, y) to RRGGBB."""
    path = f"/tmp/{name}.ppm"
    run(*as_fay, "env", f"XDG_RUNTIME_DIR={runtime}", "WAYLAND_DISPLAY=wayland-1", "grim", "-t", "ppm", path)
    data = open(path, "rb").read() if os.path.exists(path) else b"P6\n1 1\n255\n\0\0\0"
    magic, size, depth, pixels = data.split(b"\n", 3)
    w, h = map(int, size.split())
    return lambda mm: pixels[(int(mm[1] / PANEL_MM[1] * h) * w + int(mm[0] / PANEL_MM[0] * w)) * 3:][:3].hex()


playing = started_pan(2)
time.sleep(1.4)
at = shot("mid")
on_trail = [at((x, 50)) for x in range(65, 101, 5)]
check(f"sway, mid-way: grim shows the first finger's trail along its path ({on_trail})", all(map(coloured, on_trail)))
off_trail = [at((x, 130)) for x in range(65, 101, 5)]
check(f"and nothing where no finger went ({off_trail})", not any(map(coloured, off_trail)))
x, y = int(80 / PANEL_MM[0] * 1280), int(50 / PANEL_MM[1] * 800)
swaymsg("seat", "-", "cursor", "set", str(x), str(y))
swaymsg("seat", "-", "cursor", "press", "button1")
swaymsg("seat", "-", "cursor", "release", "button1")
check(f"a click on the trail reaches the window under the overlay (focused: {focused()})", wait_for(5, lambda: focused() == "left"))
playing.join()
time.sleep(1.5)
at = shot("after")
after = [at((x, 50)) for x in range(65, 101, 5)]
check(f"a second after the lift, the overlay is gone ({after})", not any(map(coloured, after)))
check("her agent drew without an error", "overlay:" not in read("/tmp/agent-fay.txt"))
for window in windows:
    window.kill()
sway.kill()

# GNOME Shell on Wayland, which has no layer shell: gina's session runs it headless, with
# the installed extension enabled (the Shell's own D-Bus interface, its settings in
# memory) on her session bus (her user manager's), where her agent passes the updates on
# to it; the same bus stands in for the Shell's system bus. The Shell takes screenshots
# for a few callers only: tests/e2e/gnome_screenshot.js owns one's name.
run("useradd", "--create-home", "gina")
gina = run("id", "-u", "gina").stdout.strip()
as_gina = ["setpriv", "--reuid=gina", "--regid=gina", "--init-groups"]
run("systemd-run", "--unit=gina-session", "-p", "PAMName=login", "-p", "User=gina", "-p", "TTYPath=/dev/tty10",
    "-p", "StandardInput=tty-force", "-p", "StandardError=file:/tmp/agent-gina.txt", "-E", "WAYLAND_DISPLAY=wayland-gnome",
    "-E", "XDG_CURRENT_DESKTOP=GNOME", "gestured", "agent", "--verbose")
check("logind opens gina's session, her agent in it", wait_for(30, lambda: session_of("gina-session")))
gina_bus = f"/run/user/{gina}/bus"
check("her session bus", wait_for(30, lambda: os.path.exists(gina_bus)))
gnome_env = dict(os.environ, HOME="/home/gina", XDG_RUNTIME_DIR=f"/run/user/{gina}", DBUS_SESSION_BUS_ADDRESS=f"unix:path={gina_bus}",
                 DBUS_SYSTEM_BUS_ADDRESS=f"unix:path={gina_bus}", GSETTINGS_BACKEND="memory")
gnome_env.pop("DISPLAY", None)
GNOME_WIDTH, GNOME_HEIGHT = 640, 400
shell = subprocess.Popen(as_gina + ["gnome-shell", "--headless", "--wayland", "--no-x11", "--virtual-monitor",
                                    f"{GNOME_WIDTH}x{GNOME_HEIGHT}", "--wayland-display", "wayland-gnome"],
                         env=gnome_env, stdout=open("/tmp/gnome-shell.txt", "w"), stderr=subprocess.STDOUT)
shell_call = lambda *args: subprocess.run(as_gina + ["dbus-send", "--session", "--print-reply", "--dest=org.gnome.Shell",
                                                     "/org/gnome/Shell", *args], env=gnome_env, capture_output=True, text=True).stdout
# GNOME 43 and 44 load the legacy form, 45 and later the ES module.
shell_release = int(subprocess.run(["gnome-shell", "--version"], capture_output=True, text=True).stdout.split()[2].split(".")[0])
uuid = "gestured-43@gestured.github.io" if shell_release < 45 else "gestured@gestured.github.io"
check(f"GNOME Shell {shell_release} runs headless in her session and enables the installed extension {uuid}", wait_for(
    180, lambda: "boolean true" in shell_call("org.gnome.Shell.Extensions.EnableExtension", f"string:{uuid}")))
wait_for(90, lambda: overview_left(shell_call) and overview_left(shell_call))
check("the extension runs", wait_for(30, lambda: "double 1" in shell_call("org.gnome.Shell.Extensions.GetExtensionInfo", f"string:{uuid}")))
run("loginctl", "activate", session_of("gina-session") or "?")
check("gina's session in front, her configuration taken", wait_for(30, lambda: f"uid {gina}'s configuration taken" in journal()))
shooter = subprocess.Popen(as_gina + ["gjs", os.path.join(HERE, "gnome_screenshot.js")], env=gnome_env,
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
check("a screenshot taker GNOME Shell answers", shooter.stdout.readline().strip() == "ready")


def band(name, mm_y):
    """A band of the screen's rows around a height of the panel (mm), as GNOME Shell
    shoots it: a function of x (mm) to RRGGBB."""
    y = int(mm_y / PANEL_MM[1] * GNOME_HEIGHT)
    path = f"/tmp/gina-{name}.png"
    shooter.stdin.write(f"0 {y - 2} {GNOME_WIDTH} 5 {path}\n")
    shooter.stdin.flush()
    answer = shooter.stdout.readline().strip()
    if answer != "done" or not os.path.exists(path):
        print(f"screenshot {name}: {answer}")
        return lambda mm_x: "?"
    width, _, channels, rows = png_pixels(path)
    return lambda mm_x: bytes(rows[2][int(mm_x / PANEL_MM[0] * width) * channels:][:3]).hex()


# The same pan, slower: GNOME Shell is slow to shoot under this VM's emulated CPU.
playing = started_pan(4)
time.sleep(2.5)
at, away = band("mid", 50), band("mid-away", 130)
on_trail = [at(x) for x in range(65, 101, 5)]
check(f"GNOME Shell, mid-way: the first finger's trail along its path ({on_trail})", all(map(coloured, on_trail)))
off_trail = [away(x) for x in range(65, 101, 5)]
check(f"and nothing where no finger went ({off_trail})", not any(map(coloured, off_trail)))
playing.join()
# The extension lets the trail linger 0.7 s after the lift. GNOME Shell, emulated, takes
# up to 8 s to shoot, its main loop held meanwhile: a shot begun as the pan ends can
# show the trail from before the lift, which the Shell reads after it; the screen is
# looked at again until the trail has gone (or 40 s, several shots past the lift).
after = []


def gone():
    at = band("after", 50)
    after[:] = [at(x) for x in range(65, 101, 5)]
    return not any(map(coloured, after))


went = wait_for(40, gone)
check(f"after the lift and its linger, the overlay goes ({after})", went)
check("her agent passed the updates on to GNOME Shell", "overlay: GNOME Shell draws it" in read("/tmp/agent-gina.txt")
      and "none is drawn" not in read("/tmp/agent-gina.txt"))
shooter.stdin.close()
shooter.kill()
shell.kill()
if failures():
    print("--- agents\n" + agent_log[-2000:] + read("/tmp/agent-fay.txt")[-2000:] + read("/tmp/agent-gina.txt")[-2000:])
    print("--- GNOME Shell\n" + read("/tmp/gnome-shell.txt")[-2000:])
    print("--- journal\n" + journal()[-2000:])
sys.exit(1 if failures() else 0)
