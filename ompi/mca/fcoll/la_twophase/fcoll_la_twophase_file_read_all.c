/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * fcoll/la_twophase: collective read.  The aggregator of each file domain
 * reads the covered ranges of one window at a time into its cycle buffer
 * and sends every process its pieces; the processes receive straight into
 * their buffers.
 */

#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "ompi/communicator/communicator.h"
#include "ompi/mca/pml/pml.h"
#include "ompi/request/request.h"
#include "ompi/datatype/ompi_datatype.h"
#include "fcoll_la_twophase.h"

int mca_fcoll_la_twophase_file_read_all(ompio_file_t *fh, void *buf,
                                        int count,
                                        struct ompi_datatype_t *datatype,
                                        ompi_status_public_t *status)
{
    mca_fcoll_la_twophase_stats_t *st = &mca_fcoll_la_twophase_stats;
    mca_fcoll_la_twophase_plan_t plan;
    mca_fcoll_la_twophase_cursor_t *scur = NULL, *rcur = NULL;
    mca_fcoll_la_twophase_pvec_t blocks = {0}, cov = {0};
    mca_fcoll_la_twophase_tvec_t tv = {0}, own = {0};
    int *first = NULL;
    ompi_request_t **reqs = NULL;
    ompi_datatype_t **types = NULL;
    char *winbuf = NULL;
    int ret, io_err = OMPI_SUCCESS, d, r, i, k, nreq = 0, A, P = fh->f_size, my;

    st->bytes_exchanged_last = 0;
    st->bytes_in_place_last = 0;
    st->messages_last = 0;
    st->buffer_last = 0;

    ret = mca_fcoll_la_twophase_plan_build(fh, buf, count, datatype, &plan);
    if (OMPI_SUCCESS != ret) {
        return mca_fcoll_la_twophase_agree(fh, ret);
    }
    if (MPI_STATUS_IGNORE != status) {
        status->_ucount = plan.max_data;
    }
    A = plan.num_domains;
    my = plan.my_domain;
    if (0 == A) {
        goto out;
    }

    scur = malloc((size_t) A * sizeof(*scur));
    reqs = malloc(((size_t) P + (size_t) A) * sizeof(*reqs));
    types = calloc((size_t) P + (size_t) A, sizeof(*types));
    if (NULL == scur || NULL == reqs || NULL == types) {
        ret = OMPI_ERR_OUT_OF_RESOURCE;
        goto out;
    }
    for (d = 0; d < A; d++) {
        scur[d].idx = plan.dom_first[d];
        scur[d].end = plan.dom_first[d + 1];
        scur[d].done = 0;
    }
    if (my >= 0) {
        rcur = malloc((size_t) P * sizeof(*rcur));
        first = malloc(((size_t) P + 2) * sizeof(int));
        /* the cycle buffer: one window, never more than the domain */
        st->buffer_last = (unsigned long long) (plan.fd_size < plan.cycle ? plan.fd_size
                                                                           : plan.cycle);
        winbuf = malloc((size_t) st->buffer_last);
        if (NULL == rcur || NULL == first || NULL == winbuf) {
            ret = OMPI_ERR_OUT_OF_RESOURCE;
            goto out;
        }
        for (r = 0; r < P; r++) {
            rcur[r].idx = plan.meta_first[r];
            rcur[r].end = plan.meta_first[r + 1];
            rcur[r].done = 0;
        }
    }

    for (;;) {
        int64_t c = INT64_MAX, ws, we, t;
        for (d = 0; d < A; d++) {
            t = mca_fcoll_la_twophase_next_cycle(&plan, plan.pieces, &scur[d], d);
            c = t < c ? t : c;
        }
        if (my >= 0) {
            for (r = 0; r < P; r++) {
                t = mca_fcoll_la_twophase_next_cycle(&plan, plan.meta, &rcur[r], my);
                c = t < c ? t : c;
            }
        }
        if (INT64_MAX == c) {
            break;
        }

        /* everyone: post receives for my pieces of each domain's window c */
        for (d = 0; d < A; d++) {
            if (d == my) {
                continue;
            }
            mca_fcoll_la_twophase_window(&plan, d, c, &ws, &we);
            blocks.n = 0;
            ret = mca_fcoll_la_twophase_take(plan.pieces, &scur[d], we, &blocks);
            if (OMPI_SUCCESS != ret) {
                goto out;
            }
            if (0 == blocks.n) {
                continue;
            }
            tv.n = 0;
            for (i = 0; i < blocks.n; i++) {
                ret = mca_fcoll_la_twophase_mem_blocks(&plan, blocks.v[i].pos,
                                                       blocks.v[i].len, &tv);
                if (OMPI_SUCCESS != ret) {
                    goto out;
                }
            }
            ret = mca_fcoll_la_twophase_post(&tv, false, plan.agg[d], LAT_TAG_DATA,
                                             fh->f_comm, &reqs[nreq], &types[nreq]);
            if (OMPI_SUCCESS != ret) {
                goto out;
            }
            nreq++;
        }

        if (my >= 0) {
            int own_first, own_end;
            mca_fcoll_la_twophase_window(&plan, my, c, &ws, &we);
            /* every process's blocks of my window: blocks[first[r] ..
             * first[r + 1]) for process r, mine at first[P] .. */
            blocks.n = 0;
            for (r = 0; r < P; r++) {
                first[r] = blocks.n;
                ret = mca_fcoll_la_twophase_take(plan.meta, &rcur[r], we, &blocks);
                if (OMPI_SUCCESS != ret) {
                    goto out;
                }
            }
            own_first = first[P] = blocks.n;
            ret = mca_fcoll_la_twophase_take(plan.pieces, &scur[my], we, &blocks);
            if (OMPI_SUCCESS != ret) {
                goto out;
            }
            own_end = first[P + 1] = blocks.n;
            if (0 == own_first) {
                /* only my own data in this window: read it straight into
                 * my buffer */
                mca_fcoll_la_twophase_pvec_t mine = blocks;
                ret = mca_fcoll_la_twophase_direct_io(fh, &plan, &mine, &own, false);
                if (OMPI_SUCCESS != ret) {
                    io_err = ret;
                    ret = OMPI_SUCCESS;
                }
                for (i = 0; i < blocks.n; i++) {
                    st->bytes_in_place_last += (unsigned long long) blocks.v[i].len;
                }
                goto wait;
            }
            cov.n = 0;
            for (i = 0; i < blocks.n; i++) {
                ret = mca_fcoll_la_twophase_pvec_push(&cov, blocks.v[i].off,
                                                      blocks.v[i].len, 0);
                if (OMPI_SUCCESS != ret) {
                    goto out;
                }
            }
            /* an I/O error must not break the exchange protocol: remember it
             * and keep going, every process learns it at the end */
            ret = mca_fcoll_la_twophase_window_io(fh, &cov, winbuf, ws, false);
            if (OMPI_SUCCESS != ret) {
                io_err = ret;
                ret = OMPI_SUCCESS;
            }
            for (r = 0; r < P; r++) {
                int64_t bytes = 0;
                int b = first[r], e = (r + 1 < P) ? first[r + 1] : own_first;
                if (b == e) {
                    continue;
                }
                tv.n = 0;
                for (i = b; i < e; i++) {
                    ret = mca_fcoll_la_twophase_tvec_push(&tv,
                              (ptrdiff_t) (winbuf + (blocks.v[i].off - ws)), blocks.v[i].len);
                    if (OMPI_SUCCESS != ret) {
                        goto out;
                    }
                    bytes += blocks.v[i].len;
                }
                ret = mca_fcoll_la_twophase_post(&tv, true, r, LAT_TAG_DATA, fh->f_comm,
                                                 &reqs[nreq], &types[nreq]);
                if (OMPI_SUCCESS != ret) {
                    goto out;
                }
                nreq++;
                st->bytes_exchanged_last += (unsigned long long) bytes;
                st->messages_last++;
            }
            for (i = own_first; i < own_end; i++) {
                const char *src = winbuf + (blocks.v[i].off - ws);
                own.n = 0;
                ret = mca_fcoll_la_twophase_mem_blocks(&plan, blocks.v[i].pos,
                                                       blocks.v[i].len, &own);
                if (OMPI_SUCCESS != ret) {
                    goto out;
                }
                for (k = 0; k < own.n; k++) {
                    memcpy((void *) own.addr[k], src, (size_t) own.blen[k]);
                    src += own.blen[k];
                }
                st->bytes_in_place_last += (unsigned long long) blocks.v[i].len;
            }
        }

    wait:
        ret = ompi_request_wait_all(nreq, reqs, MPI_STATUSES_IGNORE);
        for (i = 0; i < nreq; i++) {
            if (NULL != types[i]) {
                ompi_datatype_destroy(&types[i]);
                types[i] = NULL;
            }
        }
        nreq = 0;
        if (OMPI_SUCCESS != ret) {
            goto out;
        }
    }

out:
    if (nreq > 0) {
        (void) ompi_request_wait_all(nreq, reqs, MPI_STATUSES_IGNORE);
        for (i = 0; i < nreq; i++) {
            if (NULL != types[i]) {
                ompi_datatype_destroy(&types[i]);
            }
        }
    }
    st->bytes_exchanged += st->bytes_exchanged_last;
    st->bytes_in_place += st->bytes_in_place_last;
    st->messages += st->messages_last;
    free(scur);
    free(rcur);
    free(first);
    free(reqs);
    free(types);
    free(winbuf);
    free(blocks.v);
    free(cov.v);
    free(tv.blen);
    free(tv.addr);
    free(own.blen);
    free(own.addr);
    mca_fcoll_la_twophase_plan_free(&plan);
    return mca_fcoll_la_twophase_agree(fh, OMPI_SUCCESS != ret ? ret : io_err);
}
