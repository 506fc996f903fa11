/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * grpmap's base engine and the array component: array, blocks and the
 * packed permutation against the plain array (test/unit/grpmap_check.h);
 * composites (a set form + a permutation) built by the engine; the three
 * strategies on maps whose best form is known; decline fall-through.
 * Set and list forms of the other components are linked in when
 * GRPMAP_ALL is defined (test/unit/grpmap-engine.sh does when they exist).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ompi/mca/grpmap/grpmap_repr.h"
#include "ompi/mca/grpmap/base/grpmap_engine.h"
#include "ompi/mca/grpmap/array/grpmap_array.h"
#include "test/common/check.h"
#include "test/unit/grpmap_check.h"

/* A reference set form: the sorted members, binary search for RANK. */
typedef struct {
    int32_t n;
    int32_t v[];
} ref_t;

static size_t ref_estimate(const grpmap_input_t *in)
{
    return sizeof(ref_t) + 4 * (size_t) in->n;
}

static int ref_build(const grpmap_input_t *in, void **out)
{
    ref_t *r = malloc(ref_estimate(in));
    if (NULL == r) {
        return GRPMAP_ENOMEM;
    }
    r->n = in->n;
    memcpy(r->v, in->ranks, 4 * (size_t) in->n);
    *out = r;
    return GRPMAP_OK;
}

static int32_t ref_select(const void *m, int32_t i)
{
    return ((const ref_t *) m)->v[i];
}

static int32_t ref_rank(const void *m, int32_t w)
{
    const ref_t *r = m;
    int32_t lo = 0, hi = r->n - 1;
    while (lo <= hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (r->v[mid] == w) {
            return mid;
        }
        if (r->v[mid] < w) {
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    return GRPMAP_NOT_MEMBER;
}

static void ref_iterate(const void *m, int32_t first, int32_t count, int32_t *out)
{
    memcpy(out, ((const ref_t *) m)->v + first, 4 * (size_t) count);
}

static size_t ref_bytes(const void *m)
{
    return sizeof(ref_t) + 4 * (size_t) ((const ref_t *) m)->n;
}

static const grpmap_repr_t ref_set = {
    .name = "refset", .kind = GRPMAP_KIND_SET, .select_ns = 2.0, .estimate = ref_estimate,
    .build = ref_build, .select = ref_select, .rank = ref_rank, .iterate = ref_iterate,
    .bytes = ref_bytes, .release = free,
};

/* A form that always declines once built (estimate says it is tiny). */
static size_t liar_estimate(const grpmap_input_t *in)
{
    (void) in;
    return 1;
}

static int liar_build(const grpmap_input_t *in, void **out)
{
    (void) in;
    (void) out;
    return GRPMAP_DECLINE;
}

static const grpmap_repr_t liar = {
    .name = "liar", .kind = GRPMAP_KIND_LIST, .select_ns = 1.0, .estimate = liar_estimate,
    .build = liar_build, .select = ref_select, .rank = ref_rank, .iterate = ref_iterate,
    .bytes = ref_bytes, .release = free,
};

/* Checks an engine-built handle against the array (the composite has no
 * build of its own, so gm_check cannot build it). */
static void check_handle(const grpmap_handle_t *h, const int32_t *ranks, int32_t n, int32_t world,
                         const char *what)
{
    int32_t i, *out = xmalloc(4 * (size_t) (n + 1));
    CHECK(NULL != h->repr, "%s: dense", what);
    for (i = 0; i < n; i++) {
        CHECK(h->repr->select(h->map, i) == ranks[i], "%s: select(%d)", what, i);
    }
    /* RANK of the packed permutation scans: sampled */
    for (i = 0; i < n; i += 1 + n / gm_rank_checks) {
        CHECK(h->repr->rank(h->map, ranks[i]) == i, "%s: rank(%d)", what, ranks[i]);
    }
    CHECK(GRPMAP_NOT_MEMBER == h->repr->rank(h->map, -1), "%s: rank(-1)", what);
    CHECK(GRPMAP_NOT_MEMBER == h->repr->rank(h->map, world), "%s: rank(world)", what);
    h->repr->iterate(h->map, 0, n, out);
    CHECK(0 == n || 0 == memcmp(out, ranks, 4 * (size_t) n), "%s: iterate", what);
    if (n > 3) {
        h->repr->iterate(h->map, 1, n - 2, out);
        CHECK(0 == memcmp(out, ranks + 1, 4 * (size_t) (n - 2)), "%s: iterate(1, n-2)", what);
    }
    CHECK(h->repr->bytes(h->map) > 0, "%s: bytes", what);
    free(out);
}

static void reporter(void *ctx, const char *line)
{
    (void) ctx;
    (void) line;
}

int main(void)
{
    uint64_t s = 42;
    int32_t *r = xmalloc(4 * (1 << 21)), *perm = xmalloc(4 * (1 << 21));
    int32_t n, i, k, world;
    char what[128], name[64];
    const grpmap_repr_t *forms[] = {&grpmap_array_repr, &grpmap_blocks_repr, &ref_set,
                                    &grpmap_packed_perm_repr};
    grpmap_engine_t e = {.reprs = forms, .nreprs = 4, .strategy = GRPMAP_STRATEGY_SPACE,
                         .alpha = 0.25, .report = reporter};
    grpmap_handle_t h;

    /* RANK of array, blocks and packed scans: sample it on big maps */
    gm_rank_checks = 512;

    /* edge cases for array and blocks */
    {
        int32_t one[1] = {0}, last[1] = {(1 << 20)};
        CHECK(GRPMAP_OK == gm_check(&grpmap_array_repr, r, 0, 10, 1, "empty"), "array empty");
        CHECK(GRPMAP_OK == gm_check(&grpmap_blocks_repr, r, 0, 10, 1, "empty"), "blocks empty");
        CHECK(GRPMAP_OK == gm_check(&grpmap_array_repr, one, 1, 1, 1, "world=1"), "array 1");
        CHECK(GRPMAP_OK == gm_check(&grpmap_blocks_repr, one, 1, 1, 1, "world=1"), "blocks 1");
        CHECK(GRPMAP_OK == gm_check(&grpmap_array_repr, last, 1, (1 << 20) + 1, 1, "last"), "a");
        CHECK(GRPMAP_OK == gm_check(&grpmap_blocks_repr, last, 1, (1 << 20) + 1, 1, "last"), "b");
    }
    for (world = 1; world <= (1 << 20) + 1; world = world < 3 ? world + 1 : world * 4 + 1) {
        for (i = 0; i < world; i++) {
            r[i] = i;
        }
        snprintf(what, sizeof(what), "whole world %d", world);
        CHECK(GRPMAP_OK == gm_check(&grpmap_array_repr, r, world, world, 1, what), "%s", what);
        CHECK(GRPMAP_OK == gm_check(&grpmap_blocks_repr, r, world, world, 1, what), "%s", what);
        gm_shuffle(&s, r, world);
        snprintf(what, sizeof(what), "shuffled world %d", world);
        CHECK(GRPMAP_OK == gm_check(&grpmap_array_repr, r, world, world, 1, what), "%s", what);
        CHECK(GRPMAP_OK == gm_check(&grpmap_packed_perm_repr, r, world, world, 1, what), "%s",
              what);
    }
    /* random lists: array holds all; blocks declines most */
    for (k = 0; k < 200; k++) {
        world = 1 + (int32_t) test_rand_below(&s, 5000);
        n = (int32_t) test_rand_below(&s, (uint64_t) world + 1);
        gm_random_set(&s, r, n, world);
        if (k & 1) {
            gm_shuffle(&s, r, n);
        }
        snprintf(what, sizeof(what), "random %d of %d", n, world);
        CHECK(GRPMAP_OK == gm_check(&grpmap_array_repr, r, n, world, 1, what), "%s", what);
        (void) gm_check(&grpmap_blocks_repr, r, n, world, 0, what);
    }
    /* ranges permuted inside (the thesis's patterns 13 and 14), in a
     * random order of ranges, with in-order ranges between */
    for (k = 0; k < 40; k++) {
        int32_t nr = 1 + (int32_t) test_rand_below(&s, 12), len = 1 + (int32_t) test_rand_below(&s, 3000);
        int32_t *start = xmalloc(4 * (size_t) nr), *order = xmalloc(4 * (size_t) nr);
        world = nr * len * 3 + 7;
        for (i = 0; i < nr; i++) {
            start[i] = i * len * 3 + (int32_t) test_rand_below(&s, (uint64_t) len);
            order[i] = i;
        }
        gm_shuffle(&s, order, nr);
        n = 0;
        for (i = 0; i < nr; i++) {
            int32_t j;
            for (j = 0; j < len; j++) {
                r[n + j] = start[order[i]] + j;
            }
            if (i % 3 != 2) {
                gm_shuffle(&s, r + n, len);
            }
            n += len;
        }
        snprintf(what, sizeof(what), "%d ranges of %d permuted inside", nr, len);
        CHECK(GRPMAP_OK == gm_check(&grpmap_blocks_repr, r, n, world, 1, what), "%s", what);
        {
            grpmap_input_t in;
            void *m;
            int bits = grpmap_bits((uint64_t) len - 1);
            grpmap_input_init(&in, r, n, world);
            CHECK(GRPMAP_OK == grpmap_blocks_repr.build(&in, &m), "%s", what);
            /* members at lg(len) bits, plus per-range overhead */
            CHECK(grpmap_blocks_repr.bytes(m) <= (size_t) n * bits / 8 + 48 * (size_t) nr + 64,
                  "%s: %zu bytes", what, grpmap_blocks_repr.bytes(m));
            grpmap_blocks_repr.release(m);
        }
        free(start);
        free(order);
    }
    /* skewed ranges: a few long ones among many of 1-3 members, so that
     * blocks' guide buckets hold many segment starts (its walk and binary
     * search fallback), in order or permuted inside, gaps of 1-2 between */
    for (k = 0; k < 40; k++) {
        int32_t w = 0, seg = 0;
        n = 0;
        while (n < 60000) {
            int32_t len = 0 == seg % 25 ? 1 + (int32_t) test_rand_below(&s, 5000)
                                        : 1 + (int32_t) test_rand_below(&s, 3), j;
            for (j = 0; j < len; j++) {
                r[n + j] = w + j;
            }
            if (seg % 2) {
                gm_shuffle(&s, r + n, len);
            }
            n += len;
            w += len + 1 + (int32_t) test_rand_below(&s, 2);
            seg++;
        }
        snprintf(what, sizeof(what), "%d skewed ranges, %d members", seg, n);
        CHECK(GRPMAP_OK == gm_check(&grpmap_blocks_repr, r, n, w, 1, what), "%s", what);
    }

    /* composites: sets in random order through the engine */
    for (k = 0; k < 100; k++) {
        world = 2 + (int32_t) test_rand_below(&s, 100000);
        n = 1 + (int32_t) test_rand_below(&s, (uint64_t) world);
        gm_random_set(&s, r, n, world);
        gm_shuffle(&s, r, n);
        snprintf(what, sizeof(what), "composite %d of %d", n, world);
        CHECK(GRPMAP_OK == grpmap_engine_build_named(&e, "refset+packed", r, n, world, &h), "%s", what);
        CHECK(&grpmap_composite_repr == h.repr, "%s: not a composite", what);
        CHECK(0 == strcmp("refset+packed", grpmap_handle_name(&h, name, sizeof(name))), "name %s", name);
        check_handle(&h, r, n, world, what);
        grpmap_handle_release(&h);
    }
    /* named builds refuse what cannot fit */
    for (i = 0; i < 100; i++) {
        r[i] = 99 - i;
    }
    CHECK(GRPMAP_DECLINE == grpmap_engine_build_named(&e, "refset", r, 100, 100, &h), "set of a list");
    CHECK(GRPMAP_DECLINE == grpmap_engine_build_named(&e, "nosuch", r, 100, 100, &h), "unknown");
    CHECK(GRPMAP_OK == grpmap_engine_build_named(&e, "dense", r, 100, 100, &h) && NULL == h.repr, "dense");

    /* strategies */
    for (i = 0; i < 100000; i++) {
        r[i] = 2 * i;   /* evens: refset 400 KB, array 18 bits a member, blocks declines */
    }
    e.strategy = GRPMAP_STRATEGY_SPACE;
    CHECK(GRPMAP_OK == grpmap_engine_build(&e, r, 100000, 200000, &h), "space");
    CHECK(&grpmap_array_repr == h.repr, "space picked %s", grpmap_handle_name(&h, name, sizeof(name)));
    check_handle(&h, r, 100000, 200000, "space evens");
    grpmap_handle_release(&h);
    e.strategy = GRPMAP_STRATEGY_HYBRID;
    CHECK(GRPMAP_OK == grpmap_engine_build(&e, r, 100000, 200000, &h), "hybrid");
    CHECK(&grpmap_array_repr == h.repr, "hybrid picked %s", grpmap_handle_name(&h, name, sizeof(name)));
    grpmap_handle_release(&h);
    e.alpha = 1.0;   /* time only: the dense table's nominal 1 ns wins */
    CHECK(GRPMAP_OK == grpmap_engine_build(&e, r, 100000, 200000, &h) && NULL == h.repr,
          "hybrid alpha 1 picked %s", grpmap_handle_name(&h, name, sizeof(name)));
    e.alpha = 0.25;
    e.strategy = GRPMAP_STRATEGY_TIME;
    CHECK(GRPMAP_OK == grpmap_engine_build(&e, r, 100000, 200000, &h), "time");
    if (NULL != h.repr) {
        check_handle(&h, r, 100000, 200000, "time evens");
    }
    printf("time strategy on evens of 200000: %s\n", grpmap_handle_name(&h, name, sizeof(name)));
    grpmap_handle_release(&h);
    /* a pick that declines when built gives way to the next */
    {
        const grpmap_repr_t *f2[] = {&liar, &grpmap_array_repr};
        grpmap_engine_t e2 = {.reprs = f2, .nreprs = 2, .strategy = GRPMAP_STRATEGY_HYBRID,
                              .alpha = 0.25};
        CHECK(GRPMAP_OK == grpmap_engine_build(&e2, r, 1000, 2000, &h), "liar");
        CHECK(&grpmap_array_repr == h.repr, "after the liar: %s", grpmap_handle_name(&h, name, sizeof(name)));
        grpmap_handle_release(&h);
    }
    /* unordered: random permutation of 50,000 of 200,000: array (n lg N)
     * beats refset+packed (32n + n lg n) */
    gm_random_set(&s, r, 50000, 200000);
    gm_shuffle(&s, r, 50000);
    e.strategy = GRPMAP_STRATEGY_HYBRID;
    CHECK(GRPMAP_OK == grpmap_engine_build(&e, r, 50000, 200000, &h), "hybrid unordered");
    CHECK(&grpmap_array_repr == h.repr, "hybrid unordered picked %s", grpmap_handle_name(&h, name, sizeof(name)));
    check_handle(&h, r, 50000, 200000, "hybrid unordered");
    grpmap_handle_release(&h);
    free(r);
    free(perm);
    printf("grpmap_engine_test: OK\n");
    return 0;
}
