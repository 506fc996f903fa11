#!/usr/bin/env bash
# CID allocation policies (comm_store_base_cid_policy), read back through
# their MPI_T variables, with every store:
#  - highest: every blocking creation (dup, split, create, create_group,
#    intercomm create and merge) agreed in exactly one allreduce; lowest:
#    never in one (Open MPI's confirmation round); auto picks by store;
#  - MPI_Comm_idup and a dup beside it still work (confirmation kept);
#  - 4 threads dup concurrently under MPI_THREAD_MULTIPLE, with the
#    confirmation round (>= 2 allreduces each);
#  - a lowered CID limit: creation fails on every rank at the same count
#    with MPI_ERR_INTERN and the show_help text, a freed CID is reused, and
#    creating/freeing 5 x the limit wraps around;
#  - density: rbtree 1.0; radix unlinks emptied chunks (256-slot cells).
. "$TEST_LIB"
needs ompi/mca/comm_store
build_mpi "$TOP/test/mpi/src/comm_store_cid.c" cid -lpthread

run() {   # run OUT NP ARGS...
    local out=$1 np=$2; shift 2
    mpirun_t -np "$np" "$@" >"$out" 2>&1 || { tail -20 "$out"; fail "failed: $*"; }
}

for c in flat rbtree radix; do
    for p in lowest highest; do
        run "r-$c-$p.txt" 4 --mca comm_store "$c" --mca comm_store_base_cid_policy "$p" ./cid rounds 20
        line=$(grep '^rounds:' "r-$c-$p.txt") || fail "no result from $c/$p"
        single=$(sed -E 's/.*single=([0-9]+) of ([0-9]+).*/\1/' <<<"$line")
        total=$(sed -E 's/.*single=([0-9]+) of ([0-9]+).*/\2/' <<<"$line")
        max=$(sed -E 's/.*max=([0-9]+).*/\1/' <<<"$line")
        [ "$total" -ge 100 ] || fail "$c/$p: only $total allocations counted ($line)"
        if [ $p = highest ]; then
            [ "$single" = "$total" ] && [ "$max" = 1 ] \
                || fail "$c/highest: not every blocking creation took one allreduce ($line)"
        else
            [ "$single" = 0 ] && [ "$max" -ge 2 ] \
                || fail "$c/lowest: a creation skipped the confirmation round ($line)"
        fi
        idup=$(grep '^idup:' "r-$c-$p.txt") || fail "no idup result from $c/$p"
        assert_grep '^idup: single=[0-9]+ of 2 ' "r-$c-$p.txt" "idup allocations not counted"
        case $idup in "idup: single=0 "*|"idup: single=1 "*) ;;
            *) fail "$c/$p: MPI_Comm_idup skipped the confirmation round ($idup)";; esac
        echo "$c/$p: $line; $idup"
    done
done

# auto: the flat array keeps CIDs dense, the sparse stores use Highest-CID
for c in flat radix; do
    run "auto-$c.txt" 2 --mca comm_store "$c" --mca comm_store_base_verbose 10 ./cid rounds 2
done
assert_grep 'selected flat .*CID policy lowest' auto-flat.txt "auto did not choose lowest for flat"
assert_grep 'selected radix .*CID policy highest' auto-radix.txt "auto did not choose highest for radix"

for c in flat rbtree radix; do
    run "t-$c.txt" 4 --mca comm_store "$c" --mca comm_store_base_cid_policy highest ./cid threads 50
    line=$(grep '^threads:' "t-$c.txt") || fail "no thread result from $c"
    a=$(sed -E 's/.*allocations=([0-9]+).*/\1/' <<<"$line")
    r=$(sed -E 's/.*rounds=([0-9]+).*/\1/' <<<"$line")
    [ "$a" = 200 ] || fail "$c: $a allocations counted for 200 threaded dups ($line)"
    [ "$r" -ge $((2 * a)) ] || fail "$c: MPI_THREAD_MULTIPLE dups skipped the confirmation ($line)"
    echo "$c: $line"
done

# Every run must handle exhaustion; the show_help text must appear in one
# of up to four runs, because this build's ORTE sometimes fails to forward
# show_help messages to mpirun ("ORTE_ERROR_LOG: Out of resource in
# show_help.c"), for any sender.
for c in flat radix; do
    for p in lowest highest; do
        for attempt in 1 2 3 4; do
            run "x-$c-$p.txt" 3 --mca comm_store "$c" --mca comm_store_base_cid_policy "$p" \
                --mca comm_store_base_cid_limit 100 ./cid exhaust
            assert_grep '^exhaust: failed at 9[0-9] live \(error class MPI_ERR_INTERN\), then [0-9]+ churned' \
                "x-$c-$p.txt" "$c/$p: exhaustion not handled"
            grep -q 'no communicator context id' "x-$c-$p.txt" && break
        done
        assert_grep 'no communicator context id' "x-$c-$p.txt" "$c/$p: no show_help message on exhaustion"
        echo "$c/$p: $(grep '^exhaust:' "x-$c-$p.txt")"
    done
done
# A bad limit stops MPI_Init with an explanation (which 4.1.4 may lose at
# that abort, see fails_saying in lib.sh).
fails_saying 6 'comm_store_base_cid_limit: 2' badlimit.txt \
    mpirun_t -np 1 --mca comm_store_base_cid_limit 2 ./cid density 1

for c in flat rbtree radix; do
    run "d-$c.txt" 2 --mca comm_store "$c" --mca comm_store_base_cid_policy highest ./cid density 1000
    echo "$c: $(grep '^density:' "d-$c.txt")"
done
assert_grep '^density: live=1003 .*density=1\.000000; after free live=3 .*density=1\.000000' d-rbtree.txt \
    "rbtree density is not 1"
# radix: CIDs 3..1002 fill 4 leaf chunks (1003/1024); after the frees only
# the chunk holding CIDs 0-2 stays linked (3/256)
assert_grep '^density: live=1003 .*density=0\.979492; after free live=3 .*density=0\.011719' d-radix.txt \
    "radix did not unlink its emptied chunks"
# Memory: without MPI threads the freed nodes (rbtree: 1000 x 48 bytes) and
# the emptied chunks (radix: 3 of 2064 bytes) go back to libc at once;
# under MPI_THREAD_MULTIPLE they are kept for lock-free readers.
freed() { sed -n 's/^density: live=[0-9]* bytes=\([0-9]*\) .* after free live=[0-9]* bytes=\([0-9]*\) .*/\1 \2/p' "$1" |
          awk '{print $1 - $2}'; }
[ "$(freed d-rbtree.txt)" = 48000 ] || fail "rbtree returned $(freed d-rbtree.txt) bytes, expected 48000"
[ "$(freed d-radix.txt)" = 6192 ] || fail "radix returned $(freed d-radix.txt) bytes, expected 6192"
for c in rbtree radix; do
    run "dmt-$c.txt" 2 --mca comm_store "$c" --mca comm_store_base_cid_policy highest ./cid density-mt 1000
    echo "$c (MPI_THREAD_MULTIPLE): $(grep '^density:' "dmt-$c.txt")"
    [ "$(freed "dmt-$c.txt")" = 0 ] || fail "$c under MPI_THREAD_MULTIPLE freed memory readers may hold"
done
