"""Where a pass-through frame's time goes, in a real kernel (inside scripts/vm-run, as
root): how long gestured takes from the read that brings a panel's frame to the start of
the write that gives it to the twin, beside twin_floor.c doing the same (a blocking read,
each event written at once); and how long gestured's wake-up (epoll_wait's return) comes
before that read, which the floor, woken by its read itself, does not have. Timed from
inside each process by tests/bench/syscall_times.c, not in the rounds of vm_feel.py (each
time costs a clock read): this says what of vm_feel.py's pass-through is the daemon's own
work, with less of the noise of the whole path. vm_feel.py's one-finger drag (2 s, a frame
every 10 ms) and 20 taps a round, the floor and gestured (a three-finger swipe bound) in turn.
    scripts/vm-run -- python3 tests/bench/vm_frame_time.py GESTURED [ROUNDS]
"""
import glob, os, re, subprocess, sys, tempfile, time

here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [here, os.path.join(here, ".."), os.path.join(here, "..", "e2e")]
from common import Daemon, copy_programs, drag, pkg_flags, taps  # noqa: E402
from fixtures import Recording  # noqa: E402
from latency_summary import percentile  # noqa: E402
from uinput_panel import Panel  # noqa: E402

rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
work = tempfile.mkdtemp()
os.chmod(work, 0o755)
gestured = copy_programs(sys.argv[1], work)
floor_program, times_library = os.path.join(work, "twin_floor"), os.path.join(work, "syscall_times.so")
subprocess.run(["cc", "-O2", "-o", floor_program, os.path.join(here, "twin_floor.c"), *pkg_flags("libevdev")], check=True)
subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", times_library, os.path.join(here, "syscall_times.c"), "-ldl"], check=True)
config = os.path.join(work, "gestured.toml")
with open(config, "w") as f:
    f.write('[daemon]\nbus = "none"\nisolate = true\n\n'
            '[[gesture]]\nname = "menu"\ntype = "swipe"\nfingers = 3\ndirection = "down"\ncommand = "true"\n')


def frame_times(prefix):
    """From the largest file of PREFIX (the process, not a helper it started): for each
    frame written to a twin, (µs from the read of events before it, µs from the wake-up
    before that read or None)."""
    path = max(glob.glob(prefix + ".*"), key=os.path.getsize)
    found, woke, read_at = [], None, None
    for line in open(path):
        ns, kind, size, syn = line.split()
        ns, size = int(ns), int(size)
        if kind == "e" and size > 0:
            woke = ns
        elif kind == "r" and size > 0 and size % 24 == 0:
            read_at, woke_before = ns, woke
        elif kind == "w" and syn == "1" and read_at is not None:
            found.append(((ns - read_at) / 1e3, (read_at - woke_before) / 1e3 if woke_before is not None else None))
            read_at = None
    return found


def line(values):
    return f"p50 {percentile(values, 50):.0f} µs, p90 {percentile(values, 90):.0f} µs, p99 {percentile(values, 99):.0f} µs ({len(values)} frames)"


panel = Panel(Recording().text())
time.sleep(1)
pooled = {"floor": [], "gestured": []}
for round_ in range(rounds):
    for who in ("floor", "gestured") if round_ % 2 == 0 else ("gestured", "floor"):
        prefix = os.path.join(work, f"{who}-{round_}")
        timed = {"LD_PRELOAD": times_library, "SYSCALL_TIMES": prefix}
        if who == "floor":
            floor = subprocess.Popen([floor_program, panel.node], stdout=subprocess.PIPE, text=True,
                                     env=dict(os.environ, **timed, SYSCALL_TIMES_ON_TERM="1"))
            floor.stdout.readline()
            time.sleep(1)
            panel.play(drag())
            panel.play(taps())
            time.sleep(0.5)
            floor.terminate()
            floor.wait()
        else:
            daemon = Daemon(gestured, work, config, f"gestured-{round_}.log", env=timed)
            assert daemon.wait_for_log(re.escape(panel.node) + ": '.*isolated"), daemon.log()
            time.sleep(1)
            panel.play(drag())
            panel.play(taps())
            time.sleep(0.5)
            daemon.stop()
        pooled[who] += frame_times(prefix)

print(f"{rounds} rounds, the read of a panel's frame to the start of its write to the twin:")
for who, found in pooled.items():
    print(f"  {who}: {line([processing for processing, _ in found])}")
wake = [woke for _, woke in pooled["gestured"] if woke is not None]
print(f"gestured's wake-up (epoll_wait's return) to that read: {line(wake)}")
