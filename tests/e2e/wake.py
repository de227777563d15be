"""The touch that wakes a dark screen, for real (tests/e2e/run boots the VM with
QEMU's standard VGA: bochs-drm, connector card0-Virtual-1): an Xorg on the modesetting
driver reads every input device through libinput; its screen is switched off with
`xset dpms force off`. A three-finger swipe on an isolated panel then fires nothing and
reaches the twin (so X) not at all, gestured's keyboard wakes X (its KEY_WAKEUP), the
screen is on again as X and the kernel say, and the next swipe fires; with
wake_latch = false the same swipe on the dark screen fires.
    python3 tests/e2e/wake.py GESTURED"""
import os, re, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fixtures import HEADER, tap, three_finger_swipe_down  # noqa: E402
from uinput_panel import Panel, Twin, check, failures, isolated_twin, read_events, start_daemon, wait_for  # noqa: E402

gestured = os.path.abspath(sys.argv[1])
work = tempfile.mkdtemp(prefix="wake.")
config_path = os.path.join(work, "gestured.toml")
fired_path = os.path.join(work, "fired")
dpms_path = "/sys/class/drm/card0-Virtual-1/dpms"
display = {**os.environ, "DISPLAY": ":7"}


def configure(daemon_settings=""):
    with open(config_path, "w") as f:
        f.write('[daemon]\nbus = "none"\nisolate = true\n%s\n[[gesture]]\nname = "menu"\ntype = "swipe"\nfingers = 3\n'
                'direction = "down"\ncommand = "echo menu >> %s"\n' % (daemon_settings, fired_path))


def fired():
    return open(fired_path).read().count("menu") if os.path.exists(fired_path) else 0


def monitor():
    """What X says of its monitor: "On" or "Off" (xset q)."""
    out = subprocess.run(["xset", "q"], env=display, capture_output=True, text=True).stdout
    return "On" if "Monitor is On" in out else "Off" if "Monitor is Off" in out else "?"


def kernel_dpms():
    return open(dpms_path).read().strip()


def darken():
    subprocess.run(["xset", "dpms", "force", "off"], env=display, check=True)
    return wait_for(10, lambda: kernel_dpms() == "Off" and monitor() == "Off")


subprocess.run(["modprobe", "bochs"], check=True)
if not wait_for(20, lambda: os.path.exists(dpms_path)):
    sys.exit("no DRM connector card0-Virtual-1: boot the VM with VM_QEMU_OPTS='-device VGA'")
xorg_conf = os.path.join(work, "xorg.conf")
with open(xorg_conf, "w") as f:
    f.write('Section "Device"\n  Identifier "card"\n  Driver "modesetting"\n  Option "kmsdev" "/dev/dri/card0"\nEndSection\n')
xorg_log = os.path.join(work, "Xorg.log")
xorg = subprocess.Popen(["Xorg", ":7", "-config", xorg_conf, "-noreset", "-nolisten", "tcp", "-logfile", xorg_log, "vt1"],
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
check("Xorg runs on the modesetting driver and says its monitor is on", wait_for(60, lambda: monitor() == "On"))

configure()
panel = Panel(HEADER)
daemon, text = start_daemon(gestured, config_path, work)
twin = Twin(isolated_twin(text, panel))
# X adds the twin and gestured's keyboard as they appear (udev): wait until it has both
# (the panel itself, grabbed, is added too and gets nothing).
check("X reads the twin and gestured's keyboard",
      wait_for(60, lambda: open(xorg_log).read().count("Adding input device %s (" % panel.name) >= 2
               and "Adding input device gestured keyboard (" in open(xorg_log).read()))
keyboard_node = re.search(r"virtual keyboard and pointer for wake_latch: (/dev/input/event\d+)", text())
keyboard = []
if keyboard_node:
    threading.Thread(target=read_events, args=(keyboard_node.group(1), lambda: False, keyboard), daemon=True).start()
check("gestured made its keyboard for waking", keyboard_node is not None)


def swipe():
    panel.play(three_finger_swipe_down().text())
    time.sleep(1.5)


# 1. Dark: the swipe wakes the screen and does nothing else.
check("xset dpms force off: the kernel's connector reads Off and X says its monitor is off", darken())
mark = twin.mark()
swipe()
check("the waking swipe fires nothing (%d fired)" % fired(), fired() == 0)
check("and reaches the twin, so X, not at all (%d events)" % (len(twin.raw) - mark[1]), len(twin.raw) == mark[1])
check("the daemon says why", "is dark: this touch wakes it and fires nothing" in text())
check("gestured's keyboard pressed and released KEY_WAKEUP",
      wait_for(5, lambda: [(e[2], e[3]) for e in keyboard if e[1] == 1] == [(143, 1), (143, 0)]))
check("the screen is on again afterwards, as X says (%s) and the kernel (%s)" % (monitor(), kernel_dpms()),
      wait_for(10, lambda: monitor() == "On" and kernel_dpms() == "On"))

# 2. Lit: the next swipe fires, and a tap reaches the twin (a swipe of three fingers
# reaches it not at all, dark or lit).
swipe()
check("the next swipe fires (%d fired)" % fired(), wait_for(5, lambda: fired() == 1))
mark = twin.mark()
panel.play(tap().text())
check("and a tap reaches the twin", wait_for(5, lambda: len(twin.raw) > mark[1]))

# 3. The latch turned off: the same swipe on the dark screen fires.
before = text().count("reload: ")
configure("wake_latch = false")
daemon.send_signal(1)
check("reloaded with wake_latch = false", wait_for(10, lambda: text().count("reload: ") > before))
check("dark again", darken())
swipe()
check("with wake_latch = false the swipe on the dark screen fires (%d fired)" % fired(), wait_for(5, lambda: fired() == 2))

twin.close()
daemon.terminate()
daemon.wait(10)
xorg.terminate()
xorg.wait(10)
if failures():
    print("--- daemon log\n" + text()[-4000:])
    sys.exit(1)
print("every wake check passed")
