"""What the service suites that log users in share (inside scripts/vm-run-systemd): running
a command, the service's journal, a file that may not be there yet, and the logind
session a unit's process is in."""
import os, re, subprocess

from service_journal import journal  # noqa: F401 (the suites take it from here too)


def run(*command, **kw):
    return subprocess.run(command, capture_output=True, text=True, timeout=60, **kw)


def read(path):
    return open(path).read() if os.path.exists(path) else ""


def session_of(unit):
    """The logind session a unit's process is in (its scope's name), once it is."""
    pid = run("systemctl", "show", "-p", "MainPID", "--value", unit).stdout.strip()
    found = re.search(r"/session-(\w+)\.scope", read(f"/proc/{pid}/cgroup")) if pid.isdigit() else None
    return found.group(1) if found else None
