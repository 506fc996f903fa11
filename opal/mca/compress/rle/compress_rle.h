/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * RLE block codec: byte-oriented run-length encoding.
 *
 * Stream format: a sequence of tokens, each starting with a control byte c.
 *
 *   c = 0x00..0x7f  literal run: the next c + 1 bytes (1..128) are copied.
 *   c = 0x80..0xff  repeat run: the next byte is repeated (c - 0x80) + 3
 *                   times (3..130).
 *
 * There is no header: the decoder is told the exact output length, and every
 * token produces at least one byte, so the stream must decode to exactly
 * expected_len bytes using all of its input (anything else is corrupt).
 *
 * The encoder emits a repeat for every run of >= 3 equal bytes (longer runs
 * are split into several repeats, never leaving a tail shorter than 3) and
 * gathers everything else into literal runs of up to 128 bytes.  A repeat
 * always saves at least one byte, which pays for the literal control byte it
 * may force afterwards, so the output never exceeds
 *
 *   len + ceil(len / 128)
 *
 * bytes (worst case: data without any run of 3, e.g. random bytes).  Best case
 * is 2 bytes per 130 input bytes (65:1).
 */
#ifndef MCA_COMPRESS_RLE_H
#define MCA_COMPRESS_RLE_H

#include "opal/mca/compress/compress_codec.h"

extern const opal_compress_codec_t mca_compress_rle_codec;

#endif /* MCA_COMPRESS_RLE_H */
