/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * grpmap benchmark (bench/grpmap_bench.sh builds and runs it): the
 * thesis's experiment maps (test/unit/grpmap_patterns.h: Table 6.1 on a
 * world of 200,000, classes A-E on a world of 10^6), one row per map in
 * each table: the bytes of every representation that holds the map (set
 * forms for increasing maps, set + permutation composites for the others),
 * the picks of the three strategies, the information bound, what Open MPI
 * 4.1.4's own sparse group formats and its dense table would take, SELECT
 * times of the hybrid and time picks against Open MPI's dense pointer
 * table, and the hybrid's build time against filling that table; then the
 * issue's five bars.  Plain C99 linked with the representation cores, no
 * Open MPI library.
 *
 * Open MPI's formats (ompi/group/group.h, group_strided.c,
 * group_sporadic.c, group_bitmap.c, group_plist.c of 4.1.4), as the bytes
 * each adds to the ompi_group_t (which all of them, and grpmap, carry
 * alike): the choice in ompi_group_incl is the least of
 *   plist     sizeof(char *) * n: the dense table of proc pointers;
 *   strided   3 ints (offset, stride, last element), held when
 *             check_stride finds one non-negative stride between all
 *             consecutive ranks (any map of 1 member), else not applicable;
 *   sporadic  one {rank_first, length} pair of ints (8 bytes) per maximal
 *             run of consecutive ranks (ranks[i] == ranks[i - 1] + 1) in
 *             group order (the calc function reads ranks[-1]; the count
 *             here is what incl_spor allocates);
 *   bitmap    one bit per rank of the parent group (here the world),
 *             ceil(world / 8) bytes, for non-decreasing maps only
 *             (check_ranks), else not applicable.
 *
 * The dense table as Open MPI reads it (ompi_group_dense_lookup and
 * ompi_group_get_proc_name): group->grp_proc_pointers[i], a test of the
 * pointer's low bit (a sentinel), then proc->super.proc_name read from the
 * proc.  The procs here are 96-byte objects (sizeof(ompi_proc_t) of this
 * build: opal_proc_t 72 bytes, one endpoint, 16 bytes of padding), one per
 * world rank.  "SELECT" of a grpmap pick is the group rank -> world rank
 * call alone; "lookup" adds what the overlay's ompi_group_get_proc_ptr
 * does next (the same dense read in the world group's table), so that the
 * two sides end at the same proc.  The bars on SELECT time are judged as
 * the issue words them, the pick's SELECT against the dense read; the
 * lookup ratios (stricter: the pick's side pays the world table's misses
 * after its SELECT's dependent work) are printed next to them.  Times are
 * of loops of independent calls on a precomputed index sequence (as the
 * thesis and the engine's time strategy measure), so the dense table's
 * cache misses overlap from call to call.
 *
 * Dense fill (what ompi_group_incl_plist does, then
 * ompi_group_increment_proc_count's OBJ_RETAIN): malloc n pointers, and per
 * member store the world's proc pointer and add 1 to the proc's reference
 * count atomically (opal_obj_update: a locked add on x86).
 *
 * Usage: grpmap_bench [-r reps] [-p pattern,...] (reps of every timing,
 * default 5; patterns by name: 1 .. 14, A1 .. E2).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test/common/check.h"
#include "ompi/mca/grpmap/grpmap_repr.h"
#include "test/unit/grpmap_check.h"
#include "test/unit/grpmap_patterns.h"

/* An ompi_proc_t of this build, field for field (no Open MPI header). */
typedef struct proc {
    void *obj_class;
    int32_t obj_reference_count, pad0;
    void *list_next, *list_prev;
    int32_t item_free, pad1;
    uint32_t jobid, vpid;   /* proc_name */
    uint32_t proc_arch;
    uint16_t proc_flags, pad2;
    void *proc_convertor;
    char *proc_hostname;
    void *proc_endpoints[1];
    char padding[16];
} proc_t;
typedef char proc_is_96_bytes[sizeof(proc_t) == 96 ? 1 : -1];

#define NSEL (1 << 18)   /* SELECTs a timing */

static const char *list_forms[] = {"lattice", "array", "blocks", "bwt"};
static const char *set_forms[] = {"bitmap", "gap", "ef", "bdd"};
static const char *perm_forms[] = {"packed", "wtr"};

typedef struct row {
    gp_pattern_t p;
    int increasing;
    long long named[4 + 4 + 8];   /* bytes; -1 declined, -2 not applicable */
    double named_ns[4 + 4 + 8];   /* random SELECT alone, ns */
    char pick[3][24];             /* space, time, hybrid */
    size_t pick_bytes[3];
    long long strided, sporadic, bitmap;
    /* ns: dense seq / rnd; hybrid and time picks: SELECT seq / rnd, lookup rnd */
    double dense_seq, dense_rnd, sel[2][3];
    /* random, dependent calls: dense, hybrid pick's SELECT alone and lookup */
    double lat_dense, lat_sel, lat_lookup;
    double build_hyb, build_dense;   /* us */
} row_t;

static volatile int32_t zero_mask;   /* 0, unknown to the compiler */
static proc_t *procs;
static proc_t **world_ptrs;
static volatile uint64_t sink;

/* Open MPI's dense lookup: the pointer, its sentinel bit, the proc's name. */
static inline uint64_t dense_get(proc_t *const *ptrs, int32_t i)
{
    const proc_t *p = ptrs[i];
    if ((uintptr_t) p & 1) {
        abort();   /* no sentinels here */
    }
    return p->vpid;
}

/* One timing (ns a call) of kind: 0 dense, 1 SELECT alone, 2 SELECT + the
 * world table's dense lookup; sequential group ranks (idx NULL) or idx[].
 * kind + 3: each call's group rank depends on the previous call's result
 * (plus a zero the compiler cannot see), so calls do not overlap: latency.
 * One loop a kind, so that the independent ones carry no dependence. */
#define TIME_LOOP(GET)                                                           \
    for (k = 0; k < count; k++) {                                                \
        int32_t g = NULL != idx ? idx[k] : i;                                    \
        if (dep) {                                                               \
            g += (int32_t) last & z;                                             \
        }                                                                        \
        last = (GET);                                                            \
        acc += last;                                                             \
        if (++i == n) {                                                          \
            i = 0;                                                               \
        }                                                                        \
    }

/* the three kinds' loops, dependent or not (DEP a constant) */
#define TIME_KINDS(DEP)                                                          \
    do {                                                                         \
        const int dep = (DEP);                                                   \
        switch (kind % 3) {                                                      \
        case 0:                                                                  \
            TIME_LOOP(dense_get(ptrs, g))                                        \
            break;                                                               \
        case 1:                                                                  \
            TIME_LOOP((uint64_t) h->repr->select(h->map, g))                     \
            break;                                                               \
        default:                                                                 \
            TIME_LOOP(dense_get(world_ptrs, h->repr->select(h->map, g)))         \
            break;                                                               \
        }                                                                        \
    } while (0)

static double time_once(int kind, const grpmap_handle_t *h, proc_t *const *ptrs, int32_t n,
                        const int32_t *idx, int count)
{
    uint64_t acc = 0, last = 0;
    int32_t i = 0, z = zero_mask;
    int k;
    double t0 = test_now();
    if (kind < 3) {
        TIME_KINDS(0);
    } else {
        TIME_KINDS(1);
    }
    sink += acc;
    return (test_now() - t0) * 1e9 / count;
}

/* Open MPI's dense table for ranks (timed by the caller). */
static proc_t **dense_fill(const int32_t *ranks, int32_t n)
{
    proc_t **ptrs = malloc(sizeof(proc_t *) * (size_t) (n ? n : 1));
    int32_t i;
    CHECK(NULL != ptrs, "out of memory");
    for (i = 0; i < n; i++) {
        proc_t *p = world_ptrs[ranks[i]];
        ptrs[i] = p;
        __atomic_add_fetch(&p->obj_reference_count, 1, __ATOMIC_SEQ_CST);
    }
    return ptrs;
}

static void check_sample(const grpmap_handle_t *h, const gp_pattern_t *p, const char *name)
{
    uint64_t s = 99;
    int k;
    for (k = 0; k < 256 && p->n > 0; k++) {
        int32_t i = (int32_t) test_rand_below(&s, (uint64_t) p->n);
        if (h->repr->select(h->map, i) != p->ranks[i]) {
            printf("WRONG: pattern %s, %s: select(%d) = %d, expected %d\n", p->name, name, i,
                   h->repr->select(h->map, i), p->ranks[i]);
            exit(1);
        }
    }
}

static void ompi_formats(row_t *r)
{
    const int32_t *x = r->p.ranks;
    int32_t n = r->p.n, i, stride = n > 1 ? x[1] - x[0] : 1;
    long long runs = n > 0;
    int single = stride >= 0;
    for (i = 1; i < n; i++) {
        runs += x[i] != x[i - 1] + 1;
        single &= x[i] - x[i - 1] == stride;
    }
    r->strided = single ? 12 : -2;
    r->sporadic = 8 * runs;
    r->bitmap = r->increasing ? (r->p.world + 7) / 8 : -2;
}

static void fmt_bytes(char *buf, size_t len, long long b)
{
    if (-2 == b) {
        snprintf(buf, len, ".");
    } else if (b < 0) {
        snprintf(buf, len, "-");
    } else {
        snprintf(buf, len, "%lld", b);
    }
}

static void fmt_ns(char *buf, size_t len, long long b, double ns)
{
    if (b < 0) {
        fmt_bytes(buf, len, b);
    } else {
        snprintf(buf, len, ns < 1000.0 ? "%.1f" : "%.0f", ns);
    }
}

/* Nominal SELECT ns the hybrid uses for named form j (a composite: the
 * sum of its parts'), -1 when the form is not linked in. */
static double nominal_ns(const grpmap_repr_t *const *forms, int nforms, int j)
{
    const char *set = j < 4 ? list_forms[j] : j < 8 ? set_forms[j - 4] : set_forms[(j - 8) / 2];
    const char *perm = j < 8 ? NULL : perm_forms[(j - 8) % 2];
    double ns = -1.0, pns = NULL == perm ? 0.0 : -1.0;
    int i;
    for (i = 0; i < nforms; i++) {
        if (0 == strcmp(forms[i]->name, set)) {
            ns = forms[i]->select_ns;
        }
        if (NULL != perm && 0 == strcmp(forms[i]->name, perm)) {
            pns = forms[i]->select_ns;
        }
    }
    return ns < 0.0 || pns < 0.0 ? -1.0 : ns + pns;
}

static int wanted(const char *list, const char *name)
{
    const char *c = list;
    size_t len = strlen(name);
    if (NULL == list) {
        return 1;
    }
    while (NULL != c && *c) {
        if (0 == strncmp(c, name, len) && (',' == c[len] || '\0' == c[len])) {
            return 1;
        }
        c = strchr(c, ',');
        c = NULL != c ? c + 1 : NULL;
    }
    return 0;
}

int main(int argc, char **argv)
{
    grpmap_engine_t e = {.reprs = gp_forms, .nreprs = GP_NFORMS,
                         .strategy = GRPMAP_STRATEGY_HYBRID, .alpha = 0.25};
    static const char *strategy_name[3] = {"space", "time", "hybrid"};
    const char *only = NULL;
    row_t *rows = xcalloc(GP_COUNT, sizeof(row_t));
    int32_t *idx = xmalloc(sizeof(int32_t) * NSEL);
    int reps = 5, nrows = 0, a, k, j, q;
    char b[16][24], nbuf[16];

    for (a = 1; a < argc; a++) {
        if (0 == strcmp(argv[a], "-r") && a + 1 < argc) {
            reps = atoi(argv[++a]);
        } else if (0 == strcmp(argv[a], "-p") && a + 1 < argc) {
            only = argv[++a];
        } else {
            fprintf(stderr, "usage: %s [-r reps] [-p pattern,...]\n", argv[0]);
            return 2;
        }
    }
    if (reps < 1) {
        reps = 1;
    }
    grpmap_bwt_set_codec(&mca_compress_bzip2_codec);
    procs = xcalloc(1000000, sizeof(proc_t));
    world_ptrs = xmalloc(sizeof(proc_t *) * 1000000);
    for (k = 0; k < 1000000; k++) {
        procs[k].vpid = (uint32_t) k;
        world_ptrs[k] = &procs[k];
    }

    for (k = 0; k < GP_COUNT; k++) {
        row_t *r = &rows[nrows];
        grpmap_input_t in;
        grpmap_handle_t h, pick[3];
        proc_t **ptrs;
        double v[11][64], tb[2][64];
        uint64_t s = 12345;
        int count = NSEL;

        gp_make(k, &r->p);
        if (!wanted(only, r->p.name)) {
            gp_free(&r->p);
            continue;
        }
        nrows++;
        grpmap_input_init(&in, r->p.ranks, r->p.n, r->p.world);
        r->increasing = in.increasing;
        ompi_formats(r);
        for (j = 0; j < NSEL; j++) {
            idx[j] = (int32_t) test_rand_below(&s, (uint64_t) r->p.n);
        }

        /* every named form: bytes, and random SELECT time (a slow form,
         * bwt, on fewer calls) */
        for (j = 0; j < 16; j++) {
            char name[32];
            int rc;
            if (j < 4) {
                snprintf(name, sizeof(name), "%s", list_forms[j]);
            } else if (j < 8) {
                snprintf(name, sizeof(name), "%s", set_forms[j - 4]);
            } else {
                snprintf(name, sizeof(name), "%s+%s", set_forms[(j - 8) / 2],
                         perm_forms[(j - 8) % 2]);
            }
            if ((j >= 4 && j < 8 && !r->increasing) || (j >= 8 && r->increasing)) {
                r->named[j] = -2;
                continue;
            }
            rc = grpmap_engine_build_named(&e, name, r->p.ranks, r->p.n, r->p.world, &h);
            CHECK(GRPMAP_ENOMEM != rc, "%s: out of memory", name);
            if (GRPMAP_OK != rc || NULL == h.repr) {
                r->named[j] = -1;
                continue;
            }
            check_sample(&h, &r->p, name);
            r->named[j] = (long long) h.repr->bytes(h.map);
            {
                int calls = time_once(1, &h, NULL, r->p.n, idx, 256) > 1000.0 ? 256 : NSEL / 4;
                for (q = 0; q < reps && q < 64; q++) {
                    v[0][q] = time_once(1, &h, NULL, r->p.n, idx, calls);
                }
                r->named_ns[j] = test_median_mean(v[0], q);
            }
            grpmap_handle_release(&h);
        }

        /* the strategies' picks */
        for (j = 0; j < 3; j++) {
            e.strategy = j;
            CHECK(GRPMAP_OK == grpmap_engine_build(&e, r->p.ranks, r->p.n, r->p.world, &pick[j]),
                  "%s: %s build", r->p.name, strategy_name[j]);
            grpmap_handle_name(&pick[j], r->pick[j], sizeof(r->pick[j]));
            r->pick_bytes[j] = NULL != pick[j].repr ? pick[j].repr->bytes(pick[j].map)
                                                    : 8 * (size_t) r->p.n;
            if (NULL != pick[j].repr) {
                check_sample(&pick[j], &r->p, r->pick[j]);
            }
        }
        e.strategy = GRPMAP_STRATEGY_HYBRID;

        /* SELECT: dense, then the hybrid (pick[2]) and time (pick[1]) picks */
        ptrs = dense_fill(r->p.ranks, r->p.n);
        for (j = 0; j < 2; j++) {   /* a slow pick (bwt) gets fewer calls */
            const grpmap_handle_t *ph = &pick[2 - j];
            if (NULL != ph->repr && time_once(1, ph, ptrs, r->p.n, idx, 1024) > 1000.0) {
                count = 4096;
            }
        }
        for (q = 0; q < reps && q < 64; q++) {
            v[0][q] = time_once(0, NULL, ptrs, r->p.n, NULL, count);
            v[1][q] = time_once(0, NULL, ptrs, r->p.n, idx, count);
            for (j = 0; j < 2; j++) {
                const grpmap_handle_t *ph = &pick[2 - j];
                if (NULL == ph->repr) {   /* the dense table itself */
                    v[2 + 3 * j][q] = v[0][q];
                    v[3 + 3 * j][q] = v[4 + 3 * j][q] = v[1][q];
                    continue;
                }
                v[2 + 3 * j][q] = time_once(1, ph, ptrs, r->p.n, NULL, count);
                v[3 + 3 * j][q] = time_once(1, ph, ptrs, r->p.n, idx, count);
                v[4 + 3 * j][q] = time_once(2, ph, ptrs, r->p.n, idx, count);
            }
            v[8][q] = time_once(3, NULL, ptrs, r->p.n, idx, count / 4);
            if (NULL == pick[2].repr) {
                v[9][q] = v[10][q] = v[8][q];
            } else {
                v[9][q] = time_once(4, &pick[2], ptrs, r->p.n, idx, count / 4);
                v[10][q] = time_once(5, &pick[2], ptrs, r->p.n, idx, count / 4);
            }
        }
        r->lat_dense = test_median_mean(v[8], q);
        r->lat_sel = test_median_mean(v[9], q);
        r->lat_lookup = test_median_mean(v[10], q);
        free(ptrs);
        r->dense_seq = test_median_mean(v[0], q);
        r->dense_rnd = test_median_mean(v[1], q);
        for (j = 0; j < 2; j++) {
            int t;
            for (t = 0; t < 3; t++) {
                r->sel[j][t] = test_median_mean(v[2 + 3 * j + t], q);
            }
        }
        for (j = 0; j < 3; j++) {
            grpmap_handle_release(&pick[j]);
        }

        /* build: the whole hybrid engine call against the dense fill */
        for (q = 0; q < reps && q < 64; q++) {
            double t0 = test_now();
            ptrs = dense_fill(r->p.ranks, r->p.n);
            tb[1][q] = (test_now() - t0) * 1e6;
            sink += (uintptr_t) ptrs[r->p.n / 2];
            free(ptrs);
            t0 = test_now();
            CHECK(GRPMAP_OK == grpmap_engine_build(&e, r->p.ranks, r->p.n, r->p.world, &h),
                  "hybrid build");
            tb[0][q] = (test_now() - t0) * 1e6;
            grpmap_handle_release(&h);
        }
        r->build_hyb = test_median_mean(tb[0], q);
        r->build_dense = test_median_mean(tb[1], q);
        fprintf(stderr, "pattern %s done\n", r->p.name);
    }

    /* ---- tables */
    printf("# grpmap_bench: Table 6.1 maps (world 200,000) and classes A-E (world 10^6),"
           " %d reps a timing (medians)\n", reps);
    printf("\n## bytes of every representation that holds the map"
           " (-: declines, .: not for this kind of map)\n");
    printf("%-4s %-38s %8s %8s %8s %8s %8s | %8s %8s %8s %8s\n", "pat", "map", "n", "lattice",
           "array", "blocks", "bwt", "bitmap", "gap", "ef", "bdd");
    for (k = 0; k < nrows; k++) {
        row_t *r = &rows[k];
        for (j = 0; j < 8; j++) {
            fmt_bytes(b[j], sizeof(b[j]), r->named[j]);
        }
        printf("%-4s %-38s %8d %8s %8s %8s %8s | %8s %8s %8s %8s\n", r->p.name, r->p.what, r->p.n,
               b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]);
    }
    printf("\n## unordered maps: set + permutation composites (bytes)\n");
    printf("%-4s %8s %9s %9s %9s %9s %9s %9s %9s %9s\n", "pat", "n", "bm+pack", "bm+wtr",
           "gap+pack", "gap+wtr", "ef+pack", "ef+wtr", "bdd+pack", "bdd+wtr");
    for (k = 0; k < nrows; k++) {
        row_t *r = &rows[k];
        if (r->increasing) {
            continue;
        }
        for (j = 0; j < 8; j++) {
            fmt_bytes(b[j], sizeof(b[j]), r->named[8 + j]);
        }
        printf("%-4s %8d %9s %9s %9s %9s %9s %9s %9s %9s\n", r->p.name, r->p.n, b[0], b[1], b[2],
               b[3], b[4], b[5], b[6], b[7]);
    }
    printf("\n## random SELECT of every form (ns a call, the SELECT alone on random group ranks,"
           " median of %d;\n## -: declines, .: not for this kind of map); last rows: the median"
           " over the maps, and the\n## nominal figure (grpmap_repr_t.select_ns) the hybrid"
           " strategy weighs\n", reps);
    printf("%-4s %8s %7s %7s %7s %7s | %7s %7s %7s %7s | %7s %7s %7s %7s %7s %7s %7s %7s\n",
           "pat", "n", "lattice", "array", "blocks", "bwt", "bitmap", "gap", "ef", "bdd",
           "bm+pack", "bm+wtr", "gap+pk", "gap+wtr", "ef+pack", "ef+wtr", "bdd+pk", "bdd+wtr");
    for (k = 0; k <= nrows + 1; k++) {
        for (j = 0; j < 16; j++) {
            if (k < nrows) {
                fmt_ns(b[j], sizeof(b[j]), rows[k].named[j], rows[k].named_ns[j]);
            } else if (k == nrows) {
                double m[GP_COUNT];
                int c = 0, t;
                for (t = 0; t < nrows; t++) {
                    if (rows[t].named[j] >= 0) {
                        m[c++] = rows[t].named_ns[j];
                    }
                }
                fmt_ns(b[j], sizeof(b[j]), c ? 0 : -1, c ? test_median_mean(m, c) : 0.0);
            } else {
                double ns = nominal_ns(gp_forms, e.nreprs, j);
                fmt_ns(b[j], sizeof(b[j]), ns < 0.0 ? -1 : 0, ns);
            }
        }
        if (k < nrows) {
            snprintf(nbuf, sizeof(nbuf), "%d", rows[k].p.n);
        }
        printf("%-4s %8s %7s %7s %7s %7s | %7s %7s %7s %7s | %7s %7s %7s %7s %7s %7s %7s %7s\n",
               k < nrows ? rows[k].p.name : k == nrows ? "med" : "nom", k < nrows ? nbuf : "",
               b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12],
               b[13], b[14], b[15]);
    }
    printf("\n## strategies' picks (bytes), information bound, Open MPI 4.1.4 formats, dense\n");
    printf("%-4s %8s %-14s %8s %-14s %8s %-14s %8s %9s %6s | %7s %8s %8s %9s %8s\n", "pat", "n",
           "space", "bytes", "time", "bytes", "hybrid", "bytes", "bound B", "hyb/b", "strided",
           "sporadic", "bitmap", "dense 8B", "dense 4B");
    for (k = 0; k < nrows; k++) {
        row_t *r = &rows[k];
        fmt_bytes(b[0], sizeof(b[0]), r->strided);
        fmt_bytes(b[1], sizeof(b[1]), r->sporadic);
        fmt_bytes(b[2], sizeof(b[2]), r->bitmap);
        printf("%-4s %8d %-14s %8zu %-14s %8zu %-14s %8zu %9.0f %6.3f | %7s %8s %8s %9lld %8lld\n",
               r->p.name, r->p.n, r->pick[0], r->pick_bytes[0], r->pick[1], r->pick_bytes[1],
               r->pick[2], r->pick_bytes[2], r->p.bound_bits / 8.0,
               8.0 * (double) r->pick_bytes[2] / r->p.bound_bits, b[0], b[1], b[2],
               8LL * r->p.n, 4LL * r->p.n);
    }
    printf("\n## SELECT (ns a call, median): sel = the pick's SELECT alone, lookup = SELECT +"
           " the world table's\n## dense lookup; dense = Open MPI's pointer table read +"
           " dereferenced; build = the whole hybrid\n## engine call against the dense fill"
           " (us, median), ratio = build / fill\n");
    printf("%-4s %8s %-11s %7s %7s %7s | %-6s %7s %7s %7s | %7s %7s | %9s %9s %6s\n", "pat", "n",
           "hybrid", "sel seq", "sel rnd", "lookup", "time", "sel seq", "sel rnd", "lookup",
           "dns seq", "dns rnd", "build us", "fill us", "ratio");
    for (k = 0; k < nrows; k++) {
        row_t *r = &rows[k];
        printf("%-4s %8d %-11s %7.1f %7.1f %7.1f | %-6s %7.1f %7.1f %7.1f | %7.1f %7.1f | %9.1f"
               " %9.1f %6.2f\n",
               r->p.name, r->p.n, r->pick[2], r->sel[0][0], r->sel[0][1], r->sel[0][2], r->pick[1],
               r->sel[1][0], r->sel[1][1], r->sel[1][2], r->dense_seq, r->dense_rnd, r->build_hyb,
               r->build_dense, r->build_hyb / r->build_dense);
    }

    printf("\n## random SELECT, dependent calls (each group rank depends on the previous"
           " result: latency, ns)\n");
    printf("%-4s %8s %-11s %8s %8s %8s %7s\n", "pat", "n", "hybrid", "sel", "lookup", "dense",
           "sel/dns");
    for (k = 0; k < nrows; k++) {
        row_t *r = &rows[k];
        printf("%-4s %8d %-11s %8.1f %8.1f %8.1f %7.2f\n", r->p.name, r->p.n, r->pick[2],
               r->lat_sel, r->lat_lookup, r->lat_dense, r->lat_sel / r->lat_dense);
    }

    /* ---- the bars */
    {
        char f1[512] = "", f2[512] = "", f3[512] = "", f4[512] = "", f5[512] = "";
        const char *w3 = "-", *w4 = "-", *w5 = "-", *w4s = "-", *w5s = "-";
        const char *w3a = "-";
        const char *w5l = "-";
        double r3 = 0, r3a = 0, r4 = 0, r5 = 0, r4s = 0, r5s = 0, r5l = 0;
        int n1 = 0, n2 = 0, n3 = 0, c1 = 0, c2 = 0, c3 = 0, c45 = 0;
        for (k = 0; k < nrows; k++) {
            row_t *r = &rows[k];
            double ratio = 8.0 * (double) r->pick_bytes[2] / r->p.bound_bits;
            size_t l;
            if (r->p.table && r->p.id <= 7) {
                c1++;
                if (r->pick_bytes[2] > 64) {
                    l = strlen(f1);
                    snprintf(f1 + l, sizeof(f1) - l, " %s:%s=%zuB", r->p.name, r->pick[2],
                             r->pick_bytes[2]);
                    n1++;
                }
            } else if (r->p.table) {
                c2++;
                if (ratio > 1.3) {
                    l = strlen(f2);
                    snprintf(f2 + l, sizeof(f2) - l, " %s:%s=%.2fx", r->p.name, r->pick[2], ratio);
                    n2++;
                }
            }
            if (r->build_hyb / r->build_dense > r3a) {
                r3a = r->build_hyb / r->build_dense;
                w3a = r->p.name;
            }
            if (r->p.n >= 100000) {
                double x = r->build_hyb / r->build_dense;
                c3++;
                if (x > r3) {
                    r3 = x;
                    w3 = r->p.name;
                }
                if (x > 3.0) {
                    l = strlen(f3);
                    snprintf(f3 + l, sizeof(f3) - l, " %s=%.2f", r->p.name, x);
                    n3++;
                }
            }
            if (1000000 == r->p.world) {
                c45++;
                if (r->sel[1][1] / r->dense_rnd > 1.2) {
                    l = strlen(f4);
                    snprintf(f4 + l, sizeof(f4) - l, " %s:%s=%.2f", r->p.name, r->pick[1],
                             r->sel[1][1] / r->dense_rnd);
                }
                if (r->sel[0][1] / r->dense_rnd > 3.0) {
                    l = strlen(f5);
                    snprintf(f5 + l, sizeof(f5) - l, " %s:%s=%.2f", r->p.name, r->pick[2],
                             r->sel[0][1] / r->dense_rnd);
                }
                if (r->sel[1][2] / r->dense_rnd > r4) {
                    r4 = r->sel[1][2] / r->dense_rnd;
                    w4 = r->p.name;
                }
                if (r->sel[1][1] / r->dense_rnd > r4s) {
                    r4s = r->sel[1][1] / r->dense_rnd;
                    w4s = r->p.name;
                }
                if (r->sel[0][2] / r->dense_rnd > r5) {
                    r5 = r->sel[0][2] / r->dense_rnd;
                    w5 = r->p.name;
                }
                if (r->lat_sel / r->lat_dense > r5l) {
                    r5l = r->lat_sel / r->lat_dense;
                    w5l = r->p.name;
                }
                if (r->sel[0][1] / r->dense_rnd > r5s) {
                    r5s = r->sel[0][1] / r->dense_rnd;
                    w5s = r->p.name;
                }
            }
        }
        printf("\n## the issue's bars (hybrid: alpha %.2f, every form and the packed permutation"
               " offered)\n", e.alpha);
        printf("bar 1 (patterns 1-7 <= 64 B): %s (%d of %d over:%s)\n",
               0 == c1 ? "n/a" : n1 ? "FAIL" : "PASS", n1, c1, n1 ? f1 : " none");
        printf("bar 2 (patterns 8-14 <= 1.3x bound): %s (%d of %d over:%s)\n",
               0 == c2 ? "n/a" : n2 ? "FAIL" : "PASS", n2, c2, n2 ? f2 : " none");
        printf("bar 3 (hybrid build of 10^5-member maps <= 3x dense fill, every pattern): %s"
               " (worst %.2f, %s; %d maps of n >= 10^5%s%s; all maps: worst %.2f, %s)\n",
               0 == c3 ? "n/a" : n3 ? "FAIL" : "PASS", r3, w3, c3, n3 ? "; over:" : "",
               n3 ? f3 : "", r3a, w3a);
        printf("bar 4 (time pick's random SELECT <= 1.2x dense, world 10^6): %s (worst %.2f, %s;"
               " %d maps%s%s; with the world table's lookup added: worst %.2f, %s)\n",
               0 == c45 ? "n/a" : r4s > 1.2 ? "FAIL" : "PASS", r4s, w4s, c45,
               *f4 ? "; over:" : "", f4, r4, w4);
        printf("bar 5 (hybrid pick's random SELECT <= 3x dense, world 10^6): %s (worst %.2f, %s;"
               " %d maps%s%s; with the world table's lookup added: worst %.2f, %s; dependent"
               " calls: worst %.2f, %s)\n",
               0 == c45 ? "n/a" : r5s > 3.0 ? "FAIL" : "PASS", r5s, w5s, c45, *f5 ? "; over:" : "",
               f5, r5, w5, r5l, w5l);
    }
#ifndef GP_NO_BDD
    grpmap_bdd_finalize();
#endif
    for (k = 0; k < nrows; k++) {
        gp_free(&rows[k].p);
    }
    free(rows);
    free(idx);
    free(world_ptrs);
    free(procs);
    return 0;
}
