#!/usr/bin/env python3
"""Gestures per application in real desktops, headless: the shipped KWin script in a real
KWin (`kwin_wayland --virtual`) and the shipped GNOME Shell extension in a real GNOME Shell
(`--headless`), each with two real Wayland clients (GTK 4 windows, app ids firefox and
kitty) put in front by the desktop itself, and the daemon replaying a swipe every 1.5 s on
a private session bus: a swipe fires firefox's binding only while firefox is in front.
Whatever the desktop's release: KWin 5 and 6 (their scripting differs), GNOME Shell 43 and
44 (the legacy extension) or 45 and later (the ES module). No step waits a fixed time for
the desktop: each waits until the daemon says the application in front changed (its
--print lines), and counts the first swipe begun after that. Heavier than
tests/test_apps.py (each desktop takes seconds to start and software GL): a CI step of its
own, also run in Debian 13's and unstable's roots (tests/in-root). GNOME Shell's windows
come and go rather than being activated: its D-Bus Eval is off outside unsafe mode.

    tests/real_desktops.py GESTURED
"""
import os, re, shutil, signal, subprocess, sys, tempfile, time, unittest
import test_daemon
import test_apps
import following
from gnome_shell import overview_left
from test_daemon import Harness

HERE = os.path.dirname(os.path.abspath(__file__))
RENDER_NODE, CARD = "/dev/dri/renderD128", "/dev/dri/card0"


def bus_names(env):
    out = subprocess.run(["dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/",
                          "org.freedesktop.DBus.ListNames"], env=env, capture_output=True, text=True).stdout
    return [line.split('"')[1] for line in out.splitlines() if line.strip().startswith("string")]


def call(env, *arguments):
    return subprocess.run(["dbus-send", "--session", "--print-reply", *arguments], env=env, capture_output=True, text=True)


def need(case, command, package):
    """Skips `case` when `command` is not here because this release has no `package`, or
    its archive could not install it on the day the root was made (scripts/debian-root
    names those); fails it when the package exists and is not installed."""
    if shutil.which(command):
        return
    if os.path.exists("/gestured-root-missing") and package in open("/gestured-root-missing").read().split():
        case.skipTest(f"the archive could not install {package} when this root was made")
    if subprocess.run(["apt-cache", "show", package], capture_output=True).returncode:
        case.skipTest(f"this Debian release has no {package}")
    case.fail(f"{package} is not installed: make deps (or scripts/debian-root) installs it")


class RealDesktops(Harness):
    def setUp(self):
        super().setUp()
        for name in test_apps.DESKTOP_VARIABLES:
            self.env.pop(name, None)
        self.start_bus()
        self.runtime = self.path("run")
        os.makedirs(self.runtime, mode=0o700)

    def clients(self, display):
        """A GTK 4 window with app id firefox and one with kitty on `display`, left to start:
        the steps that use them put them in front until the daemon says so."""
        env = dict(self.env, WAYLAND_DISPLAY=display, XDG_RUNTIME_DIR=self.runtime, GDK_BACKEND="wayland")
        clients = {}
        for app in ("firefox", "kitty"):
            clients[app] = subprocess.Popen(["gjs", os.path.join(HERE, "gtk_window.js"), app], env=env,
                                            stdout=subprocess.DEVNULL, stderr=open(self.path(f"{app}.log"), "w"))
            self.addCleanup(clients[app].kill)
        return clients

    def follow(self, steps, env, desktop_log):
        """following.follow with the per-application configuration and a swipe every 1.5 s."""
        config = self.write("gestured.toml", test_apps.apps_config(self.path("fired.txt")))
        recording = test_apps.swipes(120, 1500).save(self.path("rec.evemu"))
        return following.follow(self, steps, env, config, recording, desktop_log)

    def start_kwin(self, settings=""):
        """A real KWin, headless (1280×800), on the test's session bus; `settings`: its kwinrc."""
        # Debian gives kwin_wayland a file capability (CAP_SYS_NICE), which a process that
        # may gain none cannot execute: a copy without it runs the same.
        need(self, "kwin_wayland", "kwin-wayland")
        kwin = self.path("kwin_wayland")
        shutil.copy(shutil.which("kwin_wayland"), kwin)
        config = self.path("config")
        os.makedirs(config, exist_ok=True)
        with open(os.path.join(config, "kwinrc"), "w") as f:
            f.write(settings)
        env = dict(self.env, XDG_RUNTIME_DIR=self.runtime, KWIN_COMPOSE="Q", XDG_CONFIG_HOME=config)
        server = subprocess.Popen([kwin, "--virtual", "--socket", "wayland-kwin", "--width", "1280", "--height", "800"],
                                  env=env, stdout=open(self.path("kwin.log"), "w"), stderr=subprocess.STDOUT)
        self.addCleanup(server.kill)
        test_apps.waited("KWin", lambda: "org.kde.KWin" in bus_names(self.env), seconds=60)

    def start_gnome_shell(self, settings=None):
        """A real GNOME Shell, headless (1280×800), with the extension for its version
        installed for the user and enabled through the Shell's own D-Bus interface, once
        out of its overview; a private bus stands in for the system bus. Its settings in
        memory, or with `settings` in a key file of that text. Returns the extension's
        uuid, and what opens a GTK 4 window of an app id (and size) and returns it."""
        need(self, "gnome-shell", "gnome-shell")
        version = int(re.search(r"(\d+)", subprocess.run(["gnome-shell", "--version"], capture_output=True, text=True).stdout).group(1))
        uuid = "gestured-43@gestured.github.io" if version < 45 else "gestured@gestured.github.io"
        data = self.path("data")
        shutil.copytree(os.path.join(HERE, "..", "desktop", "gnome-shell", uuid), os.path.join(data, "gnome-shell", "extensions", uuid))
        system = subprocess.run(["dbus-daemon", "--session", "--fork", "--print-address=1", "--print-pid=1"],
                                capture_output=True, text=True, check=True).stdout.split("\n")
        self.addCleanup(os.kill, int(system[1]), signal.SIGTERM)
        env = dict(self.env, XDG_RUNTIME_DIR=self.runtime, XDG_DATA_HOME=data, GSETTINGS_BACKEND="memory",
                   DBUS_SYSTEM_BUS_ADDRESS=system[0])
        if settings is not None:
            config = self.path("config")
            os.makedirs(os.path.join(config, "glib-2.0", "settings"))
            with open(os.path.join(config, "glib-2.0", "settings", "keyfile"), "w") as f:
                f.write(settings)
            env.update(GSETTINGS_BACKEND="keyfile", XDG_CONFIG_HOME=config)
        shell = subprocess.Popen(["gnome-shell", "--headless", "--wayland", "--no-x11", "--virtual-monitor", "1280x800",
                                  "--wayland-display", "wayland-gnome"],
                                 env=env, stdout=open(self.path("gnome-shell.log"), "w"), stderr=subprocess.STDOUT)
        self.addCleanup(shell.kill)
        # Its name comes before its objects: enabling is tried until the Shell answers.
        test_apps.waited("GNOME Shell enabling the extension", lambda: "boolean true" in call(
            self.env, "--dest=org.gnome.Shell", "/org/gnome/Shell", "org.gnome.Shell.Extensions.EnableExtension",
            f"string:{uuid}").stdout, seconds=90)
        def shell(*args):
            return call(self.env, "--dest=org.gnome.Shell", "/org/gnome/Shell", *args).stdout
        test_apps.waited("GNOME Shell leaving the overview", lambda: overview_left(shell) and overview_left(shell), seconds=60)
        test_apps.waited("the extension running", lambda: "double 1" in call(
            self.env, "--dest=org.gnome.Shell", "/org/gnome/Shell", "org.gnome.Shell.Extensions.GetExtensionInfo",
            f"string:{uuid}").stdout)

        def open_window(app, *size):
            client = subprocess.Popen(["gjs", os.path.join(HERE, "gtk_window.js"), app, *map(str, size)],
                                      env=dict(env, WAYLAND_DISPLAY="wayland-gnome", GDK_BACKEND="wayland"),
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            self.addCleanup(client.kill)
            return client
        return uuid, open_window

    # Where each swipe starts (mm of the panel's 295, on a 1280-pixel-wide screen): the
    # middle (651 px), where a 400-pixel window centred is; beside it (933 px), within a
    # 1000-pixel one centred; and the right edge (1237 px), beside both. Swipes go left.
    MIDDLE, BESIDE, EDGE = 150, 215, 285

    def under_the_finger(self, env, desktop_log, open_window):
        """apps_window = "touched" with two windows the desktop centres: firefox 1000×600
        opens, kitty 400×500 over it (and in front), kitty closes, firefox closes. Each
        swipe answers to the window it starts on: kitty's while it is in front, firefox's
        beside it, none's at the edge."""
        config = self.write("gestured.toml", test_apps.apps_config(self.path("fired.txt"), apps_window="touched"))
        starts = [self.MIDDLE, self.BESIDE, self.EDGE]
        recording = test_apps.swipes(160, 1500, starts_mm=starts * 54).save(self.path("rec.evemu"))
        clients = {}

        def opening(app, *size):
            return lambda: clients.__setitem__(app, open_window(app, *size))

        def closing(app):
            return lambda: clients[app].kill()
        return following.under_the_finger(self, [(opening("firefox", 1000, 600), 1), (opening("kitty", 400, 500), 2),
                                                 (closing("kitty"), 1), (closing("firefox"), 0)],
                                          env, config, recording, starts, desktop_log=desktop_log)

    UNDER_THE_FINGER = [["firefox", "firefox", "global"], ["global", "firefox", "global"],
                        ["firefox", "firefox", "global"], ["global", "global", "global"]]

    def test_kwin_runs_the_shipped_script_and_says_the_app_in_front(self):
        self.start_kwin()
        clients = self.clients("wayland-kwin")

        def activate(app):
            """Asks KWin itself to put `app` in front: a script of its own, loaded and run
            (KWin 6: windowList and activeWindow; 5: clientList and activeClient)."""
            def change():
                script = self.write(f"activate-{app}-{time.monotonic_ns()}.js",
                                    "const windows = workspace.windowList ? workspace.windowList() : workspace.clientList();\n"
                                    "for (const w of windows) {\n"
                                    f"    if (w.resourceClass != '{app}') continue;\n"
                                    "    if (workspace.windowList) workspace.activeWindow = w; else workspace.activeClient = w;\n}\n")
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
        fired, log = self.follow([(activate("kitty"), True, "kitty"), (activate("firefox"), True, "firefox"),
                                  (activate("kitty"), True, "kitty"), (activate("firefox"), True, "firefox"),
                                  (close_all, False, "")],
                                 dict(self.env, XDG_CURRENT_DESKTOP="KDE"), self.path("kwin.log"))
        self.assertIn("KWin: loaded gestured's script", log)
        self.assertEqual(fired, ["global", "firefox", "global", "firefox", "global"])

    def test_gnome_shell_runs_the_shipped_extension_and_says_the_app_in_front(self):
        """GNOME Shell, headless, with the extension for its version installed for the user
        and enabled through the Shell's own D-Bus interface (its settings in memory); a
        private bus stands in for the system bus. Mutter gives the focus to each window
        that opens and back to the one below when it closes: firefox opens, kitty opens
        over it, kitty closes, firefox closes."""
        uuid, open_window = self.start_gnome_shell()
        fired, log = self.open_and_close(dict(self.env, XDG_CURRENT_DESKTOP="GNOME"), self.path("gnome-shell.log"), open_window)
        self.assertIn(f"GNOME Shell: {uuid} runs", log)
        self.assertEqual(fired, ["global", "firefox", "global", "firefox", "global"])

    def test_kwin_says_which_window_is_under_the_finger(self):
        """The shipped KWin script says where the windows are (KWin centres them, as its
        placement setting says)."""
        self.start_kwin("[Windows]\nPlacement=Centered\n")

        def open_window(app, width, height):
            client = subprocess.Popen(["gjs", os.path.join(HERE, "gtk_window.js"), app, str(width), str(height)],
                                      env=dict(self.env, WAYLAND_DISPLAY="wayland-kwin", XDG_RUNTIME_DIR=self.runtime, GDK_BACKEND="wayland"),
                                      stdout=subprocess.DEVNULL, stderr=open(self.path(f"{app}.log"), "w"))
            self.addCleanup(client.kill)
            return client
        fired = self.under_the_finger(dict(self.env, XDG_CURRENT_DESKTOP="KDE"), self.path("kwin.log"), open_window)
        self.assertEqual(fired, self.UNDER_THE_FINGER)

    def test_gnome_shell_says_which_window_is_under_the_finger(self):
        """The shipped GNOME Shell extension says where the windows are (Mutter centres
        them, as its center-new-windows setting says)."""
        _, open_window = self.start_gnome_shell("[org/gnome/mutter]\ncenter-new-windows=true\n")
        fired = self.under_the_finger(dict(self.env, XDG_CURRENT_DESKTOP="GNOME"), self.path("gnome-shell.log"), open_window)
        self.assertEqual(fired, self.UNDER_THE_FINGER)

    def wlroots(self, command, config_name=None, config="", gles=False):
        """A wlroots compositor, headless with the pixman renderer (with `gles`, GLES in
        software on the machine's render node, as a member of its groups), as nobody (sway
        and wayfire refuse root), in a runtime folder of its own; returns its environment
        for clients and the daemon (its Wayland display named), and a function that opens
        a foot window of an app id and returns it."""
        if gles and not os.path.exists(RENDER_NODE):
            self.skipTest(f"{command[0]} renders with GLES only and this machine has no {RENDER_NODE} "
                          "(tests/desktops-in-root --vm gives it one)")
        need(self, command[0], command[0])
        runtime = tempfile.mkdtemp(prefix="gestured-wlroots-")
        self.addCleanup(shutil.rmtree, runtime, True)
        os.chown(runtime, 65534, 65534)
        os.chmod(runtime, 0o700)
        if config_name:
            with open(os.path.join(runtime, config_name), "w") as f:
                f.write(config)
        user = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        env = dict(self.env, HOME=runtime, XDG_RUNTIME_DIR=runtime, WLR_BACKENDS="headless", WLR_RENDERER="pixman",
                   WLR_LIBINPUT_NO_DEVICES="1")
        if gles:
            # Mesa falls back to software through the card's primary node (its group: video).
            user[-1] = f"--groups={os.stat(RENDER_NODE).st_gid},{os.stat(CARD).st_gid}"
            del env["WLR_RENDERER"]
            env.update(WLR_RENDER_DRM_DEVICE=RENDER_NODE, GALLIUM_DRIVER="llvmpipe")
        log = self.path("compositor.log")
        server = subprocess.Popen(user + [arg.replace("RUNTIME", runtime) for arg in command], env=env,
                                  stdout=open(log, "w"), stderr=subprocess.STDOUT)
        self.addCleanup(server.kill)
        try:
            display = test_apps.waited(command[0], lambda: next((f for f in sorted(os.listdir(runtime)) if re.fullmatch(r"wayland-\d+", f)), None),
                                       seconds=90 if gles else 30)
        except AssertionError as stopped:
            with open(log) as said:
                raise AssertionError(f"{stopped}:\n{said.read()[-3000:]}") from None
        env["WAYLAND_DISPLAY"] = display

        def open_window(app):
            client = subprocess.Popen(user + ["foot", "--app-id", app, "sleep", "600"], env=env,
                                      stdout=subprocess.DEVNULL, stderr=open(self.path(f"{app}.log"), "w"))
            self.addCleanup(client.kill)
            return client
        return env, log, open_window

    def open_and_close(self, daemon_env, desktop_log, open_window):
        """`follow` in `daemon_env` (without the compositor's own WLR_ settings) while
        firefox opens, kitty opens over it, kitty closes, firefox closes (`open_window(app)`
        returns a client): the desktop gives the focus to each window that opens and back
        to the one below when it closes."""
        clients = {}

        def opening(app):
            return lambda: clients.__setitem__(app, open_window(app))

        def closing(app):
            return lambda: clients[app].kill()
        daemon_env = {key: value for key, value in daemon_env.items() if not key.startswith("WLR_")}
        return self.follow([(None, False, ""), (opening("firefox"), False, "firefox"), (opening("kitty"), False, "kitty"),
                            (closing("kitty"), False, "firefox"), (closing("firefox"), False, "")], daemon_env, desktop_log)

    def test_sway_says_on_its_ipc_socket(self):
        env, log, open_window = self.wlroots(["sway", "-c", "RUNTIME/config"], "config", "output HEADLESS-1 resolution 1280x800\n")
        env["SWAYSOCK"] = test_apps.waited("sway's socket", lambda: next(
            (os.path.join(env["XDG_RUNTIME_DIR"], f) for f in os.listdir(env["XDG_RUNTIME_DIR"]) if f.startswith("sway-ipc.")), None))
        fired, gestured_log = self.open_and_close(env, log, open_window)
        self.assertIn("sway: following the application in front", gestured_log)
        self.assertEqual(fired, ["global", "firefox", "global", "firefox", "global"])

    def test_wayfire_says_as_a_wlroots_compositor(self):
        """wayfire: its foreign-toplevel plugin, through gestured-toplevels. It renders with
        GLES only: here in software, on a VM's virtio-gpu render node."""
        env, log, open_window = self.wlroots(["wayfire", "-c", "RUNTIME/wayfire.ini"], "wayfire.ini",
                                             "[core]\nplugins = foreign-toplevel\n", gles=True)
        fired, gestured_log = self.open_and_close(env, log, open_window)
        self.assertIn("wlr-foreign-toplevel: following the application in front", gestured_log)
        self.assertEqual(fired, ["global", "firefox", "global", "firefox", "global"])

    def test_labwc_says_as_a_wlroots_compositor(self):
        """labwc: its foreign-toplevel manager, through gestured-toplevels."""
        env, log, open_window = self.wlroots(["labwc", "-C", "RUNTIME"])
        fired, gestured_log = self.open_and_close(env, log, open_window)
        self.assertIn("wlr-foreign-toplevel: following the application in front", gestured_log)
        self.assertEqual(fired, ["global", "firefox", "global", "firefox", "global"])


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    test_daemon.GESTURED = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
