#!/bin/bash
# The .deb as a kiosk integrator uses it, inside scripts/vm-run-systemd (systemd as
# PID 1) with the Swift toolchain hidden: install, manuals, check, enable, an upgrade
# over a changed configuration, purge. tests/e2e/run-package puts the packages and
# fixtures in /opt/gestured-package.
#   tests/e2e/package.sh VERSION
set -u
version=$1
dir=/opt/gestured-package
. "$(dirname "$0")/lib.sh"
export DEBIAN_FRONTEND=noninteractive MANPAGER=cat PAGER=cat

# No Swift here: its runtime's directory, wherever the toolchain is, is hidden.
runtime=$(find /opt /usr/lib /usr/local -maxdepth 6 -path '*/lib/swift/linux/libswiftCore.so' 2>/dev/null | head -1)
if [ -n "$runtime" ]; then mount -t tmpfs none "${runtime%/lib/swift/linux/libswiftCore.so}"; fi
check "no Swift runtime is left to find" test -z "$(find /opt /usr/lib /usr/local -maxdepth 6 -name 'libswiftCore.so' 2>/dev/null)"
check "no swift command either" bash -c "! command -v swift"

# A container's policy-rc.d (which forbids starting services) would hide what the
# package's scripts do: a real machine has none.
rm -f /usr/sbin/policy-rc.d
apt-get install -y "$dir/gestured.deb" > /tmp/install.log 2>&1
check "apt install ./gestured_${version}_amd64.deb succeeds" test $? = 0
tail -3 /tmp/install.log
check "gestured --version names the package's version" test "$(gestured --version)" = "$version"
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

evemu-device "$dir/panel.desc" > /tmp/panel.node &
wait_for 15 grep -q /dev/input /tmp/panel.node
udevadm settle
node=$(grep -o '/dev/input/event[0-9]*' /tmp/panel.node)
systemctl enable --now gestured > /tmp/enable.log 2>&1
check "systemctl enable --now gestured reaches active" test "$(systemctl is-active gestured)" = active
in_journal() { journalctl -u gestured --no-pager -o cat | grep -q -- "$1"; }
check "and it reads the touchscreen, thanks to the package's udev rule" wait_for 15 in_journal "$node: 'gestured test panel'"
evemu-play "$node" < "$dir/checkmark.evemu"
check "a checkmark fires" wait_for 15 in_journal "confirm (checkmark) recognized"
check "gestured status reads the service's mode over the system bus" bash -c "gestured status | grep -q '^mode:     default'"

# An upgrade keeps the integrator's configuration.
echo '# changed by the integrator' >> /etc/gestured/gestured.toml
before=$(systemctl show -p MainPID --value gestured)
apt-get install -y "$dir/gestured-next.deb" > /tmp/upgrade.log 2>&1
check "the upgrade installs" test "$(dpkg-query -W -f='${Version}' gestured)" = "${version}+next"
check "and keeps the changed configuration" grep -q '^# changed by the integrator' /etc/gestured/gestured.toml
after=$(systemctl show -p MainPID --value gestured)
check "the enabled service was restarted by it (pid $before, then $after)" test "$(systemctl is-active gestured)" = active -a "$after" != "$before"

# Purge: nothing of the package is left but what Debian keeps by policy (its user).
files=$(dpkg -L gestured | while read -r f; do [ -f "$f" ] && echo "$f"; done)
apt-get purge -y gestured > /tmp/purge.log 2>&1
check "apt purge gestured succeeds" test "$(dpkg-query -W -f='${Status}' gestured 2>/dev/null)" = ""
left=$(for f in $files /etc/gestured /etc/systemd/system/multi-user.target.wants/gestured.service \
                /var/lib/systemd/deb-systemd-helper-enabled/gestured.service.dsh-also; do [ -e "$f" ] && echo "$f"; done)
check "and leaves no file of it behind${left:+ (left: $left)}" test -z "$left"
check "the service is gone" bash -c "! systemctl cat gestured >/dev/null 2>&1"
check "the gestured user stays, as Debian keeps system users" id gestured
kill %1 2>/dev/null
[ $failures = 0 ] || { cat /tmp/install.log /tmp/enable.log; journalctl -u gestured --no-pager -n 30; }
exit $((failures > 0))
