/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * pml/zcomp's adaptive choice follows the data when it changes within one
 * message class (datatype, size).  Rank 0 sends rank 1 three phases of
 * 4 MB MPI_DOUBLE messages: 75 %-zero doubles (zstd or rle is best), then
 * patterned doubles (fpc is best by far: 16x against zstd's 8x, which the
 * class's previous choice already improves on), then random doubles
 * (nothing compresses).  Run on a path zcomp is told is slow, so that only
 * ratios decide.  The per-codec MPI_T counters show what each phase used;
 * rank 1 checks every message's data.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datasets.h"

#define MSG (4u << 20)
#define PER_PHASE 8

static MPI_T_pvar_session sess;
static MPI_T_pvar_handle h_fpc, h_comp, h_raw;
static int have_fpc, have_comp, have_raw;

static int pvar_open(const char *want, MPI_T_pvar_handle *h)
{
    int i, count;
    return MPI_SUCCESS == MPI_T_pvar_get_index(want, MPI_T_PVAR_CLASS_COUNTER, &i)
           && MPI_SUCCESS == MPI_T_pvar_handle_alloc(sess, i, NULL, h, &count);
}

static unsigned long long pv(int have, MPI_T_pvar_handle h)
{
    unsigned long long v = 0;
    if (have) {
        MPI_T_pvar_read(sess, h, &v);
    }
    return v;
}

static const dataset_t *set(const char *name)
{
    const dataset_t *d = dataset_find(name);
    if (NULL != d) {
        return d;
    }
    fprintf(stderr, "zcomp_adapt: no data set %s\n", name);
    MPI_Abort(MPI_COMM_WORLD, 2);
    return NULL;
}

int main(int argc, char **argv)
{
    static const char *phases[3] = {"double-75%zero", "double-pattern", "random-bytes"};
    unsigned char *buf, *want;
    int rank, provided, p, m, failures = 0;
    unsigned long long fpc[4], comp[4], raw[4];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_T_pvar_session_create(&sess);
    have_fpc = pvar_open("pml_zcomp_fpc_messages", &h_fpc);
    have_comp = pvar_open("pml_zcomp_messages_compressed", &h_comp);
    have_raw = pvar_open("pml_zcomp_messages_raw", &h_raw);
    if (0 == rank && !(have_fpc && have_comp && have_raw)) {
        printf("FAIL: the pml_zcomp MPI_T counters are missing (is zcomp enabled?)\n");
        failures++;
    }
    buf = malloc(MSG);
    want = malloc(MSG);
    for (p = 0; p < 3; p++) {
        const dataset_t *d = set(phases[p]);
        fpc[p] = pv(have_fpc, h_fpc);
        comp[p] = pv(have_comp, h_comp);
        raw[p] = pv(have_raw, h_raw);
        for (m = 0; m < PER_PHASE; m++) {
            d->fill(want, MSG, 1000 * p + m); /* every message different */
            if (0 == rank) {
                MPI_Send(want, MSG / 8, MPI_DOUBLE, 1, p, MPI_COMM_WORLD);
            } else if (1 == rank) {
                memset(buf, 0xa5, MSG);
                MPI_Recv(buf, MSG / 8, MPI_DOUBLE, 0, p, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                if (0 != memcmp(buf, want, MSG)) {
                    printf("FAIL: %s message %d arrived different\n", phases[p], m);
                    failures++;
                }
            }
        }
    }
    fpc[3] = pv(have_fpc, h_fpc);
    comp[3] = pv(have_comp, h_comp);
    raw[3] = pv(have_raw, h_raw);
    if (0 == rank) {
        for (p = 0; p < 3; p++) {
            printf("phase %s: %llu compressed (%llu with fpc), %llu raw\n", phases[p],
                   comp[p + 1] - comp[p], fpc[p + 1] - fpc[p], raw[p + 1] - raw[p]);
        }
        /* the first phase must not already use fpc, or the second proves nothing */
        if (comp[1] - comp[0] < PER_PHASE - 1 || fpc[1] - fpc[0] > 1) {
            printf("FAIL: 75%%-zero doubles: expected compression without fpc\n");
            failures++;
        }
        /* the class may keep its old codec for the first message or two */
        if (fpc[2] - fpc[1] < PER_PHASE - 2) {
            printf("FAIL: patterned doubles: only %llu of %d messages with fpc\n",
                   fpc[2] - fpc[1], PER_PHASE);
            failures++;
        }
        if (raw[3] - raw[2] < PER_PHASE - 2) {
            printf("FAIL: random doubles: only %llu of %d messages raw\n", raw[3] - raw[2],
                   PER_PHASE);
            failures++;
        }
    }
    MPI_Allreduce(MPI_IN_PLACE, &failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (0 == rank) {
        printf("zcomp_adapt: %d failed\n", failures);
    }
    MPI_T_pvar_handle_free(sess, &h_fpc);
    MPI_T_pvar_handle_free(sess, &h_comp);
    MPI_T_pvar_handle_free(sess, &h_raw);
    MPI_T_pvar_session_free(&sess);
    MPI_T_finalize();
    free(buf);
    free(want);
    MPI_Finalize();
    return failures ? 1 : 0;
}
