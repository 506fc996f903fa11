/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * The compress framework: in-memory block codecs, all available ones open at
 * once, so that a caller (pml/zcomp, group maps) can choose per message.
 *
 * Each component contributes one codec (see compress_codec.h for the codec
 * contract).  The standard MCA syntax restricts the set:
 *   --mca compress lz4,zstd      only these
 *   --mca compress ^bzip2        all but this
 *
 * The framework also keeps Open MPI's older file-compression interface
 * (opal_compress.compress/decompress of a file), now built on the block
 * codecs, so that opal-restart and ORTE's sstore keep building and working.
 */
#ifndef OPAL_MCA_COMPRESS_H
#define OPAL_MCA_COMPRESS_H

#include "opal_config.h"

#include <sys/types.h>

#include "opal/mca/mca.h"
#include "opal/mca/base/base.h"
#include "opal/mca/compress/compress_codec.h"

BEGIN_C_DECLS

/* ---- legacy file interface (signatures as in Open MPI 4.1) ---- */
typedef int (*opal_compress_base_module_init_fn_t)(void);
typedef int (*opal_compress_base_module_finalize_fn_t)(void);
/* Compress file fname into *cname = fname + *postfix. */
typedef int (*opal_compress_base_module_compress_fn_t)(char *fname, char **cname,
                                                       char **postfix);
/* As compress, in a child process whose pid is returned in *child_pid. */
typedef int (*opal_compress_base_module_compress_nb_fn_t)(char *fname, char **cname,
                                                          char **postfix, pid_t *child_pid);
/* Decompress file cname into *fname (cname without its postfix). */
typedef int (*opal_compress_base_module_decompress_fn_t)(char *cname, char **fname);
typedef int (*opal_compress_base_module_decompress_nb_fn_t)(char *cname, char **fname,
                                                            pid_t *child_pid);

struct opal_compress_base_module_1_0_0_t {
    opal_compress_base_module_init_fn_t init;
    opal_compress_base_module_finalize_fn_t finalize;
    opal_compress_base_module_compress_fn_t compress;
    opal_compress_base_module_compress_nb_fn_t compress_nb;
    opal_compress_base_module_decompress_fn_t decompress;
    opal_compress_base_module_decompress_nb_fn_t decompress_nb;
};
typedef struct opal_compress_base_module_1_0_0_t opal_compress_base_module_1_0_0_t;
typedef struct opal_compress_base_module_1_0_0_t opal_compress_base_module_t;

/* ---- component ---- */
struct opal_compress_base_component_3_0_0_t {
    mca_base_component_t base_version;
    mca_base_component_data_t base_data;
    /* The codec this component provides; valid once the component opened. */
    const opal_compress_codec_t *codec;
    /* Preference for whole-file compression (higher wins); the framework's
     * opal_compress module uses the open codec with the highest priority. */
    int priority;
};
typedef struct opal_compress_base_component_3_0_0_t opal_compress_base_component_3_0_0_t;
typedef struct opal_compress_base_component_3_0_0_t opal_compress_base_component_t;

/* 3.0.0: block codecs replaced the 2.0.0 file compressors. */
#define OPAL_COMPRESS_BASE_VERSION_3_0_0 OPAL_MCA_BASE_VERSION_2_1_0("compress", 3, 0, 0)

OPAL_DECLSPEC extern opal_compress_base_module_t opal_compress;

END_C_DECLS

#endif /* OPAL_MCA_COMPRESS_H */
