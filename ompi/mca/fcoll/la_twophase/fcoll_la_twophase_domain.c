/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * fcoll/la_twophase: the steps shared by collective write and read -- file
 * domains, the LAP aggregator assignment (and its cache), and the exchange
 * of piece lists with the aggregators.
 */

#include "ompi_config.h"

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "opal/util/output.h"
#include "opal/mca/hwloc/hwloc-internal.h"
#include "ompi/communicator/communicator.h"
#include "ompi/proc/proc.h"
#include "ompi/mca/pml/pml.h"
#include "ompi/request/request.h"
#include "ompi/datatype/ompi_datatype.h"
#include "fcoll_la_twophase.h"
#include "fcoll_la_twophase_lap.h"

#define LAT_TAG_META 0x4c41  /* on OMPIO's private duplicate of the communicator */

/* What every rank contributes to the first allgather. */
enum { K_START, K_END, K_BYTES, K_NAGGR, K_NODE, K_SELF, K_NFIELDS };

/* The last aggregator list of a file and what it was decided from: the
 * decision depends only on the P x A gain matrix and the settings, so a
 * process keeps its own row; the list is reused when no process's row
 * changed (one flag in the bound's allreduce tells). */
typedef struct lat_cache_t {
    struct lat_cache_t *next;
    ompio_file_t *fh;
    int nprocs, num_domains, cost, one_per_node, node_size;
    int64_t min_gain;
    int64_t *gain;       /* num_domains: my row of the gain matrix */
    int *agg;            /* num_domains */
} lat_cache_t;

static lat_cache_t *lat_cache_list = NULL;
static pthread_mutex_t lat_cache_lock = PTHREAD_MUTEX_INITIALIZER;

void mca_fcoll_la_twophase_cache_drop(ompio_file_t *fh)
{
    lat_cache_t **pp, *e;
    pthread_mutex_lock(&lat_cache_lock);
    for (pp = &lat_cache_list; NULL != *pp; ) {
        e = *pp;
        if (e->fh == fh) {
            *pp = e->next;
            free(e->gain);
            free(e->agg);
            free(e);
        } else {
            pp = &e->next;
        }
    }
    pthread_mutex_unlock(&lat_cache_lock);
}

/* The cached aggregator list of fh when the key matches, copied to agg. */
static bool lat_cache_lookup(ompio_file_t *fh, const lat_cache_t *want, int *agg)
{
    lat_cache_t *e;
    bool hit = false;
    pthread_mutex_lock(&lat_cache_lock);
    for (e = lat_cache_list; NULL != e; e = e->next) {
        if (e->fh != fh) {
            continue;
        }
        if (e->nprocs == want->nprocs && e->num_domains == want->num_domains &&
            e->cost == want->cost && e->one_per_node == want->one_per_node &&
            e->node_size == want->node_size && e->min_gain == want->min_gain &&
            0 == memcmp(e->gain, want->gain, (size_t) want->num_domains * sizeof(int64_t))) {
            memcpy(agg, e->agg, (size_t) want->num_domains * sizeof(int));
            hit = true;
        }
        break;
    }
    pthread_mutex_unlock(&lat_cache_lock);
    return hit;
}

/* Remember agg for fh (one entry per file; replaces the previous one). */
static void lat_cache_store(ompio_file_t *fh, const lat_cache_t *want, const int *agg)
{
    lat_cache_t *e = calloc(1, sizeof(*e));
    if (NULL == e) {
        return;
    }
    *e = *want;
    e->fh = fh;
    e->gain = malloc((size_t) want->num_domains * sizeof(int64_t));
    e->agg = malloc((size_t) want->num_domains * sizeof(int));
    if (NULL == e->gain || NULL == e->agg) {
        free(e->gain);
        free(e->agg);
        free(e);
        return;
    }
    memcpy(e->gain, want->gain, (size_t) want->num_domains * sizeof(int64_t));
    memcpy(e->agg, agg, (size_t) want->num_domains * sizeof(int));
    mca_fcoll_la_twophase_cache_drop(fh);
    pthread_mutex_lock(&lat_cache_lock);
    e->next = lat_cache_list;
    lat_cache_list = e;
    pthread_mutex_unlock(&lat_cache_lock);
}

/* ------------------------------------------------------------------ */

/* The standard two-phase aggregator of domain d (fcoll/two_phase's rule). */
static int lat_default_agg(int d, int num_domains, int nprocs)
{
    if (OMPI_COMM_IS_MAPBY_NODE(&ompi_mpi_comm_world.comm)) {
        return d;
    }
    return (int) (((int64_t) d * nprocs) / num_domains);
}

/* Lowest rank of fh->f_comm on my node: the node's identifier. */
static int lat_node_leader(ompio_file_t *fh)
{
    int r;
    if (mca_fcoll_la_twophase_node_size > 0) {
        return (fh->f_rank / mca_fcoll_la_twophase_node_size) *
               mca_fcoll_la_twophase_node_size;
    }
    for (r = 0; r < fh->f_size; r++) {
        ompi_proc_t *p;
        if (r == fh->f_rank) {
            return r;
        }
        p = ompi_comm_peer_lookup(fh->f_comm, r);
        if (NULL != p && OPAL_PROC_ON_LOCAL_NODE(p->super.proc_flags)) {
            return r;
        }
    }
    return fh->f_rank;
}

/* Number of aggregators: fcoll_la_twophase_num_aggregators, else
 * io_ompio_num_aggregators, else OMPIO's own choice. */
static int lat_num_aggregators(ompio_file_t *fh, size_t max_data, int *num)
{
    int n = mca_fcoll_la_twophase_num_aggregators;
    if (n <= 0) {
        n = fh->f_get_mca_parameter_value("num_aggregators",
                                          (int) strlen("num_aggregators"));
        if (OMPI_ERR_MAX == n) {
            return OMPI_ERROR;
        }
    }
    if (n <= 0) {
        int ret;
        free(fh->f_aggr_list);
        fh->f_aggr_list = NULL;
        free(fh->f_procs_in_group);
        fh->f_procs_in_group = NULL;
        ret = mca_common_ompio_set_aggregator_props(fh, -1, max_data);
        if (OMPI_SUCCESS != ret) {
            return ret;
        }
        n = fh->f_num_aggrs;
        free(fh->f_aggr_list);
        fh->f_aggr_list = NULL;
        free(fh->f_procs_in_group);
        fh->f_procs_in_group = NULL;
    }
    if (n < 1) {
        n = 1;
    }
    if (n > fh->f_size) {
        n = fh->f_size;
    }
    *num = n;
    return OMPI_SUCCESS;
}

/* Solve on rank 0.  gain is nprocs x A.  node[r] is r's node leader. */
static void lat_solve(int nprocs, int A, const int64_t *gain, const int64_t *node,
                      int *agg)
{
    int d, r, ret;
    int *def = malloc((size_t) A * sizeof(int));

    if (NULL == def) {
        for (d = 0; d < A; d++) {
            agg[d] = lat_default_agg(d, A, nprocs);
        }
        return;
    }
    for (d = 0; d < A; d++) {
        def[d] = lat_default_agg(d, A, nprocs);
        agg[d] = def[d];
    }
    if (!mca_fcoll_la_twophase_assign) {
        free(def);
        return;
    }

    if (!mca_fcoll_la_twophase_one_per_node) {
        ret = mca_fcoll_la_twophase_lap_max_pref(nprocs, A, gain, def, agg);
        if (MCA_FCOLL_LA_TWOPHASE_LAP_SUCCESS != ret) {
            LAT_VERBOSE(1, "fcoll:la_twophase: LAP solver failed (%d); "
                        "keeping the default aggregators", ret);
            for (d = 0; d < A; d++) {
                agg[d] = def[d];
            }
        }
    } else {
        /* Node-level problem: a node's gain for a domain is the best gain
         * of its processes; each node takes at most one domain. */
        int nn = 0, *node_of = malloc((size_t) nprocs * sizeof(int));
        int *leader = malloc((size_t) nprocs * sizeof(int));
        int64_t *ng = NULL;
        int *best = NULL, *ndef = NULL, *nagg = NULL;
        if (NULL == node_of || NULL == leader) {
            goto node_out;
        }
        for (r = 0; r < nprocs; r++) {
            int k;
            for (k = 0; k < nn; k++) {
                if (leader[k] == (int) node[r]) {
                    break;
                }
            }
            if (k == nn) {
                leader[nn++] = (int) node[r];
            }
            node_of[r] = k;
        }
        ng = calloc((size_t) nn * A, sizeof(int64_t));
        best = malloc((size_t) nn * A * sizeof(int));
        ndef = malloc((size_t) A * sizeof(int));
        nagg = malloc((size_t) A * sizeof(int));
        if (NULL == ng || NULL == best || NULL == ndef || NULL == nagg) {
            goto node_out;
        }
        for (r = 0; r < nn * A; r++) {
            best[r] = -1;
        }
        for (r = 0; r < nprocs; r++) {
            for (d = 0; d < A; d++) {
                int64_t g = gain[(size_t) r * A + d];
                int k = node_of[r];
                int *b = &best[(size_t) k * A + d];
                /* best process of node k for domain d: most data, then the
                 * default aggregator, then the lowest rank */
                if (*b < 0 || g > ng[(size_t) k * A + d] ||
                    (g == ng[(size_t) k * A + d] && r == def[d])) {
                    ng[(size_t) k * A + d] = g;
                    *b = r;
                }
            }
        }
        for (d = 0; d < A; d++) {
            ndef[d] = node_of[def[d]];
        }
        ret = mca_fcoll_la_twophase_lap_max_pref(nn, A, ng, ndef, nagg);
        if (MCA_FCOLL_LA_TWOPHASE_LAP_SUCCESS == ret) {
            for (d = 0; d < A; d++) {
                agg[d] = best[(size_t) nagg[d] * A + d];
            }
        } else {
            LAT_VERBOSE(1, "fcoll:la_twophase: node LAP solver failed (%d)", ret);
        }
    node_out:
        free(node_of);
        free(leader);
        free(ng);
        free(best);
        free(ndef);
        free(nagg);
    }
    free(def);
}

static int lat_cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *) a, y = *(const int64_t *) b;
    return (x > y) - (x < y);
}

/* Number of distinct node leaders (0 when out of memory). */
static int lat_count_nodes(int nprocs, const int64_t *all)
{
    int r, n = 0;
    int64_t *ids = malloc((size_t) nprocs * sizeof(int64_t));
    if (NULL == ids) {
        return 0;
    }
    for (r = 0; r < nprocs; r++) {
        ids[r] = all[(size_t) r * K_NFIELDS + K_NODE];
    }
    qsort(ids, (size_t) nprocs, sizeof(int64_t), lat_cmp_i64);
    for (r = 0; r < nprocs; r++) {
        n += (0 == r || ids[r] != ids[r - 1]);
    }
    free(ids);
    return n;
}

static int lat_cmp_off(const void *a, const void *b)
{
    const mca_fcoll_la_twophase_piece_t *x = a, *y = b;
    return (x->off > y->off) - (x->off < y->off);
}

/* Rank 0 gets the P x A gain matrix.  Each rank sends only its non-zero
 * (domain, gain) pairs (a process usually touches few domains): a gather of
 * the counts, then a gatherv; rank 0 expands them into a dense matrix for
 * the solver.  *matrix is allocated on rank 0 only. */
static int lat_gather_matrix(ompio_file_t *fh, int A, const int64_t *gain,
                             int64_t **matrix)
{
    int P = fh->f_size, nnz = 0, d, r, ret, *cnt = NULL, *disp = NULL;
    int64_t *mine = NULL, *pairs = NULL, tot = 0;

    *matrix = NULL;
    for (d = 0; d < A; d++) {
        nnz += (0 != gain[d]);
    }
    mine = malloc(2 * (size_t) (nnz > 0 ? nnz : 1) * sizeof(int64_t));
    if (NULL == mine) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    for (d = 0, r = 0; d < A; d++) {
        if (0 != gain[d]) {
            mine[2 * r] = d;
            mine[2 * r + 1] = gain[d];
            r++;
        }
    }
    nnz *= 2;
    if (0 == fh->f_rank) {
        cnt = malloc((size_t) P * sizeof(int));
        disp = malloc((size_t) P * sizeof(int));
        if (NULL == cnt || NULL == disp) {
            ret = OMPI_ERR_OUT_OF_RESOURCE;
            goto out;   /* the other ranks then fail in the gather */
        }
    }
    ret = fh->f_comm->c_coll->coll_gather(&nnz, 1, MPI_INT, cnt, 1, MPI_INT, 0, fh->f_comm,
                                          fh->f_comm->c_coll->coll_gather_module);
    if (OMPI_SUCCESS != ret) {
        goto out;
    }
    if (0 == fh->f_rank) {
        for (r = 0; r < P; r++) {
            disp[r] = (int) tot;
            tot += cnt[r];
        }
        pairs = malloc((size_t) (tot > 0 ? tot : 1) * sizeof(int64_t));
        *matrix = calloc((size_t) P * A, sizeof(int64_t));
        if (tot > INT_MAX || NULL == pairs || NULL == *matrix) {
            ret = OMPI_ERR_OUT_OF_RESOURCE;
            goto out;
        }
    }
    ret = fh->f_comm->c_coll->coll_gatherv(mine, nnz, MPI_LONG_LONG, pairs, cnt, disp,
                                           MPI_LONG_LONG, 0, fh->f_comm,
                                           fh->f_comm->c_coll->coll_gatherv_module);
    if (OMPI_SUCCESS != ret) {
        goto out;
    }
    if (0 == fh->f_rank) {
        for (r = 0; r < P; r++) {
            int k;
            for (k = 0; k < cnt[r]; k += 2) {
                int64_t dd = pairs[disp[r] + k];
                if (dd < 0 || dd >= A) {
                    ret = OMPI_ERROR;
                    goto out;
                }
                (*matrix)[(size_t) r * A + dd] = pairs[disp[r] + k + 1];
            }
        }
    }
out:
    if (OMPI_SUCCESS != ret) {
        free(*matrix);
        *matrix = NULL;
    }
    free(mine);
    free(pairs);
    free(cnt);
    free(disp);
    return ret;
}

void mca_fcoll_la_twophase_window(const mca_fcoll_la_twophase_plan_t *plan,
                                  int d, int64_t c, int64_t *ws, int64_t *we)
{
    int64_t ds = plan->gmin + (int64_t) d * plan->fd_size;
    int64_t de = ds + plan->fd_size;
    if (de > plan->gmax) {
        de = plan->gmax;
    }
    *ws = ds + c * plan->cycle;
    *we = *ws + plan->cycle;
    if (*we > de) {
        *we = de;
    }
}

int64_t mca_fcoll_la_twophase_next_cycle(const mca_fcoll_la_twophase_plan_t *plan,
                                         const mca_fcoll_la_twophase_piece_t *list,
                                         const mca_fcoll_la_twophase_cursor_t *cur,
                                         int d)
{
    int64_t o;
    if (cur->idx >= cur->end) {
        return INT64_MAX;
    }
    o = list[cur->idx].off + cur->done;
    return (o - (plan->gmin + (int64_t) d * plan->fd_size)) / plan->cycle;
}

void mca_fcoll_la_twophase_plan_free(mca_fcoll_la_twophase_plan_t *plan)
{
    free(plan->agg);
    free(plan->mem_iov);
    free(plan->mem_prefix);
    free(plan->pieces);
    free(plan->dom_first);
    free(plan->meta);
    free(plan->meta_first);
    memset(plan, 0, sizeof(*plan));
}

/* What the steps of plan_build pass on; freed at its end. */
typedef struct lat_build_t {
    mca_fcoll_la_twophase_piece_t *raw;  /* my pieces in view order */
    int nraw;
    int64_t start, end, bytes;           /* my first byte, end, byte count */
    bool sorted;                         /* raw increasing and disjoint */
    int64_t *all;                        /* P x K_NFIELDS, from every rank */
    int64_t *gain;                       /* A: my gain for each domain */
} lat_build_t;

/* Plan step 1: my data as memory segments and file pieces. */
static int lat_plan_layout(ompio_file_t *fh, const void *buf, int count,
                           struct ompi_datatype_t *dt, mca_fcoll_la_twophase_plan_t *plan,
                           lat_build_t *b)
{
    struct iovec *fiov = NULL;
    int fcount = 0, cap, i, ret;
    uint32_t mcnt = 0;

    /* memory side */
    ret = mca_common_ompio_decode_datatype(fh, dt, count, buf, &plan->max_data,
                                           fh->f_mem_convertor, &plan->mem_iov, &mcnt);
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    plan->mem_cnt = (int) mcnt;
    if (mcnt <= 1) {
        plan->mem_base = (mcnt == 1) ? (char *) plan->mem_iov[0].iov_base : (char *) buf;
    } else {
        plan->mem_prefix = malloc(((size_t) mcnt + 1) * sizeof(int64_t));
        if (NULL == plan->mem_prefix) {
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
        plan->mem_prefix[0] = 0;
        for (i = 0; i < (int) mcnt; i++) {
            plan->mem_prefix[i + 1] = plan->mem_prefix[i] + (int64_t) plan->mem_iov[i].iov_len;
        }
    }

    /* file side: the next max_data bytes of the view (advances the file
     * position as every fcoll component does) */
    ret = fh->f_generate_current_file_view(fh, plan->max_data, &fiov, &fcount);
    if (OMPI_SUCCESS != ret) {
        goto out;
    }
    cap = fcount > 0 ? fcount : 1;
    b->raw = malloc((size_t) cap * sizeof(*b->raw));
    b->sorted = true;
    if (NULL == b->raw) {
        ret = OMPI_ERR_OUT_OF_RESOURCE;
        goto out;
    }
    {
        mca_fcoll_la_twophase_piece_t *raw = b->raw;
        int64_t pos = 0;
        for (i = 0; i < fcount; i++) {
            int64_t off = (int64_t) (intptr_t) fiov[i].iov_base;
            int64_t len = (int64_t) fiov[i].iov_len;
            if (len <= 0) {
                continue;
            }
            /* merge with the previous piece when contiguous in the file */
            if (b->nraw > 0 && raw[b->nraw - 1].off + raw[b->nraw - 1].len == off) {
                raw[b->nraw - 1].len += len;
            } else {
                /* a view may go back or overlap (reads): then the slow path */
                if (b->nraw > 0 && off < raw[b->nraw - 1].off + raw[b->nraw - 1].len) {
                    b->sorted = false;
                }
                raw[b->nraw].off = off;
                raw[b->nraw].len = len;
                raw[b->nraw].pos = pos;
                b->nraw++;
            }
            pos += len;
            if (0 == b->bytes || off < b->start) {
                b->start = (0 == b->bytes || off < b->start) ? off : b->start;
            }
            if (off + len > b->end) {
                b->end = off + len;
            }
            b->bytes += len;
        }
    }
out:
    free(fiov);
    return ret;
}

/* Plan step 2: allgather of extents and proposals; [gmin, gmax) if *any. */
static int lat_plan_extents(ompio_file_t *fh, mca_fcoll_la_twophase_plan_t *plan,
                            lat_build_t *b, bool *any)
{
    int64_t mine[K_NFIELDS];
    int A = 0, P = fh->f_size, r, ret;

    ret = lat_num_aggregators(fh, plan->max_data, &A);
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    mine[K_START] = b->bytes ? b->start : 0;
    mine[K_END] = b->bytes ? b->end : 0;
    mine[K_BYTES] = b->bytes;
    mine[K_NAGGR] = A;
    mine[K_NODE] = mca_fcoll_la_twophase_one_per_node ? lat_node_leader(fh) : 0;
    mine[K_SELF] = plan->self_io;   /* only a write has decided it by now */
    b->all = malloc((size_t) P * K_NFIELDS * sizeof(int64_t));
    if (NULL == b->all) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    ret = fh->f_comm->c_coll->coll_allgather(mine, K_NFIELDS, MPI_LONG_LONG,
                                             b->all, K_NFIELDS, MPI_LONG_LONG,
                                             fh->f_comm,
                                             fh->f_comm->c_coll->coll_allgather_module);
    if (OMPI_SUCCESS != ret) {
        return ret;
    }
    *any = false;
    for (r = 0; r < P; r++) {
        const int64_t *a = &b->all[(size_t) r * K_NFIELDS];
        if (a[K_SELF]) {
            plan->no_sieve = true;
        }
        if (0 == a[K_BYTES]) {
            continue;
        }
        if (!*any || a[K_START] < plan->gmin) {
            plan->gmin = a[K_START];
        }
        if (!*any || a[K_END] > plan->gmax) {
            plan->gmax = a[K_END];
        }
        *any = true;
    }
    return OMPI_SUCCESS;
}

/* Reads of mid-sized pieces (read_probe_min .. read_self_min): whether
 * reading them oneself beats the exchange depends on the network against
 * the file system (2x faster at 1 Gbit/s, 1.2-1.9x slower over shared
 * memory for 512-byte pieces), which no threshold knows.  So each process
 * measures both: its first such read goes through the aggregators, its
 * second it serves itself, then it keeps the faster rate (its bytes over
 * the whole call, others' waits included), trying the other again once in
 * PROBE_PERIOD reads.  A local choice: reads never conflict, and the
 * aggregators learn it from the piece counts.  (Process-wide, not per
 * file: unsynchronised under MPI_THREAD_MULTIPLE, where a race only
 * misleads the choice, never the data.) */
static bool lat_probe_choice(void)
{
    mca_fcoll_la_twophase_stats_t *st = &mca_fcoll_la_twophase_stats;
    const double *rate = st->probe_rate;
    bool better_self;
    st->probe_reads++;
    if (0.0 == rate[0]) {
        return false;
    }
    if (0.0 == rate[1]) {
        return true;
    }
    better_self = rate[1] > rate[0];
    if (0 == st->probe_reads % MCA_FCOLL_LA_TWOPHASE_PROBE_PERIOD) {
        return !better_self;
    }
    return better_self;
}

/* First index i of v[0, n) (increasing, disjoint) with v[i] ending after x. */
static int lat_first_ending_after(const mca_fcoll_la_twophase_piece_t *v, int n, int64_t x)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (v[mid].off + v[mid].len > x) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return lo;
}

/* Plan step 3 for an increasing, disjoint view (every monotone filetype):
 * the pieces are already in domain order, so only the few that straddle a
 * domain end (at most A - 1 ends) are split, in place from the back, and
 * each domain's first piece and my gain there follow from A binary
 * searches and the stream positions -- no pass over the runs, which cost
 * as much as the I/O on fine-grained interleaved access. */
static int lat_plan_domains_sorted(mca_fcoll_la_twophase_plan_t *plan, lat_build_t *b)
{
    mca_fcoll_la_twophase_piece_t *v = b->raw;
    int A = plan->num_domains, n = b->nraw, extra = 0, d, i;
    int64_t fd = plan->fd_size, g0 = plan->gmin;

    for (d = 1; d < A; d++) {
        int64_t x = g0 + (int64_t) d * fd;
        i = lat_first_ending_after(v, n, x);
        extra += (i < n && v[i].off < x);
    }
    if (extra > 0) {
        int dst = n + extra, src = n;
        v = realloc(b->raw, (size_t) (n + extra) * sizeof(*v));
        if (NULL == v) {
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
        b->raw = v;
        for (d = A - 1; d >= 1; ) {
            int64_t x = g0 + (int64_t) d * fd, at;
            mca_fcoll_la_twophase_piece_t p;
            int lo, k;
            i = lat_first_ending_after(v, src, x);
            if (i >= src || v[i].off >= x) {
                d--;
                continue;
            }
            /* piece i holds the ends lo .. d: move what follows it, then
             * write its d - lo + 2 parts */
            p = v[i];
            lo = (int) ((p.off - g0) / fd) + 1;
            dst -= src - (i + 1);
            memmove(&v[dst], &v[i + 1], (size_t) (src - (i + 1)) * sizeof(*v));
            dst -= d - lo + 2;
            for (k = 0, at = p.off; k < d - lo + 2; k++) {
                int64_t e = (k < d - lo + 1) ? g0 + (int64_t) (lo + k) * fd : p.off + p.len;
                v[dst + k].off = at;
                v[dst + k].len = e - at;
                v[dst + k].pos = p.pos + (at - p.off);
                at = e;
            }
            src = i;
            d = lo - 1;
        }
        n += extra;
    }
    plan->dom_first[0] = 0;
    for (d = 1; d < A; d++) {
        plan->dom_first[d] = lat_first_ending_after(v, n, g0 + (int64_t) d * fd);
    }
    plan->dom_first[A] = n;
    for (d = 0; d < A; d++) {
        int a = plan->dom_first[d], e = plan->dom_first[d + 1];
        if (e == a) {
            continue;
        }
        /* stream positions run on through an increasing view */
        b->gain[d] = (MCA_FCOLL_LA_TWOPHASE_COST_BLOCKS == mca_fcoll_la_twophase_cost)
                     ? e - a : v[e - 1].pos + v[e - 1].len - v[a].pos;
    }
    plan->pieces = v;
    plan->npieces = n;
    b->raw = NULL;
    return OMPI_SUCCESS;
}

/* Plan step 3: A file domains; my pieces split and sorted by them; my gains. */
static int lat_plan_domains(ompio_file_t *fh, mca_fcoll_la_twophase_plan_t *plan,
                            lat_build_t *b)
{
    mca_fcoll_la_twophase_piece_t *split = NULL;
    int *split_dom = NULL;
    int nsplit = 0, cap, i, d, A, P = fh->f_size, ret = OMPI_SUCCESS;
    int64_t span;

    A = (int) b->all[K_NAGGR];      /* rank 0's choice, the same everywhere */
    if (A < 1) {
        A = 1;
    }
    if (A > P) {
        A = P;
    }
    if (mca_fcoll_la_twophase_one_per_node) {
        int nn = lat_count_nodes(P, b->all);
        if (0 == nn) {
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
        if (A > nn) {
            A = nn;
        }
    }
    span = plan->gmax - plan->gmin;
    if (A > span) {
        A = (int) span;     /* at least one byte per domain */
    }
    plan->num_domains = A;
    plan->fd_size = (span + A - 1) / A;
    plan->ncycles = (plan->fd_size + plan->cycle - 1) / plan->cycle;
    plan->agg = malloc((size_t) A * sizeof(int));
    plan->dom_first = calloc((size_t) A + 1, sizeof(int));
    if (NULL == plan->agg || NULL == plan->dom_first) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }

    b->gain = calloc((size_t) A, sizeof(int64_t));
    if (NULL == b->gain) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    if (b->sorted) {
        return lat_plan_domains_sorted(plan, b);
    }

    /* split my pieces at domain ends */
    cap = b->nraw + A + 1;
    split = malloc((size_t) cap * sizeof(*split));
    split_dom = malloc((size_t) cap * sizeof(int));
    if (NULL == split || NULL == split_dom) {
        ret = OMPI_ERR_OUT_OF_RESOURCE;
        goto out;
    }
    for (i = 0; i < b->nraw; i++) {
        int64_t off = b->raw[i].off, len = b->raw[i].len, pos = b->raw[i].pos;
        int counted = -1;
        while (len > 0) {
            int64_t ds, wend, take;
            d = (int) ((off - plan->gmin) / plan->fd_size);
            if (d >= A) {
                d = A - 1;
            }
            /* cut at domain ends and at window ends too: in an overlapping
             * view a later piece can start before an earlier one ends, and
             * the window walk (lat_take) needs every piece inside one
             * window, so that sorted by offset they are grouped by window */
            ds = plan->gmin + (int64_t) d * plan->fd_size;
            wend = ds + ((off - ds) / plan->cycle + 1) * plan->cycle;
            if (d < A - 1 && wend > ds + plan->fd_size) {
                wend = ds + plan->fd_size;
            }
            take = wend - off < len ? wend - off : len;
            if (nsplit == cap) {
                void *p1, *p2;
                cap *= 2;
                p1 = realloc(split, (size_t) cap * sizeof(*split));
                if (NULL != p1) {
                    split = p1;
                }
                p2 = realloc(split_dom, (size_t) cap * sizeof(int));
                if (NULL != p2) {
                    split_dom = p2;
                }
                if (NULL == p1 || NULL == p2) {
                    ret = OMPI_ERR_OUT_OF_RESOURCE;
                    goto out;
                }
            }
            split[nsplit].off = off;
            split[nsplit].len = take;
            split[nsplit].pos = pos;
            split_dom[nsplit] = d;
            nsplit++;
            if (MCA_FCOLL_LA_TWOPHASE_COST_BLOCKS == mca_fcoll_la_twophase_cost) {
                b->gain[d] += (counted != d);   /* a piece per domain, however cut */
                counted = d;
            } else {
                b->gain[d] += take;
            }
            off += take;
            pos += take;
            len -= take;
        }
    }
    /* counting sort by domain (stable), then by offset inside a domain */
    plan->pieces = malloc((size_t) (nsplit > 0 ? nsplit : 1) * sizeof(*plan->pieces));
    if (NULL == plan->pieces) {
        ret = OMPI_ERR_OUT_OF_RESOURCE;
        goto out;
    }
    for (i = 0; i < nsplit; i++) {
        plan->dom_first[split_dom[i] + 1]++;
    }
    for (d = 0; d < A; d++) {
        plan->dom_first[d + 1] += plan->dom_first[d];
    }
    {
        int *fill = malloc((size_t) A * sizeof(int));
        if (NULL == fill) {
            ret = OMPI_ERR_OUT_OF_RESOURCE;
            goto out;
        }
        memcpy(fill, plan->dom_first, (size_t) A * sizeof(int));
        for (i = 0; i < nsplit; i++) {
            plan->pieces[fill[split_dom[i]]++] = split[i];
        }
        free(fill);
    }
    plan->npieces = nsplit;
    for (d = 0; d < A; d++) {
        int a = plan->dom_first[d], e = plan->dom_first[d + 1];
        for (i = a + 1; i < e; i++) {
            if (plan->pieces[i].off < plan->pieces[i - 1].off) {
                qsort(plan->pieces + a, (size_t) (e - a), sizeof(*plan->pieces), lat_cmp_off);
                break;
            }
        }
    }
out:
    free(split);
    free(split_dom);
    return ret;
}

/* The smallest gain bound worth a solve, in cost units. */
static int64_t lat_min_gain(void)
{
    if (mca_fcoll_la_twophase_min_gain >= 0) {
        return mca_fcoll_la_twophase_min_gain;
    }
    return (MCA_FCOLL_LA_TWOPHASE_COST_BLOCKS == mca_fcoll_la_twophase_cost)
           ? MCA_FCOLL_LA_TWOPHASE_MIN_GAIN_BLOCKS : MCA_FCOLL_LA_TWOPHASE_MIN_GAIN_BYTES;
}

/* Plan step 4: each domain's aggregator.
 *
 * One allreduce(MAX) gives every process, for each domain d, the most any
 * process holds there (M_d) and what the default aggregator holds (D_d),
 * plus whether any process's gains changed since the cached decision.  No
 * assignment keeps more than sum M_d in place, so UB = sum (M_d - D_d)
 * bounds what the LAP can save over two_phase's default list.  When UB is
 * at most fcoll_la_twophase_min_gain the default is taken and nothing is
 * solved: that is every layout where each domain holds every process's
 * data in equal shares (interleaved access), or each process's data lie in
 * its own domain.  Otherwise rank 0 gathers the matrix, solves the LAP and
 * broadcasts the list.  All processes hold the same reduced integers, so
 * all take the same branch. */
static int lat_plan_assign(ompio_file_t *fh, mca_fcoll_la_twophase_plan_t *plan,
                           const lat_build_t *b)
{
    mca_fcoll_la_twophase_stats_t *st = &mca_fcoll_la_twophase_stats;
    const int64_t *all = b->all;
    int64_t *matrix = NULL, *red = NULL, ub = 0, best = 0;
    int d, r, A = plan->num_domains, P = fh->f_size, ret = OMPI_SUCCESS;
    double t0;
    lat_cache_t want;
    bool miss, bounded;

    for (d = 0; d < A; d++) {
        plan->agg[d] = lat_default_agg(d, A, P);
    }
    if (!mca_fcoll_la_twophase_assign) {
        goto done;      /* two_phase's list, decided with no communication */
    }
    t0 = mca_fcoll_la_twophase_now();
    memset(&want, 0, sizeof(want));
    want.nprocs = P;
    want.num_domains = A;
    want.cost = mca_fcoll_la_twophase_cost;
    want.one_per_node = mca_fcoll_la_twophase_one_per_node;
    want.node_size = mca_fcoll_la_twophase_node_size;
    want.min_gain = lat_min_gain();
    want.gain = b->gain;
    red = malloc((2 * (size_t) A + 1) * sizeof(int64_t));
    if (NULL == red) {
        /* 16 bytes per domain: the other processes then wait in the
         * allreduce, as after any out-of-memory inside a collective */
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    {
        int *cached = malloc((size_t) A * sizeof(int));
        miss = true;
        if (NULL != cached && mca_fcoll_la_twophase_cache &&
            lat_cache_lookup(fh, &want, cached)) {
            miss = false;
        }
        for (d = 0; d < A; d++) {
            red[d] = b->gain[d];
            red[A + d] = (plan->agg[d] == plan->rank) ? b->gain[d] : 0;
        }
        red[2 * A] = miss;
        ret = fh->f_comm->c_coll->coll_allreduce(MPI_IN_PLACE, red, 2 * A + 1, MPI_INT64_T,
                                                 MPI_MAX, fh->f_comm,
                                                 fh->f_comm->c_coll->coll_allreduce_module);
        if (OMPI_SUCCESS == ret && 0 == red[2 * A]) {
            memcpy(plan->agg, cached, (size_t) A * sizeof(int));
        }
        free(cached);
    }
    if (OMPI_SUCCESS != ret) {
        goto out;
    }
    if (0 == red[2 * A]) {
        st->cache_hits++;
        st->assign_time_last = 0.0;
        goto done;
    }
    for (d = 0; d < A; d++) {
        ub += red[d] - red[A + d];
        best += red[d];
    }
    st->gain_bound_last = (unsigned long long) ub;
    /* a node-level solution need not be the default list even at UB 0 */
    bounded = !mca_fcoll_la_twophase_one_per_node && ub <= want.min_gain;
    if (bounded) {
        st->default_by_bound++;
        if (0 == plan->rank) {
            LAT_VERBOSE(10, "fcoll:la_twophase: %d processes, %d domains of %lld bytes; "
                        "default aggregators: at most %lld of %lld %s more could stay "
                        "in place (fcoll_la_twophase_min_gain %lld)",
                        P, A, (long long) plan->fd_size, (long long) ub, (long long) best,
                        MCA_FCOLL_LA_TWOPHASE_COST_BLOCKS == mca_fcoll_la_twophase_cost
                        ? "blocks" : "bytes", (long long) want.min_gain);
        }
    } else {
        ret = lat_gather_matrix(fh, A, b->gain, &matrix);
        if (OMPI_SUCCESS != ret) {
            goto out;
        }
        if (0 == plan->rank) {
            int64_t *nodes = malloc((size_t) P * sizeof(int64_t));
            double ts = mca_fcoll_la_twophase_now();
            if (NULL != nodes) {
                for (r = 0; r < P; r++) {
                    nodes[r] = all[(size_t) r * K_NFIELDS + K_NODE];
                }
            }
            if (NULL != nodes || !mca_fcoll_la_twophase_one_per_node) {
                lat_solve(P, A, matrix, nodes, plan->agg);
            }
            free(nodes);
            if (opal_output_get_verbosity(ompi_fcoll_base_framework.framework_output) >= 10) {
                int64_t kept = 0, kept_def = 0, total = 0;
                for (d = 0; d < A; d++) {
                    for (r = 0; r < P; r++) {
                        total += matrix[(size_t) r * A + d];
                    }
                    kept += matrix[(size_t) plan->agg[d] * A + d];
                    kept_def += matrix[(size_t) lat_default_agg(d, A, P) * A + d];
                }
                LAT_VERBOSE(10, "fcoll:la_twophase: %d processes, %d domains of %lld "
                            "bytes; %s kept in place %lld of %lld (default "
                            "aggregators: %lld); solve %.3f ms",
                            P, A, (long long) plan->fd_size,
                            MCA_FCOLL_LA_TWOPHASE_COST_BLOCKS == mca_fcoll_la_twophase_cost
                            ? "blocks" : "bytes",
                            (long long) kept, (long long) total, (long long) kept_def,
                            1e3 * (mca_fcoll_la_twophase_now() - ts));
            }
        }
        ret = fh->f_comm->c_coll->coll_bcast(plan->agg, A, MPI_INT, 0, fh->f_comm,
                                             fh->f_comm->c_coll->coll_bcast_module);
        if (OMPI_SUCCESS != ret) {
            goto out;
        }
    }
    st->assignments++;
    st->assign_time_last = mca_fcoll_la_twophase_now() - t0;
    st->assign_time += st->assign_time_last;
    if (mca_fcoll_la_twophase_cache) {
        lat_cache_store(fh, &want, plan->agg);
    }
done:
    for (d = 0; d < A; d++) {
        if (plan->agg[d] < 0 || plan->agg[d] >= P) {
            ret = OMPI_ERROR;
            goto out;
        }
        if (plan->agg[d] == plan->rank) {
            plan->my_domain = d;
        }
    }
    if (opal_output_get_verbosity(ompi_fcoll_base_framework.framework_output) >= 20 &&
        0 == plan->rank) {
        for (d = 0; d < A; d++) {
            LAT_VERBOSE(20, "fcoll:la_twophase: domain %d [%lld, +%lld) -> rank %d",
                        d, (long long) (plan->gmin + (int64_t) d * plan->fd_size),
                        (long long) plan->fd_size, plan->agg[d]);
        }
    }
out:
    free(matrix);
    free(red);
    return ret;
}

/* Plan step 5: each aggregator gets every rank's pieces in its domain. */
static int lat_plan_meta(ompio_file_t *fh, mca_fcoll_la_twophase_plan_t *plan)
{
    int64_t *pairs = NULL;
    int *sendcnt = NULL, *recvcnt = NULL;
    ompi_request_t **reqs = NULL;
    int nsplit = plan->npieces, i, d, r, A = plan->num_domains, P = fh->f_size;
    int ret = OMPI_SUCCESS, nreq = 0;

    sendcnt = calloc((size_t) P, sizeof(int));
    recvcnt = calloc((size_t) P, sizeof(int));
    reqs = malloc(((size_t) P + (size_t) A) * sizeof(*reqs));
    pairs = malloc(2 * (size_t) (nsplit > 0 ? nsplit : 1) * sizeof(int64_t));
    if (NULL == sendcnt || NULL == recvcnt || NULL == reqs || NULL == pairs) {
        ret = OMPI_ERR_OUT_OF_RESOURCE;
        goto out;
    }
    for (d = 0; d < A && !plan->self_io; d++) {
        if (plan->agg[d] != plan->rank) {
            sendcnt[plan->agg[d]] = plan->dom_first[d + 1] - plan->dom_first[d];
        }
    }
    ret = fh->f_comm->c_coll->coll_alltoall(sendcnt, 1, MPI_INT, recvcnt, 1, MPI_INT,
                                            fh->f_comm,
                                            fh->f_comm->c_coll->coll_alltoall_module);
    if (OMPI_SUCCESS != ret) {
        goto out;
    }
    if (plan->my_domain >= 0) {
        int64_t tot = 0;
        plan->meta_first = malloc(((size_t) P + 1) * sizeof(int));
        if (NULL == plan->meta_first) {
            ret = OMPI_ERR_OUT_OF_RESOURCE;
            goto out;
        }
        plan->meta_first[0] = 0;
        for (r = 0; r < P; r++) {
            tot += recvcnt[r];
            if (tot > INT_MAX / 2) {
                ret = OMPI_ERR_OUT_OF_RESOURCE;
                goto out;
            }
            plan->meta_first[r + 1] = (int) tot;
        }
        /* received as (off, len) pairs into the front half of meta, spread out below */
        plan->meta = malloc((size_t) (tot > 0 ? tot : 1) * sizeof(*plan->meta));
        if (NULL == plan->meta) {
            ret = OMPI_ERR_OUT_OF_RESOURCE;
            goto out;
        }
        for (r = 0; r < P; r++) {
            if (recvcnt[r] > 0) {
                /* piece_t is three int64_t: receive pairs into its storage at
                 * an offset that the expansion below never overruns */
                int64_t *dst = (int64_t *) (plan->meta + plan->meta_first[r]);
                ret = MCA_PML_CALL(irecv(dst + recvcnt[r], 2 * recvcnt[r], MPI_LONG_LONG,
                                         r, LAT_TAG_META, fh->f_comm, &reqs[nreq]));
                if (OMPI_SUCCESS != ret) {
                    goto out;
                }
                nreq++;
            }
        }
    }
    for (d = 0; d < A && !plan->self_io; d++) {
        if (plan->agg[d] == plan->rank) {
            continue;   /* my own domain's pieces are not sent */
        }
        for (i = plan->dom_first[d]; i < plan->dom_first[d + 1]; i++) {
            pairs[2 * i] = plan->pieces[i].off;
            pairs[2 * i + 1] = plan->pieces[i].len;
        }
    }
    for (d = 0; d < A && !plan->self_io; d++) {
        int n = plan->dom_first[d + 1] - plan->dom_first[d];
        if (plan->agg[d] == plan->rank || 0 == n) {
            continue;
        }
        ret = MCA_PML_CALL(isend(pairs + 2 * plan->dom_first[d], 2 * n, MPI_LONG_LONG,
                                 plan->agg[d], LAT_TAG_META,
                                 MCA_PML_BASE_SEND_STANDARD, fh->f_comm, &reqs[nreq]));
        if (OMPI_SUCCESS != ret) {
            goto out;
        }
        nreq++;
    }
    ret = ompi_request_wait_all(nreq, reqs, MPI_STATUSES_IGNORE);
    nreq = 0;
    if (OMPI_SUCCESS != ret) {
        goto out;
    }
    if (plan->my_domain >= 0) {
        /* expand (off, len) pairs to pieces, front to back: piece k of a
         * sender occupies int64 slots [3k, 3k+3) and its pair was at
         * [3n' + 2k, ...) with n' = count, which is never behind 3k */
        for (r = 0; r < P; r++) {
            int n = recvcnt[r], k;
            int64_t *base = (int64_t *) (plan->meta + plan->meta_first[r]);
            int64_t *src = base + n;
            for (k = 0; k < n; k++) {
                int64_t off = src[2 * k], len = src[2 * k + 1];
                plan->meta[plan->meta_first[r] + k].off = off;
                plan->meta[plan->meta_first[r] + k].len = len;
                plan->meta[plan->meta_first[r] + k].pos = 0;
            }
        }
    }
out:
    if (nreq > 0) {
        (void) ompi_request_wait_all(nreq, reqs, MPI_STATUSES_IGNORE);
    }
    free(pairs);
    free(sendcnt);
    free(recvcnt);
    free(reqs);
    return ret;
}

int mca_fcoll_la_twophase_plan_build(ompio_file_t *fh, const void *buf,
                                     int count, struct ompi_datatype_t *dt,
                                     bool write, mca_fcoll_la_twophase_plan_t *plan)
{
    lat_build_t b;
    bool any = false;
    int ret;

    memset(plan, 0, sizeof(*plan));
    memset(&b, 0, sizeof(b));
    plan->fh = fh;
    plan->rank = fh->f_rank;
    plan->nprocs = fh->f_size;
    plan->my_domain = -1;
    /* in range: check_params (fcoll_la_twophase_module.c) fixed it when
     * the file was opened */
    plan->cycle = mca_fcoll_la_twophase_cycle_buffer_size;

    ret = lat_plan_layout(fh, buf, count, dt, plan, &b);
    /* A write of pieces that average write_self_min bytes or more: I write
     * them myself, as a read of such pieces does, where shipping them to
     * an aggregator only adds the network.  Only on a local or NFS file
     * system (fs/ufs): on a parallel one, processes writing pieces of the
     * same stripe fight over its lock, which collective buffering exists
     * to avoid.  Not in atomic mode, whose guarantee concerns each whole
     * call.  Every process learns in the extents' allgather whether
     * anyone does it: then no one may sieve (read a span, fill in its
     * ranges, write it back), which would write stale bytes over pieces
     * another process writes itself in a gap. */
    if (OMPI_SUCCESS == ret && write && b.nraw > 0 && UFS == fh->f_fstype &&
        !fh->f_atomicity && mca_fcoll_la_twophase_write_self_min > 0 &&
        b.bytes / b.nraw >= mca_fcoll_la_twophase_write_self_min) {
        plan->self_io = true;
    }
    if (OMPI_SUCCESS == ret) {
        ret = lat_plan_extents(fh, plan, &b, &any);
    }
    /* no rank accesses any byte: nothing more to plan, num_domains == 0 */
    if (OMPI_SUCCESS == ret && any) {
        ret = lat_plan_domains(fh, plan, &b);
        /* A read of pieces that average read_self_min bytes or more: I read
         * them myself, where the file system serves them well, instead of
         * having them shipped; a local choice (reads never conflict), which
         * the aggregators learn from my piece counts (0), as for a write
         * decided above. */
        if (OMPI_SUCCESS == ret && !write && plan->npieces > 0) {
            int64_t avg = b.bytes / plan->npieces;
            if (mca_fcoll_la_twophase_read_self_min > 0 &&
                avg >= mca_fcoll_la_twophase_read_self_min) {
                plan->self_io = true;
            } else if (mca_fcoll_la_twophase_read_probe_min > 0 &&
                       avg >= mca_fcoll_la_twophase_read_probe_min) {
                plan->probed = true;
                plan->self_io = lat_probe_choice();
            }
        }
        if (OMPI_SUCCESS == ret && plan->self_io) {
            /* my data stay where they are, so they gain nothing anywhere */
            memset(b.gain, 0, (size_t) plan->num_domains * sizeof(int64_t));
        }
        if (OMPI_SUCCESS == ret) {
            ret = lat_plan_assign(fh, plan, &b);
        }
        if (OMPI_SUCCESS == ret) {
            ret = lat_plan_meta(fh, plan);
        }
    }
    free(b.raw);
    free(b.all);
    free(b.gain);
    if (OMPI_SUCCESS != ret) {
        LAT_VERBOSE(1, "fcoll:la_twophase: rank %d: planning failed (%d)", fh->f_rank, ret);
        mca_fcoll_la_twophase_plan_free(plan);
    }
    return ret;
}
