/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Glue every framework and component of this suite shares (compress,
 * zcomp, comm_store, la_twophase, grpmap, redist).  Header only, on
 * purpose: the framework bases are linked into libopen-pal and libmpi,
 * the components are DSOs, and a common library would have to be linked
 * into both, which needs a core patch for the bases.  There is therefore
 * no Makefile.am here (autogen.pl then does not take this directory for a
 * component), and everything is static inline.
 */
#ifndef OPAL_MCA_COMMON_SUITE_H
#define OPAL_MCA_COMMON_SUITE_H

#include "opal_config.h"

#include "opal/mca/mca.h"
#include "opal/mca/base/mca_base_pvar.h"
#include "opal/mca/base/mca_base_var.h"
#include "opal/util/output.h"
#include "opal/util/show_help.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

/* The suite's MPI_T performance variables are all statistics a tool may
 * read at any time: read-only, continuous (no start/stop), bound to no
 * object, level 4, read from ctx (the variable itself) unless get is
 * given.  project/framework/component name the owner as ompi_info shows
 * it ("ompi", "redist", "base" for a framework base). */
static inline int common_suite_pvar_register(const char *project, const char *framework,
                                             const char *component, const char *name,
                                             const char *desc, int var_class,
                                             mca_base_var_type_t type,
                                             mca_base_get_value_fn_t get, void *ctx)
{
    return mca_base_pvar_register(project, framework, component, name, desc, OPAL_INFO_LVL_4,
                                  var_class, type, NULL, MCA_BASE_VAR_BIND_NO_OBJECT,
                                  MCA_BASE_PVAR_FLAG_READONLY | MCA_BASE_PVAR_FLAG_CONTINUOUS,
                                  get, NULL, NULL, ctx);
}

/* The same for a component's own variable (<framework>_<component>_<name>;
 * Open MPI invalidates it when the component is unloaded). */
static inline int common_suite_component_pvar_register(const mca_base_component_t *c,
                                                       const char *name, const char *desc,
                                                       int var_class, mca_base_var_type_t type,
                                                       mca_base_get_value_fn_t get, void *ctx)
{
    return mca_base_component_pvar_register(c, name, desc, OPAL_INFO_LVL_4, var_class, type,
                                            NULL, MCA_BASE_VAR_BIND_NO_OBJECT,
                                            MCA_BASE_PVAR_FLAG_READONLY
                                                | MCA_BASE_PVAR_FLAG_CONTINUOUS,
                                            get, NULL, NULL, ctx);
}

/* show_help text printed by this process on its own output stream.
 * Open MPI 4.1.4 with this PMIx loses some show_help messages forwarded
 * to mpirun ("Data unpack would read past end of buffer" in
 * orte/util/show_help.c), and a message about a bad parameter must not be
 * lost: the text is formatted here and written locally, so the caller
 * decides which processes speak (usually one). */
#define common_suite_show_help(file, topic, ...)                              \
    do {                                                                      \
        char *msg_ = opal_show_help_string((file), (topic), true, __VA_ARGS__); \
        if (NULL != msg_) {                                                   \
            opal_output(0, "%s", msg_);                                       \
            free(msg_);                                                       \
        }                                                                     \
    } while (0)

/* An integer MCA variable registered once, with its default set where it
 * is registered (the default written in one place); storage is an int.
 * Bounds are checked where the value is used (common_suite_int_in_range),
 * because a registration runs in ompi_info too, where a bad value from
 * the environment must not print anything. */
static inline int common_suite_register_int(const mca_base_component_t *c, const char *name,
                                            const char *desc, int info_level, int dflt,
                                            int *storage)
{
    *storage = dflt;
    return mca_base_component_var_register(c, name, desc, MCA_BASE_VAR_TYPE_INT, NULL, 0, 0,
                                           info_level, MCA_BASE_VAR_SCOPE_READONLY, storage);
}

/* The same for a framework base's variable, <framework>_base_<name>
 * ("ompi", "grpmap", "strategy", ...), with an optional enumerator. */
static inline int common_suite_register_base_int(const char *project, const char *framework,
                                                 const char *name, const char *desc,
                                                 mca_base_var_enum_t *values, int info_level,
                                                 int dflt, int *storage)
{
    *storage = dflt;
    return mca_base_var_register(project, framework, "base", name, desc, MCA_BASE_VAR_TYPE_INT,
                                 values, 0, 0, info_level, MCA_BASE_VAR_SCOPE_READONLY, storage);
}

/* Is value (of the MCA variable var, full name) inside [lo, hi]?  If not
 * and say is true, prints the suite's one "bad value" message (help-
 * common-suite.txt) naming the variable, its value, the accepted range
 * and outcome, what happens now ("using 4096 instead", "MPI_Init fails").
 * The caller applies the outcome: a fallback or an error, as documented
 * for that variable. */
static inline bool common_suite_int_in_range(const char *var, long long value, long long lo,
                                             long long hi, bool say, const char *outcome)
{
    char v[32], range[64];
    if (value >= lo && value <= hi) {
        return true;
    }
    if (say) {
        snprintf(v, sizeof(v), "%lld", value);
        snprintf(range, sizeof(range), "%lld .. %lld", lo, hi);
        common_suite_show_help("help-common-suite.txt", "bad-value", var, v, range, outcome);
    }
    return false;
}

#endif
