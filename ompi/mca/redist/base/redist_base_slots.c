/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Slot bookkeeping of one process (see redist_slots.h).  Built into the
 * redist base and, alone, into test/unit/redist_replay_test.c.
 */
#include <limits.h>
#include <string.h>

#include "ompi/mca/redist/redist_slots.h"

void redist_slots_begin(redist_slots_t *sl)
{
    int s;
    sl->nfree = 0;
    for (s = 0; s < sl->nslots; s++) {
        sl->held[s] = sl->home[s];
        sl->free_at[s] = -1;
        if (REDIST_EMPTY == sl->home[s]) {
            redist_slots_put_free(sl, s);
        }
    }
    memset(sl->out_next, 0, sizeof(int) * sl->nprocs);
    memset(sl->in_next, 0, sizeof(int) * sl->nprocs);
    sl->npark = sl->nbatch = 0;
    if (NULL != sl->batch_off) {
        sl->batch_off[0] = 0;
    }
}

const int *redist_slots_take_send(redist_slots_t *sl, const redist_action_t *a, int n)
{
    const int *s;
    int list;
    if (REDIST_ACT_SEND_PARKED == a->op) {
        int k = a->peer2;
        if (NULL == sl->batch_off || k < 0 || k >= sl->nbatch
            || sl->batch_next[k] + n > sl->batch_off[k + 1] - sl->batch_off[k]) {
            return NULL;
        }
        s = sl->park_slot + sl->batch_off[k] + sl->batch_next[k];
        sl->batch_next[k] += n;
        return s;
    }
    list = a->peer2 >= 0 ? a->peer2 : a->peer;
    if (list < 0 || list >= sl->nprocs || n > redist_slots_out_left(sl, list)) {
        return NULL;
    }
    s = sl->out_slot + sl->out_off[list] + sl->out_next[list];
    sl->out_next[list] += n;
    return s;
}

int redist_slots_take_sends(redist_slots_t *sl, const redist_action_t *a, int k,
                            const int **slots)
{
    int g;
    for (g = 0; g < k; g++) {
        if (NULL == (slots[g] = redist_slots_take_send(sl, &a[g], a[g].n))) {
            return -1;
        }
    }
    return 0;
}

int redist_slots_take_recvs(redist_slots_t *sl, const redist_action_t *a, int k, int *land)
{
    int g;
    for (g = 0; g < k; g++) {
        if (0 != redist_slots_take_recv(sl, &a[g], a[g].n, land)) {
            return -1;
        }
        land += a[g].n;
    }
    return 0;
}

void redist_slots_sent(redist_slots_t *sl, const int *slots, int n)
{
    int i;
    for (i = 0; i < n; i++) {
        redist_slots_put_free(sl, slots[i]);
    }
}

int redist_slots_take_recv(redist_slots_t *sl, const redist_action_t *a, int n, int *land)
{
    int i, s, t, park = REDIST_ACT_RECV_PARK == a->op;
    int list = a->peer2 >= 0 ? a->peer2 : a->peer;
    if (n > sl->nfree || (park ? NULL == sl->park_slot
                               : (list < 0 || list >= sl->nprocs
                                  || n > redist_slots_in_left(sl, list)))) {
        return -1;
    }
    for (i = 0; i < n; i++) {
        if (park) {   /* held for another process: any free slot */
            s = redist_slots_take_free(sl, -1);
            sl->held[s] = REDIST_PARKED;
            sl->park_slot[sl->npark++] = s;
        } else {
            t = sl->in_slot[sl->in_off[list] + sl->in_next[list]++];
            s = redist_slots_take_free(sl, t);
            sl->held[s] = t;
        }
        land[i] = s;
    }
    if (park) {
        /* a batch is one action's blocks: the receive of a whole action */
        sl->batch_next[sl->nbatch] = 0;
        sl->batch_off[++sl->nbatch] = sl->npark;
    }
    return 0;
}

int redist_slots_cycle_step(redist_slots_t *sl, int next, int prev, int *out_slot)
{
    int s, t, land;
    if (redist_slots_out_left(sl, next) < 1 || redist_slots_in_left(sl, prev) < 1) {
        return -1;
    }
    s = sl->out_slot[sl->out_off[next] + sl->out_next[next]++];
    t = sl->in_slot[sl->in_off[prev] + sl->in_next[prev]++];
    sl->held[s] = REDIST_VACANT;
    land = REDIST_VACANT == sl->held[t] ? t : s;
    sl->held[land] = REDIST_LANDING;
    *out_slot = s;
    return land;
}

void redist_slots_cycle_landed(redist_slots_t *sl, int land, int t)
{
    sl->held[land] = t;
}

void redist_slots_settle(redist_slots_t *sl, int *inv, redist_slots_copy_fn_t copy, void *ctx)
{
    int s, t, src, *held = sl->held;

    /* inv[t]: the slot holding the block whose target is t */
    for (s = 0; s < sl->nslots; s++) {
        inv[s] = -1;
    }
    for (s = 0; s < sl->nslots; s++) {
        if (held[s] >= 0) {
            inv[held[s]] = s;
        }
    }
    /* Paths: a target slot that holds nothing is filled, then the slot
     * its block came from, and so on back; each block is copied once. */
    for (t = 0; t < sl->nslots; t++) {
        if (held[t] >= 0 || inv[t] < 0) {
            continue;
        }
        s = t;
        while ((src = inv[s]) >= 0 && src != s) {
            copy(ctx, s, src);
            held[s] = s;
            inv[s] = s;
            held[src] = REDIST_EMPTY;
            s = src;
        }
    }
    /* What is left misplaced lies on cycles: one staging copy each. */
    for (s = 0; s < sl->nslots; s++) {
        if (held[s] < 0 || held[s] == s) {
            continue;
        }
        copy(ctx, -1, s);
        t = s;
        while ((src = inv[t]) != s) {
            copy(ctx, t, src);
            held[t] = t;
            t = src;
        }
        copy(ctx, t, -1);
        held[t] = t;
    }
}

static int is_send(const redist_action_t *a)
{
    return REDIST_ACT_SEND == a->op || REDIST_ACT_SEND_PARKED == a->op;
}

static int is_recv(const redist_action_t *a)
{
    return REDIST_ACT_RECV == a->op || REDIST_ACT_RECV_PARK == a->op;
}

int redist_slots_group(const redist_action_t *act, int nact, int i, int aggregate,
                       int request_limit, int nfree, int *kind)
{
    int j = i + 1, g, need, limit, most;
    if (is_send(&act[i])) {
        *kind = REDIST_GROUP_SEND;
        while (j < nact && j - i < REDIST_GROUP_MAX && is_send(&act[j])) {
            for (g = i; g < j && act[g].peer != act[j].peer; g++) {
            }
            if (g < j) {
                break;
            }
            j++;
        }
        return j;
    }
    if (is_recv(&act[i]) && (aggregate || act[i].n <= request_limit)) {
        *kind = REDIST_GROUP_RECV;
        need = act[i].n;
        limit = aggregate ? INT_MAX : request_limit;
        /* one request per action when aggregated, one per block otherwise */
        most = aggregate ? request_limit : REDIST_GROUP_MAX;
        while (j < nact && j - i < most && is_recv(&act[j]) && need + act[j].n <= limit
               && need + act[j].n <= nfree) {
            need += act[j++].n;
        }
        return j;
    }
    /* a parked batch is received whole: one block per request, it must
     * fit in the request limit */
    *kind = REDIST_ACT_RECV == act[i].op ? REDIST_GROUP_RECV_WINDOWS
            : REDIST_ACT_CYCLE == act[i].op ? REDIST_GROUP_CYCLE : 0;
    return j;
}

void redist_slots_share(int n, int first, const int *ask, int *give, int budget)
{
    int k, p, g;
    for (k = 0; k < n; k++) {
        p = (first + k) % n;
        g = ask[p] < budget ? ask[p] : budget;
        give[p] = g;
        budget -= g;
    }
}

int redist_slots_unit_land(redist_slots_t *sl, int q)
{
    int t = sl->in_slot[sl->in_off[q] + sl->in_next[q]];
    int s = redist_slots_take_free(sl, t);
    if (s >= 0) {
        sl->in_next[q]++;
        sl->held[s] = t;
    }
    return s;
}

void redist_slots_unit_sent(redist_slots_t *sl, const int *sent)
{
    int q, k;
    for (q = 0; q < sl->nprocs; q++) {
        for (k = sent[q]; k > 0; k--) {
            redist_slots_put_free(sl, sl->out_slot[sl->out_off[q] + sl->out_next[q] - k]);
        }
    }
}

const int *redist_slots_chain_out(const redist_slots_t *sl, int next, int n, int h, int g,
                                  int *cnt)
{
    *cnt = n - g * h < h ? n - g * h : h;
    return sl->out_slot + sl->out_off[next] + sl->out_next[next] + g * h;
}

void redist_slots_chain_vacate(redist_slots_t *sl, const int *s, int cnt)
{
    int i;
    for (i = 0; i < cnt; i++) {
        sl->held[s[i]] = REDIST_VACANT;
    }
}

int redist_slots_chain_land(redist_slots_t *sl, int next, int prev, int n, int h, int g,
                            int *land, int *target)
{
    int cnt, i, c = 0;
    const int *s = redist_slots_chain_out(sl, next, n, h, g, &cnt);
    const int *in = sl->in_slot + sl->in_off[prev] + sl->in_next[prev] + g * h;
    for (i = 0; i < cnt; i++) {
        int t = in[i], l = t;
        if (REDIST_VACANT != sl->held[t]) {
            /* the group's own slots hold at least as many vacancies as
             * it has blocks still to land */
            while (c < cnt && REDIST_VACANT != sl->held[s[c]]) {
                c++;
            }
            if (c == cnt) {
                return -1;
            }
            l = s[c];
        }
        sl->held[l] = REDIST_LANDING;
        land[i] = l;
        target[i] = t;
    }
    return cnt;
}

void redist_slots_chain_end(redist_slots_t *sl, int next, int prev, int n)
{
    sl->out_next[next] += n;
    sl->in_next[prev] += n;
}
