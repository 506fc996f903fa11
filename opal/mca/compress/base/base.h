/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef OPAL_COMPRESS_BASE_H
#define OPAL_COMPRESS_BASE_H

#include "opal_config.h"
#include "opal/mca/base/base.h"
#include "opal/mca/compress/compress.h"
/* opal_compress_base_checksum(), the suite's one checksum (files, zcomp's
 * wire), is static inline there: C library only, for the plain-C tests. */
#include "opal/mca/compress/base/compress_base_bytes.h"

BEGIN_C_DECLS

OPAL_DECLSPEC extern mca_base_framework_t opal_compress_base_framework;

/* The component opal_compress (the file interface) uses, if any. */
OPAL_DECLSPEC extern opal_compress_base_component_t opal_compress_base_selected_component;

/* Upstream's selection step, kept for its callers (opal_init): the codec
 * table and the file interface are set up when the framework opens, so this
 * only checks that it is open.  Never fails because no codec is available. */
OPAL_DECLSPEC int opal_compress_base_select(void);

/* Codec lookup; NULL when the codec is unknown, excluded or not built.
 * Open MPI 4.1's component names work too: "bzip" finds bzip2. */
OPAL_DECLSPEC const opal_compress_codec_t *opal_compress_base_find(const char *name);

/* Lookup by wire id: one array index, for the receive path. */
OPAL_DECLSPEC extern const opal_compress_codec_t *opal_compress_base_by_id[256];
static inline const opal_compress_codec_t *opal_compress_base_find_id(uint8_t id)
{
    return opal_compress_base_by_id[id];
}

/* The open codecs, in wire-id order; returns how many (<= max). */
OPAL_DECLSPEC int opal_compress_base_codecs(const opal_compress_codec_t **list, int max);

/* File interface on top of a codec (the legacy opal_compress functions use
 * the selected component's codec). */
OPAL_DECLSPEC int opal_compress_base_file_compress(const opal_compress_codec_t *codec,
                                                   const char *fname, const char *cname);
OPAL_DECLSPEC int opal_compress_base_file_decompress(const char *cname, const char *fname);
/* The same in a component's own file format (gzip's .gz, bzip's .bz2). */
OPAL_DECLSPEC int opal_compress_base_file_compress_format(const opal_compress_base_file_format_t *fmt,
                                                          const char *fname, const char *cname);
OPAL_DECLSPEC int opal_compress_base_file_decompress_format(const opal_compress_base_file_format_t *fmt,
                                                            const char *cname, const char *fname);

/* For components: register an integer knob "compress_<component>_<name>"
 * (level 5, read-only after start) and check its range at open, saying what
 * is wrong with the suite's bad-value message (common_suite_int_in_range). */
OPAL_DECLSPEC int opal_compress_base_register_int(opal_compress_base_component_t *comp,
                                                  const char *name, const char *help,
                                                  int *storage);
OPAL_DECLSPEC int opal_compress_base_check_range(opal_compress_base_component_t *comp,
                                                 const char *name, int value, int lo, int hi);

/*
 * Defines the component `opal_compress_base_component_t
 * mca_compress_<comp>_component`, offering the codec
 * mca_compress_<comp>_codec (OPAL_COMPRESS_CODEC) with whole-file priority
 * prio; open and reg are its mca_open_component and
 * mca_register_component_params (NULL for none).  Every compress component
 * has this one shape, so that a new codec's component is one line; the
 * mca_base_component_t fields keep Open MPI's names.
 */
#define OPAL_COMPRESS_COMPONENT(comp, prio, open, reg) \
    OPAL_COMPRESS_COMPONENT_FILE(comp, prio, open, reg, NULL)

/* The same for a component that writes upstream's file format fmt (a
 * const opal_compress_base_file_format_t *) when it is the file codec. */
#define OPAL_COMPRESS_COMPONENT_FILE(comp, prio, open, reg, fmt)                   \
    opal_compress_base_component_t mca_compress_##comp##_component = {              \
        .base_version = {                                                           \
            OPAL_COMPRESS_BASE_VERSION_3_1_0,                                       \
            .mca_component_name = #comp,                                            \
            MCA_BASE_MAKE_VERSION(component, OPAL_MAJOR_VERSION, OPAL_MINOR_VERSION, \
                                  OPAL_RELEASE_VERSION),                            \
            .mca_open_component = (open),                                           \
            .mca_register_component_params = (reg),                                 \
        },                                                                          \
        .base_data = {MCA_BASE_METADATA_PARAM_CHECKPOINT},                          \
        .codec = &mca_compress_##comp##_codec,                                      \
        .priority = (prio),                                                         \
        .file_format = (fmt),                                                       \
    }

/*
 * OPAL_COMPRESS_COMPONENT for a component with one integer knob
 * compress_<comp>_<knob> (stored in int mca_compress_<comp>_<knob>,
 * described by help): registered with the component, and checked against
 * lo .. hi (evaluated when the component opens) so that a bad value
 * disables this codec with a message.
 */
#define OPAL_COMPRESS_COMPONENT_WITH_INT(comp, prio, knob, lo, hi, help) \
    OPAL_COMPRESS_COMPONENT_WITH_INT_FILE(comp, prio, NULL, knob, lo, hi, help)

/* The same with upstream's file format fmt (OPAL_COMPRESS_COMPONENT_FILE). */
#define OPAL_COMPRESS_COMPONENT_WITH_INT_FILE(comp, prio, fmt, knob, lo, hi, help)      \
    static int comp##_register(void);                                                   \
    static int comp##_open(void);                                                       \
    OPAL_COMPRESS_COMPONENT_FILE(comp, prio, comp##_open, comp##_register, fmt);        \
    static int comp##_register(void)                                                    \
    {                                                                                   \
        return opal_compress_base_register_int(&mca_compress_##comp##_component, #knob, \
                                               help, &mca_compress_##comp##_##knob);    \
    }                                                                                   \
    static int comp##_open(void)                                                        \
    {                                                                                   \
        return opal_compress_base_check_range(&mca_compress_##comp##_component, #knob,  \
                                              mca_compress_##comp##_##knob, (lo), (hi)); \
    }

END_C_DECLS

#endif /* OPAL_COMPRESS_BASE_H */
