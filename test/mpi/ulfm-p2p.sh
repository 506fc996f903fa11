#!/usr/bin/env bash
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# ULFM on 5.0 with the suite's defaults (config/patches/5.0/0031-ft-p2p-
# check-fast-path.patch skips the binding's per-call peer lookup while no
# process has failed): test/mpi/src/ulfm_p2p.c kills rank 1 and checks that
# a send to it fails with MPIX_ERR_PROC_FAILED and that a wildcard receive
# fails at once instead of waiting (2 and 3 ranks, mpirun --with-ft ulfm).
. "$TEST_LIB"
needs patch:0031
build_mpi "$TOP/test/mpi/src/ulfm_p2p.c" ulfm_p2p
for np in 2 3; do
    run_to 90 out$np.txt --with-ft ulfm -np $np ./ulfm_p2p || true
    cat out$np.txt
    assert_grep '^ulfm_p2p: failure reported after [0-9]+ sends; wildcard receive: class [0-9]+: ok' out$np.txt \
        "ULFM on $np ranks: no failure reported for a killed rank"
done
echo "ulfm-p2p: OK"
