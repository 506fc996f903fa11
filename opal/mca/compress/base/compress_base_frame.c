/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Framework open/close and the codec table.  Unlike most OPAL frameworks no
 * single component is selected: every component that opens contributes its
 * codec, and callers pick per message by name or wire id.
 */
#include "opal_config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "opal/constants.h"
#include "opal/mca/base/base.h"
#include "opal/mca/installdirs/installdirs.h"
#include "opal/util/output.h"
#include "opal/util/show_help.h"
#include "opal/mca/common/suite/common_suite.h"
#include "opal/mca/compress/base/base.h"

#include "opal/mca/compress/base/static-components.h"

static int base_file_compress(char *fname, char **cname, char **postfix);
static int base_file_compress_nb(char *fname, char **cname, char **postfix, pid_t *pid);
static int base_file_decompress(char *cname, char **fname);
static int base_file_decompress_nb(char *cname, char **fname, pid_t *pid);

static int base_noop(void)
{
    return OPAL_SUCCESS;
}

opal_compress_base_module_t opal_compress = {
    base_noop, base_noop, base_file_compress, base_file_compress_nb,
    base_file_decompress, base_file_decompress_nb
};

opal_compress_base_component_t opal_compress_base_selected_component = {{0}};

/* Written only while the framework opens or closes (single-threaded, inside
 * opal_init/opal_finalize); read without locks afterwards. */
const opal_compress_codec_t *opal_compress_base_by_id[256];
static const opal_compress_codec_t *file_codec = NULL;

static int compress_base_open(mca_base_open_flag_t flags);
static int compress_base_close(void);

MCA_BASE_FRAMEWORK_DECLARE(opal, compress, "In-memory block compression codecs", NULL,
                           compress_base_open, compress_base_close,
                           mca_compress_base_static_components, 0);

static void build_table(void)
{
    mca_base_component_list_item_t *cli;
    int best = -1;

    memset(opal_compress_base_by_id, 0, sizeof(opal_compress_base_by_id));
    file_codec = NULL;
    memset(&opal_compress_base_selected_component, 0,
           sizeof(opal_compress_base_selected_component));

    OPAL_LIST_FOREACH (cli, &opal_compress_base_framework.framework_components,
                       mca_base_component_list_item_t) {
        const opal_compress_base_component_t *comp
            = (const opal_compress_base_component_t *) cli->cli_component;
        const opal_compress_codec_t *codec;
        /* A plugin left in the prefix by an older Open MPI (API 2.x file
         * compressors) has no codec field: never read it as one. */
        if (3 != comp->base_version.mca_type_major_version) {
            opal_show_help("help-opal-compress.txt", "stale-component", true,
                           comp->base_version.mca_component_name,
                           comp->base_version.mca_type_major_version,
                           comp->base_version.mca_type_minor_version,
                           opal_install_dirs.opallibdir, comp->base_version.mca_component_name);
            continue;
        }
        codec = comp->codec;
        if (NULL == codec || OPAL_COMPRESS_ID_RAW == codec->id) {
            continue;
        }
        if (NULL != opal_compress_base_by_id[codec->id]) {
            opal_show_help("help-opal-compress.txt", "duplicate-id", true, codec->name,
                           opal_compress_base_by_id[codec->id]->name, (int) codec->id);
            continue;
        }
        opal_compress_base_by_id[codec->id] = codec;
        opal_output_verbose(10, opal_compress_base_framework.framework_output,
                            "compress: codec %s available (wire id %d, file priority %d)",
                            codec->name, (int) codec->id, comp->priority);
        if (comp->priority > best) {
            best = comp->priority;
            file_codec = codec;
            opal_compress_base_selected_component = *comp;
        }
    }
}

static int compress_base_open(mca_base_open_flag_t flags)
{
    int rc = mca_base_framework_components_open(&opal_compress_base_framework, flags);
    if (OPAL_SUCCESS != rc) {
        return rc;
    }
    build_table();
    return OPAL_SUCCESS;
}

static int compress_base_close(void)
{
    memset(opal_compress_base_by_id, 0, sizeof(opal_compress_base_by_id));
    file_codec = NULL;
    return mca_base_framework_components_close(&opal_compress_base_framework, NULL);
}

int opal_compress_base_select(void)
{
    /* The codec table was built when the framework opened; nothing is
     * selected beyond that (all codecs stay open). */
    if (!mca_base_framework_is_open(&opal_compress_base_framework)) {
        return OPAL_ERR_NOT_INITIALIZED;
    }
    if (NULL == file_codec) {
        opal_output_verbose(10, opal_compress_base_framework.framework_output,
                            "compress: no codec available; file compression disabled");
    }
    return OPAL_SUCCESS;
}

const opal_compress_codec_t *opal_compress_base_find(const char *name)
{
    if (NULL == name) {
        return NULL;
    }
    for (int id = 1; id < 256; id++) {
        const opal_compress_codec_t *c = opal_compress_base_by_id[id];
        if (NULL != c && 0 == strcmp(c->name, name)) {
            return c;
        }
    }
    return NULL;
}

int opal_compress_base_codecs(const opal_compress_codec_t **list, int max)
{
    int n = 0;
    for (int id = 1; id < 256 && n < max; id++) {
        if (NULL != opal_compress_base_by_id[id]) {
            list[n++] = opal_compress_base_by_id[id];
        }
    }
    return n;
}

/* ---- legacy file interface ---- */

/* The name fname compresses to: fname + *postfix, *postfix = ".<codec>". */
static int compressed_name(const char *fname, char **cname, char **postfix)
{
    if (NULL == file_codec) {
        opal_show_help("help-opal-compress.txt", "no-codec", true, fname);
        return OPAL_ERR_NOT_AVAILABLE;
    }
    if (0 > asprintf(postfix, ".%s", file_codec->name)
        || 0 > asprintf(cname, "%s%s", fname, *postfix)) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    return OPAL_SUCCESS;
}

/* The name a compressed file decompresses to: without its ".<codec>" suffix. */
static int decompressed_name(const char *cname, char **fname)
{
    const char *dot = strrchr(cname, '.');
    if (NULL != dot && NULL != opal_compress_base_find(dot + 1) && dot != cname) {
        *fname = strndup(cname, (size_t)(dot - cname));
    } else {
        (void) asprintf(fname, "%s.out", cname);
    }
    return NULL == *fname ? OPAL_ERR_OUT_OF_RESOURCE : OPAL_SUCCESS;
}

/* Compresses file from into to with codec, or decompresses it (NULL). */
static int file_convert(const opal_compress_codec_t *codec, const char *from, const char *to)
{
    return NULL != codec ? opal_compress_base_file_compress(codec, from, to)
                         : opal_compress_base_file_decompress(from, to);
}

/* The _nb variants convert in a child process; the caller waits for *pid.
 * The child exits 0 on success. */
static int file_convert_nb(const opal_compress_codec_t *codec, const char *from, const char *to,
                           pid_t *pid)
{
    *pid = fork();
    if (0 == *pid) {
        _exit(OPAL_SUCCESS == file_convert(codec, from, to) ? 0 : 1);
    }
    return *pid > 0 ? OPAL_SUCCESS : OPAL_ERR_IN_ERRNO;
}

static int base_file_compress(char *fname, char **cname, char **postfix)
{
    int rc = compressed_name(fname, cname, postfix);
    return OPAL_SUCCESS != rc ? rc : file_convert(file_codec, fname, *cname);
}

static int base_file_compress_nb(char *fname, char **cname, char **postfix, pid_t *pid)
{
    int rc = compressed_name(fname, cname, postfix);
    return OPAL_SUCCESS != rc ? rc : file_convert_nb(file_codec, fname, *cname, pid);
}

static int base_file_decompress(char *cname, char **fname)
{
    int rc = decompressed_name(cname, fname);
    return OPAL_SUCCESS != rc ? rc : file_convert(NULL, cname, *fname);
}

static int base_file_decompress_nb(char *cname, char **fname, pid_t *pid)
{
    int rc = decompressed_name(cname, fname);
    return OPAL_SUCCESS != rc ? rc : file_convert_nb(NULL, cname, *fname, pid);
}

/* ---- helpers for components ---- */

int opal_compress_base_register_int(opal_compress_base_component_t *comp, const char *name,
                                    const char *help, int *storage)
{
    int idx = mca_base_component_var_register(&comp->base_version, name, help,
                                              MCA_BASE_VAR_TYPE_INT, NULL, 0, 0,
                                              OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_READONLY,
                                              storage);
    return idx < 0 ? idx : OPAL_SUCCESS;
}

int opal_compress_base_check_range(opal_compress_base_component_t *comp, const char *name,
                                   int value, int lo, int hi)
{
    char full[256], outcome[128];
    const char *cname = comp->base_version.mca_component_name;
    /* the suite's one bad-value message; the caller's open fails, so the
     * framework leaves this codec out */
    snprintf(full, sizeof(full), "compress_%s_%s", cname, name);
    snprintf(outcome, sizeof(outcome), "the codec %s is disabled in this process", cname);
    return common_suite_int_in_range(full, value, lo, hi, true, outcome) ? OPAL_SUCCESS
                                                                          : OPAL_ERR_BAD_PARAM;
}
