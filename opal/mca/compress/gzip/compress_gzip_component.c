/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * MCA glue of the gzip codec (the codec and its .gz files:
 * compress_gzip_codec.c): defines mca_compress_gzip_component
 * (OPAL_COMPRESS_COMPONENT_WITH_INT_FILE).  Whole-file priority 15: below
 * the suite's codecs, so that the default file codec stays zstd and naming
 * gzip (alone, or with bzip, which is below it as in upstream) is what
 * makes opal_compress write .gz files.
 */
#include "opal_config.h"

#include "opal/mca/compress/base/base.h"
#include "opal/mca/compress/gzip/compress_gzip.h"

static const opal_compress_base_file_format_t gzip_file_format = {
    .postfix = ".gz",
    .compress = mca_compress_gzip_file_compress,
    .decompress = mca_compress_gzip_file_decompress,
};

OPAL_COMPRESS_COMPONENT_WITH_INT_FILE(
    gzip, 15, &gzip_file_format, level, 1, 9,
    "zlib compression level of the gzip codec's blocks and of the .gz files it writes "
    "(1 to 9): 1, the default, is the fastest, for messages; 6 is gzip's own default "
    "(upstream's gzip component ran gzip), several times slower for output a few "
    "percent smaller; 9 the smallest and slowest");
