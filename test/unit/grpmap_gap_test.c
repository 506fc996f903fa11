/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * grpmap's sparse set forms, gap and ef (Elias-Fano), against the plain
 * array (test/unit/grpmap_check.h): edge cases (empty, one member, whole
 * worlds of 1 .. 2^20 + 1, the last world rank, members 2^31 apart),
 * random sets of densities 0.001 .. 0.99, strides, clustered runs, gaps of
 * every width up to 31 bits; neither declines an increasing map, both
 * decline unordered ones; estimate equal to bytes.  ef's size against the
 * information bound lg C(U, n) (5,000 and 50,000 random members of
 * 200,000, the thesis's sets); bytes a member and median SELECT ns against
 * a plain array.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ompi/mca/grpmap/grpmap_repr.h"
#include "ompi/mca/grpmap/gap/grpmap_gap.h"
#include "test/common/check.h"
#include "test/unit/grpmap_check.h"

static const grpmap_repr_t *const REPRS[] = {&grpmap_gap_repr, &grpmap_ef_repr};
#define NREPRS 2

/* gm_check for both forms (each must accept), plus estimate == bytes. */
static void check(const int32_t *ranks, int32_t n, int32_t world, const char *what)
{
    int r;
    for (r = 0; r < NREPRS; r++) {
        const grpmap_repr_t *R = REPRS[r];
        grpmap_input_t in;
        void *map = NULL;
        size_t est;
        grpmap_input_init(&in, ranks, n, world);
        est = R->estimate(&in);
        CHECK(GRPMAP_OK == R->build(&in, &map), "%s: %s: declined", R->name, what);
        CHECK(R->bytes(map) == est, "%s: %s: estimate %zu, holds %zu", R->name, what, est,
              R->bytes(map));
        R->release(map);
        CHECK(GRPMAP_OK == gm_check(R, ranks, n, world, 1, what), "%s: %s: gm_check", R->name,
              what);
    }
}

/* Select, rank and iterate of every member, a few non-members, without
 * gm_check (whose probes compute world + 1: not for world = 2^31 - 1). */
static void check_top(const int32_t *ranks, int32_t n, const char *what)
{
    int r;
    int32_t i, *out = xmalloc(sizeof(int32_t) * (size_t) n);
    for (r = 0; r < NREPRS; r++) {
        const grpmap_repr_t *R = REPRS[r];
        grpmap_input_t in;
        void *map;
        grpmap_input_init(&in, ranks, n, INT32_MAX);
        CHECK(GRPMAP_OK == R->build(&in, &map), "%s: %s: declined", R->name, what);
        CHECK(R->bytes(map) == R->estimate(&in), "%s: %s: estimate", R->name, what);
        for (i = 0; i < n; i++) {
            CHECK(R->select(map, i) == ranks[i], "%s: %s: select(%d)", R->name, what, i);
            CHECK(R->rank(map, ranks[i]) == i, "%s: %s: rank(%d)", R->name, what, ranks[i]);
            if (ranks[i] > 0 && (0 == i || ranks[i - 1] != ranks[i] - 1)) {
                CHECK(GRPMAP_NOT_MEMBER == R->rank(map, ranks[i] - 1), "%s: %s: rank(%d)",
                      R->name, what, ranks[i] - 1);
            }
        }
        CHECK(GRPMAP_NOT_MEMBER == R->rank(map, INT32_MIN)
                  && GRPMAP_NOT_MEMBER == R->rank(map, -1)
                  && (ranks[n - 1] == INT32_MAX - 1
                      || GRPMAP_NOT_MEMBER == R->rank(map, INT32_MAX - 1))
                  && GRPMAP_NOT_MEMBER == R->rank(map, INT32_MAX),
              "%s: %s: non-members", R->name, what);
        R->iterate(map, 0, n, out);
        CHECK(0 == memcmp(out, ranks, sizeof(int32_t) * (size_t) n), "%s: %s: iterate", R->name,
              what);
        R->release(map);
    }
    free(out);
}

static int32_t random_set_d(uint64_t *s, int32_t *out, double density, int32_t world)
{
    int32_t n = (int32_t) (density * world + 0.5);
    if (n < 1) {
        n = 1;
    }
    gm_random_set(s, out, n, world);
    return n;
}

/* runs of 1..maxrun members separated by gaps of 2..maxgap */
static int32_t clustered(uint64_t *s, int32_t *out, int32_t world, int32_t maxrun, int32_t maxgap)
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

static int32_t stride(int32_t *out, int32_t first, int32_t step, int32_t world)
{
    int32_t n = 0, w;
    for (w = first; w < world; w += step) {
        out[n++] = w;
    }
    return n;
}

/* n members with gaps of 1 .. 2^bits (at least one of 2^bits) below world */
static int32_t gaps_of(uint64_t *s, int32_t *out, int32_t n, int bits, int32_t world)
{
    int32_t i, w = 0;
    uint64_t g = 1ull << bits;
    for (i = 0; i < n; i++) {
        int64_t next = i == 0 ? 0 : (int64_t) w + (i == n / 2 ? (int64_t) g
                                                   : 1 + (int64_t) test_rand_below(s, g));
        if (next >= world) {
            break;
        }
        out[i] = w = (int32_t) next;
    }
    return i;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

/* median ns of a random SELECT over 100 rounds of 10^4 (10^6 in all) */
static double time_select(const grpmap_repr_t *R, const void *map, const int32_t *plain,
                          const int32_t *idx, volatile uint32_t *sink)
{
    double t[100];
    int r, k;
    for (r = 0; r < 100; r++) {
        const int32_t *q = idx + r * 10000;
        uint32_t acc = 0;
        double t0 = test_now();
        if (NULL == map) {
            for (k = 0; k < 10000; k++) {
                acc += (uint32_t) plain[q[k]];
            }
        } else {
            for (k = 0; k < 10000; k++) {
                acc += (uint32_t) R->select(map, q[k]);
            }
        }
        t[r] = (test_now() - t0) * 1e9 / 10000;
        *sink += acc;
    }
    qsort(t, 100, sizeof(double), cmp_double);
    return t[50];
}

static void report(const char *what, const int32_t *ranks, int32_t n, int32_t world,
                   uint64_t *s, int32_t *idx)
{
    volatile uint32_t sink = 0;
    double ta, tb[NREPRS];
    size_t b[NREPRS];
    int k, r;
    for (k = 0; k < 1000000; k++) {
        idx[k] = (int32_t) test_rand_below(s, (uint64_t) n);
    }
    ta = time_select(NULL, NULL, ranks, idx, &sink);
    for (r = 0; r < NREPRS; r++) {
        grpmap_input_t in;
        void *map;
        grpmap_input_init(&in, ranks, n, world);
        CHECK(GRPMAP_OK == REPRS[r]->build(&in, &map), "%s: declined", what);
        b[r] = REPRS[r]->bytes(map);
        tb[r] = time_select(REPRS[r], map, ranks, idx, &sink);
        REPRS[r]->release(map);
    }
    printf("  %-30s n=%7d world=%8d: gap %6.3f B/member %5.1f ns, ef %6.3f B/member %5.1f ns"
           " (array %4.1f ns)\n",
           what, n, world, (double) b[0] / n, tb[0], (double) b[1] / n, tb[1], ta);
}

/* ef against lg C(world, n); returns data bits / bound */
static double ef_bound(uint64_t *s, int32_t *ranks, int32_t n, int32_t world)
{
    grpmap_input_t in;
    void *map;
    double bound, data, total;
    int32_t umax;
    int l;
    gm_random_set(s, ranks, n, world);
    grpmap_input_init(&in, ranks, n, world);
    CHECK(GRPMAP_OK == grpmap_ef_repr.build(&in, &map), "ef declined");
    bound = (lgamma((double) world + 1) - lgamma((double) n + 1) - lgamma((double) world - n + 1))
            / log(2.0);
    /* data: n low parts of l bits, n + ((U - 1) >> l) + 1 high bits; l is
     * read back as the width that makes the low part fit the bytes */
    umax = ranks[n - 1] - ranks[0];
    for (l = 0; l < 31; l++) {
        if ((uint64_t) n << (l + 1) > (uint64_t) umax + 1) {
            break;
        }
    }
    data = (double) n * l + (double) n + (double) (umax >> l) + 1;
    total = 8.0 * (double) grpmap_ef_repr.bytes(map);
    printf("  ef %6d random of %d: bound %.0f bits (%.3f a member); data %.0f bits = %.3f x"
           " bound; total %.0f bits = %.3f x bound (%.3f bits a member)\n",
           n, world, bound, bound / n, data, data / bound, total, total / bound, total / n);
    grpmap_ef_repr.release(map);
    return data / bound;
}

/* argv[1] == "quick": the smaller maps only, no timing (the script's runs
 * of the builds for a lower CPU level) */
int main(int argc, char **argv)
{
    const int32_t big = (1 << 20) + 1;
    int32_t *ranks = xmalloc(sizeof(int32_t) * (size_t) big);
    int32_t *idx = xmalloc(sizeof(int32_t) * 1000000);
    uint64_t seed = 0x67617065660aull;
    int32_t worlds[] = {1, 2, 3, 63, 64, 65, 1023, 1024, 1025, 4097, 1 << 20, (1 << 20) + 1};
    double dens[] = {0.001, 0.01, 0.03, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99};
    int32_t i, n, wi, di, t;
    char what[128];
    int quick = argc > 1 && 0 == strcmp(argv[1], "quick");
    int32_t nworlds = (int32_t) (sizeof(worlds) / sizeof(worlds[0])) - (quick ? 2 : 0);
    int32_t span = quick ? 65539 : big; /* world of the larger strides and runs */

    /* empty, one member, whole worlds */
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
            ranks[0] = 0;
            ranks[1] = w - 1;
            snprintf(what, sizeof(what), "{0, world - 1}, world %d", w);
            check(ranks, 2, w, what);
        }
    }
    /* the largest world: members far apart, the top ranks */
    {
        const int32_t top = INT32_MAX - 1; /* gm_check's world stays below 2^31 - 1 */
        ranks[0] = 0;
        ranks[1] = top - 1;
        check(ranks, 2, top, "{0, 2^31 - 3}");
        ranks[0] = top - 1;
        check(ranks, 1, top, "{2^31 - 3}");
        for (i = 0; i < 3000; i++) {
            ranks[i] = (int32_t) ((int64_t) i * (top - 1) / 2999);
        }
        check(ranks, 3000, top, "3000 spread over 2^31 - 2");
        for (i = 0; i < 3000; i++) {
            ranks[i] = top - 3000 + i;
        }
        check(ranks, 3000, top, "the last 3000 of 2^31 - 2");
        /* world 2^31 - 1 itself */
        ranks[0] = 0;
        ranks[1] = INT32_MAX - 1;
        check_top(ranks, 2, "{0, 2^31 - 2} of 2^31 - 1");
        ranks[0] = INT32_MAX - 1;
        check_top(ranks, 1, "{2^31 - 2} of 2^31 - 1");
        for (i = 0; i < 5000; i++) {
            ranks[i] = (int32_t) ((int64_t) i * (INT32_MAX - 1) / 4999);
        }
        check_top(ranks, 5000, "5000 spread over 2^31 - 1");
        for (n = 0, i = 0; i < 20000; i++) {
            if (test_rand_below(&seed, 3)) {
                ranks[n++] = INT32_MAX - 20000 + i;
            }
        }
        check_top(ranks, n, "the last 20000 of 2^31 - 1, 2/3 of them");
    }
    /* gaps of every width */
    for (t = 0; t <= 30; t++) {
        n = gaps_of(&seed, ranks, 2000, t, INT32_MAX - 1);
        snprintf(what, sizeof(what), "gaps up to 2^%d", t);
        check(ranks, n, INT32_MAX - 1, what);
    }
    /* not increasing: declined by build and estimate */
    {
        int32_t un[] = {5, 3, 9};
        int r;
        for (r = 0; r < NREPRS; r++) {
            grpmap_input_t in;
            void *map = NULL;
            grpmap_input_init(&in, un, 3, 10);
            CHECK(GRPMAP_DECLINE == REPRS[r]->build(&in, &map) && NULL == map,
                  "%s: an unordered map was not declined", REPRS[r]->name);
            CHECK(GRPMAP_DECLINES == REPRS[r]->estimate(&in), "%s: estimate of an unordered map",
                  REPRS[r]->name);
        }
    }
    /* random sets, densities 0.001 .. 0.99 */
    for (wi = 0; wi < (quick ? 2 : 3); wi++) {
        int32_t w = wi == 0 ? 5000 : wi == 1 ? 65539 : big;
        for (di = 0; di < (int32_t) (sizeof(dens) / sizeof(dens[0])); di++) {
            if (w == big && di % 2) {
                continue;
            }
            n = random_set_d(&seed, ranks, dens[di], w);
            snprintf(what, sizeof(what), "random density %g of %d", dens[di], w);
            check(ranks, n, w, what);
        }
    }
    for (t = 0; t < (quick ? 50 : 150); t++) {
        int32_t w = 1 + (int32_t) test_rand_below(&seed, 20000);
        n = (int32_t) test_rand_below(&seed, (uint64_t) w + 1);
        gm_random_set(&seed, ranks, n, w);
        snprintf(what, sizeof(what), "random %d of %d", n, w);
        check(ranks, n, w, what);
    }
    /* strides, clustered runs, the thesis's patterns */
    {
        int32_t steps[] = {1, 2, 3, 7, 63, 64, 65, 100, 1023, 1024, 100000};
        for (i = 0; i < (int32_t) (sizeof(steps) / sizeof(steps[0])); i++) {
            int32_t w = i % 3 ? 65539 : span;
            n = stride(ranks, steps[i] / 2, steps[i], w);
            snprintf(what, sizeof(what), "stride %d of %d", steps[i], w);
            check(ranks, n, w, what);
        }
        n = stride(ranks, 11453, 81, 200000);
        check(ranks, n, 200000, "81x + 11453 of 200000");
    }
    for (t = 0; t < 12; t++) {
        int32_t maxrun = t % 3 == 0 ? 4 : t % 3 == 1 ? 100 : 3000;
        int32_t maxgap = t % 4 == 0 ? 3 : t % 4 == 1 ? 60 : t % 4 == 2 ? 1000 : 30000;
        int32_t w = t < 4 ? span : 100003;
        n = clustered(&seed, ranks, w, maxrun, maxgap);
        snprintf(what, sizeof(what), "runs <= %d, gaps <= %d of %d", maxrun, maxgap, w);
        check(ranks, n, w, what);
    }
    for (n = 0, i = 0; i < 200000; i++) {
        if (0 == (i / 100) % 2) {
            ranks[n++] = i;
        }
    }
    check(ranks, n, 200000, "alternate ranges of 100");
    if (quick) {
        goto done;
    }

    /* ef against the information bound.  Elias-Fano's data part takes
     * l + 1 + U / (n 2^l) bits a member: within 10 % of lg C(U, n) for
     * sparse sets (U / n = 40: 7.25 bits against 6.76), but at least 4 bits
     * against 3.245 when U / n = 4, whatever l (1.23 x: the unary high
     * part and the fixed-width lows both spend what the bound saves on
     * equal buckets); hence 1.15 for the first, 1.25 for the second. */
    printf("grpmap_gap_test: ef against the information bound\n");
    CHECK(ef_bound(&seed, ranks, 5000, 200000) <= 1.15, "ef: 5000 of 200000 over 1.15 x bound");
    CHECK(ef_bound(&seed, ranks, 50000, 200000) <= 1.25, "ef: 50000 of 200000 over 1.25 x bound");
    ef_bound(&seed, ranks, 100000, 1000000);
    ef_bound(&seed, ranks, 1000, 1000000);

    /* bytes a member and SELECT time (10^6 random SELECTs, median of 100 rounds) */
    printf("grpmap_gap_test: bytes/member and median random SELECT ns\n");
    for (di = 0; di < (int32_t) (sizeof(dens) / sizeof(dens[0])); di++) {
        n = random_set_d(&seed, ranks, dens[di], 1000000);
        snprintf(what, sizeof(what), "random density %g", dens[di]);
        report(what, ranks, n, 1000000, &seed, idx);
    }
    n = random_set_d(&seed, ranks, 0.1, 1000000);
    report("10^5 random of 10^6 (timing)", ranks, n, 1000000, &seed, idx);
    n = random_set_d(&seed, ranks, 0.025, 200000);
    report("5,000 random of 200,000", ranks, n, 200000, &seed, idx);
    n = random_set_d(&seed, ranks, 0.25, 200000);
    report("50,000 random of 200,000", ranks, n, 200000, &seed, idx);
    n = stride(ranks, 11453, 81, 200000);
    report("81x + 11453 of 200,000", ranks, n, 200000, &seed, idx);
    n = clustered(&seed, ranks, 1000000, 100, 60);
    report("runs <= 100, gaps <= 60", ranks, n, 1000000, &seed, idx);
done:
    free(idx);
    free(ranks);
    printf("grpmap_gap_test: OK\n");
    return 0;
}
