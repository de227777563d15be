#!/bin/bash
# The live daemon on a real kernel, run inside scripts/vm-run by tests/e2e/run: virtual
# touchscreens from evemu-device, recordings played into them with evemu-play, the daemon
# as an unprivileged user (nobody, with the input group), a private session bus watched
# by dbus-monitor.
#   tests/e2e/live.sh GESTURED
set -u
gestured=$(realpath "$1")
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
chmod 755 "$work"
mkdir -m 1777 "$work/out"
log=$work/out/actions.log
. "$(dirname "$0")/lib.sh"
input_gid=$(getent group input | cut -d: -f3)
# An array, not a function: `$!` of a backgrounded function is a subshell's pid.
as_nobody=(setpriv --reuid=nobody --regid=nogroup --groups="$input_gid" --inh-caps=-all -- env -u XDG_RUNTIME_DIR)

for kind in checkmark swipe3 drag tap storm; do python3 "$here/fixtures.py" "$kind" > "$work/$kind.evemu"; done
python3 "$here/fixtures.py" desc "gestured test panel" > "$work/first.desc"
python3 "$here/fixtures.py" desc "gestured second panel" > "$work/second.desc"

config() {
  cat > "$work/gestured.toml" <<TOML
[daemon]
bus = "session"

[[region]]
name = "bottom"
x = [0.0, 1.0]
y = [0.7, 1.0]

[[gesture]]
name = "confirm"
type = "checkmark"
signal = true
command = "echo confirm \$GESTURE_DEVICE >> $log"

[[gesture]]
name = "menu"
type = "swipe"
fingers = 3
direction = "down"
signal = true
command = "echo menu \$GESTURE_FINGERS >> $log"

[[gesture]]
name = "drag"
type = "pan"
region = "bottom"
signal = true

[[gesture]]
name = "tap"
type = "tap"
command = "echo tap \$GESTURE_X \$GESTURE_Y >> $log"
TOML
}
config
chmod 644 "$work/gestured.toml"

bus=$("${as_nobody[@]}" dbus-daemon --session --fork --print-address=1)
export DBUS_SESSION_BUS_ADDRESS=$bus
"${as_nobody[@]}" dbus-monitor --session "type='signal',interface='org.gestured.Gestured1'" > "$work/out/monitor.txt" 2>&1 &
"${as_nobody[@]}" "$gestured" run --config "$work/gestured.toml" > "$work/out/daemon.log" 2>&1 &
daemon=$!
check "the daemon starts and waits for a touchscreen" wait_for 30 grep -q "waiting for one to appear" "$work/out/daemon.log"

# Creates a virtual touchscreen; prints its node once the daemon has opened it.
plug() {
  evemu-device "$work/$1.desc" > "$work/$1.node" &
  echo $! > "$work/$1.pid"
  wait_for 10 grep -q /dev/input "$work/$1.node" || return 1
  local node
  node=$(grep -o '/dev/input/event[0-9]*' "$work/$1.node")
  wait_for 10 grep -q "$node: '" "$work/out/daemon.log" || return 1
  echo "$node"
}
signals() { grep -c "string \"$1\"" "$work/out/monitor.txt"; }
count() { local n; n=$(grep -c "^$1" "$log" 2>/dev/null) || true; echo "${n:-0}"; }
# For wait_for: counted anew at each try (a $(count ...) argument would be counted once).
count_above() { test "$(count "$1")" -gt "$2"; }

first=$(plug first)
check "the first touchscreen is opened ($first)" test -n "$first"
evemu-play "$first" < "$work/checkmark.evemu"
check "a checkmark runs its command" wait_for 15 grep -qs "^confirm gestured test panel" "$log"
check "a checkmark emits its Gesture signal" wait_for 15 grep -q 'string "confirm"' "$work/out/monitor.txt"
evemu-play "$first" < "$work/swipe3.evemu"
check "a three-finger swipe runs its command" wait_for 15 grep -qs "^menu 3" "$log"
check "a three-finger swipe emits its Gesture signal" wait_for 15 grep -q 'string "menu"' "$work/out/monitor.txt"

# Events dropped by the kernel (SYN_DROPPED): the daemon stopped while a long drag
# overflows its buffer. After the resync no touch may stay stuck: the next gesture works.
before=$(count confirm)
kill -STOP "$daemon"
evemu-play "$first" < "$work/drag.evemu"
kill -CONT "$daemon"
check "the kernel dropped events and the daemon resynced" wait_for 15 grep -q "dropped events (SYN_DROPPED); resynced" "$work/out/daemon.log"
evemu-play "$first" < "$work/checkmark.evemu"
check "after events were dropped, nothing stays stuck: the next checkmark works" wait_for 15 count_above confirm "$before"

second=$(plug second)
check "a touchscreen plugged in later is picked up ($second)" test -n "$second"
evemu-play "$second" < "$work/checkmark.evemu"
check "and works" wait_for 15 grep -q "^confirm gestured second panel" "$log"

began=$(signals began) cancelled=$(signals cancelled)
signals_above() { test "$(signals "$1")" -gt "$2"; }
evemu-play "$second" < "$work/drag.evemu" &
check "a drag begins on it" wait_for 10 signals_above began "$began"
kill "$(cat "$work/second.pid")"
check "removing it mid-gesture cancels the gesture" wait_for 10 signals_above cancelled "$cancelled"
check "and the daemon stays up" kill -0 "$daemon"

before=$(count confirm)
printf '[[gesture]]\nname = "confirm"\ntype = \n' > "$work/gestured.toml"
kill -HUP "$daemon"
check "SIGHUP with a broken config logs FILE:LINE:COL" wait_for 15 grep -q "gestured.toml:3:8: error" "$work/out/daemon.log"
evemu-play "$first" < "$work/checkmark.evemu"
check "and the old bindings keep working" wait_for 15 count_above confirm "$before"

# A reload that ignores a panel lets it go; one that no longer ignores it opens it again.
config
printf '\n[[device]]\nname = "gestured test panel"\nignore = true\n' >> "$work/gestured.toml"
kill -HUP "$daemon"
check "a reload that ignores a panel lets it go" wait_for 15 grep -q "$first: 'gestured test panel' ignored by a \[\[device\]\] rule now" "$work/out/daemon.log"
before=$(count confirm)
evemu-play "$first" < "$work/checkmark.evemu"
sleep 1
check "and its gestures no longer fire" test "$(count confirm)" = "$before"
opened=$(grep -c "$first: 'gestured test panel', " "$work/out/daemon.log")
config
kill -HUP "$daemon"
opened_more() { test "$(grep -c "$first: 'gestured test panel', " "$work/out/daemon.log")" -gt "$opened"; }
check "a reload that no longer ignores it opens it again" wait_for 15 opened_more
evemu-play "$first" < "$work/checkmark.evemu"
check "and it works" wait_for 15 count_above confirm "$before"

# A storm of garbage through the real kernel: slots out of range, tracking id churn, values
# at the ends of 32 bits, no SYN_REPORT for long stretches, as fast as uinput takes them.
# The daemon stays up, and a checkmark played right after is recognized: nothing stuck.
storm_start=$SECONDS
evemu-play "$first" < "$work/storm.evemu"
check "a storm of $(grep -c '^E:' "$work/storm.evemu") events into the touchscreen leaves the daemon up" kill -0 "$daemon"
sleep 2
complaints=$(grep -c ": libevdev: " "$work/out/daemon.log")
check "libevdev's complaints about it are rate-limited: $complaints lines in $((SECONDS - storm_start)) s" \
  test "$complaints" -ge 1 -a "$complaints" -le $((5 + 5 * (SECONDS - storm_start) / 60 + 1))
echo "     the daemon resynced $(grep -c 'SYN_DROPPED' "$work/out/daemon.log") times so far"
before=$(count confirm)
evemu-play "$first" < "$work/checkmark.evemu"
check "and a checkmark right after the storm is recognized" wait_for 15 count_above confirm "$before"
check "with no state machine bug logged" bash -c "! grep -q ': bug: ' '$work/out/daemon.log'"

sleep 1
check "the daemon is still running" kill -0 "$daemon"
switches() { grep -E '^(voluntary|nonvoluntary)_ctxt_switches' "/proc/$daemon/status" | tr -s ' \t' ' '; }
idle_before=$(switches)
sleep 5
idle_after=$(switches)
check "idle for 5 s with a device open, it never woke up ($idle_after)" test "$idle_before" = "$idle_after"

check "it ran as nobody, with only the input group for the devices" test "$(ps -o user= -p "$daemon")" = nobody

kill -TERM "$daemon"
stopped=1
for _ in $(seq 10); do kill -0 "$daemon" 2>/dev/null || { stopped=0; break; }; sleep 0.1; done
wait "$daemon"
status=$?
check "SIGTERM stops it within a second" test $stopped = 0
check "with status 0" test $status = 0

# A restarted daemon starts from the kernel's touch state. A tap where the last one was
# sends no position at all (the kernel resends nothing unchanged): it must not land at 0.
start_daemon() {
  "${as_nobody[@]}" "$gestured" run --config "$work/gestured.toml" > "$work/out/$1.log" 2>&1 &
  daemon=$!
  wait_for 10 grep -qs "$first: '" "$work/out/$1.log"
}
# Each restarted daemon's own log counts its taps: a command the storm started may still
# be writing to the shared one.
recognized() { n=$(grep -c "tap (tap) recognized" "$work/out/$1.log") || true; echo "${n:-0}"; }
taps_before=$(count tap)
start_daemon restarted
evemu-play "$first" < "$work/tap.evemu"
wait_for 15 count_above tap "$taps_before"
kill -TERM "$daemon"; wait "$daemon"
start_daemon restarted-again
evemu-play "$first" < "$work/tap.evemu"
wait_for 15 count_above tap $((taps_before + 1))
taps=$(grep "^tap" "$log" | tail -n 2 | sort -u)
check "after a restart, a tap where the last one was is there, not at 0 ($(echo $taps))" \
  test "$(recognized restarted)" = 1 -a "$(recognized restarted-again)" = 1 \
  -a "$(echo "$taps" | wc -l)" = 1 -a "$(echo "$taps" | grep -c "tap 0.0000")" = 0
kill -TERM "$daemon"; wait "$daemon"

# Without read access to any touchscreen, the daemon says so instead of waiting for one.
setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all -- env -u XDG_RUNTIME_DIR \
  "$gestured" run --config "$work/gestured.toml" > "$work/out/denied.log" 2>&1 &
denied=$!
wait_for 10 grep -qs "permission denied" "$work/out/denied.log"
sleep 0.5
check "with no touchscreen it may read, it says so rather than 'waiting for one to appear'" \
  bash -c "grep -q 'no touchscreen could be opened' '$work/out/denied.log' && ! grep -q 'waiting for one to appear' '$work/out/denied.log'"
kill -TERM "$denied"; wait "$denied"

# Learning a stroke on the panel: three checkmarks drawn, an entry printed that
# recognizes a checkmark with nothing else bound.
"$gestured" learn tick --device "$first" --count 3 > "$work/learned.toml" 2> "$work/out/learn.log" &
learner=$!
wait_for 10 grep -q "draw 'tick' 3 times" "$work/out/learn.log"
for _ in 1 2 3; do evemu-play "$first" < "$work/checkmark.evemu"; done
wait_for 15 bash -c "! kill -0 $learner 2>/dev/null"
wait "$learner"
check "learn --device takes 3 strokes drawn on the panel ($(grep -c '^    "' "$work/learned.toml") templates kept)" \
  grep -q 'type = "stroke"' "$work/learned.toml"
check "and what it learned recognizes a checkmark" \
  bash -c "'$gestured' replay --config '$work/learned.toml' '$work/checkmark.evemu' | grep -q 'tick (stroke) recognized'"

kill "$(cat "$work/first.pid")" 2>/dev/null

# The release binary carries its Swift runtime: with the toolchain's runtime libraries
# hidden (an empty directory over them) it still runs.
cp "$here/../config/gestured.toml" "$work/example.toml"
runtime=$(find /opt /usr/lib /usr/local -maxdepth 6 -path '*/lib/swift/linux/libswiftCore.so' -print -quit 2>/dev/null)
runtime=${runtime%/linux/libswiftCore.so}
check "the release binary links no Swift library" sh -c "! ldd '$gestured' | grep -q swift"
check "with the Swift runtime (${runtime:-none found}) hidden, the release binary still runs" \
  unshare -m sh -c "{ [ -z '$runtime' ] || mount -t tmpfs none '$runtime'; } && '$gestured' check '$work/example.toml'"

if [ $failures -gt 0 ]; then
  for name in daemon restarted restarted-again; do echo "--- $name log"; cat "$work/out/$name.log"; done
  echo "--- the commands' log"; tail -n 20 "$log"
fi
exit $((failures > 0))
