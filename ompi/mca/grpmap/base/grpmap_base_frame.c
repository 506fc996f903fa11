/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * The grpmap framework's Open MPI side: MCA variables, MPI_T statistics,
 * and the hooks the group code calls (base.h).
 */
#include "ompi_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "opal/mca/base/base.h"
#include "opal/mca/base/mca_base_pvar.h"
#include "opal/util/output.h"
#include "opal/util/show_help.h"
#include "opal/mca/common/suite/common_suite.h"
#include "opal/mca/common/suite/suite_compat.h"
#include "ompi/constants.h"
#include "ompi/group/group.h"
#include "ompi/proc/proc.h"
#include "ompi/mca/grpmap/base/base.h"

#include "ompi/mca/grpmap/base/static-components.h"

/* defaults: grpmap_base_register */
static int strategy, min_size, cache_kind, cache_entries, cache_min_size;
static double alpha;
static bool prefer_lattice;

/* open representations, the packed permutation last */
static const grpmap_repr_t **reprs;
static int nreprs;
static grpmap_engine_t engine;
static int ready;

/* MPI_T statistics (updated with atomics: groups are built by any thread) */
static unsigned long long stat_bytes, stat_dense_bytes, stat_groups, stat_lookups;
static unsigned long long stat_cache_hits, stat_cache_misses;
static double stat_build_time;
static unsigned long long *stat_per_repr;   /* nreprs + 1 (composite) */
static size_t stat_per_repr_len;           /* its slots (kept across re-inits) */

/* A read-only int variable of the base, grpmap_base_<name> */
#define register_int(name, desc, values, level, dflt, storage) \
    (void) common_suite_register_base_int("ompi", "grpmap", name, desc, values, level, dflt, storage)

static void register_pvar(const char *name, const char *desc, int var_class,
                          mca_base_var_type_t type, void *ctx)
{
    (void) common_suite_pvar_register("ompi", "grpmap", "base", name, desc, var_class, type, NULL,
                                      ctx);
}

static int grpmap_base_register(mca_base_register_flag_t flags)
{
    static const mca_base_var_enum_value_t strategies[] = {
        {GRPMAP_STRATEGY_SPACE, "space"},
        {GRPMAP_STRATEGY_TIME, "time"},
        {GRPMAP_STRATEGY_HYBRID, "hybrid"},
        {0, NULL}};
    static const mca_base_var_enum_value_t caches[] = {
        {GRPMAP_CACHE_NONE, "none"},
        {GRPMAP_CACHE_LINEAR, "linear"},
        {GRPMAP_CACHE_SETASSOC, "setassoc"},
        {0, NULL}};
    mca_base_var_enum_t *e = NULL;
    (void) flags;

    (void) mca_base_var_enum_create("grpmap_base_strategy", strategies, &e);
    register_int("strategy",
                 "How a group's map form is picked: space (the smallest), time (the fastest of "
                 "100 random lookups, every form built), hybrid (least alpha*ln(time) + "
                 "(1-alpha)*ln(bytes) over estimates, only the pick built)",
                 e, OPAL_INFO_LVL_4, GRPMAP_STRATEGY_HYBRID, &strategy);
    OBJ_RELEASE(e);
    alpha = 0.25;
    (void) mca_base_var_register("ompi", "grpmap", "base", "alpha",
                                 "Weight of lookup time against bytes in the hybrid strategy "
                                 "(0 <= alpha <= 1; 0: bytes only, 1: time only)",
                                 MCA_BASE_VAR_TYPE_DOUBLE, NULL, 0, 0, OPAL_INFO_LVL_5,
                                 MCA_BASE_VAR_SCOPE_READONLY, &alpha);
    register_int("min_size",
                 "Groups with fewer members keep Open MPI's dense table of process pointers "
                 "(0: every group is offered to the strategy)",
                 NULL, OPAL_INFO_LVL_4, 1024, &min_size);
    prefer_lattice = true;
    (void) mca_base_var_register("ompi", "grpmap", "base", "prefer_lattice",
                                 "Hybrid strategy: a group of grpmap_base_min_size members or more "
                                 "whose members form a lattice (ranges, strides, the sub-grids "
                                 "MPI_Cart_sub and MPI_Comm_split make of a Cartesian grid) is "
                                 "held as one however few its members, as Kumar et al. "
                                 "(EuroMPI '16) do for Cartesian communicators: it costs 44-100 "
                                 "bytes and a lookup about a table read, so its memory does not "
                                 "grow with the group (false: the hybrid weighs it like any form, "
                                 "and keeps groups of a few members dense)",
                                 MCA_BASE_VAR_TYPE_BOOL, NULL, 0, 0, OPAL_INFO_LVL_5,
                                 MCA_BASE_VAR_SCOPE_READONLY, &prefer_lattice);
    (void) mca_base_var_enum_create("grpmap_base_cache", caches, &e);
    register_int("cache",
                 "Cache of recent group rank -> world rank translations of a compressed map "
                 "whose lookup costs more than the cache's probe: none, linear "
                 "(grpmap_base_cache_entries entries searched in order) or setassoc (128 sets "
                 "of 8, 8,352 bytes a map); for groups of grpmap_base_cache_min_size members "
                 "or more",
                 e, OPAL_INFO_LVL_5, GRPMAP_CACHE_SETASSOC, &cache_kind);
    OBJ_RELEASE(e);
    register_int("cache_entries", "Entries of the linear cache (1 .. 255; Kumar et al., "
                 "EuroMPI '16, measured 16)", NULL, OPAL_INFO_LVL_6, 16, &cache_entries);
    register_int("cache_min_size", "Compressed maps of fewer members get no translation cache "
                 "(below about 1K members a table read is cheaper, as Kumar et al. found; 0: "
                 "every compressed map)", NULL, OPAL_INFO_LVL_6, 1024, &cache_min_size);

    register_pvar("bytes", "Bytes held by the maps of this process's live groups "
                  "(compressed forms with their headers and translation caches, dense tables at 8 "
                  "bytes a member)",
                  MCA_BASE_PVAR_CLASS_SIZE, MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG, &stat_bytes);
    register_pvar("dense_bytes", "Bytes 8-byte pointer tables would hold for the same groups",
                  MCA_BASE_PVAR_CLASS_SIZE, MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG,
                  &stat_dense_bytes);
    register_pvar("groups", "Live groups of this process held in a compressed form",
                  MCA_BASE_PVAR_CLASS_LEVEL, MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG, &stat_groups);
    register_pvar("lookups", "World-rank lookups the framework made for group operations "
                  "(translations, finding the calling process's rank)",
                  MCA_BASE_PVAR_CLASS_COUNTER, MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG,
                  &stat_lookups);
    register_pvar("cache_hits", "Lookups answered by a translation cache (grpmap_base_cache)",
                  MCA_BASE_PVAR_CLASS_COUNTER, MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG,
                  &stat_cache_hits);
    register_pvar("cache_misses", "Lookups a translation cache did not hold (the map's "
                  "SELECT ran, and the answer was cached)",
                  MCA_BASE_PVAR_CLASS_COUNTER, MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG,
                  &stat_cache_misses);
    register_pvar("build_time", "Seconds spent picking and building group maps",
                  MCA_BASE_PVAR_CLASS_TIMER, MCA_BASE_VAR_TYPE_DOUBLE, &stat_build_time);
    return OMPI_SUCCESS;
}

MCA_BASE_FRAMEWORK_DECLARE(ompi, grpmap, "Compressed group maps (group rank -> world rank)",
                           grpmap_base_register, NULL, NULL,
                           mca_grpmap_base_static_components, 0);

/* groups are built by any thread: the build time is summed with a CAS */
static void add_build_time(double dt)
{
    double old = stat_build_time, sum;
    do {
        sum = old + dt;
    } while (!__atomic_compare_exchange(&stat_build_time, &old, &sum, 0, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED));
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double) t.tv_sec + 1e-9 * (double) t.tv_nsec;
}

static void report_verbose(void *ctx, const char *line)
{
    (void) ctx;
    opal_output_verbose(10, ompi_grpmap_base_framework.framework_output, "grpmap:%s", line);
}

/* The open components' representations: how many, each stored in out[]
 * unless out is NULL (component order, each component's own order). */
static int open_reprs(const grpmap_repr_t **out)
{
    mca_base_component_list_item_t *cli;
    int n = 0, i;
    OPAL_LIST_FOREACH (cli, &ompi_grpmap_base_framework.framework_components,
                       mca_base_component_list_item_t) {
        const mca_grpmap_base_component_t *c = (const mca_grpmap_base_component_t *) cli->cli_component;
        for (i = 0; NULL != c->reprs && NULL != c->reprs[i]; i++, n++) {
            if (NULL != out) {
                out[n] = c->reprs[i];
            }
        }
    }
    return n;
}

/* grpmap's own table of the job's processes by world rank, built as Open
 * MPI 5.0 builds the mpi://WORLD process set's group: a process this one
 * already knows, retained, or a sentinel naming it (resolved on first use
 * by ompi_group_dense_lookup, as in any dense group).  For Open MPI 5.0,
 * where a Sessions program has no MPI_COMM_WORLD. */
static ompi_group_t *build_world(void)
{
    int n = (int) ompi_process_info.num_procs, i;
    ompi_group_t *g = SUITE_GROUP_ALLOCATE(NULL, n);
    if (NULL == g) {
        return NULL;
    }
    for (i = 0; i < n; i++) {
        opal_process_name_t name = {.jobid = OMPI_PROC_MY_NAME->jobid, .vpid = (opal_vpid_t) i};
        ompi_proc_t *p = (ompi_proc_t *) ompi_proc_lookup(name);
        if (NULL == p) {
            g->grp_proc_pointers[i] = (ompi_proc_t *) ompi_proc_name_to_sentinel(name);
        } else {
            OBJ_RETAIN(p);
            g->grp_proc_pointers[i] = p;
        }
    }
    ompi_set_group_rank(g, ompi_proc_local());
    return g;
}

int ompi_grpmap_base_init(ompi_group_t *world)
{
    int rc, n, i;

    rc = mca_base_framework_open(&ompi_grpmap_base_framework, 0);
    if (OPAL_SUCCESS != rc) {
        return rc;
    }
    /* bad values stop MPI_Init (messages test/mpi/grpmap-groups.sh greps) */
    if (!(alpha >= 0.0 && alpha <= 1.0)) {
        opal_show_help("help-grpmap-base.txt", "bad-alpha", true, alpha);
        rc = OMPI_ERR_BAD_PARAM;
    } else if (min_size < 0) {
        opal_show_help("help-grpmap-base.txt", "bad-min-size", true, min_size);
        rc = OMPI_ERR_BAD_PARAM;
    } else if (!common_suite_int_in_range("grpmap_base_cache_entries", cache_entries, 1, 255,
                                          0 == OMPI_PROC_MY_NAME->vpid, "MPI_Init fails")
               || !common_suite_int_in_range("grpmap_base_cache_min_size", cache_min_size, 0,
                                             INT32_MAX, 0 == OMPI_PROC_MY_NAME->vpid,
                                             "MPI_Init fails")) {
        rc = OMPI_ERR_BAD_PARAM;
    }
    if (OMPI_SUCCESS != rc) {
        mca_base_framework_close(&ompi_grpmap_base_framework);
        return rc;
    }
    n = open_reprs(NULL);
    reprs = calloc((size_t) n + 1, sizeof(*reprs));
    if (NULL != reprs && stat_per_repr_len < (size_t) n + 2) {
        /* an init after a finalize (Open MPI 5.0: sessions) keeps the
         * array; a smaller one stays allocated: MPI_T may hold its pvars */
        unsigned long long *s = calloc((size_t) n + 2, sizeof(*stat_per_repr));
        if (NULL != s) {
            stat_per_repr = s;
            stat_per_repr_len = (size_t) n + 2;
        }
    }
    if (NULL == world) {
        world = build_world();   /* released with OBJ_RELEASE below */
    } else {
        OBJ_RETAIN(world);
    }
    if (NULL == reprs || stat_per_repr_len < (size_t) n + 2 || NULL == world) {
        free(reprs);
        reprs = NULL;
        if (NULL != world) {
            OBJ_RELEASE(world);
        }
        mca_base_framework_close(&ompi_grpmap_base_framework);
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    nreprs = open_reprs(reprs);
    reprs[nreprs++] = &grpmap_packed_perm_repr;
    for (i = 0; i <= nreprs; i++) {
        char name[64], desc[160];
        const char *rn = i < nreprs ? reprs[i]->name : "composite";
        if (i < nreprs && GRPMAP_KIND_PERM == reprs[i]->kind) {
            continue;   /* permutations count under composite */
        }
        snprintf(name, sizeof(name), "groups_%s", rn);
        snprintf(desc, sizeof(desc), "Live groups of this process held by the %s form", rn);
        register_pvar(name, desc, MCA_BASE_PVAR_CLASS_LEVEL,
                      MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG, &stat_per_repr[i]);
    }
    engine.reprs = reprs;
    engine.nreprs = nreprs;
    engine.strategy = strategy;
    engine.alpha = alpha;
    /* --mca grpmap <names> forces forms: the dense table is then only the
     * fallback for maps none of them holds */
    engine.no_dense = NULL != ompi_grpmap_base_framework.framework_selection
                      && '\0' != ompi_grpmap_base_framework.framework_selection[0]
                      && '^' != ompi_grpmap_base_framework.framework_selection[0];
    if (opal_output_get_verbosity(ompi_grpmap_base_framework.framework_output) >= 10) {
        engine.report = report_verbose;
    }
    ompi_group_grpmap_world = world;
    ready = 1;
    opal_output_verbose(10, ompi_grpmap_base_framework.framework_output,
                        "grpmap: %d forms open, strategy %s, alpha %.2f, min_size %d",
                        nreprs, GRPMAP_STRATEGY_SPACE == strategy ? "space"
                                : GRPMAP_STRATEGY_TIME == strategy ? "time" : "hybrid",
                        alpha, min_size);
    return OMPI_SUCCESS;
}

void ompi_grpmap_base_fini(void)
{
    if (!ready) {
        return;
    }
    ready = 0;
    if (NULL != ompi_group_grpmap_world) {
        /* groups still alive (not freed by the program) keep resolving
         * nothing after this: MPI_Finalize is past every communicator */
        OBJ_RELEASE(ompi_group_grpmap_world);
        ompi_group_grpmap_world = NULL;
    }
    free(reprs);
    reprs = NULL;
    nreprs = 0;
    /* stat_per_repr stays: MPI_T may still read the pvars bound to it */
    mca_base_framework_close(&ompi_grpmap_base_framework);
}

/* index of a handle's form in stat_per_repr */
static int stat_slot(const grpmap_handle_t *h)
{
    int i;
    for (i = 0; i < nreprs; i++) {
        if (reprs[i] == h->repr) {
            return i;
        }
    }
    return nreprs;   /* composite */
}

/* A group built by the group constructors that keeps its dense table still
 * counts in grpmap_base_bytes (8 bytes a member) until it is destroyed. */
static void count_dense(ompi_group_t *group)
{
    unsigned long long b = 8ull * (unsigned long long) group->grp_proc_count;
    group->grp_flags |= OMPI_GROUP_GRPMAP_COUNTED;
    __atomic_add_fetch(&stat_bytes, b, __ATOMIC_RELAXED);
    __atomic_add_fetch(&stat_dense_bytes, b, __ATOMIC_RELAXED);
}

void ompi_grpmap_base_compress(ompi_group_t *group)
{
    int n = group->grp_proc_count, i, rc;
    int32_t *wr;
    grpmap_handle_t h;
    double t0;
    opal_jobid_t job = OMPI_PROC_MY_NAME->jobid;

    if (!ready || n < 1 || !OMPI_GROUP_IS_DENSE(group) || OMPI_GROUP_IS_INTRINSIC(group)
        || NULL == group->grp_proc_pointers || (group->grp_flags & OMPI_GROUP_GRPMAP_COUNTED)) {
        return;
    }
    if (n < min_size) {
        count_dense(group);
        return;
    }
    t0 = now_s();
    wr = malloc(sizeof(int32_t) * (size_t) n);
    if (NULL == wr) {
        return;   /* stays dense: nothing lost */
    }
    for (i = 0; i < n; i++) {
        ompi_proc_t *p = group->grp_proc_pointers[i];
        opal_process_name_t name;
        if (NULL == p) {   /* a table not filled in: leave it as it is */
            free(wr);
            return;
        }
        name = ompi_proc_is_sentinel(p)
                                       ? ompi_proc_sentinel_to_name((uintptr_t) p)
                                       : p->super.proc_name;
        /* another job's process (spawn, connect/accept): keep it dense */
        if (name.jobid != job || name.vpid >= (opal_vpid_t) ompi_group_grpmap_world->grp_proc_count) {
            free(wr);
            return;
        }
        wr[i] = (int32_t) name.vpid;
    }
    rc = GRPMAP_DECLINE;
    if (prefer_lattice && GRPMAP_STRATEGY_HYBRID == strategy) {
        /* declines (lattice not open, or not a lattice) fall through */
        rc = grpmap_engine_build_named(&engine, "lattice", wr, n,
                                       ompi_group_grpmap_world->grp_proc_count, &h);
        if (GRPMAP_OK == rc && NULL == h.repr) {
            rc = GRPMAP_DECLINE;
        }
    }
    if (GRPMAP_OK != rc) {
        rc = grpmap_engine_build(&engine, wr, n, ompi_group_grpmap_world->grp_proc_count, &h);
    }
    free(wr);
    if (GRPMAP_OK != rc || NULL == h.repr) {
        opal_output_verbose(10, ompi_grpmap_base_framework.framework_output,
                            "grpmap: group of %d stays dense%s", n,
                            GRPMAP_OK != rc ? " (out of memory while building)" : "");
        add_build_time(now_s() - t0);
        count_dense(group);
        return;
    }
    /* the members are now the world group's: drop this table's references */
    ompi_group_decrement_proc_count(group);
    free(group->grp_proc_pointers);
    group->grp_proc_pointers = NULL;
    /* a cache where a lookup costs more than its probe (about a table read
     * and a half) and the group is large enough to be worth 0.2-9 KB */
    if (GRPMAP_CACHE_NONE != cache_kind && n >= cache_min_size
        && grpmap_handle_select_ns(&h) > 1.5 * GRPMAP_DENSE_SELECT_NS) {
        h.cache = grpmap_cache_new(cache_kind, cache_entries, &stat_cache_hits,
                                   &stat_cache_misses);
    }
    group->sparse_data.grp_map = h;
    group->grp_flags &= ~OMPI_GROUP_DENSE;
    group->grp_flags |= OMPI_GROUP_GRPMAP;
    __atomic_add_fetch(&stat_bytes, (unsigned long long) (h.repr->bytes(h.map)
                                                          + grpmap_cache_bytes(h.cache)),
                       __ATOMIC_RELAXED);
    __atomic_add_fetch(&stat_dense_bytes, 8ull * (unsigned long long) n, __ATOMIC_RELAXED);
    __atomic_add_fetch(&stat_groups, 1ull, __ATOMIC_RELAXED);
    __atomic_add_fetch(&stat_per_repr[stat_slot(&h)], 1ull, __ATOMIC_RELAXED);
    add_build_time(now_s() - t0);
    if (opal_output_get_verbosity(ompi_grpmap_base_framework.framework_output) >= 10) {
        char name[64];
        opal_output(ompi_grpmap_base_framework.framework_output,
                    "grpmap: group of %d members: %s, %zu bytes, cache %zu bytes (dense %zu)",
                    n, grpmap_handle_name(&h, name, sizeof(name)), h.repr->bytes(h.map),
                    grpmap_cache_bytes(h.cache), 8 * (size_t) n);
    }
}

void ompi_grpmap_base_group_release(ompi_group_t *group)
{
    grpmap_handle_t *h = &group->sparse_data.grp_map;
    int n = group->grp_proc_count;
    if (group->grp_flags & OMPI_GROUP_GRPMAP_COUNTED) {
        unsigned long long b = 8ull * (unsigned long long) n;
        group->grp_flags &= ~OMPI_GROUP_GRPMAP_COUNTED;
        __atomic_sub_fetch(&stat_bytes, b, __ATOMIC_RELAXED);
        __atomic_sub_fetch(&stat_dense_bytes, b, __ATOMIC_RELAXED);
        return;
    }
    if (!OMPI_GROUP_IS_GRPMAP(group) || NULL == h->repr) {
        return;
    }
    __atomic_sub_fetch(&stat_bytes, (unsigned long long) (h->repr->bytes(h->map)
                                                          + grpmap_cache_bytes(h->cache)),
                       __ATOMIC_RELAXED);
    __atomic_sub_fetch(&stat_dense_bytes, 8ull * (unsigned long long) n, __ATOMIC_RELAXED);
    __atomic_sub_fetch(&stat_groups, 1ull, __ATOMIC_RELAXED);
    if (NULL != reprs) {
        __atomic_sub_fetch(&stat_per_repr[stat_slot(h)], 1ull, __ATOMIC_RELAXED);
    }
    grpmap_handle_release(h);
    group->grp_flags &= ~OMPI_GROUP_GRPMAP;
}

/* World rank of member r of group g, or -1 (another job's process). */
static int32_t world_rank_of(ompi_group_t *g, int r)
{
    opal_process_name_t name;
    if (OMPI_GROUP_IS_GRPMAP(g)) {
        return grpmap_handle_select(&g->sparse_data.grp_map, r);
    }
    name = ompi_group_get_proc_name(g, r);
    return name.jobid == OMPI_PROC_MY_NAME->jobid ? (int32_t) name.vpid : -1;
}

int ompi_grpmap_base_translate(ompi_group_t *group1, int n, const int *ranks1,
                               ompi_group_t *group2, int *ranks2)
{
    const grpmap_handle_t *h2;
    int i;
    if (!OMPI_GROUP_IS_GRPMAP(group2)) {
        return OMPI_ERR_NOT_SUPPORTED;
    }
    h2 = &group2->sparse_data.grp_map;
    for (i = 0; i < n; i++) {
        int32_t w, r;
        if (MPI_PROC_NULL == ranks1[i]) {
            ranks2[i] = MPI_PROC_NULL;
            continue;
        }
        w = world_rank_of(group1, ranks1[i]);
        r = w < 0 ? GRPMAP_NOT_MEMBER : h2->repr->rank(h2->map, w);
        ranks2[i] = GRPMAP_NOT_MEMBER == r ? MPI_UNDEFINED : r;
    }
    __atomic_add_fetch(&stat_lookups, (unsigned long long) n, __ATOMIC_RELAXED);
    return OMPI_SUCCESS;
}

int ompi_grpmap_base_proc_rank(ompi_group_t *group, ompi_proc_t *proc)
{
    const grpmap_handle_t *h = &group->sparse_data.grp_map;
    int32_t r;
    if (NULL == proc || proc->super.proc_name.jobid != OMPI_PROC_MY_NAME->jobid) {
        return MPI_UNDEFINED;
    }
    __atomic_add_fetch(&stat_lookups, 1ull, __ATOMIC_RELAXED);
    r = h->repr->rank(h->map, (int32_t) proc->super.proc_name.vpid);
    return GRPMAP_NOT_MEMBER == r ? MPI_UNDEFINED : r;
}
