#!/usr/bin/env python3
"""The studio as a person uses it: gestured-studio in headless sway, driven through its
accessibility names (tests/atspi_driver.py over AT-SPI), its screen taken with grim.

    tests/studio.py GESTURED_STUDIO GESTURED"""
import os, shutil, subprocess, sys, tempfile, time, unittest
import fixtures, test_apps

STUDIO = GESTURED = None
HERE = os.path.dirname(os.path.abspath(__file__))

# A user's file with a comment and spacing of their own, above a gesture the studio never touches.
HAND_WRITTEN = fixtures.suite_config("studio-hand-written")

MACHINE = """[daemon]
isolate = true

[[gesture]]
name = "menu"
type = "long-press"
fingers = 5
command = "kiosk-menu"
"""


class Studio(unittest.TestCase):
    def setUp(self):
        self.sway = test_apps.Sway(self, [])
        home = self.sway.dir
        self.config = os.path.join(home, ".config", "gestured", "gestured.toml")
        os.makedirs(os.path.dirname(self.config))
        with open(self.config, "w") as f:
            f.write(HAND_WRITTEN)
        machine = os.path.join(home, "machine.toml")
        with open(machine, "w") as f:
            f.write(MACHINE)
        if self.sway.user:
            subprocess.run(["chown", "-R", "65534:65534", home], check=True)
        address = subprocess.run(self.sway.user + ["dbus-daemon", "--session", "--fork", "--print-address=1", "--print-pid=1"],
                                 capture_output=True, text=True, check=True, env=self.sway.env).stdout.split()
        self.addCleanup(subprocess.run, ["kill", address[1]])
        # As if on GNOME: the studio lists its own touch gestures to take over.
        self.env = dict(self.sway.env, WAYLAND_DISPLAY="wayland-1", DBUS_SESSION_BUS_ADDRESS=address[0], GDK_BACKEND="wayland",
                        XDG_CURRENT_DESKTOP="GNOME")
        self.studio = subprocess.Popen(self.sway.user + [STUDIO, "--machine", machine], env=self.env,
                                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.addCleanup(self.studio.stdout.close)
        self.addCleanup(self.studio.wait)
        self.addCleanup(self.studio.kill)
        self.driver = subprocess.Popen(self.sway.user + ["/usr/bin/python3", os.path.join(HERE, "atspi_driver.py")], env=self.env,
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        for pipe in (self.driver.stdin, self.driver.stdout):
            self.addCleanup(pipe.close)
        self.addCleanup(self.driver.wait)
        self.addCleanup(self.driver.kill)
        self.assertEqual(self.ask("app gestured-studio"), "ok")

    def ask(self, command):
        self.driver.stdin.write(command + "\n")
        self.driver.stdin.flush()
        return self.driver.stdout.readline().rstrip("\n")

    def do(self, *commands):
        """Each command as a person would: a press or a text typed; counts them."""
        for command in commands:
            self.assertEqual(self.ask(command), "ok", command)
        return len(commands)

    def screenshot(self, name):
        path = os.path.join(os.environ.get("STUDIO_SHOTS", self.sway.dir), name + ".png")
        with open(path, "wb") as f:
            subprocess.run(self.sway.user + ["grim", "-o", "HEADLESS-1", "-"], env=self.env, check=True, stdout=f)
        return path

    def file(self, becomes=None):
        """The user's file, once it is `becomes` (or has it) when asked, within 5 s."""
        for _ in range(50):
            with open(self.config) as f:
                text = f.read()
            if becomes is None or becomes(text):
                break
            time.sleep(0.1)
        return text

    def check(self):
        return subprocess.run([GESTURED, "check", "--user", self.config], capture_output=True, text=True)

    def test_a_gesture_made_by_touch_is_saved_checked_and_the_hand_written_one_kept(self):
        self.assertIn("gesture back", self.ask("names"))
        self.assertIn("machine's gesture menu", self.ask("names"))
        # A new gesture starts as a one-finger swipe: six presses make this one.
        touches = self.do("click Add gesture", "type name two-finger-swipe", "click fingers 2", "click direction right",
                          "type keys ctrl+Tab", "click Save")
        self.assertLessEqual(touches, 6)
        text = self.file(becomes=lambda text: "two-finger-swipe" in text)
        self.assertTrue(text.startswith(HAND_WRITTEN), text)
        self.assertIn('\n[[gesture]]\nname = "two-finger-swipe"\ntype = "swipe"\nfingers = 2\ndirection = "right"\nkeys = "ctrl+Tab"\n', text)
        self.assertEqual(self.check().returncode, 0, self.check().stderr)
        self.assertIn("gesture two-finger-swipe", self.ask("names"))
        self.screenshot("studio-saved")

    def test_an_edge_pull_down_and_a_long_press_right_click_each_in_six_presses(self):
        self.assertLessEqual(self.do("click Add gesture", "type name pull-down", "click type edge-swipe", "click edge top",
                                     "type command notify-send pulled", "click Save"), 6)
        self.assertLessEqual(self.do("click Add gesture", "type name right-click", "click type long-press", "click click right",
                                     "click Save"), 6)
        text = self.file(becomes=lambda text: "right-click" in text)
        self.assertIn('name = "pull-down"\ntype = "edge-swipe"\nedge = "top"\ncommand = "notify-send pulled"\n', text)
        self.assertIn('name = "right-click"\ntype = "long-press"\nclick = "right"\n', text)
        self.assertEqual(self.check().returncode, 0, self.check().stderr)

    def test_the_desktops_own_gesture_is_taken_over_with_its_touches(self):
        self.assertIn("Take over Three fingers left: the next workspace", self.ask("names"))
        self.do("click Take over Three fingers left: the next workspace")
        # The machine's file here isolates: the desktop will not see the touches.
        self.assertIn("the desktop no longer sees these touches", self.ask("text status"))
        self.do("type keys super+ctrl+PageDown", "click Save")
        text = self.file(becomes=lambda text: "workspace-next" in text)
        self.assertIn('name = "workspace-next"\ntype = "swipe"\nfingers = 3\ndirection = "left"\nkeys = "super+ctrl+PageDown"\n', text)

    def test_an_error_is_said_at_its_field_and_nothing_is_written(self):
        self.do("click Add gesture", "type name bad", "click type swipe", "click direction up", "type keys ctrl+Nothing", "click Save")
        said = self.ask("text keys error")
        self.assertIn("Nothing", said)
        self.assertIn("not saved", self.ask("text status"))
        self.assertEqual(self.file(), HAND_WRITTEN)

    def test_editing_changes_the_lines_it_changes_alone(self):
        self.do("click Edit back", "type command notify-send back", "click Save")
        self.file(becomes=lambda text: "notify-send" in text)
        with open(self.config, "w") as f:  # another program writes it; then a value no button offers is kept through an edit
            f.write(HAND_WRITTEN.replace("fingers = 3", "fingers = 7"))
        self.do("click Save")
        self.assertIn("another program changed", self.ask("text status"))
        self.do("click Edit back", "type command ", "click Save")
        self.assertEqual(self.file(becomes=lambda text: "notify-send" not in text), HAND_WRITTEN.replace("fingers = 3", "fingers = 7"))
        self.do("click Edit back", "click fingers 4", "click Save")
        self.assertEqual(self.file(becomes=lambda text: "fingers = 4" in text), HAND_WRITTEN.replace("fingers = 3", "fingers = 4"))
        self.do("click Remove back")
        self.assertEqual(self.file(becomes=lambda text: text == ""), "")


if __name__ == "__main__":
    if len(sys.argv) < 3 or not shutil.which("sway") or not os.path.exists("/usr/bin/python3"):
        sys.exit(__doc__)
    GESTURED = os.path.abspath(sys.argv.pop(2))
    STUDIO = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
