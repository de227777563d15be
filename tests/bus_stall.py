#!/usr/bin/env python3
"""A stalled bus under a streaming pan: the guide's figures for "D-Bus interface" (docs/guide.md).

    tests/bus_stall.py GESTURED [SECONDS]      (default 300)

A one-finger drag of 400 s (a pan's `changed` at 100 Hz, each a signal) plays through
`gestured run --replay` on a private session bus with dbus-monitor listening; after 20 s
the dbus-daemon is stopped (SIGSTOP) for SECONDS, then resumed. Printed: the daemon's
resident size before, during (every minute) and after; the signals heard after the bus
resumed; the daemon's lines about what it dropped. Nothing is asserted (the daemon's
tests check a short stall); exit status 0.
"""
import os, re, signal, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(__file__))
from fixtures import drag  # noqa: E402

gestured, stall = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 300
work = tempfile.mkdtemp(prefix="gestured-bus-stall.")
recording = drag(seconds=stall + 100, length=200).save(os.path.join(work, "pan.evemu"))
config = os.path.join(work, "gestured.toml")
open(config, "w").write('[daemon]\nbus = "session"\n[[gesture]]\nname = "drag"\ntype = "pan"\nsignal = true\n')
address, bus = subprocess.run(["dbus-daemon", "--session", "--fork", "--print-address=1", "--print-pid=1"],
                              capture_output=True, text=True, check=True).stdout.split("\n")[:2]
env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=address)
monitor = subprocess.Popen(["dbus-monitor", "--session", "--profile", "type='signal',interface='org.gestured.Gestured1'"],
                           stdout=subprocess.PIPE, text=True, env=env)
heard = [0]
def count():
    for line in monitor.stdout:
        if line.rstrip().endswith("\tGesture"):
            heard[0] += 1
threading.Thread(target=count, daemon=True).start()
time.sleep(0.5)
daemon = subprocess.Popen([gestured, "run", "--config", config, "--replay", recording], env=env, stderr=subprocess.PIPE, text=True)
def rss():
    return int(re.search(r"VmRSS:\s+(\d+)", open("/proc/%d/status" % daemon.pid).read()).group(1))
time.sleep(20)
print("before the stall: RSS %d kB, %d signals heard" % (rss(), heard[0]), flush=True)
os.kill(int(bus), signal.SIGSTOP)
peak = 0
for second in range(1, stall + 1):
    time.sleep(1)
    peak = max(peak, rss())
    if second % 60 == 0 or second == stall:
        print("  stalled %d s: RSS %d kB (highest so far %d kB)" % (second, rss(), peak), flush=True)
before = heard[0]
os.kill(int(bus), signal.SIGCONT)
time.sleep(30)
print("30 s after the bus resumed: %d more signals heard, RSS %d kB" % (heard[0] - before, rss()), flush=True)
daemon.terminate()
for line in daemon.communicate()[1].split("\n"):
    if "not taking signals" in line:
        print("  " + line)
os.kill(int(bus), signal.SIGTERM)
monitor.terminate()
