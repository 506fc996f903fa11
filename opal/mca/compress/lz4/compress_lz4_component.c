/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * MCA glue of the lz4 codec (the codec itself: compress_lz4_codec.c).
 */
#include "opal_config.h"

#include "opal/mca/compress/base/base.h"
#include "opal/mca/compress/lz4/compress_lz4.h"

static int lz4_register(void);
static int lz4_open(void);

opal_compress_base_component_t mca_compress_lz4_component = {
    .base_version = {
        OPAL_COMPRESS_BASE_VERSION_3_0_0,
        .mca_component_name = "lz4",
        MCA_BASE_MAKE_VERSION(component, OPAL_MAJOR_VERSION, OPAL_MINOR_VERSION,
                              OPAL_RELEASE_VERSION),
        .mca_open_component = lz4_open,
        .mca_register_component_params = lz4_register,
    },
    .base_data = {MCA_BASE_METADATA_PARAM_CHECKPOINT},
    .codec = &mca_compress_lz4_codec,
    .priority = 30,
};

static int lz4_register(void)
{
    return opal_compress_base_register_int(
        &mca_compress_lz4_component, "acceleration",
        "lz4 acceleration factor (LZ4_compress_fast): 1 gives the best ratio, "
        "each step up trades ratio for speed (1 to 65537)",
        &mca_compress_lz4_acceleration);
}

static int lz4_open(void)
{
    return opal_compress_base_check_range(&mca_compress_lz4_component, "acceleration",
                                          mca_compress_lz4_acceleration, 1, 65537);
}
