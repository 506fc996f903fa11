# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# Helpers sourced by the test scripts: . "$TEST_LIB"
set -euo pipefail
: "${TOP:?run tests through test/run.sh}" "${PREFIX:?}" "${TEST_TMP:?}"

# The Open MPI base under test (OMPI_BASE, as quickstart.sh exports it; else
# VERSION's default) and its profile: OMPI_SERIES, OMPI_TARBALL_*.
# shellcheck source=../VERSION
. "$TOP/VERSION"
OMPI_BASE=${OMPI_BASE:-$OMPI_BASE_DEFAULT}
# shellcheck disable=SC1090
. "$TOP/config/base/$OMPI_BASE"

MPICC=$PREFIX/bin/mpicc
OMPI_INFO=$PREFIX/bin/ompi_info

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "$*"; exit 77; }
note() { echo "== $*"; }

# have WHAT: true if this base has WHAT, one of
#   an overlay directory (ompi/mca/comm_store): the base's profile may leave
#     it out (OMPI_OVERLAY_SKIP, a core hook not yet ported);
#   patch:NNNN: the series' patch config/patches/<series>/NNNN-*.patch.
# needs WHAT...: skip the test, saying why, unless this base has each WHAT.
have() {
    local w=$1 s pdir=$TOP/config/patches/$OMPI_SERIES
    case $w in
        patch:*)
            compgen -G "$pdir/${w#patch:}-*.patch" >/dev/null ;;
        *)
            [ -d "$TOP/$w" ] || fail "have: no directory $w in the overlay"
            for s in ${OMPI_OVERLAY_SKIP:-}; do
                [[ $w == "$s" || $w == "$s"/* ]] && return 1
            done
            return 0 ;;
    esac
}
needs() {
    local w
    for w in "$@"; do
        have "$w" && continue
        case $w in
            patch:*) skip "not on Open MPI $OMPI_BASE: its series (config/patches/$OMPI_SERIES/) has no patch ${w#patch:}" ;;
            *) skip "not on Open MPI $OMPI_BASE: config/base/$OMPI_BASE leaves $w out" ;;
        esac
    done
}

# The shared-memory BTL: vader in 4.1, renamed sm in 5.0 (where vader is a
# deprecated alias that warns).
SHM_BTL=vader
[ "$OMPI_SERIES" = 4.1 ] || SHM_BTL=sm
# OMPIO's fcoll components and ROMIO's io component: 5.0 has no fcoll
# two_phase, and a newer ROMIO.
FCOLLS="vulcan dynamic dynamic_gen2 two_phase individual la_twophase" ROMIO=romio321
[ "$OMPI_SERIES" = 4.1 ] || FCOLLS="vulcan dynamic dynamic_gen2 individual la_twophase" ROMIO=romio341

# mpirun with the flags every test needs: oversubscription (2 cores, up to 8
# ranks) and, only when the tests run as root, Open MPI's root consent.
# 5.0's mpirun is PRRTE's, where --oversubscribe is a deprecated alias
# that warns on every run.  A job whose mpirun itself crashes (PRRTE's
# teardown, open-mpi/ompi#13650) runs once more: test/common/mpirun-relaunch.
MPIRUN_OVERSUBSCRIBE=(--oversubscribe)
[ "$OMPI_SERIES" = 4.1 ] || MPIRUN_OVERSUBSCRIBE=(--map-by :OVERSUBSCRIBE)
mpirun_t() {
    local root=()
    [ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
    "$TOP/test/common/mpirun-relaunch" "${root[@]}" "${MPIRUN_OVERSUBSCRIBE[@]}" "$@"
}

# run_to SECONDS OUT mpirun-args...: mpirun_t under a time limit, output in
# OUT; a hang fails the test saying so, any other exit status is returned.
run_to() {
    local secs=$1 out=$2 rc=0; shift 2
    timeout -k 10 "$secs" bash -c "$(declare -p MPIRUN_OVERSUBSCRIBE; declare -f mpirun_t); mpirun_t \"\$@\"" mpirun_t "$@" \
        >"$out" 2>&1 || rc=$?
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
        tail -n 20 "$out"; fail "hung: no end after ${secs}s: mpirun $*"
    fi
    return $rc
}

# A cluster of nodes made of namespaces on this machine
# (../shared/tools/fakecluster: one ORTE daemon per node over an rsh agent,
# TCP between nodes).  needs_fakecluster skips a test without root or the
# tool; fc_mpirun SECS OUT NODES SLOTS RATE mpirun-args... runs mpirun
# there (ranks dealt round-robin over the nodes, output in OUT; RATE "" for
# unshaped links): a cluster that cannot be made skips the test, a hang or
# a failing job fails it.
FAKECLUSTER=${FAKECLUSTER:-$TOP/../shared/tools/fakecluster}
needs_fakecluster() {
    [ "$(id -u)" -eq 0 ] || skip "needs root (fakecluster makes network namespaces)"
    [ -x "$FAKECLUSTER" ] || skip "no fakecluster at $FAKECLUSTER"
}
fc_mpirun() {
    local secs=$1 out=$2 nodes=$3 slots=$4 rate=$5 rc=0; shift 5
    timeout -k 10 "$secs" "$FAKECLUSTER" --nodes "$nodes" --slots "$slots" ${rate:+--rate "$rate"} -- \
        "$PREFIX/bin/mpirun" --allow-run-as-root --prefix "$PREFIX" --map-by node \
        --mca btl tcp,"$SHM_BTL",self "$@" >"$out" 2>&1 || rc=$?
    [ $rc -eq 124 ] && { tail -n 20 "$out"; fail "hung: fakecluster mpirun $*"; }
    [ $rc -eq 2 ] && grep -q '^fakecluster:' "$out" && { cat "$out"; skip "fakecluster cannot make a cluster here"; }
    [ $rc -eq 0 ] || { tail -n 30 "$out"; fail "failed ($rc): fakecluster mpirun $*"; }
}

# redist_components: the redist components ompi_info lists, the seed's
# six first; cyclic, unit and cycleshift must be there.
redist_components() {
    local all c
    all=$("$OMPI_INFO" --parsable | awk -F: '$1 == "mca" && $2 == "redist" && $3 != "base" {print $3}' | sort -u)
    for c in cyclic unit cycleshift; do
        grep -qx "$c" <<<"$all" || fail "ompi_info --parsable lists no redist component $c (it lists: $(echo $all))"
    done
    for c in cyclic unit cycleshift unitcyclic phase park; do grep -x "$c" <<<"$all" || true; done
    grep -vxE 'cyclic|unit|cycleshift|unitcyclic|phase|park' <<<"$all" || true
}

# build_mpi SRC OUT [extra mpicc args]: compile a test program with mpicc
# (test/common's headers found).
build_mpi() {
    local src=$1 out=$2; shift 2
    "$MPICC" -O2 -Wall -Werror -I"$TOP/test/common" -o "$out" "$src" "$@" ||
        fail "mpicc could not build $src"
}

# build_unit OUT SRC... [flags]: a plain C unit test, under ASan and UBSan.
build_unit() {
    local out=$1; shift
    gcc -std=c99 -O1 -g -Wall -Werror -fsanitize=address,undefined \
        -fno-sanitize-recover=all -o "$out" "$@" || fail "cannot build unit test $out"
}

assert_grep() {   # assert_grep PATTERN FILE [what]
    grep -Eq -- "$1" "$2" || { echo "--- $2:"; tail -n 30 "$2"; fail "${3:-expected /$1/ in $2}"; }
}
# fails_saying TRIES PATTERN OUT CMD...: CMD must fail on every run, and its
# output must match PATTERN in at least one of TRIES runs.  Open MPI 4.1.4's
# ORTE sometimes loses a show_help message (on its way to mpirun, logging
# "Data unpack would read past end of buffer" or "Out of resource in
# show_help.c"), above all just before an abort in MPI_Init.
fails_saying() {
    local tries=$1 pat=$2 out=$3 i; shift 3
    for i in $(seq "$tries"); do
        if "$@" >"$out" 2>&1; then tail -n 20 "$out"; fail "expected to fail: $*"; fi
        grep -Eq -- "$pat" "$out" && return 0
    done
    tail -n 30 "$out"
    fail "no /$pat/ in $tries failing runs of: $*"
}

# works_saying TRIES PATTERN OUT CMD...: CMD must succeed on every run, and
# its output must match PATTERN in at least one of TRIES runs (a show_help
# that ORTE may lose, as above, from a process that goes on running).
works_saying() {
    local tries=$1 pat=$2 out=$3 i; shift 3
    for i in $(seq "$tries"); do
        "$@" >"$out" 2>&1 || { tail -n 20 "$out"; fail "failed: $*"; }
        grep -Eq -- "$pat" "$out" && return 0
    done
    tail -n 30 "$out"
    fail "no /$pat/ in $tries runs of: $*"
}

# must_fail OUT WHY CMD...: CMD (env VAR=VALUE... first where it needs
# them) must exit non-zero, else the test fails saying WHY; its output goes
# to OUT and is shown either way.
must_fail() {
    local out=$1 why=$2 rc=0; shift 2
    "$@" >"$out" 2>&1 || rc=$?
    cat "$out"
    [ $rc -ne 0 ] || fail "$why"
}

assert_no_grep() {
    ! grep -Eq -- "$1" "$2" || { grep -E -- "$1" "$2" | head; fail "${3:-unexpected /$1/ in $2}"; }
}

# mpich_clean NAME DIR... -- VAR=VALUE...: run MPICH test directories with
# contrib/mpich-tests.sh (output in NAME.txt); every directory must run
# tests and lose none (expected failures and skips as on stock).
mpich_clean() {
    local name=$1; shift
    "$TOP/contrib/mpich-tests.sh" -p "$PREFIX" "$@" | tee "$name.txt" \
        || { tail -20 "$name.txt"; fail "$name: MPICH lost a test (or ran none)"; }
    assert_no_grep '^FAIL|UNEXPECTED|NO TESTS' "$name.txt" "$name: MPICH lost a test"
}

# mpich_xfail DIR: how many of MPICH's DIR/ tests this base's series is
# expected to fail (contrib/mpich-tests.sh's list: test/mpich/ for 4.1,
# test/mpich/<series>/ otherwise), for asserting its summary line.
mpich_xfail() {
    local l=$TOP/test/mpich/$1.expected-fail
    [ "$OMPI_SERIES" = 4.1 ] || l=$TOP/test/mpich/$OMPI_SERIES/$1.expected-fail
    [ -f "$l" ] || { echo 0; return; }
    grep -cv '^#\|^$' "$l" || true
}

# The verified Open MPI tarball the build used (for the build tests).
base_tarball() {
    local t=${OMPI_TARBALL:-}
    [ -n "$t" ] || t=$OVERLAY_BUILD_DIR/downloads/$OMPI_TARBALL_NAME
    [ -f "$t" ] || skip "no Open MPI tarball at $t"
    echo "$t"
}

# copy_overlay DIR: a copy of this repository's overlay inputs in DIR.
copy_overlay() {
    mkdir -p "$1"
    cp -a "$TOP/autogen.pl" "$TOP/VERSION" "$TOP/quickstart.sh" "$1/"
    local d; for d in ompi opal config; do [ -d "$TOP/$d" ] && cp -a "$TOP/$d" "$1/"; done
    mkdir -p "$1/config/patches/$OMPI_SERIES"
}

# The prepared Open MPI source tree (for unit tests that need OPAL headers).
OMPI_SRC=$OVERLAY_BUILD_DIR/src/$OMPI_TARBALL_TOPDIR
COMPRESS=$TOP/opal/mca/compress
CODEC_SOURCES="$COMPRESS/lzo/compress_lzo_codec.c $COMPRESS/lz4/compress_lz4_codec.c
  $COMPRESS/zstd/compress_zstd_codec.c $COMPRESS/bzip2/compress_bzip2_codec.c
  $COMPRESS/fpc/compress_fpc_codec.c $COMPRESS/rle/compress_rle_codec.c
  $COMPRESS/huffman/compress_huffman_codec.c $COMPRESS/rice/compress_rice_codec.c"
CODEC_LIBS="-llzo2 -llz4 -lzstd -lbz2 -lm -lpthread"
UNIT_INC="-I$TOP -I$TOP/test/common -I$OMPI_SRC/opal/include"

# build_opal OUT SRC... [flags]: a program that uses OPAL's internal API
# (headers from the prepared source and object trees, the installed
# libopen-pal), such as framework-level tests and benchmarks.
OMPI_OBJ=$OVERLAY_BUILD_DIR/obj
# 5.0's OPAL headers include pmix.h: the installed one (the bundled PMIx on
# Debian 12, which it installs beside mpi.h).
OPAL_PMIX_INC=""
[ "$OMPI_SERIES" = 4.1 ] || OPAL_PMIX_INC=-I$PREFIX/include
build_opal() {
    local out=$1; shift
    gcc -std=gnu99 -O2 -Wall -Werror -o "$out" -I"$OMPI_OBJ" -I"$OMPI_OBJ/opal/include" \
        -I"$OMPI_SRC" -I"$OMPI_SRC/opal/include" -I"$TOP/test/common" ${OPAL_PMIX_INC:+"$OPAL_PMIX_INC"} "$@" \
        -L"$PREFIX/lib" -Wl,-rpath,"$PREFIX/lib" -lopen-pal || fail "cannot build $out"
}
