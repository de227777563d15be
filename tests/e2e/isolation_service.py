#!/usr/bin/env python3
"""Isolation under the shipped unit, inside scripts/vm-run-systemd (tests/e2e/service.sh
has installed it with install-isolation and configured isolate = true): the service
grabs a panel and makes its twin; a swipe's touches never reach it; SIGKILL
removes the twin and systemd's restart makes a new one; `systemctl stop` lets the panel go
to other readers; unplugging removes the twin and a new panel gets one."""
import os, signal, subprocess, sys, threading, time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
from fixtures import HEADER, three_finger_swipe_down  # noqa: E402
from uinput_panel import Panel, Twin, check, failures, read_events, twins_in, wait_for  # noqa: E402
from service_journal import journal  # noqa: E402


def twins(panel):
    return twins_in(journal(), panel)


def main_pid():
    return int(subprocess.run(["systemctl", "show", "-p", "MainPID", "--value", "gestured"], capture_output=True, text=True).stdout)


panel = Panel(HEADER.replace("gestured test panel", "gestured isolated panel"))
check("the service grabs the panel and makes its twin", wait_for(30, lambda: twins(panel)))
if not twins(panel):
    sys.exit(journal()[-3000:])
twin = Twin(twins(panel)[-1])
mark = twin.mark()
panel.play(three_finger_swipe_down().text())
time.sleep(1)
seen = twin.touch_events(mark)
check("a three-finger swipe reaches the twin not at all (%d touch events)" % len(seen), not seen)
twin.close()

os.kill(main_pid(), signal.SIGKILL)
check("SIGKILL: the twin disappears", wait_for(10, lambda: not os.path.exists(twin.node) or len(twins(panel)) > 1))
check("systemd restarts the service, which grabs the panel with a new twin", wait_for(30, lambda: len(twins(panel)) > 1))
restarted = twins(panel)[-1]
subprocess.run(["systemctl", "stop", "gestured"])
check("systemctl stop removes the twin", wait_for(10, lambda: not os.path.exists(restarted)))
seen, stop = [], []
threading.Thread(target=read_events, args=(panel.node, lambda: stop, seen), daemon=True).start()
time.sleep(0.3)
panel.play(three_finger_swipe_down().text())
stop.append(True)
check("and another reader of the panel sees its touches again (%d events)" % len(seen), len(seen) > 20)
subprocess.run(["systemctl", "start", "gestured"])
check("started again, it makes a new twin", wait_for(30, lambda: len(twins(panel)) > 2))
restarted = twins(panel)[-1]
panel.destroy()
check("unplugging the panel removes its twin", wait_for(10, lambda: not os.path.exists(restarted)))
second = Panel(HEADER.replace("gestured test panel", "gestured second isolated panel"))
check("a new panel gets a new twin", wait_for(30, lambda: twins_in(journal(), second)))
check("and the service stays active", subprocess.run(["systemctl", "is-active", "gestured"], capture_output=True, text=True).stdout.strip() == "active")
sys.exit(1 if failures() else 0)
