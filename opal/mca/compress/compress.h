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
 * Open MPI 4.1's component names keep working: gzip (a codec of its own)
 * and bzip (bzip2's codec under upstream's name; the base holds it once).
 *
 * The framework also keeps Open MPI's older file-compression interface
 * (opal_compress.compress/decompress of a file), now built on the block
 * codecs, so that opal-restart and ORTE's sstore keep building and working;
 * gzip and bzip write upstream's .gz and .bz2 files there.
 */
#ifndef OPAL_MCA_COMPRESS_H
#define OPAL_MCA_COMPRESS_H

#include "opal_config.h"

#include <stdio.h>
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

/*
 * The whole-file format of a component that keeps one of Open MPI 4.1's
 * component names (gzip: a gzip file, bzip: a bzip2 file), which
 * opal_compress writes instead of the framework's container when that
 * component is the file codec, so that the files are what upstream's
 * component made and gunzip/bunzip2 read them.  Both functions convert
 * between open streams: the framework opens and checks the files, reports
 * errors and removes the output of a failed run.  decompress returns
 * OPAL_ERR_UNPACK_FAILURE with *why saying what is wrong ("it is ...").
 */
typedef struct opal_compress_base_file_format_t {
    const char *postfix; /* appended to the file name, e.g. ".gz" */
    int (*compress)(FILE *in, FILE *out);
    int (*decompress)(FILE *in, FILE *out, const char **why);
} opal_compress_base_file_format_t;

/* ---- component ---- */
struct opal_compress_base_component_3_1_0_t {
    mca_base_component_t base_version;
    mca_base_component_data_t base_data;
    /* The codec this component provides; valid once the component opened. */
    const opal_compress_codec_t *codec;
    /* Preference for whole-file compression (higher wins); the framework's
     * opal_compress module uses the open codec with the highest priority. */
    int priority;
    /* Upstream's file format for this component's name; NULL: the
     * framework's container (base/compress_base_file.c). */
    const opal_compress_base_file_format_t *file_format;
};
typedef struct opal_compress_base_component_3_1_0_t opal_compress_base_component_3_1_0_t;
typedef struct opal_compress_base_component_3_1_0_t opal_compress_base_component_t;

/* 3.0.0: block codecs replaced the 2.0.0 file compressors.
 * 3.1.0: file_format appended (gzip and bzip write upstream's files). */
#define OPAL_COMPRESS_BASE_VERSION_3_1_0 OPAL_MCA_BASE_VERSION_2_1_0("compress", 3, 1, 0)

OPAL_DECLSPEC extern opal_compress_base_module_t opal_compress;

END_C_DECLS

#endif /* OPAL_MCA_COMPRESS_H */
