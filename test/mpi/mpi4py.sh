#!/usr/bin/env bash
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# mpi4py's own test suite (release 3.1.4, ../shared/clients/; issue 23),
# unmodified, run by Debian's python3-mpi4py on this installation (first in
# PATH and LD_LIBRARY_PATH, as its users would) on 2 and 3 ranks, in three
# configurations that together select every component of the suite:
#
#   run  ranks  comm_store (CID policy)  grpmap strategy  pml zcomp          fcoll        redist
#   1    2      flat (lowest)            space            on, always         la_twophase  unit
#   2    3      rbtree (highest)         time             on, always         la_twophase  cycleshift
#   3    2      radix (highest)          hybrid           on, adaptive       la_twophase  cyclic
#
# (every group offered to grpmap: grpmap_base_min_size 0).  Each rank must
# end with "OK" and exactly the skips Debian's own Open MPI 4.1.4 gives
# (below); no rank and not mpirun may print anything else but the
# components' own verbose lines that prove they were selected and used: no
# ORTE_ERROR_LOG, no osc "does not support MPI_THREAD_MULTIPLE" (mpi4py
# asks for MPI_THREAD_MULTIPLE), no warning.  The rank outputs are kept
# apart (mpirun --output-filename) so that each rank's summary is read
# whole.
#
# mpi4py has no binding for MPIX_Redist_* (an Open MPI extension), so the
# suite never calls redist: the runs only prove that a selected redist
# component loads and stays harmless in mpi4py's processes.
#
# Time (2 cores): mpi4py's test_util_dtlib is a fifth of the suite's time
# and purely local (numpy dtypes <-> MPI datatypes, no communication, no
# component of the suite involved): run 3 leaves it out.  MPI4PY_FULL=1
# runs the three configurations on 2 and on 3 ranks, whole.
#
# The windows: mpi4py skips its RMA and window tests (104 of the 152 skips)
# because MPI_Win_create on MPI_COMM_SELF fails on Debian's Open MPI: osc
# rdma has no RDMA-capable BTL to itself, and Debian's site file
# (/etc/openmpi/openmpi-mca-params.conf) excludes osc ucx and pt2pt.  This
# installation must do as Debian does (osc = ^ucx,pt2pt in
# $PREFIX/etc/openmpi-mca-params.conf): with pt2pt left in, pt2pt takes
# these windows and prints "does not support MPI_THREAD_MULTIPLE" before
# failing them; with ucx left in, osc ucx takes them, the RMA tests run,
# UCX prints "invalid atomic operation datatype" for 1- and 2-byte atomics
# and osc rdma's world windows crash in vader's emulated compare-and-swap
# (Debian's build, --mca osc ^pt2pt, 2026-11-26).  Checked first, cheaply.
. "$TEST_LIB"

PY=/usr/bin/python3
TARBALL=${MPI4PY_TESTS_TARBALL:-$TOP/../shared/clients/mpi4py-3.1.4-test.tar.gz}

# Debian 12's Open MPI 4.1.4 (openmpi-bin 4.1.4-3+b1 with its site file),
# mpi4py 3.1.4, numpy 1.24.2, on this VM (2026-11-26), on every rank:
#   runtests.py -q --no-builddir -e test_dynproc -e test_spawn
#       Ran 1358 tests, on 2 ranks (162 s, beside a build) and on 3 (188 s)
#   the same with -e test_util_dtlib (its 19 tests skip nothing), 2 ranks
#       Ran 1339 tests (127 s)
#   OK (skipped=152) in all three, per rank: 104 windows (mpi-rma 36,
#   mpi-win-dynamic 20, mpi-win-create 18, mpi-rma-nb 14, mpi-win-attr 8,
#   mpi-win 8: see above), cupy 23 and numba 17 (not installed), python3 3
#   (Python 2 only), cffi 2 and dill 1 (not installed), openmpi 2
#   (test_msgzero's reductions, mpi4py's own skip for Open MPI).
FULL_TESTS=1358
NODTLIB_TESTS=1339
SKIPPED=152

[ -f "$TARBALL" ] || skip "no mpi4py test suite at $TARBALL"
"$PY" -c 'import mpi4py, numpy' 2>/dev/null ||
    skip "Debian's python3-mpi4py and python3-numpy are not installed"
v=$("$PY" -c 'import mpi4py; print(mpi4py.__version__)')
[ "$v" = 3.1.4 ] || skip "mpi4py $v, not 3.1.4: the expected skips were measured with 3.1.4"

export PATH=$PREFIX/bin:$PATH
export LD_LIBRARY_PATH=$PREFIX/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
tar xzf "$TARBALL"
SUITE=$TEST_TMP/mpi4py-3.1.4/test
[ -f "$SUITE/runtests.py" ] || fail "no test/runtests.py in $TARBALL"

# The installation excludes osc ucx and pt2pt (see above), where it has them.
osc=$("$OMPI_INFO" --param osc all --level 9 --parsable | awk -F: '$1=="mca" && $2=="osc" && $3=="base" && $5=="osc" && $6=="value" {print $7}')
for c in ucx pt2pt; do
    "$OMPI_INFO" --parsable | grep -q "^mca:osc:$c:" || continue
    case ",${osc#^}," in
        *",$c,"*) [ "${osc:0:1}" = "^" ] && continue ;;
        *) [ -n "$osc" ] && [ "${osc:0:1}" != "^" ] && continue ;;
    esac
    fail "osc $c is not excluded (osc = '${osc}'): MPI_Win_create on MPI_COMM_SELF would go to it under mpi4py's MPI_THREAD_MULTIPLE; Debian's site file has 'osc = ^ucx,pt2pt', and $PREFIX/etc/openmpi-mca-params.conf must too (see this script's header)"
done
note "osc = $osc"

# mpi4py really runs on this installation's libmpi
run_to 60 lib.txt -np 1 "$PY" -c '
from mpi4py import MPI
print("libmpi:", [l.split()[-1] for l in open("/proc/self/maps") if "libmpi.so" in l][0])
print("thread level:", MPI.Query_thread() == MPI.THREAD_MULTIPLE)' || { cat lib.txt; fail "mpi4py does not start"; }
assert_grep "^libmpi: $PREFIX/lib/libmpi\.so" lib.txt "mpi4py did not load $PREFIX/lib/libmpi.so"
assert_grep '^thread level: True' lib.txt "mpi4py did not get MPI_THREAD_MULTIPLE"

# What a rank may print besides the summary: the verbose lines asked for
# (the components' own, and the MCA base's lines on opening the frameworks
# whose verbose level is raised), none of them saying that something failed.
ALLOWED='^(\[[^]]*\] )?(comm_store: |zcomp: |grpmap:|redist: |fcoll:la_twophase: |mca: base: |mca:base:select:)'

# suite NAME NP NTESTS COMM_STORE STRATEGY REDIST ZCOMP_STRATEGY [runtests args]
suite() {
    local name=$1 np=$2 ntests=$3 cs=$4 strat=$5 rd=$6 zs=$7; shift 7
    local out=$TEST_TMP/$name.out t0=$SECONDS r f n bad
    rm -rf "$out"
    note "$name: $np ranks, comm_store $cs, grpmap $strat, zcomp $zs, fcoll la_twophase, redist $rd"
    if ! run_to 600 "$name.txt" -np "$np" --output-filename "$out:nocopy" \
        --mca comm_store "$cs" --mca comm_store_base_verbose 10 \
        --mca grpmap_base_strategy "$strat" --mca grpmap_base_min_size 0 --mca grpmap_base_verbose 10 \
        --mca pml_zcomp_enable 1 --mca pml_zcomp_strategy "$zs" --mca pml_zcomp_verbose 1 \
        --mca fcoll la_twophase --mca fcoll_base_verbose 10 \
        --mca redist "$rd" --mca redist_base_verbose 10 \
        "$PY" "$SUITE/runtests.py" -q --no-builddir -e test_dynproc -e test_spawn "$@"; then
        cat "$name.txt"; for f in "$out"/*/rank.*/stderr; do echo "--- $f"; tail -n 30 "$f"; done
        fail "$name: mpirun failed"
    fi
    # mpirun itself printed nothing (show_help, ORTE_ERROR_LOG and the
    # like come through it)
    if [ -s "$name.txt" ]; then cat "$name.txt"; fail "$name: mpirun printed something (above)"; fi
    for ((r = 0; r < np; r++)); do
        f=$(echo "$out"/*/rank.$r/stderr)
        [ -f "$f" ] || fail "$name: no output of rank $r"
        cat "$out"/*/rank.$r/stdout "$f" >"$name.rank$r.txt"
        assert_grep "^Ran $ntests tests in " "$f" "$name, rank $r: not 'Ran $ntests tests'"
        assert_grep "^OK \(skipped=$SKIPPED\)$" "$f" "$name, rank $r: not 'OK (skipped=$SKIPPED)' as on Debian"
        assert_no_grep 'ORTE_ERROR_LOG|MPI_THREAD_MULTIPLE|[Ww]arning|WARNING|[Ee]rror|ERROR|[Ff]ail|FAIL|[Uu]nable' \
            "$name.rank$r.txt" "$name, rank $r"
        bad=$(grep -vE "$ALLOWED" "$name.rank$r.txt" |
              grep -vE '^-{70}$|^$|^Ran [0-9]+ tests in [0-9.]+s$|^OK \(skipped=[0-9]+\)$' || true)
        [ -z "$bad" ] || { echo "$bad" | head -n 30; fail "$name, rank $r printed more than the summary and the verbose lines (above)"; }
        # each component was selected, and used where the suite reaches it
        assert_grep "comm_store: selected $cs " "$f" "$name, rank $r: comm_store $cs not selected"
        assert_grep "grpmap: [0-9]+ forms open, strategy $strat," "$f" "$name, rank $r: grpmap strategy $strat not in force"
        assert_grep "zcomp: wrapping pml ob1, strategy $zs" "$f" "$name, rank $r: zcomp did not wrap ob1"
        assert_grep "zcomp: sent [0-9]+ messages compressed .* 0 corrupt$" "$f" "$name, rank $r: no zcomp totals at finalize, or corrupt messages"
        assert_grep "redist: default component $rd " "$f" "$name, rank $r: redist $rd not selected"
    done
    # the collective I/O of test_io went through la_twophase; with strategy
    # always zcomp compressed messages; space and hybrid held groups in a
    # compressed form
    assert_grep 'fcoll:la_twophase: [0-9]+ processes' "$name.rank0.txt" "$name: la_twophase did not run a collective"
    if [ "$zs" = always ]; then
        n=$(grep -hoE 'zcomp: sent [0-9]+ messages compressed' "$name".rank*.txt | awk '{s += $3} END {print s + 0}')
        [ "$n" -gt 0 ] || fail "$name: zcomp always compressed no message"
    fi
    if [ "$strat" != time ]; then
        grep -qhE 'grpmap: group of [0-9]+ members: [a-z]+' "$name".rank*.txt ||
            fail "$name: grpmap $strat held no group in a compressed form"
    fi
    echo "$name: $np ranks, each: Ran $ntests tests, OK (skipped=$SKIPPED), nothing else printed ($((SECONDS - t0)) s)"
}

suite run1-np2 2 $FULL_TESTS flat space unit always
suite run2-np3 3 $FULL_TESTS rbtree time cycleshift always
if [ -n "${MPI4PY_FULL:-}" ]; then
    suite run1-np3 3 $FULL_TESTS flat space unit always
    suite run2-np2 2 $FULL_TESTS rbtree time cycleshift always
    suite run3-np2 2 $FULL_TESTS radix hybrid cyclic adaptive
    suite run3-np3 3 $FULL_TESTS radix hybrid cyclic adaptive
else
    suite run3-np2 2 $NODTLIB_TESTS radix hybrid cyclic adaptive -e test_util_dtlib
fi
echo "mpi4py: OK"
