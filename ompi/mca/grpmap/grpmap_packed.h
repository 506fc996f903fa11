/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * A map held as its ranks, each packed at k = bits(max) bits: the array
 * form (array/) and the composite's packed permutation (ceil(lg n) bits:
 * a permutation of [0, n) has max = n - 1; base/grpmap_engine.c).  Each
 * has its own RANK, grpmap_packed_map_rank with the bound it knows; the
 * rest is the same for both (GRPMAP_PACKED_MAP_REPR).  Plain C, like
 * grpmap_repr.h.
 */
#ifndef OMPI_MCA_GRPMAP_PACKED_H
#define OMPI_MCA_GRPMAP_PACKED_H

#include <stdlib.h>

#include "ompi/mca/grpmap/grpmap_repr.h"

typedef struct {
    int32_t n;
    int k;
    uint64_t w[];
} grpmap_packed_map_t;

static inline int grpmap_packed_map_k(const grpmap_input_t *in)
{
    return grpmap_bits(in->max > 0 ? (uint64_t) in->max : 0);
}

static inline size_t grpmap_packed_map_size(int32_t n, int k)
{
    return sizeof(grpmap_packed_map_t) + 8 * grpmap_packed_words((uint64_t) n, k);
}

static inline size_t grpmap_packed_map_estimate(const grpmap_input_t *in)
{
    return grpmap_packed_map_size(in->n, grpmap_packed_map_k(in));
}

static inline int grpmap_packed_map_build(const grpmap_input_t *in, void **out)
{
    int k = grpmap_packed_map_k(in);
    grpmap_packed_map_t *m = calloc(1, grpmap_packed_map_size(in->n, k));
    int32_t i;
    if (NULL == m) {
        return GRPMAP_ENOMEM;
    }
    m->n = in->n;
    m->k = k;
    for (i = 0; i < in->n; i++) {
        grpmap_packed_put(m->w, (uint64_t) i, k, (uint64_t) in->ranks[i]);
    }
    *out = m;
    return GRPMAP_OK;
}

static inline int32_t grpmap_packed_map_select(const void *map, int32_t i)
{
    const grpmap_packed_map_t *m = map;
    return (int32_t) grpmap_packed_get(m->w, (uint64_t) i, m->k);
}

/* RANK of a map whose members all lie in [0, limit), the bound its form
 * knows (array: 2^k, packed permutation: n): GRPMAP_NOT_MEMBER at once for
 * a w outside, else a scan (O(n)) */
static inline int32_t grpmap_packed_map_rank(const void *map, int32_t w, int64_t limit)
{
    const grpmap_packed_map_t *m = map;
    int32_t i;
    if (w < 0 || w >= limit) {
        return GRPMAP_NOT_MEMBER;
    }
    for (i = 0; i < m->n; i++) {
        if ((int32_t) grpmap_packed_get(m->w, (uint64_t) i, m->k) == w) {
            return i;
        }
    }
    return GRPMAP_NOT_MEMBER;
}

static inline void grpmap_packed_map_iterate(const void *map, int32_t first, int32_t count,
                                             int32_t *out)
{
    const grpmap_packed_map_t *m = map;
    int32_t i;
    for (i = 0; i < count; i++) {
        out[i] = (int32_t) grpmap_packed_get(m->w, (uint64_t) (first + i), m->k);
    }
}

static inline size_t grpmap_packed_map_bytes(const void *map)
{
    const grpmap_packed_map_t *m = map;
    return grpmap_packed_map_size(m->n, m->k);
}

/* Defines `const grpmap_repr_t var`, a packed map's table: its .name,
 * .kind and .select_ns, the operations above, and its form's own RANK
 * rank_fn (grpmap_packed_map_rank with its bound). */
#define GRPMAP_PACKED_MAP_REPR(var, name_, kind_, select_ns_, rank_fn)                    \
    const grpmap_repr_t var = {                                                           \
        .name = name_, .kind = kind_, .select_ns = select_ns_,                            \
        .estimate = grpmap_packed_map_estimate, .build = grpmap_packed_map_build,         \
        .select = grpmap_packed_map_select, .rank = rank_fn,                              \
        .iterate = grpmap_packed_map_iterate, .bytes = grpmap_packed_map_bytes,           \
        .release = free,                                                                  \
    }

#endif /* OMPI_MCA_GRPMAP_PACKED_H */
