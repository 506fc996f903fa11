/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * comm_store radix: the "multidimension dynamic array" of the paper.  The
 * cid's bytes b3.b2.b1.b0 index four levels of 256-entry arrays: the top
 * array (level 3, embedded in the map) holds level-2 chunks, which hold
 * level-1 chunks, which hold leaf chunks (level 0) of user pointers.  Each
 * chunk counts its non-empty slots; when the count drops to 0 the chunk is
 * unlinked at once, and its parent too if that empties it.
 *
 * Unlinked chunks go to a pool per level (type-stable memory, see
 * comm_store_map.h): a lookup still holding one reads NULL or a chunk of
 * the level it expects, never a user pointer, and the seqlock makes it
 * retry.  A pooled chunk is all-NULL, so reuse needs no clearing.  In
 * exclusive mode (no concurrent readers) an emptied chunk is freed at once.
 *
 * Shortcut: low[] in the header mirrors the level-2 chunk of b3 == 0, so a
 * cid < 2^24 is found in 3 dependent loads (low[b2], slot[b1], slot[b0]);
 * see comm_store_map.h.
 */

#include <stdio.h>
#include <stdlib.h>

#include "ompi/mca/comm_store/comm_store_map.h"
#include "ompi/mca/comm_store/comm_store_seqlock.h"

#define RADIX_FAN    256
#define RADIX_LEVELS 3          /* chunk levels 0 (leaf), 1, 2; level 3 is the map */

typedef struct comm_store_radix_chunk comm_store_radix_chunk_t;
struct comm_store_radix_chunk {
    void *slot[RADIX_FAN];      /* reader-visible: child chunk, or user pointer in a leaf */
    comm_store_radix_chunk_t *pool_next;
    uint16_t count;             /* non-empty slots, 0..256 */
    uint8_t level;              /* fixed when allocated */
};

typedef struct {
    mca_comm_store_seqlock_t seq;
    /* Reader-visible cache of the level-2 chunk of b3 == 0: low[b2] ==
     * (top[0] ? top[0]->slot[b2] : NULL), kept by the writer inside the
     * write section that links or unlinks such a level-1 chunk. */
    comm_store_radix_chunk_t *low[RADIX_FAN];
    comm_store_radix_chunk_t *top[RADIX_FAN];    /* reader-visible, by b3 */
    comm_store_radix_chunk_t *pool[RADIX_LEVELS];
    size_t linked[RADIX_LEVELS], pooled[RADIX_LEVELS];
    size_t live;
    int exclusive;              /* no concurrent readers: free, do not pool */
} comm_store_radix_t;

typedef comm_store_radix_chunk_t chunk_t;

#define RADIX(m)  ((comm_store_radix_t *) (m))
#define CRADIX(m) ((const comm_store_radix_t *) (m))
#define B3(c) ((c) >> 24)
#define B2(c) (((c) >> 16) & 0xffu)
#define B1(c) (((c) >> 8) & 0xffu)
#define B0(c) ((c) & 0xffu)
#define CHILD(ch, i) ((chunk_t *) (ch)->slot[i])

static comm_store_map_t *comm_store_radix_create(void)
{
    return (comm_store_map_t *) calloc(1, sizeof(comm_store_radix_t));
}

static void comm_store_radix_destroy(comm_store_map_t *m)
{
    comm_store_radix_t *r = RADIX(m);
    if (NULL == r) {
        return;
    }
    for (int i3 = 0; i3 < RADIX_FAN; i3++) {
        chunk_t *c2 = r->top[i3];
        for (int i2 = 0; NULL != c2 && i2 < RADIX_FAN; i2++) {
            chunk_t *c1 = CHILD(c2, i2);
            for (int i1 = 0; NULL != c1 && i1 < RADIX_FAN; i1++) {
                free(c1->slot[i1]);
            }
            free(c1);
        }
        free(c2);
    }
    for (int l = 0; l < RADIX_LEVELS; l++) {
        while (NULL != r->pool[l]) {
            chunk_t *c = r->pool[l];
            r->pool[l] = c->pool_next;
            free(c);
        }
    }
    free(r);
}

/* An all-NULL chunk of the given level, from the pool or calloc. */
static chunk_t *comm_store_radix_get(comm_store_radix_t *r, int level)
{
    chunk_t *c = r->pool[level];
    if (NULL != c) {
        r->pool[level] = c->pool_next;
        r->pooled[level]--;
        return c;
    }
    /* Zeroed with plain stores: readers cannot see it until linked. */
    c = calloc(1, sizeof(*c));
    if (NULL != c) {
        c->level = (uint8_t) level;
    }
    return c;
}

static void comm_store_radix_put(comm_store_radix_t *r, chunk_t *c)
{
    if (r->exclusive) {
        free(c);
        return;
    }
    c->pool_next = r->pool[c->level];
    r->pool[c->level] = c;
    r->pooled[c->level]++;
}

static void comm_store_radix_set_exclusive(comm_store_map_t *m, int on)
{
    comm_store_radix_t *r = RADIX(m);
    r->exclusive = on;
    for (int l = 0; on && l < RADIX_LEVELS; l++) {
        while (NULL != r->pool[l]) {
            chunk_t *c = r->pool[l];
            r->pool[l] = c->pool_next;
            r->pooled[l]--;
            free(c);
        }
    }
}

/* Writer, inside a write section: a new chunk (already filled) becomes
 * slot i of parent. */
static void comm_store_radix_link(comm_store_radix_t *r, chunk_t *parent, int i, chunk_t *child)
{
    MCA_COMM_STORE_PUBLISH(&parent->slot[i], (void *) child);
    parent->count++;
    r->linked[child->level]++;
}

static int comm_store_radix_insert(comm_store_map_t *m, uint32_t cid, void *ptr)
{
    comm_store_radix_t *r = RADIX(m);
    chunk_t *c2 = r->top[B3(cid)];
    chunk_t *c1 = c2 ? CHILD(c2, B2(cid)) : NULL;
    chunk_t *c0 = c1 ? CHILD(c1, B1(cid)) : NULL;
    chunk_t *n2 = NULL, *n1 = NULL, *n0 = NULL;

    if (NULL == ptr || (NULL != c0 && NULL != c0->slot[B0(cid)])) {
        return -1;
    }
    /* Get every missing chunk first so that failure changes nothing. */
    if ((NULL == c2 && NULL == (n2 = comm_store_radix_get(r, 2)))
        || (NULL == c1 && NULL == (n1 = comm_store_radix_get(r, 1)))
        || (NULL == c0 && NULL == (n0 = comm_store_radix_get(r, 0)))) {
        if (n2) {
            comm_store_radix_put(r, n2);
        }
        if (n1) {
            comm_store_radix_put(r, n1);
        }
        return -2;
    }

    /* The path's chunks, the new ones where they were missing, linked
     * bottom-up so that the path is complete when it becomes reachable. */
    c0 = NULL != n0 ? n0 : c0;
    c1 = NULL != n1 ? n1 : c1;
    c2 = NULL != n2 ? n2 : c2;
    mca_comm_store_write_begin(&r->seq);
    MCA_COMM_STORE_PUBLISH(&c0->slot[B0(cid)], ptr);
    c0->count++;
    if (NULL != n0) {
        comm_store_radix_link(r, c1, B1(cid), n0);
    }
    if (NULL != n1) {
        comm_store_radix_link(r, c2, B2(cid), n1);
        if (0 == B3(cid)) {
            MCA_COMM_STORE_PUBLISH(&r->low[B2(cid)], n1);
        }
    }
    if (NULL != n2) {
        MCA_COMM_STORE_PUBLISH(&r->top[B3(cid)], n2);
        r->linked[2]++;
    }
    mca_comm_store_write_end(&r->seq);
    r->live++;
    return 0;
}

static int comm_store_radix_remove(comm_store_map_t *m, uint32_t cid)
{
    comm_store_radix_t *r = RADIX(m);
    chunk_t *c2 = r->top[B3(cid)];
    chunk_t *c1 = c2 ? CHILD(c2, B2(cid)) : NULL;
    chunk_t *c0 = c1 ? CHILD(c1, B1(cid)) : NULL;

    if (NULL == c0 || NULL == c0->slot[B0(cid)]) {
        return -1;
    }
    mca_comm_store_write_begin(&r->seq);
    MCA_COMM_STORE_PUBLISH(&c0->slot[B0(cid)], (void *) NULL);
    /* Unlink emptied chunks upward; they are already all-NULL. */
    if (0 == --c0->count) {
        MCA_COMM_STORE_PUBLISH(&c1->slot[B1(cid)], (void *) NULL);
        r->linked[0]--;
        comm_store_radix_put(r, c0);
        if (0 == --c1->count) {
            MCA_COMM_STORE_PUBLISH(&c2->slot[B2(cid)], (void *) NULL);
            if (0 == B3(cid)) {
                MCA_COMM_STORE_PUBLISH(&r->low[B2(cid)], (chunk_t *) NULL);
            }
            r->linked[1]--;
            comm_store_radix_put(r, c1);
            if (0 == --c2->count) {
                MCA_COMM_STORE_PUBLISH(&r->top[B3(cid)], (chunk_t *) NULL);
                r->linked[2]--;
                comm_store_radix_put(r, c2);
            }
        }
    }
    mca_comm_store_write_end(&r->seq);
    r->live--;
    return 0;
}

/* cids below this have b3 == 0 and take the low[] shortcut. */
#define RADIX_LOW_LIMIT (UINT32_C(1) << 24)

static void *comm_store_radix_lookup(const comm_store_map_t *m, uint32_t cid)
{
    const comm_store_radix_t *r = CRADIX(m);
    for (;;) {
        uint32_t s = MCA_COMM_STORE_READ(&r->seq.seq);
        const chunk_t *c;
        void *v = NULL;
        if (__builtin_expect(s & 1u, 0)) {
            mca_comm_store_cpu_relax();
            continue;
        }
        if (__builtin_expect(cid < RADIX_LOW_LIMIT, 1)) {
            c = MCA_COMM_STORE_READ(&r->low[B2(cid)]);
        } else {
            c = MCA_COMM_STORE_READ(&r->top[B3(cid)]);
            if (NULL != c) {
                c = MCA_COMM_STORE_READ(&c->slot[B2(cid)]);
            }
        }
        if (__builtin_expect(NULL != c, 1)
            && __builtin_expect(NULL != (c = MCA_COMM_STORE_READ(&c->slot[B1(cid)])), 1)) {
            v = MCA_COMM_STORE_READ(&c->slot[B0(cid)]);
        }
        if (__builtin_expect(MCA_COMM_STORE_READ(&r->seq.seq) == s, 1)) {
            return v;
        }
    }
}

#define RADIX_CID(i3, i2, i1, i0) \
    (((uint32_t) (i3) << 24) | ((uint32_t) (i2) << 16) | ((uint32_t) (i1) << 8) | (uint32_t) (i0))

/* Nested scans from `from`'s bytes; once a level moves past from's index,
 * the levels below start at 0 (the for-increments reset them).  Linked
 * chunks are never empty, so the first non-NULL child holds an answer:
 * at most 4 * 256 slots are read. */
static int comm_store_radix_next(const comm_store_map_t *m, uint32_t from, uint32_t *cid,
                                 void **ptr)
{
    const comm_store_radix_t *r = CRADIX(m);
    unsigned s2 = B2(from), s1 = B1(from), s0 = B0(from);
    for (unsigned i3 = B3(from); i3 < RADIX_FAN; i3++, s2 = s1 = s0 = 0) {
        const chunk_t *c2 = r->top[i3];
        for (unsigned i2 = s2; NULL != c2 && i2 < RADIX_FAN; i2++, s1 = s0 = 0) {
            const chunk_t *c1 = CHILD(c2, i2);
            for (unsigned i1 = s1; NULL != c1 && i1 < RADIX_FAN; i1++, s0 = 0) {
                const chunk_t *c0 = CHILD(c1, i1);
                for (unsigned i0 = s0; NULL != c0 && i0 < RADIX_FAN; i0++) {
                    if (NULL != c0->slot[i0]) {
                        *cid = RADIX_CID(i3, i2, i1, i0);
                        if (ptr) {
                            *ptr = c0->slot[i0];
                        }
                        return 0;
                    }
                }
            }
        }
    }
    return -1;
}

/* The same scan for an empty slot; a missing chunk is a free cid, full
 * leaves are skipped by their count. */
static int comm_store_radix_lowest_free(const comm_store_map_t *m, uint32_t from,
                                        uint32_t *cid)
{
    const comm_store_radix_t *r = CRADIX(m);
    unsigned s2 = B2(from), s1 = B1(from), s0 = B0(from);
    for (unsigned i3 = B3(from); i3 < RADIX_FAN; i3++, s2 = s1 = s0 = 0) {
        const chunk_t *c2 = r->top[i3];
        if (NULL == c2) {
            *cid = RADIX_CID(i3, s2, s1, s0);
            return 0;
        }
        for (unsigned i2 = s2; i2 < RADIX_FAN; i2++, s1 = s0 = 0) {
            const chunk_t *c1 = CHILD(c2, i2);
            if (NULL == c1) {
                *cid = RADIX_CID(i3, i2, s1, s0);
                return 0;
            }
            for (unsigned i1 = s1; i1 < RADIX_FAN; i1++, s0 = 0) {
                const chunk_t *c0 = CHILD(c1, i1);
                if (NULL == c0) {
                    *cid = RADIX_CID(i3, i2, i1, s0);
                    return 0;
                }
                for (unsigned i0 = s0; RADIX_FAN != c0->count && i0 < RADIX_FAN; i0++) {
                    if (NULL == c0->slot[i0]) {
                        *cid = RADIX_CID(i3, i2, i1, i0);
                        return 0;
                    }
                }
            }
        }
    }
    return -1;                          /* taken up to UINT32_MAX */
}

static int comm_store_radix_highest(const comm_store_map_t *m, uint32_t *cid)
{
    const comm_store_radix_t *r = CRADIX(m);
    const chunk_t *c;
    int i3 = RADIX_FAN - 1, i2 = RADIX_FAN - 1, i1 = RADIX_FAN - 1, i0 = RADIX_FAN - 1;

    while (i3 >= 0 && NULL == r->top[i3]) {
        i3--;
    }
    if (i3 < 0) {
        return -1;
    }
    /* Linked chunks are non-empty: each scan below finds a slot. */
    for (c = r->top[i3]; NULL == c->slot[i2]; i2--) {
    }
    for (c = CHILD(c, i2); NULL == c->slot[i1]; i1--) {
    }
    for (c = CHILD(c, i1); NULL == c->slot[i0]; i0--) {
    }
    *cid = RADIX_CID(i3, i2, i1, i0);
    return 0;
}

static void comm_store_radix_stats(const comm_store_map_t *m, comm_store_map_stats_t *s)
{
    const comm_store_radix_t *r = CRADIX(m);
    size_t held = 0;
    s->live = r->live;
    s->chunks = 0;
    for (int l = 0; l < RADIX_LEVELS; l++) {
        s->chunks += r->linked[l];
        held += r->linked[l] + r->pooled[l];
    }
    s->cells = RADIX_FAN * r->linked[0];
    s->bytes = sizeof(*r) + held * sizeof(chunk_t);
}

#define RADIX_FAIL(...) COMM_STORE_CHECK_FAIL("radix", __VA_ARGS__)

/* Checks the linked chunk c at `level` reached by cid prefix `prefix`;
 * adds its chunks per level to linked[] and its entries to *live. */
static int comm_store_radix_check_chunk(const chunk_t *c, int level, uint32_t prefix,
                                        size_t *linked, size_t *live)
{
    int used = 0;
    if (c->level != level) {
        RADIX_FAIL("chunk for prefix 0x%x linked at level %d was made for level %d", prefix,
                   level, c->level);
    }
    for (int i = 0; i < RADIX_FAN; i++) {
        if (NULL == c->slot[i]) {
            continue;
        }
        used++;
        if (level > 0 && comm_store_radix_check_chunk(CHILD(c, i), level - 1,
                                                      (prefix << 8) | (uint32_t) i, linked,
                                                      live)) {
            return -1;
        }
    }
    if (0 == used) {
        RADIX_FAIL("empty chunk still linked at level %d, prefix 0x%x", level, prefix);
    }
    if (used != c->count) {
        RADIX_FAIL("level-%d chunk of prefix 0x%x counts %u, holds %d", level, prefix,
                   (unsigned) c->count, used);
    }
    linked[level]++;
    if (0 == level) {
        *live += (size_t) used;
    }
    return 0;
}

int comm_store_radix_check(const comm_store_map_t *m)
{
    const comm_store_radix_t *r = CRADIX(m);
    size_t linked[RADIX_LEVELS] = {0, 0, 0}, live = 0;

    if (r->seq.seq & 1u) {
        RADIX_FAIL("sequence counter %u is odd outside a write", r->seq.seq);
    }
    for (int i2 = 0; i2 < RADIX_FAN; i2++) {
        const chunk_t *want = NULL != r->top[0] ? CHILD(r->top[0], i2) : NULL;
        if (r->low[i2] != want) {
            RADIX_FAIL("shortcut low[%d] is %p, the level-1 chunk of prefix 0x00%02x is %p", i2,
                       (void *) r->low[i2], (unsigned) i2, (const void *) want);
        }
    }
    for (int i3 = 0; i3 < RADIX_FAN; i3++) {
        if (NULL != r->top[i3]
            && comm_store_radix_check_chunk(r->top[i3], 2, (uint32_t) i3, linked, &live)) {
            return -1;
        }
    }
    if (live != r->live) {
        RADIX_FAIL("%zu entries in the leaves, live says %zu", live, r->live);
    }
    for (int l = 0; l < RADIX_LEVELS; l++) {
        size_t n = 0;
        if (linked[l] != r->linked[l]) {
            RADIX_FAIL("%zu level-%d chunks linked, counter says %zu", linked[l], l,
                       r->linked[l]);
        }
        for (const chunk_t *c = r->pool[l]; NULL != c; c = c->pool_next) {
            if (++n > r->pooled[l]) {
                RADIX_FAIL("level-%d pool longer than its count %zu", l, r->pooled[l]);
            }
            if (c->level != l || 0 != c->count) {
                RADIX_FAIL("level-%d pool holds a level-%d chunk with count %u", l, c->level,
                           (unsigned) c->count);
            }
            for (int i = 0; i < RADIX_FAN; i++) {
                if (NULL != c->slot[i]) {
                    RADIX_FAIL("pooled level-%d chunk has slot %d set", l, i);
                }
            }
        }
        if (n != r->pooled[l]) {
            RADIX_FAIL("level-%d pool holds %zu chunks, counter says %zu", l, n, r->pooled[l]);
        }
    }
    return 0;
}

const comm_store_map_ops_t comm_store_radix_ops = {
    .name = "radix", COMM_STORE_MAP_OPS(comm_store_radix)};
