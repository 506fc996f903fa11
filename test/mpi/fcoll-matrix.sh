#!/usr/bin/env bash
# fcoll/la_twophase on the access patterns of HDF5 and MPI-IO applications
# (bench/fcoll_matrix.c, bench/fcoll_hdf5.c at 2 MiB): element-interleaved
# runs of 1, 4 and 64 doubles, 2-D row and column blocks, 3-D subarray
# blocks, block-cyclic darray, the BIPS3D-like irregular set, random runs
# and a sparse view over a background; then h5py-like hyperslabs through
# Debian's parallel HDF5 (libhdf5-openmpi-dev) running on this
# installation's libmpi, which must really do collective I/O.  The file
# opened once and reopened for every call; every write and read checked
# byte for byte (the programs exit non-zero on any difference), with the
# default and a 64 KiB cycle buffer (several windows a domain), and with
# every process reading its own pieces itself (read_self_min 1).
. "$TEST_LIB"
build_mpi "$TOP/bench/fcoll_matrix.c" fm
H5INC=/usr/include/hdf5/openmpi H5LIB=/usr/lib/x86_64-linux-gnu/hdf5/openmpi
[ -r "$H5INC/hdf5.h" ] || fail "no $H5INC/hdf5.h: quickstart.sh installs libhdf5-openmpi-dev"
build_mpi "$TOP/bench/fcoll_hdf5.c" fh -I"$H5INC" -L"$H5LIB" -lhdf5
F=/dev/shm/fcoll-matrix.$$
trap 'rm -f "$F" "$F.h5"' EXIT

n=0
check() {   # check NAME PROG FILE PATTERN MODE MCA...
    local name=$1 prog=$2 file=$3 pat=$4 mode=$5; shift 5
    if ! MB=2 LD_LIBRARY_PATH="$PREFIX/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        run_to 300 "$name.txt" -np 4 -x MB -x LD_LIBRARY_PATH --mca fcoll la_twophase \
            --mca io_ompio_num_aggregators 4 "$@" "./$prog" "$file" "$pat" 2 "$mode"; then
        tail -n 20 "$name.txt"; fail "$name: exit status non-zero"
    fi
    assert_no_grep FAIL "$name.txt" "$name reported a difference"
    assert_grep "^RESULT pattern=$pat mode=$mode np=4 " "$name.txt" "$name printed no result"
    rm -f "$file"
    n=$((n + 1))
}

for pat in i1 i4 i64 rows cols sub3d darray irregular random sparse; do
    for mode in same reopen; do
        check "$pat-$mode" fm "$F" "$pat" "$mode"
    done
    check "$pat-cycle64k" fm "$F" "$pat" same --mca fcoll_la_twophase_cycle_buffer_size 65536
    check "$pat-selfread" fm "$F" "$pat" reopen --mca fcoll_la_twophase_read_self_min 1
done
for pat in h5strided h5rows h5cols h5sub3d; do
    for mode in same reopen; do
        check "$pat-$mode" fh "$F.h5" "$pat" "$mode"
    done
done
# HDF5 went through this installation and la_twophase: its verbose line
check h5-verbose fh "$F.h5" h5strided same --mca fcoll_base_verbose 10
assert_grep 'fcoll:la_twophase: 4 processes' h5-verbose.txt "HDF5's writes did not reach fcoll la_twophase"
echo "fcoll matrix: $n runs, every pattern's data right (MPI-IO and parallel HDF5)"
