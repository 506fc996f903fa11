/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * grpmap bwt: blocks of 1000 world ranks compressed with the bzip2 codec of
 * opal/mca/compress, the last decompressed block cached (Mir Taheri §4.3.2;
 * grpmap_bwt.c).  Opens the compress framework for the codec; without
 * bzip2 (--mca compress ^bzip2, or no libbz2) the form declines every map.
 */
#include "ompi_config.h"

#include "opal/mca/compress/base/base.h"
#include "opal/util/output.h"
#include "ompi/constants.h"
#include "ompi/mca/grpmap/grpmap.h"
#include "ompi/mca/grpmap/bwt/grpmap_bwt.h"

static const grpmap_repr_t *const bwt_reprs[] = {&grpmap_bwt_repr, NULL};
static int bwt_open(void);
static int bwt_close(void);
static int compress_opened;

MCA_GRPMAP_COMPONENT(bwt, bwt_reprs, NULL, bwt_open, bwt_close);

static int bwt_open(void)
{
    const opal_compress_codec_t *codec = NULL;
    if (OPAL_SUCCESS == mca_base_framework_open(&opal_compress_base_framework, 0)) {
        compress_opened = 1;
        codec = opal_compress_base_find("bzip2");
    }
    if (NULL == codec) {
        opal_output_verbose(10, 0, "grpmap:bwt: no bzip2 codec open in the compress "
                                   "framework: the bwt form declines every map");
    }
    grpmap_bwt_set_codec(codec);
    return OMPI_SUCCESS;
}

static int bwt_close(void)
{
    grpmap_bwt_set_codec(NULL);
    if (compress_opened) {
        compress_opened = 0;
        (void) mca_base_framework_close(&opal_compress_base_framework);
    }
    return OMPI_SUCCESS;
}
