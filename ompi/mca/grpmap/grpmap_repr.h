/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Representation contract of the grpmap framework: one compressed form of a
 * group map, group rank -> world rank.  Plain C (no Open MPI header), so that
 * every representation's core links into unit tests and benchmarks as is.
 *
 * A map is the list ranks[0..n) of distinct world ranks in group-rank order,
 * every one in [0, world).  Kinds:
 *   GRPMAP_KIND_LIST  any order;
 *   GRPMAP_KIND_SET   increasing maps only (a set: SELECT is the i-th
 *                     smallest member); unordered maps reach a set form
 *                     through the base's composite (set + permutation);
 *   GRPMAP_KIND_PERM  permutations of [0, n) only (world == n): the
 *                     permutation half of a composite.
 *
 * Contract of the functions (every representation, every input it accepts):
 * estimate(in): bytes build() would hold, from at most one pass over the
 *   ranks, exact or an upper bound; GRPMAP_DECLINES when build() would
 *   decline.  NULL when a representation cannot tell without building.
 * build(in, &map): GRPMAP_OK, GRPMAP_DECLINE (not its kind of map, or over a
 *   limit: nothing allocated, nothing leaked) or GRPMAP_ENOMEM.
 * select(map, i): ranks[i] for 0 <= i < n.
 * rank(map, w): the i with ranks[i] == w, or GRPMAP_NOT_MEMBER for any other
 *   w (any int, negative and >= world included).
 * iterate(map, first, count, out): out[k] = ranks[first + k], k < count.
 * bytes(map): every byte the map holds, its header included.
 * release(map): frees it.
 * select, rank, iterate and bytes are safe from concurrent threads; build
 * may be called from several threads at once.
 */
#ifndef OMPI_MCA_GRPMAP_REPR_H
#define OMPI_MCA_GRPMAP_REPR_H

#include <stddef.h>
#include <stdint.h>

#define GRPMAP_OK 0
#define GRPMAP_DECLINE 1
#define GRPMAP_ENOMEM (-1)
#define GRPMAP_NOT_MEMBER (-1)
#define GRPMAP_DECLINES SIZE_MAX

enum { GRPMAP_KIND_LIST = 0, GRPMAP_KIND_SET = 1, GRPMAP_KIND_PERM = 2 };

/* A map and what one pass over it tells (grpmap_input_init). */
typedef struct grpmap_input {
    const int32_t *ranks;
    int32_t n;
    int32_t world;      /* every rank is < world */
    int32_t min, max;   /* 0, -1 when n == 0 */
    int increasing;     /* ranks[i] < ranks[i + 1] for every i (n <= 1: 1) */
    int32_t max_gap;    /* largest ranks[i + 1] - ranks[i] when increasing, else 0 */
    int32_t runs;       /* maximal increasing runs (0 when n == 0) */
} grpmap_input_t;

typedef struct grpmap_repr {
    const char *name;
    int kind;
    /* Nominal SELECT cost in ns for the hybrid strategy's estimate (one
     * figure per representation, from bench/grpmap_bench; relative values
     * matter, not absolute ones). */
    double select_ns;
    size_t (*estimate)(const grpmap_input_t *in);
    int (*build)(const grpmap_input_t *in, void **map);
    int32_t (*select)(const void *map, int32_t i);
    int32_t (*rank)(const void *map, int32_t w);
    void (*iterate)(const void *map, int32_t first, int32_t count, int32_t *out);
    size_t (*bytes)(const void *map);
    void (*release)(void *map);
} grpmap_repr_t;

/* The operations of a representation table, from the functions named
 * prefix_estimate, prefix_build, prefix_select, prefix_rank,
 * prefix_iterate, prefix_bytes and prefix_release (signatures as in
 * grpmap_repr_t): each table writes its .name, .kind and .select_ns (with
 * where the figure comes from) and then GRPMAP_REPR_OPS(prefix).  A name
 * may be a macro: a form whose map is one malloc'ed block defines
 * prefix_release as free, one that cannot estimate defines prefix_estimate
 * as NULL.  Plain pointers as before: no wrapper between the caller and
 * select or rank. */
#define GRPMAP_REPR_OPS(prefix)                                                           \
    .estimate = prefix##_estimate, .build = prefix##_build, .select = prefix##_select,    \
    .rank = prefix##_rank, .iterate = prefix##_iterate, .bytes = prefix##_bytes,          \
    .release = prefix##_release

static inline void grpmap_input_init(grpmap_input_t *in, const int32_t *ranks, int32_t n,
                                     int32_t world)
{
    int32_t i, mn = 0, mx = -1, gap = 0, runs = n > 0;
    int inc = 1;
    if (n > 0) {
        mn = mx = ranks[0];
    }
    for (i = 1; i < n; i++) {
        int32_t a = ranks[i - 1], b = ranks[i];
        if (b < mn) mn = b;
        if (b > mx) mx = b;
        if (b < a) {
            inc = 0;
            runs++;
        } else if (b - a > gap) {
            gap = b - a;
        }
    }
    *in = (grpmap_input_t){.ranks = ranks, .n = n, .world = world, .min = mn, .max = mx,
                           .increasing = inc, .max_gap = inc ? gap : 0, .runs = runs};
}

/* Bits needed to write any value in [0, v]; 0 for v == 0. */
static inline int grpmap_bits(uint64_t v)
{
    return v ? 64 - __builtin_clzll(v) : 0;
}

/* Packed k-bit fields (0 <= k <= 57, so one unaligned 64-bit window holds a
 * field) in an array of 64-bit words; the array needs one spare word after
 * the last field: grpmap_packed_words(count, k) words. */
static inline size_t grpmap_packed_words(uint64_t count, int k)
{
    return (size_t) ((count * (uint64_t) k + 63) / 64) + 1;
}

static inline uint64_t grpmap_packed_get(const uint64_t *w, uint64_t i, int k)
{
    uint64_t bit = i * (uint64_t) k, lo = w[bit >> 6];
    unsigned sh = (unsigned) (bit & 63);
    uint64_t v = lo >> sh;
    if (sh + (unsigned) k > 64) {
        v |= w[(bit >> 6) + 1] << (64 - sh);
    }
    return k ? v & (~0ull >> (64 - k)) : 0;
}

/* Sets field i; the field must be zero before (arrays start calloc'ed).
 * GCC's -Warray-bounds cannot see that the second word exists whenever the
 * field crosses into it (grpmap_packed_words counts it): silenced here. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Warray-bounds"
#endif
static inline void grpmap_packed_put(uint64_t *w, uint64_t i, int k, uint64_t v)
{
    uint64_t bit = i * (uint64_t) k;
    unsigned sh = (unsigned) (bit & 63);
    if (0 == k) {
        return;
    }
    w[bit >> 6] |= v << sh;
    if (sh + (unsigned) k > 64) {
        w[(bit >> 6) + 1] |= v >> (64 - sh);
    }
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif /* OMPI_MCA_GRPMAP_REPR_H */
