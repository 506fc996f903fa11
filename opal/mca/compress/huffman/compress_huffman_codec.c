/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Canonical Huffman byte codec.  The stream format is described in
 * compress_huffman.h.
 *
 * Code lengths are limited to MAX_BITS with package-merge, which gives the
 * optimal length-limited code (identical in cost to plain Huffman whenever
 * that already fits the limit), so that the decoder resolves every symbol
 * with a single lookup in a 2^MAX_BITS table.  Everything lives on the stack:
 * no allocation, no mutable static state.
 */

#include <string.h>

#include "opal/mca/compress/base/compress_base_bytes.h"
#include "opal/mca/compress/base/compress_base_codec.h"
#include "opal/mca/compress/huffman/compress_huffman.h"

#define MAX_BITS MCA_COMPRESS_HUFFMAN_MAX_BITS
#define TABLE_SIZE (1u << MAX_BITS)
#define BLOCK_SIZE ((size_t)MCA_COMPRESS_HUFFMAN_BLOCK_SIZE)
#define BLOCK_HDR 4 /* mode + raw_len */

/* Canonical (deflate-order) codes, returned bit-reversed because the
 * bitstream is consumed from the least significant bit. */
static void canon_codes(const uint8_t len[256], uint16_t rev[256])
{
    unsigned count[MAX_BITS + 1] = {0};
    unsigned next[MAX_BITS + 1];
    unsigned code = 0;

    for (int s = 0; s < 256; s++) {
        count[len[s]]++;
    }
    count[0] = 0;
    for (int b = 1; b <= MAX_BITS; b++) {
        code = (code + count[b - 1]) << 1;
        next[b] = code;
    }
    for (int s = 0; s < 256; s++) {
        unsigned l = len[s], c, r = 0;
        if (0 == l) {
            rev[s] = 0;
            continue;
        }
        c = next[l]++;
        for (unsigned i = 0; i < l; i++) {
            r = (r << 1) | ((c >> i) & 1u);
        }
        rev[s] = (uint16_t)r;
    }
}

/*
 * Package-merge.  List 0 holds the leaves (the coins of width 2^-MAX_BITS);
 * list l merges the leaves with the pairs of list l-1.  The 2n-2 cheapest
 * items of the last list form the optimal code; since every list is sorted
 * and pairs are taken in order, the selected items of each list are a prefix,
 * and a leaf's code length is the number of prefixes it lies in.  Only the
 * leaf/package pattern of each list must be remembered for that.
 * Requires 2 <= distinct symbols.  Returns 0, or -1 on an internal error.
 */
static int limited_lengths(const uint32_t freq[256], uint8_t len[256])
{
    uint32_t f[256], wa[512], wb[512];
    uint8_t sym[256], depth[256];
    uint8_t ispkg[MAX_BITS][512];
    unsigned cnt[MAX_BITS];
    uint32_t *prev = wa, *cur = wb, *tmp;
    unsigned n = 0, m, kraft = 0;

    /* Insertion sort by (frequency, symbol): n <= 256 and it keeps the
     * result deterministic on ties. */
    for (unsigned s = 0; s < 256; s++) {
        unsigned j;
        if (0 == freq[s]) {
            continue;
        }
        for (j = n; j > 0 && f[j - 1] > freq[s]; j--) {
            f[j] = f[j - 1];
            sym[j] = sym[j - 1];
        }
        f[j] = freq[s];
        sym[j] = (uint8_t)s;
        n++;
    }
    if (n < 2) {
        return -1;
    }

    for (unsigned i = 0; i < n; i++) {
        prev[i] = f[i];
        ispkg[0][i] = 0;
    }
    cnt[0] = n;
    for (unsigned l = 1; l < MAX_BITS; l++) {
        unsigned np = cnt[l - 1] / 2, a = 0, b = 0, k = 0;
        while (a < n || b < np) {
            /* Weights stay below (MAX_BITS + 1) * block size: no overflow. */
            uint32_t pw = b < np ? prev[2 * b] + prev[2 * b + 1] : 0;
            if (a < n && (b >= np || f[a] <= pw)) {
                cur[k] = f[a++];
                ispkg[l][k] = 0;
            } else {
                cur[k] = pw;
                ispkg[l][k] = 1;
                b++;
            }
            k++;
        }
        cnt[l] = k;
        tmp = prev;
        prev = cur;
        cur = tmp;
    }

    memset(depth, 0, sizeof(depth));
    m = 2 * n - 2;
    for (int l = MAX_BITS - 1; l >= 0; l--) {
        unsigned leaves = 0, pk = 0;
        if (m > cnt[l]) {
            return -1;
        }
        for (unsigned i = 0; i < m; i++) {
            pk += ispkg[l][i];
        }
        leaves = m - pk;
        for (unsigned j = 0; j < leaves; j++) {
            depth[j]++;
        }
        m = 2 * pk;
    }

    memset(len, 0, 256);
    for (unsigned j = 0; j < n; j++) {
        if (depth[j] < 1 || depth[j] > MAX_BITS) {
            return -1;
        }
        len[sym[j]] = depth[j];
        kraft += 1u << (MAX_BITS - depth[j]);
    }
    /* A complete prefix code: the decoder insists on Kraft equality. */
    return kraft == TABLE_SIZE ? 0 : -1;
}

static void histogram(const uint8_t *src, size_t n, uint32_t freq[256])
{
    /* Four tables break the store-to-load dependency on repeated bytes. */
    uint32_t h[4][256];
    size_t i = 0;

    memset(h, 0, sizeof(h));
    for (; i + 4 <= n; i += 4) {
        h[0][src[i]]++;
        h[1][src[i + 1]]++;
        h[2][src[i + 2]]++;
        h[3][src[i + 3]]++;
    }
    for (; i < n; i++) {
        h[0][src[i]]++;
    }
    for (int s = 0; s < 256; s++) {
        freq[s] = h[0][s] + h[1][s] + h[2][s] + h[3][s];
    }
}

static ssize_t store_raw(const uint8_t *src, size_t n, uint8_t *dst, size_t room)
{
    if (room < BLOCK_HDR + n) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    dst[0] = MCA_COMPRESS_HUFFMAN_MODE_RAW;
    opal_compress_base_store_le24(dst + 1, (uint32_t)n);
    memcpy(dst + BLOCK_HDR, src, n);
    return (ssize_t)(BLOCK_HDR + n);
}

/* Encodes one block of 1..BLOCK_SIZE bytes; returns its size or an error. */
static ssize_t encode_block(const uint8_t *src, size_t n, uint8_t *dst, size_t room)
{
    uint32_t freq[256], ctab[256];
    uint8_t len[256];
    uint16_t rev[256];
    unsigned distinct = 0, last = 0;
    uint64_t bits = 0, bb = 0;
    unsigned bc = 0;
    size_t clen, total, nb, i = 0;
    uint8_t *p;

    histogram(src, n, freq);
    for (unsigned s = 0; s < 256; s++) {
        if (freq[s]) {
            distinct++;
            last = s;
        }
    }
    if (1 == distinct) {
        if (room < BLOCK_HDR + 1) {
            return OPAL_ERR_OUT_OF_RESOURCE;
        }
        dst[0] = MCA_COMPRESS_HUFFMAN_MODE_RUN;
        opal_compress_base_store_le24(dst + 1, (uint32_t)n);
        dst[BLOCK_HDR] = src[0];
        return BLOCK_HDR + 1;
    }
    if (0 != limited_lengths(freq, len)) {
        return store_raw(src, n, dst, room); /* not expected; stay decodable */
    }
    for (unsigned s = 0; s <= last; s++) {
        bits += (uint64_t)freq[s] * len[s];
    }
    clen = (size_t)((bits + 7) / 8);
    nb = last / 2 + 1;
    total = BLOCK_HDR + 1 + nb + 3 + clen;
    if (total >= BLOCK_HDR + n) {
        return store_raw(src, n, dst, room);
    }
    if (room < total) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }

    dst[0] = MCA_COMPRESS_HUFFMAN_MODE_HUFFMAN;
    opal_compress_base_store_le24(dst + 1, (uint32_t)n);
    p = dst + BLOCK_HDR;
    *p++ = (uint8_t)last;
    for (size_t k = 0; k < nb; k++) {
        unsigned hi = 2 * k + 1 <= last ? len[2 * k + 1] : 0;
        *p++ = (uint8_t)(len[2 * k] | (hi << 4));
    }
    opal_compress_base_store_le24(p, (uint32_t)clen);
    p += 3;

    canon_codes(len, rev);
    for (int s = 0; s < 256; s++) {
        ctab[s] = (uint32_t)rev[s] | ((uint32_t)len[s] << 16);
    }

    /* Fast path: five codes (<= 55 bits) on top of <= 7 pending bits fit the
     * 64-bit accumulator, then one unaligned 8-byte store.  It may scribble
     * up to 7 bytes past the current position, so it stops 8 bytes before
     * the caller's cap; the tail flushes byte by byte and never writes past
     * the exact block size (checked against room above). */
#define PUT(sym_)                                        \
    do {                                                 \
        uint32_t e_ = ctab[(sym_)];                      \
        bb |= (uint64_t)(e_ & 0xffffu) << bc;            \
        bc += e_ >> 16;                                  \
    } while (0)
    while (n - i >= 5 && room - (size_t)(p - dst) >= 8) {
        PUT(src[i]);
        PUT(src[i + 1]);
        PUT(src[i + 2]);
        PUT(src[i + 3]);
        PUT(src[i + 4]);
        i += 5;
        opal_compress_base_store_le64(p, bb);
        p += bc >> 3;
        bb >>= bc & ~7u;
        bc &= 7;
    }
    for (; i < n; i++) {
        PUT(src[i]);
        while (bc >= 8) {
            *p++ = (uint8_t)bb;
            bb >>= 8;
            bc -= 8;
        }
    }
#undef PUT
    if (bc > 0) {
        *p++ = (uint8_t)bb;
    }
    return (ssize_t)(p - dst);
}

static size_t mca_compress_huffman_bound(size_t len)
{
    size_t blocks = len / BLOCK_SIZE + (len % BLOCK_SIZE != 0);

    if (blocks > (SIZE_MAX - len) / BLOCK_HDR) {
        return SIZE_MAX;
    }
    return len + blocks * BLOCK_HDR;
}

static ssize_t mca_compress_huffman_compress(const void *in, size_t len, void *out,
                                             size_t cap)
{
    const uint8_t *src = (const uint8_t *)in;
    uint8_t *dst = (uint8_t *)out;
    size_t pos = 0, opos = 0;
    ssize_t rc = opal_compress_base_compress_begin(in, len, out, &cap);

    if (rc <= 0) {
        return rc;
    }
    while (pos < len) {
        size_t n = len - pos < BLOCK_SIZE ? len - pos : BLOCK_SIZE;
        ssize_t r = encode_block(src + pos, n, dst + opos, cap - opos);
        if (r < 0) {
            return r;
        }
        pos += n;
        opos += (size_t)r;
    }
    return (ssize_t)opos;
}

/* Decodes one HUFFMAN block body (after mode and raw_len) into op[0..n).
 * Returns 0 and advances *pip, or -1 if the block is malformed. */
static int decode_block(const uint8_t **pip, const uint8_t *iend, uint8_t *op, size_t n)
{
    const uint8_t *ip = *pip, *bs, *bend;
    uint8_t len[256];
    uint16_t rev[256];
    uint32_t tab[TABLE_SIZE];
    unsigned last, nsym = 0, kraft = 0, bc = 0;
    size_t nb, clen, over = 0, consumed, rem;
    uint64_t bb = 0;
    uint8_t *oend = op + n;

    if (iend - ip < 1) {
        return -1;
    }
    last = *ip++;
    nb = last / 2 + 1;
    if ((size_t)(iend - ip) < nb + 3) {
        return -1;
    }
    memset(len, 0, sizeof(len));
    for (size_t k = 0; k < nb; k++) {
        len[2 * k] = ip[k] & 15u;
        if (2 * k + 1 <= last) {
            len[2 * k + 1] = ip[k] >> 4;
        } else if (ip[k] >> 4) {
            return -1;
        }
    }
    ip += nb;
    if (0 == len[last]) {
        return -1;
    }
    for (unsigned s = 0; s <= last; s++) {
        if (len[s] > MAX_BITS) {
            return -1;
        }
        if (len[s]) {
            kraft += 1u << (MAX_BITS - len[s]);
            nsym++;
        }
    }
    /* Complete code: every table slot gets exactly one entry below. */
    if (nsym < 2 || kraft != TABLE_SIZE) {
        return -1;
    }
    clen = opal_compress_base_load_le24(ip);
    ip += 3;
    if (clen > (size_t)(iend - ip)) {
        return -1;
    }
    /* Each symbol takes 1..MAX_BITS bits. */
    if (clen < (n + 7) / 8 || clen > (n / 8) * MAX_BITS + MAX_BITS + 1) {
        return -1;
    }

    /* Table entry: first symbol (bits 0-7), second symbol (8-15), symbol
     * count (16-19), first code length (20-23), total length (24-31).  A
     * second symbol is included whenever its whole code lies within the
     * MAX_BITS bits looked at, which roughly halves the serial chain of
     * lookups and shifts on skewed data. */
    canon_codes(len, rev);
    for (unsigned s = 0; s <= last; s++) {
        uint32_t l = len[s];
        if (l) {
            uint32_t e = s | (1u << 16) | (l << 20) | (l << 24);
            for (unsigned k = rev[s]; k < TABLE_SIZE; k += 1u << l) {
                tab[k] = e;
            }
        }
    }
    /* In place: tab[idx >> l1] < idx may already be a pair, but its first
     * symbol and length fields are kept. */
    for (unsigned idx = 0; idx < TABLE_SIZE; idx++) {
        uint32_t e1 = tab[idx], l1 = (e1 >> 20) & 15u;
        uint32_t e2 = tab[idx >> l1], l2 = (e2 >> 20) & 15u;
        if (l1 + l2 <= MAX_BITS) {
            tab[idx] = (e1 & 0xffu) | ((e2 & 0xffu) << 8) | (2u << 16) | (l1 << 20)
                       | ((l1 + l2) << 24);
        }
    }

    bs = ip;
    bend = ip + clen;
    /* Invariant: ip points at the first byte not yet counted in bc, and bb
     * holds the stream bits from the current position upwards (bits above bc
     * are either valid look-ahead or zero). */
#define DEC2()                                            \
    do {                                                  \
        uint32_t e_ = tab[bb & (TABLE_SIZE - 1)];         \
        op[0] = (uint8_t)e_;                              \
        op[1] = (uint8_t)(e_ >> 8);                       \
        op += (e_ >> 16) & 15u;                           \
        bb >>= e_ >> 24;                                  \
        bc -= e_ >> 24;                                   \
    } while (0)
#define DEC1()                                            \
    do {                                                  \
        uint32_t e_ = tab[bb & (TABLE_SIZE - 1)];         \
        *op++ = (uint8_t)e_;                              \
        bb >>= (e_ >> 20) & 15u;                          \
        bc -= (e_ >> 20) & 15u;                           \
    } while (0)
    /* Each DEC2 writes two bytes (the second possibly scratch, overwritten
     * next), hence 10 bytes of room for five of them. */
    while ((size_t)(oend - op) >= 10 && (size_t)(bend - ip) >= 8) {
        /* Branchless refill: afterwards 56 <= bc <= 63, enough for five
         * lookups of at most 11 bits. */
        bb |= opal_compress_base_load_le64(ip) << bc;
        ip += (63 - bc) >> 3;
        bc |= 56;
        DEC2();
        DEC2();
        DEC2();
        DEC2();
        DEC2();
    }
    while (op < oend) {
        if (bc < MAX_BITS) {
            /* Near the end: byte by byte, zero bits past the bitstream
             * (counted in over, so reading them is detected below). */
            while (bc <= 56) {
                if (ip < bend) {
                    bb |= (uint64_t)*ip++ << bc;
                } else {
                    over += 8;
                }
                bc += 8;
            }
        }
        DEC1();
    }
#undef DEC1
#undef DEC2

    /* The bitstream must be exactly used up: no padding bit consumed, no
     * spare byte, zero padding bits. */
    consumed = (size_t)(ip - bs) * 8 + over - bc;
    if (consumed > clen * 8) {
        return -1;
    }
    rem = clen * 8 - consumed;
    if (rem >= 8 || (bb & ((1u << rem) - 1u)) != 0) {
        return -1;
    }
    *pip = bend;
    return 0;
}

static ssize_t mca_compress_huffman_decompress(const void *in, size_t len, void *out,
                                               size_t cap, size_t expected_len)
{
    const uint8_t *ip = (const uint8_t *)in, *iend;
    uint8_t *dst = (uint8_t *)out;
    size_t done = 0;

    if (expected_len > cap || expected_len > OPAL_COMPRESS_BASE_MAX_RET) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    if (0 == len) {
        return 0 == expected_len ? 0 : OPAL_ERR_UNPACK_FAILURE;
    }
    if (NULL == in || (NULL == out && expected_len > 0)) {
        return OPAL_ERR_BAD_PARAM;
    }
    iend = ip + len;
    while (ip < iend) {
        unsigned mode;
        size_t n;

        if (iend - ip < BLOCK_HDR) {
            return OPAL_ERR_UNPACK_FAILURE;
        }
        mode = ip[0];
        n = opal_compress_base_load_le24(ip + 1);
        ip += BLOCK_HDR;
        if (0 == n || n > expected_len - done) {
            return OPAL_ERR_UNPACK_FAILURE;
        }
        switch (mode) {
        case MCA_COMPRESS_HUFFMAN_MODE_RAW:
            if ((size_t)(iend - ip) < n) {
                return OPAL_ERR_UNPACK_FAILURE;
            }
            memcpy(dst + done, ip, n);
            ip += n;
            break;
        case MCA_COMPRESS_HUFFMAN_MODE_RUN:
            if (iend - ip < 1) {
                return OPAL_ERR_UNPACK_FAILURE;
            }
            memset(dst + done, *ip++, n);
            break;
        case MCA_COMPRESS_HUFFMAN_MODE_HUFFMAN:
            if (0 != decode_block(&ip, iend, dst + done, n)) {
                return OPAL_ERR_UNPACK_FAILURE;
            }
            break;
        default:
            return OPAL_ERR_UNPACK_FAILURE;
        }
        done += n;
    }
    if (done != expected_len) {
        return OPAL_ERR_UNPACK_FAILURE;
    }
    return (ssize_t)expected_len;
}

OPAL_COMPRESS_CODEC(huffman, mca_compress_huffman, OPAL_COMPRESS_ID_HUFFMAN,
                    OPAL_COMPRESS_SPEED_MEDIUM,
                    OPAL_COMPRESS_DT_BYTES | OPAL_COMPRESS_DT_INT32 | OPAL_COMPRESS_DT_INT64
                        | OPAL_COMPRESS_DT_FLOAT);
