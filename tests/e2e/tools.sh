#!/bin/bash
# The tools that answer "why didn't it fire" on a real kernel, run inside scripts/vm-run
# by tests/e2e/run: `devices` lists a virtual touchscreen with its figures (and says why
# it cannot open one), `record` of a stroke played with evemu-play replays to the same
# gestures (and evemu-device and evemu-play take the file), `monitor` prints the
# recognizers' decisions with their reasons beside a running daemon, draws the last
# sequence, and says when a running gestured isolates the panel.
#   tests/e2e/tools.sh GESTURED
set -u
gestured=$(realpath "$1")
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
chmod 755 "$work"
. "$(dirname "$0")/lib.sh"
for kind in desc checkmark small-checkmark; do python3 "$here/fixtures.py" "$kind" > "$work/$kind.evemu"; done
cat > "$work/gestured.toml" <<TOML
[[gesture]]
name = "confirm"
type = "checkmark"
min_size_mm = 25
TOML

evemu-device "$work/desc.evemu" > "$work/node" &
wait_for 10 grep -q /dev/input "$work/node"
node=$(grep -o '/dev/input/event[0-9]*' "$work/node")
udevadm settle

# devices: the figures of fixtures.py's panel (3840×2160 at 13 units/mm, 10 slots).
"$gestured" devices --config "$work/gestured.toml" > "$work/devices.txt" 2>&1
cat "$work/devices.txt"
listed() { grep -A9 "^$node  'gestured test panel'" "$work/devices.txt" | grep -qF "$1"; }
check "devices lists the panel's ids" listed "id 1234:5678, bus 0x0003 (USB)"
check "devices gives its protocol and slots" listed "protocol: multitouch B, 10 slots"
check "devices gives its axes" listed "axes: x 0…3839 (13 units/mm), y 0…2159 (13 units/mm)"
check "devices gives its size" listed "size: 295.3 × 166.1 mm (from the resolution)"
check "devices says gestured reads it" listed "gestured: read, not isolated, 1 gesture"
nobody=(setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all --)
"${nobody[@]}" "$gestured" devices > "$work/devices-nobody.txt" 2>&1
check "devices without access says why and what to do" \
    grep -q "cannot open it (Permission denied): gestured reads it as its service, as root, or as a member of the 'input' group" "$work/devices-nobody.txt"

"${nobody[@]}" "$gestured" monitor --device "$node" > /dev/null 2> "$work/monitor-nobody.log" &
locked=$!
check "monitor without access says so and what to do" \
    wait_for 10 grep -q "$node: permission denied. Run monitor as root (sudo) or as a member of the 'input' group" "$work/monitor-nobody.log"
kill $locked

# record: a checkmark played into the panel, recorded, replays to the same gesture.
"$gestured" record --device "$node" "$work/recorded.evemu" 2> "$work/record.log" &
recorder=$!
wait_for 10 grep -q "Ctrl-C ends it" "$work/record.log"
evemu-play "$node" < "$work/checkmark.evemu"
sleep 0.5
kill -INT $recorder
check "record ends cleanly on Ctrl-C" wait $recorder
cat "$work/record.log"
gestures() { "$gestured" replay --config "$work/gestured.toml" "$1" | grep -o "gesture .*recognized"; }
check "the recording replays to the same gestures as the original" \
    test "$(gestures "$work/recorded.evemu")" = "$(gestures "$work/checkmark.evemu")" -a -n "$(gestures "$work/checkmark.evemu")"
evemu-device "$work/recorded.evemu" > "$work/node2" &
check "evemu-device makes a device from the recording" wait_for 10 grep -q /dev/input "$work/node2"
node2=$(grep -o '/dev/input/event[0-9]*' "$work/node2")
check "and evemu-play plays the recording into it" evemu-play "$node2" < "$work/recorded.evemu"
check "the recording is readable by its owner alone (it holds every tap)" test "$(stat -c %a "$work/recorded.evemu")" = 600
# A link planted where the recording goes is not written through.
ln -s "$work/planted-target" "$work/planted.evemu"
"$gestured" record --device "$node" "$work/planted.evemu" 2> "$work/planted.log"
check "record refuses to write through a symbolic link" \
    grep -q "planted.evemu: cannot write it: it is a symbolic link" "$work/planted.log"
check "and the link's target was not made" test ! -e "$work/planted-target"

# monitor, beside a running daemon that only reads: a failed and a recognized checkmark.
"$gestured" run --config "$work/gestured.toml" > "$work/daemon.log" 2>&1 &
daemon=$!
"$gestured" monitor --device "$node" --config "$work/gestured.toml" --svg "$work/last.svg" > "$work/monitor.txt" 2> "$work/monitor.log" &
monitor=$!
wait_for 10 grep -q "$node: 'gestured test panel'" "$work/monitor.log"
wait_for 10 grep -q "$node: 'gestured test panel'" "$work/daemon.log"
evemu-play "$node" < "$work/small-checkmark.evemu"
check "monitor says why a small checkmark failed, in mm" \
    wait_for 10 grep -q "confirm: possible → failed: stroke 13 mm across, needs 25 mm" "$work/monitor.txt"
check "and draws it" wait_for 10 grep -q "stroke 13 mm across, needs 25 mm" "$work/last.svg"
evemu-play "$node" < "$work/checkmark.evemu"
check "monitor shows a checkmark recognized" wait_for 10 grep -q "gesture confirm (checkmark) recognized" "$work/monitor.txt"
check "and the daemon beside it still fires" wait_for 10 grep -q "confirm (checkmark) recognized" "$work/daemon.log"
cat "$work/monitor.txt"
kill -INT $monitor $daemon
wait $monitor $daemon

# monitor beside a daemon that isolates the panel: nothing reaches it, and it says so.
printf '[daemon]\nisolate = true\n' >> "$work/gestured.toml"
"$gestured" run --config "$work/gestured.toml" > "$work/daemon2.log" 2>&1 &
daemon=$!
wait_for 10 grep -q "isolated: its twin is" "$work/daemon2.log"
"$gestured" monitor --device "$node" > "$work/monitor2.txt" 2> "$work/monitor2.log" &
monitor=$!
check "monitor says when a running gestured isolates the panel" \
    wait_for 10 grep -q "$node: a running gestured isolates it (grabbed; applications get its twin /dev/input/event" "$work/monitor2.log"
"$gestured" devices > "$work/devices2.txt" 2>&1
check "and so does devices" grep -q "read and isolated by a running gestured: applications get its twin" "$work/devices2.txt"
kill -INT $monitor $daemon
wait $monitor $daemon
kill %1 %2 2>/dev/null
echo "tools: $failures failure(s)"
exit $((failures > 0))
