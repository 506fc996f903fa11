/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * grpmap bdd: the member set as a Boolean function of the world-rank bits,
 * built with BuDDy, kept as its paths to true (Mir Taheri §4.1.2;
 * grpmap_bdd.c).
 */
#include "ompi_config.h"

#include "ompi/constants.h"
#include "ompi/mca/grpmap/grpmap.h"
#include "ompi/mca/grpmap/bdd/grpmap_bdd.h"

static const grpmap_repr_t *const bdd_reprs[] = {&grpmap_bdd_repr, NULL};
static int max_nodes, max_paths;
static int bdd_register(void);
static int bdd_close(void);

MCA_GRPMAP_COMPONENT(bdd, bdd_reprs, bdd_register, NULL, bdd_close);

static int bdd_register(void)
{
    (void) common_suite_register_int(
        &mca_grpmap_bdd_component.base_version, "max_nodes",
        "Most BuDDy nodes building one map may use; a map that needs more is not held "
        "as a BDD (another form takes it)",
        OPAL_INFO_LVL_9, 1000000, &max_nodes);
    (void) common_suite_register_int(
        &mca_grpmap_bdd_component.base_version, "max_paths",
        "Most paths to true a BDD map keeps (SELECT walks them all); a map with more is "
        "not held as a BDD",
        OPAL_INFO_LVL_9, 4096, &max_paths);
    grpmap_bdd_set_limits(max_nodes, max_paths);
    return OMPI_SUCCESS;
}

static int bdd_close(void)
{
    grpmap_bdd_finalize();
    return OMPI_SUCCESS;
}
