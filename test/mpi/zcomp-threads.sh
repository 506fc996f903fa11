#!/usr/bin/env bash
# pml/zcomp under MPI_THREAD_MULTIPLE (issue 22): zcomp_threads.c, 4 threads
# a process sending to and receiving from every rank, themselves included,
# blocking, nonblocking, synchronous, Sendrecv, probes and matched probes,
# on shared and private communicators.  'always' with every codec, over
# shared memory and TCP; 'adaptive' on a path declared slow (so that it
# compresses) and on shared memory; 'guided' tracing then following; and
# 'never'.  Every message's count and contents are checked, and the MPI_T
# counters show that compression really happened (and no message arrived
# corrupt).  Before the fix, 'always' failed in the first round with
# "received a corrupt compressed message from rank N" (a message to itself
# inline in a header larger than the self BTL's eager limit).
. "$TEST_LIB"
needs ompi/mca/pml/zcomp
build_mpi "$TOP/test/mpi/src/zcomp_threads.c" zt -pthread
Z=(--mca pml_zcomp_enable 1)
SM=(--mca btl "$SHM_BTL",self)
TCP=(--mca btl tcp,self --mca btl_tcp_if_include lo)
# 4.1's ORTE on loopback too; 5.0's PRRTE refuses an out-of-band on lo alone.
[ "$OMPI_SERIES" = 4.1 ] && TCP+=(--mca oob_tcp_if_include lo)

pvar() {  # file rank name -> value
    awk -v r="$2" -v n="pml_zcomp_$3" '$1=="pvar" && $2==r && $3==n {print $4}' "$1"
}
run_zt() {  # name np rounds mpirun-args...
    local name=$1 np=$2 rounds=$3; shift 3
    mpirun_t -np "$np" "$@" ./zt "$rounds" >"$name.txt" 2>&1 \
        || { tail -30 "$name.txt"; fail "$name: zcomp_threads failed"; }
    assert_grep '^zcomp_threads: [0-9]+ messages, 0 failed' "$name.txt" "$name: a message was wrong"
    assert_no_grep 'FAIL|corrupt' "$name.txt" "$name: zcomp reported a problem"
    local r
    for r in $(seq 0 $((np - 1))); do
        [ "$(pvar "$name.txt" "$r" receive_errors)" = 0 ] || fail "$name: rank $r counted corrupt messages"
    done
}
compressed() {  # name np: every rank compressed and decompressed messages
    local r c d
    for r in $(seq 0 $(($2 - 1))); do
        c=$(pvar "$1.txt" "$r" messages_compressed); d=$(pvar "$1.txt" "$r" messages_decompressed)
        [ "${c:-0}" -gt 20 ] && [ "${d:-0}" -gt 20 ] \
            || fail "$1: rank $r compressed ${c:-0} and decompressed ${d:-0} messages"
    done
    echo "$1: $(grep -Eo '[0-9]+ messages, 0 failed' "$1.txt"); rank 0 compressed $(pvar "$1.txt" 0 messages_compressed)"
}

# the issue's case: always (lz4), 4 ranks, shared memory and TCP
run_zt always-sm 4 2 "${Z[@]}" --mca pml_zcomp_strategy always "${SM[@]}"
compressed always-sm 4
run_zt always-tcp 4 1 "${Z[@]}" --mca pml_zcomp_strategy always "${TCP[@]}"
compressed always-tcp 4
# many chunks per message and a window of 2 (slots reused while threads race)
run_zt always-chunks 3 1 "${Z[@]}" --mca pml_zcomp_strategy always --mca pml_zcomp_chunk_size 8192 \
    --mca pml_zcomp_window 2 "${SM[@]}"
compressed always-chunks 3
# every codec
for c in lzo lz4 zstd bzip2 fpc rle huffman rice; do
    run_zt "codec-$c" 2 1 "${Z[@]}" --mca pml_zcomp_strategy always --mca pml_zcomp_codec "$c" "${SM[@]}"
    [ "$(pvar "codec-$c.txt" 0 messages_compressed)" -gt 20 ] || fail "codec $c: nothing compressed"
done
echo "always with each of the 8 codecs: OK"
# adaptive where it compresses (samples, statistics and the peer table
# shared by the threads) and where it must not
run_zt adaptive-slow 3 1 "${Z[@]}" --mca pml_zcomp_path_bandwidth 10 "${TCP[@]}"
compressed adaptive-slow 3
run_zt adaptive-sm 2 1 "${Z[@]}" "${SM[@]}"
[ "$(pvar adaptive-sm.txt 0 messages_compressed)" = 0 ] || fail "adaptive compressed over shared memory"
echo "adaptive, shared memory: nothing compressed"
# guided: the first run traces its decisions, the second follows them
run_zt guided-trace 2 1 "${Z[@]}" --mca pml_zcomp_strategy guided --mca pml_zcomp_decision_file "$PWD/dec" \
    --mca pml_zcomp_path_bandwidth 10 "${SM[@]}"
[ -s dec.0 ] || fail "guided: no decision file written"
run_zt guided-follow 2 1 "${Z[@]}" --mca pml_zcomp_strategy guided --mca pml_zcomp_decision_file "$PWD/dec" "${SM[@]}"
compressed guided-follow 2
run_zt never 2 1 "${Z[@]}" --mca pml_zcomp_strategy never "${SM[@]}"
[ "$(pvar never.txt 0 messages_compressed)" = 0 ] || fail "strategy never compressed"
echo "guided and never: OK"
