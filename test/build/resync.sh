#!/usr/bin/env bash
# Re-running autogen.pl after an edit copies only the changed files; a change
# to a build-system file re-runs upstream's autogen; a removed overlay file or
# a changed patch series starts again from the pristine tarball; a directory
# marked .overlay-owned replaces upstream's copy.
. "$TEST_LIB"
tarball=$(base_tarball)
copy_overlay repo
mkdir -p repo/opal/mca/testfw/testcomp repo/opal/mca/backtrace
echo 'int a = 1;' >repo/opal/mca/testfw/testcomp/a.c
echo 'int b = 1;' >repo/opal/mca/testfw/testcomp/b.c
echo '# empty' >repo/opal/mca/testfw/testcomp/Makefile.am
touch repo/opal/mca/backtrace/.overlay-owned
echo 'owned' >repo/opal/mca/backtrace/Makefile.am
export OMPI_TARBALL=$tarball OVERLAY_BUILD_DIR=$PWD/b OVERLAY_SKIP_UPSTREAM_AUTOGEN=1
S=b/src/$OMPI_TARBALL_TOPDIR
ag() { repo/autogen.pl "$@" >out.txt 2>&1 || { cat out.txt; fail "autogen.pl failed"; }; cat out.txt; }

ag
assert_grep 'preparing from the pristine tarball' out.txt
cmp repo/opal/mca/testfw/testcomp/a.c $S/opal/mca/testfw/testcomp/a.c
[ -f $S/opal/mca/backtrace/backtrace.h ] && fail "owned directory kept upstream's files"
[ "$(cat $S/opal/mca/backtrace/Makefile.am)" = owned ] || fail "owned directory not laid over"
[ -e $S/opal/mca/backtrace/.overlay-owned ] && fail "ownership marker copied"

ag
assert_grep 'up to date' out.txt

touch -d '2001-01-01' $S/opal/mca/testfw/testcomp/b.c $S/opal/runtime/opal_init.c
echo 'int a = 2;' >repo/opal/mca/testfw/testcomp/a.c
ag
assert_grep 'resynced 1 file\(s\): opal/mca/testfw/testcomp/a.c' out.txt
assert_no_grep 'upstream autogen' out.txt "a source edit re-ran upstream's autogen"
cmp repo/opal/mca/testfw/testcomp/a.c $S/opal/mca/testfw/testcomp/a.c
[ "$(stat -c %Y $S/opal/mca/testfw/testcomp/b.c)" -lt 1000000000 ] || fail "an unchanged file was copied"
[ "$(stat -c %Y $S/opal/runtime/opal_init.c)" -lt 1000000000 ] || fail "an upstream file was touched"

echo '# changed' >repo/opal/mca/testfw/testcomp/Makefile.am
ag
assert_grep 'running upstream autogen' out.txt

rm repo/opal/mca/testfw/testcomp/b.c
ag
assert_grep 'overlay file removed' out.txt
[ ! -e $S/opal/mca/testfw/testcomp/b.c ] || fail "a removed overlay file stayed in the tree"
[ "$(stat -c %Y $S/opal/runtime/opal_init.c)" -gt 1000000000 ] || fail "tree not re-unpacked"
