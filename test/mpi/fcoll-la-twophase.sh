#!/usr/bin/env bash
# fcoll/la_twophase: listed by ompi_info and selected by --mca fcoll
# la_twophase; collective write and read byte-for-byte against independent
# I/O for contiguous blocks, interleaved records, irregular indexed views
# with holes, 2-D/3-D subarrays, block-cyclic darrays, empty ranks, zero
# bytes, overlapping writes, overlapping reads, a read through a view whose
# blocks overlap (the general planning path) and a view past 2 GiB, at 1
# to 8 ranks and
# with the parameters that change the algorithm (tiny cycle buffer, blocks
# cost, fewer aggregators, one per node, no LAP, self-served writes and
# gather-list writes on and off); MPI_T variables (the gain bound that
# skips the LAP, the cache, the self-served writes, the windows written
# from a gather list); a write to a full device comes back as
# MPI_ERR_NO_SPACE on every rank; a read that meets the end of the file
# counts the bytes before it (interleaved and contiguous requests, the end
# inside a block, on a boundary, at 0).
. "$TEST_LIB"
"$OMPI_INFO" --param fcoll la_twophase --level 9 >info.txt
assert_grep 'MCA fcoll: la_twophase' info.txt "ompi_info does not list fcoll la_twophase"
for p in cycle_buffer_size num_aggregators cost one_per_node min_gain read_self_min read_probe_min \
         write_self_min write_iov_min; do
    assert_grep "fcoll_la_twophase_$p" info.txt "parameter fcoll_la_twophase_$p missing"
done
build_mpi "$TOP/test/mpi/src/fcoll_lat_test.c" t
D=${TMPDIR:-/tmp}/fcoll-lat.$$
mkdir -p "$D"
trap 'rm -rf "$D"' EXIT
LAT=(--mca fcoll la_twophase)
# the LAP and traffic checks need writes through the aggregators
NOSELF=(--mca fcoll_la_twophase_write_self_min 0)

run() {   # run NAME NP ARGS... -- TESTARGS...
    local name=$1 np=$2; shift 2
    local mca=()
    while [ "$1" != -- ]; do mca+=("$1"); shift; done; shift
    if ! mpirun_t -np "$np" "${LAT[@]}" "${mca[@]}" ./t "$D" "$@" >"$name.txt" 2>&1; then
        tail -25 "$name.txt"; fail "$name: exit status non-zero"
    fi
    assert_grep "^fcoll_lat_test: $1 OK" "$name.txt" "$name failed"
    echo "$name: $(grep -c '^case .* ok' "$name.txt" || true) view cases ok"
}

# that the component really is the one used: its verbose line
mpirun_t -np 2 "${LAT[@]}" --mca fcoll_base_verbose 10 ./t "$D" views >sel.txt 2>&1 ||
    { tail -20 sel.txt; fail "selection run failed"; }
assert_grep 'fcoll:la_twophase: 2 processes' sel.txt "la_twophase did not run the collective"

run views-4 4 -- views
run views-1 1 -- views
run views-3-cycle4k 3 --mca fcoll_la_twophase_cycle_buffer_size 4096 \
    --mca fcoll_la_twophase_cost blocks -- views
run views-8-aggr3 8 --mca fcoll_la_twophase_num_aggregators 3 -- views
run views-5-ompio2 5 --mca io_ompio_num_aggregators 2 \
    --mca fcoll_la_twophase_cycle_buffer_size 65536 -- views
run views-6-node2 6 --mca fcoll_la_twophase_one_per_node 1 --mca fcoll_la_twophase_node_size 2 -- views
run views-2-nolap 2 --mca fcoll_la_twophase_assign 0 -- views
# reads: every process reads its own pieces itself, or those of 4 KiB and more
run views-4-selfread 4 --mca fcoll_la_twophase_read_self_min 1 -- views
# reads that meet the end of the file count the bytes before it, through
# the aggregators and self-served
run eof-4 4 -- eof
run eof-5-selfread 5 --mca fcoll_la_twophase_read_self_min 1 \
    --mca fcoll_la_twophase_cycle_buffer_size 4096 -- eof
run fuzz-5-selfread 5 --mca fcoll_la_twophase_read_self_min 4096 \
    --mca fcoll_la_twophase_cycle_buffer_size 4096 -- fuzz 20

# writes: every window with others' data from a gather list (write_iov_min
# 1), including overlapping writes, strided memory and tiny cycle buffers;
# every process writing its own pieces (write_self_min 1), or those whose
# pieces average 4 KiB (the others' aggregators must then not sieve); and
# neither
run views-4-iov 4 "${NOSELF[@]}" --mca fcoll_la_twophase_write_iov_min 1 -- views
run fuzz-6-iov 6 "${NOSELF[@]}" --mca fcoll_la_twophase_write_iov_min 1 \
    --mca fcoll_la_twophase_cycle_buffer_size 4096 -- fuzz 20
run views-3-plain 3 "${NOSELF[@]}" --mca fcoll_la_twophase_write_iov_min 0 -- views
run views-4-selfwrite 4 --mca fcoll_la_twophase_write_self_min 1 -- views
run fuzz-5-selfwrite 5 --mca fcoll_la_twophase_write_self_min 4096 \
    --mca fcoll_la_twophase_cycle_buffer_size 4096 -- fuzz 20
# MPI_T: 64 KiB records are written by their processes, or else (no
# self-writes) through the gather list; 64-byte ones neither
run records-self 4 --mca io_ompio_num_aggregators 4 -- records self
run records-iov 4 --mca io_ompio_num_aggregators 4 "${NOSELF[@]}" -- records iov
run records-noiov 4 --mca io_ompio_num_aggregators 4 "${NOSELF[@]}" \
    --mca fcoll_la_twophase_write_iov_min 0 -- records noiov

# random irregular views (chunk sizes, holes, owners, strided memory,
# displacement, number of calls), against the reference too
run fuzz-4-cycle4k 4 --mca fcoll_la_twophase_cycle_buffer_size 4096 -- fuzz 40
run fuzz-7-aggr3 7 --mca fcoll_la_twophase_num_aggregators 3 -- fuzz 20

# MPI_T: the LAP keeps everything in place where the default moves it all
run pvars-lap 4 "${NOSELF[@]}" --mca io_ompio_num_aggregators 4 -- pvars lap 4194304
run pvars-lap-cycle 4 "${NOSELF[@]}" --mca io_ompio_num_aggregators 4 \
    --mca fcoll_la_twophase_cycle_buffer_size 65536 -- pvars lap 65536
run pvars-lap-blocks 4 "${NOSELF[@]}" --mca io_ompio_num_aggregators 4 --mca fcoll_la_twophase_cost blocks -- pvars lap
run pvars-nolap 4 "${NOSELF[@]}" --mca io_ompio_num_aggregators 4 --mca fcoll_la_twophase_assign 0 -- pvars nolap
# the gain bound: above min_gain the standard list without a solve; an
# interleaved layout has nothing to gain (bound 0) under the defaults
run pvars-bound 4 "${NOSELF[@]}" --mca io_ompio_num_aggregators 4 --mca fcoll_la_twophase_min_gain 1073741824 \
    -- pvars bound
run pvars-interleaved 4 "${NOSELF[@]}" --mca io_ompio_num_aggregators 4 -- pvars interleaved
# reads: the probe tries both paths (aggregators, then the process itself)
run pvars-probe 4 "${NOSELF[@]}" --mca io_ompio_num_aggregators 4 --mca fcoll_la_twophase_read_probe_min 1 \
    --mca fcoll_la_twophase_read_self_min 1073741824 -- pvars probe
run views-4-probe 4 --mca fcoll_la_twophase_read_probe_min 1 \
    --mca fcoll_la_twophase_read_self_min 1073741824 -- views
run pvars-interleaved-blocks 4 "${NOSELF[@]}" --mca io_ompio_num_aggregators 4 --mca fcoll_la_twophase_cost blocks \
    -- pvars interleaved
# fcoll_la_twophase_num_aggregators overrides io_ompio_num_aggregators
run pvars-override 4 "${NOSELF[@]}" --mca io_ompio_num_aggregators 1 --mca fcoll_la_twophase_num_aggregators 4 -- pvars lap
run pvars-node2 4 "${NOSELF[@]}" --mca fcoll_la_twophase_one_per_node 1 --mca fcoll_la_twophase_node_size 2 \
    --mca io_ompio_num_aggregators 4 -- pvars node2
run pvars-node3 7 "${NOSELF[@]}" --mca fcoll_la_twophase_one_per_node 1 --mca fcoll_la_twophase_node_size 3 \
    --mca io_ompio_num_aggregators 7 -- pvars node3
# the real node detection: this machine is one node, so one aggregator
run pvars-node-real 3 "${NOSELF[@]}" --mca fcoll_la_twophase_one_per_node 1 \
    --mca io_ompio_num_aggregators 3 -- pvars node0

# a bad parameter value is reported (show_help) and replaced by a valid one
mpirun_t -np 2 "${LAT[@]}" --mca fcoll_la_twophase_cycle_buffer_size 100 ./t "$D" views >badcycle.txt 2>&1 ||
    { tail -20 badcycle.txt; fail "a cycle buffer size of 100 broke the run"; }
assert_grep 'fcoll_la_twophase_cycle_buffer_size: 100' badcycle.txt "no message for a bad cycle buffer size"
assert_grep '^fcoll_lat_test: views OK' badcycle.txt

# errors come back as MPI error codes, on every rank
run errors 3 -- errors
grep -h '^pvars\|^errors' pvars-*.txt errors.txt
