/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Plans made on a root: every process contributes its part, rank 0 plans,
 * each process gets its own records (ompi_redist_base_root_plan).
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

