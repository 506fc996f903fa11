/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Checks one grpmap representation against the plain array it encodes,
 * generates the maps the representation tests share, and times SELECT and
 * RANK against a plain array.  Include after test/common/check.h and
 * ompi/mca/grpmap/grpmap_repr.h; build with -D_POSIX_C_SOURCE=200809L
 * (gm_time's test_now).
 */
#ifndef TEST_GRPMAP_CHECK_H
#define TEST_GRPMAP_CHECK_H

#include <stdio.h>
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

/* A random set of density * world members (at least one); returns n. */
static inline int32_t gm_random_set_d(uint64_t *s, int32_t *out, double density, int32_t world)
{
    int32_t n = (int32_t) (density * world + 0.5);
    if (n < 1) {
        n = 1;
    }
    gm_random_set(s, out, n, world);
    return n;
}

/* runs of 1..maxrun members separated by gaps of 2..maxgap; returns n */
static inline int32_t gm_clustered(uint64_t *s, int32_t *out, int32_t world, int32_t maxrun,
                                   int32_t maxgap)
{
    int32_t n = 0, w = (int32_t) test_rand_below(s, (uint64_t) maxgap);
    while (w < world) {
        int32_t len = 1 + (int32_t) test_rand_below(s, (uint64_t) maxrun);
        for (; len > 0 && w < world; len--) {
            out[n++] = w++;
        }
        w += 1 + 1 + (int32_t) test_rand_below(s, (uint64_t) maxgap - 1);
    }
    return n;
}

/* first, first + step, ... below world; returns n */
static inline int32_t gm_stride(int32_t *out, int32_t first, int32_t step, int32_t world)
{
    int32_t n = 0, w;
    for (w = first; w < world; w += step) {
        out[n++] = w;
    }
    return n;
}

/* ---- the map series of the set forms' tests (bitmap, gap and ef) ---- */

/* check(ranks, n, world, what): the form's checks of one map */
typedef void (*gm_check_fn_t)(const int32_t *ranks, int32_t n, int32_t world, const char *what);

/* the densities of their random sets */
static const double gm_densities[] = {0.001, 0.01, 0.03, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99};
#define GM_NDENSITIES ((int32_t) (sizeof(gm_densities) / sizeof(gm_densities[0])))

/* Empty, one member (the first, last and middle rank), the whole world and
 * (below 65536) the whole world but its first or its last rank, and with
 * ends {0, world - 1}, for worlds of 1 .. 2^20 + 1 (quick: up to 4097). */
static inline void gm_edge_sets(int32_t *ranks, int quick, int ends, gm_check_fn_t check)
{
    static const int32_t worlds[] = {1,    2,    3,    63,   64,      65,
                                     1023, 1024, 1025, 4097, 1 << 20, (1 << 20) + 1};
    int32_t nworlds = (int32_t) (sizeof(worlds) / sizeof(worlds[0])) - (quick ? 2 : 0), wi, i;
    char what[128];

    for (wi = 0; wi < nworlds; wi++) {
        int32_t w = worlds[wi];
        snprintf(what, sizeof(what), "empty, world %d", w);
        check(ranks, 0, w, what);
        ranks[0] = 0;
        snprintf(what, sizeof(what), "{0}, world %d", w);
        check(ranks, 1, w, what);
        ranks[0] = w - 1;
        snprintf(what, sizeof(what), "{world - 1}, world %d", w);
        check(ranks, 1, w, what);
        ranks[0] = w / 2;
        snprintf(what, sizeof(what), "{world / 2}, world %d", w);
        check(ranks, 1, w, what);
        for (i = 0; i < w; i++) {
            ranks[i] = i;
        }
        snprintf(what, sizeof(what), "whole world %d", w);
        check(ranks, w, w, what);
        if (w > 2 && w < 65536) {
            snprintf(what, sizeof(what), "world %d but the first", w);
            check(ranks + 1, w - 1, w, what);
            snprintf(what, sizeof(what), "world %d but the last", w);
            check(ranks, w - 1, w, what);
            if (ends) {
                ranks[0] = 0;
                ranks[1] = w - 1;
                snprintf(what, sizeof(what), "{0, world - 1}, world %d", w);
                check(ranks, 2, w, what);
            }
        }
    }
}

/* Random sets of every density (worlds of 5000, 65539 and, not quick,
 * 2^20 + 1: every other density there), 150 (quick: 50) random ones of
 * random size in worlds up to 20000, the strides steps[0..nsteps) (worlds
 * 65539 and, every third one, 2^20 + 1 or quick 65539), 81x + 11453,
 * clustered runs, alternate ranges of 100. */
static inline void gm_random_sets(uint64_t *seed, int32_t *ranks, int quick, const int32_t *steps,
                                  int nsteps, gm_check_fn_t check)
{
    const int32_t big = (1 << 20) + 1;
    int32_t span = quick ? 65539 : big; /* world of the larger strides and runs */
    int32_t i, n, wi, di, t;
    char what[128];

    for (wi = 0; wi < (quick ? 2 : 3); wi++) {
        int32_t w = wi == 0 ? 5000 : wi == 1 ? 65539 : big;
        for (di = 0; di < GM_NDENSITIES; di++) {
            if (w == big && di % 2) {
                continue;
            }
            n = gm_random_set_d(seed, ranks, gm_densities[di], w);
            snprintf(what, sizeof(what), "random density %g of %d", gm_densities[di], w);
            check(ranks, n, w, what);
        }
    }
    for (t = 0; t < (quick ? 50 : 150); t++) {
        int32_t w = 1 + (int32_t) test_rand_below(seed, 20000);
        n = (int32_t) test_rand_below(seed, (uint64_t) w + 1);
        gm_random_set(seed, ranks, n, w);
        snprintf(what, sizeof(what), "random %d of %d", n, w);
        check(ranks, n, w, what);
    }
    for (i = 0; i < nsteps; i++) {
        int32_t w = i % 3 ? 65539 : span;
        n = gm_stride(ranks, steps[i] / 2, steps[i], w);
        snprintf(what, sizeof(what), "stride %d of %d", steps[i], w);
        check(ranks, n, w, what);
    }
    n = gm_stride(ranks, 11453, 81, 200000);
    check(ranks, n, 200000, "81x + 11453 of 200000");
    for (t = 0; t < 12; t++) {
        int32_t maxrun = t % 3 == 0 ? 4 : t % 3 == 1 ? 100 : 3000;
        int32_t maxgap = t % 4 == 0 ? 3 : t % 4 == 1 ? 60 : t % 4 == 2 ? 1000 : 30000;
        int32_t w = t < 4 ? span : 100003;
        n = gm_clustered(seed, ranks, w, maxrun, maxgap);
        snprintf(what, sizeof(what), "runs <= %d, gaps <= %d of %d", maxrun, maxgap, w);
        check(ranks, n, w, what);
    }
    /* the thesis's alternate ranges of 100 */
    for (n = 0, i = 0; i < 200000; i++) {
        if (0 == (i / 100) % 2) {
            ranks[n++] = i;
        }
    }
    check(ranks, n, 200000, "alternate ranges of 100");
}

/* A map of a timing series: GM_RANDOM, density * world random members;
 * GM_STRIDE, first, first + step, ... below world; GM_RUNS, runs of up to
 * 100 members with gaps of up to 60 below world. */
enum { GM_RANDOM, GM_STRIDE, GM_RUNS };
typedef struct {
    const char *what;
    int kind;
    double density;
    int32_t world, first, step;
} gm_map_t;

/* m's ranks; returns n */
static inline int32_t gm_map(uint64_t *s, int32_t *ranks, const gm_map_t *m)
{
    switch (m->kind) {
    case GM_RANDOM:
        return gm_random_set_d(s, ranks, m->density, m->world);
    case GM_STRIDE:
        return gm_stride(ranks, m->first, m->step, m->world);
    default:
        return gm_clustered(s, ranks, m->world, 100, 60);
    }
}

/* report(what, ranks, n, world, idx): a test's line on one map, idx 10^6
 * random member indices */
typedef void (*gm_report_fn_t)(const char *what, const int32_t *ranks, int32_t n, int32_t world,
                               const int32_t *idx);

static inline void gm_report_one(uint64_t *s, const char *what, const int32_t *ranks, int32_t n,
                                 int32_t world, int32_t *idx, gm_report_fn_t report)
{
    int32_t k;
    for (k = 0; k < 1000000; k++) {
        idx[k] = (int32_t) test_rand_below(s, (uint64_t) n);
    }
    report(what, ranks, n, world, idx);
}

#define GM_LEN(a) ((int) (sizeof(a) / sizeof((a)[0])))

/* test's report (bytes a member, SELECT time) of random sets of 10^6 of
 * every density from min_density up, then of maps[0..nmaps); idx: room
 * for 10^6 */
static inline void gm_report_maps(const char *test, uint64_t *s, int32_t *ranks, int32_t *idx,
                                  double min_density, const gm_map_t *maps, int nmaps,
                                  gm_report_fn_t report)
{
    char what[64];
    int k;
    printf("%s: bytes/member and median random SELECT ns\n", test);
    for (k = 0; k < GM_NDENSITIES; k++) {
        if (gm_densities[k] >= min_density) {
            int32_t n = gm_random_set_d(s, ranks, gm_densities[k], 1000000);
            snprintf(what, sizeof(what), "random density %g", gm_densities[k]);
            gm_report_one(s, what, ranks, n, 1000000, idx, report);
        }
    }
    for (k = 0; k < nmaps; k++) {
        int32_t n = gm_map(s, ranks, &maps[k]);
        gm_report_one(s, maps[k].what, ranks, n, maps[k].world, idx, report);
    }
}

/* the end of a test's main: frees its arrays, says test: OK */
static inline int gm_done(const char *test, int32_t *ranks, int32_t *idx)
{
    free(idx);
    free(ranks);
    printf("%s: OK\n", test);
    return 0;
}

/* ---- timing ---- */

enum {
    GM_TIME_ARRAY,   /* plain[i]: the plain array */
    GM_TIME_SELECT,  /* r->select(map, i) */
    GM_TIME_RANK,    /* r->rank(map, plain[i]): of the i-th member */
    GM_TIME_RANK_OF  /* r->rank(map, i): of world rank i */
};

/* Median ns of one call of op over batches of per random i in idx[0 ..
 * batches * per). */
static inline double gm_time(const grpmap_repr_t *r, const void *map, const int32_t *plain,
                             const int32_t *idx, int batches, int32_t per, int op)
{
    static volatile uint32_t sink;
    double *t = xmalloc(sizeof(double) * (size_t) batches), med;
    uint32_t acc = 0;
    int32_t k;
    int b;

    for (b = 0; b < batches; b++) {
        const int32_t *x = idx + (size_t) b * (size_t) per;
        double t0 = test_now();
        switch (op) {
        case GM_TIME_ARRAY:
            for (k = 0; k < per; k++) {
                acc += (uint32_t) plain[x[k]];
            }
            break;
        case GM_TIME_SELECT:
            for (k = 0; k < per; k++) {
                acc += (uint32_t) r->select(map, x[k]);
            }
            break;
        case GM_TIME_RANK:
            for (k = 0; k < per; k++) {
                acc += (uint32_t) r->rank(map, plain[x[k]]);
            }
            break;
        default:
            for (k = 0; k < per; k++) {
                acc += (uint32_t) r->rank(map, x[k]);
            }
            break;
        }
        t[b] = (test_now() - t0) * 1e9 / per;
    }
    sink += acc;
    med = test_median(t, batches);
    free(t);
    return med;
}

#endif
