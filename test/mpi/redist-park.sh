#!/usr/bin/env bash
# redist park parks where it must: the seed's experiment 4 (rank 0 all
# free, every other rank full and sending everything to the other full
# ranks) on 4 and 6 ranks; with park some blocks travel through rank 0
# (redist_base_parked_blocks > 0 there, 0 elsewhere, every block sent once
# more), with cyclic none do; every block checked (redist_park.c).
. "$TEST_LIB"
build_mpi "$TOP/test/mpi/src/redist_park.c" park
for np in 4 6; do
    run_to 120 park-$np.txt -np $np ./park park 1 \
        || { tail -20 park-$np.txt; fail "park on $np ranks: wrong blocks or no parking"; }
    cat park-$np.txt; assert_grep "^redist_park: OK$" park-$np.txt
done
run_to 120 cyclic.txt -np 4 ./park cyclic 0 \
    || { tail -20 cyclic.txt; fail "cyclic parked blocks or lost one"; }
cat cyclic.txt; assert_grep "^redist_park: OK$" cyclic.txt
