#!/usr/bin/env bash
# What a used communicator holds that grows with its members, at world
# sizes no test machine runs (issue 38: at most 0.5 bytes a member beyond
# the peers contacted, at 10^5): test/unit/comm_members_sim.c compiles this
# base's patched ob1 pml_ob1_comm.c and grpmap's engine, and simulates
# every member of the communicators bench/comm_memory.c makes (dup, split
# rows, columns and planes, Cart_sub rows) in worlds of 64 to 10^5
# processes after a ring round and an 8-byte allreduce.  The median and
# the largest member must hold at most 0.5 bytes a member beyond their
# peers' entries and a hash of them; with every communicator and group
# dense, as stock Open MPI's, the same check must fail (8-16 bytes a
# member).  Runs on every base: ob1's code is the base's own.
. "$TEST_LIB"
needs patch:0005 patch:0035 patch:0036 patch:0038
G=$TOP/ompi/mca/grpmap
S=$OMPI_SRC O=$OMPI_OBJ
src=$S/ompi/mca/pml/ob1/pml_ob1_comm.c
[ -f "$src" ] && [ -f "$O/opal/include/opal_config.h" ] || skip "no prepared $OMPI_BASE build tree at $OVERLAY_BUILD_DIR"
inc=(-I"$TOP" -I"$TOP/test/common" -I"$S" -I"$O" -I"$O/opal/include" -I"$S/opal/include"
     -I"$O/ompi/include" -I"$S/ompi/include")
if [ "$OMPI_SERIES" = 4.1 ]; then
    inc+=(-I"$S/orte/include" -I"$O/orte/include" $(pkg-config --cflags-only-I pmix 2>/dev/null || echo -I/usr/lib/x86_64-linux-gnu/pmix2/include))
else
    inc+=($OPAL_PMIX_INC)
fi
bdd=("$G/bdd/grpmap_bdd.c" -lbdd)
[ -f /usr/include/bdd.h ] || { note "BuDDy not installed: built without bdd"; bdd=(-DGP_NO_BDD); }
gcc -std=gnu99 -O2 -Wall -Werror "${inc[@]}" -o sim "$TOP/test/unit/comm_members_sim.c" \
    "$G/base/grpmap_engine.c" "$G/lattice/grpmap_lattice.c" "$G/bitmap/grpmap_bitmap.c" \
    "$G/gap/grpmap_gap.c" "$G/array/grpmap_array.c" "$G/bwt/grpmap_bwt.c" "$G/wtr/grpmap_wtr.c" \
    "$COMPRESS/bzip2/compress_bzip2_codec.c" "${bdd[@]}" -lbz2 -lm \
    -L"$PREFIX/lib" -Wl,-rpath,"$PREFIX/lib" -lopen-pal || fail "cannot build comm_members_sim"
./sim >out.txt 2>&1 || { cat out.txt; fail "comm_members_sim: a used communicator grows with its members"; }
cat out.txt
assert_grep '^comm_members_sim: OK$' out.txt
assert_grep '^ *100000  dup +100000 ' out.txt "no world of 10^5 simulated"
# the check against what it guards: stock's dense tables and groups
rc=0; ./sim -d 64 100000 >dense.txt 2>&1 || rc=$?
cat dense.txt
[ $rc -eq 1 ] || fail "comm_members_sim -d (stock's dense storage) did not fail the check (exit $rc)"
assert_grep '^ *100000  dup +100000 .* 8\.000 +8\.000 +OVER$' dense.txt "stock's flat table is not 8 bytes a member"
