"""The figures only a real kernel gives, measured from outside (run inside scripts/vm-run
by scripts/benchmarks, as root): end-to-end latency from the frame that ends a 1-finger
right swipe, written to a uinput touchscreen, to the first instruction of the bound
command (started directly, through /bin/sh) and to a D-Bus listener; lisgd on the same
swipes in the same boot as the yardstick; resident size, start to READY=1, CPU time to
start (lisgd's beside it), a reload's time and context switches while idle.
    python3 tests/bench/vm_bench.py GESTURED OUT.json [SWIPES]
With SWIPES 0, only the idle figures (to compare builds).
"""
import json, os, re, shutil, subprocess, sys, tempfile, time

here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [here, os.path.join(here, ".."), os.path.join(here, "..", "e2e")]
from common import Daemon, copy_programs, cpu_seconds, latencies as common_latencies, play_swipes as common_play_swipes, session_bus_with_listener, summary  # noqa: E402
from fixtures import Recording, suite_config  # noqa: E402
from uinput_panel import Panel, wait_for  # noqa: E402

out_path = sys.argv[2]
swipes = int(sys.argv[3]) if len(sys.argv) > 3 else 60
work = tempfile.mkdtemp()
os.chmod(work, 0o755)
gestured = copy_programs(sys.argv[1], work)
lisgd_program = shutil.copy(shutil.which("lisgd"), work)
stamp, listen = os.path.join(work, "stamp"), os.path.join(work, "listen")
# Static: its main() is its first instruction (no dynamic loader before it).
subprocess.run(["cc", "-O2", "-static", "-o", stamp, os.path.join(here, "stamp.c")], check=True)
emit, relay = os.path.join(work, "emit"), os.path.join(work, "relay")
for program in (listen, emit, relay):
    subprocess.run(["cc", "-O2", "-o", program, os.path.join(here, os.path.basename(program) + ".c"), "-lsystemd"], check=True)
stamps = os.path.join(work, "stamps.txt")
figures = {"swipes": swipes}


def proc_status(pid):
    fields = {}
    for line in open(f"/proc/{pid}/status"):
        key, _, value = line.partition(":")
        fields[key] = value.split()[0] if value.split() else ""
    return fields


def rss_by_mapping(pid):
    """Resident KB by file (or [heap], [stack], anonymous), largest first."""
    sizes, name = {}, None
    for line in open(f"/proc/{pid}/smaps"):
        if re.match(r"^[0-9a-f]+-[0-9a-f]+ ", line):
            fields = line.split()
            name = os.path.basename(fields[5]) if len(fields) > 5 else "anonymous"
        elif line.startswith("Rss:"):
            sizes[name] = sizes.get(name, 0) + int(line.split()[1])
    return sorted(((kb, n) for n, kb in sizes.items() if kb), reverse=True)


def rss_kb(pid):
    """Resident size from the page tables (smaps_rollup). Not VmRSS: Debian 12's kernel
    counts a task's faults in a cache of its own and adds them to VmRSS every 64th, so an
    idle process's VmRSS can miss megabytes it has mapped."""
    for line in open(f"/proc/{pid}/smaps_rollup"):
        if line.startswith("Rss:"):
            return int(line.split()[1])
    return 0


def memory_kb(pid):
    """PSS (its share of what is resident: a library shared with others counts in part)
    and anonymous memory (what it allocated itself), from smaps_rollup."""
    values = dict(re.findall(r"^(Pss|Anonymous):\s+(\d+) kB", open(f"/proc/{pid}/smaps_rollup").read(), re.M))
    return {"pss": int(values["Pss"]), "anonymous": int(values["Anonymous"])}


def write_config(text):
    path = os.path.join(work, "gestured.toml")
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o644)
    return path


def play_swipes(panel):
    lifts = common_play_swipes(panel, swipes, 0.6)
    time.sleep(1)
    return lifts


def latencies(lifts, label):
    return common_latencies(lifts, stamps, label)


swipe_config = suite_config("bench-swipe")

signal_config = swipe_config.replace('command = "{command}"\n', "")  # the signal alone

listener, panel = session_bus_with_listener(listen, stamps)


def emit_floor():
    """The bus's own hop: a signal from a small sd-bus client to the same listener."""
    emitted = [int(t) for t in subprocess.run([emit, str(swipes or 20)], capture_output=True, text=True, check=True).stdout.split()]
    time.sleep(1)
    return summary(latencies(emitted, "signal"), len(emitted))


figures["signal_floor"] = emit_floor()

# Starts, each beside lisgd's in turn (this VM's CPU times vary by twice from one start
# to the next): CPU to READY=1 (with the parsing helper's), resident size idle with one
# touchscreen; lisgd's CPU and resident size 3 s after its start.
starts = []
for _ in range(5):
    lisgd = subprocess.Popen([lisgd_program, "-d", panel.node, "-w", "3840", "-h", "2160", "-g", f"1,LR,*,*,R,{stamp} {stamps} lisgd"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    time.sleep(3)
    start = {"lisgd_cpu_s": cpu_seconds(lisgd.pid), "lisgd_rss_kb": rss_kb(lisgd.pid)}
    lisgd.terminate()
    lisgd.wait()
    daemon = Daemon(gestured, work, write_config(swipe_config.format(command=f"{stamp} {stamps} direct")), "direct.log")
    assert daemon.wait_for_log(re.escape(panel.node) + ": '"), daemon.log()
    time.sleep(3)
    start.update(cpu_s=daemon.start_cpu_s, cpu_with_helper_s=daemon.start_cpu_with_helper_s, ready_ms=daemon.ready_ms,
                 rss_kb=rss_kb(daemon.process.pid))
    starts.append(start)
    daemon.stop()
figures["starts"] = starts

# Idle with one touchscreen: where the resident size is, and what it does while nobody touches it.
daemon = Daemon(gestured, work, write_config(swipe_config.format(command=f"{stamp} {stamps} direct")), "direct.log")
figures["start_to_ready_ms"] = daemon.ready_ms
assert daemon.wait_for_log(re.escape(panel.node) + ": '"), daemon.log()
time.sleep(3)
figures["rss_idle_one_screen_kb"] = rss_kb(daemon.process.pid)
figures["rss_by_mapping"] = rss_by_mapping(daemon.process.pid)
figures["smaps_idle_one_screen"] = open(f"/proc/{daemon.process.pid}/smaps_rollup").read()
before = proc_status(daemon.process.pid)
time.sleep(10)
after = proc_status(daemon.process.pid)
figures["context_switches_10s_idle"] = sum(int(after[k]) - int(before[k]) for k in ("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches"))

if swipes == 0:
    daemon.stop()
    with open(out_path, "w") as f:
        json.dump(figures, f, indent=1)
    print(json.dumps(figures, indent=1))
    sys.exit(0)

# Latency: gestured's direct command and signal, lisgd, gestured's shell command; twice,
# so that a drift over the boot shows.
rounds = []
for round_ in range(2):
    if round_ > 0:
        daemon = Daemon(gestured, work, write_config(swipe_config.format(command=f"{stamp} {stamps} direct")), "direct.log")
        daemon.wait_for_log(re.escape(panel.node) + ": '")
    lifts = play_swipes(panel)
    result = {"direct": summary(latencies(lifts, "direct"), swipes),
              "signal": summary(latencies(lifts, "signal"), swipes)}
    if round_ == 0:
        figures["rss_after_swipes_kb"] = rss_kb(daemon.process.pid)
    daemon.stop()

    lisgd = subprocess.Popen([lisgd_program, "-d", panel.node, "-w", "3840", "-h", "2160",
                              "-g", f"1,LR,*,*,R,{stamp} {stamps} lisgd"],
                             stdout=open(os.path.join(work, "lisgd.log"), "w"), stderr=subprocess.STDOUT)
    time.sleep(2)
    lifts = play_swipes(panel)
    result["lisgd"] = summary(latencies(lifts, "lisgd"), swipes)
    lisgd.terminate()
    lisgd.wait()

    # The signal alone (no command starting beside it) and the whole path's floor (a small
    # C reader of the panel that signals each lift of a right swipe), each alone, in
    # blocks that take turns (gestured, floor, floor, gestured, gestured, floor), so that
    # a drift of this VM's speed (tens of percent over minutes) falls on both alike. Not
    # both at once: in this VM a process woken on an idle virtual CPU may wait
    # milliseconds to run (ftrace: a listener 2.8 ms), one woken on a busy CPU far less,
    # so each one's work on a lift speeds the other's signal on its way (measured so, the
    # floor came out faster and gestured's signal slower than each alone). Twice the
    # swipes of the other figures for each.
    alone, floor = [], []
    block = max(1, swipes * 2 // 3)
    for kind in ("gestured", "floor", "floor", "gestured", "gestured", "floor"):
        if kind == "gestured":
            answering = Daemon(gestured, work, write_config(signal_config), "signal.log")
            answering.wait_for_log(re.escape(panel.node) + ": '")
        else:
            answering = subprocess.Popen([relay, panel.node, "right"])
        time.sleep(1)
        lifts = common_play_swipes(panel, block, 0.6)
        time.sleep(1)
        (alone if kind == "gestured" else floor).extend(common_latencies(lifts, stamps, "signal"))
        if kind == "gestured":
            answering.stop()
        else:
            answering.terminate()
            answering.wait()
    result["signal_alone"] = summary(alone, swipes * 2)
    result["signal_relay"] = summary(floor, swipes * 2)
    result["signal_alone_ms"], result["signal_relay_ms"] = alone, floor
    result["signal_floor"] = emit_floor()

    daemon = Daemon(gestured, work, write_config(swipe_config.format(command=f"{stamp} {stamps} 'shell'")), "shell.log")
    daemon.wait_for_log(re.escape(panel.node) + ": '")
    lifts = play_swipes(panel)
    result["shell"] = summary(latencies(lifts, "shell"), swipes)
    daemon.stop()
    rounds.append(result)
figures["latency_rounds"] = rounds

# Memory idle and after activity: 1,000 taps (each running a command and emitting a
# signal) and 100 reloads; lisgd idle and after the same taps.
taps = Recording()
for i in range(1000):
    taps.tap(at=(60 + i % 10 * 15, 40 + i // 10 % 10 * 8), hold_ms=20)
    taps.wait(40)
daemon = Daemon(gestured, work, write_config('[daemon]\nbus = "session"\n\n[[gesture]]\nname = "tap"\ntype = "tap"\ncommand = "true"\nsignal = true\n'),
                "activity.log")
assert daemon.wait_for_log(re.escape(panel.node) + ": '"), daemon.log()
time.sleep(3)
figures["memory_idle_kb"] = memory_kb(daemon.process.pid)
panel.play(taps.text())
time.sleep(2)
for _ in range(100):
    daemon.reload_ms()
time.sleep(2)
figures["memory_after_activity_kb"] = memory_kb(daemon.process.pid)
figures["activity_taps_recognized"] = daemon.log().count("tap (tap) recognized")
daemon.stop()
lisgd = subprocess.Popen([lisgd_program, "-d", panel.node, "-w", "3840", "-h", "2160", "-g", f"1,LR,*,*,R,{stamp} {stamps} lisgd"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
time.sleep(3)
figures["lisgd_memory_idle_kb"] = memory_kb(lisgd.pid)
panel.play(taps.text())
time.sleep(2)
figures["lisgd_memory_after_activity_kb"] = memory_kb(lisgd.pid)
lisgd.terminate()
lisgd.wait()

# Four touchscreens and fifty bindings.
panels = [panel] + [Panel(Recording(f"gestured bench panel {i}").text()) for i in range(2, 5)]
kinds = [("tap", ""), ("tap", "taps = 2\n"), ("long-press", ""), ("swipe", 'direction = "left"\n'),
         ("swipe", 'fingers = 3\ndirection = "down"\n'), ("pan", "fingers = 2\n"), ("pinch", ""), ("rotate", ""),
         ("edge-swipe", 'edge = "left"\n'), ("checkmark", ""), ("chevron", 'direction = "up"\n')]
regions = '[[region]]\nname = "top"\nx = [0.0, 1.0]\ny = [0.0, 0.5]\n[[region]]\nname = "bottom"\nx = [0.0, 1.0]\ny = [0.5, 1.0]\n'
bindings = ""
for i in range(50):
    kind, extra = kinds[i % len(kinds)]
    region = ["", 'region = "top"\n', 'region = "bottom"\n'][i // len(kinds) % 3]
    bindings += f'[[gesture]]\nname = "g{i}"\ntype = "{kind}"\n{extra}{region}command = "{stamp} {stamps} g{i}"\n'
daemon = Daemon(gestured, work, write_config('[daemon]\nbus = "session"\n' + regions + bindings), "four.log")
ok = all(daemon.wait_for_log(re.escape(p.node) + ": '") for p in panels)
time.sleep(3)
figures["rss_four_screens_50_bindings_kb"] = rss_kb(daemon.process.pid) if ok else None
figures["four_screens_start_to_ready_ms"] = daemon.ready_ms
figures["reload_ms"] = [daemon.reload_ms() for _ in range(10)]
daemon.stop()
listener.terminate()

with open(out_path, "w") as f:
    json.dump(figures, f, indent=1)
print(json.dumps({k: v for k, v in figures.items() if k != "smaps_idle_one_screen"}, indent=1))
