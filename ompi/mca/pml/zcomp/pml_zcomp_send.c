/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * pml/zcomp send side.  A raw message goes straight to the wrapped PML (its
 * own request, no copy).  A compressed one gets a zcomp request: the marked
 * header message is sent at once, in the user's mode, so that it takes its
 * place in the matching order; the chunks are compressed one at a time from
 * the progress engine, each sent on the message's private tag as soon as it
 * is ready, at most pml_zcomp_window in flight.
 */
#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>

#include "opal/runtime/opal_progress.h"
#include "opal/util/show_help.h"
#include "ompi/mca/pml/base/pml_base_sendreq.h"
/* the send request's layout (zc_send_timed reads req_recv).  ob1's headers
 * carry inlines with unused parameters; they are upstream's, so their
 * warnings are silenced here only, not in this file's own code. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "ompi/mca/bml/bml.h"
#include "ompi/mca/pml/ob1/pml_ob1.h"
#include "ompi/mca/pml/ob1/pml_ob1_sendreq.h"
#pragma GCC diagnostic pop

#include "pml_zcomp.h"

typedef struct zc_slot_t {
    ompi_request_t *req;
    char *buf;
    size_t wire;
    double t_post;
} zc_slot_t;

/* The user's send arguments, kept for every start of the request. */
typedef struct zc_send_args_t {
    const void *buf;
    size_t count;
    ompi_datatype_t *dtype;
    int dst, tag;
    mca_pml_base_send_mode_t mode;
    ompi_communicator_t *comm;
} zc_send_args_t;

typedef struct zc_sreq_t {
    ompi_request_t super;
    zc_send_args_t arg;
    bool freed;      /* the user freed it while active */
    bool linked;     /* in mca_pml_zcomp.sends */
    /* this start */
    zc_decision_t dec;
    size_t orig, chunk;
    uint32_t nchunks, next;
    bool contig;
    const char *base;
    opal_convertor_t conv;
    bool conv_ready;
    char *stage;
    int32_t ptag;
    ompi_request_t *hreq;
    char *hbuf;
    ompi_request_t *raw;
    zc_slot_t *slots;
    size_t slot_cap;  /* bytes of each slot buffer */
    int nslots, inflight;
    size_t wire_total;
    double t_start, t_last;
    double t_first, t_end; /* the first chunk's completion, the last's (note_coded) */
    int error;
} zc_sreq_t;

static void zc_sreq_construct(zc_sreq_t *r)
{
    r->slots = NULL;
    r->nslots = 0;
    r->slot_cap = 0;
    r->stage = NULL;
    r->hbuf = NULL;
    r->conv_ready = false;
    r->linked = false;
}
static OBJ_CLASS_INSTANCE(zc_sreq_t, ompi_request_t, zc_sreq_construct, NULL);

static int zc_sreq_free(ompi_request_t **request);
static int zc_sreq_cancel(ompi_request_t *request, int complete);
static int zc_sreq_start_fn(size_t count, ompi_request_t **requests);

static size_t zc_packed_size(ompi_datatype_t *dtype, size_t count)
{
    size_t s = 0;
    ompi_datatype_type_size(dtype, &s);
    return s * count;
}

static zc_sreq_t *zc_sreq_new(const void *buf, size_t count, ompi_datatype_t *dtype, int dst,
                              int tag, mca_pml_base_send_mode_t mode, ompi_communicator_t *comm,
                              bool persistent)
{
    zc_sreq_t *r = OBJ_NEW(zc_sreq_t);
    if (NULL == r) {
        return NULL;
    }
    OMPI_REQUEST_INIT(&r->super, persistent);
    r->super.req_type = OMPI_REQUEST_PML;
    r->super.req_free = zc_sreq_free;
    r->super.req_cancel = zc_sreq_cancel;
    r->super.req_start = zc_sreq_start_fn;
    r->super.req_mpi_object.comm = comm;
    r->arg = (zc_send_args_t) {buf, count, dtype, dst, tag, mode, comm};
    r->freed = false;
    OBJ_RETAIN(comm);
    OMPI_DATATYPE_RETAIN(dtype);
    return r;
}

static void zc_sreq_release_buffers(zc_sreq_t *r)
{
    int i;
    for (i = 0; i < r->nslots; i++) {
        free(r->slots[i].buf);
    }
    free(r->slots);
    r->slots = NULL;
    r->nslots = 0;
    r->slot_cap = 0;
    free(r->stage);
    r->stage = NULL;
    free(r->hbuf);
    r->hbuf = NULL;
    if (r->conv_ready) {
        opal_convertor_cleanup(&r->conv);
        OBJ_DESTRUCT(&r->conv);
        r->conv_ready = false;
    }
}

static void zc_sreq_destroy(zc_sreq_t *r)
{
    zc_sreq_release_buffers(r);
    OMPI_DATATYPE_RELEASE(r->arg.dtype);
    OBJ_RELEASE(r->arg.comm);
    OMPI_REQUEST_FINI(&r->super);
    OBJ_RELEASE(r);
}

static int zc_sreq_free(ompi_request_t **request)
{
    zc_sreq_t *r = (zc_sreq_t *) *request;
    bool linked;
    /* under the lock: progress in another thread may be finishing it */
    OPAL_THREAD_LOCK(&mca_pml_zcomp.lock);
    linked = r->linked;
    if (linked) {
        /* still sending: finish in the background, then release */
        r->freed = true;
    }
    OPAL_THREAD_UNLOCK(&mca_pml_zcomp.lock);
    if (!linked) {
        zc_sreq_destroy(r);
    }
    *request = MPI_REQUEST_NULL;
    return OMPI_SUCCESS;
}

static int zc_sreq_cancel(ompi_request_t *request, int complete)
{
    /* like ob1: a send, once started, is not cancelled */
    (void) request;
    (void) complete;
    return OMPI_SUCCESS;
}

/* ---------------------------------------------------------------- chunks */

/* Raw bytes of chunk k (in order): a pointer into the user's buffer when it
 * is contiguous, else packed into the staging buffer. */
static const char *zc_chunk_raw(zc_sreq_t *r, uint32_t k, size_t *len)
{
    size_t off = (size_t) k * r->chunk;
    size_t n = r->orig - off < r->chunk ? r->orig - off : r->chunk;
    *len = n;
    if (r->contig) {
        return r->base + off;
    }
    if (NULL == r->stage) {
        r->stage = malloc(r->chunk);
        if (NULL == r->stage) {
            return NULL;
        }
    }
    {
        struct iovec iov = {.iov_base = r->stage, .iov_len = n};
        uint32_t iovcnt = 1;
        size_t max = n;
        size_t pos = off;
        if (r->conv.bConverted != off) {
            opal_convertor_set_position(&r->conv, &pos);
        }
        opal_convertor_pack(&r->conv, &iov, &iovcnt, &max);
        if (max != n) {
            return NULL;
        }
    }
    return r->stage;
}

/* Compress chunk k into buf (zc_chunk_hdr_t + data); returns the wire size
 * or a negative error. */
static ssize_t zc_build_chunk(zc_sreq_t *r, uint32_t k, char *buf, size_t cap)
{
    zc_chunk_hdr_t h;
    const opal_compress_codec_t *c = r->dec.codec;
    size_t rawlen;
    const char *raw = zc_chunk_raw(r, k, &rawlen);
    ssize_t out = -1;
    char *data = buf + sizeof(h);

    if (NULL == raw) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    memset(&h, 0, sizeof(h));
    h.magic = ZC_CHUNK_MAGIC;
    h.index = k;
    h.raw_len = (uint32_t) rawlen;
    if (NULL != c) {
        double t0 = mca_pml_zcomp_now();
        out = c->compress(raw, rawlen, data, cap - sizeof(h));
        mca_pml_zcomp_note_compress(&r->dec, c, rawlen, out > 0 ? (size_t) out : rawlen,
                                    mca_pml_zcomp_now() - t0);
    }
    if (out >= 0 && (size_t) out < rawlen) {
        h.codec = c->id;
        h.clen = (uint64_t) out;
        zc_count(&mca_pml_zcomp.pv_codec_in[c->id], rawlen);
        zc_count(&mca_pml_zcomp.pv_codec_out[c->id], (unsigned long long) out);
    } else {
        /* the codec did not shrink it: store it raw */
        h.codec = OPAL_COMPRESS_ID_RAW;
        h.clen = rawlen;
        memcpy(data, raw, rawlen);
    }
    h.csum = zc_chunk_sum(&h, data);
    memcpy(buf, &h, sizeof(h));
    if (mca_pml_zcomp.p.corrupt_every > 0 && h.clen > 0
        && 0 == (__atomic_add_fetch(&mca_pml_zcomp.corrupt_count, 1, __ATOMIC_RELAXED)
                 % (unsigned) mca_pml_zcomp.p.corrupt_every)) {
        data[h.clen / 2] ^= 0x5a; /* testing only */
    }
    return (ssize_t) (sizeof(h) + h.clen);
}

static int32_t zc_alloc_ptag(void)
{
    int32_t n = OPAL_THREAD_ADD_FETCH32(&mca_pml_zcomp.next_ptag, 1);
    return ZC_TAG_BASE - (int32_t) ((uint32_t) n % ZC_TAG_SPAN);
}

static int zc_send_chunk(zc_sreq_t *r, zc_slot_t *s)
{
    s->t_post = mca_pml_zcomp_now();
    r->wire_total += s->wire;
    return mca_pml_zcomp_wrapped.pml_isend(s->buf, s->wire, MPI_BYTE, r->arg.dst, r->ptag,
                                           MCA_PML_BASE_SEND_STANDARD, r->arg.comm, &s->req);
}

/* Start sending a message (new request or MPI_Start of a persistent one). */
static int zc_sreq_begin(zc_sreq_t *r, const zc_decision_t *dec)
{
    size_t cap;
    ssize_t w0;
    zc_hdr_t h;
    int rc, i;
    bool single;

    r->dec = *dec;
    r->nchunks = 0;
    r->next = 0;
    r->error = MPI_SUCCESS;
    r->hreq = NULL;
    r->raw = NULL;
    r->inflight = 0;
    r->wire_total = 0;
    r->t_start = r->t_last = mca_pml_zcomp_now();
    r->t_first = r->t_end = 0;
    r->super.req_status.MPI_ERROR = MPI_SUCCESS;
    r->super.req_status._cancelled = 0;
    r->super.req_status._ucount = 0;
    r->super.req_status.MPI_SOURCE = r->arg.comm->c_my_rank;
    r->super.req_status.MPI_TAG = r->arg.tag;

    if (NULL == dec->codec) {
        rc = mca_pml_zcomp_wrapped.pml_isend(r->arg.buf, r->arg.count, r->arg.dtype, r->arg.dst,
                                             r->arg.tag, r->arg.mode, r->arg.comm, &r->raw);
        zc_count(&mca_pml_zcomp.pv_msgs_raw, 1);
        zc_count(&mca_pml_zcomp.pv_bytes_raw, r->orig);
        return rc;
    }

    r->chunk = mca_pml_zcomp.p.chunk_size;
    r->nchunks = (uint32_t) ((r->orig + r->chunk - 1) / r->chunk);
    r->contig = opal_datatype_is_contiguous_memory_layout(&r->arg.dtype->super, r->arg.count);
    if (r->contig) {
        r->base = (const char *) r->arg.buf + r->arg.dtype->super.true_lb;
    } else if (!r->conv_ready) {
        OBJ_CONSTRUCT(&r->conv, opal_convertor_t);
        opal_convertor_copy_and_prepare_for_send(ompi_mpi_local_convertor, &r->arg.dtype->super,
                                                 r->arg.count, r->arg.buf, 0, &r->conv);
        r->conv_ready = true;
    } else {
        size_t zero = 0;
        opal_convertor_set_position(&r->conv, &zero);
    }
    if (NULL == r->slots) {
        r->nslots = mca_pml_zcomp.p.window;
        if ((uint32_t) r->nslots > r->nchunks) {
            r->nslots = (int) r->nchunks;
        }
        r->slots = calloc((size_t) r->nslots, sizeof(zc_slot_t));
        if (NULL == r->slots) {
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
    }
    cap = sizeof(zc_chunk_hdr_t) + r->dec.codec->bound(r->chunk);
    if (cap < sizeof(zc_chunk_hdr_t) + r->chunk) {
        cap = sizeof(zc_chunk_hdr_t) + r->chunk;
    }
    if (cap > r->slot_cap) {
        /* a persistent request may use another codec at each start */
        for (i = 0; i < r->nslots; i++) {
            free(r->slots[i].buf);
            r->slots[i].buf = NULL;
        }
        r->slot_cap = cap;
    }
    for (i = 0; i < r->nslots; i++) {
        r->slots[i].req = NULL;
        if (NULL == r->slots[i].buf) {
            r->slots[i].buf = malloc(r->slot_cap);
            if (NULL == r->slots[i].buf) {
                return OMPI_ERR_OUT_OF_RESOURCE;
            }
        }
    }
    cap = r->slot_cap;
    r->ptag = zc_alloc_ptag();
    w0 = zc_build_chunk(r, 0, r->slots[0].buf, cap);
    if (w0 < 0) {
        return (int) w0;
    }
    r->slots[0].wire = (size_t) w0;
    /* inline only where ob1 sends it eagerly: the receive hook sees the
     * first fragment alone (the self BTL's 1 KB limit is below inline_max) */
    single = 1 == r->nchunks && (size_t) w0 <= mca_pml_zcomp.p.inline_max
             && sizeof(h) + (size_t) w0 <= r->dec.mark_room;

    memset(&h, 0, sizeof(h));
    h.orig_len = r->orig;
    h.magic = ZC_MAGIC;
    h.version = ZC_VERSION;
    h.flags = single ? ZC_HDR_INLINE : 0;
    h.ptag = r->ptag;
    h.nchunks = r->nchunks;
    h.chunk_size = r->chunk;
    h.hsum = zc_checksum(&h, offsetof(zc_hdr_t, hsum));
    free(r->hbuf);
    r->hbuf = malloc(sizeof(h) + (single ? (size_t) w0 : 0));
    if (NULL == r->hbuf) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    memcpy(r->hbuf, &h, sizeof(h));
    if (single) {
        memcpy(r->hbuf + sizeof(h), r->slots[0].buf, (size_t) w0);
    }
    rc = mca_pml_zcomp_wrapped.pml_isend(r->hbuf, sizeof(h) + (single ? (size_t) w0 : 0),
                                         MPI_BYTE, r->arg.dst, r->arg.tag,
                                         (mca_pml_base_send_mode_t) (r->arg.mode
                                                                     | MCA_PML_BASE_SEND_MARKED),
                                         r->arg.comm, &r->hreq);
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    r->wire_total = sizeof(h);
    zc_count(&mca_pml_zcomp.pv_msgs_compressed, 1);
    zc_count(&mca_pml_zcomp.pv_bytes_original, r->orig);
    zc_count(&mca_pml_zcomp.pv_codec_msgs[r->dec.codec->id], 1);
    if (single) {
        r->wire_total += (size_t) w0;
        r->next = 1;
        return OMPI_SUCCESS;
    }
    rc = zc_send_chunk(r, &r->slots[0]);
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    r->inflight = 1;
    r->next = 1;
    return OMPI_SUCCESS;
}

static void zc_sreq_finish(zc_sreq_t *r)
{
    zc_count(&mca_pml_zcomp.pv_bytes_sent, NULL != r->dec.codec ? r->wire_total : 0);
    if (NULL != r->dec.codec) {
        ZC_VERBOSE(20, "zcomp: sent %zu B to %d tag %d as %zu B (%s, %u chunks) in %.3f ms",
                   r->orig, r->arg.dst, r->arg.tag, r->wire_total, r->dec.codec->name, r->nchunks,
                   1e3 * (mca_pml_zcomp_now() - r->t_start));
    }
    if (!r->super.req_persistent && NULL != r->dec.codec) {
        /* the buffers are not needed any more (persistent ones are reused) */
        zc_sreq_release_buffers(r);
    }
    if (r->freed) {
        zc_sreq_destroy(r);
        return;
    }
    r->super.req_status.MPI_ERROR = r->error;
    ompi_request_complete(&r->super, true);
}

/* Advance one compressed send; true when it is finished. */
static bool zc_sreq_advance(zc_sreq_t *r, int *events)
{
    int i;
    double now;

    if (NULL != r->raw) {
        if (!REQUEST_COMPLETE(r->raw)) {
            return false;
        }
        if (MPI_SUCCESS != r->raw->req_status.MPI_ERROR) {
            r->error = r->raw->req_status.MPI_ERROR;
        }
        if (r->orig >= ZC_XFER_MIN) {
            /* a persistent send's completion is seen when the application
             * next enters MPI: a lower bound */
            mca_pml_zcomp_note_transfer(r->arg.comm, r->arg.dst, r->orig,
                                        mca_pml_zcomp_now() - r->t_start, ZC_XFER_AT_LEAST);
        }
        ompi_request_free(&r->raw);
        r->raw = NULL;
        (*events)++;
        return true;
    }
    if (NULL != r->hreq && REQUEST_COMPLETE(r->hreq)) {
        if (MPI_SUCCESS != r->hreq->req_status.MPI_ERROR) {
            r->error = r->hreq->req_status.MPI_ERROR;
        }
        ompi_request_free(&r->hreq);
        r->hreq = NULL;
        (*events)++;
    }
    for (i = 0; i < r->nslots && r->inflight > 0; i++) {
        zc_slot_t *s = &r->slots[i];
        if (NULL != s->req && REQUEST_COMPLETE(s->req)) {
            if (MPI_SUCCESS != s->req->req_status.MPI_ERROR) {
                r->error = s->req->req_status.MPI_ERROR;
            }
            ompi_request_free(&s->req);
            s->req = NULL;
            r->inflight--;
            (*events)++;
            if (0 == r->t_first) {
                r->t_first = mca_pml_zcomp_now();
            }
        }
    }
    /* compress and send the next chunk (one per call: the network keeps
     * moving the previous ones meanwhile) */
    if (r->next < r->nchunks && r->inflight < r->nslots && MPI_SUCCESS == r->error) {
        for (i = 0; i < r->nslots; i++) {
            if (NULL == r->slots[i].req) {
                break;
            }
        }
        {
            ssize_t w = zc_build_chunk(r, r->next, r->slots[i].buf, r->slot_cap);
            if (w < 0) {
                r->error = MPI_ERR_NO_MEM;
            } else {
                r->slots[i].wire = (size_t) w;
                if (OMPI_SUCCESS != zc_send_chunk(r, &r->slots[i])) {
                    r->error = MPI_ERR_INTERN;
                } else {
                    r->inflight++;
                }
            }
            r->next++;
            (*events)++;
        }
    }
    if (NULL == r->hreq && 0 == r->inflight && (r->next >= r->nchunks || MPI_SUCCESS != r->error)) {
        now = mca_pml_zcomp_now();
        r->t_end = now;
        if (r->wire_total >= ZC_XFER_MIN) {
            /* a lower bound of the link's speed (compression may have been
             * the bottleneck); the model only raises its estimate with it */
            mca_pml_zcomp_note_transfer(r->arg.comm, r->arg.dst, r->wire_total,
                                        now - r->t_start, ZC_XFER_AT_LEAST);
        }
        return true;
    }
    return false;
}

int mca_pml_zcomp_send_progress(void)
{
    int events = 0;
    zc_sreq_t *r, *next;
    OPAL_THREAD_LOCK(&mca_pml_zcomp.lock);
    OPAL_LIST_FOREACH_SAFE(r, next, &mca_pml_zcomp.sends, zc_sreq_t) {
        if (zc_sreq_advance(r, &events)) {
            opal_list_remove_item(&mca_pml_zcomp.sends, &r->super.super.super);
            OPAL_THREAD_ADD_FETCH32(&mca_pml_zcomp.nactive, -1);
            r->linked = false;
            opal_progress_event_users_decrement();
            zc_sreq_finish(r);
        }
    }
    OPAL_THREAD_UNLOCK(&mca_pml_zcomp.lock);
    return events;
}

static int zc_sreq_launch(zc_sreq_t *r, const zc_decision_t *dec)
{
    int rc;
    r->super.req_state = OMPI_REQUEST_ACTIVE;
    r->super.req_complete = REQUEST_PENDING;
    rc = zc_sreq_begin(r, dec);
    if (OMPI_SUCCESS != rc) {
        /* drain whatever was posted, then report the error */
        r->error = MPI_ERR_INTERN;
        r->next = r->nchunks;
    } else if (NULL != r->raw || r->next >= r->nchunks) {
        /* One message only (raw, or the header with its chunk inline): if
         * the wrapped PML completed it already, as ob1 does an eager send
         * it could hand to the BTL, complete now, as ob1 would have.  Later
         * (from progress) is allowed by MPI but not what programs see on
         * stock: mpi4py's tests expect MPI_Testall over six isends to self
         * to find all or none complete. */
        int events = 0;
        if (zc_sreq_advance(r, &events)) {
            zc_sreq_finish(r);
            return OMPI_SUCCESS;
        }
    }
    zc_progress_needed();
    OPAL_THREAD_LOCK(&mca_pml_zcomp.lock);
    opal_list_append(&mca_pml_zcomp.sends, &r->super.super.super);
    OPAL_THREAD_ADD_FETCH32(&mca_pml_zcomp.nactive, 1);
    r->linked = true;
    OPAL_THREAD_UNLOCK(&mca_pml_zcomp.lock);
    /* our progress callback compresses between network progress calls:
     * have opal_progress run the event library (TCP) at every call, not
     * every 8th, while a compressed transfer is in flight */
    opal_progress_event_users_increment();
    return rc;
}

/* ---------------------------------------------------------------- entry points */

/* Entry points: a message zcomp leaves raw (zc_send_raw_ok: below the
 * threshold, or to a peer whose code says so) goes to the wrapped PML with
 * its two counters and nothing else.  Both ways out are tail calls with the
 * caller's own arguments (the slow path computes the size again), so the
 * fast path needs no stack frame: about 10 instructions in all. */

static inline bool zc_eligible(size_t bytes, int dst, mca_pml_base_send_mode_t mode)
{
    return ZC_STRATEGY_NEVER != mca_pml_zcomp.p.strategy && bytes >= mca_pml_zcomp.p.threshold
           && dst >= 0 && MCA_PML_BASE_SEND_BUFFERED != mode;
}

static int zc_isend_compressed(const void *buf, size_t count, ompi_datatype_t *datatype,
                               int dst, int tag, mca_pml_base_send_mode_t mode,
                               ompi_communicator_t *comm, size_t bytes,
                               const zc_decision_t *dec, ompi_request_t **request)
{
    zc_sreq_t *r = zc_sreq_new(buf, count, datatype, dst, tag, mode, comm, false);
    if (NULL == r) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    r->orig = bytes;
    *request = &r->super;
    return zc_sreq_launch(r, dec);
}

static __attribute__((noinline)) int
zc_isend_slow(const void *buf, size_t count, ompi_datatype_t *datatype, int dst, int tag,
              mca_pml_base_send_mode_t mode, ompi_communicator_t *comm,
              ompi_request_t **request)
{
    size_t bytes = zc_packed_size(datatype, count);
    zc_decision_t dec;

    if (zc_eligible(bytes, dst, mode)) {
        mca_pml_zcomp_decide(buf, count, datatype, bytes, dst, comm, tag, false, &dec);
        if (NULL != dec.codec) {
            return zc_isend_compressed(buf, count, datatype, dst, tag, mode, comm, bytes, &dec,
                                       request);
        }
    }
    zc_count_raw(bytes);
    return mca_pml_zcomp_wrapped.pml_isend(buf, count, datatype, dst, tag, mode, comm, request);
}

/* At or above the threshold: the peer's code (its own function, so that
 * the registers its look-up takes are not saved below the threshold). */
static inline __attribute__((always_inline)) int
zc_isend_big(const void *buf, size_t count, ompi_datatype_t *datatype, int dst, int tag,
             mca_pml_base_send_mode_t mode, ompi_communicator_t *comm,
             ompi_request_t **request, const bool mt)
{
    size_t bytes = zc_packed_size(datatype, count);

    if (OPAL_UNLIKELY(!zc_peer_raw_ok(bytes, dst, comm))) {
        return zc_isend_slow(buf, count, datatype, dst, tag, mode, comm, request);
    }
    zc_count_raw_as(bytes, mt);
    return mca_pml_zcomp_wrapped.pml_isend(buf, count, datatype, dst, tag, mode, comm, request);
}

static __attribute__((noinline)) int
zc_isend_big_st(const void *buf, size_t count, ompi_datatype_t *datatype, int dst, int tag,
                mca_pml_base_send_mode_t mode, ompi_communicator_t *comm,
                ompi_request_t **request)
{
    return zc_isend_big(buf, count, datatype, dst, tag, mode, comm, request, false);
}

static __attribute__((noinline)) int
zc_isend_big_mt(const void *buf, size_t count, ompi_datatype_t *datatype, int dst, int tag,
                mca_pml_base_send_mode_t mode, ompi_communicator_t *comm,
                ompi_request_t **request)
{
    return zc_isend_big(buf, count, datatype, dst, tag, mode, comm, request, true);
}

/* The entry points, in two builds each: the counters' thread test is
 * decided when zcomp is interposed (mca_pml_zcomp.mt), not per message. */
static inline __attribute__((always_inline)) int
zc_isend_entry(const void *buf, size_t count, ompi_datatype_t *datatype, int dst, int tag,
               mca_pml_base_send_mode_t mode, ompi_communicator_t *comm,
               ompi_request_t **request, const bool mt)
{
    size_t bytes = zc_packed_size(datatype, count);

    if (OPAL_UNLIKELY(bytes >= mca_pml_zcomp.raw_threshold)) {
        return mt ? zc_isend_big_mt(buf, count, datatype, dst, tag, mode, comm, request)
                  : zc_isend_big_st(buf, count, datatype, dst, tag, mode, comm, request);
    }
    zc_count_raw_as(bytes, mt);
    return mca_pml_zcomp_wrapped.pml_isend(buf, count, datatype, dst, tag, mode, comm, request);
}

int mca_pml_zcomp_isend(const void *buf, size_t count, ompi_datatype_t *datatype, int dst,
                        int tag, mca_pml_base_send_mode_t mode, ompi_communicator_t *comm,
                        ompi_request_t **request)
{
    return zc_isend_entry(buf, count, datatype, dst, tag, mode, comm, request, false);
}

int mca_pml_zcomp_isend_mt(const void *buf, size_t count, ompi_datatype_t *datatype, int dst,
                           int tag, mca_pml_base_send_mode_t mode, ompi_communicator_t *comm,
                           ompi_request_t **request)
{
    return zc_isend_entry(buf, count, datatype, dst, tag, mode, comm, request, true);
}

/* A blocking raw send of ZC_XFER_MIN or more, timed for the path's
 * estimate.  It is ob1's isend and a wait, as ob1's own blocking send is,
 * with one difference: the wait notes when the receiver's rendezvous ACK
 * arrived (ob1 sets the send request's req_recv then, and only then), so
 * that the time from there to completion is the data's, which a receiver
 * that posted late cannot stretch (ZC_XFER_ACKED).  The window starts at
 * the last look before the ACK was seen, so that the data ob1 pushes in
 * the progress call that handles the ACK is inside it.  A transfer that
 * never saw an ACK (a receiver that pulls the data itself, RGET) is timed
 * from the start (ZC_XFER_TIMED).  zcomp wraps ob1 only. */
static int zc_send_timed(const void *buf, size_t count, ompi_datatype_t *datatype, int dst,
                         int tag, mca_pml_base_send_mode_t mode, ompi_communicator_t *comm,
                         size_t bytes)
{
    ompi_request_t *req = NULL;
    mca_pml_ob1_send_request_t *sr;
    double t0 = mca_pml_zcomp_now(), t_pre = t0, t_ack = 0, t1;
    int rc;

    rc = mca_pml_zcomp_wrapped.pml_isend(buf, count, datatype, dst, tag, mode, comm, &req);
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    sr = (mca_pml_ob1_send_request_t *) req;
    while (!REQUEST_COMPLETE(req)) {
        if (0 == t_ack) {
            if (NULL != __atomic_load_n(&sr->req_recv.pval, __ATOMIC_RELAXED)) {
                t_ack = t_pre;
            } else {
                t_pre = mca_pml_zcomp_now();
            }
        }
        opal_progress();
    }
    t1 = mca_pml_zcomp_now();
    if (0 == t_ack && NULL != __atomic_load_n(&sr->req_recv.pval, __ATOMIC_RELAXED)) {
        t_ack = t_pre;
    }
    rc = req->req_status.MPI_ERROR;
    ompi_request_free(&req);
    if (OMPI_SUCCESS == rc) {
        mca_pml_zcomp_note_transfer(comm, dst, bytes, t1 - (t_ack > 0 ? t_ack : t0),
                                    t_ack > 0 ? ZC_XFER_ACKED : ZC_XFER_TIMED);
    }
    return rc;
}

static __attribute__((noinline)) int
zc_send_slow(const void *buf, size_t count, ompi_datatype_t *datatype, int dst, int tag,
             mca_pml_base_send_mode_t mode, ompi_communicator_t *comm)
{
    size_t bytes = zc_packed_size(datatype, count);
    zc_decision_t dec;
    int rc;

    if (zc_eligible(bytes, dst, mode)) {
        mca_pml_zcomp_decide(buf, count, datatype, bytes, dst, comm, tag, true, &dec);
        if (NULL != dec.codec) {
            ompi_request_t *req = NULL;
            rc = zc_isend_compressed(buf, count, datatype, dst, tag, mode, comm, bytes, &dec,
                                     &req);
            if (NULL != req && MPI_REQUEST_NULL != req) {
                zc_sreq_t *r = (zc_sreq_t *) req;
                ompi_request_wait_completion(req);
                if (OMPI_SUCCESS == rc) {
                    rc = req->req_status.MPI_ERROR;
                }
                if (OMPI_SUCCESS == rc && r->nchunks > 1 && r->t_first > 0
                    && r->t_end > r->t_first) {
                    /* timed while this call drove the pipeline (a
                     * nonblocking send's chunks move only when the
                     * application enters MPI) */
                    mca_pml_zcomp_note_coded(comm, dst, &r->dec, bytes, bytes - r->chunk,
                                             r->t_end - r->t_first);
                }
                ompi_request_free(&req);
            }
            return rc;
        }
        if (bytes >= ZC_XFER_MIN) {
            zc_count_raw(bytes);
            return zc_send_timed(buf, count, datatype, dst, tag, mode, comm, bytes);
        }
    }
    zc_count_raw(bytes);
    return mca_pml_zcomp_wrapped.pml_send(buf, count, datatype, dst, tag, mode, comm);
}

static inline __attribute__((always_inline)) int
zc_send_big(const void *buf, size_t count, ompi_datatype_t *datatype, int dst, int tag,
            mca_pml_base_send_mode_t mode, ompi_communicator_t *comm, const bool mt)
{
    size_t bytes = zc_packed_size(datatype, count);

    if (OPAL_UNLIKELY(!zc_peer_raw_ok(bytes, dst, comm))) {
        return zc_send_slow(buf, count, datatype, dst, tag, mode, comm);
    }
    zc_count_raw_as(bytes, mt);
    return mca_pml_zcomp_wrapped.pml_send(buf, count, datatype, dst, tag, mode, comm);
}

static __attribute__((noinline)) int
zc_send_big_st(const void *buf, size_t count, ompi_datatype_t *datatype, int dst, int tag,
               mca_pml_base_send_mode_t mode, ompi_communicator_t *comm)
{
    return zc_send_big(buf, count, datatype, dst, tag, mode, comm, false);
}

static __attribute__((noinline)) int
zc_send_big_mt(const void *buf, size_t count, ompi_datatype_t *datatype, int dst, int tag,
               mca_pml_base_send_mode_t mode, ompi_communicator_t *comm)
{
    return zc_send_big(buf, count, datatype, dst, tag, mode, comm, true);
}

static inline __attribute__((always_inline)) int
zc_send_entry(const void *buf, size_t count, ompi_datatype_t *datatype, int dst, int tag,
              mca_pml_base_send_mode_t mode, ompi_communicator_t *comm, const bool mt)
{
    size_t bytes = zc_packed_size(datatype, count);

    if (OPAL_UNLIKELY(bytes >= mca_pml_zcomp.raw_threshold)) {
        return mt ? zc_send_big_mt(buf, count, datatype, dst, tag, mode, comm)
                  : zc_send_big_st(buf, count, datatype, dst, tag, mode, comm);
    }
    zc_count_raw_as(bytes, mt);
    return mca_pml_zcomp_wrapped.pml_send(buf, count, datatype, dst, tag, mode, comm);
}

int mca_pml_zcomp_send(const void *buf, size_t count, ompi_datatype_t *datatype, int dst,
                       int tag, mca_pml_base_send_mode_t mode, ompi_communicator_t *comm)
{
    return zc_send_entry(buf, count, datatype, dst, tag, mode, comm, false);
}

int mca_pml_zcomp_send_mt(const void *buf, size_t count, ompi_datatype_t *datatype, int dst,
                          int tag, mca_pml_base_send_mode_t mode, ompi_communicator_t *comm)
{
    return zc_send_entry(buf, count, datatype, dst, tag, mode, comm, true);
}

int mca_pml_zcomp_isend_init(const void *buf, size_t count, ompi_datatype_t *datatype, int dst,
                             int tag, mca_pml_base_send_mode_t mode, ompi_communicator_t *comm,
                             ompi_request_t **request)
{
    size_t bytes = zc_packed_size(datatype, count);
    zc_sreq_t *r;

    /* A message zcomp will never compress (below the threshold, strategy
     * never, a peer that cannot decode) gets the wrapped PML's own
     * persistent request: MPI_Start then costs what it costs there.  A
     * ZC_PEER_FAST peer's code may change, so its requests decide at each
     * start. */
    if (!zc_eligible(bytes, dst, mode) || bytes < mca_pml_zcomp.raw_threshold
        || !mca_pml_zcomp_peer_decodes(comm, dst)) {
        return mca_pml_zcomp_wrapped.pml_isend_init(buf, count, datatype, dst, tag, mode, comm,
                                                    request);
    }
    r = zc_sreq_new(buf, count, datatype, dst, tag, mode, comm, true);
    if (NULL == r) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    r->orig = bytes;
    *request = &r->super;
    return OMPI_SUCCESS;
}

static int zc_sreq_start_fn(size_t count, ompi_request_t **requests)
{
    size_t i;
    int rc = OMPI_SUCCESS;
    for (i = 0; i < count; i++) {
        zc_sreq_t *r = (zc_sreq_t *) requests[i];
        zc_decision_t dec;
        if (NULL == r || OMPI_REQUEST_PML != r->super.req_type
            || zc_sreq_free != r->super.req_free) {
            continue;
        }
        if (zc_send_raw_ok(r->orig, r->arg.dst, r->arg.comm)) {
            /* the peer's code says raw, as for a send (a ZC_PEER_FAST peer) */
            memset(&dec, 0, sizeof(dec));
        } else {
            mca_pml_zcomp_decide(r->arg.buf, r->arg.count, r->arg.dtype, r->orig, r->arg.dst,
                                 r->arg.comm, r->arg.tag, false, &dec);
        }
        rc = zc_sreq_launch(r, &dec);
        if (OMPI_SUCCESS != rc) {
            return rc;
        }
    }
    return rc;
}

int mca_pml_zcomp_start(size_t count, ompi_request_t **requests)
{
    size_t i, first = 0; /* requests[first..i) are the wrapped PML's, not started yet */
    int rc;
    for (i = 0; i < count; i++) {
        if (NULL == requests[i] || MPI_REQUEST_NULL == requests[i]
            || zc_sreq_free != requests[i]->req_free) {
            continue; /* the wrapped PML's (it skips null ones), started in a run */
        }
        if (i > first) {
            rc = mca_pml_zcomp_wrapped.pml_start(i - first, &requests[first]);
            if (OMPI_SUCCESS != rc) {
                return rc;
            }
        }
        rc = zc_sreq_start_fn(1, &requests[i]);
        if (OMPI_SUCCESS != rc) {
            return rc;
        }
        first = i + 1;
    }
    /* in the order given, as the wrapped PML starts them */
    return count > first ? mca_pml_zcomp_wrapped.pml_start(count - first, &requests[first])
                         : OMPI_SUCCESS;
}
