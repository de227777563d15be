#!/usr/bin/env python3
"""The touch lock under the shipped unit and policy, inside scripts/vm-run-systemd: locked
by LockTouch (root and gestured-control only) and by a gesture, a three-finger swipe and a
tap reach neither the twin (libinput debug-events) nor any binding; `gestured status`
says it; it holds through a reload, and through a restart only with keep_touch_lock; five
fingers held two seconds unlock it, and their touches reach no application either."""
import os, subprocess, sys, time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
from fixtures import HEADER, Recording, suite_config, tap, three_finger_swipe_down  # noqa: E402
from uinput_panel import Panel, Twin, check, failures, isolated_twin, twins_in, wait_for  # noqa: E402
from service_journal import journal, start_service  # noqa: E402

CONFIG = suite_config("touch-lock")
OBJECT = ["org.gestured.Gestured1", "/org/gestured/Gestured1", "org.gestured.Gestured1"]


def busctl(user, *args):
    """busctl as root, or as nobody (no group)."""
    asked = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"] if user == "nobody" else []
    return subprocess.run([*asked, "busctl", "--system", *args], capture_output=True, text=True, timeout=30)


def touch_locked():
    return busctl("root", "get-property", *OBJECT, "TouchLocked").stdout.strip()


def play(recording, wait_s=1.5):
    """(what the twin's application saw, the bindings that ran) for `recording`."""
    before = journal()
    mark = twin.mark()
    panel.play(recording.text())
    time.sleep(wait_s)
    ran = [line for line in journal()[len(before):].splitlines() if "menu opened" in line or "tapped" in line]
    return [e for e in twin.touch_events(mark) if e != "TOUCH_MOTION"], ran


def five_held(seconds=2.5):
    rec = Recording()
    for _ in range(int(seconds * 10)):
        rec.frame({s: (60 + 20 * s, 100) for s in range(5)}, advance_ms=100)
    rec.frame({s: None for s in range(5)})
    return rec


start_service(CONFIG)
panel = Panel(HEADER.replace("gestured test panel", "gestured lockable panel"))
twin = Twin(isolated_twin(journal, panel))

seen, ran = play(three_finger_swipe_down())
check(f"unlocked: the swipe fires and reaches the twin not at all ({' '.join(seen) or 'nothing'})",
      len(ran) == 1 and not seen)
check(f"TouchLocked is false ({touch_locked()})", touch_locked() == "b false")

# monitor beside the service follows its touch lock, as it follows its mode and pause.
monitor_out = open("/tmp/monitor-touch-lock.txt", "w")
monitor = subprocess.Popen(["gestured", "monitor", "--config", "/etc/gestured/gestured.toml"], stdout=monitor_out,
                           stderr=subprocess.STDOUT)
check("monitor follows the service", wait_for(15, lambda: "following the service on the system bus" in open(monitor_out.name).read()))
refused = busctl("nobody", "call", *OBJECT, "LockTouch")
check(f"nobody may not call LockTouch ({refused.stderr.strip()})", refused.returncode != 0 and "ccess denied" in refused.stderr)
called = busctl("root", "call", *OBJECT, "LockTouch")
check(f"root locks touch on the bus ({called.stderr.strip()})", called.returncode == 0)
check(f"TouchLocked is true ({touch_locked()})", wait_for(5, lambda: touch_locked() == "b true"))
check("the log says it", "touch locked: no touch reaches applications" in journal())
status = subprocess.run(["gestured", "status"], capture_output=True, text=True).stdout
check("gestured status says it", "touch:    locked" in status)
check("and monitor, following the service", wait_for(5, lambda: "touch locked" in open(monitor_out.name).read()))
monitor.terminate()
monitor.wait()
for name, recording in [("a three-finger swipe", three_finger_swipe_down()), ("a tap", tap())]:
    seen, ran = play(recording)
    check(f"locked: {name} reaches no application ({' '.join(seen) or 'nothing'}) and fires nothing ({len(ran)})",
          not seen and not ran)

subprocess.run(["systemctl", "reload", "gestured"], check=True)
check("a reload is applied", wait_for(10, lambda: "reload: /etc/gestured/gestured.toml: 3 gestures" in journal()))
check(f"the lock holds through the reload ({touch_locked()})", touch_locked() == "b true")
seen, ran = play(three_finger_swipe_down())
check(f"after the reload, the swipe still reaches nothing ({' '.join(seen) or 'nothing'}, {len(ran)} ran)", not seen and not ran)

seen, ran = play(five_held(), wait_s=2)
check(f"five fingers held two seconds unlock touch ({touch_locked()})", touch_locked() == "b false")
check(f"and their touches reached no application ({' '.join(seen) or 'nothing'})", not seen)
seen, ran = play(three_finger_swipe_down())
check(f"unlocked: the swipe fires again, reaching the twin not at all ({' '.join(seen) or 'nothing'})", len(ran) == 1 and not seen)

seen, ran = play(five_held(), wait_s=2)
check(f"five fingers held two seconds lock touch again ({touch_locked()})", touch_locked() == "b true")
seen, ran = play(tap())
check(f"locked by the gesture: a tap reaches nothing ({' '.join(seen) or 'nothing'}, {len(ran)} ran)", not seen and not ran)
check("root unlocks touch on the bus", busctl("root", "call", *OBJECT, "UnlockTouch").returncode == 0)
check(f"TouchLocked is false ({touch_locked()})", wait_for(5, lambda: touch_locked() == "b false"))
seen, ran = play(tap())
check(f"a tap fires and reaches the twin again ({' '.join(seen)})", len(ran) == 1 and "TOUCH_DOWN" in seen)
check("the service stays active", subprocess.run(["systemctl", "is-active", "gestured"], capture_output=True, text=True).stdout.strip() == "active")

twin.close()

# Not through a restart unless keep_touch_lock says so.
check("locked on the bus", busctl("root", "call", *OBJECT, "LockTouch").returncode == 0)
subprocess.run(["systemctl", "restart", "gestured"], check=True)
check(f"restarted, the lock is gone ({touch_locked()})", wait_for(10, lambda: touch_locked() == "b false"))
with open("/etc/gestured/gestured.toml", "w") as f:
    f.write(CONFIG.replace("isolate = true\n", "isolate = true\nkeep_touch_lock = true\n"))
subprocess.run(["systemctl", "restart", "gestured"], check=True)
check("locked on the bus, with keep_touch_lock", wait_for(10, lambda: busctl("root", "call", *OBJECT, "LockTouch").returncode == 0))
check("the state directory says it", wait_for(5, lambda: os.path.exists("/var/lib/gestured/touch-locked")))
twins_before = len(twins_in(journal(), panel))
subprocess.run(["systemctl", "restart", "gestured"], check=True)
check(f"restarted, the lock holds ({touch_locked()})", wait_for(10, lambda: touch_locked() == "b true"))
check("the panel is isolated again", wait_for(30, lambda: len(twins_in(journal(), panel)) > twins_before))
twin = Twin(twins_in(journal(), panel)[-1])
seen, ran = play(three_finger_swipe_down())
check(f"after the restart, the swipe reaches nothing ({' '.join(seen) or 'nothing'}, {len(ran)} ran)", not seen and not ran)
seen, ran = play(five_held(), wait_s=2)
check(f"five fingers held unlock it ({touch_locked()})", touch_locked() == "b false")
check("and the state directory forgets it", not os.path.exists("/var/lib/gestured/touch-locked"))
twin.close()
panel.destroy()
subprocess.run(["systemctl", "stop", "gestured"])
sys.exit(1 if failures() else 0)
