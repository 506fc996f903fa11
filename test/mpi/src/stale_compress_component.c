/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * A compress plugin shaped like Open MPI 4.1's own (API 2.0.0, no codec),
 * as a stale mca_compress_*.so left in an old prefix would be.  The
 * framework must skip it with a warning instead of reading it as a codec.
 * The trailing fields are filled with a bad pointer pattern on purpose.
 */
#include "opal_config.h"
#include "opal/mca/mca.h"
#include "opal/mca/base/base.h"

struct old_component {
    mca_base_component_t base_version;
    mca_base_component_data_t base_data;
    int verbose, output_handle, priority;
    void *junk[4];
};

struct old_component mca_compress_stale_component = {
    .base_version = {
        OPAL_MCA_BASE_VERSION_2_1_0("compress", 2, 0, 0),
        .mca_component_name = "stale",
        MCA_BASE_MAKE_VERSION(component, 4, 1, 4),
    },
    .verbose = 0x51515151, .output_handle = 0x52525252, .priority = 0x53535353,
    .junk = {(void *) 0x5454545454545454ull, (void *) 0x5555555555555555ull},
};
