"""Two builds' latencies side by side, in one boot, against the whole path's floor: from
the lift of a 1-finger swipe to gestured's Gesture signal at a D-Bus listener (a binding
with `signal = true` and nothing else), and to a command (stamp.c, started directly),
for each build, and the same lifts relayed by relay.c (the signal's floor). They take
turns in blocks of swipes, so that a drift over the boot (this VM's speed wanders by
tens of percent) falls on each alike; vm_bench.py measures each once a round, which a
drift can tip.
    python3 tests/bench/vm_signal_ab.py OUT.json BLOCKS SWIPES LABEL=GESTURED...
(run inside scripts/vm-run, as root). Prints each block, the pooled p50 and p99, and for
each build after the first the median of its blocks' differences from the first.
"""
import json, os, re, shutil, subprocess, sys, tempfile, time

here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [here, os.path.join(here, ".."), os.path.join(here, "..", "e2e")]
from common import Daemon, latencies, play_swipes, session_bus_with_listener, summary  # noqa: E402

out_path, blocks, swipes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
work = tempfile.mkdtemp()
os.chmod(work, 0o755)
builds = {}
for argument in sys.argv[4:]:
    label, _, program = argument.partition("=")
    # Each build from the VM's /tmp (in memory), with its parsing helper beside it.
    os.mkdir(os.path.join(work, label))
    for path in (program, os.path.join(os.path.dirname(program), "gestured-parse-config")):
        shutil.copy(path, os.path.join(work, label))
    builds[label] = os.path.join(work, label, "gestured")
listen, relay, stamp = (os.path.join(work, name) for name in ("listen", "relay", "stamp"))
for program in (listen, relay):
    subprocess.run(["cc", "-O2", "-o", program, os.path.join(here, os.path.basename(program) + ".c"), "-lsystemd"], check=True)
subprocess.run(["cc", "-O2", "-static", "-o", stamp, os.path.join(here, "stamp.c")], check=True)
stamps = os.path.join(work, "stamps.txt")
configs = {}
for what, action in (("signal", "signal = true"), ("command", f'command = "{stamp} {stamps} command"')):
    configs[what] = os.path.join(work, what + ".toml")
    with open(configs[what], "w") as f:
        f.write(f'[daemon]\nbus = "session"\n[[gesture]]\nname = "right"\ntype = "swipe"\ndirection = "right"\n{action}\n')

listener, panel = session_bus_with_listener(listen, stamps)


def gestured(program, what):
    """One block of the build's signal or command: started, READY=1, its panel read, the swipes."""
    daemon = Daemon(program, work, configs[what], "daemon.log")
    assert daemon.wait_for_log(re.escape(panel.node) + ": '"), daemon.log()
    time.sleep(1)
    ms = latencies(play_swipes(panel, swipes, 0.6), stamps, what)
    daemon.stop()
    return ms


def floor_signal():
    relaying = subprocess.Popen([relay, panel.node, "right"])
    time.sleep(1)
    ms = latencies(play_swipes(panel, swipes, 0.6), stamps, "signal")
    relaying.terminate()
    relaying.wait()
    return ms


kinds = [f"{label} {what}" for what in ("signal", "command") for label in builds] + ["floor"]
pooled = {kind: [] for kind in kinds}
per_block = []
for block in range(blocks):
    medians = {}
    # Each block in another order: none is always first after the previous one's exit.
    for kind in kinds[block % len(kinds):] + kinds[:block % len(kinds)]:
        label, _, what = kind.partition(" ")
        ms = floor_signal() if kind == "floor" else gestured(builds[label], what)
        pooled[kind] += ms
        medians[kind] = summary(ms, swipes)["p50_ms"]
    per_block.append(medians)
    print(f"block {block + 1}: " + ", ".join(f"{kind} {medians[kind]:.2f} ms" for kind in kinds), flush=True)
listener.terminate()

figures = {"blocks": blocks, "swipes": swipes, "per_block_p50_ms": per_block,
           "pooled": {kind: summary(ms, blocks * swipes) for kind, ms in pooled.items()}}
for kind in (f"{label} signal" for label in builds):
    figures["pooled"][kind]["p50_over_floor"] = figures["pooled"][kind]["p50_ms"] / figures["pooled"]["floor"]["p50_ms"]
    figures["pooled"][kind]["p99_over_floor"] = figures["pooled"][kind]["p99_ms"] / figures["pooled"]["floor"]["p99_ms"]
# Each later build beside the first, block by block: the median of the blocks' differences
# of their p50s (the drift between blocks falls out of it; pooling keeps it), and in how
# many blocks it was the faster.
first, *others = builds
figures["paired"] = {}
for label in others:
    for what in ("signal", "command"):
        differences = sorted(block[f"{label} {what}"] - block[f"{first} {what}"] for block in per_block)
        middle = len(differences) // 2
        median = differences[middle] if len(differences) % 2 else (differences[middle - 1] + differences[middle]) / 2
        figures["paired"][f"{label} - {first} {what}"] = {"median_difference_ms": median,
                                                          "blocks_faster": sum(d < 0 for d in differences), "blocks": len(differences)}
with open(out_path, "w") as f:
    json.dump(figures, f, indent=1)
print(json.dumps({"pooled": figures["pooled"], "paired": figures["paired"]}, indent=1))
