/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * The moves every component is made of, and the end of every execute:
 * waits that a failure elsewhere interrupts, settle (the final in-place
 * permutation), and the agreement on one error class for all processes.
 */
#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "ompi/constants.h"
#include "ompi/mca/coll/coll.h"
#include "ompi/mca/pml/pml.h"
#include "ompi/mca/redist/base/base.h"
#include "ompi/mca/redist/base/redist_base_private.h"
#include "ompi/op/op.h"

void ompi_redist_base_begin(ompi_redist_t *rd)
{
    redist_slots_begin(&rd->sl);
}

/* Every wait of execute: for all n requests, or until another process
 * says it failed (then OMPI_REDIST_PEER_FAILED; the requests stay for
 * ompi_redist_base_abort).  A process that failed cannot complete its part of the
 * schedule, so its peers must not wait for it. */
static int wait_all(ompi_redist_t *rd, int n, ompi_request_t **reqs)
{
    int done = 0, rc;
    if (n <= 0) {
        return OMPI_SUCCESS;
    }
    for (;;) {
        rc = ompi_request_test_all(n, reqs, &done, MPI_STATUSES_IGNORE);
        if (OMPI_SUCCESS != rc || done) {
            return rc;
        }
        if (REQUEST_COMPLETE(rd->abort_req)) {
            return OMPI_REDIST_PEER_FAILED;
        }
    }
}

int ompi_redist_base_wait_any(ompi_redist_t *rd, int n, ompi_request_t **reqs, int *idx)
{
    int done = 0, rc;
    for (;;) {
        rc = ompi_request_test_any(n, reqs, idx, &done, MPI_STATUS_IGNORE);
        if (OMPI_SUCCESS != rc || done) {
            return rc;
        }
        if (REQUEST_COMPLETE(rd->abort_req)) {
            return OMPI_REDIST_PEER_FAILED;
        }
    }
}


static void settle_copy(void *ctx, int dst, int src)
{
    ompi_redist_t *rd = ctx;
    ompi_redist_base_copy(rd, dst < 0 ? ompi_redist_base_stage(rd, 0) : ompi_redist_base_slot(rd, dst),
                          src < 0 ? ompi_redist_base_stage(rd, 0) : ompi_redist_base_slot(rd, src));
}

void ompi_redist_base_settle(ompi_redist_t *rd)
{
    /* the free set is not needed any more: its index is the scratch */
    redist_slots_settle(&rd->sl, rd->sl.free_at, settle_copy, rd);
}

/* --- a failure in execute --- */

/* Receive and drop one message that waits at this process, if any: while
 * it completes its own requests after a failure, a process takes what
 * others still send it, so that their sends complete too. */
static void drop_one(ompi_redist_t *rd)
{
    ompi_status_public_t st;
    int flag = 0;
    void *junk;
    if (OMPI_SUCCESS != MCA_PML_CALL(iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, rd->comm, &flag, &st))
        || !flag) {
        return;
    }
    junk = malloc(st._ucount > 0 ? st._ucount : 1);
    if (NULL != junk) {
        (void) MCA_PML_CALL(recv(junk, st._ucount, &ompi_mpi_byte.dt, st.MPI_SOURCE, st.MPI_TAG,
                                 rd->comm, MPI_STATUS_IGNORE));
        free(junk);
    }
}

/* Complete the n requests (NULL entries are done), dropping what arrives
 * meanwhile. */
static void drain(ompi_redist_t *rd, int n, ompi_request_t **reqs)
{
    int i;
    for (i = 0; i < n; i++) {
        while (!REQUEST_COMPLETE(reqs[i])) {
            drop_one(rd);
            opal_progress();
        }
        if (&ompi_request_null.request != reqs[i]) {
            (void) ompi_request_wait(&reqs[i], MPI_STATUS_IGNORE);
        }
    }
}

int ompi_redist_base_wait(ompi_redist_t *rd, int n, ompi_request_t **reqs)
{
    return wait_all(rd, n, reqs);
}

void ompi_redist_base_abort(ompi_redist_t *rd, int rc, int n, ompi_request_t **reqs)
{
    int q, i, nb = rd->request_limit + 4;
    if (OMPI_SUCCESS == rc) {
        return;
    }
    /* this process failed: tell every other one, once (the word is small:
     * these sends complete without a matching receive) */
    if (OMPI_REDIST_PEER_FAILED != rc && 0 == rd->abort_out) {
        rd->abort_out = ompi_redist_base_mpi_class(rc);
        for (q = 0; q < rd->nprocs; q++) {
            if (q != rd->me
                && OMPI_SUCCESS != MCA_PML_CALL(isend(&rd->abort_out, 1, DT_INT, q, TAG_ABORT,
                                                      MCA_PML_BASE_SEND_STANDARD, rd->comm,
                                                      &rd->tell[q]))) {
                rd->tell[q] = &ompi_request_null.request;
            }
        }
    }
    /* withdraw the receives no message matched yet; complete the rest,
     * so that no request stays posted on the buffer or this structure */
    for (i = 0; i < nb; i++) {
        (void) ompi_request_cancel(rd->reqs[i]);
    }
    for (i = 0; i < rd->nprocs; i++) {
        (void) ompi_request_cancel(rd->tok_reqs[i]);
    }
    for (i = 0; i < n; i++) {
        (void) ompi_request_cancel(reqs[i]);
    }
    drain(rd, nb, rd->reqs);
    drain(rd, rd->nprocs, rd->tok_reqs);
    drain(rd, n, reqs);
}

int ompi_redist_base_fault_hit(void)
{
    static int posts;
    return 0 != ompi_redist_base_fault_post && ++posts == ompi_redist_base_fault_post;
}

int ompi_redist_base_sum(ompi_redist_t *rd, const int *in, int *out, int n, int failed)
{
    ompi_request_t *req = &ompi_request_null.request;
    int rc = rd->comm->c_coll->coll_iallreduce(in, out, n, DT_INT, &ompi_mpi_op_sum.op, rd->comm,
                                               &req, rd->comm->c_coll->coll_iallreduce_module);
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    if (failed) {
        drain(rd, 1, &req);
        return OMPI_SUCCESS;
    }
    /* every request of this step completed here, so every message to
     * this process in it was received: nothing to drop */
    return ompi_request_wait(&req, MPI_STATUS_IGNORE);
}

/* The end of every execute: every process learns the largest error class
 * of all (one small nonblocking allreduce, during which a process drops
 * what failed peers still send it), so each returns the same one. */
static int finish_execute(ompi_redist_t *rd, int rc)
{
    int mine, all = 0;
    ompi_request_t *req = &ompi_request_null.request;

    ompi_redist_base_abort(rd, rc, 0, NULL);
    mine = rd->abort_out;   /* 0 unless this process failed */
    if (OMPI_SUCCESS != rd->comm->c_coll->coll_iallreduce(&mine, &all, 1, DT_INT,
                                                          &ompi_mpi_op_max.op, rd->comm, &req,
                                                          rd->comm->c_coll->coll_iallreduce_module)) {
        all = MPI_ERR_INTERN;
    } else if (OMPI_SUCCESS == rc) {
        /* everything sent here was received: nothing to drop */
        (void) ompi_request_wait(&req, MPI_STATUS_IGNORE);
    } else {
        drain(rd, 1, &req);
    }
    drain(rd, rd->nprocs, rd->tell);
    /* the word of a failed peer: received by now if one was sent here */
    (void) ompi_request_cancel(rd->abort_req);
    drain(rd, 1, &rd->abort_req);
    if (0 != all) {
        rd->broken = 1;   /* blocks are anywhere: see the README */
    }
    return all;
}

int ompi_redist_execute(ompi_redist_t *rd)
{
    int i, rc;
    if (rd->broken) {
        return MPI_ERR_OTHER;   /* every process knows: they agreed it failed */
    }
    for (i = 0; i < rd->request_limit + 4; i++) {
        rd->reqs[i] = &ompi_request_null.request;
    }
    for (i = 0; i < rd->nprocs; i++) {
        rd->tok_reqs[i] = rd->tell[i] = &ompi_request_null.request;
    }
    rd->abort_out = 0;
    rc = MCA_PML_CALL(irecv(&rd->abort_in, 1, DT_INT, MPI_ANY_SOURCE, TAG_ABORT, rd->comm,
                            &rd->abort_req));
    if (OMPI_SUCCESS != rc) {
        rd->abort_req = &ompi_request_null.request;
    } else {
        ompi_redist_base_begin(rd);
        rc = rd->component->module->execute(rd);
    }
    return finish_execute(rd, rc);
}

