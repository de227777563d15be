#!/usr/bin/env python3
"""Modes, pauses, the control interface, rotation and the pen through the daemon's real
loop: `run --replay` beside `replay`, and org.gestured.Gestured1's methods and properties
on a private bus with busctl and dbus-monitor.

    tests/test_control.py GESTURED
"""
import os, re, signal, subprocess, sys, time
import test_daemon
from fixtures import Recording, pen_checkmark, suite_config
from test_daemon import Harness, wait_on_the_bus

MODES = suite_config("modes")

OBJECT = ["org.gestured.Gestured1", "/org/gestured/Gestured1", "org.gestured.Gestured1"]
DEVICE = "org.gestured.Gestured1.Device"
# For a daemon that reads live touchscreens in a test: none of the machine's own.
IGNORE_PANELS = '[[device]]\nname = "*"\nignore = true\n'

def device_objects(busctl):
    """The touchscreens' objects, as `busctl tree` lists them."""
    for _ in range(50):
        listed = busctl("--list", "tree", "org.gestured.Gestured1", check=False).stdout.split()
        objects = [path for path in listed if path.startswith("/org/gestured/Gestured1/devices/")]
        if objects:
            return objects
        time.sleep(0.1)
    raise AssertionError("no device object under /org/gestured/Gestured1/devices")

def beside_a_stand_in_logind(harness, bus):
    """A private bus, taken for the system bus too, with tests/fake_logind.c on it, and
    `gestured run` on `bus` reading no panel: (logind, the daemon, its log)."""
    harness.start_bus()
    harness.env["DBUS_SYSTEM_BUS_ADDRESS"] = harness.env["DBUS_SESSION_BUS_ADDRESS"]
    logind = Peer(harness, "fake_logind")
    config = f'[daemon]\nbus = "{bus}"\n' + IGNORE_PANELS
    daemon, log = started(harness, ["run", "--config", harness.write("gestured.toml", config)], "log")
    return logind, daemon, log

def until(test, seconds=5):
    """Whether `test()` comes true within `seconds`, asked every 50 ms."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if test():
            return True
        time.sleep(0.05)
    return False

def compile_peer(harness, name):
    """A test peer in C (tests/NAME.c, with sd-bus), built into the test's directory."""
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libsystemd"], capture_output=True, text=True,
                           check=True).stdout.split()
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), name + ".c")
    subprocess.run(["gcc", "-O2", "-o", harness.path(name), source, *flags], check=True)
    return harness.path(name)

class Peer:
    """A stand-in peer (tests/fake_logind.c, tests/hostile_peers.c) told what to do a
    line at a time on its standard input: "ready" once on the bus, "done" after each."""
    def __init__(self, harness, name, *args):
        self.process = subprocess.Popen([compile_peer(harness, name), *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, env=harness.env)
        harness.addCleanup(self.stop)
        assert self.process.stdout.readline().strip() == "ready", f"{name} is not on the bus"

    def tell(self, command):
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        assert self.process.stdout.readline().strip() == "done", command

    def stop(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.process.stdin.close()
        self.process.stdout.close()

def started(harness, argv, name):
    """`gestured ARGV` in the background, its log in the test's directory: (process, log)."""
    log = open(harness.path(name), "w+")
    harness.addCleanup(log.close)
    process = subprocess.Popen([test_daemon.GESTURED, *argv], env=harness.env, stdout=log, stderr=subprocess.STDOUT)
    harness.addCleanup(process.kill)
    return process, log

def stopped(process, log):
    """SIGTERM, then all it logged."""
    process.terminate()
    process.wait(timeout=10)
    log.seek(0)
    return log.read()

def two_finger_tap(rec):
    rec.frame({0: (100, 100), 1: (130, 100)}, advance_ms=50)
    rec.frame({0: None, 1: None})

def three_finger_hold(rec, ms=800):
    for _ in range(ms // 10):
        rec.frame({s: (80 + 30 * s, 100) for s in range(3)})
    rec.frame({s: None for s in range(3)})

class Modes(Harness):
    def fired(self, config, rec, speed=1):
        """`run --replay --print` and `replay`: the gesture and mode lines of each."""
        cfg = self.write("modes.toml", config.replace('bus = "session"', 'bus = "none"'))
        path = rec.save(self.path("rec.evemu"))
        looped = subprocess.run([test_daemon.GESTURED, "run", "--config", cfg, "--replay", path, "--speed", str(speed), "--print"],
                                capture_output=True, text=True, timeout=120)
        self.assertEqual(looped.returncode, 0, looped.stderr)
        replayed = subprocess.run([test_daemon.GESTURED, "replay", "--config", cfg, path], capture_output=True, text=True, timeout=60)
        self.assertEqual(replayed.returncode, 0, replayed.stderr)
        keep = lambda out: [line.split("  ", 1)[1] for line in out.splitlines() if " gesture " in line or "  mode:" in line
                            or "  paused" in line or "  resumed" in line]
        return keep(looped.stdout), keep(replayed.stdout), looped.stderr

    @staticmethod
    def names(lines):
        """A gesture line's name, or a control line up to its reason."""
        return [m.group(1) if (m := re.match(r"\S+\s+gesture (\S+)", line)) else line.split(" (")[0] for line in lines]

    def test_the_entering_gesture_switches_other_modes_stay_quiet_and_the_timeout_returns(self):
        rec = Recording()
        rec.tap()
        rec.wait(500)
        two_finger_tap(rec)
        rec.wait(500)
        rec.tap()
        rec.wait(6000)  # past the 5 s timeout
        rec.tap()
        looped, replayed, log = self.fired(MODES, rec, speed=2)
        self.assertEqual(self.names(looped), ["ordinary", "enter", "mode: default → maintenance", "fix",
                                 "mode: maintenance → default", "ordinary"], looped)
        self.assertEqual([l for l in looped if "gesture" in l], [l for l in replayed if "gesture" in l])
        self.assertIn("mode: maintenance → default (5.000 s without a gesture)", log)

    def test_a_switch_mid_gesture_cancels_what_it_excludes(self):
        """A held finger enters maintenance at 500 ms while it drags a pan of the default
        mode: the pan is cancelled then, and changes no more; the next drag is maintenance's."""
        config = suite_config("mode-switch-mid-gesture")
        rec = Recording()
        for i in range(120):  # still for 800 ms, then 40 mm right
            rec.frame({0: (100 + max(0, i - 80), 100)})
        rec.frame({0: None})
        rec.wait(300)
        for i in range(40):
            rec.frame({0: (100 + i, 60)})
        rec.frame({0: None})
        looped, replayed, _ = self.fired(config, rec)
        self.assertEqual(looped, replayed)
        phases = [" ".join(line.split()[2:5:2]) if " gesture " in line else line.split(" (")[0] for line in looped]
        ends = [p for p in phases if p != "drag changed" and p != "fix changed"]
        self.assertEqual(ends, ["drag began", "enter recognized", "mode: default → maintenance", "drag cancelled",
                                "fix began", "fix ended"], ends)
        self.assertEqual(phases[phases.index("mode: default → maintenance"):].count("drag changed"), 0, phases)

    def test_check_refuses_a_mode_nothing_enters(self):
        cfg = self.write("bad.toml", '[[gesture]]\nname = "fix"\ntype = "tap"\nmodes = ["maintenance"]\n')
        r = subprocess.run([test_daemon.GESTURED, "check", cfg], capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn(f'{cfg}:4: error: gesture[1].modes: no gesture enters mode "maintenance"', r.stderr + r.stdout)

class ControlInterface(Harness):
    def busctl(self, *args, check=True):
        r = subprocess.run(["busctl", "--user", *args], capture_output=True, text=True, env=self.env, timeout=10)
        if check:
            self.assertEqual(r.returncode, 0, r.stderr)
        return r

    def call(self, method, *args, check=True):
        return self.busctl("call", *OBJECT, method, *args, check=check)

    def get(self, prop):
        return self.busctl("get-property", *OBJECT, prop).stdout.strip()

    def test_methods_properties_and_their_changes(self):
        self.start_bus()
        changes = subprocess.Popen(["dbus-monitor", "--session", "type='signal',interface='org.freedesktop.DBus.Properties',"
                                    "path='/org/gestured/Gestured1'"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                   text=True, env=self.env)
        rec = Recording()
        rec.tap()
        rec.wait(30_000)
        rec.tap()
        cfg = self.write("gestured.toml", MODES)
        daemon = self.start_daemon(cfg, rec)
        self.addCleanup(daemon.kill)
        wait_on_the_bus(self.env)
        self.assertEqual(self.get("Mode"), 's "default"')
        self.assertEqual(self.get("Modes"), 'as 2 "default" "maintenance"')
        self.assertEqual(self.get("Paused"), "b false")
        self.assertEqual(self.get("Locked"), "b false")  # a replay follows no lock
        self.assertEqual(self.get("Gestures"), 'a(ssas) 4 "enter" "tap" 1 "default" "ordinary" "tap" 1 "default" '
                                               '"fix" "tap" 1 "maintenance" "hold" "long-press" 1 "*"')
        self.assertEqual(self.get("Devices"), f'a(ssb) 1 "{self.path("rec.evemu")}" "gestured test panel" false')

        self.call("SetMode", "s", "maintenance")
        self.assertEqual(self.get("Mode"), 's "maintenance"')
        status = subprocess.run([test_daemon.GESTURED, "status"], capture_output=True, text=True, env=self.env, timeout=30)
        self.assertEqual(status.returncode, 0, status.stderr)
        self.assertIn("gestured on the session bus\nmode:     maintenance (modes: default, maintenance)\n", status.stdout)
        self.assertRegex(status.stdout, r"\n  ordinary +tap  modes: default  \(not in this mode\)\n")
        self.assertRegex(status.stdout, r"\n  fix +tap  modes: maintenance\n")
        self.call("Pause", "u", "30")
        self.assertEqual(self.get("Paused"), "b true")
        self.call("Resume")
        self.assertEqual(self.get("Paused"), "b false")
        self.call("Reload")

        # The display's rotation, set as a compositor's hook would.
        self.assertEqual(self.get("Rotation"), "u 0")
        self.busctl("set-property", *OBJECT, "Rotation", "u", "90")
        self.assertEqual(self.get("Rotation"), "u 90")
        bad = self.busctl("set-property", *OBJECT, "Rotation", "u", "45", check=False)
        self.assertNotEqual(bad.returncode, 0)
        self.assertIn("a rotation of 45°", bad.stderr)

        # The panel's own object: its rotation is fixed by the configuration, so not written.
        panel = device_objects(self.busctl)[0]
        self.assertEqual(self.busctl("get-property", "org.gestured.Gestured1", panel, DEVICE, "Rotation").stdout.strip(), "u 0")
        fixed = self.busctl("set-property", "org.gestured.Gestured1", panel, DEVICE, "Rotation", "u", "90", check=False)
        self.assertNotEqual(fixed.returncode, 0)
        self.assertIn('is mounted at 0° by the configuration; give its [[device]] rule rotation = "external"', fixed.stderr)

        # Without a daemon on the bus, status says so.
        gone = subprocess.run([test_daemon.GESTURED, "status", "--bus", "session"], capture_output=True, text=True,
                              env=dict(self.env, DBUS_SESSION_BUS_ADDRESS="unix:path=" + self.path("no-bus")), timeout=30)
        self.assertEqual(gone.returncode, 1)
        self.assertIn("no running gestured answers", gone.stderr)

        # Bad arguments: a D-Bus error each, and the daemon goes on.
        for args, error in [(("SetMode", "s", "nope"), 'no mode "nope"'), (("SetMode", "u", "3"), "expecting 's'"),
                            (("Pause", "u", "0"), "a pause of 0 s"), (("Pause", "u", "4294967295"), "a pause of 4294967295 s"),
                            (("Pause", "s", "ten"), "expecting 'u'"), (("SetMode", "s", ""), 'no mode ""')]:
            r = self.call(*args, check=False)
            self.assertNotEqual(r.returncode, 0, args)
            self.assertIn(error, r.stderr, args)
        r = self.busctl("set-property", *OBJECT, "Mode", "s", "default", check=False)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("not writable", r.stderr)

        # A broken file: Reload answers with its located error, and the configuration stays.
        self.write("gestured.toml", MODES + "[[gesture]]\nname = 3\n")
        r = self.call("Reload", check=False)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn(f"{cfg}:", r.stderr)
        self.assertEqual(self.get("Mode"), 's "maintenance"')
        self.assertIsNone(daemon.poll())

        time.sleep(0.3)
        changes.terminate()
        seen = changes.communicate()[0]
        for prop in ["Mode", "Paused", "Modes", "Gestures", "Rotation"]:
            self.assertIn(f'string "{prop}"', seen, prop)
        self.assertIn('string "maintenance"', seen)

class ReloadOffTheBus(Harness):
    def test_a_reload_that_leaves_the_bus_is_answered_on_it(self):
        """Reload of a file that moves the daemon off the bus: the call is answered (the
        reload applied) before the old connection closes, not left without a reply."""
        self.start_bus()
        rec = Recording()
        rec.tap()
        rec.wait(30_000)
        rec.tap()
        cfg = self.write("gestured.toml", '[daemon]\nbus = "session"\n')
        daemon = self.start_daemon(cfg, rec)
        self.addCleanup(daemon.kill)
        wait_on_the_bus(self.env)
        self.write("gestured.toml", '[daemon]\nbus = "none"\n')
        r = subprocess.run(["busctl", "--user", "--timeout=10", "call", *OBJECT, "Reload"], env=self.env,
                           capture_output=True, text=True, timeout=30)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIsNone(daemon.poll())

class GateAtOnce(Harness):
    """Pause and SetMode on the bus while a finger rests or a double tap waits for its
    second tap: no gesture of the old gate fires afterwards (docs/guide.md: "Modes, pauses and
    the lock"). Without the call, the same recording fires (replay says so)."""
    KIOSK = suite_config("gate-at-once")

    @staticmethod
    def resting():
        """One finger rests 3 s, then four more join it for a second."""
        rec = Recording()
        for _ in range(30):
            rec.frame({0: (100, 100)}, advance_ms=100)
        for _ in range(10):
            rec.frame({s: (100 + 20 * s, 100) for s in range(5)}, advance_ms=100)
        rec.frame({s: None for s in range(5)})
        return rec

    @staticmethod
    def waiting():
        """A tap (the first of a double tap, which may wait ten minutes), then 3 s later a
        three-finger swipe."""
        rec = Recording()
        rec.tap()
        rec.wait(3000)
        for i in range(31):
            rec.frame({s: (120 + 20 * s, 40 + 2 * i) for s in range(3)})
        rec.frame({s: None for s in range(3)})
        return rec

    def test_a_call_holds_from_the_moment_it_is_made(self):
        out = self.path("fired.txt")
        cfg = self.write("gestured.toml", self.KIOSK.format(out=out))
        for name, rec, fires in [("resting", self.resting(), "menu"), ("waiting", self.waiting(), "three")]:
            free = subprocess.run([test_daemon.GESTURED, "replay", "--config", cfg, "--actions", rec.save(self.path(name))],
                                  capture_output=True, text=True, timeout=60)
            self.assertIn(f"run {fires}:", free.stdout, free.stdout + free.stderr)
            for call in [("Pause", "u", "60"), ("SetMode", "s", "maintenance")]:
                with self.subTest(name, call=call[0]):
                    self.env = dict(os.environ)
                    self.start_bus()
                    daemon = self.start_daemon(cfg, rec, name=name)
                    self.addCleanup(daemon.kill)
                    wait_on_the_bus(self.env)
                    called = subprocess.run(["busctl", "--user", "call", *OBJECT, *call], env=self.env,
                                            capture_output=True, text=True, timeout=10)
                    self.assertEqual(called.returncode, 0, called.stderr)
                    log = daemon.communicate(timeout=60)[1]
                    self.assertNotIn("(long-press) recognized", log)
                    self.assertNotIn("(swipe) recognized", log)
                    self.assertFalse(os.path.exists(out), log)
                    # The call came before the touches it holds back (3 s into the recording).
                    self.assertRegex(log, r"paused for 60\.000 s|mode: default → maintenance")

class BusFlood(Harness):
    """Anyone may read the properties (the shipped policy lets everyone): four readers
    with 64 GetAll calls each in flight, against 1,000 gestures, stop neither gestures
    nor SIGTERM, nor another client's read (the bus is handled a budget at a time, reads
    are rationed per caller, the properties built once per change)."""
    def test_readers_flooding_the_properties_stop_neither_gestures_nor_sigterm(self):
        flood = compile_peer(self, "bus_flood")
        self.start_bus()
        out = self.path("fired.txt")
        config = (f'[daemon]\nbus = "session"\nmodes = ["elsewhere"]\n'
                  f'[[gesture]]\nname = "tap"\ntype = "tap"\ncommand = "echo tap >> {out}"\n'
                  + "".join(f'[[gesture]]\nname = "g{i}"\ntype = "tap"\nfingers = 4\nmodes = ["elsewhere"]\n'
                            for i in range(1000)))
        rec = Recording()
        rec.wait(2000)
        for _ in range(3):
            rec.tap()
            rec.wait(1000)
        rec.wait(60_000)
        rec.tap()
        daemon = self.start_daemon(self.write("gestured.toml", config), rec)
        self.addCleanup(daemon.kill)
        wait_on_the_bus(self.env)
        readers = [subprocess.Popen([flood], env=self.env) for _ in range(4)]
        for reader in readers:
            self.addCleanup(reader.kill)
        time.sleep(6)
        with open(out) as f:
            fired = f.read().count("tap")
        self.assertEqual(fired, 3, "the taps at 2, 3 and 4 s")
        self.assertTrue(all(reader.poll() is None for reader in readers), "the readers kept reading")
        # Rationed per caller: another client is answered meanwhile, a flooder's excess dropped.
        read = subprocess.run(["busctl", "--user", "get-property", *OBJECT, "Mode"], capture_output=True, text=True, env=self.env)
        self.assertEqual(read.stdout.strip(), 's "default"', read.stderr)
        daemon.send_signal(signal.SIGTERM)
        start = time.monotonic()
        log = daemon.communicate(timeout=30)[1]
        self.assertLess(time.monotonic() - start, 1.0, log[-2000:])

class LockFailsClosed(Harness):
    """The lock against a stand-in for logind (tests/fake_logind.c) on a private bus the
    daemon takes for the system bus: gone or restarting, logind leaves the session as
    it was last known; a stream of its signals does not put the lock off."""
    def locked(self):
        r = subprocess.run(["busctl", "--user", "get-property", *OBJECT, "Locked"], capture_output=True, text=True, env=self.env)
        return r.stdout.strip()

    def wait_locked(self, value, seconds=5):
        return until(lambda: self.locked() == value, seconds)

    def test_logind_away_keeps_the_lock_and_a_stream_of_its_signals_does_not_put_it_off(self):
        logind, daemon, log = beside_a_stand_in_logind(self, "system")
        self.assertTrue(self.wait_locked("b false"), "the daemon on the bus")
        logind.tell("lock")
        self.assertTrue(self.wait_locked("b true", 2), "locked")

        logind.stop()
        time.sleep(1)
        self.assertEqual(self.locked(), "b true", "logind gone: the lock stays")
        logind = Peer(self, "fake_logind")  # back, and the session unlocked meanwhile
        self.assertTrue(self.wait_locked("b false", 3), "logind back: looked up again")

        logind.tell("stream")
        time.sleep(0.5)
        logind.tell("lock")
        # Taken from the signal itself, once the stream before it is handled (before, each
        # signal cancelled the lookup under way, and the lock never came while it streamed).
        self.assertTrue(self.wait_locked("b true", 5), "locked though logind streams signals")
        logind.tell("still")
        text = stopped(daemon, log)
        self.assertIn("logind says nothing (logind left the system bus): the session stays locked until it answers again", text)

    def test_logind_saying_the_machine_sleeps_and_wakes_reaches_the_seat(self):
        logind, daemon, log = beside_a_stand_in_logind(self, "system")
        self.assertTrue(self.wait_locked("b false"), "the daemon on the bus")
        logind.tell("sleep")
        logind.tell("wake")
        time.sleep(0.5)
        text = stopped(daemon, log)
        self.assertIn("going to sleep (logind: PrepareForSleep): touches under way cancelled, what gestured holds let go", text)
        self.assertIn("awake (logind: PrepareForSleep)", text)

class SessionAway(Harness):
    """A user's own daemon (bus = "session": the user service, or `gestured run` by hand)
    follows its session's Active (tests/fake_logind.c): while another session is in front
    of the seat it reads no touchscreen, and back in front it reads them again. Here no
    panel is read (the systemd VM's test has one): the log says each change."""
    def test_another_session_in_front_and_back(self):
        logind, daemon, log = beside_a_stand_in_logind(self, "session")

        def said(text, count=1):
            def counted():
                log.seek(0)
                return log.read().count(text) >= count
            return until(counted)
        self.assertTrue(said("logind: following the lock of session c1"))
        logind.tell("switch")
        self.assertTrue(said("session away: another session is in front of the seat; no touchscreen is read until this one is again"))
        logind.tell("switch")
        self.assertTrue(said("session in front again: the touchscreens are read"))
        logind.tell("switch")
        self.assertTrue(said("session away:", count=2))
        text = stopped(daemon, log)
        self.assertEqual(text.count("session in front again"), 1, text)

class HostilePeers(Harness):
    """What a peer sends is not trusted (tests/hostile_peers.c): its strings reach a
    terminal or the log as text, a rotation no display has is ignored, and it cannot
    make the log grow without bound."""
    def assertText(self, output):
        self.assertNotIn("\x1b", output)
        self.assertNotIn("\r", output)
        self.assertFalse([line for line in output.splitlines() if line.startswith("info: forged")], output[-2000:])

    def assertAtMostTheChangesAllowed(self, output, marker, since, lines_a_change):
        """Lines of changes (those with MARKER) no more than the daemon's allowance lets
        through from SINCE until now (Daemon.controlLineAllowance: 20 at once, then 2 a
        second), plus one for the rounding; the time is the test's own, so a loaded machine
        that stretches it does not fail a daemon that keeps to its allowance."""
        allowed = 20 + 2 * (time.monotonic() - since) + 1
        changes = [line for line in output.splitlines() if marker in line]
        self.assertLessEqual(len(changes), lines_a_change * allowed, output[-3000:])
        self.assertLess(len(output.splitlines()) - len(changes), 20, output[-3000:])

    def test_status_and_monitor_show_a_hostile_services_strings_as_text(self):
        self.start_bus()
        peer = Peer(self, "hostile_peers", "gestured")
        status = subprocess.run([test_daemon.GESTURED, "status", "--bus", "session"], capture_output=True, text=True,
                                env=self.env, timeout=30)
        self.assertText(status.stdout + status.stderr)
        self.assertIn("\\u{1b}[2J\\u{1b}[31mevil\\u{a}info: forged line\\u{d}", status.stdout)

        config = self.write("m.toml", '[daemon]\nbus = "session"\n' + IGNORE_PANELS)
        monitor, out = started(self, ["monitor", "--config", config], "monitor.txt")
        time.sleep(1)
        flipped_at = time.monotonic()
        peer.tell("flip")
        time.sleep(3)
        peer.tell("still")
        shown = stopped(monitor, out)
        self.assertText(shown)
        self.assertIn("following the service", shown)
        self.assertNotIn("4294967295", shown)
        self.assertAtMostTheChangesAllowed(shown, "mode:", since=flipped_at, lines_a_change=2)

    def test_a_hostile_sensor_proxy_cannot_forge_log_lines_nor_flood_the_log(self):
        self.start_bus()
        self.env["DBUS_SYSTEM_BUS_ADDRESS"] = self.env["DBUS_SESSION_BUS_ADDRESS"]
        peer = Peer(self, "hostile_peers", "sensor")
        config = self.write("gestured.toml", '[daemon]\nbus = "none"\nrotation = "auto"\n' + IGNORE_PANELS)
        daemon, log = started(self, ["run", "--config", config], "log")
        time.sleep(1)
        peer.tell("huge")
        time.sleep(1)
        flipped_at = time.monotonic()
        peer.tell("flip")
        time.sleep(3)
        peer.tell("still")
        time.sleep(0.5)
        text = stopped(daemon, log)
        self.assertText(text)
        self.assertIn("following iio-sensor-proxy's accelerometer", text)
        self.assertIn("reports an orientation it does not define", text)
        self.assertLess(len(text), 20_000, text[-3000:])
        self.assertAtMostTheChangesAllowed(text, "display rotation:", since=flipped_at, lines_a_change=1)

class Pen(Harness):
    def test_a_pen_checkmark_runs_with_the_tool_in_its_environment_and_only_for_pen_or_any(self):
        out = self.path("tool.txt")
        config = ('[daemon]\nbus = "none"\n'
                  f'[[gesture]]\nname = "confirm"\ntype = "checkmark"\ntool = "pen"\ncommand = "echo $GESTURE_TOOL >> {out}"\n'
                  '[[gesture]]\nname = "by-finger"\ntype = "checkmark"\ntool = "finger"\ncommand = "echo finger"\n')
        r = self.run_daemon(config, pen_checkmark())
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("replaying", r.stderr)
        self.assertIn("gestured test pen: confirm (checkmark) recognized", r.stderr)
        self.assertNotIn("by-finger", r.stderr)
        with open(out) as f:
            self.assertEqual(f.read(), "pen\n")

class Rotation(Harness):
    def test_an_external_rotation_turns_the_next_sequence(self):
        """rotation = "external": a swipe toward the panel's left edge is "left"; once the
        bus says the display is turned a quarter clockwise, the same swipe is "up"."""
        self.start_bus()
        rec = Recording()
        def swipe_toward_the_panels_left():
            for i in range(12):
                rec.frame({0: (220 - 12 * i, 80)})
            rec.frame({0: None})
        swipe_toward_the_panels_left()
        rec.wait(4000)
        swipe_toward_the_panels_left()
        cfg = self.write("gestured.toml", '[daemon]\nbus = "session"\nrotation = "external"\n'
                         '[[gesture]]\nname = "up"\ntype = "swipe"\ndirection = "up"\n'
                         '[[gesture]]\nname = "left"\ntype = "swipe"\ndirection = "left"\n')
        daemon = self.start_daemon(cfg, rec)
        self.addCleanup(daemon.kill)
        time.sleep(2)
        r = subprocess.run(["busctl", "--user", "set-property", *OBJECT, "Rotation", "u", "90"], capture_output=True, text=True,
                           env=self.env, timeout=10)
        self.assertEqual(r.returncode, 0, r.stderr)
        log = daemon.communicate(timeout=60)[1]
        fired = re.findall(r"gestured test panel: (\w+) \(swipe\) recognized", log)
        self.assertEqual(fired, ["left", "up"], log)
        self.assertIn("display rotation: 90° clockwise for panels whose rotation is auto or external (the control interface)", log)

    def test_a_panels_own_rotation_turns_that_panel(self):
        """Its object's Rotation, as a compositor's hook for one display writes it: the same
        swipe is "left", then "up"; the display's Rotation stays; the change is announced."""
        self.start_bus()
        rec = Recording()
        for _ in range(2):
            for i in range(12):
                rec.frame({0: (220 - 12 * i, 80)})
            rec.frame({0: None})
            rec.wait(4000)
        cfg = self.write("gestured.toml", '[daemon]\nbus = "session"\n[[device]]\nname = "*"\nrotation = "external"\n'
                         '[[gesture]]\nname = "up"\ntype = "swipe"\ndirection = "up"\n'
                         '[[gesture]]\nname = "left"\ntype = "swipe"\ndirection = "left"\n')
        daemon = self.start_daemon(cfg, rec)
        self.addCleanup(daemon.kill)
        def busctl(*args, check=True):
            r = subprocess.run(["busctl", "--user", *args], capture_output=True, text=True, env=self.env, timeout=10)
            if check:
                self.assertEqual(r.returncode, 0, r.stderr)
            return r
        [panel] = device_objects(busctl)
        changes = subprocess.Popen(["dbus-monitor", "--session", f"type='signal',path='{panel}'"], stdout=subprocess.PIPE,
                                   stderr=subprocess.DEVNULL, text=True, env=self.env)
        self.assertIn(DEVICE, busctl("introspect", "org.gestured.Gestured1", panel).stdout)
        read = lambda prop: busctl("get-property", "org.gestured.Gestured1", panel, DEVICE, prop).stdout.strip()
        self.assertEqual(read("Node"), f's "{self.path("rec.evemu")}"')
        self.assertEqual(read("Name"), 's "gestured test panel"')
        self.assertEqual(read("Isolated"), "b false")
        self.assertEqual(read("Rotation"), "u 0")
        time.sleep(2)
        busctl("set-property", "org.gestured.Gestured1", panel, DEVICE, "Rotation", "u", "90")
        self.assertEqual(read("Rotation"), "u 90")
        self.assertEqual(busctl("get-property", *OBJECT, "Rotation").stdout.strip(), "u 0")
        bad = busctl("set-property", "org.gestured.Gestured1", panel, DEVICE, "Rotation", "u", "4294967295", check=False)
        self.assertNotEqual(bad.returncode, 0)
        self.assertIn("a rotation of 4294967295°", bad.stderr)
        status = subprocess.run([test_daemon.GESTURED, "status"], capture_output=True, text=True, env=self.env, timeout=30)
        self.assertIn(f"  {self.path('rec.evemu')}  gestured test panel  90°\n", status.stdout)
        log = daemon.communicate(timeout=60)[1]
        self.assertEqual(re.findall(r"gestured test panel: (\w+) \(swipe\) recognized", log), ["left", "up"], log)
        self.assertIn("gestured test panel: rotation 90° clockwise from its next touch sequence (the control interface)", log)
        changes.terminate()
        self.assertIn('string "Rotation"', changes.communicate()[0])

if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    test_daemon.GESTURED = os.path.abspath(sys.argv.pop(1))
    test_daemon.main()
