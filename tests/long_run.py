#!/usr/bin/env python3
"""The long run: generated gestures through `gestured run --replay`, with commands and
D-Bus signals bound, watching the daemon's memory, file descriptors and children.

    tests/long_run.py GESTURED [GESTURES]      (default 1,000,000; CI runs fewer)

A recording of 1,000 gestures (taps at changing places, checkmarks, chevrons, three-finger
swipes and pinches, each bound to a command and a signal on a private session bus) plays
GESTURES/1000 times back to back (`--repeat`). The checkmark's command is `yes`, which
prints without end until its 2 s timeout kills it, and the swipe's prints 20,000 lines;
the others run `true`. Meanwhile the configuration is reloaded (SIGHUP) every 0.2 s.
Checked:
- every gesture is recognized, and every signal reaches `dbus-monitor`;
- every command started ends, every gesture bound to one starts it or is refused for
  `max_running` (at 700 gestures a second, some are), the daemon never has more than
  `max_running` children a binding, and none stays a zombie from one sample to the next;
- every reload is applied, none rejected;
- the floods' output is rate-limited: of their lines, the log has at most 100 at once and
  20 a second after that, per command;
- the resident memory at the end is within 1 MB of what it was after the first 1,000,
  and the anonymous memory (the heap: what the daemon itself allocates) within 512 kB;
- the file descriptors do not grow: sampled every second, the fewest in the last ten
  samples are no more than the most in the first ten (commands come and go with a pipe
  and /dev/null);
- after the daemon's exit, no process it started is left: the harness is a child
  subreaper, so anything orphaned would become its child.
The figures are printed; the exit status is 1 when a check fails.
"""
import ctypes, os, re, signal, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(__file__))
from fixtures import Recording  # noqa: E402

PER_ROUND = 1000
CONFIG = """
[daemon]
bus = "session"
command_timeout_ms = 2000

[[gesture]]
name = "tap"
type = "tap"
command = "true"
signal = true
max_running = 4

[[gesture]]
name = "check"
type = "checkmark"
command = "yes"
signal = true
max_running = 4

[[gesture]]
name = "back"
type = "chevron"
direction = "left"
command = "true"
signal = true
max_running = 4

[[gesture]]
name = "menu"
type = "swipe"
fingers = 3
direction = "down"
command = "seq 1 20000"
signal = true
max_running = 4

[[gesture]]
name = "zoom"
type = "pinch"
fingers = 2
signal = true
"""

def round_of_gestures():
    """1,000 gestures, 200 of each kind, at places that change from one to the next."""
    r = Recording()
    for i in range(PER_ROUND):
        x, y = 80 + (i * 37) % 120, 60 + (i * 53) % 60
        kind = i % 5
        if kind == 0:
            r.tap((x, y))
        elif kind == 1:
            r.stroke([(x, y), (x + 10, y + 12), (x + 35, y - 25)])
        elif kind == 2:
            r.stroke([(x + 20, y - 20), (x, y), (x + 20, y + 20)])
        elif kind == 3:
            for step in range(31):
                r.frame({s: (x - 40 + 20 * s, y - 40 + 2 * step) for s in range(3)})
            r.frame({0: None, 1: None, 2: None})
        else:
            r.pinch((x, y))
        r.wait(300)
    return r

class Watch:
    """Counts what the daemon logs and samples its /proc entries."""
    def __init__(self, pid):
        self.pid = pid
        self.recognized = self.started = self.ended = self.refused = 0
        self.reloads = self.rejected = self.log_bytes = self.flood_lines = 0
        self.samples = {}  # name -> (rss_kb, fds, pipes, gestures recognized by then, pss_kb, anonymous_kb)
        self.fd_history = []  # (fds other than pipes, pipes), a sample a second after the first 1,000
        self.most_children = 0
        self.zombies_seen = set()
        self.lasting_zombies = set()
        self.lines = []

    def sample(self, name):
        def link(fd):
            try:
                return os.readlink("/proc/%d/fd/%s" % (self.pid, fd))
            except OSError:  # closed meanwhile
                return None
        try:
            # From the page tables (smaps_rollup): VmRSS is updated every 64th fault.
            rollup = open("/proc/%d/smaps_rollup" % self.pid).read()
            links = [l for l in map(link, os.listdir("/proc/%d/fd" % self.pid)) if l]
        except OSError:
            return
        memory = {key: int(kb) for key, kb in re.findall(r"^(Rss|Pss|Anonymous):\s+(\d+) kB", rollup, re.M)}
        if len(memory) < 3:  # exiting
            return
        pipes = sum(1 for link in links if link.startswith("pipe:"))
        sample = (memory["Rss"], len(links), pipes, self.recognized, memory["Pss"], memory["Anonymous"])
        if name == "periodic":
            if self.recognized >= PER_ROUND:  # started up
                self.fd_history.append((len(links) - pipes, pipes))
                self.samples["latest"] = sample
        else:
            self.samples[name] = sample

    def children(self):
        try:
            pids = open("/proc/%d/task/%d/children" % (self.pid, self.pid)).read().split()
        except OSError:
            return
        self.most_children = max(self.most_children, len(pids))
        for pid in pids:
            try:
                fields = open("/proc/%s/stat" % pid).read().rsplit(")", 1)[1].split()
            except OSError:  # gone meanwhile
                continue
            if fields[0] == "Z":
                # Reaped at the next turn of the loop; a zombie seen twice, a second apart, is
                # a leak. Pids wrap around in a long run: a process is its pid and start time.
                process = (pid, fields[19])
                if process in self.zombies_seen:
                    self.lasting_zombies.add(process)
                self.zombies_seen.add(process)

    def read(self, stream, total):
        for line in stream:
            self.log_bytes += len(line)
            self.lines.append(line) if len(self.lines) < 20 or "error" in line or "warning" in line else None
            if " recognized" in line or ") began" in line:
                self.recognized += 1
                if self.recognized == PER_ROUND:
                    self.sample("first")
                if self.recognized == total:
                    self.sample("end")
            elif ": started pid" in line:
                self.started += 1
            elif " ended, exit status" in line or " ended, killed by signal" in line:
                self.ended += 1
            elif re.match(r"info: (check|menu): (y|\d+)$", line):
                self.flood_lines += 1
            elif "reload: rejected" in line:
                self.rejected += 1
            elif "reload: " in line and " gestures (applied in " in line:
                self.reloads += 1
            elif m := re.search(r": (\d+) more gesture\(s\) skipped while its commands ran", line):
                self.refused += int(m.group(1))  # beyond the few "skipped" lines said
            elif "max_running" in line:
                self.refused += 1

def become_subreaper():
    PR_SET_CHILD_SUBREAPER = 36
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)

def main():
    gestured = os.path.abspath(sys.argv[1])
    total = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
    rounds = max(1, total // PER_ROUND)
    total = rounds * PER_ROUND
    become_subreaper()
    work = tempfile.mkdtemp(prefix="gestured-long-run.")
    recording = round_of_gestures().save(os.path.join(work, "gestures.evemu"))
    config = os.path.join(work, "gestured.toml")
    open(config, "w").write(CONFIG)

    bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address"], stdout=subprocess.PIPE, text=True)
    env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=bus.stdout.readline().strip())
    monitor = subprocess.Popen(["dbus-monitor", "--session", "--profile", "type='signal',interface='org.gestured.Gestured1'"],
                               stdout=subprocess.PIPE, text=True, env=env)
    signals = [0]
    def count_signals():
        for line in monitor.stdout:
            if line.startswith("sig") and line.rstrip().endswith("\tGesture"):  # --profile: a line a message
                signals[0] += 1
    threading.Thread(target=count_signals, daemon=True).start()
    time.sleep(0.5)

    started = time.monotonic()
    daemon = subprocess.Popen([gestured, "run", "--config", config, "--replay", recording, "--repeat", str(rounds),
                               "--speed", "400"], stderr=subprocess.PIPE, text=True, env=env)
    watch = Watch(daemon.pid)
    reader = threading.Thread(target=watch.read, args=(daemon.stderr, total), daemon=True)
    reader.start()
    last_report = started
    def reload_storm():
        while daemon.poll() is None:
            time.sleep(0.2)
            try:
                daemon.send_signal(signal.SIGHUP)
            except ProcessLookupError:
                return
    threading.Thread(target=reload_storm, daemon=True).start()
    while daemon.poll() is None:
        watch.children()
        watch.sample("periodic")
        if time.monotonic() - last_report > 60:
            last_report = time.monotonic()
            print("  %d s: %d gestures, %d commands, %d signals" % (last_report - started, watch.recognized, watch.ended, signals[0]), flush=True)
        time.sleep(1)
    reader.join()
    seconds = time.monotonic() - started
    time.sleep(1)
    # dbus-monitor's signals are all in before the bus goes.
    for _ in range(50):
        if signals[0] >= watch.recognized:
            break
        time.sleep(0.2)
    monitor.terminate(); bus.terminate(); monitor.wait(); bus.wait()
    leftovers = [pid for task in os.listdir("/proc/self/task") for pid in open("/proc/self/task/%s/children" % task).read().split()]

    pinches = total // 5
    expected_signals = total - pinches + 3 * pinches  # a pinch signals began, changed (at least once), ended
    # The last log lines are read after the daemon has gone when it outruns this reader:
    # then the end is the last sample a second taken, if that was near the end.
    first, end = watch.samples.get("first"), watch.samples.get("end") or watch.samples.get("latest")
    if end and end[3] < total * 0.9: end = None
    print("long run: %d gestures in %.0f s (%d/s), exit status %d" % (watch.recognized, seconds, watch.recognized / seconds, daemon.returncode))
    print("  commands: %d started, %d ended, %d refused for max_running; most children at once: %d; zombies still there a second later: %d"
          % (watch.started, watch.ended, watch.refused, watch.most_children, len(watch.lasting_zombies)))
    print("  signals heard: %d (at least %d expected)" % (signals[0], expected_signals))
    if first and end:
        print("  RSS after the first %d: %d kB; at the end (%d gestures): %d kB (%+d kB)"
              % (PER_ROUND, first[0], end[3], end[0], end[0] - first[0]))
        print("  PSS: %d kB, then %d kB; anonymous: %d kB, then %d kB (%+d kB)"
              % (first[4], end[4], first[5], end[5], end[5] - first[5]))
    # Commands open and close a pipe and /dev/null all the time: a leak is a count whose
    # lowest at the end is above its highest at the start.
    early, late = watch.fd_history[:10], watch.fd_history[-10:]
    if early and late:
        print("  fds besides pipes, a sample a second after the first %d: %d to %d in the first 10 s, %d to %d in the last 10 s"
              % (PER_ROUND, min(e[0] for e in early), max(e[0] for e in early), min(e[0] for e in late), max(e[0] for e in late)))
        print("  pipes: %d to %d in the first 10 s, %d to %d in the last 10 s"
              % (min(e[1] for e in early), max(e[1] for e in early), min(e[1] for e in late), max(e[1] for e in late)))
    print("  reloads: %d applied, %d rejected; log: %d bytes, %.0f bytes a second; the floods' lines in it: %d, %.1f a second"
          % (watch.reloads, watch.rejected, watch.log_bytes, watch.log_bytes / seconds, watch.flood_lines, watch.flood_lines / seconds))
    print("  processes left after the daemon's exit: %d" % len(leftovers))
    failures = []
    if daemon.returncode != 0: failures.append("the daemon exited %d" % daemon.returncode)
    if watch.recognized != total: failures.append("%d of %d gestures recognized" % (watch.recognized, total))
    if watch.started != watch.ended: failures.append("%d commands started, %d ended" % (watch.started, watch.ended))
    if watch.started + watch.refused != total - pinches: failures.append("commands started and refused do not add up to the gestures bound to one")
    if watch.most_children > 4 * 4: failures.append("%d children at once" % watch.most_children)
    if watch.lasting_zombies: failures.append("zombies left unreaped: %s" % sorted(watch.lasting_zombies))
    if signals[0] < expected_signals: failures.append("%d signals heard, %d expected" % (signals[0], expected_signals))
    if not (first and end): failures.append("no sample of the daemon's /proc entries at the first %d or after 90%% of the gestures" % PER_ROUND)
    else:
        if end[0] - first[0] > 1024: failures.append("RSS grew by %d kB" % (end[0] - first[0]))
        if end[5] - first[5] > 512: failures.append("anonymous memory grew by %d kB" % (end[5] - first[5]))
    if not (early and late): failures.append("no samples of the daemon's file descriptors")
    else:
        for i, what in [(0, "file descriptors besides pipes"), (1, "pipes")]:
            if min(e[i] for e in late) > max(e[i] for e in early): failures.append("%s grew" % what)
    if leftovers: failures.append("processes left behind: %s" % leftovers)
    if watch.rejected or watch.reloads < seconds: failures.append("%d reloads applied, %d rejected" % (watch.reloads, watch.rejected))
    if watch.flood_lines > 2 * (100 + 20 * seconds): failures.append("%d lines of the floods logged in %.0f s" % (watch.flood_lines, seconds))
    for failure in failures:
        print("FAIL " + failure)
    if failures:
        print("".join(watch.lines[-20:]))
    return 1 if failures else 0

if __name__ == "__main__":
    sys.exit(main())
