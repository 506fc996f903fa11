/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Rice block codec: Golomb-Rice coding of little-endian 32-bit integers with
 * the Rice parameter chosen per block.
 *
 * Stream format (for len > 0):
 *
 *   header   the input length in bytes as an unsigned LEB128 varint (7 bits
 *            per byte, least significant group first, bit 7 = "more"),
 *            minimal length (1..10 bytes).  Must equal expected_len.
 *   blocks   a bit stream, least significant bit of each byte first, holding
 *            the n = len / 4 values in blocks of 256 (the last block holds
 *            the remaining 1..255), then zero bits up to a byte boundary.
 *   tail     the len % 4 trailing input bytes, verbatim.
 *
 * Each block is a 7-bit header (bit 0 = mode, bits 1..6 = k, 0..32; larger k
 * is corrupt) followed by one code per value.  A value v (read from the input
 * as a little-endian uint32) is mapped to an unsigned u by zigzag:
 *
 *   mode 0: u = zigzag(v)             zigzag(x) = (x << 1) ^ (x < 0 ? ~0 : 0),
 *   mode 1: u = zigzag(v - prev)      x taken as a two's complement int32
 *
 * where prev is the value preceding v in the input (0 before the first one,
 * carried across blocks whatever their mode) and the subtraction wraps mod
 * 2^32.  Mode 1 (delta) suits smooth data such as counters and offsets.
 *
 * The code of u in a block with parameter k:
 *
 *   k == 32          u as 32 raw bits (lsb first): the escape for noise;
 *   q = u >> k < 8   q one bits, one zero bit, then the low k bits of u;
 *   q >= 8           8 one bits, then u as 32 raw bits (unary cap, so a huge
 *                    value costs 40 bits instead of up to 2^32).
 *
 * So a value costs 32, q + 1 + k or 40 bits, and a decoder never reads more
 * than 8 unary bits.  The encoder computes the exact bit count of each block
 * for both modes and all 33 values of k and keeps the smallest (ties: mode 0,
 * then the smaller k).  Hence the compressed size is
 *
 *   varint_len(len) + ceil(sum over blocks of (7 + min cost) / 8) + len % 4
 *
 * and never exceeds bound(len) = len + varint_len(len) + ceil(7 nblocks / 8)
 * (every block at k = 32), i.e. less than len + len / 1170 + 12 bytes.
 *
 * The decoder rejects (OPAL_ERR_UNPACK_FAILURE) a header other than the
 * minimal varint of expected_len, k > 32, a code needing bits past the bit
 * stream, a value >= 2^32 (q << k overflowing), nonzero padding, and any
 * byte left over, so a stream decodes only to the exact expected length.
 * An empty input encodes to an empty stream.
 */
#ifndef MCA_COMPRESS_RICE_H
#define MCA_COMPRESS_RICE_H

#include "opal/mca/compress/compress_codec.h"

extern const opal_compress_codec_t mca_compress_rice_codec;

#endif /* MCA_COMPRESS_RICE_H */
