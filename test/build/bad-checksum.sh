#!/usr/bin/env bash
# test-scope: any base (the code under test is the same on every Open MPI base)
# A tarball with the wrong checksum stops autogen.pl with a message that says
# so and names the expected sha256; nothing is unpacked.
. "$TEST_LIB"
head -c 100000 /dev/urandom >"$OMPI_TARBALL_NAME"
must_fail out.txt "autogen.pl accepted a corrupt tarball" \
    env OMPI_TARBALL="$PWD/$OMPI_TARBALL_NAME" OVERLAY_BUILD_DIR="$PWD/b" \
    "$TOP/autogen.pl" --force
assert_grep 'wrong checksum' out.txt
assert_grep "expected sha256 $OMPI_TARBALL_SHA256" out.txt
[ ! -d "b/src/$OMPI_TARBALL_TOPDIR" ] || fail "a corrupt tarball was unpacked"
