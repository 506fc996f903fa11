/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Unit test of the grpmap `lattice` representation (no MPI): every family it
 * is for (ranges, strides, reversed ranges, block-cyclic sets, hypercube
 * faces, the thesis's application maps, Cartesian sub-blocks of 2-4-D grids
 * listed in any dimension order and direction, random lattices of up to 8
 * levels) must be held exactly and in 24 + 20 L bytes; lattices whose RANK
 * cannot peel digits, lattices of 9 levels, almost-lattices and random maps
 * must decline or be exact; edge cases of the common contract; and a timing
 * line (SELECT against a plain array, build against a dense pointer fill).
 *
 * Usage: grpmap_lattice_test [seed]
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime in check.h under -std=c99 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ompi/mca/grpmap/grpmap_repr.h"
#include "ompi/mca/grpmap/lattice/grpmap_lattice.h"
#include "test/common/check.h"
#include "test/unit/grpmap_check.h"

#define R (&grpmap_lattice_repr)
#define W20 (1 << 20)

static uint64_t seed = 20260611;
static int accepted, declined;

/* Bytes of a map of L levels. */
static size_t lat_bytes_of(int L)
{
    return 24 + 20 * (size_t) L;   /* 32 + 8 (L - 1) + 12 L */
}

/* gm_check, then: estimate and bytes agree exactly and are 24 + 20 L with
 * 1 <= L <= 8 (levels == L when levels > 0); in worlds up to 20,000 RANK of
 * every rank.  Returns 1 when accepted. */
static int check(const int32_t *ranks, int32_t n, int32_t world, int must, int levels,
                 const char *what)
{
    grpmap_input_t in;
    void *map = NULL;
    size_t est, b;
    int rc = gm_check(R, ranks, n, world, must, what), L;

    grpmap_input_init(&in, ranks, n, world);
    est = R->estimate(&in);
    if (GRPMAP_DECLINE == rc) {
        CHECK(GRPMAP_DECLINES == est, "%s: declined, estimate says %zu", what, est);
        CHECK(levels <= 0, "%s: declined a %d-level lattice", what, levels);
        declined++;
        return 0;
    }
    CHECK(GRPMAP_OK == R->build(&in, &map), "%s: build failed the second time", what);
    b = R->bytes(map);
    if (world <= 20000) { /* RANK of every rank of a small world, and around it */
        int32_t *inv = xmalloc(sizeof(int32_t) * (size_t) world), i, w;
        for (w = 0; w < world; w++) {
            inv[w] = GRPMAP_NOT_MEMBER;
        }
        for (i = 0; i < n; i++) {
            inv[ranks[i]] = i;
        }
        for (w = -3; w < world + 3; w++) {
            int32_t g = R->rank(map, w), e = w >= 0 && w < world ? inv[w] : GRPMAP_NOT_MEMBER;
            CHECK(g == e, "%s: rank(%d) = %d, expected %d", what, w, g, e);
        }
        free(inv);
    }
    R->release(map);
    CHECK(b == est, "%s: bytes %zu, estimate %zu", what, b, est);
    CHECK(b >= lat_bytes_of(1) && b <= lat_bytes_of(GRPMAP_LATTICE_MAX_LEVELS)
              && 0 == (b - 24) % 20,
          "%s: %zu bytes", what, b);
    L = (int) ((b - 24) / 20);
    CHECK(levels <= 0 || L == levels, "%s: %d levels held, expected %d", what, L, levels);
    accepted++;
    return 1;
}

/* ranks of the lattice first + sum x_k str_k (x_0 fastest); returns n */
static int32_t gen(int32_t *out, int L, const int32_t *cnt, const int64_t *str, int64_t first)
{
    int32_t x[16] = {0}, n = 1, i;
    int64_t v = first;
    int k;
    for (k = 0; k < L; k++) {
        n *= cnt[k];
    }
    for (i = 0; i < n; i++) {
        out[i] = (int32_t) v;
        for (k = 0; k < L; k++) {
            v += str[k];
            if (++x[k] < cnt[k]) {
                break;
            }
            x[k] = 0;
            v -= cnt[k] * str[k];
        }
    }
    return n;
}

/* the smallest value of the lattice with first 0 */
static int64_t gen_min(int L, const int32_t *cnt, const int64_t *str)
{
    int64_t m = 0;
    int k;
    for (k = 0; k < L; k++) {
        if (str[k] < 0) {
            m += (cnt[k] - 1) * str[k];
        }
    }
    return m;
}

static int64_t gen_span(int L, const int32_t *cnt, const int64_t *str)
{
    int64_t s = 0;
    int k;
    for (k = 0; k < L; k++) {
        s += (cnt[k] - 1) * (str[k] < 0 ? -str[k] : str[k]);
    }
    return s;
}

/* each |stride| above the span of the smaller ones (counts >= 2) */
static int superincreasing(int L, const int32_t *cnt, const int64_t *str)
{
    int used[16] = {0}, j, k;
    int64_t below = 0;
    for (j = 0; j < L; j++) {
        int best = -1;
        for (k = 0; k < L; k++) {
            if (!used[k] && (best < 0 || llabs(str[k]) < llabs(str[best]))) {
                best = k;
            }
        }
        used[best] = 1;
        if (llabs(str[best]) <= below) {
            return 0;
        }
        below += (cnt[best] - 1) * llabs(str[best]);
    }
    return 1;
}

static int distinct(const int32_t *a, int32_t n)
{
    int32_t *s = xmalloc(sizeof(int32_t) * (size_t) n), i;
    int ok = 1;
    memcpy(s, a, sizeof(int32_t) * (size_t) n);
    qsort(s, (size_t) n, sizeof(int32_t), gm_cmp32);
    for (i = 1; i < n && ok; i++) {
        ok = s[i] != s[i - 1];
    }
    free(s);
    return ok;
}

static int64_t rnd(int64_t lo, int64_t hi) /* [lo, hi] */
{
    return lo + (int64_t) test_rand_below(&seed, (uint64_t) (hi - lo + 1));
}

/* ---- edge cases ---- */

static void test_edges(void)
{
    static const int32_t worlds[] = {1, 2, 3, 7, W20, W20 + 1};
    int32_t *a = xmalloc(sizeof(int32_t) * (W20 + 1)), i, w;
    size_t t;
    for (t = 0; t < sizeof(worlds) / sizeof(worlds[0]); t++) {
        w = worlds[t];
        check(a, 0, w, 1, 1, "empty");
        a[0] = 0;
        check(a, 1, w, 1, 1, "one member: 0");
        a[0] = w - 1;
        check(a, 1, w, 1, 1, "one member: the last rank");
        a[0] = w / 2;
        check(a, 1, w, 1, 1, "one member: the middle");
        for (i = 0; i < w; i++) {
            a[i] = i;
        }
        check(a, w, w, 1, 1, "whole world");
        for (i = 0; i < w; i++) {
            a[i] = w - 1 - i;
        }
        check(a, w, w, 1, 1, "whole world reversed");
        if (w >= 2) {
            a[0] = w - 1;
            a[1] = 0;
            check(a, 2, w, 1, 1, "last rank, then 0");
            a[0] = 0;
            a[1] = w - 1;
            check(a, 2, w, 1, 1, "0 and the last rank");
        }
        if (w >= 3) {
            /* a range ending at the last rank, stride 2 ending there */
            for (i = 0; i < w / 3; i++) {
                a[i] = w - w / 3 + i;
            }
            check(a, w / 3, w, 1, 1, "range ending at the last rank");
            for (i = 0; i < (w + 1) / 2; i++) {
                a[i] = w - 1 - 2 * ((w + 1) / 2 - 1 - i);
            }
            check(a, (w + 1) / 2, w, 1, 1, "stride 2 ending at the last rank");
            a[0] = 0;
            a[1] = 2;
            a[2] = 1;
            check(a, 3, w, 0, 0, "0 2 1");
        }
    }
    /* the two largest worlds, sparse: 0 and 2^20 in 2^20 + 1 */
    a[0] = W20;
    a[1] = W20 / 2;
    a[2] = 0;
    check(a, 3, W20 + 1, 1, 1, "2^20, 2^19, 0");
    a[1] = 0;
    a[2] = W20 / 2;
    check(a, 3, W20 + 1, 0, 0, "2^20, 0, 2^19");
    /* the largest worlds (gm_check computes world + 1, so INT32_MAX - 1) */
    w = INT32_MAX - 1;
    a[0] = w - 1;
    a[1] = 1;
    a[2] = w - 2;
    a[3] = 0;
    check(a, 4, w, 1, 2, "corners of the largest world");
    for (i = 0; i < 1000; i++) {
        a[i] = w - 1 - (int32_t) (2147483LL * i);
    }
    check(a, 1000, w, 1, 1, "huge negative stride");
    a[0] = 0;
    a[1] = w - 2;
    a[2] = 1;
    a[3] = w - 1;
    check(a, 4, w, 1, 2, "0, 2^31 - 4, 1, 2^31 - 3");
    free(a);
}

/* ---- families ---- */

static void test_strides(int32_t *a)
{
    int it;
    for (it = 0; it < 300; it++) {
        int32_t world = (int32_t) rnd(1, it % 3 ? 5000 : W20 + 1), cnt[1];
        int64_t str[1], first;
        int32_t n;
        str[0] = rnd(1, it % 2 ? 3 : world);
        if (test_rand(&seed) & 1) {
            str[0] = -str[0];
        }
        cnt[0] = (int32_t) rnd(1, 1 + (world - 1) / llabs(str[0]));
        if (cnt[0] > 20000) {
            cnt[0] = 20000;
        }
        first = -gen_min(1, cnt, str);
        first += rnd(0, world - 1 - gen_span(1, cnt, str));
        n = gen(a, 1, cnt, str, first);
        check(a, n, world, 1, 1, "range/stride");
    }
}

/* blocks of b members every p ranks (p > b), nb blocks; forwards or backwards */
static void test_block_cyclic(int32_t *a)
{
    int it;
    for (it = 0; it < 300; it++) {
        int32_t cnt[2], world, n;
        int64_t str[2], first;
        cnt[0] = (int32_t) rnd(2, 120);
        str[0] = rnd(1, 3);
        str[1] = cnt[0] * str[0] + rnd(1, 300); /* a gap: no merging */
        cnt[1] = (int32_t) rnd(2, 60);
        if (it & 1) {
            str[0] = -str[0];
            str[1] = -str[1];
        }
        if (it & 2) {
            str[1] = -str[1];
        }
        world = (int32_t) (gen_span(2, cnt, str) + rnd(1, 500));
        first = -gen_min(2, cnt, str) + rnd(0, world - 1 - gen_span(2, cnt, str));
        n = gen(a, 2, cnt, str, first);
        check(a, n, world, 1, 2, "block-cyclic");
    }
}

/* a face of a d-cube of side s: some coordinates fixed; increasing order,
 * or any order of the free coordinates */
static void test_cube_faces(int32_t *a)
{
    int it;
    for (it = 0; it < 300; it++) {
        int d = (int) rnd(2, 6), s = (int) rnd(2, 10), k, L = 0, nfixed = 0, p[6], j;
        int32_t cnt[6], world = 1, n;
        int64_t str[6], first = 0, w = 1, wk[6];
        for (k = d - 1; k >= 0; k--) {
            wk[k] = w;
            w *= s;
        }
        world = (int32_t) w;
        for (k = d - 1; k >= 0; k--) {
            if (nfixed < d - 1 && test_rand_below(&seed, 3) == 0) {
                first += rnd(0, s - 1) * wk[k];
                nfixed++;
            } else {
                cnt[L] = s;
                str[L++] = wk[k];
            }
        }
        if (it & 1) { /* any order and direction of the free coordinates */
            for (k = 0; k < L; k++) {
                p[k] = k;
            }
            for (k = L - 1; k > 0; k--) {
                j = (int) rnd(0, k);
                int t = p[k];
                p[k] = p[j];
                p[j] = t;
            }
            int64_t s2[6];
            for (k = 0; k < L; k++) {
                s2[k] = str[p[k]];
                if (test_rand(&seed) & 1) {
                    first += (s - 1) * s2[k];
                    s2[k] = -s2[k];
                }
            }
            memcpy(str, s2, sizeof(int64_t) * (size_t) L);
        }
        n = gen(a, L, cnt, str, first);
        check(a, n, world, 1, 0, "cube face");
    }
}

/* the thesis's application maps (Table 6.1), world 200,000 */
static void test_thesis(int32_t *a)
{
    const int32_t world = 200000;
    int32_t n = 0, i, x, m;
    for (i = 0; i < world; i += 2) {
        a[n++] = i;
    }
    CHECK(100000 == n, "evens");
    check(a, n, world, 1, 1, "evens");
    n = 0;
    for (x = 1; 81 * x + 11453 <= world - 1; x++) {
        a[n++] = 81 * x + 11453;
    }
    CHECK(2327 == n, "y = 81x + 11453: %d", n);
    check(a, n, world, 1, 1, "y = 81x + 11453");
    n = 0; /* [0,*,*,0,*,*] of a 10^6 cube laid out in rank order */
    for (i = 0; i < 1000000 && i < world; i++) {
        if (0 == i / 100000 && 0 == (i / 100) % 10) {
            a[n++] = i;
        }
    }
    CHECK(10000 == n, "6-D face: %d", n);
    check(a, n, world, 1, 2, "6-D cube face [0,*,*,0,*,*]");
    n = 0;
    for (i = 0; i < world; i++) {
        if (0 == (i / 100) % 2) {
            a[n++] = i;
        }
    }
    CHECK(100000 == n, "alternate ranges");
    check(a, n, world, 1, 2, "alternate ranges of 100");
    for (m = 3; m <= 7; m += 2) {
        n = 0;
        for (i = 0; i < world; i += m) {
            a[n++] = i;
        }
        check(a, n, world, 1, 1, "multiples of 3/5/7");
    }
}

/* sub-blocks of a row-major grid dims[0..d) (dim 0 slowest), listed with
 * perm[0] the fastest dimension, some dimensions backwards */
static int32_t cart_block(int32_t *a, int d, const int32_t *dims, const int32_t *lo,
                          const int32_t *len, const int *perm, const int *back, int32_t *world)
{
    int64_t wk[8], w = 1, str[8], first = 0;
    int32_t cnt[8];
    int k;
    for (k = d - 1; k >= 0; k--) {
        wk[k] = w;
        w *= dims[k];
    }
    *world = (int32_t) w;
    for (k = 0; k < d; k++) {
        int dim = perm[k];
        cnt[k] = len[dim];
        str[k] = back[dim] ? -wk[dim] : wk[dim];
        first += (back[dim] ? lo[dim] + len[dim] - 1 : lo[dim]) * wk[dim];
    }
    return gen(a, d, cnt, str, first);
}

static void test_cartesian(int32_t *a)
{
    static const int32_t fixed[4] = {7, 9, 11, 5};
    int it;
    for (it = 0; it < 600; it++) {
        int d = (int) rnd(2, 4), perm[4], back[4], k, j, t;
        int32_t dims[4], lo[4], len[4], world, n;
        char what[64];
        for (k = 0; k < d; k++) {
            dims[k] = it % 3 ? (int32_t) rnd(1, 12) : fixed[k];
            len[k] = (int32_t) rnd(1, dims[k]);
            lo[k] = (int32_t) rnd(0, dims[k] - len[k]);
            perm[k] = k;
            back[k] = it % 4 ? (int) (test_rand(&seed) & 1) : 0;
        }
        /* perm[k]: the dimension of level k (level 0 fastest); perm = 0,
         * 1, .. is column-major, d - 1, .., 0 row-major */
        if (it % 2) {
            for (k = 0; k < d; k++) {
                perm[k] = d - 1 - k;
            }
        }
        if (0 == it % 5) {
            for (k = d - 1; k > 0; k--) {
                j = (int) rnd(0, k);
                t = perm[k];
                perm[k] = perm[j];
                perm[j] = t;
            }
        }
        n = cart_block(a, d, dims, lo, len, perm, back, &world);
        snprintf(what, sizeof(what), "%d-D sub-block of %dx%dx%dx%d", d, dims[0], dims[1],
                 d > 2 ? dims[2] : 1, d > 3 ? dims[3] : 1);
        check(a, n, world, 1, 0, what);
    }
    { /* the whole 7x9x11x5 grid column-major: 4 levels; one face: 3 */
        int32_t lo0[4] = {0, 0, 0, 0}, lo1[4] = {0, 3, 0, 0}, len1[4] = {7, 1, 11, 5}, world, n;
        int perm[4] = {0, 1, 2, 3}, back[4] = {0, 0, 0, 0};
        n = cart_block(a, 4, fixed, lo0, fixed, (int[]){3, 2, 1, 0}, back, &world);
        check(a, n, world, 1, 1, "7x9x11x5 row-major");
        n = cart_block(a, 4, fixed, lo0, fixed, perm, back, &world);
        check(a, n, world, 1, 4, "7x9x11x5 column-major");
        n = cart_block(a, 4, fixed, lo1, len1, perm, back, &world);
        check(a, n, world, 1, 3, "7x9x11x5 column-major, y = 3");
    }
}

/* random lattices: superincreasing ones must be held, the others are
 * declined (RANK could not peel them) or exact */
static void test_random_lattices(int32_t *a)
{
    int it, skew = 0, skew_held = 0, big = 0;
    for (it = 0; it < 1500; it++) {
        int L = (int) rnd(1, it % 2 ? 8 : 4), k, si;
        int32_t cnt[8], order[8], world, n = 1;
        int64_t str[8], below = 0, first;
        for (k = 0; k < L; k++) {
            cnt[k] = (int32_t) rnd(2, L > 5 ? 3 : 6);
            n *= cnt[k];
            order[k] = k;
        }
        gm_shuffle(&seed, order, L);
        if (it % 3) { /* superincreasing: |stride| grows past the spans below */
            for (k = 0; k < L; k++) {
                int o = order[k];
                str[o] = below + rnd(1, it % 2 ? 3 : 50);
                below += (cnt[o] - 1) * str[o];
            }
        } else { /* anything */
            for (k = 0; k < L; k++) {
                str[k] = rnd(1, 40);
            }
        }
        for (k = 0; k < L; k++) {
            if (test_rand(&seed) & 1) {
                str[k] = -str[k];
            }
        }
        first = -gen_min(L, cnt, str) + rnd(0, 1000);
        world = (int32_t) (first + gen_min(L, cnt, str) + gen_span(L, cnt, str) + rnd(1, 1000));
        n = gen(a, L, cnt, str, first);
        if (!distinct(a, n)) {
            continue;
        }
        si = superincreasing(L, cnt, str);
        skew += !si;
        skew_held += check(a, n, world, si, 0, si ? "random lattice" : "skewed lattice") && !si;
    }
    printf("skewed injective lattices: %d, held %d (RANK needs superincreasing strides)\n",
           skew, skew_held);
    CHECK(0 == skew_held, "held a lattice whose digits RANK cannot peel");
    for (it = 0; it < 300; it++) { /* spans up to 2^31 - 3: the division limits */
        int L = (int) rnd(1, 4), k;
        int32_t cnt[4], order[4], n;
        int64_t str[4], below = 0, span, first;
        for (k = 0; k < L; k++) {
            cnt[k] = (int32_t) rnd(2, 20);
            order[k] = k;
        }
        gm_shuffle(&seed, order, L);
        for (k = 0; k < L; k++) {
            int o = order[k];
            int64_t hi = k == L - 1 ? (INT32_MAX - 3 - below) / (cnt[o] - 1) - below
                                    : 1 + (below + 1) * rnd(1, 40);
            str[o] = below + rnd(1, hi < 1 ? 1 : hi);
            if (test_rand(&seed) & 1) {
                str[o] = -str[o];
            }
            below += (cnt[o] - 1) * llabs(str[o]);
        }
        span = gen_span(L, cnt, str);
        if (span > INT32_MAX - 3) {
            continue;
        }
        first = -gen_min(L, cnt, str) + rnd(0, INT32_MAX - 3 - span);
        n = gen(a, L, cnt, str, first);
        check(a, n, INT32_MAX - 1, 1, 0, "lattice spanning the largest world");
        big++;
    }
    printf("lattices spanning up to 2^31 - 3: %d\n", big);
    { /* a skewed lattice by hand: strides 2 (3) and 3 (2): 0 2 4 3 5 7 */
        int32_t s[6] = {0, 2, 4, 3, 5, 7};
        check(s, 6, 8, 0, 0, "0 2 4 3 5 7");
    }
}

/* 8 levels are held, 9 are not (unless some merge) */
static void test_levels(int32_t *a)
{
    int32_t cnt[9], n, world;
    int64_t str[9];
    int k;
    for (k = 0; k < 9; k++) {
        cnt[k] = 2;
        str[k] = k ? 3 * str[k - 1] : 1;
    }
    n = gen(a, 8, cnt, str, 0);
    world = (int32_t) gen_span(8, cnt, str) + 1;
    check(a, n, world, 1, 8, "8 levels, strides 3^k");
    str[3] = -str[3];
    n = gen(a, 8, cnt, str, -gen_min(8, cnt, str));
    check(a, n, world, 1, 8, "8 levels, one backwards");
    str[3] = -str[3];
    n = gen(a, 9, cnt, str, 0);
    world = (int32_t) gen_span(9, cnt, str) + 1;
    check(a, n, world, 0, 0, "9 levels, strides 3^k");
    {
        grpmap_input_t in;
        void *map = (void *) 1;
        grpmap_input_init(&in, a, n, world);
        CHECK(GRPMAP_DECLINE == R->build(&in, &map) && NULL == map, "9 levels held");
    }
    /* 9 generating levels, two of which merge (strides 1 and 2): 8 held */
    str[0] = 1;
    str[1] = 2;
    for (k = 2; k < 9; k++) {
        str[k] = 3 * str[k - 1];
    }
    n = gen(a, 9, cnt, str, 0);
    world = (int32_t) gen_span(9, cnt, str) + 1;
    check(a, n, world, 1, 8, "9 levels, two merging");
}

/* one element changed, one added, one dropped, two swapped: declined or
 * exact */
static void test_almost(int32_t *a, int32_t *b)
{
    int it, kind, held = accepted, tried = accepted + declined;
    for (it = 0; it < 600; it++) {
        int32_t cnt[3], n, world, m, i, j, v;
        int64_t str[3], first;
        int L = (int) rnd(1, 3), k;
        char what[64];
        for (k = 0; k < L; k++) {
            cnt[k] = (int32_t) rnd(2, L < 3 ? 40 : 12);
            str[k] = gen_span(k, cnt, str) + rnd(1, 20);
        }
        for (k = 0; k < L; k++) {
            if (test_rand(&seed) & 1) {
                str[k] = -str[k];
            }
        }
        CHECK(superincreasing(L, cnt, str), "generator");
        first = -gen_min(L, cnt, str) + rnd(0, 50);
        world = (int32_t) (first + gen_min(L, cnt, str) + gen_span(L, cnt, str) + rnd(2, 50));
        n = gen(a, L, cnt, str, first);
        for (kind = 0; kind < 4; kind++) {
            memcpy(b, a, sizeof(int32_t) * (size_t) n);
            m = n;
            i = (int32_t) rnd(0, n - 1);
            switch (kind) {
            case 0: /* one element changed to a non-member */
                do {
                    v = (int32_t) rnd(0, world - 1);
                    for (j = 0; j < n && a[j] != v; j++) {
                    }
                } while (j < n);
                b[i] = v;
                break;
            case 1: /* one extra element */
                do {
                    v = (int32_t) rnd(0, world - 1);
                    for (j = 0; j < n && a[j] != v; j++) {
                    }
                } while (j < n);
                memmove(b + i + 1, b + i, sizeof(int32_t) * (size_t) (n - i));
                b[i] = v;
                m = n + 1;
                break;
            case 2: /* one element missing */
                memmove(b + i, b + i + 1, sizeof(int32_t) * (size_t) (n - i - 1));
                m = n - 1;
                break;
            default: /* two swapped */
                j = (int32_t) rnd(0, n - 1);
                v = b[i];
                b[i] = b[j];
                b[j] = v;
                break;
            }
            snprintf(what, sizeof(what), "almost a %d-level lattice (%s)", L,
                     (const char *[]){"changed", "extra", "missing", "swapped"}[kind]);
            check(b, m, world, 0, 0, what);
        }
    }
    printf("almost-lattices: %d, held %d (exactly: lattices again)\n",
           accepted + declined - tried, accepted - held);
}

static void test_random_maps(int32_t *a)
{
    int it;
    for (it = 0; it < 400; it++) {
        int32_t world = (int32_t) rnd(64, it % 10 ? 5000 : W20 + 1);
        int32_t n = (int32_t) rnd(3, world / 4 < 3000 ? world / 4 : 3000);
        int acc;
        gm_random_set(&seed, a, n, world);
        if (it % 3) {
            gm_shuffle(&seed, a, n);
        }
        acc = check(a, n, world, 0, 0, it % 3 ? "random list" : "random set");
        CHECK(n < 16 || !acc, "held a random map of %d in %d", n, world);
    }
}

/* ---- timing ---- */

#define T_BATCH 1000
#define T_BATCHES 1000

/* median of 9: build from the input summary (the base's one pass excluded)
 * against malloc + filling a dense pointer array from the ranks */
static void time_build(const int32_t *a, int32_t n, int32_t world, const char *what)
{
    static char procs[16];
    double tb[9], tf[9];
    int r;
    grpmap_input_t in;
    grpmap_input_init(&in, a, n, world);
    for (r = 0; r < 9; r++) {
        void *map;
        void **dense;
        int32_t i;
        double t0 = test_now();
        CHECK(GRPMAP_OK == R->build(&in, &map), "build %s", what);
        tb[r] = test_now() - t0;
        R->release(map);
        t0 = test_now();
        dense = xmalloc(sizeof(void *) * (size_t) n);
        for (i = 0; i < n; i++) {
            dense[i] = procs + (a[i] & 15);
        }
        tf[r] = test_now() - t0;
        CHECK(dense[n - 1] == procs + (a[n - 1] & 15), "dense");
        free(dense);
    }
    printf("timing: build %s (n=%d): %.1f us, dense pointer fill %.1f us, ratio %.2f\n", what, n,
           1e6 * test_median(tb, 9), 1e6 * test_median(tf, 9),
           test_median(tb, 9) / test_median(tf, 9));
}

static void test_timing(int32_t *a)
{
    const int32_t n = 100000;
    int32_t *idx = xmalloc(sizeof(int32_t) * T_BATCH * T_BATCHES), i, world;
    grpmap_input_t in;
    void *m1, *m3;
    double s_arr, s1, s3, r1, r3;
    int32_t dims[3] = {100, 100, 100}, lo[3] = {10, 20, 30}, len[3] = {50, 40, 50};
    int perm[3] = {2, 1, 0}, back[3] = {0, 1, 0};
    int32_t *b = xmalloc(sizeof(int32_t) * n);

    for (i = 0; i < T_BATCH * T_BATCHES; i++) {
        idx[i] = (int32_t) test_rand_below(&seed, (uint64_t) n);
    }
    for (i = 0; i < n; i++) { /* evens */
        a[i] = 2 * i;
    }
    grpmap_input_init(&in, a, n, 2 * n);
    CHECK(GRPMAP_OK == R->build(&in, &m1), "evens");
    CHECK(cart_block(b, 3, dims, lo, len, perm, back, &world) == n, "3-D block");
    grpmap_input_init(&in, b, n, world);
    CHECK(GRPMAP_OK == R->build(&in, &m3), "3-D block");
    s_arr = gm_time(R, NULL, a, idx, T_BATCHES, T_BATCH, GM_TIME_ARRAY);
    s1 = gm_time(R, m1, a, idx, T_BATCHES, T_BATCH, GM_TIME_SELECT);
    s3 = gm_time(R, m3, b, idx, T_BATCHES, T_BATCH, GM_TIME_SELECT);
    r1 = gm_time(R, m1, a, idx, T_BATCHES, T_BATCH, GM_TIME_RANK);
    r3 = gm_time(R, m3, b, idx, T_BATCHES, T_BATCH, GM_TIME_RANK);
    printf("bytes: 1 level %zu, 3 levels %zu (n=%d; a pointer array: %zu)\n", R->bytes(m1),
           R->bytes(m3), n, sizeof(void *) * (size_t) n);
    printf("timing: median SELECT ns over 10^6 random: lattice 1 level %.2f, 3 levels %.2f, "
           "int32 array %.2f; RANK ns: 1 level %.2f, 3 levels %.2f\n",
           s1, s3, s_arr, r1, r3);
    R->release(m1);
    R->release(m3);
    for (i = 0; i < n; i++) { /* reversed: no shortcut from the summary */
        a[i] = n - 1 - i;
    }
    time_build(a, n, n, "reversed range");
    time_build(b, n, world, "3-D column-major sub-block");
    for (i = 0; i < n; i++) {
        a[i] = 3 * i;
    }
    time_build(a, n, 3 * n, "stride 3");
    free(b);
    free(idx);
}

int main(int argc, char **argv)
{
    int32_t *a = xmalloc(sizeof(int32_t) * (W20 + 2)), *b = xmalloc(sizeof(int32_t) * (W20 + 2));
    double t0 = test_now();
    if (argc > 1) {
        seed = strtoull(argv[1], NULL, 0);
    }
    printf("seed %llu\n", (unsigned long long) seed);
    test_edges();
    test_strides(a);
    test_block_cyclic(a);
    test_cube_faces(a);
    test_thesis(a);
    test_cartesian(a);
    test_random_lattices(a);
    test_levels(a);
    test_almost(a, b);
    test_random_maps(a);
    printf("maps held %d, declined %d\n", accepted, declined);
    test_timing(a);
    free(a);
    free(b);
    printf("%.1f s\n", test_now() - t0);
    printf("grpmap_lattice_test: OK\n");
    return 0;
}
