#!/usr/bin/env bash
# zcomp compressing messages of a few bytes writes the receive buffer only
# where the message's data go (test/mpi/src/zcomp_tail.c): a receive larger
# than the message keeps its tail, and an indexed type of long double
# complex broadcast on 3 ranks neither crashes nor touches the holes.  Both
# failed before zcomp kept ob1 from unpacking its header into the user's
# buffer (found by mpi4py's suite; issue 23).  Also on stock, as reference.
. "$TEST_LIB"
needs ompi/mca/pml/zcomp
build_mpi "$TOP/test/mpi/src/zcomp_tail.c" tail
Z=(--mca pml_zcomp_enable 1 --mca pml_zcomp_strategy always --mca pml_zcomp_threshold 1 --mca pml_zcomp_verbose 1)
for np in 2 3; do
    run_to 120 stock$np.txt -np $np ./tail || { cat stock$np.txt; fail "stock, $np ranks: failed"; }
    for codec in lz4 rle zstd; do
        run_to 120 z$np-$codec.txt -np $np "${Z[@]}" --mca pml_zcomp_codec $codec ./tail ||
            { cat z$np-$codec.txt; fail "zcomp always from 1 byte, $codec, $np ranks: failed"; }
        assert_grep 'zcomp: sent [1-9][0-9]* messages compressed' z$np-$codec.txt "$codec: zcomp compressed nothing"
        n=$(grep -c ': 0 failed$' z$np-$codec.txt || true)
        [ "$n" -eq "$np" ] || { cat z$np-$codec.txt; fail "$codec, $np ranks: $n of $np ranks clean"; }
        echo "$np ranks, $codec: buffers written only where the data go"
    done
done
