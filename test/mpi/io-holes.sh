#!/usr/bin/env bash
# Issue 35: a collective write with gaps into a new file leaves the gaps
# zero (config/patches/0015-fbtl-posix-sieve-past-eof.patch).  Every fcoll
# component of OMPIO, 4 ranks, each writing 16 of every 32 bytes through a
# vector view with one MPI_File_write_all (test/mpi/src/io_holes.c), with
# the posix fbtl's default sieve buffer and a 4 KiB one (a call in many
# chunks, each reusing the buffer of the one before).  Stock 4.1.4 wrote
# stale bytes into the gaps past the end of the file under vulcan (the
# default) and dynamic_gen2.
. "$TEST_LIB"
build_mpi "$TOP/test/mpi/src/io_holes.c" holes
for c in vulcan dynamic dynamic_gen2 two_phase individual la_twophase; do
    for tb in default 4096; do
        sieve=(); [ $tb = default ] || sieve=(--mca fbtl_posix_max_tmpbuf_size "$tb")
        run_to 120 "$c-$tb.txt" -np 4 --mca io ompio --mca fcoll "$c" "${sieve[@]}" \
            ./holes "$TEST_TMP/f-$c-$tb" ||
            { tail -12 "$c-$tb.txt"; fail "fcoll $c (sieve buffer $tb): the gaps are not zero"; }
        assert_grep '^io_holes: OK 4096 cells of 32 bytes on 4 ranks, gaps zero' "$c-$tb.txt" \
            "fcoll $c (sieve buffer $tb): no result"
        rm -f "$TEST_TMP/f-$c-$tb"
    done
done
note "gaps zero under every fcoll, default and 4 KiB sieve buffers"
