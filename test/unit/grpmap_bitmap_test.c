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

static void check_map(const int32_t *ranks, int32_t n, int32_t world, const char *what)
{
    (void) check(ranks, n, world, what);
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

static void report(const char *what, const int32_t *ranks, int32_t n, int32_t world,
                   const int32_t *idx)
{
    grpmap_input_t in;
    void *map;
    double ta, tb;
    grpmap_input_init(&in, ranks, n, world);
    CHECK(GRPMAP_OK == R->build(&in, &map), "%s: declined", what);
    ta = gm_time(R, NULL, ranks, idx, 100, 10000, GM_TIME_ARRAY);
    tb = gm_time(R, map, ranks, idx, 100, 10000, GM_TIME_SELECT);
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
    int32_t i, n;
    char what[128];
    int quick = argc > 1 && 0 == strcmp(argv[1], "quick");

    /* empty, one member, whole worlds */
    gm_edge_sets(ranks, quick, 0, check_map);
    /* members near the top of the largest world (gm_check computes
     * world + 1 as an int32, so its world stays below 2^31 - 1) */
    {
        const int32_t top = INT32_MAX - 1;
        ranks[0] = top - 1;
        check(ranks, 1, top, "{2^31 - 3}");
        check(ranks, gm_stride(ranks, top - 5000, 1, top), top, "the last 5000 of 2^31 - 2");
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
    /* random sets, strides, clustered runs, alternate ranges of 100 */
    {
        static const int32_t steps[] = {1, 2, 3, 7, 63, 64, 65, 100, 1023, 1024};
        gm_random_sets(&seed, ranks, quick, steps, GM_LEN(steps), check_map);
    }
    test_select_word(&seed);
    /* bytes a member and SELECT time (10^6 random SELECTs, median of 100 rounds) */
    if (!quick) {
        static const gm_map_t maps[] = {
            {"10^5 random of 10^6 (timing line)", GM_RANDOM, 0.1, 1000000, 0, 0},
            {"stride 3", GM_STRIDE, 0, 300000, 0, 3},
            {"runs <= 100, gaps <= 60", GM_RUNS, 0, 1000000, 0, 0},
        };
        gm_report_maps("grpmap_bitmap_test", &seed, ranks, idx, 0.03, maps, GM_LEN(maps), report);
    }
    return gm_done("grpmap_bitmap_test", ranks, idx);
}
