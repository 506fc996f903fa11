/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Rice block codec core (stream format in compress_rice.h).  Depends only on
 * the C library so it can be linked into unit tests and benchmarks.
 */

#include <stdint.h>
#include <string.h>

#include "opal/mca/compress/base/compress_base_bytes.h"
#include "opal/mca/compress/base/compress_base_codec.h"
#include "opal/mca/compress/rice/compress_rice.h"

#define MCA_COMPRESS_RICE_BLOCK    256 /* values per block */
/* Unary cap 8: a smaller cap makes outliers in sparse data cheaper, a larger
 * one helps heavy-tailed data; 8 measured the best compromise of 4, 8, 16. */
#define MCA_COMPRESS_RICE_QBITS    3
#define MCA_COMPRESS_RICE_QMAX     (1u << MCA_COMPRESS_RICE_QBITS)
#define MCA_COMPRESS_RICE_RAW_K    32u
#define MCA_COMPRESS_RICE_HDR_BITS 7u  /* mode + 6-bit k */
#define MCA_COMPRESS_RICE_ESC_BITS (MCA_COMPRESS_RICE_QMAX + 32u)

/* With GCC on x86-64 the encoder is built twice, for any x86-64 and for
 * x86-64-v3 CPUs (AVX2, BMI2, LZCNT), and each call takes the build the
 * CPU can run.  The v3 build computes bit lengths in a form that
 * vectorises (1.3-1.6x); the generic one keeps scalar code with BSR,
 * which is faster there.  Same output.  MCA_COMPRESS_RICE_NO_V3 builds the
 * generic one only (its tests).  The decoder measured no gain. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12 && defined(__x86_64__) \
    && !defined(MCA_COMPRESS_RICE_NO_V3)
#    define MCA_COMPRESS_RICE_V3 1
/* what the encoder calls must be compiled into each build */
#    define MCA_COMPRESS_RICE_INLINE inline __attribute__((always_inline))
#else
#    define MCA_COMPRESS_RICE_V3 0
#    define MCA_COMPRESS_RICE_INLINE inline
#endif

/* Zigzag on the two's complement reading of x, in unsigned arithmetic so
 * that no signed overflow or implementation-defined shift is involved. */
static inline uint32_t mca_compress_rice_zigzag(uint32_t x)
{
    return (x << 1) ^ (0u - (x >> 31));
}

static inline uint32_t mca_compress_rice_unzigzag(uint32_t u)
{
    return (u >> 1) ^ (0u - (u & 1u));
}

/* Number of significant bits of (u | 1): 1..32. */
static inline unsigned mca_compress_rice_bitlen(uint32_t u)
{
#if defined(__GNUC__)
    return 32u - (unsigned) __builtin_clz(u | 1u);
#else
    unsigned b = 1;
    while (u >>= 1) {
        ++b;
    }
    return b;
#endif
}

/* Index of the lowest zero bit of x; x must have one. */
static inline unsigned mca_compress_rice_ones(uint64_t x)
{
#if defined(__GNUC__)
    return (unsigned) __builtin_ctzll(~x);
#else
    unsigned n = 0;
    while (x & 1u) {
        x >>= 1;
        ++n;
    }
    return n;
#endif
}

static size_t mca_compress_rice_bound(size_t len)
{
    size_t n, nblocks, bytes;

    if (0 == len) {
        return 0;
    }
    n = len / 4;
    nblocks = n / MCA_COMPRESS_RICE_BLOCK + (0 != n % MCA_COMPRESS_RICE_BLOCK);
    /* Every block can fall back to k = 32: 7 header bits + 32 bits/value. */
    bytes = (nblocks / 8) * MCA_COMPRESS_RICE_HDR_BITS
            + ((nblocks % 8) * MCA_COMPRESS_RICE_HDR_BITS + 7) / 8;
    bytes += opal_compress_base_varint_len(len);
    return opal_compress_base_add_sat(len, bytes);
}

/*
 * Histogram of one block for one mode, from which the exact cost of every k
 * follows.  A value of bit length b (taking 0 as length 1, which changes
 * nothing below) costs 1 + k bits when b <= k, q + 1 + k bits with
 * q = u >> k in 1..QMAX-1 when k < b <= k + QBITS, and ESC_BITS when
 * b > k + QBITS.  The only value-dependent part, u >> k for k in
 * [b - QBITS, b - 1], depends on b and the top QBITS bits t of u alone, so
 * one increment of bin (b, t) per value is enough.
 */
#define MCA_COMPRESS_RICE_BINS (33 * MCA_COMPRESS_RICE_QMAX)

/* Bit length of u | 1 (1..32) without LZCNT, so that the loops computing
 * it vectorise (AVX2 has no vector LZCNT): v keeps the ones of w whose next
 * higher bit is zero, so rounding it to a float cannot carry into the
 * exponent, which is then floor(log2(w)).  The conversion is signed: bit
 * 31 is tested apart.  Checked against __builtin_clz for all 2^32 values.
 * Selections here and below use masks: branches keep GCC from
 * vectorising. */
static MCA_COMPRESS_RICE_INLINE uint32_t mca_compress_rice_bitlen_v(uint32_t u)
{
    uint32_t w = u | 1u, v = w & ~(w >> 1), e;
    float f = (float) (int32_t) (v & 0x7fffffffu);
    uint32_t top = 0u - (w >> 31);
    memcpy(&e, &f, sizeof(e));
    return (32u & top) | (((e >> 23) - 126u) & ~top);
}

/* Bin (b, t) of u: t = u << QBITS >> b.  vec: the form that vectorises
 * (32-bit lanes); shift counts are masked to stay defined in C, and where
 * a masked count is wrong, the mask discards the result.  The generic
 * build keeps BSR, the 64-bit shift and the branch in scan_one: the masked
 * forms measured 0.55-0.98x there. */
static MCA_COMPRESS_RICE_INLINE uint16_t mca_compress_rice_bin(uint32_t u, const int vec)
{
    uint32_t b, hi, t;
    if (!vec) {
        b = mca_compress_rice_bitlen(u);
        t = (uint32_t) (((uint64_t) u << MCA_COMPRESS_RICE_QBITS) >> b);
        return (uint16_t) (b * MCA_COMPRESS_RICE_QMAX + t);
    }
    b = mca_compress_rice_bitlen_v(u);
    hi = 0u - (uint32_t) (b > 32 - MCA_COMPRESS_RICE_QBITS);
    t = ((u >> ((b - MCA_COMPRESS_RICE_QBITS) & 31)) & hi)
        | (((u << MCA_COMPRESS_RICE_QBITS) >> (b & 31)) & ~hi);
    return (uint16_t) (b * MCA_COMPRESS_RICE_QMAX + t);
}

/* hist = the histogram of bin[0..cnt).  Four interleaved byte-sized copies
 * (at most BLOCK / 4 = 64 counts each) cut the store-to-load chains when
 * most values fall into one bin; their sum is a vector loop. */
static MCA_COMPRESS_RICE_INLINE void mca_compress_rice_count(const uint16_t *bin, size_t cnt,
                                                             uint16_t *hist)
{
    uint8_t h[4][MCA_COMPRESS_RICE_BINS];
    size_t i;
    memset(h, 0, sizeof(h));
    for (i = 0; i + 4 <= cnt; i += 4) {
        ++h[0][bin[i]];
        ++h[1][bin[i + 1]];
        ++h[2][bin[i + 2]];
        ++h[3][bin[i + 3]];
    }
    for (; i < cnt; ++i) {
        ++h[0][bin[i]];
    }
    for (i = 0; i < MCA_COMPRESS_RICE_BINS; ++i) {
        hist[i] = (uint16_t) ((uint16_t) h[0][i] + h[1][i] + h[2][i] + h[3][i]);
    }
}

/* Exact bit count of the block's values (histogram h) with the best k;
 * stores that k and the number of escapes with it.  Only k in
 * [bmin - QBITS, bmax] can be best (b ranging over the block's bit
 * lengths): below, every value escapes; above, every value costs k + 1
 * bits.  Ties keep the smallest k, as a full scan would. */
static MCA_COMPRESS_RICE_INLINE uint32_t
mca_compress_rice_best_k(const uint16_t *hist, size_t n, unsigned *k_out, uint32_t *esc_out)
{
    enum { T = MCA_COMPRESS_RICE_QMAX, QB = MCA_COMPRESS_RICE_QBITS };
    uint32_t cnt[33];
    uint32_t best = UINT32_MAX, below = 0, best_esc = 0;
    unsigned best_k = 0, bmin = 33, bmax = 0;
    unsigned k, b, j, t, kmin, kmax;

    for (b = 0; b <= 32; ++b) {
        cnt[b] = 0;
        for (t = 0; t < T; ++t) {
            cnt[b] += hist[b * T + t];
        }
        if (cnt[b] > 0) {
            bmin = b < bmin ? b : bmin;
            bmax = b;
        }
    }
    kmin = bmin > QB ? bmin - QB : 0;
    kmax = bmax < MCA_COMPRESS_RICE_RAW_K ? bmax : MCA_COMPRESS_RICE_RAW_K - 1;
    for (b = 0; b < kmin + QB; ++b) {
        below += cnt[b];
    }
    for (k = kmin; k <= kmax; ++k) {
        uint32_t cost, qsum = 0;
        if (k + QB <= 32) {
            below += cnt[k + QB]; /* values with b <= k + QBITS: no escape */
        }
        /* Sum of u >> k = t >> (QB - j) over values with b = k + j. */
        for (j = 1; j <= QB && k + j <= 32; ++j) {
            for (t = 0; t < T; ++t) {
                qsum += (uint32_t) hist[(k + j) * T + t] * (t >> (QB - j));
            }
        }
        cost = (k + 1) * below + qsum + MCA_COMPRESS_RICE_ESC_BITS * ((uint32_t) n - below);
        if (cost < best) {
            best = cost;
            best_k = k;
            best_esc = (uint32_t) n - below;
        }
    }
    if (MCA_COMPRESS_RICE_RAW_K * (uint32_t) n < best) {
        best = MCA_COMPRESS_RICE_RAW_K * (uint32_t) n;
        best_k = MCA_COMPRESS_RICE_RAW_K;
        best_esc = 0;
    }
    *k_out = best_k;
    *esc_out = best_esc;
    return best;
}

/* Exact cost and best k of one mode's values (see best_k). */
static MCA_COMPRESS_RICE_INLINE uint32_t
mca_compress_rice_mode_cost(const uint32_t *u, size_t cnt, unsigned *k_out, uint32_t *esc_out,
                            const int vec)
{
    uint16_t bin[MCA_COMPRESS_RICE_BLOCK], hist[MCA_COMPRESS_RICE_BINS];
    size_t i;
    for (i = 0; i < cnt; ++i) {
        bin[i] = mca_compress_rice_bin(u[i], vec);
    }
    mca_compress_rice_count(bin, cnt, hist);
    return mca_compress_rice_best_k(hist, cnt, k_out, esc_out);
}

/* One value of the scan below. */
static MCA_COMPRESS_RICE_INLINE void mca_compress_rice_scan_one(uint32_t x, uint32_t p, size_t i,
                                                                uint32_t *u0, uint32_t *u1,
                                                                uint16_t *bin, uint32_t *l, int a,
                                                                const int vec)
{
    uint32_t v0 = mca_compress_rice_zigzag(x), v1 = mca_compress_rice_zigzag(x - p);
    uint32_t va = a ? v1 : v0, vb = a ? v0 : v1;
    u0[i] = v0;
    u1[i] = v1;
    bin[i] = mca_compress_rice_bin(va, vec);
    if (vec) {
        *l += mca_compress_rice_bitlen_v(vb) & (0u - (uint32_t) (0 != vb));
    } else {
        *l += vb ? mca_compress_rice_bitlen(vb) : 0; /* LZCNT or BSR */
    }
}

/* The pass over one block (cnt >= 1): the zigzagged values of both modes
 * into u0 and u1, the histogram of mode a's values and the lower bound on
 * the other mode's cost (see the caller).  The first loop has no stores
 * that depend on the data, so it vectorises.  a is a constant at each
 * call, so each use is specialised. */
static MCA_COMPRESS_RICE_INLINE uint32_t
mca_compress_rice_scan(const uint8_t *in, size_t cnt, uint32_t prev, uint32_t *u0, uint32_t *u1,
                       const int a, uint16_t *hist, uint32_t *lb, const int vec)
{
    uint16_t bin[MCA_COMPRESS_RICE_BLOCK];
    uint32_t l = 0;
    size_t i;
    mca_compress_rice_scan_one(opal_compress_base_load_le32(in), prev, 0, u0, u1, bin, &l, a, vec);
    for (i = 1; i < cnt; ++i) {
        mca_compress_rice_scan_one(opal_compress_base_load_le32(in + 4 * i),
                                   opal_compress_base_load_le32(in + 4 * i - 4), i, u0, u1, bin,
                                   &l, a, vec);
    }
    mca_compress_rice_count(bin, cnt, hist);
    *lb += l;
    return opal_compress_base_load_le32(in + 4 * cnt - 4);
}

/* LSB-first bit writer: fewer than 8 bits pending between puts. */
typedef struct {
    uint8_t *out;
    size_t pos;   /* bytes completed */
    uint64_t acc; /* pending bits, clean above nacc */
    unsigned nacc;
} mca_compress_rice_writer_t;

/*
 * Appends count <= 56 bits (clean above count; 7 may be pending).  The fast variant stores 8
 * bytes unconditionally and needs 8 bytes of room past pos; the other one
 * stores only complete bytes, i.e. bytes the caller has already accounted
 * for.  Both produce the same stream.
 */
static inline void mca_compress_rice_put(mca_compress_rice_writer_t *w, uint64_t bits,
                                         unsigned count, int fast)
{
    w->acc |= bits << w->nacc;
    w->nacc += count;
    if (fast) {
        opal_compress_base_store_le64(w->out + w->pos, w->acc);
        w->pos += w->nacc >> 3;
        w->acc >>= w->nacc & ~7u;
        w->nacc &= 7u;
    } else {
        while (w->nacc >= 8) {
            w->out[w->pos++] = (uint8_t) w->acc;
            w->acc >>= 8;
            w->nacc -= 8;
        }
    }
}

/* The code of u with quotient q < QMAX: q ones, a zero, the k low bits. */
static inline uint64_t mca_compress_rice_code(uint32_t u, unsigned q, uint64_t kmask)
{
    return ((UINT64_C(1) << q) - 1) | ((u & kmask) << (q + 1));
}

/* One value: its code, or QMAX ones and 32 raw bits. */
static MCA_COMPRESS_RICE_INLINE void
mca_compress_rice_put_one(mca_compress_rice_writer_t *w, uint32_t u, unsigned k, uint64_t kmask,
                          int fast)
{
    uint32_t q = u >> k;
    if (q < MCA_COMPRESS_RICE_QMAX) {
        mca_compress_rice_put(w, mca_compress_rice_code(u, q, kmask), q + 1 + k, fast);
    } else {
        mca_compress_rice_put(w, ((UINT64_C(1) << MCA_COMPRESS_RICE_QMAX) - 1)
                                     | ((uint64_t) u << MCA_COMPRESS_RICE_QMAX),
                              MCA_COMPRESS_RICE_ESC_BITS, fast);
    }
}

/* Writes one block.  rare: at most 1 in 16 values escapes with this k;
 * then pairs of codes of at most QMAX + k bits go in one put when k <= 20,
 * and escapes are branched to.  Otherwise the branch would mispredict. */
static MCA_COMPRESS_RICE_INLINE void
mca_compress_rice_put_block(mca_compress_rice_writer_t *wp, const uint32_t *u, size_t n,
                            unsigned mode, unsigned k, int rare, int fast)
{
    /* A private copy: stores through out could alias *wp, which would force
     * the compiler to reload the state from memory after every store. */
    mca_compress_rice_writer_t lw = *wp, *w = &lw;
    const uint64_t kmask = (UINT64_C(1) << (k & 31)) - 1;
    size_t i = 0;

    mca_compress_rice_put(w, mode | (k << 1), MCA_COMPRESS_RICE_HDR_BITS, fast);
    if (MCA_COMPRESS_RICE_RAW_K == k) {
        for (i = 0; i < n; ++i) {
            mca_compress_rice_put(w, u[i], 32, fast);
        }
        *wp = lw;
        return;
    }
    if (rare && k <= 20) {
        for (; i + 1 < n; i += 2) {
            unsigned q0 = u[i] >> k, q1 = u[i + 1] >> k, n0 = q0 + 1 + k;
            if ((q0 | q1) < MCA_COMPRESS_RICE_QMAX) {
                mca_compress_rice_put(w,
                                      mca_compress_rice_code(u[i], q0, kmask)
                                          | (mca_compress_rice_code(u[i + 1], q1, kmask) << n0),
                                      n0 + q1 + 1 + k, fast);
            } else {
                mca_compress_rice_put_one(w, u[i], k, kmask, fast);
                mca_compress_rice_put_one(w, u[i + 1], k, kmask, fast);
            }
        }
    }
    for (; i < n; ++i) {
        /* q ones, a zero, the k low bits; or QMAX ones and 32 raw bits.
         * Selected with masks: escapes are scattered, a branch mispredicts. */
        uint32_t q = u[i] >> k;
        uint64_t esc = 0 - (uint64_t) (q >= MCA_COMPRESS_RICE_QMAX);
        unsigned qq = q & (unsigned) ~esc & (MCA_COMPRESS_RICE_QMAX - 1);
        uint64_t code = mca_compress_rice_code(u[i], qq, kmask);
        uint64_t esc_code = ((UINT64_C(1) << MCA_COMPRESS_RICE_QMAX) - 1)
                            | ((uint64_t) u[i] << MCA_COMPRESS_RICE_QMAX);
        unsigned count = qq + 1 + k;
        count ^= (count ^ MCA_COMPRESS_RICE_ESC_BITS) & (unsigned) esc;
        mca_compress_rice_put(w, (code & ~esc) | (esc_code & esc), count, fast);
    }
    *wp = lw;
}

/* The encoder; vec: the build for x86-64-v3 (see the top). */
static MCA_COMPRESS_RICE_INLINE ssize_t mca_compress_rice_encode(const void *in_, size_t len,
                                                                 void *out_, size_t cap,
                                                                 const int vec)
{
    const uint8_t *in = (const uint8_t *) in_;
    uint8_t *out = (uint8_t *) out_;
    uint32_t u0[MCA_COMPRESS_RICE_BLOCK], u1[MCA_COMPRESS_RICE_BLOCK];
    uint16_t hist[MCA_COMPRESS_RICE_BINS];
    unsigned mode_a = 1; /* the mode the last block used */
    mca_compress_rice_writer_t w;
    size_t n, tail, hdr, base;
    uint64_t bits = 0; /* bits of the block stream so far */
    uint32_t prev = 0;
    ssize_t rc = opal_compress_base_compress_begin(in, len, out, &cap);

    if (rc <= 0) {
        return rc;
    }
    n = len / 4;
    tail = len % 4;
    hdr = opal_compress_base_varint_len(len);
    if (cap < hdr + tail) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    out += opal_compress_base_varint_put(out, len);
    cap -= hdr + tail; /* what is left for the bit stream */

    w.out = out;
    w.pos = 0;
    w.acc = 0;
    w.nacc = 0;
    for (base = 0; base < n; base += MCA_COMPRESS_RICE_BLOCK) {
        size_t cnt = n - base;
        unsigned k0, k1;
        uint32_t c0, c1, e0, e1;
        int use_delta;
        if (cnt > MCA_COMPRESS_RICE_BLOCK) {
            cnt = MCA_COMPRESS_RICE_BLOCK;
        }
        /* One pass: both modes' values, the histogram of the mode that won
         * the last block (a), and a lower bound on the other's (b) cost: a
         * value of bit length L costs at least L + 1 bits with any k (0 costs
         * 1), a block at most 32 bits a value.  The other mode's histogram is
         * only built when that bound does not rule it out, with the tie rule
         * of computing both (mode 0 wins a tie). */
        {
            const uint32_t *ub = mode_a ? u0 : u1;
            uint32_t ca, cb = UINT32_MAX, ea = 0, eb = 0, lbb = (uint32_t) cnt;
            unsigned ka, kb = 0;
            if (mode_a) {
                prev = mca_compress_rice_scan(in + 4 * base, cnt, prev, u0, u1, 1, hist, &lbb,
                                              vec);
            } else {
                prev = mca_compress_rice_scan(in + 4 * base, cnt, prev, u0, u1, 0, hist, &lbb,
                                              vec);
            }
            ca = mca_compress_rice_best_k(hist, cnt, &ka, &ea);
            if (lbb > MCA_COMPRESS_RICE_RAW_K * (uint32_t) cnt) {
                lbb = MCA_COMPRESS_RICE_RAW_K * (uint32_t) cnt;
            }
            if (mode_a ? lbb <= ca : lbb < ca) {
                cb = mca_compress_rice_mode_cost(ub, cnt, &kb, &eb, vec);
            }
            c0 = mode_a ? cb : ca;
            c1 = mode_a ? ca : cb;
            k0 = mode_a ? kb : ka;
            k1 = mode_a ? ka : kb;
            e0 = mode_a ? eb : ea;
            e1 = mode_a ? ea : eb;
        }
        use_delta = c1 < c0;
        mode_a = (unsigned) use_delta;
        /* The exact size is known before the block is written, so running
         * out of room is detected before any store past cap. */
        bits += MCA_COMPRESS_RICE_HDR_BITS + (use_delta ? c1 : c0);
        if ((bits + 7) / 8 > cap) {
            return OPAL_ERR_OUT_OF_RESOURCE;
        }
        {
            const uint32_t *u = use_delta ? u1 : u0;
            unsigned k = use_delta ? k1 : k0;
            int rare = (use_delta ? e1 : e0) * 16 <= cnt;
            if (bits / 8 + 8 <= cap) {
                mca_compress_rice_put_block(&w, u, cnt, (unsigned) use_delta, k, rare, 1);
            } else {
                mca_compress_rice_put_block(&w, u, cnt, (unsigned) use_delta, k, rare, 0);
            }
        }
    }
    /* Last partial byte; its padding bits are zero. */
    if (w.nacc > 0) {
        w.out[w.pos++] = (uint8_t) w.acc;
    }
    memcpy(w.out + w.pos, in + 4 * n, tail);
    return (ssize_t) (hdr + w.pos + tail);
}

#if MCA_COMPRESS_RICE_V3
__attribute__((target("arch=x86-64-v3"))) static ssize_t
mca_compress_rice_compress_v3(const void *in, size_t len, void *out, size_t cap)
{
    return mca_compress_rice_encode(in, len, out, cap, 1);
}
#endif

static ssize_t mca_compress_rice_compress(const void *in, size_t len, void *out, size_t cap)
{
#if MCA_COMPRESS_RICE_V3
    __builtin_cpu_init(); /* cheap once done; needed before main in a plugin */
    if (__builtin_cpu_supports("x86-64-v3")) {
        return mca_compress_rice_compress_v3(in, len, out, cap);
    }
#endif
    return mca_compress_rice_encode(in, len, out, cap, 0);
}

/* LSB-first bit reader.  buf is kept clean above n (n <= 63), so a run of
 * ones in buf never extends past the bits actually read. */
typedef struct {
    const uint8_t *p, *end;
    uint64_t buf;
    unsigned n;
} mca_compress_rice_reader_t;

/* Tops buf up to >= 56 bits, or to whatever is left of the input. */
static inline void mca_compress_rice_refill(mca_compress_rice_reader_t *r)
{
    if (r->end - r->p >= 8) {
        r->buf |= opal_compress_base_load_le64(r->p) << r->n;
        r->p += (63 - r->n) >> 3;
        r->n |= 56;
        r->buf &= UINT64_MAX >> (64 - r->n); /* drop the partial next byte */
    } else {
        while (r->n < 56 && r->p < r->end) {
            r->buf |= (uint64_t) *r->p++ << r->n;
            r->n += 8;
        }
    }
}

static inline void mca_compress_rice_skip(mca_compress_rice_reader_t *r, unsigned count)
{
    r->buf >>= count;
    r->n -= count;
}

/* Decodes one block of cnt values into out; prev as in the encoder.
 * Returns 0 or OPAL_ERR_UNPACK_FAILURE. */
static int mca_compress_rice_get_block(mca_compress_rice_reader_t *r, uint8_t *out, size_t cnt,
                                       uint32_t *prev_io)
{
    uint32_t prev = *prev_io, mode_mask;
    unsigned k;
    size_t i;

    mca_compress_rice_refill(r);
    if (r->n < MCA_COMPRESS_RICE_HDR_BITS) {
        return OPAL_ERR_UNPACK_FAILURE;
    }
    mode_mask = 0u - (uint32_t) (r->buf & 1u); /* mode 1: add prev */
    k = (unsigned) (r->buf >> 1) & 0x3fu;
    mca_compress_rice_skip(r, MCA_COMPRESS_RICE_HDR_BITS);
    if (k > MCA_COMPRESS_RICE_RAW_K) {
        return OPAL_ERR_UNPACK_FAILURE;
    }
    if (MCA_COMPRESS_RICE_RAW_K == k) {
        for (i = 0; i < cnt; ++i) {
            uint32_t x;
            if (r->n < 32) {
                mca_compress_rice_refill(r);
                if (r->n < 32) {
                    return OPAL_ERR_UNPACK_FAILURE;
                }
            }
            x = mca_compress_rice_unzigzag((uint32_t) r->buf) + (prev & mode_mask);
            mca_compress_rice_skip(r, 32);
            opal_compress_base_store_le32(out + 4 * i, x);
            prev = x;
        }
    } else {
        const uint64_t mask = (UINT64_C(1) << k) - 1;
        for (i = 0; i < cnt; ++i) {
            unsigned q, qq, count;
            uint64_t full;
            uint32_t x;
            int esc;
            if (r->n < MCA_COMPRESS_RICE_ESC_BITS) {
                mca_compress_rice_refill(r);
            }
            q = mca_compress_rice_ones(r->buf);
            esc = q >= MCA_COMPRESS_RICE_QMAX;
            qq = esc ? 0 : q; /* keeps the shifts below in range */
            full = ((uint64_t) qq << k) | ((r->buf >> (qq + 1)) & mask);
            count = esc ? MCA_COMPRESS_RICE_ESC_BITS : qq + 1 + k;
            /* Too few bits (a missing terminating zero included), or a
             * value no encoder makes. */
            if (count > r->n || (!esc && full > UINT32_MAX)) {
                return OPAL_ERR_UNPACK_FAILURE;
            }
            x = esc ? (uint32_t) (r->buf >> MCA_COMPRESS_RICE_QMAX) : (uint32_t) full;
            mca_compress_rice_skip(r, count);
            x = mca_compress_rice_unzigzag(x) + (prev & mode_mask);
            opal_compress_base_store_le32(out + 4 * i, x);
            prev = x;
        }
    }
    *prev_io = prev;
    return 0;
}

static ssize_t mca_compress_rice_decompress(const void *in_, size_t len, void *out_, size_t cap,
                                            size_t expected_len)
{
    const uint8_t *in = (const uint8_t *) in_;
    uint8_t *out = (uint8_t *) out_;
    mca_compress_rice_reader_t r;
    size_t hlen, n, tail, base;
    uint64_t v;
    uint32_t prev = 0;
    ssize_t rc = opal_compress_base_decompress_begin(in, len, out, cap, expected_len);

    if (rc <= 0) {
        return rc;
    }
    /* The header must be exactly the minimal varint of expected_len. */
    hlen = opal_compress_base_varint_get(in, len, &v);
    tail = expected_len % 4;
    n = expected_len / 4;
    if (0 == hlen || v != expected_len || len - hlen < tail) {
        return OPAL_ERR_UNPACK_FAILURE;
    }
    r.p = in + hlen;
    r.end = in + len - tail;
    r.buf = 0;
    r.n = 0;

    for (base = 0; base < n; base += MCA_COMPRESS_RICE_BLOCK) {
        size_t cnt = n - base;
        if (cnt > MCA_COMPRESS_RICE_BLOCK) {
            cnt = MCA_COMPRESS_RICE_BLOCK;
        }
        if (0 != mca_compress_rice_get_block(&r, out + 4 * base, cnt, &prev)) {
            return OPAL_ERR_UNPACK_FAILURE;
        }
    }
    /* Only the zero padding of the last byte may remain. */
    if (r.p != r.end || r.n >= 8 || 0 != r.buf) {
        return OPAL_ERR_UNPACK_FAILURE;
    }
    memcpy(out + 4 * n, r.end, tail);
    return (ssize_t) expected_len;
}

OPAL_COMPRESS_CODEC(rice, mca_compress_rice, OPAL_COMPRESS_ID_RICE, OPAL_COMPRESS_SPEED_MEDIUM,
                    OPAL_COMPRESS_DT_INT32);
