/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * bench/fcoll_matrix.c through parallel HDF5: collective H5Dwrite and
 * H5Dread of hyperslabs of one contiguous dataset of doubles, which HDF5
 * turns into MPI_File_set_view + MPI_File_write_at_all / read_at_all, so
 * into the fcoll component (bench/fcoll_matrix.sh runs it with
 * la_twophase, two_phase and vulcan).
 *
 *   fcoll_hdf5 FILE PATTERN REPS [same|reopen]      (env MB, default 32)
 *
 * The dataset "d" holds N = MB * 2^17 doubles; each rank selects N/P of
 * them and writes (double) their index in the dataset, so the dataset
 * reads 0, 1, ..., N - 1.
 *   h5strided  1-D, start r, stride P, count N/P (h5py's d[r::P])
 *   h5rows     2-D NY x NX = 1024 x MB*128, blocks of NY/P rows
 *   h5cols     the same, blocks of NX/P columns (d[:, r*C:(r+1)*C]; at
 *              P = 4 and MB = 32, 1024 x 1024 doubles a rank)
 *   h5sub3d    3-D MB*8 x 128 x 128, blocks over MPI_Dims_create(P, 3)
 * Layout contiguous, allocated at creation, never filled.  same: one
 * H5Fopen/H5Dopen for all repetitions; reopen: H5Fopen, H5Dopen, the one
 * call, close, for every write and every read.  Only H5Dwrite / H5Dread
 * are timed (barrier before, the slowest rank's seconds).
 *
 * Before each repetition every rank overwrites its share of the dataset's
 * storage (H5Dget_offset) with a background, -1 - i at element i, by
 * POSIX pwrite, so that each write is checked on its own.  After each
 * H5Dwrite and H5Dread, H5Pget_mpio_actual_io_mode must say collective:
 * otherwise HDF5 went around the fcoll component.  The read buffer (zeroed
 * first) must equal the written one byte for byte; after the last
 * repetition rank 0 preads the dataset's storage and reads the whole
 * dataset through HDF5 alone (sec2 driver) and checks both.  A mismatch
 * prints "FAIL pattern=..." on stderr and aborts.  Prints on rank 0 the
 * RESULT line of fcoll_matrix.
 */

#define _POSIX_C_SOURCE 200809L

#include <fcntl.h>
#include <hdf5.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../test/common/check.h"   /* builds without -I */
#include "fcoll_workloads.h"

#define CHUNK ((int64_t) 8 << 20)   /* POSIX I/O unit; a multiple of 8 */

static int rank, nprocs;
static const char *pname, *mname;

/* An HDF5 call that fails (the library prints its error stack) */
#define HCALL(call)                                                                        \
    do {                                                                                   \
        if ((call) < 0) {                                                                  \
            fprintf(stderr, "FAIL pattern=%s mode=%s rank=%d: %s failed\n", pname, mname, \
                    rank, #call);                                                          \
            MPI_Abort(MPI_COMM_WORLD, 1);                                                  \
        }                                                                                  \
    } while (0)

typedef struct {
    int ndims;
    hsize_t dims[3];
    hid_t fspace;   /* the dataset's extent, this rank's hyperslab selected */
    hid_t mspace;
    int64_t n;      /* elements in all */
    int64_t nloc;
    double *buf;    /* what this rank writes */
} workload_t;

static void need(int cond, const char *what)
{
    fcoll_need(cond, "fcoll_hdf5", pname, rank, nprocs, what);
}

static void build(workload_t *w, int64_t mb)
{
    const int64_t N = mb << 17;
    hsize_t start[3] = {0, 0, 0}, stride[3] = {1, 1, 1}, count[3] = {1, 1, 1};
    hsize_t cnt;
    int64_t k;
    int i;

    memset(w, 0, sizeof(*w));
    w->n = N;
    if (0 == strcmp(pname, "h5strided")) {
        need(0 == N % nprocs, "N = MB*2^17 doubles not divisible by P");
        w->ndims = 1;
        w->dims[0] = (hsize_t) N;
        start[0] = (hsize_t) rank;
        stride[0] = (hsize_t) nprocs;
        count[0] = (hsize_t) (N / nprocs);
    } else if (0 == strcmp(pname, "h5rows") || 0 == strcmp(pname, "h5cols")) {
        w->ndims = 2;
        w->dims[0] = 1024;
        w->dims[1] = (hsize_t) (mb * 128);
        count[0] = w->dims[0];
        count[1] = w->dims[1];
        if (0 == strcmp(pname, "h5rows")) {
            need(0 == w->dims[0] % nprocs, "NY = 1024 rows not divisible by P");
            count[0] /= nprocs;
            start[0] = rank * count[0];
        } else {
            need(0 == w->dims[1] % nprocs, "NX = MB*128 columns not divisible by P");
            count[1] /= nprocs;
            start[1] = rank * count[1];
        }
    } else if (0 == strcmp(pname, "h5sub3d")) {
        int pd[3] = {0, 0, 0}, c[3];
        MPI_Dims_create(nprocs, 3, pd);
        c[2] = rank % pd[2];
        c[1] = rank / pd[2] % pd[1];
        c[0] = rank / (pd[1] * pd[2]);
        w->ndims = 3;
        w->dims[0] = (hsize_t) (mb * 8);
        w->dims[1] = 128;
        w->dims[2] = 128;
        for (i = 0; i < 3; i++) {
            need(0 == w->dims[i] % pd[i], "MB*8 x 128 x 128 not divisible by the process grid");
            count[i] = w->dims[i] / pd[i];
            start[i] = c[i] * count[i];
        }
    } else {
        need(0, "unknown pattern (h5strided h5rows h5cols h5sub3d)");
    }
    w->fspace = H5Screate_simple(w->ndims, w->dims, NULL);
    HCALL(w->fspace);
    HCALL(H5Sselect_hyperslab(w->fspace, H5S_SELECT_SET, start, stride, count, NULL));
    cnt = (hsize_t) H5Sget_select_npoints(w->fspace);
    w->nloc = (int64_t) cnt;
    w->mspace = H5Screate_simple(1, &cnt, NULL);
    HCALL(w->mspace);
    w->buf = xmalloc(w->nloc * sizeof(double));
    /* the selection in C order, i.e. in the order HDF5 fills it from memory */
    for (k = 0; k < w->nloc; k++) {
        int64_t rest = k, idx = 0;
        hsize_t sub[3];
        for (i = w->ndims - 1; i >= 0; i--) {
            sub[i] = start[i] + stride[i] * (hsize_t) (rest % (int64_t) count[i]);
            rest /= (int64_t) count[i];
        }
        for (i = 0; i < w->ndims; i++) {
            idx = idx * (int64_t) w->dims[i] + (int64_t) sub[i];
        }
        w->buf[k] = (double) idx;
    }
}

/* Elements [lo, hi) of the dataset: after the writes (final) or the
 * background. */
static void values(int64_t lo, int64_t hi, int final, double *out)
{
    int64_t e;
    for (e = lo; e < hi; e++) {
        out[e - lo] = final ? (double) e : -1.0 - (double) e;
    }
}

/* Every rank writes the background over its share of the dataset's
 * storage, which starts at file byte addr, by POSIX. */
static void background(const char *path, const workload_t *w, int64_t addr)
{
    int64_t lo = w->n * rank / nprocs, hi = w->n * (rank + 1) / nprocs;
    const int64_t per = CHUNK / 8;
    double *c = xmalloc(CHUNK);
    int fd = open(path, O_WRONLY);
    CHECK(fd >= 0, "pattern=%s: cannot open %s", pname, path);
    while (lo < hi) {
        int64_t m = hi - lo < per ? hi - lo : per, done = 0;
        values(lo, lo + m, 0, c);
        while (done < m * 8) {
            ssize_t got = pwrite(fd, (char *) c + done, (size_t) (m * 8 - done),
                                 (off_t) (addr + lo * 8 + done));
            CHECK(got > 0, "pattern=%s: pwrite %s failed", pname, path);
            done += got;
        }
        lo += m;
    }
    close(fd);
    free(c);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* HDF5 must have done the transfer collectively, else fcoll was not used. */
static void check_collective(hid_t dxpl, const char *what, int rep)
{
    H5D_mpio_actual_io_mode_t mode;
    uint32_t local = 0, global = 0;
    HCALL(H5Pget_mpio_actual_io_mode(dxpl, &mode));
    if (H5D_MPIO_CONTIGUOUS_COLLECTIVE != mode && H5D_MPIO_CHUNK_COLLECTIVE != mode) {
        H5Pget_mpio_no_collective_cause(dxpl, &local, &global);
        fprintf(stderr,
                "FAIL pattern=%s mode=%s rank=%d rep=%d %s not collective: actual_io_mode %d, "
                "no_collective_cause local 0x%x global 0x%x\n",
                pname, mname, rank, rep, what, (int) mode, (unsigned) local, (unsigned) global);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

/* The slowest rank's seconds for one H5Dwrite (or H5Dread) of the buffer. */
static double timed(hid_t dset, hid_t dxpl, double *buf, const workload_t *w, int write,
                    int rep)
{
    double t0, t, tmax;
    herr_t rc;
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    if (write) {
        rc = H5Dwrite(dset, H5T_NATIVE_DOUBLE, w->mspace, w->fspace, dxpl, buf);
    } else {
        rc = H5Dread(dset, H5T_NATIVE_DOUBLE, w->mspace, w->fspace, dxpl, buf);
    }
    t = MPI_Wtime() - t0;
    MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    HCALL(rc);
    check_collective(dxpl, write ? "H5Dwrite" : "H5Dread", rep);
    return tmax;
}

static void check_buffer(const workload_t *w, const double *got, int rep)
{
    const unsigned char *g = (const unsigned char *) got, *e = (const unsigned char *) w->buf;
    int64_t i, n = w->nloc * 8;
    double idx;
    if (0 == memcmp(g, e, (size_t) n)) {
        return;
    }
    for (i = 0; g[i] == e[i]; i++) {
    }
    idx = w->buf[i / 8];
    fprintf(stderr,
            "FAIL pattern=%s mode=%s rank=%d rep=%d H5Dread: first bad offset %lld in the "
            "dataset (element %.0f, buffer byte %lld: 0x%02x, expected 0x%02x)\n",
            pname, mname, rank, rep, (long long) idx * 8 + i % 8, idx, (long long) i, g[i], e[i]);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* elements [lo, lo + m) of the dataset, got, against the final values */
static void check_range(const double *got, int64_t lo, int64_t m, double *exp, const char *how)
{
    const unsigned char *g = (const unsigned char *) got, *e = (const unsigned char *) exp;
    int64_t i;
    values(lo, lo + m, 1, exp);
    if (0 == memcmp(g, e, (size_t) (m * 8))) {
        return;
    }
    for (i = 0; g[i] == e[i]; i++) {
    }
    fprintf(stderr,
            "FAIL pattern=%s mode=%s %s: first bad offset %lld in the dataset (0x%02x, "
            "expected 0x%02x)\n",
            pname, mname, how, (long long) (lo * 8 + i), g[i], e[i]);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* rank 0, every other rank done with the file: the storage by pread, then
 * the whole dataset through HDF5's sec2 driver. */
static void check_file(const char *path, const workload_t *w, int64_t addr)
{
    const int64_t per = CHUNK / 8;
    double *got = xmalloc(CHUNK), *exp = xmalloc(CHUNK), *all;
    int64_t lo;
    hid_t f, d;
    int fd = open(path, O_RDONLY);
    CHECK(fd >= 0, "pattern=%s: cannot open %s", pname, path);
    for (lo = 0; lo < w->n; lo += per) {
        int64_t m = w->n - lo < per ? w->n - lo : per, done = 0;
        while (done < m * 8) {
            ssize_t n = pread(fd, (char *) got + done, (size_t) (m * 8 - done),
                              (off_t) (addr + lo * 8 + done));
            CHECK(n > 0, "pattern=%s: pread %s failed", pname, path);
            done += n;
        }
        check_range(got, lo, m, exp, "file check (pread)");
    }
    close(fd);

    all = xmalloc(w->n * sizeof(double));
    f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    HCALL(f);
    d = H5Dopen2(f, "d", H5P_DEFAULT);
    HCALL(d);
    HCALL(H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, all));
    for (lo = 0; lo < w->n; lo += per) {
        check_range(all + lo, lo, w->n - lo < per ? w->n - lo : per, exp,
                    "file check (independent H5Dread)");
    }
    HCALL(H5Dclose(d));
    HCALL(H5Fclose(f));
    free(all);
    free(got);
    free(exp);
}

static void open_dset(const char *path, hid_t fapl, hid_t *f, hid_t *d)
{
    *f = H5Fopen(path, H5F_ACC_RDWR, fapl);
    HCALL(*f);
    *d = H5Dopen2(*f, "d", H5P_DEFAULT);
    HCALL(*d);
}

static void close_dset(hid_t *f, hid_t *d)
{
    HCALL(H5Dclose(*d));
    HCALL(H5Fclose(*f));
}

int main(int argc, char **argv)
{
    fcoll_args_t a;
    int r;
    int64_t addr;
    haddr_t h5addr;
    workload_t w;
    double *rbuf, *tw, *tr;
    hid_t fapl, dxpl, dcpl, f, d;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (0 != fcoll_args(argc, argv, rank, "fcoll_hdf5", "h5strided h5rows h5cols h5sub3d", &a)) {
        MPI_Finalize();
        return 2;
    }
    pname = a.pattern;
    mname = a.mode;
    need(a.mb >= 1 && a.mb < 16384, "MB must be 1 .. 16383");

    build(&w, a.mb);
    rbuf = xmalloc(w.nloc * sizeof(double));
    tw = xmalloc(a.reps * sizeof(double));
    tr = xmalloc(a.reps * sizeof(double));

    fapl = H5Pcreate(H5P_FILE_ACCESS);
    HCALL(fapl);
    HCALL(H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL));
    dxpl = H5Pcreate(H5P_DATASET_XFER);
    HCALL(dxpl);
    HCALL(H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE));
    dcpl = H5Pcreate(H5P_DATASET_CREATE);
    HCALL(dcpl);
    HCALL(H5Pset_layout(dcpl, H5D_CONTIGUOUS));
    HCALL(H5Pset_alloc_time(dcpl, H5D_ALLOC_TIME_EARLY));
    /* the background is written by hand, outside any timed call */
    HCALL(H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER));

    if (0 == rank) {
        unlink(a.path);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    {
        hid_t space = H5Screate_simple(w.ndims, w.dims, NULL);
        HCALL(space);
        f = H5Fcreate(a.path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
        HCALL(f);
        d = H5Dcreate2(f, "d", H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
        HCALL(d);
        h5addr = H5Dget_offset(d);
        if (HADDR_UNDEF == h5addr) {
            fprintf(stderr, "FAIL pattern=%s: H5Dget_offset: no contiguous storage\n", pname);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        addr = (int64_t) h5addr;
        HCALL(H5Sclose(space));
        close_dset(&f, &d);
    }

    if (!a.reopen) {
        open_dset(a.path, fapl, &f, &d);
    }
    for (r = 0; r < a.reps; r++) {
        background(a.path, &w, addr);
        if (a.reopen) {
            open_dset(a.path, fapl, &f, &d);
        }
        tw[r] = timed(d, dxpl, w.buf, &w, 1, r);
        if (a.reopen) {
            close_dset(&f, &d);
        }
        memset(rbuf, 0, w.nloc * sizeof(double));
        MPI_Barrier(MPI_COMM_WORLD);
        if (a.reopen) {
            open_dset(a.path, fapl, &f, &d);
        }
        tr[r] = timed(d, dxpl, rbuf, &w, 0, r);
        if (a.reopen) {
            close_dset(&f, &d);
        }
        check_buffer(&w, rbuf, r);
    }
    if (!a.reopen) {
        close_dset(&f, &d);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        check_file(a.path, &w, addr);
        fcoll_print_result(pname, mname, nprocs, w.n * 8, tw, tr, a.reps);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    H5Sclose(w.fspace);
    H5Sclose(w.mspace);
    H5Pclose(dcpl);
    H5Pclose(dxpl);
    H5Pclose(fapl);
    free(w.buf);
    free(rbuf);
    free(tw);
    free(tr);
    MPI_Finalize();
    return 0;
}
