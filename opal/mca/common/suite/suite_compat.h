/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * The differences between the two Open MPI series this suite builds on
 * (4.1 and 5.0) that its components meet, in one place, keyed on
 * OPAL_MAJOR_VERSION (opal_config.h defines it in both series).  Header
 * only, like common_suite.h.  Headers that moved are named by macros and
 * included by the caller (#include SUITE_RTE_H), so that this OPAL-level
 * header pulls in no OMPI header itself.
 */
#ifndef OPAL_MCA_COMMON_SUITE_COMPAT_H
#define OPAL_MCA_COMMON_SUITE_COMPAT_H

#include "opal_config.h"

#include <string.h>

#if OPAL_MAJOR_VERSION >= 5
#    define SUITE_OMPI_5 1
/* 5.0 moved the threads layer into a framework and renamed rte.h (no ORTE). */
#    define SUITE_THREADS_MUTEX_H "opal/mca/threads/mutex.h"
#    define SUITE_RTE_H "ompi/runtime/ompi_rte.h"
/* 5.0 calls PMIx directly: its modex macros take PMIx scopes and types. */
#    define SUITE_PMIX_H "opal/mca/pmix/pmix-internal.h"
#    define SUITE_MODEX_GLOBAL PMIX_GLOBAL
#    define SUITE_MODEX_UINT32 PMIX_UINT32
/* PML components are version 2.1.0 (revoke_comm, get_transports). */
#    define SUITE_PML_COMPONENT_T mca_pml_base_component_2_1_0_t
#    define SUITE_PML_BASE_VERSION MCA_PML_BASE_VERSION_2_1_0
/* c_contextid became a 128-bit extended CID; the PML's index is c_index. */
#    define SUITE_COMM_INDEX(c) ((c)->c_index)
#else
#    define SUITE_OMPI_5 0
#    define SUITE_THREADS_MUTEX_H "opal/threads/mutex.h"
#    define SUITE_RTE_H "ompi/mca/rte/rte.h"
#    define SUITE_PMIX_H "opal/mca/pmix/pmix.h"
#    define SUITE_MODEX_GLOBAL OPAL_PMIX_GLOBAL
#    define SUITE_MODEX_UINT32 OPAL_UINT32
#    define SUITE_PML_COMPONENT_T mca_pml_base_component_2_0_0_t
#    define SUITE_PML_BASE_VERSION MCA_PML_BASE_VERSION_2_0_0
#    define SUITE_COMM_INDEX(c) ((c)->c_contextid)
#endif

#include "opal/util/info.h"
#include "opal/util/proc.h"

/* A process's host name for a message, as a string the caller frees.
 * 5.0 no longer keeps it in opal_proc_t; it asks PMIx. */
static inline char *suite_proc_hostname(const opal_proc_t *proc)
{
#if SUITE_OMPI_5
    return opal_get_proc_hostname(proc);
#else
    return strdup(NULL == proc->proc_hostname ? "unknown" : proc->proc_hostname);
#endif
}

/* The value of key in info as a C string in value (at most len - 1
 * characters, always terminated); *flag says whether the key is set.
 * 4.1 copies into a caller's buffer; 5.0 hands out a reference-counted
 * opal_cstring_t.  Returns OPAL_SUCCESS or opal_info_get's error. */
static inline int suite_info_get(opal_info_t *info, const char *key, size_t len, char *value,
                                 int *flag)
{
#if SUITE_OMPI_5
    opal_cstring_t *s = NULL;
    int rc = opal_info_get(info, key, &s, flag);
    if (OPAL_SUCCESS != rc) {
        return rc;
    }
    if (*flag && len > 0) {
        strncpy(value, s->string, len - 1);
        value[len - 1] = '\0';
    }
    if (NULL != s) {
        OBJ_RELEASE(s);
    }
    return OPAL_SUCCESS;
#else
    if (len < 2) {
        *flag = 0;
        return OPAL_SUCCESS;
    }
    int rc = opal_info_get(info, key, (int) len - 1, value, flag);
    if (OPAL_SUCCESS == rc && *flag) {
        value[len - 1] = '\0';
    }
    return rc;
#endif
}

/* grpmap: 5.0's ompi_group_allocate takes the group a new one derives
 * from (NULL: none), whose grp_instance (MPI Session) it inherits. */
#if SUITE_OMPI_5
#    define SUITE_GROUP_ALLOCATE(orig, n) ompi_group_allocate((orig), (n))
#else
#    define SUITE_GROUP_ALLOCATE(orig, n) ((void) (orig), ompi_group_allocate((n)))
#endif

#endif /* OPAL_MCA_COMMON_SUITE_COMPAT_H */
