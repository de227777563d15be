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
