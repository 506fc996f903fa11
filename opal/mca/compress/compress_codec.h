/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Block-codec interface of the compress framework.
 *
 * Kept free of OPAL's runtime (only opal/constants.h) so that the codec cores
 * can be linked into plain C unit tests, fuzzers and benchmarks.
 */
#ifndef OPAL_MCA_COMPRESS_CODEC_H
#define OPAL_MCA_COMPRESS_CODEC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "opal/constants.h"

/* Stable one-byte wire ids: they travel in message headers and files, so an
 * id is never reused for another format.  0 means "stored raw". */
enum {
    OPAL_COMPRESS_ID_RAW = 0,
    OPAL_COMPRESS_ID_LZO = 1,
    OPAL_COMPRESS_ID_LZ4 = 2,
    OPAL_COMPRESS_ID_ZSTD = 3,
    OPAL_COMPRESS_ID_BZIP2 = 4,
    OPAL_COMPRESS_ID_FPC = 5,
    OPAL_COMPRESS_ID_RLE = 6,
    OPAL_COMPRESS_ID_HUFFMAN = 7,
    OPAL_COMPRESS_ID_RICE = 8,
    OPAL_COMPRESS_ID_GZIP = 9, /* a zlib stream (RFC 1950), not a gzip file */
    OPAL_COMPRESS_ID_MAX = 255
};

/* Speed classes, for a chooser that trades ratio against time. */
enum {
    OPAL_COMPRESS_SPEED_FAST = 0,   /* >= ~500 MB/s compress (lz4, lzo, rle) */
    OPAL_COMPRESS_SPEED_MEDIUM = 1, /* ~100-500 MB/s (zstd, fpc, huffman, rice) */
    OPAL_COMPRESS_SPEED_SLOW = 2    /* < ~100 MB/s (bzip2, gzip) */
};

/* Data a codec suits (bit mask). */
#define OPAL_COMPRESS_DT_BYTES  0x01u /* arbitrary bytes, text */
#define OPAL_COMPRESS_DT_INT32  0x02u
#define OPAL_COMPRESS_DT_INT64  0x04u
#define OPAL_COMPRESS_DT_FLOAT  0x08u
#define OPAL_COMPRESS_DT_DOUBLE 0x10u
#define OPAL_COMPRESS_DT_ANY    0x1fu

/*
 * One codec.  Contract of the functions (every codec, every input):
 *
 * bound(len): the largest size compress() can produce for len input bytes;
 *   compress() with cap >= bound(len) never fails for lack of space.
 *
 * compress(in, len, out, cap): writes the compressed form of in[0..len) into
 *   out[0..cap) and returns its size (>= 0), or OPAL_ERR_OUT_OF_RESOURCE if it
 *   does not fit in cap, or OPAL_ERR_BAD_PARAM for NULL pointers with len > 0.
 *   The output may be larger than len (incompressible data): callers compare
 *   and send raw.  len == 0 is valid.  Output is deterministic for a given
 *   input and parameter set, and decodable whatever the parameters.
 *
 * decompress(in, len, out, cap, expected_len): decodes in[0..len) into
 *   exactly expected_len bytes of out and returns expected_len.  Returns
 *   OPAL_ERR_OUT_OF_RESOURCE if expected_len > cap, and
 *   OPAL_ERR_UNPACK_FAILURE if the input is corrupt or truncated or decodes to
 *   any other length.  On any input it never reads in[len] or beyond, never
 *   writes out[cap] or beyond, never crashes and never leaks memory.
 *
 * All three are thread-safe (no shared mutable state besides read-only
 * parameters set at component registration).
 */
typedef struct opal_compress_codec_t {
    const char *name;
    uint8_t id;
    uint8_t speed;
    uint32_t datatypes;
    size_t (*bound)(size_t len);
    ssize_t (*compress)(const void *in, size_t len, void *out, size_t cap);
    ssize_t (*decompress)(const void *in, size_t len, void *out, size_t cap,
                          size_t expected_len);
} opal_compress_codec_t;

/*
 * Defines the descriptor `const opal_compress_codec_t
 * mca_compress_<codec>_codec` of a codec whose functions are fn_bound,
 * fn_compress and fn_decompress.  One shape for every codec, so that a new
 * codec's table is one line and cannot miss a member:
 *
 *   OPAL_COMPRESS_CODEC(lz4, lz4, OPAL_COMPRESS_ID_LZ4, OPAL_COMPRESS_SPEED_FAST,
 *                       OPAL_COMPRESS_DT_ANY);
 */
#define OPAL_COMPRESS_CODEC(codec, fn, wire_id, speed_class, dts) \
    OPAL_COMPRESS_CODEC_NAMED(codec, #codec, fn, wire_id, speed_class, dts)

/* The same, for a component that offers a codec under another component
 * name (bzip, Open MPI 4.1's name for bzip2): the descriptor is
 * mca_compress_<codec>_codec, its name codec_name. */
#define OPAL_COMPRESS_CODEC_NAMED(codec, codec_name, fn, wire_id, speed_class, dts)      \
    const opal_compress_codec_t mca_compress_##codec##_codec = {                         \
        .name = (codec_name), .id = (wire_id), .speed = (speed_class), .datatypes = (dts), \
        .bound = fn##_bound, .compress = fn##_compress, .decompress = fn##_decompress    \
    }

#endif /* OPAL_MCA_COMPRESS_CODEC_H */
