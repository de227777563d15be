"""What a person feels, in a real kernel (inside scripts/vm-run by scripts/benchmarks, as
root), each beside its floor in the same boot:

- pass-through: a one-finger drag (2 s, a frame every 10 ms) and taps on an isolated
  panel, from each frame's write to the panel (CLOCK_MONOTONIC just before its
  SYN_REPORT is written, which the kernel stamps) to the twin's event as libinput hands it over
  (libinput_events.c, the path backend, as a compositor reads it). The floor is
  twin_floor.c, which grabs the panel and writes each event to a copy at once. gestured
  with a three-finger swipe (nothing one finger does is a gesture); with a three-finger
  touchpad pan (delays_touches_began, on by default with touchpad, from three fingers);
  with a one-finger long press that could still claim the touches (the lift waits for it
  to fail: delays_touches_ended); and with that long press and delays_touches_began,
  which holds a touch back until the long press fails (6 mm of movement, or the lift).
- touchpad lag: a three-finger pan of 3 s bound with touchpad = true, from each panel
  frame to the GESTURE_SWIPE_UPDATE libinput makes of the virtual touchpad's frame.

Each twin or touchpad frame is laid to the panel frame it reflects: the last written
before the kernel stamped it (gestured writes a frame after reading one), or, for touches
held back and written later, the panel frame they began with.
    python3 tests/bench/vm_feel.py GESTURED OUT.json [ROUNDS]
"""
import json, os, re, subprocess, sys, tempfile, time

here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [here, os.path.join(here, ".."), os.path.join(here, "..", "e2e")]
from common import Daemon, copy_programs, drag, pkg_flags, summary, taps  # noqa: E402
from fixtures import Recording  # noqa: E402
from uinput_panel import Panel, twins_in, wait_for  # noqa: E402

out_path = sys.argv[2]
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 4
work = tempfile.mkdtemp()
os.chmod(work, 0o755)
gestured = copy_programs(sys.argv[1], work)
floor_program, reader_program = os.path.join(work, "twin_floor"), os.path.join(work, "libinput_events")


subprocess.run(["cc", "-O2", "-o", floor_program, os.path.join(here, "twin_floor.c"), *pkg_flags("libevdev")], check=True)
subprocess.run(["cc", "-O2", "-o", reader_program, os.path.join(here, "libinput_events.c"), *pkg_flags("libinput")], check=True)


def three_finger_pan():
    r = Recording()
    for i in range(301):
        r.frame({s: (60 + 15 * s + 0.4 * i, 100) for s in range(3)})
    r.frame({s: None for s in range(3)})
    return r.text()


class Reader:
    """libinput on NODES, its lines in a file: (name, dispatched ns, event time ns)."""
    def __init__(self, *nodes):
        self.path = os.path.join(work, "libinput.txt")
        self.process = subprocess.Popen([reader_program, *nodes], stdout=open(self.path, "w"), stderr=subprocess.STDOUT)
        assert wait_for(20, lambda: "ready" in open(self.path).read()), open(self.path).read()
        time.sleep(0.5)

    def events(self):
        found = []
        for line in open(self.path):
            fields = line.split()
            if len(fields) == 3:
                found.append((fields[0], int(fields[1]), int(fields[2]) * 1000))
        return found

    def stop(self):
        self.process.terminate()
        self.process.wait()


def play(panel, text, answered_by):
    """Plays TEXT at its pace; then when each frame was written (ns: the clock read just
    before its SYN_REPORT goes in, which the kernel stamps and readers wake on, so that no
    answer can come before it) and what ANSWERED_BY (a Reader) read."""
    written = []
    panel.play(text, before_frame=lambda: written.append(time.clock_gettime_ns(time.CLOCK_MONOTONIC)))
    time.sleep(1)
    return written, answered_by.events()


def lay(written, answers, kinds):
    """Each answer of KINDS laid to its panel frame: (index of that frame, latency ms)."""
    laid, position = [], 0
    for name, dispatched, stamped in answers:
        if name not in kinds:
            continue
        while position + 1 < len(written) and written[position + 1] <= stamped:
            position += 1
        if written[position] <= stamped:
            laid.append((position, (dispatched - written[position]) / 1e6))
    return laid


def pass_through(panel, reader_for):
    """One round of a drag and the taps through whatever READER_FOR (a function of the
    panel) reads: the drag's frames, the taps' downs and lifts, latencies in ms."""
    figures = {"drag": [], "down": [], "up": []}
    reader = reader_for()
    written, answers = play(panel, drag(), reader)
    frames = lay(written, answers, ("TOUCH_FRAME",))
    # A frame held back comes out after later ones were written: its latency runs from
    # the first frame it could be (the touch's first), so the hold counts in full.
    first_answer = next((i for i, (name, _, _) in enumerate(answers) if name == "TOUCH_DOWN"), None)
    if first_answer is not None and frames:
        held = (answers[first_answer][1] - written[0]) / 1e6
        frames[0] = (0, max(held, frames[0][1]))
    figures["drag"] = [ms for _, ms in frames]
    figures["drag_frames"] = [len(written), len(frames)]
    reader.stop()
    reader = reader_for()
    written, answers = play(panel, taps(), reader)
    downs = [t for i, t in enumerate(written) if i % 2 == 0]
    ups = [t for i, t in enumerate(written) if i % 2 == 1]
    for kind, starts, into in (("TOUCH_DOWN", downs, "down"), ("TOUCH_UP", ups, "up")):
        times = [d for name, d, _ in answers if name == kind]
        for i, start in enumerate(starts):
            until = starts[i + 1] if i + 1 < len(starts) else float("inf")
            after = [d for d in times if start <= d < until]
            if after:
                figures[into].append((after[0] - start) / 1e6)
    reader.stop()
    return figures


def with_gestured(config_text, label, panel):
    path = os.path.join(work, "gestured.toml")
    with open(path, "w") as f:
        f.write(config_text)
    daemon = Daemon(gestured, work, path, f"{label}.log")
    assert daemon.wait_for_log(re.escape(panel.node) + ": '.*isolated"), daemon.log()
    twin = twins_in(daemon.log(), panel)[-1]
    return daemon, twin


ISOLATED = '[daemon]\nbus = "none"\nisolate = true\n\n'
CASES = {
    "nothing_claims": ISOLATED + '[[gesture]]\nname = "menu"\ntype = "swipe"\nfingers = 3\ndirection = "down"\ncommand = "true"\n',
    "touchpad": ISOLATED + '[[gesture]]\nname = "desktops"\ntype = "pan"\nfingers = 3\ntouchpad = true\n',
    "may_claim": ISOLATED + '[[gesture]]\nname = "menu"\ntype = "long-press"\ncommand = "true"\n',
    "may_claim_delays_began": ISOLATED + '[[gesture]]\nname = "menu"\ntype = "long-press"\ncommand = "true"\ndelays_touches_began = true\n',
}

panel = Panel(Recording().text())
time.sleep(1)
pooled = {case: {"drag": [], "down": [], "up": []} for case in ["floor", *CASES]}
frame_counts = {case: [0, 0] for case in pooled}
for round_ in range(rounds):
    # The floor and each case take turns, the order turned each round, so that a drift of
    # this VM's speed falls on all alike.
    order = ["floor", *CASES] if round_ % 2 == 0 else [*CASES, "floor"][::-1]
    for case in order:
        if case == "floor":
            floor = subprocess.Popen([floor_program, panel.node], stdout=subprocess.PIPE, text=True)
            copy = floor.stdout.readline().strip()
            time.sleep(1)
            result = pass_through(panel, lambda: Reader(copy))
            floor.terminate()
            floor.wait()
        else:
            daemon, twin = with_gestured(CASES[case], case, panel)
            time.sleep(1)
            result = pass_through(panel, lambda: Reader(twin))
            daemon.stop()
        for key in ("drag", "down", "up"):
            pooled[case][key] += result[key]
        frame_counts[case] = [a + b for a, b in zip(frame_counts[case], result["drag_frames"])]
        print(f"round {round_ + 1}, {case}: {len(result['drag'])} drag frames, {len(result['down'])} taps", flush=True)

figures = {"rounds": rounds, "pass_through": {}}
for case, kinds in pooled.items():
    figures["pass_through"][case] = {
        "drag": summary(kinds["drag"], frame_counts[case][0]),
        "tap_down": summary(kinds["down"], rounds * 20),
        "tap_up": summary(kinds["up"], rounds * 20),
    }

# Touchpad lag: the panel's frames to libinput's swipe updates from the virtual touchpad.
daemon, _ = with_gestured(CASES["touchpad"], "touchpad-lag", panel)
assert daemon.wait_for_log("touchpad for"), daemon.log()
pad = daemon.log().split("touchpad for", 1)[1].split("\n", 1)[0].split(", ")[-1].strip()
lags, pans = [], 0
for _ in range(rounds * 2):
    reader = Reader(pad)
    written, answers = play(panel, three_finger_pan(), reader)
    lags += [ms for _, ms in lay(written, answers, ("GESTURE_SWIPE_UPDATE",))]
    pans += 1
    reader.stop()
daemon.stop()
figures["touchpad_lag"] = summary(lags, len(lags))
figures["touchpad_lag"]["pans"] = pans

with open(out_path, "w") as f:
    json.dump(figures, f, indent=1)
print(json.dumps(figures, indent=1))
