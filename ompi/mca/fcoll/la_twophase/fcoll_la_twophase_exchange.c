/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * fcoll/la_twophase: the exchange phase shared by the collective write and
 * read (the windows, after plan_build): the state of one call, its set-up
 * and clean-up, the walk over the windows, the messages between processes
 * and aggregators, and the aggregator's I/O of a window.
 */

#include "ompi_config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "ompi/communicator/communicator.h"
#include "ompi/errhandler/errcode-internal.h"
#include "ompi/mca/pml/pml.h"
#include "ompi/request/request.h"
#include "ompi/datatype/ompi_datatype.h"
#include "fcoll_la_twophase.h"

#define LAT_TAG_DATA 0x4c42  /* the metadata of step 4 uses 0x4c41 */

/* ------------------------------------------------------------ helpers */

static int lat_pvec_push(mca_fcoll_la_twophase_pvec_t *p, int64_t off, int64_t len,
                         int64_t pos)
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

static int lat_tvec_push(mca_fcoll_la_twophase_tvec_t *t, ptrdiff_t addr, int64_t len)
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

/* Append to out the pieces under cur up to file offset we, advancing cur. */
static int lat_take(const mca_fcoll_la_twophase_piece_t *list,
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
        ret = lat_pvec_push(out, off, take, p->pos + cur->done);
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

/* Append to out the memory blocks of bytes [pos, pos + len) of my data. */
static int lat_mem_blocks(const mca_fcoll_la_twophase_plan_t *plan, int64_t pos, int64_t len,
                          mca_fcoll_la_twophase_tvec_t *out)
{
    int lo, hi, k, ret;
    if (NULL == plan->mem_prefix) {
        return lat_tvec_push(out, (ptrdiff_t) (plan->mem_base + pos), len);
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
        ret = lat_tvec_push(out, (ptrdiff_t) ((char *) plan->mem_iov[k].iov_base + in), take);
        if (OMPI_SUCCESS != ret) {
            return ret;
        }
        pos += take;
        len -= take;
    }
    return len > 0 ? OMPI_ERROR : OMPI_SUCCESS;
}

/* Post a send or receive of the memory blocks t (one block as plain bytes,
 * several through an hindexed datatype returned in *type for destruction
 * after completion). */
static int lat_post(mca_fcoll_la_twophase_tvec_t *t, bool send, int peer, int tag,
                    ompi_communicator_t *comm, ompi_request_t **req, ompi_datatype_t **type)
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
        /* equal blocks at a constant stride (interleaved access: every
         * process's share of a window) make an hvector, one description
         * element where an hindexed type costs one per block to build */
        ptrdiff_t stride = t->addr[1] - t->addr[0];
        bool vec = stride >= t->blen[0];
        for (k = 1; vec && k < t->n; k++) {
            vec = t->blen[k] == t->blen[0] && t->addr[k] - t->addr[k - 1] == stride;
        }
        base = (char *) t->addr[0];
        if (vec) {
            ret = ompi_datatype_create_hvector(t->n, t->blen[0], stride, MPI_BYTE, type);
        } else {
            /* displacements relative to the first block */
            for (k = t->n - 1; k >= 0; k--) {
                t->addr[k] -= (ptrdiff_t) base;
            }
            ret = ompi_datatype_create_hindexed(t->n, t->blen, t->addr, MPI_BYTE, type);
        }
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

/* Append (mem, off, len) to the gather list x->io, joined to the last
 * entry when it continues it in memory and in the file. */
static int lat_io_push(mca_fcoll_la_twophase_xchg_t *x, char *mem, int64_t off, int64_t len)
{
    mca_common_ompio_io_array_t *e;
    if (x->nio > 0) {
        e = &x->io[x->nio - 1];
        if ((char *) e->memory_address + e->length == mem &&
            (int64_t) (intptr_t) e->offset + (int64_t) e->length == off) {
            e->length += (size_t) len;
            return OMPI_SUCCESS;
        }
    }
    if (x->nio == x->capio) {
        int cap = x->capio ? 2 * x->capio : 64;
        void *v = realloc(x->io, (size_t) cap * sizeof(*x->io));
        if (NULL == v) {
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
        x->io = v;
        x->capio = cap;
    }
    e = &x->io[x->nio++];
    e->memory_address = mem;
    e->offset = (IOVBASE_TYPE *) (intptr_t) off;
    e->length = (size_t) len;
    return OMPI_SUCCESS;
}

/* Append bytes [pos, pos + len) of my data, at file offset off, to the
 * gather list: one entry per memory segment they lie in. */
static int lat_io_push_mine(mca_fcoll_la_twophase_xchg_t *x, int64_t off, int64_t pos,
                            int64_t len)
{
    int k, ret;
    x->own.n = 0;
    ret = lat_mem_blocks(&x->plan, pos, len, &x->own);
    for (k = 0; OMPI_SUCCESS == ret && k < x->own.n; k++) {
        ret = lat_io_push(x, (char *) x->own.addr[k], off, x->own.blen[k]);
        off += x->own.blen[k];
    }
    return ret;
}

/* An iov window's next block in offset order, block b of list l, onto the
 * gather list: another process's bytes from where its contiguous receive
 * put them (its list is in the order it sent them), mine straight from my
 * buffer.  Bytes an earlier block already covers (overlapping writes, whose
 * outcome MPI leaves undefined) are written once. */
static int lat_iov_emit(mca_fcoll_la_twophase_xchg_t *x, int l,
                        const mca_fcoll_la_twophase_piece_t *b)
{
    int64_t skip = x->io_end > b->off ? x->io_end - b->off : 0, off;
    int ret = OMPI_SUCCESS;

    if (skip > b->len) {
        skip = b->len;
    }
    off = b->off + skip;
    if (l < x->plan.nprocs) {
        char *mem = x->winbuf + x->rpos[l] + skip;
        x->rpos[l] += b->len;
        if (skip < b->len) {
            ret = lat_io_push(x, mem, off, b->len - skip);
        }
    } else if (skip < b->len) {
        ret = lat_io_push_mine(x, off, b->pos + skip, b->len - skip);
    }
    if (b->off + b->len > x->io_end) {
        x->io_end = b->off + b->len;
    }
    return ret;
}

/* Merge the P + 1 block lists of my window, in offset order, into x->cov
 * (the covered ranges, sorted, overlapping and touching ones joined) or,
 * for an iov window, into the gather list x->io.  Each list (process r's
 * blocks are [first[r], first[r + 1]), mine come last) is sorted by
 * offset, so a heap of the lists' heads merges them in O(n log P) --
 * two_phase merges the same way -- where sorting the concatenation cost
 * O(n log n) and dominated interleaved access, whose lists all overlap in
 * offset. */
static int lat_merge(mca_fcoll_la_twophase_xchg_t *x, bool iov)
{
    const mca_fcoll_la_twophase_piece_t *v = x->blocks.v;
    int L = x->plan.nprocs + 1, nh = 0, l, i, ret;
    int *head = x->mhead, *heap = x->mheap;

    x->cov.n = 0;
    x->nio = 0;
    x->io_end = INT64_MIN;
    for (l = 0; l < L; l++) {
        head[l] = x->first[l];
        if (head[l] == x->first[l + 1]) {
            continue;
        }
        /* sift up */
        for (i = nh++; i > 0 && v[head[heap[(i - 1) / 2]]].off > v[head[l]].off;
             i = (i - 1) / 2) {
            heap[i] = heap[(i - 1) / 2];
        }
        heap[i] = l;
    }
    while (nh > 0) {
        const mca_fcoll_la_twophase_piece_t *b;
        mca_fcoll_la_twophase_piece_t *last;
        int top;
        l = heap[0];
        b = &v[head[l]];
        last = x->cov.n > 0 ? &x->cov.v[x->cov.n - 1] : NULL;
        if (iov) {
            ret = lat_iov_emit(x, l, b);
            if (OMPI_SUCCESS != ret) {
                return ret;
            }
        } else if (NULL != last && b->off <= last->off + last->len) {
            if (b->off + b->len > last->off + last->len) {
                last->len = b->off + b->len - last->off;
            }
        } else {
            ret = lat_pvec_push(&x->cov, b->off, b->len, 0);
            if (OMPI_SUCCESS != ret) {
                return ret;
            }
        }
        /* advance list l; drop it when empty; sift the new top down */
        if (++head[l] == x->first[l + 1]) {
            l = heap[--nh];
            if (0 == nh) {
                break;
            }
        }
        top = l;
        for (i = 0;;) {
            int c = 2 * i + 1;
            if (c >= nh) {
                break;
            }
            if (c + 1 < nh && v[head[heap[c + 1]]].off < v[head[heap[c]]].off) {
                c++;
            }
            if (v[head[heap[c]]].off >= v[head[top]].off) {
                break;
            }
            heap[i] = heap[c];
            i = c;
        }
        heap[i] = top;
    }
    return OMPI_SUCCESS;
}

/* Hand n ranges to the fbtl.  A write is marked collective, as vulcan
 * does, unless some process writes its own pieces in this call
 * (plan->no_sieve): the posix fbtl may then sieve many small ranges with
 * small gaps (read the span, fill the ranges in, write it once) instead of
 * making a pwrite per range, which made sparse collective writes 1.2x
 * slower than two_phase's read-modify-write.  The gaps lie in my window of
 * my own domain, which no other process writes through the aggregators in
 * this call. */
static ssize_t lat_fbtl_io(const mca_fcoll_la_twophase_plan_t *plan,
                           mca_common_ompio_io_array_t *io, int n, bool write)
{
    ompio_file_t *fh = plan->fh;
    ssize_t done;
    int coll = fh->f_flags & OMPIO_COLLECTIVE_OP;

    fh->f_io_array = io;
    fh->f_num_of_io_entries = n;
    if (write) {
        if (plan->no_sieve) {
            fh->f_flags &= ~OMPIO_COLLECTIVE_OP;
        } else {
            fh->f_flags |= OMPIO_COLLECTIVE_OP;
        }
        done = fh->f_fbtl->fbtl_pwritev(fh);
        fh->f_flags = (fh->f_flags & ~OMPIO_COLLECTIVE_OP) | coll;
    } else {
        done = fh->f_fbtl->fbtl_preadv(fh);
    }
    fh->f_io_array = NULL;
    fh->f_num_of_io_entries = 0;
    return done;
}

/* The MPI error class of a failed file-system call, from its errno (read
 * right after the fbtl returned: nothing in between makes a call). */
static int lat_io_class(int err)
{
    switch (err) {
    case ENOSPC:
        return MPI_ERR_NO_SPACE;
#ifdef EDQUOT
    case EDQUOT:
        return MPI_ERR_QUOTA;
#endif
    case EACCES:
    case EPERM:
    case EROFS:
        return MPI_ERR_ACCESS;
    default:
        return MPI_ERR_IO;
    }
}

/* Write/read the gather list x->io (x->nio entries, in file order).  A
 * read that comes back short met the end of the file: the fbtl fills the
 * entries in order up to it (sieving or not), so the first one not filled
 * says where it is, as far as any requested byte is concerned. */
static int lat_io_flush(mca_fcoll_la_twophase_xchg_t *x, bool write)
{
    ssize_t done;
    int i;

    if (0 == x->nio) {
        return OMPI_SUCCESS;
    }
    errno = 0;
    done = lat_fbtl_io(&x->plan, x->io, x->nio, write);
    if (done < 0) {
        return lat_io_class(errno);
    }
    for (i = 0; !write && i < x->nio; i++) {
        if ((size_t) done < x->io[i].length) {
            int64_t end = (int64_t) (intptr_t) x->io[i].offset + (int64_t) done;
            x->eof = end < x->eof ? end : x->eof;
            break;
        }
        done -= (ssize_t) x->io[i].length;
    }
    return OMPI_SUCCESS;
}

/* Write/read the covered ranges x->cov (sorted, disjoint) between the
 * file and the window buffer. */
static int lat_window_io(mca_fcoll_la_twophase_xchg_t *x)
{
    int i, ret = OMPI_SUCCESS;

    x->nio = 0;
    for (i = 0; OMPI_SUCCESS == ret && i < x->cov.n; i++) {
        ret = lat_io_push(x, x->winbuf + (x->cov.v[i].off - x->ws), x->cov.v[i].off,
                          x->cov.v[i].len);
    }
    return OMPI_SUCCESS == ret ? lat_io_flush(x, x->write) : ret;
}

/* Write/read the given blocks of my own data straight between my buffer
 * and the file (a window that holds no other process's data, or all my
 * pieces when I serve myself). */
static int lat_direct_io(mca_fcoll_la_twophase_xchg_t *x,
                         const mca_fcoll_la_twophase_pvec_t *blocks, bool write)
{
    int i, ret = OMPI_SUCCESS;

    x->nio = 0;
    for (i = 0; OMPI_SUCCESS == ret && i < blocks->n; i++) {
        ret = lat_io_push_mine(x, blocks->v[i].off, blocks->v[i].pos, blocks->v[i].len);
    }
    return OMPI_SUCCESS == ret ? lat_io_flush(x, write) : ret;
}

/* Final agreement on errors: every rank returns the same MPI error class,
 * the highest any rank met (an Open MPI internal code counts as its MPI
 * class), or success when none failed.  The same reduction gives every
 * rank the end of the file that any aggregator's read met (*eof, the
 * lowest; negated so that one MPI_MAX does both). */
static int lat_agree(ompio_file_t *fh, int ret, int64_t *eof)
{
    int64_t mine[2], any[2];
    int r;

    mine[0] = (OMPI_SUCCESS == ret) ? 0 : ompi_errcode_get_mpi_code(ret);
    if (OMPI_SUCCESS != ret && (mine[0] <= MPI_SUCCESS || mine[0] > MPI_ERR_LASTCODE)) {
        mine[0] = MPI_ERR_OTHER;
    }
    mine[1] = -*eof;
    r = fh->f_comm->c_coll->coll_allreduce(mine, any, 2, MPI_INT64_T, MPI_MAX, fh->f_comm,
                                           fh->f_comm->c_coll->coll_allreduce_module);
    if (OMPI_SUCCESS != r) {
        return OMPI_SUCCESS == ret ? r : (int) mine[0];
    }
    *eof = -any[1];
    return 0 == any[0] ? OMPI_SUCCESS : (int) any[0];
}

/* n cursors, cursor i over list entries [first[i], first[i + 1]). */
static void lat_cursors_init(mca_fcoll_la_twophase_cursor_t *cur, int n, const int *first)
{
    int i;
    for (i = 0; i < n; i++) {
        cur[i].idx = first[i];
        cur[i].end = first[i + 1];
        cur[i].done = 0;
    }
}

/* Post x->tv to or from peer and count what is sent (bytes of data). */
static int lat_xchg_post(mca_fcoll_la_twophase_xchg_t *x, bool send, int peer, int64_t bytes)
{
    mca_fcoll_la_twophase_stats_t *st = &mca_fcoll_la_twophase_stats;
    int ret = lat_post(&x->tv, send, peer, LAT_TAG_DATA, x->fh->f_comm,
                       &x->reqs[x->nreq], &x->types[x->nreq]);
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    x->nreq++;
    if (send) {
        st->bytes_exchanged_last += (unsigned long long) bytes;
        st->messages_last++;
    }
    return OMPI_SUCCESS;
}

/* ---------------------------------------------------------------- API */

int mca_fcoll_la_twophase_xchg_begin(mca_fcoll_la_twophase_xchg_t *x, ompio_file_t *fh,
                                     const void *buf, int count,
                                     struct ompi_datatype_t *datatype,
                                     ompi_status_public_t *status, bool write)
{
    mca_fcoll_la_twophase_stats_t *st = &mca_fcoll_la_twophase_stats;
    mca_fcoll_la_twophase_plan_t *plan = &x->plan;
    int A, P = fh->f_size, ret;

    memset(x, 0, sizeof(*x));
    x->fh = fh;
    x->write = write;
    x->eof = INT64_MAX;
    x->status = status;
    x->t0 = mca_fcoll_la_twophase_now();
    st->bytes_exchanged_last = 0;
    st->bytes_in_place_last = 0;
    st->messages_last = 0;
    st->buffer_last = 0;
    st->io_time_last = 0.0;

    ret = mca_fcoll_la_twophase_plan_build(fh, buf, count, datatype, write, plan);
    st->plan_time_last = mca_fcoll_la_twophase_now() - x->t0;
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    if (MPI_STATUS_IGNORE != status) {
        status->_ucount = plan->max_data;
    }
    A = plan->num_domains;
    if (0 == A) {
        return OMPI_SUCCESS;    /* no windows: next() ends at once */
    }

    /* at most one message per process and one per domain in a window */
    x->scur = malloc((size_t) A * sizeof(*x->scur));
    x->reqs = malloc(((size_t) P + (size_t) A) * sizeof(*x->reqs));
    x->types = calloc((size_t) P + (size_t) A, sizeof(*x->types));
    if (NULL == x->scur || NULL == x->reqs || NULL == x->types) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    lat_cursors_init(x->scur, A, plan->dom_first);
    if (plan->self_io) {
        /* all my pieces, straight between my buffer and the file, a
         * cycle's bytes per fbtl call (memory blocks have int lengths, and
         * the posix fbtl does not resume a preadv/pwritev cut short at
         * 2 GiB); then the windows only serve the others (my cursors are
         * empty, my counts were 0) */
        double t1 = mca_fcoll_la_twophase_now();
        int64_t batch = 0;
        int d, i;
        for (d = 0; d < A; d++) {
            x->scur[d].idx = x->scur[d].end;
        }
        x->mine.n = 0;
        for (i = 0, ret = OMPI_SUCCESS; i < plan->npieces && OMPI_SUCCESS == ret; i++) {
            const mca_fcoll_la_twophase_piece_t *p = &plan->pieces[i];
            int64_t k, take;
            for (k = 0; k < p->len && OMPI_SUCCESS == ret; k += take) {
                take = p->len - k < plan->cycle - batch ? p->len - k : plan->cycle - batch;
                ret = lat_pvec_push(&x->mine, p->off + k, take, p->pos + k);
                batch += take;
                if (OMPI_SUCCESS == ret && (batch == plan->cycle ||
                                            (i == plan->npieces - 1 && k + take == p->len))) {
                    ret = lat_direct_io(x, &x->mine, write);
                    x->mine.n = 0;
                    batch = 0;
                }
            }
        }
        st->io_time_last += mca_fcoll_la_twophase_now() - t1;
        if (write) {
            st->self_writes++;
        } else {
            st->self_reads++;
        }
        if (OMPI_SUCCESS != ret) {
            x->io_err = ret;    /* reported by everyone at the end */
        }
    }
    if (plan->my_domain >= 0) {
        x->rcur = malloc((size_t) P * sizeof(*x->rcur));
        x->rpos = malloc((size_t) P * sizeof(*x->rpos));
        x->first = malloc(((size_t) P + 2) * sizeof(int));
        x->mhead = malloc(((size_t) P + 1) * sizeof(int));
        x->mheap = malloc(((size_t) P + 1) * sizeof(int));
        /* the cycle buffer: one window, never more than the domain */
        st->buffer_last = (unsigned long long) (plan->fd_size < plan->cycle ? plan->fd_size
                                                                             : plan->cycle);
        x->winsize = (int64_t) st->buffer_last;
        x->winbuf = malloc((size_t) st->buffer_last);
        if (NULL == x->rcur || NULL == x->rpos || NULL == x->first || NULL == x->mhead ||
            NULL == x->mheap || NULL == x->winbuf) {
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
        lat_cursors_init(x->rcur, P, plan->meta_first);
    }
    return OMPI_SUCCESS;
}

bool mca_fcoll_la_twophase_xchg_next(mca_fcoll_la_twophase_xchg_t *x)
{
    const mca_fcoll_la_twophase_plan_t *plan = &x->plan;
    int64_t c = INT64_MAX, t;
    int d, r;

    for (d = 0; d < plan->num_domains; d++) {
        t = mca_fcoll_la_twophase_next_cycle(plan, plan->pieces, &x->scur[d], d);
        c = t < c ? t : c;
    }
    if (plan->my_domain >= 0) {
        for (r = 0; r < plan->nprocs; r++) {
            t = mca_fcoll_la_twophase_next_cycle(plan, plan->meta, &x->rcur[r],
                                                 plan->my_domain);
            c = t < c ? t : c;
        }
    }
    if (INT64_MAX == c) {
        return false;
    }
    x->c = c;
    if (plan->my_domain >= 0) {
        mca_fcoll_la_twophase_window(plan, plan->my_domain, c, &x->ws, &x->we);
    }
    return true;
}

int mca_fcoll_la_twophase_xchg_peers(mca_fcoll_la_twophase_xchg_t *x)
{
    const mca_fcoll_la_twophase_plan_t *plan = &x->plan;
    int64_t ws, we;
    int d, i, ret;

    for (d = 0; d < plan->num_domains; d++) {
        int64_t bytes = 0;
        if (d == plan->my_domain) {
            continue;
        }
        mca_fcoll_la_twophase_window(plan, d, x->c, &ws, &we);
        x->mine.n = 0;
        ret = lat_take(plan->pieces, &x->scur[d], we, &x->mine);
        if (OMPI_SUCCESS != ret) {
            return ret;
        }
        if (0 == x->mine.n) {
            continue;
        }
        x->tv.n = 0;
        for (i = 0; i < x->mine.n; i++) {
            ret = lat_mem_blocks(plan, x->mine.v[i].pos, x->mine.v[i].len, &x->tv);
            if (OMPI_SUCCESS != ret) {
                return ret;
            }
            bytes += x->mine.v[i].len;
        }
        ret = lat_xchg_post(x, x->write, plan->agg[d], bytes);
        if (OMPI_SUCCESS != ret) {
            return ret;
        }
    }
    return OMPI_SUCCESS;
}

int mca_fcoll_la_twophase_xchg_window(mca_fcoll_la_twophase_xchg_t *x)
{
    const mca_fcoll_la_twophase_plan_t *plan = &x->plan;
    int P = plan->nprocs, r, ret;

    if (plan->my_domain < 0) {
        return OMPI_SUCCESS;
    }
    x->blocks.n = 0;
    for (r = 0; r < P; r++) {
        x->first[r] = x->blocks.n;
        ret = lat_take(plan->meta, &x->rcur[r], x->we, &x->blocks);
        if (OMPI_SUCCESS != ret) {
            return ret;
        }
    }
    x->first[P] = x->blocks.n;
    ret = lat_take(plan->pieces, &x->scur[plan->my_domain], x->we, &x->blocks);
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    x->first[P + 1] = x->blocks.n;
    x->direct = (0 == x->first[P]);
    x->iov = false;
    if (x->write && !x->direct && mca_fcoll_la_twophase_write_iov_min > 0) {
        /* Blocks this large cost a gather list little per byte: receive
         * each process's data contiguously (a contiguous receive of a
         * contiguous send is a single copy where the BTL can read the
         * sender's memory, e.g. vader's CMA; a typed one is copied in and
         * out of fragments) and write my own blocks from my buffer, without
         * copying them into the window.  The received data must fit in the
         * buffer: overlapping writes may exceed the window. */
        int64_t need = (int64_t) mca_fcoll_la_twophase_write_iov_min * x->blocks.n;
        int64_t others = 0, all = 0;
        int i;
        /* my own blocks are disjoint, so all <= others + (we - ws): with
         * others limited to the buffer, many small blocks (interleaved
         * access) are rejected without a pass over them */
        if (need <= x->winsize + (x->we - x->ws)) {
            for (i = 0; i < x->blocks.n; i++) {
                all += x->blocks.v[i].len;
                if (i < x->first[P]) {
                    others = all;
                }
            }
            x->iov = others <= x->winsize && all >= need;
        }
    }
    return OMPI_SUCCESS;
}

int mca_fcoll_la_twophase_xchg_post_window(mca_fcoll_la_twophase_xchg_t *x)
{
    int64_t packed = 0;
    int r, i, ret;

    if (x->plan.my_domain < 0) {
        return OMPI_SUCCESS;
    }
    for (r = 0; r < x->plan.nprocs; r++) {
        int64_t bytes = 0;
        int b = x->first[r], e = x->first[r + 1];
        x->rpos[r] = packed;
        if (b == e) {
            continue;
        }
        x->tv.n = 0;
        if (x->iov) {
            /* process r's bytes in the order it sends them, one after
             * the other process's in the buffer */
            for (i = b; i < e; i++) {
                bytes += x->blocks.v[i].len;
            }
            ret = lat_tvec_push(&x->tv, (ptrdiff_t) (x->winbuf + packed), bytes);
            packed += bytes;
            if (OMPI_SUCCESS == ret) {
                ret = lat_xchg_post(x, false, r, bytes);
            }
            if (OMPI_SUCCESS != ret) {
                return ret;
            }
            continue;
        }
        for (i = b; i < e; i++) {
            ret = lat_tvec_push(&x->tv, (ptrdiff_t) (x->winbuf + (x->blocks.v[i].off - x->ws)),
                                x->blocks.v[i].len);
            if (OMPI_SUCCESS != ret) {
                return ret;
            }
            bytes += x->blocks.v[i].len;
        }
        ret = lat_xchg_post(x, !x->write, r, bytes);
        if (OMPI_SUCCESS != ret) {
            return ret;
        }
    }
    return OMPI_SUCCESS;
}

int mca_fcoll_la_twophase_xchg_own(mca_fcoll_la_twophase_xchg_t *x)
{
    mca_fcoll_la_twophase_stats_t *st = &mca_fcoll_la_twophase_stats;
    mca_fcoll_la_twophase_pvec_t *bl = &x->blocks;
    int i, k, ret;

    if (x->plan.my_domain < 0) {
        return OMPI_SUCCESS;
    }
    for (i = x->first[x->plan.nprocs]; i < bl->n; i++) {
        char *win = x->winbuf + (bl->v[i].off - x->ws);
        st->bytes_in_place_last += (unsigned long long) bl->v[i].len;
        if (x->direct || x->iov) {
            continue;
        }
        x->own.n = 0;
        ret = lat_mem_blocks(&x->plan, bl->v[i].pos, bl->v[i].len, &x->own);
        if (OMPI_SUCCESS != ret) {
            return ret;
        }
        for (k = 0; k < x->own.n; k++) {
            if (x->write) {
                memcpy(win, (const void *) x->own.addr[k], (size_t) x->own.blen[k]);
            } else {
                memcpy((void *) x->own.addr[k], win, (size_t) x->own.blen[k]);
            }
            win += x->own.blen[k];
        }
    }
    return OMPI_SUCCESS;
}

int mca_fcoll_la_twophase_xchg_io(mca_fcoll_la_twophase_xchg_t *x)
{
    mca_fcoll_la_twophase_stats_t *st = &mca_fcoll_la_twophase_stats;
    double t0 = mca_fcoll_la_twophase_now();
    int ret;

    if (x->plan.my_domain < 0) {
        return OMPI_SUCCESS;
    }
    if (x->direct) {
        ret = lat_direct_io(x, &x->blocks, x->write);
    } else {
        ret = lat_merge(x, x->iov);
        if (OMPI_SUCCESS != ret) {
            return ret;
        }
        if (x->iov) {
            ret = lat_io_flush(x, true);
            st->iov_windows++;
        } else {
            ret = lat_window_io(x);
        }
    }
    st->io_time_last += mca_fcoll_la_twophase_now() - t0;
    /* an I/O error must not break the exchange protocol: remember it and
     * keep going, every process learns it at the end */
    if (OMPI_SUCCESS != ret) {
        x->io_err = ret;
    }
    return OMPI_SUCCESS;
}

int mca_fcoll_la_twophase_xchg_wait(mca_fcoll_la_twophase_xchg_t *x)
{
    int i, ret = ompi_request_wait_all(x->nreq, x->reqs, MPI_STATUSES_IGNORE);
    for (i = 0; i < x->nreq; i++) {
        if (NULL != x->types[i]) {
            ompi_datatype_destroy(&x->types[i]);
            x->types[i] = NULL;
        }
    }
    x->nreq = 0;
    return ret;
}

int mca_fcoll_la_twophase_xchg_end(mca_fcoll_la_twophase_xchg_t *x, int ret)
{
    mca_fcoll_la_twophase_stats_t *st = &mca_fcoll_la_twophase_stats;
    bool probed = x->plan.probed, self = x->plan.self_io;
    double bytes = (double) x->plan.max_data;
    int rc;

    if (x->nreq > 0) {
        /* an error after posting: complete what was posted before leaving */
        (void) mca_fcoll_la_twophase_xchg_wait(x);
    }
    st->bytes_exchanged += st->bytes_exchanged_last;
    st->bytes_in_place += st->bytes_in_place_last;
    st->messages += st->messages_last;
    free(x->scur);
    free(x->rcur);
    free(x->rpos);
    free(x->io);
    free(x->first);
    free(x->mhead);
    free(x->mheap);
    free(x->reqs);
    free(x->types);
    free(x->winbuf);
    free(x->blocks.v);
    free(x->mine.v);
    free(x->cov.v);
    free(x->tv.blen);
    free(x->tv.addr);
    free(x->own.blen);
    free(x->own.addr);
    rc = lat_agree(x->fh, OMPI_SUCCESS != ret ? ret : x->io_err, &x->eof);
    if (OMPI_SUCCESS == rc && !x->write && INT64_MAX != x->eof &&
        MPI_STATUS_IGNORE != x->status) {
        /* a read that met the end of the file counts my bytes before it
         * (a view's pieces never go backwards: those are a prefix of my
         * buffer), as an independent read does */
        size_t n = 0;
        int i;
        for (i = 0; i < x->plan.npieces; i++) {
            const mca_fcoll_la_twophase_piece_t *p = &x->plan.pieces[i];
            if (p->off < x->eof) {
                n += (size_t) ((p->off + p->len <= x->eof) ? p->len : x->eof - p->off);
            }
        }
        x->status->_ucount = n;
    }
    mca_fcoll_la_twophase_plan_free(&x->plan);
    if (probed && OMPI_SUCCESS == rc) {
        /* the probe's rate of this path: my bytes over the whole call, the
         * final agreement included (a process that served itself waits
         * there for the others, as it would have in the exchange) */
        double t = mca_fcoll_la_twophase_now() - x->t0, *r = &st->probe_rate[self ? 1 : 0];
        if (t > 0.0) {
            *r = (0.0 == *r) ? bytes / t : 0.5 * (*r + bytes / t);
        }
    }
    return rc;
}

int mca_fcoll_la_twophase_xchg_run(ompio_file_t *fh, const void *buf, int count,
                                   struct ompi_datatype_t *datatype,
                                   ompi_status_public_t *status, bool write,
                                   const mca_fcoll_la_twophase_xchg_step_t *steps)
{
    mca_fcoll_la_twophase_xchg_t x;
    const mca_fcoll_la_twophase_xchg_step_t *s;
    int ret = mca_fcoll_la_twophase_xchg_begin(&x, fh, buf, count, datatype, status, write);

    while (OMPI_SUCCESS == ret && mca_fcoll_la_twophase_xchg_next(&x)) {
        for (s = steps; OMPI_SUCCESS == ret && NULL != *s; s++) {
            ret = (*s)(&x);
        }
    }
    ret = mca_fcoll_la_twophase_xchg_end(&x, ret);
    if (OMPI_SUCCESS != ret && MPI_STATUS_IGNORE != status) {
        /* which of my bytes reached the file (or my buffer) through the
         * aggregators is not known: a failed call counts none (issue 35) */
        status->_ucount = 0;
    }
    return ret;
}
