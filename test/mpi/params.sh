#!/usr/bin/env bash
# An MCA value set in the site parameter file ($PREFIX/etc/openmpi-mca-params.conf)
# reaches every rank of a running job; OMPI_MCA_* overrides the file, and
# --mca on the command line overrides both (Open MPI's documented order).
. "$TEST_LIB"
build_mpi "$TOP/test/mpi/src/cvar_print.c" cvar_print
conf=$PREFIX/etc/openmpi-mca-params.conf
[ -w "$conf" ] || skip "cannot write $conf"
cp "$conf" conf.orig
trap 'cp "$TEST_TMP/conf.orig" "$conf"' EXIT
unset OMPI_MCA_mpi_abort_delay OMPI_MCA_coll_tuned_priority || true

# Defaults first, so that the checks below are not satisfied by accident.
mpirun_t -np 2 ./cvar_print mpi_abort_delay >def.txt
assert_grep '^rank 1: mpi_abort_delay=0$' def.txt "default mpi_abort_delay is not 0"

printf 'mpi_abort_delay = 17\ncoll_tuned_priority = 42\n' >>"$conf"
mpirun_t -np 3 ./cvar_print mpi_abort_delay coll_tuned_priority >file.txt
cat file.txt
for r in 0 1 2; do
    assert_grep "^rank $r: mpi_abort_delay=17$" file.txt "site file value did not reach rank $r"
    assert_grep "^rank $r: coll_tuned_priority=42$" file.txt
done

OMPI_MCA_mpi_abort_delay=23 mpirun_t -np 2 ./cvar_print mpi_abort_delay coll_tuned_priority >env.txt
cat env.txt
assert_grep '^rank 1: mpi_abort_delay=23$' env.txt "OMPI_MCA_ did not override the site file"
assert_grep '^rank 1: coll_tuned_priority=42$' env.txt "site file value lost when env is set"

OMPI_MCA_mpi_abort_delay=23 mpirun_t -np 2 --mca mpi_abort_delay 29 ./cvar_print mpi_abort_delay >cmd.txt
assert_grep '^rank 1: mpi_abort_delay=29$' cmd.txt "--mca did not override the environment"
