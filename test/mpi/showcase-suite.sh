#!/usr/bin/env bash
# The showcase of `./quickstart.sh showcase` (contrib/showcase-suite.sh)
# prints, within two minutes, one measured line per component under a line
# naming the MCA switch that produced it: zcomp (compressible and random
# data), la_twophase against vulcan, grpmap (three shapes), redist against
# MPI_Alltoallw, comm_store per store.  Only zcomp may say it cannot run,
# and only where the shaped link cannot be made (not root, no unshare or tc).
. "$TEST_LIB"
t0=$SECONDS
OVERLAY_BUILD_DIR="$OVERLAY_BUILD_DIR" timeout -k 5 180 "$TOP/contrib/showcase-suite.sh" "$PREFIX" \
    | tee out.txt || fail "showcase-suite.sh failed or hung"
dt=$((SECONDS - t0))
[ $dt -le 120 ] || fail "the showcase took ${dt} s (the bar: 120 s)"

# lines NAME SWITCH: the lines under the header that names SWITCH, up to the next header
lines() { awk -v sw="$1" 'index($0, sw) && !/^  / { on = 1; next } !/^  / { on = 0 } on' out.txt; }
need() {   # need SWITCH COUNT PATTERN WHAT
    local got; got=$(lines "$1" | grep -cE "$3" || true)
    [ "$got" -ge "$2" ] || { lines "$1"; fail "$4: $got measured line(s) under '$1', want $2"; }
}
# absent DIR SWITCH: the base leaves DIR out (config/base), and the
# showcase says so under SWITCH
absent() {
    have "$1" && return 1
    lines "$2" | grep -q 'cannot run: .* is not built on this Open MPI base' ||
        fail "$1 is not on Open MPI $OMPI_BASE, and the showcase does not say so under '$2'"
}
shaped=1
if absent ompi/mca/pml/zcomp 'pml_zcomp_enable 1'; then
    shaped=0
elif lines 'pml_zcomp_enable 1' | grep -q 'cannot run'; then
    lines 'pml_zcomp_enable 1' | grep -qE 'needs root|needs unshare|no shaped network namespace' ||
        fail "zcomp's part could not run for another reason than the shaped link: $(lines 'pml_zcomp_enable 1')"
    [ "$(id -u)" -ne 0 ] || ! unshare --net true 2>/dev/null ||
        fail "zcomp's part did not run, though this root can make a network namespace"
    shaped=0
else
    need 'pml_zcomp_enable 1' 2 '^  4 MB of .*: [0-9.]+x as fast as plain ob1 \([0-9.]+ ms -> [0-9.]+ ms\)' zcomp
    # incompressible data: adaptive zcomp sends it raw, so about the same time
    r=$(lines 'pml_zcomp_enable 1' | sed -n 's/.*random bytes.*: \([0-9.]*\)x as fast.*/\1/p')
    awk -v r="$r" 'BEGIN { exit !(r >= 0.8) }' || fail "zcomp made random data slower: ${r}x"
fi
need 'fcoll la_twophase' 1 "^  irregular write of 16 MB by 4 processes over (a 1 Gbit/s link|shared memory): [0-9.]+x vulcan's time .* [0-9.]+ MB moved between processes against [0-9.]+ MB" la_twophase
absent ompi/mca/grpmap 'grpmap_base_min_size 0' ||
    need 'grpmap_base_min_size 0' 3 '^  .* world \([0-9]+ members\): [a-z+]+ form, [0-9]+ bytes against [0-9]+ for the dense table' grpmap
need 'redist cyclic' 1 "^  4 processes, .*: [0-9]+ KB extra memory per process against MPI_Alltoallw's [0-9]+ KB second buffer, in [0-9.]+ ms" redist
absent ompi/mca/comm_store 'comm_store rbtree' ||
    need 'comm_store rbtree' 1 '^  8-byte ping-pong with 10,000 live communicators: flat [0-9.]+ ns, rbtree [0-9.]+ ns \([0-9.]+x\), radix [0-9.]+ ns' comm_store
awk '/^[^ ]/ { z = index($0, "pml_zcomp_enable 1") } !z' out.txt >others.txt
grep -v 'is not built on this Open MPI base' others.txt >others2.txt || true
assert_no_grep 'cannot run' others2.txt "a part other than zcomp could not run"
note "showcase: ${dt} s, shaped link: $shaped"
