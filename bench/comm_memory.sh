#!/usr/bin/env bash
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# Per-communicator memory (bench/comm_memory.c, issue 19): at NPS ranks
# (oversubscribed), each rank creates K communicators of each kind (dup of
# the world, rows and columns of a 2-D grid, planes of a 3-D grid, rows by
# MPI_Cart_sub) and measures its heap growth per communicator, twice:
# unused (made and kept) and used (each carries one message round a ring of
# its members as it is made, as an application's communicators do: the
# first contacts' per-peer state is counted), under
#   stock   dense group maps (grpmap_base_min_size above the job) and ob1's
#           flat peer table (pml_ob1_sparse_peers_min -1);
#   suite   every group offered to grpmap (grpmap_base_min_size 0) and
#           every peer table sparse (pml_ob1_sparse_peers_min 0).
# A third use, "coll", adds an 8-byte MPI_Allreduce on each communicator
# (the collective modules its first collective selects).  With UPSTREAM
# set to the prefix of an unpatched Open MPI of the same series (e.g.
# UPSTREAM=/usr for Debian's openmpi-bin 4.1.4), the same runs with its
# default settings come out as a third setting, "upstrm", and a last
# table gives suite / upstream per kind, use and size.
# Per kind and setting: bytes per communicator at each size (the median
# rank's; the mean over ranks beside it), the slope in
# bytes per member (least squares over the sizes: the part that grows with
# the job), and both extrapolated to 262,144 ranks (the seed's BG/Q run:
# 60 MB -> 20 MB per process for its benchmark).
# Then latency (NP_LAT ranks, LAT_RUNS rounds of every setting
# interleaved, each run the median of LAT_REPS repeats): ping-pong 0 and 8
# bytes, a 6-neighbour halo on a 3-D grid, an 8-byte allreduce, stock
# against the suite with each translation cache on every compressed map
# (CACHES); ratio to the stock run of the same round, median over rounds.
#
# Between the two: instructions per iteration of an 8-byte ping-pong and a
# 6-face halo on one rank (messages to itself through ob1's peer lookup
# and matching) under valgrind's callgrind, stock against the suite with
# each cache: deterministic where the timings of a shared machine are not;
# and of an 8-byte MPI_Allreduce on 2 ranks, without the polling loops
# (the median of AR_REPS=3 runs); and of the allreduce and a halo with
# distinct neighbours on more ranks (KIND@NP: rank 0 under callgrind, WN1
# and WN2 iterations), where a rank contacts 5 peers or more.
#
#   bench/comm_memory.sh   (env: NPS="8 16 32 64" (empty: no memory part) K=1000 NP_LAT=4 UPSTREAM
#                           LAT_RUNS=5 LAT_REPS=9 CACHES="none linear setassoc"
#                           INSTR=1 N1=1000 N2=3000 WN1=200 WN2=600 EXTRA_SUITE="--mca ..."
#                           INSTR_ROWS="pingpong halo allreduce allreduce@16 allreduce@64 halo@27 halo@64")
set -euo pipefail
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PREFIX=${PREFIX:-$TOP/_install}
NPS=${NPS-8 16 32 64} K=${K:-1000} NP_LAT=${NP_LAT:-4}
LAT_RUNS=${LAT_RUNS:-5} LAT_REPS=${LAT_REPS:-9} CACHES=${CACHES:-none linear setassoc}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=(); [ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
mpirun() { timeout -k 10 1800 "$PREFIX/bin/mpirun" "${root[@]}" --oversubscribe "$@"; }
"$PREFIX/bin/mpicc" -O2 -Wall -I"$TOP/test/common" -o "$work/cm" "$TOP/bench/comm_memory.c"
if [ -n "${UPSTREAM:-}" ]; then
    # Debian's mpicc is mpicc.openmpi beside MPICH's alternative
    umpicc=$UPSTREAM/bin/mpicc.openmpi; [ -x "$umpicc" ] || umpicc=$UPSTREAM/bin/mpicc
    umpirun=$UPSTREAM/bin/mpirun.openmpi; [ -x "$umpirun" ] || umpirun=$UPSTREAM/bin/mpirun
    "$umpicc" -O2 -Wall -I"$TOP/test/common" -o "$work/cmu" "$TOP/bench/comm_memory.c"
    echo "== upstream: $("$UPSTREAM/bin/ompi_info" --version | head -n 1) at $UPSTREAM"
fi

stock=(--mca pml ob1 --mca grpmap_base_min_size 1000000000 --mca pml_ob1_sparse_peers_min -1)
# shellcheck disable=SC2206
suite=(--mca pml ob1 --mca grpmap_base_min_size 0 --mca pml_ob1_sparse_peers_min 0 ${EXTRA_SUITE:-})

if [ -n "$NPS" ]; then
echo "== memory per communicator: K=$K communicators of each kind, ranks: $NPS"
for np in $NPS; do
    for use in "" used coll; do
        mpirun -np "$np" "${stock[@]}" "$work/cm" mem "$K" $use | sed "s/^mem /mem stock np=$np /" | tee -a "$work/mem.txt"
        mpirun -np "$np" "${suite[@]}" "$work/cm" mem "$K" $use | sed "s/^mem /mem suite np=$np /" | tee -a "$work/mem.txt"
        if [ -n "${UPSTREAM:-}" ]; then
            timeout -k 10 1800 "$umpirun" "${root[@]}" --oversubscribe -np "$np" --mca pml ob1 "$work/cmu" mem "$K" $use |
                sed "s/^mem /mem upstrm np=$np /" | tee -a "$work/mem.txt"
        fi
    done
done

for use in unused used coll; do
echo
echo "$use communicators: bytes per communicator, the median rank's by the interposed counter (the"
echo "mean over ranks in parentheses: it adds ob1's fragment pools growing on ranks that took"
echo "unexpected messages):"
awk -v use="use=$use" '
$5 == use { s = $2; np = substr($3, 4); kind = $4; m = substr($6, 9)
  split($8, b, "="); mean = b[2]; split($10, c, "="); ct = c[2]
  key = kind " " s; keys[key] = 1; kinds[kind] = 1
  n[key]++; X[key, n[key]] = m; Y[key, n[key]] = ct; YM[key, n[key]] = mean; NP[key, n[key]] = np }
END {
  printf "%-6s %-6s", "kind", "setting"
  for (i = 1; i <= n["dup stock"]; i++) printf " %16s", "np=" NP["dup stock", i]
  printf " %10s %8s %14s %16s\n", "B/member", "(mean)", "at 262144 (MB)", "suite/stock there"
  split("dup row col plane cart", order, " ")
  for (o = 1; o <= 5; o++) {
    kind = order[o]; if (!(kind in kinds)) continue
    for (ss = 1; ss <= 3; ss++) {
      s = ss == 1 ? "stock" : (ss == 2 ? "suite" : "upstrm"); key = kind " " s; if (!(key in keys)) continue
      sx = sy = sxx = sxy = sym = sxym = 0; k = n[key]
      printf "%-6s %-6s", kind, s
      for (i = 1; i <= k; i++) {
        printf " %7.0f (%6.0f)", Y[key, i], YM[key, i]
        sx += X[key, i]; sy += Y[key, i]; sxx += X[key, i] ^ 2; sxy += X[key, i] * Y[key, i]
        sym += YM[key, i]; sxym += X[key, i] * YM[key, i]
      }
      den = k * sxx - sx * sx
      slope = den > 0 ? (k * sxy - sx * sy) / den : 0
      slopem = den > 0 ? (k * sxym - sx * sym) / den : 0
      icpt = (sy - slope * sx) / k
      # members at 262,144 ranks: the kind grows as it does here
      # (dup: N; rows, columns, cart rows: sqrt N; planes: N^(2/3))
      big = kind == "dup" ? 262144 : (kind == "plane" ? 4096 : 512)
      at = icpt + slope * big
      ext[kind, s] = at
      printf " %10.2f %8.2f %14.3f", slope, slopem, at * 1000 / 1048576
      if (s == "suite" && ext[kind, "stock"] > 0) printf " %15.2fx", at / ext[kind, "stock"]
      printf "\n"
    }
  }
  print "(at 262144: K=1000 communicators of the kind, members as the kind grows: dup N, row/col/cart sqrt N = 512, plane N^(2/3) = 4096)"
}' "$work/mem.txt"
done
if [ -n "${UPSTREAM:-}" ]; then
    echo
    echo "suite / upstream, bytes per communicator (the median rank's, interposed counter):"
    awk '
    { s = $2; np = substr($3, 4); kind = $4; use = substr($5, 5); split($10, c, "="); v[s, np, kind, use] = c[2]
      if (!(np in seen)) { seen[np] = 1; nps[++n] = np } }
    END {
      printf "%-6s %-7s", "kind", "use"; for (i = 1; i <= n; i++) printf " %24s", "np=" nps[i]; printf "\n"
      split("dup row col plane cart", order, " "); split("unused used coll", uses, " ")
      for (o = 1; o <= 5; o++) for (u = 1; u <= 3; u++) {
        printf "%-6s %-7s", order[o], uses[u]
        for (i = 1; i <= n; i++) {
          a = v["suite", nps[i], order[o], uses[u]]; b = v["upstrm", nps[i], order[o], uses[u]]
          if (b > 0) printf " %6.0f / %6.0f = %5.1f%%", a, b, 100 * a / b; else printf " %24s", "-"
        }
        printf "\n"
      }
    }' "$work/mem.txt"
fi
fi

# Instructions per iteration on one rank under callgrind, where timing
# cannot resolve 1 %: (count for N2 iterations - count for N1) / (N2 - N1),
# start-up cancels out; ratio to stock.
if [ "${INSTR:-1}" = 1 ] && command -v valgrind >/dev/null; then
    N1=${N1:-1000} N2=${N2:-3000}
    echo
    echo "== instructions per iteration (callgrind; ping-pong, halo: 1 rank, messages to itself through ob1; allreduce: 2 ranks; KIND@NP: NP ranks, rank 0 counted; polling left out on 2 ranks or more)"
    printf '%-12s %10s' kind "stock"
    for c in $CACHES; do printf ' %22s' "suite-$c (ratio)"; done
    printf '\n'
    icount_self() {  # kind n setting-args... -> instructions collected in loop()
        local kind=$1 n=$2 f; shift 2
        f=$(mktemp "$work/cg.XXXXXX")
        mpirun -np 1 --mca btl self "$@" valgrind -q --tool=callgrind --callgrind-out-file="$f" \
            --toggle-collect=loop "$work/cm" instr "$kind" "$n" >/dev/null
        awk '/^summary:/ {print $2}' "$f"
    }
    # rank 0's instructions in loop() outside the polling functions (their
    # spin count depends on timing, the rest much less)
    poll_awk='
      /^ *[0-9,]+ \( *[0-9.]+%\) +[^ ]*:/ { n = $1; gsub(",", "", n); fn = $0; sub(/^[^%]*%\) +/, "", fn)
        sub(/ .*/, "", fn); sub(/.*:/, "", fn)
        if (fn ~ /^(opal_progress|mca_btl_(vader|sm)_component_progress|ompi_coll_libnbc_progress|mca_part_persist_progress|ompi_comm_request_progress|opal_progress_events.*|ompi_request_default_wait.*|opal_timer_.*|ompi_sync_wait_mt|sched_yield|mca_pml_ob1_progress)$/) next
        s += n }
      END { print s }'
    median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
    # the shared-memory BTL: vader in 4.1, sm in 5.0 (where vader is an alias that warns)
    shm=vader
    "$PREFIX/bin/ompi_info" | grep -q 'MCA btl: sm ' && shm=sm
    # allreduce: 8 bytes on a duplicate of a 2-rank world, both ranks under
    # callgrind (repeats agree within 0.5 %), the median of AR_REPS runs
    icount_ar() {  # n setting-args... -> instructions
        local n=$1 f r; shift
        for r in $(seq "${AR_REPS:-3}"); do
            f=$(mktemp -d "$work/cga.XXXXXX")
            mpirun -np 2 --mca btl "self,$shm" "$@" valgrind -q --tool=callgrind \
                --callgrind-out-file="$f/cg.%q{OMPI_COMM_WORLD_RANK}" --toggle-collect=loop \
                "$work/cm" instr allreduce "$n" >/dev/null
            callgrind_annotate --auto=no --inclusive=no --threshold=100 "$f/cg.0" 2>/dev/null | awk "$poll_awk"
        done | median
    }
    # allreduce and halo on more ranks, where a rank has 5 or more peers
    # (ob1's hash, patch 0035; stock: its flat table): only rank 0 under
    # callgrind, the others native, yielding when idle (oversubscribed);
    # whether a message arrives before its receive is posted varies from
    # run to run, and with it the matching path: the median of WREPS runs
    icount_wide() {  # np kind n setting-args... -> instructions
        local np=$1 kind=$2 n=$3 f r; shift 3
        for r in $(seq "${WREPS:-5}"); do
            f=$(mktemp -d "$work/cgw.XXXXXX")
            mpirun -np "$np" --mca mpi_yield_when_idle 1 --mca btl "self,$shm" "$@" \
                sh -c 'if [ "$OMPI_COMM_WORLD_RANK" = 0 ]; then exec valgrind -q --tool=callgrind \
                       --callgrind-out-file="$0/cg.0" --toggle-collect=loop "$@"; else exec "$@"; fi' \
                "$f" "$work/cm" instr "$kind" "$n" >/dev/null
            callgrind_annotate --auto=no --inclusive=no --threshold=100 "$f/cg.0" 2>/dev/null | awk "$poll_awk"
        done | median
    }
    icount() {  # row n setting-args... -> instructions
        local row=$1 n=$2; shift 2
        case $row in
        *@*) icount_wide "${row#*@}" "${row%@*}" "$n" "$@" ;;
        allreduce) icount_ar "$n" "$@" ;;
        *) icount_self "$row" "$n" "$@" ;;
        esac
    }
    rows=${INSTR_ROWS:-pingpong halo allreduce allreduce@16 allreduce@64 halo@27 halo@64}
    for kind in $rows; do
        n1=$N1 n2=$N2
        case $kind in *@*) n1=${WN1:-200} n2=${WN2:-600} ;; esac
        a=$(icount $kind "$n1" "${stock[@]}"); b=$(icount $kind "$n2" "${stock[@]}")
        base=$(( (b - a) / (n2 - n1) ))
        printf '%-12s %10d' "$kind" "$base"
        for c in $CACHES; do
            sa=("${suite[@]}" --mca grpmap_base_cache "$c" --mca grpmap_base_cache_min_size 0)
            a=$(icount $kind "$n1" "${sa[@]}"); b=$(icount $kind "$n2" "${sa[@]}")
            v=$(( (b - a) / (n2 - n1) ))
            printf ' %10d (%8.4fx)' "$v" "$(awk -v x="$v" -v y="$base" 'BEGIN {print x / y}')"
        done
        printf '\n'
    done
fi

[ "$LAT_RUNS" -gt 0 ] || exit 0
echo
echo "== latency: $NP_LAT ranks, $LAT_RUNS runs of each setting interleaved, median of $LAT_REPS repeats each"
echo "   (suite-<cache>: the suite's settings with grpmap_base_cache <cache> on every compressed map)"
settings="stock"
for c in $CACHES; do settings="$settings suite-$c"; done
for r in $(seq "$LAT_RUNS"); do
    for s in $settings; do
        if [ "$s" = stock ]; then
            largs=("${stock[@]}")
        else
            largs=("${suite[@]}" --mca grpmap_base_cache "${s#suite-}" --mca grpmap_base_cache_min_size 0)
        fi
        mpirun -np "$NP_LAT" "${largs[@]}" "$work/cm" lat "$LAT_REPS" | sed "s/^lat /lat $s run=$r /" >>"$work/lat.txt"
    done
done
awk -v settings="$settings" '
function med(arr, k,   i, j, t) { for (i = 2; i <= k; i++) { t = arr[i]; for (j = i - 1; j >= 1 && arr[j] > t; j--) arr[j + 1] = arr[j]; arr[j + 1] = t }
  return k % 2 ? arr[(k + 1) / 2] : (arr[k / 2] + arr[k / 2 + 1]) / 2 }
{ s = $2; r = substr($3, 5) + 0; name = $4; split($5, a, "="); v[name, s, r] = a[2]; names[name] = 1; if (r > R) R = r }
END {
  ns = split(settings, S, " ")
  printf "%-12s %10s", "test", "stock us"
  for (k = 2; k <= ns; k++) printf " %22s", S[k] " (ratio)"
  printf "\n"
  split("pingpong0 pingpong8 halo6 allreduce8", order, " ")
  for (o = 1; o <= 4; o++) {
    name = order[o]; if (!(name in names)) continue
    delete st; for (r = 1; r <= R; r++) st[r] = v[name, "stock", r]
    printf "%-12s %10.3f", name, med(st, R)
    for (k = 2; k <= ns; k++) {
      delete ra; for (r = 1; r <= R; r++) ra[r] = v[name, S[k], r] / v[name, "stock", r]
      printf " %21.3fx", med(ra, R)
    }
    printf "\n"
  }
  print "(ratio: median over the runs of each run'"'"'s time / the stock time of the same round)"
}' "$work/lat.txt"
