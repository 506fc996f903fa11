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

static void report(const char *what, const int32_t *ranks, int32_t n, int32_t world,
                   const int32_t *idx)
{
    double ta, tb[NREPRS];
    size_t b[NREPRS];
    int r;
    ta = gm_time(NULL, NULL, ranks, idx, 100, 10000, GM_TIME_ARRAY);
    for (r = 0; r < NREPRS; r++) {
        grpmap_input_t in;
        void *map;
        grpmap_input_init(&in, ranks, n, world);
        CHECK(GRPMAP_OK == REPRS[r]->build(&in, &map), "%s: declined", what);
        b[r] = REPRS[r]->bytes(map);
        tb[r] = gm_time(REPRS[r], map, ranks, idx, 100, 10000, GM_TIME_SELECT);
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
    int32_t i, n, t;
    char what[128];
    int quick = argc > 1 && 0 == strcmp(argv[1], "quick");

    /* empty, one member, whole worlds */
    gm_edge_sets(ranks, quick, 1, check);
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
        check(ranks, gm_stride(ranks, top - 3000, 1, top), top, "the last 3000 of 2^31 - 2");
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
    /* random sets, strides, clustered runs, the thesis's patterns */
    {
        static const int32_t steps[] = {1, 2, 3, 7, 63, 64, 65, 100, 1023, 1024, 100000};
        gm_random_sets(&seed, ranks, quick, steps, GM_LEN(steps), check);
    }
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
    {
        static const gm_map_t maps[] = {
            {"10^5 random of 10^6 (timing)", GM_RANDOM, 0.1, 1000000, 0, 0},
            {"5,000 random of 200,000", GM_RANDOM, 0.025, 200000, 0, 0},
            {"50,000 random of 200,000", GM_RANDOM, 0.25, 200000, 0, 0},
            {"81x + 11453 of 200,000", GM_STRIDE, 0, 200000, 11453, 81},
            {"runs <= 100, gaps <= 60", GM_RUNS, 0, 1000000, 0, 0},
        };
        gm_report_maps("grpmap_gap_test", &seed, ranks, idx, 0, maps, GM_LEN(maps), report);
    }
done:
    return gm_done("grpmap_gap_test", ranks, idx);
}
