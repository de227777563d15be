# Shared by the end-to-end scripts: checks that count failures, and waiting.
failures=0
check() {  # check DESCRIPTION COMMAND...
  local what=$1; shift
  if "$@"; then echo "ok   $what"; else echo "FAIL $what"; failures=$((failures + 1)); fi
}
wait_for() {  # wait_for SECONDS COMMAND...: until the command succeeds
  local end=$((SECONDS + $1)); shift
  until "$@"; do [ $SECONDS -ge $end ] && return 1; sleep 0.2; done
}
evemu_panel() {  # evemu_panel DESC OUT: a device from an evemu description, its node in OUT once udev has it
  evemu-device "$1" > "$2" &
  wait_for 15 grep -q /dev/input "$2"
  udevadm settle
  grep -o '/dev/input/event[0-9]*' "$2"
}
