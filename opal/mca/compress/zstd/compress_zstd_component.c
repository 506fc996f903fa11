/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * MCA glue of the zstd codec (the codec itself: compress_zstd_codec.c).
 */
#include "opal_config.h"

#include "opal/mca/compress/base/base.h"
#include <zstd.h>

#include "opal/mca/compress/zstd/compress_zstd.h"

static int zstd_register(void);
static int zstd_open(void);

opal_compress_base_component_t mca_compress_zstd_component = {
    .base_version = {
        OPAL_COMPRESS_BASE_VERSION_3_0_0,
        .mca_component_name = "zstd",
        MCA_BASE_MAKE_VERSION(component, OPAL_MAJOR_VERSION, OPAL_MINOR_VERSION,
                              OPAL_RELEASE_VERSION),
        .mca_open_component = zstd_open,
        .mca_register_component_params = zstd_register,
    },
    .base_data = {MCA_BASE_METADATA_PARAM_CHECKPOINT},
    .codec = &mca_compress_zstd_codec,
    .priority = 50,
};

static int zstd_register(void)
{
    return opal_compress_base_register_int(
        &mca_compress_zstd_component, "level",
        "zstd compression level: negative levels are faster, 1 is fast with a good ratio, "
        "up to 19 (22 with large windows) for the best ratio at much lower speed",
        &mca_compress_zstd_level);
}

static int zstd_open(void)
{
    return opal_compress_base_check_range(&mca_compress_zstd_component, "level",
                                          mca_compress_zstd_level, ZSTD_minCLevel(),
                                          ZSTD_maxCLevel());
}
