#!/usr/bin/env python3
"""`gestured calibrate` under the shipped unit, inside scripts/vm-run-systemd: an isolated
panel whose touches are skewed by a known matrix (it reports a touch on the screen's
point s at K s). The wizard, driven by taps played on the four targets it names, writes
a udev rule whose matrix is within 2 % of K's inverse; the service makes the twin anew
with the same matrix; `libinput debug-events` on it puts a tap on each target within
2 mm; a tap gesture's region, missed before, is hit after. Four touches in one place
are refused, and nothing is written. A panel whose name carries terminal escapes is
calibrated with its name escaped in every line the wizard prints and in the rule."""
import glob, os, re, subprocess, sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
from fixtures import HEADER, Recording, suite_config  # noqa: E402
from uinput_panel import Panel, Reader, check, failures, twins_in, wait_for  # noqa: E402
from service_journal import journal  # noqa: E402

# Screen → what the panel reports: shifted right and down, a little sheared and shrunk.
K = [[0.90, 0.05, 0.15], [-0.04, 0.92, 0.06]]
# The panel's axes: 0…3839 and 0…2159 at 13 units a millimetre.
WIDTH_MM, HEIGHT_MM = 3839 / 13, 2159 / 13
RULES = "/etc/udev/rules.d/99-gestured-calibration-calibrate-bus-input0.rules"

CONFIG = suite_config("calibrate")


def skewed(point):
    """Where the panel reports a touch on the screen's `point`, in millimetres of the panel."""
    x, y = point
    return ((K[0][0] * x + K[0][1] * y + K[0][2]) * WIDTH_MM, (K[1][0] * x + K[1][1] * y + K[1][2]) * HEIGHT_MM)


def tap(panel, at_mm):
    recording = Recording()
    recording.tap(at=at_mm, hold_ms=60)
    panel.play("\n".join(recording.lines))


def wizard(panel, where):
    """Runs `gestured calibrate` on the panel, tapping where(target) for each target it
    names: (its exit status, its output)."""
    process = subprocess.Popen(["gestured", "calibrate", "--device", panel.node, "--timeout", "20"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    output = []
    for line in iter(process.stdout.readline, ""):
        output.append(line)
        named = re.search(r"target \d of 4: touch x=([\d.]+) y=([\d.]+)", line)
        if named:
            tap(panel, where((float(named.group(1)), float(named.group(2)))))
    return process.wait(timeout=60), "".join(output)


def inverse(m):
    (a, b, c), (d, e, f) = m
    det = a * e - b * d
    ia, ib, id_, ie = e / det, -b / det, -d / det, a / det
    return [ia, ib, -(ia * c + ib * f), id_, ie, -(id_ * c + ie * f)]


def udev_matrix(node):
    info = subprocess.run(["udevadm", "info", "--query=property", "--name", node], capture_output=True, text=True).stdout
    return next((line.split("=", 1)[1] for line in info.splitlines() if line.startswith("LIBINPUT_CALIBRATION_MATRIX=")), None)


with open("/etc/gestured/gestured.toml", "w") as f:
    f.write(CONFIG)
for old in glob.glob("/etc/udev/rules.d/99-gestured-calibration-*"):
    os.remove(old)
subprocess.run(["udevadm", "control", "--reload"])
subprocess.run(["systemctl", "reset-failed", "gestured"])
subprocess.run(["systemctl", "start", "gestured"], check=True)
panel = Panel(HEADER.replace("gestured test panel", "gestured skewed panel"), phys="calibrate-bus/input0")
subprocess.run(["udevadm", "settle"])
check("the service isolates the skewed panel", wait_for(30, lambda: twins_in(journal(), panel)))
if not twins_in(journal(), panel):
    sys.exit(journal()[-3000:])
first_twin = twins_in(journal(), panel)[-1]

tap(panel, skewed((0.125, 0.125)))
check("uncalibrated, a tap on the corner's target misses the corner's region",
      not wait_for(2, lambda: "corner-tap (tap) recognized" in journal()))

status, output = wizard(panel, lambda target: skewed((0.5, 0.5)))
check(f"four touches in one place are refused (exit {status}: {output.strip().splitlines()[-1] if output.strip() else ''})",
      status == 1 and "one line" in output)
check("and nothing is written", not os.path.exists(RULES))
check("the service was paused meanwhile and runs again", "paused for" in journal() and wait_for(5, lambda: "resumed: gestures fire again" in journal()))

status, output = wizard(panel, skewed)
print(output.strip())
check(f"the wizard ends well (exit {status})", status == 0)
written = open(RULES).read() if os.path.exists(RULES) else ""
found = re.search(r'LIBINPUT_CALIBRATION_MATRIX}="([^"]+)"', written)
matrix = [float(v) for v in found.group(1).split()] if found else []
expected = inverse(K)
check(f"its rule's matrix is within 2 % of the skew's inverse ({matrix} against {[round(v, 4) for v in expected]})",
      len(matrix) == 6 and all(abs(m - e) <= 0.02 for m, e in zip(matrix, expected)))
check(f"udev gives the panel the matrix ({udev_matrix(panel.node)})", found is not None and udev_matrix(panel.node) == found.group(1))
check("the service takes it: the panel is opened anew with its twin",
      wait_for(20, lambda: len(twins_in(journal(), panel)) >= 2) and "calibrated anew" in journal())
twin = twins_in(journal(), panel)[-1]
subprocess.run(["udevadm", "settle"])
check(f"the new twin ({twin}, was {first_twin}) carries the same matrix ({udev_matrix(twin)})",
      found is not None and udev_matrix(twin) == found.group(1))

before = journal().count("corner-tap (tap) recognized")
tap(panel, skewed((0.125, 0.125)))
check("calibrated, the same tap hits the corner's region (gestured's positions take the matrix)",
      wait_for(5, lambda: journal().count("corner-tap (tap) recognized") > before))

# libinput, as a desktop reads the twin: the region's tap would take target 1's touch.
with open("/etc/gestured/gestured.toml", "w") as f:
    f.write('[daemon]\nbus = "system"\nisolate = true\n')
subprocess.run(["systemctl", "reload", "gestured"], check=True)
wait_for(10, lambda: "gestured.toml: 0 gestures (applied" in journal())
reader = Reader(twin)
for target in [(0.125, 0.125), (0.875, 0.125), (0.875, 0.875), (0.125, 0.875)]:
    mark = len(reader.lines)
    tap(panel, skewed(target))
    wait_for(5, lambda: reader.since(mark, "TOUCH_DOWN"))
    down = reader.since(mark, "TOUCH_DOWN")
    at = re.search(r"\(([\d.]+)/([\d.]+)mm\)", down[0]) if down else None
    off = ((float(at.group(1)) - target[0] * WIDTH_MM) ** 2 + (float(at.group(2)) - target[1] * HEIGHT_MM) ** 2) ** 0.5 if at else None
    check(f"libinput puts a tap on the target at {target} within 2 mm ({down[0].split(None, 3)[-1].strip() if down else 'no touch'}; "
          f"{'%.2f mm off' % off if off is not None else ''})", off is not None and off <= 2)
reader.close()
panel.destroy()

# A panel named to take over root's terminal (a title, a bell, a cleared screen): the
# wizard's lines and the rule show its name escaped.
HOSTILE = "gestured \x1b]0;owned\x07\x1b[2J panel"
hostile = Panel(HEADER.replace("gestured test panel", HOSTILE), phys="calibrate-bus/input1")
subprocess.run(["udevadm", "settle"])
status, output = wizard(hostile, skewed)
hostile_rules = "/etc/udev/rules.d/99-gestured-calibration-calibrate-bus-input1.rules"
rule = open(hostile_rules).read() if os.path.exists(hostile_rules) else ""
check(f"a hostile panel name: the wizard ends well (exit {status}) and says it escaped ({output.strip().splitlines()[-1] if output.strip() else ''!r})",
      status == 0 and "\\u{1b}]0;owned\\u{7}" in output)
check("no control character of the name reaches the terminal or the rule",
      not any(c in output + rule for c in "\x1b\x07")
      and bool(rule) and all(line.startswith(("#", "SUBSYSTEM==")) for line in rule.splitlines()))
hostile.destroy()
if os.path.exists(hostile_rules):
    os.remove(hostile_rules)
subprocess.run(["systemctl", "stop", "gestured"])
os.remove(RULES)
subprocess.run(["udevadm", "control", "--reload"])
sys.exit(1 if failures() else 0)
