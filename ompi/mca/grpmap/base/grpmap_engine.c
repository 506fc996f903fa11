/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * The strategy engine (see grpmap_engine.h), the composite form and the
 * packed permutation.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L   /* clock_gettime when built as plain C99 */
#endif
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ompi/mca/grpmap/base/grpmap_engine.h"
#include "ompi/mca/grpmap/grpmap_packed.h"

/* ------------------------------------------------------- packed permutation */

/* the ranks packed (grpmap_packed.h); RANK: any v below n is one */
static int32_t pperm_rank(const void *map, int32_t v)
{
    return grpmap_packed_map_rank(map, v, ((const grpmap_packed_map_t *) map)->n);
}

/* SELECT as the array form's (the same code) */
GRPMAP_PACKED_MAP_REPR(grpmap_packed_perm_repr, "packed", GRPMAP_KIND_PERM, 3.0, pperm_rank);

/* ---------------------------------------------------------------- composite */

typedef struct {
    grpmap_handle_t set, perm;
} composite_t;

/* built by grpmap_engine_build from its two parts, never on its own */
#define comp_estimate NULL
#define comp_build NULL

static int32_t comp_select(const void *map, int32_t i)
{
    const composite_t *c = map;
    return grpmap_handle_select(&c->set, grpmap_handle_select(&c->perm, i));
}

static int32_t comp_rank(const void *map, int32_t w)
{
    const composite_t *c = map;
    int32_t i = c->set.repr->rank(c->set.map, w);
    return GRPMAP_NOT_MEMBER == i ? i : c->perm.repr->rank(c->perm.map, i);
}

static void comp_iterate(const void *map, int32_t first, int32_t count, int32_t *out)
{
    const composite_t *c = map;
    int32_t i;
    c->perm.repr->iterate(c->perm.map, first, count, out);
    for (i = 0; i < count; i++) {
        out[i] = grpmap_handle_select(&c->set, out[i]);
    }
}

static size_t comp_bytes(const void *map)
{
    const composite_t *c = map;
    return sizeof(*c) + c->set.repr->bytes(c->set.map) + c->perm.repr->bytes(c->perm.map);
}

static void comp_release(void *map)
{
    composite_t *c = map;
    grpmap_handle_release(&c->set);
    grpmap_handle_release(&c->perm);
    free(c);
}

const grpmap_repr_t grpmap_composite_repr = {
    .name = "composite",
    .kind = GRPMAP_KIND_LIST,
    .select_ns = 0.0,   /* the sum of its parts' */
    GRPMAP_REPR_OPS(comp),
};

const char *grpmap_handle_name(const grpmap_handle_t *h, char *buf, size_t len)
{
    if (NULL == h->repr) {
        snprintf(buf, len, "dense");
    } else if (&grpmap_composite_repr == h->repr) {
        const composite_t *c = h->map;
        snprintf(buf, len, "%s+%s", c->set.repr->name, c->perm.repr->name);
    } else {
        snprintf(buf, len, "%s", h->repr->name);
    }
    return buf;
}

double grpmap_handle_select_ns(const grpmap_handle_t *h)
{
    if (NULL == h->repr) {
        return GRPMAP_DENSE_SELECT_NS;
    }
    if (&grpmap_composite_repr == h->repr) {
        const composite_t *c = h->map;
        return c->set.repr->select_ns + c->perm.repr->select_ns;
    }
    return h->repr->select_ns;
}

/* The sorted set and the permutation of an unordered map: sorted[j] is the
 * j-th smallest member, perm[g] the index in sorted of ranks[g].  LSD radix
 * sort of (rank << 32 | g) on the rank's two 16-bit halves: O(n), stable. */
typedef struct {
    int32_t *sorted, *perm;
} split_t;

static int split_map(const int32_t *ranks, int32_t n, split_t *s)
{
    uint64_t *a = malloc(sizeof(uint64_t) * (size_t) (n ? n : 1));
    uint64_t *b = malloc(sizeof(uint64_t) * (size_t) (n ? n : 1));
    size_t *cnt = malloc(sizeof(size_t) * 65536);
    int32_t i;
    int pass;
    s->sorted = malloc(sizeof(int32_t) * (size_t) (n ? n : 1));
    s->perm = malloc(sizeof(int32_t) * (size_t) (n ? n : 1));
    if (NULL == a || NULL == b || NULL == cnt || NULL == s->sorted || NULL == s->perm) {
        free(a);
        free(b);
        free(cnt);
        free(s->sorted);
        free(s->perm);
        return GRPMAP_ENOMEM;
    }
    for (i = 0; i < n; i++) {
        a[i] = (uint64_t) (uint32_t) ranks[i] << 32 | (uint32_t) i;
    }
    for (pass = 0; pass < 2; pass++) {
        unsigned sh = 32 + 16 * (unsigned) pass;
        size_t sum = 0, t;
        uint64_t *tmp;
        memset(cnt, 0, sizeof(size_t) * 65536);
        for (i = 0; i < n; i++) {
            cnt[(a[i] >> sh) & 0xffff]++;
        }
        for (t = 0; t < 65536; t++) {
            size_t c = cnt[t];
            cnt[t] = sum;
            sum += c;
        }
        for (i = 0; i < n; i++) {
            b[cnt[(a[i] >> sh) & 0xffff]++] = a[i];
        }
        tmp = a;
        a = b;
        b = tmp;
    }
    for (i = 0; i < n; i++) {
        s->sorted[i] = (int32_t) (a[i] >> 32);
        s->perm[(uint32_t) a[i]] = i;
    }
    free(a);
    free(b);
    free(cnt);
    return GRPMAP_OK;
}

/* --------------------------------------------------------------- candidates */

typedef struct {
    const grpmap_repr_t *repr;   /* NULL: dense */
    const grpmap_repr_t *perm;   /* composite: repr is the set part */
    size_t est;                  /* GRPMAP_DECLINES: unknown or declines */
    double ns;                   /* nominal, or measured (time strategy) */
    double score;
    int done;                    /* tried already */
} cand_t;

static void report(const grpmap_engine_t *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void report(const grpmap_engine_t *e, const char *fmt, ...)
{
    char line[256];
    va_list ap;
    if (NULL == e->report) {
        return;
    }
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    e->report(e->report_ctx, line);
}

static const char *cand_name(const cand_t *c, char *buf, size_t len)
{
    if (NULL == c->repr) {
        snprintf(buf, len, "dense");
    } else if (NULL != c->perm) {
        snprintf(buf, len, "%s+%s", c->repr->name, c->perm->name);
    } else {
        snprintf(buf, len, "%s", c->repr->name);
    }
    return buf;
}

/* Builds candidate c.  Composites split the map once (*split, lazily). */
static int cand_build(const cand_t *c, const grpmap_input_t *in, split_t *split,
                      grpmap_handle_t *out)
{
    int rc;
    out->repr = NULL;
    out->map = NULL;
    out->cache = NULL;
    if (NULL == c->repr) {
        return GRPMAP_OK;
    }
    if (NULL == c->perm) {
        rc = c->repr->build(in, &out->map);
        if (GRPMAP_OK == rc) {
            out->repr = c->repr;
        }
        return rc;
    }
    {
        grpmap_input_t sin, pin;
        composite_t *comp;
        if (NULL == split->sorted && GRPMAP_OK != split_map(in->ranks, in->n, split)) {
            return GRPMAP_ENOMEM;
        }
        comp = calloc(1, sizeof(*comp));
        if (NULL == comp) {
            return GRPMAP_ENOMEM;
        }
        grpmap_input_init(&sin, split->sorted, in->n, in->world);
        grpmap_input_init(&pin, split->perm, in->n, in->n);
        rc = c->repr->build(&sin, &comp->set.map);
        if (GRPMAP_OK != rc) {
            free(comp);
            return rc;
        }
        comp->set.repr = c->repr;
        rc = c->perm->build(&pin, &comp->perm.map);
        if (GRPMAP_OK != rc) {
            grpmap_handle_release(&comp->set);
            free(comp);
            return rc;
        }
        comp->perm.repr = c->perm;
        out->repr = &grpmap_composite_repr;
        out->map = comp;
        return GRPMAP_OK;
    }
}

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return 1e9 * (double) t.tv_sec + (double) t.tv_nsec;
}

/* Median-free, cheap: best of three runs of the same 100 random SELECTs. */
static double time_lookups(const grpmap_handle_t *h, const int32_t *ranks, int32_t n)
{
    int32_t idx[100];
    uint64_t s = 0x9e3779b97f4a7c15ull ^ (uint64_t) n;
    volatile int32_t sink = 0;
    double best = 1e300;
    int k, rep;
    for (k = 0; k < 100; k++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        idx[k] = (int32_t) ((s >> 33) % (uint64_t) n);
    }
    for (rep = 0; rep < 3; rep++) {
        double t0 = now_ns(), t;
        int32_t acc = 0;
        if (NULL == h->repr) {
            for (k = 0; k < 100; k++) {
                acc += ((volatile const int32_t *) ranks)[idx[k]];
            }
        } else {
            for (k = 0; k < 100; k++) {
                acc += grpmap_handle_select(h, idx[k]);
            }
        }
        sink += acc;
        t = (now_ns() - t0) / 100.0;
        if (t < best) {
            best = t;
        }
    }
    (void) sink;
    return best > 0.05 ? best : 0.05;
}

static int cand_cmp(const void *a, const void *b)
{
    const cand_t *x = a, *y = b;
    return (x->score > y->score) - (x->score < y->score);
}

int grpmap_engine_build(const grpmap_engine_t *e, const int32_t *ranks, int32_t n, int32_t world,
                        grpmap_handle_t *out)
{
    grpmap_input_t in, sin, pin;
    cand_t *c;
    int nc = 0, i, j, rc = GRPMAP_OK;
    split_t split = {NULL, NULL};
    char name[64];

    out->repr = NULL;
    out->map = NULL;
    out->cache = NULL;
    grpmap_input_init(&in, ranks, n, world);
    /* what estimates of a composite's parts see: order-free fields only
     * (ranks NULL; max_gap an upper bound) */
    sin = in;
    sin.ranks = NULL;
    sin.increasing = 1;
    sin.runs = n > 0;
    sin.max_gap = n > 1 ? in.max - in.min : 0;
    pin = in;
    pin.ranks = NULL;
    pin.world = n;
    pin.min = 0;
    pin.max = n - 1;
    pin.increasing = (1 == in.runs);
    pin.max_gap = 0;

    c = calloc((size_t) (1 + e->nreprs + e->nreprs * e->nreprs), sizeof(*c));
    if (NULL == c) {
        return GRPMAP_ENOMEM;
    }
    c[nc].repr = NULL;
    c[nc].est = 8 * (size_t) n;
    c[nc].ns = GRPMAP_DENSE_SELECT_NS;
    c[nc].done = e->no_dense;   /* still the fallback below */
    nc++;
    for (i = 0; i < e->nreprs; i++) {
        const grpmap_repr_t *r = e->reprs[i];
        if (GRPMAP_KIND_LIST == r->kind || (GRPMAP_KIND_SET == r->kind && in.increasing)) {
            c[nc].repr = r;
            c[nc].est = NULL != r->estimate ? r->estimate(&in) : GRPMAP_DECLINES;
            c[nc].ns = r->select_ns;
            if (NULL != r->estimate && GRPMAP_DECLINES == c[nc].est) {
                continue;   /* it said it would decline */
            }
            nc++;
        } else if (GRPMAP_KIND_SET == r->kind) {
            for (j = 0; j < e->nreprs; j++) {
                const grpmap_repr_t *p = e->reprs[j];
                size_t se, pe;
                if (GRPMAP_KIND_PERM != p->kind) {
                    continue;
                }
                se = NULL != r->estimate ? r->estimate(&sin) : GRPMAP_DECLINES;
                pe = NULL != p->estimate ? p->estimate(&pin) : GRPMAP_DECLINES;
                if ((NULL != r->estimate && GRPMAP_DECLINES == se)
                    || (NULL != p->estimate && GRPMAP_DECLINES == pe)) {
                    continue;
                }
                c[nc].repr = r;
                c[nc].perm = p;
                c[nc].est = GRPMAP_DECLINES == se || GRPMAP_DECLINES == pe
                                ? GRPMAP_DECLINES
                                : se + pe + sizeof(composite_t);
                c[nc].ns = r->select_ns + p->select_ns;
                nc++;
            }
        }
    }

    if (GRPMAP_STRATEGY_HYBRID == e->strategy) {
        /* forms that cannot estimate are built to be measured only when no
         * other form (nor the dense table) is in the running: a forced
         * bdd or bwt */
        int estimable = 0;
        for (i = 0; i < nc; i++) {
            estimable |= !c[i].done && GRPMAP_DECLINES != c[i].est;
        }
        for (i = 0; i < nc && !estimable; i++) {
            grpmap_handle_t h;
            if (c[i].done) {
                continue;
            }
            rc = cand_build(&c[i], &in, &split, &h);
            if (GRPMAP_ENOMEM == rc) {
                goto done;
            }
            rc = GRPMAP_OK;
            if (NULL == h.repr) {
                c[i].done = 1;   /* declined */
                continue;
            }
            c[i].est = h.repr->bytes(h.map);
            grpmap_handle_release(&h);
        }
        for (i = 0; i < nc; i++) {
            c[i].score = GRPMAP_DECLINES == c[i].est
                             ? HUGE_VAL
                             : e->alpha * log(c[i].ns) + (1.0 - e->alpha) * log((double) c[i].est + 1.0);
        }
    } else {
        /* space and time build what they cannot estimate (time: all) */
        for (i = 0; i < nc; i++) {
            grpmap_handle_t h;
            c[i].score = HUGE_VAL;
            if (GRPMAP_STRATEGY_SPACE == e->strategy && GRPMAP_DECLINES != c[i].est) {
                c[i].score = (double) c[i].est;
                continue;
            }
            rc = cand_build(&c[i], &in, &split, &h);
            if (GRPMAP_ENOMEM == rc) {
                goto done;
            }
            rc = GRPMAP_OK;
            if (NULL != c[i].repr && NULL == h.repr) {
                c[i].done = 1;   /* declined */
                continue;
            }
            if (NULL != h.repr) {
                c[i].est = h.repr->bytes(h.map);
            }
            if (GRPMAP_STRATEGY_TIME == e->strategy && n > 0) {
                c[i].ns = time_lookups(&h, ranks, n);
                c[i].score = c[i].ns;
            } else {
                c[i].score = (double) c[i].est;
            }
            grpmap_handle_release(&h);
        }
    }
    qsort(c, (size_t) nc, sizeof(*c), cand_cmp);
    for (i = 0; i < nc; i++) {
        if (!c[i].done && HUGE_VAL != c[i].score) {
            report(e, "  candidate %-14s bytes %10zu%s  select %8.2f ns%s", cand_name(&c[i], name, sizeof(name)),
                   c[i].est, GRPMAP_STRATEGY_HYBRID == e->strategy ? " (est)" : "",
                   c[i].ns, GRPMAP_STRATEGY_TIME == e->strategy ? " (measured)" : " (nominal)");
        }
    }
    for (i = 0; i < nc; i++) {
        if (c[i].done || HUGE_VAL == c[i].score) {
            continue;
        }
        rc = cand_build(&c[i], &in, &split, out);
        if (GRPMAP_ENOMEM == rc) {
            goto done;
        }
        if (GRPMAP_OK == rc) {
            report(e, "  pick %s (%zu bytes, dense %zu)", cand_name(&c[i], name, sizeof(name)),
                   NULL == out->repr ? 8 * (size_t) n : out->repr->bytes(out->map), 8 * (size_t) n);
            break;
        }
        report(e, "  %s declined when built; next", cand_name(&c[i], name, sizeof(name)));
        rc = GRPMAP_OK;
    }
    if (i == nc) {
        report(e, "  no form holds this map: dense");
    }
done:
    free(split.sorted);
    free(split.perm);
    free(c);
    return rc;
}

int grpmap_engine_build_named(const grpmap_engine_t *e, const char *name, const int32_t *ranks,
                              int32_t n, int32_t world, grpmap_handle_t *out)
{
    grpmap_input_t in;
    split_t split = {NULL, NULL};
    cand_t c = {0};
    const char *plus = strchr(name, '+');
    size_t setlen = NULL != plus ? (size_t) (plus - name) : strlen(name);
    int i, rc;

    out->repr = NULL;
    out->map = NULL;
    out->cache = NULL;
    if (0 == strcmp(name, "dense")) {
        return GRPMAP_OK;
    }
    for (i = 0; i < e->nreprs; i++) {
        if (strlen(e->reprs[i]->name) == setlen && 0 == strncmp(e->reprs[i]->name, name, setlen)) {
            c.repr = e->reprs[i];
        }
        if (NULL != plus && 0 == strcmp(e->reprs[i]->name, plus + 1)) {
            c.perm = e->reprs[i];
        }
    }
    if (NULL != plus && 0 == strcmp("packed", plus + 1)) {
        c.perm = &grpmap_packed_perm_repr;
    }
    if (NULL == c.repr || (NULL != plus && NULL == c.perm)) {
        return GRPMAP_DECLINE;
    }
    grpmap_input_init(&in, ranks, n, world);
    if ((NULL == c.perm && GRPMAP_KIND_LIST != c.repr->kind
         && !(GRPMAP_KIND_SET == c.repr->kind && in.increasing))
        || (NULL != c.perm
            && (GRPMAP_KIND_SET != c.repr->kind || GRPMAP_KIND_PERM != c.perm->kind))) {
        return GRPMAP_DECLINE;
    }
    rc = cand_build(&c, &in, &split, out);
    free(split.sorted);
    free(split.perm);
    return rc;
}
