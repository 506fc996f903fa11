/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * pml/zcomp wire format (see README.md, "Wire protocol and MPI semantics").
 *
 * A compressed message is one marked message (MCA_PML_BASE_SEND_MARKED) on
 * the user's (communicator, destination, tag), in the user's send mode,
 * holding a zc_hdr_t, optionally followed by the only chunk inline; the
 * other chunks follow as ordinary messages on a private negative tag (which
 * wildcard receives never match), one message per chunk, in order.  The
 * first 8 bytes of the marked payload are the original size: the patched
 * ob1 reports them to probes.
 */
#ifndef PML_ZCOMP_WIRE_H
#define PML_ZCOMP_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "opal/mca/compress/base/compress_base_bytes.h"

#define ZC_MAGIC 0x504d435au       /* "ZCMP" */
#define ZC_CHUNK_MAGIC 0x4b48435au /* "ZCHK" */
#define ZC_VERSION 2 /* 2: zc_checksum replaced a 32-bit Fletcher sum */
/* Modex key: a process that decodes marked messages publishes ZC_VERSION */
#define ZC_MODEX_KEY "pml.zcomp.wire"
#define ZC_HDR_INLINE 0x01         /* the single chunk follows the header */

typedef struct zc_hdr_t {
    uint64_t orig_len;   /* packed size of the user's message: probes report it */
    uint32_t magic;
    uint8_t version;
    uint8_t flags;
    uint16_t reserved;
    int32_t ptag;        /* tag of the chunk messages */
    uint32_t nchunks;
    uint64_t chunk_size; /* raw bytes per chunk (the last may be shorter) */
    uint64_t hsum;       /* checksum of the fields above */
} zc_hdr_t;

typedef struct zc_chunk_hdr_t {
    uint32_t magic;
    uint32_t index;
    uint8_t codec;       /* wire id, 0 = stored raw */
    uint8_t reserved[3];
    uint32_t raw_len;
    uint64_t clen;       /* bytes after this header */
    uint64_t csum;       /* checksum of those bytes, mixed with the fields */
} zc_chunk_hdr_t;

/* Private tags: ZC_TAG_BASE, ZC_TAG_BASE - 1, ... (ZC_TAG_SPAN of them).
 * Open MPI's own negative tags (coll_tags.h): static ones from -1 to a few
 * dozen (collectives, ULFM, UCC on 5.0, the topo exchanges of patch 0025),
 * then libnbc's, one per nonblocking collective, down to -(INT_MAX/2), and
 * neighbourhood collectives just below; hcoll's window (not built here)
 * starts below them.  zcomp uses the bottom of the tag space,
 * -(INT_MAX - 2^29) down to -(INT_MAX - 1). */
#define ZC_TAG_BASE (-(0x7fffffff - 0x20000000))
#define ZC_TAG_SPAN 0x1ffffffe

/* Checksum of the wire's headers and chunks: the suite's one checksum
 * (compress_base_bytes.h; it replaced a 32-bit Fletcher sum that took
 * 3-4 % of the sender's time on a CPU-bound link), inline on this hot
 * path.  Its result is part of wire version 2. */
static inline uint64_t zc_checksum(const void *buf, size_t len)
{
    return opal_compress_base_checksum(buf, len);
}

/* A chunk's csum: its data's checksum mixed with the fields that say how
 * to decode it, so that a header bit flip is caught too. */
static inline uint64_t zc_chunk_sum(const zc_chunk_hdr_t *h, const void *data)
{
    uint64_t s = zc_checksum(data, (size_t) h->clen);
    return s ^ ((uint64_t) h->index << 40) ^ ((uint64_t) h->codec << 32) ^ (uint64_t) h->raw_len;
}

#endif
