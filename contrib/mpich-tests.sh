#!/usr/bin/env bash
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# Run directories of MPICH's MPI test suite against this installation: the
# conformance gate of every component ("with any component selected, every
# program behaves as with stock Open MPI").
#
#   contrib/mpich-tests.sh [-p PREFIX] DIR... [-- VAR=VALUE...]
#
# DIR is a directory of MPICH's test/mpi (comm, pt2pt, coll, io, rma, ...),
# nested ones included (threads/pt2pt); a directory whose testlist names
# directories (threads) runs each of them.  A directory that runs no test
# is a failure, never a pass.
# VAR=VALUE pairs after -- are exported for the run, e.g.
#   contrib/mpich-tests.sh comm -- OMPI_MCA_comm_store=rbtree
# MPICH_MAX_NP=N runs only the tests of at most N ranks (a quicker subset);
# MPICH_SKIP="name..." leaves out the named tests as well (a run that repeats
# another's coverage under a second setting may leave out its slowest tests).
# The test sources come from Debian's mpich source package (apt-get source,
# cached under _build/mpich). Tests listed in test/mpich/<DIR>.expected-fail
# fail on stock Open MPI 4.1.4 too (MPI-4.0 calls that 4.1 lacks); tests in
# test/mpich/<DIR>.skip are not run (they only time out on 2 cores); for a
# nested DIR these files are nested too (test/mpich/threads/pt2pt.skip).
# Another series than 4.1 (the installation's, by its ompi_info) has its
# own lists, measured on its stock release: test/mpich/5.0/<DIR>.*.  The
# script prints one line per test and "mpich DIR: N passed, N failed, N
# expected failures", and exits non-zero if a test outside the expected list
# fails or an expected failure passes (update the list then).
set -euo pipefail
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PREFIX=${PREFIX:-$TOP/_install}
BUILD=${OVERLAY_BUILD_DIR:-$TOP/_build}
[ "${1:-}" = -p ] && { PREFIX=$2; shift 2; }
dirs=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do dirs+=("$1"); shift; done
[ "${1:-}" = -- ] && shift
for kv in "$@"; do export "${kv?}"; done
[ ${#dirs[@]} -gt 0 ] || { sed -n '6,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 2; }
[ -x "$PREFIX/bin/mpicc" ] || { echo "mpich-tests: no installation in $PREFIX" >&2; exit 2; }

work=$BUILD/mpich
mkdir -p "$work"
src=$(ls -d "$work"/mpich-*/test/mpi 2>/dev/null || true)
if [ -z "$src" ]; then
    (cd "$work" && apt-get source --download-only mpich >apt.log 2>&1) || {
        tail -5 "$work/apt.log" >&2
        echo "mpich-tests: cannot fetch Debian's mpich source (needs a deb-src entry: ./autogen.pl as root adds one)" >&2
        exit 2; }
    tarball=$(ls "$work"/mpich_*.orig.tar.*)
    top=mpich-$(basename "$tarball" | sed 's/^mpich_\(.*\)\.orig\.tar\..*/\1/')
    tar -xf "$tarball" -C "$work" "$top/test/mpi"
    src=$work/$top/test/mpi
fi
# The installation's release series (4.1, 5.0): its own expected failures.
series=$("$PREFIX/bin/ompi_info" --version 2>/dev/null | sed -n 's/^Open MPI v\([0-9]*\.[0-9]*\).*/\1/p' | head -1)
[ -n "$series" ] || { echo "mpich-tests: cannot tell the Open MPI series of $PREFIX (ompi_info --version)" >&2; exit 2; }
# MPICH's tests (dtpools) call MPI-1 functions that MPI-3.0 removed.  Open
# MPI keeps them in libmpi; 4.1 here is built with their declarations
# (--enable-mpi1-compatibility), and on another series Open MPI's own switch
# declares them for these programs only.
mpi1=""
[ "$series" = 4.1 ] || mpi1=-DOMPI_OMIT_MPI1_COMPAT_DECLS=0
# Configure once per installation (the tests link this prefix's libmpi).
if [ "$(cat "$src/.configured-for" 2>/dev/null)" != "$PREFIX" ]; then
    echo "mpich-tests: configuring MPICH's tests against $PREFIX"
    # Programs built against another installation are newer than their
    # sources, so make would keep them (and their run path to it).
    if [ -f "$src/Makefile" ]; then make -C "$src" clean >/dev/null 2>&1 || true; fi
    (cd "$src" && ./configure --with-mpi="$PREFIX" --disable-fortran --disable-cxx \
        --disable-spawn MPICC="$PREFIX/bin/mpicc" CC="$PREFIX/bin/mpicc" ${mpi1:+CPPFLAGS="$mpi1"} >configure.log 2>&1 \
        && make -C util >/dev/null 2>&1 && make -C dtpools >/dev/null 2>&1) \
        || { echo "mpich-tests: configure failed ($src/configure.log)" >&2; exit 2; }
    echo "$PREFIX" >"$src/.configured-for"
fi

export OMPI_MCA_rmaps_base_oversubscribe=1 MPITEST_TIMEOUT=${MPITEST_TIMEOUT:-120}
# 5.0's mpirun is PRRTE's, which takes oversubscription from its own mapping
# policy.  5.0's TCP BTL prints "Unable to find reachable pairing between
# local and remote interfaces" in every job of 2 or more ranks on a host
# with IPv6 addresses besides IPv4 (open-mpi/ompi#14079; Debian 13's 5.0.7
# too), which MPICH's harness counts as a failure: TCP over IPv4 only.
if [ "$series" != 4.1 ]; then
    export PRTE_MCA_rmaps_default_mapping_policy=:OVERSUBSCRIBE
    export OMPI_MCA_btl_tcp_disable_family=${OMPI_MCA_btl_tcp_disable_family:-6}
fi
# Without PSM hardware (a test machine) pml cm cannot win, yet probing the
# psm and psm2 MTLs costs every MPI_Init 0.2 s (0.88 -> 0.67 s for 4 ranks
# here), a quarter of each of the suite's thousands of short runs.  Left out
# unless the caller chooses the MTLs itself.
export OMPI_MCA_mtl=${OMPI_MCA_mtl:-^ofi,psm,psm2}
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi

# A directory whose testlist lists subdirectories stands for them (in
# MPICH's order); anything else is a directory of tests.
expand() {
    local d=$1 l any=0
    while read -r l _; do
        case $l in ''|'#'*) continue ;; esac
        if [ -d "$src/$d/$l" ] && [ -f "$src/$d/$l/testlist" ]; then
            expand "$d/$l"; any=1
        fi
    done <"$src/$d/testlist"
    [ $any = 1 ] || echo "$d"
}
run_dirs=()
for d in "${dirs[@]}"; do
    d=${d%/}
    [ -f "$src/$d/testlist" ] || { echo "mpich-tests: no directory $d with a testlist in MPICH's tests" >&2; exit 2; }
    while read -r e; do run_dirs+=("$e"); done < <(expand "$d")
done

lists=$TOP/test/mpich
[ "$series" = 4.1 ] || lists=$TOP/test/mpich/$series
status=0
for d in "${run_dirs[@]}"; do
    flat=${d//\//-}
    expected=$lists/$d.expected-fail skipf=$lists/$d.skip
    # A testlist without the skipped tests (first word of a line is the test).
    # MPICH_MAX_NP=N also leaves out tests of more than N ranks (a quicker
    # subset; the summary line says so).
    awk -v skip="$skipf" -v maxnp="${MPICH_MAX_NP:-0}" -v extra="${MPICH_SKIP:-}" 'BEGIN { while ((getline l < skip) > 0) if (l !~ /^#/ && l != "") s[l] = 1
            n = split(extra, e, " "); for (i = 1; i <= n; i++) s[e[i]] = 1 }
        !($1 in s) && (maxnp == 0 || $2 !~ /^[0-9]+$/ || $2 + 0 <= maxnp)' "$src/$d/testlist" >"$src/$d/testlist.run"
    (cd "$src/$d" && make -k >build.log 2>&1 || true)
    rm -f "$src/$d/out.xml"
    (cd "$src/$d" && "$src/runtests" -srcdir=. -tests=testlist.run -mpiexec="$PREFIX/bin/mpirun" \
        -xmlfile=out.xml >run.log 2>&1 || true)
    [ -f "$src/$d/out.xml" ] || { echo "mpich-tests: FAIL: $d produced no results ($src/$d/run.log)" >&2; exit 1; }
    # One line per test run: name and pass/fail.
    # (-a: a failing test's output may hold binary bytes)
    grep -a -o '<NAME>[^<]*</NAME>\|<STATUS>[^<]*</STATUS>' "$src/$d/out.xml" | paste - - |
        sed 's/<[^>]*>//g' | sort -u >"$work/$flat.results"
    pass=0 fail=0 xfail=0
    while read -r name st; do
        exp=0; grep -qx "$name" "$expected" 2>/dev/null && exp=1
        if [ "$st" = pass ]; then
            pass=$((pass + 1))
            # A test listed several times (other rank counts or arguments)
            # may pass in one run and fail, as expected, in another.
            if [ $exp = 1 ] && ! grep -qx "$name[[:space:]]*fail" "$work/$flat.results"; then
                echo "UNEXPECTED PASS $d/$name (remove it from $expected)"; status=1
            fi
        elif [ $exp = 1 ]; then
            xfail=$((xfail + 1)); echo "expected fail $d/$name"
        else
            fail=$((fail + 1)); echo "FAIL $d/$name"; status=1
        fi
    done <"$work/$flat.results"
    if [ $((pass + fail + xfail)) -eq 0 ]; then
        echo "FAIL: mpich $d ran NO TESTS: a run of nothing is not a pass (see $src/$d/run.log and build.log)"
        status=1
    fi
    echo "mpich $d: $pass passed, $fail failed, $xfail expected failures${MPICH_MAX_NP:+ (tests of at most $MPICH_MAX_NP ranks)}${MPICH_SKIP:+ (left out: $MPICH_SKIP)} (details: $src/$d/out.xml)"
done
[ ${#run_dirs[@]} -gt 0 ] || { echo "FAIL: mpich-tests: no directory to run" >&2; status=1; }
exit $status
