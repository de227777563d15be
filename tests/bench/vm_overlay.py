"""The overlay's cost, in a real kernel (inside scripts/vm-run by scripts/benchmarks, as
root): the latency from a swipe's lift to the first instruction of its command, with
`overlay = true` and without, in blocks that take turns in one boot; the session agent
drawing each update on an X display (Xvfb) meanwhile; the agent's CPU time and wake-ups
over ten idle seconds between gestures; and the overlay's lag behind the finger: from
each frame of a one-finger drag written to the panel to the X server's damage where the
trail's new dot appears (x_damage.c, the root window's damage as a compositor follows
it), the frame told by where the dot is (the drag moves 8.7 pixels a frame); and the
same drags drawn by the layer-shell overlay in headless sway, to the commit that shows
the dot as the overlay sends it (overlay_commits.c). gestured serves sessions here as the
system service does: a private bus taken for the system bus, with tests/fake_logind.c on
it saying session c1 of uid 0 is in front, and the agent (uid 0, in no session: the
user's own services) handing over its user's configuration.
    python3 tests/bench/vm_overlay.py GESTURED OUT.json [BLOCKS] [SWIPES]
"""
import json, os, re, shutil, subprocess, sys, tempfile, time

here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [here, os.path.join(here, ".."), os.path.join(here, "..", "e2e")]
from common import Daemon, latencies, pkg_flags, play_swipes, summary  # noqa: E402
from fixtures import Recording  # noqa: E402
from uinput_panel import Panel, wait_for  # noqa: E402

gestured_build, out_path = os.path.abspath(sys.argv[1]), sys.argv[2]
blocks = int(sys.argv[3]) if len(sys.argv) > 3 else 8
swipes = int(sys.argv[4]) if len(sys.argv) > 4 else 20
work = tempfile.mkdtemp()
os.chmod(work, 0o755)
build = os.path.dirname(gestured_build)
for program in ("gestured", "gestured-parse-config", "gestured-overlay", "gestured-toplevels"):
    shutil.copy(os.path.join(build, program), work)
gestured = os.path.join(work, "gestured")
# The layer-shell overlay with overlay_commits.c loaded into it, where the agent looks for it (beside gestured).
commits_library = os.path.join(work, "overlay_commits.so")
subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", commits_library, os.path.join(here, "overlay_commits.c"), "-ldl"], check=True)
os.rename(os.path.join(work, "gestured-overlay"), os.path.join(work, "gestured-overlay.real"))
with open(os.path.join(work, "gestured-overlay"), "w") as f:
    f.write(f'#!/bin/sh\nLD_PRELOAD={commits_library} exec {work}/gestured-overlay.real "$@"\n')
os.chmod(os.path.join(work, "gestured-overlay"), 0o755)
stamp, stamps = os.path.join(work, "stamp"), os.path.join(work, "stamps.txt")
subprocess.run(["cc", "-O2", "-static", "-o", stamp, os.path.join(here, "stamp.c")], check=True)
subprocess.run(["cc", "-O2", "-o", os.path.join(work, "fake_logind"), os.path.join(here, "..", "fake_logind.c"), *pkg_flags("libsystemd")], check=True)
x_damage = os.path.join(work, "x_damage")
subprocess.run(["cc", "-O2", "-o", x_damage, os.path.join(here, "x_damage.c"), *pkg_flags("xcb", "xcb-damage")], check=True)

for role in ("SYSTEM", "SESSION"):
    address = subprocess.run(["dbus-daemon", "--session", "--fork", "--print-address=1"], capture_output=True, text=True, check=True).stdout.strip()
    os.environ[f"DBUS_{role}_BUS_ADDRESS"] = address
logind = subprocess.Popen([os.path.join(work, "fake_logind")], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
assert logind.stdout.readline().strip() == "ready"
xvfb = subprocess.Popen(["Xvfb", ":7", "-ac", "-noreset", "-screen", "0", "1280x800x24"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
time.sleep(2)
panel = Panel(Recording().text())
time.sleep(1)

config = """[daemon]
bus = "system"
overlay = {overlay}

[[gesture]]
name = "right"
type = "swipe"
direction = "right"
command = "{stamp} {stamps} {label}"
"""
home = os.path.join(work, "home")
os.makedirs(os.path.join(home, ".config", "gestured"))
with open(os.path.join(home, ".config", "gestured", "gestured.toml"), "w") as f:
    f.write('[[gesture]]\nname = "mine"\ntype = "tap"\nfingers = 4\ncommand = "true"\n')
agent_log = open(os.path.join(work, "agent.log"), "w")
agent = subprocess.Popen([gestured, "agent"], env=dict(os.environ, HOME=home, DISPLAY=":7"), stdout=agent_log, stderr=subprocess.STDOUT)


def block(overlay):
    """One block of swipes with the overlay on or off: their latencies (ms)."""
    label = "on" if overlay else "off"
    path = os.path.join(work, "gestured.toml")
    with open(path, "w") as f:
        f.write(config.format(overlay=str(overlay).lower(), stamp=stamp, stamps=stamps, label=label))
    daemon = Daemon(gestured, work, path, f"daemon-{label}.log")
    assert daemon.wait_for_log(re.escape(panel.node) + ": '"), daemon.log()
    # The agent hands its configuration over again to each new daemon: from then on the updates go to it.
    assert daemon.wait_for_log("'s configuration taken"), daemon.log()
    time.sleep(0.5)
    ms = latencies(play_swipes(panel, swipes, 0.6), stamps, label)
    daemon.stop()
    return ms


def cpu_ticks(pid):
    stat = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return int(stat[11]) + int(stat[12])


def wake_ups(pid):
    """How often it has slept and been woken: its voluntary context switches."""
    return int(re.search(r"voluntary_ctxt_switches:\s+(\d+)", open(f"/proc/{pid}/status").read()).group(1))


SCREEN_WIDTH, SCREEN_HEIGHT, DOT = 1280, 800, 8  # Xvfb's and sway's, the overlays'
PANEL_X_UNITS, PANEL_Y_UNITS, UNITS_PER_MM = 3839, 2159, 13  # fixtures.HEADER's
DRAG_Y_MM = 100


def x11_dots(path):
    """Where the X server said the overlay drew: (time ns, the dot's centre in pixels) for
    each damage below the progress bar (x_damage.c's lines)."""
    for line in open(path).read().splitlines():
        fields = line.split()
        if len(fields) == 6 and fields[0] == "DAMAGE" and int(fields[3]) >= 40:
            yield int(fields[1]), int(fields[2]) + int(fields[4]) - DOT // 2


def layer_shell_dots(path):
    """What the layer-shell overlay sent the compositor: (time ns, the dot's centre) for
    each commit that moved the trail's head (overlay_commits.c's lines)."""
    for line in open(path).read().splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[0] == "COMMIT" and int(fields[2]) >= 0:
            yield int(fields[1]), int(fields[2]) - (DOT // 2 - 1)


def overlay_lag(drags, path, dots):
    """Each drag frame's delay (ms) to the first of `dots` (read from `path` after each drag)
    that shows its dot, and the frames played."""
    lags, frames = [], 0
    for _ in range(drags):
        r = Recording()
        for i in range(101):
            r.frame({0: (40 + 2 * i, DRAG_Y_MM)})
        r.frame({0: None})
        written, seen = [], -1
        panel.play(r.text(), before_frame=lambda: written.append(time.clock_gettime_ns(time.CLOCK_MONOTONIC)))
        time.sleep(1.5)  # the trail lingers 0.7 s after the lift
        frames += 101
        for received, centre in dots(path):
            if received < written[0]:
                continue
            mm = centre / SCREEN_WIDTH * PANEL_X_UNITS / UNITS_PER_MM
            frame = round((mm - 40) / 2)
            if seen < frame <= 100:
                lags.append((received - written[frame]) / 1e6)
                seen = frame
    return lags, frames


def x11_lag(drags):
    path = os.path.join(work, "damage.txt")
    watcher = subprocess.Popen([x_damage], env=dict(os.environ, DISPLAY=":7"), stdout=open(path, "w"), stderr=subprocess.STDOUT)
    assert wait_for(10, lambda: "ready" in open(path).read()), open(path).read()
    lags = overlay_lag(drags, path, x11_dots)
    watcher.terminate()
    watcher.wait()
    return lags


def layer_shell_lag(drags, daemon):
    """The same drags drawn by another agent, in headless sway (as nobody: it refuses root),
    through gestured-overlay with overlay_commits.c loaded into it."""
    runtime = tempfile.mkdtemp()
    os.chmod(runtime, 0o700)
    os.chown(runtime, 65534, 65534)
    with open(os.path.join(runtime, "config"), "w") as f:
        f.write(f"output HEADLESS-1 resolution {SCREEN_WIDTH}x{SCREEN_HEIGHT}\n")
    env = dict(os.environ, HOME=runtime, XDG_RUNTIME_DIR=runtime, WLR_BACKENDS="headless", WLR_RENDERER="pixman", WLR_LIBINPUT_NO_DEVICES="1")
    env.pop("DISPLAY", None)
    sway = subprocess.Popen(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "sway", "-c", os.path.join(runtime, "config")],
                            env=env, stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "sway.log"), "w"))
    # Under emulation sway takes most of a minute to start (its fonts), serving no client meanwhile.
    ipc = lambda: next((os.path.join(runtime, f) for f in os.listdir(runtime) if f.startswith("sway-ipc.")), None)
    assert wait_for(300, lambda: ipc() and subprocess.run(["swaymsg", "-s", ipc(), "-t", "get_outputs"], capture_output=True, timeout=60).returncode == 0), \
        open(os.path.join(work, "sway.log")).read()[-2000:]
    path = os.path.join(work, "commits.txt")
    row = int(DRAG_Y_MM * UNITS_PER_MM / PANEL_Y_UNITS * SCREEN_HEIGHT)
    taken = daemon.log().count("'s configuration taken")
    drawer = subprocess.Popen([gestured, "agent"], stdout=open(os.path.join(work, "agent-sway.log"), "w"), stderr=subprocess.STDOUT,
                              env=dict(env, HOME=home, WAYLAND_DISPLAY="wayland-1", OVERLAY_COMMITS=path, OVERLAY_WIDTH=str(SCREEN_WIDTH), OVERLAY_ROW=str(row)))
    assert wait_for(30, lambda: daemon.log().count("'s configuration taken") > taken), daemon.log()[-2000:]
    time.sleep(1)
    lags = overlay_lag(drags, path, layer_shell_dots)
    drawer.terminate()
    drawer.wait(timeout=20)
    sway.kill()  # it may take long to end on a SIGTERM under emulation; nothing of it is wanted
    sway.wait()
    return lags


pooled = {"on": [], "off": []}
for i in range(blocks):
    for overlay in ((True, False) if i % 2 == 0 else (False, True)):
        pooled["on" if overlay else "off"] += block(overlay)
        print(f"block {i + 1}, overlay {'on' if overlay else 'off'}: {len(pooled['on' if overlay else 'off'])} latencies so far", flush=True)
# Between gestures: a daemon with the overlay on, three swipes drawn, their trails faded.
with open(os.path.join(work, "gestured.toml"), "w") as f:
    f.write(config.format(overlay="true", stamp=stamp, stamps=stamps, label="idle"))
daemon = Daemon(gestured, work, os.path.join(work, "gestured.toml"), "daemon-idle.log")
assert daemon.wait_for_log("'s configuration taken"), daemon.log()
play_swipes(panel, 3, 0.6)
time.sleep(2)
before, woken = cpu_ticks(agent.pid), wake_ups(agent.pid)
time.sleep(10)
idle_ticks, idle_wake_ups = cpu_ticks(agent.pid) - before, wake_ups(agent.pid) - woken
lags, drawn = x11_lag(blocks * 2)
agent.terminate()
agent.wait(timeout=20)
layer_lags, layer_drawn = layer_shell_lag(blocks * 2, daemon)
figures = {
    "blocks": blocks, "swipes": swipes,
    "on": summary(pooled["on"], blocks * swipes), "off": summary(pooled["off"], blocks * swipes),
    "agent_idle_ticks_10s": idle_ticks, "agent_idle_wake_ups_10s": idle_wake_ups,
    "overlay_lag": summary(lags, drawn),
    "layer_shell_lag": summary(layer_lags, layer_drawn),
    "ticks_per_second": os.sysconf("SC_CLK_TCK"),
    "agent_drew": "overlay:" not in open(agent_log.name).read(),
}
daemon.stop()
xvfb.kill()
logind.kill()
with open(out_path, "w") as f:
    json.dump(figures, f, indent=1)
print(json.dumps(figures, indent=1))
