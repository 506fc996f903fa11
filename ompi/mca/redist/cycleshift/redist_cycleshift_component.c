/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * redist cycleshift (the seed's cycleShiftBred, the fix that saved FLASH):
 * rank 0 gathers the whole map (O(all blocks) there, O(b) elsewhere) and
 * splits it into shifts (chains ending in a free slot, moved from the
 * free end back) and cycles (one block staged, the rest shifted, the
 * staged one put last).  Every block goes straight to its target slot,
 * one block per synchronous send, so nothing waits unexpected; each
 * process follows its part of one global order (no deadlock).  Simple and
 * always complete, but one block at a time: the reference the others are
 * measured against.
 */
#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "ompi/constants.h"
#include "ompi/mca/pml/pml.h"
#include "ompi/mca/redist/base/base.h"

/* One step of a process: 3 ints {op, a, b}. */
enum {
    CS_SEND = 1,        /* send slot a to process b */
    CS_RECV = 2,        /* receive slot a from process b */
    CS_COPY = 3,        /* local: slot a to slot b */
    CS_STAGE = 4,       /* slot a to the stage */
    CS_SEND_STAGE = 5,  /* send the stage to process a */
    CS_UNSTAGE = 6,     /* the stage to slot a */
};

typedef struct {
    redist_plan_out_t *out;
    const int *owner, *base;
} cs_ctx_t;

static void emit3(cs_ctx_t *c, int rank, int op, int a, int b)
{
    int v[3] = {op, a, b};
    ompi_redist_base_plan_emit(c->out, rank, v, 3);
}

/* the block in global slot src goes to global slot dst */
static void move(cs_ctx_t *c, int src, int dst)
{
    int ps = c->owner[src], pd = c->owner[dst];
    int ls = src - c->base[ps], ld = dst - c->base[pd];
    if (ps == pd) {
        emit3(c, ps, CS_COPY, ls, ld);
    } else {
        emit3(c, ps, CS_SEND, ls, pd);
        emit3(c, pd, CS_RECV, ld, ps);
    }
}

/* On rank 0: all[off[p]] is p's slot count, then (rank, slot) per slot. */
static int cs_plan(int n, const int *all, const int *off, redist_plan_out_t *out, void *ctx)
{
    int p, s, g, t, src, cur, total = 0, rc = OMPI_SUCCESS;
    /* owner, target and inv: one allocation of 3 * (total + 1) ints */
    int *base = malloc(sizeof(int) * (n + 1)), *owner = NULL, *target, *inv;
    char *moved = NULL;
    cs_ctx_t c;

    (void) ctx;
    if (NULL == base) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    for (p = 0; p < n; p++) {
        base[p] = total;
        total += all[off[p]];
    }
    base[n] = total;
    owner = malloc(sizeof(int) * 3 * ((size_t) total + 1));
    moved = calloc(total + 1, 1);
    if (NULL == owner || NULL == moved) {
        rc = OMPI_ERR_OUT_OF_RESOURCE;
        goto out;
    }
    target = owner + total + 1;
    inv = target + total + 1;
    for (g = 0; g < total; g++) {
        inv[g] = -1;
    }
    for (p = 0; p < n; p++) {
        for (s = 0; s < all[off[p]]; s++) {
            int r = all[off[p] + 1 + 2 * s], ds = all[off[p] + 2 + 2 * s];
            g = base[p] + s;
            owner[g] = p;
            target[g] = REDIST_FREE_RANK == r ? -1 : base[r] + ds;
            if (target[g] >= 0) {
                inv[target[g]] = g;
            }
        }
    }
    c.out = out;
    c.owner = owner;
    c.base = base;
    /* shifts: from each free target slot back along who fills it */
    for (t = 0; t < total; t++) {
        if (target[t] >= 0 || inv[t] < 0) {
            continue;
        }
        cur = t;
        while ((src = inv[cur]) >= 0 && src != cur) {
            move(&c, src, cur);
            moved[src] = 1;
            cur = src;
        }
    }
    /* cycles: stage one block, shift the rest, unstage */
    for (g = 0; g < total; g++) {
        if (target[g] < 0 || target[g] == g || moved[g]) {
            continue;
        }
        emit3(&c, owner[g], CS_STAGE, g - base[owner[g]], 0);
        cur = g;
        while ((src = inv[cur]) != g) {
            move(&c, src, cur);
            moved[src] = 1;
            cur = src;
        }
        if (owner[g] == owner[cur]) {
            emit3(&c, owner[g], CS_UNSTAGE, cur - base[owner[cur]], 0);
        } else {
            emit3(&c, owner[g], CS_SEND_STAGE, owner[cur], 0);
            emit3(&c, owner[cur], CS_RECV, cur - base[owner[cur]], owner[g]);
        }
        moved[g] = 1;
    }
out:
    free(base);
    free(owner);
    free(moved);
    return rc;
}

static int cs_schedule(ompi_redist_t *rd)
{
    int s, rc, *mine = malloc(sizeof(int) * (2 * rd->nslots + 1));
    rc = ompi_redist_base_agree(rd, NULL == mine ? OMPI_ERR_OUT_OF_RESOURCE : OMPI_SUCCESS);
    if (OMPI_SUCCESS != rc) {
        free(mine);
        return rc;
    }
    mine[0] = rd->nslots;
    for (s = 0; s < rd->nslots; s++) {
        mine[1 + 2 * s] = rd->dest_rank[s];
        mine[2 + 2 * s] = rd->dest_slot[s];
    }
    rc = ompi_redist_base_root_plan(rd, mine, 2 * rd->nslots + 1, cs_plan, NULL);
    free(mine);
    return rc;
}

static int cs_execute(ompi_redist_t *rd)
{
    const redist_int_list_t *l = rd->sched;
    char *stage = rd->stage - rd->span_lb;
    int i, rc = OMPI_SUCCESS, sent = 0;
    ompi_request_t **req = rd->reqs;   /* one message at a time */
    for (i = 0; i + 2 < l->n && OMPI_SUCCESS == rc; i += 3) {
        int a = l->v[i + 1], b = l->v[i + 2];
        switch (l->v[i]) {
        case CS_SEND:
        case CS_SEND_STAGE:
            rc = MCA_PML_CALL(isend(CS_SEND == l->v[i] ? ompi_redist_base_slot(rd, a) : stage,
                                    rd->count, rd->type, CS_SEND == l->v[i] ? b : a, 1,
                                    MCA_PML_BASE_SEND_SYNCHRONOUS, rd->comm, req));
            if (OMPI_SUCCESS == rc) {
                rc = ompi_redist_base_wait(rd, 1, req);
            }
            sent++;
            break;
        case CS_RECV:
            rc = MCA_PML_CALL(irecv(ompi_redist_base_slot(rd, a), rd->count, rd->type, b, 1,
                                    rd->comm, req));
            if (OMPI_SUCCESS == rc) {
                rc = ompi_redist_base_wait(rd, 1, req);
            }
            break;
        case CS_COPY:
            ompi_redist_base_copy(rd, ompi_redist_base_slot(rd, b), ompi_redist_base_slot(rd, a));
            break;
        case CS_STAGE:
            ompi_redist_base_copy(rd, stage, ompi_redist_base_slot(rd, a));
            break;
        default:
            ompi_redist_base_copy(rd, ompi_redist_base_slot(rd, a), stage);
            break;
        }
    }
    ompi_redist_base_count_blocks(rd, (unsigned long long) sent);
    ompi_redist_base_count(REDIST_STAT_ROUNDS, (unsigned long long) (l->n / 3));
    return rc;
}

/* mca_redist_cycleshift_component; redist_cycleshift_priority defaults to 20 */
OMPI_REDIST_COMPONENT(cycleshift, 20, NULL, .schedule = cs_schedule, .execute = cs_execute,
                      .release = ompi_redist_base_free_sched)
