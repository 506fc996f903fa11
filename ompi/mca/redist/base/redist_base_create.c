/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Redistributor life cycle: validation (one error class on every
 * process), each process's view of the map, the moves components are made
 * of, and the final in-place permutation.
 */
#include "ompi_config.h"

#include <stdlib.h>
#include <limits.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>

#include "mpi.h"
#include "ompi/constants.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/mca/coll/coll.h"
#include "ompi/mca/pml/pml.h"
#include "ompi/mca/redist/base/base.h"
#include "ompi/op/op.h"
#include "opal/util/output.h"
#include "opal/util/show_help.h"

#define TAG_DATA 1
#define TAG_READY 2

#define DT_INT (&ompi_mpi_int.dt)

static int allreduce_max(ompi_communicator_t *comm, int *v, int n)
{
    return comm->c_coll->coll_allreduce(MPI_IN_PLACE, v, n, DT_INT, &ompi_mpi_op_max.op, comm,
                                        comm->c_coll->coll_allreduce_module);
}

int ompi_redist_base_agree(ompi_redist_t *rd, int rc)
{
    int v = OMPI_SUCCESS == rc ? 0 : (rc < 0 ? -rc : rc);
    if (OMPI_SUCCESS != allreduce_max(rd->comm, &v, 1)) {
        return OMPI_ERROR;
    }
    return 0 == v ? OMPI_SUCCESS : -v;
}

void *ompi_redist_base_alloc(ompi_redist_t *rd, size_t n)
{
    void *p;
    if (0 != ompi_redist_base_max_extra_bytes
        && rd->extra_bytes + n > ompi_redist_base_max_extra_bytes) {
        return NULL;
    }
    p = calloc(1, n > 0 ? n : 1);
    if (NULL != p) {
        rd->extra_bytes += n;
    }
    return p;
}

void ompi_redist_base_begin(ompi_redist_t *rd)
{
    redist_slots_begin(&rd->sl);
}

static int wait_reqs(ompi_redist_t *rd, int n)
{
    return n > 0 ? ompi_request_wait_all(n, rd->reqs, MPI_STATUSES_IGNORE) : OMPI_SUCCESS;
}

/* Stage k (0 or 1) as a block address. */
static inline char *stage_block(const ompi_redist_t *rd, int k)
{
    return rd->stage + (ptrdiff_t) k * (ptrdiff_t) rd->span - rd->span_lb;
}

/* A receive of more blocks than the request limit (one block per
 * message): in windows of request_limit, each announced to the sender
 * once its receives are posted (so no block waits unexpected here). */
static int recv_windows(ompi_redist_t *rd, const redist_action_t *a, int dry)
{
    int n = a->n, w, i, rc, p = a->peer;
    while (n > 0) {
        w = n < rd->request_limit ? n : rd->request_limit;
        if (0 != redist_slots_take_recv(&rd->sl, a, w, rd->land)) {
            return OMPI_ERR_BAD_PARAM;   /* a schedule that overfills this process */
        }
        n -= w;
        if (dry) {
            continue;
        }
        for (i = 0; i < w; i++) {
            rc = MCA_PML_CALL(irecv(ompi_redist_base_slot(rd, rd->land[i]), rd->count, rd->type,
                                    p, TAG_DATA, rd->comm, &rd->reqs[i]));
            if (OMPI_SUCCESS != rc) {
                (void) wait_reqs(rd, i);
                return rc;
            }
        }
        rc = MCA_PML_CALL(send(&w, 1, DT_INT, p, TAG_READY, MCA_PML_BASE_SEND_STANDARD,
                               rd->comm));
        if (OMPI_SUCCESS != rc || OMPI_SUCCESS != (rc = wait_reqs(rd, w))) {
            return rc;
        }
    }
    return OMPI_SUCCESS;
}

/* A cycle, a->n blocks to a->peer while a->n come from a->peer2 (no free
 * slot; redist_slots_cycle_step says where each lands).  Block j is
 * copied into stage j % 2 and sent from there, so its slot is vacant at
 * once; two blocks in flight per process.  The stage copy is of a block
 * about to be sent, so the send reads it from cache.  Extra data memory:
 * two blocks. */
static int cycle(ompi_redist_t *rd, const redist_action_t *a, int dry)
{
    int j, rc = OMPI_SUCCESS, s, n = a->n, next = a->peer, prev = a->peer2;
    ompi_request_t **rq = rd->reqs;   /* [2k]: a receive, [2k+1]: a send from stage k */
    int landed[2] = {-1, -1}, target[2] = {-1, -1};   /* through pair k */

    for (j = 0; j < n; j++) {
        int k = j % 2, land;
        if (j >= 2 && !dry) {
            rc = ompi_request_wait_all(2, &rq[2 * k], MPI_STATUSES_IGNORE);
            if (OMPI_SUCCESS != rc) {
                return rc;
            }
        }
        if (j >= 2) {
            redist_slots_cycle_landed(&rd->sl, landed[k], target[k]);
        }
        land = redist_slots_cycle_step(&rd->sl, next, prev, &s);
        if (land < 0) {
            return OMPI_ERR_BAD_PARAM;
        }
        landed[k] = land;
        target[k] = rd->sl.in_slot[rd->sl.in_off[prev] + rd->sl.in_next[prev] - 1];
        if (dry) {
            continue;
        }
        ompi_redist_base_copy(rd, stage_block(rd, k), ompi_redist_base_slot(rd, s));
        rc = MCA_PML_CALL(irecv(ompi_redist_base_slot(rd, land), rd->count, rd->type, prev,
                                TAG_DATA, rd->comm, &rq[2 * k]));
        if (OMPI_SUCCESS != rc) {
            return rc;
        }
        rc = MCA_PML_CALL(isend(stage_block(rd, k), rd->count, rd->type, next, TAG_DATA,
                                MCA_PML_BASE_SEND_STANDARD, rd->comm, &rq[2 * k + 1]));
        if (OMPI_SUCCESS != rc) {
            (void) ompi_request_wait_all(1, &rq[2 * k], MPI_STATUSES_IGNORE);
            return rc;
        }
    }
    /* the last (at most two) pairs, oldest first */
    for (j = n - (n < 2 ? n : 2); j < n; j++) {
        int k = j % 2;
        if (!dry && OMPI_SUCCESS != (rc = ompi_request_wait_all(2, &rq[2 * k],
                                                                MPI_STATUSES_IGNORE))) {
            return rc;
        }
        redist_slots_cycle_landed(&rd->sl, landed[k], target[k]);
    }
    if (!dry) {
        ompi_redist_base_count_blocks(rd, (unsigned long long) n);
        ompi_redist_base_count(REDIST_STAT_CYCLES, 1);
    }
    return OMPI_SUCCESS;
}

static void settle_copy(void *ctx, int dst, int src)
{
    ompi_redist_t *rd = ctx;
    ompi_redist_base_copy(rd, dst < 0 ? stage_block(rd, 0) : ompi_redist_base_slot(rd, dst),
                          src < 0 ? stage_block(rd, 0) : ompi_redist_base_slot(rd, src));
}

void ompi_redist_base_settle(ompi_redist_t *rd)
{
    /* the free set is not needed any more: its index is the scratch */
    redist_slots_settle(&rd->sl, rd->sl.free_at, settle_copy, rd);
}

/* One message per action (aggregate): an indexed-block datatype over the
 * slots the action sends from or lands in, built by create's dry run.  A
 * rank's slots move only through its own actions, in its own order, and
 * the free slots are taken and returned in that order too, so the dry run
 * finds the very slots execute will use. */
static int action_type(ompi_redist_t *rd, int idx, const int *slots, int n)
{
    ompi_datatype_t *dt = NULL;
    int rc;
    if (!rd->aggregate || 0 == rd->block_bytes || NULL == rd->block_type) {
        return OMPI_SUCCESS;   /* one block per message, or count-0 messages */
    }
    rc = ompi_datatype_create_indexed_block(n, 1, slots, rd->block_type, &dt);
    if (OMPI_SUCCESS == rc && OMPI_SUCCESS != (rc = ompi_datatype_commit(&dt))) {
        ompi_datatype_destroy(&dt);
    }
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    /* the type's description (32-byte elements in OPAL's datatype
     * engine): what it costs this redistributor */
    rd->extra_bytes += sizeof(*dt) + (size_t) (dt->super.desc.used + dt->super.opt_desc.used + 2)
                       * 32;
    rd->act_type[idx] = dt;
    if (0 != ompi_redist_base_max_extra_bytes
        && rd->extra_bytes > ompi_redist_base_max_extra_bytes) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    return OMPI_SUCCESS;
}

/* Consecutive sends of a process run at once: each starts when its
 * receiver says it is ready, in whatever order they say it.  Starting a
 * process's actions early never breaks the global-order argument (each
 * waits only on steps no later than its own), and a send frees slots, so
 * it needs none.  Every action's slots are taken in action order before
 * any is sent (two actions may draw on one out list: a send to q and a
 * parking of q's blocks elsewhere), and become free at the end of the
 * group, in action order (the dry run's order). */
static int send_group(ompi_redist_t *rd, const redist_action_t *a, int k, int first, int dry)
{
    int g, w, i, rc = OMPI_SUCCESS, active = 0, q;
    int left[REDIST_GROUP_MAX], sent[REDIST_GROUP_MAX];
    const int *gsl[REDIST_GROUP_MAX];

    if (0 != redist_slots_take_sends(&rd->sl, a, k, gsl)) {
        return OMPI_ERR_BAD_PARAM;   /* sends blocks this process does not have */
    }
    for (g = 0; g < k; g++) {
        left[g] = a[g].n;
        sent[g] = 0;
    }
    if (dry) {
        for (g = 0; g < k && OMPI_SUCCESS == rc; g++) {
            rc = action_type(rd, first + g, gsl[g], a[g].n);
        }
        goto frees;
    }
    for (g = 0; g < k && OMPI_SUCCESS == rc; g++) {
        rc = MCA_PML_CALL(irecv(&rd->tok_val[g], 1, DT_INT, a[g].peer, TAG_READY, rd->comm,
                                &rd->tok_reqs[g]));
        active += OMPI_SUCCESS == rc;
    }
    for (g = active; g < k; g++) {
        rd->tok_reqs[g] = &ompi_request_null.request;
    }
    while (active > 0) {
        int done = MPI_UNDEFINED;
        rc = ompi_request_wait_any(k, rd->tok_reqs, &done, MPI_STATUS_IGNORE);
        if (OMPI_SUCCESS != rc || MPI_UNDEFINED == done) {
            return OMPI_SUCCESS != rc ? rc : OMPI_ERROR;
        }
        q = a[done].peer;
        w = rd->tok_val[done];
        if (rd->aggregate) {
            if (w != a[done].n) {
                return OMPI_ERR_BAD_PARAM;   /* the processes disagree on the schedule */
            }
            /* q posted its receive: the send completes without us */
            ompi_redist_base_count_blocks(rd, (unsigned long long) w);
            rc = MCA_PML_CALL(isend(rd->buf, NULL == rd->act_type[first + done] ? 0 : 1,
                                    NULL == rd->act_type[first + done] ? rd->type
                                                                       : rd->act_type[first + done],
                                    q, TAG_DATA, MCA_PML_BASE_SEND_STANDARD, rd->comm,
                                    &rd->reqs[0]));
            if (OMPI_SUCCESS != rc || OMPI_SUCCESS != (rc = wait_reqs(rd, 1))) {
                return rc;
            }
        } else {
            if (w < 1 || w > rd->request_limit || w > left[done]) {
                return OMPI_ERR_BAD_PARAM;
            }
            for (i = 0; i < w; i++) {
                rc = MCA_PML_CALL(isend(ompi_redist_base_slot(rd, gsl[done][sent[done] + i]),
                                        rd->count, rd->type, q, TAG_DATA,
                                        rd->ready_sends ? MCA_PML_BASE_SEND_READY
                                                        : MCA_PML_BASE_SEND_STANDARD,
                                        rd->comm, &rd->reqs[i]));
                if (OMPI_SUCCESS != rc) {
                    (void) wait_reqs(rd, i);
                    return rc;
                }
            }
            if (OMPI_SUCCESS != (rc = wait_reqs(rd, w))) {
                return rc;
            }
            ompi_redist_base_count_blocks(rd, (unsigned long long) w);
        }
        sent[done] += w;
        left[done] -= w;
        if (left[done] > 0) {
            rc = MCA_PML_CALL(irecv(&rd->tok_val[done], 1, DT_INT, q, TAG_READY, rd->comm,
                                    &rd->tok_reqs[done]));
            if (OMPI_SUCCESS != rc) {
                return rc;
            }
        } else {
            active--;
        }
    }
frees:
    for (g = 0; g < k; g++) {
        redist_slots_sent(&rd->sl, gsl[g], a[g].n);
    }
    return rc;
}

/* Consecutive receives that fit in the free slots (and, one block per
 * message, in the request limit) at once: every receive posted, every
 * sender told, one wait. */
static int recv_group(ompi_redist_t *rd, const redist_action_t *a, int k, int first, int dry)
{
    int g, i, rc = OMPI_SUCCESS, nreq = 0, *land = rd->land;
    if (0 != redist_slots_take_recvs(&rd->sl, a, k, rd->land)) {
        return OMPI_ERR_BAD_PARAM;   /* a schedule that overfills this process */
    }
    for (g = 0; g < k; land += a[g].n, g++) {
        int p = a[g].peer;
        if (dry) {
            if (OMPI_SUCCESS != (rc = action_type(rd, first + g, land, a[g].n))) {
                return rc;
            }
            continue;
        }
        if (REDIST_ACT_RECV_PARK == a[g].op) {
            ompi_redist_base_count(REDIST_STAT_PARKED, (unsigned long long) a[g].n);
        }
        if (rd->aggregate) {
            ompi_datatype_t *dt = rd->act_type[first + g];
            rc = MCA_PML_CALL(irecv(rd->buf, NULL == dt ? 0 : 1, NULL == dt ? rd->type : dt, p,
                                    TAG_DATA, rd->comm, &rd->reqs[nreq]));
            nreq += OMPI_SUCCESS == rc;
        } else {
            for (i = 0; i < a[g].n && OMPI_SUCCESS == rc; i++) {
                rc = MCA_PML_CALL(irecv(ompi_redist_base_slot(rd, land[i]), rd->count, rd->type,
                                        p, TAG_DATA, rd->comm, &rd->reqs[nreq]));
                nreq += OMPI_SUCCESS == rc;
            }
        }
        if (OMPI_SUCCESS == rc) {
            rc = MCA_PML_CALL(send(&a[g].n, 1, DT_INT, p, TAG_READY, MCA_PML_BASE_SEND_STANDARD,
                                   rd->comm));
        }
        if (OMPI_SUCCESS != rc) {
            (void) wait_reqs(rd, nreq);
            return rc;
        }
    }
    return wait_reqs(rd, nreq);
}

static int run_actions(ompi_redist_t *rd, int dry)
{
    const redist_int_list_t *l = rd->sched;
    int i, j, kind, rc = OMPI_SUCCESS, nact = l->n / 4;
    const redist_action_t *act = (const redist_action_t *) l->v;

    for (i = 0; i < nact && OMPI_SUCCESS == rc; i = j) {
        j = redist_slots_group(act, nact, i, rd->aggregate, rd->request_limit, rd->sl.nfree,
                               &kind);
        switch (kind) {
        case REDIST_GROUP_SEND:
            rc = send_group(rd, &act[i], j - i, i, dry);
            break;
        case REDIST_GROUP_RECV:
            rc = recv_group(rd, &act[i], j - i, i, dry);
            break;
        case REDIST_GROUP_RECV_WINDOWS:
            rc = recv_windows(rd, &act[i], dry);
            break;
        case REDIST_GROUP_CYCLE:
            rc = cycle(rd, &act[i], dry);
            break;
        default:
            rc = OMPI_ERR_BAD_PARAM;   /* an action this interpreter cannot run */
        }
    }
    if (!dry) {
        ompi_redist_base_count(REDIST_STAT_ROUNDS, (unsigned long long) nact);
        if (OMPI_SUCCESS == rc) {
            ompi_redist_base_settle(rd);
        }
    }
    return rc;
}

int ompi_redist_base_run_actions(ompi_redist_t *rd)
{
    return run_actions(rd, 0);
}

void ompi_redist_base_free_sched(ompi_redist_t *rd)
{
    free(rd->sched);
    rd->sched = NULL;
}

int ompi_redist_base_prepare_actions(ompi_redist_t *rd, int aggregate)
{
    const redist_int_list_t *l = rd->sched;
    int rc = OMPI_SUCCESS, nact = l->n / 4;
    rd->aggregate = aggregate;
    if (aggregate) {
        rd->nact_type = nact;
        rd->act_type = ompi_redist_base_alloc(rd, sizeof(ompi_datatype_t *) * (nact + 1));
        rc = NULL == rd->act_type ? OMPI_ERR_OUT_OF_RESOURCE : OMPI_SUCCESS;
        if (OMPI_SUCCESS == rc && rd->block_bytes > 0) {
            rc = ompi_datatype_create_contiguous(rd->count, rd->type, &rd->block_type);
            if (OMPI_SUCCESS == rc) {
                rc = ompi_datatype_commit(&rd->block_type);
            }
        }
    }
    if (OMPI_SUCCESS == rc) {
        ompi_redist_base_begin(rd);
        rc = run_actions(rd, 1);
    }
    return ompi_redist_base_agree(rd, rc);
}

/* --- plans made on a root --- */

struct redist_plan_out_t {
    int *rank, *len;            /* per record */
    int *data;
    size_t nrec, caprec, ndata, capdata;
    int oom;
};

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
    size_t c = *cap ? *cap : 1024;
    void *x;
    if (need <= *cap) {
        return 0;
    }
    while (c < need) {
        c *= 2;
    }
    if (NULL == (x = realloc(*p, c * elem))) {
        return -1;
    }
    *p = x;
    *cap = c;
    return 0;
}

void ompi_redist_base_plan_emit(redist_plan_out_t *o, int rank, const int *v, int k)
{
    size_t cr = o->caprec;
    if (o->oom || 0 != grow((void **) &o->data, &o->capdata, o->ndata + k, sizeof(int))
        || 0 != grow((void **) &o->rank, &cr, o->nrec + 1, sizeof(int))
        || 0 != grow((void **) &o->len, &o->caprec, o->nrec + 1, sizeof(int))) {
        o->oom = 1;
        return;
    }
    memcpy(o->data + o->ndata, v, sizeof(int) * k);
    o->ndata += k;
    o->rank[o->nrec] = rank;
    o->len[o->nrec++] = k;
}

int ompi_redist_base_root_plan(ompi_redist_t *rd, const int *mine, int nmine,
                               redist_plan_fn_t plan, void *ctx)
{
    ompi_communicator_t *comm = rd->comm;
    int n = rd->nprocs, q, rc = OMPI_SUCCESS, nget = 0;
    int *cnt = NULL, *displ = NULL, *all = NULL, *sendbuf = NULL, *fill = NULL;
    size_t i, at;
    redist_plan_out_t o = {0};
    redist_int_list_t *l = NULL;

    if (0 == rd->me) {
        cnt = malloc(sizeof(int) * n);
        displ = malloc(sizeof(int) * (n + 1));
        fill = calloc(n, sizeof(int));
        rc = (NULL == cnt || NULL == displ || NULL == fill) ? OMPI_ERR_OUT_OF_RESOURCE : rc;
    }
    if (OMPI_SUCCESS == (rc = ompi_redist_base_agree(rd, rc))) {
        rc = comm->c_coll->coll_gather(&nmine, 1, DT_INT, cnt, 1, DT_INT, 0, comm,
                                       comm->c_coll->coll_gather_module);
    }
    if (OMPI_SUCCESS == rc && 0 == rd->me) {
        displ[0] = 0;
        for (q = 0; q < n; q++) {
            displ[q + 1] = displ[q] + cnt[q];
        }
        all = malloc(sizeof(int) * ((size_t) displ[n] + 1));
        rc = NULL == all ? OMPI_ERR_OUT_OF_RESOURCE : rc;
    }
    if (OMPI_SUCCESS == (rc = ompi_redist_base_agree(rd, rc))) {
        rc = comm->c_coll->coll_gatherv(mine, nmine, DT_INT, all, cnt, displ, DT_INT, 0, comm,
                                        comm->c_coll->coll_gatherv_module);
    }
    if (OMPI_SUCCESS == rc && 0 == rd->me) {
        rc = plan(n, all, displ, &o, ctx);
        if (o.oom) {
            rc = OMPI_ERR_OUT_OF_RESOURCE;
        }
        if (OMPI_SUCCESS == rc) {
            /* each process's records, in the order they were made */
            memset(cnt, 0, sizeof(int) * n);
            for (i = 0; i < o.nrec; i++) {
                cnt[o.rank[i]] += o.len[i];
            }
            displ[0] = 0;
            for (q = 0; q < n; q++) {
                displ[q + 1] = displ[q] + cnt[q];
            }
            sendbuf = malloc(sizeof(int) * ((size_t) displ[n] + 1));
            if (NULL == sendbuf) {
                rc = OMPI_ERR_OUT_OF_RESOURCE;
            } else {
                for (i = 0, at = 0; i < o.nrec; at += o.len[i], i++) {
                    memcpy(sendbuf + displ[o.rank[i]] + fill[o.rank[i]], o.data + at,
                           sizeof(int) * o.len[i]);
                    fill[o.rank[i]] += o.len[i];
                }
            }
        }
    }
    free(all);
    free(o.rank);
    free(o.len);
    free(o.data);
    if (OMPI_SUCCESS == (rc = ompi_redist_base_agree(rd, rc))) {
        rc = comm->c_coll->coll_scatter(cnt, 1, DT_INT, &nget, 1, DT_INT, 0, comm,
                                        comm->c_coll->coll_scatter_module);
    }
    if (OMPI_SUCCESS == rc) {
        l = ompi_redist_base_alloc(rd, sizeof(*l) + sizeof(int) * (size_t) nget);
        rc = NULL == l ? OMPI_ERR_OUT_OF_RESOURCE : OMPI_SUCCESS;
    }
    if (OMPI_SUCCESS == (rc = ompi_redist_base_agree(rd, rc))) {
        rc = comm->c_coll->coll_scatterv(sendbuf, cnt, displ, DT_INT, l->v, nget, DT_INT, 0,
                                         comm, comm->c_coll->coll_scatterv_module);
        l->n = nget;
        rd->sched = l;
    } else {
        free(l);
    }
    free(cnt);
    free(displ);
    free(fill);
    free(sendbuf);
    return ompi_redist_base_agree(rd, rc);
}

/* --- life cycle --- */

/* The arrays create allocated (NULL where it did not get that far). */
static void rd_free_arrays(ompi_redist_t *rd)
{
    void *arrays[] = {rd->sl.home, rd->sl.out_off, rd->sl.out_slot, rd->sl.in_off, rd->sl.in_slot,
                      rd->sl.held, rd->sl.free_list, rd->sl.free_at, rd->sl.out_next, rd->sl.in_next,
                      rd->land, rd->sl.park_slot, rd->sl.batch_off, rd->sl.batch_next, rd->stage,
                      rd->tok_reqs, rd->tok_val, rd->reqs};
    size_t k;
    for (k = 0; k < sizeof(arrays) / sizeof(arrays[0]); k++) {
        free(arrays[k]);
    }
}

static void rd_release(ompi_redist_t *rd)
{
    if (NULL != rd->component && NULL != rd->sched) {
        rd->component->module->release(rd);
    }
    rd_free_arrays(rd);
    if (NULL != rd->act_type) {
        int i;
        for (i = 0; i < rd->nact_type; i++) {
            if (NULL != rd->act_type[i]) {
                ompi_datatype_destroy(&rd->act_type[i]);
            }
        }
        free(rd->act_type);
    }
    if (NULL != rd->block_type) {
        ompi_datatype_destroy(&rd->block_type);
    }
    if (NULL != rd->comm) {
        ompi_comm_free(&rd->comm);
    }
    if (NULL != rd->type) {
        OBJ_RELEASE(rd->type);
    }
    if (NULL != rd->user_comm) {
        OBJ_RELEASE(rd->user_comm);
    }
    free(rd);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

static int mpi_class(int rc)
{
    switch (rc) {
    case OMPI_SUCCESS:
        return MPI_SUCCESS;
    case OMPI_ERR_OUT_OF_RESOURCE:
    case OMPI_ERR_TEMP_OUT_OF_RESOURCE:
        return MPI_ERR_NO_MEM;
    case OMPI_ERR_NOT_SUPPORTED:
        return MPI_ERR_OTHER;
    case OMPI_ERR_BAD_PARAM:
        return MPI_ERR_ARG;
    default:
        return rc > 0 ? rc : MPI_ERR_INTERN;
    }
}

/* Say what is wrong, on the process that sees it, unless the program
 * handles errors itself (MPI_ERRORS_RETURN). */
static void fault(ompi_communicator_t *comm, int *err, int cls, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    if (0 != *err) {
        return;
    }
    *err = cls;
    if (comm->error_handler != &ompi_mpi_errors_return.eh) {
        va_start(ap, fmt);
        vsnprintf(msg, sizeof(msg), fmt, ap);
        va_end(ap);
        opal_show_help("help-redist-base.txt", "bad-map", true, ompi_comm_rank(comm),
                       comm->c_name, msg);
    }
}

int ompi_redist_create(void *buf, int nslots, int count, ompi_datatype_t *type,
                       const int dest_rank[], const int dest_slot[], opal_info_t *info,
                       ompi_communicator_t *comm, ompi_redist_t **rdp)
{
    const mca_redist_base_component_t *comp = ompi_redist_base_default;
    double t0 = now();
    int n = ompi_comm_size(comm), me = ompi_comm_rank(comm), err = 0, i, q, flag = 0, rc;
    int v[8], nout = 0, nin, *outc = NULL, *sendslot = NULL, id = 0;
    char *mark = NULL;
    ptrdiff_t lb = 0, ext = 0, tlb = 0, text = 0;
    size_t tsize = 0;
    char name[64];
    ompi_redist_t *rd;
    mca_base_component_list_item_t *cli;

    *rdp = NULL;
    rd = calloc(1, sizeof(*rd));
    if (NULL == rd) {
        return MPI_ERR_NO_MEM;   /* nothing collective is possible without it */
    }
    rd->nprocs = n;
    rd->me = me;
    rd->request_limit = ompi_redist_base_request_limit;

    /* 1. what this process can check alone */
    if (!mca_base_framework_is_open(&ompi_redist_base_framework)) {
        fault(comm, &err, MPI_ERR_UNSUPPORTED_OPERATION, "the redist framework did not open "
              "in MPI_Init (see the message printed then)");
    } else if (NULL != info) {
        (void) opal_info_get(info, "redist_component", sizeof(name) - 1, name, &flag);
        if (flag) {
            comp = ompi_redist_base_find(name);
            if (NULL == comp) {
                fault(comm, &err, MPI_ERR_INFO_VALUE, "no redist component is open with the "
                      "name the info key redist_component gives");
            }
        }
    }
    if (NULL == comp && 0 == err) {
        fault(comm, &err, MPI_ERR_UNSUPPORTED_OPERATION, "no redist component is available "
              "(see --mca redist and ompi_info)");
    }
    if (nslots < 0 || count < 0) {
        fault(comm, &err, MPI_ERR_COUNT, "negative nblocks (%d) or count (%d)", nslots, count);
    } else {
        ompi_datatype_get_extent(type, &lb, &ext);
        ompi_datatype_get_true_extent(type, &tlb, &text);
        ompi_datatype_type_size(type, &tsize);
        rd->stride = (ptrdiff_t) count * ext;
        rd->block_bytes = (size_t) count * tsize;
        rd->span_lb = tlb;
        rd->span = count > 0 ? (size_t) ((count - 1) * ext + text) : 0;
        if (count > 0 && tsize > 0
            && (ext <= 0 || tlb < 0 || tlb + (ptrdiff_t) rd->span > rd->stride)) {
            fault(comm, &err, MPI_ERR_TYPE, "a block of count elements of this datatype "
                  "reaches outside its slot (lower bound %d, extent %d)", (int) tlb,
                  (int) ext);
        } else if (nslots > 0 && rd->block_bytes > 0 && NULL == buf) {
            fault(comm, &err, MPI_ERR_BUFFER, "buf is NULL with %d blocks of %d bytes",
                  nslots, (int) rd->block_bytes);
        } else if (nslots > 0 && (NULL == dest_rank || NULL == dest_slot)) {
            fault(comm, &err, MPI_ERR_ARG, "dest_rank or dest_slot is NULL");
        }
    }
    for (i = 0; 0 == err && i < nslots; i++) {
        if (REDIST_FREE_RANK == dest_rank[i]) {
            continue;
        }
        if (dest_rank[i] < 0 || dest_rank[i] >= n) {
            fault(comm, &err, MPI_ERR_RANK, "dest_rank[%d] = %d is out of range", i,
                  dest_rank[i]);
        } else if (dest_slot[i] < 0) {
            fault(comm, &err, MPI_ERR_ARG, "dest_slot[%d] = %d is negative", i, dest_slot[i]);
        }
    }
    if (NULL != comp) {
        OPAL_LIST_FOREACH (cli, &ompi_redist_base_framework.framework_components,
                           mca_base_component_list_item_t) {
            id++;
            if (cli->cli_component == &comp->base_version) {
                break;
            }
        }
    }
    v[0] = err;
    v[1] = (int) rd->block_bytes;
    v[2] = -(int) rd->block_bytes;
    v[3] = id;
    v[4] = -id;
    v[5] = (0 == err && rd->block_bytes > (size_t) INT_MAX);
    v[6] = rd->request_limit;
    v[7] = -rd->request_limit;
    if (OMPI_SUCCESS != allreduce_max(comm, v, 8)) {
        free(rd);
        return MPI_ERR_INTERN;
    }
    if (0 == v[0] && (v[1] != -v[2] || v[5])) {
        fault(comm, &err, MPI_ERR_TYPE, "blocks differ in size between processes (%d to "
              "%d bytes)", -v[2], v[1]);
        v[0] = MPI_ERR_TYPE;
    }
    if (0 == v[0] && v[3] != -v[4]) {
        fault(comm, &err, MPI_ERR_INFO_VALUE, "processes chose different redist components "
              "(info key redist_component)");
        v[0] = MPI_ERR_INFO_VALUE;
    }
    if (0 == v[0] && v[6] != -v[7]) {
        /* execute's windows and token checks assume one limit everywhere */
        fault(comm, &err, MPI_ERR_OTHER, "processes set different redist_base_request_limit "
              "values (%d to %d): set the same value on every process", -v[7], v[6]);
        v[0] = MPI_ERR_OTHER;
    }
    if (0 != v[0]) {
        free(rd);
        return v[0];
    }

    /* 2. this process's view of the map: out lists, then each receiver
     * learns the target slots of its incoming blocks and checks them */
    rd->buf = buf;
    rd->nslots = rd->sl.nslots = nslots;
    rd->sl.nprocs = n;
    rd->count = count;
    rd->sl.home = ompi_redist_base_alloc(rd, sizeof(int) * (nslots + 1));
    rd->sl.out_off = ompi_redist_base_alloc(rd, sizeof(int) * (n + 1));
    rd->sl.in_off = ompi_redist_base_alloc(rd, sizeof(int) * (n + 1));
    outc = calloc(n + 1, sizeof(int));
    mark = calloc(nslots + 1, 1);
    rc = (NULL == rd->sl.home || NULL == rd->sl.out_off || NULL == rd->sl.in_off || NULL == outc
          || NULL == mark) ? MPI_ERR_NO_MEM : 0;
    if (0 == rc) {
        for (i = 0; i < nslots; i++) {
            if (REDIST_FREE_RANK == dest_rank[i]) {
                rd->sl.home[i] = REDIST_EMPTY;
            } else {
                rd->nlive++;
                if (dest_rank[i] == me) {
                    rd->sl.home[i] = dest_slot[i];
                } else {
                    rd->sl.home[i] = REDIST_OUT;
                    outc[dest_rank[i]]++;
                    nout++;
                }
            }
        }
        rd->sl.out_slot = ompi_redist_base_alloc(rd, sizeof(int) * (nout + 1));
        sendslot = malloc(sizeof(int) * (nout + 1));
        rc = (NULL == rd->sl.out_slot || NULL == sendslot) ? MPI_ERR_NO_MEM : 0;
    }
    v[0] = rc;
    if (OMPI_SUCCESS != allreduce_max(comm, v, 1) || 0 != v[0]) {
        rc = 0 != v[0] ? v[0] : MPI_ERR_INTERN;
        goto out;
    }
    rd->sl.out_off[0] = 0;
    for (q = 0; q < n; q++) {
        rd->sl.out_off[q + 1] = rd->sl.out_off[q] + outc[q];
        outc[q] = 0;
    }
    for (i = 0; i < nslots; i++) {
        if (REDIST_OUT == rd->sl.home[i]) {
            q = dest_rank[i];
            rd->sl.out_slot[rd->sl.out_off[q] + outc[q]] = i;
            sendslot[rd->sl.out_off[q] + outc[q]++] = dest_slot[i];
        }
    }
    rc = comm->c_coll->coll_alltoall(outc, 1, DT_INT, rd->sl.in_off + 1, 1, DT_INT, comm,
                                     comm->c_coll->coll_alltoall_module);
    if (OMPI_SUCCESS != rc) {
        rc = MPI_ERR_INTERN;
        goto out;
    }
    rd->sl.in_off[0] = 0;
    for (q = 0; q < n; q++) {
        int c = rd->sl.in_off[q + 1];
        rd->sl.in_off[q + 1] = rd->sl.in_off[q] + c;
        outc[q] = c;   /* now: blocks from q */
    }
    nin = rd->sl.in_off[n];
    rd->sl.in_slot = ompi_redist_base_alloc(rd, sizeof(int) * (nin + 1));
    v[0] = NULL == rd->sl.in_slot ? MPI_ERR_NO_MEM : 0;
    if (OMPI_SUCCESS != allreduce_max(comm, v, 1) || 0 != v[0]) {
        rc = 0 != v[0] ? v[0] : MPI_ERR_INTERN;
        goto out;
    }
    {
        int *scnt = malloc(sizeof(int) * n);
        rc = NULL == scnt ? OMPI_ERR_OUT_OF_RESOURCE : OMPI_SUCCESS;
        if (NULL != scnt) {
            for (q = 0; q < n; q++) {
                scnt[q] = rd->sl.out_off[q + 1] - rd->sl.out_off[q];
            }
            rc = comm->c_coll->coll_alltoallv(sendslot, scnt, rd->sl.out_off, DT_INT, rd->sl.in_slot,
                                              outc, rd->sl.in_off, DT_INT, comm,
                                              comm->c_coll->coll_alltoallv_module);
            free(scnt);
        }
    }
    err = 0;
    if (OMPI_SUCCESS != rc) {
        err = MPI_ERR_INTERN;
    }
    for (i = 0; 0 == err && i < nslots; i++) {
        if (rd->sl.home[i] >= 0) {
            if (rd->sl.home[i] >= nslots) {
                fault(comm, &err, MPI_ERR_ARG, "dest_slot[%d] = %d is beyond this process's "
                      "last slot", i, rd->sl.home[i]);
            } else if (mark[rd->sl.home[i]]++) {
                fault(comm, &err, MPI_ERR_ARG, "two blocks go to slot %d of rank %d",
                      rd->sl.home[i], me);
            }
        }
    }
    for (q = 0; 0 == err && q < n; q++) {
        for (i = rd->sl.in_off[q]; 0 == err && i < rd->sl.in_off[q + 1]; i++) {
            int t = rd->sl.in_slot[i];
            if (t >= nslots) {
                fault(comm, &err, MPI_ERR_ARG, "rank %d sends a block to slot %d, beyond "
                      "the receiver's last slot", q, t);
            } else if (mark[t]++) {
                fault(comm, &err, MPI_ERR_ARG, "two blocks go to slot %d of rank %d", t, me);
            }
        }
    }
    v[0] = err;
    if (OMPI_SUCCESS != allreduce_max(comm, v, 1) || 0 != v[0]) {
        rc = 0 != v[0] ? v[0] : MPI_ERR_INTERN;
        goto out;
    }

    /* 3. execution state, a private communicator, the component's schedule */
    rd->sl.held = ompi_redist_base_alloc(rd, sizeof(int) * (nslots + 1));
    rd->sl.free_list = ompi_redist_base_alloc(rd, sizeof(int) * (nslots + 1));
    rd->sl.free_at = ompi_redist_base_alloc(rd, sizeof(int) * (nslots + 1));
    rd->sl.out_next = ompi_redist_base_alloc(rd, sizeof(int) * n);
    rd->sl.in_next = ompi_redist_base_alloc(rd, sizeof(int) * n);
    rd->stage = ompi_redist_base_alloc(rd, 2 * rd->span);
    rd->tok_reqs = ompi_redist_base_alloc(rd, sizeof(ompi_request_t *) * n);
    rd->tok_val = ompi_redist_base_alloc(rd, sizeof(int) * 2 * n);
    rd->reqs = ompi_redist_base_alloc(rd, sizeof(ompi_request_t *) * (rd->request_limit + 4));
    rd->land = ompi_redist_base_alloc(rd, sizeof(int) * (nslots + 1));
    v[0] = (NULL == rd->land || NULL == rd->sl.held || NULL == rd->sl.free_list || NULL == rd->sl.free_at
            || NULL == rd->sl.out_next || NULL == rd->sl.in_next || NULL == rd->stage
            || NULL == rd->tok_reqs || NULL == rd->tok_val
            || NULL == rd->reqs) ? MPI_ERR_NO_MEM : 0;
    if (OMPI_SUCCESS != allreduce_max(comm, v, 1) || 0 != v[0]) {
        rc = 0 != v[0] ? v[0] : MPI_ERR_INTERN;
        goto out;
    }
    if (OMPI_SUCCESS != ompi_comm_dup(comm, &rd->comm)) {
        rd->comm = NULL;
        rc = MPI_ERR_INTERN;
        goto out;
    }
    OBJ_RETAIN(type);
    rd->type = type;
    OBJ_RETAIN(comm);
    rd->user_comm = comm;
    rd->component = comp;
    rd->dest_rank = dest_rank;
    rd->dest_slot = dest_slot;
    rc = mpi_class(comp->module->schedule(rd));
    rd->dest_rank = rd->dest_slot = NULL;
    if ((MPI_ERR_OTHER == rc || MPI_ERR_NO_MEM == rc) && 0 == me
        && comm->error_handler != &ompi_mpi_errors_return.eh) {
        opal_show_help("help-redist-base.txt", "no-schedule", true,
                       comp->base_version.mca_component_name, comm->c_name,
                       MPI_ERR_NO_MEM == rc ? "it needs more memory than it may use "
                       "(redist_base_max_extra_bytes) or than there is"
                       : "it cannot complete this map (no free slot where it needs one)");
    }
    opal_output_verbose(10, ompi_redist_base_framework.framework_output,
                        "redist: %s on %s: %d slots (%d live, %d out, %d in), %lu bytes "
                        "extra, rc %d", comp->base_version.mca_component_name, comm->c_name,
                        nslots, rd->nlive, nout, nin, (unsigned long) rd->extra_bytes, rc);

out:
    free(outc);
    free(sendslot);
    free(mark);
    if (MPI_SUCCESS != rc) {
        rd_release(rd);
        return rc;
    }
    ompi_redist_base_note_peak(rd->extra_bytes);
    ompi_redist_base_note_schedule_time(now() - t0);
    *rdp = rd;
    return MPI_SUCCESS;
}

int ompi_redist_execute(ompi_redist_t *rd)
{
    ompi_redist_base_begin(rd);
    return mpi_class(rd->component->module->execute(rd));
}

void ompi_redist_free(ompi_redist_t *rd)
{
    rd_release(rd);
}
