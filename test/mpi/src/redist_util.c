/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Shared by the MADRE tests redist_seed.c and redist_random.c, which
 * #include this file (one translation unit each, so that build_mpi needs a
 * single source):
 *   - the four block types (int, double, struct {double; char} resized to
 *     its sizeof, 4 KB of bytes) and an element encoding of (origin rank,
 *     origin slot, element offset, fill generation), checked byte for byte
 *     (for the struct, its 9 bytes of data; padding is not moved by MPI);
 *   - a global map (every rank's dest_rank/dest_slot), checked to be a
 *     valid injective map before it is used, inverted to tell every rank
 *     which block each of its slots must hold;
 *   - the MPI_T pvars of the redist framework and the counts that must hold;
 *   - run_map(): create, execute, refill, execute again, free, then
 *     MPIX_Redistribute, each checked; a refusal (MPI_ERR_OTHER from create)
 *     is accepted only from component unit or from phase with
 *     redist_phase_break_cycles=0, and must leave the buffer as it was.
 * Component: "-c NAME" sets info key redist_component; otherwise the
 * program reads $OMPI_MCA_redist (set by mpirun --mca redist NAME) to know
 * which rules apply.
 *
 * Built with -DREDIST_REF (and redist_ref.c) when mpi-ext.h has no MADRE,
 * to check the tests themselves against a naive implementation.
 */
#include <mpi.h>
#include <mpi-ext.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "redist_err.h"

#if !defined(OMPI_HAVE_MPI_EXT_MADRE) || !OMPI_HAVE_MPI_EXT_MADRE
#error "mpi-ext.h does not provide the MADRE extension (OMPI_HAVE_MPI_EXT_MADRE)"
#endif
#ifdef REDIST_REF
int redist_ref_pvar(const char *name, void *value); /* redist_ref.c's stand-in for MPI_T */
#endif

static int rank, nprocs;
static MPI_Comm comm;              /* a duplicate of MPI_COMM_WORLD, MPI_ERRORS_RETURN */
static const char *comp;           /* component in use, NULL: the default (cyclic) */
static MPI_Info info = MPI_INFO_NULL;
static int may_refuse, is_park, no_break;

__attribute__((format(printf, 1, 2), noreturn)) static void die(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "rank %d: FAIL: ", rank);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
}


static int err_class(int rc)
{
    int cls = rc;
    if (MPI_SUCCESS != rc && MPI_SUCCESS != MPI_Error_class(rc, &cls)) {
        cls = rc;
    }
    return cls;
}

/* Every rank must have got the same class; returns it. */
static int agree_class(int rc, const char *what)
{
    int cls = err_class(rc), lo, hi;
    MPI_Allreduce(&cls, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&cls, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (lo != hi) {
        die("%s: ranks disagree, this one got %s, classes range %s .. %s", what,
            err_name(cls), err_name(lo), err_name(hi));
    }
    return cls;
}

/* ---- block types and the element encoding ------------------------------ */
enum kind { K_INT, K_DOUBLE, K_REC, K_BYTE, NKINDS };
struct rec {
    double d;
    char c;
};
struct tinfo {
    enum kind k;
    const char *name;
    MPI_Datatype type;
    size_t extent, size; /* bytes of one element in the buffer / of its data */
};
static struct tinfo T[NKINDS];

static void types_init(void)
{
    int bl[2] = {1, 1};
    MPI_Aint disp[2] = {offsetof(struct rec, d), offsetof(struct rec, c)};
    MPI_Datatype ty[2] = {MPI_DOUBLE, MPI_CHAR}, s, rec;
    MPI_Type_create_struct(2, bl, disp, ty, &s);
    MPI_Type_create_resized(s, 0, sizeof(struct rec), &rec);
    MPI_Type_commit(&rec);
    MPI_Type_free(&s);
    T[K_INT] = (struct tinfo){K_INT, "int", MPI_INT, sizeof(int), sizeof(int)};
    T[K_DOUBLE] = (struct tinfo){K_DOUBLE, "double", MPI_DOUBLE, sizeof(double), sizeof(double)};
    T[K_REC] = (struct tinfo){K_REC, "struct", rec, sizeof(struct rec),
                              sizeof(double) + 1};
    T[K_BYTE] = (struct tinfo){K_BYTE, "byte", MPI_BYTE, 1, 1};
}

static uint32_t mix32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

/* gen distinguishes successive fills of one buffer (execute twice). */
static uint32_t int_code(int orank, int oslot, long off, int gen)
{
    uint32_t v = ((uint32_t) orank << 24) | ((uint32_t) (oslot & 0xff) << 16) | (uint32_t) (off & 0xffff);
    return v ^ (0x5a5a5a5aU * (uint32_t) gen);
}

static double dbl_code(int orank, int oslot, long off, int gen)
{
    /* exact integers below 2^53 */
    return ldexp(orank, 40) + ldexp(oslot, 24) + (double) off + ldexp(gen, 50);
}

/* Element off of the block from (orank, oslot), fill generation gen. */
static void elem_value(enum kind k, unsigned char *out, int orank, int oslot, long off, int gen)
{
    switch (k) {
    case K_INT: {
        int v = (int) int_code(orank, oslot, off, gen);
        memcpy(out, &v, sizeof(v));
        break;
    }
    case K_DOUBLE: {
        double v = dbl_code(orank, oslot, off, gen);
        memcpy(out, &v, sizeof(v));
        break;
    }
    case K_REC: {
        struct rec v;
        memset(&v, 0xee, sizeof(v));
        v.d = dbl_code(orank, oslot, off, gen);
        v.c = (char) (mix32(int_code(orank, oslot, off, gen)) | 1);
        memcpy(out, &v, sizeof(v));
        break;
    }
    default:
        *out = (unsigned char) mix32(int_code(orank, oslot, off, gen));
    }
}

/* Is byte b of an element data (moved by MPI), not padding? */
static int elem_sig(enum kind k, size_t b)
{
    if (K_REC != k) {
        return 1;
    }
    return b - offsetof(struct rec, d) < sizeof(double) /* unsigned: b >= offset too */
           || b == offsetof(struct rec, c);
}

static void fill_block(unsigned char *p, const struct tinfo *t, int count, int orank, int oslot,
                       int gen)
{
    for (long e = 0; e < count; e++) {
        elem_value(t->k, p + e * t->extent, orank, oslot, e, gen);
    }
}

/* Describe what a wrong element holds, when the encoding says. */
static void describe(char *s, size_t n, const struct tinfo *t, const unsigned char *p, int gen)
{
    uint32_t v;
    double d;
    switch (t->k) {
    case K_INT:
        memcpy(&v, p, sizeof(v));
        snprintf(s, n, "0x%08x (as if from rank %u slot %u element %u)", v,
                 (v ^ (0x5a5a5a5aU * (uint32_t) gen)) >> 24,
                 ((v ^ (0x5a5a5a5aU * (uint32_t) gen)) >> 16) & 0xff,
                 (v ^ (0x5a5a5a5aU * (uint32_t) gen)) & 0xffff);
        break;
    case K_DOUBLE:
    case K_REC:
        memcpy(&d, p, sizeof(d));
        if (d >= 0 && d < ldexp(1, 53) && d == floor(d)) {
            uint64_t u = (uint64_t) d;
            snprintf(s, n, "%.17g (as if from rank %u slot %u element %u, generation %u)", d,
                     (unsigned) ((u >> 40) & 0x3ff), (unsigned) ((u >> 24) & 0xffff),
                     (unsigned) (u & 0xffffff), (unsigned) (u >> 50));
        } else {
            snprintf(s, n, "%.17g (not an encoded value)", d);
        }
        break;
    default:
        snprintf(s, n, "0x%02x", *p);
    }
}

/* ---- global maps ---------------------------------------------------------- */
struct gmap {
    int *nb;         /* slots per rank */
    int **dr, **ds;  /* every rank's dest_rank[] and dest_slot[] */
    int count;       /* elements per block */
    const struct tinfo *t;
    /* derived for this rank by gmap_prepare() */
    int *src_r, *src_s; /* origin of the block each of my slots must hold, -1: none */
    long moved;         /* my live slots whose block leaves this rank */
    long live, total;   /* over all ranks */
};

static struct gmap *gmap_new(void)
{
    struct gmap *g = calloc(1, sizeof(*g));
    g->nb = calloc(nprocs, sizeof(int));
    g->dr = calloc(nprocs, sizeof(int *));
    g->ds = calloc(nprocs, sizeof(int *));
    return g;
}

static void gmap_alloc_rank(struct gmap *g, int r, int nb)
{
    g->nb[r] = nb;
    g->dr[r] = malloc((nb + 1) * sizeof(int));
    g->ds[r] = malloc((nb + 1) * sizeof(int));
}

static void gmap_free(struct gmap *g)
{
    void *owned[] = {g->nb, g->dr, g->ds, g->src_r, g->src_s, g};
    for (int r = 0; r < nprocs; r++) {
        free(g->dr[r]);
        free(g->ds[r]);
    }
    for (size_t k = 0; k < sizeof(owned) / sizeof(owned[0]); k++) {
        free(owned[k]);
    }
}

/* The global map from every rank's own part. */
__attribute__((unused)) static struct gmap *gmap_allgather(int nb, const int *dr, const int *ds)
{
    struct gmap *g = gmap_new();
    int *disp = malloc(nprocs * sizeof(int)), tot = 0;
    MPI_Allgather(&nb, 1, MPI_INT, g->nb, 1, MPI_INT, MPI_COMM_WORLD);
    for (int r = 0; r < nprocs; r++) {
        disp[r] = tot;
        tot += g->nb[r];
    }
    int *all_r = malloc((tot + 1) * sizeof(int)), *all_s = malloc((tot + 1) * sizeof(int));
    MPI_Allgatherv(dr, nb, MPI_INT, all_r, g->nb, disp, MPI_INT, MPI_COMM_WORLD);
    MPI_Allgatherv(ds, nb, MPI_INT, all_s, g->nb, disp, MPI_INT, MPI_COMM_WORLD);
    for (int r = 0; r < nprocs; r++) {
        int n = g->nb[r];
        gmap_alloc_rank(g, r, n);
        memcpy(g->dr[r], all_r + disp[r], n * sizeof(int));
        memcpy(g->ds[r], all_s + disp[r], n * sizeof(int));
    }
    free(all_r);
    free(all_s);
    free(disp);
    return g;
}

/* Check that the map is valid and injective (else the test is wrong) and
 * invert it for this rank. */
static void gmap_prepare(struct gmap *g, const char *what)
{
    long *base = malloc((nprocs + 1) * sizeof(long));
    base[0] = 0;
    for (int r = 0; r < nprocs; r++) {
        base[r + 1] = base[r] + g->nb[r];
    }
    g->total = base[nprocs];
    char *hit = calloc(g->total + 1, 1);
    g->src_r = malloc((g->nb[rank] + 1) * sizeof(int));
    g->src_s = malloc((g->nb[rank] + 1) * sizeof(int));
    for (int s = 0; s < g->nb[rank]; s++) {
        g->src_r[s] = g->src_s[s] = -1;
    }
    g->live = g->moved = 0;
    for (int r = 0; r < nprocs; r++) {
        for (int i = 0; i < g->nb[r]; i++) {
            int q = g->dr[r][i], s = g->ds[r][i];
            if (MPIX_REDIST_FREE == q) {
                continue;
            }
            if (q < 0 || q >= nprocs || s < 0 || s >= g->nb[q]) {
                die("test bug in %s: (%d,%d) -> (%d,%d) out of range", what, r, i, q, s);
            }
            if (hit[base[q] + s]++) {
                die("test bug in %s: two blocks to slot %d of rank %d", what, s, q);
            }
            g->live++;
            if (q == rank) {
                g->src_r[s] = r;
                g->src_s[s] = i;
            }
            if (r == rank && q != rank) {
                g->moved++;
            }
        }
    }
    free(hit);
    free(base);
}

/* ---- buffers ---------------------------------------------------------------- */
#define GUARD 64
struct buf {
    unsigned char *mem, *p; /* p = mem + GUARD, GUARD bytes of 0x5a either side */
    size_t bext, len;       /* bytes of one slot, of all slots */
    int nb;
};

static void buf_init(struct buf *b, const struct gmap *g)
{
    b->nb = g->nb[rank];
    b->bext = (size_t) g->count * g->t->extent;
    b->len = b->bext * b->nb;
    b->mem = malloc(b->len + 2 * GUARD);
    if (NULL == b->mem) {
        die("cannot allocate %zu bytes", b->len);
    }
    b->p = b->mem + GUARD;
    memset(b->mem, 0x5a, b->len + 2 * GUARD);
}

/* Live slots get their block (generation gen), free ones a filler. */
static void buf_fill(struct buf *b, const struct gmap *g, int gen)
{
    for (int i = 0; i < b->nb; i++) {
        if (MPIX_REDIST_FREE == g->dr[rank][i]) {
            memset(b->p + i * b->bext, 0xc3 + gen, b->bext);
        } else {
            fill_block(b->p + i * b->bext, g->t, g->count, rank, i, gen);
        }
    }
}

static int guards_ok(const struct buf *b)
{
    for (size_t i = 0; i < GUARD; i++) {
        if (0x5a != b->mem[i] || 0x5a != b->p[b->len + i]) {
            return 0;
        }
    }
    return 1;
}

/* Every slot that a block targets must hold it; returns the number of wrong
 * slots on all ranks (this rank prints its first few). */
static long buf_check(const struct buf *b, const struct gmap *g, int gen, const char *what)
{
    const struct tinfo *t = g->t;
    unsigned char *want = malloc(t->extent);
    long bad = 0, all;
    if (!guards_ok(b)) {
        fprintf(stderr, "rank %d: %s: bytes written outside the buffer\n", rank, what);
        bad++;
    }
    for (int s = 0; s < b->nb; s++) {
        if (g->src_r[s] < 0) {
            continue;
        }
        const unsigned char *p = b->p + s * b->bext;
        for (long e = 0; e < g->count; e++) {
            elem_value(t->k, want, g->src_r[s], g->src_s[s], e, gen);
            size_t x;
            for (x = 0; x < t->extent; x++) {
                if (elem_sig(t->k, x) && want[x] != p[e * t->extent + x]) {
                    break;
                }
            }
            if (x < t->extent) {
                if (bad++ < 5) {
                    char got[128], exp[128];
                    describe(got, sizeof(got), t, p + e * t->extent, gen);
                    describe(exp, sizeof(exp), t, want, gen);
                    fprintf(stderr, "rank %d: %s: slot %d (byte %zu of the buffer), element %ld "
                            "of %d (%s): holds %s, expected the block of rank %d slot %d: %s\n",
                            rank, what, s, s * b->bext + e * t->extent + x, e, g->count,
                            t->name, got, g->src_r[s], g->src_s[s], exp);
                }
                break; /* one line per slot */
            }
        }
    }
    free(want);
    MPI_Allreduce(&bad, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    return all;
}

/* ---- MPI_T performance variables ------------------------------------------ */
enum { PV_BLOCKS, PV_BYTES, PV_ROUNDS, PV_PARKED, PV_CYCLES, PV_PEAK, PV_TIME, NPV };
static const char *pv_name[NPV] = {
    "redist_base_blocks_moved", "redist_base_bytes_moved", "redist_base_rounds",
    "redist_base_parked_blocks", "redist_base_cycles_broken", "redist_base_peak_extra_bytes",
    "redist_base_schedule_time"};
struct pvals {
    unsigned long long u[NPV];
    double time;
};
#ifndef REDIST_REF
static const int pv_class[NPV] = {MPI_T_PVAR_CLASS_COUNTER, MPI_T_PVAR_CLASS_COUNTER,
                                  MPI_T_PVAR_CLASS_COUNTER, MPI_T_PVAR_CLASS_COUNTER,
                                  MPI_T_PVAR_CLASS_COUNTER, MPI_T_PVAR_CLASS_HIGHWATERMARK,
                                  MPI_T_PVAR_CLASS_TIMER};
static MPI_T_pvar_session pv_ses;
static MPI_T_pvar_handle pv_h[NPV];
static int pv_idx[NPV];

static void pv_start(MPI_T_pvar_handle h)
{
    int rc = MPI_T_pvar_start(pv_ses, h);
    if (MPI_SUCCESS != rc && MPI_T_ERR_PVAR_NO_STARTSTOP != rc) {
        die("MPI_T_pvar_start failed (%d)", rc);
    }
}
#endif

static void pv_init(void)
{
#ifndef REDIST_REF
    int provided, count;
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_T_pvar_session_create(&pv_ses);
    for (int i = 0; i < NPV; i++) {
        char name[256], desc[256];
        int nlen = sizeof(name), dlen = sizeof(desc), verb, cls, bind, ro, cont, atomic;
        MPI_Datatype dt;
        MPI_T_enum en;
        if (MPI_SUCCESS != MPI_T_pvar_get_index(pv_name[i], pv_class[i], &pv_idx[i])) {
            die("MPI_T has no pvar %s of the expected class", pv_name[i]);
        }
        MPI_T_pvar_get_info(pv_idx[i], name, &nlen, &verb, &cls, &dt, &en, desc, &dlen, &bind,
                            &ro, &cont, &atomic);
        if (dt != (PV_TIME == i ? MPI_DOUBLE : MPI_UNSIGNED_LONG_LONG) || MPI_T_BIND_NO_OBJECT != bind) {
            die("pvar %s: not %s or bound to an object", pv_name[i],
                PV_TIME == i ? "a double" : "an unsigned long long");
        }
        /* the watermark is read through a fresh handle each time (below) */
        if (PV_PEAK != i) {
            MPI_T_pvar_handle_alloc(pv_ses, pv_idx[i], NULL, &pv_h[i], &count);
            pv_start(pv_h[i]);
        }
    }
#endif
}

static void pv_read(struct pvals *v)
{
#ifdef REDIST_REF
    for (int i = 0; i < NPV; i++) {
        if (0 != redist_ref_pvar(pv_name[i], PV_TIME == i ? (void *) &v->time : (void *) &v->u[i])) {
            die("no pvar %s", pv_name[i]);
        }
    }
#else
    for (int i = 0; i < NPV; i++) {
        if (PV_PEAK == i) {
            /* a new handle starts at the variable's current value */
            MPI_T_pvar_handle h;
            int count;
            MPI_T_pvar_handle_alloc(pv_ses, pv_idx[i], NULL, &h, &count);
            pv_start(h);
            if (MPI_SUCCESS != MPI_T_pvar_read(pv_ses, h, &v->u[i])) {
                die("cannot read pvar %s", pv_name[i]);
            }
            MPI_T_pvar_handle_free(pv_ses, &h);
        } else if (MPI_SUCCESS != MPI_T_pvar_read(pv_ses, pv_h[i], PV_TIME == i ? (void *) &v->time
                                                                                : (void *) &v->u[i])) {
            die("cannot read pvar %s", pv_name[i]);
        }
    }
#endif
}

static size_t peak_bound_max; /* the largest bound of any map so far */

/* The counts that must hold over one execute (or MPIX_Redistribute). */
static void pv_check(const struct pvals *a, const struct pvals *b, const struct gmap *g,
                     const char *what)
{
    unsigned long long blocks = b->u[PV_BLOCKS] - a->u[PV_BLOCKS];
    unsigned long long bytes = b->u[PV_BYTES] - a->u[PV_BYTES];
    size_t bsize = (size_t) g->count * g->t->size;
    /* metadata O(n + b): at most 1 KB per rank and slot (cyclic's
     * per-action datatypes included), plus the staging budget (the
     * default, redist_base_stage_bytes = 0: min(1 MiB, this rank's
     * buffer / 16), or the value mpirun --mca gave; at least two blocks;
     * the agreed budget is the smallest of all ranks', so never above
     * this rank's) */
    size_t stride = (size_t) g->count * g->t->extent;
    size_t budget = (size_t) g->nb[rank] * stride / 16;
    size_t bound;
    const char *given = getenv("OMPI_MCA_redist_base_stage_bytes");
    size_t set = NULL != given ? (size_t) strtoull(given, NULL, 0) : 0;
    budget = budget < ((size_t) 1 << 20) ? budget : ((size_t) 1 << 20);
    if (set > 0) {
        budget = set;
    }
    budget = budget > 2 * stride ? budget : 2 * stride;
    bound = budget + 1024 * (size_t) (nprocs + g->nb[rank]) + 4096;
    if (bound > peak_bound_max) {
        peak_bound_max = bound;
    }
    if (is_park ? blocks < (unsigned long long) g->moved : blocks != (unsigned long long) g->moved) {
        die("%s: redist_base_blocks_moved rose by %llu, this rank sends %ld blocks away", what,
            blocks, g->moved);
    }
    if (bytes != blocks * bsize) {
        die("%s: redist_base_bytes_moved rose by %llu, expected %llu blocks x %zu bytes", what,
            bytes, blocks, bsize);
    }
    if (!is_park && b->u[PV_PARKED] != a->u[PV_PARKED]) {
        die("%s: redist_base_parked_blocks rose by %llu without component park", what,
            b->u[PV_PARKED] - a->u[PV_PARKED]);
    }
    if (no_break && b->u[PV_CYCLES] != a->u[PV_CYCLES]) {
        die("%s: redist_base_cycles_broken rose by %llu with redist_phase_break_cycles=0", what,
            b->u[PV_CYCLES] - a->u[PV_CYCLES]);
    }
    if (b->u[PV_PEAK] > peak_bound_max) {
        die("%s: redist_base_peak_extra_bytes %llu above the bound %zu "
            "(staging budget of %zu-byte blocks + 1024 x (%d ranks + %d slots) + 4096, largest "
            "map so far)",
            what, b->u[PV_PEAK], peak_bound_max, (size_t) g->count * g->t->extent, nprocs,
            g->nb[rank]);
    }
    if (!(b->time >= a->time) || !isfinite(b->time)) {
        die("%s: redist_base_schedule_time went from %g to %g s", what, a->time, b->time);
    }
}

/* ---- setup ---------------------------------------------------------------- */
static void setup(int *argc, char ***argv)
{
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    /* -c NAME: pick the component through the info key */
    for (int i = 1; i + 1 < *argc; i++) {
        if (0 == strcmp((*argv)[i], "-c")) {
            comp = (*argv)[i + 1];
            MPI_Info_create(&info);
            MPI_Info_set(info, "redist_component", comp);
            memmove(*argv + i, *argv + i + 2, (*argc - i - 1) * sizeof(char *));
            *argc -= 2;
            break;
        }
    }
    if (NULL == comp) {
        comp = getenv("OMPI_MCA_redist");
    }
    const char *bc = getenv("OMPI_MCA_redist_phase_break_cycles");
    no_break = NULL != comp && 0 == strcmp(comp, "phase") && NULL != bc && 0 == atoi(bc);
    may_refuse = (NULL != comp && 0 == strcmp(comp, "unit")) || no_break;
    is_park = NULL != comp && 0 == strcmp(comp, "park");
    types_init();
    pv_init();
}

/* ---- one map, end to end -------------------------------------------------- */
enum { MAP_OK, MAP_REFUSED };

static void execute_checked(MPIX_Redist rd, struct buf *b, const struct gmap *g, int gen,
                            const char *what)
{
    struct pvals a, z;
    pv_read(&a);
    int rc = MPIX_Redist_execute(rd);
    if (MPI_SUCCESS != agree_class(rc, what)) {
        die("%s: MPIX_Redist_execute returned %s", what, err_name(err_class(rc)));
    }
    pv_read(&z);
    if (buf_check(b, g, gen, what)) {
        die("%s: wrong data after execute (see above)", what);
    }
    pv_check(&a, &z, g, what);
}

/* create, execute, execute again (refilled), free, MPIX_Redistribute.  A
 * refusal is accepted only where the component may refuse, and must leave
 * the buffer and the counters as they were. */
static int run_map(const struct gmap *g, const char *label)
{
    struct buf b;
    char what[256];
    MPIX_Redist rd = MPIX_REDIST_NULL;
    struct pvals a, z;
    int nb = g->nb[rank];
    const int *dr = g->dr[rank], *ds = g->ds[rank];

    buf_init(&b, g);
    buf_fill(&b, g, 1);
    unsigned char *before = malloc(b.len + 2 * GUARD);
    memcpy(before, b.mem, b.len + 2 * GUARD);

    snprintf(what, sizeof(what), "%s: create", label);
    pv_read(&a);
    int rc = MPIX_Redist_create(b.p, nb, g->count, g->t->type, dr, ds, info, comm, &rd);
    int cls = agree_class(rc, what);
    if (MPI_SUCCESS != cls) {
        if (!(MPI_ERR_OTHER == cls && may_refuse)) {
            die("%s returned %s (component %s)", what, err_name(cls), comp ? comp : "default");
        }
        pv_read(&z);
        if (memcmp(before, b.mem, b.len + 2 * GUARD)) {
            die("%s: refused, but the buffer changed", what);
        }
        if (z.u[PV_BLOCKS] != a.u[PV_BLOCKS]) {
            die("%s: refused, but redist_base_blocks_moved rose", what);
        }
        snprintf(what, sizeof(what), "%s: MPIX_Redistribute", label);
        rc = MPIX_Redistribute(b.p, nb, g->count, g->t->type, dr, ds, info, comm);
        if (MPI_ERR_OTHER != agree_class(rc, what)) {
            die("%s: create refused the map, MPIX_Redistribute returned %s", what,
                err_name(err_class(rc)));
        }
        if (memcmp(before, b.mem, b.len + 2 * GUARD)) {
            die("%s: refused, but the buffer changed", what);
        }
        free(before);
        free(b.mem);
        return MAP_REFUSED;
    }
    free(before);
    if (MPIX_REDIST_NULL == rd) {
        die("%s: succeeded but returned MPIX_REDIST_NULL", what);
    }
    if (!guards_ok(&b)) {
        die("%s: wrote outside the buffer", what);
    }

    snprintf(what, sizeof(what), "%s: execute", label);
    execute_checked(rd, &b, g, 1, what);
    buf_fill(&b, g, 2);
    snprintf(what, sizeof(what), "%s: second execute", label);
    execute_checked(rd, &b, g, 2, what);

    snprintf(what, sizeof(what), "%s: free", label);
    rc = MPIX_Redist_free(&rd);
    if (MPI_SUCCESS != agree_class(rc, what)) {
        die("%s returned %s", what, err_name(err_class(rc)));
    }
    if (MPIX_REDIST_NULL != rd) {
        die("%s: the handle is not MPIX_REDIST_NULL afterwards", what);
    }

    snprintf(what, sizeof(what), "%s: MPIX_Redistribute", label);
    buf_fill(&b, g, 3);
    pv_read(&a);
    rc = MPIX_Redistribute(b.p, nb, g->count, g->t->type, dr, ds, info, comm);
    if (MPI_SUCCESS != agree_class(rc, what)) {
        die("%s returned %s", what, err_name(err_class(rc)));
    }
    pv_read(&z);
    if (buf_check(&b, g, 3, what)) {
        die("%s: wrong data (see above)", what);
    }
    pv_check(&a, &z, g, what);
    free(b.mem);
    return MAP_OK;
}

static void teardown(void)
{
#ifndef REDIST_REF
    for (int i = 0; i < NPV; i++) {
        if (PV_PEAK != i) {
            MPI_T_pvar_handle_free(pv_ses, &pv_h[i]);
        }
    }
    MPI_T_pvar_session_free(&pv_ses);
    MPI_T_finalize();
#endif
    if (MPI_INFO_NULL != info) {
        MPI_Info_free(&info);
    }
    MPI_Type_free(&T[K_REC].type);
    MPI_Comm_free(&comm);
    MPI_Finalize();
}
