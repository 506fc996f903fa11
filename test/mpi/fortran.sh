#!/usr/bin/env bash
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# The Fortran and C++ bindings of this installation (issue 23): ompi_info
# lists mpif.h, use mpi, use mpi_f08 and C++; this installation's mpifort
# builds test/mpi/src/f_mpifh.f90 (include 'mpif.h'), f_usempi.f90 (use
# mpi) and f_f08.f90 (use mpi_f08, collective MPI-IO with fcoll
# la_twophase selected, its verbose line proving it ran), and mpicxx builds
# cxx_bindings.cc (MPI::COMM_WORLD); each runs on 2 to 4 ranks and checks
# its own results (a wrong one exits non-zero).  Then the ABI promise for
# Fortran and C++: the same sources built with Debian's own wrappers
# (mpifort.openmpi, mpicxx.openmpi: openmpi-bin, with libopenmpi-dev's
# headers and modules) resolve libmpi_mpifh.so.40, libmpi_usempif08.so.40,
# libmpi_cxx.so.40 and libmpi.so.40 from $PREFIX/lib under
# LD_LIBRARY_PATH=$PREFIX/lib and run there, la_twophase included.
#
# mpif.h declares no interfaces, so gfortran 10 and later reject one buffer
# argument passed with two types unless given -fallow-argument-mismatch (as
# with any MPI's mpif.h): f_mpifh is built with it.
. "$TEST_LIB"
MPIFORT=$PREFIX/bin/mpifort
MPICXX=$PREFIX/bin/mpicxx
SRC=$TOP/test/mpi/src
MH=(-O2 -fallow-argument-mismatch -w)

# 5.0 has no C++ bindings.
cxx=1; [ "$OMPI_SERIES" = 4.1 ] || cxx=0
"$OMPI_INFO" --parsable >info.txt
bind=('bindings:mpif.h:yes' 'bindings:use_mpi:"?yes' 'bindings:use_mpi_f08:yes')
libs=(libmpi_mpifh libmpi_usempif08 libmpi_usempi_ignore_tkr)
[ $cxx = 0 ] || { bind+=('bindings:cxx:yes'); libs+=(libmpi_cxx); }
for b in "${bind[@]}"; do
    assert_grep "^$b" info.txt "ompi_info --parsable: no '$b' (built without --enable-mpi-fortran=all / --enable-mpi-cxx?)"
done
for l in "${libs[@]}"; do
    [ -e "$PREFIX/lib/$l.so.40" ] || fail "no $PREFIX/lib/$l.so.40"
done

"$MPIFORT" "${MH[@]}" -o f_mpifh "$SRC/f_mpifh.f90" || fail "mpifort could not build f_mpifh.f90"
"$MPIFORT" -O2 -Wall -o f_usempi "$SRC/f_usempi.f90" || fail "mpifort could not build f_usempi.f90"
"$MPIFORT" -O2 -Wall -o f_f08 "$SRC/f_f08.f90" || fail "mpifort could not build f_f08.f90"
[ $cxx = 0 ] || "$MPICXX" -O2 -Wall -Werror -o cxx "$SRC/cxx_bindings.cc" || fail "mpicxx could not build cxx_bindings.cc"

LAT=(--mca fcoll la_twophase --mca fcoll_base_verbose 10)
check() {   # check NAME WANT NP [mpirun args] PROGRAM [args]
    local name=$1 want=$2 np=$3; shift 3
    run_to 120 "$name.txt" -np "$np" "$@" || { tail -n 30 "$name.txt"; fail "$name: exit status non-zero"; }
    assert_grep "^$want: $np ranks OK" "$name.txt" "$name: no '$want: $np ranks OK'"
    assert_no_grep 'FAILED|wrong result' "$name.txt" "$name"
}
# programs of the Debian wrappers carry no run path: ranks take libmpi from
# LD_LIBRARY_PATH, set for the test programs of both builds
export LD_LIBRARY_PATH=$PREFIX/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
for np in 2 3 4; do
    check "mpifh-$np" f_mpifh "$np" ./f_mpifh
    check "usempi-$np" f_usempi "$np" ./f_usempi
    check "f08-$np" f_f08 "$np" "${LAT[@]}" ./f_f08 "$TEST_TMP/f08-$np.dat"
    assert_grep "fcoll:la_twophase: $np processes" "f08-$np.txt" "f_f08 on $np ranks: la_twophase did not run the collective"
    [ "$(stat -c %s "$TEST_TMP/f08-$np.dat")" -eq $((np * 48 * 1000 * 4)) ] || fail "f_f08 on $np ranks: file size"
done
if [ $cxx = 1 ]; then for np in 2 3; do check "cxx-$np" cxx_bindings "$np" ./cxx; done; fi
echo "this installation's mpifort (mpif.h, use mpi, use mpi_f08)$([ $cxx = 0 ] || echo ' and mpicxx'): OK"

# The ABI promise, with Debian's wrappers
DEBFORT=/usr/bin/mpifort.openmpi DEBCXX=/usr/bin/mpicxx.openmpi
if [ ! -x "$DEBFORT" ] || [ ! -x "$DEBCXX" ] ||
   [ "$(dpkg-query -W -f='${Status}\n' openmpi-bin libopenmpi-dev 2>/dev/null | grep -c 'install ok installed')" -ne 2 ]; then
    skip "Debian's openmpi-bin/libopenmpi-dev are not installed: the ABI check with Debian's mpifort did not run (this installation's bindings passed)"
fi
# The drop-in promise holds for the base of the distribution's own Open MPI
# (Debian 12: 4.1.4; a 5.0.7 base is Debian 13's drop-in).
debv=$(dpkg-query -W -f='${Version}' libopenmpi-dev)
[[ $debv == "$OMPI_BASE_VERSION"* ]] ||
    skip "Debian's Open MPI here is $debv, not $OMPI_BASE_VERSION: no ABI check with its wrappers (this installation's bindings passed)"
env -u LD_LIBRARY_PATH "$DEBFORT" "${MH[@]}" -o deb_mpifh "$SRC/f_mpifh.f90" || fail "Debian's mpifort could not build f_mpifh.f90"
env -u LD_LIBRARY_PATH "$DEBFORT" -O2 -o deb_usempi "$SRC/f_usempi.f90" || fail "Debian's mpifort could not build f_usempi.f90"
env -u LD_LIBRARY_PATH "$DEBFORT" -O2 -o deb_f08 "$SRC/f_f08.f90" || fail "Debian's mpifort could not build f_f08.f90"
env -u LD_LIBRARY_PATH "$DEBCXX" -O2 -o deb_cxx "$SRC/cxx_bindings.cc" || fail "Debian's mpicxx could not build cxx_bindings.cc"
# linked (Debian's wrappers link --as-needed) with Debian's libraries ...
needs_lib() {   # needs_lib PROGRAM LIB: PROGRAM names LIB.so.40, found in Debian's directory without LD_LIBRARY_PATH
    local d; d=$(readelf -d "$1")
    grep -qF "Shared library: [$2.so.40]" <<<"$d" || { grep NEEDED <<<"$d"; fail "$1 does not need $2.so.40"; }
    d=$(env -u LD_LIBRARY_PATH ldd "$1")
    grep -qE "^\s*$2\.so\.40 => (/usr)?/lib/" <<<"$d" || { echo "$d"; fail "$1: $2.so.40 is not Debian's without LD_LIBRARY_PATH"; }
}
needs_lib deb_mpifh libmpi_mpifh
needs_lib deb_usempi libmpi_mpifh
needs_lib deb_f08 libmpi_usempif08
needs_lib deb_cxx libmpi_cxx
# ... and resolved from this installation with LD_LIBRARY_PATH=$PREFIX/lib
resolves() {   # resolves PROGRAM LIB...
    local p=$1 l; shift
    ldd "$p" >"ldd-$p.txt"
    assert_no_grep 'not found' "ldd-$p.txt" "$p: a library not found"
    for l in "$@"; do
        assert_grep "^\s*$l\.so\.40 => $PREFIX/lib/$l\.so\.40 " "ldd-$p.txt" "$p: $l.so.40 not from $PREFIX/lib"
    done
}
resolves deb_mpifh libmpi_mpifh libmpi libopen-rte libopen-pal
resolves deb_usempi libmpi_mpifh libmpi
resolves deb_f08 libmpi_usempif08 libmpi_mpifh libmpi
resolves deb_cxx libmpi_cxx libmpi
grep -E 'libmpi|libopen' ldd-deb_f08.txt
for np in 2 4; do
    check "deb-mpifh-$np" f_mpifh "$np" ./deb_mpifh
    check "deb-usempi-$np" f_usempi "$np" ./deb_usempi
    check "deb-f08-$np" f_f08 "$np" "${LAT[@]}" ./deb_f08 "$TEST_TMP/deb-f08-$np.dat"
    assert_grep "fcoll:la_twophase: $np processes" "deb-f08-$np.txt" "Debian-built f_f08 on $np ranks: la_twophase did not run"
done
check deb-cxx-3 cxx_bindings 3 ./deb_cxx
echo "Debian-built Fortran and C++ programs on this installation: OK"
