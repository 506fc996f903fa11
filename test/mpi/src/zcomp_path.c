/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * pml/zcomp's path estimate follows the network the application gets
 * (issue 39): rank 0 sends rank 1 (on another node) a stream of blocking
 * messages of one data set, in phases; before each phase after the first,
 * rank 0 runs a command that changes the link's speed (tc).  For every
 * message rank 0 prints whether it went compressed (C), raw (r) or as a
 * raw probe (p), from zcomp's counters, and its time; rank 1 checks every
 * message's bytes.  Without zcomp (plain ob1) the decisions print as '-'.
 *
 *   zcomp_path --set NAME --size BYTES --n MESSAGES [--bytes] [--late MS] [CMD ...]
 *
 * Messages are of the data set's own type (dataset_mpi_type: zcomp picks
 * codecs by it), or MPI_BYTE with --bytes.  --late MS: rank 1 posts each
 * receive MS milliseconds after the previous message (busy elsewhere, as
 * an application computing between messages).
 * One phase of MESSAGES messages, then one more per CMD, each after
 * system(CMD) (on rank 0, with a barrier around it).  Output (rank 0):
 *   phase <k> <decisions, e.g. rrCCCC> ms <time of each message ...>
 *   zcomp_path: <n> failed
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "datasets.h"
#include "datasets_mpi.h"
#include "mpi_pvar.h"

static MPI_T_pvar_session sess;
static MPI_T_pvar_handle h_comp, h_probe;
static int have_zcomp; /* its counters exist: zcomp is enabled */

static unsigned long long pvar(MPI_T_pvar_handle h)
{
    unsigned long long v = 0;
    if (have_zcomp) {
        MPI_T_pvar_read(sess, h, &v);
    }
    return v;
}

static int alloc_counter(const char *name, MPI_T_pvar_handle *h)
{
    int idx = test_pvar_index(name, NULL, NULL), count;
    if (idx < 0) {
        return 0;
    }
    MPI_T_pvar_handle_alloc(sess, idx, NULL, h, &count);
    MPI_T_pvar_start(sess, *h);
    return 1;
}

int main(int argc, char **argv)
{
    const char *set = "int-50%zero";
    size_t size = 16u << 20;
    int n = 8, rank, nprocs, provided, i, k, m, first_cmd = argc, failures = 0;
    const dataset_t *ds;
    unsigned char *buf, *ref;
    MPI_Datatype dt;
    int count, as_bytes = 0, late_ms = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    for (i = 1; i < argc; i++) {
        if (0 == strcmp(argv[i], "--set") && i + 1 < argc) {
            set = argv[++i];
        } else if (0 == strcmp(argv[i], "--size") && i + 1 < argc) {
            size = strtoull(argv[++i], NULL, 10);
        } else if (0 == strcmp(argv[i], "--n") && i + 1 < argc) {
            n = atoi(argv[++i]);
        } else if (0 == strcmp(argv[i], "--bytes")) {
            as_bytes = 1;
        } else if (0 == strcmp(argv[i], "--late") && i + 1 < argc) {
            late_ms = atoi(argv[++i]);
        } else {
            first_cmd = i;
            break;
        }
    }
    ds = dataset_find(set);
    if (NULL == ds || nprocs < 2 || size < 8 || n < 1) {
        if (0 == rank) {
            fprintf(stderr, "usage: zcomp_path --set NAME --size BYTES --n N [CMD ...], 2+ ranks\n");
        }
        MPI_Finalize();
        return 2;
    }
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_T_pvar_session_create(&sess);
    if (0 == rank) {
        have_zcomp = alloc_counter("pml_zcomp_messages_compressed", &h_comp)
                     && alloc_counter("pml_zcomp_probes", &h_probe);
    }
    /* the data set's own datatype: zcomp picks codecs by it (fpc for
     * doubles...); whole elements only */
    dt = as_bytes ? MPI_BYTE : dataset_mpi_type(ds);
    {
        size_t esz = MPI_BYTE == dt ? 1 : (size_t) ds->elem_size;
        size -= size % esz;
        count = (int) (size / esz);
    }
    buf = malloc(size);
    ref = malloc(size);
    CHECK(NULL != buf && NULL != ref, "out of memory");
    ds->fill(ref, size, 7);

    for (k = 0; first_cmd + k - 1 < argc; k++) {
        char line[4096], dec[1024];
        int o = 0;
        double *ms = calloc((size_t) n, sizeof(double));
        if (k > 0) {
            MPI_Barrier(MPI_COMM_WORLD);
            if (0 == rank && 0 != system(argv[first_cmd + k - 1])) {
                fprintf(stderr, "zcomp_path: command failed: %s\n", argv[first_cmd + k - 1]);
                MPI_Abort(MPI_COMM_WORLD, 2);
            }
            MPI_Barrier(MPI_COMM_WORLD);
        }
        for (m = 0; m < n; m++) {
            /* each message differs from the last in its first word */
            uint64_t tag = (uint64_t) k * 1000 + (uint64_t) m;
            if (0 == rank) {
                unsigned long long c0 = pvar(h_comp), p0 = pvar(h_probe);
                double t0;
                memcpy(buf, ref, size);
                memcpy(buf, &tag, sizeof(tag));
                t0 = MPI_Wtime();
                MPI_Send(buf, count, dt, 1, 1, MPI_COMM_WORLD);
                /* the receiver's answer ends the transfer */
                MPI_Recv(NULL, 0, MPI_BYTE, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                ms[m] = 1e3 * (MPI_Wtime() - t0);
                dec[m < (int) sizeof(dec) - 1 ? m : (int) sizeof(dec) - 2] =
                    !have_zcomp ? '-' : pvar(h_probe) > p0 ? 'p' : pvar(h_comp) > c0 ? 'C' : 'r';
            } else if (1 == rank) {
                memset(buf, 0xa5, size);
                if (late_ms > 0) {
                    struct timespec ts = {late_ms / 1000, (long) (late_ms % 1000) * 1000000L};
                    nanosleep(&ts, NULL);
                }
                MPI_Recv(buf, count, dt, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(NULL, 0, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
                if (0 != memcmp(buf, &tag, sizeof(tag))
                    || 0 != memcmp(buf + sizeof(tag), ref + sizeof(tag), size - sizeof(tag))) {
                    fprintf(stderr, "FAIL: phase %d message %d: data differ\n", k, m);
                    failures++;
                }
            }
        }
        if (0 == rank) {
            dec[n < (int) sizeof(dec) - 1 ? n : (int) sizeof(dec) - 1] = '\0';
            o = snprintf(line, sizeof(line), "phase %d %s ms", k, dec);
            for (m = 0; m < n && o < (int) sizeof(line) - 16; m++) {
                o += snprintf(line + o, sizeof(line) - (size_t) o, " %.1f", ms[m]);
            }
            printf("%s\n", line);
            fflush(stdout);
        }
        free(ms);
    }
    MPI_Allreduce(MPI_IN_PLACE, &failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (0 == rank) {
        printf("zcomp_path: %d failed\n", failures);
    }
    if (have_zcomp) {
        MPI_T_pvar_handle_free(sess, &h_comp);
        MPI_T_pvar_handle_free(sess, &h_probe);
    }
    MPI_T_pvar_session_free(&sess);
    MPI_T_finalize();
    free(buf);
    free(ref);
    MPI_Finalize();
    return failures ? 1 : 0;
}
