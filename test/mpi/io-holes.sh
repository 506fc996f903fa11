#!/usr/bin/env bash
# Issue 35: a collective write with gaps into a new file leaves the gaps
# zero, and the data reads back (config/patches/4.1/0015-ompio-sieve-past-eof
# and 0017-fbtl-posix-sieve-chunk-progress).  Every fcoll component of
# OMPIO, 4 ranks, each writing the first 8, 12 or 16 bytes of its 32-byte
# cells through an indexed view with one MPI_File_write_all, then reading
# them back with MPI_File_read_all (test/mpi/src/io_holes.c), with heap
# memory never zero by chance (MALLOC_PERTURB_), with the posix fbtl's
# default sieve buffer and a 4 KiB one (a call in many chunks), and, where
# the fbtl sieves (vulcan, dynamic_gen2), one smaller than a piece.  Stock
# 4.1.4 wrote stale bytes into the gaps past the end of the file under
# vulcan (the default), dynamic_gen2 and two_phase, and never ended with
# a sieve buffer smaller than a piece.  On 5.0 (no two_phase) the same
# checks hold with config/patches/5.0/.
# And a collective read that meets the end of the file counts, in its
# status, the bytes before the end, under every fcoll (patch 0018:
# fcoll_lat_test eof, interleaved and contiguous requests, the end inside a
# block, on a boundary, at 0, external32); stock 4.1.4 counted the whole
# request under vulcan, dynamic, dynamic_gen2 and two_phase.
. "$TEST_LIB"
needs patch:0015 patch:0016 patch:0017
build_mpi "$TOP/test/mpi/src/io_holes.c" holes
for c in $FCOLLS; do
    sizes="default 4096"
    case $c in vulcan|dynamic_gen2) sizes="$sizes 8" ;; esac
    for tb in $sizes; do
        sieve=(); [ $tb = default ] || sieve=(--mca fbtl_posix_max_tmpbuf_size "$tb")
        run_to 120 "$c-$tb.txt" -np 4 -x MALLOC_PERTURB_=165 --mca io ompio --mca fcoll "$c" \
            "${sieve[@]}" ./holes "$TEST_TMP/f-$c-$tb" ||
            { tail -12 "$c-$tb.txt"; fail "fcoll $c (sieve buffer $tb): the gaps are not zero"; }
        assert_grep '^io_holes: OK 4096 cells of 32 bytes on 4 ranks, gaps zero' "$c-$tb.txt" \
            "fcoll $c (sieve buffer $tb): no result"
        rm -f "$TEST_TMP/f-$c-$tb"
    done
done
note "gaps zero and data back under every fcoll, sieve buffers default, 4 KiB and 8 bytes"
if have patch:0018; then
    build_mpi "$TOP/test/mpi/src/fcoll_lat_test.c" lat
    mkdir -p "$TEST_TMP/eof"
    for c in $FCOLLS; do
        run_to 120 "eof-$c.txt" -np 4 --mca io ompio --mca fcoll "$c" ./lat "$TEST_TMP/eof" eof ||
            { grep -m5 FAIL "eof-$c.txt"; tail -5 "eof-$c.txt"; fail "fcoll $c: a read past the end of the file miscounts"; }
        assert_grep '^fcoll_lat_test: eof OK' "eof-$c.txt" "fcoll $c: no eof result"
    done
    note "reads that meet the end of the file count the bytes before it under every fcoll"
fi
