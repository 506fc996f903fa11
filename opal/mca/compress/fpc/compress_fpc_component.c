/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * MCA glue of the fpc codec (the codec itself: compress_fpc_codec.c).
 */
#include "opal_config.h"

#include "opal/mca/compress/base/base.h"
#include "opal/mca/compress/fpc/compress_fpc.h"

static int fpc_register(void);
static int fpc_open(void);

opal_compress_base_component_t mca_compress_fpc_component = {
    .base_version = {
        OPAL_COMPRESS_BASE_VERSION_3_0_0,
        .mca_component_name = "fpc",
        MCA_BASE_MAKE_VERSION(component, OPAL_MAJOR_VERSION, OPAL_MINOR_VERSION,
                              OPAL_RELEASE_VERSION),
        .mca_open_component = fpc_open,
        .mca_register_component_params = fpc_register,
    },
    .base_data = {MCA_BASE_METADATA_PARAM_CHECKPOINT},
    .codec = &mca_compress_fpc_codec,
    .priority = 10,
};

static int fpc_register(void)
{
    return opal_compress_base_register_int(
        &mca_compress_fpc_component, "table_bits",
        "log2 of the number of entries of each FPC predictor table (1 to 24): larger "
        "tables predict better and use 16 bytes per entry per call",
        &mca_compress_fpc_table_bits);
}

static int fpc_open(void)
{
    return opal_compress_base_check_range(&mca_compress_fpc_component, "table_bits",
                                          mca_compress_fpc_table_bits, 1, 24);
}
