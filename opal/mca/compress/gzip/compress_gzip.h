/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * gzip: deflate through zlib, under Open MPI 4.1's component name, so that
 * "--mca compress gzip", a site's "compress = gzip" and opal-restart's
 * "-d gzip" still select something.  Blocks are zlib streams; files are
 * written as upstream's component wrote them: .gz files that gunzip reads.
 */
#ifndef MCA_COMPRESS_GZIP_H
#define MCA_COMPRESS_GZIP_H

#include <stdio.h>

#include "opal/mca/compress/compress_codec.h"

extern const opal_compress_codec_t mca_compress_gzip_codec;
/* zlib compression level (1..9) of blocks and .gz files. */
extern int mca_compress_gzip_level;

/* The .gz file format (opal_compress_base_file_format_t): one gzip member
 * written; any number of concatenated members read, as gunzip does. */
int mca_compress_gzip_file_compress(FILE *in, FILE *out);
int mca_compress_gzip_file_decompress(FILE *in, FILE *out, const char **why);

#endif
