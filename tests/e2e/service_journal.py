"""What every service suite reads (inside scripts/vm-run-systemd): the gestured unit's
journal so far, its lines without time stamps."""
import subprocess


def journal():
    return subprocess.run(["journalctl", "-u", "gestured", "--no-pager", "-o", "cat"], capture_output=True, text=True, timeout=60).stdout


def start_service(config):
    """CONFIG as the machine's configuration, and the gestured unit started on it."""
    with open("/etc/gestured/gestured.toml", "w") as f:
        f.write(config)
    subprocess.run(["systemctl", "reset-failed", "gestured"])
    subprocess.run(["systemctl", "start", "gestured"], check=True)
