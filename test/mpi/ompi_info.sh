#!/usr/bin/env bash
# ompi_info runs and the installation is configured as the README says:
# what users need is there, what was left out is absent.
. "$TEST_LIB"
"$OMPI_INFO" >info.txt 2>&1 || { cat info.txt; fail "ompi_info exited non-zero"; }
assert_grep '^ *Open MPI: 4\.1\.4$' info.txt
# Kept: C bindings with MPI-1 names, OMPIO, ORTE launchers, shm and TCP.
assert_grep 'C bindings: yes' info.txt
assert_grep 'MPI1 compatibility: yes' info.txt
for c in 'pml: ob1' 'btl: vader' 'btl: tcp' 'btl: self' 'io: ompio' \
         'fcoll: two_phase' 'fcoll: vulcan' 'fs: ufs' 'plm: rsh' 'plm: slurm' \
         'ras: slurm' 'coll: tuned'; do
    assert_grep "MCA $c " info.txt "ompi_info does not list MCA $c"
done
# External PMIx, hwloc and libevent from Debian, not the bundled copies.
assert_grep 'MCA pmix: ext' info.txt "PMIx is not the external one"
assert_no_grep 'MCA pmix: pmix3x' info.txt "bundled PMIx was built"
assert_grep 'MCA hwloc: external' info.txt "hwloc is not the external one"
assert_grep 'MCA event: external' info.txt "libevent is not the external one"
# Left out: Fortran, Java, C++, OSHMEM, ROMIO, vendor transports.
assert_grep 'Fort mpif.h: no' info.txt
assert_grep 'C\+\+ bindings: no' info.txt
assert_grep 'Java bindings: no' info.txt
assert_no_grep 'MCA (io: romio|btl: openib|btl: uct|pml: ucx|mtl: |spml: |sshmem: )' info.txt
# The project's components are all there (listed from the overlay tree).
"$TOP/contrib/list-components.sh" "$PREFIX"
