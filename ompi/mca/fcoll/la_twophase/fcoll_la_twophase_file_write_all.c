/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * fcoll/la_twophase: collective write, and the exchange helpers shared with
 * the collective read.
 */

#include "ompi_config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "ompi/communicator/communicator.h"
#include "ompi/mca/pml/pml.h"
#include "ompi/request/request.h"
#include "ompi/datatype/ompi_datatype.h"
#include "fcoll_la_twophase.h"

/* ------------------------------------------------------------ helpers */

int mca_fcoll_la_twophase_pvec_push(mca_fcoll_la_twophase_pvec_t *p, int64_t off,
                                    int64_t len, int64_t pos)
{
    if (p->n == p->cap) {
        int cap = p->cap ? 2 * p->cap : 64;
        void *v = realloc(p->v, (size_t) cap * sizeof(*p->v));
        if (NULL == v) {
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
        p->v = v;
        p->cap = cap;
    }
    p->v[p->n].off = off;
    p->v[p->n].len = len;
    p->v[p->n].pos = pos;
    p->n++;
    return OMPI_SUCCESS;
}

int mca_fcoll_la_twophase_tvec_push(mca_fcoll_la_twophase_tvec_t *t,
                                    ptrdiff_t addr, int64_t len)
{
    /* len <= cycle buffer size <= 2^30, so an int block length */
    if (t->n > 0 && t->addr[t->n - 1] + t->blen[t->n - 1] == addr &&
        (int64_t) t->blen[t->n - 1] + len <= INT_MAX) {
        t->blen[t->n - 1] += (int) len;
        return OMPI_SUCCESS;
    }
    if (t->n == t->cap) {
        int cap = t->cap ? 2 * t->cap : 64;
        void *a = realloc(t->addr, (size_t) cap * sizeof(*t->addr));
        void *b;
        if (NULL == a) {
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
        t->addr = a;
        b = realloc(t->blen, (size_t) cap * sizeof(*t->blen));
        if (NULL == b) {
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
        t->blen = b;
        t->cap = cap;
    }
    t->addr[t->n] = addr;
    t->blen[t->n] = (int) len;
    t->n++;
    return OMPI_SUCCESS;
}

int mca_fcoll_la_twophase_take(const mca_fcoll_la_twophase_piece_t *list,
                               mca_fcoll_la_twophase_cursor_t *cur, int64_t we,
                               mca_fcoll_la_twophase_pvec_t *out)
{
    while (cur->idx < cur->end) {
        const mca_fcoll_la_twophase_piece_t *p = &list[cur->idx];
        int64_t off = p->off + cur->done, rem = p->len - cur->done, take;
        int ret;
        if (off >= we) {
            break;
        }
        take = (we - off < rem) ? we - off : rem;
        ret = mca_fcoll_la_twophase_pvec_push(out, off, take, p->pos + cur->done);
        if (OMPI_SUCCESS != ret) {
            return ret;
        }
        cur->done += take;
        if (cur->done == p->len) {
            cur->idx++;
            cur->done = 0;
        }
    }
    return OMPI_SUCCESS;
}

int mca_fcoll_la_twophase_mem_blocks(const mca_fcoll_la_twophase_plan_t *plan,
                                     int64_t pos, int64_t len,
                                     mca_fcoll_la_twophase_tvec_t *out)
{
    int lo, hi, k, ret;
    if (NULL == plan->mem_prefix) {
        return mca_fcoll_la_twophase_tvec_push(out, (ptrdiff_t) (plan->mem_base + pos), len);
    }
    /* segment k with prefix[k] <= pos < prefix[k + 1] */
    lo = 0;
    hi = plan->mem_cnt - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (plan->mem_prefix[mid] <= pos) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    for (k = lo; len > 0 && k < plan->mem_cnt; k++) {
        int64_t in = pos - plan->mem_prefix[k];
        int64_t avail = (int64_t) plan->mem_iov[k].iov_len - in;
        int64_t take;
        if (avail <= 0) {
            continue;
        }
        take = avail < len ? avail : len;
        ret = mca_fcoll_la_twophase_tvec_push(out,
                  (ptrdiff_t) ((char *) plan->mem_iov[k].iov_base + in), take);
        if (OMPI_SUCCESS != ret) {
            return ret;
        }
        pos += take;
        len -= take;
    }
    return len > 0 ? OMPI_ERROR : OMPI_SUCCESS;
}

int mca_fcoll_la_twophase_post(mca_fcoll_la_twophase_tvec_t *t, bool send, int peer,
                               int tag, ompi_communicator_t *comm,
                               ompi_request_t **req, ompi_datatype_t **type)
{
    char *base;
    int count, ret, k;
    ompi_datatype_t *dt;

    *type = NULL;
    if (1 == t->n) {
        base = (char *) t->addr[0];
        count = t->blen[0];
        dt = MPI_BYTE;
    } else {
        /* displacements relative to the first block */
        base = (char *) t->addr[0];
        for (k = t->n - 1; k >= 0; k--) {
            t->addr[k] -= (ptrdiff_t) base;
        }
        ret = ompi_datatype_create_hindexed(t->n, t->blen, t->addr, MPI_BYTE, type);
        if (OMPI_SUCCESS != ret) {
            *type = NULL;
            return ret;
        }
        ret = ompi_datatype_commit(type);
        if (OMPI_SUCCESS != ret) {
            ompi_datatype_destroy(type);
            *type = NULL;
            return ret;
        }
        dt = *type;
        count = 1;
    }
    if (send) {
        return MCA_PML_CALL(isend(base, count, dt, peer, tag,
                                  MCA_PML_BASE_SEND_STANDARD, comm, req));
    }
    return MCA_PML_CALL(irecv(base, count, dt, peer, tag, comm, req));
}

static int lat_cmp_piece(const void *a, const void *b)
{
    const mca_fcoll_la_twophase_piece_t *x = a, *y = b;
    return (x->off > y->off) - (x->off < y->off);
}

int mca_fcoll_la_twophase_window_io(ompio_file_t *fh, mca_fcoll_la_twophase_pvec_t *cov,
                                    char *winbuf, int64_t ws, bool write)
{
    int i, n = 0;
    ssize_t done;
    mca_common_ompio_io_array_t *io;

    if (0 == cov->n) {
        return OMPI_SUCCESS;
    }
    for (i = 1; i < cov->n; i++) {
        if (cov->v[i].off < cov->v[i - 1].off) {
            qsort(cov->v, (size_t) cov->n, sizeof(*cov->v), lat_cmp_piece);
            break;
        }
    }
    /* merge overlapping and touching ranges */
    for (i = 1; i < cov->n; i++) {
        mca_fcoll_la_twophase_piece_t *last = &cov->v[n];
        int64_t e = cov->v[i].off + cov->v[i].len;
        if (cov->v[i].off <= last->off + last->len) {
            if (e > last->off + last->len) {
                last->len = e - last->off;
            }
        } else {
            cov->v[++n] = cov->v[i];
        }
    }
    n++;
    io = malloc((size_t) n * sizeof(*io));
    if (NULL == io) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    for (i = 0; i < n; i++) {
        io[i].memory_address = winbuf + (cov->v[i].off - ws);
        io[i].offset = (IOVBASE_TYPE *) (intptr_t) cov->v[i].off;
        io[i].length = (size_t) cov->v[i].len;
    }
    fh->f_io_array = io;
    fh->f_num_of_io_entries = n;
    done = write ? fh->f_fbtl->fbtl_pwritev(fh) : fh->f_fbtl->fbtl_preadv(fh);
    fh->f_io_array = NULL;
    fh->f_num_of_io_entries = 0;
    free(io);
    return done < 0 ? MPI_ERR_IO : OMPI_SUCCESS;
}

int mca_fcoll_la_twophase_direct_io(ompio_file_t *fh,
                                    const mca_fcoll_la_twophase_plan_t *plan,
                                    const mca_fcoll_la_twophase_pvec_t *blocks,
                                    mca_fcoll_la_twophase_tvec_t *seg, bool write)
{
    int i, k, n = 0, cap = 0, ret = OMPI_SUCCESS;
    ssize_t done;
    mca_common_ompio_io_array_t *io = NULL;

    for (i = 0; i < blocks->n; i++) {
        int64_t off = blocks->v[i].off;
        seg->n = 0;
        ret = mca_fcoll_la_twophase_mem_blocks(plan, blocks->v[i].pos, blocks->v[i].len, seg);
        if (OMPI_SUCCESS != ret) {
            goto out;
        }
        for (k = 0; k < seg->n; k++) {
            if (n == cap) {
                void *p;
                cap = cap ? 2 * cap : 64;
                p = realloc(io, (size_t) cap * sizeof(*io));
                if (NULL == p) {
                    ret = OMPI_ERR_OUT_OF_RESOURCE;
                    goto out;
                }
                io = p;
            }
            io[n].memory_address = (void *) seg->addr[k];
            io[n].offset = (IOVBASE_TYPE *) (intptr_t) off;
            io[n].length = (size_t) seg->blen[k];
            off += seg->blen[k];
            n++;
        }
    }
    if (0 == n) {
        goto out;
    }
    fh->f_io_array = io;
    fh->f_num_of_io_entries = n;
    done = write ? fh->f_fbtl->fbtl_pwritev(fh) : fh->f_fbtl->fbtl_preadv(fh);
    fh->f_io_array = NULL;
    fh->f_num_of_io_entries = 0;
    if (done < 0) {
        ret = MPI_ERR_IO;
    }
out:
    free(io);
    return ret;
}

int mca_fcoll_la_twophase_agree(ompio_file_t *fh, int ret)
{
    int mine = (OMPI_SUCCESS == ret) ? 0 : (MPI_ERR_IO == ret ? 1 : 2), any = 0, r;
    r = fh->f_comm->c_coll->coll_allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, fh->f_comm,
                                           fh->f_comm->c_coll->coll_allreduce_module);
    if (OMPI_SUCCESS != r) {
        return OMPI_SUCCESS == ret ? r : ret;
    }
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    return 0 == any ? OMPI_SUCCESS : (1 == any ? MPI_ERR_IO : MPI_ERR_OTHER);
}

/* ------------------------------------------------------------- write */

int mca_fcoll_la_twophase_file_write_all(ompio_file_t *fh, const void *buf,
                                         int count,
                                         struct ompi_datatype_t *datatype,
                                         ompi_status_public_t *status)
{
    mca_fcoll_la_twophase_stats_t *st = &mca_fcoll_la_twophase_stats;
    mca_fcoll_la_twophase_plan_t plan;
    mca_fcoll_la_twophase_cursor_t *scur = NULL, *rcur = NULL;
    mca_fcoll_la_twophase_pvec_t blocks = {0}, cov = {0};
    mca_fcoll_la_twophase_tvec_t tv = {0}, own = {0};
    ompi_request_t **reqs = NULL;
    ompi_datatype_t **types = NULL;
    char *winbuf = NULL;
    int ret, io_err = OMPI_SUCCESS, d, r, i, k, nreq = 0, A, P = fh->f_size, my;
    bool direct = false;

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
        /* the cycle buffer: one window, never more than the domain */
        st->buffer_last = (unsigned long long) (plan.fd_size < plan.cycle ? plan.fd_size
                                                                           : plan.cycle);
        winbuf = malloc((size_t) st->buffer_last);
        if (NULL == rcur || NULL == winbuf) {
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

        /* aggregator: receive the window's data straight into the buffer */
        cov.n = 0;
        if (my >= 0) {
            mca_fcoll_la_twophase_window(&plan, my, c, &ws, &we);
            for (r = 0; r < P; r++) {
                blocks.n = 0;
                ret = mca_fcoll_la_twophase_take(plan.meta, &rcur[r], we, &blocks);
                if (OMPI_SUCCESS != ret) {
                    goto out;
                }
                if (0 == blocks.n) {
                    continue;
                }
                tv.n = 0;
                for (i = 0; i < blocks.n; i++) {
                    ret = mca_fcoll_la_twophase_tvec_push(&tv,
                              (ptrdiff_t) (winbuf + (blocks.v[i].off - ws)), blocks.v[i].len);
                    if (OMPI_SUCCESS == ret) {
                        ret = mca_fcoll_la_twophase_pvec_push(&cov, blocks.v[i].off,
                                                              blocks.v[i].len, 0);
                    }
                    if (OMPI_SUCCESS != ret) {
                        goto out;
                    }
                }
                ret = mca_fcoll_la_twophase_post(&tv, false, r, LAT_TAG_DATA, fh->f_comm,
                                                 &reqs[nreq], &types[nreq]);
                if (OMPI_SUCCESS != ret) {
                    goto out;
                }
                nreq++;
            }
        }

        /* everyone: send what each aggregator's window c needs from me */
        for (d = 0; d < A; d++) {
            int64_t bytes = 0;
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
                bytes += blocks.v[i].len;
            }
            ret = mca_fcoll_la_twophase_post(&tv, true, plan.agg[d], LAT_TAG_DATA,
                                             fh->f_comm, &reqs[nreq], &types[nreq]);
            if (OMPI_SUCCESS != ret) {
                goto out;
            }
            nreq++;
            st->bytes_exchanged_last += (unsigned long long) bytes;
            st->messages_last++;
        }

        /* aggregator: my own data in my window, copied locally; when
         * nobody else has data in the window it is written straight from
         * my buffer instead */
        direct = false;
        if (my >= 0) {
            mca_fcoll_la_twophase_window(&plan, my, c, &ws, &we);
            direct = (0 == cov.n);
            blocks.n = 0;
            ret = mca_fcoll_la_twophase_take(plan.pieces, &scur[my], we, &blocks);
            if (OMPI_SUCCESS != ret) {
                goto out;
            }
            for (i = 0; i < blocks.n; i++) {
                char *dst = winbuf + (blocks.v[i].off - ws);
                st->bytes_in_place_last += (unsigned long long) blocks.v[i].len;
                if (direct) {
                    continue;
                }
                own.n = 0;
                ret = mca_fcoll_la_twophase_mem_blocks(&plan, blocks.v[i].pos,
                                                       blocks.v[i].len, &own);
                if (OMPI_SUCCESS == ret) {
                    ret = mca_fcoll_la_twophase_pvec_push(&cov, blocks.v[i].off,
                                                          blocks.v[i].len, 0);
                }
                if (OMPI_SUCCESS != ret) {
                    goto out;
                }
                for (k = 0; k < own.n; k++) {
                    memcpy(dst, (const void *) own.addr[k], (size_t) own.blen[k]);
                    dst += own.blen[k];
                }
            }
        }

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
        if (my >= 0) {
            mca_fcoll_la_twophase_window(&plan, my, c, &ws, &we);
            /* an I/O error must not break the exchange protocol: remember it
             * and keep going, every process learns it at the end */
            ret = direct ? mca_fcoll_la_twophase_direct_io(fh, &plan, &blocks, &own, true)
                         : mca_fcoll_la_twophase_window_io(fh, &cov, winbuf, ws, true);
            if (OMPI_SUCCESS != ret) {
                io_err = ret;
                ret = OMPI_SUCCESS;
            }
        }
    }

out:
    if (nreq > 0) {
        /* an error after posting: complete what was posted before leaving */
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
