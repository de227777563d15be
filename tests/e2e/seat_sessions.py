"""What the service suites that log users in share (inside scripts/vm-run-systemd): running
a command, the service's journal, a file that may not be there yet, the logind session a
unit's process is in, and the machine's configuration put in force on an isolated panel."""
import os, re, subprocess

from fixtures import HEADER
from service_journal import journal  # noqa: F401 (the suites take it from here too)
from uinput_panel import Panel, check, twins_in, wait_for


def run(*command, **kw):
    return subprocess.run(command, capture_output=True, text=True, timeout=60, **kw)


def read(path):
    return open(path).read() if os.path.exists(path) else ""


def session_of(unit):
    """The logind session a unit's process is in (its scope's name), once it is."""
    pid = run("systemctl", "show", "-p", "MainPID", "--value", unit).stdout.strip()
    found = re.search(r"/session-(\w+)\.scope", read(f"/proc/{pid}/cgroup")) if pid.isdigit() else None
    return found.group(1) if found else None


def isolated_panel(config, name):
    """The machine's configuration `config` in force (the service restarted on it), and a
    new panel called `name` that it isolates (checked)."""
    with open("/etc/gestured/gestured.toml", "w") as f:
        f.write(config)
    run("systemctl", "reset-failed", "gestured")
    run("systemctl", "restart", "gestured")
    panel = Panel(HEADER.replace("gestured test panel", name))
    check("the service isolates the panel", wait_for(30, lambda: twins_in(journal(), panel)))
    return panel


class SwaySession:
    """A user's graphical session as a login makes it (PAM, logind: `systemd-run
    -p PAMName=login` on a VT): sway headless (1280×800), then the user's agent following
    it ($SWAYSOCK), both in the session's scope; the session activated, and the service
    said to have taken the user's configuration. `env` runs the user's programs in it
    (`as_user`), `swaymsg` asks sway."""
    def __init__(self, user, tty, config_text):
        run("useradd", "--create-home", user)
        self.user = user
        self.uid = run("id", "-u", user).stdout.strip()
        config = f"/home/{user}/.config/gestured/gestured.toml"
        os.makedirs(os.path.dirname(config))
        with open(config, "w") as f:
            f.write(config_text)
        self.config = config
        run("chown", "-R", f"{user}:{user}", f"/home/{user}/.config")
        self.runtime = runtime = f"/run/user/{self.uid}"
        self.agent_log = f"/tmp/agent-{user}.txt"
        with open(f"/tmp/sway-{user}.conf", "w") as f:
            f.write("output HEADLESS-1 resolution 1280x800\n")
        with open(f"/tmp/{user}-session.sh", "w") as f:
            f.write(f"""export WLR_BACKENDS=headless WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1
sway -c /tmp/sway-{user}.conf > /tmp/sway-{user}.txt 2>&1 &
while ! ls {runtime}/sway-ipc.*.sock > /dev/null 2>&1; do sleep 0.2; done
export SWAYSOCK=$(ls {runtime}/sway-ipc.*.sock) WAYLAND_DISPLAY=wayland-1
exec gestured agent --verbose
""")
        run("systemd-run", f"--unit={user}-session", "-p", "PAMName=login", "-p", f"User={user}", "-p", f"TTYPath=/dev/{tty}",
            "-p", "StandardInput=tty-force", "-p", f"StandardError=file:{self.agent_log}", "sh", f"/tmp/{user}-session.sh")
        check(f"logind opens {user}'s session, sway and the agent in it", wait_for(60, lambda: session_of(f"{user}-session")))
        check("sway runs headless in it", wait_for(60, lambda: any(f.startswith("sway-ipc.") for f in os.listdir(runtime))))
        run("loginctl", "activate", session_of(f"{user}-session") or "?")
        check(f"{user}'s session in front, the configuration taken", wait_for(30, lambda: f"uid {self.uid}'s configuration taken" in journal()))
        self.as_user = ["setpriv", f"--reuid={user}", f"--regid={user}", "--init-groups"]
        self.env = dict(os.environ, HOME=f"/home/{user}", XDG_RUNTIME_DIR=runtime, WAYLAND_DISPLAY="wayland-1",
                        DBUS_SESSION_BUS_ADDRESS=f"unix:path={runtime}/bus", GDK_BACKEND="wayland", GSK_RENDERER="cairo")
        self.env.pop("DISPLAY", None)

    def swaymsg(self, *args):
        sock = next((f"{self.runtime}/{f}" for f in os.listdir(self.runtime) if f.startswith("sway-ipc.")), "")
        return run(*self.as_user, "swaymsg", "-s", sock, *args).stdout

    def shot(self, path):
        """grim's PNG of the output, at `path`."""
        # The user's own file: another user's left in /tmp by an earlier suite is not theirs to write.
        taken = f"/tmp/shot-{self.user}.png"
        run(*self.as_user, "env", f"XDG_RUNTIME_DIR={self.runtime}", "WAYLAND_DISPLAY=wayland-1", "grim", taken)
        run("cp", taken, path)
