/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * grpmap's translation caches (ompi/mca/grpmap/base/grpmap_cache.h)
 * against the uncached SELECT:
 *  - single thread: a linear cache of k holds the last k ranks (hits), the
 *    (k+1)-th distinct rank evicts round-robin; a set-associative cache
 *    maps rank r to set (r ^ (r >> 7)) & 127 and holds 8 ranks a set;
 *    1024 distinct ranks spread over the sets all hit on a second pass;
 *  - 4 threads, each 200,000 lookups of random ranks (half from a hot set
 *    of 32, half from 2^20) through one shared cache of each kind: every
 *    answer equals the reference, hits + misses = lookups.
 * Run under ASan + UBSan and, separately, ThreadSanitizer (grpmap-cache.sh).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "ompi/mca/grpmap/base/grpmap_cache.h"

#define NTHREADS 4
#define LOOKUPS 200000

static unsigned long selects;

/* a map whose SELECT is arithmetic, so any wrong cached value shows */
static int32_t ref_select(const void *map, int32_t r)
{
    (void) map;
    __atomic_fetch_add(&selects, 1, __ATOMIC_RELAXED);
    return (int32_t) (((uint32_t) r * 2654435761u) >> 1);
}

static unsigned long long hits, misses;

static int32_t sel(grpmap_cache_t *c, int32_t r)
{
    return grpmap_cache_select(c, ref_select, NULL, r);
}

static void single_thread(void)
{
    grpmap_cache_t *c;
    int32_t r, w;

    /* linear of 8 */
    c = grpmap_cache_new(GRPMAP_CACHE_LINEAR, 8, &hits, &misses);
    CHECK(NULL != c, "linear cache");
    for (r = 0; r < 8; r++) {
        CHECK(sel(c, r) == ref_select(NULL, r), "linear: rank %d", r);
    }
    hits = misses = 0;
    for (r = 0; r < 8; r++) {
        CHECK(grpmap_cache_find(c, r, &w) && w == ref_select(NULL, r), "linear: rank %d not held", r);
    }
    (void) sel(c, 100); /* evicts the first slot, rank 0 */
    CHECK(!grpmap_cache_find(c, 0, &w), "linear: rank 0 not evicted round-robin");
    CHECK(grpmap_cache_find(c, 1, &w) && grpmap_cache_find(c, 100, &w), "linear: eviction wrong");
    CHECK(1 == misses && 0 == hits, "linear: %llu misses %llu hits", misses, hits);
    CHECK(grpmap_cache_bytes(c) > 8 * 8, "linear bytes %zu", grpmap_cache_bytes(c));
    free(c);
    CHECK(NULL == grpmap_cache_new(GRPMAP_CACHE_LINEAR, 0, &hits, &misses), "linear of 0");
    CHECK(NULL == grpmap_cache_new(GRPMAP_CACHE_NONE, 8, &hits, &misses), "none");

    /* set-associative: the seed's hash */
    c = grpmap_cache_new(GRPMAP_CACHE_SETASSOC, 0, &hits, &misses);
    CHECK(NULL != c && 128 == c->sets && 8 == c->ways, "setassoc shape");
    for (r = 0; r < 100000; r += 37) {
        CHECK(grpmap_cache_set(c, r) == (((uint32_t) r ^ ((uint32_t) r >> 7)) & 127),
              "setassoc: set of %d", r);
    }
    /* 1024 ranks with 8 in every set (r = s * 128 ... hash spreads r <
     * 16384 evenly over the sets): all held */
    hits = misses = 0;
    for (r = 0; r < 1024; r++) {
        (void) sel(c, r);
    }
    for (r = 0; r < 1024; r++) {
        CHECK(sel(c, r) == ref_select(NULL, r), "setassoc: rank %d", r);
    }
    CHECK(1024 == misses && 1024 == hits, "setassoc: %llu misses %llu hits, expected 1024 each",
          misses, hits);
    free(c);
}

static grpmap_cache_t *shared;

static void *worker(void *arg)
{
    uint64_t s = (uint64_t) (uintptr_t) arg * 0x9e3779b97f4a7c15ull + 1;
    for (int i = 0; i < LOOKUPS; i++) {
        int32_t r;
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        r = (s & 1) ? (int32_t) ((s >> 8) & 31) : (int32_t) ((s >> 8) & ((1 << 20) - 1));
        CHECK(sel(shared, r) == ref_select(NULL, r), "thread: wrong translation of %d", r);
    }
    return NULL;
}

static void threads(int kind, int entries)
{
    pthread_t th[NTHREADS];
    hits = misses = 0;
    shared = grpmap_cache_new(kind, entries, &hits, &misses);
    CHECK(NULL != shared, "cache kind %d", kind);
    for (long t = 0; t < NTHREADS; t++) {
        CHECK(0 == pthread_create(&th[t], NULL, worker, (void *) (t + 1)), "pthread_create");
    }
    for (int t = 0; t < NTHREADS; t++) {
        pthread_join(th[t], NULL);
    }
    CHECK(hits + misses == (unsigned long long) NTHREADS * LOOKUPS,
          "kind %d: %llu hits + %llu misses != %d lookups", kind, hits, misses,
          NTHREADS * LOOKUPS);
    CHECK(hits > 0 && misses > 0, "kind %d: %llu hits, %llu misses", kind, hits, misses);
    printf("kind %s: %llu hits, %llu misses\n", GRPMAP_CACHE_LINEAR == kind ? "linear" : "setassoc",
           hits, misses);
    free(shared);
}

int main(void)
{
    single_thread();
    threads(GRPMAP_CACHE_LINEAR, 16);
    threads(GRPMAP_CACHE_SETASSOC, 0);
    printf("grpmap_cache_test: OK\n");
    return 0;
}
