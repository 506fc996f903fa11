#!/usr/bin/env bash
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# Test harness.  Runs every executable test script under test/<area>/ (areas
# in this order: unit, mpi, build), each in its own temporary directory with
# a time limit, and ends with an "N passed, N failed" line.  test/extended/
# holds conformance runs that repeat the suite's coverage under further
# settings (too long for CI's time): TEST_AREAS=extended runs them.
#
#   test/run.sh [PATTERN...]    run the tests whose path matches a PATTERN
#
# A test script passes with exit 0, is skipped with exit 77 (saying why on
# its last line) and fails otherwise.  Its output goes to
# $OVERLAY_BUILD_DIR/test-logs/<area>-<name>.log; a failure prints the tail.
# Environment: PREFIX (installation under test, default ./_install),
# OVERLAY_BUILD_DIR (default ./_build), TEST_TIMEOUT (seconds, default 900),
# TESTS (a pattern, as the arguments), TEST_AREAS (default "unit mpi build"),
# TEST_REPEAT_OF (a base this checkout's suite has already run on in the
# same run: scripts whose line "# test-scope: any base" says their code does
# not depend on the Open MPI base, or "# test-scope: first base (why)" that
# they repeat a conformance run whose base-specific paths other scripts
# cover, are skipped, saying so), TEST_SIDE_PGID (a process group that may
# run beside the unit tests only -- quickstart.sh's build of the next base:
# stopped with SIGSTOP before the first script of a later area, continued
# when run.sh ends), TEST_DEADLINE (epoch seconds, set by .ci/run: no
# script starts, and none runs on, past 90 s before it; the scripts left
# are listed as NOT RUN and run.sh exits 3 when nothing failed).
set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export TOP
export PREFIX=${PREFIX:-$TOP/_install}
export OVERLAY_BUILD_DIR=${OVERLAY_BUILD_DIR:-$TOP/_build}
export TEST_LIB=$TOP/test/lib.sh
LOGDIR=$OVERLAY_BUILD_DIR/test-logs
mkdir -p "$LOGDIR"
timeout_s=${TEST_TIMEOUT:-900}

patterns=("$@")
[ ${#patterns[@]} -eq 0 ] && [ -n "${TESTS:-}" ] && patterns=("$TESTS")

[ -x "$PREFIX/bin/mpicc" ] || { echo "run.sh: no installation in $PREFIX (run ./quickstart.sh build)" >&2; exit 2; }

passed=0 failed=0 skipped=0 failures=() notrun=()
# A slow CI machine (its build once took three times as long as on the
# last landed runs) must end with a verdict on what ran, not with CI's own
# kill, which prints nothing of the scripts not reached.
stop_at=""
[ -n "${TEST_DEADLINE:-}" ] && stop_at=$(( TEST_DEADLINE - 90 ))
t_all=$(date +%s)
side_job() {  # STOP or CONT the process group beside the unit tests
    [ -n "${TEST_SIDE_PGID:-}" ] || return 0
    kill -"$1" -- "-$TEST_SIDE_PGID" 2>/dev/null || true
}
trap 'side_job CONT' EXIT
for area in ${TEST_AREAS:-unit mpi build}; do
    if [ "$area" = unit ]; then
        side_job CONT
    elif [ -n "${TEST_SIDE_PGID:-}" ] && [ -z "${side_stopped:-}" ]; then
        side_job STOP
        side_stopped=1
        echo "(stopped the job beside the unit tests, process group $TEST_SIDE_PGID, until the tests end)"
    fi
    for t in "$TOP"/test/"$area"/*.sh; do
        [ -x "$t" ] || continue
        rel=${t#"$TOP"/}
        if [ ${#patterns[@]} -gt 0 ]; then
            m=0; for p in "${patterns[@]}"; do [[ $rel == *$p* ]] && m=1; done
            [ $m -eq 1 ] || continue
        fi
        name="$area-$(basename "$t" .sh)"
        if [ -n "${TEST_REPEAT_OF:-}" ] && grep -Eq '^# test-scope: (any|first) base' "$t"; then
            skipped=$((skipped + 1))
            printf 'SKIP  %-40s %4ds  (%s)\n' "$rel" 0 "$(sed -n 's/^# test-scope: //p' "$t" | head -n 1); ran on $TEST_REPEAT_OF in this run"
            continue
        fi
        limit=$timeout_s
        if [ -n "$stop_at" ]; then
            left=$(( stop_at - $(date +%s) ))
            if [ "$left" -lt 30 ]; then
                notrun+=("$rel")
                printf 'NOT RUN  %-37s        (TEST_DEADLINE)\n' "$rel"
                continue
            fi
            [ "$left" -lt "$limit" ] && limit=$left
        fi
        log=$LOGDIR/$name.log
        TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/ompitest.$name.XXXXXX")
        t0=$(date +%s)
        (cd "$TEST_TMP" && TEST_TMP=$TEST_TMP timeout -k 10 "$limit" "$t") >"$log" 2>&1
        rc=$?
        dt=$(( $(date +%s) - t0 ))
        # jobs run again after mpirun itself crashed (test/common/mpirun-relaunch)
        relaunched=""
        [ -f "$TEST_TMP/launcher-crashes" ] &&
            relaunched="  ($(wc -l <"$TEST_TMP/launcher-crashes") job(s) run again after mpirun itself crashed)"
        # cut by TEST_DEADLINE, not by its own time limit
        if { [ $rc -eq 124 ] || [ $rc -eq 137 ]; } && [ "$limit" -lt "$timeout_s" ] \
           && [ "$dt" -ge $(( limit - 2 )) ]; then
            rc=cut
        fi
        case $rc in
            0)  passed=$((passed + 1)); printf 'PASS  %-40s %4ds%s\n' "$rel" "$dt" "$relaunched" ;;
            77) skipped=$((skipped + 1))
                printf 'SKIP  %-40s %4ds  (%s)\n' "$rel" "$dt" "$(tail -n 1 "$log")" ;;
            cut) notrun+=("$rel")
                printf 'CUT   %-40s %4ds  (stopped at TEST_DEADLINE; log %s)\n' "$rel" "$dt" "$log"
                tail -n 5 "$log" | sed 's/^/      | /'
                echo "stopped at TEST_DEADLINE after ${dt}s" >>"$log" ;;
            *)  failed=$((failed + 1)); failures+=("$rel")
                [ $rc -eq 124 ] && echo "test timed out after ${timeout_s}s" >>"$log"
                printf 'FAIL  %-40s %4ds  (exit %d, log %s)%s\n' "$rel" "$dt" "$rc" "$log" "$relaunched"
                tail -n 15 "$log" | sed 's/^/      | /' ;;
        esac
        rm -rf "$TEST_TMP"
    done
done
echo "----"
[ $skipped -gt 0 ] && echo "$skipped skipped"
[ $failed -gt 0 ] && echo "failed: ${failures[*]}"
[ ${#notrun[@]} -gt 0 ] && echo "not run or not finished before TEST_DEADLINE (${#notrun[@]}): ${notrun[*]}"
echo "total time $(( $(date +%s) - t_all )) s"
echo "$passed passed, $failed failed$([ ${#notrun[@]} -gt 0 ] && echo ", ${#notrun[@]} not run")"
[ $failed -eq 0 ] && [ $passed -gt 0 ] || exit 1
[ ${#notrun[@]} -eq 0 ] || exit 3
