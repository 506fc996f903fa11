#!/usr/bin/env bash
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# What each component of the suite does for a user, measured in this run
# against the stock choice of the same installation, one line each with the
# MCA switch that produced it (about a minute and a half on 2 cores):
#   pml/zcomp        4 MB messages over a 1 Gbit/s link, compressible and
#                    random data, against plain ob1;
#   fcoll/la_twophase an irregular collective write, against vulcan: time
#                    and bytes moved between processes;
#   grpmap           bytes of a compressed group map against Open MPI's
#                    dense table, for three shapes (a world of 200,000);
#   redist           a redistribution in place against MPI_Alltoallw:
#                    time, and extra memory against its second buffer;
#   comm_store       ping-pong latency with 10,000 live communicators, per
#                    store, against flat (Open MPI's table).
# The 1 Gbit/s link is the loopback of a private network namespace shaped
# with tc (needs root, unshare and iproute2); without it zcomp's line says
# why and la_twophase runs over shared memory.  A part that cannot run says
# why and the others go on.
#
#   contrib/showcase-suite.sh PREFIX     (env: OVERLAY_BUILD_DIR, default ./_build)
set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PREFIX=${1:?usage: showcase-suite.sh PREFIX}
BUILD=${OVERLAY_BUILD_DIR:-$TOP/_build}
O=$BUILD/obj S=$(ls -d "$BUILD"/src/openmpi-* 2>/dev/null | head -n 1)
W=$(mktemp -d "${TMPDIR:-/tmp}/showcase.XXXXXX")
trap 'rm -rf "$W"' EXIT
root=(); [ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
MPICC=$PREFIX/bin/mpicc
t_start=$(date +%s)

# The components this installation has (a base may not carry them all yet).
"$PREFIX/bin/ompi_info" --parsable >"$W/info.txt" 2>/dev/null || true
have() { grep -q "^mca:$1:$2:" "$W/info.txt"; }
# 5.0 renamed the shared-memory BTL vader to sm, and its mpirun (PRRTE's)
# takes oversubscription as a mapping modifier.
SHM=vader OVERSUB=(--oversubscribe)
case $(sed -n 's/^ompi:version:full://p' "$W/info.txt") in
    4.*) ;;
    *) SHM=sm OVERSUB=(--map-by :OVERSUBSCRIBE) ;;
esac
ARCH=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)

say() { printf '%s\n' "$*"; }
cannot() { say "  (cannot run: $*)"; }
run() {   # run SECONDS mpirun-args...: this installation's mpirun, time-limited
    local s=$1; shift
    timeout -k 5 "$s" "$PREFIX/bin/mpirun" "${root[@]}" "${OVERSUB[@]}" "$@"
}
TCP=(--mca btl tcp,self --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo)
# 5.0's runtime (PRRTE) takes its own parameters with --prtemca
[ "$SHM" = vader ] || TCP=(--mca btl tcp,self --mca btl_tcp_if_include lo --prtemca oob_tcp_if_include lo)

# shaped CMD...: CMD in a private network namespace whose loopback is a
# 1 Gbit/s link (tc token bucket); nothing outside is touched.
shape_why=
if [ "$(id -u)" -ne 0 ]; then shape_why="the 1 Gbit/s link needs root (a private network namespace)"
elif ! command -v unshare >/dev/null || ! command -v tc >/dev/null || ! command -v ip >/dev/null; then
    shape_why="the 1 Gbit/s link needs unshare (util-linux) and iproute2 (ip, tc)"
elif ! unshare --net sh -c 'ip link set lo up && tc qdisc add dev lo root tbf rate 1gbit burst 128kb latency 50ms' 2>"$W/ns.err"; then
    shape_why="no shaped network namespace here: $(head -n 1 "$W/ns.err")"
fi
shaped() {
    unshare --net bash -c 'ip link set lo up && tc qdisc add dev lo root tbf rate 1gbit burst 128kb latency 50ms && exec "$@"' shaped "$@"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "?" }'; }
mb() { awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1e6 }'; }
kb() { awk -v b="$1" 'BEGIN { printf "%.0f KB", b / 1e3 }'; }

say "== The suite at work: each line measured now, against the stock choice"

# ---- pml/zcomp
say "compression of messages (pml/zcomp):  --mca pml_zcomp_enable 1"
if ! have pml zcomp; then
    cannot "pml/zcomp is not built on this Open MPI base"
elif [ -n "$shape_why" ]; then
    cannot "$shape_why"
elif ! "$MPICC" -O2 -o "$W/zb" -I"$O" -I"$O/opal/include" -I"$O/ompi/include" -I"$O/orte/include" \
        -I"$S" -I"$S/opal/include" -I"$S/ompi/include" -I"$S/orte/include" \
        -I"/usr/lib/$ARCH/pmix2/include" -I"$TOP/test/common" \
        "$TOP/bench/zcomp_bench.c" "$TOP/test/common/datasets.c" -lopen-pal -lm 2>"$W/cc.err" ||
     ! "$MPICC" -O2 -o "$W/zcal" "$TOP/contrib/zcomp_calibrate.c" 2>>"$W/cc.err"; then
    cannot "the benchmark does not build against $O: $(head -n 1 "$W/cc.err")"
else
    sets=int-75%zero,random-bytes
    shaped timeout -k 5 60 "$PREFIX/bin/mpirun" "${root[@]}" -np 2 "${TCP[@]}" \
        "$W/zcal" "$W/zcomp.cal" >/dev/null 2>&1 &&
    shaped timeout -k 5 60 "$PREFIX/bin/mpirun" "${root[@]}" -np 2 "${TCP[@]}" \
        "$W/zb" --sets $sets --sizes 4194304 --reps 5 >"$W/plain.txt" 2>&1 &&
    shaped timeout -k 5 60 "$PREFIX/bin/mpirun" "${root[@]}" -np 2 "${TCP[@]}" \
        --mca pml_zcomp_enable 1 --mca pml_zcomp_calibration_file "$W/zcomp.cal" \
        "$W/zb" --sets $sets --sizes 4194304 --reps 5 >"$W/zcomp.txt" 2>&1
    if [ $? -ne 0 ]; then
        cannot "a run failed: $(tail -n 1 "$W/plain.txt" "$W/zcomp.txt" 2>/dev/null | tr '\n' ' ')"
    else
        for s in int-75%zero random-bytes; do
            p=$(awk -v s="$s" '$1 == "xfer" && $2 == s { print $4 }' "$W/plain.txt")
            z=$(awk -v s="$s" '$1 == "xfer" && $2 == s { print $4 }' "$W/zcomp.txt")
            case $s in
                int-75%zero) what="ints, 75 % zeros" ;;
                *) what="random bytes (incompressible)" ;;
            esac
            say "  4 MB of $what over a 1 Gbit/s link: $(ratio "$p" "$z")x as fast as plain ob1" \
                "($(awk -v t="$p" 'BEGIN { printf "%.1f", t * 1e3 }') ms -> $(awk -v t="$z" 'BEGIN { printf "%.1f", t * 1e3 }') ms)"
        done
    fi
fi

# ---- fcoll/la_twophase
say "collective I/O with aggregators placed by assignment (fcoll/la_twophase):  --mca fcoll la_twophase"
if ! have fcoll la_twophase; then
    cannot "fcoll/la_twophase is not built on this Open MPI base"
elif ! "$MPICC" -O2 -I"$TOP/test/common" -o "$W/fb" "$TOP/bench/fcoll_bench.c" 2>"$W/cc.err"; then
    cannot "the benchmark does not build: $(head -n 1 "$W/cc.err")"
else
    net=(--mca btl $SHM,self) pre=() where="over shared memory"
    [ -z "$shape_why" ] && { net=("${TCP[@]}"); pre=(shaped); where="over a 1 Gbit/s link"; }
    dir=/dev/shm; [ -w "$dir" ] || dir=$W
    declare -A T B
    ok=1
    for c in la_twophase vulcan; do
        mca=(--mca fcoll "$c" --mca io_ompio_num_aggregators 4)
        B[$c]=$("${pre[@]}" timeout -k 5 60 "$PREFIX/bin/mpirun" "${root[@]}" --oversubscribe -np 4 \
                "${net[@]}" "${mca[@]}" --mca pml_monitoring_enable 2 --mca pml_monitoring_enable_output 1 \
                "$W/fb" "$dir/showcase.$$.$c" irregular 16 0 2>/dev/null |
                awk -F'\t' '$1 == "E" && $2 != $3 { b += $4 + 0 } END { print b + 0 }')
        T[$c]=$("${pre[@]}" timeout -k 5 60 "$PREFIX/bin/mpirun" "${root[@]}" --oversubscribe -np 4 \
                "${net[@]}" "${mca[@]}" "$W/fb" "$dir/showcase.$$.$c" irregular 16 3 2>"$W/fb.err" |
                sed -n 's/^RESULT .* write_s=\([^ ]*\).*/\1/p')
        rm -f "$dir/showcase.$$.$c"
        [ -n "${T[$c]}" ] || { ok=0; cannot "$c's run failed: $(tail -n 1 "$W/fb.err")"; break; }
    done
    if [ $ok = 1 ]; then
        say "  irregular write of 16 MB by 4 processes $where: $(ratio "${T[la_twophase]}" "${T[vulcan]}")x vulcan's time" \
            "(${T[la_twophase]} s against ${T[vulcan]} s), $(mb "${B[la_twophase]}") moved between processes against $(mb "${B[vulcan]}")"
    fi
fi

# ---- grpmap
say "compressed group maps (grpmap):  --mca grpmap_base_min_size 0 (default: groups of 1024 members or more)"
G=$TOP/ompi/mca/grpmap
bdd=("$G/bdd/grpmap_bdd.c" -lbdd); [ -f /usr/include/bdd.h ] || bdd=(-DGP_NO_BDD)
if ! have grpmap array; then
    cannot "grpmap is not built on this Open MPI base"
elif ! gcc -std=c99 -O2 -D_POSIX_C_SOURCE=200809L -I"$TOP" -I"$S/opal/include" -o "$W/gb" \
        "$TOP/bench/grpmap_bench.c" "$G/base/grpmap_engine.c" "$G/lattice/grpmap_lattice.c" \
        "$G/bitmap/grpmap_bitmap.c" "$G/gap/grpmap_gap.c" "$G/array/grpmap_array.c" \
        "$G/bwt/grpmap_bwt.c" "$G/wtr/grpmap_wtr.c" \
        "$TOP/opal/mca/compress/bzip2/compress_bzip2_codec.c" "${bdd[@]}" -lbz2 -lm -lpthread 2>"$W/cc.err"; then
    cannot "the benchmark does not build: $(head -n 1 "$W/cc.err")"
elif ! timeout -k 5 60 "$W/gb" -r 1 -p 1,9,14 >"$W/gb.txt" 2>&1; then
    cannot "the benchmark failed: $(tail -n 1 "$W/gb.txt")"
else
    # the strategies' table: pat n space bytes time bytes hybrid bytes ... | ... dense-8B dense-4B
    awk '/^## strategies/ { t = 1; next } /^##/ { t = 0 } t && $1 ~ /^(1|9|14)$/ {
            what = ($1 == 1) ? "every other rank" : ($1 == 9) ? "50,000 random ranks in order" : "10 blocks of 10,000, each shuffled"
            printf "  %s of a 200,000-rank world (%d members): %s form, %d bytes against %d for the dense table\n",
                   what, $2, $7, $8, $(NF - 1) }' "$W/gb.txt"
fi

# ---- redist
say "redistribution in place (MPIX_Redistribute, redist):  --mca redist cyclic (the default)"
if ! have redist cyclic; then
    cannot "redist is not built on this Open MPI base"
elif ! "$MPICC" -O2 -I"$TOP/test/common" -o "$W/rb" "$TOP/bench/redist_bench.c" 2>"$W/cc.err"; then
    cannot "the benchmark does not build (no madre extension?): $(head -n 1 "$W/cc.err")"
elif ! run 60 -np 4 --mca btl $SHM,self "$W/rb" -b 256 -r 3 -M exp1-80 cyclic >"$W/rb.txt" 2>&1; then
    cannot "the benchmark failed: $(tail -n 1 "$W/rb.txt")"
else
    # row <map> <component> <exec_ms> <base_ms> <ratio> <create_ms> <pvar_peak> <heap_peak> <base_heap_peak> <base_extra>
    awk '$1 == "row" && $3 == "cyclic" && NF >= 11 {
            printf "  4 processes, 256 blocks of 16 KB each, 80 %% of them moving: %.0f KB extra memory per process against MPI_Alltoallw'"'"'s %.0f KB second buffer, in %.1f ms against its %.1f ms (%.2fx its time)\n",
                   $9 / 1e3, $11 / 1e3, $4, $5, $6 }' "$W/rb.txt" | grep . ||
        cannot "no result line: $(tail -n 1 "$W/rb.txt")"
fi

# ---- comm_store
say "communicator storage (comm_store):  --mca comm_store rbtree | radix (flat: Open MPI's table)"
if ! have comm_store rbtree; then
    cannot "comm_store is not built on this Open MPI base"
elif ! "$MPICC" -O2 -I"$TOP/test/common" -o "$W/cb" "$TOP/bench/comm_store_bench.c" 2>"$W/cc.err"; then
    cannot "the benchmark does not build: $(head -n 1 "$W/cc.err")"
else
    declare -A L
    for st in flat rbtree radix; do
        L[$st]=$(run 60 -np 2 --mca btl $SHM,self --mca comm_store "$st" "$W/cb" pingpong 10000 20000 2>"$W/cb.err" |
                 awk '$1 == "pingpong" { print $5 }')
        [ -n "${L[$st]}" ] || { cannot "$st: $(tail -n 1 "$W/cb.err")"; break; }
    done
    [ -n "${L[radix]:-}" ] &&
        say "  8-byte ping-pong with 10,000 live communicators: flat ${L[flat]} ns, rbtree ${L[rbtree]} ns" \
            "($(ratio "${L[rbtree]}" "${L[flat]}")x), radix ${L[radix]} ns ($(ratio "${L[radix]}" "${L[flat]}")x)"
fi
say "== showcase of the suite: $(( $(date +%s) - t_start )) s"
