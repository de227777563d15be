#!/usr/bin/env python3
"""Gestures per application through the daemon's real loop: a replayed 3-finger swipe
fires the application's own binding while that application is in front and the one for
every application otherwise, as each desktop says which is in front.

    tests/test_apps.py GESTURED
"""
import json, os, re, resource, shutil, signal, socket, struct, subprocess, sys, tempfile, threading, time
import test_daemon
import following
from fixtures import Recording
from test_control import IGNORE_PANELS, Peer, compile_peer
from test_daemon import Harness, wait_on_the_bus


# What tells gestured which desktop it runs in: none but the test's own.
DESKTOP_VARIABLES = ["SWAYSOCK", "I3SOCK", "HYPRLAND_INSTANCE_SIGNATURE", "WAYLAND_DISPLAY", "DISPLAY", "XDG_CURRENT_DESKTOP"]


def apps_config(out, bus="session", apps_window="focused"):
    return f"""[daemon]
bus = "{bus}"

[[gesture]]
name = "switch-desktop"
type = "swipe"
fingers = 3
direction = "left"
command = "sh -c 'echo global >> {out}'"

[[gesture]]
name = "browser-back"
type = "swipe"
fingers = 3
direction = "left"
apps = ["firefox", "org.mozilla.*"]
apps_window = "{apps_window}"
command = "sh -c 'echo firefox >> {out}'"
"""


def swipes(count, gap_ms, tail_ms=0, starts_mm=None, lead_ms=0):
    """`count` 3-finger swipes 60 mm to the left every `gap_ms` from the replay's start
    (its first event; with `lead_ms`, a frame without touches that long before the
    first swipe), then a tap `tail_ms` after the last, which fires nothing. Each starts
    200 mm from the panel's left edge (of 295), or as `starts_mm` says."""
    rec = Recording()
    if lead_ms:
        rec.frame({}, advance_ms=lead_ms)
    for i in range(count):
        start = rec.t
        for step in range(16):
            x = (starts_mm[i] if starts_mm else 200) - 4 * step
            rec.frame({0: (x, 60), 1: (x, 90), 2: (x, 120)}, advance_ms=20)
        rec.frame({0: None, 1: None, 2: None})
        rec.wait(gap_ms - (rec.t - start) / 1000)
    if tail_ms:
        rec.wait(tail_ms)
        rec.tap()
    return rec


class Reporter:
    """tests/app_reporter.c on the test's session bus, told a line at a time."""
    def __init__(self, harness):
        self.process = subprocess.Popen([compile_peer(harness, "app_reporter")], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, env=harness.env)
        harness.addCleanup(self.process.stdout.close)
        harness.addCleanup(self.process.stdin.close)
        harness.addCleanup(self.process.kill)
        assert self.process.stdout.readline().strip() == "ready"

    def tell(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        return self.process.stdout.readline().strip()


class ReportedOnTheBus(Harness):
    """ReportApp, as the shipped KWin script and GNOME Shell extension call it (and
    gestured's session agent): each report stands while its reporter stays on the bus."""
    def setUp(self):
        super().setUp()
        for name in DESKTOP_VARIABLES:
            self.env.pop(name, None)

    def fired(self, out):
        if not os.path.exists(out):
            return []
        with open(out) as f:
            return f.read().split()

    def fired_by_then(self, out, count, within=20):
        """What fired, once `count` gestures have or `within` s have passed: a daemon that a
        loaded machine starts late plays its recording that much later."""
        deadline = time.monotonic() + within
        while len(self.fired(out)) < count and time.monotonic() < deadline:
            time.sleep(0.1)
        return self.fired(out)

    def shipped_script(self, kind, windows, desktop=None):
        """The lines the shipped KWin script ("kwin") or GNOME Shell 43 extension ("gnome")
        prints under tests/desktop_scripts.js's stand-ins: the calls it makes."""
        here = os.path.dirname(os.path.abspath(__file__))
        script = {"kwin": "../desktop/kwin/contents/code/main.js",
                  "gnome": "../desktop/gnome-shell/gestured-43@gestured.github.io/extension.js"}[kind]
        command = ["node", os.path.join(here, "desktop_scripts.js"), kind, os.path.join(here, script), json.dumps(windows)]
        return subprocess.run(command + ([json.dumps(desktop)] if desktop else []),
                              capture_output=True, text=True, check=True).stdout.splitlines()

    def told_between_the_swipes(self, calls, **started):
        """`started(**started)`, then each of `calls` told by the reporter 1 s after a swipe
        (at 1, 3, 5... s), made before the swipes' clock starts so that only the bus call
        is in its second; then what fired, once all five have."""
        out, start, daemon, reporter = self.started(**started)
        for i, call in enumerate(calls):
            time.sleep(max(0, start + 1 + 2 * i - time.monotonic()))
            self.assertEqual(reporter.tell(call), "done")
        fired = self.fired_by_then(out, 5)
        daemon.send_signal(signal.SIGTERM)
        daemon.communicate(timeout=30)
        return fired

    def started(self, apps_window="focused", starts_mm=None, before=lambda: None):
        """A private bus, the daemon on it replaying swipes at 0, 2, 4, 6 and 8 s (from
        where `starts_mm` says), and a reporter: (the file of what fired, when the daemon
        started, it, the reporter). `before` runs on the bus before the daemon starts (a
        peer whose own start must not eat into the swipes' schedule)."""
        self.start_bus()
        before()
        reporter = Reporter(self)  # built and on the bus before the swipes' clock starts
        out = self.path("fired.txt")
        config = self.write("gestured.toml", apps_config(out, apps_window=apps_window))
        start = time.monotonic()
        daemon = self.start_daemon(config, swipes(5, 2000, starts_mm=starts_mm))
        self.addCleanup(daemon.kill)
        wait_on_the_bus(self.env)
        return out, start, daemon, reporter

    def test_the_application_in_fronts_binding_fires_and_the_global_one_otherwise(self):
        out, start, daemon, reporter = self.started()

        def at(seconds):
            time.sleep(max(0, start + seconds - time.monotonic()))

        at(1)  # after the first swipe: nothing said, the global binding
        self.assertEqual(reporter.tell("report kwin firefox - -"), "done")
        at(3)
        self.assertEqual(reporter.tell("report gnome org.gnome.Terminal - -"), "done")
        status = subprocess.run([test_daemon.GESTURED, "status", "--bus", "session"], capture_output=True, text=True,
                                env=self.env, timeout=30)
        self.assertIn("app:      org.gnome.Terminal (from gnome)\n", status.stdout, status.stderr)
        at(5)
        self.assertEqual(reporter.tell("report kwin - Firefox Navigator"), "done")  # an X11 window, by its WM_CLASS
        at(7)
        reporter.process.kill()  # the reporter leaves: no application is known
        reporter.process.wait()
        self.assertEqual(self.fired_by_then(out, 5), ["global", "firefox", "global", "firefox", "global"])
        daemon.send_signal(signal.SIGTERM)
        daemon.communicate(timeout=30)

    def test_where_a_reporter_says_the_windows_are_decides_the_touched_windows_gestures(self):
        """ReportWindows, as the shipped KWin script and GNOME Shell extension call it:
        firefox on the left half of a screen whose origin is not 0 (in KWin's fractions
        of a pixel), kitty on the right. A swipe answers to the window it starts on. A
        layout that is no JSON is refused and changes nothing; the reporter leaving takes
        its layout with it (then the focused window decides, and none is known)."""
        left, right = 100, 250
        out, start, daemon, reporter = self.started(apps_window="touched", starts_mm=[left, left, right, left, left])

        def at(seconds):
            time.sleep(max(0, start + seconds - time.monotonic()))
        layout = ('{"screen": [100, 0, 2000, 1000], "windows": [[100, 0, 1000.4, 1000, "", "firefox", "Navigator"], '
                  '[1100.2, 0, 1000, 1000, "kitty", "", ""]]}')
        at(1)
        self.assertEqual(reporter.tell(f"windows kwin {layout}"), "done")
        at(5)
        self.assertEqual(reporter.tell('windows kwin {"screen": [0, 0'), "error org.freedesktop.DBus.Error.InvalidArgs")
        at(7)
        reporter.process.kill()
        reporter.process.wait()
        fired = self.fired_by_then(out, 5)
        daemon.send_signal(signal.SIGTERM)
        log = daemon.communicate(timeout=30)[1]
        self.assertEqual(fired, ["global", "firefox", "global", "firefox", "global"], log[-3000:])

    def test_the_shipped_kwin_script_and_gnome_extension_say_it(self):
        """The shipped JavaScript, run under stand-ins for KWin's and GNOME Shell's objects
        (tests/desktop_scripts.js): the calls it makes, made on the bus by a reporter that
        stays on it, as KWin and GNOME Shell do."""
        def activation(kind, window):
            """The call the script makes when `window` is activated."""
            lines = self.shipped_script(kind, [window])
            calls = [line for line in lines if line.startswith("report ")]
            self.assertEqual(len([line for line in lines if line.startswith("agent ") and not line.startswith("agent windows ")]),
                             len(calls), "the agent is told too")
            return calls[-1]

        calls = [activation(kind, window) for kind, window in
                 [("kwin", {"appId": "org.mozilla.firefox", "class": "firefox", "instance": "Navigator"}),
                  ("gnome", {"appId": "org.gnome.Terminal"}),
                  ("gnome", {"class": "Firefox", "instance": "Navigator"}),  # an X11 window
                  ("kwin", None)]]
        self.assertEqual(self.told_between_the_swipes(calls), ["global", "firefox", "global", "firefox", "global"])

    def test_the_shipped_kwin_script_and_gnome_extension_say_where_the_windows_are(self):
        """The shipped JavaScript under the stand-ins, its desktop's windows where it says
        (firefox on the left half of the built-in screen, kitty on the right, then the
        other way round): the layouts it says, made on the bus by a reporter that stays
        on it, decide which window each swipe starts on; one said to the agent too."""
        left, right = 100, 250

        def arrangement(kind, firefox_x, kitty_x):
            """The call the script makes for this layout."""
            desktop = {"screen": [100, 0, 2000, 1000],
                       "stack": [{"appId": "org.mozilla.firefox", "frame": [firefox_x, 0, 1000, 1000]},
                                 {"class": "kitty", "frame": [kitty_x, 0, 1000, 1000]}]}
            lines = self.shipped_script(kind, [], desktop)
            said = [line for line in lines if line.startswith("windows ")]
            self.assertEqual(["agent " + line for line in said], [line for line in lines if line.startswith("agent windows ")])
            return said[-1]

        calls = [arrangement(kind, firefox_x, kitty_x) for kind, firefox_x, kitty_x in
                 [("kwin", 100, 1100), ("gnome", 100, 1100), ("kwin", 1100, 100)]]
        fired = self.told_between_the_swipes(calls, apps_window="touched", starts_mm=[left, left, right, left, right])
        self.assertEqual(fired, ["global", "firefox", "global", "global", "firefox"])

    def test_the_gnome_45_extension_loads_as_an_es_module_and_says_it(self):
        """The extension for GNOME 45 and later, loaded by gjs as an ES module as GNOME
        Shell loads it (tests/gnome_module.js: stand-ins for the Shell's modules, St and
        `global.display`); its calls made on the bus from gjs, which stays on it."""
        here = os.path.dirname(os.path.abspath(__file__))
        gjs = None

        def focus(window):
            gjs.stdin.write(json.dumps(window) + "\n")
            gjs.stdin.flush()
            self.assertEqual(gjs.stdout.readline().strip(), "done", gjs.stderr.read() if gjs.poll() is not None else "")

        def start_gjs():
            # gjs loads the extension before the swipes' clock starts: on a loaded machine
            # that takes longer than the second before the first focus.
            nonlocal gjs
            gjs = subprocess.Popen(["gjs", "-m", os.path.join(here, "gnome_module.js"),
                                    os.path.join(here, "../desktop/gnome-shell/gestured@gestured.github.io")],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=self.env)
            self.addCleanup(gjs.__exit__, None, None, None)  # its pipes closed, once killed
            self.addCleanup(gjs.kill)
            focus(None)

        out, start, daemon, _ = self.started(before=start_gjs)

        for i, window in enumerate([{"appId": "org.mozilla.firefox"}, {"appId": "org.gnome.Terminal"},
                                    {"class": "Firefox", "instance": "Navigator"}, None]):
            time.sleep(max(0, start + 1 + 2 * i - time.monotonic()))
            focus(window)
        self.assertEqual(self.fired_by_then(out, 5), ["global", "firefox", "global", "firefox", "global"])
        gjs.stdin.close()
        self.assertEqual(gjs.wait(timeout=30), 0, gjs.stderr.read())
        daemon.send_signal(signal.SIGTERM)
        daemon.communicate(timeout=30)

    def test_the_gnome_45_extension_says_it_again_to_a_gestured_started_after_it(self):
        """The extension said firefox while no gestured was on the bus (the agent or the
        user service started later, or again): once gestured comes, it hears firefox
        without waiting for the focus to move (before, it knew nothing until then)."""
        self.start_bus()
        here = os.path.dirname(os.path.abspath(__file__))
        gjs = subprocess.Popen(["gjs", "-m", os.path.join(here, "gnome_module.js"),
                                os.path.join(here, "../desktop/gnome-shell/gestured@gestured.github.io")],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=self.env)
        self.addCleanup(gjs.__exit__, None, None, None)  # its pipes closed, once killed
        self.addCleanup(gjs.kill)
        gjs.stdin.write(json.dumps({"appId": "org.mozilla.firefox"}) + "\n")
        gjs.stdin.flush()
        self.assertEqual(gjs.stdout.readline().strip(), "done")
        config = self.write("gestured.toml", apps_config(self.path("fired.txt")) + IGNORE_PANELS)
        daemon = subprocess.Popen([test_daemon.GESTURED, "run", "--config", config], env=self.env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.addCleanup(daemon.kill)
        wait_on_the_bus(self.env)

        def app():
            return subprocess.run(["busctl", "--user", "get-property", "org.gestured.Gestured1", "/org/gestured/Gestured1",
                                   "org.gestured.Gestured1", "App"], capture_output=True, text=True, env=self.env).stdout
        self.assertTrue(waited("firefox said again", lambda: "org.mozilla.firefox" in app(), seconds=5))
        gjs.stdin.close()
        self.assertEqual(gjs.wait(timeout=30), 0, gjs.stderr.read())
        daemon.terminate()
        daemon.communicate(timeout=30)

    def test_in_kde_plasma_the_script_is_loaded_through_kwins_scripting_interface(self):
        """A stand-in KWin (tests/fake_kwin.c) on a private session bus."""
        self.start_bus()
        self.env["XDG_CURRENT_DESKTOP"] = "KDE"
        kwin = subprocess.Popen([compile_peer(self, "fake_kwin")], stdout=subprocess.PIPE, text=True, env=self.env)
        self.addCleanup(kwin.stdout.close)
        self.addCleanup(kwin.kill)
        self.assertEqual(kwin.stdout.readline().strip(), "ready")
        out = self.path("fired.txt")
        log = self.run_daemon(apps_config(out), swipes(1, 2000)).stderr
        kwin.kill()
        calls = kwin.stdout.read().split("\n")
        self.assertEqual(calls[0], "isScriptLoaded gestured", calls)
        self.assertRegex(calls[1], r"^loadScript /\S+/kwin/contents/code/main\.js gestured$", calls)
        self.assertEqual(calls[2], "run /Scripting/Script0", calls)
        self.assertIn("KWin: loaded gestured's script (0)", log)

    def test_a_huge_name_and_a_flood_are_refused_said_once_and_swipes_still_fire(self):
        self.start_bus()
        out = self.path("fired.txt")
        daemon = subprocess.Popen([test_daemon.GESTURED, "run", "--config", self.write("gestured.toml", apps_config(out)),
                                   "--replay", swipes(6, 2000, tail_ms=20_000).save(self.path("rec.evemu")), "--verbose"],
                                  env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.addCleanup(daemon.kill)
        wait_on_the_bus(self.env)
        reporter = Reporter(self)
        self.assertEqual(reporter.tell("huge"), "error org.gestured.Gestured1.Error.InvalidArgs")

        def rss_kb():
            with open(f"/proc/{daemon.pid}/status") as f:
                return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1))
        before = rss_kb()
        done = reporter.tell("flood 10000 10").split()
        after = rss_kb()
        self.assertEqual(done[0], "done")
        sent, answered = int(done[1]), int(done[2])
        self.assertGreater(sent, 50_000, "the flood was sent")
        self.assertLess(answered, sent // 10, "beyond its ration a caller's reports are dropped unanswered")
        self.assertLess(after - before, 4096, "memory stays flat")
        fired = self.fired_by_then(out, 6)
        daemon.send_signal(signal.SIGTERM)
        log = daemon.communicate(timeout=30)[1]
        # The swipes at 0 to 10 s all fired, whichever application the flood had in front.
        self.assertEqual(len(fired), 6, log[-3000:])
        self.assertEqual(log.count("refusing reports of the application in front"), 1, log[-3000:])  # the huge name
        self.assertEqual(log.count("dropping reports of the application in front"), 1, log[-3000:])


# A private bus any user may join, as the system bus (with none of its policy: what is
# tested is what the daemon takes, not what the bus lets through).
OPEN_BUS = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <listen>unix:tmpdir=/tmp</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
  </policy>
</busconfig>
"""


class ReportedOnTheSystemBus(Harness):
    """ReportApp on a bus the daemon takes for the system bus, with a stand-in logind
    (tests/fake_logind.c: session c1 of user 0 in front, or c2 of user 65534): only the
    seat's session's user is taken, others cannot crowd it out, and a session that comes
    back in front says its application again."""
    def setUp(self):
        super().setUp()
        for name in DESKTOP_VARIABLES:
            self.env.pop(name, None)
        config = self.write("bus.conf", OPEN_BUS)
        out = subprocess.run(["dbus-daemon", f"--config-file={config}", "--fork", "--print-address=1", "--print-pid=1"],
                             capture_output=True, text=True, check=True).stdout.split("\n")
        self.env["DBUS_SYSTEM_BUS_ADDRESS"] = self.env["DBUS_SESSION_BUS_ADDRESS"] = out[0]
        self.addCleanup(os.kill, int(out[1]), signal.SIGTERM)
        self.logind = Peer(self, "fake_logind")

    def app(self):
        return subprocess.run(["busctl", "--user", "get-property", "org.gestured.Gestured1", "/org/gestured/Gestured1",
                               "org.gestured.Gestured1", "App"], capture_output=True, text=True, env=self.env).stdout.strip()

    def daemon(self, system_bus=None, probe=True):
        """The daemon, live (a replay follows no logind) and reading no panel: what it
        takes shows in its App property; with `probe`, once it takes reports (logind has
        answered). `system_bus`: the address it takes for the system bus, when not the
        test's bus itself."""
        config = self.write("gestured.toml", apps_config(self.path("fired.txt"), bus="system") + IGNORE_PANELS)
        env = dict(self.env, DBUS_SYSTEM_BUS_ADDRESS=system_bus or self.env["DBUS_SYSTEM_BUS_ADDRESS"])
        daemon = subprocess.Popen([test_daemon.GESTURED, "run", "--config", config, "--verbose"],
                                  env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.addCleanup(daemon.kill)
        wait_on_the_bus(self.env)
        if probe:
            reporter = Reporter(self)
            waited("logind's session", lambda: reporter.tell("report probe - - -") == "done", seconds=5)
        return daemon

    def stopped(self, daemon):
        daemon.terminate()
        return daemon.communicate(timeout=30)[1]

    def test_another_user_flooding_reports_crowds_out_none_of_the_seat_users(self):
        """nobody sends 900 reports a second over 100 connections (before, they used up
        the ration of all callers together, and 8 of 20 of the seat user's reports were
        dropped unanswered); the seat user's 20 reports are each answered and followed.
        Who a caller is, the daemon asks of dbus-daemon once per connection, never per
        report (before, a synchronous GetConnectionUnixUser for each report admitted)."""
        daemon = self.daemon()
        monitor = subprocess.Popen(["dbus-monitor", "--address", self.env["DBUS_SYSTEM_BUS_ADDRESS"],
                                    "type='method_call',interface='org.freedesktop.DBus'"],
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.addCleanup(monitor.kill)
        time.sleep(0.3)
        flooder = subprocess.Popen(["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", compile_peer(self, "app_reporter")],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=self.env)
        self.addCleanup(flooder.kill)
        self.assertEqual(flooder.stdout.readline().strip(), "ready")
        flooder.stdin.write("flood 900 8 100\n")
        flooder.stdin.flush()
        time.sleep(1)
        reporter = Reporter(self)
        answers, followed = [], []
        for i in range(20):
            app = "firefox" if i % 2 else "kitty"
            answers.append(reporter.tell(f"report agent {app} - -"))
            followed.append(f'"{app}"' in self.app())
            time.sleep(0.2)
        flood = flooder.stdout.readline().split()
        log = self.stopped(daemon)
        monitor.terminate()
        asked = len(re.findall(r"member=GetConnection\w+", monitor.communicate()[0]))
        self.assertEqual(answers, ["done"] * 20, log[-3000:])
        self.assertLess(asked, 100 + 20, "who a caller is, asked once a connection")
        self.assertEqual(followed, [True] * 20, log[-3000:])
        self.assertEqual(flood[0], "done")
        self.assertGreater(int(flood[1]), 5000, "the flood was sent")
        self.assertGreater(int(flood[3]), 0, "nobody was refused")

    def test_where_the_windows_are_is_taken_from_the_seats_user_alone(self):
        """ReportWindows on the system bus: nobody's is refused, as their ReportApp is;
        the seat user's is taken (the daemon says so)."""
        daemon = self.daemon()
        layout = '{"screen": [0, 0, 100, 100], "windows": [[0, 0, 50, 100, "firefox", "", ""]]}'
        stranger = subprocess.Popen(["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", compile_peer(self, "app_reporter")],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=self.env)
        self.addCleanup(stranger.kill)
        self.assertEqual(stranger.stdout.readline().strip(), "ready")
        stranger.stdin.write(f"windows agent {layout}\n")
        stranger.stdin.flush()
        self.assertEqual(stranger.stdout.readline().strip(), "error org.gestured.Gestured1.Error.AccessDenied")
        self.assertEqual(Reporter(self).tell(f"windows agent {layout}"), "done")
        log = self.stopped(daemon)
        self.assertEqual(log.count("windows: 1 window on 100×100"), 1, log[-3000:])

    def test_the_session_agent_passes_on_where_a_desktop_says_the_windows_are(self):
        """What the KWin script and the GNOME Shell extension say to the session agent
        (org.gestured.Agent1's ReportWindows, as they call it beside the system service's
        name) reaches the daemon on the system bus."""
        daemon = self.daemon()
        agent = subprocess.Popen([test_daemon.GESTURED, "agent", "--bus", "system", "--verbose"], env=self.env,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.addCleanup(agent.kill)
        waited("the agent on the session bus", lambda: "org.gestured.Agent1" in subprocess.run(
            ["busctl", "--user", "list", "--acquired"], env=self.env, capture_output=True, text=True).stdout)
        layout = json.dumps({"screen": [0, 0, 2000, 1000], "windows": [[0, 0, 1000, 1000, "firefox", "", ""],
                                                                       [1000, 0, 1000, 1000, "kitty", "", ""]]})
        subprocess.run(["busctl", "--user", "call", "org.gestured.Agent1", "/org/gestured/Agent1", "org.gestured.Agent1",
                        "ReportWindows", "ss", "kwin", layout], env=self.env, check=True, capture_output=True)
        time.sleep(1)
        agent.send_signal(signal.SIGTERM)
        agent_log = agent.communicate(timeout=10)[1]
        log = self.stopped(daemon)
        self.assertIn("windows: 2 windows on 2000×1000 from the next touch sequence (kwin", log, log[-2000:] + agent_log[-2000:])

    def test_a_bus_that_stops_answering_who_calls_does_not_hold_the_loop(self):
        """The daemon's own connection goes through a proxy that, once the daemon asks who
        a caller is, passes nothing back for 4 s: a bus that stopped answering. Asked
        without waiting, the question holds nothing: SIGTERM ends the daemon at once
        (before, the synchronous question held the loop until the bus answered)."""
        bus_path = re.search(r"unix:path=([^,]+)", self.env["DBUS_SYSTEM_BUS_ADDRESS"]).group(1)
        proxy_path = self.path("proxy.sock")
        stalled = []
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(proxy_path)
        listener.listen(8)

        def pump(source, sink, stall):
            try:
                while data := source.recv(65536):
                    if stall is None and (b"GetConnectionCredentials" in data or b"GetConnectionUnixUser" in data):
                        stalled.append(time.monotonic() + 4)
                    while stall is not None and stalled and time.monotonic() < stalled[0]:
                        time.sleep(0.01)
                    sink.sendall(data)
            except OSError:
                pass

        def serve(client):
            server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            server.connect(bus_path)
            self.addCleanup(server.close)
            self.addCleanup(client.close)
            threading.Thread(target=pump, args=(client, server, None), daemon=True).start()
            threading.Thread(target=pump, args=(server, client, True), daemon=True).start()
        accepting(self, listener, serve)
        daemon = self.daemon(system_bus=f"unix:path={proxy_path}", probe=False)
        reporter = Reporter(self)
        reporter.process.stdin.write("report agent firefox - -\n")
        reporter.process.stdin.flush()
        self.assertTrue(waited("the question", lambda: stalled, seconds=5))
        daemon.terminate()
        start = time.monotonic()
        log = daemon.communicate(timeout=30)[1]
        self.assertLess(time.monotonic() - start, 1.0, log[-2000:])

    def test_a_session_back_in_front_says_its_application_again(self):
        """The session agent (following a stand-in Hyprland) says firefox; another
        session comes in front (no application known), then this one again: within a
        second firefox is known again, without a change of focus (before, it stayed
        unknown until the next one)."""
        os.makedirs(self.path("hypr/test"))
        hyprland = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        hyprland.bind(self.path("hypr/test/.socket2.sock"))
        hyprland.listen(1)
        self.addCleanup(hyprland.close)
        daemon = self.daemon()
        agent = subprocess.Popen([test_daemon.GESTURED, "agent", "--bus", "system", "--verbose"],
                                 env=dict(self.env, XDG_RUNTIME_DIR=self.dir, HYPRLAND_INSTANCE_SIGNATURE="test"),
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.addCleanup(agent.kill)
        hyprland.settimeout(15)
        desktop = hyprland.accept()[0]
        self.addCleanup(desktop.close)
        desktop.sendall(b"activewindow>>firefox,a page\n")
        self.assertTrue(waited("firefox", lambda: '"firefox"' in self.app(), seconds=5))
        self.logind.tell("switch")
        none = '(ssss) "" "" "" ""'
        self.assertTrue(waited("none in front", lambda: self.app() == none, seconds=5))
        time.sleep(0.5)
        self.assertEqual(self.app(), none, "user 0's agent is refused while c2 is in front")
        self.logind.tell("switch")
        back = time.monotonic()
        self.assertTrue(waited("firefox again", lambda: '"firefox"' in self.app(), seconds=5))
        self.assertLess(time.monotonic() - back, 1.0)
        self.stopped(daemon)


class Desktop(Harness):
    """The user service in a desktop's session: it asks the desktop itself."""
    def setUp(self):
        super().setUp()
        for name in DESKTOP_VARIABLES:
            self.env.pop(name, None)
        self.env["XDG_RUNTIME_DIR"] = self.dir

    def fired(self, out):
        if not os.path.exists(out):
            return []
        with open(out) as f:
            return f.read().split()

    def swipes_with(self, out, changes, envs=None, starts_mm=None, apps_window="focused", lead_ms=0, tail_ms=0, speed=1.0):
        """Swipes at 0, 2, 4, 6 and 8 s from the daemon's start (from where `starts_mm`
        says; each `lead_ms` later), the recording going on `tail_ms` after them;
        `changes[i]()` runs at 1 + 2i s. All of it `speed` times faster (the replay's
        --speed): at 0.5, a change through a real compositor, which a loaded machine
        slows, has 2 s to reach the daemon before the next swipe. Returns which binding
        each swipe fired, and the log. With `envs`, a daemon in each environment at once
        (each its own file): a list of both."""
        rec = swipes(5, 2000, starts_mm=starts_mm, lead_ms=lead_ms, tail_ms=tail_ms).save(self.path("rec.evemu"))
        runs = []
        start = time.monotonic()
        for i, env in enumerate(envs or [self.env]):
            fired = f"{out}.{i}" if envs else out
            config = self.write(f"gestured-{i}.toml", apps_config(fired, bus="none", apps_window=apps_window))
            daemon = subprocess.Popen([test_daemon.GESTURED, "run", "--config", config, "--replay", rec, "--speed", str(speed), "--verbose"],
                                      env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            self.addCleanup(daemon.kill)
            runs.append((daemon, fired))
        for i, change in enumerate(changes):
            time.sleep(max(0, start + (1 + 2 * i) / speed - time.monotonic()))
            change()
        logs = [daemon.communicate(timeout=60)[1] for daemon, _ in runs]
        results = [(self.fired(fired), log) for (_, fired), log in zip(runs, logs)]
        return results if envs else results[0]

    def test_sway_says_on_its_ipc_socket_and_as_a_wlroots_compositor(self):
        """Real sway, headless, two Wayland clients; focus moved with swaymsg. Two
        daemons in the same run: one asks sway's IPC socket, the other (only
        $WAYLAND_DISPLAY) its foreign-toplevel manager, as for labwc, wayfire or river."""
        sway = Sway(self, ["firefox", "kitty"])
        ipc = dict(self.env, SWAYSOCK=sway.socket)
        wayland = dict(self.env, WAYLAND_DISPLAY="wayland-1", XDG_RUNTIME_DIR=sway.dir)
        sway.msg("[app_id=kitty] focus")
        focus = lambda criteria: lambda: sway.msg(f"{criteria} focus")
        runs = self.swipes_with(self.path("fired.txt"), [
            focus("[app_id=firefox]"), focus("[app_id=kitty]"), focus("[app_id=firefox]"),
            lambda: sway.msg("workspace 2"),  # an empty workspace: no application in front
        ], envs=[ipc, wayland], speed=0.5)
        for (fired, log), source in zip(runs, ["sway", "wlr-foreign-toplevel"]):
            self.assertEqual(fired, ["global", "firefox", "global", "firefox", "global"], source + ": " + log[-3000:])
            self.assertIn(f"{source}: following the application in front", log)

    def test_sway_says_which_window_is_under_the_first_touch(self):
        """apps_window = "touched": firefox on the left half, kitty on the right and
        focused throughout; a swipe answers to the window it starts on, after kitty
        moves left too, and on an empty workspace to none. The first swipe, which may
        come before sway has answered, is on kitty: global either way."""
        sway = Sway(self, ["firefox", "kitty"])
        self.env["SWAYSOCK"] = sway.socket
        sway.msg("[app_id=kitty] focus")
        left, right = 100, 250
        fired, log = self.swipes_with(self.path("fired.txt"), [
            lambda: None, lambda: sway.msg("[app_id=kitty] move left"), lambda: None, lambda: sway.msg("workspace 2"),
        ], starts_mm=[right, left, left, right, right], apps_window="touched", speed=0.5)
        self.assertEqual(fired, ["global", "firefox", "global", "firefox", "global"], log[-3000:])
        self.assertIn("the first touch is on firefox (sway); for it: browser-back", log)

    def follow(self, steps):
        """following.follow on this display, without a bus: each step a change and the
        application (WM_CLASS class) then in front."""
        config = self.write("gestured.toml", apps_config(self.path("fired.txt"), bus="none"))
        recording = swipes(120, 1500).save(self.path("rec.evemu"))
        return following.follow(self, steps, self.env, config, recording, on_the_bus=False)

    def test_x11_says_in_the_roots_active_window(self):
        """Xvfb and two X clients of different WM_CLASS; the active window switched."""
        x = X11(self, [("Navigator", "Firefox"), ("kitty", "kitty")])
        self.env["DISPLAY"] = x.display
        fired, log = self.follow([(None, False, ""), (lambda: x.activate("Navigator"), False, "Firefox"),
                                  (lambda: x.activate("kitty"), False, "kitty"), (lambda: x.activate("Navigator"), False, "Firefox"),
                                  (lambda: x.activate(None), False, "")])
        self.assertEqual(fired, ["global", "firefox", "global", "firefox", "global"], log[-3000:])
        self.assertIn("x11: following the application in front", log)

    def test_x11_says_which_window_is_under_the_first_touch(self):
        """apps_window = "touched" on a display without a window manager: firefox's
        window on the left, kitty's on the right; none active. A swipe answers to the
        window it starts on, the topmost where kitty is moved over firefox, and none on
        the background."""
        x = X11(self, [("Navigator", "Firefox"), ("kitty", "kitty")], places=["100x50+0+0", "100x50+640+0"])
        self.env["DISPLAY"] = x.display
        left, right = 100, 250
        fired, log = self.swipes_with(self.path("fired.txt"), [
            lambda: None, lambda: x.move("kitty", 0, 0), lambda: x.move("kitty", 640, 0), lambda: x.move("Navigator", 2000, 0),
        ], starts_mm=[right, left, left, left, left], apps_window="touched")
        self.assertEqual(fired, ["global", "firefox", "global", "firefox", "global"], log[-3000:])
        self.assertIn("the first touch is on Firefox/Navigator (x11); for it: browser-back", log)

    def test_x11_under_a_reparenting_window_manager_says_the_app_in_front(self):
        """openbox frames each xterm and sets _NET_ACTIVE_WINDOW when asked to activate
        one; the client it names is not what is on screen, the frame is."""
        x = X11(self, [("Navigator", "Firefox"), ("kitty", "kitty")], window_manager="openbox")
        self.env["DISPLAY"] = x.display
        for instance in ("Navigator", "kitty"):
            waited(f"openbox's frame around {instance}", lambda: x.parent(instance) != x.root())
        # Which window openbox puts in front as it maps them is its own affair: kitty is
        # made the one before the daemon starts. An activation it is asked for may come
        # before it manages the window, and be dropped: asked again until it holds.
        def kitty_in_front():
            if x.active() == int(x.windows["kitty"], 16):
                return True
            x.activate("kitty")
            return False
        waited("openbox's kitty in front", kitty_in_front)
        fired, log = self.follow([(None, False, "kitty"), (lambda: x.activate("Navigator"), True, "Firefox"),
                                  (lambda: x.activate("kitty"), True, "kitty"), (lambda: x.activate("Navigator"), True, "Firefox"),
                                  (lambda: [x.close("Navigator"), x.close("kitty")], False, "")])
        self.assertEqual(fired, ["global", "firefox", "global", "firefox", "global"], log[-3000:])

    def test_x11_under_a_reparenting_window_manager_says_which_window_is_under_the_first_touch(self):
        """apps_window = "touched" under openbox: firefox's frame on the left, kitty's on
        the right; kitty moved over firefox and back (asked of openbox), then firefox closed."""
        x = X11(self, [("Navigator", "Firefox"), ("kitty", "kitty")], places=["100x50+0+0", "100x50+640+0"],
                window_manager="openbox")
        self.env["DISPLAY"] = x.display
        waited("openbox's frame around kitty", lambda: x.parent("kitty") != x.root())
        left, right = 100, 250
        fired, log = self.swipes_with(self.path("fired.txt"), [
            lambda: None, lambda: x.move("kitty", 0, 0), lambda: x.move("kitty", 640, 0), lambda: x.close("Navigator"),
        ], starts_mm=[right, left, left, left, left], apps_window="touched", speed=0.5)
        self.assertEqual(fired, ["global", "firefox", "global", "firefox", "global"], log[-3000:])
        self.assertIn("the first touch is on Firefox/Navigator (x11); for it: browser-back", log)

    def hyprland(self, answers=None, stalled_s=0, hang_first=False):
        """A stand-in Hyprland's event socket; returns what sends its lines, and what
        closes it. With `answers` (question → its JSON, read at each question), its
        request socket too, which answers a question per connection and closes; the
        questions asked are appended to `answers["asked"]`. With `stalled_s`, the
        request socket accepts nothing for that long, its backlog full (the test's own
        connections fill it); with `hang_first`, the first question is read and never
        answered, its connection left open."""
        os.makedirs(self.path("hypr/test"), exist_ok=True)
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(self.path("hypr/test/.socket2.sock"))
        server.listen(1)
        accepted = []
        accepting(self, server, accepted.append)
        self.addCleanup(lambda: [connection.close() for connection in accepted])
        if answers is not None:
            requests = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            requests.bind(self.path("hypr/test/.socket.sock"))
            requests.listen(0 if stalled_s else 4)
            fillers = []
            while stalled_s:  # until the kernel says the backlog is full
                filler = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                filler.setblocking(False)
                try:
                    filler.connect(self.path("hypr/test/.socket.sock"))
                except BlockingIOError:
                    filler.close()
                    break
                fillers.append(filler)
            self.addCleanup(lambda: [filler.close() for filler in fillers])
            hung = []
            self.addCleanup(lambda: [connection.close() for connection in hung])

            def answer(connection):
                question = connection.recv(8192).decode()
                if not question:  # one of the fillers
                    return connection.close()
                answers.setdefault("asked", []).append(question)
                if hang_first and len(answers["asked"]) == 1:
                    return hung.append(connection)
                with connection:
                    connection.sendall(json.dumps(answers.get(question, "unknown request")).encode())
            # Once the stall ends the fillers go: accepted, they read as closed.
            accepting(self, requests, answer, after_s=stalled_s, before=lambda: [filler.close() for filler in fillers])

        def say(text):
            def send():
                # The daemon's event connection: a loaded machine may start it late.
                waited("the daemon's event connection", lambda: accepted)[0].sendall(text.encode())
            return send

        def leave():
            accepted[0].close()
        return say, leave

    def test_hyprland_says_which_window_is_under_the_first_touch(self):
        """apps_window = "touched" with a stand-in Hyprland's request socket: firefox on
        the focused monitor's left half, kitty on its right and focused throughout. A
        swipe answers to the window it starts on, after the two swap too (a
        `movewindow` event, then the questions again), and on an empty workspace to
        none. Windows of another monitor, which touches do not reach, are left out."""
        def clients(firefox_x, kitty_x):
            return [{"mapped": True, "hidden": False, "at": [x, 0], "size": [1000, 1000], "workspace": {"id": workspace, "name": "w"},
                     "floating": False, "pinned": False, "fullscreen": 0, "class": app, "title": app}
                    for app, x, workspace in [("firefox", firefox_x, 1), ("kitty", kitty_x, 1), ("elsewhere", -2000, 3)]]

        def monitors(workspace):
            return [{"id": 0, "name": "eDP-1", "x": 0, "y": 0, "width": 2000, "height": 1000, "scale": 1.0, "transform": 0,
                     "focused": True, "activeWorkspace": {"id": workspace, "name": str(workspace)}, "specialWorkspace": {"id": 0, "name": ""}},
                    {"id": 1, "name": "HDMI-A-1", "x": -2000, "y": 0, "width": 2000, "height": 1000, "scale": 1.0, "transform": 0,
                     "focused": False, "activeWorkspace": {"id": 3, "name": "3"}, "specialWorkspace": {"id": 0, "name": ""}}]
        answers = {"j/monitors": monitors(1), "j/clients": clients(0, 1000)}
        say, leave = self.hyprland(answers)
        self.env["HYPRLAND_INSTANCE_SIGNATURE"] = "test"

        def swap():
            answers["j/clients"] = clients(1000, 0)
            say("movewindow>>55d1,1\n")()

        def empty_workspace():
            answers["j/monitors"] = monitors(2)
            say("workspace>>2\nactivewindow>>,\n")()
        left, right = 100, 250
        fired, log = self.swipes_with(self.path("fired.txt"), [say("activewindow>>kitty,~\n"), swap, lambda: None, empty_workspace],
                                      starts_mm=[right, left, left, right, right], apps_window="touched")
        self.assertEqual(fired, ["global", "firefox", "global", "firefox", "global"], log[-3000:])
        self.assertIn("the first touch is on firefox (hyprland); for it: browser-back", log)
        self.assertEqual(answers["asked"][:3], ["j/activewindow", "j/monitors", "j/clients"])

    def test_hyprland_says_which_window_was_in_front_before_the_daemon(self):
        """Hyprland says `activewindow` only when the focus moves: started under firefox,
        the daemon asks (`j/activewindow`), and its swipes are firefox's from the first
        (half a second after the start) until the focus moves to kitty (at 3 s)."""
        say, leave = self.hyprland({"j/activewindow": {"class": "firefox", "title": "a page", "at": [0, 0], "size": [10, 10]},
                                    "j/monitors": [], "j/clients": []})
        self.env["HYPRLAND_INSTANCE_SIGNATURE"] = "test"
        fired, log = self.swipes_with(self.path("fired.txt"), [lambda: None, say("activewindow>>kitty,~\n")], lead_ms=500)
        self.assertEqual(fired, ["firefox", "firefox", "global", "global", "global"], log[-3000:])

    def test_a_hyprland_answer_that_does_not_end_is_given_up_and_asked_again(self):
        """The first question's connection is left open, unanswered: after 2 s it is
        given up and the questions are put again a second later, so that where the
        windows are is known (before, it stayed unknown until the next event)."""
        answers = {"j/monitors": [{"x": 0, "y": 0, "width": 2000, "height": 1000, "focused": True, "activeWorkspace": {"id": 1}}],
                   "j/clients": [{"at": [x, 0], "size": [1000, 1000], "workspace": {"id": 1}, "class": app}
                                 for app, x in [("firefox", 0), ("kitty", 1000)]]}
        say, leave = self.hyprland(answers, hang_first=True)
        self.env["HYPRLAND_INSTANCE_SIGNATURE"] = "test"
        left = 100
        fired, log = self.swipes_with(self.path("fired.txt"), [], starts_mm=[left] * 5, apps_window="touched")
        self.assertEqual(fired[0], "global", log[-3000:])
        self.assertEqual(fired[2:], ["firefox"] * 3, log[-3000:])
        self.assertEqual(answers["asked"][:2], ["j/activewindow", "j/activewindow"])

    def test_a_hyprland_that_does_not_accept_never_holds_the_loop(self):
        """The request socket's backlog full for its first 6 s, while Hyprland's events
        keep asking: a connect that waited (as before) held the loop until it accepted.
        Swipes every 2 s fire 2 s apart."""
        answers = {"j/monitors": [], "j/clients": []}
        say, leave = self.hyprland(answers, stalled_s=6)
        self.env["HYPRLAND_INSTANCE_SIGNATURE"] = "test"
        out = self.path("stamps.txt")
        config = self.write("gestured.toml", f"""[daemon]\nbus = "none"\n[[gesture]]\nname = "switch-desktop"\ntype = "swipe"
fingers = 3\ndirection = "left"\ncommand = "sh -c 'date +%s.%N >> {out}'"\n""")
        daemon = subprocess.Popen([test_daemon.GESTURED, "run", "--config", config, "--replay", swipes(5, 2000).save(self.path("rec.evemu")),
                                   "--verbose"], env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.addCleanup(daemon.kill)
        for _ in range(16):
            time.sleep(0.5)
            say("movewindow>>55d1,1\n")()
        log = daemon.communicate(timeout=60)[1]
        with open(out) as f:
            stamps = [float(line) for line in f]
        self.assertEqual(len(stamps), 5, log[-3000:])
        gaps = [later - earlier for earlier, later in zip(stamps, stamps[1:])]
        self.assertTrue(all(1.7 < gap < 2.3 for gap in gaps), f"{gaps}\n{log[-3000:]}")
        self.assertIn("j/monitors", answers.get("asked", []), "asked once it accepts")

    def sway_stand_in(self, trees):
        """A stand-in sway's IPC socket ($SWAYSOCK): each connection is answered with
        `trees(n, asked)`, a function of the connection's number and how many trees it
        was asked for, giving the bytes to send for a GET_TREE (a whole message). Returns
        the socket's path and what counts the GET_TREEs asked."""
        path = self.path("sway-ipc.sock")
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(path)
        server.listen(4)
        # The test's events go out on the connections in "events", between answers, never inside one.
        asked = {"trees": 0, "connections": 0, "events": [], "sending": threading.Lock()}

        def serve(connection, n):
            with connection:
                trees_asked = 0
                while True:
                    header = b""
                    while len(header) < 14:
                        more = connection.recv(14 - len(header))
                        if not more:
                            return
                        header += more
                    length, kind = struct.unpack("=II", header[6:14])
                    while length:
                        length -= len(connection.recv(length))
                    try:
                        with asked["sending"]:
                            if kind == 2:
                                connection.sendall(sway_message(2, b'{"success": true}'))
                                asked["events"].append(connection)
                            elif kind == 4:
                                asked["trees"] += 1
                                trees_asked += 1
                                connection.sendall(trees(n, trees_asked))
                    except OSError:
                        return

        def accepted(connection):
            asked["connections"] += 1
            threading.Thread(target=serve, args=(connection, asked["connections"]), daemon=True).start()
        accepting(self, server, accepted)
        return path, asked

    def test_a_bogus_sway_header_is_given_up_and_sway_connected_again(self):
        """A header announcing some 4 GB: before, everything after it was thrown away
        and nothing known again; now the connection is given up and made again (5 s
        later), and the tree it then answers counts."""
        def trees(n, _):
            if n == 1:
                return b"i3-ipc" + struct.pack("=II", 0xFFFF_FF00, 4) + b"{" * 1000
            return sway_message(4, json.dumps(sway_tree("firefox")).encode())
        path, asked = self.sway_stand_in(trees)
        self.env["SWAYSOCK"] = path
        fired, log = self.swipes_with(self.path("fired.txt"), [])
        self.assertEqual(fired[0], "global", log[-3000:])
        self.assertEqual(fired[3:], ["firefox", "firefox"], log[-3000:])
        self.assertIn("sway: it announced a message of 4294967040 bytes", log)
        self.assertEqual(asked["connections"], 2)

    def test_huge_sway_trees_take_a_bounded_share_of_the_loop(self):
        """Window events 20 times a second, each answered with a tree of 0.9 MB (under
        the 1 MB a message may be) of 9,000 windows: trees are asked at most as often
        as they leave the loop nine tenths of its time, and swipes fire. Before, every
        event's tree was read (a 3 MB tree cost 0.29 s in a release build)."""
        tree = sway_tree("firefox")
        window = {"type": "con", "visible": False, "rect": {"x": 0, "y": 0, "width": 10, "height": 10}, "nodes": []}
        tree["nodes"][0]["nodes"][0]["nodes"] += [window] * 9_000
        payload = json.dumps(tree).encode()
        self.assertLess(len(payload), 1 << 20)
        self.assertGreater(len(payload), 800_000)

        def trees(n, _):
            return sway_message(4, payload)
        path, asked = self.sway_stand_in(trees)
        self.env["SWAYSOCK"] = path
        event = sway_message(0x8000_0003, b'{"change": "move", "container": {"type": "con", "app_id": "kitty"}}')

        running = threading.Event()
        running.set()

        def events():
            while running.is_set():
                time.sleep(0.05)
                with asked["sending"]:
                    for connection in asked["events"]:
                        try:
                            connection.sendall(event)
                        except OSError:
                            pass
        threading.Thread(target=events, daemon=True).start()
        before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.monotonic()
        # Events while the daemon runs, 10 s past the swipes: a tree read slowly (a debug
        # build on a loaded machine) may be asked again only after nine times as long.
        fired, log = self.swipes_with(self.path("fired.txt"), [], tail_ms=10_000)
        running.clear()
        after, elapsed = resource.getrusage(resource.RUSAGE_CHILDREN), time.monotonic() - start
        cpu_share = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / elapsed
        self.assertEqual(fired[1:], ["firefox"] * 4, log[-3000:])  # the first may come before the first tree
        self.assertGreater(asked["trees"], 1, "trees were asked again")
        self.assertLess(cpu_share, 0.4, f"the daemon's CPU over its run ({asked['trees']} trees)")


    def test_the_session_agent_reports_what_the_desktop_says(self):
        """gestured agent follows the desktop (a stand-in Hyprland) and reports to the
        daemon on the bus, which does not follow the desktop itself here."""
        self.start_bus()
        say, leave = self.hyprland()
        agent_env = dict(self.env, HYPRLAND_INSTANCE_SIGNATURE="test")
        agent = subprocess.Popen([test_daemon.GESTURED, "agent", "--bus", "session", "--verbose"], env=agent_env,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.addCleanup(agent.kill)
        out = self.path("fired.txt")
        config = self.write("gestured.toml", apps_config(out))
        start = time.monotonic()
        daemon = self.start_daemon(config, swipes(5, 2000))
        self.addCleanup(daemon.kill)
        for i, change in enumerate([say("activewindow>>firefox,a page\n"), say("activewindow>>kitty,~\n"),
                                    say("activewindow>>org.mozilla.firefox,a page\n"), say("activewindow>>,\n")]):
            time.sleep(max(0, start + 1 + 2 * i - time.monotonic()))
            change()
        log = daemon.communicate(timeout=60)[1]
        agent.send_signal(signal.SIGTERM)
        agent_log = agent.communicate(timeout=10)[1]
        self.assertEqual(self.fired(out), ["global", "firefox", "global", "firefox", "global"], log[-2000:] + agent_log[-2000:])
        self.assertEqual(agent.returncode, 0, agent_log)

    def test_the_session_agent_reports_where_the_windows_are(self):
        """gestured agent follows a stand-in Hyprland's request socket too and says where
        the windows are: firefox on the left half, kitty on the right and focused. The
        daemon, which does not follow the desktop itself here, answers each swipe's
        gestures for the window it starts on (before, the agent kept the layout to itself
        and the focused window decided)."""
        self.start_bus()
        clients = [{"mapped": True, "hidden": False, "at": [x, 0], "size": [1000, 1000], "workspace": {"id": 1, "name": "1"},
                    "floating": False, "pinned": False, "fullscreen": 0, "class": app, "title": app}
                   for app, x in [("firefox", 0), ("kitty", 1000)]]
        monitors = [{"id": 0, "name": "eDP-1", "x": 0, "y": 0, "width": 2000, "height": 1000, "scale": 1.0, "transform": 0,
                     "focused": True, "activeWorkspace": {"id": 1, "name": "1"}, "specialWorkspace": {"id": 0, "name": ""}}]
        answers = {"j/monitors": monitors, "j/clients": clients, "j/activewindow": {"class": "kitty", "title": "~"}}
        say, leave = self.hyprland(answers)
        agent = subprocess.Popen([test_daemon.GESTURED, "agent", "--bus", "session", "--verbose"],
                                 env=dict(self.env, HYPRLAND_INSTANCE_SIGNATURE="test"),
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.addCleanup(agent.kill)
        out = self.path("fired.txt")
        config = self.write("gestured.toml", apps_config(out, apps_window="touched"))
        left, right = 100, 250
        daemon = self.start_daemon(config, swipes(5, 2000, starts_mm=[left, left, right, left, right], lead_ms=1000))
        self.addCleanup(daemon.kill)
        log = daemon.communicate(timeout=60)[1]
        agent.send_signal(signal.SIGTERM)
        agent_log = agent.communicate(timeout=10)[1]
        # The first swipe may come before the agent has said anything.
        self.assertEqual(self.fired(out)[1:], ["firefox", "global", "firefox", "global"], log[-2000:] + agent_log[-2000:])

    def test_hyprland_says_on_its_event_socket(self):
        """A stand-in Hyprland: its socket2 line protocol, with noise Hyprland sends too."""
        say, leave = self.hyprland()
        self.env["HYPRLAND_INSTANCE_SIGNATURE"] = "test"

        fired, log = self.swipes_with(self.path("fired.txt"), [
            say("workspace>>2\nactivewindow>>firefox,Mozilla Firefox — a page, with commas\nactivewindowv2>>55d1\n"),
            say("activewindow>>kitty,~\n"),
            say("x" * 10_000 + "\nactivewindow>>org.mozilla.firefox,a page\n"),
            leave,
        ])
        self.assertEqual(fired, ["global", "firefox", "global", "firefox", "global"], log[-3000:])
        self.assertIn("hyprland: following the application in front", log)
        self.assertIn("hyprland: it closed its socket", log)


def accepting(harness, server, each, after_s=0, before=lambda: None):
    """Hands each connection `server` accepts to `each`, on a thread of its own, from
    `after_s` on (`before` runs then) until the test ends, when the thread stops before
    the socket is closed: a socket closed under a thread blocked in its accept does not
    wake it, and the next test's socket, given the same number, would be accepted there."""
    stop = threading.Event()
    server.settimeout(0.1)

    def loop():
        if stop.wait(after_s):
            return
        before()
        while not stop.is_set():
            try:
                connection = server.accept()[0]
            except socket.timeout:
                continue
            except OSError:
                return
            connection.settimeout(None)
            each(connection)
    thread = threading.Thread(target=loop, daemon=True)
    thread.start()

    def end():
        stop.set()
        thread.join()
        server.close()
    harness.addCleanup(end)


def sway_message(kind, payload):
    """An i3-ipc message: the magic, the payload's length and the type, then the payload."""
    return b"i3-ipc" + struct.pack("=II", len(payload), kind) + payload


def sway_tree(focused):
    """A tree whose one window, focused, is `focused`'s (no `visible`: as i3's)."""
    window = {"type": "con", "focused": True, "app_id": focused, "nodes": []}
    return {"type": "root", "nodes": [{"type": "output", "nodes": [{"type": "workspace", "nodes": [window]}]}]}


def waited(what, found, seconds=20):
    """What `found` returns once it is something, within `seconds`; else the test fails."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = found()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"{what} did not start")


class X11:
    """Xvfb (1280×800) with an xterm for each (instance, class) at the place given, and
    what a window manager does (Xvfb has none): _NET_ACTIVE_WINDOW set on the root, a
    window moved and raised (tests/x11_window.c). With `window_manager` (openbox), a real
    one that reparents each xterm into its frame, and is asked to do those instead."""
    def __init__(self, harness, classes, places=None, window_manager=None):
        # Xvfb picks a free display and writes its number (a fixed one may be taken, or locked by a
        # stale file). -noreset: by default the server resets when its last client leaves, and an
        # xterm connecting just as xprop's probe leaves is refused and exits.
        read_end, write_end = os.pipe()
        self.server = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-noreset", "-nolisten", "tcp", "-screen", "0", "1280x800x24"],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, pass_fds=[write_end])
        os.close(write_end)
        harness.addCleanup(self.stop)
        with os.fdopen(read_end) as numbers:
            self.display = ":" + numbers.readline().strip()
        self.env = dict(os.environ, DISPLAY=self.display)
        for name in ["WAYLAND_DISPLAY", "SWAYSOCK", "I3SOCK", "HYPRLAND_INSTANCE_SIGNATURE"]:
            self.env.pop(name, None)
        waited("Xvfb", lambda: subprocess.run(["xprop", "-root"], env=self.env, capture_output=True).returncode == 0)
        self.manager = None
        if window_manager:
            self.manager = subprocess.Popen([window_manager, "--sm-disable"], env=self.env,
                                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            # A window manager says it runs with _NET_SUPPORTING_WM_CHECK on the root.
            waited(window_manager, lambda: "_NET_SUPPORTING_WM_CHECK(WINDOW)" in subprocess.run(
                ["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"], env=self.env, capture_output=True, text=True).stdout)
        self.clients, self.windows = [], {}
        for i, (instance, window_class) in enumerate(classes):
            place = ["-geometry", places[i]] if places else []
            client = subprocess.Popen(["xterm", "-name", instance, "-class", window_class, "-title", instance, *place, "-e", "sleep", "600"],
                                      env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            self.clients.append(client)
            self.windows[instance] = waited(f"xterm {instance}", lambda: self.window(instance) or self.exited(client), seconds=60)
        self.mover = None
        if places or window_manager:
            self.mover = harness.path("x11_window")
            subprocess.run(["gcc", "-O2", "-o", self.mover, os.path.join(os.path.dirname(os.path.abspath(__file__)), "x11_window.c"), "-lxcb"], check=True)

    @staticmethod
    def exited(client):
        """Fails the test with what an xterm said if it ended before showing its window."""
        if client.poll() is not None:
            raise AssertionError(f"xterm exited with {client.returncode}: {client.stderr.read()[-2000:]}")
        return None

    def window(self, title):
        out = subprocess.run(["xwininfo", "-name", title], env=self.env, capture_output=True, text=True).stdout
        match = re.search(r"Window id: (0x[0-9a-f]+)", out)
        return match.group(1) if match else None

    def activate(self, instance):
        """What a window manager does: the root's _NET_ACTIVE_WINDOW (0: none); with one,
        it is asked to, as a pager asks."""
        if self.manager:
            return subprocess.run([self.mover, self.windows[instance], "activate"], env=self.env, check=True)
        window = self.windows[instance] if instance else "0"
        subprocess.run(["xprop", "-root", "-f", "_NET_ACTIVE_WINDOW", "32x", "-set", "_NET_ACTIVE_WINDOW", window],
                       env=self.env, check=True)

    def active(self):
        """The root's _NET_ACTIVE_WINDOW, a window id; None if unset."""
        out = subprocess.run(["xprop", "-root", "_NET_ACTIVE_WINDOW"], env=self.env, capture_output=True, text=True).stdout
        match = re.search(r"window id # (0x[0-9a-f]+)", out)
        return int(match.group(1), 16) if match else None

    def parent(self, instance):
        """The window its xterm is a child of: the root, or a window manager's frame."""
        out = subprocess.run(["xwininfo", "-tree", "-id", self.windows[instance]], env=self.env, capture_output=True, text=True).stdout
        return re.search(r"Parent window id: (0x[0-9a-f]+)", out).group(1)

    def root(self):
        out = subprocess.run(["xwininfo", "-root"], env=self.env, capture_output=True, text=True).stdout
        return re.search(r"Window id: (0x[0-9a-f]+)", out).group(1)

    def close(self, instance):
        """Ends the xterm: its window goes."""
        client = self.clients[list(self.windows).index(instance)]
        client.kill()
        client.wait(timeout=10)

    def move(self, instance, x, y):
        """Moves the window and raises it, as a window manager would."""
        subprocess.run([self.mover, self.windows[instance], "move", str(x), str(y)], env=self.env, check=True)

    def stop(self):
        for client in self.clients:
            client.kill()
            client.wait(timeout=10)
            client.stderr.close()
        if self.manager:
            self.manager.kill()
            self.manager.wait(timeout=10)
        self.server.terminate()
        self.server.wait(timeout=10)


class Sway:
    """sway, headless, with foot terminals of the given app ids, tiled left to right in
    that order, as a user (sway refuses to run as root: as root, the test runs it as
    nobody)."""
    def __init__(self, harness, app_ids):
        self.dir = tempfile.mkdtemp(prefix="gestured-sway-")
        harness.addCleanup(shutil.rmtree, self.dir, True)
        os.chmod(self.dir, 0o700)
        self.user = []
        if os.geteuid() == 0:
            os.chown(self.dir, 65534, 65534)
            self.user = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        with open(os.path.join(self.dir, "config"), "w") as f:
            f.write("output HEADLESS-1 resolution 1280x800\n")
        self.env = dict(os.environ, HOME=self.dir, XDG_RUNTIME_DIR=self.dir, WLR_BACKENDS="headless", WLR_RENDERER="pixman",
                        WLR_LIBINPUT_NO_DEVICES="1")
        for name in DESKTOP_VARIABLES:
            self.env.pop(name, None)
        self.process = subprocess.Popen(self.user + ["sway", "-c", os.path.join(self.dir, "config")], env=self.env,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        harness.addCleanup(self.stop)
        self.socket = waited("sway or foot", lambda: next((os.path.join(self.dir, f) for f in os.listdir(self.dir) if f.startswith("sway-ipc.")), None))
        waited("sway or foot", lambda: os.path.exists(os.path.join(self.dir, "wayland-1")))
        self.clients = []
        for app_id in app_ids:  # one after the other: each new window goes right of the last
            self.clients.append(subprocess.Popen(self.user + ["foot", "--app-id", app_id, "sleep", "600"], env=dict(self.env, WAYLAND_DISPLAY="wayland-1"),
                                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            waited("sway or foot", lambda: f'"app_id": "{app_id}"' in self.msg("-t", "get_tree"))

    def msg(self, *args):
        return subprocess.run(["swaymsg", "-s", self.socket, *args], capture_output=True, text=True, timeout=10).stdout

    def stop(self):
        for client in self.clients:
            client.kill()
        self.process.terminate()
        self.process.wait(timeout=10)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    test_daemon.GESTURED = os.path.abspath(sys.argv.pop(1))
    test_daemon.main()
