"""What every service suite reads (inside scripts/vm-run-systemd): the gestured unit's
journal so far, its lines without time stamps."""
import subprocess


def journal():
    return subprocess.run(["journalctl", "-u", "gestured", "--no-pager", "-o", "cat"], capture_output=True, text=True, timeout=60).stdout
