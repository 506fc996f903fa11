/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * MCA glue of the bzip2 codec (the codec itself: compress_bzip2_codec.c).
 */
#include "opal_config.h"

#include "opal/mca/compress/base/base.h"
#include "opal/mca/compress/bzip2/compress_bzip2.h"

static int bzip2_register(void);
static int bzip2_open(void);

opal_compress_base_component_t mca_compress_bzip2_component = {
    .base_version = {
        OPAL_COMPRESS_BASE_VERSION_3_0_0,
        .mca_component_name = "bzip2",
        MCA_BASE_MAKE_VERSION(component, OPAL_MAJOR_VERSION, OPAL_MINOR_VERSION,
                              OPAL_RELEASE_VERSION),
        .mca_open_component = bzip2_open,
        .mca_register_component_params = bzip2_register,
    },
    .base_data = {MCA_BASE_METADATA_PARAM_CHECKPOINT},
    .codec = &mca_compress_bzip2_codec,
    .priority = 40,
};

static int bzip2_register(void)
{
    return opal_compress_base_register_int(
        &mca_compress_bzip2_component, "block_size",
        "bzip2 block size in units of 100 kB (1 to 9): larger blocks compress better "
        "and need more memory (about 8x the block size to compress)",
        &mca_compress_bzip2_block_size);
}

static int bzip2_open(void)
{
    return opal_compress_base_check_range(&mca_compress_bzip2_component, "block_size",
                                          mca_compress_bzip2_block_size, 1, 9);
}
