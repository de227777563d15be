#!/usr/bin/env python3
"""The studio's start and idle on this machine, beside a plain GTK 4 window in C
(tests/bench/gtk_window.c, drawn with the renderer the studio picks) in the same headless sway: from exec to its window in sway's
tree, N times each, taking turns; then, started and left alone (12 s for GTK's cursor
blink to stop, no gestured running), its CPU ticks and wake-ups (context switches of its
threads) over 10 s. Writes JSON.

    python3 tests/bench/studio_start.py GESTURED_STUDIO OUT.json [N]"""
import json, os, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import test_apps  # noqa: E402

studio, out = sys.argv[1], sys.argv[2]
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5


class Harness:
    def __init__(self):
        self.cleanups = []

    def addCleanup(self, fn, *args):
        self.cleanups.append((fn, args))


harness = Harness()
sway = test_apps.Sway(harness, [])
floor = os.path.join(sway.dir, "gtk_window")
subprocess.run(["gcc", "-O2", "-o", floor, os.path.join(os.path.dirname(os.path.abspath(__file__)), "gtk_window.c")]
               + subprocess.run(["pkg-config", "--cflags", "--libs", "gtk4"], capture_output=True, text=True, check=True).stdout.split(),
               check=True)
os.chmod(floor, 0o755)
address = subprocess.run(sway.user + ["dbus-daemon", "--session", "--fork", "--print-address=1", "--print-pid=1"],
                         capture_output=True, text=True, check=True, env=sway.env).stdout.split()
env = dict(sway.env, WAYLAND_DISPLAY="wayland-1", DBUS_SESSION_BUS_ADDRESS=address[0], GDK_BACKEND="wayland",
           GSETTINGS_BACKEND="memory", **({"GSK_RENDERER": os.environ["GSK_RENDERER"]} if "GSK_RENDERER" in os.environ else {}))
config = os.path.join(sway.dir, "gestured.toml")
open(config, "w").close()
os.chown(config, 65534, 65534) if sway.user else None
# The floor draws as the studio does (its main.swift: GTK's cairo renderer, unless GSK_RENDERER says).
programs = {"studio": [studio, "--config", config, "--machine", "/nonexistent"],
            "GTK 4 window": ["env", "GSK_RENDERER=" + os.environ.get("GSK_RENDERER", "cairo"), floor]}
app_ids = {"studio": "org.gestured.Studio", "GTK 4 window": "org.gestured.Floor"}


def start(name):
    """Seconds from exec to the window in sway's tree; the process, left running."""
    began = time.monotonic()
    process = subprocess.Popen(sway.user + programs[name], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while f'"app_id": "{app_ids[name]}"' not in sway.msg("-t", "get_tree"):
        time.sleep(0.005)
        if time.monotonic() - began > 30:
            sys.exit(f"{name}: no window in 30 s")
    return time.monotonic() - began, process


def stop(process):
    process.kill()
    process.wait()
    time.sleep(0.3)


starts = {name: [] for name in programs}
for _ in range(rounds):
    for name in programs:
        seconds, process = start(name)
        starts[name].append(seconds)
        stop(process)


def counters(pid):
    """CPU ticks, and context switches by thread."""
    ticks = sum(int(f) for f in open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[11:13])
    switches = {}
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            lines = open(f"/proc/{pid}/task/{task}/status").read().splitlines()
        except OSError:
            continue  # gone meanwhile
        switches[task] = sum(int(l.split()[1]) for l in lines if l.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")))
    return ticks, switches


def woken(before, after):
    """Wake-ups between two counts: of the threads there both times, and each one started meanwhile
    (a thread that ended meanwhile is not seen: GTK's pool lets idle threads go)."""
    return sum(after[t] - before[t] for t in after if t in before) + sum(after[t] for t in after if t not in before)


idle = {}
for name in programs:
    _, process = start(name)
    time.sleep(12)
    # setpriv (and env) exec the program: the same process.
    pid = process.pid
    before = counters(pid)
    time.sleep(10)
    after = counters(pid)
    idle[name] = {"ticks": after[0] - before[0], "wakeups": woken(before[1], after[1]),
                  "threads": len(os.listdir(f"/proc/{pid}/task"))}
    stop(process)
result = {"rounds": rounds,
          "start_s": {name: {"p50": statistics.median(v), "most": max(v)} for name, v in starts.items()},
          "idle": idle}
json.dump(result, open(out, "w"), indent=1)
print(json.dumps(result, indent=1))
for fn, args in reversed(harness.cleanups):
    fn(*args)
subprocess.run(["kill", address[1]])
