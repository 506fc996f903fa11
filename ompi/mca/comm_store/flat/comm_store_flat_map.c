/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * comm_store flat: a pointer array indexed by the cid, doubled on demand
 * (the storage of today's Open MPI, the baseline of the comparison).
 * Lookup is a bounds check and one load; see comm_store_map.h for why it
 * needs no sequence lock.  Arrays replaced by a doubling are kept on a
 * retire list until destroy, because a lookup may still be reading them.
 * The array never shrinks (as opal_pointer_array).  A writer-only presence
 * bitmap (as opal_pointer_array's free_bits) makes next, lowest_free and
 * the highest-entry upkeep scan 64 slots per word.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ompi/mca/comm_store/comm_store_map.h"
#include "ompi/mca/comm_store/comm_store_seqlock.h"

#define COMM_STORE_FLAT_MIN_CAP 64u
/* 64 << 18 == 2^24: at most 18 doublings, so 18 retired arrays. */
#define COMM_STORE_FLAT_MAX_RETIRED 32

typedef struct {
    /* Reader-visible.  Published slots-then-cap (release); lookup reads
     * cap (acquire) first, so the array it then loads is at least that
     * large. */
    uint32_t cap;
    void **slots;
    /* Writer-only. */
    uint64_t *bits;             /* cap / 64 words, bit set = slot in use */
    size_t live;
    uint32_t hi;                /* highest present cid when live > 0 */
    size_t bytes;
    int nretired;
    void **retired[COMM_STORE_FLAT_MAX_RETIRED];
    uint32_t retired_cap[COMM_STORE_FLAT_MAX_RETIRED];
    int exclusive;              /* no concurrent readers: free, do not retire */
} comm_store_flat_t;

#define FLAT(m)  ((comm_store_flat_t *) (m))
#define CFLAT(m) ((const comm_store_flat_t *) (m))

static comm_store_map_t *comm_store_flat_create(void)
{
    comm_store_flat_t *f = calloc(1, sizeof(*f));
    if (NULL == f) {
        return NULL;
    }
    f->bytes = sizeof(*f);
    return (comm_store_map_t *) f;
}

static void comm_store_flat_destroy(comm_store_map_t *m)
{
    comm_store_flat_t *f = FLAT(m);
    if (NULL == f) {
        return;
    }
    for (int i = 0; i < f->nretired; i++) {
        free(f->retired[i]);
    }
    free(f->slots);
    free(f->bits);
    free(f);
}

/* Make room for index cid: 0, or -2. */
static int comm_store_flat_grow(comm_store_flat_t *f, uint32_t cid)
{
    uint32_t ncap = f->cap ? f->cap : COMM_STORE_FLAT_MIN_CAP;
    void **ns;
    uint64_t *nb;

    if (cid >= COMM_STORE_FLAT_MAX_CIDS || f->nretired == COMM_STORE_FLAT_MAX_RETIRED) {
        return -2;
    }
    while (ncap <= cid) {
        ncap *= 2;              /* powers of two up to 2^24: no overflow */
    }
    /* calloc: a large array comes zeroed from mmap, untouched past the copy */
    ns = calloc(ncap, sizeof(void *));
    nb = calloc(ncap / 64, sizeof(uint64_t));
    if (NULL == ns || NULL == nb) {
        free(ns);
        free(nb);
        return -2;
    }
    /* Plain copy: readers only read the old array, and the new one is
     * invisible to them until the release store below. */
    if (f->cap) {
        memcpy(ns, f->slots, (size_t) f->cap * sizeof(void *));
        memcpy(nb, f->bits, (size_t) f->cap / 64 * sizeof(uint64_t));
    }
    /* Readers never see the bitmap: the old one goes at once. */
    free(f->bits);
    f->bits = nb;
    f->bytes += (size_t) (ncap - f->cap) / 64 * sizeof(uint64_t);
    if (f->slots && f->exclusive) {
        free(f->slots);
        f->bytes -= (size_t) f->cap * sizeof(void *);
    } else if (f->slots) {
        f->retired[f->nretired] = f->slots;
        f->retired_cap[f->nretired] = f->cap;
        f->nretired++;
    }
    f->bytes += (size_t) ncap * sizeof(void *);
    MCA_COMM_STORE_PUBLISH(&f->slots, ns);
    MCA_COMM_STORE_PUBLISH(&f->cap, ncap);
    return 0;
}

static void comm_store_flat_set_exclusive(comm_store_map_t *m, int on)
{
    comm_store_flat_t *f = FLAT(m);
    f->exclusive = on;
    while (on && f->nretired > 0) {
        f->nretired--;
        free(f->retired[f->nretired]);
        f->bytes -= (size_t) f->retired_cap[f->nretired] * sizeof(void *);
    }
}

#define BIT(c) (UINT64_C(1) << ((c) & 63))

static int comm_store_flat_insert(comm_store_map_t *m, uint32_t cid, void *ptr)
{
    comm_store_flat_t *f = FLAT(m);
    if (NULL == ptr) {
        return -1;
    }
    if (cid >= f->cap) {
        int rc = comm_store_flat_grow(f, cid);
        if (rc) {
            return rc;
        }
    } else if (NULL != f->slots[cid]) {
        return -1;
    }
    MCA_COMM_STORE_PUBLISH(&f->slots[cid], ptr);
    f->bits[cid / 64] |= BIT(cid);
    if (0 == f->live++ || cid > f->hi) {
        f->hi = cid;
    }
    return 0;
}

static int comm_store_flat_remove(comm_store_map_t *m, uint32_t cid)
{
    comm_store_flat_t *f = FLAT(m);
    if (cid >= f->cap || NULL == f->slots[cid]) {
        return -1;
    }
    MCA_COMM_STORE_PUBLISH(&f->slots[cid], (void *) NULL);
    f->bits[cid / 64] &= ~BIT(cid);
    if (0 == --f->live) {
        f->hi = 0;
    } else if (cid == f->hi) {
        /* Another entry exists below cid, so the scan stops. */
        uint32_t w = cid / 64;
        while (0 == f->bits[w]) {
            w--;
        }
        f->hi = w * 64 + 63 - (uint32_t) __builtin_clzll(f->bits[w]);
    }
    return 0;
}

static void *comm_store_flat_lookup(const comm_store_map_t *m, uint32_t cid)
{
    const comm_store_flat_t *f = CFLAT(m);
    if (cid >= MCA_COMM_STORE_READ(&f->cap)) {
        return NULL;
    }
    /* Acquire on the array pointer too: it may be newer than cap, and its
     * contents were copied before it was published. */
    return MCA_COMM_STORE_READ(&MCA_COMM_STORE_READ(&f->slots)[cid]);
}

static int comm_store_flat_next(const comm_store_map_t *m, uint32_t from, uint32_t *cid,
                                void **ptr)
{
    const comm_store_flat_t *f = CFLAT(m);
    uint32_t w;
    uint64_t x;
    if (0 == f->live || from > f->hi) {
        return -1;
    }
    /* bit hi is set, so the scan ends at its word at the latest */
    for (w = from / 64, x = f->bits[w] & (~UINT64_C(0) << (from & 63)); 0 == x;) {
        x = f->bits[++w];
    }
    *cid = w * 64 + (uint32_t) __builtin_ctzll(x);
    if (ptr) {
        *ptr = f->slots[*cid];
    }
    return 0;
}

static int comm_store_flat_lowest_free(const comm_store_map_t *m, uint32_t from, uint32_t *cid)
{
    const comm_store_flat_t *f = CFLAT(m);
    /* Every cid >= cap is absent; cap <= 2^24, so there is always one. */
    if (from < f->cap) {
        uint32_t w = from / 64;
        uint64_t x = ~f->bits[w] & (~UINT64_C(0) << (from & 63));
        while (0 == x && ++w < f->cap / 64) {
            x = ~f->bits[w];
        }
        *cid = 0 != x ? w * 64 + (uint32_t) __builtin_ctzll(x) : f->cap;
        return 0;
    }
    *cid = from;
    return 0;
}

static int comm_store_flat_highest(const comm_store_map_t *m, uint32_t *cid)
{
    const comm_store_flat_t *f = CFLAT(m);
    if (0 == f->live) {
        return -1;
    }
    *cid = f->hi;
    return 0;
}

static void comm_store_flat_stats(const comm_store_map_t *m, comm_store_map_stats_t *s)
{
    const comm_store_flat_t *f = CFLAT(m);
    s->live = f->live;
    s->bytes = f->bytes;
    s->cells = f->cap;
    s->chunks = 0;
}

int comm_store_flat_check(const comm_store_map_t *m)
{
    const comm_store_flat_t *f = CFLAT(m);
    size_t live = 0, bytes = sizeof(*f);
    uint32_t hi = 0;

#define FLAT_FAIL(...) COMM_STORE_CHECK_FAIL("flat", __VA_ARGS__)

    if (f->cap && (f->cap < COMM_STORE_FLAT_MIN_CAP || f->cap > COMM_STORE_FLAT_MAX_CIDS
                   || (f->cap & (f->cap - 1)))) {
        FLAT_FAIL("capacity %u is not a power of two in [%u, %u]", f->cap,
                  COMM_STORE_FLAT_MIN_CAP, (unsigned) COMM_STORE_FLAT_MAX_CIDS);
    }
    if ((0 == f->cap) != (NULL == f->slots)) {
        FLAT_FAIL("capacity %u with array %p", f->cap, (void *) f->slots);
    }
    for (uint32_t c = 0; c < f->cap; c++) {
        if (f->slots[c]) {
            live++;
            hi = c;
        }
        if (!(f->bits[c / 64] & BIT(c)) != !f->slots[c]) {
            FLAT_FAIL("bitmap bit %u is %d, slot %p", c, !!(f->bits[c / 64] & BIT(c)),
                      f->slots[c]);
        }
    }
    if (live != f->live) {
        FLAT_FAIL("%zu entries in the array, live says %zu", live, f->live);
    }
    if (live && hi != f->hi) {
        FLAT_FAIL("highest entry %u, cached %u", hi, f->hi);
    }
    bytes += (size_t) f->cap * sizeof(void *) + (size_t) f->cap / 64 * sizeof(uint64_t);
    for (int i = 0; i < f->nretired; i++) {
        if (f->retired_cap[i] >= f->cap || (i && f->retired_cap[i] <= f->retired_cap[i - 1])) {
            FLAT_FAIL("retired array %d has capacity %u (current %u)", i,
                      f->retired_cap[i], f->cap);
        }
        bytes += (size_t) f->retired_cap[i] * sizeof(void *);
    }
    if (bytes != f->bytes) {
        FLAT_FAIL("bytes %zu, expected %zu", f->bytes, bytes);
    }
#undef FLAT_FAIL
    return 0;
}

const comm_store_map_ops_t comm_store_flat_ops = {
    .name = "flat", COMM_STORE_MAP_OPS(comm_store_flat)};
