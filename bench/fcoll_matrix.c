/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Collective MPI-IO write and read of the access patterns of HDF5 and
 * MPI-IO applications, for comparing fcoll components
 * (bench/fcoll_matrix.sh runs it with la_twophase, two_phase and vulcan;
 * the patterns below are those of the matrix in
 * ompi/mca/fcoll/la_twophase/README.md).
 *
 *   fcoll_matrix FILE PATTERN REPS [same|reopen]      (env MB, default 32)
 *
 * Every pattern writes MB MiB in all, one file view per rank
 * (disp + filetype, etype MPI_DOUBLE; MPI_BYTE for irregular) and one
 * MPI_File_write_at_all / MPI_File_read_at_all (offset 0) of a contiguous buffer.  N = MB *
 * 2^17 doubles; element k of rank r's buffer holds (double) its index in
 * the file, so the file reads 0, 1, ..., N - 1.
 *   i1 i4 i64  runs of b = 1, 4, 64 doubles, rank r's every P*b (b = 1 is
 *              HDF5's d[r::P]): vector(n/b, b, P*b), disp r*b*8, n = N/P
 *   rows       2-D NY x NX = 1024 x MB*128, blocks of NY/P rows (subarray)
 *   cols       the same array, blocks of NX/P columns (subarray)
 *   sub3d      3-D Z x Y x X = MB*8 x 128 x 128, MPI_Dims_create(P, 3) blocks
 *   darray     the 2-D array, 64 x 64 block-cyclic over MPI_Dims_create(P, 2)
 *   irregular  BIPS3D-like, bench/fcoll_bench.c's generator: 48-byte
 *              elements, hindexed of MPI_BYTE; byte b of the file is (char) (b*7)
 *   random     the file cut into runs of 1..16 doubles, each of rank rnd() % P
 *              (same seed on every rank), hindexed of MPI_DOUBLE
 *   sparse     rank r writes element r of every 64 (d[r::64]): n = N/P
 *              elements a rank in a file of 64*n doubles; the holes keep a
 *              background, -1 - i at element i
 * same: one open and set_view for all repetitions; reopen: open, set_view,
 * collective call, close, for every write and every read (HDF5-like).
 *
 * Before each repetition every rank overwrites its share of the whole
 * file with the background by POSIX pwrite, so that each write is checked
 * on its own.  Then per repetition: write_all, read_all into a zeroed
 * buffer, each timed alone (barrier before, slowest rank's seconds, open
 * and close outside), and the buffer compared byte for byte with what was
 * written.  After the last one rank 0 preads the whole file and checks
 * every byte, background included.  A mismatch prints "FAIL pattern=..."
 * on stderr and aborts.  Prints on rank 0:
 *   RESULT pattern=P mode=M np=N bytes=B write_s=MED read_s=MED
 *          write_all=t1,t2,... read_all=t1,t2,...
 */

#define _POSIX_C_SOURCE 200809L

#include <fcntl.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "fcoll_workloads.h"

#define SPARSE_STRIDE 64    /* sparse: elements a block, P of them written */
#define RANDOM_MAXRUN 16
#define RANDOM_SEED 0x5eedf11eULL
#define DARRAY_BS 64
#define CHUNK ((int64_t) 8 << 20)  /* POSIX I/O unit; a multiple of 8 */

static int rank, nprocs;
static const char *pname, *mname;

typedef struct {
    MPI_Datatype etype;     /* MPI_DOUBLE, or MPI_BYTE for irregular */
    int esize;
    MPI_Datatype ft;
    MPI_Offset disp;
    int64_t nloc;           /* etypes this rank writes */
    int64_t fsize;          /* file bytes */
    int sparse;
    char *buf;              /* what this rank writes */
    fcoll_runs_t runs;      /* irregular (bytes), random (doubles): to name a bad offset */
} workload_t;

static void need(int cond, const char *what)
{
    fcoll_need(cond, "fcoll_matrix", pname, rank, nprocs, what);
}

/* The file view and buffer of pattern pname for MB MiB in all. */
static void build(workload_t *w, int64_t mb)
{
    const int64_t N = mb << 17;            /* doubles in all */
    const int64_t NY = 1024, NX = mb * 128; /* 2-D arrays */
    const int64_t X = 128, Y = 128, Z = mb * 8;
    int64_t k;
    double *d;

    memset(w, 0, sizeof(*w));
    w->etype = MPI_DOUBLE;
    w->esize = 8;
    w->fsize = N * 8;

    if (0 == strcmp(pname, "i1") || 0 == strcmp(pname, "i4") || 0 == strcmp(pname, "i64")
        || 0 == strcmp(pname, "sparse")) {
        int64_t b, stride, n = N / nprocs;
        w->sparse = 0 == strcmp(pname, "sparse");
        need(0 == N % nprocs, "N = MB*2^17 doubles not divisible by P");
        if (w->sparse) {
            need(nprocs <= SPARSE_STRIDE, "P > 64");
            b = 1;
            stride = SPARSE_STRIDE;
            w->fsize = n * SPARSE_STRIDE * 8;
        } else {
            b = atoi(pname + 1);
            need(0 == n % b, "N/P doubles a rank not divisible by the run length");
            stride = nprocs * b;
        }
        MPI_Type_vector((int) (n / b), (int) b, (int) stride, MPI_DOUBLE, &w->ft);
        w->disp = (MPI_Offset) rank * b * 8;
        w->nloc = n;
        w->buf = xmalloc(n * 8);
        d = (double *) w->buf;
        for (k = 0; k < n; k++) {
            d[k] = (double) ((k / b) * stride + rank * b + k % b);
        }
    } else if (0 == strcmp(pname, "rows") || 0 == strcmp(pname, "cols")) {
        int rows = 0 == strcmp(pname, "rows");
        int g[2] = {(int) NY, (int) NX}, s[2], st[2];
        if (rows) {
            need(0 == NY % nprocs, "NY = 1024 rows not divisible by P");
            s[0] = (int) (NY / nprocs);
            s[1] = (int) NX;
            st[0] = rank * s[0];
            st[1] = 0;
        } else {
            need(0 == NX % nprocs, "NX = MB*128 columns not divisible by P");
            s[0] = (int) NY;
            s[1] = (int) (NX / nprocs);
            st[0] = 0;
            st[1] = rank * s[1];
        }
        MPI_Type_create_subarray(2, g, s, st, MPI_ORDER_C, MPI_DOUBLE, &w->ft);
        w->nloc = (int64_t) s[0] * s[1];
        w->buf = xmalloc(w->nloc * 8);
        d = (double *) w->buf;
        for (k = 0; k < w->nloc; k++) {
            d[k] = (double) ((st[0] + k / s[1]) * NX + st[1] + k % s[1]);
        }
    } else if (0 == strcmp(pname, "sub3d")) {
        int pd[3] = {0, 0, 0}, g[3] = {(int) Z, (int) Y, (int) X}, s[3], st[3], c[3], i;
        MPI_Dims_create(nprocs, 3, pd);
        c[2] = rank % pd[2];
        c[1] = rank / pd[2] % pd[1];
        c[0] = rank / (pd[1] * pd[2]);
        need(0 == Z % pd[0] && 0 == Y % pd[1] && 0 == X % pd[2],
             "MB*8 x 128 x 128 not divisible by the process grid");
        for (i = 0; i < 3; i++) {
            s[i] = g[i] / pd[i];
            st[i] = c[i] * s[i];
        }
        MPI_Type_create_subarray(3, g, s, st, MPI_ORDER_C, MPI_DOUBLE, &w->ft);
        w->nloc = (int64_t) s[0] * s[1] * s[2];
        w->buf = xmalloc(w->nloc * 8);
        d = (double *) w->buf;
        for (k = 0; k < w->nloc; k++) {
            int64_t a = k / ((int64_t) s[1] * s[2]), b = k / s[2] % s[1], e = k % s[2];
            d[k] = (double) (((st[0] + a) * Y + st[1] + b) * X + st[2] + e);
        }
    } else if (0 == strcmp(pname, "darray")) {
        int pd[2] = {0, 0}, g[2] = {(int) NY, (int) NX}, bs[2] = {DARRAY_BS, DARRAY_BS};
        int dist[2] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_CYCLIC};
        int64_t i, j, m = 0;
        MPI_Count size;
        MPI_Dims_create(nprocs, 2, pd);
        MPI_Type_create_darray(nprocs, rank, 2, g, dist, bs, pd, MPI_ORDER_C, MPI_DOUBLE,
                               &w->ft);
        MPI_Type_size_x(w->ft, &size);
        w->nloc = size / 8;
        w->buf = xmalloc(w->nloc * 8);
        d = (double *) w->buf;
        /* the local array in C order is the owned elements in file order */
        for (i = 0; i < NY; i++) {
            for (j = 0; j < NX; j++) {
                if ((i / DARRAY_BS) % pd[0] * pd[1] + (j / DARRAY_BS) % pd[1] == rank) {
                    CHECK(m < w->nloc, "darray: more owned elements than the type holds");
                    d[m++] = (double) (i * NX + j);
                }
            }
        }
        CHECK(m == w->nloc, "darray: %lld owned elements, type holds %lld", (long long) m,
              (long long) w->nloc);
    } else if (0 == strcmp(pname, "irregular")) {
        /* bench/fcoll_bench.c's workload, call for call */
        int64_t pos = 0, j;
        int i;
        w->nloc = fcoll_irregular(mb << 20, nprocs, rank, &w->runs);
        w->etype = MPI_BYTE;
        w->esize = 1;
        w->fsize = (mb << 20) / FCOLL_IRREGULAR_ESZ * FCOLL_IRREGULAR_ESZ;
        MPI_Type_create_hindexed(w->runs.n, w->runs.bl, w->runs.dp, MPI_BYTE, &w->ft);
        w->buf = xmalloc(w->nloc);
        for (i = 0; i < w->runs.n; i++) {
            for (j = 0; j < w->runs.bl[i]; j++) {
                w->buf[pos++] = (char) ((w->runs.dp[i] + j) * 7);
            }
        }
    } else if (0 == strcmp(pname, "random")) {
        uint64_t s = RANDOM_SEED;
        int64_t e = 0, pos = 0, j;
        int i;
        fcoll_runs_init(&w->runs);
        while (e < N) {
            int owner = (int) test_rand_below(&s, (uint64_t) nprocs);
            int64_t len = 1 + (int64_t) test_rand_below(&s, RANDOM_MAXRUN);
            if (e + len > N) {
                len = N - e;
            }
            if (owner == rank) {
                fcoll_add_run(&w->runs, e * 8, len, 8);
                w->nloc += len;
            }
            e += len;
        }
        MPI_Type_create_hindexed(w->runs.n, w->runs.bl, w->runs.dp, MPI_DOUBLE, &w->ft);
        w->buf = xmalloc(w->nloc * 8);
        d = (double *) w->buf;
        for (i = 0; i < w->runs.n; i++) {
            for (j = 0; j < w->runs.bl[i]; j++) {
                d[pos++] = (double) (w->runs.dp[i] / 8 + j);
            }
        }
    } else {
        need(0, "unknown pattern (i1 i4 i64 rows cols sub3d darray irregular random sparse)");
    }
    MPI_Type_commit(&w->ft);
    {
        /* a rank without data would need a zero-size file view */
        int64_t mn;
        MPI_Allreduce(&w->nloc, &mn, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
        need(mn > 0, "a rank gets no data (raise MB)");
    }
}

/* Bytes [off, off + len) of the file: after the writes (final) or the
 * background.  off and len are multiples of 8 for the double patterns. */
static void file_bytes(const workload_t *w, int64_t off, int64_t len, int final,
                       unsigned char *out)
{
    int64_t i;
    if (1 == w->esize) {
        for (i = 0; i < len; i++) {
            unsigned char c = (unsigned char) ((off + i) * 7);
            out[i] = final ? c : (unsigned char) (c ^ 0x5a);
        }
        return;
    }
    for (i = 0; i < len / 8; i++) {
        int64_t e = off / 8 + i;
        double v = final && (!w->sparse || e % SPARSE_STRIDE < nprocs) ? (double) e
                                                                       : -1.0 - (double) e;
        memcpy(out + 8 * i, &v, 8);
    }
}

/* Every rank writes the background over its share of the whole file
 * (creating it), by POSIX, outside MPI-IO and its file views. */
static void background(const char *path, const workload_t *w)
{
    int64_t units = w->fsize / w->esize;
    int64_t lo = units * rank / nprocs * w->esize, hi = units * (rank + 1) / nprocs * w->esize;
    unsigned char *c = xmalloc(CHUNK);
    int fd = open(path, O_WRONLY | O_CREAT, 0644);
    CHECK(fd >= 0, "pattern=%s: cannot open %s", pname, path);
    while (lo < hi) {
        int64_t len = hi - lo < CHUNK ? hi - lo : CHUNK, done = 0;
        file_bytes(w, lo, len, 0, c);
        while (done < len) {
            ssize_t got = pwrite(fd, c + done, (size_t) (len - done), (off_t) (lo + done));
            CHECK(got > 0, "pattern=%s: pwrite %s failed", pname, path);
            done += got;
        }
        lo += len;
    }
    close(fd);
    free(c);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* The file byte offset of byte i of this rank's buffer. */
static int64_t buf_offset(const workload_t *w, int64_t i)
{
    int r;
    double v;
    if (1 == w->esize) {
        for (r = 0; r < w->runs.n; r++) {
            if (i < w->runs.bl[r]) {
                return (int64_t) w->runs.dp[r] + i;
            }
            i -= w->runs.bl[r];
        }
        return -1;
    }
    memcpy(&v, w->buf + i / 8 * 8, 8);
    return (int64_t) v * 8 + i % 8;
}

static void check_buffer(const workload_t *w, const char *got, int rep)
{
    int64_t i, n = w->nloc * w->esize;
    if (0 == memcmp(got, w->buf, (size_t) n)) {
        return;
    }
    for (i = 0; got[i] == w->buf[i]; i++) {
    }
    fprintf(stderr,
            "FAIL pattern=%s mode=%s rank=%d rep=%d read_all: first bad offset %lld "
            "(buffer byte %lld: 0x%02x, expected 0x%02x)\n",
            pname, mname, rank, rep, (long long) buf_offset(w, i), (long long) i,
            (unsigned char) got[i], (unsigned char) w->buf[i]);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* rank 0: every byte of the file, by pread */
static void check_file(const char *path, const workload_t *w)
{
    unsigned char *got = xmalloc(CHUNK), *exp = xmalloc(CHUNK);
    int64_t off = 0, i;
    struct stat sb;
    int fd = open(path, O_RDONLY);
    CHECK(fd >= 0 && 0 == fstat(fd, &sb), "pattern=%s: cannot open %s", pname, path);
    if ((int64_t) sb.st_size != w->fsize) {
        fprintf(stderr, "FAIL pattern=%s mode=%s file check: size %lld, expected %lld\n", pname,
                mname, (long long) sb.st_size, (long long) w->fsize);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    while (off < w->fsize) {
        int64_t len = w->fsize - off < CHUNK ? w->fsize - off : CHUNK, done = 0;
        while (done < len) {
            ssize_t n = pread(fd, got + done, (size_t) (len - done), (off_t) (off + done));
            CHECK(n > 0, "pattern=%s: pread %s failed", pname, path);
            done += n;
        }
        file_bytes(w, off, len, 1, exp);
        if (0 != memcmp(got, exp, (size_t) len)) {
            for (i = 0; got[i] == exp[i]; i++) {
            }
            fprintf(stderr,
                    "FAIL pattern=%s mode=%s file check: first bad offset %lld "
                    "(0x%02x, expected 0x%02x)\n",
                    pname, mname, (long long) (off + i), got[i], exp[i]);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        off += len;
    }
    close(fd);
    free(got);
    free(exp);
}

static MPI_File open_view(const char *path, const workload_t *w)
{
    MPI_File fh;
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    MPI_File_set_view(fh, w->disp, w->etype, w->ft, "native", MPI_INFO_NULL);
    return fh;
}

/* The slowest rank's seconds for one write_all (or read_all) of the
 * whole buffer. */
static double timed(MPI_File fh, char *buf, const workload_t *w, int write, int rep)
{
    MPI_Status st;
    double t0, t, tmax;
    int count;
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    /* explicit offset 0 of the view (as HDF5 does): the individual file
     * pointer would move on after each call of the same handle */
    if (write) {
        MPI_File_write_at_all(fh, 0, buf, (int) w->nloc, w->etype, &st);
    } else {
        MPI_File_read_at_all(fh, 0, buf, (int) w->nloc, w->etype, &st);
    }
    t = MPI_Wtime() - t0;
    MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Get_count(&st, w->etype, &count);
    if (count != (int) w->nloc) {
        fprintf(stderr, "FAIL pattern=%s mode=%s rank=%d rep=%d %s: %d of %lld elements\n",
                pname, mname, rank, rep, write ? "write_all" : "read_all", count,
                (long long) w->nloc);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return tmax;
}

int main(int argc, char **argv)
{
    fcoll_args_t a;
    int r;
    int64_t bytes, total;
    workload_t w;
    char *rbuf;
    double *tw, *tr;
    MPI_File fh = MPI_FILE_NULL;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (0 != fcoll_args(argc, argv, rank, "fcoll_matrix",
                        "i1 i4 i64 rows cols sub3d darray irregular random sparse", &a)) {
        MPI_Finalize();
        return 2;
    }
    pname = a.pattern;
    mname = a.mode;
    need(a.mb >= 1 && a.mb < 16384, "MB must be 1 .. 16383 (counts are int)");
    /* an MPI-IO error is a failed run, not a silent return code */
    MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_ARE_FATAL);

    build(&w, a.mb);
    bytes = w.nloc * w.esize;
    MPI_Allreduce(&bytes, &total, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    rbuf = xmalloc(bytes);
    tw = xmalloc(a.reps * sizeof(double));
    tr = xmalloc(a.reps * sizeof(double));

    if (0 == rank) {
        unlink(a.path);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    background(a.path, &w);
    if (!a.reopen) {
        fh = open_view(a.path, &w);
    }
    for (r = 0; r < a.reps; r++) {
        if (r > 0) {
            background(a.path, &w);
            if (!a.reopen) {
                MPI_File_sync(fh);
            }
        }
        if (a.reopen) {
            fh = open_view(a.path, &w);
        }
        tw[r] = timed(fh, w.buf, &w, 1, r);
        /* sync-barrier-sync: the read sees every rank's write */
        if (a.reopen) {
            MPI_File_close(&fh);
        } else {
            MPI_File_sync(fh);
        }
        memset(rbuf, 0, (size_t) bytes);
        MPI_Barrier(MPI_COMM_WORLD);
        if (a.reopen) {
            fh = open_view(a.path, &w);
        } else {
            MPI_File_sync(fh);
        }
        tr[r] = timed(fh, rbuf, &w, 0, r);
        if (a.reopen) {
            MPI_File_close(&fh);
        }
        check_buffer(&w, rbuf, r);
    }
    if (!a.reopen) {
        MPI_File_close(&fh);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        check_file(a.path, &w);
        fcoll_print_result(pname, mname, nprocs, total, tw, tr, a.reps);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    MPI_Type_free(&w.ft);
    free(w.buf);
    free(w.runs.bl);
    free(w.runs.dp);
    free(rbuf);
    free(tw);
    free(tr);
    MPI_Finalize();
    return 0;
}
