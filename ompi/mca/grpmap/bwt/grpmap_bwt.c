/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * bwt (Mir Taheri §4.3.2): the list of world ranks cut into blocks of 1000,
 * each compressed on its own by the codec grpmap_bwt_set_codec() gave (the
 * component gives bzip2's: Burrows-Wheeler, move-to-front, Huffman).  A
 * block is first written as byte planes (all low bytes, then all second
 * bytes, ...) of either the ranks themselves or the zigzag deltas between
 * consecutive ranks, whichever has the lower order-0 entropy; measured with
 * bzip2 (bytes a member; 10,000 of 200,000 at random in random order; the
 * shapes of Mir Taheri's Table 6.1):
 *                          4-byte LE  planes   deltas LE  delta planes  pick
 *   random list             3.13      2.72      3.24       2.83         2.72
 *   random set 5k/200k      2.74      1.89      1.15       1.15         1.15
 *   evens, 100k             0.66      0.38      0.05       0.06         0.06
 *   alternate ranges of 100 1.13      0.68      0.06       0.06         0.07
 *   10 ranges permuted      1.60      1.71      1.77       1.77         1.72
 * (the entropy pick chose the better of the two plane forms in every block
 * measured).  A block the codec does not shrink below its rank planes is
 * stored as those planes, raw, and read in place.
 *
 * SELECT: block i / 1000, from the cache or decompressed (~130 us with
 * bzip2), then cached: one slot guarded by a seqlock (readers never wait
 * or write; a writer that finds the slot busy just does not install).
 * RANK: every block whose [min, max] holds w is searched (by bisection if
 * it is increasing), from the cache or decoded and cached; for a random
 * list that is every block.  Declines without a codec, and when the map
 * would hold more than 4 bytes a member (a plain int array), cache
 * included; the empty map is held (a header).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "opal/mca/compress/compress_codec.h"
#include "ompi/mca/grpmap/bwt/grpmap_bwt.h"

#define BWT_BLOCK 1000
/* Cache slots (direct mapped by block number).  One, as Mir Taheri has: every
 * slot costs 4 KB against maps of a few bytes a member, and iteration (the
 * common sequential use) needs one. */
#define BWT_SLOTS 1

#define BWT_DELTAS 1    /* planes of zigzag deltas (else of the ranks) */
#define BWT_RAW 2       /* stored uncompressed (always rank planes) */
#define BWT_SORTED 4    /* increasing: RANK searches it by bisection */
#define bwt_estimate NULL /* the size is known once compressed */

typedef struct {
    uint64_t off;       /* first byte in data */
    uint32_t size;      /* bytes stored */
    int32_t min, max;   /* of its ranks, for RANK */
    uint8_t nb;         /* byte planes */
    uint8_t form;
} bwt_block_t;

typedef struct {
    uint32_t seq;       /* odd while being written */
    int32_t block;      /* the block it holds, -1: none */
} bwt_slot_t;

/* The blocks by increasing min, with the largest max so far: RANK looks
 * at the blocks with min <= w back to where no earlier max reaches w (one
 * block when the ranges are disjoint). */
typedef struct {
    int32_t min, pmax, block;
} bwt_order_t;

typedef struct {
    int32_t n, nblocks, blen;   /* blen: values a slot holds */
    const opal_compress_codec_t *codec;
    uint8_t *data;
    size_t data_bytes;
    int32_t *cache;             /* BWT_SLOTS * blen; NULL if every block is raw */
    bwt_order_t *order;         /* after blk[], same allocation */
    bwt_slot_t slot[BWT_SLOTS];
    bwt_block_t blk[];
} bwt_map_t;

static const opal_compress_codec_t *bwt_codec;

void grpmap_bwt_set_codec(const struct opal_compress_codec_t *codec)
{
    __atomic_store_n(&bwt_codec, codec, __ATOMIC_RELEASE);
}

static inline int32_t bwt_len(const bwt_map_t *m, int32_t b)
{
    return b < m->nblocks - 1 ? BWT_BLOCK : m->n - b * BWT_BLOCK;
}

static size_t bwt_size(const bwt_map_t *m)
{
    return sizeof(bwt_map_t) + (size_t) m->nblocks * (sizeof(bwt_block_t) + sizeof(bwt_order_t))
           + m->data_bytes
           + (NULL != m->cache ? (size_t) BWT_SLOTS * (size_t) m->blen * sizeof(int32_t) : 0);
}

/* ---------------------------------------------------------------- encoding */

static inline uint32_t bwt_value(const int32_t *r, int32_t j, int form)
{
    uint32_t d;
    if (!(form & BWT_DELTAS)) {
        return (uint32_t) r[j];
    }
    d = (uint32_t) r[j] - (j > 0 ? (uint32_t) r[j - 1] : 0u);
    return (d << 1) ^ (0u - (d >> 31));
}

/* lg c in 1/65536 bits, linear between powers of two (within 0.09 bit) */
static inline uint64_t bwt_lg16(uint32_t c)
{
    int e = 31 - __builtin_clz(c);
    return ((uint64_t) e << 16) + (((uint64_t) c << 16 >> e) - 65536);
}

/* Order-0 entropy (1/65536 bits) of the byte planes of form; sets *nb. */
static uint64_t bwt_cost(const int32_t *r, int32_t len, int form, int *nb)
{
    uint32_t hist[4][256], mx = 0;
    uint64_t cost = 0;
    int32_t j;
    int p, c;
    memset(hist, 0, sizeof(hist));
    for (j = 0; j < len; j++) {
        uint32_t v = bwt_value(r, j, form);
        mx |= v;
        for (p = 0; p < 4; p++) {
            hist[p][(v >> (8 * p)) & 255]++;
        }
    }
    *nb = (grpmap_bits(mx) + 7) / 8;
    for (p = 0; p < *nb; p++) {
        cost += (uint64_t) len * bwt_lg16((uint32_t) len);
        for (c = 0; c < 256; c++) {
            if (hist[p][c]) {
                cost -= hist[p][c] * bwt_lg16(hist[p][c]);
            }
        }
    }
    return cost;
}

static void bwt_planes(const int32_t *r, int32_t len, int form, int nb, uint8_t *out)
{
    int32_t j;
    int p;
    for (j = 0; j < len; j++) {
        uint32_t v = bwt_value(r, j, form);
        for (p = 0; p < nb; p++) {
            out[p * len + j] = (uint8_t) (v >> (8 * p));
        }
    }
}

/* Block b into out[0..len): from its planes, decompressed if need be.
 * Returns 1 if it was decompressed (worth caching). */
static int bwt_decode(const bwt_map_t *m, int32_t b, int32_t *out)
{
    const bwt_block_t *k = &m->blk[b];
    int32_t len = bwt_len(m, b), j;
    size_t raw = (size_t) k->nb * (size_t) len;
    uint8_t buf[4 * BWT_BLOCK];
    const uint8_t *p = m->data + k->off;
    uint32_t prev = 0;
    int q;
    if (!(k->form & BWT_RAW)) {
        if (m->codec->decompress(p, k->size, buf, sizeof(buf), raw) != (ssize_t) raw) {
            /* our own stream: only the codec's working memory can fail,
             * and SELECT has no way to say so */
            abort();
        }
        p = buf;
    }
    for (j = 0; j < len; j++) {
        uint32_t v = 0;
        for (q = 0; q < k->nb; q++) {
            v |= (uint32_t) p[q * len + j] << (8 * q);
        }
        if (k->form & BWT_DELTAS) {
            prev += (v >> 1) ^ (0u - (v & 1));
            v = prev;
        }
        out[j] = (int32_t) v;
    }
    return !(k->form & BWT_RAW);
}

/* ------------------------------------------------------------------ cache */

/* The seqlock: a reader loads seq (acquire), the values (relaxed atomics),
 * fences (acquire) and checks seq unchanged and even; a writer moves seq
 * to odd by CAS, fences (release), stores, and releases seq + 2. */

static inline bwt_slot_t *bwt_slot(const bwt_map_t *m, int32_t b)
{
    return (bwt_slot_t *) &m->slot[b % BWT_SLOTS];   /* mutable state of a const map */
}

static inline int32_t *bwt_slot_data(const bwt_map_t *m, int32_t b)
{
    return m->cache + (size_t) (b % BWT_SLOTS) * (size_t) m->blen;
}

/* Values j0..j0+cnt of block b into out if the cache holds it; 1 if so. */
static int bwt_cache_get(const bwt_map_t *m, int32_t b, int32_t j0, int32_t cnt, int32_t *out)
{
    bwt_slot_t *s = bwt_slot(m, b);
    const int32_t *c = bwt_slot_data(m, b);
    uint32_t q = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE);
    int32_t j;
    if ((q & 1) || __atomic_load_n(&s->block, __ATOMIC_RELAXED) != b) {
        return 0;
    }
    for (j = 0; j < cnt; j++) {
        out[j] = __atomic_load_n(&c[j0 + j], __ATOMIC_RELAXED);
    }
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    return __atomic_load_n(&s->seq, __ATOMIC_RELAXED) == q;
}

static void bwt_cache_put(const bwt_map_t *m, int32_t b, const int32_t *v)
{
    bwt_slot_t *s = bwt_slot(m, b);
    int32_t *c = bwt_slot_data(m, b), j, len = bwt_len(m, b);
    uint32_t q = __atomic_load_n(&s->seq, __ATOMIC_RELAXED);
    if ((q & 1)
        || !__atomic_compare_exchange_n(&s->seq, &q, q + 1, 0, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED)) {
        return;   /* another thread is writing it: leave it to that one */
    }
    __atomic_thread_fence(__ATOMIC_RELEASE);
    __atomic_store_n(&s->block, b, __ATOMIC_RELAXED);
    for (j = 0; j < len; j++) {
        __atomic_store_n(&c[j], v[j], __ATOMIC_RELAXED);
    }
    __atomic_store_n(&s->seq, q + 2, __ATOMIC_RELEASE);
}

/* Block b into out: the cache, else decoded (and then cached). */
static void bwt_get(const bwt_map_t *m, int32_t b, int32_t *out)
{
    if (!(m->blk[b].form & BWT_RAW) && bwt_cache_get(m, b, 0, bwt_len(m, b), out)) {
        return;
    }
    if (bwt_decode(m, b, out)) {
        bwt_cache_put(m, b, out);
    }
}

/* ----------------------------------------------------------------- build */

static int bwt_cmp_min(const void *a, const void *b)
{
    int32_t x = ((const bwt_order_t *) a)->min, y = ((const bwt_order_t *) b)->min;
    return (x > y) - (x < y);
}

static int bwt_build(const grpmap_input_t *in, void **out)
{
    const opal_compress_codec_t *codec = __atomic_load_n(&bwt_codec, __ATOMIC_ACQUIRE);
    int32_t n = in->n, nblocks = (n + BWT_BLOCK - 1) / BWT_BLOCK, b;
    size_t budget = 4 * (size_t) n, head, cap = 0, cache_bytes, bound;
    uint8_t planes[4 * BWT_BLOCK], *tmp = NULL;
    bwt_map_t *m;
    int rc = GRPMAP_ENOMEM, cached = 0;   /* cached: some block is compressed */

    *out = NULL;
    if (NULL == codec) {
        return GRPMAP_DECLINE;
    }
    head = sizeof(bwt_map_t) + (size_t) nblocks * (sizeof(bwt_block_t) + sizeof(bwt_order_t));
    cache_bytes = (size_t) BWT_SLOTS * (size_t) (n < BWT_BLOCK ? n : BWT_BLOCK) * sizeof(int32_t);
    if (n > 0 && head > budget) {
        return GRPMAP_DECLINE;
    }
    m = calloc(1, head);
    if (NULL == m) {
        return GRPMAP_ENOMEM;
    }
    m->n = n;
    m->nblocks = nblocks;
    m->blen = n < BWT_BLOCK ? n : BWT_BLOCK;
    m->codec = codec;
    m->order = (bwt_order_t *) (m->blk + nblocks);
    for (b = 0; b < BWT_SLOTS; b++) {
        m->slot[b].block = -1;
    }
    bound = codec->bound(sizeof(planes));
    if (n > 0 && NULL == (tmp = malloc(bound))) {
        goto fail;
    }
    for (b = 0; b < nblocks; b++) {
        bwt_block_t *k = &m->blk[b];
        const int32_t *r = in->ranks + (size_t) b * BWT_BLOCK;
        int32_t len = bwt_len(m, b), j;
        int nbr, nbd, form;
        uint64_t cr = bwt_cost(r, len, 0, &nbr), cd = bwt_cost(r, len, BWT_DELTAS, &nbd);
        ssize_t c;
        const uint8_t *src = tmp;
        form = cd < cr ? BWT_DELTAS : 0;
        k->nb = (uint8_t) (form ? nbd : nbr);
        bwt_planes(r, len, form, k->nb, planes);
        c = codec->compress(planes, (size_t) k->nb * (size_t) len, tmp, bound);
        if (c < 0 || (size_t) c >= (size_t) nbr * (size_t) len) {
            /* not shrunk below the rank planes: those, raw */
            form = BWT_RAW;
            k->nb = (uint8_t) nbr;
            c = (ssize_t) ((size_t) nbr * (size_t) len);
            bwt_planes(r, len, 0, k->nb, planes);
            src = planes;
        }
        k->off = m->data_bytes;
        k->size = (uint32_t) c;
        k->min = k->max = r[0];
        form |= BWT_SORTED;
        for (j = 1; j < len; j++) {
            if (r[j] < k->min) k->min = r[j];
            if (r[j] > k->max) k->max = r[j];
            if (r[j] <= r[j - 1]) form &= ~BWT_SORTED;
        }
        k->form = (uint8_t) form;
        cached |= !(form & BWT_RAW);
        if (head + m->data_bytes + (size_t) c + (cached ? cache_bytes : 0) > budget) {
            rc = GRPMAP_DECLINE;    /* gains nothing over an int array */
            goto fail;
        }
        if (m->data_bytes + (size_t) c > cap) {
            size_t ncap = 2 * cap > (size_t) n ? 2 * cap : (size_t) n;
            uint8_t *d;
            if (ncap < m->data_bytes + (size_t) c) {
                ncap = m->data_bytes + (size_t) c;
            }
            if (NULL == (d = realloc(m->data, ncap))) {
                goto fail;
            }
            m->data = d;
            cap = ncap;
        }
        memcpy(m->data + m->data_bytes, src, (size_t) c);
        m->data_bytes += (size_t) c;
    }
    free(tmp);
    tmp = NULL;
    for (b = 0; b < nblocks; b++) {
        m->order[b].min = m->blk[b].min;
        m->order[b].block = b;
    }
    qsort(m->order, (size_t) nblocks, sizeof(bwt_order_t), bwt_cmp_min);
    for (b = 0; b < nblocks; b++) {
        int32_t mx = m->blk[m->order[b].block].max;
        m->order[b].pmax = b > 0 && m->order[b - 1].pmax > mx ? m->order[b - 1].pmax : mx;
    }
    if (0 == m->data_bytes) {
        free(m->data);
        m->data = NULL;
    } else if (cap > m->data_bytes) {
        uint8_t *d = realloc(m->data, m->data_bytes);
        if (NULL != d) {
            m->data = d;
        } else {
            goto fail;   /* bytes() must be exact: a shrink that failed is no map */
        }
    }
    if (cached) {
        if (NULL == (m->cache = calloc(1, cache_bytes))) {
            goto fail;
        }
    }
    *out = m;
    return GRPMAP_OK;

fail:
    free(tmp);
    free(m->data);
    free(m);
    return rc;
}

/* -------------------------------------------------------------- queries */

static inline int32_t bwt_raw_get(const bwt_map_t *m, const bwt_block_t *k, int32_t len,
                                  int32_t j)
{
    const uint8_t *p = m->data + k->off + j;
    uint32_t v = 0;
    int q;
    for (q = 0; q < k->nb; q++) {
        v |= (uint32_t) p[q * len] << (8 * q);
    }
    return (int32_t) v;
}

static int32_t bwt_select(const void *map, int32_t i)
{
    const bwt_map_t *m = map;
    int32_t b = i / BWT_BLOCK, j = i - b * BWT_BLOCK, v, buf[BWT_BLOCK];
    const bwt_block_t *k = &m->blk[b];
    if (k->form & BWT_RAW) {
        return bwt_raw_get(m, k, bwt_len(m, b), j);
    }
    if (bwt_cache_get(m, b, j, 1, &v)) {
        return v;
    }
    (void) bwt_decode(m, b, buf);
    bwt_cache_put(m, b, buf);
    return buf[j];
}

/* Where w is among block values v[0..len) (relaxed loads: v may be a
 * cache slot being rewritten; the caller validates), -1 if not there. */
static int32_t bwt_find(const int32_t *v, int32_t len, int sorted, int32_t w)
{
    int32_t lo = 0, hi = len - 1, j;
    if (sorted) {
        while (lo < hi) {
            int32_t mid = (lo + hi) >> 1;
            if (__atomic_load_n(&v[mid], __ATOMIC_RELAXED) < w) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return __atomic_load_n(&v[lo], __ATOMIC_RELAXED) == w ? lo : -1;
    }
    for (j = 0; j < len; j++) {
        if (__atomic_load_n(&v[j], __ATOMIC_RELAXED) == w) {
            return j;
        }
    }
    return -1;
}

/* bwt_find in the cache slot of block b; 0 if the slot does not hold it. */
static int bwt_cache_find(const bwt_map_t *m, int32_t b, int32_t w, int32_t *j)
{
    bwt_slot_t *s = bwt_slot(m, b);
    uint32_t q = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE);
    if ((q & 1) || __atomic_load_n(&s->block, __ATOMIC_RELAXED) != b) {
        return 0;
    }
    *j = bwt_find(bwt_slot_data(m, b), bwt_len(m, b), m->blk[b].form & BWT_SORTED, w);
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    return __atomic_load_n(&s->seq, __ATOMIC_RELAXED) == q;
}

/* Where w is in block b, -1 if not there. */
static int32_t bwt_rank_in(const bwt_map_t *m, int32_t b, int32_t w)
{
    const bwt_block_t *k = &m->blk[b];
    int32_t len = bwt_len(m, b), j, buf[BWT_BLOCK];
    if (k->form & BWT_RAW) {
        int32_t lo = 0, hi = len - 1;
        if (k->form & BWT_SORTED) {
            while (lo < hi) {
                int32_t mid = (lo + hi) >> 1;
                if (bwt_raw_get(m, k, len, mid) < w) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
        }
        for (j = lo; j <= hi; j++) {
            if (bwt_raw_get(m, k, len, j) == w) {
                return j;
            }
        }
        return -1;
    }
    if (bwt_cache_find(m, b, w, &j)) {
        return j;
    }
    bwt_get(m, b, buf);
    return bwt_find(buf, len, k->form & BWT_SORTED, w);
}

static int32_t bwt_rank(const void *map, int32_t w)
{
    const bwt_map_t *m = map;
    int32_t lo = 0, hi = m->nblocks - 1, k;
    if (0 == m->nblocks || w < m->order[0].min) {
        return GRPMAP_NOT_MEMBER;
    }
    while (lo < hi) {   /* the last block with min <= w */
        int32_t mid = (lo + hi + 1) >> 1;
        if (m->order[mid].min <= w) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    for (k = lo; k >= 0 && m->order[k].pmax >= w; k--) {
        int32_t b = m->order[k].block, j;
        if (w <= m->blk[b].max && (j = bwt_rank_in(m, b, w)) >= 0) {
            return b * BWT_BLOCK + j;
        }
    }
    return GRPMAP_NOT_MEMBER;
}

static void bwt_iterate(const void *map, int32_t first, int32_t count, int32_t *out)
{
    const bwt_map_t *m = map;
    int32_t buf[BWT_BLOCK];
    while (count > 0) {
        int32_t b = first / BWT_BLOCK, j = first - b * BWT_BLOCK, len = bwt_len(m, b), c;
        const bwt_block_t *k = &m->blk[b];
        c = len - j < count ? len - j : count;
        if (k->form & BWT_RAW) {
            int32_t t;
            for (t = 0; t < c; t++) {
                out[t] = bwt_raw_get(m, k, len, j + t);
            }
        } else if (!bwt_cache_get(m, b, j, c, out)) {
            bwt_get(m, b, buf);
            memcpy(out, buf + j, sizeof(int32_t) * (size_t) c);
        }
        out += c;
        first += c;
        count -= c;
    }
}

static size_t bwt_bytes(const void *map)
{
    return bwt_size(map);
}

static void bwt_release(void *map)
{
    bwt_map_t *m = map;
    if (NULL != m) {
        free(m->data);
        free(m->cache);
        free(m);
    }
}

const grpmap_repr_t grpmap_bwt_repr = {
    .name = "bwt",
    .kind = GRPMAP_KIND_LIST,
    .select_ns = 100000.0,   /* a random SELECT decompresses a block */
    GRPMAP_REPR_OPS(bwt),
};
