/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Checks one grpmap representation against the plain array it encodes, and
 * generates the maps the representation tests share.  Include after
 * test/common/check.h and ompi/mca/grpmap/grpmap_repr.h.
 */
#ifndef TEST_GRPMAP_CHECK_H
#define TEST_GRPMAP_CHECK_H

#include <string.h>

static int gm_cmp32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *) a, y = *(const int32_t *) b;
    return (x > y) - (x < y);
}

/* Most members (and non-members) whose RANK gm_check looks up; a test of
 * a form whose RANK scans lowers it for big maps. */
static int32_t gm_rank_checks = 65536;

/* Does repr accept maps of this shape at all (kind)? */
static inline int gm_kind_fits(const grpmap_repr_t *r, const grpmap_input_t *in)
{
    int32_t i;
    if (GRPMAP_KIND_SET == r->kind) {
        return in->increasing;
    }
    if (GRPMAP_KIND_PERM == r->kind) {
        if (in->world != in->n) {
            return 0;
        }
        for (i = 0; i < in->n; i++) {
            if (in->ranks[i] < 0 || in->ranks[i] >= in->n) {
                return 0;
            }
        }
    }
    return 1;
}

/*
 * Builds ranks[0..n) (world) with r and checks every function against the
 * array.  Returns GRPMAP_OK, or GRPMAP_DECLINE when r declined (allowed only
 * if must_accept is 0; a decline must agree with estimate).  Every member is
 * looked up; non-members are the gaps' first values and a sample of others.
 */
static inline int gm_check(const grpmap_repr_t *r, const int32_t *ranks, int32_t n, int32_t world,
                           int must_accept, const char *what)
{
    grpmap_input_t in;
    void *map = NULL;
    int32_t i, k, step, *out, *sorted;
    size_t est = 0, b;
    int rc;

    grpmap_input_init(&in, ranks, n, world);
    if (!gm_kind_fits(r, &in)) {
        return GRPMAP_DECLINE;
    }
    if (NULL != r->estimate) {
        est = r->estimate(&in);
    }
    rc = r->build(&in, &map);
    CHECK(GRPMAP_OK == rc || GRPMAP_DECLINE == rc, "%s: %s: build returned %d", r->name, what, rc);
    if (GRPMAP_DECLINE == rc) {
        CHECK(!must_accept, "%s: %s: declined a map it must hold (n=%d world=%d)", r->name, what,
              n, world);
        CHECK(NULL == map, "%s: %s: declined but left a map", r->name, what);
        return rc;
    }
    CHECK(NULL == r->estimate || GRPMAP_DECLINES != est,
          "%s: %s: estimate said decline, build accepted", r->name, what);
    b = r->bytes(map);
    CHECK(b > 0, "%s: %s: bytes() is 0", r->name, what);
    CHECK(NULL == r->estimate || b <= est,
          "%s: %s: holds %zu bytes, estimate said at most %zu", r->name, what, b, est);
    for (i = 0; i < n; i++) {
        int32_t w = r->select(map, i);
        CHECK(w == ranks[i], "%s: %s: select(%d) = %d, expected %d", r->name, what, i, w,
              ranks[i]);
    }
    /* RANK may scan (array, blocks, packed): above gm_rank_checks members
     * every step-th member is looked up, the first and last always */
    step = n > gm_rank_checks ? n / gm_rank_checks + 1 : 1;
    for (i = 0; i < n; i += (i + step < n || i == n - 1) ? step : n - 1 - i) {
        int32_t g = r->rank(map, ranks[i]);
        CHECK(g == i, "%s: %s: rank(%d) = %d, expected %d", r->name, what, ranks[i], g, i);
    }
    /* non-members: everything around the members, the ends, out of range */
    sorted = xmalloc(sizeof(int32_t) * (size_t) n);
    memcpy(sorted, ranks, sizeof(int32_t) * (size_t) n);
    qsort(sorted, (size_t) n, sizeof(int32_t), gm_cmp32);
    {
        int32_t probes[] = {-1, -2, world, world < INT32_MAX ? world + 1 : INT32_MIN + 1,
                            INT32_MIN, INT32_MAX, 0, world - 1};
        for (k = 0; k < (int32_t) (sizeof(probes) / sizeof(probes[0])); k++) {
            int32_t w = probes[k];
            int member = NULL != bsearch(&w, sorted, (size_t) n, sizeof(int32_t), gm_cmp32);
            if (!member) {
                int32_t g = r->rank(map, w);
                CHECK(GRPMAP_NOT_MEMBER == g, "%s: %s: rank(%d) of a non-member = %d", r->name,
                      what, w, g);
            }
        }
        for (i = 0; i < n; i += step) {
            int32_t cand[2] = {sorted[i] - 1, sorted[i] + 1};
            for (k = 0; k < 2; k++) {
                int32_t w = cand[k];
                if (w < 0 || w >= world
                    || NULL != bsearch(&w, sorted, (size_t) n, sizeof(int32_t), gm_cmp32)) {
                    continue;
                }
                CHECK(GRPMAP_NOT_MEMBER == r->rank(map, w), "%s: %s: rank(%d) of a non-member",
                      r->name, what, w);
            }
        }
    }
    free(sorted);
    /* iteration: whole, and in uneven chunks */
    out = xmalloc(sizeof(int32_t) * (size_t) (n + 1));
    r->iterate(map, 0, n, out);
    CHECK(0 == n || 0 == memcmp(out, ranks, sizeof(int32_t) * (size_t) n),
          "%s: %s: iterate(0, n) differs", r->name, what);
    for (i = 0; i < n; i += k) {
        k = 1 + (i * 7 + 3) % 997;
        if (k > n - i) {
            k = n - i;
        }
        r->iterate(map, i, k, out);
        CHECK(0 == memcmp(out, ranks + i, sizeof(int32_t) * (size_t) k),
              "%s: %s: iterate(%d, %d) differs", r->name, what, i, k);
    }
    free(out);
    r->release(map);
    return GRPMAP_OK;
}

/* ---- maps the tests share ---- */

/* n distinct random ranks of [0, world), increasing. */
static inline void gm_random_set(uint64_t *s, int32_t *out, int32_t n, int32_t world)
{
    /* selection sampling (Knuth's algorithm S): increasing, O(world) */
    int32_t need = n, w;
    for (w = 0; w < world && need > 0; w++) {
        if (test_rand_below(s, (uint64_t) (world - w)) < (uint64_t) need) {
            out[n - need--] = w;
        }
    }
}

/* Fisher-Yates shuffle of a[0..n). */
static inline void gm_shuffle(uint64_t *s, int32_t *a, int32_t n)
{
    int32_t i;
    for (i = n - 1; i > 0; i--) {
        int32_t j = (int32_t) test_rand_below(s, (uint64_t) i + 1), t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

#endif
