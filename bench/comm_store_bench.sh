#!/usr/bin/env bash
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# comm_store benchmarks, every configuration in this one script so that the
# ratios compare runs made under the same machine load:
#   1. lookup cost (ns) with 10,000 live CIDs: the unit test's --bench;
#   2. 0/8-byte ping-pong latency over shared memory on a communicator
#      created after LIVE others, flat/rbtree/radix interleaved, ROUNDS
#      rounds; the ratio against flat is the median of the per-round ratios;
#   3. the split stress benchmark (8 ranks, SPLITS splits, small and large
#      modes), lowest vs highest CID policy, with density and bytes per live
#      communicator (4.); SREPS repetitions with the configurations
#      interleaved, medians over them.
# Usage: bench/comm_store_bench.sh [--quick] [--only lookup|pingpong|split]
# Environment: PREFIX (default ./_install), LIVE, ITERS, ROUNDS, SPLITS, SREPS,
# MODES (split modes, default "small large").
set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
PREFIX=${PREFIX:-$TOP/_install}
quick=0 only=
while [ $# -gt 0 ]; do
    case $1 in
        --quick) quick=1 ;;
        --only) only=$2; shift ;;
        *) echo "usage: $0 [--quick] [--only lookup|pingpong|split]" >&2; exit 2 ;;
    esac
    shift
done
if [ $quick = 1 ]; then
    LIVE=${LIVE:-1000} ITERS=${ITERS:-2000} ROUNDS=${ROUNDS:-3} SPLITS=${SPLITS:-400} SREPS=${SREPS:-1}
else
    LIVE=${LIVE:-10000} ITERS=${ITERS:-20000} ROUNDS=${ROUNDS:-7} SPLITS=${SPLITS:-10000} SREPS=${SREPS:-3}
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=()
[ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
mpirun() { "$PREFIX/bin/mpirun" "${root[@]}" --oversubscribe "$@"; }
"$PREFIX/bin/mpicc" -O2 -Wall -I"$TOP/test/common" -o "$work/b" "$TOP/bench/comm_store_bench.c"

med() { sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

if [ -z "$only" ] || [ "$only" = lookup ]; then
    echo "== 1. lookup (ns per lookup through the ops table, 10,000 live CIDs)"
    CS=$TOP/ompi/mca/comm_store
    gcc -std=gnu99 -O2 -pthread -I"$TOP" -o "$work/maps" "$TOP/test/unit/comm_store_map_test.c" \
        "$CS/flat/comm_store_flat_map.c" "$CS/rbtree/comm_store_rbtree_map.c" \
        "$CS/radix/comm_store_radix_map.c"
    "$work/maps" --bench
fi

if [ -z "$only" ] || [ "$only" = pingpong ]; then
    echo "== 2. ping-pong over shared memory, $LIVE live communicators, $ITERS iterations x 15 batches, $ROUNDS rounds"
    for r in $(seq "$ROUNDS"); do
        for c in flat rbtree radix; do
            line=$(mpirun -np 2 --mca btl vader,self --mca comm_store "$c" "$work/b" pingpong "$LIVE" "$ITERS" | grep '^pingpong')
            echo "$r $c $line" >>"$work/pp.txt"
        done
    done
    for sz in 0 8; do
        f=$((sz == 0 ? 5 : 7))
        for c in flat rbtree radix; do
            lat=$(awk -v c=$c -v f=$f '$2==c {print $f}' "$work/pp.txt" | med)
            ratio=$(awk -v c=$c -v f=$f '$2=="flat" {b[$1]=$f} $2==c {v[$1]=$f} END {for (r in v) print v[r]/b[r]}' "$work/pp.txt" | med)
            printf '%sB  %-6s median %7.1f ns   ratio vs flat %.3f\n' "$sz" "$c" "$lat" "$ratio"
        done
    done
fi

if [ -z "$only" ] || [ "$only" = split ]; then
    echo "== 3./4. split stress, 8 ranks, $SPLITS splits (times in us), $SREPS interleaved repetitions"
    for mode in ${MODES:-small large}; do
        : >"$work/split.txt"
        for rep in $(seq "$SREPS"); do
            for cfg in "flat lowest" "flat highest" "rbtree highest" "radix highest"; do
                set -- $cfg
                line=$(mpirun -np 8 --mca comm_store "$1" --mca comm_store_base_cid_policy "$2" \
                    "$work/b" split "$mode" "$SPLITS" $((12345 + rep)) | grep '^split')
                printf '%s %-15s %s\n' "$rep" "$1/$2" "$line" | tee -a "$work/split.txt"
            done
        done
        # per configuration: the median over repetitions of each figure, and
        # the median of the per-repetition ratios against flat/lowest
        awk -v m=$mode '
            function med(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
                                          return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
            { for (i = 5; i <= NF; i++) { split($i, kv, "="); v[$1, $2, kv[1]] = kv[2] } reps[$1] = 1; cfgs[$2] = 1 }
            END {
                nc = split("flat/lowest flat/highest rbtree/highest radix/highest", order, " ")
                for (c = 1; c <= nc; c++) {
                    cf = order[c]
                    printf "  %s %-15s", m, cf
                    nk = split("p50 p90 p99 rounds single density bytes_per_comm", keys, " ")
                    for (k = 1; k <= nk; k++) {
                        n = 0; for (r in reps) x[++n] = v[r, cf, keys[k]]
                        printf " %s=%s", keys[k], med(x, n)
                    }
                    nk = split("p50 p99", keys, " ")
                    for (k = 1; k <= nk; k++) {
                        n = 0; for (r in reps) x[++n] = v[r, cf, keys[k]] / v[r, "flat/lowest", keys[k]]
                        printf " %s_vs_lowest=%.2fx", keys[k], med(x, n)
                    }
                    printf "\n"
                }
            }' "$work/split.txt"
    done
fi
