/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * The action interpreter of the root-scheduled components (cyclic,
 * unitcyclic, phase, park): runs a process's action list, grouped as
 * redist_slots_group says, with create's dry run through the same code.
 */
#include "ompi_config.h"

#include <stdlib.h>
#include <limits.h>
#include <string.h>

#include "mpi.h"
#include "ompi/constants.h"
#include "ompi/mca/coll/coll.h"
#include "ompi/mca/pml/pml.h"
#include "ompi/mca/redist/base/base.h"
#include "ompi/mca/redist/base/redist_base_private.h"
#include "ompi/op/op.h"
#include "opal/runtime/opal_progress.h"
#include "opal/util/output.h"

static int wait_reqs(ompi_redist_t *rd, int n)
{
    return ompi_redist_base_wait(rd, n, rd->reqs);
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

/* Post a message of the blocks in slots s[0 .. cnt) (a receive: into
 * them): one contiguous stretch when they follow each other (the ring's
 * lined-up slots), else an indexed type, left in *dt for the caller. */
static int post_slots(ompi_redist_t *rd, const int *s, int cnt, int peer, int recv,
                      ompi_request_t **req, ompi_datatype_t **dt)
{
    int i, rc, contig = 1;
    void *buf;
    ompi_datatype_t *type = rd->type;
    size_t count;
    if (ompi_redist_base_fault_hit()) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    for (i = 1; i < cnt && contig; i++) {
        contig = s[i] == s[0] + i;
    }
    if (NULL == rd->block_type) {
        buf = ompi_redist_base_slot(rd, s[0]);
        count = 0;   /* empty blocks: the message only keeps the order */
    } else if (contig) {
        buf = ompi_redist_base_slot(rd, s[0]);
        count = (size_t) cnt * rd->count;
    } else {
        rc = ompi_datatype_create_indexed_block(cnt, 1, s, rd->block_type, dt);
        if (OMPI_SUCCESS == rc && OMPI_SUCCESS != (rc = ompi_datatype_commit(dt))) {
            ompi_datatype_destroy(dt);
        }
        if (OMPI_SUCCESS != rc) {
            return rc;
        }
        buf = rd->buf;
        type = *dt;
        count = 1;
    }
    return recv ? MCA_PML_CALL(irecv(buf, count, type, peer, TAG_DATA, rd->comm, req))
                : MCA_PML_CALL(isend(buf, count, type, peer, TAG_DATA,
                                     MCA_PML_BASE_SEND_STANDARD, rd->comm, req));
}

/* A cycle with at least as many runs as processes, chained (the schedule
 * is in redist_slots.h): each member stages one run in a->len and sends
 * the others straight from its slots, one run a step in lockstep with
 * its neighbours, so it copies n / len blocks locally, not n.  On the
 * zero-free ring this took 0.83-0.96x of one MPI_Isend of the whole
 * buffer where staging every run took 1.01-1.17x (8 ranks on 2 cores,
 * 2026-12-02).  Its steps are in lockstep, so a run must be large enough
 * to hide a step's latency: with runs of 64 KB the ring and the equal
 * all-to-all were slower chained than staged, from 128 KB on faster or
 * the same (CHAIN_MIN_BYTES; every process has the same block size). */
#define CHAIN_MIN_BYTES (96 * 1024)
static int chain(ompi_redist_t *rd, const redist_action_t *a, int dry)
{
    int n = a->n, h = rd->run_blocks, m = (n + h - 1) / h, next = a->peer, prev = a->peer2;
    int w, k, i, gs, gr, cnt, nl, rc = OMPI_SUCCESS;
    int *landed = rd->run_slots, *target = rd->run_slots + h;
    ompi_request_t **rq = rd->reqs;   /* [0]: the receive, [1]: the send of a step */
    const int *s;

    if (redist_slots_out_left(&rd->sl, next) < n || redist_slots_in_left(&rd->sl, prev) < n) {
        return OMPI_ERR_BAD_PARAM;
    }
    if (dry) {
        opal_output_verbose(20, ompi_redist_base_framework.framework_output,
                            "redist: a cycle of %d processes, %d blocks to %d: chained in "
                            "%d runs of %d", a->len, n, next, m, h);
    }
    for (w = 0; w * a->len < m && OMPI_SUCCESS == rc; w++) {
        /* step 0: stage this member's run of the wave; steps 1 .. len */
        for (k = 0; k <= a->len && OMPI_SUCCESS == rc; k++) {
            ompi_datatype_t *dt[2] = {NULL, NULL};
            redist_slots_chain_step(a->pos, a->len, m, w, k, &gs, &gr);
            if (0 == k) {
                if (gs >= 0) {
                    s = redist_slots_chain_out(&rd->sl, next, n, h, gs, &cnt);
                    for (i = 0; i < cnt && !dry; i++) {
                        ompi_redist_base_copy(rd, ompi_redist_base_stage(rd, i),
                                              ompi_redist_base_slot(rd, s[i]));
                    }
                    redist_slots_chain_vacate(&rd->sl, s, cnt);
                }
                continue;
            }
            nl = gr < 0 ? 0 : redist_slots_chain_land(&rd->sl, next, prev, n, h, gr, landed,
                                                      target);
            if (nl < 0) {
                rc = OMPI_ERR_BAD_PARAM;
                break;
            }
            s = gs < 0 ? NULL : redist_slots_chain_out(&rd->sl, next, n, h, gs, &cnt);
            if (!dry) {
                if (nl > 0) {
                    rc = post_slots(rd, landed, nl, prev, 1, &rq[0], &dt[0]);
                }
                if (OMPI_SUCCESS == rc && NULL != s) {
                    rc = k < a->len ? post_slots(rd, s, cnt, next, 0, &rq[1], &dt[1])
                         : ompi_redist_base_fault_hit()
                             ? OMPI_ERR_OUT_OF_RESOURCE
                             : MCA_PML_CALL(isend(ompi_redist_base_stage(rd, 0),
                                                  NULL == rd->block_type ? 0 : cnt * rd->count,
                                                  rd->type, next, TAG_DATA,
                                                  MCA_PML_BASE_SEND_STANDARD, rd->comm,
                                                  &rq[1]));
                }
                if (OMPI_SUCCESS == rc) {
                    rc = ompi_redist_base_wait(rd, 2, rq);
                }
                /* a request still pending after an error keeps its own
                 * reference to its type (ompi_redist_base_abort ends it) */
                for (i = 0; i < 2; i++) {
                    if (NULL != dt[i]) {
                        ompi_datatype_destroy(&dt[i]);
                    }
                }
                if (OMPI_SUCCESS != rc) {
                    break;
                }
            }
            if (NULL != s && k < a->len) {
                redist_slots_chain_vacate(&rd->sl, s, cnt);   /* sent */
            }
            for (i = 0; i < nl; i++) {
                redist_slots_cycle_landed(&rd->sl, landed[i], target[i]);
            }
        }
    }
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    redist_slots_chain_end(&rd->sl, next, prev, n);
    if (!dry) {
        ompi_redist_base_count_blocks(rd, (unsigned long long) n);
        ompi_redist_base_count(REDIST_STAT_CYCLES, 1);
    }
    return OMPI_SUCCESS;
}

/* A cycle, a->n blocks to a->peer while a->n come from a->peer2 (no free
 * slot; redist_slots_cycle_step says where each lands).  The blocks go in
 * runs of up to rd->run_blocks (half the staging budget; one block
 * without aggregation): a run is copied into stage half c % 2 and sent
 * from there as one message, so its slots are vacant at once, and the
 * incoming run is received as one message straight into the slots the
 * bookkeeping names (an indexed datatype); two runs in flight per
 * process.  The stage copy is of blocks about to be sent, so the send
 * reads them from cache.  Sender and receiver cut a cycle into the same
 * runs: the run length is agreed at create. */
static int cycle(ompi_redist_t *rd, const redist_action_t *a, int dry)
{
    int j, i, c, m, rc = OMPI_SUCCESS, s, n = a->n, next = a->peer, prev = a->peer2;
    /* h: the run length (agreed); hl: this process's half of the stage,
     * no longer than its longest cycle (a run is at most that long) */
    int h = rd->aggregate ? rd->run_blocks : 1, hl = h < rd->run_local ? h : rd->run_local;
    int mlast[2] = {0, 0};
    ompi_request_t **rq = rd->reqs;   /* [2k]: a receive, [2k+1]: a send from stage half k */
    int *landed = rd->run_slots, *target = rd->run_slots + 2 * hl;   /* [k * hl + i] */
    ompi_datatype_t *dt[2] = {NULL, NULL};

    if (rd->aggregate && (size_t) h * rd->block_bytes >= CHAIN_MIN_BYTES
        && redist_slots_chain_use(n, h, a->len)) {
        return chain(rd, a, dry);
    }
    for (c = 0, j = 0; j < n; c++, j += m) {
        int k = c % 2;
        char *st = ompi_redist_base_stage(rd, k * hl);
        m = n - j < h ? n - j : h;
        if (c >= 2) {
            if (!dry && OMPI_SUCCESS != (rc = ompi_redist_base_wait(rd, 2, &rq[2 * k]))) {
                break;
            }
            for (i = 0; i < mlast[k]; i++) {
                redist_slots_cycle_landed(&rd->sl, landed[k * hl + i], target[k * hl + i]);
            }
            if (NULL != dt[k]) {
                ompi_datatype_destroy(&dt[k]);
            }
        }
        for (i = 0; i < m; i++) {
            int land = redist_slots_cycle_step(&rd->sl, next, prev, &s);
            if (land < 0) {
                rc = OMPI_ERR_BAD_PARAM;
                break;
            }
            landed[k * hl + i] = land;
            target[k * hl + i] = rd->sl.in_slot[rd->sl.in_off[prev] + rd->sl.in_next[prev] - 1];
            if (!dry) {
                ompi_redist_base_copy(rd, ompi_redist_base_stage(rd, k * hl + i),
                                      ompi_redist_base_slot(rd, s));
            }
        }
        mlast[k] = m;
        if (OMPI_SUCCESS != rc || dry) {
            if (OMPI_SUCCESS != rc) {
                break;
            }
            continue;
        }
        if (1 == m || NULL == rd->block_type) {
            rc = MCA_PML_CALL(irecv(ompi_redist_base_slot(rd, landed[k * hl]),
                                    NULL == rd->block_type && m > 1 ? 0 : rd->count, rd->type,
                                    prev, TAG_DATA, rd->comm, &rq[2 * k]));
        } else {
            rc = ompi_datatype_create_indexed_block(m, 1, &landed[k * hl], rd->block_type, &dt[k]);
            if (OMPI_SUCCESS == rc && OMPI_SUCCESS != (rc = ompi_datatype_commit(&dt[k]))) {
                ompi_datatype_destroy(&dt[k]);
            }
            if (OMPI_SUCCESS == rc) {
                rc = MCA_PML_CALL(irecv(rd->buf, 1, dt[k], prev, TAG_DATA, rd->comm, &rq[2 * k]));
            }
        }
        if (OMPI_SUCCESS != rc) {
            break;
        }
        rc = MCA_PML_CALL(isend(st, NULL == rd->block_type && m > 1 ? 0 : m * rd->count,
                                rd->type, next, TAG_DATA, MCA_PML_BASE_SEND_STANDARD, rd->comm,
                                &rq[2 * k + 1]));
        if (OMPI_SUCCESS != rc) {
            break;
        }
    }
    /* the last (at most two) runs, oldest first */
    for (i = 0; OMPI_SUCCESS == rc && i < 2; i++) {
        int r = c - 2 + i, k = r % 2, x;
        if (r < 0) {
            continue;
        }
        if (!dry && OMPI_SUCCESS != (rc = ompi_redist_base_wait(rd, 2, &rq[2 * k]))) {
            break;
        }
        for (x = 0; x < mlast[k]; x++) {
            redist_slots_cycle_landed(&rd->sl, landed[k * hl + x], target[k * hl + x]);
        }
    }
    /* a receive still pending after an error keeps its own reference to
     * its type (ompi_redist_base_abort completes it later) */
    for (i = 0; i < 2; i++) {
        if (NULL != dt[i]) {
            ompi_datatype_destroy(&dt[i]);
        }
    }
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    if (!dry) {
        ompi_redist_base_count_blocks(rd, (unsigned long long) n);
        ompi_redist_base_count(REDIST_STAT_CYCLES, 1);
    }
    return OMPI_SUCCESS;
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
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    while (active > 0) {
        int done = MPI_UNDEFINED;
        rc = ompi_redist_base_wait_any(rd, k, rd->tok_reqs, &done);
        if (OMPI_SUCCESS != rc || MPI_UNDEFINED == done) {
            return OMPI_SUCCESS != rc ? rc : OMPI_ERROR;
        }
        q = a[done].peer;
        w = rd->tok_val[done];
        if (rd->aggregate) {
            if (w != a[done].n) {
                return OMPI_ERR_BAD_PARAM;   /* the processes disagree on the schedule */
            }
            /* q posted its receive: the send completes without us.  One
             * send at a time, as before 2026-11-29: running a group's
             * sends together was tried, but exp 1 swung from 1.95x to
             * 10.9x MPI_Alltoallw on this machine and the cause was not
             * found, so it is not in */
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
            return rc;
        }
    }
    return wait_reqs(rd, nreq);
}

/* Runs of plain sends and receives (aggregate mode) as a dataflow.  Run
 * group by group, a process waits for its receives before its next sends
 * and for its sends before its next receives, so the DFS's order becomes a
 * chain across processes (on exp 1 rank 7 alternates receive and send with
 * every other rank).  But in such a run a send reads only blocks that were
 * there at the start, and a receive needs only its landing slots vacant:
 * a receive waits for the sends that vacate them, a send for its
 * receiver's token, nothing else.  The slots are the dry run's (the same
 * groups take and free them in the same order, before anything moves), so
 * the action types stay right; a peer's sends and receives keep their
 * order, so the messages match as before.  Each process's dependencies are
 * a subset of the sequential ones, so what finishes run in sequence
 * finishes here.  At most request_limit receives and request_limit sends
 * are in flight: every send in flight has its receive posted, so sends
 * always complete and receives do not wait on a full window. */
typedef struct {
    int *dep;              /* per action: the last send vacating a receive's slots, or -1 */
    int *tok;              /* per action: a send's token */
    char *st;              /* per action: FL_* */
    int *freed_by;         /* per slot: the action that vacated it this execute, or -1 */
    int *fly;              /* actions in flight */
    int *held;             /* per peer: the scan in which a send to it waits */
    ompi_request_t **req;  /* per action: [2a] its token, [2a + 1] its data */
} flow_t;

enum { FL_WAIT, FL_TOKEN, FL_FLY, FL_DONE };
#define FLOW_TOKENS 16   /* token receives posted ahead */

/* Whether a group runs in the dataflow: sends and receives only (no
 * cycle, no parking step); in aggregate mode such a group is always a
 * REDIST_GROUP_SEND or REDIST_GROUP_RECV. */
static int flow_plain(const redist_action_t *a, int k)
{
    int g;
    for (g = 0; g < k; g++) {
        if (REDIST_ACT_SEND != a[g].op && REDIST_ACT_RECV != a[g].op) {
            return 0;
        }
    }
    return 1;
}

static int flow_alloc(ompi_redist_t *rd, int nact)
{
    size_t lim = (size_t) rd->request_limit, na = (size_t) nact + 1;
    size_t bytes = sizeof(flow_t) + na * (2 * sizeof(ompi_request_t *) + 2 * sizeof(int) + 1)
                   + (size_t) (rd->nslots + 1) * sizeof(int) + 2 * lim * sizeof(int)
                   + (size_t) (rd->nprocs + 1) * sizeof(int);
    flow_t *f = ompi_redist_base_alloc(rd, bytes);
    char *p;
    if (NULL == f) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    p = (char *) (f + 1);
    f->req = (ompi_request_t **) p, p += 2 * na * sizeof(ompi_request_t *);
    f->dep = (int *) p, p += na * sizeof(int);
    f->tok = (int *) p, p += na * sizeof(int);
    f->freed_by = (int *) p, p += (size_t) (rd->nslots + 1) * sizeof(int);
    f->fly = (int *) p, p += 2 * lim * sizeof(int);
    f->held = (int *) p, p += (size_t) (rd->nprocs + 1) * sizeof(int);
    f->st = p;
    rd->flow = f;
    return OMPI_SUCCESS;
}

/* The bookkeeping of plain group [i, j) (what send_group and recv_group do
 * to the slots, in their order), with each receive's dependency. */
static int flow_book(ompi_redist_t *rd, const redist_action_t *act, int i, int j, int kind,
                     int i0)
{
    flow_t *f = rd->flow;
    int g, x, k = j - i, *land = rd->land;
    const int *gsl[REDIST_GROUP_MAX];
    if (REDIST_GROUP_SEND == kind) {
        if (0 != redist_slots_take_sends(&rd->sl, &act[i], k, gsl)) {
            return OMPI_ERR_BAD_PARAM;
        }
        for (g = 0; g < k; g++) {
            for (x = 0; x < act[i + g].n; x++) {
                f->freed_by[gsl[g][x]] = i + g;
            }
            redist_slots_sent(&rd->sl, gsl[g], act[i + g].n);
        }
        return OMPI_SUCCESS;
    }
    if (0 != redist_slots_take_recvs(&rd->sl, &act[i], k, land)) {
        return OMPI_ERR_BAD_PARAM;
    }
    for (g = 0; g < k; land += act[i + g].n, g++) {
        int d = -1;
        for (x = 0; x < act[i + g].n; x++) {
            int b = f->freed_by[land[x]];
            d = b >= i0 && b > d ? b : d;   /* before i0: done already */
        }
        f->dep[i + g] = d;
    }
    return OMPI_SUCCESS;
}

static int flow_post(ompi_redist_t *rd, const redist_action_t *a, int idx, int recv)
{
    flow_t *f = rd->flow;
    ompi_datatype_t *dt = rd->act_type[idx];
    int rc;
    if (ompi_redist_base_fault_hit()) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    if (recv) {
        rc = MCA_PML_CALL(irecv(rd->buf, NULL == dt ? 0 : 1, NULL == dt ? rd->type : dt, a->peer,
                                TAG_DATA, rd->comm, &f->req[2 * idx + 1]));
        if (OMPI_SUCCESS == rc) {
            rc = MCA_PML_CALL(send(&a->n, 1, DT_INT, a->peer, TAG_READY,
                                   MCA_PML_BASE_SEND_STANDARD, rd->comm));
        }
        return rc;
    }
    ompi_redist_base_count_blocks(rd, (unsigned long long) a->n);
    return MCA_PML_CALL(isend(rd->buf, NULL == dt ? 0 : 1, NULL == dt ? rd->type : dt, a->peer,
                              TAG_DATA, MCA_PML_BASE_SEND_STANDARD, rd->comm,
                              &f->req[2 * idx + 1]));
}

/* Execute [i0, i1), whose bookkeeping flow_book has done. */
static int flow_exec(ompi_redist_t *rd, const redist_action_t *act, int i0, int i1)
{
    flow_t *f = rd->flow;
    int a, x, rc = OMPI_SUCCESS, left = i1 - i0, nextr = i0, nexts = i0, sdone = i0;
    int nfly = 0, rfly = 0, sfly = 0, lim = rd->request_limit, scan = 0, tpost = i0, tfly = 0;

    for (a = i0; a < i1; a++) {
        f->req[2 * a] = f->req[2 * a + 1] = &ompi_request_null.request;
        f->st[a] = FL_WAIT;
    }
    for (a = 0; a < rd->nprocs; a++) {
        f->held[a] = -1;
    }
    while (OMPI_SUCCESS == rc && left > 0) {
        int moved = 0;
        /* the tokens of the next FLOW_TOKENS sends, in action order (a
         * peer's tokens match in order): a long posted queue would slow
         * every match, and exp 4's runs have a hundred small sends */
        for (; OMPI_SUCCESS == rc && tpost < i1 && tfly < FLOW_TOKENS; tpost++) {
            if (REDIST_ACT_SEND == act[tpost].op) {
                rc = MCA_PML_CALL(irecv(&f->tok[tpost], 1, DT_INT, act[tpost].peer, TAG_READY,
                                        rd->comm, &f->req[2 * tpost]));
                tfly += OMPI_SUCCESS == rc;
            }
        }
        /* receives in order, once their slots are vacant: the sends that
         * vacate them complete in any order, so every send up to dep */
        while (sdone < i1 && (REDIST_ACT_RECV == act[sdone].op || FL_DONE == f->st[sdone])) {
            sdone++;
        }
        while (OMPI_SUCCESS == rc && nextr < i1 && rfly < lim) {
            if (REDIST_ACT_SEND == act[nextr].op) {
                nextr++;
                continue;
            }
            if (f->dep[nextr] >= sdone) {
                break;
            }
            if (OMPI_SUCCESS == (rc = flow_post(rd, &act[nextr], nextr, 1))) {
                moved = 1;
                f->st[nextr] = FL_FLY;
                f->fly[nfly++] = nextr++;
                rfly++;
            }
        }
        /* sends whose token came, a peer's in order (its tokens come in
         * order) */
        while (nexts < i1 && (REDIST_ACT_RECV == act[nexts].op || FL_FLY <= f->st[nexts])) {
            nexts++;
        }
        scan++;
        for (a = nexts; OMPI_SUCCESS == rc && a < tpost && sfly < lim; a++) {
            if (REDIST_ACT_RECV == act[a].op || FL_FLY <= f->st[a]) {
                continue;
            }
            if (f->held[act[a].peer] == scan) {
                continue;   /* an earlier send to this peer waits */
            }
            if (FL_WAIT == f->st[a]) {
                /* no progress here, but keep a peer's sends in order all
                 * the same */
                if (!REQUEST_COMPLETE(f->req[2 * a])) {
                    f->held[act[a].peer] = scan;
                    continue;
                }
                tfly--;
                if (OMPI_SUCCESS != (rc = ompi_request_wait(&f->req[2 * a], MPI_STATUS_IGNORE))) {
                    break;
                }
                if (f->tok[a] != act[a].n) {
                    rc = OMPI_ERR_BAD_PARAM;   /* the processes disagree on the schedule */
                    break;
                }
                f->st[a] = FL_TOKEN;
            }
            if (OMPI_SUCCESS == (rc = flow_post(rd, &act[a], a, 0))) {
                moved = 1;
                f->st[a] = FL_FLY;
                f->fly[nfly++] = a;
                sfly++;
            }
        }
        for (x = 0; OMPI_SUCCESS == rc && x < nfly;) {
            a = f->fly[x];
            if (!REQUEST_COMPLETE(f->req[2 * a + 1])) {
                x++;
                continue;
            }
            if (OMPI_SUCCESS != (rc = ompi_request_wait(&f->req[2 * a + 1], MPI_STATUS_IGNORE))) {
                break;
            }
            f->st[a] = FL_DONE;
            moved = 1;
            f->fly[x] = f->fly[--nfly];
            left--;
            if (REDIST_ACT_SEND == act[a].op) {
                sfly--;
            } else {
                rfly--;
            }
        }
        if (OMPI_SUCCESS == rc && left > 0) {
            if (REQUEST_COMPLETE(rd->abort_req)) {
                rc = OMPI_REDIST_PEER_FAILED;
            } else if (!moved) {
                /* may yield the core (oversubscribed): only when nothing
                 * here moved, or what a completion enables waits a slice */
                opal_progress();
            }
        }
    }
    if (OMPI_SUCCESS != rc) {
        ompi_redist_base_abort(rd, rc, 2 * (i1 - i0), &f->req[2 * i0]);
    }
    return rc;
}

static int run_actions(ompi_redist_t *rd, int dry)
{
    const redist_int_list_t *l = rd->sched;
    int i, j, kind, rc = OMPI_SUCCESS, nact = l->n / REDIST_ACT_INTS;
    const redist_action_t *act = (const redist_action_t *) l->v;

    if (!dry && NULL != rd->flow) {
        for (i = 0; i < rd->nslots; i++) {
            ((flow_t *) rd->flow)->freed_by[i] = -1;
        }
    }
    for (i = 0; i < nact && OMPI_SUCCESS == rc; i = j) {
        j = redist_slots_group(act, nact, i, rd->aggregate, rd->request_limit, rd->sl.nfree,
                               &kind);
        if (!dry && NULL != rd->flow && flow_plain(&act[i], j - i)) {
            /* a run of plain groups: book them all, then move their data */
            int i0 = i;
            do {
                rc = flow_book(rd, act, i, j, kind, i0);
                i = j;
                if (OMPI_SUCCESS != rc || i >= nact) {
                    break;
                }
                j = redist_slots_group(act, nact, i, 1, rd->request_limit, rd->sl.nfree, &kind);
            } while (flow_plain(&act[i], j - i));
            if (OMPI_SUCCESS == rc) {
                rc = flow_exec(rd, act, i0, i);
            }
            j = i;
            continue;
        }
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
    int rc = OMPI_SUCCESS, nact = l->n / REDIST_ACT_INTS;
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
    if (OMPI_SUCCESS == rc && aggregate) {
        rc = flow_alloc(rd, nact);
    }
    if (OMPI_SUCCESS == rc) {
        ompi_redist_base_begin(rd);
        rc = run_actions(rd, 1);
    }
    return ompi_redist_base_agree(rd, rc);
}

