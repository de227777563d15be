#!/usr/bin/env python3
"""The kiosk's idle under the shipped unit, inside scripts/vm-run-systemd: idle_command
runs once after idle_s without a touch and active_command at the next touch; the Idle and
LastTouch properties say it on the system bus, each change a PropertiesChanged signal; a
flood of taps announces LastTouch at most once every last_touch_interval_s."""
import os, subprocess, sys, time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
from fixtures import HEADER, Recording, suite_config, tap  # noqa: E402
from uinput_panel import Panel, check, failures, wait_for  # noqa: E402
from service_journal import journal  # noqa: E402

CONFIG = suite_config("idle")
OBJECT = ["org.gestured.Gestured1", "/org/gestured/Gestured1", "org.gestured.Gestured1"]


def prop(name):
    return subprocess.run(["busctl", "--system", "get-property", *OBJECT, name], capture_output=True, text=True).stdout.strip()


with open("/etc/gestured/gestured.toml", "w") as f:
    f.write(CONFIG)
subprocess.run(["systemctl", "reset-failed", "gestured"])
monitor = subprocess.Popen(["dbus-monitor", "--system", "type='signal',sender='org.gestured.Gestured1',member='PropertiesChanged'"],
                           stdout=open("/tmp/idle-signals.txt", "w"), stderr=subprocess.STDOUT)
subprocess.run(["systemctl", "start", "gestured"], check=True)
panel = Panel(HEADER.replace("gestured test panel", "gestured kiosk idle panel"))
check("the service reads the panel", wait_for(30, lambda: f"{panel.node}: 'gestured kiosk idle panel'" in journal()))
check(f"LastTouch is 0 before any touch ({prop('LastTouch')})", prop("LastTouch") == "t 0")
check("idle_s after the start, idle_command runs", wait_for(10, lambda: "the screen goes dark" in journal()))
check(f"Idle says so ({prop('Idle')})", prop("Idle") == "b true")
time.sleep(4)
check("once", journal().count("the screen goes dark") == 1)
before = time.time()
panel.play(tap().text())
check("the next touch runs active_command", wait_for(10, lambda: "the screen lights" in journal()))
check(f"Idle says it is in use ({prop('Idle')})", wait_for(5, lambda: prop("Idle") == "b false"))
said = prop("LastTouch")
stamp = int(said.split()[1]) / 1e6 if said.startswith("t ") else 0
check(f"LastTouch is the tap's time on the wall clock ({stamp - before:+.2f} s from when it was played)", 0 <= stamp - before < 2)
check("the tap fires too", wait_for(5, lambda: "tapped" in journal()))
check("then idle again, once more", wait_for(10, lambda: journal().count("the screen goes dark") == 2))

# A flood: 100 taps 30 ms apart (about five seconds).
flood = Recording()
for i in range(100):
    flood.tap((60 + i % 10 * 15, 40 + i // 10 * 8), hold_ms=20)
    flood.wait(10)
with open("/tmp/idle-signals.txt") as f:
    mark = f.read().count("LastTouch")
started = time.time()
panel.play(flood.text())
played = time.time() - started
time.sleep(1.5)
with open("/tmp/idle-signals.txt") as f:
    announced = f.read().count("LastTouch") - mark
most = int(played) + 2
check(f"the flood of 100 taps over {played:.1f} s announces LastTouch {announced} times (at most {most}: one a second)",
      1 <= announced <= most)
check("the service stays active", subprocess.run(["systemctl", "is-active", "gestured"], capture_output=True, text=True).stdout.strip() == "active")
monitor.terminate()
panel.destroy()
subprocess.run(["systemctl", "stop", "gestured"])
sys.exit(1 if failures() else 0)
