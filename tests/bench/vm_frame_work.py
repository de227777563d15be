"""What the daemon does for a frame it passes through, counted rather than timed, in a real
kernel (inside scripts/vm-run, as root): gestured under callgrind, isolating a uinput panel
with a three-finger swipe bound (nothing one finger does is a gesture), its counts zeroed
once it runs, then vm_feel.py's drag played twice at a quarter of its pace (404 frames).
Prints the instructions and the function calls a frame, the edge's included, and the
functions that take the most. Unlike the VM's times these are the same from run to run,
whatever else the machine does. gestured is copied without its debug sections, whose
lld-made form valgrind's reader refuses; nothing else of it changes. DEMANGLE, the
toolchain's swift-demangle (the VM's PATH has no toolchain), names the functions.
    scripts/vm-run -- python3 tests/bench/vm_frame_work.py GESTURED [DEMANGLE]
"""
import glob, os, re, subprocess, sys, tempfile, time

here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [here, os.path.join(here, ".."), os.path.join(here, "..", "e2e")]
from common import copy_programs, drag  # noqa: E402
from fixtures import Recording  # noqa: E402
from uinput_panel import Panel, wait_for  # noqa: E402

DRAGS = 2
work = tempfile.mkdtemp()
os.chmod(work, 0o755)
gestured = copy_programs(sys.argv[1], work)
subprocess.run(["objcopy", "--strip-debug", gestured], check=True)
config = os.path.join(work, "gestured.toml")
with open(config, "w") as f:
    f.write('[daemon]\nbus = "none"\nisolate = true\n\n'
            '[[gesture]]\nname = "menu"\ntype = "swipe"\nfingers = 3\ndirection = "down"\ncommand = "true"\n')

panel = Panel(Recording().text())
time.sleep(1)
log_path = os.path.join(work, "gestured.log")
counts = os.path.join(work, "callgrind.out")
daemon = subprocess.Popen(["valgrind", "--tool=callgrind", f"--callgrind-out-file={counts}", gestured, "run", "--config", config],
                          stdout=open(log_path, "w"), stderr=subprocess.STDOUT)
assert wait_for(300, lambda: re.search(re.escape(panel.node) + ": '.*isolated", open(log_path).read())), open(log_path).read()
time.sleep(5)
subprocess.run(["callgrind_control", "--zero", str(daemon.pid)], check=True, capture_output=True)
dragged = drag()
frames = DRAGS * sum(1 for line in dragged.splitlines() if line.endswith(" 0000 0000 0"))
for _ in range(DRAGS):
    panel.play(dragged, speed=0.25)
    time.sleep(1)
time.sleep(3)
subprocess.run(["callgrind_control", "--dump", str(daemon.pid)], check=True, capture_output=True)
time.sleep(3)
daemon.terminate()
daemon.wait()

dump = max(glob.glob(counts + ".*"), key=os.path.getmtime)
calls = 0
for line in open(dump):
    if line.startswith("calls="):
        calls += int(line.split()[0].split("=")[1])
annotated = subprocess.run(["callgrind_annotate", "--threshold=100", dump], capture_output=True, text=True, check=True).stdout
costs = [(int(m.group(1).replace(",", "")), m.group(2)) for m in re.finditer(r"^\s*([\d,]+) \([ \d.]+%\)\s+(\S.*)$", annotated, re.M)]
total = next(cost for cost, name in costs if name.startswith("PROGRAM TOTALS"))
print(f"{frames} frames passed through: {total / frames:,.0f} instructions and {calls / frames:,.0f} function calls a frame")
print("the functions that take the most (their own instructions a frame):")
# The functions on the stack while the counts were zeroed and dumped (main, the loop) show the whole.
top = [(c, re.sub(r" \[.*\]$", "", n.split(":", 1)[-1])) for c, n in costs if c < total][:12]  # without file and library
if len(sys.argv) > 2:
    names = subprocess.run([sys.argv[2], "--simplified", "--compact"], input="\n".join(n for _, n in top),
                           capture_output=True, text=True).stdout.splitlines()
    top = list(zip([c for c, _ in top], names)) if len(names) == len(top) else top
for cost, function in top:
    print(f"  {cost / frames:8,.0f}  {function[:110]}")
