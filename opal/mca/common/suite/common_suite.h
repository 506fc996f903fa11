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

#endif
