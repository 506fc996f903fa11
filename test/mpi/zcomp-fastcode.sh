#!/usr/bin/env bash
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# Adaptive zcomp decides ahead of time that a peer whose path is faster
# than every codec gets its messages raw (issue 39), and looks again once
# a codec proves faster than that path (zcomp_fastcode.c says how).  4 KB
# chunks and no per-message overhead, so that the decision after the reset
# turns on the codec's speed against the path's alone.
. "$TEST_LIB"
needs ompi/mca/pml/zcomp
build_mpi "$TOP/test/mpi/src/zcomp_fastcode.c" fastcode
printf '0 0 1000\n0 1 10\n' >cal.txt
mpirun_t -np 2 --mca pml_zcomp_enable 1 --mca pml_zcomp_calibration_file "$PWD/cal.txt" \
    --mca pml_zcomp_chunk_size 4096 --mca pml_zcomp_msg_overhead 0 --mca pml_zcomp_verbose 5 \
    --mca btl "$SHM_BTL",self ./fastcode >out.txt 2>&1 || { cat out.txt; fail "zcomp_fastcode failed"; }
cat out.txt
assert_grep '^zcomp_fastcode: 0 failed' out.txt
assert_grep '^A: 0 of 4' out.txt "rank 0 compressed messages to itself over a path faster than every codec"
assert_grep '^B: 2 of 2' out.txt "rank 0 did not compress to rank 1 over a 10 MB/s path"
v=$(sed -n 's/.*zcomp: a codec reached \([0-9]*\) MB\/s.*/\1/p' out.txt | head -1)
[ -n "$v" ] || skip "no codec reached 1030 MB/s on zeros here: the reset is not exercised"
# the codec's speed must clear the path's by more than the pipeline's
# fill (two 4 KB chunks of 1 MB) and min_gain (1.03) for C to compress
[ "$v" -ge 1100 ] || skip "the fastest codec reached only $v MB/s: too close to the path's 1000 MB/s"
n=$(sed -n 's/^C: \([0-9]*\) of 4.*/\1/p' out.txt)
[ "${n:-0}" -ge 3 ] || fail "after a codec reached $v MB/s, only ${n:-0} of 4 messages to self (1000 MB/s) compressed: the peer's raw code was not reset"
echo "codes reset once a codec reached $v MB/s: $n of 4 messages to self compressed"
