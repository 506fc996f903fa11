/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Unit test of the comm_store maps (flat, rbtree, radix): edge cases,
 * random operations against a reference model with invariant checks, and
 * lock-free lookups racing a writer.  No MPI, no OPAL.  Build with:
 *
 *   gcc -std=gnu99 -O1 -g -Wall -Wextra -Werror \
 *       -fsanitize=address,undefined -fno-sanitize-recover=all -pthread \
 *       -I<top> -o cs_test test/unit/comm_store_map_test.c \
 *       ompi/mca/comm_store/(flat|rbtree|radix)/comm_store_*_map.c
 *
 * (and with -fsanitize=thread instead of address,undefined).
 *
 *   cs_test [SEED]      the tests; the last line is "comm_store_map_test: OK"
 *   cs_test --bench     lookup micro-benchmark (build with -O2, no sanitizer)
 *
 * Stored pointers are never dereferenced by the maps, so the test stores
 * fake ones that encode the cid: (gen << 33) | (cid << 1) | 1.
 */

#define _POSIX_C_SOURCE 200809L     /* clock_gettime, nanosleep under -std=c99 */

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ompi/mca/comm_store/comm_store_map.h"

static const char *ctx = "";    /* what is being tested, for messages */

/* failures name the map under test */
#define CHECK_FAIL(...) (fprintf(stderr, "comm_store_map_test: %s: ", ctx), test_fail(__VA_ARGS__))
#include "test/common/check.h"

/* ThreadSanitizer slows single-threaded code ~8x and adds nothing to it:
 * its build runs a third of the random operations (the ASan build runs
 * them all) to stay within the time budget. */
#if defined(__SANITIZE_THREAD__)                /* gcc */
#define OPS_DIV 3
#elif defined(__has_feature)                    /* clang */
#if __has_feature(thread_sanitizer)
#define OPS_DIV 3
#endif
#endif
#ifndef OPS_DIV
#define OPS_DIV 1
#endif

/* ---- helpers --------------------------------------------------------- */

static uint64_t rng_state = 1;

static uint32_t rnd32(void)
{
    return (uint32_t) test_rand(&rng_state);
}

static size_t rnd_below(size_t n)
{
    return (size_t) test_rand_below(&rng_state, n);
}

static void *enc(uint32_t cid, uint32_t gen)
{
    return (void *) (uintptr_t) (((uint64_t) (gen & 0x3fffffffu) << 33)
                                 | ((uint64_t) cid << 1) | 1u);
}

static uint32_t dec_cid(const void *p)
{
    return (uint32_t) ((uintptr_t) p >> 1);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;
    return (x > y) - (x < y);
}

/* Sorts and removes duplicates; returns the new length. */
static size_t sort_unique(uint32_t *k, size_t n)
{
    size_t j = 0;
    qsort(k, n, sizeof(*k), cmp_u32);
    for (size_t i = 0; i < n; i++) {
        if (0 == j || k[i] != k[j - 1]) {
            k[j++] = k[i];
        }
    }
    return j;
}

typedef struct {
    const comm_store_map_ops_t *ops;
    int (*check)(const comm_store_map_t *m);
    uint32_t max_cid;           /* largest storable cid */
} impl_t;

static const impl_t impls[] = {
    { &comm_store_flat_ops, comm_store_flat_check, COMM_STORE_FLAT_MAX_CIDS - 1 },
    { &comm_store_rbtree_ops, comm_store_rbtree_check, UINT32_MAX },
    { &comm_store_radix_ops, comm_store_radix_check, UINT32_MAX },
};
#define NIMPL (sizeof(impls) / sizeof(impls[0]))

static int is_flat(const impl_t *im)
{
    return im->ops == &comm_store_flat_ops;
}

/* ---- reference model --------------------------------------------------- *
 * A sorted universe of keys; presence bits (with a summary bit per 64-bit
 * word for fast scans) and values by universe index. */

typedef struct {
    const uint32_t *key;
    size_t n, nwords;
    uint64_t *bits, *sum;
    void **val;
    size_t live;
} ref_t;

static void ref_init(ref_t *r, const uint32_t *key, size_t n)
{
    r->key = key;
    r->n = n;
    r->nwords = (n + 63) / 64;
    r->bits = calloc(r->nwords, sizeof(uint64_t));
    r->sum = calloc((r->nwords + 63) / 64, sizeof(uint64_t));
    r->val = calloc(n, sizeof(void *));
    CHECK(r->bits && r->sum && r->val, "out of memory (reference)");
    r->live = 0;
}

static void ref_fini(ref_t *r)
{
    free(r->bits);
    free(r->sum);
    free(r->val);
}

/* First universe index whose key is >= cid (n if none). */
static size_t ref_index(const ref_t *r, uint32_t cid)
{
    size_t lo = 0, hi = r->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->key[mid] < cid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

static int ref_has(const ref_t *r, size_t i)
{
    return (int) ((r->bits[i >> 6] >> (i & 63)) & 1u);
}

static void ref_set(ref_t *r, size_t i, void *v)
{
    r->bits[i >> 6] |= UINT64_C(1) << (i & 63);
    r->sum[i >> 12] |= UINT64_C(1) << ((i >> 6) & 63);
    r->val[i] = v;
    r->live++;
}

static void ref_clear(ref_t *r, size_t i)
{
    r->bits[i >> 6] &= ~(UINT64_C(1) << (i & 63));
    if (0 == r->bits[i >> 6]) {
        r->sum[i >> 12] &= ~(UINT64_C(1) << ((i >> 6) & 63));
    }
    r->val[i] = NULL;
    r->live--;
}

/* First present index >= i, or n. */
static size_t ref_next_set(const ref_t *r, size_t i)
{
    size_t w = i >> 6;
    uint64_t x;
    if (i >= r->n) {
        return r->n;
    }
    x = r->bits[w] & (~UINT64_C(0) << (i & 63));
    if (x) {
        return (w << 6) + (size_t) __builtin_ctzll(x);
    }
    for (size_t j = w + 1; j < r->nwords; j = (j | 63) + 1) {
        uint64_t y = r->sum[j >> 6] & (~UINT64_C(0) << (j & 63));
        if (y) {
            j = (j & ~(size_t) 63) + (size_t) __builtin_ctzll(y);
            return (j << 6) + (size_t) __builtin_ctzll(r->bits[j]);
        }
    }
    return r->n;
}

/* Last present index, or n if empty. */
static size_t ref_last_set(const ref_t *r)
{
    for (size_t s = (r->nwords + 63) / 64; s-- > 0;) {
        if (r->sum[s]) {
            size_t w = (s << 6) + 63 - (size_t) __builtin_clzll(r->sum[s]);
            return (w << 6) + 63 - (size_t) __builtin_clzll(r->bits[w]);
        }
    }
    return r->n;
}

static void *ref_lookup(const ref_t *r, uint32_t cid)
{
    size_t i = ref_index(r, cid);
    return (i < r->n && r->key[i] == cid && ref_has(r, i)) ? r->val[i] : NULL;
}

static int ref_next(const ref_t *r, uint32_t from, uint32_t *cid, void **ptr)
{
    size_t i = ref_next_set(r, ref_index(r, from));
    if (i == r->n) {
        return -1;
    }
    *cid = r->key[i];
    *ptr = r->val[i];
    return 0;
}

static int ref_lowest_free(const ref_t *r, uint32_t from, uint32_t *cid)
{
    uint32_t c = from;
    for (size_t i = ref_index(r, from);; i++, c++) {
        if (i == r->n || r->key[i] != c || !ref_has(r, i)) {
            *cid = c;
            return 0;
        }
        if (UINT32_MAX == c) {
            return -1;
        }
    }
}

static int ref_highest(const ref_t *r, uint32_t *cid)
{
    size_t i = ref_last_set(r);
    if (i == r->n) {
        return -1;
    }
    *cid = r->key[i];
    return 0;
}

/* ---- shared checks ------------------------------------------------------ */

typedef struct {
    size_t peak_live;           /* rbtree allocates nodes only beyond this */
} track_t;

/* Structure invariants and statistics against the reference. */
static void check_state(const impl_t *im, const comm_store_map_t *m, const ref_t *r,
                        track_t *tr)
{
    comm_store_map_stats_t s;
    CHECK(0 == im->check(m), "%s_check reported an inconsistency (see above)", im->ops->name);
    im->ops->stats(m, &s);
    CHECK(s.live == r->live, "stats.live %zu, reference %zu", s.live, r->live);
    CHECK(s.cells >= s.live, "cells %zu < live %zu", s.cells, s.live);
    CHECK(s.bytes >= s.cells * sizeof(void *), "bytes %zu for %zu cells", s.bytes, s.cells);
    if (s.live > tr->peak_live) {
        tr->peak_live = s.live;
    }
    if (im->ops == &comm_store_rbtree_ops) {
        /* One node per entry (density 1); nodes are allocated only when the
         * pool is empty, so the bytes are those of the peak. */
        CHECK(s.cells == s.live, "rbtree cells %zu, live %zu", s.cells, s.live);
        CHECK(s.bytes > tr->peak_live * 3 * sizeof(void *), "rbtree bytes %zu for peak %zu",
              s.bytes, tr->peak_live);
        CHECK(0 == s.chunks, "rbtree chunks %zu", s.chunks);
    } else if (im->ops == &comm_store_radix_ops) {
        /* Linked chunks per level are the distinct prefixes of the keys. */
        size_t leaves = 0, mids = 0, tops = 0;
        uint32_t prev = 0;
        int first = 1;
        for (size_t i = ref_next_set(r, 0); i < r->n; i = ref_next_set(r, i + 1)) {
            uint32_t k = r->key[i];
            leaves += first || (k >> 8) != (prev >> 8);
            mids += first || (k >> 16) != (prev >> 16);
            tops += first || (k >> 24) != (prev >> 24);
            prev = k;
            first = 0;
        }
        CHECK(s.chunks == leaves + mids + tops, "radix chunks %zu, expected %zu+%zu+%zu",
              s.chunks, leaves, mids, tops);
        CHECK(s.cells == 256 * leaves, "radix cells %zu, expected 256 * %zu", s.cells, leaves);
    } else {
        uint32_t hi;
        CHECK(0 == s.chunks, "flat chunks %zu", s.chunks);
        if (0 == ref_highest(r, &hi)) {
            CHECK(s.cells > hi, "flat capacity %zu does not cover cid %u", s.cells, hi);
        }
    }
}

/* Whole content, walked with next(), against the reference. */
static void check_content(const impl_t *im, const comm_store_map_t *m, const ref_t *r)
{
    uint32_t cid = 0;
    void *p;
    size_t i = ref_next_set(r, 0), n = 0;
    for (uint64_t from = 0; from <= UINT32_MAX; from = (uint64_t) cid + 1) {
        if (im->ops->next(m, (uint32_t) from, &cid, &p)) {
            break;
        }
        CHECK(i < r->n, "next(%llu) found %u, reference has nothing more",
              (unsigned long long) from, cid);
        CHECK(cid == r->key[i] && p == r->val[i], "next(%llu) = %u %p, reference %u %p",
              (unsigned long long) from, cid, p, r->key[i], r->val[i]);
        i = ref_next_set(r, i + 1);
        n++;
    }
    CHECK(i == r->n, "walk ended after %zu entries, reference has %u next", n,
          i < r->n ? r->key[i] : 0);
}

/* ---- edge cases ------------------------------------------------------- */

/* Repeated lookups (rbtree's hint) and the radix shortcut for cid < 2^24
 * (the level-1 chunks of b3 == 0 cached in the header): hinted node
 * removed, its node reused for another cid, the cid re-inserted elsewhere;
 * the b3 == 0 chunks unlinked and relinked.  m is empty on entry and exit. */
static void test_hint_shortcut(const impl_t *im, comm_store_map_t *m)
{
    const comm_store_map_ops_t *o = im->ops;
    static const uint32_t cids[] = { 7, 300, 65535, 65536, 0x00ff1234, 0xffffff, 0x01000007 };
    const size_t nc = sizeof(cids) / sizeof(cids[0]);
    uint32_t gen = 100;

    for (size_t i = 0; i < nc; i++) {
        uint32_t c = cids[i], other = cids[(i + 1) % nc];
        if (c > im->max_cid || other > im->max_cid) {
            continue;
        }
        CHECK(0 == o->insert(m, c, enc(c, ++gen)), "hint: insert %u", c);
        for (int rep = 0; rep < 3; rep++) {
            CHECK(enc(c, gen) == o->lookup(m, c), "hint: repeated lookup of %u", c);
        }
        CHECK(0 == im->check(m), "hint: check with %u hinted", c);
        CHECK(0 == o->remove(m, c), "hint: remove hinted %u", c);
        CHECK(0 == im->check(m), "hint: check after removing %u", c);
        CHECK(NULL == o->lookup(m, c), "hint: lookup of removed %u", c);
        /* rbtree: the pooled node is reused for `other` */
        CHECK(0 == o->insert(m, other, enc(other, ++gen)), "hint: insert %u", other);
        CHECK(NULL == o->lookup(m, c), "hint: lookup of removed %u after reuse", c);
        CHECK(enc(other, gen) == o->lookup(m, other), "hint: lookup of %u", other);
        CHECK(0 == o->insert(m, c, enc(c, ++gen)), "hint: re-insert %u", c);
        CHECK(enc(c, gen) == o->lookup(m, c), "hint: lookup of re-inserted %u", c);
        CHECK(enc(other, gen - 1) == o->lookup(m, other), "hint: lookup of %u again", other);
        CHECK(0 == im->check(m), "hint: check after re-inserting %u", c);
        CHECK(0 == o->remove(m, other) && 0 == o->remove(m, c), "hint: remove %u %u", c, other);
        CHECK(NULL == o->lookup(m, c) && NULL == o->lookup(m, other), "hint: lookups after");
        CHECK(0 == im->check(m), "hint: check at the end of %u", c);
    }
}

static void test_edges(const impl_t *im)
{
    const comm_store_map_ops_t *o = im->ops;
    comm_store_map_t *m = o->create();
    comm_store_map_stats_t s;
    uint32_t c;
    void *p;

    CHECK(NULL != m, "create failed");
    /* empty */
    CHECK(NULL == o->lookup(m, 0) && NULL == o->lookup(m, UINT32_MAX) && NULL == o->lookup(m, 7),
          "lookup in an empty map");
    CHECK(-1 == o->next(m, 0, &c, &p), "next in an empty map");
    CHECK(-1 == o->highest(m, &c), "highest of an empty map");
    CHECK(0 == o->lowest_free(m, 0, &c) && 0 == c, "lowest_free(0) of an empty map");
    CHECK(0 == o->lowest_free(m, UINT32_MAX, &c) && UINT32_MAX == c,
          "lowest_free(UINT32_MAX) of an empty map");
    CHECK(-1 == o->remove(m, 0) && -1 == o->remove(m, UINT32_MAX), "remove from an empty map");
    o->stats(m, &s);
    CHECK(0 == s.live && 0 == s.chunks && s.bytes > 0, "stats of an empty map");
    CHECK(0 == im->check(m), "check of an empty map");

    /* cid 0, duplicates, NULL */
    CHECK(0 == o->insert(m, 0, enc(0, 1)), "insert 0");
    CHECK(-1 == o->insert(m, 0, enc(0, 2)), "duplicate insert of 0 is not -1");
    CHECK(enc(0, 1) == o->lookup(m, 0), "duplicate insert changed the value");
    CHECK(-1 == o->insert(m, 1, NULL) && NULL == o->lookup(m, 1), "insert of NULL is not -1");
    CHECK(0 == o->highest(m, &c) && 0 == c, "highest with only 0");
    CHECK(0 == o->next(m, 0, &c, &p) && 0 == c && enc(0, 1) == p, "next(0) with only 0");
    CHECK(0 == o->next(m, 0, &c, NULL) && 0 == c, "next with ptr == NULL");
    CHECK(-1 == o->next(m, 1, &c, &p), "next(1) with only 0");
    CHECK(0 == o->lowest_free(m, 0, &c) && 1 == c, "lowest_free(0) with only 0");
    CHECK(-1 == o->remove(m, 1), "remove of an absent cid next to a present one");
    CHECK(0 == o->remove(m, 0), "remove 0");
    CHECK(-1 == o->remove(m, 0), "second remove of 0 is not -1");
    CHECK(NULL == o->lookup(m, 0), "lookup after remove");

    /* a full run 0..300, then a hole */
    for (c = 0; c <= 300; c++) {
        CHECK(0 == o->insert(m, c, enc(c, 3)), "insert %u of 0..300", c);
    }
    CHECK(0 == o->lowest_free(m, 0, &c) && 301 == c, "lowest_free(0) over 0..300: %u", c);
    CHECK(0 == o->lowest_free(m, 150, &c) && 301 == c, "lowest_free(150) over 0..300");
    CHECK(0 == o->lowest_free(m, 301, &c) && 301 == c, "lowest_free(301) over 0..300");
    CHECK(0 == o->lowest_free(m, 5000, &c) && 5000 == c, "lowest_free(5000) over 0..300");
    CHECK(0 == o->next(m, 300, &c, &p) && 300 == c && enc(300, 3) == p, "next(300)");
    CHECK(-1 == o->next(m, 301, &c, &p), "next(301) over 0..300");
    CHECK(0 == o->highest(m, &c) && 300 == c, "highest over 0..300");
    CHECK(0 == o->remove(m, 150), "remove 150");
    CHECK(0 == o->lowest_free(m, 0, &c) && 150 == c, "lowest_free(0) with a hole at 150");
    CHECK(0 == o->lowest_free(m, 151, &c) && 301 == c, "lowest_free(151) with a hole at 150");
    CHECK(0 == o->next(m, 150, &c, &p) && 151 == c, "next(150) over the hole");
    CHECK(0 == o->remove(m, 300) && 0 == o->highest(m, &c) && 299 == c,
          "highest after removing 300");
    /* full leaves (radix skips them) and a run across a 65536 boundary */
    for (c = 301; c < 1024; c++) {
        CHECK(0 == o->insert(m, c, enc(c, 3)), "insert %u", c);
    }
    CHECK(0 == o->insert(m, 300, enc(300, 3)) && 0 == o->insert(m, 150, enc(150, 3)),
          "re-insert 150 and 300");
    CHECK(0 == o->lowest_free(m, 0, &c) && 1024 == c, "lowest_free over 0..1023: %u", c);
    for (c = 65530; c < 65542; c++) {
        CHECK(0 == o->insert(m, c, enc(c, 4)), "insert %u", c);
    }
    CHECK(0 == o->lowest_free(m, 65530, &c) && 65542 == c, "lowest_free across 65536");
    CHECK(0 == o->next(m, 1024, &c, &p) && 65530 == c, "next across a gap");
    CHECK(0 == im->check(m), "check after the runs");
    for (c = 0; c < 1024; c++) {
        CHECK(0 == o->remove(m, c), "remove %u", c);
    }
    for (c = 65530; c < 65542; c++) {
        CHECK(0 == o->remove(m, c), "remove %u", c);
    }
    o->stats(m, &s);
    CHECK(0 == s.live && 0 == s.chunks, "after removing everything: live %zu chunks %zu", s.live,
          s.chunks);
    CHECK(-1 == o->highest(m, &c) && -1 == o->next(m, 0, &c, &p), "empty again");
    CHECK(0 == im->check(m), "check after removing everything");

    /* UINT32_MAX and the top of the cid space */
    if (im->max_cid == UINT32_MAX) {
        const uint32_t top = UINT32_MAX - 300;
        CHECK(0 == o->insert(m, UINT32_MAX, enc(UINT32_MAX, 5)), "insert UINT32_MAX");
        CHECK(-1 == o->insert(m, UINT32_MAX, enc(UINT32_MAX, 6)), "duplicate UINT32_MAX");
        CHECK(enc(UINT32_MAX, 5) == o->lookup(m, UINT32_MAX), "lookup UINT32_MAX");
        CHECK(NULL == o->lookup(m, UINT32_MAX - 1) && NULL == o->lookup(m, 0xffffff),
              "lookup next to UINT32_MAX");
        CHECK(0 == o->highest(m, &c) && UINT32_MAX == c, "highest UINT32_MAX");
        CHECK(0 == o->next(m, UINT32_MAX, &c, &p) && UINT32_MAX == c, "next(UINT32_MAX)");
        CHECK(0 == o->next(m, 0, &c, &p) && UINT32_MAX == c, "next(0) finds UINT32_MAX");
        CHECK(-1 == o->lowest_free(m, UINT32_MAX, &c), "lowest_free(UINT32_MAX) when taken");
        CHECK(0 == o->lowest_free(m, UINT32_MAX - 1, &c) && UINT32_MAX - 1 == c,
              "lowest_free(UINT32_MAX - 1)");
        for (c = top; c < UINT32_MAX; c++) {
            CHECK(0 == o->insert(m, c, enc(c, 5)), "insert %u", c);
        }
        CHECK(-1 == o->lowest_free(m, top, &c), "lowest_free with all taken up to UINT32_MAX");
        CHECK(0 == o->lowest_free(m, top - 1, &c) && top - 1 == c, "lowest_free below the run");
        CHECK(0 == o->remove(m, UINT32_MAX - 5), "remove UINT32_MAX - 5");
        CHECK(0 == o->lowest_free(m, top, &c) && UINT32_MAX - 5 == c, "lowest_free to the hole");
        CHECK(0 == o->insert(m, 0, enc(0, 7)) && 0 == o->insert(m, 0x01000000, enc(0x01000000, 7)),
              "insert 0 and 2^24");
        CHECK(0 == o->next(m, 1, &c, &p) && 0x01000000 == c, "next(1) = 2^24");
        CHECK(0 == im->check(m), "check at the top");
        for (c = top; c != 0; c++) {
            CHECK(0 == o->remove(m, c) || UINT32_MAX - 5 == c, "remove %u", c);
        }
        CHECK(0 == o->remove(m, 0) && 0 == o->remove(m, 0x01000000), "remove 0 and 2^24");
    } else {
        /* flat: cids past its limit cannot be stored, but are free */
        CHECK(-2 == o->insert(m, UINT32_MAX, enc(UINT32_MAX, 5)), "flat insert UINT32_MAX not -2");
        CHECK(-2 == o->insert(m, COMM_STORE_FLAT_MAX_CIDS, enc(1, 1)), "flat insert of the limit");
        CHECK(NULL == o->lookup(m, UINT32_MAX) && -1 == o->remove(m, UINT32_MAX),
              "flat lookup/remove UINT32_MAX");
        CHECK(0 == o->lowest_free(m, UINT32_MAX, &c) && UINT32_MAX == c,
              "flat lowest_free(UINT32_MAX)");
        CHECK(0 == o->insert(m, COMM_STORE_FLAT_MAX_CIDS - 1, enc(7, 7)), "flat insert limit - 1");
        CHECK(0 == o->highest(m, &c) && COMM_STORE_FLAT_MAX_CIDS - 1 == c, "flat highest");
        CHECK(0 == o->lowest_free(m, COMM_STORE_FLAT_MAX_CIDS - 1, &c)
              && COMM_STORE_FLAT_MAX_CIDS == c, "flat lowest_free at the limit");
        CHECK(0 == o->remove(m, COMM_STORE_FLAT_MAX_CIDS - 1), "flat remove limit - 1");
    }
    o->stats(m, &s);
    CHECK(0 == s.live && 0 == s.chunks, "at the end: live %zu chunks %zu", s.live, s.chunks);
    CHECK(0 == im->check(m), "check at the end");
    test_hint_shortcut(im, m);
    /* destroy with entries and pools: LeakSanitizer checks that all goes */
    for (c = 0; c < 3000; c += 3) {
        CHECK(0 == o->insert(m, c * 977u, enc(c, 8)), "insert before destroy");
    }
    for (c = 0; c < 3000; c += 6) {
        CHECK(0 == o->remove(m, c * 977u), "remove before destroy");
    }
    o->destroy(m);
    o->destroy(NULL);
}

/* ---- random operations against the reference ----------------------------- */

typedef enum { MODE_RANDOM, MODE_HIGHEST } test_mode_t;

/* n universe keys (sorted, unique), nops operations.  MODE_RANDOM inserts
 * random universe keys (and sometimes lowest_free results); MODE_HIGHEST
 * allocates highest() + 1 (wrapping to the lowest free key), as the
 * Highest-CID algorithm, and frees random entries. */
static size_t test_random(const impl_t *im, const char *dist, const uint32_t *key, size_t n,
                          size_t nops, test_mode_t mode)
{
    const comm_store_map_ops_t *o = im->ops;
    comm_store_map_t *m = o->create();
    ref_t r;
    track_t tr = { 0 };
    uint32_t *snap = NULL;
    size_t nsnap = 0, nchecks = 0, ins_ok = 0, rem_ok = 0;
    const size_t content_every = 25000, phase_len = nops / OPS_DIV / 8;
    size_t next_check = 2500;
    uint32_t gen = 0, c = 0, rc_cid = 0, ref_cid = 0;
    void *p = NULL, *rp = NULL;
    comm_store_map_stats_t s;
    size_t bytes_drained;
    double t0 = test_now();

    CHECK(NULL != m, "create failed");
    ref_init(&r, key, n);
    nops /= OPS_DIV;
    for (size_t op = 0; op < nops; op++) {
        int fill = 0 == (op / phase_len) % 2;
        int w_ins = fill ? 42 : 8, w_rem = fill ? 3 : 37;
        size_t x = rnd_below(100), i;
        int rc, rrc;

        if (x < (size_t) w_ins) {                             /* insert */
            if (MODE_HIGHEST == mode && x < (size_t) w_ins * 85 / 100) {
                rc = o->highest(m, &c);
                rrc = ref_highest(&r, &ref_cid);
                CHECK(rc == rrc && (rc || c == ref_cid), "highest: %d %u, reference %d %u", rc,
                      c, rrc, ref_cid);
                if (rc) {
                    c = key[0];
                } else if (c != key[n - 1]) {
                    c++;
                } else if (o->lowest_free(m, key[0], &c) || c > key[n - 1]) {
                    goto op_done;   /* the (contiguous) universe is full; else wrap */
                }
            } else if (MODE_RANDOM == mode && x < 5) {
                if (o->lowest_free(m, key[rnd_below(n)], &c)) {
                    goto op_done;       /* taken up to UINT32_MAX */
                }
            } else {
                c = key[rnd_below(n)];
            }
            i = ref_index(&r, c);
            if (i == n || key[i] != c) {
                goto op_done;           /* outside the universe the reference tracks */
            }
            p = enc(c, ++gen);
            rc = o->insert(m, c, p);
            if (ref_has(&r, i)) {
                CHECK(-1 == rc, "insert of present %u returned %d", c, rc);
            } else {
                CHECK(0 == rc, "insert of %u returned %d", c, rc);
                ref_set(&r, i, p);
                ins_ok++;
                if (r.live > tr.peak_live) {
                    tr.peak_live = r.live;
                }
            }
        } else if (x < (size_t) (w_ins + w_rem)) {            /* remove */
            i = rnd_below(n);
            if (rnd_below(10) < 7 && r.live) {
                i = ref_next_set(&r, i);
                if (i == n) {
                    i = ref_next_set(&r, 0);
                }
            }
            c = key[i];
            rc = o->remove(m, c);
            if (ref_has(&r, i)) {
                CHECK(0 == rc, "remove of %u returned %d", c, rc);
                ref_clear(&r, i);
                rem_ok++;
            } else {
                CHECK(-1 == rc, "remove of absent %u returned %d", c, rc);
            }
        } else if (x < 75) {                                  /* lookup */
            size_t y = rnd_below(10);
            c = y < 8 ? key[rnd_below(n)] : y < 9 ? key[rnd_below(n)] + 1 : rnd32();
            p = o->lookup(m, c);
            rp = ref_lookup(&r, c);
            CHECK(p == rp, "lookup(%u) = %p, reference %p", c, p, rp);
        } else if (x < 85) {                                  /* next */
            c = rnd_below(4) ? key[rnd_below(n)] + (uint32_t) rnd_below(3) - 1 : rnd32();
            rc = o->next(m, c, &rc_cid, &p);
            rrc = ref_next(&r, c, &ref_cid, &rp);
            CHECK(rc == rrc && (rc || (rc_cid == ref_cid && p == rp)),
                  "next(%u) = %d %u %p, reference %d %u %p", c, rc, rc_cid, p, rrc, ref_cid, rp);
        } else if (x < 93) {                                  /* lowest_free */
            c = rnd_below(4) ? key[rnd_below(n)] : rnd32();
            rc = o->lowest_free(m, c, &rc_cid);
            rrc = ref_lowest_free(&r, c, &ref_cid);
            CHECK(rc == rrc && (rc || rc_cid == ref_cid),
                  "lowest_free(%u) = %d %u, reference %d %u", c, rc, rc_cid, rrc, ref_cid);
        } else {                                              /* highest */
            rc = o->highest(m, &rc_cid);
            rrc = ref_highest(&r, &ref_cid);
            CHECK(rc == rrc && (rc || rc_cid == ref_cid), "highest = %d %u, reference %d %u", rc,
                  rc_cid, rrc, ref_cid);
        }

    op_done:
        if (op + 1 == next_check) {
            /* A check reads the whole structure: space them by its size. */
            check_state(im, m, &r, &tr);
            nchecks++;
            o->stats(m, &s);
            next_check += s.bytes / 2000 > 2500 ? s.bytes / 2000 : 2500;
            if (r.live > nsnap) {           /* keep the largest key set seen */
                free(snap);
                snap = xmalloc(r.live * sizeof(*snap));
                nsnap = 0;
                for (i = ref_next_set(&r, 0); i < n; i = ref_next_set(&r, i + 1)) {
                    snap[nsnap++] = key[i];
                }
            }
        }
        if (0 == (op + 1) % content_every) {
            check_content(im, m, &r);
        }
    }

    /* Drain: everything removed, radix must unlink every chunk. */
    check_content(im, m, &r);
    for (size_t i = ref_next_set(&r, 0); i < n; i = ref_next_set(&r, i + 1)) {
        CHECK(0 == o->remove(m, key[i]), "drain: remove %u", key[i]);
        ref_clear(&r, i);
    }
    check_state(im, m, &r, &tr);
    o->stats(m, &s);
    CHECK(0 == s.live && 0 == s.chunks, "drained: live %zu chunks %zu", s.live, s.chunks);
    CHECK(-1 == o->highest(m, &c), "drained: highest");
    /* Re-inserting a key set that was once present reuses pooled memory
     * (flat: fits the array it had). */
    bytes_drained = s.bytes;
    for (size_t j = 0; j < nsnap; j++) {
        CHECK(0 == o->insert(m, snap[j], enc(snap[j], 1)), "refill: insert %u", snap[j]);
    }
    o->stats(m, &s);
    CHECK(s.live == nsnap, "refill: live %zu of %zu", s.live, nsnap);
    CHECK(s.bytes == bytes_drained, "refill of %zu keys allocated: bytes %zu -> %zu", nsnap,
          bytes_drained, s.bytes);
    CHECK(0 == im->check(m), "check after the refill");
    printf("    %-6s %-34s %zu ops, %zu inserts, %zu removes, peak %zu live, %zu checks, %.1f s\n",
           o->name, dist, nops, ins_ok, rem_ok, tr.peak_live, nchecks, test_now() - t0);
    o->destroy(m);
    ref_fini(&r);
    free(snap);
    return nops;
}

/* Sparse universe: edges of every byte level, runs at both ends of the
 * cid space, and random keys below max. */
static size_t make_sparse(uint32_t *k, size_t nrandom, uint32_t max)
{
    static const uint32_t edges[] = { 0, 1, 2, 255, 256, 257, 511, 512, 65535, 65536, 65537,
                                      0xffffff, 0x1000000, 0x1000001, 0x7fffffff, 0x80000000,
                                      0xfffeffff, 0xffff0000, 0xfffffeff, 0xffffff00,
                                      UINT32_MAX - 1, UINT32_MAX };
    size_t n = 0;
    for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++) {
        if (edges[i] <= max) {
            k[n++] = edges[i];
        }
    }
    for (uint32_t i = 0; i <= 300; i++) {
        k[n++] = i;
        k[n++] = max - i;
    }
    for (size_t i = 0; i < nrandom; i++) {
        k[n++] = (uint32_t) ((uint64_t) rnd32() % ((uint64_t) max + 1));
    }
    return sort_unique(k, n);
}

static size_t make_range(uint32_t *k, uint32_t base, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        k[i] = base + (uint32_t) i;
    }
    return n;
}

static void test_random_all(const impl_t *im)
{
    const size_t cap = 1u << 18;
    uint32_t *k = xmalloc((cap + 1024) * sizeof(*k));
    size_t n, total = 0;

    n = make_range(k, 0, 70001);
    total += test_random(im, "dense [0, 70000]", k, n, 300000, MODE_RANDOM);

    /* flat: below 2^20, not to hold a 2^24-slot array under ASan */
    n = make_sparse(k, 6000, is_flat(im) ? (1u << 20) - 1 : UINT32_MAX);
    total += test_random(im, is_flat(im) ? "sparse random < 2^20 + edges"
                                         : "sparse random 32-bit + edges",
                         k, n, 300000, MODE_RANDOM);

    n = make_range(k, 0, cap);
    total += test_random(im, "highest-CID from 0", k, n, 250000, MODE_HIGHEST);

    if (im->max_cid == UINT32_MAX) {
        /* crossing a top-byte boundary, and ending at UINT32_MAX (wraps) */
        n = make_range(k, 0x00ff0000u, 1u << 17);
        total += test_random(im, "highest-CID across 0x01000000", k, n, 100000, MODE_HIGHEST);
        n = make_range(k, UINT32_MAX - 4095, 4096);
        total += test_random(im, "highest-CID up to UINT32_MAX", k, n, 100000, MODE_HIGHEST);
    } else {
        n = make_range(k, (1u << 20) - 4096, 4096);
        total += test_random(im, "highest-CID up to 2^20 - 1", k, n, 200000, MODE_HIGHEST);
    }
    CHECK(total >= 1000000 / OPS_DIV, "only %zu random operations", total);
    free(k);
}

/* Exclusive mode (a process without MPI threads): memory that leaves the
 * structure is freed at once.  Switching it on empties the pools (and
 * flat's retired arrays), leaving exactly the bytes of a map that was
 * exclusive from the start after the same operations; in exclusive mode an
 * emptied rbtree or radix map is back to the bytes of a new one. */
static void test_exclusive(const impl_t *im)
{
    const comm_store_map_ops_t *o = im->ops;
    const uint32_t max = is_flat(im) ? (1u << 20) - 1 : UINT32_MAX;
    enum { NK = 20000 };
    uint32_t *k = xmalloc(NK * sizeof(*k));
    comm_store_map_t *m = o->create(), *x = o->create();
    comm_store_map_stats_t s, sx;
    size_t bytes0, peak, n;

    CHECK(NULL != m && NULL != x, "exclusive: create");
    o->stats(m, &s);
    bytes0 = s.bytes;
    o->set_exclusive(x, 1);
    for (n = 0; n < NK / 2; n++) {
        k[n] = (uint32_t) n;                    /* dense, as lowest-CID */
    }
    while (n < NK) {
        uint32_t c = (uint32_t) (rnd32() % ((uint64_t) max + 1)); /* sparse, as highest-CID */
        if (c >= NK / 2) {
            k[n++] = c;
        }
    }
    for (size_t i = 0; i < NK; i++) {
        int rc = o->insert(m, k[i], enc(k[i], 1));
        CHECK(rc == o->insert(x, k[i], enc(k[i], 1)), "exclusive: insert %u differs", k[i]);
    }
    for (size_t i = 0; i < NK; i++) {
        CHECK(o->lookup(x, k[i]) == o->lookup(m, k[i]), "exclusive: lookup %u", k[i]);
    }
    CHECK(0 == im->check(x), "exclusive: check after inserts");
    for (size_t i = 0; i < NK; i++) {
        (void) o->remove(m, k[i]);
        (void) o->remove(x, k[i]);
    }
    o->stats(m, &s);
    o->stats(x, &sx);
    CHECK(0 == s.live && 0 == sx.live, "exclusive: drained");
    CHECK(0 == im->check(x), "exclusive: check after the drain");
    if (!is_flat(im)) {
        CHECK(s.bytes > bytes0, "pooled map drained: bytes %zu, expected the peak", s.bytes);
        CHECK(sx.bytes == bytes0, "exclusive map drained: bytes %zu, a new map has %zu",
              sx.bytes, bytes0);
    }
    peak = s.bytes;
    o->set_exclusive(m, 1);
    CHECK(0 == im->check(m), "exclusive: check after switching on");
    o->stats(m, &s);
    CHECK(s.bytes == sx.bytes, "switched on: bytes %zu, always-exclusive map %zu", s.bytes,
          sx.bytes);
    /* churn in exclusive mode, checked against the pooled-mode answers */
    o->set_exclusive(m, 0);
    for (int round = 0; round < 20; round++) {
        for (size_t i = 0; i < NK; i += 1 + rnd32() % 3) {
            int rc = o->insert(m, k[i], enc(k[i], 2));
            CHECK(rc == o->insert(x, k[i], enc(k[i], 2)), "exclusive churn: insert %u", k[i]);
        }
        for (size_t i = 0; i < NK; i += 1 + rnd32() % 2) {
            int rc = o->remove(m, k[i]);
            CHECK(rc == o->remove(x, k[i]), "exclusive churn: remove %u", k[i]);
        }
        for (size_t i = 0; i < NK; i++) {
            CHECK(o->lookup(x, k[i]) == o->lookup(m, k[i]), "exclusive churn: lookup %u", k[i]);
        }
        CHECK(0 == im->check(x), "exclusive churn: check, round %d", round);
    }
    for (size_t i = 0; i < NK; i++) {
        (void) o->remove(x, k[i]);
    }
    o->stats(x, &sx);
    CHECK(is_flat(im) || sx.bytes == bytes0, "exclusive churn drained: bytes %zu, new map %zu",
          sx.bytes, bytes0);
    printf("    %-6s ok (drained after %d entries: pooled %zu bytes, exclusive %zu)\n", o->name,
           NK, peak, s.bytes);
    o->destroy(m);
    o->destroy(x);
    free(k);
}

/* ---- concurrency ------------------------------------------------------- */

#define NREADERS 3
#define NSTABLE 256
#define NCHURN 2048

typedef struct {
    const impl_t *im;
    comm_store_map_t *m;
    uint32_t stable[NSTABLE];   /* present during the whole round */
    uint32_t churn[NCHURN];     /* inserted and removed by the writer */
    uint32_t window;            /* readers also probe [0, window) */
    int stop;                   /* atomic */
} conc_t;

/* A lock-free reader of a round: the round's state, the round's stop
 * flag, its lookup, its own generator, what it did. */
typedef struct reader reader_t;
struct reader {
    void *c;
    const int *stop;
    void (*step)(reader_t *rd, uint64_t x);    /* one lookup, from random bits x */
    uint64_t seed;
    size_t lookups, hits;
};

/* A reader's thread: steps until the round's stop flag is set. */
static void *reader_main(void *arg)
{
    reader_t *rd = arg;
    uint64_t st = rd->seed;

    while (!__atomic_load_n(rd->stop, __ATOMIC_ACQUIRE)) {
        for (int j = 0; j < 64; j++) {
            rd->step(rd, test_rand(&st));
            rd->lookups++;
        }
    }
    return NULL;
}

/* Starts the round's NREADERS readers of step (seeded in turn from the
 * test's generator); they run until *stop. */
static void readers_start(pthread_t *th, reader_t *rd, void *c, int *stop,
                          void (*step)(reader_t *rd, uint64_t x))
{
    __atomic_store_n(stop, 0, __ATOMIC_RELEASE);
    for (int t = 0; t < NREADERS; t++) {
        rd[t].c = c;
        rd[t].stop = stop;
        rd[t].step = step;
        rd[t].seed = test_rand(&rng_state);
        rd[t].lookups = rd[t].hits = 0;
        CHECK(0 == pthread_create(&th[t], NULL, reader_main, &rd[t]), "pthread_create");
    }
}

/* Stops the readers; adds up their lookups and hits. */
static void readers_stop(pthread_t *th, const reader_t *rd, int *stop, size_t *lookups,
                         size_t *hits)
{
    __atomic_store_n(stop, 1, __ATOMIC_RELEASE);
    for (int t = 0; t < NREADERS; t++) {
        CHECK(0 == pthread_join(th[t], NULL), "pthread_join");
        *lookups += rd[t].lookups;
        *hits += rd[t].hits;
    }
}

static void readers_report(const char *name, int rounds, double seconds, size_t writes,
                           size_t lookups, size_t hits)
{
    printf("    %-6s %d rounds, %.1f s: %zu writes, %zu lock-free lookups (%zu hits) "
           "by %d readers\n", name, rounds, seconds, writes, lookups, hits, NREADERS);
    CHECK(lookups > 0 && writes > 0, "no progress");
}

/* A reader's lookup of a cid that is there all along. */
static void expect_present(const comm_store_map_ops_t *o, const comm_store_map_t *m, uint32_t cid,
                           const char *what)
{
    void *p = o->lookup(m, cid);
    CHECK(p == enc(cid, 0), "%s %s: lookup of always-present %u returned %p", o->name, what, cid,
          p);
}

static void conc_step(reader_t *rd, uint64_t x)
{
    conc_t *c = rd->c;
    const comm_store_map_ops_t *o = c->im->ops;
    uint32_t cid;
    void *p;

    switch (x & 3) {
    case 0:
        cid = c->stable[(x >> 8) % NSTABLE];
        expect_present(o, c->m, cid, "concurrent");
        break;
    case 1:
    case 2:
        cid = c->churn[(x >> 8) % NCHURN];
        break;
    default:
        /* low cids too: the slots of the first, smallest arrays */
        cid = (uint32_t) ((x >> 32) % ((x & 4) ? c->window : 128));
        break;
    }
    if (0 != (x & 3)) {
        p = o->lookup(c->m, cid);
        CHECK(NULL == p || (dec_cid(p) == cid && 0 != ((uintptr_t) p & 1)),
              "%s concurrent: lookup(%u) returned %p, the pointer of cid %u", o->name, cid, p,
              dec_cid(p));
        rd->hits += NULL != p;
    }
}

static void test_concurrent(const impl_t *im, double seconds)
{
    const comm_store_map_ops_t *o = im->ops;
    const int rounds = 15;     /* each a fresh map: growth from empty, destroy with pools */
    pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
    conc_t *c = calloc(1, sizeof(*c));
    uint32_t *present = xmalloc(8192 * sizeof(uint32_t));    /* the writer's entries */
    size_t writes = 0, lookups = 0, hits = 0, npresent;
    uint32_t lim = is_flat(im) ? (1u << 20) : UINT32_MAX, gen = 0;

    CHECK(NULL != c, "out of memory");
    c->im = im;
    c->window = is_flat(im) ? (1u << 20) + 4096 : 1u << 20;
    /* flat: all small, so that the array grows while the readers run */
    for (size_t i = 0; i < NSTABLE; i++) {
        c->stable[i] = i < 64 ? (uint32_t) i * 5
                       : is_flat(im) ? (uint32_t) (256 + i) : rnd32();
    }
    for (size_t i = 0; i < NCHURN; i++) {
        c->churn[i] = i < 256 ? (uint32_t) i : (uint32_t) ((uint64_t) rnd32() % lim);
        if (i >= NCHURN / 2) {
            /* Same low 16 bits: a reader holding a leaf or level-1 chunk
             * that gets recycled for another of these keys would find
             * that key's pointer at its own index. */
            c->churn[i] = (c->churn[i] & ~UINT32_C(0xffff)) | 0x5a5a;
        }
    }

    for (int round = 0; round < rounds; round++) {
        pthread_t th[NREADERS];
        reader_t rd[NREADERS];
        double t_end;
        uint32_t next_cid = 0;

        c->m = o->create();
        CHECK(NULL != c->m, "create failed");
        for (size_t i = 0; i < NSTABLE; i++) {
            int rc = o->insert(c->m, c->stable[i], enc(c->stable[i], 0));
            CHECK(0 == rc || -1 == rc, "insert stable %u: %d", c->stable[i], rc);
        }
        readers_start(th, rd, c, &c->stop, conc_step);

        npresent = 0;
        t_end = test_now() + seconds / rounds;
        while (test_now() < t_end) {
            for (int j = 0; j < 256; j++) {
                size_t x = rnd_below(100);
                int rc;
                uint32_t cid;
                pthread_mutex_lock(&mutex);
                if (npresent > 0 && (x < 45 || npresent >= 8192)) {
                    /* free a random entry */
                    size_t i = rnd_below(npresent);
                    cid = present[i];
                    present[i] = present[--npresent];
                    rc = o->remove(c->m, cid);
                    CHECK(0 == rc, "concurrent remove %u: %d", cid, rc);
                } else {
                    if (x < 75) {
                        /* Highest-CID style: next_cid grows, wraps at the limit */
                        cid = next_cid;
                        next_cid = next_cid + 1 < c->window - 4096 ? next_cid + 1 : 0;
                    } else {
                        cid = c->churn[rnd_below(NCHURN)];
                    }
                    rc = o->insert(c->m, cid, enc(cid, ++gen));
                    CHECK(0 == rc || -1 == rc, "concurrent insert %u: %d", cid, rc);
                    if (0 == rc) {
                        present[npresent++] = cid;
                    }
                }
                pthread_mutex_unlock(&mutex);
                writes++;
            }
        }
        readers_stop(th, rd, &c->stop, &lookups, &hits);
        CHECK(0 == im->check(c->m), "check after the concurrent round");
        for (size_t i = 0; i < NSTABLE; i++) {
            CHECK(enc(c->stable[i], 0) == o->lookup(c->m, c->stable[i]), "stable %u lost",
                  c->stable[i]);
        }
        o->destroy(c->m);
    }
    readers_report(o->name, rounds, seconds, writes, lookups, hits);
    free(present);
    free(c);
}

/* Lookups racing a writer that toggles a few cids in an otherwise sparse
 * map: radix's b3 == 0 level-1 and level-2 chunks (the shortcut's) are
 * linked and unlinked on every toggle of a low cid, and the readers'
 * favourite cid is rbtree's hint when the writer removes its node (which
 * the next insert of another cid then reuses).  Each toggled cid has an
 * operation counter: op v inserts enc(cid, v) when v is odd and removes it
 * when v is even.  A reader reads done = last finished op, looks up, then
 * reads started = last started op: the answer must be the state after one
 * of the ops done..started (linearizability of each lookup). */
#define NHOT 6

typedef struct {
    const impl_t *im;
    comm_store_map_t *m;
    uint32_t hot[NHOT];
    uint32_t started[NHOT], done[NHOT];    /* atomic */
    uint32_t stable[16];
    int stop;                              /* atomic */
} race_t;

static void race_step(reader_t *rd, uint64_t x)
{
    race_t *c = rd->c;
    const comm_store_map_ops_t *o = c->im->ops;
    /* mostly the same cid (hot[0]): ping-pong, rbtree's hint */
    size_t h = (x & 3) ? 0 : (size_t) ((x >> 8) % NHOT);
    uint32_t cid = c->hot[h], d, b, g;
    void *p;

    if (0 == (x & 0x70)) {
        expect_present(o, c->m, c->stable[(x >> 16) & 15], "race");
    }
    d = __atomic_load_n(&c->done[h], __ATOMIC_ACQUIRE);
    p = o->lookup(c->m, cid);
    b = __atomic_load_n(&c->started[h], __ATOMIC_ACQUIRE);
    g = (uint32_t) ((uintptr_t) p >> 33);
    CHECK(!(NULL != p ? (dec_cid(p) != cid || 0 == ((uintptr_t) p & 1) || g < d || g > b
                         || 0 == (g & 1))
                      : (d == b && (d & 1))),
          "%s race: lookup(%u) returned %p (cid %u, op %u) between ops %u and %u of that cid "
          "(odd ops insert op's value, even ops remove)", o->name, cid, p,
          NULL != p ? dec_cid(p) : 0, g, d, b);
    rd->hits += NULL != p;
}

static void test_race_hot(const impl_t *im, double seconds)
{
    const comm_store_map_ops_t *o = im->ops;
    const int rounds = 5;
    race_t *c = calloc(1, sizeof(*c));
    size_t writes = 0, lookups = 0, hits = 0;
    /* 5 and 700 share radix's (0, 0) level-1 chunk, 0x00052345 is alone
     * under (0, 5), 0x00ff0001 under (0, 255); no other entry has b3 == 0,
     * so the shortcut's chunks and top[0] come and go. */
    const uint32_t hot[NHOT] = { 5, 700, 0x00052345, 0x00ff0001, 0x02000005, 0xfedcba98 };

    CHECK(NULL != c, "out of memory");
    c->im = im;
    /* flat: below 2^20, not to hold a 2^24-slot array under ASan */
    const uint32_t hot_flat[NHOT] = { 5, 700, 0x52345, 0xff001, 0x80005, 0xdcba9 };

    for (size_t i = 0; i < NHOT; i++) {
        c->hot[i] = is_flat(im) ? hot_flat[i] : hot[i];
    }
    for (size_t i = 0; i < 16; i++) {
        c->stable[i] = is_flat(im) ? (uint32_t) (0x000e0000 + 4099 * i)
                                   : (uint32_t) (0x01000000 + 0x00f10203 * i);
    }
    for (int round = 0; round < rounds; round++) {
        pthread_t th[NREADERS];
        reader_t rd[NREADERS];
        uint32_t ops[NHOT] = { 0 };
        double t_end;

        c->m = o->create();
        CHECK(NULL != c->m, "create failed");
        for (size_t i = 0; i < 16; i++) {
            CHECK(0 == o->insert(c->m, c->stable[i], enc(c->stable[i], 0)), "race: insert "
                  "stable %u", c->stable[i]);
        }
        for (size_t i = 0; i < NHOT; i++) {
            __atomic_store_n(&c->started[i], 0, __ATOMIC_RELEASE);
            __atomic_store_n(&c->done[i], 0, __ATOMIC_RELEASE);
        }
        readers_start(th, rd, c, &c->stop, race_step);
        t_end = test_now() + seconds / rounds;
        while (test_now() < t_end) {
            for (int j = 0; j < 64; j++) {
                /* hot[0] a third of the time: its node is the hint */
                size_t h = rnd_below(3) ? 1 + rnd_below(NHOT - 1) : 0;
                uint32_t v = ++ops[h], cid = c->hot[h];
                int rc;
                __atomic_store_n(&c->started[h], v, __ATOMIC_RELEASE);
                rc = (v & 1) ? o->insert(c->m, cid, enc(cid, v)) : o->remove(c->m, cid);
                CHECK(0 == rc, "race: op %u (%s) of %u: %d", v, (v & 1) ? "insert" : "remove",
                      cid, rc);
                __atomic_store_n(&c->done[h], v, __ATOMIC_RELEASE);
                writes++;
                if (0 == (writes & 4095)) {
                    CHECK(0 == im->check(c->m), "race: check while the readers run");
                }
                CHECK(v < 0x3fffffffu, "race: op counter overflow");
            }
        }
        readers_stop(th, rd, &c->stop, &lookups, &hits);
        CHECK(0 == im->check(c->m), "check after the race round");
        o->destroy(c->m);
    }
    readers_report(o->name, rounds, seconds, writes, lookups, hits);
    free(c);
}

/* ---- benchmark ---------------------------------------------------------- */

#define BENCH_RUNS 15

/* Median ns per lookup of each implementation.  The runs of the three are
 * interleaved so that a noisy neighbour slows them alike. */
static void bench_set(const uint32_t *keys, const uint32_t *order, size_t n, size_t reps,
                      double *median)
{
    comm_store_map_t *m[NIMPL];
    double t[NIMPL][BENCH_RUNS];
    uintptr_t acc = 0;

    for (size_t k = 0; k < NIMPL; k++) {
        m[k] = impls[k].ops->create();
        CHECK(NULL != m[k], "create");
        for (size_t i = 0; i < n; i++) {
            CHECK(0 == impls[k].ops->insert(m[k], keys[i], enc(keys[i], 1)), "bench insert %u",
                  keys[i]);
        }
    }
    for (int run = -1; run < BENCH_RUNS; run++) {      /* run -1 warms up */
        for (size_t k = 0; k < NIMPL; k++) {
            void *(*lookup)(const comm_store_map_t *, uint32_t) = impls[k].ops->lookup;
            double t0 = test_now();
            for (size_t rep = 0; rep < reps; rep++) {
                for (size_t i = 0; i < n; i++) {
                    acc += (uintptr_t) lookup(m[k], keys[order[i]]);
                }
            }
            if (run >= 0) {
                t[k][run] = (test_now() - t0) * 1e9 / (double) (reps * n);
            }
        }
    }
    CHECK(0 != acc, "lookups found nothing");
    for (size_t k = 0; k < NIMPL; k++) {
        impls[k].ops->destroy(m[k]);
        median[k] = test_median(t[k], BENCH_RUNS);
    }
}

static void bench(void)
{
    const size_t n = 10000, reps = 100;
    uint32_t *keys = xmalloc(2 * n * sizeof(*keys)), *order = xmalloc(n * sizeof(*order));
    const char *set_name[2] = { "cids 0..9999", "random cids < 2^22" };
    const char *ord_name[3] = { "sequential", "random", "same cid" };

    printf("comm_store_map_test --bench: %zu live entries, ns per lookup through the ops "
           "table (indirect call included), median of %d runs of %zu lookups\n", n,
           BENCH_RUNS, n * reps);
    for (int set = 0; set < 2; set++) {
        size_t nk;
        if (0 == set) {
            nk = make_range(keys, 0, n);
        } else {
            do {    /* 2^22: a range flat can hold, 0.24% dense */
                for (size_t i = 0; i < 2 * n; i++) {
                    keys[i] = rnd32() >> 10;
                }
                nk = sort_unique(keys, 2 * n);
            } while (nk < n);
            /* keep n of them, spread over the range */
            for (size_t i = 0; i < n; i++) {
                keys[i] = keys[i * nk / n];
            }
            nk = n;
        }
        for (int ord = 0; ord < 3; ord++) {
            double t[NIMPL];
            uint32_t same = (uint32_t) rnd_below(nk);
            for (size_t i = 0; i < nk; i++) {
                /* ord 2: one communicator in use among n (ping-pong) */
                order[i] = 2 == ord ? same : (uint32_t) i;
            }
            if (1 == ord) {
                for (size_t i = nk - 1; i > 0; i--) {
                    size_t j = rnd_below(i + 1);
                    uint32_t tmp = order[i];
                    order[i] = order[j];
                    order[j] = tmp;
                }
            }
            bench_set(keys, order, nk, reps, t);
            printf("  %-19s %-10s order: flat %5.2f ns", set_name[set], ord_name[ord], t[0]);
            for (size_t k = 1; k < NIMPL; k++) {
                printf(" | %s %5.2f ns (%s/flat %.1fx, %+.1f ns)", impls[k].ops->name, t[k],
                       impls[k].ops->name, t[k] / t[0], t[k] - t[0]);
            }
            printf("\n");
        }
    }
    free(keys);
    free(order);
}

/* ---- main ------------------------------------------------------------------ */

int main(int argc, char **argv)
{
    uint64_t seed = 20260101;
    int do_bench = 0;
    double t0 = test_now();

    for (int i = 1; i < argc; i++) {
        if (0 == strcmp(argv[i], "--bench")) {
            do_bench = 1;
        } else {
            char *end;
            seed = strtoull(argv[i], &end, 0);
            if ('\0' != *end) {
                fprintf(stderr, "usage: %s [--bench] [SEED]\n", argv[0]);
                return 2;
            }
        }
    }
    if (sizeof(uintptr_t) < 8) {
        fprintf(stderr, "comm_store_map_test: FAILED: needs 64-bit pointers for its fake values\n");
        return 1;
    }
    rng_state = seed;
    setvbuf(stdout, NULL, _IOLBF, 0);   /* keep progress before a failure message */
    if (do_bench) {
        bench();
        return 0;
    }

    printf("comm_store_map_test: seed %llu\n", (unsigned long long) seed);
    printf("edge cases: empty map, cid 0 and UINT32_MAX, duplicates (-1), absent removes (-1),\n"
           "  NULL values, lowest_free over full runs 0..300 / 0..1023 / to UINT32_MAX,\n"
           "  flat limit (-2), destroy with entries and pools\n");
    for (size_t k = 0; k < NIMPL; k++) {
        double t = test_now();
        ctx = impls[k].ops->name;
        test_edges(&impls[k]);
        printf("    %-6s ok, %.1f s\n", impls[k].ops->name, test_now() - t);
    }

    printf("random insert/remove/lookup/next/lowest_free/highest against a reference model;\n"
           "  structure check and stats every max(2500, bytes / 2000) ops, full content every\n"
           "  25000, then drain"
           " (radix: 0 chunks) and refill (pooled memory reused, no new bytes)\n");
    for (size_t k = 0; k < NIMPL; k++) {
        ctx = impls[k].ops->name;
        test_random_all(&impls[k]);
    }

    printf("exclusive mode (no concurrent readers): freed at once, pools emptied when\n"
           "  switched on, same answers as pooled mode\n");
    for (size_t k = 0; k < NIMPL; k++) {
        ctx = impls[k].ops->name;
        test_exclusive(&impls[k]);
    }

    if (OPS_DIV > 1) {
        printf("  (ThreadSanitizer build: 1/%d of the random operations; the ASan build "
               "runs all)\n", OPS_DIV);
    }
    printf("concurrency: %d lock-free reader threads check every pointer they get against\n"
           "  its cid, and that always-present cids are always found, while the main thread\n"
           "  inserts and removes under a mutex (array growth, node and chunk recycling)\n",
           NREADERS);
    for (size_t k = 0; k < NIMPL; k++) {
        ctx = impls[k].ops->name;
        test_concurrent(&impls[k], 1.5);
    }
    printf("race: %d readers look up (mostly one) of %d cids that the main thread inserts and\n"
           "  removes in turn, each answer checked against the operations it overlapped\n"
           "  (radix: b3 == 0 shortcut chunks unlinked and relinked; rbtree: hinted node\n"
           "  removed and reused)\n", NREADERS, NHOT);
    for (size_t k = 0; k < NIMPL; k++) {
        ctx = impls[k].ops->name;
        test_race_hot(&impls[k], 1.0);
    }

    printf("time %.1f s\n", test_now() - t0);
    printf("comm_store_map_test: OK\n");
    return 0;
}
