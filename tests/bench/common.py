"""What the VM benchmarks share: the swipe they time, playing it, its summary (latency_summary), the
drag and taps passed through a twin, the C helpers' flags, and a daemon started with its READY=1 timed."""
import fcntl, os, re, shutil, signal, socket, struct, subprocess, sys, time

here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(here, ".."), os.path.join(here, "..", "e2e")]
from fixtures import Recording  # noqa: E402
from latency_summary import summary  # noqa: E402,F401
from uinput_panel import EVENT, EVIOCSCLOCKID, Panel, wait_for  # noqa: E402


def session_bus_with_listener(listen, stamps):
    """A session bus of its own (the environment names it for what follows), the listener
    (listen.c) stamping each Gesture signal into STAMPS on it, and a panel to play on:
    (the listener, the panel)."""
    address = subprocess.run(["dbus-daemon", "--session", "--fork", "--print-address=1"],
                             capture_output=True, text=True, check=True).stdout.strip()
    os.environ["DBUS_SESSION_BUS_ADDRESS"] = address
    listener = subprocess.Popen([listen, stamps], stdout=subprocess.PIPE, text=True)
    assert listener.stdout.readline().strip() == "listening"
    panel = Panel(Recording().text())
    time.sleep(1)
    return listener, panel


def swipe(direction="right"):
    """150 mm to the right (or the left) in 0.3 s, then the lift."""
    r = Recording()
    for i in range(31):
        r.frame({0: (60 + 5 * i if direction == "right" else 210 - 5 * i, 100)})
    r.frame({0: None})
    return r.text()


def drag():
    """One finger 120 mm to the right in 2 s, a frame every 10 ms, then the lift."""
    r = Recording()
    for i in range(201):
        r.frame({0: (60 + 0.6 * i, 120)})
    r.frame({0: None})
    return r.text()


def taps(count=20):
    """COUNT taps of 60 ms, 250 ms apart."""
    r = Recording()
    for i in range(count):
        r.frame({0: (100 + 5 * (i % 10), 80)}, advance_ms=60)
        r.frame({0: None}, advance_ms=250)
    return r.text()


def pkg_flags(*names):
    """The compiler's and linker's flags for the C helpers using NAMES."""
    return subprocess.run(["pkg-config", "--cflags", "--libs", *names], capture_output=True, text=True, check=True).stdout.split()


def latency_of_each_lift(lifts, stamps, label):
    """Each lift's delay (ms) to the first stamp of `label` in the file `stamps` (lines
    "LABEL NANOSECONDS", tests/bench/stamp.c) after it and before the next lift; None
    where there is none."""
    times = sorted(int(line.split()[1]) for line in open(stamps) if line.split()[0] == label) if os.path.exists(stamps) else []
    ms = []
    for i, lift in enumerate(lifts):
        until = lifts[i + 1] if i + 1 < len(lifts) else float("inf")
        after = [t for t in times if lift <= t < until]
        ms.append((after[0] - lift) / 1e6 if after else None)
    return ms


def latencies(lifts, stamps, label):
    """The delays of the lifts that were answered (latency_of_each_lift)."""
    return [ms for ms in latency_of_each_lift(lifts, stamps, label) if ms is not None]


def play_swipes(panel, count, gap_s, directions=("right",)):
    """Plays the swipe `count` times, `gap_s` apart (the player stays out of the way of
    what is measured), its directions taking turns; returns when the kernel took each
    lift's frame (monotonic ns, the time stamp a reader of the panel gets with it)."""
    reader = os.open(panel.node, os.O_RDONLY | os.O_NONBLOCK)
    fcntl.ioctl(reader, EVIOCSCLOCKID, struct.pack("i", time.CLOCK_MONOTONIC))
    lifts, texts = [], [swipe(direction) for direction in directions]
    for i in range(count):
        panel.play(texts[i % len(texts)])
        time.sleep(gap_s)
        data = b""
        while True:
            try:
                data += os.read(reader, EVENT.size * 256)
            except BlockingIOError:
                break
        reports = [(sec, usec) for sec, usec, typ, code, _ in EVENT.iter_unpack(data) if typ == 0 and code == 0]
        lifts.append(reports[-1][0] * 1_000_000_000 + reports[-1][1] * 1000)
    os.close(reader)
    return lifts


def copy_programs(gestured, work):
    """gestured and its parsing helper (beside it, where it looks) copied into WORK, in the
    VM's /tmp, in memory: its root is the host's files over 9p without a cache, from which
    every start reads its program again, as no installed system does (a start there costs
    several times more, the more so the larger the program). The copy's path."""
    for program in (gestured, os.path.join(os.path.dirname(gestured), "gestured-parse-config")):
        shutil.copy(program, work)
    return os.path.join(work, "gestured")


def cpu_seconds(pid, children=False):
    stat = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    ticks = sum(int(t) for t in stat[11:15 if children else 13])
    return ticks / os.sysconf("SC_CLK_TCK")


class Daemon:
    """`gestured run` of `program` with a notify socket of our own in `work`, its log
    there under `log_name`: start → READY=1 is timed."""
    def __init__(self, program, work, config, log_name, env=None):
        notify_path = os.path.join(work, "notify")
        if os.path.exists(notify_path):
            os.unlink(notify_path)
        self.notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.notify.bind(notify_path)
        self.log_path = os.path.join(work, log_name)
        env = dict(os.environ, **(env or {}), NOTIFY_SOCKET=notify_path)
        started = time.monotonic()
        self.process = subprocess.Popen([program, "run", "--config", config], env=env,
                                        stdout=open(self.log_path, "w"), stderr=subprocess.STDOUT)
        self.notify.settimeout(30)
        while b"READY=1" not in self.notify.recv(4096):
            pass
        self.ready_ms = (time.monotonic() - started) * 1000
        self.start_cpu_s = cpu_seconds(self.process.pid)
        # With the configuration's parsing helper, a child it waited for at start.
        self.start_cpu_with_helper_s = cpu_seconds(self.process.pid, children=True)

    def reload_ms(self):
        """SIGHUP → READY=1 (after RELOADING=1): parsed by the helper, checked and applied."""
        started = time.monotonic()
        self.process.send_signal(signal.SIGHUP)
        while b"READY=1" not in self.notify.recv(4096):
            pass
        return (time.monotonic() - started) * 1000

    def log(self):
        return open(self.log_path).read()

    def wait_for_log(self, pattern):
        return wait_for(20, lambda: re.search(pattern, self.log()))

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=20)
        self.notify.close()
