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
    int s;
    rd->nfree = 0;
    for (s = 0; s < rd->nslots; s++) {
        rd->held[s] = rd->home[s];
        rd->free_at[s] = -1;
        if (REDIST_EMPTY == rd->home[s]) {
            ompi_redist_base_put_free(rd, s);
        }
    }
    memset(rd->out_next, 0, sizeof(int) * rd->nprocs);
    memset(rd->in_next, 0, sizeof(int) * rd->nprocs);
    rd->npark = rd->nbatch = 0;
    if (NULL != rd->batch_off) {
        rd->batch_off[0] = 0;
    }
}

static int wait_reqs(ompi_redist_t *rd, int n)
{
    return n > 0 ? ompi_request_wait_all(n, rd->reqs, MPI_STATUSES_IGNORE) : OMPI_SUCCESS;
}

int ompi_redist_base_recv(ompi_redist_t *rd, int p, int n)
{
    int w, i, rc, s, t;
    if (n > rd->nfree) {
        return OMPI_ERR_BAD_PARAM;   /* a schedule that overfills this process */
    }
    while (n > 0) {
        w = n < rd->request_limit ? n : rd->request_limit;
        for (i = 0; i < w; i++) {
            t = rd->in_slot[rd->in_off[p] + rd->in_next[p]++];
            s = ompi_redist_base_take_free(rd, t);
            rd->held[s] = t;
            rc = MCA_PML_CALL(irecv(ompi_redist_base_slot(rd, s), rd->count, rd->type, p, TAG_DATA,
                                    rd->comm, &rd->reqs[i]));
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
        n -= w;
    }
    return OMPI_SUCCESS;
}

/* Stage k (0 or 1) as a block address. */
static inline char *stage_block(const ompi_redist_t *rd, int k)
{
    return rd->stage + (ptrdiff_t) k * (ptrdiff_t) rd->span - rd->span_lb;
}

int ompi_redist_base_cycle(ompi_redist_t *rd, int next, int prev, int n)
{
    /* No free slot: block j is copied into stage j % 2 and sent from
     * there, so its slot s_j is vacant at once and block j of prev can
     * land straight in its target slot t_j when that one is vacant by now
     * (a ring shifting slot i to slot i: every block), else in s_j; two
     * blocks in flight per process, and settle has nothing left to move
     * for the blocks that landed home (before, each landed in a slot two
     * steps behind and settle copied every one of them once more, a cold
     * pass over the whole buffer).  The stage copy is of a block about to
     * be sent, so the send reads it from cache.  Extra data memory: two
     * blocks. */
    int j, rc = OMPI_SUCCESS, s, t, land, *sl = rd->out_slot + rd->out_off[next];
    int *tl = rd->in_slot + rd->in_off[prev];
    int o0 = rd->out_next[next], i0 = rd->in_next[prev];
    ompi_request_t **rq = rd->reqs;   /* [2k]: a receive, [2k+1]: a send from stage k */
    int landed[2] = {-1, -1};         /* slot of the block received through pair k */

    for (j = 0; j < n; j++) {
        int k = j % 2;
        if (j >= 2) {
            rc = ompi_request_wait_all(2, &rq[2 * k], MPI_STATUSES_IGNORE);
            if (OMPI_SUCCESS != rc) {
                break;
            }
            rd->held[landed[k]] = tl[i0 + j - 2];
        }
        s = sl[o0 + j];
        ompi_redist_base_copy(rd, stage_block(rd, k), ompi_redist_base_slot(rd, s));
        rd->held[s] = REDIST_VACANT;
        t = tl[i0 + j];
        land = REDIST_VACANT == rd->held[t] ? t : s;
        rd->held[land] = REDIST_LANDING;
        landed[k] = land;
        rc = MCA_PML_CALL(irecv(ompi_redist_base_slot(rd, land), rd->count, rd->type, prev,
                                TAG_DATA, rd->comm, &rq[2 * k]));
        if (OMPI_SUCCESS != rc) {
            break;
        }
        rc = MCA_PML_CALL(isend(stage_block(rd, k), rd->count, rd->type, next, TAG_DATA,
                                MCA_PML_BASE_SEND_STANDARD, rd->comm, &rq[2 * k + 1]));
        if (OMPI_SUCCESS != rc) {
            (void) ompi_request_wait_all(1, &rq[2 * k], MPI_STATUSES_IGNORE);
            break;
        }
    }
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    /* the last (at most two) pairs, oldest first */
    for (j = n - (n < 2 ? n : 2); j < n; j++) {
        int k = j % 2, rc2 = ompi_request_wait_all(2, &rq[2 * k], MPI_STATUSES_IGNORE);
        if (OMPI_SUCCESS != rc2) {
            rc = rc2;
            continue;
        }
        rd->held[landed[k]] = tl[i0 + j];
    }
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    rd->out_next[next] += n;
    rd->in_next[prev] += n;
    ompi_redist_base_count_blocks(rd, (unsigned long long) n);
    return OMPI_SUCCESS;
}

void ompi_redist_base_settle(ompi_redist_t *rd)
{
    int *inv = rd->free_at, s, t, src;
    char *stage = rd->stage - rd->span_lb;

    /* inv[t]: the slot holding the block whose target is t */
    for (s = 0; s < rd->nslots; s++) {
        inv[s] = -1;
    }
    for (s = 0; s < rd->nslots; s++) {
        if (rd->held[s] >= 0) {
            inv[rd->held[s]] = s;
        }
    }
    /* Paths: a target slot that holds nothing is filled, then the slot
     * its block came from, and so on back; each block is copied once. */
    for (t = 0; t < rd->nslots; t++) {
        if (rd->held[t] >= 0 || inv[t] < 0) {
            continue;
        }
        s = t;
        while ((src = inv[s]) >= 0 && src != s) {
            ompi_redist_base_copy(rd, ompi_redist_base_slot(rd, s), ompi_redist_base_slot(rd, src));
            rd->held[s] = s;
            inv[s] = s;
            rd->held[src] = REDIST_EMPTY;
            s = src;
        }
    }
    /* What is left misplaced lies on cycles: one staging copy each. */
    for (s = 0; s < rd->nslots; s++) {
        if (rd->held[s] < 0 || rd->held[s] == s) {
            continue;
        }
        ompi_redist_base_copy(rd, stage, ompi_redist_base_slot(rd, s));
        t = s;
        while ((src = inv[t]) != s) {
            ompi_redist_base_copy(rd, ompi_redist_base_slot(rd, t), ompi_redist_base_slot(rd, src));
            rd->held[t] = t;
            t = src;
        }
        ompi_redist_base_copy(rd, ompi_redist_base_slot(rd, t), stage);
        rd->held[t] = t;
    }
}

/* One message per action (cyclic): an indexed-block datatype over the
 * slots the action sends from or lands in, built by create's dry run.  A
 * rank's slots move only through its own actions, in its own order, and
 * the free slots are taken and returned in that order too, so the dry run
 * finds the very slots execute will use. */
static int action_type(ompi_redist_t *rd, int idx, const int *slots, int n)
{
    ompi_datatype_t *dt = NULL;
    int rc;
    if (0 == rd->block_bytes || NULL == rd->block_type) {
        return OMPI_SUCCESS;   /* empty blocks: count-0 messages */
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

/* The slots of a sending action's next n blocks (and move its cursor). */
static const int *send_slots(ompi_redist_t *rd, const redist_action_t *a, int n)
{
    const int *sl;
    int list;
    if (REDIST_ACT_SEND_PARKED == a->op) {
        sl = rd->park_slot + rd->batch_off[a->peer2] + rd->batch_next[a->peer2];
        rd->batch_next[a->peer2] += n;
        return sl;
    }
    list = a->peer2 >= 0 ? a->peer2 : a->peer;
    sl = rd->out_slot + rd->out_off[list] + rd->out_next[list];
    rd->out_next[list] += n;
    return sl;
}

/* Send (or, dry, plan) n blocks of action idx, all at once. */
static int send_whole(ompi_redist_t *rd, int idx, const redist_action_t *a, int n, int dry,
                      ompi_request_t **req)
{
    const int *sl = send_slots(rd, a, n);
    if (dry) {
        return action_type(rd, idx, sl, n);
    }
    ompi_redist_base_count_blocks(rd, (unsigned long long) n);
    return MCA_PML_CALL(isend(rd->buf, NULL == rd->act_type[idx] ? 0 : 1,
                              NULL == rd->act_type[idx] ? rd->type : rd->act_type[idx], a->peer,
                              TAG_DATA, MCA_PML_BASE_SEND_STANDARD, rd->comm, req));
}

/* Consecutive sends of a process run at once: each starts when its
 * receiver says it is ready, in whatever order they say it.  Starting a
 * process's actions early never breaks the global-order argument (each
 * waits only on steps no later than its own), and a send frees slots, so
 * it needs none.  The slots sent from become free at the end of the run,
 * in action order (the dry run's order). */
static int send_group(ompi_redist_t *rd, redist_action_t *a, int k, int first, int dry)
{
    int g, w, i, rc = OMPI_SUCCESS, active = 0, q, gn[64];
    const int *gsl[64];
    for (g = 0; g < k; g++) {   /* each action's slots, for the frees below */
        gsl[g] = send_slots(rd, &a[g], 0);
        gn[g] = a[g].n;
    }
    if (dry) {
        for (g = 0; g < k && OMPI_SUCCESS == rc; g++) {
            rc = send_whole(rd, first + g, &a[g], a[g].n, 1, NULL);
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
            rc = send_whole(rd, first + done, &a[done], w, 0, &rd->reqs[0]);
            if (OMPI_SUCCESS != rc || OMPI_SUCCESS != (rc = wait_reqs(rd, 1))) {
                return rc;
            }
        } else {
            const int *sl;
            if (w < 1 || w > rd->request_limit || w > a[done].n) {
                return OMPI_ERR_BAD_PARAM;
            }
            sl = send_slots(rd, &a[done], w);
            for (i = 0; i < w; i++) {
                rc = MCA_PML_CALL(isend(ompi_redist_base_slot(rd, sl[i]), rd->count, rd->type, q,
                                        TAG_DATA, rd->ready_sends ? MCA_PML_BASE_SEND_READY
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
        a[done].n -= w;   /* a is run_actions' copy */
        if (a[done].n > 0) {
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
        for (i = 0; i < gn[g]; i++) {
            rd->held[gsl[g][i]] = REDIST_EMPTY;
            ompi_redist_base_put_free(rd, gsl[g][i]);
        }
    }
    return rc;
}

/* Consecutive receives that fit in the free slots (and, one block per
 * message, in the request limit) at once: every receive posted, every
 * sender told, one wait. */
static int recv_group(ompi_redist_t *rd, const redist_action_t *a, int k, int first, int dry)
{
    int g, i, rc = OMPI_SUCCESS, nreq = 0, t, s, *land = rd->land;
    for (g = 0; g < k; g++) {
        int p = a[g].peer, list = a[g].peer2 >= 0 ? a[g].peer2 : p;
        int park = REDIST_ACT_RECV_PARK == a[g].op;
        for (i = 0; i < a[g].n; i++) {
            if (park) {   /* held for another process: any free slot */
                s = ompi_redist_base_take_free(rd, -1);
                rd->held[s] = REDIST_PARKED;
                rd->park_slot[rd->npark++] = s;
            } else {
                t = rd->in_slot[rd->in_off[list] + rd->in_next[list]++];
                s = ompi_redist_base_take_free(rd, t);
                rd->held[s] = t;
            }
            if (dry) {
                land[i] = s;
            } else if (!rd->aggregate) {
                rc = MCA_PML_CALL(irecv(ompi_redist_base_slot(rd, s), rd->count, rd->type, p,
                                        TAG_DATA, rd->comm, &rd->reqs[nreq]));
                if (OMPI_SUCCESS != rc) {
                    (void) wait_reqs(rd, nreq);
                    return rc;
                }
                nreq++;
            }
        }
        if (park) {
            rd->batch_next[rd->nbatch] = 0;
            rd->batch_off[++rd->nbatch] = rd->npark;
            if (!dry) {
                ompi_redist_base_count(REDIST_STAT_PARKED, (unsigned long long) a[g].n);
            }
        }
        if (dry) {
            if (OMPI_SUCCESS != (rc = action_type(rd, first + g, land, a[g].n))) {
                return rc;
            }
            continue;
        }
        if (rd->aggregate) {
            ompi_datatype_t *dt = rd->act_type[first + g];
            rc = MCA_PML_CALL(irecv(rd->buf, NULL == dt ? 0 : 1, NULL == dt ? rd->type : dt, p,
                                    TAG_DATA, rd->comm, &rd->reqs[nreq]));
            if (OMPI_SUCCESS != rc) {
                (void) wait_reqs(rd, nreq);
                return rc;
            }
            nreq++;
        }
        rc = MCA_PML_CALL(send(&a[g].n, 1, DT_INT, p, TAG_READY, MCA_PML_BASE_SEND_STANDARD,
                               rd->comm));
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
    int i, j, rc = OMPI_SUCCESS, nact = l->n / 4, need, limit;
    const redist_action_t *act = (const redist_action_t *) l->v;
    redist_action_t grp[64];

    /* one request per action when aggregated, one per block otherwise */
    for (i = 0; i < nact && OMPI_SUCCESS == rc; i = j) {
        const redist_action_t *a = &act[i];
        j = i + 1;
        if (REDIST_ACT_SEND == a->op || REDIST_ACT_SEND_PARKED == a->op) {
            /* distinct receivers only: a receiver's "ready" messages
             * match this process's token receives in order */
            while (j < nact && j - i < 64
                   && (REDIST_ACT_SEND == act[j].op || REDIST_ACT_SEND_PARKED == act[j].op)) {
                int g;
                for (g = i; g < j && act[g].peer != act[j].peer; g++) {
                }
                if (g < j) {
                    break;
                }
                j++;
            }
            memcpy(grp, a, sizeof(*a) * (j - i));
            rc = send_group(rd, grp, j - i, i, dry);
        } else if ((REDIST_ACT_RECV == a->op || REDIST_ACT_RECV_PARK == a->op)
                   && (rd->aggregate || a->n <= rd->request_limit)) {
            need = a->n;
            limit = rd->aggregate ? INT_MAX : rd->request_limit;
            while (j < nact && j - i < (rd->aggregate ? rd->request_limit : 64)
                   && (REDIST_ACT_RECV == act[j].op || REDIST_ACT_RECV_PARK == act[j].op)
                   && need + act[j].n <= limit
                   && need + act[j].n <= rd->nfree) {
                need += act[j++].n;
            }
            rc = need > rd->nfree ? OMPI_ERR_BAD_PARAM : recv_group(rd, a, j - i, i, dry);
        } else if (REDIST_ACT_RECV == a->op) {
            rc = dry ? OMPI_SUCCESS : ompi_redist_base_recv(rd, a->peer, a->n);
        } else if (dry) {
            /* bookkeeping only: the cycle's blocks stay in its slots */
            rd->out_next[a->peer] += a->n;
            rd->in_next[a->peer2] += a->n;
        } else {
            rc = ompi_redist_base_cycle(rd, a->peer, a->peer2, a->n);
            ompi_redist_base_count(REDIST_STAT_CYCLES, 1);
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

int ompi_redist_base_prepare_actions(ompi_redist_t *rd)
{
    const redist_int_list_t *l = rd->sched;
    int rc, nact = l->n / 4;
    rd->aggregate = 1;
    rd->nact_type = nact;
    rd->act_type = ompi_redist_base_alloc(rd, sizeof(ompi_datatype_t *) * (nact + 1));
    rd->land = ompi_redist_base_alloc(rd, sizeof(int) * (rd->nslots + 1));
    rc = NULL == rd->act_type || NULL == rd->land ? OMPI_ERR_OUT_OF_RESOURCE : OMPI_SUCCESS;
    if (OMPI_SUCCESS == rc && rd->block_bytes > 0) {
        rc = ompi_datatype_create_contiguous(rd->count, rd->type, &rd->block_type);
        if (OMPI_SUCCESS == rc) {
            rc = ompi_datatype_commit(&rd->block_type);
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
    void *arrays[] = {rd->home, rd->out_off, rd->out_slot, rd->in_off, rd->in_slot,
                      rd->held, rd->free_list, rd->free_at, rd->out_next, rd->in_next,
                      rd->land, rd->park_slot, rd->batch_off, rd->batch_next, rd->stage,
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
    int v[6], nout = 0, nin, *outc = NULL, *sendslot = NULL, id = 0;
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
    if (OMPI_SUCCESS != allreduce_max(comm, v, 6)) {
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
    if (0 != v[0]) {
        free(rd);
        return v[0];
    }

    /* 2. this process's view of the map: out lists, then each receiver
     * learns the target slots of its incoming blocks and checks them */
    rd->buf = buf;
    rd->nslots = nslots;
    rd->count = count;
    rd->home = ompi_redist_base_alloc(rd, sizeof(int) * (nslots + 1));
    rd->out_off = ompi_redist_base_alloc(rd, sizeof(int) * (n + 1));
    rd->in_off = ompi_redist_base_alloc(rd, sizeof(int) * (n + 1));
    outc = calloc(n + 1, sizeof(int));
    mark = calloc(nslots + 1, 1);
    rc = (NULL == rd->home || NULL == rd->out_off || NULL == rd->in_off || NULL == outc
          || NULL == mark) ? MPI_ERR_NO_MEM : 0;
    if (0 == rc) {
        for (i = 0; i < nslots; i++) {
            if (REDIST_FREE_RANK == dest_rank[i]) {
                rd->home[i] = REDIST_EMPTY;
            } else {
                rd->nlive++;
                if (dest_rank[i] == me) {
                    rd->home[i] = dest_slot[i];
                } else {
                    rd->home[i] = REDIST_OUT;
                    outc[dest_rank[i]]++;
                    nout++;
                }
            }
        }
        rd->out_slot = ompi_redist_base_alloc(rd, sizeof(int) * (nout + 1));
        sendslot = malloc(sizeof(int) * (nout + 1));
        rc = (NULL == rd->out_slot || NULL == sendslot) ? MPI_ERR_NO_MEM : 0;
    }
    v[0] = rc;
    if (OMPI_SUCCESS != allreduce_max(comm, v, 1) || 0 != v[0]) {
        rc = 0 != v[0] ? v[0] : MPI_ERR_INTERN;
        goto out;
    }
    rd->out_off[0] = 0;
    for (q = 0; q < n; q++) {
        rd->out_off[q + 1] = rd->out_off[q] + outc[q];
        outc[q] = 0;
    }
    for (i = 0; i < nslots; i++) {
        if (REDIST_OUT == rd->home[i]) {
            q = dest_rank[i];
            rd->out_slot[rd->out_off[q] + outc[q]] = i;
            sendslot[rd->out_off[q] + outc[q]++] = dest_slot[i];
        }
    }
    rc = comm->c_coll->coll_alltoall(outc, 1, DT_INT, rd->in_off + 1, 1, DT_INT, comm,
                                     comm->c_coll->coll_alltoall_module);
    if (OMPI_SUCCESS != rc) {
        rc = MPI_ERR_INTERN;
        goto out;
    }
    rd->in_off[0] = 0;
    for (q = 0; q < n; q++) {
        int c = rd->in_off[q + 1];
        rd->in_off[q + 1] = rd->in_off[q] + c;
        outc[q] = c;   /* now: blocks from q */
    }
    nin = rd->in_off[n];
    rd->in_slot = ompi_redist_base_alloc(rd, sizeof(int) * (nin + 1));
    v[0] = NULL == rd->in_slot ? MPI_ERR_NO_MEM : 0;
    if (OMPI_SUCCESS != allreduce_max(comm, v, 1) || 0 != v[0]) {
        rc = 0 != v[0] ? v[0] : MPI_ERR_INTERN;
        goto out;
    }
    {
        int *scnt = malloc(sizeof(int) * n);
        rc = NULL == scnt ? OMPI_ERR_OUT_OF_RESOURCE : OMPI_SUCCESS;
        if (NULL != scnt) {
            for (q = 0; q < n; q++) {
                scnt[q] = rd->out_off[q + 1] - rd->out_off[q];
            }
            rc = comm->c_coll->coll_alltoallv(sendslot, scnt, rd->out_off, DT_INT, rd->in_slot,
                                              outc, rd->in_off, DT_INT, comm,
                                              comm->c_coll->coll_alltoallv_module);
            free(scnt);
        }
    }
    err = 0;
    if (OMPI_SUCCESS != rc) {
        err = MPI_ERR_INTERN;
    }
    for (i = 0; 0 == err && i < nslots; i++) {
        if (rd->home[i] >= 0) {
            if (rd->home[i] >= nslots) {
                fault(comm, &err, MPI_ERR_ARG, "dest_slot[%d] = %d is beyond this process's "
                      "last slot", i, rd->home[i]);
            } else if (mark[rd->home[i]]++) {
                fault(comm, &err, MPI_ERR_ARG, "two blocks go to slot %d of rank %d",
                      rd->home[i], me);
            }
        }
    }
    for (q = 0; 0 == err && q < n; q++) {
        for (i = rd->in_off[q]; 0 == err && i < rd->in_off[q + 1]; i++) {
            int t = rd->in_slot[i];
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
    rd->held = ompi_redist_base_alloc(rd, sizeof(int) * (nslots + 1));
    rd->free_list = ompi_redist_base_alloc(rd, sizeof(int) * (nslots + 1));
    rd->free_at = ompi_redist_base_alloc(rd, sizeof(int) * (nslots + 1));
    rd->out_next = ompi_redist_base_alloc(rd, sizeof(int) * n);
    rd->in_next = ompi_redist_base_alloc(rd, sizeof(int) * n);
    rd->stage = ompi_redist_base_alloc(rd, 2 * rd->span);
    rd->tok_reqs = ompi_redist_base_alloc(rd, sizeof(ompi_request_t *) * n);
    rd->tok_val = ompi_redist_base_alloc(rd, sizeof(int) * 2 * n);
    rd->reqs = ompi_redist_base_alloc(rd, sizeof(ompi_request_t *) * (rd->request_limit + 4));
    v[0] = (NULL == rd->held || NULL == rd->free_list || NULL == rd->free_at
            || NULL == rd->out_next || NULL == rd->in_next || NULL == rd->stage
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
