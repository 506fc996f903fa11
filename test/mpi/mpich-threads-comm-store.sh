#!/usr/bin/env bash
# Conformance under MPI_THREAD_MULTIPLE (issue 22), one of four scripts
# (mpich-threads-*.sh; each fits the per-test time limit on 2 cores):
# MPICH's threads/comm (communicators created from several threads at once)
# with each comm_store (flat, rbtree, radix) and each CID policy among them.
# la_twophase: no test of MPICH's threads/ does I/O.
. "$TEST_LIB"
needs ompi/mca/comm_store
mpich_clean flat-highest threads/comm -- OMPI_MCA_comm_store=flat OMPI_MCA_comm_store_base_cid_policy=highest
mpich_clean rbtree-lowest threads/comm -- OMPI_MCA_comm_store=rbtree OMPI_MCA_comm_store_base_cid_policy=lowest
mpich_clean radix-highest threads/comm -- OMPI_MCA_comm_store=radix OMPI_MCA_comm_store_base_cid_policy=highest
