/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * File-system faults under MPI-IO (issue 35): a failed write or read is
 * never reported as success, nor counted in a status.
 *
 *   io_faults DIR OKDIR FAULT[,FAULT...] [BYTES] [reference]
 *
 * FAULT: nospace:PATH (PATH is a small file system: 2 MiB a rank do not
 * fit), eio-write, short-write, eio-read, short-read (the LD_PRELOAD shim
 * test/common/io_fault_shim.c makes rank 0's first write or read of the
 * file fail with EIO, or transfer half of what was asked).  Each rank owns
 * BYTES (default 1 MiB) of a file, as 64 KiB pieces dealt round-robin
 * through a file view, and every way of writing (or reading) it is tried
 * on a file of its own: write_at_all, write_all, write_at, iwrite_at,
 * write_shared, write_ordered, the split collectives write_all_begin/end
 * and write_at_all_begin/end (read_at_all, read_all, read_at, iread_at,
 * read_all_begin/end, read_at_all_begin/end).
 * With eio-write, MPI_File_sync too: rank 0's fsync fails.  eio-lock (run
 * with --mca sharedfp lockedfile): rank 0's first read of the shared file
 * pointer's own file (FILE-*.lock) fails with EIO, under write_ordered
 * and write_shared.  eio-meta: rank 1's (not the root's) ftruncate under
 * MPI_File_set_size and close under MPI_File_close fail with EIO: both
 * must fail on every rank with MPI_ERR_IO.  eagain-aio:
 * rank 0's aio submissions fail with EAGAIN from the nth on, in an
 * iwrite_at and an iread_at of 2,100 pieces of 16 bytes (the posix fbtl
 * posts 2,048 at a time): in the first batch (n = 2: one operation in
 * flight when posting stops) and as the second batch is posted (n =
 * 2,049); rank 0's request must complete with MPI_ERR_IO and count no
 * byte, the others' succeed.  Then:
 *  - collective calls: when the fault hit some process, every process
 *    returns an error, all of the same class (EIO: MPI_ERR_IO; ENOSPC:
 *    MPI_ERR_NO_SPACE);
 *  - independent calls: the process the fault hit returns an error;
 *  - after a write, MPI_File_sync succeeds on every rank (no failed
 *    request is left behind to fail it);
 *  - every call: a process whose call succeeded has all its bytes in the
 *    file (or its buffer); a failed one's status counts no byte more than
 *    it transferred (the first `count` bytes are right);
 *  - a short transfer may be finished (success, right data) or fail, never
 *    succeed with missing data;
 *  - the file can be closed, and a second file (in OKDIR) is written and
 *    read back collectively.
 * "reference" (ROMIO): the findings are printed, the exit status is 0.
 * Prints "io_faults: FAULTS OK" at the end when everything held.
 */
#define _GNU_SOURCE
#include <mpi.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PIECE 65536

static int rank, nprocs, failures, reference;
static const char *dir, *okdir, *fault;
static size_t nbytes = 1 << 20;

typedef void (*arm_fn)(const char *, int, int, int);
typedef int (*fired_fn)(void);
static arm_fn shim_arm;
static fired_fn shim_fired;

#define FAILF(...)                                                           \
    do {                                                                     \
        fprintf(stderr, "%s rank %d: ", reference ? "REFERENCE" : "FAIL", rank); \
        fprintf(stderr, __VA_ARGS__);                                        \
        fprintf(stderr, "\n");                                               \
        failures++;                                                          \
    } while (0)

static unsigned char pattern(int r, size_t i, int salt)
{
    return (unsigned char) (r * 131 + (i / 7) * 17 + i + salt * 29);
}

static const char *class_name(int cls)
{
    static char s[MPI_MAX_ERROR_STRING];
    int len;
    if (MPI_SUCCESS == cls) {
        return "success";
    }
    MPI_Error_string(cls, s, &len);
    s[strcspn(s, ":")] = '\0';    /* Open MPI's strings: "MPI_ERR_IO: ..." */
    return s;
}

/* every rank's pieces of PIECE bytes dealt round-robin */
/* each rank's data as pieces of `len` bytes dealt round-robin */
static void set_view_pieces(MPI_File fh, int len)
{
    MPI_Datatype piece, ftype;
    MPI_Type_contiguous(len, MPI_BYTE, &piece);
    MPI_Type_create_resized(piece, 0, (MPI_Aint) len * nprocs, &ftype);
    MPI_Type_commit(&ftype);
    MPI_File_set_view(fh, (MPI_Offset) rank * len, MPI_BYTE, ftype, "native", MPI_INFO_NULL);
    MPI_Type_free(&ftype);
    MPI_Type_free(&piece);
}

static void set_view(MPI_File fh)
{
    set_view_pieces(fh, PIECE);
}

static int open_file(const char *path, int amode, MPI_File *fh)
{
    int rc = MPI_File_open(MPI_COMM_WORLD, path, amode, MPI_INFO_NULL, fh);
    if (MPI_SUCCESS == rc) {
        MPI_File_set_errhandler(*fh, MPI_ERRORS_RETURN);
    }
    return rc;
}

/* a new, empty file at path for the case `what`; a failure ends the run */
static void fresh_file(const char *path, const char *what, MPI_File *fh)
{
    int rc;
    if (0 == rank) {
        MPI_File_delete(path, MPI_INFO_NULL);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    rc = open_file(path, MPI_MODE_CREATE | MPI_MODE_RDWR, fh);
    if (MPI_SUCCESS != rc) {
        FAILF("%s: cannot open %s: %s", what, path, class_name(rc));
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
}

static void arm(const char *path, int op)
{
    int kind = (strstr(fault, "short") && 'f' != op) ? 's' : 'e';
    if (NULL != shim_arm && 0 == rank && 0 == strcmp(fault, "eio-lock")) {
        char lock[4200];
        snprintf(lock, sizeof(lock), "%s-*.lock", path);
        shim_arm(lock, 'r', 'e', 1);
    } else if (NULL != shim_arm && 0 == rank && (strstr(fault, "eio") || strstr(fault, "short"))) {
        shim_arm(path, op, kind, 1);
    }
}

static int disarm(void)
{
    int fired = 0, all = 0;
    if (NULL != shim_arm) {
        fired = shim_fired();
        shim_arm(NULL, 0, 0, 0);
    }
    MPI_Allreduce(&fired, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    return all;
}

/* the first `upto` bytes of my part of path must be my pattern (salt);
 * my part: my pieces in the view, or (flat) the bytes from rank * nbytes */
static void verify_file(const char *what, const char *path, size_t upto, int salt, int flat)
{
    MPI_File fh;
    MPI_Status st;
    unsigned char *b = calloc(nbytes, 1);
    int rc, got = 0;
    size_t i;

    rc = open_file(path, MPI_MODE_RDONLY, &fh);
    if (MPI_SUCCESS != rc) {
        FAILF("%s: cannot reopen %s to check it: %s", what, path, class_name(rc));
        free(b);
        return;
    }
    if (!flat) {
        set_view(fh);
    }
    rc = MPI_File_read_at(fh, flat ? (MPI_Offset) rank * nbytes : 0, b, (int) upto, MPI_BYTE, &st);
    if (MPI_SUCCESS == rc) {
        MPI_Get_count(&st, MPI_BYTE, &got);
    }
    if ((size_t) got < upto) {
        FAILF("%s: status claims %zu bytes written, the file holds %d of them", what, upto, got);
    }
    for (i = 0; i < (size_t) got && i < upto; i++) {
        if (b[i] != pattern(rank, i, salt)) {
            FAILF("%s: status claims %zu bytes written, byte %zu of them is wrong in the file",
                  what, upto, i);
            break;
        }
    }
    MPI_File_close(&fh);
    free(b);
}

/* The results of one call on every rank: the collective rules, the rule
 * for the process the fault hit, and the counts. */
static void judge(const char *what, int coll, int rc, int count, size_t want, int fired,
                  int *okcount)
{
    int cls = MPI_SUCCESS, *all = malloc(sizeof(int) * nprocs), i, nfail = 0;
    if (MPI_SUCCESS != rc) {
        MPI_Error_class(rc, &cls);
    }
    MPI_Allgather(&cls, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
    for (i = 0; i < nprocs; i++) {
        nfail += (MPI_SUCCESS != all[i]);
    }
    if (0 == rank) {
        printf("%s %s: %d of %d ranks failed", fault, what, nfail, nprocs);
        for (i = 0; i < nprocs; i++) {
            printf("%s %s", i ? "," : ":", class_name(all[i]));
        }
        printf("; count %d (fault fired %d times)\n", count, fired);
    }
    if (coll) {
        for (i = 1; i < nprocs; i++) {
            if (all[i] != all[0]) {
                FAILF("%s: ranks disagree: rank 0 %s, rank %d %s", what, class_name(all[0]), i,
                      class_name(all[i]));
                break;
            }
        }
    }
    if (0 == fired && strcmp(fault, "nospace") && 'i' != what[0]) {
        /* (iwrite_at and iread_at go through aio, which the shim cannot
           reach: they are checked on the full file system) */
        FAILF("%s: the injected fault never fired, nothing was tested", what);
    }
    if (fired > 0 && strstr(fault, "eio")) {
        if (coll && MPI_SUCCESS == cls) {
            FAILF("%s: success although a process's I/O failed with EIO", what);
        }
        if (!coll && 0 == rank && MPI_SUCCESS == cls) {
            FAILF("%s: success although my I/O failed with EIO", what);
        }
    }
    if (0 == strcmp(fault, "nospace") && 0 == nfail) {
        FAILF("%s: %zu bytes a rank on a file system too small for them, and no error", what, want);
    }
    /* a full file system is MPI_ERR_NO_SPACE, whichever process met it */
    if (0 == strcmp(fault, "nospace") && 0 == rank) {
        for (i = 0; i < nprocs; i++) {
            if (MPI_SUCCESS != all[i] && MPI_ERR_NO_SPACE != all[i]) {
                FAILF("%s: a full file system reported as %s on rank %d, not MPI_ERR_NO_SPACE",
                      what, class_name(all[i]), i);
                break;
            }
        }
    }
    if (MPI_SUCCESS == cls && (size_t) count != want) {
        FAILF("%s: success, but the status counts %d of %zu bytes", what, count, want);
    }
    *okcount = (MPI_SUCCESS == cls) ? (int) want : count;
    free(all);
}

static void write_case(const char *op)
{
    char path[4096], what[128];
    unsigned char *b = malloc(nbytes);
    MPI_File fh;
    MPI_Status st;
    MPI_Request req;
    int rc, count = 0, okcount, fired, coll, crc, ccls = MPI_SUCCESS, *call;
    int shared = !strcmp(op, "write_shared") || !strcmp(op, "write_ordered");
    size_t i;

    for (i = 0; i < nbytes; i++) {
        b[i] = pattern(rank, i, 1);
    }
    snprintf(path, sizeof(path), "%s/%s.dat", dir, op);
    snprintf(what, sizeof(what), "%s", op);
    fresh_file(path, what, &fh);
    if (!shared) {
        set_view(fh);
    }
    coll = !strcmp(op, "write_at_all") || !strcmp(op, "write_all") || !strcmp(op, "write_ordered") ||
           strstr(op, "_begin");
    memset(&st, 0, sizeof(st));
    arm(path, 'w');
    if (!strcmp(op, "write_at_all")) {
        rc = MPI_File_write_at_all(fh, 0, b, (int) nbytes, MPI_BYTE, &st);
    } else if (!strcmp(op, "write_all")) {
        rc = MPI_File_write_all(fh, b, (int) nbytes, MPI_BYTE, &st);
    } else if (!strcmp(op, "write_at")) {
        rc = MPI_File_write_at(fh, 0, b, (int) nbytes, MPI_BYTE, &st);
    } else if (!strcmp(op, "iwrite_at")) {
        rc = MPI_File_iwrite_at(fh, 0, b, (int) nbytes, MPI_BYTE, &req);
        if (MPI_SUCCESS == rc) {
            rc = MPI_Wait(&req, &st);
        }
    } else if (!strcmp(op, "write_all_begin") || !strcmp(op, "write_at_all_begin")) {
        /* a split collective: either half may report the failure */
        int erc;
        if (0 == strncmp(op, "write_at_", 9)) {
            rc = MPI_File_write_at_all_begin(fh, 0, b, (int) nbytes, MPI_BYTE);
            erc = MPI_File_write_at_all_end(fh, b, &st);
        } else {
            rc = MPI_File_write_all_begin(fh, b, (int) nbytes, MPI_BYTE);
            erc = MPI_File_write_all_end(fh, b, &st);
        }
        if (MPI_SUCCESS == rc) {
            rc = erc;
        }
    } else if (!strcmp(op, "write_shared")) {
        /* in rank order, so that each rank's data lands at rank * nbytes */
        int turn;
        rc = MPI_SUCCESS;
        for (turn = 0; turn < nprocs; turn++) {
            if (turn == rank) {
                rc = MPI_File_write_shared(fh, b, (int) nbytes, MPI_BYTE, &st);
            }
            MPI_Barrier(MPI_COMM_WORLD);
        }
    } else {
        rc = MPI_File_write_ordered(fh, b, (int) nbytes, MPI_BYTE, &st);
    }
    fired = disarm();
    if (MPI_SUCCESS == rc) {
        MPI_Get_count(&st, MPI_BYTE, &count);
    } else {
        /* what the status says after a failure: nothing is claimed */
        MPI_Get_count(&st, MPI_BYTE, &count);
        if (count < 0 || MPI_UNDEFINED == count) {
            count = 0;
        }
    }
    judge(what, coll, rc, count, nbytes, fired, &okcount);

    /* nothing of the failed call is left to fail a later one: the fault
       is spent, so every rank's sync succeeds */
    crc = MPI_File_sync(fh);
    if (MPI_SUCCESS != crc) {
        FAILF("%s: MPI_File_sync after the call failed: %s", what, class_name(crc));
    }

    /* the file can be closed: a close error is the same on every rank */
    crc = MPI_File_close(&fh);
    if (MPI_SUCCESS != crc) {
        MPI_Error_class(crc, &ccls);
    }
    call = malloc(sizeof(int) * nprocs);
    MPI_Allgather(&ccls, 1, MPI_INT, call, 1, MPI_INT, MPI_COMM_WORLD);
    for (i = 1; i < (size_t) nprocs; i++) {
        if (call[i] != call[0]) {
            FAILF("%s: MPI_File_close: ranks disagree (%d, %d)", what, call[0], call[i]);
            break;
        }
    }
    free(call);

    if (!shared) {
        verify_file(what, path, (size_t) okcount, 1, 0);
    } else {
        /* the shared pointer's offsets are known when every write before
           mine was whole */
        int whole = (MPI_SUCCESS == rc), allwhole = 0;
        MPI_Allreduce(&whole, &allwhole, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (allwhole) {
            verify_file(what, path, (size_t) okcount, 1, 1);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        MPI_File_delete(path, MPI_INFO_NULL);
    }
    free(b);
}

static void read_case(const char *op)
{
    char path[4096];
    unsigned char *b = malloc(nbytes);
    MPI_File fh;
    MPI_Status st;
    MPI_Request req;
    int rc, count = 0, okcount, fired, coll;
    size_t i;

    /* the file, written without faults */
    for (i = 0; i < nbytes; i++) {
        b[i] = pattern(rank, i, 2);
    }
    snprintf(path, sizeof(path), "%s/%s.dat", dir, op);
    rc = open_file(path, MPI_MODE_CREATE | MPI_MODE_RDWR, &fh);
    if (MPI_SUCCESS != rc) {
        FAILF("%s: cannot open %s: %s", op, path, class_name(rc));
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    set_view(fh);
    rc = MPI_File_write_at_all(fh, 0, b, (int) nbytes, MPI_BYTE, MPI_STATUS_IGNORE);
    if (MPI_SUCCESS != rc) {
        FAILF("%s: writing the file to read: %s", op, class_name(rc));
    }
    MPI_File_close(&fh);

    memset(b, 0, nbytes);
    open_file(path, MPI_MODE_RDONLY, &fh);
    set_view(fh);
    coll = !strcmp(op, "read_at_all") || !strcmp(op, "read_all") || strstr(op, "_begin");
    memset(&st, 0, sizeof(st));
    arm(path, 'r');
    if (!strcmp(op, "read_at_all")) {
        rc = MPI_File_read_at_all(fh, 0, b, (int) nbytes, MPI_BYTE, &st);
    } else if (!strcmp(op, "read_all")) {
        rc = MPI_File_read_all(fh, b, (int) nbytes, MPI_BYTE, &st);
    } else if (!strcmp(op, "read_all_begin") || !strcmp(op, "read_at_all_begin")) {
        int erc;
        if (0 == strncmp(op, "read_at_", 8)) {
            rc = MPI_File_read_at_all_begin(fh, 0, b, (int) nbytes, MPI_BYTE);
            erc = MPI_File_read_at_all_end(fh, b, &st);
        } else {
            rc = MPI_File_read_all_begin(fh, b, (int) nbytes, MPI_BYTE);
            erc = MPI_File_read_all_end(fh, b, &st);
        }
        if (MPI_SUCCESS == rc) {
            rc = erc;
        }
    } else if (!strcmp(op, "read_at")) {
        rc = MPI_File_read_at(fh, 0, b, (int) nbytes, MPI_BYTE, &st);
    } else {
        rc = MPI_File_iread_at(fh, 0, b, (int) nbytes, MPI_BYTE, &req);
        if (MPI_SUCCESS == rc) {
            rc = MPI_Wait(&req, &st);
        }
    }
    fired = disarm();
    MPI_Get_count(&st, MPI_BYTE, &count);
    if (count < 0 || MPI_UNDEFINED == count) {
        count = 0;
    }
    judge(op, coll, rc, count, nbytes, fired, &okcount);
    for (i = 0; i < (size_t) okcount; i++) {
        if (b[i] != pattern(rank, i, 2)) {
            FAILF("%s: status claims %d bytes read, byte %zu of them is wrong", op, okcount, i);
            break;
        }
    }
    rc = MPI_File_close(&fh);
    if (MPI_SUCCESS != rc) {
        FAILF("%s: MPI_File_close after a read: %s", op, class_name(rc));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        MPI_File_delete(path, MPI_INFO_NULL);
    }
    free(b);
}

/* MPI_File_set_size and MPI_File_close are collective: rank 1's failed
   ftruncate or close fails them everywhere, with one class (stock 4.1.4
   broadcast rank 0's ftruncate result alone, and MPI_File_close never
   returned an error) */
static void meta_case(const char *op)
{
    char path[4096];
    unsigned char b[4096];
    MPI_File fh;
    int rc, okcount, fired, closed = 0;

    memset(b, rank, sizeof(b));
    snprintf(path, sizeof(path), "%s/%s.dat", dir, op);
    fresh_file(path, op, &fh);
    MPI_File_write_at_all(fh, (MPI_Offset) rank * sizeof(b), b, sizeof(b), MPI_BYTE,
                          MPI_STATUS_IGNORE);
    if (NULL != shim_arm && 1 == rank) {
        shim_arm(path, 'c' == op[0] ? 'c' : 't', 'e', 1);
    }
    if ('c' == op[0]) {
        rc = MPI_File_close(&fh);
        closed = 1;
    } else {
        rc = MPI_File_set_size(fh, 3 * sizeof(b));
    }
    fired = disarm();
    judge(op, 1, rc, 0, 0, fired, &okcount);
    if (fired > 0 && MPI_SUCCESS != rc) {
        int cls;
        MPI_Error_class(rc, &cls);
        if (MPI_ERR_IO != cls) {
            FAILF("%s: an EIO reported as %s, not MPI_ERR_IO", op, class_name(cls));
        }
    }
    if (closed && MPI_FILE_NULL != fh) {
        FAILF("%s: the handle is not MPI_FILE_NULL after MPI_File_close", op);
    }
    if (!closed && MPI_SUCCESS != MPI_File_close(&fh)) {
        FAILF("%s: MPI_File_close after the call failed", op);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        MPI_File_delete(path, MPI_INFO_NULL);
    }
}

/* MPI_File_sync is collective: rank 0's failed fsync fails it everywhere */
static void sync_case(void)
{
    char path[4096];
    unsigned char b[4096];
    MPI_File fh;
    int rc, okcount, fired;

    memset(b, rank, sizeof(b));
    snprintf(path, sizeof(path), "%s/sync.dat", dir);
    rc = open_file(path, MPI_MODE_CREATE | MPI_MODE_RDWR, &fh);
    if (MPI_SUCCESS != rc) {
        FAILF("sync: cannot open %s: %s", path, class_name(rc));
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_File_write_at(fh, (MPI_Offset) rank * sizeof(b), b, sizeof(b), MPI_BYTE, MPI_STATUS_IGNORE);
    arm(path, 'f');
    rc = MPI_File_sync(fh);
    fired = disarm();
    judge("sync", 1, rc, 0, 0, fired, &okcount);
    rc = MPI_File_close(&fh);
    if (MPI_SUCCESS != rc) {
        FAILF("sync: MPI_File_close: %s", class_name(rc));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        MPI_File_delete(path, MPI_INFO_NULL);
    }
}

/* eagain-aio: aio submissions of rank 0 fail from the nth on (see above). */
#define AIO_PIECE 16
#define AIO_PIECES 2100
static void aio_case(int write, int nth)
{
    size_t n = (size_t) AIO_PIECE * AIO_PIECES, i;
    unsigned char *b = malloc(n);
    char path[4096], what[64];
    MPI_Request req;
    MPI_Status st;
    MPI_File fh;
    int rc, cls = MPI_SUCCESS, count = 0, fired;

    snprintf(path, sizeof(path), "%s/aio-%s-%d.dat", dir, write ? "w" : "r", nth);
    snprintf(what, sizeof(what), "%s, submission %d on", write ? "iwrite_at" : "iread_at", nth);
    for (i = 0; i < n; i++) {
        b[i] = pattern(rank, i, 1);
    }
    fresh_file(path, what, &fh);
    set_view_pieces(fh, AIO_PIECE);
    if (!write) {
        /* a file to read: written whole first, without faults */
        rc = MPI_File_write_at_all(fh, 0, b, (int) n, MPI_BYTE, MPI_STATUS_IGNORE);
        if (MPI_SUCCESS != rc) {
            FAILF("%s: writing the file to read: %s", what, class_name(rc));
        }
        memset(b, 0, n);
    }
    if (NULL != shim_arm && 0 == rank) {
        shim_arm(path, 'a', 'g', nth);
    }
    memset(&st, 0, sizeof(st));
    rc = write ? MPI_File_iwrite_at(fh, 0, b, (int) n, MPI_BYTE, &req)
               : MPI_File_iread_at(fh, 0, b, (int) n, MPI_BYTE, &req);
    if (MPI_SUCCESS == rc) {
        rc = MPI_Wait(&req, &st);
    }
    fired = disarm();
    if (MPI_SUCCESS != rc) {
        MPI_Error_class(rc, &cls);
    } else {
        MPI_Get_count(&st, MPI_BYTE, &count);
    }
    if (0 == fired) {
        FAILF("%s: the injected fault never fired, nothing was tested", what);
    }
    if (0 == rank && MPI_ERR_IO != cls) {
        FAILF("%s: rank 0's aio submission failed, and its request returned %s, not MPI_ERR_IO",
              what, class_name(cls));
    }
    if (0 != rank && MPI_SUCCESS != cls) {
        FAILF("%s: rank %d's request failed (%s), though no fault hit it", what, rank,
              class_name(cls));
    }
    if (MPI_SUCCESS == cls && (size_t) count != n) {
        FAILF("%s: success, but the status counts %d of %zu bytes", what, count, n);
    }
    if (MPI_SUCCESS == cls && !write) {
        for (i = 0; i < n; i++) {
            if (b[i] != pattern(rank, i, 1)) {
                FAILF("%s: success, but byte %zu read is wrong", what, i);
                break;
            }
        }
    }
    if (0 == rank) {
        printf("eagain-aio %s: rank 0 %s; count %d (fault fired %d times)\n", what,
               class_name(cls), count, fired);
    }
    rc = MPI_File_close(&fh);
    if (MPI_SUCCESS != rc) {
        FAILF("%s: MPI_File_close: %s", what, class_name(rc));
    }
    free(b);
}

/* after the faults the library still works: a second file, written and
 * read back collectively */
static void still_works(void)
{
    char path[4096];
    unsigned char *b = malloc(nbytes), *c = malloc(nbytes);
    MPI_File fh;
    int rc;
    size_t i;

    snprintf(path, sizeof(path), "%s/second.dat", okdir);
    for (i = 0; i < nbytes; i++) {
        b[i] = pattern(rank, i, 3);
    }
    rc = open_file(path, MPI_MODE_CREATE | MPI_MODE_RDWR, &fh);
    if (MPI_SUCCESS == rc) {
        set_view(fh);
        rc = MPI_File_write_at_all(fh, 0, b, (int) nbytes, MPI_BYTE, MPI_STATUS_IGNORE);
        if (MPI_SUCCESS == rc) {
            rc = MPI_File_read_at_all(fh, 0, c, (int) nbytes, MPI_BYTE, MPI_STATUS_IGNORE);
        }
        if (MPI_SUCCESS == rc && 0 != memcmp(b, c, nbytes)) {
            FAILF("second file: read back differs");
        }
        if (MPI_SUCCESS == rc) {
            rc = MPI_File_close(&fh);
        }
    }
    if (MPI_SUCCESS != rc) {
        FAILF("second file after the faults: %s", class_name(rc));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        MPI_File_delete(path, MPI_INFO_NULL);
    }
    free(b);
    free(c);
}

int main(int argc, char **argv)
{
    static const char *writes[] = {"write_at_all", "write_all", "write_at", "iwrite_at",
                                   "write_shared", "write_ordered", "write_all_begin",
                                   "write_at_all_begin", NULL};
    static const char *reads[] = {"read_at_all", "read_all", "read_at", "iread_at",
                                  "read_all_begin", "read_at_all_begin", NULL};
    const char **ops, *maindir;
    char *list, *tok, *save = NULL;
    size_t bytes = 1 << 20;
    int i, total = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (argc < 4) {
        if (0 == rank) {
            fprintf(stderr, "usage: %s DIR OKDIR FAULT[,FAULT...] [BYTES] [reference]\n", argv[0]);
        }
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    maindir = argv[1];
    okdir = argv[2];
    list = strdup(argv[3]);
    if (argc > 4) {
        bytes = strtoul(argv[4], NULL, 10);
    }
    reference = argc > 5 && !strcmp(argv[5], "reference");
    shim_arm = (arm_fn) dlsym(RTLD_DEFAULT, "iofault_arm");
    shim_fired = (fired_fn) dlsym(RTLD_DEFAULT, "iofault_fired");

    for (tok = strtok_r(list, ",", &save); NULL != tok; tok = strtok_r(NULL, ",", &save)) {
        fault = tok;
        dir = maindir;
        nbytes = bytes;
        if (0 == strncmp(tok, "nospace:", 8)) {
            /* the small file system at the path given: 2 MiB a rank */
            dir = tok + 8;
            tok[7] = '\0';
            nbytes = 2 << 20;
        } else if (NULL == shim_arm) {
            if (0 == rank) {
                fprintf(stderr, "FAIL: fault %s needs the shim (LD_PRELOAD)\n", fault);
            }
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        if (0 == strcmp(fault, "eagain-aio")) {
            aio_case(1, 2);
            aio_case(1, 2049);
            aio_case(0, 2);
            aio_case(0, 2049);
            continue;
        }
        if (0 == strcmp(fault, "eio-meta")) {
            meta_case("set_size");
            meta_case("close");
            continue;
        }
        if (0 == strcmp(fault, "eio-lock")) {
            write_case("write_ordered");
            write_case("write_shared");
            continue;
        }
        ops = strstr(fault, "read") ? reads : writes;
        for (i = 0; ops[i]; i++) {
            if (strstr(fault, "read")) {
                read_case(ops[i]);
            } else {
                write_case(ops[i]);
            }
        }
        if (0 == strcmp(fault, "eio-write")) {
            sync_case();
        }
    }
    still_works();
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (0 == rank) {
        if (0 == total) {
            printf("io_faults: %s OK\n", argv[3]);
        } else {
            printf("io_faults: %s: %d findings\n", argv[3], total);
        }
    }
    free(list);
    MPI_Finalize();
    return (0 == total || reference) ? 0 : 1;
}
