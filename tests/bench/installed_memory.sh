#!/bin/bash
# Memory as a user has it (inside scripts/vm-run-systemd, by tests/bench/run-installed-memory):
# gestured installed from its .deb and lisgd from Debian's, both onto an ext4 disk (the
# virtio disk /dev/vda, under /usr), not the guest's tmpfs, where a program's file pages
# would count as shared memory; caches dropped after `sync`, so that what they map is
# read back from that disk, clean. The service started by systemd with a one-finger
# swipe bound to a command: its PSS and anonymous memory idle, then after 1,000 swipes
# and 100 reloads; lisgd (as a user starts it, on the same swipes) idle and after them.
# Prints one line "MEMORY {json}".
#   tests/bench/installed_memory.sh DIR       DIR: gestured.deb, lisgd.deb, panel.desc, swipes.evemu
set -u
dir=$1
. "$(dirname "$0")/../e2e/lib.sh"
export DEBIAN_FRONTEND=noninteractive
rm -f /var/lib/man-db/auto-update /usr/sbin/policy-rc.d

mkfs.ext4 -q /dev/vda && mkdir -p /mnt/disk && mount /dev/vda /mnt/disk && mkdir /mnt/disk/upper /mnt/disk/work
mount -t overlay -o lowerdir=/usr,upperdir=/mnt/disk/upper,workdir=/mnt/disk/work overlay /usr
apt-get install -y "$dir/gestured.deb" > /tmp/install.log 2>&1 || { cat /tmp/install.log; exit 1; }
dpkg -i "$dir/lisgd.deb" > /tmp/install-lisgd.log 2>&1 || { cat /tmp/install-lisgd.log; exit 1; }
for program in /usr/bin/gestured /usr/bin/lisgd; do
    test -f "/mnt/disk/upper/${program#/usr/}" || { echo "$program is not on the disk"; exit 1; }
done
sync
echo 3 > /proc/sys/vm/drop_caches

node=$(evemu_panel "$dir/panel.desc" /tmp/panel.node)
cat > /etc/gestured/gestured.toml <<'EOF2'
[[gesture]]
name = "right"
type = "swipe"
direction = "right"
command = "true"
EOF2
systemctl start gestured
wait_for 20 bash -c "journalctl -u gestured -o cat | grep -q \"$node: 'gestured test panel'\"" || { journalctl -u gestured -o cat; exit 1; }
memory() {  # memory PID: {"pss": KB, "anonymous": KB}
    awk '/^Pss:/ { pss = $2 } /^Anonymous:/ { anon = $2 } END { printf "{\"pss\": %d, \"anonymous\": %d}", pss, anon }' "/proc/$1/smaps_rollup"
}
sleep 3
pid=$(systemctl show -p MainPID --value gestured)
idle=$(memory "$pid")
evemu-play "$node" < "$dir/swipes.evemu"
sleep 2
for _ in $(seq 100); do systemctl reload gestured; done
sleep 2
after=$(memory "$pid")
recognized=$(journalctl -u gestured -o cat | grep -c "right (swipe) recognized")
reloads=$(journalctl -u gestured -o cat | grep -c "reload: ")
systemctl stop gestured

lisgd -d "$node" -w 3840 -h 2160 -g "1,LR,*,*,R,true" > /tmp/lisgd.log 2>&1 &
lisgd=$!
sleep 3
lisgd_idle=$(memory "$lisgd")
evemu-play "$node" < "$dir/swipes.evemu"
sleep 2
lisgd_after=$(memory "$lisgd")
kill "$lisgd"
echo "MEMORY {\"gestured\": {\"idle\": $idle, \"after\": $after, \"recognized\": $recognized, \"reloads\": $reloads}, \"lisgd\": {\"idle\": $lisgd_idle, \"after\": $lisgd_after}, \"binary_kb\": {\"gestured\": $(($(stat -c %s /usr/bin/gestured) / 1024)), \"lisgd\": $(($(stat -c %s /usr/bin/lisgd) / 1024))}}"
