#!/bin/bash
# The .debs as a kiosk integrator and a laptop's user use them, inside
# scripts/vm-run-systemd (systemd as PID 1) with the Swift toolchain hidden: install,
# manuals, check, enable; keys refused without gestured-uinput, typed and isolating with
# it; an upgrade over a changed configuration; gestured-user's session agents for two users; removal
# and purge of each. tests/e2e/run-package puts the packages and fixtures in
# /opt/gestured-package.
#   tests/e2e/package.sh VERSION [TOOLCHAIN]     TOOLCHAIN: the host's Swift usr/, hidden
set -u
version=$1
toolchain=${2:-}
dir=/opt/gestured-package
. "$(dirname "$0")/lib.sh"
export DEBIAN_FRONTEND=noninteractive MANPAGER=cat PAGER=cat

# No Swift here: the host's toolchain (its usr/, where the runtime is) is hidden. Then
# no libswiftCore is in /opt or /usr/local, nor known to the dynamic linker (a search
# of all /usr/lib over 9p costs most of a minute).
if [ -n "$toolchain" ]; then mount -t tmpfs none "$toolchain"; fi
check "no Swift runtime is left to find" bash -c \
    "test -z \"\$(find /opt /usr/local -maxdepth 6 -name 'libswiftCore.so' 2>/dev/null)\" && ! ldconfig -p | grep -q libswiftCore"
check "no swift command either" bash -c "! command -v swift"

# man opens the pages by their path; rebuilding man-db's index on every install, upgrade
# and purge costs a minute each under software emulation, and tests nothing of ours.
rm -f /var/lib/man-db/auto-update

# A container's policy-rc.d (which forbids starting services) would hide what the
# package's scripts do: a real machine has none.
rm -f /usr/sbin/policy-rc.d
phase() { echo "---- $1 (at ${SECONDS} s)"; }
echo "---- Debian $(cat /etc/debian_version), systemd $(systemctl --version | sed -n "1s/systemd \([0-9]*\).*/\1/p"), libinput $(libinput --version 2>/dev/null)"
phase "gestured"
apt-get install -y "$dir/gestured.deb" > /tmp/install.log 2>&1
check "apt install ./gestured_${version}_amd64.deb succeeds" test $? = 0
tail -3 /tmp/install.log
check "gestured --version names the package's version" test "$(gestured --version)" = "$version"
check "its copyright file says MIT, as LICENSE does" bash -c "grep -q '^License: MIT' /usr/share/doc/gestured/copyright && grep -q '^MIT License' $(dirname "$0")/../../LICENSE"
check "man gestured opens" bash -c "man gestured 2>/dev/null | grep -q 'touchscreen gesture daemon'"
check "man gestured.toml opens, with every section" bash -c "man 5 gestured.toml 2>/dev/null | grep -q 'max_delay_ms'"
check "the bash completion completes subcommands" \
    bash -c ". /usr/share/bash-completion/completions/gestured && COMP_WORDS=(gestured mon) COMP_CWORD=1 _gestured && [[ \${COMPREPLY[*]} == *monitor* ]]"
check "the zsh and fish completions are there" test -s /usr/share/zsh/vendor-completions/_gestured -a -s /usr/share/fish/vendor_completions.d/gestured.fish
check "gestured check /etc/gestured/gestured.toml passes" gestured check /etc/gestured/gestured.toml
check "the service's user exists (sysusers)" id gestured
check "and the gestured-control group, whose members may call the control interface" getent group gestured-control
check "the service is not enabled on install" test "$(systemctl is-enabled gestured)" = disabled
check "nor started" bash -c "! systemctl is-active -q gestured"

# A user's rule for the panel alone (a twin has a phys): its output, for the twin to take.
echo 'SUBSYSTEM=="input", KERNEL=="event*", ATTRS{name}=="gestured test panel", ATTRS{phys}=="", ENV{WL_OUTPUT}="HDMI-A-1"' \
    > /etc/udev/rules.d/85-test-panel.rules
udevadm control --reload
node=$(evemu_panel "$dir/panel.desc" /tmp/panel.node)
# The kiosk's configuration: a checkmark runs a command, a three-finger swipe types a chord.
cat > /etc/gestured/gestured.toml <<'EOF2'
[[gesture]]
name = "confirm"
type = "checkmark"
command = "true"

[[gesture]]
name = "next-desktop"
type = "swipe"
fingers = 3
direction = "down"
keys = "ctrl+alt+Right"
EOF2
systemctl enable --now gestured > /tmp/enable.log 2>&1
check "systemctl enable --now gestured reaches active" test "$(systemctl is-active gestured)" = active
mark=1  # the journal's lines from here on: journal_since
journal_since() { journalctl -u gestured --no-pager -o cat | tail -n +"$mark"; }
in_journal() { journal_since | grep -q -- "$1"; }
next_mark() { mark=$(($(journalctl -u gestured --no-pager -o cat | wc -l) + 1)); }
check "and it reads the touchscreen, thanks to the package's udev rule" wait_for 15 in_journal "$node: 'gestured test panel'"
check "running, the service wants the sessions' agents (/run/gestured/agent)" test -e /run/gestured/agent

phase "(a) the daemon alone"
# (a) The daemon alone: /dev/uinput is not the service's, so the chord cannot be typed;
# the journal says why and what to install, and the rest works.
check "without gestured-uinput, the keys binding is refused with the documented message" \
    wait_for 15 in_journal "cannot make gestured's virtual keyboard and pointer (Permission denied): they need write access to /dev/uinput: for the system service, install the package gestured-uinput"
check "naming the gesture that cannot act" in_journal "These gestures cannot act: next-desktop; the rest work"
evemu-play "$node" < "$dir/checkmark.evemu"
check "a checkmark fires" wait_for 15 in_journal "confirm (checkmark) recognized"
check "gestured status reads the service's mode over the system bus" bash -c "gestured status | grep -q '^mode:     default'"

phase "(b) gestured-uinput"
# (b) With gestured-uinput: the chord on gestured's virtual keyboard, and a twin.
dpkg -i "$dir/gestured-uinput.deb" > /tmp/install-uinput.log 2>&1
check "dpkg -i gestured-uinput_${version}_all.deb succeeds (its dependencies are there)" test $? = 0
check "which gives the service's user write access to /dev/uinput" bash -c "getfacl -p /dev/uinput 2>/dev/null | grep -q '^user:gestured:rw'"
next_mark
systemctl restart gestured
keyboard_line() { journal_since | grep -o 'virtual keyboard and pointer for next-desktop: /dev/input/event[0-9]*'; }
check "restarted, the service makes its virtual keyboard and pointer" wait_for 15 keyboard_line
keyboard=$(keyboard_line | grep -o '/dev/input/event[0-9]*' | tail -1)
libinput debug-events --show-keycodes --device "$keyboard" > /tmp/keyboard.log 2>&1 &
reader=$!
sleep 2
evemu-play "$node" < "$dir/swipe3.evemu"
check "a three-finger swipe types ctrl+alt+Right, as libinput reads the keyboard" \
    wait_for 15 grep -q 'KEY_RIGHT (106) pressed' /tmp/keyboard.log
check "with ctrl and alt held, and all released" bash -c \
    "grep -q 'KEY_LEFTCTRL (29) pressed' /tmp/keyboard.log && grep -q 'KEY_LEFTALT (56) pressed' /tmp/keyboard.log && grep -q 'KEY_LEFTCTRL (29) released' /tmp/keyboard.log"
kill "$reader" 2>/dev/null
next_mark
printf '\n[daemon]\nisolate = true\n' >> /etc/gestured/gestured.toml
systemctl reload gestured
twin_line() { journal_since | grep -o "$node: 'gestured test panel' isolated: its twin is /dev/input/event[0-9]*"; }
check "isolation makes the panel's twin" wait_for 20 twin_line
twin=$(twin_line | grep -o '/dev/input/event[0-9]*$' | tail -1)
check "which is there ($twin)" test -n "$twin" -a -e "$twin"
udevadm settle
check "and takes its panel's output through the package's 90-gestured-twin.rules" \
    bash -c "udevadm info '$twin' | grep -q 'E: WL_OUTPUT=HDMI-A-1'"

phase "removing gestured-uinput while the service uses it"
# Removing gestured-uinput takes the access away, and what the running service made with
# it goes: the package restarts it, and it makes neither keyboard nor twin again.
before=$(systemctl show -p MainPID --value gestured)
next_mark
dpkg --remove gestured-uinput > /tmp/remove-uinput.log 2>&1
check "removing gestured-uinput takes /dev/uinput away from the service's user at once" \
    bash -c "! getfacl -p /dev/uinput 2>/dev/null | grep -q '^user:gestured:'"
after=$(systemctl show -p MainPID --value gestured)
check "and restarts the running service (pid $before, then $after)" test "$(systemctl is-active gestured)" = active -a "$after" != "$before"
check "which reads the panel again" wait_for 15 in_journal "$node: 'gestured test panel'"
made_by_gestured() { grep -l 'gestured-twin\|gestured-virtual' /sys/class/input/input*/phys 2>/dev/null; }
none_made_by_gestured() { ! made_by_gestured > /dev/null; }
check "no twin, virtual keyboard or pointer of gestured's is left ($(made_by_gestured | tr '\n' ' '))" none_made_by_gestured
grabbable() { python3 -c "import fcntl, os; fd = os.open('$node', os.O_RDONLY); fcntl.ioctl(fd, 0x40044590, 1)"; }
check "the panel is no longer grabbed (EVIOCGRAB succeeds)" grabbable
libinput debug-events --show-keycodes > /tmp/after-uinput.log 2>&1 &
reader=$!
sleep 2
evemu-play "$node" < "$dir/swipe3.evemu"
sleep 2
kill "$reader" 2>/dev/null
check "a three-finger swipe types nothing on any device" bash -c "! grep -q 'KEY_RIGHT' /tmp/after-uinput.log"
dpkg -i "$dir/gestured-uinput.deb" > /tmp/install-uinput-again.log 2>&1
check "gestured-uinput installs again" test $? = 0
systemctl restart gestured

phase "an upgrade"
# An upgrade keeps the integrator's configuration.
echo '# changed by the integrator' >> /etc/gestured/gestured.toml
before=$(systemctl show -p MainPID --value gestured)
apt-get install -y "$dir/gestured-next.deb" > /tmp/upgrade.log 2>&1
check "the upgrade installs" test "$(dpkg-query -W -f='${Version}' gestured)" = "${version}+next"
check "and keeps the changed configuration" grep -q '^# changed by the integrator' /etc/gestured/gestured.toml
after=$(systemctl show -p MainPID --value gestured)
check "the enabled service was restarted by it (pid $before, then $after)" test "$(systemctl is-active gestured)" = active -a "$after" != "$before"
systemctl stop gestured
check "the service stopped, its runtime directory goes, and with it /run/gestured/agent" test ! -e /run/gestured/agent

phase "(c) gestured-user: a laptop with two users"
# (c) gestured-user: the session agent, in every graphical session; each user's own
# gestures and commands (tests/e2e/sessions_service.py, with the packages' files).
dpkg -i "$dir/gestured-user.deb" > /tmp/install-user.log 2>&1
check "dpkg -i gestured-user_${version}_all.deb succeeds (its dependencies are there)" test $? = 0
check "the session agent is enabled for every user's graphical session" \
    test -L /etc/systemd/user/graphical-session.target.wants/gestured-agent.service
check "and no package lets the user at the seat open the touchscreen (no uaccess tag)" bash -c "! udevadm info '$node' | grep -q uaccess"
useradd -m dave
loginctl enable-linger dave
uid=$(id -u dave)
check "dave's user manager starts" wait_for 30 systemctl is-active -q "user@$uid.service"
systemctl --user -M dave@ start gestured-agent.service
check "the session agent does not start where the system service does not run" \
    test "$(systemctl --user -M dave@ show -p ConditionResult --value gestured-agent.service)" = no
systemctl start gestured
check "the service started, it wants the agents again" wait_for 10 test -e /run/gestured/agent
systemctl --user -M dave@ start gestured-agent.service
check "and dave's agent starts, as the unit in his user manager" wait_for 15 systemctl --user -M dave@ is-active -q gestured-agent.service
loginctl disable-linger dave
python3 "$(dirname "$0")/sessions_service.py"
check "two users' sessions on seat0, each with its agent: their gestures, their commands, their keys (sessions_service.py)" test $? = 0

phase "(d) gestured-studio: the studio beside the others"
dpkg -i "$dir/gestured-studio.deb" > /tmp/install-studio.log 2>&1
check "dpkg -i gestured-studio_${version}_amd64.deb succeeds (its dependencies are there)" test $? = 0
check "every library it links is there (ldd)" bash -c "ldd /usr/bin/gestured-studio && ! ldd /usr/bin/gestured-studio | grep -q 'not found'"
check "its .desktop entry starts gestured-studio (lintian checks the rest at make deb)" grep -q '^Exec=gestured-studio$' /usr/share/applications/org.gestured.Studio.desktop
env -u DISPLAY -u WAYLAND_DISPLAY gestured studio > /tmp/studio.log 2>&1
check "gestured studio starts it (GTK, with no display here, says so: $(tr '\n' ' ' < /tmp/studio.log | cut -c1-160))" \
    grep -qi "open display" /tmp/studio.log

# Removing and purging each package leaves nothing of it behind; gestured last, as the
# others depend on it.
purge() {  # purge PACKAGE [PATH...]: what else it may have made
  local package=$1; shift
  local files left status
  # Its files and links, not the directories it shares (/lib is a link to usr/lib).
  files=$(dpkg -L "$package" | while read -r f; do [ ! -d "$f" ] && { [ -f "$f" ] || [ -L "$f" ]; } && echo "$f"; done)
  dpkg --purge "$package" > "/tmp/purge-$package.log" 2>&1
  local rc=$?
  status=$(dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null)
  check "dpkg --purge $package succeeds${status:+ (dpkg: $status)}" test $rc = 0 -a \( -z "$status" -o "$status" = not-installed \)
  left=$(for f in $files "$@"; do [ -e "$f" ] || [ -L "$f" ] && echo "$f"; done)
  check "and leaves no file of it behind${left:+ (left: $left)}" test -z "$left"
}
phase "removal and purge"
purge gestured-studio
purge gestured-uinput
purge gestured-user /etc/systemd/user/graphical-session.target.wants/gestured-agent.service
purge gestured /etc/gestured /etc/systemd/system/multi-user.target.wants/gestured.service \
    /var/lib/systemd/deb-systemd-helper-enabled/gestured.service.dsh-also
check "the service is gone" bash -c "! systemctl cat gestured >/dev/null 2>&1"
check "no input node keeps an ACL for the gestured user" bash -c "! getfacl -p /dev/input/event* /dev/uinput 2>/dev/null | grep -q '^user:gestured:'"
check "the gestured user stays, as Debian keeps system users" id gestured
phase "done"
kill %1 2>/dev/null
[ $failures = 0 ] || { cat /tmp/install*.log /tmp/enable.log; journalctl -u gestured --no-pager -n 30; journalctl _UID="${uid:-0}" --no-pager -n 30; }
exit $((failures > 0))
