#!/usr/bin/env bash
# ompi_info runs and the installation is the drop-in for Debian's Open MPI
# 4.1.4 the README promises: the same bindings and transports, and every
# framework and component Debian's openmpi-bin lists, plus this suite's.
. "$TEST_LIB"
"$OMPI_INFO" >info.txt 2>&1 || { cat info.txt; fail "ompi_info exited non-zero"; }
if [ "$OMPI_SERIES" = 5.0 ]; then
    # 5.0.7 as Debian 13 builds it: C and the three Fortran interfaces (5.0
    # has no C++ bindings), OMPIO with the suite's fcoll and ROMIO, the
    # transports, external hwloc and libevent; then the suite's components
    # less those its profile leaves out (4.1's bzip name on 5.0).
    # Debian 12's own openmpi-bin is 4.1.4, so there is no stock 5.0.7 to
    # compare with component by component here.
    assert_grep "^ *Open MPI: $OMPI_BASE_VERSION\$" info.txt
    assert_grep 'C bindings: yes' info.txt
    assert_grep 'Fort mpif.h: yes' info.txt "no Fortran mpif.h bindings"
    assert_grep 'Fort use mpi: yes' info.txt "no Fortran 'use mpi' module"
    assert_grep 'Fort use mpi_f08: yes' info.txt "no Fortran 'use mpi_f08' module"
    for c in 'pml: ob1' 'btl: sm' 'btl: tcp' 'btl: self' 'io: ompio' 'io: romio341' \
             'fcoll: vulcan' 'fcoll: la_twophase' 'fs: ufs' 'coll: tuned' 'pml: ucx' 'osc: ucx' \
             'mtl: ofi' 'btl: ofi' 'mtl: psm2' 'compress: gzip' 'redist: cyclic'; do
        assert_grep "MCA $c " info.txt "ompi_info does not list MCA $c"
    done
    # 5.0 has no hwloc or event framework to name them: libmpi links
    # Debian's libraries (as Debian 13's does), not bundled copies.
    ldd "$PREFIX/lib/libmpi.so.40" >ldd.txt
    assert_grep 'libhwloc\.so\.15 => /(usr/)?lib/' ldd.txt "libmpi does not link Debian's hwloc"
    assert_grep 'libevent_core-2\.1\.so\.7 => /(usr/)?lib/' ldd.txt "libmpi does not link Debian's libevent"
    if [ -z "${JAVA:-}" ]; then assert_grep 'Java bindings: no' info.txt; fi
    "$TOP/contrib/list-components.sh" "$PREFIX"
    exit 0
fi
assert_grep '^ *Open MPI: 4\.1\.4$' info.txt
# Bindings: C with MPI-1 names, C++, and the three Fortran interfaces.
assert_grep 'C bindings: yes' info.txt
assert_grep 'MPI1 compatibility: yes' info.txt
assert_grep 'C\+\+ bindings: yes' info.txt "no C++ bindings (configure --enable-mpi-cxx)"
assert_grep 'Fort mpif.h: yes' info.txt "no Fortran mpif.h bindings"
assert_grep 'Fort use mpi: yes' info.txt "no Fortran 'use mpi' module"
assert_grep 'Fort use mpi_f08: yes' info.txt "no Fortran 'use mpi_f08' module"
for c in 'pml: ob1' 'btl: vader' 'btl: tcp' 'btl: self' 'io: ompio' 'io: romio321' \
         'fcoll: two_phase' 'fcoll: vulcan' 'fs: ufs' 'plm: rsh' 'plm: slurm' \
         'ras: slurm' 'ras: gridengine' 'coll: tuned' 'pml: ucx' 'osc: ucx' \
         'mtl: ofi' 'btl: ofi' 'btl: openib' 'mtl: psm2' 'compress: gzip' 'compress: bzip'; do
    assert_grep "MCA $c " info.txt "ompi_info does not list MCA $c"
done
# External PMIx, hwloc and libevent from Debian, not the bundled copies.
assert_grep 'MCA pmix: ext' info.txt "PMIx is not the external one"
assert_no_grep 'MCA pmix: pmix3x' info.txt "bundled PMIx was built"
assert_grep 'MCA hwloc: external' info.txt "hwloc is not the external one"
assert_grep 'MCA event: external' info.txt "libevent is not the external one"
# Java only when asked for (JAVA=1 at build time).
if [ -z "${JAVA:-}" ]; then assert_grep 'Java bindings: no' info.txt; fi
# The project's components are all there (listed from the overlay tree).
"$TOP/contrib/list-components.sh" "$PREFIX"

# Framework by framework, component by component, against Debian's own
# build (openmpi-bin, which the quick start installs for this comparison).
deb=/usr/bin/ompi_info
[ -x "$deb" ] || fail "Debian's ompi_info ($deb) is missing: apt-get install openmpi-bin"
"$deb" --version 2>/dev/null | grep -q '4\.1\.4' || fail "$deb is not Open MPI 4.1.4"
fwcomp() { "$1" --parsable 2>/dev/null | awk -F: '$1 == "mca" {print $2 ":" $3}' | sort -u; }
fwcomp "$deb" >debian.lst
fwcomp "$OMPI_INFO" >ours.lst
[ "$(wc -l <debian.lst)" -gt 100 ] || { cat debian.lst; fail "Debian's ompi_info listed too few components"; }
comm -23 debian.lst ours.lst >missing.lst
if [ -s missing.lst ]; then
    fail "this build lacks what Debian's Open MPI has: $(tr '\n' ' ' <missing.lst)"
fi
frameworks() { cut -d: -f1 "$1" | sort -u; }
comm -23 <(frameworks debian.lst) <(frameworks ours.lst) >missing-fw.lst
[ ! -s missing-fw.lst ] || fail "frameworks missing: $(tr '\n' ' ' <missing-fw.lst)"
echo "Debian lists $(wc -l <debian.lst) framework:component pairs; all are here," \
     "plus $(comm -13 debian.lst ours.lst | wc -l) of this suite's: $(comm -13 debian.lst ours.lst | tr '\n' ' ')"
