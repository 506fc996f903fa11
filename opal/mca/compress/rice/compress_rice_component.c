/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * MCA glue of the rice codec (the codec itself: compress_rice_codec.c).
 */
#include "opal_config.h"

#include "opal/mca/compress/base/base.h"
#include "opal/mca/compress/rice/compress_rice.h"

opal_compress_base_component_t mca_compress_rice_component = {
    .base_version = {
        OPAL_COMPRESS_BASE_VERSION_3_0_0,
        .mca_component_name = "rice",
        MCA_BASE_MAKE_VERSION(component, OPAL_MAJOR_VERSION, OPAL_MINOR_VERSION,
                              OPAL_RELEASE_VERSION),
    },
    .base_data = {MCA_BASE_METADATA_PARAM_CHECKPOINT},
    .codec = &mca_compress_rice_codec,
    .priority = 5,
};
