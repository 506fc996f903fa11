#!/usr/bin/env bash
# The suite's components across nodes (issue 39, part 3): a cluster of 3
# nodes made by ../shared/tools/fakecluster (network and UTS namespaces,
# one ORTE daemon per node started over an rsh agent, TCP between nodes,
# shared memory within one), 2 ranks per node, ranks dealt round-robin
# (rank r on node r % 3), so every communicator spans nodes and holds
# node-local pairs.  Short runs of the tests each component already has:
#   comm_store rbtree, Highest-CID   comm_churn 100 live, 200 churned
#   grpmap, every group compressed   grpmap_groups expect-compressed (lattice)
#   redist                            redist_random, 20 maps, default and park
#   fcoll la_twophase one_per_node    fcoll_lat_test views, with the node
#                                     locality the runtime reports: at most
#                                     one aggregator per node (verbose 20)
#   zcomp always, from 1 byte         zcomp_semantics (MPI semantics)
#   mpi4py's own suite                test_p2p_obj, test_comm, test_cco_obj
# zcomp's adaptive choice across nodes is zcomp-cluster.sh's.
# Needs root (namespaces); skipped without it.
. "$TEST_LIB"
needs_fakecluster

cluster() {  # name mpirun-args...: 6 ranks on 3 nodes, output in name.txt
    # (6 ranks share 2 cores here: they yield when idle)
    local name=$1; shift
    fc_mpirun 240 "$name.txt" 3 2 "" -np 6 --mca mpi_yield_when_idle 1 "$@"
}

# the nodes are really three: each rank's host name
cat >hostname.sh <<'EOF'
#!/bin/sh
echo "rank $OMPI_COMM_WORLD_RANK on $(hostname)"
EOF
chmod +x hostname.sh
cluster hosts "$PWD/hostname.sh"
for r in 0 1 2 3 4 5; do
    assert_grep "^rank $r on node$((r % 3))\$" hosts.txt "rank $r is not on node$((r % 3))"
done

if have ompi/mca/comm_store; then
    build_mpi "$TOP/test/mpi/src/comm_churn.c" churn
    cluster comm_store --mca comm_store rbtree --mca comm_store_base_cid_policy highest \
        --mca comm_store_base_verbose 10 ./churn 100 200
    assert_grep 'comm_store: selected rbtree .*CID policy highest' comm_store.txt
    assert_grep '^comm_churn OK live=100 churn=200' comm_store.txt
    echo "comm_store rbtree, Highest-CID, 3 nodes: OK"
fi

if have ompi/mca/grpmap; then
    build_mpi "$TOP/test/mpi/src/grpmap_groups.c" groups
    cluster grpmap --mca grpmap lattice --mca grpmap_base_min_size 0 ./groups expect-compressed
    assert_grep '^grpmap_groups np 6: OK' grpmap.txt
    echo "grpmap, every group compressed, 3 nodes: OK"
fi

build_mpi "$TOP/test/mpi/src/redist_random.c" rnd -lm
for c in cyclic park; do
    cluster "redist-$c" --mca redist "$c" ./rnd 39 20 16
    assert_grep '^redist_random: seed [0-9]+, 20 maps, 0 refused, 0 failed$' "redist-$c.txt"
    echo "redist $c, 20 random maps, 3 nodes: OK"
done

build_mpi "$TOP/test/mpi/src/fcoll_lat_test.c" lat
D=$(mktemp -d "${TMPDIR:-/tmp}/cluster-io.XXXXXX")
trap 'rm -rf "$D"' EXIT
# 6 aggregators asked for: without one_per_node two share each node (the
# check below then finds 102 such pairs in 34 lists; checked by hand)
cluster fcoll --mca fcoll la_twophase --mca fcoll_la_twophase_one_per_node 1 \
    --mca fcoll_la_twophase_num_aggregators 6 --mca fcoll_base_verbose 20 ./lat "$D" views
assert_grep '^fcoll_lat_test: views OK' fcoll.txt
# every aggregator list rank 0 printed: no two aggregators on one node
awk '/fcoll:la_twophase: domain 0 / { if (n) check(); n = 0 }
     /fcoll:la_twophase: domain [0-9]+ .* -> rank/ { a[n++] = $NF }
     function check(   i, j) { lists++; for (i = 0; i < n; i++) for (j = i + 1; j < n; j++)
         if (a[i] % 3 == a[j] % 3) { print "aggregators " a[i] " and " a[j] " share a node"; bad = 1 } }
     END { if (n) check(); print lists " aggregator lists"; exit bad || !lists }' fcoll.txt ||
    fail "la_twophase one_per_node put two aggregators on one node (or printed no list)"
echo "fcoll la_twophase, one aggregator per node, 3 nodes: OK"

if have ompi/mca/pml/zcomp; then
    build_mpi "$TOP/test/mpi/src/zcomp_semantics.c" sem
    cluster zcomp --mca pml_zcomp_enable 1 --mca pml_zcomp_strategy always \
        --mca pml_zcomp_threshold 1 ./sem
    assert_grep '^zcomp_semantics: 0 failed' zcomp.txt
    echo "zcomp always from 1 byte, MPI semantics, 3 nodes: OK"
fi

TARBALL=${MPI4PY_TESTS_TARBALL:-$TOP/../shared/clients/mpi4py-3.1.4-test.tar.gz}
if [ -f "$TARBALL" ] && /usr/bin/python3 -c 'import mpi4py, numpy' 2>/dev/null; then
    tar xzf "$TARBALL"
    # one file per rank: unittest writes "OK" and its newline apart, so on
    # the shared stream another rank's line can land between them (CI run
    # of 2026-11-30: six OKs, one glued to a dash line)
    printf '#!/bin/sh\nexec "$@" >"%s/mpi4py-rank${OMPI_COMM_WORLD_RANK:-$PMIX_RANK}.txt" 2>&1\n' \
        "$TEST_TMP" >mpi4py-rank.sh
    chmod +x mpi4py-rank.sh
    cluster mpi4py -x PATH="$PREFIX/bin:$PATH" -x LD_LIBRARY_PATH="$PREFIX/lib" \
        "$TEST_TMP/mpi4py-rank.sh" \
        /usr/bin/python3 "$TEST_TMP/mpi4py-3.1.4/test/runtests.py" -q --no-builddir \
        -i test_p2p_obj -i test_comm -i test_cco_obj
    n=0
    for r in 0 1 2 3 4 5; do
        if grep -q '^OK' "mpi4py-rank$r.txt" 2>/dev/null; then n=$((n + 1))
        else echo "rank $r:"; tail -n 20 "mpi4py-rank$r.txt" 2>/dev/null || echo "(no output)"; fi
    done
    [ "$n" -eq 6 ] || fail "mpi4py: $n of 6 ranks said OK"
    echo "mpi4py test_p2p_obj, test_comm, test_cco_obj, 3 nodes: OK on 6 ranks"
else
    echo "mpi4py: not run (no test tarball or no python3-mpi4py)"
fi
echo "cluster: ok"
