#!/usr/bin/env bash
# pml/zcomp keeps MPI point-to-point semantics exactly: zcomp_semantics.c
# (counts seen by Get_count and every probe, non-overtaking also after a
# tag-specific probe, ANY_SOURCE, truncation, persistent requests, cancel,
# Ssend/Bsend/Rsend, Sendrecv, different datatype layouts, collectives,
# completion to oneself when stock shows it) in
# 'always' mode over shared memory and TCP, with 2 and 3 ranks, and in
# 'adaptive' mode on a path zcomp is told is slow (so that it compresses) and
# on shared memory (where it must keep data raw).  The MPI_T counters prove
# that messages really were compressed (or not).
. "$TEST_LIB"
needs ompi/mca/pml/zcomp
build_mpi "$TOP/test/mpi/src/zcomp_semantics.c" sem
Z="--mca pml_zcomp_enable 1"

run_sem() {  # name np args...
    local name=$1 np=$2; shift 2
    mpirun_t -np "$np" "$@" ./sem >"$name.txt" 2>&1 || { tail -30 "$name.txt"; fail "$name: zcomp_semantics failed"; }
    assert_grep '^zcomp_semantics: 0 failed' "$name.txt"
    assert_no_grep '^FAIL' "$name.txt"
}
pvar() {  # file rank name -> value
    awk -v r="$2" -v n="pml_zcomp_$3" '$1=="pvar" && $2==r && $3==n {print $4}' "$1"
}

run_sem always-sm 2 $Z --mca pml_zcomp_strategy always --mca btl "$SHM_BTL",self
c=$(pvar always-sm.txt 0 messages_compressed); d=$(pvar always-sm.txt 1 messages_decompressed)
[ "${c:-0}" -gt 50 ] || fail "always mode compressed only ${c:-0} messages on rank 0"
[ "${d:-0}" -gt 50 ] || fail "always mode: rank 1 decompressed only ${d:-0} messages"
[ "$(pvar always-sm.txt 0 lz4_messages)" -gt 0 ] || fail "lz4 counter did not move"
o=$(pvar always-sm.txt 0 bytes_original); w=$(pvar always-sm.txt 0 bytes_compressed)
[ "$w" -lt "$o" ] || fail "compressed bytes $w not below original $o"
echo "always, shared memory: $c messages compressed ($o -> $w bytes)"

run_sem always-tcp 3 $Z --mca pml_zcomp_strategy always --mca pml_zcomp_codec zstd \
    --mca btl tcp,self --mca btl_tcp_if_include lo
assert_grep '^ok anysource' always-tcp.txt
[ "$(pvar always-tcp.txt 0 zstd_messages)" -gt 50 ] || fail "zstd was not used"
echo "always (zstd), TCP, 3 ranks: OK"

# small chunks and a window of 2: many chunks per message, reused slots
run_sem always-chunks 2 $Z --mca pml_zcomp_strategy always --mca pml_zcomp_chunk_size 8192 \
    --mca pml_zcomp_window 2 --mca pml_zcomp_codec rle --mca btl "$SHM_BTL",self
echo "always (rle), 8 KB chunks, window 2: OK"

# adaptive on a path declared slow: compresses the compressible messages
run_sem adaptive-slow 2 $Z --mca pml_zcomp_path_bandwidth 10 --mca btl tcp,self \
    --mca btl_tcp_if_include lo
c=$(pvar adaptive-slow.txt 0 messages_compressed)
[ "${c:-0}" -gt 20 ] || fail "adaptive on a 10 MB/s path compressed only ${c:-0} messages"
echo "adaptive, path at 10 MB/s: $c messages compressed"

# adaptive on shared memory: the path is faster than any codec.  Here every
# message is raw, handled by ob1 alone; its truncated receives of large
# messages (single-copy RGET over vader) wrote past the buffer until patch
# 0022 ("buffer overrun at +0" on every run).  A series without that patch
# (5.0's, so far) leaves the truncation test out there.
NOTRUNC=()
have patch:0022 || { export ZC_SKIP=truncate; NOTRUNC=(-x ZC_SKIP); }
run_sem adaptive-sm 2 $Z --mca btl "$SHM_BTL",self "${NOTRUNC[@]}"
c=$(pvar adaptive-sm.txt 0 messages_compressed)
[ "${c:-0}" -eq 0 ] || fail "adaptive compressed $c messages over shared memory"
echo "adaptive, shared memory: nothing compressed"

run_sem never 2 $Z --mca pml_zcomp_strategy never --mca btl "$SHM_BTL",self "${NOTRUNC[@]}"
[ "$(pvar never.txt 0 messages_compressed)" -eq 0 ] || fail "strategy never compressed"
[ "$(pvar never.txt 0 messages_raw)" -gt 50 ] || fail "strategy never did not count raw messages"
echo "never: OK"
# and ob1 alone (zcomp not enabled), 4 ranks over shared memory
run_sem plain-sm 4 --mca btl "$SHM_BTL",self "${NOTRUNC[@]}"
grep -q '^ok truncate' plain-sm.txt && echo "plain ob1, shared memory: truncation within the buffer"
unset ZC_SKIP
