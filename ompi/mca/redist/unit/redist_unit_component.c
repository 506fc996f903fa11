/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * redist unit (MADRE's unitBred): no schedule.  Rounds until done: each
 * process tells every destination how many blocks it has left for it,
 * each destination offers room from its free slots (at most recv_limit),
 * each sender takes what its send_limit allows and says so, the blocks
 * move one block per message, and the slots they leave are free in the
 * next round.  Symmetric, O(n) per process per round.  The slot steps are
 * redist_slots_unit_* (test/unit/redist-replay.sh replays the rounds
 * through them).  It stalls when every process still waiting for blocks
 * is full (a cycle with no free slot): create runs the rounds on counts
 * alone first and refuses such a map (MPI_ERR_OTHER) before anything
 * moves.
 */
#include "ompi_config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "ompi/constants.h"
#include "ompi/mca/pml/pml.h"
#include "ompi/mca/redist/base/base.h"
#include "ompi/op/op.h"
#include "opal/mca/common/suite/common_suite.h"

static int send_limit, recv_limit, request_limit;
static const ompi_redist_base_var_t unit_vars[] = {
    {"send_limit", "Most blocks a process sends in one round (MADRE's outstandingSendLimit; "
     "at least 1)", MCA_BASE_VAR_TYPE_INT, 100, &send_limit},
    {"recv_limit", "Most blocks a process receives in one round (MADRE's "
     "outstandingReceiveLimit; at least 1)", MCA_BASE_VAR_TYPE_INT, 100, &recv_limit},
    {"request_limit", "Most requests a process has in flight in one round, sends and receives "
     "together (MADRE's outstandingRequestLimit; at least 2)", MCA_BASE_VAR_TYPE_INT, 200,
     &request_limit},
    {NULL, NULL, 0, 0, NULL},
};

typedef struct {
    int slim, rlim;             /* effective per-round limits */
    /* n each: want (blocks left, then room offered to me), asked (wanted
     * from me), grant (room I offer, then blocks I will receive), granted
     * (blocks I will send) */
    int *want, *asked, *grant, *granted;
    ompi_request_t **reqs;      /* slim + rlim */
} unit_sched_t;

#define DT_INT (&ompi_mpi_int.dt)

/* The rounds; with move == 0 only the counts (create's dry run). */
static int unit_rounds(ompi_redist_t *rd, int move)
{
    unit_sched_t *u = rd->sched;
    ompi_communicator_t *comm = rd->comm;
    int n = rd->nprocs, me = rd->me, q, k, rc, round, nreq, tot[3], sum[3];
    int failed = OMPI_SUCCESS;

    for (round = 0;; round++) {
        /* ask for everything left; receivers offer room; senders take
         * what their send limit allows and say so (three exchanges, so a
         * round that moves nothing is a real stall: room offered is
         * always partly taken) */
        for (q = 0; q < n; q++) {
            u->want[q] = redist_slots_out_left(&rd->sl, q);
        }
        rc = comm->c_coll->coll_alltoall(u->want, 1, DT_INT, u->asked, 1, DT_INT, comm,
                                         comm->c_coll->coll_alltoall_module);
        if (OMPI_SUCCESS != rc) {
            return rc;
        }
        /* the processes in a rotating order: fair over rounds */
        redist_slots_share(n, (me + round) % n, u->asked, u->grant,
                           rd->sl.nfree < u->rlim ? rd->sl.nfree : u->rlim);
        rc = comm->c_coll->coll_alltoall(u->grant, 1, DT_INT, u->want, 1, DT_INT, comm,
                                         comm->c_coll->coll_alltoall_module);
        if (OMPI_SUCCESS != rc) {
            return rc;
        }
        redist_slots_share(n, (me + 1 + round) % n, u->want, u->granted, u->slim);
        rc = comm->c_coll->coll_alltoall(u->granted, 1, DT_INT, u->grant, 1, DT_INT, comm,
                                         comm->c_coll->coll_alltoall_module);
        if (OMPI_SUCCESS != rc) {
            return rc;
        }
        nreq = 0;
        tot[0] = tot[1] = 0;
        for (q = 0; q < n && OMPI_SUCCESS == rc; q++) {
            for (k = 0; k < u->grant[q] && OMPI_SUCCESS == rc; k++) {   /* receive from q */
                int s = redist_slots_unit_land(&rd->sl, q);
                if (s < 0) {
                    rc = OMPI_ERR_BAD_PARAM;   /* granted more than is free */
                    break;
                }
                if (move) {
                    rc = ompi_redist_base_fault_hit()
                             ? OMPI_ERR_OUT_OF_RESOURCE
                             : MCA_PML_CALL(irecv(ompi_redist_base_slot(rd, s), rd->count,
                                                  rd->type, q, 1, comm, &u->reqs[nreq]));
                    nreq += OMPI_SUCCESS == rc;
                }
            }
        }
        for (q = 0; q < n && OMPI_SUCCESS == rc; q++) {
            for (k = 0; k < u->granted[q] && OMPI_SUCCESS == rc; k++) {  /* send to q */
                int s = redist_slots_unit_next_out(&rd->sl, q);
                if (move) {
                    rc = ompi_redist_base_fault_hit()
                             ? OMPI_ERR_OUT_OF_RESOURCE
                             : MCA_PML_CALL(isend(ompi_redist_base_slot(rd, s), rd->count,
                                                  rd->type, q, 1, MCA_PML_BASE_SEND_STANDARD,
                                                  comm, &u->reqs[nreq]));
                    nreq += OMPI_SUCCESS == rc;
                }
            }
            tot[0] += u->granted[q];
        }
        if (OMPI_SUCCESS == rc && move) {
            rc = ompi_redist_base_wait(rd, nreq, u->reqs);
        }
        if (OMPI_SUCCESS != rc) {
            /* tell the others now (they may wait for these blocks), then
             * keep to the rounds' collectives until all have heard */
            if (move) {
                ompi_redist_base_abort(rd, rc, nreq, u->reqs);
            }
            failed = rc;
            rc = OMPI_SUCCESS;
        }
        /* the slots just sent from are free from the next round on */
        if (OMPI_SUCCESS == failed) {
            redist_slots_unit_sent(&rd->sl, u->granted);
        }
        for (q = 0; q < n; q++) {
            tot[1] += redist_slots_out_left(&rd->sl, q);
        }
        if (move) {
            ompi_redist_base_count_blocks(rd, (unsigned long long) tot[0]);
            ompi_redist_base_count(REDIST_STAT_ROUNDS, 1);
        }
        tot[2] = OMPI_SUCCESS != failed;
        /* after an abort in this round others may still be completing
         * sends to this process, which it must take and drop while it
         * waits (a blocking allreduce hung, 2026-11-29, one run in two);
         * no process knows yet whether another failed, and a blocking
         * allreduce does not match a nonblocking one, so every round
         * ends in a nonblocking one.  Nothing of the next round can
         * arrive meanwhile: it starts with collectives this process is
         * not in yet */
        rc = ompi_redist_base_sum(rd, tot, sum, 3, OMPI_SUCCESS != failed);
        if (OMPI_SUCCESS != rc) {
            return rc;
        }
        if (sum[2] > 0) {
            return OMPI_SUCCESS != failed ? failed : OMPI_REDIST_PEER_FAILED;
        }
        if (0 == sum[1]) {
            break;
        }
        if (0 == sum[0]) {
            return OMPI_ERR_NOT_SUPPORTED;   /* every waiting process is full */
        }
    }
    if (move) {
        ompi_redist_base_settle(rd);
    }
    return OMPI_SUCCESS;
}

static int unit_schedule(ompi_redist_t *rd)
{
    int n = rd->nprocs, rc;
    unit_sched_t *u;
    const bool say = 0 == rd->me;
    const char *outcome = "MPIX_Redist_create fails with MPI_ERR_ARG";
    /* & rather than &&: every bad variable is named */
    if (!(common_suite_int_in_range("redist_unit_send_limit", send_limit, 1, INT_MAX, say,
                                    outcome)
          & common_suite_int_in_range("redist_unit_recv_limit", recv_limit, 1, INT_MAX, say,
                                      outcome)
          & common_suite_int_in_range("redist_unit_request_limit", request_limit, 2, INT_MAX,
                                      say, outcome))) {
        return OMPI_ERR_BAD_PARAM;
    }
    u = ompi_redist_base_alloc(rd, sizeof(*u));
    if (NULL != u) {
        u->slim = send_limit < request_limit - 1 ? send_limit : request_limit - 1;
        u->rlim = recv_limit < request_limit - u->slim ? recv_limit : request_limit - u->slim;
        u->want = ompi_redist_base_alloc(rd, sizeof(int) * 4 * n);
        u->reqs = ompi_redist_base_alloc(rd, sizeof(ompi_request_t *) * (u->slim + u->rlim));
        if (NULL != u->want && NULL != u->reqs) {
            u->asked = u->want + n;
            u->grant = u->want + 2 * n;
            u->granted = u->want + 3 * n;
        }
        rd->sched = u;
    }
    rc = ompi_redist_base_agree(rd, (NULL == u || NULL == u->want || NULL == u->reqs)
                                        ? OMPI_ERR_OUT_OF_RESOURCE : OMPI_SUCCESS);
    if (OMPI_SUCCESS == rc) {
        /* dry run: refuse a map that would stall before moving anything */
        ompi_redist_base_begin(rd);
        rc = ompi_redist_base_agree(rd, unit_rounds(rd, 0));
    }
    return rc;
}

static int unit_execute(ompi_redist_t *rd)
{
    return unit_rounds(rd, 1);
}

static void unit_release(ompi_redist_t *rd)
{
    unit_sched_t *u = rd->sched;
    if (NULL != u) {
        free(u->want);
        free(u->reqs);
        free(u);
    }
    rd->sched = NULL;
}

/* mca_redist_unit_component; redist_unit_priority defaults to 10 */
OMPI_REDIST_COMPONENT(unit, 10, unit_vars, .schedule = unit_schedule,
                      .execute = unit_execute, .release = unit_release)
