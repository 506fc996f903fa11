#!/usr/bin/env bash
# test-scope: any base (the code under test is the same on every Open MPI base)
# OMPI_BASE picks a base profile (config/base/<version>): an unknown base
# stops autogen.pl and quickstart.sh naming the profiles there are; each
# profile's tarball is checked against its own sha256; the 4.1.4 base keeps
# the historical layout (_build/src, _build/obj, _install) and 5.0.7 its own.
. "$TEST_LIB"
must_fail out.txt "autogen.pl accepted an unknown base" \
    env OMPI_BASE=3.1.6 OVERLAY_BUILD_DIR="$PWD/b" "$TOP/autogen.pl"
assert_grep 'OMPI_BASE=3.1.6: no profile config/base/3.1.6 \(profiles: .*4\.1\.4.*5\.0\.7' out.txt
must_fail out.txt "quickstart.sh accepted an unknown base" \
    env OMPI_BASE=3.1.6 "$TOP/quickstart.sh" build
assert_grep 'OMPI_BASE=3.1.6: no profile' out.txt
[ ! -d b/src ] || fail "work started for an unknown base"

for base in 4.1.4 5.0.7; do
    ( . "$TOP/config/base/$base"
      head -c 1000 /dev/urandom >"$OMPI_TARBALL_NAME"
      must_fail out.txt "autogen.pl accepted a corrupt $base tarball" \
          env OMPI_BASE=$base OMPI_TARBALL="$PWD/$OMPI_TARBALL_NAME" OVERLAY_BUILD_DIR="$PWD/b" \
          "$TOP/autogen.pl"
      assert_grep "expected sha256 $OMPI_TARBALL_SHA256 \(Open MPI $base, $OMPI_TARBALL_NAME\)" out.txt )
done

# Where each base builds and installs (quickstart's functions, not its main).
dirs() {
    env -u OVERLAY_BUILD_DIR -u PREFIX OMPI_BASE=$1 bash -c \
        'source <(sed -e "/^case \"\${1:-}\"/,\$d" -e "s|^TOP=.*|TOP=$1|" "$1/quickstart.sh")
         echo "$PREFIX $BUILD $SRC $OBJ"' x "$TOP"
}
[ "$(dirs 4.1.4)" = "$TOP/_install $TOP/_build $TOP/_build/src/openmpi-4.1.4 $TOP/_build/obj" ] ||
    fail "4.1.4 left the historical layout: $(dirs 4.1.4)"
[ "$(dirs 5.0.7)" = "$TOP/_install-5.0.7 $TOP/_build/5.0.7 $TOP/_build/5.0.7/src/openmpi-5.0.7 $TOP/_build/5.0.7/obj" ] ||
    fail "5.0.7 does not build in its own directories: $(dirs 5.0.7)"
