/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * pml/zcomp receive side.  zcomp posts no receive of its own for the user:
 * every receive, probe and matched receive is the wrapped PML's, matched in
 * its order.  When a marked (compressed) message matches a receive request,
 * the wrapped PML calls mca_pml_zcomp_recv_hook with the payload that came
 * with the match (zcomp's header, and the only chunk when it travels
 * inline).  The hook takes over the request's completion: the wrapped PML
 * completes it after the header, the callback keeps it pending, and the
 * progress engine receives the chunks from that source on the message's
 * private tag, checks and decompresses each as it arrives straight into the
 * user's buffer (through the convertor when the datatype is not
 * contiguous), then sets the status (original size, MPI_ERR_TRUNCATE,
 * corruption) and completes the request.
 */
#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "opal/runtime/opal_progress.h"
#include "opal/util/show_help.h"
#include "ompi/mca/pml/base/pml_base_request.h"
#include "ompi/mca/pml/base/pml_base_recvreq.h"

#include "pml_zcomp.h"

typedef struct zc_rslot_t {
    ompi_request_t *req;
    char *buf;
} zc_rslot_t;

typedef struct zc_rstate_t {
    opal_list_item_t super;
    ompi_request_t *req;   /* the user's request (NULL: freed before the match) */
    ompi_request_complete_fn_t prev_cb;
    void *prev_cb_data;
    ompi_request_free_fn_t orig_free;
    bool user_freed;
    bool ready;            /* the wrapped PML completed the header */
    bool started;
    zc_hdr_t hdr;
    bool hdr_ok;
    char *inl;             /* inline chunk (zc_chunk_hdr_t + data) */
    size_t inl_len;
    void *addr;
    size_t count;
    ompi_datatype_t *dtype;
    ompi_communicator_t *comm;
    int src, tag;
    size_t capacity;
    bool contig;
    char *base;
    opal_convertor_t conv;
    bool conv_ready;
    uint32_t conv_complete; /* the request convertor's CONVERTOR_COMPLETED before the hook */
    uint32_t posted, done;
    zc_rslot_t *slots;
    int nslots;
    char *dbuf;
    int error;
    char why[160];
    double t_start;
} zc_rstate_t;
static OBJ_CLASS_INSTANCE(zc_rstate_t, opal_list_item_t, NULL, NULL);

static int zc_recv_complete_cb(ompi_request_t *req);
static int zc_recv_now_cb(ompi_request_t *req);
static int zc_recv_free(ompi_request_t **request);
static bool zc_rstate_start(zc_rstate_t *st);
static void zc_rstate_report(zc_rstate_t *st);
static void zc_rstate_release(zc_rstate_t *st);

static size_t zc_gather(const struct iovec *iov, size_t iovcnt, size_t skip, void *out, size_t len)
{
    size_t i, got = 0;
    for (i = 0; i < iovcnt && got < len; i++) {
        size_t n = iov[i].iov_len;
        const char *p = (const char *) iov[i].iov_base;
        if (skip >= n) {
            skip -= n;
            continue;
        }
        p += skip;
        n -= skip;
        skip = 0;
        if (n > len - got) {
            n = len - got;
        }
        memcpy((char *) out + got, p, n);
        got += n;
    }
    return got;
}

static void zc_set_error(zc_rstate_t *st, const char *why)
{
    if (MPI_SUCCESS == st->error) {
        st->error = MPI_ERR_OTHER;
        snprintf(st->why, sizeof(st->why), "%s", why);
    }
}

void mca_pml_zcomp_recv_hook(struct ompi_request_t *req, const struct iovec *iov, size_t iovcnt)
{
    mca_pml_base_request_t *b = (mca_pml_base_request_t *) req;
    zc_rstate_t *st = OBJ_NEW(zc_rstate_t);
    size_t total = 0, i;

    if (NULL == st) {
        return; /* the user gets the raw header: nothing better to do */
    }
    st->req = req;
    st->user_freed = false;
    st->ready = false;
    st->started = false;
    st->inl = NULL;
    st->inl_len = 0;
    st->conv_ready = false;
    st->posted = st->done = 0;
    st->slots = NULL;
    st->nslots = 0;
    st->dbuf = NULL;
    st->error = MPI_SUCCESS;
    st->why[0] = '\0';
    st->t_start = mca_pml_zcomp_now();
    st->addr = b->req_addr;
    st->count = b->req_count;
    st->dtype = b->req_datatype;
    st->comm = b->req_comm;
    st->src = req->req_status.MPI_SOURCE;
    st->tag = req->req_status.MPI_TAG;
    OBJ_RETAIN(st->comm);
    OMPI_DATATYPE_RETAIN(st->dtype);

    for (i = 0; i < iovcnt; i++) {
        total += iov[i].iov_len;
    }
    st->hdr_ok = false;
    memset(&st->hdr, 0, sizeof(st->hdr));
    if (total >= sizeof(zc_hdr_t) && sizeof(zc_hdr_t) == zc_gather(iov, iovcnt, 0, &st->hdr,
                                                                   sizeof(zc_hdr_t))) {
        zc_hdr_t *h = &st->hdr;
        st->hdr_ok = ZC_MAGIC == h->magic && ZC_VERSION == h->version
                     && h->hsum == zc_checksum(h, offsetof(zc_hdr_t, hsum))
                     && h->chunk_size >= 1 && h->chunk_size <= (1ull << 30)
                     && h->nchunks == (h->orig_len + h->chunk_size - 1) / h->chunk_size;
        if (st->hdr_ok && (h->flags & ZC_HDR_INLINE)) {
            st->inl_len = total - sizeof(zc_hdr_t);
            st->inl = malloc(st->inl_len > 0 ? st->inl_len : 1);
            if (NULL == st->inl || 1 != h->nchunks
                || st->inl_len != zc_gather(iov, iovcnt, sizeof(zc_hdr_t), st->inl,
                                            st->inl_len)) {
                st->hdr_ok = false;
            }
        }
    }
    if (!st->hdr_ok) {
        zc_set_error(st, "its header is corrupt or incomplete");
    }

    /* The wrapped PML (ob1) would next unpack what came with the match
     * (zcomp's header, maybe the inline chunk) into the user's buffer
     * through the request's convertor: bytes that are not the user's, up
     * to the buffer's whole capacity (past the message's end: a receive
     * larger than the message kept header bytes there), in a length that
     * need not be a whole number of the datatype's elements, which 4.1.4's
     * convertor can turn into writes outside the buffer (an indexed type of
     * long double complex overwrote the stack).  A convertor marked
     * complete unpacks nothing (ob1's posted-receive path), and a packed
     * size of 0 skips the unpack of progress_match; marked messages are
     * always eager single fragments (zcomp sends them only within the
     * peer's mark_room).  zcomp writes the data itself, and gives the
     * convertor's state back before completing (a persistent request
     * starts again with it). */
    ((mca_pml_base_recv_request_t *) b)->req_bytes_packed = 0;
    st->conv_complete = b->req_convertor.flags & CONVERTOR_COMPLETED;
    b->req_convertor.flags |= CONVERTOR_COMPLETED;

    if (!b->req_free_called && (!st->hdr_ok || (st->hdr.flags & ZC_HDR_INLINE))) {
        /* Everything is here: decode now, and let the wrapped PML complete
         * the request in this same call, as it would a raw message (a
         * request completed later, from zcomp's progress, is allowed by MPI
         * but unlike stock: a program testing right after an MPI_Ssend to
         * itself finds its receive still pending).  Only the status is
         * left for the completion callback; nothing here outlives it but
         * st itself. */
        zc_rstate_start(st);
        zc_rstate_report(st);
        zc_rstate_release(st);
        st->prev_cb = req->req_complete_cb;
        st->prev_cb_data = req->req_complete_cb_data;
        req->req_complete_cb_data = st;
        req->req_complete_cb = zc_recv_now_cb;
        return;
    }
    if (b->req_free_called) {
        /* freed by the user before it matched: the wrapped PML will recycle
         * it without completing it; receive (and drop) the chunks anyway so
         * that the sender completes */
        st->req = NULL;
        st->ready = true;
    } else {
        st->prev_cb = req->req_complete_cb;
        st->prev_cb_data = req->req_complete_cb_data;
        req->req_complete_cb_data = st;
        req->req_complete_cb = zc_recv_complete_cb;
        st->orig_free = req->req_free;
        req->req_free = zc_recv_free;
    }
    zc_progress_needed();
    OPAL_THREAD_LOCK(&mca_pml_zcomp.lock);
    opal_list_append(&mca_pml_zcomp.recvs, &st->super);
    OPAL_THREAD_ADD_FETCH32(&mca_pml_zcomp.nactive, 1);
    OPAL_THREAD_UNLOCK(&mca_pml_zcomp.lock);
    opal_progress_event_users_increment(); /* see zc_sreq_launch */
}

/* The wrapped PML completed the header message: keep the request pending.
 * It may run in another thread than zcomp's progress: the release store
 * orders ob1's last writes to the request (its status, the convertor state
 * the hook set) before zcomp's progress takes the request over (acquire in
 * zc_rstate_advance). */
static int zc_recv_complete_cb(ompi_request_t *req)
{
    zc_rstate_t *st = (zc_rstate_t *) req->req_complete_cb_data;
    __atomic_store_n(&st->ready, true, __ATOMIC_RELEASE);
    return 1;
}

static int zc_recv_free(ompi_request_t **request)
{
    /* MPI_Request_free while the chunks are still coming */
    ompi_request_t *req = *request;
    zc_rstate_t *st = (zc_rstate_t *) req->req_complete_cb_data;
    OPAL_THREAD_LOCK(&mca_pml_zcomp.lock);
    OPAL_LIST_FOREACH(st, &mca_pml_zcomp.recvs, zc_rstate_t) {
        if (st->req == req) {
            st->user_freed = true;
            break;
        }
    }
    OPAL_THREAD_UNLOCK(&mca_pml_zcomp.lock);
    *request = MPI_REQUEST_NULL;
    return OMPI_SUCCESS;
}

/* Put raw chunk bytes at their place in the user's buffer. */
static void zc_deliver(zc_rstate_t *st, size_t off, const char *data, size_t n)
{
    if (off >= st->capacity) {
        return;
    }
    if (n > st->capacity - off) {
        n = st->capacity - off;
    }
    if (st->contig) {
        memcpy(st->base + off, data, n);
    } else {
        struct iovec iov = {.iov_base = (void *) data, .iov_len = n};
        uint32_t iovcnt = 1;
        size_t max = n, pos = off;
        if (st->conv.bConverted != off) {
            opal_convertor_set_position(&st->conv, &pos);
        }
        opal_convertor_unpack(&st->conv, &iov, &iovcnt, &max);
    }
}

/* Check and decode one chunk message (header + data, len bytes). */
static void zc_chunk(zc_rstate_t *st, uint32_t k, const char *msg, size_t len)
{
    zc_chunk_hdr_t h;
    const char *data = msg + sizeof(h);
    size_t off = (size_t) k * st->hdr.chunk_size;
    size_t expect = st->hdr.orig_len - off < st->hdr.chunk_size ? st->hdr.orig_len - off
                                                                : st->hdr.chunk_size;
    const opal_compress_codec_t *c = NULL;
    uint64_t sum;

    if (MPI_SUCCESS != st->error) {
        return; /* draining */
    }
    if (len < sizeof(h)) {
        zc_set_error(st, "a chunk is shorter than its header");
        return;
    }
    memcpy(&h, msg, sizeof(h));
    if (ZC_CHUNK_MAGIC != h.magic || h.index != k || h.raw_len != expect
        || h.clen != len - sizeof(h) || h.clen > expect) {
        zc_set_error(st, "a chunk header is corrupt");
        return;
    }
    sum = zc_chunk_sum(&h, data);
    if (sum != h.csum) {
        zc_set_error(st, "a chunk's checksum does not match its contents");
        return;
    }
    if (OPAL_COMPRESS_ID_RAW == h.codec) {
        if (h.clen != expect) {
            zc_set_error(st, "a stored chunk has the wrong length");
            return;
        }
        zc_deliver(st, off, data, expect);
        return;
    }
    c = opal_compress_base_find_id(h.codec);
    if (NULL == c) {
        zc_set_error(st, "a chunk uses a codec this process does not have");
        return;
    }
    if (st->contig && off + expect <= st->capacity) {
        /* straight into the user's buffer: the codec never writes past cap */
        if ((ssize_t) expect != c->decompress(data, (size_t) h.clen, st->base + off, expect,
                                              expect)) {
            zc_set_error(st, "a chunk does not decompress");
            return;
        }
    } else {
        if (NULL == st->dbuf) {
            st->dbuf = malloc(st->hdr.chunk_size);
            if (NULL == st->dbuf) {
                zc_set_error(st, "out of memory");
                return;
            }
        }
        if ((ssize_t) expect != c->decompress(data, (size_t) h.clen, st->dbuf, expect, expect)) {
            zc_set_error(st, "a chunk does not decompress");
            return;
        }
        zc_deliver(st, off, st->dbuf, expect);
    }
}

/* Everything st holds; st itself stays. */
static void zc_rstate_release(zc_rstate_t *st)
{
    int i;
    for (i = 0; i < st->nslots; i++) {
        free(st->slots[i].buf);
    }
    free(st->slots);
    free(st->dbuf);
    free(st->inl);
    if (st->conv_ready) {
        opal_convertor_cleanup(&st->conv);
        OBJ_DESTRUCT(&st->conv);
    }
    st->slots = NULL;
    st->nslots = 0;
    st->dbuf = NULL;
    st->inl = NULL;
    st->conv_ready = false;
    if (NULL != st->dtype) {
        OMPI_DATATYPE_RELEASE(st->dtype);
        st->dtype = NULL;
    }
    if (NULL != st->comm) {
        OBJ_RELEASE(st->comm);
        st->comm = NULL;
    }
}

static void zc_rstate_destroy(zc_rstate_t *st)
{
    zc_rstate_release(st);
    OBJ_RELEASE(st);
}

/* Counters, the corruption message and the verbose line of one message. */
static void zc_rstate_report(zc_rstate_t *st)
{
    zc_count(&mca_pml_zcomp.pv_recv_compressed, 1);
    if (MPI_SUCCESS != st->error) {
        zc_count(&mca_pml_zcomp.pv_recv_errors, 1);
        opal_show_help("help-pml-zcomp.txt", "corrupt-message", true,
                       OMPI_PROC_MY_NAME->vpid, st->src, st->tag, st->comm->c_name,
                       (unsigned long long) st->hdr.orig_len, st->why);
    }
    ZC_VERBOSE(20, "zcomp: received %llu B from %d tag %d in %u chunks (%.3f ms)%s%s",
               (unsigned long long) st->hdr.orig_len, st->src, st->tag, st->hdr.nchunks,
               1e3 * (mca_pml_zcomp_now() - st->t_start),
               MPI_SUCCESS != st->error ? ": " : "", st->why);
}

/* The request's status as a raw receive of the original message would
 * have it, and its convertor's state back (a persistent request starts
 * again with it). */
static void zc_rstate_settle(zc_rstate_t *st, ompi_request_t *req)
{
    opal_convertor_t *rc = &((mca_pml_base_request_t *) req)->req_convertor;
    rc->flags = (rc->flags & ~CONVERTOR_COMPLETED) | st->conv_complete;
    req->req_status._ucount = st->hdr_ok ? (size_t) st->hdr.orig_len : 0;
    if (MPI_SUCCESS != st->error) {
        req->req_status.MPI_ERROR = st->error;
    } else if (st->hdr.orig_len > st->capacity) {
        req->req_status.MPI_ERROR = MPI_ERR_TRUNCATE;
    } else {
        req->req_status.MPI_ERROR = MPI_SUCCESS;
    }
}

static void zc_rstate_finish(zc_rstate_t *st)
{
    ompi_request_t *req = st->req;
    zc_rstate_report(st);
    if (NULL != req) {
        zc_rstate_settle(st, req);
        req->req_free = st->orig_free;
        if (st->user_freed) {
            ompi_request_t *r = req;
            st->orig_free(&r);
        } else {
            if (NULL == req->req_complete_cb) {
                req->req_complete_cb = st->prev_cb;
                req->req_complete_cb_data = st->prev_cb_data;
            }
            ompi_request_complete(req, true);
        }
    }
    zc_rstate_destroy(st);
}

/* A message decoded in the hook (inline chunk, or a corrupt header): the
 * wrapped PML completes the request now, as it would a raw message, with
 * the status zcomp sets here. */
static int zc_recv_now_cb(ompi_request_t *req)
{
    zc_rstate_t *st = (zc_rstate_t *) req->req_complete_cb_data;
    ompi_request_complete_fn_t prev = st->prev_cb;
    void *prev_data = st->prev_cb_data;

    zc_rstate_settle(st, req);
    OBJ_RELEASE(st);
    req->req_complete_cb_data = prev_data;
    return NULL != prev ? prev(req) : 0;
}

static int zc_post_chunk(zc_rstate_t *st, int slot)
{
    int rc = mca_pml_zcomp_wrapped.pml_irecv(st->slots[slot].buf,
                                             sizeof(zc_chunk_hdr_t) + st->hdr.chunk_size,
                                             MPI_BYTE, st->src, st->hdr.ptag, st->comm,
                                             &st->slots[slot].req);
    if (OMPI_SUCCESS != rc) {
        st->slots[slot].req = NULL;
        return rc;
    }
    st->posted++;
    return OMPI_SUCCESS;
}

/* Begin once the header is in; true when already finished. */
static bool zc_rstate_start(zc_rstate_t *st)
{
    size_t tsize = 0;
    int i;

    st->started = true;
    if (!st->hdr_ok) {
        return true; /* cannot know where the chunks are */
    }
    ompi_datatype_type_size(st->dtype, &tsize);
    st->capacity = tsize * st->count;
    st->contig = opal_datatype_is_contiguous_memory_layout(&st->dtype->super, st->count);
    if (NULL == st->req) {
        st->capacity = 0; /* nobody wants the data */
    } else if (st->contig) {
        st->base = (char *) st->addr + st->dtype->super.true_lb;
    } else {
        OBJ_CONSTRUCT(&st->conv, opal_convertor_t);
        opal_convertor_copy_and_prepare_for_recv(ompi_mpi_local_convertor, &st->dtype->super,
                                                 st->count, st->addr, 0, &st->conv);
        st->conv_ready = true;
    }
    if (st->hdr.flags & ZC_HDR_INLINE) {
        zc_chunk(st, 0, st->inl, st->inl_len);
        st->done = 1;
        return true;
    }
    if (0 == st->hdr.nchunks) {
        return true;
    }
    st->nslots = mca_pml_zcomp.p.window;
    if ((uint32_t) st->nslots > st->hdr.nchunks) {
        st->nslots = (int) st->hdr.nchunks;
    }
    st->slots = calloc((size_t) st->nslots, sizeof(zc_rslot_t));
    if (NULL == st->slots) {
        zc_set_error(st, "out of memory");
        st->nslots = 0;
        return true;
    }
    for (i = 0; i < st->nslots; i++) {
        st->slots[i].buf = malloc(sizeof(zc_chunk_hdr_t) + st->hdr.chunk_size);
        if (NULL == st->slots[i].buf || OMPI_SUCCESS != zc_post_chunk(st, i)) {
            /* cannot drain safely without buffers: give up on this message */
            zc_set_error(st, "out of memory");
            return 0 == st->posted;
        }
    }
    return false;
}

/* Advance one receive; true when it is finished. */
static bool zc_rstate_advance(zc_rstate_t *st, int *events)
{
    if (!__atomic_load_n(&st->ready, __ATOMIC_ACQUIRE)) {
        return false;
    }
    if (!st->started) {
        (*events)++;
        if (zc_rstate_start(st)) {
            return true;
        }
    }
    /* chunks in order: chunk k lives in slot k % nslots */
    while (st->done < st->posted) {
        int s = (int) (st->done % (uint32_t) st->nslots);
        ompi_request_t *r = st->slots[s].req;
        if (NULL == r || !REQUEST_COMPLETE(r)) {
            break;
        }
        if (MPI_SUCCESS != r->req_status.MPI_ERROR) {
            zc_set_error(st, "a chunk is longer than announced");
        } else {
            zc_chunk(st, st->done, st->slots[s].buf, r->req_status._ucount);
        }
        ompi_request_free(&st->slots[s].req);
        st->slots[s].req = NULL;
        st->done++;
        (*events)++;
        if (st->posted < st->hdr.nchunks) {
            if (OMPI_SUCCESS != zc_post_chunk(st, s)) {
                zc_set_error(st, "cannot post a chunk receive");
            }
        }
        /* one decompression per call keeps the network moving */
        if (MPI_SUCCESS == st->error) {
            break;
        }
    }
    return st->done >= st->hdr.nchunks || (st->done == st->posted && MPI_SUCCESS != st->error
                                           && st->posted < st->hdr.nchunks);
}

int mca_pml_zcomp_recv_progress(void)
{
    int events = 0;
    zc_rstate_t *st, *next;
    OPAL_THREAD_LOCK(&mca_pml_zcomp.lock);
    OPAL_LIST_FOREACH_SAFE(st, next, &mca_pml_zcomp.recvs, zc_rstate_t) {
        if (zc_rstate_advance(st, &events)) {
            opal_list_remove_item(&mca_pml_zcomp.recvs, &st->super);
            OPAL_THREAD_ADD_FETCH32(&mca_pml_zcomp.nactive, -1);
            opal_progress_event_users_decrement();
            zc_rstate_finish(st);
        }
    }
    OPAL_THREAD_UNLOCK(&mca_pml_zcomp.lock);
    return events;
}
