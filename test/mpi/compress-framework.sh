#!/usr/bin/env bash
# The compress framework in an installed build: ompi_info lists all eight
# codecs and their knobs; every codec round-trips through the framework's
# lookup by name and by wire id; the MCA include/exclude syntax restricts the
# set; a bad knob value disables that codec with a message naming the
# parameter; the legacy file interface round-trips, refuses a corrupt
# file, still reads format version 1 and refuses an unknown one; a stale plugin from an older Open MPI is skipped, not misread.
. "$TEST_LIB"
all="lzo,lz4,zstd,bzip2,fpc,rle,huffman,rice"

"$OMPI_INFO" >info.txt
for c in ${all//,/ }; do
    assert_grep "MCA compress: $c \(MCA v2\.1\.0, API v3\.0\.0" info.txt "ompi_info does not list compress:$c"
done
[ "$(grep -c "MCA compress: .*API v3" info.txt)" -eq 8 ] || fail "ompi_info lists other compress components"
"$OMPI_INFO" --param compress all --level 9 >param.txt
for p in compress_zstd_level compress_lz4_acceleration compress_bzip2_block_size compress_fpc_table_bits; do
    assert_grep "MCA compress [a-z0-9]+: parameter \"$p\"" param.txt "ompi_info does not show $p"
done
assert_grep 'zstd compression level' param.txt "zstd_level has no help text"

build_opal cf "$TOP/test/mpi/src/compress_framework.c" "$TOP/test/common/datasets.c" -lm
./cf "$TEST_TMP" 2>err.txt | tee out.txt
cat err.txt
assert_grep "^codecs: $all$" out.txt "not all eight codecs open, in wire-id order"
assert_grep '^compress_framework: OK$' out.txt
assert_grep "checksum does not match its contents" err.txt "a corrupt block not reported"
assert_grep "file format that this build does not know" err.txt "an unknown version not reported"

OMPI_MCA_compress=lz4,zstd ./cf "$TEST_TMP" >inc.txt
assert_grep '^codecs: lz4,zstd$' inc.txt "--mca compress lz4,zstd not honoured"
assert_grep '^compress_framework: OK$' inc.txt
OMPI_MCA_compress=^bzip2,fpc ./cf "$TEST_TMP" >exc.txt
assert_grep '^codecs: lzo,lz4,zstd,rle,huffman,rice$' exc.txt "--mca compress ^bzip2,fpc not honoured"

OMPI_MCA_compress_zstd_level=99 ./cf "$TEST_TMP" >bad.txt 2>&1 || true
cat bad.txt
assert_grep 'compress_zstd_level' bad.txt "bad value not reported with the parameter's name"
assert_grep 'compress_zstd_level: +99' bad.txt
assert_grep 'accepted: +-?[0-9]+ \.\. [0-9]+' bad.txt "accepted range not reported"
assert_grep '^codecs: lzo,lz4,bzip2,fpc,rle,huffman,rice$' bad.txt "zstd not disabled by a bad level"

# A stale API-2 plugin (as an older Open MPI leaves in the prefix) is skipped
# with a message naming it, and the eight codecs still work.
mkdir plugins
gcc -shared -fPIC -o plugins/mca_compress_stale.so -I"$OMPI_OBJ" -I"$OMPI_OBJ/opal/include" \
    -I"$OMPI_SRC" -I"$OMPI_SRC/opal/include" "$TOP/test/mpi/src/stale_compress_component.c" \
    || fail "cannot build the stale plugin"
OMPI_MCA_mca_base_component_path=$PWD/plugins:$PREFIX/lib/openmpi ./cf "$TEST_TMP" >stale.txt 2>&1 \
    || { cat stale.txt; fail "a stale plugin broke the framework"; }
cat stale.txt
assert_grep 'Component: +stale \(compress API v2\.0' stale.txt "stale plugin not reported"
assert_grep "^codecs: $all$" stale.txt
