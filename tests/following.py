"""Following what a desktop has in front without timing it: a daemon run with --print
says each time the application in front changes and each binding it runs, and a test
counts the first swipe begun after the daemon said what the test made the desktop do
(a desktop still starting, or loaded, takes its own time); for gestures on the window under
the finger, the first swipes begun after it said how many windows there are
(`under_the_finger`). Used by tests/test_apps.py
(Xvfb and a window manager), tests/real_desktops.py (real compositors) and
tests/e2e/hyprland_session_service.py."""
import re, subprocess, threading, time
import test_daemon
from test_daemon import wait_on_the_bus

BINDINGS = {"switch-desktop": "global", "browser-back": "firefox"}


def app_said(line):
    """The application a --print line says is in front ("" for none): its app id, or its
    WM_CLASS class where it has none ("firefox firefox/gjs", "firefox/firefox"); None if
    the line says no such thing."""
    said = re.search(r"app in front: (not known|[^\s/]+)", line)
    return None if said is None else ("" if said.group(1) == "not known" else said.group(1))


def ran(line):
    """The binding a --print line says was run, as "global" or "firefox"; None if none."""
    said = re.match(r"\S+  run (\S+):", line)
    return BINDINGS.get(said.group(1)) if said else None


class Printed:
    """What a daemon prints to stdout (--print), a line at a time as it comes."""
    def __init__(self, stream):
        self.lines = []
        self.ended = False
        self.changed = threading.Condition()
        threading.Thread(target=self.read, args=(stream,), daemon=True).start()

    def read(self, stream):
        for line in stream:
            with self.changed:
                self.lines.append(line.rstrip("\n"))
                self.changed.notify_all()
        with self.changed:
            self.ended = True
            self.changed.notify_all()

    def first(self, wanted, start, seconds):
        """The index of the first line from `start` on for which `wanted` holds; None if
        none comes within `seconds` or the daemon ends first."""
        end = time.monotonic() + seconds
        with self.changed:
            while True:
                found = next((i for i in range(start, len(self.lines)) if wanted(self.lines[i])), None)
                left = end - time.monotonic()
                if found is not None or self.ended or left <= 0:
                    return found
                self.changed.wait(left)


def follow(case, steps, env, config, recording, desktop_log=None, on_the_bus=True):
    """The daemon in `env` with `config` replaying `recording` (3-finger swipes, one
    every 1.5 s: test_apps.swipes), on the session bus unless `on_the_bus` is false, while the `steps` are
    taken in turn: each a change made to the desktop (None: none, the state at the
    start; made again every 5 s until the daemon sees it, when `again`) and the
    application the desktop should then have in front ("" for none). Returns, for
    each step, the binding that the first swipe begun after the daemon said so fired
    (`first_run_for`)."""
    daemon, printed, failed = replaying(case, env, config, recording, desktop_log, on_the_bus)
    fired = []
    for app, said, run in each_step(printed, steps):
        if said is None:
            case.fail(failed(f"the daemon never said {app or 'no application'} is in front"))
        if run is None and app_said(printed.lines[said]) == app:
            case.fail(failed(f"no swipe ran a binding after {app or 'no application'} came in front"))
        if run is None:
            case.fail(failed(f"the desktop changed the application in front by itself: {printed.lines[said]}"))
        fired.append(ran(printed.lines[run]))
    daemon.terminate()
    daemon.wait(timeout=30)
    return fired, read(case.path("gestured.log"))


def replaying(case, env, config, recording, desktop_log=None, on_the_bus=True):
    """The daemon in `env` with `config` replaying `recording`, printing (`Printed`), on
    the session bus unless `on_the_bus` is false: it, what it prints, and what makes a
    failure's message (with what it printed and logged, and the desktop's log)."""
    with open(case.path("gestured.log"), "w") as log:
        daemon = subprocess.Popen([test_daemon.GESTURED, "run", "--config", config, "--replay", recording, "--print", "--verbose"],
                                  env=env, stdout=subprocess.PIPE, stderr=log, text=True)
    case.addCleanup(daemon.stdout.close)
    case.addCleanup(daemon.kill)
    printed = Printed(daemon.stdout)
    if on_the_bus:
        wait_on_the_bus(env)

    def failed(why):
        log = read(case.path("gestured.log"))
        return (f"{why}\n--- printed\n" + "\n".join(printed.lines[-40:]) + f"\n--- log\n{log[-3000:]}"
                + (f"\n--- desktop\n{read(desktop_log)[-2000:]}" if desktop_log else ""))
    return daemon, printed, failed


def each_step(printed, steps, attempts=18):
    """Takes the `steps` (change, again, app) in turn, each `attempts` times at most when
    `again`: yields each one's app and what `first_run_for` said of it at the end. The
    next step looks after the run, or after every line printed so far when none came."""
    mark = 0
    for change, again, app in steps:
        for attempt in range(attempts if again else 1):
            said, run = first_run_for(printed, change, again, app, mark)
            if run is not None:
                break
            mark = mark if said is None else said + 1
        yield app, said, run
        mark = (run if run is not None else len(printed.lines)) + 1


def read(path):
    with open(path) as f:
        return f.read()


def first_run_for(printed, change, again, app, mark):
    """Makes `change` and waits for the daemon to say `app` is in front, then for the
    second binding run after the last time it says so (None, None: never said; said,
    None: another application is in front at that run, the index of its line, or no
    run came). A change may pass through others (a closed window's focus goes to the
    one below first), and a desktop still starting may give the focus to a window that
    maps late: a step `again` is made again then."""
    said = mark - 1
    if change:
        change()
        said = printed.first(lambda line: app_said(line) == app, mark, 5 if again else 90)
        if said is None:
            return None, None
    while True:
        first = printed.first(lambda line: ran(line) is not None, said + 1, 30)
        run = None if first is None else printed.first(lambda line: ran(line) is not None, first + 1, 30)
        if run is None:
            return said, None
        latest = next((i for i in range(run - 1, said, -1) if app_said(printed.lines[i]) is not None), None)
        if latest is None:
            return said, run
        if app_said(printed.lines[latest]) != app:
            return latest, None
        said = latest


def windows_said(line):
    """How many windows a --print line says the desktop shows (None if it says no such thing)."""
    said = re.search(r"windows: (\d+) windows? on ", line)
    return None if said is None else int(said.group(1))


def recognized_at(line):
    """The replay's time of a --print line that says a swipe was recognized (None otherwise)."""
    said = re.match(r"\S+\s+(\d+\.\d+)\s+gesture \S+ \(swipe\) recognized", line)
    return None if said is None else float(said.group(1))


def under_the_finger(case, steps, env, config, recording, starts, gap_s=1.5, desktop_log=None):
    """The daemon in `env` with `config` replaying `recording` (3-finger swipes every
    `gap_s`, the i-th from `starts[i % len(starts)]`), on the session bus, while the
    `steps` are taken in turn: each a change made to the desktop and the number of
    windows it then shows. After the daemon says that many windows, the first swipe run
    is let go (it may have begun before), and the next runs, one from each start, are
    each checked; a layout said again meanwhile with as many windows starts the count
    again. Returns, for each step, what each start fired, in `starts`' order."""
    daemon, printed, failed = replaying(case, env, config, recording, desktop_log)
    results, mark = [], 0
    for change, count in steps:
        change()
        said = printed.first(lambda line: windows_said(line) == count, mark, 90)
        if said is None:
            case.fail(failed(f"the daemon never said {count} windows"))
        fired, mark, skipped = {}, said + 1, False
        while len(fired) < len(starts):
            run = printed.first(lambda line: ran(line) is not None or windows_said(line) is not None, mark, 30)
            if run is None:
                case.fail(failed(f"no swipe ran a binding with {count} windows shown"))
            mark = run + 1
            if windows_said(printed.lines[run]) is not None:
                if windows_said(printed.lines[run]) != count:
                    case.fail(failed(f"the desktop changed its windows by itself: {printed.lines[run]}"))
                fired, skipped = {}, False
                continue
            if not skipped:
                skipped = True
                continue
            at = next((recognized_at(printed.lines[i]) for i in range(run - 1, said, -1) if recognized_at(printed.lines[i]) is not None), None)
            fired[starts[round(at / gap_s - 0.2) % len(starts)]] = ran(printed.lines[run])
        results.append([fired[start] for start in starts])
    daemon.terminate()
    daemon.wait(timeout=30)
    return results
