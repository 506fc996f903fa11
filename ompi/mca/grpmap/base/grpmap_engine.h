/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * The strategy engine of grpmap (the space, time and hybrid strategies of
 * S. M. Mir Taheri, Scalability of Communicators in MPI, M.Sc., University
 * of British Columbia, 2011, section 3.8), plain C like the
 * representations so that unit tests and bench/grpmap_bench link it as is:
 * given the open representations, a map and a strategy, pick a form and
 * build it.  Unordered maps reach set representations through the
 * composite (a set and a permutation, Mir Taheri section 3.5).
 *
 *   space   the smallest form.  Forms that cannot estimate (estimate NULL:
 *           bdd, bwt) are built to be measured.
 *   time    every form is built and timed over 100 random SELECTs (best of
 *           three), the dense table included; the fastest wins.
 *   hybrid  the least W = alpha*ln(time) + (1-alpha)*ln(bytes) over the
 *           forms that can estimate, with each form's nominal SELECT cost:
 *           nothing is built but the pick (Mir Taheri built every
 *           candidate and named estimation as future work).
 * "dense" (the caller's pointer table, 8 bytes a member) is a candidate
 * unless no_dense is set, and the fallback when no form holds the map; the
 * result says so with repr == NULL.  A pick that declines
 * when built gives way to the next best.
 */
#ifndef OMPI_MCA_GRPMAP_ENGINE_H
#define OMPI_MCA_GRPMAP_ENGINE_H

#include "ompi/mca/grpmap/grpmap_repr.h"
#include "ompi/mca/grpmap/base/grpmap_cache.h"

enum { GRPMAP_STRATEGY_SPACE = 0, GRPMAP_STRATEGY_TIME = 1, GRPMAP_STRATEGY_HYBRID = 2 };

/* Nominal SELECT cost of the dense pointer table (ns), on the scale of
 * grpmap_repr_t.select_ns. */
#define GRPMAP_DENSE_SELECT_NS 1.0

typedef struct grpmap_handle {
    const grpmap_repr_t *repr;   /* NULL: dense */
    void *map;
    grpmap_cache_t *cache;       /* recent SELECTs (grpmap_base_cache), or NULL */
} grpmap_handle_t;

typedef struct grpmap_engine {
    const grpmap_repr_t *const *reprs;   /* LIST, SET and PERM forms */
    int nreprs;
    int strategy;
    double alpha;
    /* 1: the dense table is only the fallback when no form holds the map
     * (a representation forced with --mca grpmap <names>), not a rival */
    int no_dense;
    /* Optional report of each candidate and of the pick (verbose stream). */
    void (*report)(void *ctx, const char *line);
    void *report_ctx;
} grpmap_engine_t;

/*
 * Picks and builds a form for ranks[0..n) (distinct, each in [0, world)).
 * GRPMAP_OK with out->repr == NULL means: keep the dense table.  Returns
 * GRPMAP_ENOMEM only if memory ran out (nothing is left allocated).
 */
int grpmap_engine_build(const grpmap_engine_t *e, const int32_t *ranks, int32_t n, int32_t world,
                        grpmap_handle_t *out);

/* Builds one named form, composites too ("set+perm", e.g. "ef+wtr"). */
int grpmap_engine_build_named(const grpmap_engine_t *e, const char *name, const int32_t *ranks,
                              int32_t n, int32_t world, grpmap_handle_t *out);

static inline int32_t grpmap_handle_select(const grpmap_handle_t *h, int32_t i)
{
    if (NULL != h->cache) {
        return grpmap_cache_select(h->cache, h->repr->select, h->map, i);
    }
    return h->repr->select(h->map, i);
}

static inline void grpmap_handle_release(grpmap_handle_t *h)
{
    if (NULL != h->repr) {
        h->repr->release(h->map);
    }
    free(h->cache);
    h->repr = NULL;
    h->map = NULL;
    h->cache = NULL;
}

/* A handle's nominal SELECT cost (ns; a composite's is its parts' sum). */
double grpmap_handle_select_ns(const grpmap_handle_t *h);

/* The composite (built only by the engine: build is NULL) and the packed
 * permutation (ceil(lg n) bits an element; RANK scans). */
extern const grpmap_repr_t grpmap_composite_repr;
extern const grpmap_repr_t grpmap_packed_perm_repr;

/* Name of a handle's form: "dense", "lattice", "ef+wtr", ... into buf. */
const char *grpmap_handle_name(const grpmap_handle_t *h, char *buf, size_t len);

#endif
