#!/usr/bin/env bash
# test-scope: any base (the code under test is the same on every Open MPI base)
# A patch that no longer applies stops the preparation, naming the patch, and
# no later patch is applied; a good series applies in name order.
. "$TEST_LIB"
# Its patches are written against 4.1.4's files (the logic is the same for
# every base).
[ "$OMPI_SERIES" = 4.1 ] || skip "written for the 4.1.4 base (OMPI_BASE=4.1.4)"
tarball=$(base_tarball)
copy_overlay repo
cat >repo/config/patches/4.1/900-good.patch <<'P'
Test patch: adds a line to README (applies to pristine 4.1.4).
--- a/README.JAVA.txt
+++ b/README.JAVA.txt
@@ -1,3 +1,4 @@
+OVERLAY-TEST-MARKER
P
# Build the context of the good patch from the pristine tarball itself.
tar -xOf "$tarball" openmpi-4.1.4/README.JAVA.txt >readme.txt
head -n 3 readme.txt | sed 's/^/ /' >>repo/config/patches/4.1/900-good.patch
cat >repo/config/patches/4.1/950-stale.patch <<'P'
Test patch whose context is not in Open MPI 4.1.4.
--- a/ompi/communicator/comm_init.c
+++ b/ompi/communicator/comm_init.c
@@ -1,3 +1,3 @@
 this line is not in comm_init.c
-nor is this one
+so the patch cannot apply
 end
P
cp repo/config/patches/4.1/900-good.patch repo/config/patches/4.1/999-never.patch
must_fail out.txt "autogen.pl went on after a patch that does not apply" \
    env OMPI_TARBALL="$tarball" OVERLAY_BUILD_DIR="$PWD/b" OVERLAY_SKIP_UPSTREAM_AUTOGEN=1 \
    repo/autogen.pl
assert_grep 'applied config/patches/4.1/900-good.patch' out.txt
assert_grep 'patch config/patches/4.1/950-stale.patch does not apply' out.txt
assert_no_grep '999-never' out.txt "a patch after the failing one was applied"
[ "$(head -n 1 b/src/openmpi-4.1.4/README.JAVA.txt)" = OVERLAY-TEST-MARKER ] || fail "900-good.patch not applied"
[ "$(grep -c OVERLAY-TEST-MARKER b/src/openmpi-4.1.4/README.JAVA.txt)" -eq 1 ] || fail "a patch was applied twice"
# The failed preparation is not mistaken for a finished one.
rm repo/config/patches/4.1/950-stale.patch repo/config/patches/4.1/999-never.patch
OMPI_TARBALL=$tarball OVERLAY_BUILD_DIR=$PWD/b OVERLAY_SKIP_UPSTREAM_AUTOGEN=1 repo/autogen.pl >out2.txt 2>&1 \
    || { cat out2.txt; fail "autogen.pl failed with a good series"; }
assert_grep 'patch series changed|no prepared tree' out2.txt
[ "$(grep -c OVERLAY-TEST-MARKER b/src/openmpi-4.1.4/README.JAVA.txt)" -eq 1 ] || fail "re-preparation did not start from the pristine tree"
