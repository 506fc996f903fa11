#!/usr/bin/env bash
# A tarball with the wrong checksum stops autogen.pl with a message that says
# so and names the expected sha256; nothing is unpacked.
. "$TEST_LIB"
head -c 100000 /dev/urandom >openmpi_4.1.4.orig.tar.xz
must_fail out.txt "autogen.pl accepted a corrupt tarball" \
    env OMPI_TARBALL="$PWD/openmpi_4.1.4.orig.tar.xz" OVERLAY_BUILD_DIR="$PWD/b" \
    "$TOP/autogen.pl" --force
assert_grep 'wrong checksum' out.txt
assert_grep 'expected sha256 ddaee7dbdb01eb4fab1fda5b5e03e8bbff026711806c095c1f39bb410f99f263' out.txt
[ ! -d b/src/openmpi-4.1.4 ] || fail "a corrupt tarball was unpacked"
