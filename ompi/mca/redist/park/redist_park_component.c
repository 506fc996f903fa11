/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * redist park (MADRE's parkBred: Pinar and Hendrickson with parking):
 * rank 0 schedules phases over the transmission graph; when a phase can
 * move nothing, full processes that wait for blocks park some of their
 * outgoing blocks on processes with room that wait for nothing, which
 * send them on later (those blocks travel twice; redist_base_parked_blocks
 * counts them); with no such room, one block goes round a cycle.  Uses
 * the free space wherever it is (exp 4's free process), and slows as free
 * space goes to zero.  Each action is one message.
 */
#include "ompi_config.h"

#include "ompi/constants.h"
#include "ompi/mca/redist/base/base.h"
#include "ompi/mca/redist/redist_actions.h"

static int park_schedule(ompi_redist_t *rd)
{
    const redist_int_list_t *l;
    const redist_action_t *a;
    int rc = ompi_redist_base_graph_schedule(rd, REDIST_SEARCH_PARK), i, nb = 0, np = 0;
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    /* room to record every batch this process will hold (over the whole
     * execution a slot may hold several in turn) */
    l = rd->sched;
    a = (const redist_action_t *) l->v;
    for (i = 0; i < l->n / REDIST_ACT_INTS; i++) {
        if (REDIST_ACT_RECV_PARK == a[i].op) {
            nb++;
            np += a[i].n;
        }
    }
    rd->sl.park_slot = ompi_redist_base_alloc(rd, sizeof(int) * (np + 1));
    rd->sl.batch_off = ompi_redist_base_alloc(rd, sizeof(int) * (nb + 2));
    rd->sl.batch_next = ompi_redist_base_alloc(rd, sizeof(int) * (nb + 1));
    rc = ompi_redist_base_agree(rd, NULL == rd->sl.park_slot || NULL == rd->sl.batch_off
                                            || NULL == rd->sl.batch_next
                                        ? OMPI_ERR_OUT_OF_RESOURCE : OMPI_SUCCESS);
    return OMPI_SUCCESS == rc ? ompi_redist_base_prepare_actions(rd, 1) : rc;
}

/* mca_redist_park_component; redist_park_priority defaults to 5 */
OMPI_REDIST_COMPONENT(park, 5, NULL, OMPI_REDIST_ACTION_MODULE(park_schedule))
