/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * array: ranks[i] packed at k = bits(max member) bits (Mir Taheri's
 * optimised canonical array, §4.3.1: 3-4 ns slower than an int array).
 * RANK scans (O(n)): the framework answers bulk translations with a sorted
 * copy instead (see base/grpmap_engine.h).
 *
 * blocks: the member set's maximal world ranges [w0, w0 + len), each
 * listed by one stretch of group ranks in any order; a range holds its
 * members as offsets from w0 at bits(len - 1) bits each, or nothing when
 * listed in order.  So ranges in order cost a few words, and ranges
 * permuted inside (patterns 13, 14) cost sum(len * lg len) bits, the
 * information bound to within the rounding of lg.  SELECT: a guide over
 * group ranks and one compare find the segment, then one field, without a
 * data-dependent branch; RANK: binary search of the range, a scan of that
 * segment.  Estimate and build take two passes and a temporary bitmap
 * of [min, max] (maps spread over more than 64 ranks a member decline).
 */
#include <stdlib.h>
#include <string.h>

#include "ompi/mca/grpmap/array/grpmap_array.h"
#include "ompi/mca/grpmap/grpmap_packed.h"

/* ------------------------------------------------------------------ array */

/* the ranks packed (grpmap_packed.h); RANK: any w below 2^k may be one
 * (k <= 31: a rank fits in 31 bits) */
static int32_t array_rank(const void *map, int32_t w)
{
    return grpmap_packed_map_rank(map, w, (int64_t) 1 << ((const grpmap_packed_map_t *) map)->k);
}

GRPMAP_PACKED_MAP_REPR(grpmap_array_repr, "array", GRPMAP_KIND_LIST, 3.0, array_rank);

/* ----------------------------------------------------------------- blocks */

/* SELECT is the hot path (random group ranks, calls independent of one
 * another), so it steers clear of unpredictable branches, which cost the
 * former binary search over 24-byte segments 20-60 ns: a guide over group
 * ranks (bucket b of 2^shift ranks -> the segment holding rank b << shift;
 * 2^shift the power of two not above n / nseg, so at most 2 * nseg entries,
 * <= 8 bytes a segment) and one compare on the dense g0[] find the segment
 * (blocks_find); the field is read from two words with shifts, never a
 * branch on whether it crosses a word, and an in-order segment is a field
 * of 0 bits plus j (blocks_local).  One allocation, counted exactly by
 * blocks_size from (n, nseg, nwords) alone, so estimate == bytes:
 *   header | w[nwords + 1] | seg[nseg] | g0[nseg + 1] | guide[nb] | by_w[nseg] | k[nseg]
 */
typedef struct {
    int32_t w0;     /* lowest world rank of its range */
    uint32_t off;   /* first word of its fields in w[] (0 when listed in order) */
} blk_seg_t;

typedef struct {
    int32_t n, nseg;
    int32_t shift;      /* a guide bucket holds 2^shift group ranks */
    blk_seg_t *seg;     /* in group order */
    int32_t *g0;        /* first group rank of each segment; g0[nseg] = n */
    uint32_t *guide;    /* guide[b]: the segment holding group rank b << shift */
    int32_t *by_w;      /* segment numbers in increasing w0 */
    uint8_t *k;         /* bits a member; 0: listed in order (a permuted range has
                         * len >= 2, so >= 1 bit) */
    uint64_t nwords;
    uint64_t w[];       /* nwords + 1 (the last one spare: never a 0-word array) */
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

static int32_t blocks_shift(int32_t n, int32_t ns)
{
    return ns > 0 ? grpmap_bits((uint64_t) (n / ns)) - 1 : 0;   /* ns <= n: n / ns >= 1 */
}

static int32_t blocks_buckets(int32_t n, int32_t ns)
{
    return n > 0 ? ((n - 1) >> blocks_shift(n, ns)) + 1 : 0;
}

/* The segments: the maximal world ranges (runs) of the member set, each of
 * which must fill one stretch of group ranks.  A bitmap of [min, max]
 * (declined above 64 bits a member: the form could not pay for it) gives
 * each run's bounds; a second pass checks that group order visits runs one
 * at a time and notes which are listed in order.  Counts and sizes
 * (words of fields) the segments, recording them when m != NULL (seg, g0,
 * k); returns limit + 1 past the limit or when the map is not of this
 * shape. */
static int32_t blocks_scan(const grpmap_input_t *in, int32_t limit, blocks_map_t *m,
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
        if (NULL != m) {
            m->g0[ns] = i;
            m->seg[ns].w0 = (int32_t) (a + in->min);
            m->seg[ns].off = in_order ? 0 : (uint32_t) nw;
            m->k[ns] = in_order ? 0 : (uint8_t) grpmap_bits((uint64_t) len - 1);
        }
        if (!in_order) {
            nw += grpmap_packed_words((uint64_t) len, grpmap_bits((uint64_t) len - 1));
            if (nw > UINT32_MAX) {   /* off is 32 bits (not reached: nw < 1.5 n) */
                free(bm);
                return limit + 1;
            }
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

static size_t blocks_size(int32_t n, int32_t ns, uint64_t nw)
{
    return sizeof(blocks_map_t) + (size_t) (nw + 1) * 8 + (size_t) ns * sizeof(blk_seg_t)
           + ((size_t) ns + 1 + (size_t) blocks_buckets(n, ns) + (size_t) ns) * 4
           + (size_t) ns;
}

static size_t blocks_estimate(const grpmap_input_t *in)
{
    uint64_t nw = 0;
    int32_t limit = blocks_limit(in->n), ns = blocks_scan(in, limit, NULL, &nw);
    return ns > limit ? GRPMAP_DECLINES : blocks_size(in->n, ns, nw);
}

static void blocks_release(void *map)
{
    free(map);
}

/* Field j of segment x: its offset from w0.  Two words, shifts and masks,
 * no branch: the second word exists for every field (packed_words' spare
 * word), and is read only when the field does not start a word (sh != 0),
 * so an in-order segment (k 0, off 0) reads w[0] alone; k 0 masks the
 * field to 0 and adds j instead. */
static inline int32_t blocks_local(const blocks_map_t *m, int32_t x, int32_t j)
{
    unsigned k = m->k[x];
    uint64_t bit = (uint64_t) m->seg[x].off * 64 + (uint64_t) j * k;
    const uint64_t *p = m->w + (bit >> 6);
    unsigned sh = (unsigned) (bit & 63);
    uint64_t v = p[0] >> sh | p[0 != sh] << 1 << (63 - sh);
    return (int32_t) (v & ((1ull << k) - 1)) + (j & -(int32_t) (0 == k));
}

/* The segment holding group rank g (0 <= g < n): the last with g0 <= g.
 * guide[] names the one holding the bucket's first rank; a bucket averages
 * at most one segment boundary (2^shift <= n / nseg), so one compare, taken
 * without a branch, mostly ends the search.  Past it (a bucket with two or
 * more boundaries: a few per cent of random ranks on the bench's maps) a
 * short walk (one misprediction, not the lg nseg of a search), then a
 * binary search bounds the cost at lg nseg even on skewed maps.
 * g0[nseg] = n > g: g0[x + 1] always exists. */
static int32_t blocks_find_far(const blocks_map_t *m, int32_t g, int32_t lo)
{
    int32_t hi = m->nseg - 1, t;
    for (t = 0; t < 4; t++, lo++) {   /* g0[lo] <= g */
        if (m->g0[lo + 1] > g) {
            return lo;
        }
    }
    while (lo < hi) {
        int32_t mid = (lo + hi + 1) >> 1;
        if (m->g0[mid] <= g) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    return lo;
}

static inline int32_t blocks_find(const blocks_map_t *m, int32_t g)
{
    int32_t x = (int32_t) m->guide[g >> m->shift];
    x += m->g0[x + 1] <= g;
    if (m->g0[x + 1] <= g) {
        x = blocks_find_far(m, g, x + 1);
    }
    return x;
}

static int blocks_build(const grpmap_input_t *in, void **out)
{
    uint64_t nw = 0;
    int32_t n = in->n, limit = blocks_limit(n), ns = blocks_scan(in, limit, NULL, &nw), b, i;
    int32_t nb, x;
    blocks_map_t *m;
    char *p;
    if (ns > limit) {
        return GRPMAP_DECLINE;
    }
    nb = blocks_buckets(n, ns);
    m = calloc(1, blocks_size(n, ns, nw));
    if (NULL == m) {
        return GRPMAP_ENOMEM;
    }
    m->n = n;
    m->nseg = ns;
    m->nwords = nw;
    m->shift = blocks_shift(n, ns);
    p = (char *) (m->w + nw + 1);
    m->seg = (blk_seg_t *) p;
    p += (size_t) ns * sizeof(blk_seg_t);
    m->g0 = (int32_t *) p;
    p += ((size_t) ns + 1) * 4;
    m->guide = (uint32_t *) p;
    p += (size_t) nb * 4;
    m->by_w = (int32_t *) p;
    p += (size_t) ns * 4;
    m->k = (uint8_t *) p;
    (void) blocks_scan(in, limit, m, NULL);
    m->g0[ns] = n;
    for (b = 0; b < ns; b++) {
        m->by_w[b] = b;
        if (0 != m->k[b]) {
            for (i = 0; i < m->g0[b + 1] - m->g0[b]; i++) {
                grpmap_packed_put(m->w + m->seg[b].off, (uint64_t) i, m->k[b],
                                  (uint64_t) (in->ranks[m->g0[b] + i] - m->seg[b].w0));
            }
        }
    }
    for (b = 0, x = 0; b < nb; b++) {   /* the guide */
        while (m->g0[x + 1] <= (int32_t) ((int64_t) b << m->shift)) {
            x++;
        }
        m->guide[b] = (uint32_t) x;
    }
    /* the ranges are disjoint: ordered by w0 they answer RANK.  Insertion
     * sort (qsort's comparator takes no context, and builds may run in
     * several threads); segments are few (at most n / divisor). */
    for (b = 1; b < ns; b++) {
        int32_t v = m->by_w[b], j = b;
        while (j > 0 && m->seg[m->by_w[j - 1]].w0 > m->seg[v].w0) {
            m->by_w[j] = m->by_w[j - 1];
            j--;
        }
        m->by_w[j] = v;
    }
    *out = m;
    return GRPMAP_OK;
}

static int32_t blocks_select(const void *map, int32_t g)
{
    const blocks_map_t *m = map;
    int32_t x = blocks_find(m, g);
    return m->seg[x].w0 + blocks_local(m, x, g - m->g0[x]);
}

static int32_t blocks_rank(const void *map, int32_t w)
{
    const blocks_map_t *m = map;
    int32_t lo = 0, hi = m->nseg - 1, j, x, len;
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
    x = m->by_w[lo];
    len = m->g0[x + 1] - m->g0[x];
    if (w < m->seg[x].w0 || (int64_t) w - m->seg[x].w0 >= len) {
        return GRPMAP_NOT_MEMBER;
    }
    if (0 == m->k[x]) {
        return m->g0[x] + (w - m->seg[x].w0);
    }
    for (j = 0; j < len; j++) {
        if (blocks_local(m, x, j) == w - m->seg[x].w0) {
            return m->g0[x] + j;
        }
    }
    return GRPMAP_NOT_MEMBER;   /* not reached: the range is full */
}

static void blocks_iterate(const void *map, int32_t first, int32_t count, int32_t *out)
{
    const blocks_map_t *m = map;
    int32_t k = 0, x;
    if (count <= 0) {
        return;
    }
    for (x = blocks_find(m, first); k < count; x++) {
        int32_t j = first + k - m->g0[x], len = m->g0[x + 1] - m->g0[x], w0 = m->seg[x].w0;
        if (0 == m->k[x]) {
            for (; j < len && k < count; j++, k++) {
                out[k] = w0 + j;
            }
        } else {
            for (; j < len && k < count; j++, k++) {
                out[k] = w0 + blocks_local(m, x, j);
            }
        }
    }
}

static size_t blocks_bytes(const void *map)
{
    const blocks_map_t *m = map;
    return blocks_size(m->n, m->nseg, m->nwords);
}

const grpmap_repr_t grpmap_blocks_repr = {
    .name = "blocks",
    .kind = GRPMAP_KIND_LIST,
    /* bench/grpmap_bench, random SELECT on patterns 13, 14, C1, C2, E1, E2:
     * blocks / array 1.30 (median; 1.08-1.57), so 3.0 * 1.30 */
    .select_ns = 3.9,
    GRPMAP_REPR_OPS(blocks),
};
