#!/usr/bin/env bash
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# Instructions per ob1 peer lookup by the form of the peer table (5 peers:
# flat, the slots of patches 0029 and 0037; 6 peers: flat, the hash of
# patch 0035, two-level), counted by callgrind over
# bench/ob1_lookup.c's loop, which includes the patched pml_ob1_comm.h of
# the 4.1.4 build tree: (count for N2 iterations - count for N1) /
# ((N2 - N1) * lookups an iteration), the loop's own instructions included (about 6
# a lookup; the flat form's difference to the others is the lookup's).
#
#   bench/ob1_lookup.sh   (env: OVERLAY_BUILD_DIR=_build N1=1000 N2=3000)
set -euo pipefail
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
B=${OVERLAY_BUILD_DIR:-$TOP/_build}
S=$B/src/openmpi-4.1.4 O=$B/obj
N1=${N1:-1000} N2=${N2:-3000}
[ -f "$S/ompi/mca/pml/ob1/pml_ob1_comm.h" ] && [ -f "$O/opal/include/opal_config.h" ] || {
    echo "ob1_lookup.sh: no 4.1.4 build tree at $B (build it first)" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "ob1_lookup.sh: needs valgrind" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gcc -O2 -DNDEBUG -I"$S" -I"$O" -I"$O/opal/include" -I"$S/opal/include" -I"$S/orte/include" \
    -I"$O/orte/include" -I"$O/ompi/include" -I"$S/ompi/include" \
    $(pkg-config --cflags-only-I pmix 2>/dev/null || echo -I/usr/lib/x86_64-linux-gnu/pmix2/include) \
    -o "$work/lk" "$TOP/bench/ob1_lookup.c"
count() {
    valgrind -q --tool=callgrind --callgrind-out-file="$work/cg" --toggle-collect=loop "$work/lk" "$1" "$2"
    awk '/^summary:/ {print $2}' "$work/cg"
}
printf '%-8s %12s %10s\n' form "instr/lookup" "vs flat"
for form in flat slots flat6 hash chunked; do
    k=6; case $form in flat|slots) k=5 ;; esac
    a=$(count $form "$N1"); b=$(count $form "$N2")
    v=$(awk -v a="$a" -v b="$b" -v n=$((k * (N2 - N1))) 'BEGIN {printf "%.2f", (b - a) / n}')
    case $form in flat|flat6) flat=$v ;; esac
    printf '%-8s %12s %+10.2f\n' $form "$v" "$(awk -v v="$v" -v f="$flat" 'BEGIN {print v - f}')"
done
