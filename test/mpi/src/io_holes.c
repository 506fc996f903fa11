/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * io_holes FILE [CELLS]: a collective write with gaps into a new file must
 * leave the gaps as the file system leaves them, zero.  The file is cut
 * into 32-byte cells, cell c belongs to rank c % size, and each rank writes
 * the first 8, 12 or 16 bytes of its cells (by cell: the gaps do not
 * repeat with the sieve's chunks) with one MPI_File_write_all through an
 * indexed view: no process writes the rest of any cell.  An aggregator
 * that sieves (reads the span, fills the pieces in, writes the span once)
 * reads nothing there, the file being new, and must write zeros back, not
 * whatever its buffer held (run it with MALLOC_PERTURB_ set, so that a
 * buffer from the heap is never zero by chance).  Rank 0 then reads the
 * file with pread(2) and checks every byte and the size, and every rank
 * reads its pieces back with MPI_File_read_all through the same view.
 * Prints "io_holes: OK ..." or FAIL lines and exits non-zero.
 */
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CELL 32

static int piece_len(long cell)
{
    return 8 + (int) (cell % 3) * 4;
}

static unsigned char expect_byte(long cell, int i)
{
    return (unsigned char) (1 + (cell * 7 + i) % 251); /* never zero */
}

int main(int argc, char **argv)
{
    int rank, size, rc, bad = 0, all_bad, *blen, *disp;
    long cells, mine, k, nbytes = 0;
    MPI_File fh;
    MPI_Datatype vec;
    unsigned char *buf, *back;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 2) {
        if (0 == rank) {
            fprintf(stderr, "usage: io_holes FILE [CELLS]\n");
        }
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    cells = argc > 2 ? atol(argv[2]) : 4096;
    cells -= cells % size;
    mine = cells / size;

    if (0 == rank) {
        unlink(argv[1]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    buf = malloc((size_t) mine * CELL);
    back = calloc(1, (size_t) mine * CELL);
    blen = malloc((size_t) mine * sizeof(int));
    disp = malloc((size_t) mine * sizeof(int));
    /* my pieces: the head of every size-th cell, from cell rank on */
    for (k = 0; k < mine; k++) {
        long cell = k * size + rank;
        blen[k] = piece_len(cell);
        disp[k] = (int) (k * size * CELL);
        for (int i = 0; i < blen[k]; i++) {
            buf[nbytes++] = expect_byte(cell, i);
        }
    }
    MPI_Type_indexed((int) mine, blen, disp, MPI_BYTE, &vec);
    MPI_Type_commit(&vec);
    rc = MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE | MPI_MODE_WRONLY,
                       MPI_INFO_NULL, &fh);
    if (MPI_SUCCESS != rc) {
        fprintf(stderr, "io_holes: FAIL rank %d cannot open %s\n", rank, argv[1]);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_File_set_view(fh, (MPI_Offset) rank * CELL, MPI_BYTE, vec, "native", MPI_INFO_NULL);
    rc = MPI_File_write_all(fh, buf, (int) nbytes, MPI_BYTE, MPI_STATUS_IGNORE);
    if (MPI_SUCCESS != rc) {
        printf("io_holes: FAIL rank %d: write_all returned an error\n", rank);
        bad = 1;
    }
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);

    /* my pieces back, collectively (a sieving read, in chunks) */
    rc = MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    if (MPI_SUCCESS == rc) {
        MPI_File_set_view(fh, (MPI_Offset) rank * CELL, MPI_BYTE, vec, "native", MPI_INFO_NULL);
        rc = MPI_File_read_all(fh, back, (int) nbytes, MPI_BYTE, MPI_STATUS_IGNORE);
        MPI_File_close(&fh);
    }
    if (MPI_SUCCESS != rc || 0 != memcmp(buf, back, (size_t) nbytes)) {
        printf("io_holes: FAIL rank %d: read_all did not give my pieces back\n", rank);
        bad = 1;
    }
    MPI_Type_free(&vec);

    if (0 == rank && !bad) {
        /* the file ends with the last piece: its last cell's gap is not in it */
        long want = (cells - 1) * CELL + piece_len(cells - 1), got, zeros_bad = 0, data_bad = 0;
        unsigned char *f = malloc((size_t) want + CELL);
        int fd = open(argv[1], O_RDONLY);
        got = fd < 0 ? -1 : (long) pread(fd, f, (size_t) want + CELL, 0);
        if (fd >= 0) {
            close(fd);
        }
        if (got != want) {
            printf("io_holes: FAIL the file has %ld bytes, expected %ld\n", got, want);
            bad = 1;
        } else {
            for (k = 0; k < want; k++) {
                long cell = k / CELL;
                int i = (int) (k % CELL);
                if (i >= piece_len(cell)) {
                    if (0 != f[k] && zeros_bad++ < 5) {
                        printf("io_holes: FAIL gap byte at offset %ld is 0x%02x, not zero\n", k,
                               f[k]);
                    }
                } else if (f[k] != expect_byte(cell, i) && data_bad++ < 5) {
                    printf("io_holes: FAIL data byte at offset %ld is 0x%02x, expected 0x%02x\n",
                           k, f[k], expect_byte(cell, i));
                }
            }
            if (zeros_bad || data_bad) {
                printf("io_holes: FAIL %ld gap bytes not zero, %ld data bytes wrong\n", zeros_bad,
                       data_bad);
                bad = 1;
            }
        }
        free(f);
    }
    MPI_Allreduce(&bad, &all_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (0 == rank && !all_bad) {
        printf("io_holes: OK %ld cells of %d bytes on %d ranks, gaps zero\n", cells, CELL, size);
    }
    free(buf);
    free(back);
    free(blen);
    free(disp);
    MPI_Finalize();
    return all_bad;
}
