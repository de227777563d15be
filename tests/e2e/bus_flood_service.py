#!/usr/bin/env python3
"""Anyone may read the properties under the shipped bus policy: readers flooding them
cost gestures little and SIGTERM nothing. Inside scripts/vm-run-systemd (tests/e2e/
service.sh has installed everything): the service with 1,000 gestures and a right swipe
bound to a command that stamps the clock; 30 swipes quiet, then 30 while four readers,
as nobody, keep 64 GetAll calls each in flight (tests/bus_flood.c); then SIGTERM under
the flood. Then 30 more while another process, as nobody, sends 10,000 ReportApp calls
a second (tests/app_reporter.c: beyond 10 a second dropped unanswered, the rest refused,
nobody being no active session's user). Then 30 more while nobody hands over 30 MB
configurations from 32 connections (tests/push_flood.c): the service's peak and resident
memory against idle. Prints the latencies (lift → command) of each run."""
import json, os, re, subprocess, sys, time

here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [here, os.path.join(here, ".."), os.path.join(here, "..", "bench")]
from common import latencies, play_swipes, summary  # noqa: E402
from fixtures import Recording  # noqa: E402
from uinput_panel import Panel, check, failures, wait_for  # noqa: E402
from service_journal import journal  # noqa: E402

SWIPES = 30
work = "/run/gestured-bench"
os.makedirs(work, exist_ok=True)
os.chmod(work, 0o777)
stamp, stamps, flood, reporter = f"{work}/stamp", f"{work}/stamps", f"{work}/bus_flood", f"{work}/app_reporter"
pusher = f"{work}/push_flood"
subprocess.run(["cc", "-O2", "-static", "-o", stamp, os.path.join(here, "..", "bench", "stamp.c")], check=True)
subprocess.run(["cc", "-O2", "-o", flood, os.path.join(here, "..", "bus_flood.c"), "-lsystemd"], check=True)
subprocess.run(["cc", "-O2", "-o", reporter, os.path.join(here, "..", "app_reporter.c"), "-lsystemd"], check=True)
subprocess.run(["cc", "-O2", "-o", pusher, os.path.join(here, "..", "push_flood.c"), "-lsystemd"], check=True)
# The command writes its stamp where the sandbox lets it (ProtectSystem=strict).
dropin = "/etc/systemd/system/gestured.service.d"
os.makedirs(dropin, exist_ok=True)
with open(f"{dropin}/bench.conf", "w") as f:
    f.write(f"[Service]\nReadWritePaths={work}\n")
with open("/etc/gestured/gestured.toml", "w") as f:
    f.write('[daemon]\nbus = "system"\nmodes = ["elsewhere"]\n'
            f'[[gesture]]\nname = "right"\ntype = "swipe"\ndirection = "right"\ncommand = "{stamp} {stamps} right"\n'
            + "".join(f'[[gesture]]\nname = "g{i}"\ntype = "tap"\nfingers = 4\nmodes = ["elsewhere"]\n' for i in range(1000)))
subprocess.run(["systemctl", "daemon-reload"], check=True)
subprocess.run(["systemctl", "reset-failed", "gestured"])
subprocess.run(["systemctl", "start", "gestured"], check=True)


panel = Panel(Recording("gestured flood panel").text())
check("the service reads the panel", wait_for(30, lambda: re.search(re.escape(panel.node) + ": 'gestured flood panel'", journal())))
quiet = summary(latencies(play_swipes(panel, SWIPES, 0.6), stamps, "right"), SWIPES)
readers = [subprocess.Popen(["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", flood, "--system"])
           for _ in range(4)]
time.sleep(2)
check("four readers as nobody keep reading the properties", all(r.poll() is None for r in readers))
flooded = summary(latencies(play_swipes(panel, SWIPES, 0.6), stamps, "right"), SWIPES)
for r in readers:
    r.kill()


def cpu_s(pid):
    """The CPU time a process has used, user and system, in seconds."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kb(pid):
    with open(f"/proc/{pid}/smaps_rollup") as f:
        return int(re.search(r"Rss:\s+(\d+)", f.read()).group(1))


# Reports of the application in front, 10,000 a second, while the swipes are played.
main_pid = int(subprocess.run(["systemctl", "show", "-p", "MainPID", "--value", "gestured"], capture_output=True, text=True).stdout)
rss_before = rss_kb(main_pid)
# Dropped by the ration of reports, or, while dbus-daemon is slow to say who the callers
# are (a loaded machine), before it: either way said once.
DROPS = ("dropping reports of the application in front", "dropping reports and configurations from sessions")
drops_said = [journal().count(words) for words in DROPS]
apps = subprocess.Popen(["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", reporter, "--system"],
                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
check("the reporter is on the system bus", apps.stdout.readline().strip() == "ready")
# Who spends the machine's time under the flood: gestured, the bus daemon, the reporter.
bus_pid = int(subprocess.run(["pidof", "-s", "dbus-daemon"], capture_output=True, text=True).stdout.split()[0])
spenders = {"gestured": main_pid, "dbus-daemon": bus_pid, "reporter": apps.pid}
cpu_before, flood_started = {name: cpu_s(pid) for name, pid in spenders.items()}, time.monotonic()
apps.stdin.write("flood 10000 25\n")
apps.stdin.flush()
time.sleep(1)
reported = summary(latencies(play_swipes(panel, SWIPES, 0.6), stamps, "right"), SWIPES)
flood_s = time.monotonic() - flood_started
cpu_share = {name: round((cpu_s(pid) - cpu_before[name]) / flood_s, 3) for name, pid in spenders.items()}
done = apps.stdout.readline().split()
apps.kill()
rss_after = rss_kb(main_pid)
drops_said = [journal().count(words) - before for words, before in zip(DROPS, drops_said)]
print("app flood:", json.dumps({"reported": reported, "sent": int(done[1]) if len(done) > 3 else None,
                                "answered": int(done[2]) if len(done) > 3 else None, "rss_kb": [rss_before, rss_after],
                                "cpu_s_per_s": cpu_share}))
check(f"every swipe fires under 10,000 reports a second ({reported['n']} of {SWIPES})", reported["n"] == SWIPES)
check(f"the drops are said once (by the ration, before it: {drops_said})", 1 <= sum(drops_said) and max(drops_said) == 1)
if quiet["p50_ms"] and reported["p50_ms"]:
    print(f"app flood: lift → command p50 {quiet['p50_ms']:.1f} ms quiet, {reported['p50_ms']:.1f} ms under the reports "
          f"({reported['p50_ms'] / quiet['p50_ms']:.2f}×); p99 {quiet['p99_ms']:.1f} → {reported['p99_ms']:.1f} ms; "
          f"resident {rss_before} → {rss_after} kB")


def run_text(command):
    return subprocess.run(command, capture_output=True, text=True).stdout


def memory_kb(pid):
    """The process's resident memory now and at its peak (VmRSS, VmHWM)."""
    with open(f"/proc/{pid}/status") as f:
        status = f.read()
    return tuple(int(re.search(rf"{key}:\s+(\d+)", status).group(1)) for key in ("VmRSS", "VmHWM"))


# Another user's hand-overs of 30 MB from 32 connections, each keeping one in flight, all
# refused: who calls is judged before any argument is read, and a caller not yet known
# costs the service its sender and serial alone. The peak is reset first (clear_refs 5).
time.sleep(1)
with open(f"/proc/{main_pid}/clear_refs", "w") as f:
    f.write("5")
idle_kb = memory_kb(main_pid)[0]
pushes = subprocess.Popen(["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", pusher, "30", "25", "32"],
                          stdout=subprocess.PIPE, text=True)
time.sleep(2)
pushed_ms = latencies(play_swipes(panel, SWIPES, 0.6), stamps, "right")
pushed = dict(summary(pushed_ms, SWIPES), max_ms=max(pushed_ms, default=None))
done = pushes.stdout.readline().split()
pushes.wait()
rss_kb_after, peak_kb = memory_kb(main_pid)
print("push flood:", json.dumps({"lifts": pushed, "sent": int(done[1]) if len(done) > 3 else None,
                                 "answered": int(done[2]) if len(done) > 3 else None,
                                 "refused": int(done[3]) if len(done) > 3 else None,
                                 "idle_kb": idle_kb, "peak_kb": peak_kb, "after_kb": rss_kb_after}))
check(f"every swipe fires under 30 MB hand-overs from 32 connections ({pushed['n']} of {SWIPES})", pushed["n"] == SWIPES)
check(f"each within 0.3 s of its lift (slowest {pushed['max_ms']} ms)", pushed["max_ms"] is not None and pushed["max_ms"] <= 300)
# The bus carries a few 30 MB messages a second at most here (in an emulated VM, one in
# several seconds, and the answers may not be back by the end): the service says each it
# refuses, and what is answered is refused.
nobody = run_text(["id", "-u", "nobody"]).strip()
refusals = journal().count(f"uid {nobody}'s configuration refused")
check(f"the hand-overs that reach the service are refused ({refusals} said), none taken; what is answered is refused "
      f"({done[1:4] if len(done) > 3 else done}: sent, answered, refused)",
      refusals >= 1 and f"uid {nobody}'s configuration taken" not in journal() and len(done) > 3 and int(done[3]) == int(done[2]))
# The bus hands a message over whole: one of them in the service at a time is the floor.
check(f"the service's peak is within one message (30 MB) and 2 MB of idle ({idle_kb} → {peak_kb} kB), "
      f"and it is back within 2 MB of idle after ({rss_kb_after} kB)",
      peak_kb - idle_kb <= 32 * 1024 + 2048 and rss_kb_after - idle_kb <= 2048)

readers = [subprocess.Popen(["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", flood, "--system"])
           for _ in range(4)]
time.sleep(2)
pid = int(subprocess.run(["systemctl", "show", "-p", "MainPID", "--value", "gestured"], capture_output=True, text=True).stdout)
started = time.monotonic()
os.kill(pid, 15)
wait_for(10, lambda: not os.path.exists(f"/proc/{pid}"))
stopped_s = time.monotonic() - started
for r in readers:
    r.kill()
print("bus flood:", json.dumps({"quiet": quiet, "flooded": flooded, "sigterm_s": round(stopped_s, 3)}))
check(f"every swipe fires while the properties are flooded ({flooded['n']} of {SWIPES})", flooded["n"] == SWIPES)
check(f"SIGTERM ends it within a second under the flood ({stopped_s:.3f} s)", stopped_s < 1)
if quiet["p50_ms"] and flooded["p50_ms"]:
    print(f"bus flood: lift → command p50 {quiet['p50_ms']:.1f} ms quiet, {flooded['p50_ms']:.1f} ms flooded "
          f"({flooded['p50_ms'] / quiet['p50_ms']:.2f}×); p99 {quiet['p99_ms']:.1f} → {flooded['p99_ms']:.1f} ms")
panel.destroy()
subprocess.run(["systemctl", "stop", "gestured"])
os.unlink(f"{dropin}/bench.conf")
subprocess.run(["systemctl", "daemon-reload"])
sys.exit(1 if failures() else 0)
