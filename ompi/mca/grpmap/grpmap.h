/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * The grpmap framework: compressed group maps (group rank -> world rank).
 * Every component is open at once and contributes one or more
 * representations (grpmap_repr.h); the base's strategy picks one per group
 * (base/grpmap_engine.h).  --mca grpmap lattice,bitmap restricts the set,
 * --mca grpmap_base_strategy space|time|hybrid picks how.
 */
#ifndef OMPI_MCA_GRPMAP_H
#define OMPI_MCA_GRPMAP_H

#include "ompi_config.h"

#include "opal/mca/mca.h"
#include "opal/mca/base/base.h"
#include "opal/mca/common/suite/common_suite.h"
#include "ompi/mca/mca.h"
#include "ompi/mca/grpmap/grpmap_repr.h"

BEGIN_C_DECLS

typedef struct mca_grpmap_base_component_1_0_0_t {
    mca_base_component_t base_version;
    mca_base_component_data_t base_data;
    /* NULL-terminated; read once the component is open */
    const grpmap_repr_t *const *reprs;
} mca_grpmap_base_component_1_0_0_t;
typedef mca_grpmap_base_component_1_0_0_t mca_grpmap_base_component_t;

#define MCA_GRPMAP_BASE_VERSION_1_0_0 OMPI_MCA_BASE_VERSION_2_1_0("grpmap", 1, 0, 0)

/* Defines the component structure mca_grpmap_<name>_component (what the
 * MCA loader looks up; e.g. MCA_GRPMAP_COMPONENT(bdd, ...) defines
 * mca_grpmap_bdd_component) holding the representations reprs_array (an
 * array of pointers ending in NULL), with its register, open and close
 * functions (each may be NULL). */
#define MCA_GRPMAP_COMPONENT(name, reprs_array, register_fn, open_fn, close_fn)   \
    mca_grpmap_base_component_t mca_grpmap_##name##_component = {                 \
        .base_version = {                                                         \
            MCA_GRPMAP_BASE_VERSION_1_0_0,                                        \
            .mca_component_name = #name,                                          \
            MCA_BASE_MAKE_VERSION(component, OMPI_MAJOR_VERSION,                  \
                                  OMPI_MINOR_VERSION, OMPI_RELEASE_VERSION),      \
            .mca_open_component = open_fn,                                        \
            .mca_close_component = close_fn,                                      \
            .mca_register_component_params = register_fn,                         \
        },                                                                        \
        .base_data = {MCA_BASE_METADATA_PARAM_CHECKPOINT},                        \
        .reprs = reprs_array,                                                     \
    }

/* The same for a component with one integer limit of its core and no
 * open or close: also defines its register function <name>_register,
 * which registers grpmap_<name>_<var_name> (read-only, level 9, default
 * dflt; common_suite_register_int) into the static int <name>_limit and
 * hands the value to set_fn(int). */
#define MCA_GRPMAP_COMPONENT_LIMIT(name, reprs_array, var_name, desc, dflt, set_fn)     \
    static int name##_limit;                                                            \
    extern mca_grpmap_base_component_t mca_grpmap_##name##_component;                  \
    static int name##_register(void)                                                    \
    {                                                                                   \
        (void) common_suite_register_int(&mca_grpmap_##name##_component.base_version,  \
                                         var_name, desc, OPAL_INFO_LVL_9, dflt,         \
                                         &name##_limit);                                \
        set_fn(name##_limit);                                                           \
        return OMPI_SUCCESS;                                                            \
    }                                                                                   \
    MCA_GRPMAP_COMPONENT(name, reprs_array, name##_register, NULL, NULL)

END_C_DECLS

#endif
