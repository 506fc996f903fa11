#!/usr/bin/env bash
# Adaptive zcomp on a cluster whose links deliver less than their interfaces
# advertise (issue 39): ../shared/tools/fakecluster, 3 nodes, every link
# shaped to 1 Gbit/s by tc while the veth interfaces advertise 10 Gbit/s.
# Rank 0 (node0) sends rank 1 (node1) blocking 16 MB messages
# (zcomp_path.c; every message's bytes are checked on arrival).
#  1. Steady link, per data set, plain ob1, adaptive and `always` (lz4):
#     adaptive's time per message once it has learnt the path (median of
#     the messages after the first two) within 1/0.85 of the better of the
#     other two, and within 1/0.95 of plain on random bytes (the issue's
#     0.90 and 0.98 are the benchmark's bars, bench/zcomp-cluster.sh).
#     Before the path estimate could fall, adaptive sent everything raw.
#  2. The link changes speed mid-run, 1 Gbit/s -> unshaped -> 1 Gbit/s
#     (int-50%zero as MPI_BYTE, which zcomp compresses with rle, fast
#     enough that its compressed transfers show a faster path): compressed
#     from the second message on the slow link, a raw probe that times the
#     fast one within 2 messages (16 MB), then raw once a compressed transfer has
#     measured the pipeline slower than that path, and once the link is slow again one
#     timed raw message within the first 4, then compression: timed from
#     the receiver's rendezvous ACK, its 16 MB lower the estimate at once.
#  3. The receiver runs with zcomp off: raw, one warning, no hang.
#  4. A receiver that posts every receive 400 ms late: the first transfer,
#     timed from the ACK, gives the 1 Gbit/s link's figure, and nothing
#     lowers the estimate (timed from the start it read about 30 MB/s).
# Needs root (namespaces, tc); skipped without it.
. "$TEST_LIB"
needs ompi/mca/pml/zcomp
needs_fakecluster
command -v tc >/dev/null || skip "no tc (iproute2)"
build_mpi "$TOP/test/mpi/src/zcomp_path.c" path "$TOP/test/common/datasets.c" -lm
N=${ZC_N:-8}

# shape.sh RATE: every node's link and the switch's ports to RATE ("off":
# unshaped), run by rank 0 inside the cluster
cat >shape.sh <<'EOF'
#!/bin/sh
set -e
for ns in $(ip netns list | awk '{print $1}' | grep "^$FAKECLUSTER_ID-"); do
  for dev in $(ip -n "$ns" -o link show | awk -F': ' '{print $2}' | sed 's/@.*//' | grep -E '^(eth0|v[0-9]+)$'); do
    if [ "$1" = off ]; then
      ip netns exec "$ns" tc qdisc del dev "$dev" root 2>/dev/null || true
    else
      ip netns exec "$ns" tc qdisc replace dev "$dev" root tbf rate "$1" burst 128kb latency 50ms
    fi
  done
done
EOF
chmod +x shape.sh

cluster() {  # out mpirun-args...: 3 nodes at 1 Gbit/s, ranks 0 and 1 on node0 and node1
    local out=$1; shift
    fc_mpirun 300 "$out" 3 1 1gbit -np 2 "$@"
    assert_grep '^zcomp_path: 0 failed' "$out"
    assert_no_grep '^FAIL' "$out"
}
steady() {  # file: median ms of the messages after the first two
    awk '/^phase 0/ { for (i = 7; i <= NF; i++) print $i }' "$1" | sort -g |
        awk '{ v[n++] = $1 } END { print (n % 2) ? v[(n - 1) / 2] : (v[n / 2 - 1] + v[n / 2]) / 2 }'
}

note "1. steady 1 Gbit/s link: plain, adaptive, always"
for set in int-90%zero field3d-double random-bytes; do
    f=${set//%/}
    cluster "$f.plain" ./path --set "$set" --n "$N"
    cluster "$f.adaptive" --mca pml_zcomp_enable 1 --mca pml_zcomp_verbose 5 ./path --set "$set" --n "$N"
    cluster "$f.always" --mca pml_zcomp_enable 1 --mca pml_zcomp_strategy always \
        --mca pml_zcomp_codec lz4 ./path --set "$set" --n "$N"
    p=$(steady "$f.plain") a=$(steady "$f.adaptive") z=$(steady "$f.always")
    echo "$set: ms per 16 MB: plain $p, adaptive $a, always $z; adaptive: $(grep '^phase 0' "$f.adaptive" | cut -d' ' -f3)"
    grep 'zcomp: path to peer' "$f.adaptive" | head -n 4 || true
    # The issue's bars (90 % of the better, 0.98x plain on random bytes) are
    # the benchmark's (bench/zcomp-cluster.sh: paired rounds, 184 %, 102 %,
    # 0.998x); one unpaired run each here is guarded with some margin for
    # run-to-run noise: 85 % and 0.95x.  The code before gave 20 %.
    if [ "$set" = random-bytes ]; then
        awk -v p="$p" -v a="$a" 'BEGIN { exit !(a <= p / 0.95) }' ||
            fail "$set: adaptive $a ms per message, plain $p ms: slower than 0.95x plain"
    else
        awk -v p="$p" -v z="$z" -v a="$a" 'BEGIN { b = p < z ? p : z; exit !(a <= b / 0.85) }' ||
            fail "$set: adaptive $a ms per message, plain $p ms, always $z ms: below 85 % of the better"
    fi
done

note "2. the link changes speed mid-run: 1 Gbit/s, unshaped, 1 Gbit/s"
# (2 ranks on 3 nodes: a third rank would spin in MPI_Barrier on this
# 2-core bed and take the CPU the codecs need)
set=${ZC_SHIFT_SET:-int-50%zero}
# A compressed transfer that shows the faster path sends a probe at once
# (here its wire bytes came at 160 MB/s, above 1.25x the 117 MB/s of the
# last raw timing); a probe budget of 0.25 (one message in 4 at most)
# backs that up on a machine whose codecs run slower, so that the check
# is of the estimate's following, not of this machine's speed.
cluster shift.txt --mca pml_zcomp_enable 1 --mca pml_zcomp_verbose 5 \
    --mca pml_zcomp_probe_budget 0.25 \
    ./path --set "$set" --bytes --n "$N" "$PWD/shape.sh off" "$PWD/shape.sh 1gbit"
grep -E '^phase|path to peer 1' shift.txt
d0=$(awk '$1 == "phase" && $2 == 0 {print $3}' shift.txt)
d1=$(awk '$1 == "phase" && $2 == 1 {print $3}' shift.txt)
d2=$(awk '$1 == "phase" && $2 == 2 {print $3}' shift.txt)
# slow: compressed (or probed) from the second message on (the first one's
# time replaced the advertised 10 Gbit/s)
# (at most one message raw: compression gains only 5-10 % on this link,
# and a loaded moment can push a codec's measured pipeline efficiency past
# the cut.  Before 2026-12-01 an untried codec predicted slower than raw
# could outweigh the efficiency-lowered ones and send the message raw: in
# 2 of 5 runs on 5.0.7, rCCCpCCr and rCCCrrrC; 0 of 8 since)
r0=${d0:1}; r0=${r0//[^r]/}
[[ ${d0:1} =~ C ]] && [ ${#r0} -le 1 ] || fail "slow link (phase 0): $d0: not compressed from message 2 on"
# fast: a raw probe within the first 2 messages times the faster path, and
# the message after it goes raw: the decision follows within 16 MB (issue
# 39).  The first compressed transfer on the faster link runs clearly
# faster than its codec's earlier ones (its efficiency drops) or carries
# its wire bytes faster than the last raw timing, and either sends the
# next message as a probe (before 2026-12-02 a compressor that paced the
# wire below that timing hid the change until the probe budget's turn:
# CCCprrrr on 5.0.7); the risen estimate measures each codec's last
# transfer again (before, it forgot their efficiencies and compressed
# once more: pCrrrCrr, 4 runs of 4 on 4.1.4)
[[ $d1 =~ ^C?p[rp] ]] ||
    fail "fast link (phase 1): $d1: not a probe within the first 2 messages, then raw"
grep -Eq 'path to peer 1: timed .*estimate raised, .* -> ([3-9][0-9][0-9]|[0-9]{4,})\.[0-9] MB/s' shift.txt ||
    fail "fast link (phase 1): no timed estimate of 300 MB/s or more"
# ... and then raw: on this 2-core bed, where the codecs, TCP and both
# ranks share the cores, rle's transfers over the unshaped link take 2-3x
# the model's prediction and about 2x a raw one.  One compressed transfer
# measures that (the pipeline's efficiency) and the next messages go raw,
# but for a recheck compressed every 1/probe_budget (4) of them.  (Before,
# the model kept compressing: CpCCCCCC, 80 ms a message against 41 raw.)
# (the verbose lines of phase 1 come after the "phase 0" line; where the
# estimate rose past rle's speed, the model itself sends raw and there is
# nothing to time)
if [[ $d1 == *C* ]]; then
    awk '$1 == "phase" && $2 == 0 { on = 1 } $1 == "phase" && $2 == 1 { on = 0 } on' shift.txt |
        grep -Eq 'path to peer 1: [a-z0-9]+ compressed .*pipeline efficiency' ||
        fail "fast link (phase 1): $d1: no compressed transfer timed for the pipeline's efficiency"
fi
r1=${d1:3}; r1=${r1//[^r]/}
[ ${#r1} -ge $(( (${#d1} - 3) / 2 )) ] ||
    fail "fast link (phase 1): $d1: after the probe, fewer than half of the messages raw"
# slow again: up to 3 messages compressed at the old estimate until the
# first timed raw one (a probe, or raw by decision), then a second one
# right after it, which confirms the slower path, then compressed (or
# probed).  A raw message decided later means the estimate was not
# lowered by two slow samples in a row.  (Before, a held sample waited for
# the next probe: pCCCrpCC, 80 MB at the old estimate.)
# one timed raw message (16 MB) shows the slower link: timed from the
# receiver's ACK, a drop of 2x or more lowers the estimate at once (the
# code before needed two in a row: [rp][rp])
# (then compressed or probed, at most one message raw, as in phase 0.
# The last r of a 5.0.7 run's rCCCpCCr, read at verbose 10, was zstd,
# untried and predicted 0.89x, winning over lz4 and rle, predicted 1.37x
# and 1.08x but divided by their efficiencies of 1.58 and 1.73; the
# rCCCrrrC of an earlier run was most likely the same)
rest2=${d2#*[rp]}; r2=${rest2//[^r]/}
[[ $d2 =~ ^C{0,3}[rp]C ]] && [ ${#r2} -le 1 ] ||
    fail "slow link again (phase 2): $d2: not one timed raw message within the first 4, then compressed"
grep -q "path to peer 1: timed from the ACK .*estimate lowered (timed from the receiver's ACK" shift.txt ||
    fail "slow link again (phase 2): the estimate was not lowered by a transfer timed from the ACK"

note "3. the receiver on another node runs with zcomp off"
# The sender must learn from the modex that its peer published no zcomp
# and send raw, with one warning and no hang (5.0.7 fetches the key from
# the peer's node with a 2-second limit: before, under PRRTE, it read only
# its own copy, found no peer ever, and never compressed across nodes).
cat >zoff1.sh <<'EOF2'
#!/bin/sh
[ "$OMPI_COMM_WORLD_RANK" = 1 ] || export OMPI_MCA_pml_zcomp_enable=1 OMPI_MCA_pml_zcomp_strategy=always
exec "$@"
EOF2
chmod +x zoff1.sh
cluster mixed.txt ./zoff1.sh ./path --set int-90%zero --n 3
grep -a 'phase 0' mixed.txt || true
assert_grep '^ *phase 0 rrr ' mixed.txt "zcomp compressed to a peer with zcomp off"
assert_grep 'did not publish that it runs zcomp' mixed.txt "no warning about the peer without zcomp"
note "4. a late receiver does not make the path look slow"
# rank 1 posts each receive 400 ms late (random bytes: raw either way); timed
# from the start, the first transfer would read 16 MB in 0.54 s (30 MB/s)
# and replace the prior with it, and two more would lower the estimate
cluster late.txt --mca pml_zcomp_enable 1 --mca pml_zcomp_verbose 5 \
    ./path --set random-bytes --n 4 --late 400
grep -E '^phase|path to peer 1' late.txt
assert_grep "path to peer 1: timed from the ACK .*measured \(replaces the prior\)" late.txt \
    "the first transfer was not timed from the receiver's ACK"
m=$(sed -n "s/.*path to peer 1: timed from the ACK .*measured (replaces the prior), [0-9.]* -> \([0-9.]*\) MB\/s.*/\1/p" late.txt | head -n 1)
awk -v m="$m" 'BEGIN { exit !(m >= 80) }' ||
    fail "late receiver: first estimate $m MB/s on a 1 Gbit/s link: the lateness was counted"
assert_no_grep 'path to peer 1: .*(slower, to be confirmed|lowered)' late.txt \
    "late receiver: the estimate fell"
echo "zcomp-cluster: ok"
