#!/usr/bin/env python3
"""End-to-end tests of `gestured run --replay`: the real loop with real peers (/bin/sh,
a private dbus-daemon, dbus-monitor and busctl).

    tests/test_daemon.py GESTURED
"""
import os, re, shutil, signal, subprocess, sys, tempfile, threading, time, unittest
from fixtures import Recording, checkmark, drag, extreme_pan, three_finger_swipe_down, two_taps

GESTURED = None

CHECKMARK_ONLY = """[[gesture]]
name = "confirm"
type = "checkmark"
command = "true"
"""

def wait_on_the_bus(env, seconds=5):
    """Until gestured owns its name on the session bus `env` names."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if subprocess.run(["busctl", "--user", "status", "org.gestured.Gestured1"], env=env, capture_output=True).returncode == 0:
            return
        time.sleep(0.05)


class ShareLoader(unittest.TestLoader):
    """With TEST_SHARE=I/N in the environment, only the I-th of N shares of the tests
    (1 to N, dealt round in the order unittest finds them, the same in every process):
    tests/run-together runs one file's shares side by side, since its tests spend most of
    their time waiting on real-time replays. Each test is in exactly one share."""
    def __init__(self):
        super().__init__()
        share = os.environ.get("TEST_SHARE", "1/1")
        mine, count = (int(part) for part in share.split("/"))
        if not 1 <= mine <= count:
            sys.exit(f"TEST_SHARE={share}: I/N with I from 1 to N")
        self.mine, self.count, self.dealt = mine - 1, count, 0

    def getTestCaseNames(self, testCaseClass):
        names = []
        for name in super().getTestCaseNames(testCaseClass):
            if self.dealt % self.count == self.mine:
                names.append(name)
            self.dealt += 1
        return names


def main():
    """unittest's main, for this share of the tests (ShareLoader)."""
    unittest.main(verbosity=2, testLoader=ShareLoader())


class Harness(unittest.TestCase):
    def setUp(self):
        # root-owned 0700: a root daemon accepts configurations only from safe places
        self.dir = tempfile.mkdtemp(prefix="gestured-test-")
        self.env = dict(os.environ)

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def path(self, name):
        return os.path.join(self.dir, name)

    def write(self, name, text):
        with open(self.path(name), "w") as f:
            f.write(text)
        return self.path(name)

    def run_daemon(self, config, recording, speed=1, timeout=60, extra=()):
        cfg = self.write("gestured.toml", config)
        rec = recording.save(self.path("rec.evemu"))
        return subprocess.run([GESTURED, "run", "--config", cfg, "--replay", rec, "--speed", str(speed), *extra],
                              capture_output=True, text=True, timeout=timeout, env=self.env)

    def run_checkmark(self, command, **options):
        """`run_daemon` with one binding, a checkmark running COMMAND (written as it stands
        between the quotes of a TOML string), over the checkmark recording."""
        config = f'[daemon]\nbus = "none"\n[[gesture]]\nname = "confirm"\ntype = "checkmark"\ncommand = "{command}"\n'
        return self.run_daemon(config, checkmark(), **options)

    def start_daemon(self, cfg, recording, name="rec.evemu"):
        """`gestured run` in the background on a recording, its log on a pipe."""
        return subprocess.Popen([GESTURED, "run", "--config", cfg, "--replay", recording.save(self.path(name))], env=self.env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    def start_bus(self):
        out = subprocess.run(["dbus-daemon", "--session", "--fork", "--print-address=1", "--print-pid=1"],
                             capture_output=True, text=True, check=True).stdout.split("\n")
        self.env["DBUS_SESSION_BUS_ADDRESS"] = out[0]
        self.addCleanup(os.kill, int(out[1]), signal.SIGTERM)
        self.addCleanup(os.kill, int(out[1]), signal.SIGCONT)  # if a test stopped it
        return int(out[1])

    def monitor(self):
        """dbus-monitor on gestured's signals, once it monitors (it says NameLost when the
        bus has made it a monitor), whatever the machine's load."""
        monitor = subprocess.Popen(["dbus-monitor", "--session", "type='signal',interface='org.gestured.Gestured1'"],
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=self.env)
        self.addCleanup(monitor.kill)
        self.read_until(monitor, "member=NameLost")
        return monitor

    def read_until(self, monitor, text, seconds=20):
        """The monitor's lines up to the first with `text` (killed after `seconds`)."""
        timer = threading.Timer(seconds, monitor.kill)
        timer.start()
        lines = []
        for line in iter(monitor.stdout.readline, ""):
            lines.append(line)
            if text in line:
                break
        timer.cancel()
        self.assertIn(text, "".join(lines[-1:]), f"dbus-monitor did not show {text} within {seconds} s")
        return "".join(lines)

    def signals(self, monitor):
        """The Gesture signals the monitor saw: all of them, since a signal of the test's own
        sent after they were is seen after them."""
        subprocess.run(["dbus-send", "--session", "--type=signal", "/org/gestured/Gestured1", "org.gestured.Gestured1.TestEnd"],
                       env=self.env, check=True)
        text = self.read_until(monitor, "member=TestEnd")
        monitor.terminate()
        monitor.communicate()
        return [block for block in text.split("signal time=")[1:] if "member=Gesture" in block]

class Daemon(Harness):
    def test_the_daemons_loop_prints_exactly_what_replay_prints(self):
        """Timers from a timerfd between frames, or a replay that feeds deadlines only
        when events pass them: the same steps, line for line, on recordings whose
        decisions hinge on a deadline (a double tap's window, a long press, an isolated
        panel's max delay and a lone tap's wait)."""
        fixtures = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Core", "Tests", "Fixtures")
        for name, speed in [("fast-taps-double", 1), ("long-press", 1), ("isolate-max-delay", 1),
                            ("isolate-lone-tap-waits", 1), ("fast-taps-double", 40), ("isolate-max-delay", 40)]:
            with self.subTest(name, speed=speed):
                recording = os.path.join(fixtures, name + ".evemu")
                with open(recording) as f:
                    config = self.write("fixture.toml", "\n".join(
                        line[4:] for line in re.search(r"# @config\n((?:#   .*\n|#\n)*)", f.read()).group(1).splitlines()))
                replayed = subprocess.run([GESTURED, "replay", "--config", config, "--explain", "--actions", "--twin", recording],
                                          capture_output=True, text=True, timeout=60)
                looped = subprocess.run([GESTURED, "run", "--config", config, "--replay", recording, "--speed", str(speed),
                                         "--bus", "none", "--print"], capture_output=True, text=True, timeout=60)
                self.assertEqual(looped.returncode, 0, looped.stderr)
                self.assertGreater(len(replayed.stdout.splitlines()), 2, replayed.stdout + replayed.stderr)
                self.assertEqual(looped.stdout.splitlines(), replayed.stdout.splitlines())

    def test_the_daemons_loop_prints_exactly_what_replay_prints_for_a_whole_seat(self):
        """Core/Tests/SeatFixtures: modes by gesture and by request, a pause and its end, the
        lock and logind silent, another session in front, a pen and a palm, the display's and one panel's rotation, a key
        chord, a double click, a reload, two panels, the application in front, the window under the touch, the screens dark
        and lit, two users' sessions (a switch mid-pan, mid-hold and while a tap waits, a hand-over while a tap waits, a lock,
        refused configurations, a user's touch lock past the lock and the pause), keys and a button held through a
        lock, an unplug, a reload and a stop, the virtual touchpad: `run --replay ... --timeline --print` through the loop
        and its timerfd prints what `replay --together` prints, compared whole."""
        fixtures = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Core", "Tests", "SeatFixtures")
        names = sorted(os.listdir(fixtures))
        self.assertGreaterEqual(len(names), 10)
        for index, name in enumerate(names):
            folder = os.path.join(fixtures, name)
            recordings = sorted(f for f in os.listdir(folder) if f.endswith(".evemu"))
            timeline = ["--timeline", "timeline"] if os.path.exists(os.path.join(folder, "timeline")) else []
            speed = "40" if index % 4 == 3 else "3"
            with self.subTest(name, speed=speed):
                replayed = subprocess.run([GESTURED, "replay", "--config", "gestured.toml", "--together", "--explain", "--actions",
                                           "--twin"] + timeline + recordings, cwd=folder, capture_output=True, text=True, timeout=60)
                looped = subprocess.run([GESTURED, "run", "--config", "gestured.toml", "--bus", "none", "--print", "--speed", speed]
                                        + [a for r in recordings for a in ("--replay", r)] + timeline,
                                        cwd=folder, capture_output=True, text=True, timeout=60)
                self.assertEqual(looped.returncode, 0, looped.stderr)
                self.assertEqual(replayed.returncode, 0, replayed.stderr)
                self.assertGreater(len(replayed.stdout.splitlines()), 2, replayed.stdout + replayed.stderr)
                self.assertEqual(looped.stdout.splitlines(), replayed.stdout.splitlines())

    def test_a_checkmark_runs_its_command_with_the_gesture_in_the_environment(self):
        out = self.path("env.txt")
        r = self.run_checkmark(f'env | grep ^GESTURE_ | sort > {out}', speed=2)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            env = dict(line.split("=", 1) for line in f.read().splitlines())
        self.assertEqual(env["GESTURE_NAME"], "confirm")
        self.assertEqual(env["GESTURE_TYPE"], "checkmark")
        self.assertEqual(env["GESTURE_PHASE"], "recognized")
        self.assertEqual(env["GESTURE_FINGERS"], "1")
        self.assertEqual(env["GESTURE_DEVICE"], "gestured test panel")
        self.assertAlmostEqual(float(env["GESTURE_X"]), (150 + 35) / 295.3, delta=0.01)  # where the finger lifted
        self.assertAlmostEqual(float(env["GESTURE_Y"]), (100 - 25) / 166.1, delta=0.01)

    def test_plain_words_start_directly_and_shell_syntax_through_the_shell(self):
        probe = self.write("probe", "#!/bin/sh\ncat /proc/$PPID/comm > \"$1\"\nenv | grep -c ^GESTURE_ >> \"$1\"\n")
        os.chmod(probe, 0o755)
        direct, shell, exact = self.path("direct.txt"), self.path("shell.txt"), self.path("exact.txt")
        config = (f'[daemon]\nbus = "none"\n[[gesture]]\nname = "confirm"\ntype = "checkmark"\ncommand = "{probe} {direct}"\n'
                  f'[[gesture]]\nname = "tap"\ntype = "tap"\ncommand = "{probe} {shell} # via the shell"\n'
                  f'[[gesture]]\nname = "swipe"\ntype = "swipe"\nfingers = 3\nexec = ["{probe}", "{exact}"]\n')
        rec = checkmark()
        rec.wait(500)
        rec.tap()
        rec.wait(500)
        for step in range(12):
            rec.frame({s: (100 + 20 * s, 40 + 5 * step) for s in range(3)})
        rec.frame({s: None for s in range(3)})
        r = self.run_daemon(config, rec, speed=2, extra=["--verbose"])
        self.assertEqual(r.returncode, 0, r.stderr)
        parent, variables = open(direct).read().split()
        self.assertEqual(parent, "gestured")  # started by the daemon itself, not by a shell
        self.assertGreater(int(variables), 5)  # with the gesture in its environment
        self.assertEqual(open(exact).read().split()[0], "gestured")
        self.assertNotEqual(open(shell).read().split()[0], "gestured")
        self.assertIn("confirm: pid", r.stderr)
        self.assertRegex(r.stderr, r"confirm: pid \d+ started directly: " + re.escape(probe))
        self.assertRegex(r.stderr, r"tap: pid \d+ started with /bin/sh -c: ")

    def test_keys_and_clicks_without_uinput_are_named_once_and_the_rest_works(self):
        """No /dev/uinput here (CI's container): the virtual keyboard and pointer cannot be
        made; the daemon says which gestures cannot act, and the others still do."""
        if os.path.exists("/dev/uinput"):
            self.skipTest("this machine has /dev/uinput: the VM suites test keys and clicks")
        config = ('[daemon]\nbus = "none"\n[[gesture]]\nname = "confirm"\ntype = "checkmark"\nkeys = "ctrl+Enter"\n'
                  'command = "echo confirmed"\n[[gesture]]\nname = "menu"\ntype = "swipe"\nfingers = 3\nclick = "right"\n')
        r = self.run_daemon(config, checkmark())
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr.count("cannot make gestured's virtual keyboard and pointer"), 1, r.stderr)
        self.assertIn("These gestures cannot act: confirm, menu; the rest work", r.stderr)
        self.assertIn("confirm: confirmed", r.stderr)

    def test_replay_prints_keys_clicks_and_steps_and_check_names_unknown_keys(self):
        cfg = self.write("keys.toml", '[[gesture]]\nname = "confirm"\ntype = "checkmark"\nkeys = ["ctrl+c", "KEY_V"]\n'
                                      'click = "left"\ndouble = true\n')
        r = subprocess.run([GESTURED, "replay", "--config", cfg, "--actions", checkmark().save(self.path("c.evemu"))],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertRegex(r.stdout, r"keys confirm: ctrl\+c, KEY_V\n.*click confirm: double left at x=0\.\d{4} y=0\.\d{4}")
        bad = self.write("bad.toml", '[[gesture]]\nname = "next"\ntype = "swipe"\nkeys = "ctrl+alt+Rihgt"\n')
        r = subprocess.run([GESTURED, "check", bad], capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 1)
        self.assertIn(bad + ':4: error: gesture[1].keys: no key is named "Rihgt" (did you mean "RIGHT"?)', r.stderr)

    def test_a_missing_program_is_logged_and_the_daemon_goes_on(self):
        r = self.run_checkmark('no-such-program-here --flag')
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("confirm: cannot start no-such-program-here: ", r.stderr)

    def test_a_command_that_prints_a_lot_runs_to_the_end_and_its_log_is_rate_limited(self):
        # The child writes to a blocking pipe: 600 KB of output is no error for it. The
        # log takes the first 100 lines and 20 a second after them, and counts the rest.
        status = self.path("status")
        r = self.run_checkmark(f'seq 1 100000; echo $? > {status}', speed=2)
        self.assertEqual(r.returncode, 0, r.stderr[-2000:])
        with open(status) as f:
            self.assertEqual(f.read().strip(), "0")
        logged = re.findall(r"^info: confirm: (\d+)$", r.stderr, re.M)
        self.assertEqual(logged[:100], [str(i) for i in range(1, 101)])
        dropped = sum(int(n.replace(",", "")) for n in re.findall(r"^notice: confirm: … ([\d,]+) lines? of output not logged", r.stderr, re.M))
        self.assertEqual(len(logged) + dropped, 100000, r.stderr[-2000:])

    def test_a_command_that_prints_without_end_holds_up_nothing(self):
        # `yes` floods its pipe for as long as it runs: gestures and other commands go on,
        # its timeout comes on time, and the log grows by a bounded amount.
        marks = self.path("marks")
        r = Recording()
        r.stroke([(150, 100), (160, 112), (185, 75)])  # a checkmark: yes
        for _ in range(5):
            r.wait(400)
            r.tap()
        cfg = self.write("gestured.toml", '[daemon]\nbus = "none"\ncommand_timeout_ms = 2000\n'
                         '[[gesture]]\nname = "flood"\ntype = "checkmark"\ncommand = "yes"\n'
                         f'[[gesture]]\nname = "t"\ntype = "tap"\nmax_running = 8\ncommand = "date +%s.%N >> {marks}"\n')
        daemon = subprocess.run([GESTURED, "run", "--config", cfg, "--replay", r.save(self.path("rec.evemu"))], env=self.env,
                                capture_output=True, text=True, timeout=30)
        self.assertEqual(daemon.returncode, 0, daemon.stderr[-2000:])
        self.assertIn("flood: pid", daemon.stderr)
        self.assertIn("still running after 2000 ms, terminating it", daemon.stderr)
        with open(marks) as f:
            times = [float(t) for t in f.read().split()]
        # The taps' commands ran while yes flooded, each about when its tap ended: 0.46 s
        # after the one before (counted from the first, not from the daemon's start, which
        # a loaded machine delays).
        self.assertEqual(len(times), 5, daemon.stderr[-2000:])
        expected = [0.46 * n for n in range(5)]
        for got, want in zip(times, expected):
            self.assertLess(abs(got - times[0] - want), 0.4, (times, expected))
        # At most 100 lines at once, then 20 a second, with a count of the rest.
        flood_lines = re.findall(r"^info: flood: y$", daemon.stderr, re.M)
        self.assertLessEqual(len(flood_lines), 100 + 20 * 3)
        self.assertRegex(daemon.stderr, r"notice: flood: … [\d]+ lines of output not logged")
        self.assertLess(len(daemon.stderr), 64 * 1024)

    def test_sigterm_stops_within_a_second_while_a_command_floods(self):
        cfg = self.write("gestured.toml", '[daemon]\nbus = "none"\n[[gesture]]\nname = "flood"\ntype = "tap"\ncommand = "yes"\n')
        daemon = self.start_daemon(cfg, two_taps(20_000))
        time.sleep(2)
        asked = time.monotonic()
        daemon.send_signal(signal.SIGTERM)
        stderr = daemon.communicate(timeout=30)[1]
        self.assertLess(time.monotonic() - asked, 1.0, stderr[-2000:])
        self.assertEqual(daemon.returncode, 0)
        self.assertIn("stopping (signal 15)", stderr)

    def test_output_written_just_before_exit_is_logged_and_long_lines_are_cut(self):
        r = self.run_checkmark('for i in $(seq 40); do echo hello$i; done; head -c 10000 /dev/zero | tr \'\\\\000\' x; printf tail',
                               speed=2)
        self.assertEqual(r.returncode, 0, r.stderr[-2000:])
        lines = [line for line in re.findall(r"^info: confirm: (.*)$", r.stderr, re.M)
                 if not re.match(r"started pid \d+$|pid \d+ ended, ", line)]
        self.assertEqual(lines[:40], [f"hello{i}" for i in range(1, 41)])
        # 10,000 x's and the last words with no newline: pieces of at most 4096 bytes, nothing lost.
        rest = lines[40:]
        self.assertTrue(all(len(piece) <= 4096 for piece in rest), [len(p) for p in rest])
        self.assertEqual("".join(rest), "x" * 10000 + "tail")

    def test_a_stalled_bus_costs_bounded_memory_and_signals_flow_again_after_it(self):
        # A dbus-daemon stopped under a streaming pan once grew gestured by 700 MB.
        bus = self.start_bus()
        monitor = self.monitor()
        cfg = self.write("gestured.toml", '[daemon]\nbus = "session"\n[[gesture]]\nname = "drag"\ntype = "pan"\nsignal = true\n')
        log_path = self.path("log")
        with open(log_path, "w") as log:
            daemon = subprocess.Popen([GESTURED, "run", "--config", cfg, "--replay", drag(seconds=480).save(self.path("rec.evemu")),
                                       "--speed", "40"], env=self.env, stdout=subprocess.DEVNULL, stderr=log)
        def rss_kb():
            with open(f"/proc/{daemon.pid}/status") as f:
                return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1))
        def said_so():
            with open(log_path) as f:
                return "D-Bus: the session bus is not taking signals;" in f.read()
        time.sleep(1)
        before = rss_kb()
        os.kill(bus, signal.SIGSTOP)
        peak = before
        # Stalled until gestured says it drops signals, then 2 s more: 28,000 changed
        # signals (7 s of the replay, when the machine is not loaded) are twice what the
        # socket's buffer holds (8 MB: sd-bus forces it).
        end = time.monotonic() + 40
        while time.monotonic() < end and not said_so():
            time.sleep(0.5)
            peak = max(peak, rss_kb())
        for _ in range(4):
            time.sleep(0.5)
            peak = max(peak, rss_kb())
        os.kill(bus, signal.SIGCONT)
        daemon.wait(timeout=60)
        with open(log_path) as f:
            stderr = f.read()
        self.assertEqual(daemon.returncode, 0, stderr[-2000:])
        self.assertIn("D-Bus: the session bus is not taking signals;", stderr)
        self.assertLess(peak - before, 8 * 1024, (before, peak))
        # The bus delivers its backlog to the monitor, then what was held back: the end.
        phases = re.findall(r'string "(began|changed|ended|cancelled)"', self.read_until(monitor, 'string "ended"', seconds=30))
        monitor.terminate()
        monitor.communicate()
        self.assertEqual((phases[0], phases[-1]), ("began", "ended"))

    def test_a_second_daemon_says_the_name_is_taken_and_takes_it_when_it_frees(self):
        self.start_bus()
        cfg = self.write("gestured.toml", '[daemon]\nbus = "session"\n[[gesture]]\nname = "c"\ntype = "checkmark"\nsignal = true\n')
        first = self.start_daemon(cfg, two_taps(3000))
        wait_on_the_bus(self.env)
        second = self.start_daemon(cfg, two_taps(3000), name="second.evemu")
        first_log = first.communicate(timeout=30)[1]
        second_log = second.communicate(timeout=30)[1]
        self.assertIn("connected to the session bus as org.gestured.Gestured1", first_log)
        self.assertNotIn("connected to the session bus as", second_log)
        self.assertIn("org.gestured.Gestured1 is owned by another process on the session bus", second_log)
        self.assertIn("now the owner of org.gestured.Gestured1", second_log)  # when the first one exited

    def test_a_bus_that_never_answers_does_not_hold_up_gestures(self):
        # A socket that accepts connections and never says a word: sd-bus's handshake and
        # the name request must not stall the loop (a synchronous RequestName waits 25 s).
        import socket, threading
        path = self.path("silent-bus")
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(path)
        server.listen(8)
        accepted = []
        threading.Thread(target=lambda: accepted.append(server.accept()), daemon=True).start()
        self.addCleanup(server.close)
        self.env["DBUS_SESSION_BUS_ADDRESS"] = f"unix:path={path}"
        out = self.path("confirmed")
        start = time.monotonic()
        r = self.run_daemon(f'[daemon]\nbus = "session"\n[[gesture]]\nname = "confirm"\ntype = "checkmark"\n'
                            f'signal = true\ncommand = "touch {out}"\n', checkmark(), speed=2)
        elapsed = time.monotonic() - start
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(accepted, "the daemon never connected to the bus")
        self.assertTrue(os.path.exists(out), r.stderr)
        self.assertLess(elapsed, 8, r.stderr)

    def test_commands_run_in_a_session_of_their_own(self):
        # Its own session: no controlling terminal of the daemon's, its own process group.
        out = self.path("session")
        r = self.run_checkmark(f'echo $$ $(ps -o sid= -p $$) $(ps -o pgid= -p $$) > {out}', speed=2)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            pid, sid, pgid = f.read().split()
        self.assertEqual((sid, pgid), (pid, pid))

    def test_a_checkmark_emits_a_gesture_signal(self):
        self.start_bus()
        monitor = self.monitor()
        r = self.run_daemon('[daemon]\nbus = "session"\n[[gesture]]\nname = "confirm"\ntype = "checkmark"\nsignal = true\n',
                            checkmark(), speed=2)
        self.assertEqual(r.returncode, 0, r.stderr)
        signals = self.signals(monitor)
        self.assertEqual(len(signals), 1, signals)
        s = signals[0]
        self.assertIn("path=/org/gestured/Gestured1; interface=org.gestured.Gestured1; member=Gesture", s)
        self.assertEqual(re.findall(r'^   string "([^"]*)"', s, re.M), ["confirm", "checkmark", "recognized"])
        self.assertRegex(s, r'string "fingers"\s+variant\s+int32 1')
        self.assertRegex(s, r'string "device"\s+variant\s+string "gestured test panel"')

    def test_a_pinch_streams_began_changed_ended(self):
        self.start_bus()
        monitor = self.monitor()
        r = Recording()
        r.pinch()
        result = self.run_daemon('[daemon]\nbus = "session"\n[[gesture]]\nname = "zoom"\ntype = "pinch"\nsignal = true\n', r, speed=2)
        self.assertEqual(result.returncode, 0, result.stderr)
        phases = [re.findall(r'^   string "([^"]*)"', s, re.M)[2] for s in self.signals(monitor)]
        self.assertEqual(phases[0], "began")
        self.assertEqual(phases[-1], "ended")
        self.assertGreater(phases.count("changed"), 5)
        self.assertEqual(set(phases[1:-1]), {"changed"})

    def test_introspection_shows_the_signal(self):
        self.start_bus()
        cfg = self.write("gestured.toml", '[daemon]\nbus = "session"\n[[gesture]]\nname = "c"\ntype = "checkmark"\nsignal = true\n')
        r = Recording()
        r.tap()  # times count from the first event: the wait must come after one
        r.wait(30000)
        r.tap()
        rec = r.save(self.path("rec.evemu"))
        daemon = subprocess.Popen([GESTURED, "run", "--config", cfg, "--replay", rec], env=self.env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # It takes longer than a second to start on a loaded machine (CI's, making Debian
        # roots beside it).
        wait_on_the_bus(self.env, seconds=20)
        out = subprocess.run(["busctl", "--user", "introspect", "org.gestured.Gestured1", "/org/gestured/Gestured1"],
                             capture_output=True, text=True, env=self.env)
        daemon.terminate()
        daemon.wait(timeout=5)
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertRegex(out.stdout, r"\.Gesture\s+signal\s+sssa\{sv\}")

    def test_names_and_commands_cannot_inject(self):
        marker = self.path("pwned")
        out = self.path("name.txt")
        name = f'x; touch {marker}; $(touch {marker}) `touch {marker}` \\"'
        r = self.run_daemon('[daemon]\nbus = "none"\n[[gesture]]\nname = "' + name.replace("\\", "\\\\").replace('"', '\\"') +
                            f'"\ntype = "checkmark"\ncommand = "echo $GESTURE_NAME > {out}; printf %s \\"$GESTURE_NAME\\" >> {out}"\n',
                            checkmark(), speed=2)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertFalse(os.path.exists(marker))
        with open(out) as f:
            lines = f.read().split("\n")
        self.assertEqual(lines[1], name)

    def test_ten_thousand_gestures_never_exceed_the_limit_nor_leave_zombies(self):
        log = self.path("jobs.log")
        r = Recording()
        for i in range(10_000):
            r.tap(at=(100 + i % 50, 100), hold_ms=30)
            r.wait(40)
        cfg = self.write("gestured.toml", f'[daemon]\nbus = "none"\n[[gesture]]\nname = "t"\ntype = "tap"\nmax_running = 2\n'
                                          f'command = "echo start >> {log}; sleep 0.05; echo end >> {log}"\n')
        rec = r.save(self.path("rec.evemu"))
        errors = open(self.path("stderr.txt"), "w+")  # a pipe nobody reads would fill and block the daemon
        self.addCleanup(errors.close)
        daemon = subprocess.Popen([GESTURED, "run", "--config", cfg, "--replay", rec, "--speed", "40"], env=self.env,
                                  stdout=subprocess.DEVNULL, stderr=errors, text=True)
        most_children = zombies = 0
        while daemon.poll() is None:
            children = subprocess.run(["ps", "--ppid", str(daemon.pid), "-o", "stat="], capture_output=True, text=True).stdout.split()
            most_children = max(most_children, len(children))
            zombies = max(zombies, sum(1 for s in children if s.startswith("Z")))
            time.sleep(0.02)
        errors.seek(0)
        stderr = errors.read()
        self.assertEqual(daemon.returncode, 0, stderr[-2000:])
        with open(log) as f:
            jobs = f.read().split()
        running = most = 0
        for line in jobs:
            running += 1 if line == "start" else -1
            most = max(most, running)
        self.assertLessEqual(most, 2)
        self.assertLessEqual(most_children, 2)
        self.assertLessEqual(zombies, 2)  # an exited child waits at most one loop turn for SIGCHLD
        # and every child started was reaped: none is left a zombie
        self.assertEqual(len(re.findall(r"t: started pid \d+", stderr)), len(re.findall(r"t: pid \d+ ended", stderr)))
        self.assertGreater(jobs.count("start"), 100)
        self.assertIn("skipped, 2 command(s) still running", stderr)

    def test_a_stepped_pan_whose_command_still_runs_says_skipped_a_few_times_then_counts(self):
        """A 120 mm drag over 1 mm steps, each step a command that outlives the drag: one
        runs, and of the ~120 skipped only a burst is logged, the rest said in one line."""
        r = self.run_daemon('[daemon]\nbus = "none"\n[[gesture]]\nname = "s"\ntype = "pan"\nstep = 1\n'
                            'increase = { command = "sleep 4" }\ndecrease = { command = "sleep 4" }\n', drag(), speed=2)
        self.assertEqual(r.returncode, 0, r.stderr)
        said = r.stderr.count("s: skipped, 1 command(s) still running")
        self.assertGreaterEqual(said, 1)
        self.assertLessEqual(said, 10, r.stderr[-2000:])
        unsaid = re.search(r"s: (\d+) more gesture\(s\) skipped while its commands ran", r.stderr)
        self.assertIsNotNone(unsaid, r.stderr[-2000:])
        self.assertGreater(said + int(unsaid.group(1)), 100)

    def test_a_hanging_command_is_killed_at_its_timeout(self):
        started = time.monotonic()
        r = self.run_daemon('[daemon]\nbus = "none"\ncommand_timeout_ms = 500\n[[gesture]]\nname = "c"\ntype = "checkmark"\n'
                            'command = "sleep 1000"\n', checkmark(), speed=4)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertLess(time.monotonic() - started, 5)
        self.assertIn("still running after 500 ms, terminating it", r.stderr)
        self.assertIn("killed by signal 15", r.stderr)

    def test_sighup_keeps_the_old_bindings_on_errors_and_takes_good_ones(self):
        log = self.path("taps.log")
        good = lambda word: f'[daemon]\nbus = "none"\n[[gesture]]\nname = "t"\ntype = "tap"\ncommand = "echo {word} >> {log}"\n'
        cfg = self.write("gestured.toml", good("old"))
        r = Recording()
        for _ in range(12):
            r.tap()
            r.wait(500)
        rec = r.save(self.path("rec.evemu"))
        daemon = subprocess.Popen([GESTURED, "run", "--config", cfg, "--replay", rec], env=self.env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        time.sleep(1.3)
        self.write("gestured.toml", '[[gesture]]\nname = "t"\ntype = \n')
        daemon.send_signal(signal.SIGHUP)
        time.sleep(1.5)
        self.write("gestured.toml", good("new"))
        daemon.send_signal(signal.SIGHUP)
        stderr = daemon.communicate(timeout=30)[1]
        self.assertEqual(daemon.returncode, 0, stderr)
        self.assertIn(f"{cfg}:3:8: error:", stderr)
        with open(log) as f:
            words = f.read().split()
        self.assertEqual(len(words), 12)
        switch = words.index("new")
        self.assertGreaterEqual(switch, 4)  # the broken file changed nothing
        self.assertEqual(set(words[:switch]), {"old"})
        self.assertEqual(set(words[switch:]), {"new"})

    def test_without_a_bus_commands_still_run(self):
        self.env["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=" + self.path("no-bus")
        out = self.path("ran")
        r = self.run_daemon(f'[daemon]\nbus = "session"\n[[gesture]]\nname = "c"\ntype = "checkmark"\nsignal = true\n'
                            f'command = "touch {out}"\n', checkmark(), speed=2)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(os.path.exists(out))
        self.assertIn("cannot connect to the session bus", r.stderr)

    def test_a_missing_bus_is_not_tried_again_for_every_event(self):
        # A pinch streams a signal a frame for a second: the bus is tried at the first,
        # then at most every second, not a hundred times.
        bus = self.path("no-bus")
        self.env["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=" + bus
        r = Recording()
        r.pinch(steps=100)
        trace = self.path("connect.trace")
        cfg = self.write("gestured.toml", '[daemon]\nbus = "session"\n[[gesture]]\nname = "zoom"\ntype = "pinch"\nsignal = true\n')
        out = subprocess.run(["strace", "-f", "-e", "trace=connect", "-o", trace, GESTURED, "run", "--config", cfg,
                              "--replay", r.save(self.path("rec.evemu"))], capture_output=True, text=True, env=self.env, timeout=60)
        self.assertEqual(out.returncode, 0, out.stderr)
        with open(trace) as f:
            attempts = sum(1 for line in f if bus in line)
        self.assertGreaterEqual(attempts, 1)
        self.assertLessEqual(attempts, 2)

    def test_absurd_speeds_and_endless_deadlines_are_refused_or_survived(self):
        rec = checkmark().save(self.path("rec.evemu"))
        for speed in ["inf", "nan", "1e300", "0", "-1"]:
            r = subprocess.run([GESTURED, "run", "--replay", rec, f"--speed={speed}"], capture_output=True, text=True, env=self.env)
            self.assertEqual(r.returncode, 64, f"--speed {speed}: {r.stderr}")  # a usage error, not a crash
            self.assertIn("--speed must be", r.stderr)
        r = self.run_daemon('[daemon]\nbus = "none"\n[[gesture]]\nname = "t"\ntype = "tap"\nmax_duration_ms = 1e16\n', checkmark())
        self.assertEqual(r.returncode, 78)  # the configuration is refused
        self.assertIn("max_duration_ms: expected a number more than 0 and at most 3600000 (an hour)", r.stderr)

    def test_no_accepted_size_nor_extreme_panel_crashes_run_or_replay(self):
        # A 3-finger swipe on a panel said to be 1e20 mm wide trapped formatting its
        # speed; check accepted that size.
        swipe = '[daemon]\nbus = "none"\nlog_level = "debug"\n[[gesture]]\nname = "s"\ntype = "swipe"\nfingers = 3\n' \
                'command = "echo v=$GESTURE_VELOCITY"\n'
        for size in ["[1e20, 1e20]", "[inf, inf]"]:
            r = self.run_daemon(swipe + '[[device]]\nname = "*"\nsize_mm = %s\n' % size, three_finger_swipe_down())
            self.assertEqual(r.returncode, 78, r.stderr)
            self.assertIn("size_mm: expected [width, height] in millimetres, each from 1 to 10000 (10 m)", r.stderr)
        r = self.run_daemon(swipe + '[[device]]\nname = "*"\nsize_mm = [10000, 10000]\n', three_finger_swipe_down(), speed=10)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("s: v=", r.stderr)
        # Axes over all 32 bits at 1 unit/mm, frames 1 µs apart: a pan at 10^15 mm/s.
        pan = '[daemon]\nbus = "none"\nlog_level = "debug"\n[[gesture]]\nname = "p"\ntype = "pan"\n' \
              'command = "echo v=$GESTURE_VELOCITY"\non = ["began", "ended"]\n'
        r = self.run_daemon(pan, extreme_pan())
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("p: v=1000000000000.0000", r.stderr)  # clamped, not trapped
        rec = self.path("rec.evemu")
        for flags in (["--actions", "--explain"], ["--touches", "--format", "jsonl"], ["--svg", self.path("p.svg")]):
            r = subprocess.run([GESTURED, "replay", "--config", self.path("gestured.toml"), *flags, rec], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, f"{flags}: {r.stderr}")

    def test_no_configuration_text_crashes_check(self):
        # The TOML parser asserts on some malformed files ([.gesture]] aborted check with
        # status 134); mutations of the shipped example must all end 0 or 1, never by a signal.
        # 500 of them (a minute and a half of the debug build for 1,500): FuzzConfig, in CI
        # too, mutates the loader's input by the million.
        import random
        rng = random.Random(20261122)
        with open(os.path.join(os.path.dirname(__file__), "..", "config", "gestured.toml"), "rb") as f:
            example = f.read()
        pieces = [b"[", b"]", b"[[", b"]]", b".", b"=", b'"', b"'", b'"""', b"\n", b"#", b"{", b"}", b",", b"\\", b"\x00", b"\xff", b"1e999"]
        crashers = [b'[.gesture]]\nname = "x"\n', b"[.]]", b"[a.]\n", b"a.=1\n", b"[[.]]\n", b'["a".]\n']
        path = self.path("mutant.toml")
        abnormal = []
        for n in range(500):
            if n < len(crashers):
                text = crashers[n]
            else:
                text = bytearray(example)
                for _ in range(rng.randint(1, 4)):
                    at = rng.randrange(len(text) + 1)
                    choice = rng.random()
                    if choice < 0.5:
                        text[at:at] = rng.choice(pieces)
                    elif choice < 0.8:
                        del text[at:at + rng.randint(1, 8)]
                    else:
                        text[at:at] = text[rng.randrange(len(text)):][:rng.randint(1, 40)]
                text = bytes(text)
            with open(path, "wb") as f:
                f.write(text)
            r = subprocess.run([GESTURED, "check", path], capture_output=True, env=self.env)
            if r.returncode not in (0, 1):
                abnormal.append((r.returncode, text[:200]))
        self.assertEqual(abnormal, [])

    def test_a_broken_configuration_at_start_exits_78_with_one_located_error(self):
        r = self.run_daemon('[.gesture]]\nname = "x"\n', checkmark())
        self.assertEqual(r.returncode, 78, r.stderr)
        lines = [l for l in r.stderr.splitlines() if l.strip()]
        self.assertEqual(len(lines), 1, r.stderr)
        # toml++ aborts on this header: the parsing helper finds its line and column.
        self.assertIn("gestured.toml:1:2: error: a [table] header needs a key here", lines[0])
        r = self.run_daemon('[[gesture]]\nname = "x"\ntype = "tapp"\n', checkmark())
        self.assertEqual(r.returncode, 78, r.stderr)
        self.assertIn('gestured.toml:3: error: gesture[1].type: expected one of', r.stderr)

    def test_a_closed_output_pipe_does_not_kill_the_daemon(self):
        ran = self.path("ran")
        cfg = self.write("gestured.toml", f'[daemon]\nbus = "none"\n[[gesture]]\nname = "c"\ntype = "checkmark"\ncommand = "touch {ran}"\n')
        rec = checkmark().save(self.path("rec.evemu"))
        for reader in ("stdout", "stderr"):
            os.path.exists(ran) and os.unlink(ran)
            daemon = subprocess.Popen([GESTURED, "run", "--config", cfg, "--replay", rec], env=self.env,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            getattr(daemon, reader).close()  # nobody reads what it writes there any more
            other = daemon.stderr if reader == "stdout" else daemon.stdout
            other.read()
            other.close()
            self.assertEqual(daemon.wait(timeout=30), 0, reader)
            self.assertTrue(os.path.exists(ran), reader)

    def test_every_suites_configuration_is_one_check_accepts(self):
        """tests/configs/: the configurations the suites run are checked here, so a change
        of the language that breaks one fails in the fast tier, not deep in a VM suite."""
        folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "configs")
        names = sorted(os.listdir(folder))
        self.assertGreater(len(names), 10)
        for name in names:
            r = subprocess.run([GESTURED, "check", os.path.join(folder, name)], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, name + ": " + r.stderr)

    def test_names_are_one_line_and_commands_not_blank(self):
        cfg = self.write("bad.toml", '[[gesture]]\nname = "x\\ninfo: forged"\ntype = "tap"\n'
                                     '[[gesture]]\nname = "y"\ntype = "tap"\ncommand = "   "\n')
        r = subprocess.run([GESTURED, "check", cfg], capture_output=True, text=True)
        self.assertEqual(r.returncode, 1)
        self.assertIn("bad.toml:2: error: gesture[1].name: contains a control character (U+000a); a name is one line of printable text", r.stderr)
        self.assertIn("bad.toml:7: error: gesture[2].command: blank; expected a command to run", r.stderr)
        # A command's output cannot forge a log line either: control characters are escaped.
        r = self.run_daemon('[daemon]\nbus = "none"\n[[gesture]]\nname = "c"\ntype = "checkmark"\n'
                            'command = "printf \'one\\\\rerror: forged\\\\n\'"\n', checkmark())
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("info: c: one\\u{d}error: forged", r.stderr)
        self.assertNotRegex(r.stderr, r"(?m)^error: forged")

    def test_a_configuration_that_is_not_a_regular_file_is_refused_at_once(self):
        def run(*command):
            """Status, stderr, seconds and peak resident kB of one gestured."""
            started = time.monotonic()
            child = subprocess.Popen([GESTURED, *command], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=self.env)
            guard = threading.Timer(10, child.kill)  # a FIFO once blocked it for good
            guard.start()
            stderr = child.stderr.read().decode()
            _, status, usage = os.wait4(child.pid, 0)
            guard.cancel()
            child.returncode = 0  # reaped here
            return os.waitstatus_to_exitcode(status), stderr, time.monotonic() - started, usage.ru_maxrss
        idle = run("check", self.write("good.toml", CHECKMARK_ONLY))[3]
        fifo = self.path("fifo.toml")
        os.mkfifo(fifo)
        sparse = self.path("sparse.toml")
        with open(sparse, "w") as f:
            f.truncate(10 << 30)  # 10 GB of nothing, on no disk
        os.mkdir(self.path("dir.toml"))
        cases = {fifo: "a FIFO, not a regular file", "/dev/zero": "a character device, not a regular file",
                 self.path("dir.toml"): "a directory, not a regular file", sparse: "more than 1048576 bytes"}
        for path, reason in cases.items():
            for command in (["check", path], ["run", "--config", path]):
                status, stderr, seconds, rss = run(*command)
                self.assertEqual(status, 1 if command[0] == "check" else 78, stderr)
                self.assertIn(f"{path}: error: {reason}", stderr)
                self.assertLess(seconds, 2, command)
                self.assertLess(rss, 2 * idle, command)
        # On reload too: the running configuration stays, and the loop goes on at once.
        def fifo(cfg):
            os.unlink(cfg)
            os.mkfifo(cfg)
        self.assertIn("a FIFO, not a regular file", self.reload_is_rejected(fifo))

    def test_reloads_are_parsed_by_a_helper_and_cost_no_memory(self):
        # Each reload once leaked some 22 KB (TOMLKit's strings) and forked the whole
        # daemon, which then waited for the child. Now a helper parses; the daemon decodes.
        with open(os.path.join(os.path.dirname(__file__), "..", "config", "gestured.toml")) as f:
            cfg = self.write("gestured.toml", f.read())
        daemon = self.start_daemon(cfg, two_taps(600_000))
        done = threading.Semaphore(0)
        log = []
        applied = re.compile(r"reload: .*gestured.toml: 10 gestures \(applied in [\d.]+ ms\)")
        def read():
            # A slow start may leave the first tap's wait for a second one under way at
            # the first reload ("takes it after the touch sequence in flight"): only the
            # line that says it is applied ends a reload.
            for line in daemon.stderr:
                log.append(line)
                if applied.search(line):
                    done.release()
        threading.Thread(target=read, daemon=True).start()
        def rss_kb():
            with open(f"/proc/{daemon.pid}/status") as f:
                return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1))
        def reload():
            daemon.send_signal(signal.SIGHUP)
            self.assertTrue(done.acquire(timeout=20), "".join(log[-20:]))
        time.sleep(0.5)
        for _ in range(50):
            reload()
        before = rss_kb()
        for _ in range(300):
            reload()
        grown = rss_kb() - before
        daemon.terminate()
        daemon.wait(timeout=10)
        self.assertLess(grown, 256, "kB over 300 reloads")
        self.assertEqual(len([line for line in log if applied.search(line)]), 350)
        self.assertFalse([line for line in log if "reload:" in line and "rejected" in line])

    def reload_is_rejected(self, change):
        """Four taps 0.7 s apart, each running a command; `change` does something to the
        file after the first, then SIGHUP: the reload is rejected and every tap still
        runs its command. The daemon's log."""
        log = self.path("log")
        r = Recording()
        for i in range(4):
            r.tap()
            r.wait(700)
        cfg = self.write("gestured.toml", f'[daemon]\nbus = "none"\n[[gesture]]\nname = "t"\ntype = "tap"\ncommand = "echo tap >> {log}"\n')
        daemon = subprocess.Popen([GESTURED, "run", "--config", cfg, "--replay", r.save(self.path("rec.evemu"))], env=self.env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        time.sleep(0.9)
        change(cfg)
        daemon.send_signal(signal.SIGHUP)
        stderr = daemon.communicate(timeout=30)[1]
        self.assertEqual(daemon.returncode, 0, stderr)
        self.assertIn("reload: rejected, keeping the running configuration", stderr)
        with open(log) as f:
            self.assertEqual(f.read().split(), ["tap"] * 4)
        return stderr

    def test_a_reload_that_would_crash_the_parser_is_located_and_keeps_the_running_configuration(self):
        self.assertIn("gestured.toml:1:2: error: a [table] header needs a key here",
                      self.reload_is_rejected(lambda cfg: self.write("gestured.toml", '[.gesture]]\nname = "x"\n')))

    def test_sigterm_stops_promptly_with_status_zero(self):
        r = Recording()
        r.tap()
        r.wait(60_000)
        r.tap()
        cfg = self.write("gestured.toml", '[daemon]\nbus = "none"\n')
        daemon = subprocess.Popen([GESTURED, "run", "--config", cfg, "--replay", r.save(self.path("rec.evemu"))],
                                  stderr=subprocess.DEVNULL, env=self.env)
        time.sleep(0.5)
        self.assertIsNone(daemon.poll(), "the replay should still be running")
        started = time.monotonic()
        daemon.terminate()
        self.assertEqual(daemon.wait(timeout=5), 0)
        self.assertLess(time.monotonic() - started, 1)

@unittest.skipUnless(os.geteuid() == 0, "needs root")
class Learn(Harness):
    def zed(self, name, origin, wobble=0):
        r = Recording()
        ox, oy = origin
        r.stroke([(ox, oy), (ox + 30, oy + wobble), (ox, oy + 30), (ox + 30, oy + 30 - wobble)])
        return r.save(self.path(name))

    def test_learn_prints_an_entry_that_check_accepts_and_replay_recognizes_anywhere(self):
        examples = [self.zed("z%d.evemu" % i, (50 + 40 * i, 60), wobble=i) for i in range(4)]
        out = subprocess.run([GESTURED, "learn", "--keep", "3", "zed"] + examples, capture_output=True, text=True, check=True).stdout
        self.assertIn('type = "stroke"', out)
        self.assertEqual(out.count('\n    "'), 3)  # the 3 most typical of 4
        config = self.write("learned.toml", out + 'command = "true"\n\n' + CHECKMARK_ONLY)
        subprocess.run([GESTURED, "check", config], check=True, capture_output=True)
        elsewhere = self.zed("elsewhere.evemu", (200, 120))
        replay = subprocess.run([GESTURED, "replay", "--config", config, elsewhere], capture_output=True, text=True, check=True).stdout
        self.assertIn("gesture zed (stroke) recognized", replay)
        check = checkmark().save(self.path("check.evemu"))
        replay = subprocess.run([GESTURED, "replay", "--config", config, check], capture_output=True, text=True, check=True).stdout
        self.assertIn("gesture confirm (checkmark) recognized", replay)
        self.assertNotIn("zed (stroke) recognized", replay)

    def test_a_recording_without_a_stroke_is_named(self):
        r = Recording()
        r.tap()
        tap = r.save(self.path("tap.evemu"))
        result = subprocess.run([GESTURED, "learn", "x", tap], capture_output=True, text=True)
        self.assertEqual(result.returncode, 1)
        self.assertIn(tap + ": error: no stroke", result.stderr)

class AsRoot(Harness):
    def test_commands_run_as_the_configured_user_with_a_clean_environment(self):
        shared = tempfile.mkdtemp(prefix="gestured-shared-")  # where the user may write
        self.addCleanup(shutil.rmtree, shared, True)
        os.chmod(shared, 0o1777)
        out = os.path.join(shared, "who")
        self.env["LEAK"] = "from the daemon"
        r = self.run_daemon(f'[daemon]\nbus = "none"\nuser = "nobody"\n[[gesture]]\nname = "c"\ntype = "checkmark"\n'
                            f'command = "(id -un; echo $HOME; echo ${{LEAK:-clean}}; echo $GESTURE_NAME) > {out}"\n', checkmark(), speed=2)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            user, home, leak, name = f.read().split("\n")[:4]
        self.assertEqual((user, leak, name), ("nobody", "clean", "c"))
        self.assertEqual(home, subprocess.run(["getent", "passwd", "nobody"], capture_output=True, text=True).stdout.split(":")[5])

    def test_a_config_others_can_write_is_refused(self):
        os.chmod(self.dir, 0o777)
        r = self.run_daemon('[daemon]\nbus = "none"\n', checkmark())
        self.assertEqual(r.returncode, 78)  # the configuration is refused
        self.assertIn(f"{self.dir}: error: the configuration directory is writable by group or others", r.stderr)
        self.assertIn(f"Fix: chmod go-w {self.dir}", r.stderr)

    def check(self, path, *prefix):
        return subprocess.run([*prefix, GESTURED, "check", path], capture_output=True, text=True, env=self.env)

    def test_check_refuses_what_run_refuses(self):
        cfg = self.write("gestured.toml", '[daemon]\nbus = "none"\nuser = "no-such-user-here"\n')
        r = self.check(cfg)
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn('daemon.user: there is no user "no-such-user-here"', r.stderr)
        self.write("gestured.toml", '[daemon]\nbus = "none"\n')
        os.chmod(cfg, 0o664)
        r = self.check(cfg)
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn(f"{cfg}: error: the configuration file is writable by group or others", r.stderr)

    def test_check_user_refuses_the_machines_settings_in_a_users_file(self):
        """`check --user`: a user's file; the same file is good as the machine's."""
        cfg = self.write("gestured.toml", '[daemon]\nmodes = ["reading"]\nisolate = true\n\n'
                         '[[gesture]]\nname = "read"\ntype = "tap"\nmode = "reading"\ncommand = "true"\n')
        r = subprocess.run([GESTURED, "check", "--user", cfg], capture_output=True, text=True, timeout=30)
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn(f"{cfg}:3: error: daemon.isolate: the machine's setting", r.stderr)
        self.assertEqual(r.stderr.count("error:"), 1, r.stderr)
        self.assertEqual(self.check(cfg).returncode, 0)

    def test_every_directory_above_the_config_counts_and_so_do_symlinks(self):
        open_dir = os.path.join(self.dir, "open")  # anyone may write here (no sticky bit)
        inner = os.path.join(open_dir, "inner")
        os.makedirs(inner)
        os.chmod(open_dir, 0o777)
        cfg = os.path.join(inner, "gestured.toml")
        with open(cfg, "w") as f:
            f.write('[daemon]\nbus = "none"\n')
        r = self.check(cfg)
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn(f"{open_dir}: error: the configuration directory is writable by group or others", r.stderr)
        # A safe file reached through a link that others could re-point.
        safe = self.write("safe.toml", '[daemon]\nbus = "none"\n')
        link = os.path.join(open_dir, "link.toml")
        os.symlink(safe, link)
        r = self.run_daemon_file(link)
        self.assertEqual(r.returncode, 78, r.stderr)
        self.assertIn(f"{open_dir}: error: the configuration directory is writable by group or others", r.stderr)
        self.assertEqual(self.check(safe).returncode, 0)

    def test_a_link_others_own_is_not_followed_even_where_they_cannot_replace_files(self):
        # In a sticky directory (as /tmp) anyone may make a link; re-pointing it between
        # the check and the read once got an attacker's file accepted.
        sticky = os.path.join(self.dir, "sticky")
        os.mkdir(sticky)
        os.chmod(sticky, 0o1777)
        safe = self.write("safe.toml", '[daemon]\nbus = "none"\n')
        theirs = os.path.join(sticky, "theirs.toml")
        with open(theirs, "w") as f:
            f.write('[[gesture]]\nname = "evil"\ntype = "tap"\ncommand = "id"\n')
        os.chown(theirs, 65534, 65534)
        link = os.path.join(sticky, "link.toml")
        os.symlink(safe, link)
        os.lchown(link, 65534, 65534)
        r = self.check(link)
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn(f"{link}: error: the configuration symbolic link is owned by uid 65534, not root", r.stderr)
        # Re-pointed as fast as it can be while check runs: never accepted.
        stop = threading.Event()
        def flip():
            spare = os.path.join(sticky, "spare.toml")
            while not stop.is_set():
                for target in (theirs, safe):
                    try:
                        os.symlink(target, spare)
                        os.lchown(spare, 65534, 65534)
                        os.replace(spare, link)
                    except OSError:
                        pass
        flipper = threading.Thread(target=flip)
        flipper.start()
        try:
            results = [self.check(link) for _ in range(100)]
        finally:
            stop.set()
            flipper.join()
        self.assertFalse([r for r in results if r.returncode == 0 or "evil" in r.stdout])
        # A root's link there is followed, and so is a relative path.
        os.unlink(link)
        os.symlink(safe, link)
        self.assertEqual(self.check(link).returncode, 0)
        r = subprocess.run([GESTURED, "check", "safe.toml"], capture_output=True, text=True, cwd=self.dir)
        self.assertEqual(r.returncode, 0, r.stderr)

    def run_daemon_file(self, cfg):
        rec = checkmark().save(self.path("rec.evemu"))
        return subprocess.run([GESTURED, "run", "--config", cfg, "--replay", rec], capture_output=True, text=True,
                              timeout=60, env=self.env)

    def test_a_user_that_cannot_apply_is_said_so(self):
        shared = tempfile.mkdtemp(prefix="gestured-shared-")
        self.addCleanup(shutil.rmtree, shared, True)
        os.chmod(shared, 0o755)
        cfg = os.path.join(shared, "gestured.toml")
        with open(cfg, "w") as f:
            f.write('[daemon]\nbus = "none"\nuser = "kiosk"\n')
        os.chmod(cfg, 0o644)
        r = self.check(cfg, "setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(f'{cfg}: warning: daemon.user = "kiosk" applies only when gestured runs as root', r.stderr)

class Tools(Harness):
    def replay_with_stderr_on_a_terminal(self, stdout_too):
        """Replays three recordings with stderr on a pseudo-terminal; what it showed there."""
        import pty
        recordings = [checkmark().save(self.path(f"c{i}.evemu")) for i in range(3)]
        leader, follower = pty.openpty()
        out = follower if stdout_too else open(self.path("out.txt"), "w")
        p = subprocess.Popen([GESTURED, "replay", *recordings], stdout=out, stderr=follower)
        os.close(follower)
        shown = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # EIO: the replay has ended and closed the terminal
                break
            if not chunk:
                break
            shown += chunk
        p.wait(timeout=30)
        os.close(leader)
        return shown.decode()

    def test_pictures_are_never_written_through_links_nor_over_others_files(self):
        rec = checkmark().save(self.path("rec.evemu"))
        def svg(path):
            return subprocess.run([GESTURED, "replay", "--svg", path, rec], capture_output=True, text=True)
        os.symlink(self.path("target"), self.path("link.svg"))
        r = svg(self.path("link.svg"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("link.svg: cannot write it: it is a symbolic link, and gestured writes through none", r.stderr)
        self.assertFalse(os.path.exists(self.path("target")))
        # One's own picture is replaced; a file of another user's is left alone.
        self.assertEqual(svg(self.path("mine.svg")).returncode, 0)
        self.assertEqual(svg(self.path("mine.svg")).returncode, 0)
        self.assertIn("<svg", open(self.path("mine.svg")).read())
        self.assertEqual(os.stat(self.path("mine.svg")).st_mode & 0o777, 0o600)  # the taps show what was typed
        if os.geteuid() == 0:
            with open(self.path("theirs.svg"), "w") as f:
                f.write("theirs")
            os.chown(self.path("theirs.svg"), 65534, 65534)
            r = svg(self.path("theirs.svg"))
            self.assertEqual(r.returncode, 1)
            self.assertIn("theirs.svg: cannot write it: it belongs to uid 65534, not to you", r.stderr)
            self.assertEqual(open(self.path("theirs.svg")).read(), "theirs")

    def test_a_long_replay_shows_progress_on_a_terminal_only(self):
        self.assertIn("] 2/3", self.replay_with_stderr_on_a_terminal(stdout_too=False))
        shown = self.replay_with_stderr_on_a_terminal(stdout_too=True)
        self.assertNotIn("/3", shown)
        self.assertIn("gesture checkmark (checkmark) recognized", shown)
        recordings = [checkmark().save(self.path(f"c{i}.evemu")) for i in range(3)]
        r = subprocess.run([GESTURED, "replay", *recordings], capture_output=True, text=True, timeout=30)
        self.assertEqual(r.stderr, "")

if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    GESTURED = os.path.abspath(sys.argv.pop(1))
    main()
