#!/usr/bin/env bash
# The compress framework in an installed build: ompi_info lists all nine
# codecs, bzip (on 4.1 only: Open MPI 4.1's name for bzip2) and their knobs; every codec
# round-trips through the framework's lookup by name and by wire id; the
# MCA include/exclude syntax restricts the set, bzip and bzip2 acting as
# one; a bad knob value disables that codec with a message naming the
# parameter; the legacy file interface round-trips, refuses a corrupt
# file, still reads format version 1 and refuses an unknown one, and with
# gzip or bzip writes and reads upstream's .gz / .bz2 files (gunzip,
# bunzip2, gzip's and bzip2's own files); a stale plugin from an older
# Open MPI is skipped, not misread; under mpirun, "--mca compress bzip"
# and a site file's "compress = gzip" give pml/zcomp its codec.
. "$TEST_LIB"
all="lzo,lz4,zstd,bzip2,fpc,rle,huffman,rice,gzip"
# bzip is Open MPI 4.1's name for bzip2; 5.0 never had it (config/base/5.0.7).
comps="${all//,/ }"; ncomp=9
if have opal/mca/compress/bzip; then bzip=1; comps="$comps bzip"; ncomp=10; else bzip=0; fi

"$OMPI_INFO" >info.txt
for c in $comps; do
    assert_grep "MCA compress: $c \(MCA v2\.1\.0, API v3\.1\.0" info.txt "ompi_info does not list compress:$c"
done
[ "$(grep -c "MCA compress: .*API v3" info.txt)" -eq $ncomp ] || fail "ompi_info lists other compress components"
[ $bzip = 1 ] || assert_no_grep 'MCA compress: bzip ' info.txt "compress:bzip installed on Open MPI $OMPI_BASE"
"$OMPI_INFO" --param compress all --level 9 >param.txt
for p in compress_zstd_level compress_lz4_acceleration compress_bzip2_block_size compress_fpc_table_bits \
         compress_gzip_level; do
    assert_grep "MCA compress [a-z0-9]+: parameter \"$p\"" param.txt "ompi_info does not show $p"
done
assert_grep 'zstd compression level' param.txt "zstd_level has no help text"
assert_grep 'zlib compression level' param.txt "gzip_level has no help text"

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
assert_grep '^codecs: lzo,lz4,zstd,rle,huffman,rice,gzip$' exc.txt "--mca compress ^bzip2,fpc not honoured (or bzip kept bzip2)"
if [ $bzip = 1 ]; then
# bzip and bzip2 are one codec: excluding either name excludes it, listing
# both gives it once
OMPI_MCA_compress=^bzip ./cf "$TEST_TMP" >exc2.txt
assert_grep '^codecs: lzo,lz4,zstd,fpc,rle,huffman,rice,gzip$' exc2.txt "--mca compress ^bzip left bzip2 in"
assert_grep '^compress_framework: OK$' exc2.txt
OMPI_MCA_compress=bzip,bzip2 ./cf "$TEST_TMP" >both.txt 2>&1
assert_grep '^codecs: bzip2$' both.txt "--mca compress bzip,bzip2: not one bzip2 codec"
assert_no_grep 'same wire id' both.txt "bzip and bzip2 reported as a wire-id clash"
assert_grep '^compress_framework: OK$' both.txt
fi

# Open MPI 4.1's names alone, as a site's "compress = gzip" or opal-restart's
# "-d gzip -p .gz" give them: the codec, and files as upstream's wrote them
# (kept, not replaced: the framework leaves the original in place).
ups=gzip:gzip:.gz:gunzip; [ $bzip = 0 ] || ups="bzip:bzip2:.bz2:bunzip2 $ups"
for up in $ups; do
    IFS=: read -r comp codec post tool <<<"$up"
    mkdir "$comp"
    OMPI_MCA_compress=$comp ./cf "$TEST_TMP/$comp" >"$comp.txt" 2>"$comp.err"
    cat "$comp.txt" "$comp.err"
    assert_grep "^codecs: $codec\$" "$comp.txt" "--mca compress $comp does not give the $codec codec"
    assert_grep "postfix \\$post, codec $comp\)" "$comp.txt" "--mca compress $comp does not write $post files"
    assert_grep '^compress_framework: OK$' "$comp.txt"
    assert_grep "its $codec data is corrupt" "$comp.err" "a corrupt $post file not reported"
    "$tool" -c "$comp/pristine$post" | cmp - "$comp/data.bin.orig" || fail "$tool cannot read the $post file"
done
if [ $bzip = 1 ]; then
    assert_grep '^find bzip: bzip2 \(id 4\)$' bzip.txt "find(bzip) does not give bzip2's codec"
    OMPI_MCA_compress=^bzip2 ./cf "$TEST_TMP" >nobz.txt
    assert_no_grep '^find bzip' nobz.txt "find(bzip) found a codec with bzip2 excluded"
fi

# Files that upstream's components made (gzip and bzip2 themselves, two
# members in one .gz as "cat" makes) decompress through opal_compress,
# whichever component writes files: by their postfix.
seq 1 400000 >up.bin
cat up.bin up.bin >up2.bin
gzip -c up.bin >up.gz1; gzip -9 -c up.bin >up.gz2; cat up.gz1 up.gz2 >up2.bin.gz
bzip2 -c up.bin >up.bin.bz2
# (.bz2 files are bzip's, which only 4.1 has)
ups=up2.bin.gz; [ $bzip = 0 ] || ups="$ups up.bin.bz2"
for f in $ups; do
    out=${f%.*}
    mv "$out" "$out.orig"
    ./cf --decompress "$f" >dec.txt 2>&1 || { cat dec.txt; fail "opal_compress cannot read $f"; }
    cat dec.txt
    cmp "$out" "$out.orig" || fail "$f decompressed to other bytes"
    mv "$out.orig" "$out"
done
printf 'not gzip' >bad.gz
must_fail bad.txt "a file that is not gzip was decompressed" ./cf --decompress bad.gz
assert_grep 'it is not a gzip file' bad.txt
[ ! -e bad ] || fail "a failed decompression left output"

OMPI_MCA_compress_zstd_level=99 ./cf "$TEST_TMP" >bad.txt 2>&1 || true
cat bad.txt
assert_grep 'compress_zstd_level' bad.txt "bad value not reported with the parameter's name"
assert_grep 'compress_zstd_level: +99' bad.txt
assert_grep 'accepted: +-?[0-9]+ \.\. [0-9]+' bad.txt "accepted range not reported"
assert_grep '^codecs: lzo,lz4,bzip2,fpc,rle,huffman,rice,gzip$' bad.txt "zstd not disabled by a bad level"
OMPI_MCA_compress_gzip_level=0 ./cf "$TEST_TMP" >badgz.txt 2>&1 || true
cat badgz.txt
assert_grep 'compress_gzip_level: +0' badgz.txt "a bad gzip level not reported"
assert_grep '^codecs: lzo,lz4,zstd,bzip2,fpc,rle,huffman,rice$' badgz.txt "gzip not disabled by a bad level"

# A stale API-2 plugin (as an older Open MPI leaves in the prefix) is skipped
# with a message naming it, and the eight codecs still work.
mkdir plugins
gcc -shared -fPIC -o plugins/mca_compress_stale.so -I"$OMPI_OBJ" -I"$OMPI_OBJ/opal/include" \
    -I"$OMPI_SRC" -I"$OMPI_SRC/opal/include" ${OPAL_PMIX_INC:+"$OPAL_PMIX_INC"} "$TOP/test/mpi/src/stale_compress_component.c" \
    || fail "cannot build the stale plugin"
OMPI_MCA_mca_base_component_path=$PWD/plugins:$PREFIX/lib/openmpi ./cf "$TEST_TMP" >stale.txt 2>&1 \
    || { cat stale.txt; fail "a stale plugin broke the framework"; }
cat stale.txt
assert_grep 'Component: +stale \(compress API v2\.0' stale.txt "stale plugin not reported"
assert_grep "^codecs: $all$" stale.txt

if ! have ompi/mca/pml/zcomp; then
    note "pml/zcomp is not on $OMPI_BASE yet (issue 37): its codec under mpirun not checked"
    echo "compress-framework: OK"
    exit 0
fi
# Under mpirun: pml/zcomp compresses with the codec that Open MPI 4.1's
# names select (on 5.0, which never had bzip: bzip2's own name), from the
# command line and from the site parameter file.
build_mpi "$TOP/test/mpi/src/zcomp_semantics.c" sem
pv() { awk -v n="pml_zcomp_$2" '$1=="pvar" && $2==0 && $3==n {print $4}' "$1"; }
Z=(--mca pml_zcomp_enable 1 --mca pml_zcomp_strategy always)
bz=bzip2; [ $bzip = 0 ] || bz=bzip
run_to 300 mpi-bzip.txt -np 2 --mca compress $bz "${Z[@]}" --mca pml_zcomp_codec $bz ./sem counts \
    || { tail -20 mpi-bzip.txt; fail "mpirun --mca compress $bz failed"; }
[ "$(pv mpi-bzip.txt bzip2_messages)" -gt 0 ] || { tail -20 mpi-bzip.txt; fail "--mca compress $bz: zcomp sent nothing with bzip2"; }
conf=$PREFIX/etc/openmpi-mca-params.conf
[ -w "$conf" ] || skip "cannot write $conf (the rest passed)"
cp "$conf" conf.orig
trap 'cp "$TEST_TMP/conf.orig" "$conf"' EXIT
printf 'compress = gzip\npml_zcomp_codec = gzip\n' >>"$conf"
run_to 300 mpi-gzip.txt -np 2 "${Z[@]}" ./sem counts \
    || { tail -20 mpi-gzip.txt; fail "mpirun with compress = gzip in the site file failed"; }
[ "$(pv mpi-gzip.txt gzip_messages)" -gt 0 ] || { tail -20 mpi-gzip.txt; fail "compress = gzip: zcomp sent nothing with gzip"; }
[ -z "$(pv mpi-gzip.txt lz4_messages)" ] || fail "compress = gzip in the site file did not restrict the codecs"
cp conf.orig "$conf"
echo "compress-framework: OK"
