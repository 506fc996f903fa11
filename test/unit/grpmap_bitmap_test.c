/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * grpmap's bitmap set form against the plain array (test/unit/
 * grpmap_check.h): edge cases (empty, one member, whole worlds of 1 ..
 * 2^20 + 1, the last world rank, members near 2^31), random sets of
 * densities 0.001 .. 0.99, strides, clustered runs, word and block
 * boundaries; the select-in-word against a naive one; the decline rule
 * (bit array > 8 bytes a member + 64) and unordered maps; estimate equal
 * to bytes; bytes a member and median SELECT ns against a plain array.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ompi/mca/grpmap/grpmap_repr.h"
#include "ompi/mca/grpmap/bitmap/grpmap_bitmap.h"
#include "test/common/check.h"
#include "test/unit/grpmap_check.h"

static const grpmap_repr_t *R = &grpmap_bitmap_repr;

/* Does the decline rule let the bitmap hold this increasing map? */
static int fits(const int32_t *ranks, int32_t n)
{
    uint64_t words;
    if (0 == n) {
        return 1;
    }
    words = ((uint64_t) ranks[n - 1] - (uint64_t) ranks[0] + 64) / 64;
    return words * 8 <= (uint64_t) n * 8 + 64;
}

/* gm_check, plus: estimate == bytes exactly, and decline exactly when the
 * rule says so.  Returns the bytes held (0 if declined). */
static size_t check(const int32_t *ranks, int32_t n, int32_t world, const char *what)
{
    grpmap_input_t in;
    void *map = NULL;
    size_t est, b = 0;
    int must = fits(ranks, n), rc;

    grpmap_input_init(&in, ranks, n, world);
    est = R->estimate(&in);
    rc = R->build(&in, &map);
    CHECK((GRPMAP_OK == rc) == must, "%s: build returned %d, the rule says %s", what, rc,
          must ? "accept" : "decline");
    if (GRPMAP_OK == rc) {
        b = R->bytes(map);
        CHECK(b == est, "%s: estimate %zu, holds %zu", what, est, b);
        R->release(map);
    } else {
        CHECK(NULL == map && GRPMAP_DECLINES == est, "%s: decline left a map or estimate %zu",
              what, est);
    }
    rc = gm_check(R, ranks, n, world, must, what);
    CHECK((GRPMAP_OK == rc) == must, "%s: gm_check returned %d", what, rc);
    return b;
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

static unsigned naive_select_word(uint64_t x, unsigned r)
{
    unsigned b;
    for (b = 0; b < 64; b++) {
        if ((x >> b) & 1) {
            if (0 == r--) {
                return b;
            }
        }
    }
    return 64;
}

/* A one-word map whose only word is x (members min + bit): SELECT runs the
 * select-in-word on x for every r. */
static void test_select_word(uint64_t *s)
{
    int32_t ranks[64], n, i, t;
    for (t = 0; t < 3000; t++) {
        uint64_t x = test_rand(s);
        grpmap_input_t in;
        void *map;
        switch (t % 4) {
        case 1: x &= test_rand(s); break;
        case 2: x |= test_rand(s); break;
        case 3: x &= test_rand(s) & test_rand(s); break;
        }
        x |= 1ull | (1ull << 63);
        for (n = 0, i = 0; i < 64; i++) {
            if ((x >> i) & 1) {
                ranks[n++] = 1000 + i;
            }
        }
        grpmap_input_init(&in, ranks, n, 2000);
        CHECK(GRPMAP_OK == R->build(&in, &map), "select-word map declined");
        for (i = 0; i < n; i++) {
            CHECK(R->select(map, i) == 1000 + (int32_t) naive_select_word(x, (unsigned) i),
                  "select in word %016llx, r = %d", (unsigned long long) x, i);
        }
        R->release(map);
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

/* median ns of a random SELECT over 100 rounds of 10^4 (10^6 in all) */
static double time_select(const void *map, const int32_t *plain, const int32_t *idx,
                          volatile uint32_t *sink)
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
    grpmap_input_t in;
    void *map;
    volatile uint32_t sink = 0;
    int k;
    double ta, tb;
    grpmap_input_init(&in, ranks, n, world);
    CHECK(GRPMAP_OK == R->build(&in, &map), "%s: declined", what);
    for (k = 0; k < 1000000; k++) {
        idx[k] = (int32_t) test_rand_below(s, (uint64_t) n);
    }
    ta = time_select(NULL, ranks, idx, &sink);
    tb = time_select(map, ranks, idx, &sink);
    printf("  %-34s n=%7d world=%8d: %6.3f bytes/member, SELECT %5.1f ns (array %4.1f ns)\n",
           what, n, world, (double) R->bytes(map) / n, tb, ta);
    R->release(map);
}

/* argv[1] == "quick": the smaller maps only, no timing (the script's runs
 * of the builds for a lower CPU level) */
int main(int argc, char **argv)
{
    const int32_t big = (1 << 20) + 1;
    int32_t *ranks = xmalloc(sizeof(int32_t) * (size_t) big);
    int32_t *idx = xmalloc(sizeof(int32_t) * 1000000);
    uint64_t seed = 0x6269746d6170ull;
    int32_t worlds[] = {1, 2, 3, 63, 64, 65, 1023, 1024, 1025, 4097, 1 << 20, (1 << 20) + 1};
    double dens[] = {0.001, 0.01, 0.03, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99};
    int32_t i, n, wi, di, t;
    char what[128];
    int quick = argc > 1 && 0 == strcmp(argv[1], "quick");
    int32_t nworlds = (int32_t) (sizeof(worlds) / sizeof(worlds[0])) - (quick ? 2 : 0);
    int32_t span = quick ? 65539 : big; /* world of the strides and runs */

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
        }
    }
    /* members near the top of the largest world (gm_check computes
     * world + 1 as an int32, so its world stays below 2^31 - 1) */
    {
        const int32_t top = INT32_MAX - 1;
        ranks[0] = top - 1;
        check(ranks, 1, top, "{2^31 - 3}");
        for (i = 0; i < 5000; i++) {
            ranks[i] = top - 5000 + i;
        }
        check(ranks, 5000, top, "the last 5000 of 2^31 - 2");
        ranks[0] = 0;
        ranks[1] = top - 1;
        check(ranks, 2, top, "{0, 2^31 - 3} (declines)");
        n = 0;
        for (i = 0; i < 20000; i++) {
            if (test_rand_below(&seed, 2)) {
                ranks[n++] = top - 20000 + i;
            }
        }
        check(ranks, n, top, "random half of the last 20000 of 2^31 - 2");
        /* world 2^31 - 1 itself, checked here */
        {
            grpmap_input_t in;
            void *map;
            ranks[0] = INT32_MAX - 64;
            ranks[1] = INT32_MAX - 2;
            ranks[2] = INT32_MAX - 1;
            grpmap_input_init(&in, ranks, 3, INT32_MAX);
            CHECK(GRPMAP_OK == R->build(&in, &map), "world 2^31 - 1 declined");
            for (i = 0; i < 3; i++) {
                CHECK(R->select(map, i) == ranks[i] && R->rank(map, ranks[i]) == i,
                      "world 2^31 - 1: member %d", i);
            }
            CHECK(GRPMAP_NOT_MEMBER == R->rank(map, INT32_MAX)
                      && GRPMAP_NOT_MEMBER == R->rank(map, INT32_MIN)
                      && GRPMAP_NOT_MEMBER == R->rank(map, INT32_MAX - 3),
                  "world 2^31 - 1: non-members");
            R->release(map);
        }
    }
    /* the decline rule at its edge: span 64 * (n + 8) bits fits, one word more not */
    for (n = 2; n < 40; n += 3) {
        int32_t span = 64 * (n + 8);
        for (i = 0; i < n - 1; i++) {
            ranks[i] = i;
        }
        ranks[n - 1] = span - 1;
        snprintf(what, sizeof(what), "%d members over %d bits (accepts)", n, span);
        CHECK(check(ranks, n, 1 << 20, what) > 0, "%s", what);
        ranks[n - 1] = span;
        snprintf(what, sizeof(what), "%d members over %d bits (declines)", n, span + 1);
        CHECK(0 == check(ranks, n, 1 << 20, what), "%s", what);
    }
    /* not increasing: declined by build and estimate */
    {
        grpmap_input_t in;
        void *map = NULL;
        int32_t un[] = {5, 3, 9};
        grpmap_input_init(&in, un, 3, 10);
        CHECK(GRPMAP_DECLINE == R->build(&in, &map) && NULL == map,
              "an unordered map was not declined");
        CHECK(GRPMAP_DECLINES == R->estimate(&in), "estimate of an unordered map");
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
    /* strides, clustered runs */
    {
        int32_t steps[] = {1, 2, 3, 7, 63, 64, 65, 100, 1023, 1024};
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
    /* alternate ranges of 100 (the thesis's pattern) and dense blocks far apart */
    for (n = 0, i = 0; i < 200000; i++) {
        if (0 == (i / 100) % 2) {
            ranks[n++] = i;
        }
    }
    check(ranks, n, 200000, "alternate ranges of 100");
    test_select_word(&seed);
    if (quick) {
        goto done;
    }

    /* bytes a member and SELECT time (10^6 random SELECTs, median of 100 rounds) */
    printf("grpmap_bitmap_test: bytes/member and median random SELECT ns\n");
    for (di = 0; di < (int32_t) (sizeof(dens) / sizeof(dens[0])); di++) {
        int32_t w = 1000000;
        if (dens[di] < 0.03) {
            continue;
        }
        n = random_set_d(&seed, ranks, dens[di], w);
        snprintf(what, sizeof(what), "random density %g", dens[di]);
        report(what, ranks, n, w, &seed, idx);
    }
    n = random_set_d(&seed, ranks, 0.1, 1000000);
    report("10^5 random of 10^6 (timing line)", ranks, n, 1000000, &seed, idx);
    n = stride(ranks, 0, 3, 300000);
    report("stride 3", ranks, n, 300000, &seed, idx);
    n = clustered(&seed, ranks, 1000000, 100, 60);
    report("runs <= 100, gaps <= 60", ranks, n, 1000000, &seed, idx);
done:
    free(idx);
    free(ranks);
    printf("grpmap_bitmap_test: OK\n");
    return 0;
}
