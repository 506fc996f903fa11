#!/usr/bin/env bash
# Issue 23: the suite's components where the new transports are chosen --
# comm_store (flat, rbtree, radix) with its CID policies, and fcoll
# la_twophase -- work under --mca pml ucx, and the CID limit is the selected
# PML's pml_max_contextid (pml ucx: 2^20 - 1 = 1048575, ob1: 65535).
#
# pml ucx is forced on a machine without InfiniBand, over UCX's shared memory
# (sysv/posix + cma, and self) and, for the component tests, over TCP on the
# loopback.  The settings (environment, so that MPICH's runs get them too;
# the environment overrides the site defaults quickstart.sh installs as
# Debian does, pml = ^ucx and osc = ^ucx,pt2pt):
#   OMPI_MCA_pml=ucx          forced: no silent fallback to ob1
#   OMPI_MCA_pml_ucx_tls=any  4.1.4's pml ucx runs only if UCX offers one of
#                             rc_verbs,ud_verbs,rc_mlx5,dc_mlx5,ud_mlx5,cuda_ipc,
#                             rocm_ipc (opal_common_ucx_support_level); "any"
#                             accepts sysv/posix/cma/tcp/self.  (pml_ucx_devices
#                             =any as well would make ucx win at priority 51
#                             without naming it; forced, 19 is enough.)
#   OMPI_MCA_osc=ucx,sm       one-sided over UCX as well (sm for shared windows,
#                             which osc ucx declines); the site default is osc
#                             rdma over the BTLs, and osc pt2pt hangs under pml
#                             ucx (4 ranks, fence then passive target)
#   OMPI_MCA_mpi_yield_when_idle=1
#                             UCX polls without sleeping: mpirun turns this on
#                             by itself only when ranks outnumber cores (4 ranks
#                             on 2 cores without it: MPICH's ctxsplit did not end
#                             in 13 min, 24 s with it); on for 2 ranks too, for
#                             a CI machine that runs something else
#   UCX_TLS=sm,self           shared memory; or UCX_TLS=tcp,self with
#                             UCX_NET_DEVICES=lo for TCP on the loopback only
# Nothing else is needed and nothing warns, even with every BTL allowed and
# btl_base_warn_component_unused=1: btl openib fails its init silently without
# a device, btl ofi initializes (libfabric's own providers) and stays unused,
# and btl uct is not built against UCX 1.13 (4.1.4 accepts UCT <= 1.8).
#
# Runs: the selection and the transports really used (pml_base_verbose,
# UCX's ep_cfg lines) and a clean verified exchange on each transport;
# comm-store-cid.sh as a whole under pml ucx (every store and policy,
# single-round agreement, idup, threads, exhaustion at a lowered limit,
# density); the limit of pml ucx itself (one rank climbs through every CID
# to 1048574 in single rounds and wraps at 1048575; exhaustion at a lowered
# limit above ob1's range; two ranks communicate on CIDs above 65535 over
# TCP); la_twophase's byte-for-byte view tests on both transports; MPICH's
# comm/ and threads/comm (comm_store) and io/ (la_twophase) directories,
# the ones these components run under ob1 in mpich-*.sh, once each.
. "$TEST_LIB"
needs ompi/mca/comm_store
"$OMPI_INFO" --parsable | grep -q '^mca:pml:ucx:' ||
    skip "this installation has no pml ucx (configure --with-ucx)"
"$OMPI_INFO" --parsable | grep -q '^mca:osc:ucx:' ||
    skip "this installation has pml ucx but no osc ucx"

UCX=(OMPI_MCA_pml=ucx OMPI_MCA_pml_ucx_tls=any OMPI_MCA_osc=ucx,sm OMPI_MCA_mpi_yield_when_idle=1)
SM=(UCX_TLS=sm,self)
TCP=(UCX_TLS=tcp,self UCX_NET_DEVICES=lo)
export "${UCX[@]}" "${SM[@]}"

# ucx sm|tcp OUT ARGS...: mpirun ARGS under pml ucx over that transport; it
# must succeed and print no warning
ucx() {
    local t=$1 out=$2; shift 2
    if [ "$t" = tcp ]; then
        (export "${TCP[@]}"; run_to 300 "$out" "$@") || { tail -20 "$out"; fail "pml ucx over $t: $*"; }
    else
        run_to 300 "$out" "$@" || { tail -20 "$out"; fail "pml ucx over $t: $*"; }
    fi
    assert_no_grep 'UCX +(WARN|ERROR)|WARNING|[Ww]arning' "$out" "pml ucx over $t warned: mpirun $*"
}

# ---- selection, transports, clean output ------------------------------------
build_mpi "$TOP/test/mpi/src/p2p_check.c" p2p
for t in sm tcp; do
    ucx $t sel-$t.txt -np 3 --mca pml_base_verbose 10 -x UCX_LOG_LEVEL=info ./p2p
    [ "$(grep -c 'select: component ucx selected' sel-$t.txt)" = 3 ] ||
        { grep select sel-$t.txt; fail "pml ucx was not selected on all 3 ranks ($t)"; }
    grep 'ep_cfg\[' sel-$t.txt >ep-$t.txt || { tail -20 sel-$t.txt; fail "no UCX ep_cfg line ($t)"; }
    ucx $t clean-$t.txt -np 4 ./p2p
    assert_grep '^p2p_check OK [0-9]+ bytes checked on 4 ranks' clean-$t.txt
    [ "$(wc -l <clean-$t.txt)" = 1 ] || { cat clean-$t.txt; fail "pml ucx over $t printed more than the result"; }
done
assert_grep 'tag\(.*(sysv|posix)/memory' ep-sm.txt "UCX did not use shared memory between ranks"
assert_no_grep 'tcp/' ep-sm.txt "UCX used TCP with UCX_TLS=sm,self"
assert_grep 'tag\(.*tcp/lo' ep-tcp.txt "UCX did not use TCP on the loopback"
assert_no_grep '(sysv|posix|cma)/memory|tcp/eth' ep-tcp.txt "UCX used another transport than TCP on lo"
note "pml ucx selected; shared memory: $(sed 's/.*ep_cfg/ep_cfg/' ep-sm.txt | sort -u | tr '\n' ' ')"
note "TCP: $(sed 's/.*ep_cfg/ep_cfg/' ep-tcp.txt | sort -u | tr '\n' ' ')"
note "selection and transports: ${SECONDS}s"

# ---- comm_store and the CID policies ------------------------------------------
# The whole of comm-store-cid.sh, its runs under pml ucx (shared memory).
mkdir cid-suite
(cd cid-suite && "$TOP/test/mpi/comm-store-cid.sh") || fail "comm-store-cid.sh failed under pml ucx"
note "comm-store-cid.sh passed under pml ucx (at ${SECONDS}s)"

# The limit is pml ucx's own.  CIDs 0-2 are held by MPI_COMM_WORLD, SELF and
# NULL; "climb N" dups N times, each freeing the one before, so under the
# highest policy the i-th takes CID i + 4: up to CID 1048574 (the 1048571st)
# every allocation is agreed in one round, the 1048572nd reaches the limit
# (1048575, exclusive, as for ob1's 65535) and wraps around to the lowest free
# CID.  Under ob1 the 65532nd would wrap.
build_mpi "$TOP/test/mpi/src/comm_store_cid.c" cid -lpthread
HI=(--mca comm_store_base_cid_policy highest)
ucx sm climb1.txt -np 1 --mca comm_store radix "${HI[@]}" ./cid climb 1048572
assert_grep '^climb: 1048572 dups, single=1048572 of 1048573 allocations' climb1.txt \
    "the CID range under pml ucx does not end at pml ucx's pml_max_contextid 1048575"
# two ranks talk on CIDs up to 70003 (past ob1's 16 bits) over TCP, no wrap
ucx tcp climb2.txt -np 2 --mca comm_store rbtree "${HI[@]}" ./cid climb 70000
assert_grep '^climb: 70000 dups, single=70001 of 70001 allocations' climb2.txt \
    "CIDs above 65535 were not allocated in single rounds under pml ucx"
# Exhaustion at a lowered limit above ob1's range (ob1 would stop at 65535):
# 3 CIDs in use, 65997 live dups, then MPI_ERR_INTERN with the message,
# recovery and wrap-around (comm-store-cid.sh covers limit 100 on 3 ranks).
x66() { mpirun_t -np 1 --mca comm_store flat "${HI[@]}" --mca comm_store_base_cid_limit 66000 ./cid exhaust; }
works_saying 3 'free below 66000' x66.txt x66
assert_grep '^exhaust: failed at 65997 live \(error class MPI_ERR_INTERN\), then 330000 churned' x66.txt \
    "exhaustion at comm_store_base_cid_limit 66000 not handled under pml ucx"
note "$(cat climb1.txt) / $(cat climb2.txt) / $(grep '^exhaust:' x66.txt) (at ${SECONDS}s)"

# ---- fcoll la_twophase ---------------------------------------------------------
build_mpi "$TOP/test/mpi/src/fcoll_lat_test.c" lat
D=${TMPDIR:-/tmp}/pml-ucx-lat.$$
mkdir -p "$D"
trap 'rm -rf "$D"' EXIT
LAT=(--mca fcoll la_twophase)
ucx sm lat-sel.txt -np 2 "${LAT[@]}" --mca fcoll_base_verbose 10 ./lat "$D" views
assert_grep 'fcoll:la_twophase: 2 processes' lat-sel.txt "la_twophase did not run the collective under pml ucx"
lat() {   # lat TRANSPORT NAME NP ARGS... -- TESTARGS...
    local t=$1 name=$2 np=$3; shift 3
    local mca=()
    while [ "$1" != -- ]; do mca+=("$1"); shift; done; shift
    ucx "$t" "$name.txt" -np "$np" "${LAT[@]}" "${mca[@]}" ./lat "$D" "$@"
    assert_grep "^fcoll_lat_test: $1 OK" "$name.txt" "la_twophase $name under pml ucx over $t"
    note "la_twophase $name ($t): $(grep -c '^case .* ok' "$name.txt" || true) cases byte-identical"
}
lat sm views-4 4 -- views
lat sm fuzz-5-cycle4k 5 --mca fcoll_la_twophase_cycle_buffer_size 4096 \
    --mca fcoll_la_twophase_cost blocks -- fuzz 20
lat tcp views-3 3 --mca fcoll_la_twophase_num_aggregators 2 -- views
note "la_twophase done at ${SECONDS}s"

# ---- MPICH, the directories of mpich-grpmap-sets.sh (comm/), mpich-threads-comm-store.sh
# and mpich-io-la-twophase.sh, once each, over shared memory.  comm/ only with
# its tests of at most 4 ranks (ctxalloc and ctxsplit, the CID-heavy ones,
# included), as mpich-zcomp.sh does for coll/: the whole directory takes
# 130 s under pml ucx on 2 cores -------------------------------------------------
MPICH_MAX_NP=4 mpich_clean comm-radix comm -- "${UCX[@]}" "${SM[@]}" OMPI_MCA_comm_store=radix
assert_grep "^mpich comm: [0-9]+ passed, 0 failed, $(mpich_xfail comm) expected failures" comm-radix.txt
mpich_clean threads-comm-rbtree threads/comm -- "${UCX[@]}" "${SM[@]}" OMPI_MCA_comm_store=rbtree \
    OMPI_MCA_comm_store_base_cid_policy=lowest
# bigtype and i_bigtype (one process: no transport between ranks; 60 s)
# run in mpich-io-la-twophase.sh; left out here for CI's time.
MPICH_SKIP="bigtype i_bigtype" mpich_clean io-lat io -- "${UCX[@]}" "${SM[@]}" OMPI_MCA_fcoll=la_twophase
assert_grep "^mpich io: [0-9]+ passed, 0 failed, $(mpich_xfail io) expected failures" io-lat.txt
