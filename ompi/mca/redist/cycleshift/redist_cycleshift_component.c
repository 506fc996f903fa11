/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * redist cycleshift (MADRE's cycleShiftBred, the fix that saved FLASH):
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
#include "ompi/mca/redist/redist_actions.h"

static void cs_emit(void *ctx, int rank, const int *step)
{
    ompi_redist_base_plan_emit(ctx, rank, step, 3);
}

/* On rank 0: all[off[p]] is p's slot count, then (rank, slot) per slot;
 * the order itself is redist_cycleshift_order (redist_base_cyclic.c),
 * which test/unit/redist-replay.sh replays slot by slot. */
static int cs_plan(int n, const int *all, const int *off, redist_plan_out_t *out, void *ctx)
{
    int p, s, total = 0, rc = OMPI_SUCCESS;
    int *base = malloc(sizeof(int) * (n + 1)), *target = NULL;

    (void) ctx;
    if (NULL == base) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    for (p = 0; p < n; p++) {
        base[p] = total;
        total += all[off[p]];
    }
    base[n] = total;
    target = malloc(sizeof(int) * ((size_t) total + 1));
    if (NULL == target) {
        free(base);
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    for (p = 0; p < n; p++) {
        for (s = 0; s < all[off[p]]; s++) {
            int r = all[off[p] + 1 + 2 * s], ds = all[off[p] + 2 + 2 * s];
            target[base[p] + s] = REDIST_FREE_RANK == r ? -1 : base[r] + ds;
        }
    }
    if (0 != redist_cycleshift_order(n, base, target, cs_emit, out)) {
        rc = OMPI_ERR_OUT_OF_RESOURCE;
    }
    free(base);
    free(target);
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
        case REDIST_CS_SEND:
        case REDIST_CS_SEND_STAGE: {
            int from_slot = REDIST_CS_SEND == l->v[i];
            rc = ompi_redist_base_fault_hit()
                     ? OMPI_ERR_OUT_OF_RESOURCE
                     : MCA_PML_CALL(isend(from_slot ? ompi_redist_base_slot(rd, a) : stage,
                                          rd->count, rd->type, from_slot ? b : a, 1,
                                          MCA_PML_BASE_SEND_SYNCHRONOUS, rd->comm, req));
            if (OMPI_SUCCESS == rc) {
                rc = ompi_redist_base_wait(rd, 1, req);
            }
            sent++;
            break;
        }
        case REDIST_CS_RECV:
            rc = ompi_redist_base_fault_hit()
                     ? OMPI_ERR_OUT_OF_RESOURCE
                     : MCA_PML_CALL(irecv(ompi_redist_base_slot(rd, a), rd->count, rd->type, b,
                                          1, rd->comm, req));
            if (OMPI_SUCCESS == rc) {
                rc = ompi_redist_base_wait(rd, 1, req);
            }
            break;
        case REDIST_CS_COPY:
            ompi_redist_base_copy(rd, ompi_redist_base_slot(rd, b), ompi_redist_base_slot(rd, a));
            break;
        case REDIST_CS_STAGE:
            ompi_redist_base_copy(rd, stage, ompi_redist_base_slot(rd, a));
            break;
        default:   /* REDIST_CS_UNSTAGE */
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
