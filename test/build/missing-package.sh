#!/usr/bin/env bash
# test-scope: any base (the code under test is the same on every Open MPI base)
# quickstart.sh names the Debian packages that are missing; with NO_APT=1 (or
# without root and sudo) it stops instead of building half-way.
. "$TEST_LIB"
copy_overlay repo
mkdir bin
cat >bin/dpkg-query <<'Q'
#!/bin/sh
# Pretend that libpmix-dev is not installed.
for a; do last=$a; done
[ "$last" = libpmix-dev ] && exit 1
echo 'install ok installed'
Q
chmod +x bin/dpkg-query
must_fail out.txt "quickstart.sh went on without libpmix-dev" \
    env PATH="$PWD/bin:$PATH" NO_APT=1 OVERLAY_BUILD_DIR="$PWD/b" repo/quickstart.sh build
assert_grep 'missing Debian packages: libpmix-dev' out.txt
assert_grep 'apt-get install -y libpmix-dev' out.txt
[ ! -d b/src ] || fail "quickstart.sh started building without its dependencies"
