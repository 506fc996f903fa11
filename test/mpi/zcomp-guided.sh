#!/usr/bin/env bash
# The guided strategy (the seed's GS): a run without the decision file
# decides adaptively and writes one file per rank at MPI_Finalize; the next
# run follows it (every message class it lists is decided from the file).
. "$TEST_LIB"
needs ompi/mca/pml/zcomp
build_mpi "$TOP/test/mpi/src/zcomp_semantics.c" sem
Z=(--mca pml_zcomp_enable 1 --mca pml_zcomp_strategy guided --mca pml_zcomp_decision_file "$PWD/dec"
   --mca pml_zcomp_path_bandwidth 10 --mca pml_zcomp_verbose 10)
mpirun_t -np 2 "${Z[@]}" ./sem counts >trace.txt 2>&1 || { tail trace.txt; fail "tracing run failed"; }
assert_grep 'dec.0 does not exist: tracing' trace.txt
[ -s dec.0 ] || fail "the tracing run wrote no decision file"
n=$(grep -cE '^[0-9a-f]{16} (raw|lz4|lzo|zstd|rle|fpc|rice|huffman|bzip2)$' dec.0)
[ "$n" -gt 5 ] || fail "decision file has only $n decisions"
grep -qE ' (lz4|lzo|zstd|rle|fpc|rice|huffman|bzip2)$' dec.0 || fail "no message class was decided compressed on a 10 MB/s path"
mpirun_t -np 2 "${Z[@]}" ./sem counts >follow.txt 2>&1 || { tail follow.txt; fail "guided run failed"; }
assert_grep "following .*dec.0 \\($n decisions\\)" follow.txt
assert_grep 'zcomp: guided: [0-9]+ B int32 to 1 tag [0-9]+: (lz4|lzo|zstd|rle|fpc|rice|huffman|bzip2)' follow.txt "no decision was taken from the file"
assert_grep '^zcomp_semantics: 0 failed' follow.txt
# guided with no decision file: says so and decides adaptively (it used to
# look the first large message up in a table never set up: SIGFPE)
works_saying 6 'guided strategy needs a decision file' nofile.txt \
    mpirun_t -np 2 --mca pml_zcomp_enable 1 --mca pml_zcomp_strategy guided \
    --mca pml_zcomp_path_bandwidth 10 ./sem counts
assert_grep '^zcomp_semantics: 0 failed' nofile.txt "guided without a decision file lost messages"
echo "guided: $n decisions traced and followed"
