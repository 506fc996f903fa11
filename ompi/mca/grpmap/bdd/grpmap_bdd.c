/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * bdd: build splits the sorted members by the top bit, recursively, and
 * makes one BuDDy node per split (bdd_ite on the bit's variable), so the
 * BDD comes bottom-up without any apply over member minterms: an empty
 * half is false, a full half true, and a half that is the other half
 * shifted by 2^k (evens, strides, mesh faces) is built once, so a periodic
 * set costs O(n) compares and O(b) BuDDy calls.  Variable 30 - k tests bit
 * k, so the most significant bit is on top.  A depth-first walk then lists
 * the paths to true (a reduced BDD's paths are disjoint cubes), stopping
 * past max_paths, and the root is released: the map keeps, per path, m
 * (the bits it specifies) and v (their values), two adjacent b-bit fields.
 *
 * SELECT follows Mir Taheri's prose (its Procedure 1 has the comparison
 * inverted): for each bit k from the top, the members with bit k = 0 among
 * the paths still consistent are the sum of 2^(X bits below k) over those
 * paths that allow 0 at k (a 0 or an X there); i below that sum: bit 0,
 * drop the paths with a 1; else subtract it, bit 1, drop the paths with a
 * 0.  The member counts below 2^t give the top set bit first (binary
 * search), a run of bits that every path left leaves X is decided at once
 * (the digits of i in units of members left / 2^run), and once one path
 * is left the remaining X bits take the bits of i directly.  Walks that
 * start with more than BDD_SEL_CAP consistent paths decide bits by
 * scanning the packed paths until few are left, then copy those.
 * Depth-first order lists the paths of many sets (ranges and unions of
 * them, random sets, evens of a world that is no power of 2) with their
 * spans [v, v | X bits] disjoint and increasing: such a map is "ordered",
 * keeps no counts, and SELECT is a scan of the paths' sizes and a deposit.
 * RANK sums, over the paths, the rank within the cube of the cube's first
 * member >= w (ordered: the paths before w's span, then w's).  iterate
 * takes, after one SELECT, the next subset of the X bits (one path,
 * ordered paths) or the smallest successor over the paths (a heap of the
 * paths' next members when there are more than 16).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <bdd.h>

#include "ompi/mca/grpmap/bdd/grpmap_bdd.h"

#define BDD_VARS 31              /* bits of a world rank: 30 .. 0 */
#define BDD_INIT_NODES 100000    /* ~2 MB of nodes, held while BuDDy is started */
#define BDD_CACHE 10000
#define BDD_MAX_INCREASE 1000000 /* let the node table double up to 1M at a time */
#define BDD_SEL_CAP 1024         /* paths SELECT copies to the stack (9 KB) */
#define bdd_estimate NULL        /* the size is known once built */
#define bdd_release free         /* a map is one block */
#define BDD_FAIL (-1)

typedef struct {
    int32_t n, world, npaths;
    uint8_t bits;    /* b */
    uint8_t ordered; /* the paths' spans [v, v | X bits] are disjoint and
                      * increasing: path j's members all precede j + 1's */
    uint8_t auxbits; /* width of a count below 2^t (bits(n)); 0 without counts */
    /* 2 * npaths fields of b bits (m, v of path j at 2j, 2j + 1), then, when
     * npaths > 1 and not ordered, b fields of auxbits bits: the members
     * below 2^t, t < b */
    uint64_t w[];
} bdd_map_t;

static pthread_mutex_t bdd_lock = PTHREAD_MUTEX_INITIALIZER;
static int bdd_started;
static int bdd_base_nodes; /* node table size right after bdd_init */
static int bdd_max_nodes = GRPMAP_BDD_DEFAULT_MAX_NODES;
static int bdd_max_paths = GRPMAP_BDD_DEFAULT_MAX_PATHS;
static int bdd_errcode; /* set by the error hook, under bdd_lock */

static inline uint32_t low_mask(int k)
{
    return k <= 0 ? 0 : (k >= 32 ? ~0u : (1u << k) - 1);
}

static inline int ctz32(uint32_t x)
{
    return __builtin_ctz(x);
}

/* popcount without a libgcc call when the target has no POPCNT */
static inline int pop32(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int) ((((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24);
}

/* The bits of r, from the lowest, placed at the set bits of f (pdep). */
static inline uint32_t deposit(uint32_t r, uint32_t f)
{
    uint32_t out = 0;
    while (f) {
        int lo = ctz32(f), len = ctz32(~(f >> lo));
        uint32_t lm = low_mask(len);
        out |= (r & lm) << lo;
        r >>= len;
        f &= ~(lm << lo);
    }
    return out;
}

/* The bits of x at the set bits of f, packed from the lowest (pext). */
static inline uint32_t extract(uint32_t x, uint32_t f)
{
    uint32_t out = 0;
    int at = 0;
    while (f) {
        int lo = ctz32(f), len = ctz32(~(f >> lo));
        uint32_t lm = low_mask(len);
        out |= ((x >> lo) & lm) << at;
        at += len;
        f &= ~(lm << lo);
    }
    return out;
}

/* Smallest member >= t of the cube (m, v) within full, or 0 with *ok = 0. */
static inline uint32_t cube_succ(uint32_t m, uint32_t v, uint32_t full, uint32_t t, int *ok)
{
    uint32_t bad = m & (t ^ v), e;
    int h, k;
    *ok = 1;
    if (0 == bad) {
        return t;
    }
    h = 31 - __builtin_clz(bad);
    /* bits >= h where t has 0 and the cube allows 1 */
    e = ~t & ~(m & ~v) & full & ~low_mask(h);
    if (0 == e) {
        *ok = 0;
        return 0;
    }
    k = ctz32(e);
    return (t & ~low_mask(k + 1)) | (1u << k) | (v & low_mask(k));
}

static inline uint32_t path_m(const bdd_map_t *m, int32_t j)
{
    return (uint32_t) grpmap_packed_get(m->w, 2 * (uint64_t) j, m->bits);
}

static inline uint32_t path_v(const bdd_map_t *m, int32_t j)
{
    return (uint32_t) grpmap_packed_get(m->w, 2 * (uint64_t) j + 1, m->bits);
}

/* m and v of path j: adjacent fields, one read of 2b bits when 2b <= 56 */
static inline void path_get(const bdd_map_t *m, int32_t j, uint32_t *pm, uint32_t *pv)
{
    if (m->bits <= 28) {
        uint64_t x = grpmap_packed_get(m->w, (uint64_t) j, 2 * m->bits);
        *pm = (uint32_t) x & low_mask(m->bits);
        *pv = (uint32_t) (x >> m->bits);
    } else {
        *pm = path_m(m, j);
        *pv = path_v(m, j);
    }
}

static inline const uint64_t *aux_words(const bdd_map_t *m)
{
    return m->w + grpmap_packed_words(2 * (uint64_t) m->npaths, m->bits);
}

static size_t map_bytes(int32_t npaths, int bits, int auxbits)
{
    size_t words = grpmap_packed_words(2 * (uint64_t) npaths, bits);
    if (auxbits > 0) {
        words += grpmap_packed_words((uint64_t) bits, auxbits);
    }
    return sizeof(bdd_map_t) + 8 * words;
}

/* ---- build (under bdd_lock) ---- */

typedef struct {
    long produced0, max_nodes;
    uint32_t *pm, *pv; /* paths found */
    int32_t np, cap, max_paths;
    int oom;
} bdd_ctx_t;

static void bdd_hook(int e)
{
    if (0 == bdd_errcode) {
        bdd_errcode = e;
    }
}

static int bdd_start(void)
{
    if (bdd_started) {
        return 0;
    }
    if (bdd_isrunning()) {
        /* someone else in the process uses BuDDy (its bdd_init would call
         * their error handler, BuDDy's default one exits) */
        return -1;
    }
    if (bdd_init(BDD_INIT_NODES, BDD_CACHE) < 0) {
        return -1;
    }
    /* The default handler prints and calls exit(1); the default gbc
     * handler prints every collection on stdout. */
    bdd_error_hook(bdd_hook);
    bdd_gbc_hook(NULL);
    bdd_resize_hook(NULL);
    bdd_errcode = 0;
    if (bdd_setvarnum(BDD_VARS) < 0 || 0 != bdd_errcode) {
        bdd_done();
        return -1;
    }
    bdd_setmaxincrease(BDD_MAX_INCREASE);
    bdd_base_nodes = bdd_getallocnum();
    bdd_started = 1;
    return 0;
}

static long bdd_produced(void)
{
    bddStat st;
    bdd_stats(&st);
    return st.produced;
}

/* r[0..cnt) are members of [base, base + 2^(k+1)), increasing: the BDD of
 * that set over bits k..0 (unreferenced), or BDD_FAIL. */
static BDD build_rec(bdd_ctx_t *c, const int32_t *r, uint32_t cnt, uint32_t base, int k)
{
    uint32_t mid, s, lo_i, hi_i, j;
    BDD lo, hi, res;
    int shared = 0;

    if (0 == cnt) {
        return bddfalse;
    }
    if ((uint64_t) cnt == (1ull << (k + 1))) {
        return bddtrue;
    }
    /* k >= 0 here: a set of bits -1.. has 0 or 1 member */
    mid = base + (1u << k);
    lo_i = 0;
    hi_i = cnt;
    while (lo_i < hi_i) { /* first member >= mid */
        uint32_t h = lo_i + (hi_i - lo_i) / 2;
        if ((uint32_t) r[h] < mid) {
            lo_i = h + 1;
        } else {
            hi_i = h;
        }
    }
    s = lo_i;
    if (2 * s == cnt) { /* upper half = lower half + 2^k? */
        shared = 1;
        for (j = 0; j < s; j++) {
            if ((uint32_t) r[s + j] - (uint32_t) r[j] != (1u << k)) {
                shared = 0;
                break;
            }
        }
    }
    lo = build_rec(c, r, s, base, k - 1);
    if (BDD_FAIL == lo) {
        return BDD_FAIL;
    }
    if (shared) {
        return lo; /* bit k is a don't care */
    }
    bdd_addref(lo);
    hi = build_rec(c, r + s, cnt - s, mid, k - 1);
    if (BDD_FAIL == hi) {
        bdd_delref(lo);
        return BDD_FAIL;
    }
    if (hi == lo) {
        bdd_delref(lo);
        return lo;
    }
    bdd_addref(hi);
    res = bdd_ite(bdd_ithvar(BDD_VARS - 1 - k), hi, lo);
    bdd_delref(hi);
    bdd_delref(lo);
    if (0 != bdd_errcode || bdd_produced() - c->produced0 > c->max_nodes) {
        return BDD_FAIL;
    }
    return res;
}

/* Paths to true below node, with the bits above it given by (m, v). */
static int list_paths(bdd_ctx_t *c, BDD node, uint32_t m, uint32_t v)
{
    int k;
    if (bddfalse == node) {
        return 0;
    }
    if (bddtrue == node) {
        if (c->np >= c->max_paths) {
            return -1;
        }
        if (c->np == c->cap) {
            int32_t cap = c->cap ? 2 * c->cap : 16;
            uint32_t *pm = realloc(c->pm, sizeof(uint32_t) * (size_t) cap);
            uint32_t *pv;
            if (NULL != pm) {
                c->pm = pm;
            }
            pv = NULL == pm ? NULL : realloc(c->pv, sizeof(uint32_t) * (size_t) cap);
            if (NULL == pv) {
                c->oom = 1;
                return -1;
            }
            c->pv = pv;
            c->cap = cap;
        }
        c->pm[c->np] = m;
        c->pv[c->np] = v;
        c->np++;
        return 0;
    }
    k = BDD_VARS - 1 - bdd_var(node);
    m |= 1u << k;
    if (list_paths(c, bdd_low(node), m, v) < 0) {
        return -1;
    }
    return list_paths(c, bdd_high(node), m, v | (1u << k));
}

static int bdd_build(const grpmap_input_t *in, void **out)
{
    bdd_ctx_t c;
    bdd_map_t *map;
    int bits, auxbits = 0, ordered, rc = GRPMAP_OK;
    int32_t j;

    *out = NULL;
    if (!in->increasing) {
        return GRPMAP_DECLINE;
    }
    bits = in->world > 1 ? grpmap_bits((uint64_t) in->world - 1) : 1;
    memset(&c, 0, sizeof(c));

    if (in->n > 0) {
        BDD root;
        pthread_mutex_lock(&bdd_lock);
        if (bdd_start() < 0) {
            pthread_mutex_unlock(&bdd_lock);
            return GRPMAP_DECLINE;
        }
        c.max_nodes = bdd_max_nodes;
        c.max_paths = bdd_max_paths;
        /* BuDDy's own ceiling: the build's nodes, the variables', the
         * terminals; it cannot go below the table already allocated, where
         * the count of nodes produced does the job alone. */
        {
            long cap = (long) bdd_max_nodes + 2 * BDD_VARS + 2;
            if (cap > 0x7fffffffL) {
                cap = 0x7fffffffL;
            }
            if (cap > (long) bdd_getallocnum()) {
                bdd_setmaxnodenum((int) cap);
            }
        }
        bdd_errcode = 0;
        c.produced0 = bdd_produced();
        root = build_rec(&c, in->ranks, (uint32_t) in->n, 0, bits - 1);
        if (BDD_FAIL == root) {
            rc = GRPMAP_DECLINE;
        } else {
            bdd_addref(root);
            if (list_paths(&c, root, 0, 0) < 0) {
                rc = c.oom ? GRPMAP_ENOMEM : GRPMAP_DECLINE;
            }
            bdd_delref(root);
        }
        if (GRPMAP_OK != rc || 0 != bdd_errcode) {
            /* BuDDy may hold an error condition and dead nodes: clear it and
             * collect, so that the next build starts clean */
            bdd_clear_error();
            bdd_gbc();
            bdd_errcode = 0;
            if (GRPMAP_OK == rc) {
                rc = GRPMAP_DECLINE;
            }
        }
        if (bdd_getallocnum() > bdd_base_nodes) {
            /* the table grew (up to 20 bytes a node, max_nodes of them): give
             * it back now rather than hold it for the process's life */
            bdd_done();
            bdd_started = 0;
        }
        pthread_mutex_unlock(&bdd_lock);
        if (GRPMAP_OK != rc) {
            free(c.pm);
            free(c.pv);
            return rc;
        }
    }

    /* depth-first, 0 before 1: paths whose spans do not overlap come out
     * in increasing order */
    ordered = c.np > 1;
    for (j = 1; j < c.np && ordered; j++) {
        ordered = c.pv[j] > (c.pv[j - 1] | (~c.pm[j - 1] & low_mask(bits)));
    }
    if (c.np > 1 && !ordered) {
        auxbits = grpmap_bits((uint64_t) in->n);
    }
    map = calloc(1, map_bytes(c.np, bits, auxbits));
    if (NULL == map) {
        free(c.pm);
        free(c.pv);
        return GRPMAP_ENOMEM;
    }
    map->n = in->n;
    map->world = in->world;
    map->npaths = c.np;
    map->bits = (uint8_t) bits;
    map->ordered = (uint8_t) ordered;
    map->auxbits = (uint8_t) auxbits;
    for (j = 0; j < c.np; j++) {
        grpmap_packed_put(map->w, 2 * (uint64_t) j, bits, c.pm[j]);
        grpmap_packed_put(map->w, 2 * (uint64_t) j + 1, bits, c.pv[j]);
    }
    if (auxbits > 0) {
        uint64_t *aw = map->w + grpmap_packed_words(2 * (uint64_t) c.np, bits);
        int32_t i = 0;
        int t;
        for (t = 0; t < bits; t++) {
            while (i < in->n && (int64_t) in->ranks[i] < ((int64_t) 1 << t)) {
                i++;
            }
            grpmap_packed_put(aw, (uint64_t) t, auxbits, (uint64_t) i);
        }
    }
    free(c.pm);
    free(c.pv);
    *out = map;
    return GRPMAP_OK;
}

/* ---- queries (no BuDDy) ---- */

/* Ordered paths: the path holding member *r, and *r made its rank there. */
static int32_t ordered_find(const bdd_map_t *m, uint32_t *r)
{
    const uint32_t full = low_mask(m->bits);
    int32_t j;
    for (j = 0;; j++) {
        uint32_t pm, pv;
        uint64_t c;
        path_get(m, j, &pm, &pv);
        c = 1ull << pop32(~pm & full);
        if (*r < c) {
            return j;
        }
        *r -= (uint32_t) c;
    }
}

/* Bits k .. h+1 (h: the top bit below k that some path left specifies) are
 * X in every path left: none drops out there, and these bits are the digits
 * of *r in units of q = (members left) / 2^(k - h), tot being the members
 * left.  Returns h. */
static inline int skip_free_bits(uint32_t spec, int k, uint64_t tot, uint32_t *r, uint32_t *pre)
{
    uint32_t below = spec & low_mask(k);
    int h = below ? 31 - __builtin_clz(below) : -1;
    uint64_t q = tot >> (k - h), hb = *r / q;
    *r -= (uint32_t) (hb * q);
    *pre |= (uint32_t) hb << (h + 1);
    return h;
}

static int32_t bdd_select(const void *vm, int32_t i)
{
    const bdd_map_t *m = vm;
    const int bits = m->bits;
    const uint32_t full = low_mask(bits);
    uint32_t r = (uint32_t) i, pre, dec, spec, am[BDD_SEL_CAP], av[BDD_SEL_CAP];
    uint8_t ac[BDD_SEL_CAP];
    int32_t np = m->npaths, j, na;
    int k, t;

    if (1 == np) {
        uint32_t pm = path_m(m, 0);
        return (int32_t) (path_v(m, 0) | deposit(r, ~pm & full));
    }
    if (m->ordered) {
        uint32_t pm, pv;
        j = ordered_find(m, &r);
        path_get(m, j, &pm, &pv);
        return (int32_t) (pv | deposit(r, ~pm & full));
    }
    {
        /* top set bit t: the largest with (members below 2^t) <= i */
        const uint64_t *aw = aux_words(m);
        int lo = 0, hi = bits; /* count(lo) <= i < count(hi), count(b) = n */
        if (grpmap_packed_get(aw, 0, m->auxbits) > r) {
            return 0; /* i == 0 and 0 is a member */
        }
        while (hi - lo > 1) {
            int mid = (lo + hi) / 2;
            if (grpmap_packed_get(aw, (uint64_t) mid, m->auxbits) <= r) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        t = lo;
        r -= (uint32_t) grpmap_packed_get(aw, (uint64_t) t, m->auxbits);
    }
    pre = 1u << t;
    dec = full & ~low_mask(t); /* bits t .. b-1 decided */
    k = t - 1;                 /* the next bit to decide */

    /* Over BDD_SEL_CAP paths consistent: decide bits scanning them all. */
    for (;;) {
        uint64_t c0 = 0, tot = 0;
        spec = 0;
        na = 0;
        for (j = 0; j < np; j++) {
            uint32_t pm, pv;
            path_get(m, j, &pm, &pv);
            if ((pv ^ pre) & pm & dec) {
                continue;
            }
            if (na < BDD_SEL_CAP) {
                am[na] = pm;
                av[na] = pv;
            }
            if (np > BDD_SEL_CAP && k >= 0) {
                int c = pop32(~pm & low_mask(k + 1)); /* X bits at k and below */
                spec |= pm;
                tot += 1ull << c;
                if (!((pm & pv) >> k & 1)) {
                    c0 += 1ull << (c - !(pm >> k & 1));
                }
            }
            na++;
        }
        if (na <= BDD_SEL_CAP || k < 0) {
            break;
        }
        if (!(spec >> k & 1)) {
            k = skip_free_bits(spec, k, tot, &r, &pre);
            dec = full & ~low_mask(k + 1);
            continue;
        }
        if (r >= c0) {
            r -= (uint32_t) c0;
            pre |= 1u << k;
        }
        dec |= 1u << k;
        k--;
    }
    if (na > BDD_SEL_CAP) {
        na = BDD_SEL_CAP; /* not with disjoint cubes: all bits decided */
    }

    spec = 0;
    for (j = 0; j < na; j++) {
        ac[j] = (uint8_t) pop32(~am[j] & low_mask(k));
        spec |= am[j];
    }
    while (na > 1 && k >= 0) { /* disjoint cubes: k < 0 leaves one */
        uint64_t c0 = 0;
        uint32_t bit;
        int32_t nn = 0;
        if (!(spec >> k & 1)) {
            uint64_t tot = 0;
            for (j = 0; j < na; j++) {
                tot += 2ull << ac[j]; /* X at k: 2^(X bits below k + 1) */
            }
            k = skip_free_bits(spec, k, tot, &r, &pre);
            if (k < 0) {
                break;
            }
            for (j = 0; j < na; j++) {
                ac[j] = (uint8_t) pop32(~am[j] & low_mask(k));
            }
        }
        for (j = 0; j < na; j++) {
            if (!((am[j] & av[j]) >> k & 1)) {
                c0 += 1ull << ac[j];
            }
        }
        bit = r >= c0;
        if (bit) {
            r -= (uint32_t) c0;
            pre |= 1u << k;
        }
        spec = 0;
        for (j = 0; j < na; j++) {
            if (!(am[j] >> k & 1) || (av[j] >> k & 1) == bit) {
                am[nn] = am[j];
                av[nn] = av[j];
                ac[nn] = (uint8_t) (ac[j] - (k > 0 && !(am[j] >> (k - 1) & 1)));
                spec |= am[j];
                nn++;
            }
        }
        na = nn;
        k--;
    }
    {
        uint32_t below = low_mask(k + 1);
        return (int32_t) (pre | (av[0] & below) | deposit(r, ~am[0] & below));
    }
}

static int32_t bdd_rank(const void *vm, int32_t w)
{
    const bdd_map_t *m = vm;
    const uint32_t full = low_mask(m->bits);
    uint32_t t = (uint32_t) w;
    uint64_t cnt = 0;
    int32_t j;
    int found = 0;

    if (w < 0 || w >= m->world) {
        return GRPMAP_NOT_MEMBER;
    }
    if (m->ordered) { /* the paths before w's span, then w's */
        for (j = 0; j < m->npaths; j++) {
            uint32_t pm, pv, f;
            path_get(m, j, &pm, &pv);
            f = ~pm & full;
            if (t < pv) {
                break;
            }
            if (t <= (pv | f)) {
                return (t & pm) == pv ? (int32_t) (cnt + extract(t, f)) : GRPMAP_NOT_MEMBER;
            }
            cnt += 1ull << pop32(f);
        }
        return GRPMAP_NOT_MEMBER;
    }
    for (j = 0; j < m->npaths; j++) {
        uint32_t pm, pv, f, y;
        int ok;
        path_get(m, j, &pm, &pv);
        f = ~pm & full;
        if (t < pv) { /* the whole cube is above w */
            continue;
        }
        if (t > (pv | f)) { /* the whole cube is below w */
            cnt += 1ull << pop32(f);
            continue;
        }
        y = cube_succ(pm, pv, full, t, &ok);
        if (!ok) {
            cnt += 1ull << pop32(f); /* the whole cube is below w */
            continue;
        }
        found |= y == t;
        cnt += extract(y, f); /* the cube's members below y, hence below w */
    }
    return found ? (int32_t) cnt : GRPMAP_NOT_MEMBER;
}

typedef struct {
    uint32_t y, f, v; /* a path's next member, its X bits, its value */
} bdd_cur_t;

static inline void heap_down(bdd_cur_t *h, int32_t n, int32_t i)
{
    bdd_cur_t e = h[i];
    for (;;) {
        int32_t c = 2 * i + 1;
        if (c >= n) {
            break;
        }
        if (c + 1 < n && h[c + 1].y < h[c].y) {
            c++;
        }
        if (e.y <= h[c].y) {
            break;
        }
        h[i] = h[c];
        i = c;
    }
    h[i] = e;
}

static void bdd_iterate(const void *vm, int32_t first, int32_t count, int32_t *out)
{
    const bdd_map_t *m = vm;
    const uint32_t full = low_mask(m->bits);
    bdd_cur_t *h;
    uint32_t x;
    int32_t k, j, nh = 0;

    if (count <= 0) {
        return;
    }
    if (m->ordered) { /* each path's members in turn */
        uint32_t r = (uint32_t) first, pm, pv, f, s;
        j = ordered_find(m, &r);
        path_get(m, j, &pm, &pv);
        f = ~pm & full;
        s = deposit(r, f);
        out[0] = (int32_t) (pv | s);
        for (k = 1; k < count; k++) {
            if (s == f) {
                path_get(m, ++j, &pm, &pv);
                f = ~pm & full;
                s = 0;
            } else {
                s = (s - f) & f;
            }
            out[k] = (int32_t) (pv | s);
        }
        return;
    }
    x = (uint32_t) bdd_select(m, first);
    out[0] = (int32_t) x;
    if (1 == m->npaths) {
        uint32_t pm = path_m(m, 0), pv = path_v(m, 0), f = ~pm & full, s = x & f;
        for (k = 1; k < count; k++) { /* next subset of the X bits */
            s = (s - f) & f;
            out[k] = (int32_t) (pv | s);
        }
        return;
    }
    h = count > 1 && m->npaths > 16 ? malloc(sizeof(bdd_cur_t) * (size_t) m->npaths) : NULL;
    if (NULL == h) { /* few paths (or no memory): the smallest successor */
        for (k = 1; k < count; k++) {
            uint32_t best = UINT32_MAX;
            for (j = 0; j < m->npaths; j++) {
                int ok;
                uint32_t pm, pv, y;
                path_get(m, j, &pm, &pv);
                y = cube_succ(pm, pv, full, x + 1, &ok);
                if (ok && y < best) {
                    best = y;
                }
            }
            x = best;
            out[k] = (int32_t) x;
        }
        return;
    }
    /* many paths: merge them, one heap entry a path with a member > x */
    for (j = 0; j < m->npaths; j++) {
        int ok;
        uint32_t pm, pv, y;
        path_get(m, j, &pm, &pv);
        y = cube_succ(pm, pv, full, x + 1, &ok);
        if (ok) {
            h[nh].y = y;
            h[nh].f = ~pm & full;
            h[nh].v = pv;
            nh++;
        }
    }
    for (j = nh / 2 - 1; j >= 0; j--) {
        heap_down(h, nh, j);
    }
    for (k = 1; k < count; k++) {
        uint32_t s = h[0].y & h[0].f;
        out[k] = (int32_t) h[0].y;
        if (s == h[0].f) { /* the cube's last member */
            h[0] = h[--nh];
        } else {
            h[0].y = h[0].v | ((s - h[0].f) & h[0].f);
        }
        heap_down(h, nh, 0);
    }
    free(h);
}

static size_t bdd_bytes(const void *vm)
{
    const bdd_map_t *m = vm;
    return map_bytes(m->npaths, m->bits, m->auxbits);
}

int32_t grpmap_bdd_paths(const void *map)
{
    return ((const bdd_map_t *) map)->npaths;
}

void grpmap_bdd_set_limits(int max_nodes, int max_paths)
{
    pthread_mutex_lock(&bdd_lock);
    bdd_max_nodes = max_nodes < 1 ? GRPMAP_BDD_DEFAULT_MAX_NODES : max_nodes;
    bdd_max_paths = max_paths < 1 ? GRPMAP_BDD_DEFAULT_MAX_PATHS : max_paths;
    pthread_mutex_unlock(&bdd_lock);
}

void grpmap_bdd_finalize(void)
{
    pthread_mutex_lock(&bdd_lock);
    if (bdd_started) {
        bdd_done();
        bdd_started = 0;
    }
    pthread_mutex_unlock(&bdd_lock);
}

const grpmap_repr_t grpmap_bdd_repr = {
    .name = "bdd",
    .kind = GRPMAP_KIND_SET,
    .select_ns = 20.0,
    GRPMAP_REPR_OPS(bdd),
};
