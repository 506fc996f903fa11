/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef OPAL_COMPRESS_BASE_H
#define OPAL_COMPRESS_BASE_H

#include "opal_config.h"
#include "opal/mca/base/base.h"
#include "opal/mca/compress/compress.h"

BEGIN_C_DECLS

OPAL_DECLSPEC extern mca_base_framework_t opal_compress_base_framework;

/* The component opal_compress (the file interface) uses, if any. */
OPAL_DECLSPEC extern opal_compress_base_component_t opal_compress_base_selected_component;

/* Upstream's selection step, kept for its callers (opal_init): the codec
 * table and the file interface are set up when the framework opens, so this
 * only checks that it is open.  Never fails because no codec is available. */
OPAL_DECLSPEC int opal_compress_base_select(void);

/* Codec lookup; NULL when the codec is unknown, excluded or not built. */
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

/* A fast 64-bit checksum of a buffer, to detect corrupt data that a codec
 * decodes without error (not a cryptographic hash). */
OPAL_DECLSPEC uint64_t opal_compress_base_checksum(const void *buf, size_t len);

/* For components: register an integer knob "compress_<component>_<name>"
 * (level 5, read-only after start) and check its range at open, saying what
 * is wrong through show_help. */
OPAL_DECLSPEC int opal_compress_base_register_int(opal_compress_base_component_t *comp,
                                                  const char *name, const char *help,
                                                  int *storage);
OPAL_DECLSPEC int opal_compress_base_check_range(opal_compress_base_component_t *comp,
                                                 const char *name, int value, int lo, int hi);

END_C_DECLS

#endif /* OPAL_COMPRESS_BASE_H */
