#!/usr/bin/env python3
"""Gestures per application in real desktops, headless: the shipped KWin script in a real
KWin (`kwin_wayland --virtual`) and the shipped GNOME Shell extension in a real GNOME Shell
(`--headless`), each with two real Wayland clients (foot, app ids firefox and kitty)
focused in turn by the desktop itself, and the daemon replaying a swipe every 2 s on a
private session bus: the swipe fires firefox's binding only while firefox is in front.
Heavier than tests/test_apps.py (each desktop takes seconds to start and software GL): a
CI step of its own. GNOME Shell's windows come and go rather than being activated: its
D-Bus Eval is off outside unsafe mode.

    tests/real_desktops.py GESTURED
"""
import os, shutil, signal, subprocess, sys, time, unittest
import test_daemon
import test_apps
from test_control import wait_on_the_bus
from test_daemon import Harness

HERE = os.path.dirname(os.path.abspath(__file__))


def bus_names(env):
    out = subprocess.run(["dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/",
                          "org.freedesktop.DBus.ListNames"], env=env, capture_output=True, text=True).stdout
    return [line.split('"')[1] for line in out.splitlines() if line.strip().startswith("string")]


def call(env, *arguments):
    return subprocess.run(["dbus-send", "--session", "--print-reply", *arguments], env=env, capture_output=True, text=True)


class RealDesktops(Harness):
    def setUp(self):
        super().setUp()
        for name in test_apps.DESKTOP_VARIABLES:
            self.env.pop(name, None)
        self.start_bus()
        self.runtime = self.path("run")
        os.makedirs(self.runtime, mode=0o700)

    def clients(self, display):
        """A GTK 4 window with app id firefox, then one with kitty, on `display` (foot
        divides by the virtual output's size in millimetres, 0); kitty ends in front."""
        env = dict(self.env, WAYLAND_DISPLAY=display, XDG_RUNTIME_DIR=self.runtime, GDK_BACKEND="wayland")
        clients = {}
        for app in ("firefox", "kitty"):
            clients[app] = subprocess.Popen(["gjs", os.path.join(HERE, "gtk_window.js"), app], env=env,
                                            stdout=subprocess.DEVNULL, stderr=open(self.path(f"{app}.log"), "w"))
            self.addCleanup(clients[app].kill)
            time.sleep(2)
            self.assertIsNone(clients[app].poll(), open(self.path(f"{app}.log")).read())
        return clients

    def swipes_while(self, changes, env, gap_s=2):
        """The daemon in `env` replaying swipes every `gap_s` from its start; `changes[i]()`
        half a gap after swipe i."""
        out = self.path("fired.txt")
        config = self.write("gestured.toml", test_apps.apps_config(out))
        start = time.monotonic()
        daemon = subprocess.Popen([test_daemon.GESTURED, "run", "--config", config, "--replay",
                                   test_apps.swipes(5, int(gap_s * 1000)).save(self.path("rec.evemu")), "--verbose"],
                                  env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.addCleanup(daemon.kill)
        wait_on_the_bus(env)
        for i, change in enumerate(changes):
            time.sleep(max(0, start + gap_s * (i + 0.5) - time.monotonic()))
            change()
        log = daemon.communicate(timeout=60)[1]
        fired = open(out).read().split() if os.path.exists(out) else []
        return fired, log

    def test_kwin_runs_the_shipped_script_and_says_the_app_in_front(self):
        # Debian gives kwin_wayland a file capability (CAP_SYS_NICE), which a process that
        # may gain none cannot execute: a copy without it runs the same.
        kwin = self.path("kwin_wayland")
        shutil.copy(shutil.which("kwin_wayland"), kwin)
        env = dict(self.env, XDG_RUNTIME_DIR=self.runtime, KWIN_COMPOSE="Q")
        server = subprocess.Popen([kwin, "--virtual", "--socket", "wayland-kwin", "--width", "1280", "--height", "800"],
                                  env=env, stdout=open(self.path("kwin.log"), "w"), stderr=subprocess.STDOUT)
        self.addCleanup(server.kill)
        test_apps.waited("KWin", lambda: "org.kde.KWin" in bus_names(self.env), seconds=60)
        clients = self.clients("wayland-kwin")

        def activate(app):
            """Asks KWin itself to put `app` in front: a script of its own, loaded and run."""
            def change():
                script = self.write(f"activate-{app}-{time.monotonic_ns()}.js",
                                    "for (const c of workspace.clientList()) {\n"
                                    "    print('window ' + c.resourceClass);\n"
                                    f"    if (c.resourceClass == '{app}') workspace.activeClient = c;\n}}\n")
                name = os.path.basename(script)
                loaded = call(self.env, "--dest=org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting.loadScript",
                              f"string:{script}", f"string:{name}")
                number = loaded.stdout.split()[-1]
                if call(self.env, "--dest=org.kde.KWin", f"/Scripting/Script{number}", "org.kde.kwin.Script.run").returncode:
                    call(self.env, "--dest=org.kde.KWin", f"/{number}", "org.kde.kwin.Script.run")
            return change

        def close_all():
            for client in clients.values():
                client.kill()
        fired, log = self.swipes_while([activate("firefox"), activate("kitty"), activate("firefox"), close_all],
                                       dict(self.env, XDG_CURRENT_DESKTOP="KDE"))
        self.assertIn("KWin: loaded gestured's script", log)
        self.assertEqual(fired, ["global", "firefox", "global", "firefox", "global"], log[-3000:] + open(self.path("kwin.log")).read()[-2000:])


    def test_gnome_shell_runs_the_shipped_extension_and_says_the_app_in_front(self):
        """GNOME Shell 43, headless, with the extension for 43 and 44 installed for the user
        and enabled through the Shell's own D-Bus interface (its settings in memory); a
        private bus stands in for the system bus. Mutter gives the focus to each window
        that opens and back to the one below when it closes: firefox opens, kitty opens
        over it, kitty closes, firefox closes."""
        uuid = "gestured-43@gestured.github.io"
        data = self.path("data")
        shutil.copytree(os.path.join(HERE, "..", "desktop", "gnome-shell", uuid), os.path.join(data, "gnome-shell", "extensions", uuid))
        system = subprocess.run(["dbus-daemon", "--session", "--fork", "--print-address=1", "--print-pid=1"],
                                capture_output=True, text=True, check=True).stdout.split("\n")
        self.addCleanup(os.kill, int(system[1]), signal.SIGTERM)
        env = dict(self.env, XDG_RUNTIME_DIR=self.runtime, XDG_DATA_HOME=data, GSETTINGS_BACKEND="memory",
                   DBUS_SYSTEM_BUS_ADDRESS=system[0])
        shell = subprocess.Popen(["gnome-shell", "--headless", "--wayland", "--no-x11", "--virtual-monitor", "1280x800",
                                  "--wayland-display", "wayland-gnome"],
                                 env=env, stdout=open(self.path("gnome-shell.log"), "w"), stderr=subprocess.STDOUT)
        self.addCleanup(shell.kill)
        # Its name comes before its objects: enabling is tried until the Shell answers.
        test_apps.waited("GNOME Shell enabling the extension", lambda: "boolean true" in call(
            self.env, "--dest=org.gnome.Shell", "/org/gnome/Shell", "org.gnome.Shell.Extensions.EnableExtension",
            f"string:{uuid}").stdout, seconds=90)
        # GNOME Shell shows the overview once its start is done, and a window that opens
        # there is not given the focus: it is left until it stays left for a second.
        def overview_left():
            call(self.env, "--dest=org.gnome.Shell", "/org/gnome/Shell", "org.freedesktop.DBus.Properties.Set",
                 "string:org.gnome.Shell", "string:OverviewActive", "variant:boolean:false")
            time.sleep(1)
            return "boolean false" in call(self.env, "--dest=org.gnome.Shell", "/org/gnome/Shell", "org.freedesktop.DBus.Properties.Get",
                                           "string:org.gnome.Shell", "string:OverviewActive").stdout
        test_apps.waited("GNOME Shell leaving the overview", lambda: overview_left() and overview_left(), seconds=60)
        test_apps.waited("the extension running", lambda: "double 1" in call(
            self.env, "--dest=org.gnome.Shell", "/org/gnome/Shell", "org.gnome.Shell.Extensions.GetExtensionInfo",
            f"string:{uuid}").stdout)
        clients = {}

        def open_window(app):
            def change():
                clients[app] = subprocess.Popen(["gjs", os.path.join(HERE, "gtk_window.js"), app],
                                                env=dict(env, WAYLAND_DISPLAY="wayland-gnome", GDK_BACKEND="wayland"),
                                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                self.addCleanup(clients[app].kill)
            return change

        def close_window(app):
            return lambda: clients[app].kill()
        fired, log = self.swipes_while([open_window("firefox"), open_window("kitty"), close_window("kitty"), close_window("firefox")],
                                       dict(self.env, XDG_CURRENT_DESKTOP="GNOME"), gap_s=4)
        self.assertIn(f"GNOME Shell: {uuid} runs", log)
        self.assertEqual(fired, ["global", "firefox", "global", "firefox", "global"],
                         log[-3000:] + open(self.path("gnome-shell.log")).read()[-2000:])


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    test_daemon.GESTURED = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
