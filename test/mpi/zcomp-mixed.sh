#!/usr/bin/env bash
# A process with pml/zcomp off among processes with it on (parameters that
# differ between nodes or app contexts): it cannot decode compressed
# messages, so the others must send it everything raw (the modex tells
# them) and say so once; its data arrives intact.  Without the check it got
# zcomp's header and compressed bytes as its data.
. "$TEST_LIB"
needs ompi/mca/pml/zcomp
build_mpi "$TOP/test/mpi/src/zcomp_corrupt.c" sendcheck
# rank 1 switches zcomp off in its own environment
cat >rank1-off.sh <<'SH'
#!/bin/sh
[ "$OMPI_COMM_WORLD_RANK" = 1 ] && export OMPI_MCA_pml_zcomp_enable=0
exec "$@"
SH
chmod +x rank1-off.sh
Z="--mca pml_zcomp_enable 1 --mca pml_zcomp_strategy always --mca pml_zcomp_verbose 1"
# 16000 ints: one chunk; 1000000 ints over TCP: 16 chunks
for n in 16000 1000000; do
    mpirun_t -np 2 $Z --mca btl tcp,self --mca btl_tcp_if_include lo ./rank1-off.sh ./sendcheck $n 3 \
        >m$n.txt 2>&1 || { tail -n 30 m$n.txt; fail "mixed run ($n ints) failed"; }
    for i in 0 1 2; do assert_grep "^msg $i ok" m$n.txt "message $i ($n ints) not intact"; done
    assert_grep '^after ok' m$n.txt
    assert_no_grep 'WRONG|OVERRUN|error class' m$n.txt
    assert_grep 'zcomp: peer 1 .* did not publish that it runs zcomp: messages to it are sent raw' m$n.txt
    assert_grep 'zcomp: sent 0 messages compressed' m$n.txt "rank 0 compressed to a rank without zcomp"
done
# the show_help that tells the user (ORTE may lose it, see works_saying)
works_saying 6 'did not publish that it runs zcomp, so it may not decode' help.txt mpirun_t -np 2 \
    --mca pml_zcomp_enable 1 --mca pml_zcomp_strategy always ./rank1-off.sh ./sendcheck 16000 1
# the same program with zcomp on everywhere does compress (so the checks
# above are about the mixed setting, not a run that never compresses)
mpirun_t -np 2 $Z ./sendcheck 16000 3 >all.txt 2>&1 || { tail all.txt; fail "run with zcomp everywhere failed"; }
assert_grep 'zcomp: sent 3 messages compressed' all.txt
assert_no_grep 'did not publish that it runs zcomp' all.txt
echo "mixed: OK"
