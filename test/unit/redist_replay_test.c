/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Slot-level replay of every redist component's schedule: random
 * injective block maps, 0-50 % of the slots free (zero-free maps among
 * them), with the content of every slot tracked, checked against the map.
 * - The action components (cyclic, unitcyclic, phase, park): scheduled by
 *   the real searches (redist_base_cyclic.c), every process's action list
 *   run through the real slot bookkeeping and grouping
 *   (redist_base_slots.c, what execute and create's dry run use): messages
 *   carry the contents of the slots the sender's bookkeeping names, in the
 *   order MPI matches them, and land where the receiver's names.
 * - cycleshift: the real global order (redist_cycleshift_order), each
 *   process's steps run one at a time, a synchronous send meeting its
 *   receive.
 * - unit: its rounds (asks, offers, grants as the three all-to-alls
 *   exchange them) through the real share and slot steps
 *   (redist_slots_share, redist_slots_unit_*), one block a message.
 * Checks: a block never lands on a slot that still holds one, a receive
 * takes a message of its own size, nothing deadlocks, and at the end
 * every block is in its target slot.  Under AddressSanitizer: an
 * out-of-bounds write of the free list is caught.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ompi/mca/redist/redist_actions.h"
#include "ompi/mca/redist/redist_slots.h"
#include "test/common/check.h"

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static int rnd(int n)
{
    return n <= 1 ? 0 : (int) test_rand_below(&rng, (uint64_t) n);
}

/* One message: its blocks' ids (a block's id is its global source slot);
 * id: its index in matched[]. */
typedef struct {
    int n, *blk, id;
} msg_t;
/* FIFO of messages per ordered pair (MPI's non-overtaking order). */
typedef struct {
    msg_t *m;
    int head, tail, cap;
} queue_t;

typedef struct {
    redist_slots_t sl;
    int *cont;              /* per slot: id of the block it holds, -1 if none */
    int stage;              /* settle's stage */
    redist_action_t *act;
    int nact, cap;
    /* the group in progress */
    int busy, kind, i, j;
    const int *gsl[REDIST_GROUP_MAX];  /* send group: each action's slots */
    int *land;              /* receive group: landing slots, all actions */
    int *cyc_s, *cyc_land, *cyc_t;  /* cycle: per block */
    int msg[REDIST_GROUP_MAX];  /* send group: each action's message */
    int *step, nstep, capstep, pc;   /* cycleshift: its steps (3 ints each) */
    /* a chained cycle: wave, step, its groups, the step's landing count,
     * sent group's slots, and the staged blocks */
    int ch_w, ch_k, ch_m, ch_nl, ch_cnt, ch_staged;
    const int *ch_s;
    int *stagecont;
} proc_t;
#define GROUP_CHAIN 100   /* a cycle run chained (redist_slots_chain_*) */

static int n;               /* processes */
static proc_t *P;
static queue_t *Q;          /* Q[src * n + dst] */
/* matched[id]: a posted receive matched the message, so its send can
 * complete (MPI's matching, before the receiver's group ends) */
static char *matched;
static int nmsg, capmsg;

static int push(int src, int dst, const int *blk, int nb)
{
    queue_t *q = &Q[src * n + dst];
    if (nmsg == capmsg) {
        capmsg = capmsg ? 2 * capmsg : 64;
        matched = realloc(matched, capmsg);
        CHECK(NULL != matched, "out of memory");
    }
    matched[nmsg] = 0;
    if (q->tail == q->cap) {
        q->cap = q->cap ? 2 * q->cap : 8;
        q->m = realloc(q->m, sizeof(msg_t) * q->cap);
        CHECK(NULL != q->m, "out of memory");
    }
    q->m[q->tail].n = nb;
    q->m[q->tail].blk = xmalloc(sizeof(int) * (nb + 1));
    memcpy(q->m[q->tail].blk, blk, sizeof(int) * nb);
    q->m[q->tail].id = nmsg;
    q->tail++;
    return nmsg++;
}

/* Messages from src waiting at dst, from the k-th on. */
static msg_t *peek(int src, int dst, int k)
{
    queue_t *q = &Q[src * n + dst];
    return q->head + k < q->tail ? &q->m[q->head + k] : NULL;
}

static void pop(int src, int dst)
{
    queue_t *q = &Q[src * n + dst];
    free(q->m[q->head].blk);
    q->head++;
}

/* The receives process r posted at its group's start match what has
 * arrived, in order per sender. */
static void match(int r)
{
    proc_t *p = &P[r];
    int g, seen[64] = {0};
    msg_t *m;
    for (g = p->i; g < p->j; g++) {
        int src = REDIST_GROUP_CYCLE == p->kind || GROUP_CHAIN == p->kind ? p->act[g].peer2
                                                                          : p->act[g].peer;
        CHECK(src < 64, "too many processes");
        if (NULL != (m = peek(src, r, seen[src]++))) {
            matched[m->id] = 1;
        }
    }
}

static void emit(void *ctx, int rank, const redist_action_t *a)
{
    proc_t *p = &P[rank];
    (void) ctx;
    if (p->nact == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 16;
        p->act = realloc(p->act, sizeof(*a) * p->cap);
        CHECK(NULL != p->act, "out of memory");
    }
    p->act[p->nact++] = *a;
}

static void sim_copy(void *ctx, int dst, int src)
{
    proc_t *p = ctx;
    int v = src < 0 ? p->stage : p->cont[src];
    if (src < 0) {
        p->stage = -1;   /* taken out: a cycle's stage holds one block */
    }
    if (dst < 0) {
        p->stage = v;
    } else {
        p->cont[dst] = v;
    }
}

static const char *what;    /* the case, for messages */
static int aggregate, request_limit;
static int run_h;           /* a cycle's run (execute's rd->run_blocks) */
static long chains;         /* chained cycles replayed */
static int chain_moved;     /* a chained cycle finished a step (progress) */

/* A block lands in slot s of process r: s must hold nothing. */
static void land_block(int r, int s, int id)
{
    CHECK(s >= 0 && s < P[r].sl.nslots, "%s: rank %d lands in slot %d of %d", what, r, s,
          P[r].sl.nslots);
    CHECK(P[r].cont[s] < 0, "%s: rank %d: block %d lands on block %d in slot %d", what, r, id,
          P[r].cont[s], s);
    P[r].cont[s] = id;
}

/* A chained cycle, step p->ch_k of wave p->ch_w (k 0: staging, then
 * step 1 at once): where the step's incoming group lands (the real
 * bookkeeping), and its send, with the contents the sender holds. */
static void chain_post(int r)
{
    proc_t *p = &P[r];
    const redist_action_t *a = &p->act[p->i];
    int gs, gr, i, blk[4096];
    if (0 == p->ch_k) {
        redist_slots_chain_step(a->pos, a->len, p->ch_m, p->ch_w, 0, &gs, &gr);
        p->ch_staged = 0;
        if (gs >= 0) {
            const int *st = redist_slots_chain_out(&p->sl, a->peer, a->n, run_h, gs, &p->ch_staged);
            for (i = 0; i < p->ch_staged; i++) {
                p->stagecont[i] = p->cont[st[i]];
                CHECK(p->stagecont[i] >= 0, "%s: rank %d stages empty slot %d", what, r, st[i]);
                p->cont[st[i]] = -1;
            }
            redist_slots_chain_vacate(&p->sl, st, p->ch_staged);
        }
        p->ch_k = 1;
    }
    redist_slots_chain_step(a->pos, a->len, p->ch_m, p->ch_w, p->ch_k, &gs, &gr);
    p->ch_nl = gr < 0 ? 0 : redist_slots_chain_land(&p->sl, a->peer, a->peer2, a->n, run_h, gr,
                                                    p->cyc_land, p->cyc_t);
    CHECK(p->ch_nl >= 0, "%s: rank %d: chained group %d has nowhere to land", what, r, gr);
    p->ch_s = NULL;
    if (gs >= 0) {
        p->ch_s = redist_slots_chain_out(&p->sl, a->peer, a->n, run_h, gs, &p->ch_cnt);
        for (i = 0; i < p->ch_cnt; i++) {
            if (p->ch_k < a->len) {
                CHECK(p->cont[p->ch_s[i]] >= 0, "%s: rank %d chains empty slot %d", what, r,
                      p->ch_s[i]);
                blk[i] = p->cont[p->ch_s[i]];
            } else {
                CHECK(p->ch_cnt == p->ch_staged, "%s: rank %d sends %d staged, staged %d", what,
                      r, p->ch_cnt, p->ch_staged);
                blk[i] = p->stagecont[i];
            }
        }
        push(r, a->peer, blk, p->ch_cnt);
    }
}

/* Finish chained steps while their incoming groups are there; 1 when the
 * cycle is done. */
static int chain_advance(int r)
{
    proc_t *p = &P[r];
    const redist_action_t *a = &p->act[p->i];
    int i;
    msg_t *m;
    for (;;) {
        if (p->ch_nl > 0) {
            if (NULL == (m = peek(a->peer2, r, 0))) {
                return 0;
            }
            CHECK(m->n == p->ch_nl, "%s: rank %d chained step of %d gets %d", what, r,
                  p->ch_nl, m->n);
            for (i = 0; i < m->n; i++) {
                land_block(r, p->cyc_land[i], m->blk[i]);
            }
            pop(a->peer2, r);
        }
        if (NULL != p->ch_s && p->ch_k < a->len) {   /* the step's send is done */
            for (i = 0; i < p->ch_cnt; i++) {
                p->cont[p->ch_s[i]] = -1;
            }
            redist_slots_chain_vacate(&p->sl, p->ch_s, p->ch_cnt);
        }
        for (i = 0; i < p->ch_nl; i++) {
            redist_slots_cycle_landed(&p->sl, p->cyc_land[i], p->cyc_t[i]);
        }
        chain_moved = 1;
        if (++p->ch_k > a->len) {
            p->ch_k = 0;
            if (++p->ch_w * a->len >= p->ch_m) {
                redist_slots_chain_end(&p->sl, a->peer, a->peer2, a->n);
                return 1;
            }
        }
        chain_post(r);
    }
}

/* Start process r's next group (its sends leave at once; content cannot
 * change under a send until its group ends). */
static void start(int r)
{
    proc_t *p = &P[r];
    int g, k, b, blk[4096];
    p->i = p->j;
    p->j = redist_slots_group(p->act, p->nact, p->i, aggregate, request_limit, p->sl.nfree,
                              &p->kind);
    p->busy = 1;
    switch (p->kind) {
    case REDIST_GROUP_SEND:
        CHECK(0 == redist_slots_take_sends(&p->sl, &p->act[p->i], p->j - p->i, p->gsl),
              "%s: rank %d actions %d-%d send blocks it lacks", what, r, p->i, p->j - 1);
        for (g = p->i; g < p->j; g++) {
            const redist_action_t *a = &p->act[g];
            for (b = 0; b < a->n; b++) {
                int s = p->gsl[g - p->i][b];
                CHECK(p->cont[s] >= 0, "%s: rank %d sends empty slot %d", what, r, s);
                blk[b] = p->cont[s];
            }
            p->msg[g - p->i] = push(r, a->peer, blk, a->n);
        }
        break;
    case REDIST_GROUP_RECV:
        CHECK(0 == redist_slots_take_recvs(&p->sl, &p->act[p->i], p->j - p->i, p->land),
              "%s: rank %d actions %d-%d: more blocks than %d free", what, r, p->i, p->j - 1,
              p->sl.nfree);
        break;
    case REDIST_GROUP_RECV_WINDOWS: {
        const redist_action_t *a = &p->act[p->i];
        for (k = 0; k < a->n; k += request_limit) {
            int w = a->n - k < request_limit ? a->n - k : request_limit;
            CHECK(0 == redist_slots_take_recv(&p->sl, a, w, p->land + k),
                  "%s: rank %d action %d: window of %d, %d free", what, r, p->i, w,
                  p->sl.nfree);
        }
        break;
    }
    case REDIST_GROUP_CYCLE: {
        const redist_action_t *a = &p->act[p->i];
        if (aggregate && redist_slots_chain_use(a->n, run_h, a->len)) {
            CHECK(redist_slots_out_left(&p->sl, a->peer) >= a->n
                  && redist_slots_in_left(&p->sl, a->peer2) >= a->n,
                  "%s: rank %d: chained cycle beyond its lists", what, r);
            p->kind = GROUP_CHAIN;
            p->ch_w = p->ch_k = 0;
            p->ch_m = (a->n + run_h - 1) / run_h;
            chains++;
            chain_post(r);
            break;
        }
        for (k = 0; k < a->n; k++) {
            if (k >= 2) {
                redist_slots_cycle_landed(&p->sl, p->cyc_land[k - 2], p->cyc_t[k - 2]);
            }
            p->cyc_land[k] = redist_slots_cycle_step(&p->sl, a->peer, a->peer2, &p->cyc_s[k]);
            CHECK(p->cyc_land[k] >= 0, "%s: rank %d: cycle step beyond its lists", what, r);
            p->cyc_t[k] = p->sl.in_slot[p->sl.in_off[a->peer2] + p->sl.in_next[a->peer2] - 1];
            CHECK(p->cont[p->cyc_s[k]] >= 0, "%s: rank %d cycles empty slot %d", what, r,
                  p->cyc_s[k]);
            blk[k] = p->cont[p->cyc_s[k]];
        }
        for (k = a->n - (a->n < 2 ? a->n : 2); k < a->n; k++) {
            redist_slots_cycle_landed(&p->sl, p->cyc_land[k], p->cyc_t[k]);
        }
        push(r, a->peer, blk, a->n);
        break;
    }
    default:
        CHECK(0, "%s: rank %d action %d (op %d) cannot run", what, r, p->i, p->act[p->i].op);
    }
}

/* Finish process r's group if what it waits for is there; 1 if it did. */
static int finish(int r)
{
    proc_t *p = &P[r];
    int g, k, b, seen[64] = {0};
    msg_t *m;
    switch (p->kind) {
    case REDIST_GROUP_SEND:
        /* each message matched by a receive its receiver posted */
        for (g = p->i; g < p->j; g++) {
            if (!matched[p->msg[g - p->i]]) {
                return 0;
            }
        }
        for (g = p->i; g < p->j; g++) {
            for (b = 0; b < p->act[g].n; b++) {
                p->cont[p->gsl[g - p->i][b]] = -1;
            }
            redist_slots_sent(&p->sl, p->gsl[g - p->i], p->act[g].n);
        }
        break;
    case REDIST_GROUP_RECV:
    case REDIST_GROUP_RECV_WINDOWS:
        for (g = p->i; g < p->j; g++) {   /* every message there, in order per sender */
            int src = p->act[g].peer;
            CHECK(src < 64, "too many processes");
            if (NULL == (m = peek(src, r, seen[src]++))) {
                return 0;
            }
            CHECK(m->n == p->act[g].n, "%s: rank %d action %d receives %d, message has %d",
                  what, r, g, p->act[g].n, m->n);
        }
        for (g = p->i, k = 0; g < p->j; g++) {
            int src = p->act[g].peer;
            m = peek(src, r, 0);
            for (b = 0; b < m->n; b++) {
                land_block(r, p->land[k++], m->blk[b]);
            }
            pop(src, r);
        }
        break;
    case GROUP_CHAIN:
        if (!chain_advance(r)) {
            return 0;
        }
        break;
    default: {   /* cycle */
        const redist_action_t *a = &p->act[p->i];
        /* its own sends need only the receives its peer posted at its
         * cycle's start: not waited for here (a ring would wait on itself) */
        if (NULL == (m = peek(a->peer2, r, 0))) {
            return 0;
        }
        CHECK(m->n == a->n, "%s: rank %d cycle of %d gets %d", what, r, a->n, m->n);
        for (k = 0; k < a->n; k++) {
            p->cont[p->cyc_s[k]] = -1;
        }
        for (k = 0; k < a->n; k++) {
            land_block(r, p->cyc_land[k], m->blk[k]);
        }
        pop(a->peer2, r);
        break;
    }
    }
    p->busy = 0;
    return 1;
}

/* The map being replayed: ns[r] slots at r; dr/ds[g]: destination of
 * global slot g (dr -1: free); base[r]: r's first global slot. */
static const int *ns, *dr, *ds;
static int *base, total;
/* the transmission graph, as graph_schedule gathers it */
static int *room, *w, *eoff, *eto, *ew;

/* Every process's view of the map, as create builds it, and its slots'
 * contents (a block's id: its global source slot). */
static void setup(int nproc)
{
    int r, s, q, g, k;
    base = xcalloc(nproc + 1, sizeof(int));
    room = xcalloc(nproc, sizeof(int));
    w = xcalloc(nproc * nproc, sizeof(int));
    eoff = xcalloc(nproc + 1, sizeof(int));
    eto = xcalloc(nproc * nproc + 1, sizeof(int));
    ew = xcalloc(nproc * nproc + 1, sizeof(int));

    n = nproc;
    P = xcalloc(n, sizeof(proc_t));
    Q = xcalloc(n * n, sizeof(queue_t));
    for (r = 0; r < n; r++) {
        base[r + 1] = base[r] + ns[r];
    }
    total = base[n];
    /* each process's view of the map, as create builds it */
    for (r = 0; r < n; r++) {
        proc_t *p = &P[r];
        redist_slots_t *sl = &p->sl;
        int m = ns[r], nout = 0, nin = 0, *cnt = xcalloc(n + 1, sizeof(int));
        sl->nslots = m;
        sl->nprocs = n;
        sl->home = xmalloc(sizeof(int) * (m + 1));
        sl->held = xmalloc(sizeof(int) * (m + 1));
        sl->free_list = xmalloc(sizeof(int) * m + 1);   /* exact: ASan sees an overrun */
        sl->free_at = xmalloc(sizeof(int) * (m + 1));
        sl->out_off = xcalloc(n + 1, sizeof(int));
        sl->in_off = xcalloc(n + 1, sizeof(int));
        sl->out_next = xcalloc(n, sizeof(int));
        sl->in_next = xcalloc(n, sizeof(int));
        p->cont = xmalloc(sizeof(int) * (m + 1));
        p->stagecont = xmalloc(sizeof(int) * (m + 1));
        p->stage = -1;
        for (s = 0; s < m; s++) {
            g = base[r] + s;
            p->cont[s] = dr[g] < 0 ? -1 : g;
            if (dr[g] < 0) {
                sl->home[s] = REDIST_EMPTY;
                room[r]++;
            } else if (dr[g] == r) {
                sl->home[s] = ds[g];
            } else {
                sl->home[s] = REDIST_OUT;
                cnt[dr[g]]++;
                nout++;
            }
        }
        for (q = 0; q < n; q++) {
            sl->out_off[q + 1] = sl->out_off[q] + cnt[q];
            w[r * n + q] = cnt[q];
            cnt[q] = 0;
        }
        sl->out_slot = xmalloc(sizeof(int) * (nout + 1));
        for (s = 0; s < m; s++) {
            if (REDIST_OUT == sl->home[s]) {
                q = dr[base[r] + s];
                sl->out_slot[sl->out_off[q] + cnt[q]++] = s;
            }
        }
        /* incoming: from each q in q's slot order */
        for (q = 0; q < n; q++) {
            int c = 0;
            for (s = 0; s < ns[q]; s++) {
                c += dr[base[q] + s] == r && q != r;
            }
            sl->in_off[q + 1] = sl->in_off[q] + c;
            nin += c;
        }
        sl->in_slot = xmalloc(sizeof(int) * (nin + 1));
        for (q = 0, k = 0; q < n; q++) {
            for (s = 0; s < ns[q]; s++) {
                if (dr[base[q] + s] == r && q != r) {
                    sl->in_slot[k++] = ds[base[q] + s];
                }
            }
        }
        p->land = xmalloc(sizeof(int) * (m + 1));
        p->cyc_s = xmalloc(sizeof(int) * (m + 1));
        p->cyc_land = xmalloc(sizeof(int) * (m + 1));
        p->cyc_t = xmalloc(sizeof(int) * (m + 1));
        free(cnt);
    }
    /* the transmission graph, as graph_schedule gathers it */
    for (r = 0, k = 0; r < n; r++) {
        eoff[r] = k;
        for (q = 0; q < n; q++) {
            if (q != r && w[r * n + q] > 0) {
                eto[k] = q;
                ew[k++] = w[r * n + q];
            }
        }
    }
    eoff[n] = k;
}

/* After the run: nothing left in flight, every block in its target slot
 * (settle first: settled, 1). */
static void check_targets(int settled)
{
    int r, q, g;
    for (r = 0; r < n; r++) {
        int *scratch = xmalloc(sizeof(int) * (ns[r] + 1));
        for (q = 0; q < n; q++) {
            CHECK(NULL == peek(q, r, 0), "%s: a message from %d to %d was never received",
                  what, q, r);
        }
        if (settled) {
            redist_slots_settle(&P[r].sl, scratch, sim_copy, &P[r]);
        }
        CHECK(P[r].stage < 0, "%s: rank %d ends with block %d in its stage", what, r,
              P[r].stage);
        free(scratch);
    }
    for (g = 0; g < total; g++) {
        if (dr[g] >= 0) {
            CHECK(P[dr[g]].cont[ds[g]] == g, "%s: slot %d of rank %d holds %d, not %d", what,
                  ds[g], dr[g], P[dr[g]].cont[ds[g]], g);
        }
    }
}

static void teardown(void)
{
    int r, k, g;
    for (r = 0; r < n; r++) {
        proc_t *p = &P[r];
        void *f[] = {p->sl.home, p->sl.held, p->sl.free_list, p->sl.free_at, p->sl.out_off,
                     p->sl.in_off, p->sl.out_next, p->sl.in_next, p->sl.out_slot, p->sl.in_slot,
                     p->sl.park_slot, p->sl.batch_off, p->sl.batch_next, p->cont, p->act,
                     p->land, p->cyc_s, p->cyc_land, p->cyc_t, p->step,
                     p->stagecont};
        for (k = 0; k < (int) (sizeof(f) / sizeof(f[0])); k++) {
            free(f[k]);
        }
    }
    for (k = 0; k < n * n; k++) {
        for (g = Q[k].head; g < Q[k].tail; g++) {
            free(Q[k].m[g].blk);
        }
        free(Q[k].m);
    }
    free(matched);
    matched = NULL;
    nmsg = capmsg = 0;
    free(P), free(Q), free(base), free(room), free(w), free(eoff), free(eto), free(ew);
}

/* search: 0 DFS (cyclic, unitcyclic), 1 phases breaking cycles (phase), 2
 * park.  Returns 0 when replayed and checked, -1 when the search refused. */
static int replay_actions(int search)
{
    int r, k, rc, progress, done;
    rc = 0 == search ? redist_cyclic_dfs(n, room, eoff, eto, ew, emit, NULL)
         : 1 == search ? redist_phase_search(n, room, eoff, eto, ew, 1, emit, NULL, NULL)
                       : redist_park_search(n, room, eoff, eto, ew, emit, NULL, NULL);
    if (0 == rc) {
        for (r = 0; r < n; r++) {   /* park: room for every batch (park_schedule) */
            int nb = 0, np = 0;
            for (k = 0; k < P[r].nact; k++) {
                if (REDIST_ACT_RECV_PARK == P[r].act[k].op) {
                    nb++;
                    np += P[r].act[k].n;
                }
            }
            if (nb > 0) {
                P[r].sl.park_slot = xmalloc(sizeof(int) * (np + 1));
                P[r].sl.batch_off = xmalloc(sizeof(int) * (nb + 2));
                P[r].sl.batch_next = xmalloc(sizeof(int) * (nb + 1));
            }
            redist_slots_begin(&P[r].sl);
        }
        /* run every process as far as it can, until all are done */
        do {
            progress = 0;
            done = 1;
            for (r = 0; r < n; r++) {
                proc_t *p = &P[r];
                if (!p->busy && p->j < p->nact) {
                    start(r);
                    progress = 1;
                }
                if (p->busy && REDIST_GROUP_SEND != p->kind) {
                    match(r);
                }
                chain_moved = 0;
                if (p->busy && finish(r)) {
                    progress = 1;
                }
                progress |= chain_moved;
                done &= !p->busy && p->j >= p->nact;
            }
        } while (progress && !done);
        CHECK(done, "%s: the schedule deadlocks", what);
        check_targets(1);
    }
    return 0 == rc ? 0 : -1;
}

static void cs_emit(void *ctx, int rank, const int *v)
{
    proc_t *p = &P[rank];
    (void) ctx;
    if (p->nstep + 3 > p->capstep) {
        p->capstep = p->capstep ? 2 * p->capstep : 48;
        p->step = realloc(p->step, sizeof(int) * p->capstep);
        CHECK(NULL != p->step, "out of memory");
    }
    memcpy(p->step + p->nstep, v, sizeof(int) * 3);
    p->nstep += 3;
}

/* A block leaves slot s of process r (a send or a copy): it must hold
 * one.  Returns its id. */
static int take_block(int r, int s, const char *how)
{
    int id;
    CHECK(s >= 0 && s < P[r].sl.nslots, "%s: rank %d %s slot %d of %d", what, r, how, s,
          P[r].sl.nslots);
    id = P[r].cont[s];
    CHECK(id >= 0, "%s: rank %d %s empty slot %d", what, r, how, s);
    P[r].cont[s] = -1;
    return id;
}

/* cycleshift: every process runs its steps one at a time; a synchronous
 * send completes only with its receive, so a send and its receive are one
 * event, when both processes are at them. */
static int replay_cycleshift(void)
{
    int r, g, progress, done, *target = xmalloc(sizeof(int) * (total + 1));
    for (g = 0; g < total; g++) {
        target[g] = dr[g] < 0 ? -1 : base[dr[g]] + ds[g];
    }
    CHECK(0 == redist_cycleshift_order(n, base, target, cs_emit, NULL), "out of memory");
    free(target);
    do {
        progress = 0;
        done = 1;
        for (r = 0; r < n; r++) {
            proc_t *p = &P[r];
            while (p->pc < p->nstep) {
                int op = p->step[p->pc], a = p->step[p->pc + 1], b = p->step[p->pc + 2], q, id;
                proc_t *o;
                if (REDIST_CS_COPY == op) {
                    id = take_block(r, a, "copies");
                    land_block(r, b, id);
                } else if (REDIST_CS_STAGE == op) {
                    CHECK(p->stage < 0, "%s: rank %d stages over block %d", what, r, p->stage);
                    p->stage = take_block(r, a, "stages");
                } else if (REDIST_CS_UNSTAGE == op) {
                    CHECK(p->stage >= 0, "%s: rank %d unstages an empty stage", what, r);
                    land_block(r, a, p->stage);
                    p->stage = -1;
                } else if (REDIST_CS_SEND == op || REDIST_CS_SEND_STAGE == op) {
                    q = REDIST_CS_SEND == op ? b : a;
                    CHECK(q >= 0 && q < n && q != r, "%s: rank %d sends to %d", what, r, q);
                    o = &P[q];
                    if (o->pc >= o->nstep || REDIST_CS_RECV != o->step[o->pc]
                        || r != o->step[o->pc + 2]) {
                        break;   /* its receiver is not there yet */
                    }
                    if (REDIST_CS_SEND == op) {
                        id = take_block(r, a, "sends");
                    } else {
                        CHECK(p->stage >= 0, "%s: rank %d sends an empty stage", what, r);
                        id = p->stage;
                        p->stage = -1;
                    }
                    land_block(q, o->step[o->pc + 1], id);
                    o->pc += 3;
                } else {
                    CHECK(REDIST_CS_RECV == op, "%s: rank %d: step %d", what, r, op);
                    break;   /* met by its sender */
                }
                p->pc += 3;
                progress = 1;
            }
            done &= p->pc >= p->nstep;
        }
    } while (progress && !done);
    CHECK(done, "%s: the schedule deadlocks", what);
    check_targets(0);
    return 0;
}

/* unit: per round, the counts of its three all-to-alls (blocks left for
 * each destination; room each destination offers; blocks each sender
 * takes), then one message per block, matched in order per pair (the
 * receiver posts in its in list's order, the sender sends in its out
 * list's), landing before the round's sends free their slots.  slim,
 * rlim: the per-round send and receive limits.  Returns -1 when the
 * rounds stall (what create's dry run refuses). */
static int replay_unit(int slim, int rlim)
{
    int r, q, k, round, moved, left;
    int *want = xcalloc(n * n, sizeof(int)), *asked = xcalloc(n * n, sizeof(int));
    int *grant = xcalloc(n * n, sizeof(int)), *granted = xcalloc(n * n, sizeof(int));
    int *blk = xcalloc(total + 1, sizeof(int)), *off = xcalloc(n * n + 1, sizeof(int));
    int rc = 0;

    for (r = 0; r < n; r++) {
        redist_slots_begin(&P[r].sl);
    }
    for (round = 0;; round++) {
        for (r = 0; r < n; r++) {
            for (q = 0; q < n; q++) {
                want[r * n + q] = redist_slots_out_left(&P[r].sl, q);
            }
        }
        for (r = 0; r < n; r++) {   /* asked[q][r] = want[r][q] */
            for (q = 0; q < n; q++) {
                asked[q * n + r] = want[r * n + q];
            }
        }
        for (q = 0; q < n; q++) {
            int nf = P[q].sl.nfree;
            redist_slots_share(n, (q + round) % n, &asked[q * n], &grant[q * n],
                               nf < rlim ? nf : rlim);
        }
        for (r = 0; r < n; r++) {   /* room offered to r by q */
            for (q = 0; q < n; q++) {
                want[r * n + q] = grant[q * n + r];
            }
        }
        moved = 0;
        for (r = 0; r < n; r++) {
            redist_slots_share(n, (r + 1 + round) % n, &want[r * n], &granted[r * n], slim);
            for (q = 0; q < n; q++) {
                CHECK(granted[r * n + q] <= grant[q * n + r],
                      "%s: rank %d sends %d to %d, offered %d", what, r, granted[r * n + q], q,
                      grant[q * n + r]);
                moved += granted[r * n + q];
            }
        }
        /* the messages, in each sender's order per receiver */
        for (r = 0, k = 0; r < n; r++) {
            for (q = 0; q < n; q++) {
                int c;
                off[r * n + q] = k;
                for (c = 0; c < granted[r * n + q]; c++) {
                    blk[k++] = P[r].cont[redist_slots_unit_next_out(&P[r].sl, q)];
                    CHECK(blk[k - 1] >= 0, "%s: rank %d sends an empty slot", what, r);
                }
            }
        }
        for (q = 0; q < n; q++) {   /* each receiver lands what it granted */
            for (r = 0; r < n; r++) {
                int c;
                for (c = 0; c < granted[r * n + q]; c++) {
                    int s = redist_slots_unit_land(&P[q].sl, r);
                    CHECK(s >= 0, "%s: round %d: rank %d receives more than it has free", what,
                          round, q);
                    land_block(q, s, blk[off[r * n + q] + c]);
                }
            }
        }
        for (r = 0; r < n; r++) {   /* the round's sends complete: their slots are free */
            for (q = 0; q < n; q++) {
                int c, g0 = P[r].sl.out_off[q] + P[r].sl.out_next[q];
                for (c = granted[r * n + q]; c > 0; c--) {
                    P[r].cont[P[r].sl.out_slot[g0 - c]] = -1;
                }
            }
            redist_slots_unit_sent(&P[r].sl, &granted[r * n]);
        }
        for (r = 0, left = 0; r < n; r++) {
            for (q = 0; q < n; q++) {
                left += redist_slots_out_left(&P[r].sl, q);
            }
        }
        if (0 == left) {
            break;
        }
        if (0 == moved) {
            /* a stall: every process anyone still sends to is full */
            for (q = 0; q < n; q++) {
                for (r = 0; r < n; r++) {
                    CHECK(0 == asked[q * n + r] || 0 == P[q].sl.nfree,
                          "%s: round %d moved nothing while rank %d had %d free for %d", what,
                          round, q, P[q].sl.nfree, r);
                }
            }
            rc = -1;
            break;
        }
    }
    if (0 == rc) {
        check_targets(1);
    }
    free(want), free(asked), free(grant), free(granted), free(blk), free(off);
    return rc;
}

/* One component on the map (ns, dr, ds are set): 0 when replayed and
 * checked, -1 when it refused the map. */
static int replay(int nproc, int search, int limit)
{
    int rc;
    setup(nproc);
    rc = search <= 2 ? replay_actions(search)
         : 3 == search ? replay_cycleshift()
                       : replay_unit(limit, limit);
    teardown();
    return rc;
}

static const struct {
    const char *name;
    int search, aggregate;
} comps[] = {{"cyclic", 0, 1}, {"unitcyclic", 0, 0}, {"phase", 1, 1}, {"park", 2, 1},
             {"cycleshift", 3, 0}, {"unit", 4, 0}};
#define UNIT 5   /* the one that may refuse a valid map (a stall) */
#define NCOMP ((int) (sizeof(comps) / sizeof(comps[0])))

/* Replay one map under every component; limits: the request limits. */
static void all_comps(int nproc, const int *m_ns, const int *m_dr, const int *m_ds,
                      const char *name, int limit, int *refused)
{
    char buf[128];
    int c;
    ns = m_ns;
    dr = m_dr;
    ds = m_ds;
    for (c = 0; c < NCOMP; c++) {
        snprintf(buf, sizeof(buf), "%s, %s, request limit %d, runs of %d", name, comps[c].name,
                 limit, run_h);
        what = buf;
        aggregate = comps[c].aggregate;
        request_limit = limit;
        if (0 != replay(nproc, comps[c].search, limit)) {
            refused[c]++;
        }
    }
}

int main(int argc, char **argv)
{
    int maps = argc > 1 ? atoi(argv[1]) : 10000, m, refused[NCOMP] = {0}, c;
    int zero_free = 0, limits[] = {1, 2, 3, 64}, runs[] = {1, 2, 3, 8};
    /* the map of the report: rank 1 corrupted its heap under park */
    {
        int ns[4] = {1, 3, 2, 3};
        /* global slots: r0: 0; r1: 1-3; r2: 4-5; r3: 6-8 */
        int dr[9] = {3, -1, 3, 3, 2, 1, -1, 1, 1}, ds[9] = {2, 0, 0, 1, 1, 2, 0, 1, 0};
        for (c = 0; c < 4; c++) {
            run_h = 1 + c % 2;
            all_comps(4, ns, dr, ds, "the park report's map", limits[c], refused);
        }
        CHECK(0 == refused[0] + refused[1] + refused[2] + refused[3], "a search refused it");
    }
    for (m = 0; m < maps; m++) {
        int nproc = 1 + rnd(m % 10 == 0 ? 16 : 8), r, g, total = 0, live, k;
        int *ns = xmalloc(sizeof(int) * nproc), *dr, *ds, *src, *dst;
        char name[64];
        double frac = (m % 5 == 0) ? 0.0 : 0.5 * test_rand_unit(&rng);
        for (r = 0; r < nproc; r++) {
            ns[r] = rnd(m % 10 == 0 ? 40 : 11);
            total += ns[r];
        }
        live = total - (int) (frac * total + 0.5);
        zero_free += live == total;
        dr = xmalloc(sizeof(int) * (total + 1));
        ds = xmalloc(sizeof(int) * (total + 1));
        src = xmalloc(sizeof(int) * (total + 1));
        dst = xmalloc(sizeof(int) * (total + 1));
        for (g = 0; g < total; g++) {
            dr[g] = -1;
            src[g] = dst[g] = g;
        }
        /* live sources and their targets: two random choices of live slots */
        for (g = 0; g < total; g++) {
            int a = g + rnd(total - g), b = g + rnd(total - g), t;
            t = src[g], src[g] = src[a], src[a] = t;
            t = dst[g], dst[g] = dst[b], dst[b] = t;
        }
        for (k = 0; k < live; k++) {
            int tr = 0, t = dst[k];
            while (t >= ns[tr]) {
                t -= ns[tr++];
            }
            dr[src[k]] = tr;
            ds[src[k]] = t;
        }
        snprintf(name, sizeof(name), "map %d (%d ranks, %d slots, %d live)", m, nproc, total,
                 live);
        run_h = runs[rnd(4)];
        all_comps(nproc, ns, dr, ds, name, limits[rnd(4)], refused);
        free(ns), free(dr), free(ds), free(src), free(dst);
    }
    /* every component but unit completes every valid map (unit stalls on
     * a cycle of full processes, which its create refuses) */
    for (c = 0; c < NCOMP; c++) {
        CHECK(UNIT == c || 0 == refused[c], "%s refused %d valid maps", comps[c].name,
              refused[c]);
    }
    printf("redist_replay_test: %d random maps (%d zero-free) x %d components replayed slot by "
           "slot; unit stalled on %d; %ld cycles chained\n", maps, zero_free, NCOMP,
           refused[UNIT], chains);
    CHECK(chains > 0, "no cycle was chained: the chained execution went untested");
    printf("redist_replay_test: OK\n");
    return 0;
}
