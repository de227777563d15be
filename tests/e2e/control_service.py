#!/usr/bin/env python3
"""Modes, the control interface, the lock screen and pauses under the shipped unit and
policy, inside scripts/vm-run-systemd (tests/e2e/service.sh has installed everything
and configured the gestures below): who may call the methods, logind's real
LockedHint on a seat0 session of a kiosk user, and what an isolated panel's twin gets
while locked or paused."""
import os, re, socket, subprocess, sys, threading, time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
from fixtures import HEADER, Recording, checkmark, suite_config, three_finger_swipe_down, three_finger_swipe_right  # noqa: E402
from uinput_panel import Panel, Twin, check, failures, holds_open, isolated_twin, wait_for  # noqa: E402
from service_journal import journal, start_service  # noqa: E402

CONFIG = suite_config("control")
OBJECT = ["org.gestured.Gestured1", "/org/gestured/Gestured1", "org.gestured.Gestured1"]


def count(text):
    return journal().count(text)


def as_user(user, *command):
    """The command as `user`, with that user's groups (nobody: nogroup, none else)."""
    ids = ["--reuid=nobody", "--regid=nogroup", "--clear-groups"] if user == "nobody" else [f"--reuid={user}", f"--regid={user}", "--init-groups"]
    return subprocess.run(["setpriv", *ids, *command], capture_output=True, text=True, timeout=30)


def busctl(user, *args):
    return as_user(user, "busctl", "--system", *args)


def swipe_reaches_the_twin_whole(twin, panel):
    """A three-finger swipe down: (touches up, touches cancelled) on the twin, and whether menu fired."""
    before = count("menu (swipe) recognized")
    mark = twin.mark()
    panel.play(three_finger_swipe_down().text())
    time.sleep(1.5)
    seen = twin.touch_events(mark)
    return seen.count("TOUCH_UP"), seen.count("TOUCH_CANCEL"), count("menu (swipe) recognized") > before


def two_finger_hold():
    rec = Recording()
    for _ in range(10):
        rec.frame({0: (100, 60), 1: (130, 60)}, advance_ms=100)
    rec.frame({0: None, 1: None})
    return rec


def five_join_a_resting_finger(meanwhile):
    """A finger lands and rests; meanwhile() runs; four more join it for a second: whether
    five fired, and (touches up, touches cancelled) on the twin."""
    rec = Recording()
    rec.frame({0: (100, 100)}, advance_ms=300)
    rest = len(rec.lines)
    for _ in range(12):
        rec.frame({s: (100 + 20 * s, 100) for s in range(5)}, advance_ms=100)
    rec.frame({s: None for s in range(5)})
    before = count("five: five")
    mark = twin.mark()
    panel.play("\n".join(rec.lines[:rest]))
    meanwhile()
    panel.play("\n".join(rec.lines[rest:]))
    time.sleep(1.5)
    seen = twin.touch_events(mark)
    return count("five: five") > before, seen.count("TOUCH_UP"), seen.count("TOUCH_CANCEL")


start_service(CONFIG)
panel = Panel(HEADER.replace("gestured test panel", "gestured kiosk panel"))
twin = Twin(isolated_twin(journal, panel))

# monitor beside the service follows its mode, pause and lock.
monitor_out = open("/tmp/monitor-control.txt", "w")
monitor = subprocess.Popen(["gestured", "monitor", "--config", "/etc/gestured/gestured.toml"], stdout=monitor_out,
                           stderr=subprocess.STDOUT, text=True)
check("monitor follows the service", wait_for(15, lambda: "following the service on the system bus" in open("/tmp/monitor-control.txt").read()))

# Who may call: root and the gestured-control group; anyone reads.
check("systemd-sysusers made the gestured-control group",
      subprocess.run(["getent", "group", "gestured-control"], capture_output=True).returncode == 0)
subprocess.run(["useradd", "--create-home", "--groups", "gestured-control", "kiosk"], check=True)
called = busctl("kiosk", "call", *OBJECT, "SetMode", "s", "maintenance")
check(f"a member of gestured-control may call SetMode ({called.stderr.strip()})", called.returncode == 0)
check("the mode is maintenance", busctl("root", "get-property", *OBJECT, "Mode").stdout.strip() == 's "maintenance"')
panel.play(three_finger_swipe_right().text())
check("maintenance's gesture fires", wait_for(10, lambda: count("fix (swipe) recognized") == 1))
refused = busctl("nobody", "call", *OBJECT, "SetMode", "s", "default")
check(f"nobody is refused by the bus ({refused.stderr.strip()})", refused.returncode != 0 and "ccess denied" in refused.stderr)
read = busctl("nobody", "get-property", *OBJECT, "Mode")
check(f"nobody reads Mode ({read.stdout.strip()})", read.stdout.strip() == 's "maintenance"')
check("root may call SetMode", busctl("root", "call", *OBJECT, "SetMode", "s", "default").returncode == 0)

# The lock screen: a seat0 session of the kiosk user, made the active one.
subprocess.run(["systemd-run", "--unit=kiosk-session", "-p", "PAMName=login", "-p", "User=kiosk", "-p", "TTYPath=/dev/tty2",
                "-p", "StandardInput=tty-force", "sleep", "600"], check=True, capture_output=True)


def kiosk_session(active=True):
    """The kiosk user's session on seat0 (only when it is the active one)."""
    if not active:
        listed = subprocess.run(["loginctl", "list-sessions", "--no-legend"], capture_output=True, text=True).stdout
        return next((line.split()[0] for line in listed.splitlines() if " kiosk " in f" {line} "), None)
    out = subprocess.run(["loginctl", "show-seat", "seat0", "-p", "ActiveSession", "--value"], capture_output=True, text=True).stdout.strip()
    if not out:
        return None
    user = subprocess.run(["loginctl", "show-session", out, "-p", "Name", "--value"], capture_output=True, text=True).stdout.strip()
    return out if user == "kiosk" else None


check("logind opens a session for the kiosk user on tty2", wait_for(30, lambda: kiosk_session(active=False)))
# As chvt 2 would (kbd is not installed here): logind switches to the session's VT.
subprocess.run(["loginctl", "activate", kiosk_session(active=False) or "?"])
check("the kiosk's session is seat0's active one", wait_for(30, kiosk_session))
session = kiosk_session()
check("the service follows its lock", wait_for(15, lambda: re.search(r"logind: following the lock of session", journal())))


def lock(hint):
    path = subprocess.run(["busctl", "--system", "call", "org.freedesktop.login1", "/org/freedesktop/login1",
                           "org.freedesktop.login1.Manager", "GetSession", "s", session or "?"], capture_output=True, text=True)
    object_path = path.stdout.split('"')[1] if '"' in path.stdout else ""
    return busctl("kiosk", "call", "org.freedesktop.login1", object_path, "org.freedesktop.login1.Session",
                  "SetLockedHint", "b", "true" if hint else "false")


locked = lock(True)
check(f"the kiosk user sets LockedHint from its session ({locked.stderr.strip()})", locked.returncode == 0)
check("the service says the session is locked", wait_for(10, lambda: count("session locked") == 1))
up, cancelled, fired = swipe_reaches_the_twin_whole(twin, panel)
check(f"locked: the swipe does not fire and reaches the twin whole ({up} up, {cancelled} cancelled)",
      not fired and up == 3 and cancelled == 0)
panel.play(two_finger_hold().text())
check("locked: the when_locked gesture fires", wait_for(10, lambda: count("emergency: emergency") == 1))
check("the kiosk user unlocks", lock(False).returncode == 0)
check("the service says so", wait_for(10, lambda: count("session unlocked") == 1))
up, cancelled, fired = swipe_reaches_the_twin_whole(twin, panel)
check(f"unlocked: the swipe fires again and reaches the twin not at all ({up} up, {cancelled} cancelled)",
      fired and up == 0 and cancelled == 0)

# The lock holds from the moment it is known, though a finger rests on the panel then.
fired, up, cancelled = five_join_a_resting_finger(lambda: None)
check(f"unlocked: four fingers joining a resting one fire five; what the twin had of them is cancelled, none lifts ({up} up, {cancelled} cancelled)",
      fired and up == 0 and 1 <= cancelled <= 4)
fired, up, cancelled = five_join_a_resting_finger(lambda: lock(True) and wait_for(10, lambda: count("session locked") == 2))
check(f"locked while a finger rests: the four joining it fire nothing and reach the twin whole ({up} up, {cancelled} cancelled)",
      count("session locked") == 2 and not fired and up == 5 and cancelled == 0)
check("the kiosk user unlocks again", lock(False).returncode == 0 and wait_for(10, lambda: count("session unlocked") == 2))

# Paused by a gesture: every touch reaches the twin whole, then gestures fire again.
panel.play(checkmark().text())
check("a checkmark pauses", wait_for(10, lambda: count("paused for 4.000 s") == 1))
up, cancelled, fired = swipe_reaches_the_twin_whole(twin, panel)
check(f"paused: the swipe reaches the twin whole ({up} up, {cancelled} cancelled)", not fired and up == 3 and cancelled == 0)
check("the pause runs out", wait_for(10, lambda: count("resumed: gestures fire again (the pause ran out)") == 1))
up, cancelled, fired = swipe_reaches_the_twin_whole(twin, panel)
check(f"then the swipe fires again, reaching the twin not at all ({up} up, {cancelled} cancelled)", fired and up == 0 and cancelled == 0)
check("the service stays active", subprocess.run(["systemctl", "is-active", "gestured"], capture_output=True, text=True).stdout.strip() == "active")

# The application in front, from a session agent (gestured agent) following a stand-in
# Hyprland's event socket, on the system bus under the shipped policy: the active
# session's user's report is taken, another user's refused.
os.makedirs("/tmp/desktop/hypr/kiosk")
for directory in ["/tmp/desktop", "/tmp/desktop/hypr", "/tmp/desktop/hypr/kiosk"]:
    os.chmod(directory, 0o755)
hyprland = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
hyprland.bind("/tmp/desktop/hypr/kiosk/.socket2.sock")
os.chmod("/tmp/desktop/hypr/kiosk/.socket2.sock", 0o777)
hyprland.listen(4)
desktops = []
threading.Thread(target=lambda: [desktops.append(hyprland.accept()[0]) for _ in range(3)], daemon=True).start()


def agent(user):
    ids = ["--reuid=nobody", "--regid=nogroup", "--clear-groups"] if user == "nobody" else [f"--reuid={user}", f"--regid={user}", "--init-groups"]
    return subprocess.Popen(["setpriv", *ids, "env", "XDG_RUNTIME_DIR=/tmp/desktop", "HYPRLAND_INSTANCE_SIGNATURE=kiosk",
                             "gestured", "agent", "--verbose"], stdout=subprocess.DEVNULL, stderr=open(f"/tmp/agent-{user}.txt", "w"))


def app_in_front():
    return busctl("root", "get-property", *OBJECT, "App").stdout.strip()


kiosk_agent = agent("kiosk")
check("the kiosk user's agent follows its desktop", wait_for(15, lambda: len(desktops) == 1))
desktops[0].sendall(b"activewindow>>firefox,a page\n")
check(f"the active session's user's report is taken ({app_in_front()})", wait_for(15, lambda: '"firefox"' in app_in_front()))
menus = count("menu (swipe) recognized")
panel.play(three_finger_swipe_down().text())
check("firefox's own swipe fires in place of the one for every application",
      wait_for(10, lambda: count("for-firefox (swipe) recognized") == 1) and count("menu (swipe) recognized") == menus)
other_agent = agent("nobody")
check("another user's agent follows its desktop", wait_for(15, lambda: len(desktops) == 2))
desktops[1].sendall(b"activewindow>>kitty,~\n")
check("another user's report is refused",
      wait_for(15, lambda: "only the user of seat0's active session" in open("/tmp/agent-nobody.txt").read()))
check("firefox is still in front", '"firefox"' in app_in_front())
# The kiosk user's second session, on tty3 and not in front: its agent, a process of that
# session, is refused though its user is the seat's. PAM gives it its own XDG_RUNTIME_DIR:
# it finds the stand-in where Hyprland before 0.40 put its sockets, /tmp/hypr.
os.symlink("/tmp/desktop/hypr", "/tmp/hypr")
subprocess.run(["systemd-run", "--unit=kiosk-second", "-p", "PAMName=login", "-p", "User=kiosk", "-p", "TTYPath=/dev/tty3",
                "-p", "StandardInput=tty-force", "-p", "StandardError=file:/tmp/agent-second.txt",
                "-E", "XDG_RUNTIME_DIR=/tmp/desktop", "-E", "HYPRLAND_INSTANCE_SIGNATURE=kiosk",
                "gestured", "agent", "--verbose"], check=True, capture_output=True)
second = subprocess.run(["systemctl", "show", "-p", "MainPID", "--value", "kiosk-second"], capture_output=True, text=True).stdout.strip()


def cgroup():
    path = f"/proc/{second}/cgroup"
    return open(path).read().strip() if second.isdigit() and os.path.exists(path) else "gone"


# logind moves a PAMName= service's process into its session's scope once it has made it.
moved = wait_for(15, lambda: "/session-" in cgroup())
check(f"the kiosk user's second session's agent is in its session ({cgroup()})", moved)
check("and follows its desktop", wait_for(15, lambda: len(desktops) == 3))
if len(desktops) == 3:
    desktops[2].sendall(b"activewindow>>kitty,~\n")
check("the same user's session not in front is refused",
      wait_for(15, lambda: "only the user of seat0's active session" in open("/tmp/agent-second.txt").read()))
check("firefox is still in front", '"firefox"' in app_in_front())
subprocess.run(["systemctl", "stop", "kiosk-second"])

# The kiosk user's own daemon (gestured run, bus = "session": as the user service runs)
# reads the panel while the kiosk's session is in front, lets it go while another user's
# is, and reads it again once the kiosk's is back.
subprocess.run(["useradd", "bob"], check=True)
subprocess.run(["systemd-run", "--unit=bob-session", "-p", "PAMName=login", "-p", "User=bob", "-p", "TTYPath=/dev/tty4",
                "-p", "StandardInput=tty-force", "sleep", "600"], check=True, capture_output=True)


def session_of(user):
    listed = subprocess.run(["loginctl", "list-sessions", "--no-legend"], capture_output=True, text=True).stdout
    return next((line.split()[0] for line in listed.splitlines() if f" {user} " in f" {line} "), None)


check("logind opens a session for bob on tty4", wait_for(15, lambda: session_of("bob")))
bob_session = session_of("bob")
subprocess.run(["setfacl", "-m", "u:kiosk:r", panel.node], check=True)  # what logind's uaccess gives the seat's user
with open("/tmp/own.toml", "w") as f:
    f.write('[daemon]\nbus = "session"\n[[gesture]]\nname = "tap"\ntype = "tap"\ncommand = "true"\n')
os.chmod("/tmp/own.toml", 0o644)
bus_out = as_user("kiosk", "dbus-daemon", "--session", "--fork", "--print-address=1", "--print-pid=1").stdout.split()
own = subprocess.Popen(["setpriv", "--reuid=kiosk", "--regid=kiosk", "--init-groups", "env", f"DBUS_SESSION_BUS_ADDRESS={bus_out[0]}",
                        "gestured", "run", "--config", "/tmp/own.toml", "--verbose"],
                       stdout=subprocess.DEVNULL, stderr=open("/tmp/own-daemon.txt", "w"))


def own_reads_the_panel():
    return holds_open(own.pid, {panel.node})


def own_log():
    return open("/tmp/own-daemon.txt").read()


check("the kiosk user's own daemon reads the panel while its session is in front", wait_for(15, own_reads_the_panel))
subprocess.run(["loginctl", "activate", str(bob_session)])
check("bob's session in front, it lets the panel go",
      wait_for(15, lambda: not own_reads_the_panel()) and "session away: another session is in front" in own_log())
time.sleep(1)
check("and keeps it closed", not own_reads_the_panel())
subprocess.run(["loginctl", "activate", session or "?"])
check("the kiosk's session back in front, it reads the panel again",
      wait_for(15, own_reads_the_panel) and "session in front again" in own_log())
own.terminate()
own.wait()
if len(bus_out) > 1:
    os.kill(int(bus_out[1]), 15)
subprocess.run(["systemctl", "stop", "bob-session"])
kiosk_agent.terminate()
kiosk_agent.wait()
check("the kiosk user's agent gone, no application is known", wait_for(15, lambda: app_in_front() == '(ssss) "" "" "" ""'))
other_agent.terminate()
other_agent.wait()
monitor.terminate()
monitor.wait()
shown = open("/tmp/monitor-control.txt").read()
for line in ["mode: default → maintenance (the service)", "mode: maintenance → default (the service)",
             "session locked: only gestures with when_locked = true fire", "session unlocked",
             "paused: every touch passes through (the service)", "resumed: gestures fire again (the service)"]:
    check(f"monitor shows: {line}", line in shown)

twin.close()
panel.destroy()
subprocess.run(["systemctl", "stop", "gestured", "kiosk-session"])
sys.exit(1 if failures() else 0)
