/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Framework open/close and the codec table.  Unlike most OPAL frameworks no
 * single component is selected: every component that opens contributes its
 * codec, and callers pick per message by name or wire id.
 *
 * Open MPI 4.1's component names keep working: gzip is a codec of its own;
 * bzip is a second component offering bzip2's codec (same descriptor name
 * and wire id, see bzip/), so that "--mca compress bzip" loads something.
 * The table holds that codec once, and the two names act as one: either
 * finds it, listing either selects it, excluding either excludes it.
 */
#include "opal_config.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "opal/constants.h"
#include "opal/mca/base/base.h"
#include "opal/mca/installdirs/installdirs.h"
#include "opal/util/argv.h"
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

opal_compress_base_component_t opal_compress_base_selected_component = {0};

/* Written only while the framework opens or closes (single-threaded, inside
 * opal_init/opal_finalize); read without locks afterwards. */
const opal_compress_codec_t *opal_compress_base_by_id[256];
static const opal_compress_codec_t *file_codec = NULL;
/* The file formats of the open components (gzip's .gz, bzip's .bz2), but
 * those left out by the selection: a file with such a postfix is read
 * with its format, whichever component writes files. */
#define MAX_FORMATS 8
static const opal_compress_base_file_format_t *formats[MAX_FORMATS];
static int nformats = 0;

/* Open MPI 4.1's component names for codecs that this framework names
 * otherwise (each also a component here, offering that codec). */
static const struct {
    const char *upstream, *codec;
} upstream_names[] = {
    {"bzip", "bzip2"},
};

/* The codec name that name stands for. */
static const char *codec_name(const char *name)
{
    for (size_t i = 0; i < sizeof(upstream_names) / sizeof(upstream_names[0]); i++) {
        if (0 == strcmp(name, upstream_names[i].upstream)) {
            return upstream_names[i].codec;
        }
    }
    return name;
}

/* Whether the framework's selection ("--mca compress ^a,b") excludes the
 * codec: the MCA base leaves out only the component named, and the codec
 * must go whichever of its names was given. */
static bool codec_excluded(const char *codec)
{
    bool include_mode, excluded = false;
    char **names = NULL;
    if (OPAL_SUCCESS != mca_base_component_parse_requested(
            opal_compress_base_framework.framework_selection, &include_mode, &names)) {
        return false;
    }
    for (int i = 0; !include_mode && NULL != names && NULL != names[i]; i++) {
        excluded |= 0 == strcmp(codec_name(names[i]), codec);
    }
    opal_argv_free(names);
    return excluded;
}

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
    nformats = 0;
    memset(&opal_compress_base_selected_component, 0,
           sizeof(opal_compress_base_selected_component));

    OPAL_LIST_FOREACH (cli, &opal_compress_base_framework.framework_components,
                       mca_base_component_list_item_t) {
        const opal_compress_base_component_t *comp
            = (const opal_compress_base_component_t *) cli->cli_component;
        const opal_compress_codec_t *codec, *prev;
        /* A plugin left in the prefix by an older Open MPI (API 2.x file
         * compressors) has no codec field, and one from an older build of
         * this framework (3.0) no file_format: never read them. */
        if (3 != comp->base_version.mca_type_major_version
            || 1 > comp->base_version.mca_type_minor_version) {
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
        if (codec_excluded(codec->name)) {
            opal_output_verbose(10, opal_compress_base_framework.framework_output,
                                "compress: component %s left out: its codec %s is excluded",
                                comp->base_version.mca_component_name, codec->name);
            continue;
        }
        prev = opal_compress_base_by_id[codec->id];
        if (NULL != prev && 0 != strcmp(prev->name, codec->name)) {
            opal_show_help("help-opal-compress.txt", "duplicate-id", true, codec->name,
                           prev->name, (int) codec->id);
            continue;
        }
        /* The same codec from two components (bzip and bzip2): one entry,
         * the descriptor of the component named as the codec, whose knobs
         * then apply. */
        if (NULL == prev
            || 0 == strcmp(comp->base_version.mca_component_name, codec->name)) {
            opal_compress_base_by_id[codec->id] = codec;
        }
        if (NULL != comp->file_format && nformats < MAX_FORMATS) {
            formats[nformats++] = comp->file_format;
        }
        opal_output_verbose(10, opal_compress_base_framework.framework_output,
                            "compress: component %s: codec %s available (wire id %d, "
                            "file priority %d%s%s)",
                            comp->base_version.mca_component_name, codec->name,
                            (int) codec->id, comp->priority,
                            NULL != comp->file_format ? ", writes files as " : "",
                            NULL != comp->file_format ? comp->file_format->postfix : "");
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
    nformats = 0;
    /* its pointers lead into components about to be unloaded */
    memset(&opal_compress_base_selected_component, 0,
           sizeof(opal_compress_base_selected_component));
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
    name = codec_name(name);
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

/* The format a compressed file is in, by its name: that of the component
 * whose postfix ends it (gzip's ".gz", bzip's ".bz2"), or NULL for the
 * framework's container. */
static const opal_compress_base_file_format_t *format_of(const char *cname)
{
    size_t n = strlen(cname);
    for (int i = 0; i < nformats; i++) {
        size_t p = strlen(formats[i]->postfix);
        if (n > p && 0 == strcmp(cname + n - p, formats[i]->postfix)) {
            return formats[i];
        }
    }
    return NULL;
}

/* The name fname compresses to: fname + *postfix, *postfix = the file
 * codec component's own postfix (".gz", as upstream's gzip), else
 * ".<codec>" (the container). */
static int compressed_name(const char *fname, char **cname, char **postfix)
{
    const opal_compress_base_file_format_t *fmt = opal_compress_base_selected_component.file_format;
    if (NULL == file_codec) {
        opal_show_help("help-opal-compress.txt", "no-codec", true, fname);
        return OPAL_ERR_NOT_AVAILABLE;
    }
    if (0 > (NULL != fmt ? asprintf(postfix, "%s", fmt->postfix)
                         : asprintf(postfix, ".%s", file_codec->name))
        || 0 > asprintf(cname, "%s%s", fname, *postfix)) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    return OPAL_SUCCESS;
}

/* The name a compressed file decompresses to: without its postfix. */
static int decompressed_name(const char *cname, char **fname)
{
    const opal_compress_base_file_format_t *fmt = format_of(cname);
    const char *dot = strrchr(cname, '.');
    if (NULL != fmt) {
        *fname = strndup(cname, strlen(cname) - strlen(fmt->postfix));
    } else if (NULL != dot && NULL != opal_compress_base_find(dot + 1) && dot != cname) {
        *fname = strndup(cname, (size_t)(dot - cname));
    } else {
        (void) asprintf(fname, "%s.out", cname);
    }
    return NULL == *fname ? OPAL_ERR_OUT_OF_RESOURCE : OPAL_SUCCESS;
}

/* Compresses file from into to, in the file codec component's format, or
 * decompresses it, in the format its name says. */
static int file_convert(bool compress, const char *from, const char *to)
{
    const opal_compress_base_file_format_t *fmt;
    if (compress) {
        fmt = opal_compress_base_selected_component.file_format;
        return NULL != fmt ? opal_compress_base_file_compress_format(fmt, from, to)
                           : opal_compress_base_file_compress(file_codec, from, to);
    }
    fmt = format_of(from);
    return NULL != fmt ? opal_compress_base_file_decompress_format(fmt, from, to)
                       : opal_compress_base_file_decompress(from, to);
}

/* The _nb variants convert in a child process; the caller waits for *pid.
 * The child exits 0 on success. */
static int file_convert_nb(bool compress, const char *from, const char *to, pid_t *pid)
{
    *pid = fork();
    if (0 == *pid) {
        _exit(OPAL_SUCCESS == file_convert(compress, from, to) ? 0 : 1);
    }
    return *pid > 0 ? OPAL_SUCCESS : OPAL_ERR_IN_ERRNO;
}

static int base_file_compress(char *fname, char **cname, char **postfix)
{
    int rc = compressed_name(fname, cname, postfix);
    return OPAL_SUCCESS != rc ? rc : file_convert(true, fname, *cname);
}

static int base_file_compress_nb(char *fname, char **cname, char **postfix, pid_t *pid)
{
    int rc = compressed_name(fname, cname, postfix);
    return OPAL_SUCCESS != rc ? rc : file_convert_nb(true, fname, *cname, pid);
}

static int base_file_decompress(char *cname, char **fname)
{
    int rc = decompressed_name(cname, fname);
    return OPAL_SUCCESS != rc ? rc : file_convert(false, cname, *fname);
}

static int base_file_decompress_nb(char *cname, char **fname, pid_t *pid)
{
    int rc = decompressed_name(cname, fname);
    return OPAL_SUCCESS != rc ? rc : file_convert_nb(false, cname, *fname, pid);
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
