/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * bzip: Open MPI 4.1's component name for bzip2, kept so that
 * "--mca compress bzip", a site's "compress = bzip" and opal-restart's
 * "-d bzip" still select something.  It offers bzip2's codec (same name,
 * same wire id, built from ../bzip2/compress_bzip2_codec.h) and writes
 * files as upstream's did: .bz2 files that bunzip2 reads.
 */
#ifndef MCA_COMPRESS_BZIP_H
#define MCA_COMPRESS_BZIP_H

#include <stdio.h>

#include "opal/mca/compress/compress_codec.h"

/* Named "bzip2", wire id OPAL_COMPRESS_ID_BZIP2: the framework's table
 * holds it once whether bzip, bzip2 or both are open. */
extern const opal_compress_codec_t mca_compress_bzip_codec;

/* Upstream's bzip ran bzip2 with its default, 900 kB blocks (-9); the
 * bzip2 component's compress_bzip2_block_size does not apply here. */
#define MCA_COMPRESS_BZIP_BLOCK_SIZE 9

/* The .bz2 file format (opal_compress_base_file_format_t), one bzip2
 * stream written; any number of concatenated streams read, as bunzip2
 * does. */
int mca_compress_bzip_file_compress(FILE *in, FILE *out);
int mca_compress_bzip_file_decompress(FILE *in, FILE *out, const char **why);

#endif
