#!/usr/bin/env bash
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# An upstream Open MPI 5.0.7 to measure the 5.0.7 base against, as Debian's
# openmpi-bin 4.1.4 (UPSTREAM=/usr) is for the 4.1.4 base: Debian 13's
# openmpi-bin and libopenmpi-dev (5.0.7-1) in a chroot made by debootstrap
# (root; about 400 MB, a few minutes), with /dev, /sys, /proc, /tmp and
# /work bound at their own paths, and DIR/bin/{mpicc,mpirun,ompi_info}
# that run Debian 13's in the chroot from the same directory.  Then:
#
#   bench/debian13-openmpi.sh [DIR]        (default /srv/upstream-5.0.7; chroot /srv/trixie)
#   PREFIX=<5.0.7 install> UPSTREAM=/srv/upstream-5.0.7 bench/comm_memory.sh
#
# Rerunning it only mounts what is not mounted.  The programs it compiles
# and runs must live under /tmp or /work.  Unmount the binds before
# removing the chroot (rm -rf would follow them into /work):
#   for d in /work /tmp /sys /dev/shm /dev /proc; do umount /srv/trixie$d; done
set -euo pipefail
DIR=${1:-/srv/upstream-5.0.7}
R=${CHROOT:-/srv/trixie}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
[ "$(id -u)" -eq 0 ] || { echo "debian13-openmpi: needs root (debootstrap, chroot, mount)" >&2; exit 2; }
if [ ! -x "$R/usr/bin/mpirun" ]; then
    command -v debootstrap >/dev/null || { apt-get update -q && apt-get install -y -q debootstrap; }
    # debootstrap's --include resolves dependencies only roughly (libltdl-dev
    # wants automake-1.17): apt in the chroot finishes the job
    debootstrap --variant=minbase --include=openmpi-bin,libopenmpi-dev,gcc,libc6-dev trixie "$R" "$MIRROR" ||
        echo "debian13-openmpi: debootstrap left packages unconfigured; apt-get -f install in the chroot"
    echo "deb $MIRROR trixie main" >"$R/etc/apt/sources.list"
    cp /etc/resolv.conf "$R/etc/"
    mountpoint -q "$R/proc" || mount -t proc proc "$R/proc"
    chroot "$R" /bin/sh -c 'export DEBIAN_FRONTEND=noninteractive; apt-get update -q && apt-get -f install -y -q &&
        apt-get install -y -q openmpi-bin libopenmpi-dev gcc libc6-dev'
fi
mountpoint -q "$R/proc" || mount -t proc proc "$R/proc"
for d in /dev /dev/shm /sys /tmp /work; do
    [ -d "$d" ] || continue
    mkdir -p "$R$d"
    mountpoint -q "$R$d" || mount --bind "$d" "$R$d"
done
mkdir -p "$DIR/bin"
for t in mpicc mpirun ompi_info; do
    cat >"$DIR/bin/$t" <<W
#!/bin/sh
# Debian 13's Open MPI in $R (made by bench/debian13-openmpi.sh)
exec chroot $R /bin/sh -c 'cd "\$1" && shift && exec "\$@"' sh "\$PWD" /usr/bin/$t "\$@"
W
    chmod +x "$DIR/bin/$t"
done
"$DIR/bin/ompi_info" --version | head -n 1
