#!/usr/bin/env bash
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# One command from a fresh Debian 12 machine to a working installation:
#
#   ./quickstart.sh showcase   build everything, then run the showcase
#   ./quickstart.sh test       build everything, then run the whole test suite,
#                              on every Open MPI base (4.1.4, then 5.0.7)
#   ./quickstart.sh build      build and install only
#
# Each step is skipped when it has nothing to do, so re-running after an edit
# rebuilds only what changed.  Environment:
#   OMPI_BASE=version   Open MPI base, a profile in config/base/ (default: 4.1.4;
#                       5.0.7 builds in ./_build/5.0.7, installs in ./_install-5.0.7);
#                       with 'test', only that base (else every base in turn)
#   PREFIX=dir          install prefix (default: ./_install in this checkout)
#   OMPI_TARBALL=file   use this Open MPI tarball instead of Debian's
#   OVERLAY_BUILD_DIR   staging/build directory (default: ./_build)
#   JOBS=n              parallel make jobs (default: number of cores + 1)
#   NO_APT=1            do not install Debian packages, only report missing ones
#   TESTS=pattern       with 'test': run only tests whose path matches
#
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$TOP"
# What the caller chose, before the defaults below fill these in.
BASE_GIVEN=${OMPI_BASE:-}
ONE_BASE_VARS=${PREFIX:+PREFIX }${OVERLAY_BUILD_DIR:+OVERLAY_BUILD_DIR }${OMPI_TARBALL:+OMPI_TARBALL }
# shellcheck source=VERSION
. "$TOP/VERSION"
OMPI_BASE=${OMPI_BASE:-$OMPI_BASE_DEFAULT}
[ -f "$TOP/config/base/$OMPI_BASE" ] ||
    { echo "quickstart: error: OMPI_BASE=$OMPI_BASE: no profile config/base/$OMPI_BASE (there are: $(ls "$TOP/config/base" | tr '\n' ' '))" >&2; exit 1; }
# shellcheck disable=SC1090
. "$TOP/config/base/$OMPI_BASE"
export OMPI_BASE

PREFIX=${PREFIX:-$TOP/$OMPI_INSTALL_NAME}
BUILD=${OVERLAY_BUILD_DIR:-$TOP/_build${OMPI_BUILD_SUBDIR:+/$OMPI_BUILD_SUBDIR}}
# One job more than cores: libtool's shell steps and file I/O leave a core
# idle otherwise.
JOBS=${JOBS:-$(( $(nproc 2>/dev/null || echo 2) + 1 ))}
SRC=$BUILD/src/$OMPI_TARBALL_TOPDIR
OBJ=$BUILD/obj
LOGS=$BUILD/logs
export OVERLAY_BUILD_DIR=$BUILD

say()  { printf 'quickstart: %s\n' "$*"; }
die()  { printf 'quickstart: error: %s\n' "$*" >&2; exit 1; }
stamp() { date +%s; }

# Debian packages the build, the components and the tests need.
# The transports and bindings are those of Debian's own openmpi package of
# the base (its debian/rules), so that this installation can replace it.
DEB_ARCH=$(dpkg-architecture -qDEB_HOST_ARCH 2>/dev/null || dpkg --print-architecture)
PACKAGES="gcc g++ gfortran make perl autoconf automake libtool flex m4 patch tar xz-utils
  ccache pkg-config libpmix-dev libhwloc-dev libevent-dev zlib1g-dev
  liblz4-dev libzstd-dev liblzo2-dev libbz2-dev libbdd-dev
  libnl-3-dev libnl-route-3-dev
  openssh-client iproute2 procps bzip2 slurmctld slurmd slurm-client munge
  libhdf5-openmpi-dev openmpi-bin libopenmpi-dev python3-mpi4py python3-numpy
  valgrind"
case $DEB_ARCH in hurd-*|kfreebsd-*|s390x) ;; *) PACKAGES="$PACKAGES libibverbs-dev" ;; esac
case $DEB_ARCH in hurd-*|kfreebsd-*|s390x|sh4|powerpc|x32) ;; *) PACKAGES="$PACKAGES libfabric-dev" ;; esac
case $DEB_ARCH in amd64|ppc64el|arm64) PACKAGES="$PACKAGES libucx-dev" ;; esac
case $DEB_ARCH in amd64|i386) PACKAGES="$PACKAGES libpsm-infinipath1-dev" ;; esac
case $DEB_ARCH in amd64) PACKAGES="$PACKAGES libpsm2-dev" ;; esac
if [ -n "${JAVA:-}" ]; then PACKAGES="$PACKAGES default-jdk-headless"; fi

install_deps() {
    local missing=() p
    for p in $PACKAGES; do
        dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' \
            || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ -n "${NO_APT:-}" ]; then
        die "missing Debian packages: ${missing[*]} (install them: apt-get install -y ${missing[*]})"
    fi
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || die "missing Debian packages: ${missing[*]}; not root and no sudo: ask an administrator to run 'apt-get install -y ${missing[*]}'"
        sudo=sudo
    fi
    say "installing Debian packages: ${missing[*]}"
    mkdir -p "$LOGS"
    if ! { $sudo apt-get update && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"; } >"$LOGS/apt-install.log" 2>&1; then
        tail -n 15 "$LOGS/apt-install.log" >&2
        die "installing ${missing[*]} failed (log: $LOGS/apt-install.log)"
    fi
}

configure_args() {
    local arch pmix
    arch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
    pmix=/usr/lib/$arch/pmix2
    [ -f "$pmix/include/pmix.h" ] || die "Debian's PMIx is not where expected ($pmix/include/pmix.h); install libpmix-dev"
    if [ "$OMPI_SERIES" = 5.0 ]; then configure_args_50 "$pmix"; return; fi
    # What Debian's openmpi 4.1.4 package configures (debian/rules), so that
    # programs and libraries built against it, Fortran ones included, run
    # here unchanged, over the same transports.  Java only with JAVA=1.
    local opt
    printf '%s\n' \
        "--prefix=$PREFIX" \
        "--with-pmix=$pmix" \
        "--with-hwloc=external" \
        "--with-libevent=external" \
        "--with-slurm" "--with-sge" "--without-tm" \
        "--enable-mpi1-compatibility" \
        "--enable-mpi-cxx" \
        "--enable-mpi-fortran=all" \
        "--enable-ipv6" \
        "--with-devel-headers" \
        "--disable-static"
    case $DEB_ARCH in hurd-*|kfreebsd-*|s390x) opt=--without-verbs ;; *) opt=--with-verbs ;; esac
    echo "$opt"
    case $DEB_ARCH in hurd-*|kfreebsd-*|s390x|sh4|powerpc|x32) opt=--without-ofi ;; *) opt=--with-ofi ;; esac
    echo "$opt"
    case $DEB_ARCH in amd64|ppc64el|arm64) opt=--with-ucx ;; *) opt=--without-ucx ;; esac
    echo "$opt"
    case $DEB_ARCH in amd64|i386) opt=--with-psm ;; *) opt=--without-psm ;; esac
    echo "$opt"
    case $DEB_ARCH in amd64) opt=--with-psm2 ;; *) opt=--without-psm2 ;; esac
    echo "$opt"
    case $DEB_ARCH in s390x|mipsel|hppa|alpha|armhf|armel|m68k|sparc64) echo --without-cma ;; *) echo --with-cma ;; esac
    if [ -n "${JAVA:-}" ]; then
        printf '%s\n' "--enable-mpi-java" "--with-jdk-dir=/usr/lib/jvm/default-java"
    else
        echo "--disable-mpi-java"
    fi
    # Neither Debian nor this machine has these.
    printf '%s\n' "--without-portals4" "--without-mxm" "--without-cuda" \
        "--without-hcoll" "--without-fca" "--without-ucc" "--without-lsf" "--without-alps"
}

# What Debian 13's openmpi 5.0.7 package configures (debian/rules), with
# PRRTE bundled.  Debian 13 builds on its external PMIx 5.0; the PRRTE
# bundled with 5.0.7 (3.0.8) needs PMIx >= 4.2.4, so on Debian 12, whose
# libpmix-dev is 4.2.2, both take the PMIx bundled with 5.0.7 (5.0.5).
# 5.0 has no C++ bindings and no verbs or PSM (Debian still passes
# --with-verbs and --with-psm; 5.0.7 ignores them).  Debian 13 leaves the
# MPI-1 names undeclared (no --enable-mpi1-compatibility), and so does this
# line: a drop-in compiles what Debian's compiles (MPICH's tests, which call
# them, get Open MPI's OMPI_OMIT_MPI1_COMPAT_DECLS=0: contrib/mpich-tests.sh).
configure_args_50() {
    local pmix=$1 opt ver
    ver=$(sed -n 's/^#define PMIX_NUMERIC_VERSION *0x\([0-9a-fA-F]*\).*/\1/p' "$pmix/include/pmix_version.h")
    if [ -n "$ver" ] && [ $((16#$ver)) -ge $((16#00040204)) ]; then
        echo "--with-pmix=$pmix"
    else
        echo "--with-pmix=internal"
    fi
    printf '%s\n' \
        "--prefix=$PREFIX" \
        "--with-hwloc=external" \
        "--with-libevent=external" \
        "--with-slurm" "--with-sge" "--without-tm" \
        "--enable-ipv6" \
        "--with-devel-headers" \
        "--disable-static"
    case $DEB_ARCH in hurd-*|s390x) opt=--without-ofi ;; *) opt=--with-ofi ;; esac
    echo "$opt"
    case $DEB_ARCH in amd64|ppc64el|arm64|riscv64) opt=--with-ucx ;; *) opt=--without-ucx ;; esac
    echo "$opt"
    case $DEB_ARCH in amd64) opt=--with-psm2 ;; *) opt=--without-psm2 ;; esac
    echo "$opt"
    case $DEB_ARCH in s390x|alpha|sparc64) echo --without-cma ;; *) echo --with-cma ;; esac
    case $DEB_ARCH in s390x|riscv64) echo --enable-builtin-atomics ;; esac
    if [ -n "${JAVA:-}" ]; then
        printf '%s\n' "--enable-mpi-java" "--with-jdk-dir=/usr/lib/jvm/default-java"
    else
        echo "--disable-mpi-java"
    fi
    printf '%s\n' "--without-portals4" "--without-cuda" "--without-hcoll" "--without-ucc" \
        "--without-lsf" "--without-alps"
}

# Debian's openmpi-bin (Debian 12's 4.1.4 and Debian 13's 5.0.7 alike:
# debian/patches/no-warning-unused.patch) ships these site defaults in
# /etc/openmpi/openmpi-mca-params.conf (see its README.Debian): UCX, the
# verbs and libfabric BTLs and the OFI MTL are built but not chosen by
# default, so that machines without RDMA hardware get no device warnings and
# no libfabric provider over plain TCP (the OFI MTL would otherwise take
# every job off ob1), and windows go to osc rdma, not pt2pt, which refuses
# MPI_THREAD_MULTIPLE.  A drop-in replacement has the same defaults; a site
# with InfiniBand or Omni-Path edits them out, as on Debian.  Written once,
# in a marked block, after what the site file already holds.
site_defaults() {
    local conf=$PREFIX/etc/openmpi-mca-params.conf
    [ -f "$conf" ] || die "make install did not install $conf"
    grep -q '^# >>> Debian site defaults' "$conf" && return 0
    cat >>"$conf" <<'CONF'
# >>> Debian site defaults (written by quickstart.sh; as Debian's openmpi-bin)
btl_base_warn_component_unused = 0
mtl = ^ofi
btl = ^uct,openib,ofi
pml = ^ucx
osc = ^ucx,pt2pt
# <<< Debian site defaults
CONF
    say "site defaults as Debian's written to $conf"
}

do_build() {
    local t0 t1
    install_deps
    mkdir -p "$LOGS" "$OBJ"
    # Depend mode: a cache miss (every file of a first build) costs no extra
    # preprocessor run; automake's -MD gives ccache the headers instead.
    export PATH="/usr/lib/ccache:$PATH" CCACHE_BASEDIR="$BUILD" CCACHE_DEPEND=1

    t0=$(stamp)
    "$TOP/autogen.pl"
    t1=$(stamp); say "source tree ready ($((t1 - t0)) s)"

    local args; args=$(configure_args)
    if [ ! -f "$OBJ/config.status" ] || [ "$SRC/configure" -nt "$OBJ/config.status" ] \
       || [ "$(cat "$OBJ/.configure-args" 2>/dev/null)" != "$args" ]; then
        # configure resets every dependency file to "# dummy", after which
        # make no longer sees header changes (a patched group.h, say) and
        # keeps objects built against the old headers: start from an empty
        # object tree (ccache makes the rebuild cheap).  Not "make clean":
        # the old Makefiles run aclocal and automake on a source tree that
        # autogen.pl has just prepared afresh, which leaves configure older
        # than aclocal.m4, and make install then reruns autoconf without
        # Open MPI's macro path (a broken configure: "possibly undefined
        # macro: AC_MSG_ERROR").
        if [ -f "$OBJ/Makefile" ]; then
            say "emptying the object tree before reconfiguring"
            rm -rf "$OBJ"
            mkdir -p "$OBJ"
        fi
        say "configuring (5 to 10 minutes on 2 cores; log: $LOGS/configure.log)"
        t0=$(stamp)
        # shellcheck disable=SC2086
        if ! (cd "$OBJ" && "$SRC/configure" $args) >"$LOGS/configure.log" 2>&1; then
            grep -E 'error|WARNING' "$LOGS/configure.log" | tail -n 15 >&2
            die "configure failed (log: $LOGS/configure.log)"
        fi
        printf '%s' "$args" >"$OBJ/.configure-args"
        t1=$(stamp); say "configured ($((t1 - t0)) s)"
    fi

    # A new framework or MPI extension regenerates frameworks.h and the
    # extensions' static-components.h, which make's dependency files do not
    # name: rebuild what includes them (ompi_info's list, MPI_Init's hooks).
    local p
    for p in opal orte ompi; do
        if [ "$SRC/$p/include/$p/frameworks.h" -nt "$OBJ/$p/runtime/${p}_info_support.lo" ]; then
            rm -f "$OBJ/$p/runtime/${p}_info_support.lo"
        fi
    done
    if [ "$OBJ/ompi/mpiext/static-components.h" -nt "$OBJ/ompi/mpiext/mpiext.lo" ]; then
        rm -f "$OBJ/ompi/mpiext/mpiext.lo"
    fi
    say "building and installing into $PREFIX with $JOBS jobs (log: $LOGS/make.log)"
    t0=$(stamp)
    if ! make -C "$OBJ" -j"$JOBS" install >"$LOGS/make.log" 2>&1; then
        grep -E 'error|Error' "$LOGS/make.log" | head -n 20 >&2
        die "build failed (log: $LOGS/make.log)"
    fi
    t1=$(stamp); say "installed ($((t1 - t0)) s)"
    site_defaults
    "$PREFIX/bin/ompi_info" --version >/dev/null 2>&1 \
        || die "the installed ompi_info does not run ($PREFIX/bin/ompi_info)"
}

mpirun_root_flags() {
    # Running as root needs Open MPI's explicit consent; never otherwise.
    if [ "$(id -u)" -eq 0 ]; then echo "--allow-run-as-root"; fi
}

do_showcase() {
    local exe="$BUILD/showcase" over=--oversubscribe shm=vader
    # 5.0's mpirun is PRRTE's (--oversubscribe a deprecated alias) and its
    # shared-memory BTL is called sm.
    [ "$OMPI_SERIES" = 4.1 ] || { over="--map-by :OVERSUBSCRIBE"; shm=sm; }
    "$PREFIX/bin/mpicc" -O2 -o "$exe" "$TOP/contrib/showcase.c"
    say "running 4 ranks of contrib/showcase.c over shared memory"
    "$PREFIX/bin/mpirun" $(mpirun_root_flags) $over -np 4 \
        --mca btl $shm,self "$exe"
    say "running 2 ranks over TCP"
    "$PREFIX/bin/mpirun" $(mpirun_root_flags) $over -np 2 \
        --mca btl tcp,self --mca btl_tcp_if_include lo "$exe"
    # What each component does, measured now against the stock choice
    # (about a minute; a part that cannot run here says why).
    echo
    OVERLAY_BUILD_DIR="$BUILD" "$TOP/contrib/showcase-suite.sh" "$PREFIX"
    echo
    "$TOP/contrib/list-components.sh" "$PREFIX"
}

do_test() {
    PREFIX="$PREFIX" OVERLAY_BUILD_DIR="$BUILD" TEST_SIDE_PGID="${TEST_SIDE_PGID:-}" "$TOP/test/run.sh"
}

# Waits for the build started beside the tests (its own session: setsid);
# at 6 minutes before TEST_DEADLINE, stops it and returns 124.
wait_side_build() {
    local pid=$1
    while kill -0 "$pid" 2>/dev/null; do
        if [ -n "${TEST_DEADLINE:-}" ] && [ "$(stamp)" -ge $(( TEST_DEADLINE - 360 )) ]; then
            kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
            sleep 5
            kill -KILL -- "-$pid" 2>/dev/null || true
            wait "$pid" 2>/dev/null || true
            return 124
        fi
        sleep 5
    done
    wait "$pid"
}

# What the machine gave this run, printed first: CI's builds have taken
# from 1,209 s to 4,281 s with the same files, and a run that did not
# finish can then tell a slow machine from a slower build.
probe_machine() {
    local t0 t1 i cpu w
    cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
    t0=$(date +%s%N)
    for i in $(seq 200); do /bin/true; done
    t1=$(date +%s%N)
    mkdir -p "$LOGS"
    w=$( { TIMEFORMAT=%R; time dd if=/dev/zero of="$LOGS/.probe" bs=1M count=256 conv=fdatasync 2>/dev/null; } 2>&1 )
    rm -f "$LOGS/.probe"
    say "machine: $(nproc) CPUs (${cpu:-unknown}), load $(cut -d' ' -f1-3 /proc/loadavg), 200 process starts in $(( (t1 - t0) / 1000000 )) ms, 256 MB written and synced in ${w} s"
}

# 'test' with no base named: this base (the default) and then every other
# profile in config/base/, each built and tested in its own directories.  A
# later base skips the scripts whose code does not depend on the base
# (test/run.sh, TEST_REPEAT_OF).  Every base is tested even when one fails.
do_test_all() {
    local rc=0 b others=() t0
    for b in "$TOP"/config/base/*; do
        b=${b##*/}; [ "$b" = "$OMPI_BASE" ] || others+=("$b")
    done
    if [ -n "$ONE_BASE_VARS" ] && [ ${#others[@]} -gt 0 ]; then
        die "${ONE_BASE_VARS% } given: these name one Open MPI base's files, so 'test' needs OMPI_BASE as well (one of: $OMPI_BASE ${others[*]})"
    fi
    t0=$(stamp)
    say "testing Open MPI $OMPI_BASE, then ${others[*]:-no other base}"
    # Once, before two builds run side by side (one apt at a time).
    install_deps
    probe_machine
    # The next base builds beside this base's build and unit tests, at idle
    # priority (SCHED_IDLE, idle I/O class): this base's source tree and
    # configure run one process at a time (about 6 minutes), and so do its
    # unit tests, which leaves a core to the other base's source tree,
    # configure and the start of its make.  test/run.sh stops it (SIGSTOP
    # to its process group, TEST_SIDE_PGID) before the first test that
    # launches MPI jobs and lets it go on when the tests end: even at idle
    # priority a build beside oversubscribed ranks, which yield the core to
    # one another, made comm-store.sh take 3x as long (a yielding rank
    # handed the core to the build for up to a scheduler tick).
    local side_pid="" side_log="" idle=()
    if [ ${#others[@]} -gt 0 ]; then
        if chrt -i 0 true 2>/dev/null; then idle=(chrt -i 0); else idle=(nice -n 19); fi
        ! ionice -c 3 true 2>/dev/null || idle+=(ionice -c 3)
        mkdir -p "$LOGS"
        side_log=$LOGS/build-base-${others[0]}.log
        say "building Open MPI ${others[0]} beside $OMPI_BASE's build and unit tests, on idle CPU only (${idle[*]}; log: $side_log)"
        setsid -w "${idle[@]}" env -u PREFIX -u OVERLAY_BUILD_DIR OMPI_BASE="${others[0]}" \
            "$TOP/quickstart.sh" build >"$side_log" 2>&1 &
        side_pid=$!
        # setsid gives that build its own session, and so, where the kernel
        # groups sessions for scheduling (kernel.sched_autogroup_enabled,
        # as on these VMs), its own task group, which gets an even share of
        # the CPU whatever its tasks' policy: at SCHED_IDLE it still
        # compiled about as many files a minute as this base's make (45 and
        # 57 here), which halves this base's build.  Nice 19 on its group
        # leaves it the idle CPU (then 22 against 86).
        # Written once setsid has run: the group differs from ours.
        local g i
        for i in $(seq 50); do
            g=$(cut -d' ' -f1 "/proc/$side_pid/autogroup" 2>/dev/null) || break
            if [ -n "$g" ] && [ "$g" != "$(cut -d' ' -f1 "/proc/$$/autogroup")" ]; then
                echo 19 >"/proc/$side_pid/autogroup" 2>/dev/null &&
                    say "its scheduling group ($g) at nice 19"
                break
            fi
            sleep 0.1
        done
        # Its own session does not see the terminal's ^C: stop it on exit
        # (a stopped process takes SIGTERM once continued).
        trap 'kill -TERM -- "-$side_pid" 2>/dev/null; kill -CONT -- "-$side_pid" 2>/dev/null || true' EXIT
    fi
    do_build
    # test/run.sh exits 3 when nothing failed but TEST_DEADLINE left
    # scripts unrun (it lists them): a slow machine's verdict on what ran.
    local trc=0
    TEST_SIDE_PGID=$side_pid do_test || trc=$?
    case $trc in
        0) say "Open MPI $OMPI_BASE: passed ($(( $(stamp) - t0 )) s since the start)" ;;
        3) say "Open MPI $OMPI_BASE: NOT FINISHED: what ran passed; the scripts listed above as not run met TEST_DEADLINE ($(( $(stamp) - t0 )) s since the start)" ;;
        *) rc=1; say "Open MPI $OMPI_BASE: FAILED ($(( $(stamp) - t0 )) s since the start)" ;;
    esac
    local left brc out lim=() built side_rc
    for b in "${others[@]}"; do
        built=""
        if [ -n "$side_pid" ]; then
            kill -CONT -- "-$side_pid" 2>/dev/null || true
            say "Open MPI $b: waiting for its build ($(( $(stamp) - t0 )) s since the start)"
            side_rc=0
            wait_side_build "$side_pid" || side_rc=$?
            side_pid=""
            trap - EXIT
            sed 's/^/  | /' "$side_log"
            case $side_rc in
                0)   built=$b ;;
                124) say "Open MPI $b: NOT TESTED: its build was not done 6 minutes before TEST_DEADLINE"; continue ;;
                *)   say "Open MPI $b: the build beside the tests failed (exit $side_rc): building it again" ;;
            esac
        fi
        # TEST_DEADLINE (epoch seconds; .ci/run sets it from CI's limit): a
        # later base gets the time that is left, less a minute, so that a
        # slow build (a cold compiler cache) cannot take the whole run down.
        if [ -n "${TEST_DEADLINE:-}" ]; then
            left=$(( TEST_DEADLINE - $(stamp) - 60 ))
            if [ "$left" -lt 300 ]; then
                say "Open MPI $b: NOT TESTED: ${left} s left before TEST_DEADLINE"; continue
            fi
            lim=(timeout -k 30 "$left")
        fi
        brc=0 out=$LOGS/test-base-$b.log
        "${lim[@]}" env -u PREFIX -u OVERLAY_BUILD_DIR OMPI_BASE="$b" QUICKSTART_BUILT="$built" \
            TEST_REPEAT_OF="${TEST_REPEAT_OF:-$OMPI_BASE}" "$TOP/quickstart.sh" test 2>&1 |
            tee "$out" || brc=${PIPESTATUS[0]}
        case $brc in
            0)   say "Open MPI $b: passed ($(( $(stamp) - t0 )) s since the start)" ;;
            3)   say "Open MPI $b: NOT FINISHED: what ran passed; the scripts listed above as not run met TEST_DEADLINE ($(( $(stamp) - t0 )) s since the start)" ;;
            124) if [ ${#lim[@]} -gt 0 ] && ! grep -q '^FAIL ' "$out"; then
                     say "Open MPI $b: NOT FINISHED: stopped at TEST_DEADLINE ($(( $(stamp) - t0 )) s since the start); what ran is above"
                 else
                     say "Open MPI $b: FAILED ($(( $(stamp) - t0 )) s since the start)"; rc=1
                 fi ;;
            *)   say "Open MPI $b: FAILED ($(( $(stamp) - t0 )) s since the start)"; rc=1 ;;
        esac
    done
    return $rc
}

case "${1:-}" in
    build)    do_build ;;
    showcase) do_build; do_showcase ;;
    # QUICKSTART_BUILT (set by do_test_all only): this base was just built
    # beside the first base's build and unit tests; make install again
    # would only relink.
    test)     if [ -n "$BASE_GIVEN" ]; then
                  [ "${QUICKSTART_BUILT:-}" = "$OMPI_BASE" ] || do_build
                  do_test
              else
                  do_test_all
              fi ;;
    *) sed -n '6,20p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
