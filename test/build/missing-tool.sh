#!/usr/bin/env bash
# test-scope: any base (the code under test is the same on every Open MPI base)
# A missing build tool stops autogen.pl before any work, naming the tool and
# the Debian package that provides it.
. "$TEST_LIB"
tarball=$(base_tarball)
mkdir bin
for t in perl tar xz patch m4 automake libtoolize flex make sha256sum; do
    p=$(command -v $t) && ln -s "$p" bin/$t
done
must_fail out.txt "autogen.pl went on without autoconf" \
    env PATH="$PWD/bin" OMPI_TARBALL="$tarball" OVERLAY_BUILD_DIR="$PWD/b" "$TOP/autogen.pl"
assert_grep 'missing build tools: autoconf' out.txt
assert_grep 'apt-get install -y autoconf' out.txt
[ ! -d "b/src/$OMPI_TARBALL_TOPDIR" ] || fail "work started although a tool was missing"
