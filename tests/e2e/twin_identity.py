"""An isolated panel's twin keeps its panel's identity, for real: a udev rule written the
usual way gives a panel (a uinput device with a physical path) a calibration, an output
and a device group by ATTRS{phys}; its pen shares the group. Isolated, the twin has the
same values in `udevadm info` (the shipped 90-gestured-twin.rules and `gestured
twin-identity`), and `libinput list-devices` shows the same Calibration, Size and Group
for the panel and its twin, and the pen in that group. Devices another holder of uinput
names and phys's like the twin take nothing.
    python3 tests/e2e/twin_identity.py GESTURED"""
import os, re, subprocess, sys, tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fixtures import HEADER, PEN_HEADER  # noqa: E402
from uinput_panel import Panel, check, failures, isolated_twin, start_daemon, wait_for  # noqa: E402

gestured = os.path.abspath(sys.argv[1])
root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
work = tempfile.mkdtemp(prefix="twin-identity.")
rules = "/etc/udev/rules.d"
os.makedirs(rules, exist_ok=True)
# The shipped rule, pointing at this build's gestured, as `make install` writes it.
shipped = open(os.path.join(root, "udev", "90-gestured-twin.rules")).read()
with open(os.path.join(rules, "90-gestured-twin.rules"), "w") as f:
    f.write(shipped.replace("@BINDIR@/gestured", gestured))
# A user's rule for the panel, by where it is plugged in: after libinput's group rule (80).
CALIBRATION = "0 1 0 -1 0 1"
with open(os.path.join(rules, "85-test-panel.rules"), "w") as f:
    f.write('SUBSYSTEM=="input", KERNEL=="event*", ATTRS{phys}=="test-bus-1/input0", '
            'ENV{LIBINPUT_CALIBRATION_MATRIX}="%s", ENV{WL_OUTPUT}="HDMI-A-1"\n' % CALIBRATION)
    f.write('SUBSYSTEM=="input", KERNEL=="event*", ATTRS{phys}=="test-bus-1/*", ENV{LIBINPUT_DEVICE_GROUP}="test-bus-1-group"\n')
subprocess.run(["udevadm", "control", "--reload"], check=True)

config_path = os.path.join(work, "gestured.toml")
with open(config_path, "w") as f:
    f.write('[daemon]\nbus = "none"\nisolate = true\n\n[[gesture]]\nname = "menu"\ntype = "swipe"\nfingers = 3\ncommand = "true"\n')
panel = Panel(HEADER, phys="test-bus-1/input0")
pen = Panel(PEN_HEADER, phys="test-bus-1/input1")


def udev(node):
    out = subprocess.run(["udevadm", "info", "--query=property", "--name", node], capture_output=True, text=True).stdout
    return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)


subprocess.run(["udevadm", "settle"])
check("the user's rule gives the panel its calibration, output and group",
      udev(panel.node).get("LIBINPUT_CALIBRATION_MATRIX") == CALIBRATION and udev(panel.node).get("WL_OUTPUT") == "HDMI-A-1"
      and udev(panel.node).get("LIBINPUT_DEVICE_GROUP") == "test-bus-1-group")
daemon, text = start_daemon(gestured, config_path, work)
twin = isolated_twin(text, panel)
subprocess.run(["udevadm", "settle"])
for key in ["LIBINPUT_CALIBRATION_MATRIX", "WL_OUTPUT", "LIBINPUT_DEVICE_GROUP"]:
    check("udevadm info: the twin's %s is the panel's (%r, %r)" % (key, udev(twin).get(key), udev(panel.node).get(key)),
          udev(twin).get(key) is not None and udev(twin).get(key) == udev(panel.node).get(key))
check("the pen keeps the panel's group", udev(pen.node).get("LIBINPUT_DEVICE_GROUP") == udev(twin).get("LIBINPUT_DEVICE_GROUP"))
check("gestured still tells its twin: it does not read it",
      wait_for(5, lambda: twin + ": a gestured twin" in text()) and twin + ": '" not in text())

# Another holder of /dev/uinput makes devices named and phys'd as the panel's twin (by its
# phys, and by its node as a panel without a phys would have it): gestured did not
# record them as its twins, so they take nothing of the panel.
clones = [Panel(HEADER, phys="gestured-twin/test-bus-1/input0"), Panel(HEADER, phys="gestured-twin/" + panel.node)]
subprocess.run(["udevadm", "settle"])
for clone in clones:
    taken = {key: udev(clone.node).get(key) for key in ["LIBINPUT_CALIBRATION_MATRIX", "WL_OUTPUT", "ID_PATH"]}
    check("a look-alike twin gestured did not make takes no identity (%s: %r)" % (clone.node, taken),
          taken["LIBINPUT_CALIBRATION_MATRIX"] is None and taken["WL_OUTPUT"] is None)
    clone.destroy()


def listed():
    """libinput list-devices, by kernel node: {node: {field: value}}."""
    out = subprocess.run(["libinput", "list-devices"], capture_output=True, text=True).stdout
    devices, current = {}, None
    for line in out.splitlines():
        m = re.match(r"(\S[^:]*):\s+(.*)", line)
        if not m:
            continue
        key, value = m.group(1), m.group(2).strip()
        if key == "Device":
            current = {"Device": value}
        elif current is not None:
            current[key] = value
            if key == "Kernel":
                devices[value] = current
    return devices


devices = listed()
for key in ["Calibration", "Size", "Group"]:
    a, b = devices.get(panel.node, {}).get(key), devices.get(twin, {}).get(key)
    check("libinput list-devices: the twin's %s is the panel's (%r, %r)" % (key, b, a), a is not None and a == b)
check("and the pen is in their group (%r)" % devices.get(pen.node, {}).get("Group"),
      devices.get(pen.node, {}).get("Group") is not None and devices.get(pen.node, {}).get("Group") == devices.get(twin, {}).get("Group"))

daemon.terminate()
daemon.wait(10)
for name in ["90-gestured-twin.rules", "85-test-panel.rules"]:
    os.remove(os.path.join(rules, name))
subprocess.run(["udevadm", "control", "--reload"])
if failures():
    print("--- daemon log\n" + text()[-4000:])
sys.exit(1 if failures() else 0)
