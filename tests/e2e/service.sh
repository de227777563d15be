#!/bin/bash
# The shipped system unit for real, inside scripts/vm-run-systemd (systemd as PID 1):
# tests/e2e/run-service installs the unit, udev rule, D-Bus policy, sysusers entry,
# binary and a test configuration in the guest, with fixtures in /opt/gestured-test.
#   service.sh             the unit's own checks, then every suite
#   service.sh SUITE...    those suites alone, one after the other
set -u
fixtures=/opt/gestured-test
. "$(dirname "$0")/lib.sh"
journal() { journalctl -u gestured --no-pager -o cat; }
in_journal() { journal | grep -q -- "$1"; }

systemd-sysusers
systemctl daemon-reload
udevadm control --reload
suite() {  # suite FILE: one of the Python suites beside this script, and what it cost
  local start=$SECONDS
  python3 "$(dirname "$0")/$1" || failures=$((failures + 1))
  echo "==== $1: $((SECONDS - start)) s"
}
# Suites alone (tests/e2e/run-service SUITE...), for working on them.
if [ $# -gt 0 ]; then
  udevadm trigger --action=add --subsystem-match=misc --sysname-match=uinput
  udevadm settle
  for named in "$@"; do suite "$named"; done
  exit $((failures > 0))
fi
dbus-monitor --system "type='signal',interface='org.gestured.Gestured1'" > /tmp/monitor.txt 2>&1 &
# A listener that is not root, with the guide's match rule (docs/guide.md) but not the sender: what
# any desktop program would see.
setpriv --reuid=nobody --regid=nogroup --clear-groups dbus-monitor --system \
  "type='signal',interface='org.gestured.Gestured1'" > /tmp/listener.txt 2>&1 &
sleep 0.5

plug() {  # plug NAME: a virtual touchscreen; prints its node
  evemu-device "$fixtures/$1.desc" > "/tmp/$1.node" &
  echo $! > "/tmp/$1.pid"
  wait_for 15 grep -q /dev/input "/tmp/$1.node" || return 1
  udevadm settle
  grep -o '/dev/input/event[0-9]*' "/tmp/$1.node"
}
first=$(plug first)
check "a virtual touchscreen is created ($first)" test -n "$first"
check "udev tags it for gestured" bash -c "udevadm info '$first' | grep -q 'gestured'"

systemctl start gestured
check "systemd starts the service to active through READY=1" test "$(systemctl is-active gestured)" = active
check "it reads the touchscreen inside its sandbox" wait_for 15 in_journal "$first: 'gestured test panel'"
owns_name() { busctl --system status org.gestured.Gestured1 >/dev/null 2>&1; }
check "it owns org.gestured.Gestured1 on the system bus" wait_for 10 owns_name
check "it runs as the gestured user" test "$(ps -o user= -p "$(systemctl show -p MainPID --value gestured)")" = gestured

# The service's user reads touchscreens, read-only, and no other input device.
keyboard=$(plug keyboard)
as_gestured() { setpriv --reuid=gestured --regid=gestured --init-groups -- sh -c "$1" 2>/dev/null; }
check "the gestured user is in no group but its own ($(id -Gn gestured))" test "$(id -Gn gestured)" = gestured
check "it may read the touchscreen" as_gestured "exec 3< $first"
check "but not write to it" bash -c "! setpriv --reuid=gestured --regid=gestured --init-groups -- sh -c 'exec 3> $first' 2>/dev/null"
check "nor read a keyboard ($keyboard)" bash -c "! setpriv --reuid=gestured --regid=gestured --init-groups -- sh -c 'exec 3< $keyboard' 2>/dev/null"
check "the seat's user gets no access on a kiosk (no uaccess tag)" bash -c "! udevadm info '$first' | grep -q uaccess"

evemu-play "$first" < "$fixtures/checkmark.evemu"
check "a checkmark emits a Gesture signal" wait_for 10 grep -q 'string "confirm"' /tmp/monitor.txt
check "and runs its command" wait_for 10 in_journal "confirm: confirmed on gestured test panel"
check "a listener that is not root receives it" wait_for 10 grep -q 'string "confirm"' /tmp/listener.txt

# Nobody else may send the daemon's signal: a forged gesture never reaches a listener.
setpriv --reuid=nobody --regid=nogroup --clear-groups dbus-send --system --type=signal \
  /org/gestured/Gestured1 org.gestured.Gestured1.Gesture string:forged string:tap string:recognized
dbus-send --system --type=signal /org/gestured/Gestured1 org.gestured.Gestured1.Gesture string:forged-by-root string:tap string:recognized
evemu-play "$first" < "$fixtures/checkmark.evemu"
heard_twice() { test "$(grep -c 'string "confirm"' /tmp/listener.txt)" -ge 2; }
wait_for 15 heard_twice
check "a Gesture signal sent by another user (nobody, root) never reaches a listener" \
  bash -c "! grep -q forged /tmp/listener.txt"

second=$(plug second)
check "a touchscreen plugged in later is picked up" wait_for 15 in_journal "$second: 'gestured second panel'"
evemu-play "$second" < "$fixtures/checkmark.evemu"
check "and works" wait_for 10 in_journal "confirm: confirmed on gestured second panel"

systemctl reload gestured
check "systemctl reload re-reads the configuration" wait_for 10 in_journal "reload: /etc/gestured/gestured.toml"
check "and the service stays active" test "$(systemctl is-active gestured)" = active

systemctl stop gestured
check "systemctl stop stops it" test "$(systemctl is-active gestured)" = inactive
check "cleanly" test "$(systemctl show -p Result --value gestured)" = success

# A broken configuration at start: one located error, exit 78, and no restart loop.
cp /etc/gestured/gestured.toml /tmp/good.toml
printf '[.gesture]]\nname = "x"\n' > /etc/gestured/gestured.toml
systemctl start gestured
sleep 3
check "a broken configuration stops the service with status 78 ($(systemctl show -p ExecMainStatus --value gestured))" \
  test "$(systemctl show -p ExecMainStatus --value gestured)" = 78
check "and systemd does not restart it ($(systemctl show -p NRestarts --value gestured) restarts)" \
  test "$(systemctl show -p NRestarts --value gestured)" = 0 -a "$(systemctl is-active gestured)" != active
check "systemctl status shows the error line" bash -c "systemctl status gestured --no-pager -n 5 | grep -q 'gestured.toml:1:2: error: a .table. header needs a key here'"
cp /tmp/good.toml /etc/gestured/gestured.toml

# Isolation: install-isolation's udev rule lets the service's user write to /dev/uinput
# (uinput was loaded before the rule was installed: replay its add event).
udevadm trigger --action=add --subsystem-match=misc --sysname-match=uinput
udevadm settle
check "with install-isolation, the gestured user may write to /dev/uinput" as_gestured "exec 3<> /dev/uinput"
printf '[daemon]\nbus = "system"\nisolate = true\n\n[[gesture]]\nname = "menu"\ntype = "swipe"\nfingers = 3\ndirection = "down"\n' \
  > /etc/gestured/gestured.toml
systemctl reset-failed gestured
systemctl start gestured
suite isolation_service.py
systemctl stop gestured
# Modes, the control interface and its policy, logind's lock, pauses (writes its own configuration).
suite control_service.py
# The touch lock: by the bus and by a gesture, through a reload (writes its own configuration).
suite touch_lock_service.py
# The kiosk's idle: its commands, the Idle and LastTouch properties, a flood paced (writes its own configuration).
suite idle_service.py
# rotation = "auto" with Debian's iio-sensor-proxy and a uinput accelerometer.
suite rotation_service.py
# A touchscreen's pen: read through the udev rule, its checkmark a pen's gesture.
suite pen_service.py
# gestured calibrate: a skewed panel's matrix solved from four targets, taken by udev, the twin and the service.
suite calibrate_service.py
# Readers flooding the properties as nobody, under the shipped policy (writes its own configuration).
suite bus_flood_service.py
# Two users' sessions on seat0, each with its agent: whose gestures and commands, and who may hand them over.
suite sessions_service.py
# Whose a gesture is while sessions switch and files change under a waiting tap (20 rounds
# of each here; the suite alone does 50).
OWNERSHIP_ROUNDS=20 suite ownership_service.py
# The overlay in an X11 session: the trail on the screen, clicks through it, updates for the agent alone.
suite overlay_service.py
# The studio as a first-time user meets it: five gestures made through its accessibility
# names and the panel, each fired; the inspector's trails, bars and reasons.
suite studio_service.py
# The Progress signal: a tagged pull-down followed on the user's session bus, an example drawer following it.
suite progress_service.py
cp /tmp/good.toml /etc/gestured/gestured.toml

kill "$(cat /tmp/first.pid)" "$(cat /tmp/second.pid)" "$(cat /tmp/keyboard.pid)" 2>/dev/null
[ $failures = 0 ] || journal | tail -n 40
exit $((failures > 0))
