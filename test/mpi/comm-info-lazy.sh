#!/usr/bin/env bash
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# A communicator's info is made when MPI_Comm_get_info or MPI_Comm_set_info
# first asks for it, not at creation (config/patches/<series>/0030-comm-
# info-lazy.patch, issue 38).  test/mpi/src/comm_info_lazy.c compares a
# dup and an idup made without an info (the lazy path) with ones given an
# empty info (the info exists from creation, as every communicator's did
# before), and a split and a Cartesian sub-communicator with what stock
# Open MPI gives for them (both series: ob1's two assertions; read off
# the unpatched build): the same keys, order and values from
# MPI_Comm_get_info, before and after MPI_Comm_set_info, and the same as
# an info given at creation; messages on each.  A duplicate of WORLD made without an info must cost at least
# 300 bytes less than one given an empty info (the info and its entries;
# before the patch both cost the same).  MPICH's comm/ runs comm_info,
# comm_info2 and dup_with_info in mpich-*.sh.
. "$TEST_LIB"
needs patch:0030
build_mpi "$TOP/test/mpi/src/comm_info_lazy.c" info_lazy
split_info='mpi_assert_no_any_source=false;mpi_assert_allow_overtaking=false;'
for np in 2 4; do
    run_to 120 out$np.txt -np $np ./info_lazy "$split_info" || { cat out$np.txt; fail "comm_info_lazy on $np ranks failed"; }
    assert_grep "^comm_info_lazy: $np ranks: ok" out$np.txt "comm_info_lazy on $np ranks: no result"
    cat out$np.txt
done
read -r lazy eager < <(sed -n 's/^comm_info_lazy: bytes per dup lazy \([0-9-]*\) eager \([0-9-]*\)$/\1 \2/p' out4.txt)
[ -n "$lazy" ] && [ -n "$eager" ] || fail "comm_info_lazy printed no heap figures"
[ $(( eager - lazy )) -ge 300 ] ||
    fail "a duplicate without an info costs $lazy bytes, one with an empty info $eager: its info is still made at creation"
echo "comm-info-lazy: OK"
