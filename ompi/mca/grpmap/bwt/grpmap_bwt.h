/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * grpmap bwt: the world ranks in blocks of 1000, each compressed on its own
 * by a block codec of the compress framework (bzip2: Burrows-Wheeler, the
 * Mir Taheri's §4.3.2), the last decompressed block cached.  The codec is handed
 * in at run time, so that the core names no codec and links without one; the
 * struct is only declared here (opal/mca/compress/compress_codec.h defines
 * it), so that including this header needs no OPAL include path.
 */
#ifndef OMPI_MCA_GRPMAP_BWT_H
#define OMPI_MCA_GRPMAP_BWT_H

#include "ompi/mca/grpmap/grpmap_repr.h"

struct opal_compress_codec_t;

extern const grpmap_repr_t grpmap_bwt_repr;

/* The codec later builds use (maps already built keep theirs); NULL: build
 * declines every map.  Safe against concurrent builds. */
void grpmap_bwt_set_codec(const struct opal_compress_codec_t *codec);

#endif
