/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Translation caches of S. Kumar, P. Heidelberger and C. Stunkel, Space
 * Performance Tradeoffs in Compressing MPI Group Data Structures, EuroMPI
 * '16 (section 4): recent group rank -> world
 * rank translations of one compressed map, so that a SELECT dearer than a
 * table read is not paid again for the peers a process keeps talking to.
 *   linear    k entries (8 or 16) searched in order;
 *   setassoc  S = 128 sets of 8, the set of rank r being
 *             (r ^ (r >> HASH_BITS)) & HASH_MASK (HASH_BITS = 7).
 * Both replace round-robin.  Readers take no lock: an entry is one 64-bit
 * word, (rank + 1) << 32 | world rank, written and read whole (atomic
 * relaxed stores and loads), so a reader sees an old entry or a new one,
 * never half of each; 0 is empty.  The round-robin cursors are read and
 * written as separate relaxed accesses, not a read-modify-write: two
 * writers may pick the same victim, which costs a miss later, never a
 * wrong answer.
 *
 * Plain C with no Open MPI dependency (test/unit/grpmap_cache_test.c runs
 * it against a reference from 4 threads).
 */
#ifndef OMPI_MCA_GRPMAP_CACHE_H
#define OMPI_MCA_GRPMAP_CACHE_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

enum { GRPMAP_CACHE_NONE = 0, GRPMAP_CACHE_LINEAR = 1, GRPMAP_CACHE_SETASSOC = 2 };

#define GRPMAP_CACHE_SETS 128
#define GRPMAP_CACHE_HASH_BITS 7
#define GRPMAP_CACHE_WAYS 8

typedef struct grpmap_cache {
    uint32_t sets;               /* 1 (linear) or GRPMAP_CACHE_SETS */
    uint32_t ways;               /* entries a set */
    unsigned long long *hits;    /* counters to add to (relaxed atomics) */
    unsigned long long *misses;
    uint8_t *next;               /* round-robin victim of each set */
    uint64_t e[];                /* sets * ways entries */
} grpmap_cache_t;

/* A cache of the kind (linear: entries k, 1..255), counting into hits and
 * misses; NULL when kind is NONE or memory is short (the map then works
 * uncached). */
static inline grpmap_cache_t *grpmap_cache_new(int kind, int entries, unsigned long long *hits,
                                               unsigned long long *misses)
{
    uint32_t sets, ways;
    grpmap_cache_t *c;
    if (GRPMAP_CACHE_LINEAR == kind && entries >= 1 && entries <= 255) {
        sets = 1;
        ways = (uint32_t) entries;
    } else if (GRPMAP_CACHE_SETASSOC == kind) {
        sets = GRPMAP_CACHE_SETS;
        ways = GRPMAP_CACHE_WAYS;
    } else {
        return NULL;
    }
    c = calloc(1, sizeof(*c) + (size_t) sets * ways * sizeof(uint64_t) + sets);
    if (NULL != c) {
        c->sets = sets;
        c->ways = ways;
        c->hits = hits;
        c->misses = misses;
        c->next = (uint8_t *) (c->e + (size_t) sets * ways);
    }
    return c;
}

static inline size_t grpmap_cache_bytes(const grpmap_cache_t *c)
{
    return NULL == c ? 0 : sizeof(*c) + (size_t) c->sets * c->ways * sizeof(uint64_t) + c->sets;
}

static inline uint32_t grpmap_cache_set(const grpmap_cache_t *c, int32_t r)
{
    uint32_t u = (uint32_t) r;
    return 1 == c->sets ? 0
                        : (u ^ (u >> GRPMAP_CACHE_HASH_BITS)) & (GRPMAP_CACHE_SETS - 1);
}

/* 1 and *world when rank r's translation is cached, else 0.  r >= 0 (a
 * group rank): the key of -1 would be 0, the empty entry. */
static inline int grpmap_cache_find(const grpmap_cache_t *c, int32_t r, int32_t *world)
{
    const uint64_t *row = c->e + (size_t) grpmap_cache_set(c, r) * c->ways;
    const uint64_t key = (uint64_t) ((uint32_t) r + 1u) << 32;
    uint32_t i;
    for (i = 0; i < c->ways; i++) {
        uint64_t v = __atomic_load_n(&row[i], __ATOMIC_RELAXED);
        if ((v & 0xffffffff00000000ull) == key) {
            *world = (int32_t) (uint32_t) v;
            return 1;
        }
    }
    return 0;
}

static inline void grpmap_cache_put(grpmap_cache_t *c, int32_t r, int32_t world)
{
    uint32_t set = grpmap_cache_set(c, r), way = __atomic_load_n(&c->next[set], __ATOMIC_RELAXED);
    if (way >= c->ways) {
        way = 0;
    }
    __atomic_store_n(&c->next[set], (uint8_t) (way + 1 == c->ways ? 0 : way + 1), __ATOMIC_RELAXED);
    __atomic_store_n(&c->e[(size_t) set * c->ways + way],
                     ((uint64_t) ((uint32_t) r + 1u) << 32) | (uint32_t) world, __ATOMIC_RELAXED);
}

/* SELECT through the cache: select(map, r) on a miss, remembered. */
static inline int32_t grpmap_cache_select(grpmap_cache_t *c, int32_t (*select)(const void *, int32_t),
                                          const void *map, int32_t r)
{
    int32_t w;
    if (grpmap_cache_find(c, r, &w)) {
        __atomic_fetch_add(c->hits, 1, __ATOMIC_RELAXED);
        return w;
    }
    w = select(map, r);
    grpmap_cache_put(c, r, w);
    __atomic_fetch_add(c->misses, 1, __ATOMIC_RELAXED);
    return w;
}

#endif
