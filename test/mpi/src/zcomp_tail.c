/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * A compressed message must write the receive buffer where the message's
 * data go and nowhere else (found by mpi4py's suite, issue 23):
 *  - "tail": a receive of 2 elements gets a message of 1; the second
 *    element must keep its value (ob1 used to unpack zcomp's header there);
 *  - "bcast": MPI_Bcast of an indexed block type (5 of every other
 *    element) of each predefined type, long double complex included, whose
 *    partial-element unpack overwrote the stack; the holes must keep their
 *    value, the blocks get the root's (all of it, or its value bytes where
 *    the datatype engine does not unpack a long double's padding).
 * Prints "zcomp_tail: N failed"; exit status 1 on any failure.
 */
#include <float.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define NT 9
static MPI_Datatype types[NT];

/* Does the library's datatype engine write the padding of an x86 long
 * double (10 bytes of value in 16)?  Open MPI 4.1's does; 5.0's unpacks
 * the 10 value bytes only, MPI_Unpack as well, and zcomp unpacks through
 * that engine.  Asked of MPI_Unpack itself, so a block is checked whole
 * wherever the engine writes it whole. */
static int pad_written = 1;

static void probe_padding(void)
{
#if LDBL_MANT_DIG == 64
    /* a non-contiguous type, as the test's: a contiguous one is copied
     * whole by any engine */
    unsigned char in[3 * 16], out[3 * 16], packed[64];
    int idx[2] = {0, 2}, pos = 0, upos = 0;
    MPI_Datatype nt;
    if (sizeof(long double) != 16) {
        return;
    }
    MPI_Type_create_indexed_block(2, 1, idx, MPI_LONG_DOUBLE, &nt);
    MPI_Type_commit(&nt);
    memset(in, 0x11, sizeof(in));
    memset(out, 0xee, sizeof(out));
    MPI_Pack(in, 1, nt, packed, sizeof(packed), &pos, MPI_COMM_SELF);
    MPI_Unpack(packed, pos, &upos, out, 1, nt, MPI_COMM_SELF);
    pad_written = out[15] == 0x11;
    MPI_Type_free(&nt);
#endif
}

/* Must byte b of an element of types[t] be received?  Not the padding of
 * a long double where the engine leaves it (probe_padding). */
static int must_write(int t, int b)
{
    if (!pad_written && (types[t] == MPI_LONG_DOUBLE || types[t] == MPI_C_LONG_DOUBLE_COMPLEX)) {
        return b % 16 < 10;
    }
    return 1;
}

int main(int argc, char **argv)
{
    int rank, size, provided, failed = 0, t, i, root;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    probe_padding();
    types[0] = MPI_SIGNED_CHAR; types[1] = MPI_SHORT; types[2] = MPI_INT;
    types[3] = MPI_LONG; types[4] = MPI_FLOAT; types[5] = MPI_DOUBLE;
    types[6] = MPI_LONG_DOUBLE; types[7] = MPI_C_DOUBLE_COMPLEX;
    types[8] = MPI_C_LONG_DOUBLE_COMPLEX;

    for (t = 0; t < NT; t++) {
        int sz, n;
        unsigned char sb[64], rb[128];
        MPI_Status st;
        MPI_Type_size(types[t], &sz);
        memset(sb, 1, sizeof(sb));
        memset(rb, 0xff, sizeof(rb));
        MPI_Sendrecv(sb, 1, types[t], (rank + 1) % size, 0, rb, 2, types[t],
                     (rank + size - 1) % size, 0, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, types[t], &n);
        if (1 != n) {
            printf("tail: type %d: count %d, not 1\n", t, n);
            failed++;
        }
        for (i = 0; i < 2 * sz; i++) {
            if (rb[i] != (i < sz ? 1 : 0xff)) {
                printf("tail: type %d (%d bytes): byte %d is %d\n", t, sz, i, rb[i]);
                failed++;
                break;
            }
        }
    }

    for (t = 0; t < NT; t++) {
        int idx[5] = {0, 2, 4, 6, 8}, sz;
        MPI_Datatype nt;
        MPI_Type_size(types[t], &sz);
        MPI_Type_create_indexed_block(5, 1, idx, types[t], &nt);
        MPI_Type_commit(&nt);
        for (root = 0; root < size; root++) {
            /* 10 elements and a guard element after them */
            unsigned char buf[11 * 32];
            memset(buf, rank == root ? 0x11 : 0xee, sizeof(buf));
            MPI_Bcast(buf, 1, nt, root, MPI_COMM_WORLD);
            for (i = 0; i < 11 * sz; i++) {
                int elem = i / sz, block = elem % 2 == 0 && elem < 10;
                int want = (rank == root || block) ? 0x11 : 0xee;
                if (rank != root && block && !must_write(t, i % sz)) {
                    continue;
                }
                if (buf[i] != want) {
                    printf("bcast: type %d root %d: byte %d is %d, not %d\n", t, root, i, buf[i], want);
                    failed++;
                    break;
                }
            }
        }
        MPI_Type_free(&nt);
    }
    printf("zcomp_tail: rank %d: %d failed\n", rank, failed);
    MPI_Finalize();
    return failed ? 1 : 0;
}
