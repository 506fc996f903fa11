/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * grpmap's bdd set form (thesis §4.1.2) against plain arrays
 * (test/unit/grpmap_check.h): empty maps, one member, whole worlds of 1 ..
 * 2^20 + 1, members near 2^31; the thesis's shapes held as one path each
 * (evens, odds, multiples of 2^k, rows and columns of a 1024 x 1024 matrix,
 * faces of a 2^20 3-D mesh) and its worked example of BDD Find; ranges,
 * strides, periodic sets (paths whose spans overlap: the bit walk, with
 * more than 1024 paths at once too), every subset of worlds up to 8,
 * random sets of 10 .. 4000 (held) and 10^4 (declined on the path limit);
 * the limits (paths, the count of nodes a build makes, BuDDy's own node
 * ceiling through the error hook) each followed by a build that works;
 * bdd_done and a fresh start; builds from 4 threads at once.  Prints
 * bytes and median SELECT ns against a plain array.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ompi/mca/grpmap/grpmap_repr.h"
#include "ompi/mca/grpmap/bdd/grpmap_bdd.h"
#include "test/common/check.h"
#include "test/unit/grpmap_check.h"

static const grpmap_repr_t *R = &grpmap_bdd_repr;

/* Builds ranks and returns its path count, or -1 when declined. */
static int32_t paths_of(const int32_t *ranks, int32_t n, int32_t world)
{
    grpmap_input_t in;
    void *map = NULL;
    int32_t p;
    int rc;
    grpmap_input_init(&in, ranks, n, world);
    rc = R->build(&in, &map);
    CHECK(GRPMAP_OK == rc || GRPMAP_DECLINE == rc, "build returned %d", rc);
    if (GRPMAP_DECLINE == rc) {
        CHECK(NULL == map, "declined but left a map");
        return -1;
    }
    p = grpmap_bdd_paths(map);
    R->release(map);
    return p;
}

/* Must hold it exactly; with paths >= 0, in that many paths. */
static void held(const int32_t *ranks, int32_t n, int32_t world, int32_t paths, const char *what)
{
    int32_t p;
    CHECK(GRPMAP_OK == gm_check(R, ranks, n, world, 1, what), "%s: not held", what);
    p = paths_of(ranks, n, world);
    CHECK(paths < 0 || p == paths, "%s: %d paths, expected %d", what, p, paths);
}

static int32_t fill_range(int32_t *a, int32_t from, int32_t to, int32_t step)
{
    int32_t n = 0, w;
    for (w = from; w < to; w += step) {
        a[n++] = w;
    }
    return n;
}

static void edge_cases(int32_t *a)
{
    static const int32_t worlds[] = {1, 2, 3, 5, 1024, 1 << 20, (1 << 20) + 1, 1000000,
                                     INT32_MAX - 1};
    char what[128];
    size_t k;
    for (k = 0; k < sizeof(worlds) / sizeof(worlds[0]); k++) {
        int32_t world = worlds[k], n;
        snprintf(what, sizeof(what), "empty, world %d", world);
        held(a, 0, world, 0, what);
        a[0] = 0;
        snprintf(what, sizeof(what), "{0}, world %d", world);
        held(a, 1, world, 1, what);
        a[0] = world - 1;
        snprintf(what, sizeof(what), "{world - 1}, world %d", world);
        held(a, 1, world, 1, what);
        a[0] = world / 2;
        snprintf(what, sizeof(what), "{world / 2}, world %d", world);
        held(a, 1, world, 1, what);
        if (world <= (1 << 20) + 1 && 1000000 != world) {
            n = fill_range(a, 0, world, 1);
            snprintf(what, sizeof(what), "whole world %d", world);
            /* [0, world) is one cube per set bit of world */
            held(a, n, world, __builtin_popcount((uint32_t) world), what);
            a[0] = 0;
            a[1] = world - 1;
            if (world > 1) {
                snprintf(what, sizeof(what), "{0, world - 1}, world %d", world);
                held(a, 2, world, -1, what);
            }
        }
    }
    /* b = 31: members near 2^31 */
    {
        int32_t world = INT32_MAX - 1, n;
        a[0] = 0;
        a[1] = 1 << 30;
        a[2] = world - 2;
        a[3] = world - 1;
        held(a, 4, world, -1, "four members, world 2^31 - 2");
        n = fill_range(a, world - 5000, world, 1);
        held(a, n, world, -1, "the last 5000 ranks of 2^31 - 2");
        n = fill_range(a, 1 << 30, (1 << 30) + (1 << 16), 1 << 4);
        held(a, n, world, 1, "a stride of 16 at 2^30");
    }
}

static void thesis_shapes(int32_t *a)
{
    int32_t n, k, r, c;
    char what[128];
    const int32_t w20 = 1 << 20;

    n = fill_range(a, 0, w20, 2);
    held(a, n, w20, 1, "evens of 2^20");
    n = fill_range(a, 1, w20, 2);
    held(a, n, w20, 1, "odds of 2^20");
    n = fill_range(a, 0, (1 << 20) + 1, 2);
    held(a, n, (1 << 20) + 1, 2, "evens of 2^20 + 1");
    n = fill_range(a, 0, 1000000, 2);
    held(a, n, 1000000, -1, "evens of 10^6");
    for (k = 2; k <= 17; k += 3) {
        n = fill_range(a, 0, w20, 1 << k);
        snprintf(what, sizeof(what), "multiples of 2^%d in 2^20", k);
        held(a, n, w20, 1, what);
        n = fill_range(a, 5, w20, 1 << k);
        snprintf(what, sizeof(what), "5 + multiples of 2^%d in 2^20", k);
        held(a, n, w20, 1 << k > 5 ? 1 : -1, what);
    }
    /* 1024 x 1024 matrix, row-major: a row or a column is one path of 10
     * specified bits (1 path of 1024 members: 10 X bits, 10 specified) */
    for (r = 0; r < 1024; r += 341) {
        n = fill_range(a, r * 1024, r * 1024 + 1024, 1);
        snprintf(what, sizeof(what), "matrix row %d", r);
        held(a, n, w20, 1, what);
        n = fill_range(a, r, w20, 1024);
        snprintf(what, sizeof(what), "matrix column %d", r);
        held(a, n, w20, 1, what);
    }
    n = fill_range(a, 1023 * 1024, w20, 1);
    held(a, n, w20, 1, "matrix row 1023");
    n = fill_range(a, 1, w20, 1024);
    held(a, n, w20, 1, "matrix column 1");
    /* 3-D mesh 64 x 128 x 128 = 2^20, rank = (x * 128 + y) * 128 + z: each
     * 2-D face is one path (thesis §4.1.2.3) */
    n = 0;
    for (k = 0; k < 64 * 128; k++) { /* z = 37 fixed: 2^13 members */
        a[n++] = k * 128 + 37;
    }
    held(a, n, w20, 1, "mesh face z = 37");
    n = 0;
    for (k = 0; k < 64; k++) { /* y = 100 fixed */
        for (c = 0; c < 128; c++) {
            a[n++] = (k * 128 + 100) * 128 + c;
        }
    }
    held(a, n, w20, 1, "mesh face y = 100");
    n = fill_range(a, 17 * 128 * 128, 18 * 128 * 128, 1);
    held(a, n, w20, 1, "mesh face x = 17");
    /* thesis §4.1.2.1: three paths, the 13th smallest is 28 */
    {
        static const int32_t ex[] = {16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27,
                                     28, 29, 30, 31, 49, 53, 57, 61, 77, 93, 109, 125};
        grpmap_input_t in;
        void *map = NULL;
        held(ex, 24, 256, 3, "thesis example 4.1.2.1");
        grpmap_input_init(&in, ex, 24, 256);
        CHECK(GRPMAP_OK == R->build(&in, &map), "thesis example: build");
        CHECK(28 == R->select(map, 12), "thesis example: 13th smallest %d", R->select(map, 12));
        R->release(map);
    }
}

static void ranges_and_sets(int32_t *a, uint64_t *seed)
{
    static const int32_t rg[][2] = {{0, 1000},          {1000, 5000},     {12345, 78901},
                                    {999000, 1000000},  {1, 99999},      {524287, 524289},
                                    {333333, 333334},   {65536, 131072}};
    char what[128];
    int32_t n, k, w, world;
    size_t j;
    for (j = 0; j < sizeof(rg) / sizeof(rg[0]); j++) {
        n = fill_range(a, rg[j][0], rg[j][1], 1);
        snprintf(what, sizeof(what), "range [%d, %d) of 10^6", rg[j][0], rg[j][1]);
        held(a, n, 1000000, -1, what);
        CHECK(paths_of(a, n, 1000000) <= 2 * 20, "%s: a range is at most 2b cubes", what);
    }
    /* alternate ranges of 100 (thesis Table 6.1 at a tenth of its world) */
    n = 0;
    for (w = 0; w < 20000; w++) {
        if (0 == (w / 100) % 2) {
            a[n++] = w;
        }
    }
    held(a, n, 20000, -1, "alternate ranges of 100 in 20000");
    n = 0;
    for (w = 0; w < 200000; w++) {
        if (0 == (w / 100) % 2) {
            a[n++] = w;
        }
    }
    (void) gm_check(R, a, n, 200000, 0, "alternate ranges of 100 in 200000");
    /* y = 81 x + 11453 (thesis Table 6.1): 2327 members, at most 2327 paths */
    n = fill_range(a, 11453, 200000, 81);
    held(a, n, 200000, -1, "y = 81x + 11453");
    for (k = 3; k <= 7; k += 2) {
        n = fill_range(a, 0, 200000, k);
        snprintf(what, sizeof(what), "multiples of %d in 200000", k);
        (void) gm_check(R, a, n, 200000, 0, what);
    }
    /* periodic sets, w mod 2^k in P: paths with X bits above specified ones,
     * spans overlapping (SELECT's bit walk, the counts below 2^t) */
    for (k = 0; k < 12; k++) {
        int32_t per = 1 << (2 + k % 5), np = 0, res[64];
        world = 0 == k % 2 ? 1 << 14 : 20000 - k;
        for (w = 0; w < per; w++) {
            if (test_rand_below(seed, 3) || w == 0) {
                res[np++] = w;
            }
        }
        n = 0;
        for (w = 0; w < world; w++) {
            int32_t q;
            for (q = 0; q < np && res[q] != (w & (per - 1)); q++) {
            }
            if (q < np) {
                a[n++] = w;
            }
        }
        snprintf(what, sizeof(what), "w mod %d in %d residues, world %d", per, np, world);
        held(a, n, world, -1, what);
    }
    /* more than 1024 paths consistent after the top bit: 1100 residues of
     * 4096 in 2^14, the walk over all paths before it copies them (bit 12
     * is X in all: skipped at once); residues of even parity, so that no
     * two make one cube */
    n = 0;
    {
        int32_t keep = 0;
        uint8_t *res = xcalloc(4096, 1);
        while (keep < 1100) {
            w = (int32_t) test_rand_below(seed, 4096);
            if (0 == __builtin_popcount((uint32_t) w) % 2) {
                keep += !res[w];
                res[w] = 1;
            }
        }
        for (w = 0; w < 1 << 14; w++) {
            if (res[w & 4095]) {
                a[n++] = w;
            }
        }
        free(res);
    }
    held(a, n, 1 << 14, 1100, "1100 residues of 4096 in 2^14");
    /* every subset of worlds 1 .. 8 */
    for (world = 1; world <= 8; world++) {
        uint32_t s;
        for (s = 0; s < (1u << world); s++) {
            n = 0;
            for (w = 0; w < world; w++) {
                if (s >> w & 1) {
                    a[n++] = w;
                }
            }
            snprintf(what, sizeof(what), "subset %#x of world %d", s, world);
            held(a, n, world, -1, what);
        }
    }
    /* random sets: at most n disjoint cubes, so n <= 4096 is always held */
    for (k = 0; k < 16; k++) {
        static const int32_t sizes[] = {10, 100, 1000};
        int32_t nn = k < 15 ? sizes[k % 3] : 4000;
        world = 0 == k % 3 ? 1 << 20 : (int32_t) (nn + test_rand_below(seed, 5000000));
        gm_random_set(seed, a, nn, world);
        snprintf(what, sizeof(what), "random %d of %d", nn, world);
        held(a, nn, world, -1, what);
    }
    for (k = 0; k < 20; k++) { /* dense random sets of small worlds */
        world = 1 + (int32_t) test_rand_below(seed, 2000);
        n = (int32_t) test_rand_below(seed, (uint64_t) world + 1);
        gm_random_set(seed, a, n, world);
        snprintf(what, sizeof(what), "random %d of %d", n, world);
        held(a, n, world, -1, what);
    }
    gm_random_set(seed, a, 10000, 1 << 20);
    CHECK(-1 == paths_of(a, 10000, 1 << 20), "random 10^4 of 2^20: not declined");
    CHECK(GRPMAP_DECLINE == gm_check(R, a, 10000, 1 << 20, 0, "random 10^4 of 2^20"),
          "random 10^4 of 2^20 held");
}

static void declines(int32_t *a, uint64_t *seed)
{
    static const int32_t ex[] = {16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27,
                                 28, 29, 30, 31, 49, 53, 57, 61, 77, 93, 109, 125};
    static const int32_t unordered[] = {5, 3, 9};
    grpmap_input_t in;
    void *map = NULL;
    int32_t n;

    grpmap_input_init(&in, unordered, 3, 16);
    CHECK(GRPMAP_DECLINE == R->build(&in, &map) && NULL == map, "unordered map not declined");

    grpmap_bdd_set_limits(0, 2); /* paths */
    CHECK(-1 == paths_of(ex, 24, 256), "3 paths held with max_paths 2");
    grpmap_bdd_set_limits(0, 3);
    CHECK(3 == paths_of(ex, 24, 256), "3 paths declined with max_paths 3");

    /* the count of nodes the build made (below BuDDy's table size) */
    gm_random_set(seed, a, 1000, 1 << 20);
    grpmap_bdd_set_limits(50, 0);
    CHECK(-1 == paths_of(a, 1000, 1 << 20), "1000 random members held with max_nodes 50");
    n = fill_range(a, 0, 1 << 20, 2);
    held(a, n, 1 << 20, 1, "evens of 2^20 with max_nodes 50");

    /* BuDDy's own ceiling: a random half of 2^20 needs more than 100500
     * nodes, and the node table (100000 at start) may only grow to 100500 +
     * the variables' nodes: bdd_error(BDD_NODENUM) reaches our hook (not
     * BuDDy's default handler, which calls exit(1)) */
    grpmap_bdd_set_limits(100500, 1 << 30);
    gm_random_set(seed, a, 1 << 19, 1 << 20);
    CHECK(-1 == paths_of(a, 1 << 19, 1 << 20), "2^19 random members held with max_nodes 100500");
    CHECK(-1 == paths_of(a, 1 << 19, 1 << 20), "2^19 random members held (second try)");
    n = fill_range(a, 0, 1 << 20, 2);
    held(a, n, 1 << 20, 1, "evens of 2^20 between node-limit declines");

    /* BuDDy still works */
    grpmap_bdd_set_limits(0, 0);
    gm_random_set(seed, a, 1000, 1 << 20);
    held(a, 1000, 1 << 20, -1, "random 1000 after the node-limit declines");
    n = fill_range(a, 3, 1 << 20, 1024);
    held(a, n, 1 << 20, 1, "column 3 after the node-limit declines");

    /* bdd_done, then a fresh start */
    grpmap_bdd_finalize();
    grpmap_bdd_finalize();
    gm_random_set(seed, a, 500, 100000);
    held(a, 500, 100000, -1, "random 500 after bdd_done");
}

/* ---- 4 threads building at once ---- */

#define T_BUILDS 40

typedef struct {
    uint64_t seed;
    int builds;
} thr_arg_t;

static void *thr_main(void *p)
{
    thr_arg_t *t = p;
    int32_t *a = xmalloc(sizeof(int32_t) * 65536);
    int k;
    char what[96];
    for (k = 0; k < T_BUILDS; k++) {
        int32_t world = 1 + (int32_t) test_rand_below(&t->seed, 65536), n;
        if (k % 3) {
            n = (int32_t) test_rand_below(&t->seed, (uint64_t) (world < 500 ? world : 500) + 1);
            gm_random_set(&t->seed, a, n, world);
        } else {
            int32_t step = 1 << test_rand_below(&t->seed, 8);
            n = fill_range(a, (int32_t) test_rand_below(&t->seed, (uint64_t) step), world, step);
        }
        snprintf(what, sizeof(what), "thread: %d of %d", n, world);
        CHECK(GRPMAP_OK == gm_check(R, a, n, world, 1, what), "%s", what);
        t->builds++;
    }
    free(a);
    return NULL;
}

static void threads(void)
{
    pthread_t th[4];
    thr_arg_t arg[4];
    int k;
    for (k = 0; k < 4; k++) {
        arg[k].seed = 1000 + (uint64_t) k;
        arg[k].builds = 0;
        CHECK(0 == pthread_create(&th[k], NULL, thr_main, &arg[k]), "pthread_create");
    }
    for (k = 0; k < 4; k++) {
        CHECK(0 == pthread_join(th[k], NULL), "pthread_join");
        CHECK(T_BUILDS == arg[k].builds, "thread %d: %d builds", k, arg[k].builds);
    }
}

/* ---- timing ---- */

#define T_BATCH 1000
#define T_CALLS 1000000

static void timing(int32_t *a, uint64_t *seed)
{
    static const struct {
        const char *what;
        int32_t world, from, step;
    } maps[] = {
        {"evens of 2*10^5 (10^5 members)", 200000, 0, 2},
        {"evens of 2^20", 1 << 20, 0, 2},
        {"matrix column 5 of 1024x1024", 1 << 20, 5, 1024},
    };
    int32_t *idx = xmalloc(sizeof(int32_t) * T_CALLS);
    size_t j;
    for (j = 0; j < sizeof(maps) / sizeof(maps[0]); j++) {
        grpmap_input_t in;
        void *map = NULL;
        int32_t n = fill_range(a, maps[j].from, maps[j].world, maps[j].step), k;
        double ns, ns_plain;
        grpmap_input_init(&in, a, n, maps[j].world);
        CHECK(GRPMAP_OK == R->build(&in, &map), "timing: %s not held", maps[j].what);
        for (k = 0; k < T_CALLS; k++) {
            idx[k] = (int32_t) test_rand_below(seed, (uint64_t) n);
        }
        ns = gm_time(R, map, NULL, idx, T_CALLS / T_BATCH, T_BATCH, GM_TIME_SELECT);
        ns_plain = gm_time(R, NULL, a, idx, T_CALLS / T_BATCH, T_BATCH, GM_TIME_ARRAY);
        printf("grpmap_bdd_test: %s: %d paths, %zu bytes (plain %zu); median SELECT %.1f ns, "
               "plain array %.1f ns (10^6 random)\n",
               maps[j].what, grpmap_bdd_paths(map), R->bytes(map), sizeof(int32_t) * (size_t) n,
               ns, ns_plain);
        R->release(map);
    }
    free(idx);
}

int main(void)
{
    int32_t *a = xmalloc(sizeof(int32_t) * ((1 << 20) + 2));
    uint64_t seed = 20260101;
    double t0 = test_now();

    edge_cases(a);
    thesis_shapes(a);
    ranges_and_sets(a, &seed);
    declines(a, &seed);
    threads();
    timing(a, &seed);
    grpmap_bdd_finalize();
    free(a);
    printf("grpmap_bdd_test: %.1f s\n", test_now() - t0);
    printf("grpmap_bdd_test: OK\n");
    return 0;
}
