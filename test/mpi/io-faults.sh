#!/usr/bin/env bash
# Issue 35: a file-system failure under MPI-IO is never success.  For every
# fcoll component of OMPIO (vulcan, dynamic, dynamic_gen2, two_phase (4.1),
# individual, la_twophase) and for ROMIO as the reference, one run each:
# an injected EIO and an injected short transfer on rank 0's first write,
# read or fsync of a file (test/common/io_fault_shim.c, LD_PRELOAD) and,
# as root, a full file system (4 ranks x 2 MiB onto a 4 MiB tmpfs), under
# write_at_all, write_all, write_at, iwrite_at, write_shared,
# write_ordered, the split collectives write_all_begin/end and
# write_at_all_begin/end (patch 0019), MPI_File_sync, read_at_all,
# read_all, read_at, iread_at, read_all_begin/end, read_at_all_begin/end;
# after every write MPI_File_sync succeeds on every rank (a failed request
# left behind failed it).
# A collective call fails on every rank with one error class, the process
# hit fails an independent call, no status counts a byte that is not in
# the file (or buffer), a short transfer ends complete or failed, the file
# closes, and a second file is written and read back
# (test/mpi/src/io_faults.c).  And with the sharedfp lockedfile, rank 0
# cannot read the shared file pointer's own file: write_ordered fails on
# every rank (it hung in stock 4.1.4: the others waited for their offsets),
# write_shared on rank 0.  And rank 1's ftruncate (close) fails
# MPI_File_set_size (MPI_File_close) on every rank with MPI_ERR_IO.
# ROMIO's findings are printed, not judged (this suite does not patch
# ROMIO).
. "$TEST_LIB"
needs patch:0010 patch:0011 patch:0012 patch:0013 patch:0014 patch:0019
build_mpi "$TOP/test/mpi/src/io_faults.c" t -ldl
gcc -shared -fPIC -O2 -Wall -Werror -o shim.so "$TOP/test/common/io_fault_shim.c" -ldl ||
    fail "cannot build the fault shim"
D=$TEST_TMP/d OK=$TEST_TMP/ok
mkdir -p "$D" "$OK"
WFAULTS=eio-write,short-write
FULL=$TEST_TMP/full
mkdir -p "$FULL"
if [ "$(id -u)" -ne 0 ]; then
    note "full file system: NOT TESTED (mounting a tmpfs needs root)"
elif ! mount -t tmpfs -o size=4m tmpfs "$FULL" 2>mount.err; then
    note "full file system: NOT TESTED (mount -t tmpfs failed: $(cat mount.err))"
else
    trap 'umount "$FULL" 2>/dev/null || true' EXIT
    WFAULTS=$WFAULTS,nospace:$FULL
fi
FAULTS=$WFAULTS,eio-read,short-read,eagain-aio
SHIM=(-x LD_PRELOAD="$PWD/shim.so")
BYTES=262144    # a rank: 4 pieces of 64 KiB

# IO_FAULTS_FCOLLS: the components to run (by hand; default all)
for c in ${IO_FAULTS_FCOLLS:-$FCOLLS}; do
    run_to 300 "$c.txt" -np 4 "${SHIM[@]}" --mca io ompio --mca fcoll "$c" ./t "$D" "$OK" "$FAULTS" "$BYTES" ||
        { grep -v '^iofault' "$c.txt" | tail -25; fail "fcoll $c: a rule broke (above)"; }
    assert_grep "^io_faults: $FAULTS OK" "$c.txt" "fcoll $c"
    echo "fcoll $c: OK, $(grep -c '^iofault: injected' "$c.txt") faults injected"
done
# the shared pointer's lock file (0020), and rank 1's ftruncate and close
# under MPI_File_set_size and MPI_File_close (0021)
MORE=
have patch:0020 && MORE=eio-lock
have patch:0021 && MORE=${MORE:+$MORE,}eio-meta
if [ -n "$MORE" ]; then
    run_to 120 more.txt -np 4 "${SHIM[@]}" --mca io ompio --mca sharedfp lockedfile \
        ./t "$D" "$OK" "$MORE" "$BYTES" ||
        { grep -v '^iofault' more.txt | tail -25; fail "$MORE: a rule broke (above)"; }
    assert_grep "^io_faults: $MORE OK" more.txt "$MORE"
    echo "$MORE (sharedfp lockedfile): OK, $(grep -c '^iofault: injected' more.txt) faults injected"
fi
# ROMIO, the reference: what it does is printed.  Writes only, without
# data sieving: a sieving write that fails keeps ROMIO's fcntl lock and the
# other ranks wait for it for ever (write_at), and a collective read whose
# aggregator's read fails hangs (read_at_all), as OMPIO's did.
printf 'romio_ds_write disable\nromio_ds_read disable\n' >romio-hints
run_to 300 romio.txt -np 4 "${SHIM[@]}" -x ROMIO_HINTS="$PWD/romio-hints" --mca io $ROMIO \
    ./t "$D" "$OK" "$WFAULTS" "$BYTES" reference ||
    { tail -20 romio.txt; fail "$ROMIO: the run broke"; }
grep -E '^(io_faults|REFERENCE)' romio.txt | sed "s/^/$ROMIO (reference): /"
for f in vulcan two_phase la_twophase romio; do
    [ -f "$f.txt" ] && grep -h ' ranks failed' "$f.txt" | sed "s/^/$f: /"
done
