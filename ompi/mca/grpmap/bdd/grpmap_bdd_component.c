/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * grpmap bdd: the member set as a Boolean function of the world-rank bits,
 * built with BuDDy, kept as its paths to true (thesis §4.1.2;
 * grpmap_bdd.c).
 */
#include "ompi_config.h"

#include "ompi/constants.h"
#include "ompi/mca/grpmap/grpmap.h"
#include "ompi/mca/grpmap/bdd/grpmap_bdd.h"

static const grpmap_repr_t *const bdd_reprs[] = {&grpmap_bdd_repr, NULL};
static int max_nodes = 1000000, max_paths = 4096;
static int bdd_register(void);
static int bdd_close(void);

mca_grpmap_base_component_t mca_grpmap_bdd_component = {
    .base_version = {
        MCA_GRPMAP_BASE_VERSION_1_0_0,
        .mca_component_name = "bdd",
        MCA_BASE_MAKE_VERSION(component, OMPI_MAJOR_VERSION, OMPI_MINOR_VERSION,
                              OMPI_RELEASE_VERSION),
        .mca_register_component_params = bdd_register,
        .mca_close_component = bdd_close,
    },
    .base_data = {MCA_BASE_METADATA_PARAM_CHECKPOINT},
    .reprs = bdd_reprs,
};

static int bdd_register(void)
{
    (void) mca_base_component_var_register(
        &mca_grpmap_bdd_component.base_version, "max_nodes",
        "Most BuDDy nodes building one map may use; a map that needs more is not held "
        "as a BDD (another form takes it)",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_9, MCA_BASE_VAR_SCOPE_READONLY,
        &max_nodes);
    (void) mca_base_component_var_register(
        &mca_grpmap_bdd_component.base_version, "max_paths",
        "Most paths to true a BDD map keeps (SELECT walks them all); a map with more is "
        "not held as a BDD",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_9, MCA_BASE_VAR_SCOPE_READONLY,
        &max_paths);
    grpmap_bdd_set_limits(max_nodes, max_paths);
    return OMPI_SUCCESS;
}

static int bdd_close(void)
{
    grpmap_bdd_finalize();
    return OMPI_SUCCESS;
}
