/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * The group maps of the thesis's experiments (seed 000), generated
 * deterministically for test/unit/grpmap_patterns_test.c and
 * bench/grpmap_bench.c, each with its information bound in bits.
 *
 * Table 6.1 (FG-MPI, world 200,000), in the table's own wording:
 *   1  all even numbers between and excluding -1 and size(world): 100,000
 *   2  all y = 81x + 11453, x > 0 and y <= size(world): 2,327
 *   3  all items of a six-dimensional cube falling in [0,*,*,0,*,*]: the
 *      cube of side 10 (10^6 points, only partly inside the world), the
 *      first written coordinate the most significant: 10,000 members,
 *      all below 100,000
 *   4  alternate ranges of size 100 between and including 0 and
 *      size(world) - 1: [0,100), [200,300), ...: 100,000
 *   5-7 all multiples of 3, 5, 7 between and excluding -1 and size(world):
 *      66,667, 40,000, 28,572 (the table prints 40,001 for 5; 0 .. 199,995
 *      holds 40,000 multiples of 5, a 40,001st would be 200,000, not a rank)
 *   8, 9 ordered 5,000 and 50,000 random ranks
 *   10-12 10,000, 20,000, 100,000 randomly permuted ranks: a random set of
 *      that size in random order
 *   13, 14 10 sequential ranges each of size 1,000 / 10,000 with inside
 *      items permuted randomly: 10 disjoint ranges at random places (at
 *      least one rank apart), in increasing order, each in random order.
 * Chapter 5's classes (world 10^6; the thesis draws the parameters of each
 * of its 1,000 maps a class at random; here two or three representative
 * maps a class, from fixed seeds):
 *   A  random members, ordered: 10^4, 10^5, 5 * 10^5 of them;
 *   B  a stride with random beginning and interval: 10^5 members at an
 *      interval of 2-9, and a random size at an interval of 10-99;
 *   C  the union of randomly chosen ranges, increasing: 10^5 members in 10
 *      and in 1,000 ranges (random lengths and gaps);
 *   D  the union of random faces of the hypercube (the 6-D cube of side
 *      10 that is the 10^6 world), increasing: two 5-D faces (one
 *      coordinate fixed each), and four 4-D faces (two coordinates fixed);
 *   E  ranges of ranges in decreasing order (each range increasing inside,
 *      so the map has as many ascending runs as ranges): 10^5 members in
 *      10 and in 50 ranges.
 * Bounds: lg C(N, n) for ordered maps (patterns 1-9, classes A-D),
 * lg(N! / (N - n)!) for lists of n of N in any order (10-12, class E),
 * the sum of lg(len!) for ranges permuted inside (13, 14).
 *
 * gp_forms: the forms the experiments offer the strategy engine, every
 * representation core and the packed permutation (bdd unless GP_NO_BDD,
 * when BuDDy is missing).
 *
 * Include after test/common/check.h, ompi/mca/grpmap/grpmap_repr.h and
 * test/unit/grpmap_check.h; link -lm and the cores (bwt with the bzip2
 * codec of opal/mca/compress).
 */
#ifndef TEST_GRPMAP_PATTERNS_H
#define TEST_GRPMAP_PATTERNS_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ompi/mca/grpmap/base/grpmap_engine.h"
#include "ompi/mca/grpmap/array/grpmap_array.h"
#include "ompi/mca/grpmap/bitmap/grpmap_bitmap.h"
#include "ompi/mca/grpmap/bwt/grpmap_bwt.h"
#include "ompi/mca/grpmap/gap/grpmap_gap.h"
#include "ompi/mca/grpmap/lattice/grpmap_lattice.h"
#include "ompi/mca/grpmap/wtr/grpmap_wtr.h"
#ifndef GP_NO_BDD
#include "ompi/mca/grpmap/bdd/grpmap_bdd.h"
#endif
#include "opal/mca/compress/bzip2/compress_bzip2.h"

static const grpmap_repr_t *const gp_forms[] = {
    &grpmap_lattice_repr, &grpmap_bitmap_repr, &grpmap_gap_repr,    &grpmap_ef_repr,
    &grpmap_array_repr,   &grpmap_blocks_repr, &grpmap_bwt_repr,    &grpmap_wtr_repr,
    &grpmap_packed_perm_repr,
#ifndef GP_NO_BDD
    &grpmap_bdd_repr,
#endif
};
#define GP_NFORMS ((int) (sizeof(gp_forms) / sizeof(gp_forms[0])))

enum { GP_BOUND_SET = 0, GP_BOUND_LIST = 1, GP_BOUND_RANGES = 2 };

typedef struct gp_pattern {
    char name[8];        /* "1" .. "14", "A1" .. "E2" */
    const char *what;
    int table;           /* 1: Table 6.1 (id = its number), 0: a class */
    int id;
    int32_t world, n;
    int32_t *ranks;      /* malloc'ed: gp_free */
    int bound_kind;      /* GP_BOUND_* */
    double bound_bits;
} gp_pattern_t;

#define GP_TABLE_COUNT 14
#define GP_CLASS_COUNT 11
#define GP_COUNT (GP_TABLE_COUNT + GP_CLASS_COUNT)

static inline double gp_lg_fact(double x)
{
    return lgamma(x + 1.0) / log(2.0);
}

/* lg C(N, n) */
static inline double gp_bound_set(int32_t world, int32_t n)
{
    return gp_lg_fact(world) - gp_lg_fact(n) - gp_lg_fact((double) world - n);
}

/* lg(N! / (N - n)!) */
static inline double gp_bound_list(int32_t world, int32_t n)
{
    return gp_lg_fact(world) - gp_lg_fact((double) world - n);
}

static inline int gp_cmp64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
    return (x > y) - (x < y);
}

/* A random composition of total into parts values, each >= least. */
static inline void gp_compose(uint64_t *s, int64_t total, int32_t parts, int64_t least,
                              int64_t *out)
{
    uint64_t *cut = xmalloc(sizeof(uint64_t) * (size_t) parts);
    uint64_t free_ = (uint64_t) (total - (int64_t) parts * least), prev = 0;
    int32_t i;
    CHECK(total >= (int64_t) parts * least && parts > 0, "gp_compose(%lld, %d, %lld)",
          (long long) total, parts, (long long) least);
    for (i = 0; i < parts - 1; i++) {
        cut[i] = test_rand_below(s, free_ + 1);
    }
    cut[parts - 1] = free_;
    qsort(cut, (size_t) (parts - 1), sizeof(uint64_t), gp_cmp64);
    for (i = 0; i < parts; i++) {
        out[i] = (int64_t) (cut[i] - prev) + least;
        prev = cut[i];
    }
    free(cut);
}

/* nr disjoint ranges totalling n members, at random places of [0, world),
 * at least one rank apart: start[i] increasing, len[i] >= 1.  Equal
 * lengths when fixed_len > 0. */
static inline void gp_ranges(uint64_t *s, int32_t world, int32_t n, int32_t nr, int32_t fixed_len,
                             int64_t *start, int64_t *len)
{
    int64_t *gap = xmalloc(sizeof(int64_t) * (size_t) (nr + 1)), at = 0;
    int32_t i;
    if (fixed_len > 0) {
        for (i = 0; i < nr; i++) {
            len[i] = fixed_len;
        }
    } else {
        gp_compose(s, n, nr, 1, len);
    }
    gp_compose(s, (int64_t) world - n - (nr - 1), nr + 1, 0, gap);
    for (i = 0; i < nr; i++) {
        at += gap[i] + (i > 0);
        start[i] = at;
        at += len[i];
    }
    free(gap);
}

/* Union of faces of the 6-D cube of side 10 (rank = sum c_k 10^k):
 * nf faces, each fixing nfix distinct coordinates at random values. */
static inline int32_t gp_faces(uint64_t *s, int32_t *out, int nf, int nfix)
{
    int dim[8][6], val[8][6], f, j, k;
    int32_t w, n = 0;
    CHECK(nf <= 8 && nfix <= 6, "gp_faces(%d, %d)", nf, nfix);
    for (f = 0; f < nf; f++) {
        for (k = 0; k < 6; k++) {
            dim[f][k] = k;
        }
        for (j = 0; j < nfix; j++) {   /* partial Fisher-Yates: distinct dims */
            int r = j + (int) test_rand_below(s, (uint64_t) (6 - j)), t = dim[f][j];
            dim[f][j] = dim[f][r];
            dim[f][r] = t;
            val[f][j] = (int) test_rand_below(s, 10);
        }
    }
    for (w = 0; w < 1000000; w++) {
        int c[6], x = w, in = 0;
        for (k = 0; k < 6; k++, x /= 10) {
            c[k] = x % 10;
        }
        for (f = 0; f < nf && !in; f++) {
            in = 1;
            for (j = 0; j < nfix; j++) {
                in &= c[dim[f][j]] == val[f][j];
            }
        }
        if (in) {
            out[n++] = w;
        }
    }
    return n;
}

static inline void gp_free(gp_pattern_t *p)
{
    free(p->ranks);
    p->ranks = NULL;
}

/* Pattern k of GP_COUNT: Table 6.1's 14 first, then the classes. */
static inline void gp_make(int k, gp_pattern_t *p)
{
    uint64_t s = 0x6770617474657200ull + (uint64_t) k;   /* one seed a pattern */
    int32_t i, n = 0, W;
    int32_t *r;

    CHECK(k >= 0 && k < GP_COUNT, "no pattern %d", k);
    memset(p, 0, sizeof(*p));
    p->table = k < GP_TABLE_COUNT;
    p->id = p->table ? k + 1 : k - GP_TABLE_COUNT;
    p->world = W = p->table ? 200000 : 1000000;
    p->bound_kind = GP_BOUND_SET;
    p->ranks = r = xmalloc(sizeof(int32_t) * (size_t) W);
    if (p->table) {
        snprintf(p->name, sizeof(p->name), "%d", p->id);
    }
    switch (k) {
    case 0:
        p->what = "evens";
        for (i = 0; i < W; i += 2) {
            r[n++] = i;
        }
        break;
    case 1:
        p->what = "y = 81x + 11453";
        for (i = 1; 81 * i + 11453 <= W; i++) {
            r[n++] = 81 * i + 11453;
        }
        break;
    case 2:
        p->what = "6-D cube face [0,*,*,0,*,*]";
        for (i = 0; i < 1000000; i++) {   /* i = c1..c6 in decimal, c1 first */
            if (0 == i / 100000 && 0 == (i / 100) % 10 && i < W) {
                r[n++] = i;
            }
        }
        break;
    case 3:
        p->what = "alternate ranges of 100";
        for (i = 0; i < W; i++) {
            if (0 == (i / 100) % 2) {
                r[n++] = i;
            }
        }
        break;
    case 4:
    case 5:
    case 6: {
        int m = 4 == k ? 3 : 5 == k ? 5 : 7;
        p->what = 4 == k ? "multiples of 3" : 5 == k ? "multiples of 5" : "multiples of 7";
        for (i = 0; i < W; i += m) {
            r[n++] = i;
        }
        break;
    }
    case 7:
    case 8:
        p->what = 7 == k ? "5,000 random ranks, ordered" : "50,000 random ranks, ordered";
        n = 7 == k ? 5000 : 50000;
        gm_random_set(&s, r, n, W);
        break;
    case 9:
    case 10:
    case 11:
        p->what = 9 == k ? "10,000 random ranks, permuted"
                  : 10 == k ? "20,000 random ranks, permuted" : "100,000 random ranks, permuted";
        n = 9 == k ? 10000 : 10 == k ? 20000 : 100000;
        gm_random_set(&s, r, n, W);
        gm_shuffle(&s, r, n);
        p->bound_kind = GP_BOUND_LIST;
        break;
    case 12:
    case 13: {
        int32_t len = 12 == k ? 1000 : 10000, j;
        int64_t start[10], lens[10];
        p->what = 12 == k ? "10 ranges of 1,000 permuted inside"
                          : "10 ranges of 10,000 permuted inside";
        gp_ranges(&s, W, 10 * len, 10, len, start, lens);
        for (i = 0; i < 10; i++) {
            for (j = 0; j < len; j++) {
                r[n + j] = (int32_t) start[i] + j;
            }
            gm_shuffle(&s, r + n, len);
            n += len;
        }
        p->bound_kind = GP_BOUND_RANGES;
        p->bound_bits = 10 * gp_lg_fact(len);
        break;
    }
    default: {
        /* classes: A1-A3, B1-B2, C1-C2, D1-D2, E1-E2 */
        static const char cls[GP_CLASS_COUNT] = {'A', 'A', 'A', 'B', 'B', 'C', 'C', 'D', 'D', 'E', 'E'};
        static const int num[GP_CLASS_COUNT] = {1, 2, 3, 1, 2, 1, 2, 1, 2, 1, 2};
        int c = k - GP_TABLE_COUNT;
        snprintf(p->name, sizeof(p->name), "%c%d", cls[c], num[c]);
        switch (c) {
        case 0:
        case 1:
        case 2:
            p->what = 0 == c ? "10^4 random, ordered" : 1 == c ? "10^5 random, ordered"
                                                               : "5*10^5 random, ordered";
            n = 0 == c ? 10000 : 1 == c ? 100000 : 500000;
            gm_random_set(&s, r, n, W);
            break;
        case 3:
        case 4: {
            int32_t stride = 3 == c ? 2 + (int32_t) test_rand_below(&s, 8)
                                    : 10 + (int32_t) test_rand_below(&s, 90), first;
            p->what = 3 == c ? "stride 2-9, 10^5 members" : "stride 10-99, random size";
            n = 3 == c ? 100000
                       : 1000 + (int32_t) test_rand_below(&s, (uint64_t) ((W - 1) / stride - 1000));
            first = (int32_t) test_rand_below(&s, (uint64_t) (W - (int64_t) (n - 1) * stride));
            for (i = 0; i < n; i++) {
                r[i] = first + i * stride;
            }
            break;
        }
        case 5:
        case 6:
        case 9:
        case 10: {
            int32_t nr = 5 == c || 9 == c ? 10 : 6 == c ? 1000 : 50, j;
            int64_t *start = xmalloc(sizeof(int64_t) * (size_t) nr);
            int64_t *lens = xmalloc(sizeof(int64_t) * (size_t) nr);
            p->what = 5 == c ? "union of 10 random ranges"
                      : 6 == c ? "union of 1,000 random ranges"
                      : 9 == c ? "10 random ranges, decreasing" : "50 random ranges, decreasing";
            gp_ranges(&s, W, 100000, nr, 0, start, lens);
            for (i = 0; i < nr; i++) {
                int32_t q = c < 9 ? i : nr - 1 - i;   /* E: the last range first */
                for (j = 0; j < lens[q]; j++) {
                    r[n++] = (int32_t) (start[q] + j);
                }
            }
            if (c >= 9) {
                p->bound_kind = GP_BOUND_LIST;
            }
            free(start);
            free(lens);
            break;
        }
        case 7:
            p->what = "union of two 5-D faces of the 6-D cube";
            n = gp_faces(&s, r, 2, 1);
            break;
        case 8:
            p->what = "union of four 4-D faces of the 6-D cube";
            n = gp_faces(&s, r, 4, 2);
            break;
        }
        break;
    }
    }
    p->n = n;
    if (GP_BOUND_SET == p->bound_kind) {
        p->bound_bits = gp_bound_set(W, n);
    } else if (GP_BOUND_LIST == p->bound_kind) {
        p->bound_bits = gp_bound_list(W, n);
    }
}

#endif
