/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Unit test of grpmap's bwt representation (blocks of 1000 ranks through
 * the bzip2 codec, one cached block): the shared contract checks on the
 * maps its RANK can afford (blocks with disjoint ranges; a random list
 * makes every RANK decompress every block, so those are checked by SELECT,
 * iteration and a sample of RANKs), the declines, the cache under 4
 * threads, the size of a random 10,000-member list of a 200,000 world
 * against 8 bytes a member and lg(N!/(N-n)!) bits, and SELECT times.
 */
#include <math.h>
#include <pthread.h>
#include <string.h>

#include "test/common/check.h"
#include "ompi/mca/grpmap/grpmap_repr.h"
#include "test/unit/grpmap_check.h"
#include "ompi/mca/grpmap/bwt/grpmap_bwt.h"
#include "opal/mca/compress/bzip2/compress_bzip2.h"

static const grpmap_repr_t *R = &grpmap_bwt_repr;

static void *build_ok(const int32_t *ranks, int32_t n, int32_t world)
{
    grpmap_input_t in;
    void *map = NULL;
    grpmap_input_init(&in, ranks, n, world);
    CHECK(GRPMAP_OK == R->build(&in, &map), "build declined n=%d world=%d", n, world);
    return map;
}

static int declines(const int32_t *ranks, int32_t n, int32_t world)
{
    grpmap_input_t in;
    void *map = (void *) 1;
    int rc;
    grpmap_input_init(&in, ranks, n, world);
    rc = R->build(&in, &map);
    if (GRPMAP_OK == rc) {
        R->release(map);
        return 0;
    }
    CHECK(GRPMAP_DECLINE == rc && NULL == map, "build returned %d", rc);
    return 1;
}

/* A list its RANK makes too slow for gm_check (every block overlaps every
 * other): every SELECT, iteration in pieces, RANK of a sample. */
static void check_scan(const int32_t *ranks, int32_t n, int32_t world, const char *what)
{
    void *map = build_ok(ranks, n, world);
    int32_t i, *out = xmalloc(sizeof(int32_t) * (size_t) n), *sorted;
    uint64_t s = 99;
    for (i = 0; i < n; i++) {
        CHECK(R->select(map, i) == ranks[i], "%s: select(%d)", what, i);
    }
    for (i = n - 1; i >= 0; i -= 7) {
        CHECK(R->select(map, i) == ranks[i], "%s: select(%d) backwards", what, i);
    }
    R->iterate(map, 0, n, out);
    CHECK(0 == memcmp(out, ranks, sizeof(int32_t) * (size_t) n), "%s: iterate", what);
    for (i = 0; i < n; i += 1 + i % 1500) {
        int32_t c = 1 + (i * 13) % 2500;
        if (c > n - i) c = n - i;
        R->iterate(map, i, c, out);
        CHECK(0 == memcmp(out, ranks + i, sizeof(int32_t) * (size_t) c), "%s: iterate(%d,%d)",
              what, i, c);
    }
    sorted = xmalloc(sizeof(int32_t) * (size_t) n);
    memcpy(sorted, ranks, sizeof(int32_t) * (size_t) n);
    qsort(sorted, (size_t) n, sizeof(int32_t), gm_cmp32);
    for (i = 0; i < 40; i++) {
        int32_t g = (int32_t) test_rand_below(&s, (uint64_t) n), w;
        CHECK(R->rank(map, ranks[g]) == g, "%s: rank(%d)", what, ranks[g]);
        w = (int32_t) test_rand_below(&s, (uint64_t) world);
        if (NULL == bsearch(&w, sorted, (size_t) n, sizeof(int32_t), gm_cmp32)) {
            CHECK(R->rank(map, w) == GRPMAP_NOT_MEMBER, "%s: rank(%d) of a non-member", what, w);
        }
    }
    CHECK(R->rank(map, -1) == GRPMAP_NOT_MEMBER && R->rank(map, world) == GRPMAP_NOT_MEMBER
              && R->rank(map, INT32_MAX) == GRPMAP_NOT_MEMBER,
          "%s: rank out of range", what);
    R->release(map);
    free(sorted);
    free(out);
}

/* ---- 4 threads, random SELECTs with some locality ---- */

typedef struct {
    void *map;
    const int32_t *ranks;
    int32_t n;
    uint64_t seed;
    long bad;
} worker_t;

static void *worker(void *arg)
{
    worker_t *w = arg;
    int32_t round, k;
    for (round = 0; round < 60; round++) {
        /* a burst in one block (hits), now and then anywhere (misses) */
        int32_t base = (int32_t) test_rand_below(&w->seed, (uint64_t) w->n);
        for (k = 0; k < 400; k++) {
            int32_t i = k % 50 == 49 ? (int32_t) test_rand_below(&w->seed, (uint64_t) w->n)
                                     : base / 1000 * 1000
                                           + (int32_t) test_rand_below(&w->seed, 1000);
            if (i >= w->n) {
                i = w->n - 1;
            }
            if (R->select(w->map, i) != w->ranks[i]) {
                w->bad++;
            }
        }
        if (0 == round % 20) {
            int32_t out[300], f = (int32_t) test_rand_below(&w->seed, (uint64_t) (w->n - 300));
            R->iterate(w->map, f, 300, out);
            w->bad += 0 != memcmp(out, w->ranks + f, sizeof(out));
        }
    }
    return NULL;
}

static void thread_test(const int32_t *ranks, int32_t n, int32_t world)
{
    void *map = build_ok(ranks, n, world);
    pthread_t t[4];
    worker_t w[4];
    int k;
    for (k = 0; k < 4; k++) {
        w[k] = (worker_t){map, ranks, n, 1000 + (uint64_t) k, 0};
        CHECK(0 == pthread_create(&t[k], NULL, worker, &w[k]), "pthread_create");
    }
    for (k = 0; k < 4; k++) {
        pthread_join(t[k], NULL);
        CHECK(0 == w[k].bad, "thread %d read %ld wrong values", k, w[k].bad);
    }
    R->release(map);
    printf("4 threads x 24,000 SELECTs (bursts in a block, 2%% anywhere) + iterations: "
           "all right\n");
}

int main(void)
{
    uint64_t s = 20260101;
    int32_t *r = xmalloc(sizeof(int32_t) * ((1 << 20) + 2)), i, n, world;
    grpmap_input_t in;
    void *map;

    /* no codec: declines everything */
    grpmap_bwt_set_codec(NULL);
    for (i = 0; i < 5000; i++) r[i] = 2 * i;
    CHECK(declines(r, 5000, 10000) && declines(r, 0, 1), "built without a codec");
    /* bzip2's working memory follows its block size (level 9: 7.6 MB to
     * compress, 3.6 MB to decompress), which AddressSanitizer maps and
     * poisons on every call: 1 (100 kB) is plenty for 4 KB blocks and makes
     * this test 4x faster; the streams read the same at any level */
    mca_compress_bzip2_block_size = 1;
    grpmap_bwt_set_codec(&mca_compress_bzip2_codec);

    /* empty, tiny worlds, one member, the last rank: the empty map is held,
     * anything under a few thousand members declines (a block's cache alone
     * is 4 bytes a member) */
    gm_check(R, r, 0, 1, 1, "empty");
    gm_check(R, r, 0, 1 << 20, 1, "empty, big world");
    r[0] = 0;
    CHECK(declines(r, 1, 1), "world 1");
    r[0] = 1;
    r[1] = 0;
    CHECK(declines(r, 2, 2), "world 2");
    r[0] = (1 << 20) - 1;
    CHECK(declines(r, 1, 1 << 20), "one member");
    for (i = 0; i < 999; i++) r[i] = 1000 - i;
    CHECK(declines(r, 999, 1001), "one block");

    /* whole worlds 2^20 and 2^20 + 1 (a last block of one) */
    for (i = 0; i <= 1 << 20; i++) r[i] = i;
    gm_check(R, r, 1 << 20, 1 << 20, 1, "whole world 2^20");
    gm_check(R, r, (1 << 20) + 1, (1 << 20) + 1, 1, "whole world 2^20+1");

    /* decreasing, strides, the last rank, the thesis's shapes */
    world = 200000;
    for (i = 0; i < 100000; i++) r[i] = world - 1 - 2 * i;
    gm_check(R, r, 100000, world, 1, "decreasing evens to the last rank");
    for (i = 0; i < 2327; i++) r[i] = 81 * i + 11453;
    r[2327] = world - 1;
    gm_check(R, r, 2328, world, 1, "81x+11453 and the last rank");
    for (i = 0; i < 100000; i++) r[i] = (i / 100) * 200 + i % 100;
    gm_check(R, r, 100000, world, 1, "alternate ranges of 100");
    n = 0;
    for (i = 0; i < world; i++) {
        if (0 == i % 3 || 0 == i % 5 || 0 == i % 7) r[n++] = i;
    }
    gm_check(R, r, n, world, 1, "multiples of 3, 5, 7");
    gm_random_set(&s, r, 50000, world);
    gm_check(R, r, 50000, world, 1, "random set 50,000");
    gm_random_set(&s, r, 20000, 1 << 20);
    gm_check(R, r, 20000, 1 << 20, 1, "random set 20,000 of 2^20");
    /* lists: ranges of 1000 listed in random order inside (one per block) */
    for (i = 0; i < 10000; i++) r[i] = (i / 1000) * 20000 + i % 1000;
    for (i = 0; i < 10; i++) gm_shuffle(&s, r + 1000 * i, 1000);
    gm_check(R, r, 10000, world, 1, "10 ranges of 1000 permuted inside");
    /* the matrix transpose (a permutation of the world) */
    for (i = 0; i < 40000; i++) r[i] = (i % 200) * 200 + i / 200;

    /* lists whose every block spans the world */
    check_scan(r, 40000, 40000, "200 x 200 transpose");
    gm_random_set(&s, r, 5000, 65536);
    gm_shuffle(&s, r, 5000);
    check_scan(r, 5000, 65536, "random list 5,000 of 2^16");
    for (i = 0; i < 30000; i++) r[i] = i;
    gm_shuffle(&s, r, 30000);
    check_scan(r, 30000, 30000, "random permutation 30,000");

    /* declines: too few to pay for a block's cache; incompressible (a
     * random list stored as its rank planes, raw, 4 bytes a member in a
     * world over 2^24) */
    for (i = 0; i < 1000; i++) r[i] = 2 * i;
    CHECK(declines(r, 1000, 2000), "evens 1,000 accepted");
    for (i = 0; i < 6000; i++) r[i] = (int32_t) (test_rand(&s) >> 33);   /* ~distinct */
    {
        int32_t *t = xmalloc(sizeof(int32_t) * 6000), d = 0;
        memcpy(t, r, sizeof(int32_t) * 6000);
        qsort(t, 6000, sizeof(int32_t), gm_cmp32);
        for (i = 1; i < 6000; i++) d += t[i] == t[i - 1];
        free(t);
        if (0 == d) {
            CHECK(declines(r, 6000, INT32_MAX), "random list of a 2^31 world accepted");
        }
    }

    /* the bound: a random 10,000-member list of a 200,000 world */
    {
        double lb = 0;
        size_t b;
        n = 10000;
        gm_random_set(&s, r, n, world);
        gm_shuffle(&s, r, n);
        check_scan(r, n, world, "random list 10,000 of 200,000");
        map = build_ok(r, n, world);
        b = R->bytes(map);
        for (i = 0; i < n; i++) lb += log2((double) (world - i));
        printf("random list 10,000 of 200,000: %zu bytes = %.3f bytes a member (8 dense, "
               "%.0f%%); lg(N!/(N-n)!) = %.0f bytes: %.2fx the bound\n",
               b, (double) b / n, 100.0 * b / (8.0 * n), lb / 8, b / (lb / 8));
        R->release(map);
    }

    /* a codec set later does not touch a map built before */
    for (i = 0; i < 5000; i++) r[i] = 3 * i;
    map = build_ok(r, 5000, 15000);
    grpmap_bwt_set_codec(NULL);
    CHECK(R->select(map, 4321) == 3 * 4321 && R->rank(map, 3 * 17) == 17, "codec swap");
    R->release(map);
    grpmap_bwt_set_codec(&mca_compress_bzip2_codec);

    /* the cache under 4 threads: 12 blocks of a random list; 3 blocks that
     * decompress fast (more installs racing with hits: in a counting build,
     * ~2,600 installs found the slot busy, and 2 reads saw the slot change
     * under them and decoded the block instead) */
    n = 12000;
    gm_random_set(&s, r, n, 65536);
    gm_shuffle(&s, r, n);
    thread_test(r, n, 65536);
    n = 3000;
    for (i = 0; i < n; i++) r[i] = 3 * i;
    thread_test(r, n, 9000);

    /* timing on a 100,000-member random list of a 200,000 world */
    {
        int32_t *idx = xmalloc(sizeof(int32_t) * 1000000);
        double ta, tr, ts, tsa;
        n = 100000;
        gm_random_set(&s, r, n, world);
        gm_shuffle(&s, r, n);
        grpmap_input_init(&in, r, n, world);
        {
            double t0 = test_now();
            map = build_ok(r, n, world);
            printf("build of 100,000 members: %.0f ms, %.3f bytes a member\n",
                   (test_now() - t0) * 1e3, (double) R->bytes(map) / n);
        }
        for (i = 0; i < 1000000; i++) idx[i] = (int32_t) test_rand_below(&s, (uint64_t) n);
        ta = gm_time(R, NULL, r, idx, 101, 1000000 / 101, GM_TIME_ARRAY);
        /* random SELECTs miss the cache ~99% of the time: 2,000 of them */
        tr = gm_time(R, map, r, idx, 21, 2000 / 21, GM_TIME_SELECT);
        for (i = 0; i < 1000000; i++) idx[i] = i % n;
        ts = gm_time(R, map, r, idx, 101, 1000000 / 101, GM_TIME_SELECT);
        tsa = gm_time(R, NULL, r, idx, 101, 1000000 / 101, GM_TIME_ARRAY);
        printf("timing: SELECT median ns, 100,000 members: random %.0f (2,000 SELECTs; int32 "
               "array %.1f over 10^6), in order %.1f (10^6; array %.1f)\n",
               tr, ta, ts, tsa);
        R->release(map);
        free(idx);
    }
    free(r);
    printf("grpmap_bwt_test: OK\n");
    return 0;
}
