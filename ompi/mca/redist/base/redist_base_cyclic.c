/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * The rank-level schedulers (cyclic, unitcyclic: the depth-first search;
 * phase: phases; cycleshift's global order): searches over the map (plain C:
 * test/unit/redist-dfs.sh builds them alone with -DREDIST_DFS_ONLY and
 * checks them against a simulator), and the gather/scatter around them on
 * rank 0.
 */
#ifndef REDIST_DFS_ONLY
#include "ompi_config.h"

#include "ompi/constants.h"
#include "ompi/mca/redist/base/base.h"
#endif

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ompi/mca/redist/redist_actions.h"

/* p's first out edge with blocks left, or -1 */
static int next_edge(int p, int *cur, const int *edge_off, const int *edge_w)
{
    while (cur[p] < edge_off[p + 1] && 0 == edge_w[cur[p]]) {
        cur[p]++;
    }
    return cur[p] < edge_off[p + 1] ? cur[p] : -1;
}

int redist_cyclic_dfs(int n, int *room, const int *edge_off, const int *edge_to, int *edge_w,
                      redist_act_emit_fn_t emit, void *ctx)
{
    int *cur = malloc(sizeof(int) * (n + 1)), *stack = malloc(sizeof(int) * (n + 1));
    int *pos = malloc(sizeof(int) * (n + 1));
    int start, sp, u, v, e, i, x, rc = 0;
    redist_action_t a;

    if (NULL == cur || NULL == stack || NULL == pos) {
        free(cur);
        free(stack);
        free(pos);
        return -2;
    }
    for (i = 0; i < n; i++) {
        cur[i] = edge_off[i];
        pos[i] = -1;
    }
    for (start = 0; start < n && 0 == rc; start++) {
        while (0 == rc && next_edge(start, cur, edge_off, edge_w) >= 0) {
            sp = 0;
            stack[sp++] = start;
            pos[start] = 0;
            while (sp > 0) {
                u = stack[sp - 1];
                if ((e = next_edge(u, cur, edge_off, edge_w)) < 0) {
                    pos[u] = -1;
                    sp--;
                    continue;
                }
                v = edge_to[e];
                if (room[v] > 0) {
                    /* v has room: move what fits ("maximum" in MADRE's
                     * prose; the smaller of room and weight is meant) */
                    x = room[v] < edge_w[e] ? room[v] : edge_w[e];
                    a.op = REDIST_ACT_SEND, a.peer = v, a.peer2 = -1, a.n = x;
                    a.pos = a.len = 0;
                    emit(ctx, u, &a);
                    a.op = REDIST_ACT_RECV, a.peer = u;
                    emit(ctx, v, &a);
                    edge_w[e] -= x;
                    room[v] -= x;
                    room[u] += x;
                    if (sp > 1) {   /* u has room now: its predecessor sends to it */
                        pos[u] = -1;
                        sp--;
                    }
                } else if (pos[v] >= 0) {
                    /* a cycle of full processes stack[pos[v]] .. u -> v */
                    x = edge_w[e];
                    for (i = pos[v]; i < sp; i++) {
                        int w = edge_w[cur[stack[i]]];
                        x = w < x ? w : x;
                    }
                    for (i = pos[v]; i < sp; i++) {
                        a.op = REDIST_ACT_CYCLE;
                        a.peer = i + 1 < sp ? stack[i + 1] : v;
                        a.peer2 = i > pos[v] ? stack[i - 1] : u;
                        a.n = x;
                        a.pos = i - pos[v];
                        a.len = sp - pos[v];
                        emit(ctx, stack[i], &a);
                    }
                    for (i = pos[v]; i < sp; i++) {
                        edge_w[cur[stack[i]]] -= x;
                    }
                    for (i = pos[v] + 1; i < sp; i++) {
                        pos[stack[i]] = -1;
                    }
                    sp = pos[v] + 1;
                } else if (next_edge(v, cur, edge_off, edge_w) < 0) {
                    rc = -1;   /* v is full and sends nothing: no room ever */
                    break;
                } else {
                    pos[v] = sp;
                    stack[sp++] = v;
                }
            }
            for (i = 0; i < sp; i++) {
                pos[stack[i]] = -1;
            }
        }
    }
    free(cur);
    free(stack);
    free(pos);
    return rc;
}

/* Nothing can move and every process still waiting for blocks is full,
 * so it still sends (the map is injective): walk out edges from any
 * process with blocks left until one repeats, and pass one block round
 * that cycle.  -1 if a walk ends at a process with nothing to send. */
static int break_one_cycle(int n, const int *edge_off, const int *edge_to, int *edge_w,
                           int *pos, int *path, int *pe, redist_act_emit_fn_t emit, void *ctx)
{
    int u, e, k, len = 0;
    redist_action_t a;
    for (u = 0; u < n; u++) {
        pos[u] = -1;
    }
    for (u = 0; u < n; u++) {
        for (e = edge_off[u]; e < edge_off[u + 1] && 0 == edge_w[e]; e++) {
        }
        if (e < edge_off[u + 1]) {
            break;
        }
    }
    while (u < n && pos[u] < 0) {
        for (e = edge_off[u]; e < edge_off[u + 1] && 0 == edge_w[e]; e++) {
        }
        if (e == edge_off[u + 1]) {
            return -1;   /* full with nothing to send: not injective */
        }
        pos[u] = len;
        path[len] = u;
        pe[len++] = e;
        u = edge_to[e];
    }
    if (u >= n) {
        return -1;
    }
    for (k = pos[u]; k < len; k++) {
        a.op = REDIST_ACT_CYCLE;
        a.peer = k + 1 < len ? path[k + 1] : u;
        a.peer2 = k > pos[u] ? path[k - 1] : path[len - 1];
        a.n = 1;
        a.pos = k - pos[u];
        a.len = len - pos[u];
        emit(ctx, path[k], &a);
        edge_w[pe[k]]--;
    }
    return 0;
}

typedef struct {
    int r, v, u, k, w;   /* held at r for v, from u, batch k at r, blocks left */
} park_edge_t;

static void emit4(redist_act_emit_fn_t emit, void *ctx, int rank, int op, int peer, int peer2,
                  int n)
{
    redist_action_t a = {op, peer, peer2, n, 0, 0};
    emit(ctx, rank, &a);
}

/* x blocks go from u to v in this phase: off what is left of them (*left),
 * off v's budget and room, and u gains the room they leave.  Returns x. */
static int phase_move(int *left, int *budget, int *room, int u, int v, int x)
{
    *left -= x;
    budget[v] -= x;
    room[v] -= x;
    room[u] += x;
    return x;
}

/* The phases of phase (mode PH_STOP: refuse a map that needs a cycle
 * broken; PH_BREAK: break it) and park (PH_PARK: park before breaking). */
enum { PH_STOP, PH_BREAK, PH_PARK };

static int phases_search(int n, int *room, const int *edge_off, const int *edge_to,
                         int *edge_w, int mode, redist_act_emit_fn_t emit, void *ctx,
                         int *phases)
{
    int *budget = malloc(sizeof(int) * (n + 1));
    int *waiting = malloc(sizeof(int) * (n + 1)), *nbatch = calloc(n + 1, sizeof(int));
    int *pos = malloc(sizeof(int) * (n + 1)), *path = malloc(sizeof(int) * (n + 1));
    int *pe = malloc(sizeof(int) * (n + 1));
    park_edge_t *pk = NULL;
    int npk = 0, cappk = 0, phase = 0, rc = 0, e, k, u, v, r, x, moved, left, i;

    if (NULL == budget || NULL == waiting || NULL == nbatch || NULL == pos || NULL == path
        || NULL == pe) {
        rc = -2;
        goto out;
    }
    for (;;) {
        left = 0;
        memset(waiting, 0, sizeof(int) * n);
        for (u = 0; u < n; u++) {
            for (e = edge_off[u]; e < edge_off[u + 1]; e++) {
                if (edge_w[e] > 0) {
                    left++;
                    waiting[edge_to[e]] = 1;
                }
            }
        }
        for (i = 0; i < npk; i++) {
            if (pk[i].w > 0) {
                left++;
                waiting[pk[i].v] = 1;
            }
        }
        if (0 == left) {
            break;
        }
        memcpy(budget, room, sizeof(int) * n);
        moved = 0;
        /* parked blocks go on first: they hold room at processes that wait
         * for nothing (none but in park mode) */
        for (i = 0; i < npk; i++) {
            v = pk[i].v;
            x = pk[i].w < budget[v] ? pk[i].w : budget[v];
            if (x > 0) {
                emit4(emit, ctx, pk[i].r, REDIST_ACT_SEND_PARKED, v, pk[i].k, x);
                emit4(emit, ctx, v, REDIST_ACT_RECV, pk[i].r, pk[i].u, x);
                moved += phase_move(&pk[i].w, budget, room, pk[i].r, v, x);
            }
        }
        /* direct moves: each receiver's room at the phase's start, shared
         * round-robin among its senders (the first one moves on each phase) */
        for (k = 0; k < n; k++) {
            u = (phase + k) % n;
            for (e = edge_off[u]; e < edge_off[u + 1]; e++) {
                v = edge_to[e];
                x = edge_w[e] < budget[v] ? edge_w[e] : budget[v];
                if (x > 0) {
                    emit4(emit, ctx, u, REDIST_ACT_SEND, v, -1, x);
                    emit4(emit, ctx, v, REDIST_ACT_RECV, u, -1, x);
                    moved += phase_move(&edge_w[e], budget, room, u, v, x);
                }
            }
        }
        if (0 == moved && PH_PARK == mode) {
            /* park: a waiting process's outgoing blocks on processes with
             * room that wait for nothing (they will never need it) */
            for (k = 0; k < n; k++) {
                u = (phase + k) % n;
                if (!waiting[u]) {
                    continue;
                }
                for (e = edge_off[u]; e < edge_off[u + 1]; e++) {
                    for (r = 0; r < n && edge_w[e] > 0; r++) {
                        if (r == u || waiting[r] || budget[r] <= 0) {
                            continue;
                        }
                        x = edge_w[e] < budget[r] ? edge_w[e] : budget[r];
                        if (npk == cappk) {
                            park_edge_t *t;
                            cappk = cappk ? 2 * cappk : 64;
                            t = realloc(pk, sizeof(*pk) * cappk);
                            if (NULL == t) {
                                rc = -2;
                                goto out;
                            }
                            pk = t;
                        }
                        pk[npk].r = r, pk[npk].v = edge_to[e], pk[npk].u = u;
                        pk[npk].k = nbatch[r]++, pk[npk].w = x;
                        npk++;
                        emit4(emit, ctx, u, REDIST_ACT_SEND, r, edge_to[e], x);
                        emit4(emit, ctx, r, REDIST_ACT_RECV_PARK, u, -1, x);
                        moved += phase_move(&edge_w[e], budget, room, u, r, x);
                    }
                }
            }
        }
        if (moved > 0) {
            phase++;
            continue;
        }
        if (PH_STOP == mode
            || 0 != break_one_cycle(n, edge_off, edge_to, edge_w, pos, path, pe, emit, ctx)) {
            rc = -1;
            break;
        }
        phase++;
    }
out:
    if (NULL != phases) {
        *phases = phase;
    }
    free(budget);
    free(waiting);
    free(nbatch);
    free(pos);
    free(path);
    free(pe);
    free(pk);
    return rc;
}

int redist_phase_search(int n, int *room, const int *edge_off, const int *edge_to, int *edge_w,
                        int break_cycles, redist_act_emit_fn_t emit, void *ctx, int *phases)
{
    return phases_search(n, room, edge_off, edge_to, edge_w, break_cycles ? PH_BREAK : PH_STOP,
                         emit, ctx, phases);
}

int redist_park_search(int n, int *room, const int *edge_off, const int *edge_to, int *edge_w,
                       redist_act_emit_fn_t emit, void *ctx, int *phases)
{
    return phases_search(n, room, edge_off, edge_to, edge_w, PH_PARK, emit, ctx, phases);
}

static void cs_move(redist_step_emit_fn_t emit, void *ctx, const int *owner, const int *base,
                    int src, int dst)
{
    int ps = owner[src], pd = owner[dst];
    int ls = src - base[ps], ld = dst - base[pd];
    if (ps == pd) {
        int v[3] = {REDIST_CS_COPY, ls, ld};
        emit(ctx, ps, v);
    } else {
        int vs[3] = {REDIST_CS_SEND, ls, pd}, vr[3] = {REDIST_CS_RECV, ld, ps};
        emit(ctx, ps, vs);
        emit(ctx, pd, vr);
    }
}

int redist_cycleshift_order(int n, const int *base, const int *target,
                            redist_step_emit_fn_t emit, void *ctx)
{
    int total = base[n], p, g, t, src, cur;
    /* owner and inv: one allocation of 2 * (total + 1) ints */
    int *owner = malloc(sizeof(int) * 2 * ((size_t) total + 1)), *inv;
    char *moved = calloc((size_t) total + 1, 1);

    if (NULL == owner || NULL == moved) {
        free(owner);
        free(moved);
        return -2;
    }
    inv = owner + total + 1;
    for (p = 0; p < n; p++) {
        for (g = base[p]; g < base[p + 1]; g++) {
            owner[g] = p;
            inv[g] = -1;
        }
    }
    for (g = 0; g < total; g++) {
        if (target[g] >= 0) {
            inv[target[g]] = g;
        }
    }
    /* shifts: from each free target slot back along who fills it */
    for (t = 0; t < total; t++) {
        if (target[t] >= 0 || inv[t] < 0) {
            continue;
        }
        cur = t;
        while ((src = inv[cur]) >= 0 && src != cur) {
            cs_move(emit, ctx, owner, base, src, cur);
            moved[src] = 1;
            cur = src;
        }
    }
    /* cycles: stage one block, shift the rest, unstage */
    for (g = 0; g < total; g++) {
        int v[3] = {REDIST_CS_STAGE, 0, 0};
        if (target[g] < 0 || target[g] == g || moved[g]) {
            continue;
        }
        v[1] = g - base[owner[g]];
        emit(ctx, owner[g], v);
        cur = g;
        while ((src = inv[cur]) != g) {
            cs_move(emit, ctx, owner, base, src, cur);
            moved[src] = 1;
            cur = src;
        }
        if (owner[g] == owner[cur]) {
            int u[3] = {REDIST_CS_UNSTAGE, cur - base[owner[cur]], 0};
            emit(ctx, owner[g], u);
        } else {
            int vs[3] = {REDIST_CS_SEND_STAGE, owner[cur], 0};
            int vr[3] = {REDIST_CS_RECV, cur - base[owner[cur]], owner[g]};
            emit(ctx, owner[g], vs);
            emit(ctx, owner[cur], vr);
        }
        moved[g] = 1;
    }
    free(owner);
    free(moved);
    return 0;
}

#ifndef REDIST_DFS_ONLY

static void emit_action(void *ctx, int rank, const redist_action_t *a)
{
    ompi_redist_base_plan_emit(ctx, rank, &a->op, REDIST_ACT_INTS);
}

/* On rank 0: all[off[p]] is p's free slot count, then (to, blocks) pairs. */
static int cyclic_plan(int n, const int *all, const int *off, redist_plan_out_t *out, void *ctx)
{
    int search = (int) (intptr_t) ctx;   /* REDIST_SEARCH_* */
    int ne = (off[n] - n) / 2, p, i, k = 0, rc;
    int *free_ = malloc(sizeof(int) * (n + 1)), *eoff = malloc(sizeof(int) * (n + 1));
    int *eto = malloc(sizeof(int) * (ne + 1)), *ew = malloc(sizeof(int) * (ne + 1));

    rc = (NULL == free_ || NULL == eoff || NULL == eto || NULL == ew) ? OMPI_ERR_OUT_OF_RESOURCE
                                                                       : OMPI_SUCCESS;
    if (OMPI_SUCCESS == rc) {
        for (p = 0; p < n; p++) {
            free_[p] = all[off[p]];
            eoff[p] = k;
            for (i = off[p] + 1; i + 1 < off[p + 1]; i += 2, k++) {
                eto[k] = all[i];
                ew[k] = all[i + 1];
            }
        }
        eoff[n] = k;
        switch (REDIST_SEARCH_DFS == search
                    ? redist_cyclic_dfs(n, free_, eoff, eto, ew, emit_action, out)
                    : REDIST_SEARCH_PARK == search
                    ? redist_park_search(n, free_, eoff, eto, ew, emit_action, out, NULL)
                    : redist_phase_search(n, free_, eoff, eto, ew,
                                          REDIST_SEARCH_PHASES_BREAK == search, emit_action, out,
                                          NULL)) {
        case 0:
            break;
        case -1:
            rc = OMPI_ERR_NOT_SUPPORTED;
            break;
        default:
            rc = OMPI_ERR_OUT_OF_RESOURCE;
        }
    }
    free(free_);
    free(eoff);
    free(eto);
    free(ew);
    return rc;
}

int ompi_redist_base_graph_schedule(ompi_redist_t *rd, int search)
{
    int n = rd->nprocs, q, k = 1, rc;
    int *mine = malloc(sizeof(int) * (2 * n + 1));
    rc = ompi_redist_base_agree(rd, NULL == mine ? OMPI_ERR_OUT_OF_RESOURCE : OMPI_SUCCESS);
    if (OMPI_SUCCESS != rc) {
        free(mine);
        return rc;
    }
    mine[0] = rd->nslots - rd->nlive;
    for (q = 0; q < n; q++) {
        if (rd->sl.out_off[q + 1] > rd->sl.out_off[q]) {
            mine[k++] = q;
            mine[k++] = rd->sl.out_off[q + 1] - rd->sl.out_off[q];
        }
    }
    rc = ompi_redist_base_root_plan(rd, mine, k, cyclic_plan, (void *) (intptr_t) search);
    free(mine);
    return rc;
}

#endif
