/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Collective write/read correctness for an fcoll component (run with
 * --mca fcoll la_twophase): for every view kind the same data is written
 * once with independent I/O (reference) and once collectively over the
 * same background, the two files must be byte-identical, and the
 * collective read must give back exactly what was written (memory gaps
 * untouched).
 *
 *   fcoll_lat_test DIR views      all view kinds
 *   fcoll_lat_test DIR pvars MODE [MAXBUF]
 *                                 MPI_T variables; MODE: lap | nolap | bound |
 *                                 interleaved | probe | nodeK
 *                                 (K ranks a node; node0: real detection);
 *                                 MAXBUF: the cycle buffer size in force
 *   fcoll_lat_test DIR fuzz N     N random irregular cases
 *   fcoll_lat_test DIR errors     a write to /dev/full must return MPI_ERR_NO_SPACE
 *   fcoll_lat_test DIR eof        reads that meet the end of the file count
 *                                 the bytes before it
 *
 * Prints "fcoll_lat_test: <what> OK" on success; any mismatch prints FAIL
 * and exits non-zero.
 */

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>

static int rank, nprocs, failures;
static const char *dir;

/* every rank reports its failures and goes on */
#define CHECK_FAIL(...)                                                      \
    (fprintf(stderr, "FAIL rank %d: ", rank), fprintf(stderr, __VA_ARGS__),  \
     fprintf(stderr, "\n"), failures++)
#include "check.h"
#include "mpi_pvar.h"

#define MPI_OK(call) do {                                             \
        int rc_ = (call);                                             \
        if (MPI_SUCCESS != rc_) {                                     \
            char s_[MPI_MAX_ERROR_STRING]; int l_;                    \
            MPI_Error_string(rc_, s_, &l_);                           \
            fprintf(stderr, "FAIL rank %d: %s: %s\n", rank, #call, s_); \
            MPI_Abort(MPI_COMM_WORLD, 2);                             \
        }                                                             \
    } while (0)

/* the same sequence on every rank for a given seed */
static uint64_t rng_state;
static uint64_t rng(void)
{
    return test_rand(&rng_state);
}

static unsigned char bg_byte(int64_t off) { return (unsigned char) ((off * 13) ^ 0x55); }

/* One test case: a view and a memory layout for this rank. */
typedef struct {
    const char *name;
    MPI_Offset disp;
    MPI_Datatype etype, ftype;   /* ftype MPI_DATATYPE_NULL: etype */
    MPI_Datatype mtype;
    int mcount;
    int parts;                   /* number of collective calls */
    int64_t cmp_lo, cmp_hi;      /* compare only this range when hi > 0 */
    int overlap;                 /* erroneous overlapping case: no reference */
} tcase_t;

static void fill_background(const char *path, int64_t size)
{
    int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
    char *b = malloc(1 << 16);
    int64_t off = 0;
    if (fd < 0 || NULL == b) {
        fprintf(stderr, "FAIL: cannot create %s\n", path);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    while (off < size) {
        int64_t n = size - off < (1 << 16) ? size - off : (1 << 16), i;
        for (i = 0; i < n; i++) {
            b[i] = (char) bg_byte(off + i);
        }
        if (pwrite(fd, b, (size_t) n, off) != n) {
            fprintf(stderr, "FAIL: pwrite %s\n", path);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        off += n;
    }
    free(b);
    close(fd);
}

/* Rank 0: the two files must be identical (over [lo, hi) when hi > 0). */
static int compare_files(const char *a, const char *b, int64_t lo, int64_t hi)
{
    struct stat sa, sb;
    int fa, fb, bad = 0;
    char *x = malloc(1 << 20), *y = malloc(1 << 20);
    if (stat(a, &sa) || stat(b, &sb)) {
        fprintf(stderr, "FAIL: stat\n");
        return 1;
    }
    if (sa.st_size != sb.st_size) {
        fprintf(stderr, "FAIL: sizes differ: reference %lld, collective %lld\n",
                (long long) sa.st_size, (long long) sb.st_size);
        return 1;
    }
    if (hi <= 0) {
        lo = 0;
        hi = sa.st_size;
    }
    fa = open(a, O_RDONLY);
    fb = open(b, O_RDONLY);
    while (lo < hi && !bad) {
        int64_t n = hi - lo < (1 << 20) ? hi - lo : (1 << 20);
        ssize_t ra = pread(fa, x, (size_t) n, lo), rb = pread(fb, y, (size_t) n, lo);
        if (ra != rb) {
            fprintf(stderr, "FAIL: short read at %lld\n", (long long) lo);
            bad = 1;
            break;
        }
        if (ra <= 0) {
            break;
        }
        if (memcmp(x, y, (size_t) ra)) {
            int64_t i;
            for (i = 0; i < ra && x[i] == y[i]; i++) {
            }
            fprintf(stderr, "FAIL: files differ at byte %lld (reference %02x, "
                    "collective %02x)\n", (long long) (lo + i),
                    (unsigned char) x[i], (unsigned char) y[i]);
            bad = 1;
        }
        lo += ra;
    }
    close(fa);
    close(fb);
    free(x);
    free(y);
    return bad;
}

static void run_case(tcase_t *t)
{
    char ref[4096], col[4096];
    int tsize, i, bad = 0, gbad = 0, pos;
    MPI_Aint lb, extent, tlb, textent;
    int64_t nbytes, memsize, ub = 0, gub = 0;
    unsigned char *stream, *wbuf, *rbuf, *tmpl;
    MPI_File fh;
    MPI_Status st;
    MPI_Datatype ftype = (MPI_DATATYPE_NULL == t->ftype) ? t->etype : t->ftype;

    snprintf(ref, sizeof(ref), "%s/ref-%s", dir, t->name);
    snprintf(col, sizeof(col), "%s/col-%s", dir, t->name);

    MPI_Type_size(t->mtype, &tsize);
    MPI_Type_get_extent(t->mtype, &lb, &extent);
    MPI_Type_get_true_extent(t->mtype, &tlb, &textent);
    nbytes = (int64_t) tsize * t->mcount;
    memsize = t->mcount > 0 ? (int64_t) extent * (t->mcount - 1) + tlb + textent : 1;
    if (memsize < 1) {
        memsize = 1;
    }

    /* the data stream: bytes depend on rank and position */
    stream = malloc((size_t) (nbytes > 0 ? nbytes : 1));
    for (i = 0; i < nbytes; i++) {
        stream[i] = (unsigned char) (rank * 131 + i * 7 + (i >> 8) + 1);
    }
    wbuf = malloc((size_t) memsize);
    rbuf = malloc((size_t) memsize);
    tmpl = malloc((size_t) memsize);
    memset(wbuf, 0xC3, (size_t) memsize);
    memset(tmpl, 0x5A, (size_t) memsize);
    memset(rbuf, 0x5A, (size_t) memsize);
    pos = 0;
    if (nbytes > 0) {
        MPI_Unpack(stream, (int) nbytes, &pos, wbuf, t->mcount, t->mtype, MPI_COMM_SELF);
        pos = 0;
        MPI_Unpack(stream, (int) nbytes, &pos, tmpl, t->mcount, t->mtype, MPI_COMM_SELF);
    }

    /* background size: past the end of every view */
    if (t->cmp_hi <= 0) {
        int fsz;
        MPI_Aint flb, fext;
        MPI_Type_size(ftype, &fsz);
        MPI_Type_get_extent(ftype, &flb, &fext);
        if (fsz > 0) {
            ub = t->disp + ((nbytes + fsz - 1) / fsz + 1) * (int64_t) fext;
        }
        MPI_Allreduce(&ub, &gub, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
    }
    if (0 == rank) {
        fill_background(ref, gub);
        fill_background(col, gub);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* reference: independent writes through the same view */
    if (!t->overlap) {
        MPI_OK(MPI_File_open(MPI_COMM_WORLD, ref, MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
        MPI_OK(MPI_File_set_view(fh, t->disp, t->etype, ftype, "native", MPI_INFO_NULL));
        if (nbytes > 0) {
            MPI_OK(MPI_File_write(fh, wbuf, t->mcount, t->mtype, &st));
        }
        MPI_OK(MPI_File_close(&fh));
    }

    /* collective write, in t->parts calls */
    MPI_OK(MPI_File_open(MPI_COMM_WORLD, col, MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    MPI_OK(MPI_File_set_view(fh, t->disp, t->etype, ftype, "native", MPI_INFO_NULL));
    {
        int done = 0, p;
        for (p = 0; p < t->parts; p++) {
            int n = (p == t->parts - 1) ? t->mcount - done : t->mcount / t->parts;
            int cnt = -1;
            MPI_OK(MPI_File_write_all(fh, wbuf + (MPI_Aint) done * extent, n, t->mtype, &st));
            MPI_Get_count(&st, t->mtype, &cnt);
            CHECK(cnt == n, "%s: write_all status count %d, expected %d", t->name, cnt, n);
            done += n;
        }
    }
    MPI_OK(MPI_File_close(&fh));
    MPI_Barrier(MPI_COMM_WORLD);

    if (0 == rank && !t->overlap) {
        bad = compare_files(ref, col, t->cmp_lo, t->cmp_hi);
        if (bad) {
            fprintf(stderr, "FAIL: %s: collective write differs from the reference\n", t->name);
        }
    }

    /* collective read back */
    MPI_OK(MPI_File_open(MPI_COMM_WORLD, col, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
    MPI_OK(MPI_File_set_view(fh, t->disp, t->etype, ftype, "native", MPI_INFO_NULL));
    {
        int done = 0, p;
        for (p = 0; p < t->parts; p++) {
            int n = (p == t->parts - 1) ? t->mcount - done : t->mcount / t->parts;
            MPI_OK(MPI_File_read_all(fh, rbuf + (MPI_Aint) done * extent, n, t->mtype, &st));
            done += n;
        }
    }
    MPI_OK(MPI_File_close(&fh));
    if (!t->overlap) {
        if (memcmp(rbuf, tmpl, (size_t) memsize)) {
            int64_t k;
            for (k = 0; k < memsize && rbuf[k] == tmpl[k]; k++) {
            }
            fprintf(stderr, "FAIL rank %d: %s: read_all byte %lld of the buffer is %02x, "
                    "expected %02x\n", rank, t->name, (long long) k, rbuf[k], tmpl[k]);
            bad = 1;
        }
    } else {
        /* erroneous overlap: only check that the gaps stayed untouched */
        int64_t k;
        for (k = 0; k < memsize; k++) {
            if (tmpl[k] == 0x5A && rbuf[k] != 0x5A && wbuf[k] == 0xC3) {
                bad = 1;
            }
        }
    }
    MPI_Allreduce(&bad, &gbad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (0 == rank) {
        printf("case %-16s %s (%lld bytes on rank 0)\n", t->name, gbad ? "FAIL" : "ok",
               (long long) nbytes);
        fflush(stdout);
        if (!getenv("KEEP_FILES")) {
            unlink(ref);
            unlink(col);
        }
    }
    failures += gbad && 0 == rank;
    if (gbad && rank != 0) {
        failures++;
    }
    free(stream);
    free(wbuf);
    free(rbuf);
    free(tmpl);
}

static void free_case(tcase_t *t)
{
    if (MPI_DATATYPE_NULL != t->ftype) {
        MPI_Type_free(&t->ftype);
    }
    if (t->mtype != MPI_BYTE && t->mtype != MPI_INT && t->mtype != MPI_DOUBLE) {
        MPI_Type_free(&t->mtype);
    }
}

static tcase_t base_case(const char *name)
{
    tcase_t t;
    memset(&t, 0, sizeof(t));
    t.name = name;
    t.etype = MPI_BYTE;
    t.ftype = MPI_DATATYPE_NULL;
    t.mtype = MPI_BYTE;
    t.parts = 1;
    return t;
}

/* contiguous blocks of different sizes (empty ranks when with_empty) */
static void case_contig(const char *name, int64_t unit, int with_empty)
{
    tcase_t t = base_case(name);
    int64_t off = 0, r;
    for (r = 0; r < nprocs; r++) {
        int64_t n = unit + (unit / 3) * r;
        if (with_empty && r % 3 == 1) {
            n = 0;
        }
        if (r == rank) {
            t.disp = off;
            t.mcount = (int) n;
        }
        off += n;
    }
    run_case(&t);
}

/* interleaved records of rec bytes, written in three calls */
static void case_interleaved(const char *name, int rec, int nrec, MPI_Offset base)
{
    tcase_t t = base_case(name);
    MPI_Datatype c;
    MPI_Type_contiguous(rec, MPI_BYTE, &c);
    MPI_Type_create_resized(c, 0, (MPI_Aint) rec * nprocs, &t.ftype);
    MPI_Type_commit(&t.ftype);
    MPI_Type_free(&c);
    t.disp = base + (MPI_Offset) rank * rec;
    t.mcount = rec * nrec;
    t.parts = 3;            /* calls that end inside a record */
    if (base > 0) {
        t.cmp_lo = base;
        t.cmp_hi = base + (int64_t) rec * nrec * nprocs + 4096;
    }
    run_case(&t);
    free_case(&t);
}

/* This rank's runs of an irregular indexed view. */
typedef struct {
    int n, cap;
    int *bl;
    MPI_Aint *dp;
    int64_t total;   /* bytes */
} runs_t;

static void runs_init(runs_t *r, int cap)
{
    r->n = 0;
    r->cap = cap;
    r->bl = malloc(cap * sizeof(int));
    r->dp = malloc(cap * sizeof(MPI_Aint));
    r->total = 0;
}

static void runs_add(runs_t *r, int len, int64_t off)
{
    if (r->n == r->cap) {
        r->cap *= 2;
        r->bl = realloc(r->bl, r->cap * sizeof(int));
        r->dp = realloc(r->dp, r->cap * sizeof(MPI_Aint));
    }
    r->bl[r->n] = len;
    r->dp[r->n] = (MPI_Aint) off;
    r->n++;
    r->total += len;
}

/* t's file type from the runs (when there are any) */
static int runs_view(const runs_t *r, tcase_t *t)
{
    if (r->n > 0) {
        MPI_Type_create_hindexed(r->n, r->bl, r->dp, MPI_BYTE, &t->ftype);
        MPI_Type_commit(&t->ftype);
    }
    return r->n > 0;
}

static void runs_free(runs_t *r)
{
    free(r->bl);
    free(r->dp);
}

/* irregular indexed view with holes; memory every other byte */
static void case_indexed(const char *name, uint64_t seed, int evens_only)
{
    tcase_t t = base_case(name);
    runs_t runs;
    int i;
    int64_t off = 0;
    runs_init(&runs, 4096);
    rng_state = seed;
    for (i = 0; i < 3000; i++) {
        int len = 1 + (int) (rng() % 300);
        int gap = (rng() % 4 == 0) ? (int) (rng() % 50) : 0;
        int owner = (int) (rng() % (uint64_t) (nprocs + 1)) - 1;  /* -1: a hole */
        off += gap;
        if (evens_only && owner % 2 == 1) {
            owner = -1;
        }
        if (owner == rank) {
            runs_add(&runs, len, off);
        }
        off += len;
    }
    if (runs_view(&runs, &t)) {
        MPI_Type_vector((int) runs.total, 1, 2, MPI_BYTE, &t.mtype);
        MPI_Type_commit(&t.mtype);
        t.mcount = 1;
    } else {
        t.mcount = 0;       /* empty rank: zero-byte collective call */
    }
    run_case(&t);
    free_case(&t);
    runs_free(&runs);
}

/* Random cases: chunk sizes, holes, owners (often a rank other than the
 * region's default aggregator), a strided memory layout, displacement and
 * number of calls all drawn from the seed. */
static void case_fuzz(uint64_t seed)
{
    static char name[64];
    tcase_t t;
    int nchunks, maxlen, holes, stride, shift, i;
    runs_t runs;
    int64_t off = 0;
    const int maxlens[4] = {4, 64, 700, 9000};
    snprintf(name, sizeof(name), "fuzz-%llu", (unsigned long long) seed);
    t = base_case(name);
    runs_init(&runs, 1024);
    rng_state = seed;
    nchunks = 1 + (int) (rng() % 1500);
    maxlen = maxlens[rng() % 4];
    holes = (int) (rng() % 3);              /* 0: none, 1: some, 2: many */
    stride = 1 + (int) (rng() % 3);
    shift = (int) (rng() % (uint64_t) nprocs);
    t.disp = (MPI_Offset) (rng() % 10000);
    t.parts = 1 + (int) (rng() % 3);
    for (i = 0; i < nchunks; i++) {
        int len = 1 + (int) (rng() % (uint64_t) maxlen);
        int owner;
        if (holes && rng() % (holes == 1 ? 8 : 2) == 0) {
            off += (int64_t) (rng() % (uint64_t) (2 * maxlen));
        }
        if (rng() % 10 < 7) {   /* locality: region i*P/nchunks, shifted */
            owner = (int) (((int64_t) i * nprocs / nchunks + shift) % nprocs);
        } else {
            owner = (int) (rng() % (uint64_t) nprocs);
        }
        if (owner == rank) {
            runs_add(&runs, len, off);
        }
        off += len;
    }
    if (runs_view(&runs, &t)) {
        MPI_Type_create_resized(MPI_BYTE, 0, stride, &t.mtype);
        MPI_Type_commit(&t.mtype);
        t.mcount = (int) runs.total;
    } else {
        t.mcount = 0;
        t.parts = 1;
    }
    run_case(&t);
    free_case(&t);
    runs_free(&runs);
}

/* 2-D subarray of doubles; memory has a ghost layer of width 1 */
static void case_subarray2d(void)
{
    tcase_t t = base_case("subarray2d");
    int dims[2] = {0, 0}, gs[2], ls[2], st[2], ms[2], mst[2] = {1, 1}, c[2];
    MPI_Dims_create(nprocs, 2, dims);
    c[0] = rank / dims[1];
    c[1] = rank % dims[1];
    ls[0] = 37 + c[0] % 2;
    ls[1] = 29 + (c[1] * 5) % 3;
    gs[0] = 0;
    gs[1] = 0;
    {
        int i;
        st[0] = 0;
        st[1] = 0;
        for (i = 0; i < dims[0]; i++) {
            if (i < c[0]) st[0] += 37 + i % 2;
            gs[0] += 37 + i % 2;
        }
        for (i = 0; i < dims[1]; i++) {
            if (i < c[1]) st[1] += 29 + (i * 5) % 3;
            gs[1] += 29 + (i * 5) % 3;
        }
    }
    MPI_Type_create_subarray(2, gs, ls, st, MPI_ORDER_C, MPI_DOUBLE, &t.ftype);
    MPI_Type_commit(&t.ftype);
    ms[0] = ls[0] + 2;
    ms[1] = ls[1] + 2;
    MPI_Type_create_subarray(2, ms, ls, mst, MPI_ORDER_C, MPI_DOUBLE, &t.mtype);
    MPI_Type_commit(&t.mtype);
    t.etype = MPI_DOUBLE;
    t.mcount = 1;
    t.disp = 64;
    run_case(&t);
    free_case(&t);
}

/* 3-D subarray of ints, uneven blocks, Fortran order */
static void case_subarray3d(void)
{
    tcase_t t = base_case("subarray3d");
    int dims[3] = {0, 0, 0}, gs[3], ls[3], st[3], c[3], d, i;
    const int base[3] = {9, 11, 13};
    MPI_Dims_create(nprocs, 3, dims);
    c[0] = rank / (dims[1] * dims[2]);
    c[1] = (rank / dims[2]) % dims[1];
    c[2] = rank % dims[2];
    for (d = 0; d < 3; d++) {
        gs[d] = 0;
        st[d] = 0;
        for (i = 0; i < dims[d]; i++) {
            int sz = base[d] + (i + d) % 2;
            if (i < c[d]) st[d] += sz;
            gs[d] += sz;
        }
        ls[d] = base[d] + (c[d] + d) % 2;
    }
    MPI_Type_create_subarray(3, gs, ls, st, MPI_ORDER_FORTRAN, MPI_INT, &t.ftype);
    MPI_Type_commit(&t.ftype);
    t.etype = MPI_INT;
    t.mtype = MPI_INT;
    t.mcount = ls[0] * ls[1] * ls[2];
    t.parts = 2;
    run_case(&t);
    free_case(&t);
}

/* block-cyclic 2-D darray of ints */
static void case_darray(void)
{
    tcase_t t = base_case("darray");
    int dims[2] = {0, 0}, gs[2], dist[2] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_CYCLIC};
    int dargs[2] = {3, 2}, sz;
    MPI_Dims_create(nprocs, 2, dims);
    gs[0] = dims[0] * 3 * 5 + 4;
    gs[1] = dims[1] * 2 * 7 + 1;
    MPI_Type_create_darray(nprocs, rank, 2, gs, dist, dargs, dims, MPI_ORDER_C, MPI_INT,
                           &t.ftype);
    MPI_Type_commit(&t.ftype);
    MPI_Type_size(t.ftype, &sz);
    t.etype = MPI_INT;
    t.mtype = MPI_INT;
    t.mcount = sz / (int) sizeof(int);
    run_case(&t);
    free_case(&t);
}

/* every rank writes 0 bytes */
static void case_zero(void)
{
    tcase_t t = base_case("zero");
    t.disp = 1000 * rank;
    t.mcount = 0;
    run_case(&t);
}

/* erroneous overlapping writes: must not crash, must return success */
static void case_overlap(void)
{
    tcase_t t = base_case("overlap");
    t.disp = 100 * rank;
    t.mcount = 5000;
    t.overlap = 1;
    run_case(&t);
}

/* Overlapping reads are legal: every rank reads the same 300000 bytes
 * (shifted by 1000 * rank) of a file written with plain POSIX. */
static void case_shared_read(void)
{
    char path[4096];
    const int n = 300000;
    unsigned char *b = malloc(n);
    int i, bad = 0, gbad = 0;
    MPI_File fh;
    snprintf(path, sizeof(path), "%s/shared", dir);
    if (0 == rank) {
        fill_background(path, n + 1000 * nprocs);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
    MPI_OK(MPI_File_read_at_all(fh, 1000 * rank, b, n, MPI_BYTE, MPI_STATUS_IGNORE));
    MPI_OK(MPI_File_close(&fh));
    for (i = 0; i < n; i++) {
        if (b[i] != bg_byte(1000 * rank + i)) {
            fprintf(stderr, "FAIL rank %d: shared read: byte %d is %02x, expected %02x\n",
                    rank, i, b[i], bg_byte(1000 * rank + i));
            bad = 1;
            break;
        }
    }
    MPI_Allreduce(&bad, &gbad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (0 == rank) {
        printf("case %-16s %s (%d bytes on rank 0)\n", "shared-read", gbad ? "FAIL" : "ok", n);
        unlink(path);
    }
    failures += gbad;
    free(b);
}

/* A read through a view whose filetype copies overlap one another: 64
 * bytes, extent 32 (Open MPI accepts it, the type itself being monotonic;
 * every byte but the ends is read twice).  Such a view is not an
 * increasing list of disjoint pieces, so la_twophase plans it on its
 * general path (split, sort); the data must come out as the view says. */
static void case_overlap_view_read(void)
{
    char path[4096];
    const int nb = 20000, blen = 64, step = 32;
    int i, k, bad = 0, gbad = 0;
    unsigned char *b = malloc((size_t) nb * blen);
    MPI_Offset disp = (MPI_Offset) rank * nb * step;
    MPI_Datatype c, ft;
    MPI_File fh;

    snprintf(path, sizeof(path), "%s/overlap-view", dir);
    if (0 == rank) {
        fill_background(path, (int64_t) nprocs * nb * step + 4096);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Type_contiguous(blen, MPI_BYTE, &c);
    MPI_Type_create_resized(c, 0, step, &ft);
    MPI_Type_commit(&ft);
    memset(b, 0, (size_t) nb * blen);
    MPI_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
    MPI_OK(MPI_File_set_view(fh, disp, MPI_BYTE, ft, "native", MPI_INFO_NULL));
    MPI_OK(MPI_File_read_all(fh, b, nb * blen, MPI_BYTE, MPI_STATUS_IGNORE));
    MPI_OK(MPI_File_close(&fh));
    for (k = 0; k < nb && !bad; k++) {
        for (i = 0; i < blen; i++) {
            unsigned char want = bg_byte(disp + (int64_t) k * step + i);
            if (b[(size_t) k * blen + i] != want) {
                fprintf(stderr, "FAIL rank %d: overlap-view read: copy %d byte %d is %02x, "
                        "expected %02x\n", rank, k, i, b[(size_t) k * blen + i], want);
                bad = 1;
                break;
            }
        }
    }
    MPI_Allreduce(&bad, &gbad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (0 == rank) {
        printf("case %-16s %s (%d bytes on rank 0)\n", "overlap-view", gbad ? "FAIL" : "ok",
               nb * blen);
        unlink(path);
    }
    failures += gbad;
    MPI_Type_free(&ft);
    MPI_Type_free(&c);
    free(b);
}

/* ------------------------------------------------------------ MPI_T */

/* Open MPI reports a counter (class COUNTER/TIMER) through a handle as what
 * accumulated since the handle was allocated, so the handles of the
 * counters are allocated once, before the calls, and kept. */
#define MAX_H 16
static const char *h_names[MAX_H];
static MPI_T_pvar_handle h_handles[MAX_H];
static int h_num;

static double pvar_read(MPI_T_pvar_session ses, const char *name)
{
    int k, count;
    double v = -1.0;
    for (k = 0; k < h_num && strcmp(h_names[k], name); k++) {
    }
    if (k == h_num) {
        int idx = test_pvar_index(name, NULL, NULL);
        if (idx < 0 || h_num == MAX_H) {
            CHECK(0, "performance variable %s not found", name);
            return -1.0;
        }
        MPI_T_pvar_handle_alloc(ses, idx, NULL, &h_handles[k], &count);
        h_names[k] = name;
        h_num++;
    }
    if (strstr(name, "time")) {
        MPI_T_pvar_read(ses, h_handles[k], &v);
    } else {
        unsigned long long u = 0;
        MPI_T_pvar_read(ses, h_handles[k], &u);
        v = (double) u;
    }
    return v;
}

/* Free the handles pvar_read allocated, then the session. */
static void pvar_end(MPI_T_pvar_session *ses)
{
    int i;
    for (i = 0; i < h_num; i++) {
        MPI_T_pvar_handle_free(*ses, &h_handles[i]);
    }
    h_num = 0;
    MPI_T_pvar_session_free(ses);
}

/* Every rank fails when one did. */
static void agree_failures(void)
{
    int bad = 0;
    MPI_Allreduce(&failures, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    failures = bad;
}

/* Rank r writes n bytes at ((r + 1) % P) * n: the default aggregator of
 * domain d (rank d) holds nothing of it, rank d - 1 holds all of it. */
static void test_pvars(const char *mode, long maxbuf)
{
    const int n = 256 * 1024;
    char path[4096];
    unsigned char *b = malloc(n), *rb = malloc(n);
    MPI_File fh;
    MPI_T_pvar_session ses;
    int provided, i;
    double ex1, in1, as0, as1, hits0, hits1, t1, msgs1, ex2, as2, tot0, db0;
    MPI_Offset off = (MPI_Offset) ((rank + 1) % nprocs) * n;

    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    for (i = 0; i < n; i++) {
        b[i] = (unsigned char) (rank + 3 * i);
    }
    snprintf(path, sizeof(path), "%s/pvars", dir);
    MPI_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_CREATE,
                         MPI_INFO_NULL, &fh));
    MPI_T_pvar_session_create(&ses);
    tot0 = pvar_read(ses, "fcoll_la_twophase_bytes_exchanged");
    as0 = pvar_read(ses, "fcoll_la_twophase_assignments");
    hits0 = pvar_read(ses, "fcoll_la_twophase_cache_hits");
    db0 = pvar_read(ses, "fcoll_la_twophase_default_by_bound");
    MPI_OK(MPI_File_write_at_all(fh, off, b, n, MPI_BYTE, MPI_STATUS_IGNORE));
    if (maxbuf > 0) {
        /* the cycle buffer bounds the aggregator's data memory: a domain
         * of 256 KiB goes through a buffer of maxbuf bytes */
        double bl = pvar_read(ses, "fcoll_la_twophase_buffer_last");
        CHECK(bl > 0 && bl <= maxbuf, "buffer_last %g, cycle buffer size %ld", bl, maxbuf);
    }
    ex1 = pvar_read(ses, "fcoll_la_twophase_bytes_exchanged_last");
    in1 = pvar_read(ses, "fcoll_la_twophase_bytes_in_place_last");
    msgs1 = pvar_read(ses, "fcoll_la_twophase_messages_last");
    as1 = pvar_read(ses, "fcoll_la_twophase_assignments");
    t1 = pvar_read(ses, "fcoll_la_twophase_assign_time_last");
    if (0 == strcmp(mode, "nolap")) {
        /* fcoll_la_twophase_assign false: two_phase's list, no assignment
         * step at all (no collective, nothing counted or timed) */
        CHECK(as1 == as0 && t1 == 0.0, "nolap: assignments %g -> %g, assign_time_last %g",
              as0, as1, t1);
    } else {
        CHECK(as1 == as0 + 1, "first call: assignments %g -> %g", as0, as1);
        CHECK(t1 > 0.0, "assign_time_last is %g", t1);
    }
    /* the same layout again: the assignment must come from the cache */
    MPI_OK(MPI_File_write_at_all(fh, off, b, n, MPI_BYTE, MPI_STATUS_IGNORE));
    ex2 = pvar_read(ses, "fcoll_la_twophase_bytes_exchanged_last");
    as2 = pvar_read(ses, "fcoll_la_twophase_assignments");
    hits1 = pvar_read(ses, "fcoll_la_twophase_cache_hits");
    if (0 != strcmp(mode, "nolap")) {
        CHECK(as2 == as1 && hits1 == hits0 + 1,
              "second identical call: assignments %g -> %g, cache hits %g -> %g",
              as1, as2, hits0, hits1);
    }
    CHECK(ex2 == ex1, "second identical call moved %g bytes, the first %g", ex2, ex1);
    CHECK(pvar_read(ses, "fcoll_la_twophase_bytes_exchanged") - tot0 == ex1 + ex2,
          "bytes_exchanged total grew by %g, the two calls moved %g",
          pvar_read(ses, "fcoll_la_twophase_bytes_exchanged") - tot0, ex1 + ex2);
    /* a layout in which rank 0 writes nothing: its gains differ (in bytes
     * and in pieces), so the list is decided again.  (A change that keeps
     * every gain, such as a shorter piece under cost=blocks, rightly
     * reuses the list: the assignment depends on the gains alone.) */
    MPI_OK(MPI_File_write_at_all(fh, off, b, 0 == rank ? 0 : n, MPI_BYTE,
                                 MPI_STATUS_IGNORE));
    if (0 != strcmp(mode, "nolap")) {
        CHECK(pvar_read(ses, "fcoll_la_twophase_assignments") == as2 + 1 &&
              pvar_read(ses, "fcoll_la_twophase_cache_hits") == hits1,
              "a changed layout reused the cached assignment");
    }
    MPI_OK(MPI_File_write_at_all(fh, off, b, n, MPI_BYTE, MPI_STATUS_IGNORE));

    if (0 == strcmp(mode, "lap")) {
        /* every domain goes to the rank that holds it */
        CHECK(ex1 == 0 && in1 == n && msgs1 == 0,
              "lap: exchanged %g in place %g messages %g (expected 0 %d 0)",
              ex1, in1, msgs1, n);
    } else if (0 == strcmp(mode, "bound")) {
        /* run with fcoll_la_twophase_min_gain above what the LAP could
         * gain (P * n bytes: every domain's whole data): the standard list,
         * chosen by the bound with no solve, moves everything as nolap */
        CHECK(nprocs == 1 || (ex1 == n && in1 == 0 && msgs1 >= 1),
              "bound: exchanged %g in place %g messages %g (expected %d 0 >=1)",
              ex1, in1, msgs1, n);
        CHECK(nprocs == 1 ||
              pvar_read(ses, "fcoll_la_twophase_gain_bound_last") == (double) nprocs * n,
              "bound: gain_bound_last %g, expected %g",
              pvar_read(ses, "fcoll_la_twophase_gain_bound_last"), (double) nprocs * n);
        CHECK(pvar_read(ses, "fcoll_la_twophase_default_by_bound") - db0 == 3,
              "bound: default_by_bound grew by %g over three decisions",
              pvar_read(ses, "fcoll_la_twophase_default_by_bound") - db0);
    } else if (0 == strcmp(mode, "interleaved")) {
        /* records of 64 bytes dealt round-robin: every domain holds every
         * rank's data in equal shares, nothing can be gained, so the bound
         * is 0 and the standard list is taken without a solve; the same
         * layout again is a cache hit */
        MPI_Datatype c, ft;
        double db1, as3, h3, gb;
        MPI_Type_contiguous(64, MPI_BYTE, &c);
        MPI_Type_create_resized(c, 0, 64 * nprocs, &ft);
        MPI_Type_commit(&ft);
        MPI_OK(MPI_File_set_view(fh, 64 * rank, MPI_BYTE, ft, "native", MPI_INFO_NULL));
        db1 = pvar_read(ses, "fcoll_la_twophase_default_by_bound");
        as3 = pvar_read(ses, "fcoll_la_twophase_assignments");
        MPI_OK(MPI_File_write_all(fh, b, n, MPI_BYTE, MPI_STATUS_IGNORE));
        gb = pvar_read(ses, "fcoll_la_twophase_gain_bound_last");
        CHECK(gb == 0.0, "interleaved: gain_bound_last %g, expected 0", gb);
        CHECK(pvar_read(ses, "fcoll_la_twophase_default_by_bound") == db1 + 1 &&
              pvar_read(ses, "fcoll_la_twophase_assignments") == as3 + 1,
              "interleaved: the list was not decided by the bound");
        CHECK(nprocs == 1 ||
              pvar_read(ses, "fcoll_la_twophase_bytes_in_place_last") == (double) n / nprocs,
              "interleaved: in place %g, expected %g",
              pvar_read(ses, "fcoll_la_twophase_bytes_in_place_last"), (double) n / nprocs);
        h3 = pvar_read(ses, "fcoll_la_twophase_cache_hits");
        MPI_OK(MPI_File_write_all(fh, b, n, MPI_BYTE, MPI_STATUS_IGNORE));
        CHECK(pvar_read(ses, "fcoll_la_twophase_cache_hits") == h3 + 1 &&
              pvar_read(ses, "fcoll_la_twophase_default_by_bound") == db1 + 1,
              "interleaved: the same layout again was not a cache hit");
        memset(rb, 0, n);
        MPI_OK(MPI_File_read_at_all(fh, 0, rb, n, MPI_BYTE, MPI_STATUS_IGNORE));
        CHECK(0 == memcmp(rb, b, n), "interleaved: read back differs");
        MPI_Type_free(&ft);
        MPI_Type_free(&c);
        MPI_OK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    } else if (0 == strcmp(mode, "probe")) {
        /* run with read_probe_min 1 and read_self_min 1 GiB: every read is
         * the probe's; the first goes through the aggregators, the second
         * is served by each process itself, every one returns the data */
        double pr0 = pvar_read(ses, "fcoll_la_twophase_probe_reads");
        double sr0 = pvar_read(ses, "fcoll_la_twophase_self_reads");
        int k;
        for (k = 0; k < 4; k++) {
            memset(rb, 0, n);
            MPI_OK(MPI_File_read_at_all(fh, off, rb, n, MPI_BYTE, MPI_STATUS_IGNORE));
            CHECK(0 == memcmp(rb, b, n), "probe: read %d differs", k);
            if (0 == k) {
                CHECK(pvar_read(ses, "fcoll_la_twophase_self_reads") == sr0,
                      "probe: the first read was served by the process itself");
            } else if (1 == k) {
                CHECK(pvar_read(ses, "fcoll_la_twophase_self_reads") == sr0 + 1,
                      "probe: the second read was not served by the process itself");
            }
        }
        CHECK(pvar_read(ses, "fcoll_la_twophase_probe_reads") == pr0 + 4,
              "probe: probe_reads grew by %g over 4 reads",
              pvar_read(ses, "fcoll_la_twophase_probe_reads") - pr0);
    } else if (0 == strcmp(mode, "nolap")) {
        CHECK(nprocs == 1 || (ex1 == n && in1 == 0 && msgs1 >= 1),
              "nolap: exchanged %g in place %g messages %g (expected %d 0 >=1)",
              ex1, in1, msgs1, n);
    } else if (0 == strncmp(mode, "node", 4)) {
        /* nodeK: nodes of K ranks (fcoll_la_twophase_node_size K); node0:
         * the real node detection, all ranks on this one machine.  Records
         * interleaved over all ranks: every domain has data of every rank,
         * so every aggregator keeps some in place; at most one aggregator
         * per node, as many aggregators as nodes. */
        MPI_Datatype c, ft;
        int agg, *all = malloc(nprocs * sizeof(int)), k, j;
        int K = atoi(mode + 4) > 0 ? atoi(mode + 4) : nprocs;
        int nnodes = (nprocs + K - 1) / K, naggs = 0;
        MPI_Type_contiguous(64, MPI_BYTE, &c);
        MPI_Type_create_resized(c, 0, 64 * nprocs, &ft);
        MPI_Type_commit(&ft);
        MPI_OK(MPI_File_set_view(fh, 64 * rank, MPI_BYTE, ft, "native", MPI_INFO_NULL));
        MPI_OK(MPI_File_write_all(fh, b, n, MPI_BYTE, MPI_STATUS_IGNORE));
        agg = pvar_read(ses, "fcoll_la_twophase_bytes_in_place_last") > 0;
        MPI_Allgather(&agg, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
        for (k = 0; k < nprocs; k += K) {
            int here = 0;
            for (j = k; j < k + K && j < nprocs; j++) {
                here += all[j];
            }
            CHECK(here <= 1, "%s: %d aggregators on the node of ranks %d..%d", mode, here,
                  k, k + K - 1);
            naggs += here;
        }
        CHECK(naggs == nnodes, "%s: %d aggregators, expected %d", mode, naggs, nnodes);
        MPI_Type_free(&ft);
        MPI_Type_free(&c);
        free(all);
        MPI_OK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    }
    /* and the data are right */
    memset(rb, 0, n);
    MPI_OK(MPI_File_read_at_all(fh, off, rb, n, MPI_BYTE, MPI_STATUS_IGNORE));
    /* (node and interleaved rewrote the file through their own view) */
    if (0 != strncmp(mode, "node", 4) && 0 != strcmp(mode, "interleaved")) {
        CHECK(0 == memcmp(rb, b, n), "pvars: read back differs");
    }
    pvar_end(&ses);
    MPI_OK(MPI_File_close(&fh));
    if (0 == rank) {
        printf("pvars %s: exchanged %g in place %g messages %g assign %.3f ms\n",
               mode, ex1, in1, msgs1, t1 * 1e3);
        unlink(path);
    }
    agree_failures();
    MPI_T_finalize();
    free(b);
    free(rb);
}

/* Records of rec bytes dealt round-robin, so every aggregator's window
 * holds every rank's data.  Mode "iov" (run with write_self_min 0): with
 * 64 KiB records each aggregator writes its window from a gather list (the
 * others' data received contiguously, its own from the user buffer), with
 * 64-byte records never (they average below write_iov_min); "noiov" (also
 * write_iov_min 0): never; "self" (defaults): with 64 KiB records every
 * process writes its own pieces itself, sending nothing, with 64-byte
 * records none does.  The file must hold every byte. */
static void test_records(const char *mode)
{
    int expect_iov = 0 == strcmp(mode, "iov"), expect_self = 0 == strcmp(mode, "self");
    const int n = 256 * 1024, recs[2] = { 65536, 64 };
    char path[4096];
    unsigned char *b = malloc(n), *rb = malloc(n), *all = NULL;
    MPI_File fh;
    MPI_T_pvar_session ses;
    int provided, i, k;

    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    snprintf(path, sizeof(path), "%s/iov", dir);
    MPI_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_CREATE,
                         MPI_INFO_NULL, &fh));
    MPI_T_pvar_session_create(&ses);
    for (k = 0; k < 2; k++) {
        int rec = recs[k];
        MPI_Datatype c, ft;
        double w0, w1, agg, s0, s1, ex;
        for (i = 0; i < n; i++) {
            b[i] = (unsigned char) (rank * 7 + 3 * i + k);
        }
        MPI_Type_contiguous(rec, MPI_BYTE, &c);
        MPI_Type_create_resized(c, 0, (MPI_Aint) rec * nprocs, &ft);
        MPI_Type_commit(&ft);
        MPI_OK(MPI_File_set_view(fh, (MPI_Offset) rec * rank, MPI_BYTE, ft, "native",
                                 MPI_INFO_NULL));
        w0 = pvar_read(ses, "fcoll_la_twophase_iov_windows");
        s0 = pvar_read(ses, "fcoll_la_twophase_self_writes");
        MPI_OK(MPI_File_write_at_all(fh, 0, b, n, MPI_BYTE, MPI_STATUS_IGNORE));
        w1 = pvar_read(ses, "fcoll_la_twophase_iov_windows");
        s1 = pvar_read(ses, "fcoll_la_twophase_self_writes");
        ex = pvar_read(ses, "fcoll_la_twophase_bytes_exchanged_last");
        if (0 == k && expect_self) {
            CHECK(s1 == s0 + 1 && ex == 0.0,
                  "records of %d: self_writes %g -> %g, %g bytes sent, expected a self-write",
                  rec, s0, s1, ex);
        } else {
            CHECK(s1 == s0, "records of %d: self_writes %g -> %g, expected no change", rec, s0,
                  s1);
        }
        /* an aggregator allocated a cycle buffer */
        agg = pvar_read(ses, "fcoll_la_twophase_buffer_last") > 0 ? 1.0 : 0.0;
        if (nprocs > 1 && 0 == k && expect_iov) {
            CHECK(w1 >= w0 + agg && (agg > 0 || w1 == w0),
                  "records of %d: iov_windows %g -> %g on %s", rec, w0, w1,
                  agg > 0 ? "an aggregator" : "a non-aggregator");
        } else {
            CHECK(w1 == w0, "records of %d: iov_windows %g -> %g, expected no change", rec,
                  w0, w1);
        }
        memset(rb, 0, n);
        MPI_OK(MPI_File_read_at_all(fh, 0, rb, n, MPI_BYTE, MPI_STATUS_IGNORE));
        CHECK(0 == memcmp(rb, b, n), "records of %d: read back differs", rec);
        MPI_OK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
        /* the whole file, as independent I/O sees it */
        if (0 == rank) {
            int64_t tot = (int64_t) n * nprocs, o;
            all = realloc(all, (size_t) tot);
            MPI_OK(MPI_File_read_at(fh, 0, all, (int) tot, MPI_BYTE, MPI_STATUS_IGNORE));
            for (o = 0; o < tot; o++) {
                int64_t r = (o / rec) % nprocs, pos = (o / rec / nprocs) * rec + o % rec;
                if (all[o] != (unsigned char) (r * 7 + 3 * pos + k)) {
                    CHECK(0, "records of %d: file byte %lld wrong", rec, (long long) o);
                    break;
                }
            }
        }
        MPI_Type_free(&ft);
        MPI_Type_free(&c);
    }
    pvar_end(&ses);
    MPI_OK(MPI_File_close(&fh));
    if (0 == rank) {
        unlink(path);
    }
    agree_failures();
    MPI_T_finalize();
    free(all);
    free(b);
    free(rb);
}

/* A write that the file system refuses must come back as an error of the
 * class that names the cause: /dev/full fails every write with ENOSPC. */
static void test_errors(void)
{
    MPI_File fh;
    int rc, cls = -1, n = 1 << 20, bad;
    char *b = calloc(1, n);
    rc = MPI_File_open(MPI_COMM_WORLD, "/dev/full", MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    if (MPI_SUCCESS != rc) {
        if (0 == rank) {
            printf("errors: cannot open /dev/full, skipped\n");
        }
        free(b);
        return;
    }
    rc = MPI_File_write_at_all(fh, (MPI_Offset) rank * n, b, n, MPI_BYTE, MPI_STATUS_IGNORE);
    if (MPI_SUCCESS != rc) {
        MPI_Error_class(rc, &cls);
    }
    CHECK(MPI_SUCCESS != rc, "write_all to /dev/full returned MPI_SUCCESS");
    CHECK(MPI_ERR_NO_SPACE == cls,
          "write_all to /dev/full: error class %d, expected MPI_ERR_NO_SPACE (%d)",
          cls, MPI_ERR_NO_SPACE);
    MPI_File_close(&fh);
    MPI_Allreduce(&failures, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    failures = bad;
    if (0 == rank) {
        printf("errors: write_all to /dev/full -> error class %d\n", cls);
    }
    free(b);
}

/* Reads that meet the end of the file: the status counts the bytes before
 * it and those bytes are right, in an interleaved view (blocks of B bytes,
 * rank r's the r-th of every nprocs) and with contiguous requests, the end
 * inside a block, on a block boundary, at 0 and past all requests. */
static unsigned char eof_byte(long off)
{
    return (unsigned char) (1 + off % 253);
}

static void eof_case(const char *name, long fsize, long B, long nblk, bool interleaved)
{
    char path[4096];
    MPI_File fh;
    MPI_Datatype ft = MPI_BYTE;
    MPI_Status st;
    long k, n = B * nblk, want = 0;
    unsigned char *buf = calloc(1, (size_t) n);
    int rc, cnt = -1;

    snprintf(path, sizeof(path), "%s/eof-%s", dir, name);
    if (0 == rank) {
        unsigned char *f = malloc((size_t) fsize + 1);
        int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
        for (k = 0; k < fsize; k++) {
            f[k] = eof_byte(k);
        }
        if (fd < 0 || write(fd, f, (size_t) fsize) != (ssize_t) fsize || 0 != close(fd)) {
            CHECK(0, "%s: cannot write %s", name, path);
        }
        free(f);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    CHECK(MPI_SUCCESS == rc, "%s: cannot open %s", name, path);
    if (MPI_SUCCESS != rc) {
        free(buf);
        return;
    }
    if (interleaved) {
        MPI_Type_vector((int) nblk, (int) B, (int) (B * nprocs), MPI_BYTE, &ft);
        MPI_Type_commit(&ft);
        MPI_File_set_view(fh, (MPI_Offset) rank * B, MPI_BYTE, ft, "native", MPI_INFO_NULL);
        rc = MPI_File_read_all(fh, buf, (int) n, MPI_BYTE, &st);
    } else {
        rc = MPI_File_read_at_all(fh, (MPI_Offset) rank * n, buf, (int) n, MPI_BYTE, &st);
    }
    CHECK(MPI_SUCCESS == rc, "%s: read_all failed", name);
    if (MPI_SUCCESS == rc) {
        MPI_Get_count(&st, MPI_BYTE, &cnt);
    }
    for (k = 0; k < n; k++) {
        long off = interleaved ? ((k / B) * nprocs + rank) * B + k % B : (long) rank * n + k;
        if (off >= fsize) {
            break;
        }
        want++;
        if (buf[k] != eof_byte(off)) {
            CHECK(0, "%s: byte %ld (file offset %ld) is %d, expected %d", name, k, off, buf[k],
                  eof_byte(off));
            break;
        }
    }
    CHECK(cnt == want, "%s: status count %d, expected %ld (file of %ld bytes)", name, cnt, want,
          fsize);
    if (interleaved) {
        MPI_Type_free(&ft);
    }
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        unlink(path);
        printf("case %s ok\n", name);
    }
    free(buf);
}

/* With the external32 representation the fcoll moves packed bytes: the
 * status must still count the caller's elements, written and read, and
 * a read that meets the end of the file the elements before it. */
static void eof_external32(void)
{
    char path[4096];
    MPI_File fh;
    MPI_Status st;
    long w[1000], r[1000];
    int i, cnt = -1, rc;

    snprintf(path, sizeof(path), "%s/eof-external32", dir);
    for (i = 0; i < 1000; i++) {
        w[i] = 1000L * rank + i;
    }
    rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    CHECK(MPI_SUCCESS == rc, "external32: cannot open %s", path);
    if (MPI_SUCCESS != rc) {
        return;
    }
    MPI_File_set_size(fh, 0);
    MPI_File_set_view(fh, 0, MPI_LONG, MPI_LONG, "external32", MPI_INFO_NULL);
    rc = MPI_File_write_at_all(fh, (MPI_Offset) rank * 1000, w, 1000, MPI_LONG, &st);
    MPI_Get_count(&st, MPI_LONG, &cnt);
    CHECK(MPI_SUCCESS == rc && 1000 == cnt, "external32: write_at_all count %d, expected 1000",
          cnt);
    MPI_File_set_size(fh, 0);
    if (0 == rank) {
        MPI_File_write_at(fh, 0, w, 700, MPI_LONG, &st);
    }
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);
    rc = MPI_File_read_at_all(fh, 0, r, 1000, MPI_LONG, &st);
    cnt = -1;
    MPI_Get_count(&st, MPI_LONG, &cnt);
    CHECK(MPI_SUCCESS == rc && 700 == cnt,
          "external32: read_at_all of 1000 longs, 700 in the file: count %d", cnt);
    for (i = 0; i < 700 && i < cnt; i++) {
        if (r[i] != i) {
            CHECK(0, "external32: long %d read back as %ld", i, r[i]);
            break;
        }
    }
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        unlink(path);
        printf("case external32 ok\n");
    }
}

static void test_eof(void)
{
    long B = 1000, nblk = 50, all = B * nblk * nprocs;
    eof_case("contig-mid", all / 2 + 17, B, nblk, false);
    eof_case("contig-empty", 0, B, nblk, false);
    eof_case("contig-full", all, B, nblk, false);
    eof_case("inter-mid", all / 3 + 123, B, nblk, true);
    eof_case("inter-boundary", 7 * B * nprocs + B, B, nblk, true);
    eof_case("inter-first-block", 300, B, nblk, true);
    eof_case("inter-empty", 0, B, nblk, true);
    eof_case("inter-past", all + 5000, B, nblk, true);
    eof_case("inter-small-blocks", 40000 + 3, 16, 4096, true);
    eof_external32();
}

int main(int argc, char **argv)
{
    const char *what;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (argc < 3) {
        if (0 == rank) {
            fprintf(stderr, "usage: %s DIR views|pvars MODE|errors\n", argv[0]);
        }
        MPI_Finalize();
        return 2;
    }
    dir = argv[1];
    what = argv[2];
    MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN);

    if (0 == strcmp(what, "views")) {
        case_contig("contig", 300000, 0);
        case_contig("contig-empty", 70001, 1);
        case_contig("contig-small", 17, 0);
        case_interleaved("interleaved", 24, 5000, 0);
        case_indexed("indexed", 12345, 0);
        case_indexed("indexed-empty", 777, 1);
        case_subarray2d();
        case_subarray3d();
        case_darray();
        case_zero();
        case_overlap();
        case_shared_read();
        case_overlap_view_read();
        case_interleaved("past-2GiB", 40, 700, ((MPI_Offset) 3 << 30) + 7);
    } else if (0 == strcmp(what, "fuzz") && argc > 3) {
        int k, nf = atoi(argv[3]);
        for (k = 1; k <= nf; k++) {
            case_fuzz((uint64_t) k + 1000 * (uint64_t) nprocs);
        }
    } else if (0 == strcmp(what, "pvars") && argc > 3) {
        test_pvars(argv[3], argc > 4 ? atol(argv[4]) : 0);
    } else if (0 == strcmp(what, "records") && argc > 3) {
        test_records(argv[3]);
    } else if (0 == strcmp(what, "errors")) {
        test_errors();
    } else if (0 == strcmp(what, "eof")) {
        test_eof();
    } else {
        if (0 == rank) {
            fprintf(stderr, "unknown test %s\n", what);
        }
        failures = 1;
    }
    {
        int any = 0;
        MPI_Allreduce(&failures, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (0 == rank) {
            if (any) {
                printf("fcoll_lat_test: %s FAILED\n", what);
            } else {
                printf("fcoll_lat_test: %s OK\n", what);
            }
        }
        MPI_Finalize();
        return any ? 1 : 0;
    }
}
