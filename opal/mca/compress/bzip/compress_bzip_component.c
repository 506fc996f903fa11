/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * MCA glue of bzip, Open MPI 4.1's name for the bzip2 codec (the codec and
 * its .bz2 files: compress_bzip_codec.c): defines mca_compress_bzip_component
 * (OPAL_COMPRESS_COMPONENT_FILE).  Whole-file priority 12: below the
 * suite's codecs, so that naming bzip (alone, or with gzip, which is above
 * it as in upstream) is what makes opal_compress write .bz2 files.
 */
#include "opal_config.h"

#include "opal/mca/compress/base/base.h"
#include "opal/mca/compress/bzip/compress_bzip.h"

static const opal_compress_base_file_format_t bzip_file_format = {
    .postfix = ".bz2",
    .compress = mca_compress_bzip_file_compress,
    .decompress = mca_compress_bzip_file_decompress,
};

OPAL_COMPRESS_COMPONENT_FILE(bzip, 12, NULL, NULL, &bzip_file_format);
