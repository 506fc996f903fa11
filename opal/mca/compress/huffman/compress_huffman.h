/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Canonical Huffman byte codec (block codec core of the compress framework).
 *
 * Stream format: a sequence of blocks and nothing else (an empty input gives
 * an empty stream).  Each block decodes to raw_len bytes, 1 <= raw_len; the
 * encoder cuts the input into MCA_COMPRESS_HUFFMAN_BLOCK_SIZE pieces, but the
 * decoder accepts any raw_len, so streams concatenate.  Multi-byte integers
 * are little endian.
 *
 *   mode (1 byte), raw_len (3 bytes), then by mode:
 *   0 RAW     raw_len bytes stored verbatim
 *   1 RUN     1 byte: the block is that byte repeated raw_len times
 *   2 HUFFMAN last (1 byte): highest symbol with a non-zero code length;
 *             last / 2 + 1 bytes of 4-bit code lengths, symbol 2k in the low
 *             nibble and 2k + 1 in the high nibble of byte k (symbols above
 *             last have length 0, an unused high nibble is 0); lengths are
 *             0 (absent) or 1..MCA_COMPRESS_HUFFMAN_MAX_BITS, at least two
 *             symbols are present and the Kraft sum is exactly 1;
 *             bitstream length in bytes (3 bytes); the bitstream.
 *
 * Codes are canonical (deflate order: shorter codes first, equal lengths in
 * symbol order, codes counting up).  The bitstream is filled from the least
 * significant bit of each byte, and each code is emitted most significant
 * bit first, exactly as in deflate; the last byte is zero padded and the
 * bitstream holds no further byte.
 */
#ifndef MCA_COMPRESS_HUFFMAN_H
#define MCA_COMPRESS_HUFFMAN_H

#include "opal/mca/compress/compress_codec.h"

#define MCA_COMPRESS_HUFFMAN_BLOCK_SIZE (128u * 1024u)
#define MCA_COMPRESS_HUFFMAN_MAX_BITS 11

enum {
    MCA_COMPRESS_HUFFMAN_MODE_RAW = 0,
    MCA_COMPRESS_HUFFMAN_MODE_RUN = 1,
    MCA_COMPRESS_HUFFMAN_MODE_HUFFMAN = 2
};

extern const opal_compress_codec_t mca_compress_huffman_codec;

#endif /* MCA_COMPRESS_HUFFMAN_H */
