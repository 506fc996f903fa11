/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * array: ranks[i] packed at k = bits(max member) bits (the thesis's
 * optimised canonical array, §4.3.1: 3-4 ns slower than an int array).
 * RANK scans (O(n)): the framework answers bulk translations with a sorted
 * copy instead (see base/grpmap_engine.h).
 *
 * blocks: the member set's maximal world ranges [w0, w0 + len), each
 * listed by one stretch of group ranks in any order; a range holds its
 * members as offsets from w0 at bits(len - 1) bits each, or nothing when
 * listed in order.  So ranges in order cost a few words, and ranges
 * permuted inside (patterns 13, 14) cost sum(len * lg len) bits, the
 * information bound to within the rounding of lg.  SELECT: binary search
 * of the segment, one field; RANK: binary search of the range, a scan of
 * that segment.  Estimate and build take two passes and a temporary bitmap
 * of [min, max] (maps spread over more than 64 ranks a member decline).
 */
#include <stdlib.h>
#include <string.h>

#include "ompi/mca/grpmap/array/grpmap_array.h"

/* ------------------------------------------------------------------ array */

typedef struct {
    int32_t n;
    int k;
    uint64_t w[];
} array_map_t;

static size_t array_size(int32_t n, int32_t max)
{
    return sizeof(array_map_t)
           + 8 * grpmap_packed_words((uint64_t) n, grpmap_bits(max > 0 ? (uint64_t) max : 0));
}

static size_t array_estimate(const grpmap_input_t *in)
{
    return array_size(in->n, in->max);
}

static int array_build(const grpmap_input_t *in, void **out)
{
    size_t sz = array_size(in->n, in->max);
    array_map_t *m = calloc(1, sz);
    int32_t i;
    if (NULL == m) {
        return GRPMAP_ENOMEM;
    }
    m->n = in->n;
    m->k = grpmap_bits(in->max > 0 ? (uint64_t) in->max : 0);
    for (i = 0; i < in->n; i++) {
        grpmap_packed_put(m->w, (uint64_t) i, m->k, (uint64_t) in->ranks[i]);
    }
    *out = m;
    return GRPMAP_OK;
}

static int32_t array_select(const void *map, int32_t i)
{
    const array_map_t *m = map;
    return (int32_t) grpmap_packed_get(m->w, (uint64_t) i, m->k);
}

static int32_t array_rank(const void *map, int32_t w)
{
    const array_map_t *m = map;
    int32_t i;
    if (w < 0 || (m->k < 31 && (uint64_t) w >> m->k)) {
        return GRPMAP_NOT_MEMBER;
    }
    for (i = 0; i < m->n; i++) {
        if ((int32_t) grpmap_packed_get(m->w, (uint64_t) i, m->k) == w) {
            return i;
        }
    }
    return GRPMAP_NOT_MEMBER;
}

static void array_iterate(const void *map, int32_t first, int32_t count, int32_t *out)
{
    const array_map_t *m = map;
    int32_t i;
    for (i = 0; i < count; i++) {
        out[i] = (int32_t) grpmap_packed_get(m->w, (uint64_t) (first + i), m->k);
    }
}

static size_t array_bytes(const void *map)
{
    const array_map_t *m = map;
    return sizeof(array_map_t) + 8 * grpmap_packed_words((uint64_t) m->n, m->k);
}

const grpmap_repr_t grpmap_array_repr = {
    .name = "array",
    .kind = GRPMAP_KIND_LIST,
    .select_ns = 3.0,
    .estimate = array_estimate,
    .build = array_build,
    .select = array_select,
    .rank = array_rank,
    .iterate = array_iterate,
    .bytes = array_bytes,
    .release = free,
};

/* ----------------------------------------------------------------- blocks */

#define BLK_IDENTITY 255

typedef struct {
    int32_t g0;     /* first group rank of the segment */
    int32_t w0;     /* lowest world rank of its range */
    uint32_t len;
    uint8_t k;      /* bits a member, BLK_IDENTITY: listed in order */
    uint64_t off;   /* first word of its fields in w[] */
} blk_seg_t;

typedef struct {
    int32_t n, nseg;
    blk_seg_t *seg;     /* in group order */
    int32_t *by_w;      /* segment numbers in increasing w0 */
    uint64_t *w;
    size_t nwords;
} blocks_map_t;

static int32_t blocks_divisor = 64;

void grpmap_blocks_set_divisor(int32_t divisor)
{
    blocks_divisor = divisor > 0 ? divisor : 1;
}

static int32_t blocks_limit(int32_t n)
{
    int32_t l = n / blocks_divisor;
    return l < 16 ? 16 : l;
}

/* The segments: the maximal world ranges (runs) of the member set, each of
 * which must fill one stretch of group ranks.  A bitmap of [min, max]
 * (declined above 64 bits a member: the form could not pay for it) gives
 * each run's bounds; a second pass checks that group order visits runs one
 * at a time and notes which are listed in order.  Counts and sizes
 * (words of fields) the segments, recording them when seg != NULL;
 * returns limit + 1 past the limit or when the map is not of this shape. */
static int32_t blocks_scan(const grpmap_input_t *in, int32_t limit, blk_seg_t *seg,
                           uint64_t *words)
{
    int32_t i = 0, ns = 0, n = in->n;
    const int32_t *r = in->ranks;
    uint64_t nw = 0, span, *bm;
    if (0 == n) {
        if (NULL != words) {
            *words = 0;
        }
        return 0;
    }
    span = (uint64_t) ((int64_t) in->max - in->min) + 1;
    if (span > 64 * (uint64_t) n) {
        return limit + 1;
    }
    bm = calloc((size_t) (span / 64 + 2), 8);
    if (NULL == bm) {
        return limit + 1;
    }
    for (i = 0; i < n; i++) {
        uint64_t b = (uint64_t) (r[i] - in->min);
        bm[b >> 6] |= 1ull << (b & 63);
    }
    for (i = 0; i < n;) {
        int64_t v = (int64_t) r[i] - in->min, a = v, e = v, len, j;
        int in_order = 1;
        /* run bounds [a, e] around v (each run is walked once) */
        while (a > 0 && (bm[(a - 1) >> 6] >> ((a - 1) & 63) & 1)) {
            a--;
        }
        while ((uint64_t) e + 1 < span && (bm[(e + 1) >> 6] >> ((e + 1) & 63) & 1)) {
            e++;
        }
        len = e - a + 1;
        if (len > n - i || ns == limit) {
            free(bm);
            return limit + 1;
        }
        for (j = 0; j < len; j++) {
            int64_t x = (int64_t) r[i + j] - in->min;
            if (x < a || x > e) {
                free(bm);
                return limit + 1;   /* the run is not one stretch of group ranks */
            }
            in_order &= (x == a + j);
        }
        if (NULL != seg) {
            seg[ns].g0 = i;
            seg[ns].w0 = (int32_t) (a + in->min);
            seg[ns].len = (uint32_t) len;
            seg[ns].k = in_order ? BLK_IDENTITY : (uint8_t) grpmap_bits((uint64_t) len - 1);
            seg[ns].off = nw;
        }
        if (!in_order) {
            nw += grpmap_packed_words((uint64_t) len, grpmap_bits((uint64_t) len - 1));
        }
        ns++;
        i += (int32_t) len;
    }
    free(bm);
    if (NULL != words) {
        *words = nw;
    }
    return ns;
}

static size_t blocks_size(int32_t ns, uint64_t nw)
{
    return sizeof(blocks_map_t) + (size_t) ns * (sizeof(blk_seg_t) + sizeof(int32_t))
           + (size_t) (nw + 1) * 8;
}

static size_t blocks_estimate(const grpmap_input_t *in)
{
    uint64_t nw = 0;
    int32_t limit = blocks_limit(in->n), ns = blocks_scan(in, limit, NULL, &nw);
    return ns > limit ? GRPMAP_DECLINES : blocks_size(ns, nw);
}

static void blocks_release(void *map)
{
    blocks_map_t *m = map;
    if (NULL != m) {
        free(m->seg);
        free(m->by_w);
        free(m->w);
        free(m);
    }
}

static int blocks_build(const grpmap_input_t *in, void **out)
{
    uint64_t nw = 0;
    int32_t limit = blocks_limit(in->n), ns = blocks_scan(in, limit, NULL, &nw), b, i;
    blocks_map_t *m;
    if (ns > limit) {
        return GRPMAP_DECLINE;
    }
    m = calloc(1, sizeof(*m));
    if (NULL == m) {
        return GRPMAP_ENOMEM;
    }
    m->n = in->n;
    m->nseg = ns;
    m->nwords = (size_t) nw;
    m->seg = malloc(sizeof(blk_seg_t) * (size_t) (ns ? ns : 1));
    m->by_w = malloc(sizeof(int32_t) * (size_t) (ns ? ns : 1));
    m->w = calloc(nw + 1, 8);   /* +1: never a zero-size allocation */
    if (NULL == m->seg || NULL == m->by_w || NULL == m->w) {
        blocks_release(m);
        return GRPMAP_ENOMEM;
    }
    (void) blocks_scan(in, limit, m->seg, NULL);
    for (b = 0; b < ns; b++) {
        const blk_seg_t *sg = &m->seg[b];
        m->by_w[b] = b;
        if (BLK_IDENTITY != sg->k) {
            for (i = 0; i < (int32_t) sg->len; i++) {
                grpmap_packed_put(m->w + sg->off, (uint64_t) i, sg->k,
                                  (uint64_t) (in->ranks[sg->g0 + i] - sg->w0));
            }
        }
    }
    /* the ranges are disjoint: ordered by w0 they answer RANK.  Insertion
     * sort (qsort's comparator takes no context, and builds may run in
     * several threads); segments are few (at most n / divisor). */
    {
        for (b = 1; b < ns; b++) {
            int32_t v = m->by_w[b], j = b;
            while (j > 0 && m->seg[m->by_w[j - 1]].w0 > m->seg[v].w0) {
                m->by_w[j] = m->by_w[j - 1];
                j--;
            }
            m->by_w[j] = v;
        }
    }
    *out = m;
    return GRPMAP_OK;
}

static inline int32_t blocks_local(const blocks_map_t *m, const blk_seg_t *sg, int32_t j)
{
    return BLK_IDENTITY == sg->k ? j : (int32_t) grpmap_packed_get(m->w + sg->off, (uint64_t) j, sg->k);
}

static int32_t blocks_select(const void *map, int32_t g)
{
    const blocks_map_t *m = map;
    int32_t lo = 0, hi = m->nseg - 1;
    while (lo < hi) {   /* last segment with g0 <= g */
        int32_t mid = (lo + hi + 1) >> 1;
        if (m->seg[mid].g0 <= g) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    return m->seg[lo].w0 + blocks_local(m, &m->seg[lo], g - m->seg[lo].g0);
}

static int32_t blocks_rank(const void *map, int32_t w)
{
    const blocks_map_t *m = map;
    int32_t lo = 0, hi = m->nseg - 1, j;
    const blk_seg_t *sg;
    if (0 == m->nseg) {
        return GRPMAP_NOT_MEMBER;
    }
    while (lo < hi) {   /* last range with w0 <= w */
        int32_t mid = (lo + hi + 1) >> 1;
        if (m->seg[m->by_w[mid]].w0 <= w) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    sg = &m->seg[m->by_w[lo]];
    if (w < sg->w0 || (int64_t) w - sg->w0 >= (int64_t) sg->len) {
        return GRPMAP_NOT_MEMBER;
    }
    if (BLK_IDENTITY == sg->k) {
        return sg->g0 + (w - sg->w0);
    }
    for (j = 0; j < (int32_t) sg->len; j++) {
        if (blocks_local(m, sg, j) == w - sg->w0) {
            return sg->g0 + j;
        }
    }
    return GRPMAP_NOT_MEMBER;   /* not reached: the range is full */
}

static void blocks_iterate(const void *map, int32_t first, int32_t count, int32_t *out)
{
    const blocks_map_t *m = map;
    int32_t k = 0, b;
    if (count <= 0) {
        return;
    }
    {
        int32_t lo = 0, hi = m->nseg - 1;
        while (lo < hi) {
            int32_t mid = (lo + hi + 1) >> 1;
            if (m->seg[mid].g0 <= first) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        b = lo;
    }
    for (; k < count; b++) {
        const blk_seg_t *sg = &m->seg[b];
        int32_t j = first + k - sg->g0;
        for (; j < (int32_t) sg->len && k < count; j++, k++) {
            out[k] = sg->w0 + blocks_local(m, sg, j);
        }
    }
}

static size_t blocks_bytes(const void *map)
{
    const blocks_map_t *m = map;
    return blocks_size(m->nseg, m->nwords);
}

const grpmap_repr_t grpmap_blocks_repr = {
    .name = "blocks",
    .kind = GRPMAP_KIND_LIST,
    .select_ns = 8.0,
    .estimate = blocks_estimate,
    .build = blocks_build,
    .select = blocks_select,
    .rank = blocks_rank,
    .iterate = blocks_iterate,
    .bytes = blocks_bytes,
    .release = blocks_release,
};
