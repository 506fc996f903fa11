/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * The seed's 11 MADRE redistributions (n ranks, this one r), each with its
 * own block type and then with the other two of int, double and
 * struct {double; char}:
 *   1  2 x 1 double: slot 0 -> ((r+1)%n, 0), slot 1 free
 *   2  3 x 3 int: 0 -> (r,1), 1 -> (r,2), 2 -> ((r+1)%n, 0)
 *   3  3 x 3 int: i -> ((r+1)%n, i)                      (no free slot)
 *   4  3 x 2 struct: i -> (r+1, i) for r < n-1; rank n-1 all free
 *   5  gather: rank 0 has 3n slots (0..2 live), others 3; rank q's i ->
 *      (0, 3((q+1)%n)+i), so rank 0's own blocks move too
 *   6  scatter: rank 0's 3n slots live, others' free; (0, 3q+i) -> ((q+1)%n, i)
 *   7  both (2-cycles): (0, 3q+i) <-> (q, i) for q >= 1, rank 0's slots
 *      0..2 reversed in place
 *   8  r slots on rank r, reversed in place (rank 0 has none)
 *   9  10 x 1 int: (r,i) -> ((r+3)%n, (i+4)%10)
 *   10 70 x 1 int: (r,i) -> ((r+3)%n, (i+15)%70)
 *   11 r+1 slots on rank r: (r,i) -> (n-1-i, n-1-r)    (a permutation)
 * Each: create, execute, refill, execute again, free (the handle becomes
 * MPIX_REDIST_NULL), MPIX_Redistribute; every element checked byte for
 * byte, the MPI_T counts checked (see redist_util.c).
 *
 *   redist_seed [-c COMPONENT] [-t TEST]
 * -c: info key redist_component; -t: only test TEST (1..11).
 * Prints "seed <t> <name>: int=ok double=ok struct=ok" per test (a
 * component that may refuse a map shows "=refused") and
 * "redist_seed: 11 tests, N refused, 0 failed"; on a wrong byte it prints
 * where and calls MPI_Abort.
 */
#include "redist_util.c"

static const char *test_name[12] = {
    "", "one-double-to-next", "local-chain-and-next", "ring-full", "chain-to-free-rank",
    "gather", "scatter", "gather-and-scatter", "local-reverse", "shift-3-4",
    "shift-3-15-70", "transpose-triangle"};

/* This rank's part of test t: slot count, block count, own type. */
static int seed_map(int t, int *nb, int **dr, int **ds, int *count)
{
    int r = rank, n = nprocs, k = K_INT;
    int m = (5 == t || 6 == t || 7 == t) ? (0 == r ? 3 * n : 3)
            : 1 == t ? 2 : 2 == t || 3 == t || 4 == t ? 3 : 8 == t ? r : 9 == t ? 10
            : 10 == t ? 70 : r + 1;
    int *R = malloc((m + 1) * sizeof(int)), *S = malloc((m + 1) * sizeof(int));
    *count = 2 == t || 3 == t ? 3 : 4 == t ? 2 : 1;
    for (int i = 0; i < m; i++) {
        R[i] = MPIX_REDIST_FREE;
        S[i] = -1;
        switch (t) {
        case 1:
            k = K_DOUBLE;
            if (0 == i) {
                R[i] = (r + 1) % n;
                S[i] = 0;
            }
            break;
        case 2:
            R[i] = 2 == i ? (r + 1) % n : r;
            S[i] = 2 == i ? 0 : i + 1;
            break;
        case 3:
            R[i] = (r + 1) % n;
            S[i] = i;
            break;
        case 4:
            k = K_REC;
            if (r < n - 1) {
                R[i] = r + 1;
                S[i] = i;
            }
            break;
        case 5:
            if (0 != r || i < 3) {
                R[i] = 0;
                S[i] = 3 * ((r + 1) % n) + i;
            }
            break;
        case 6:
            if (0 == r) {
                R[i] = (i / 3 + 1) % n;
                S[i] = i % 3;
            }
            break;
        case 7:
            if (0 != r) {
                R[i] = 0;
                S[i] = 3 * r + i;
            } else if (i < 3) {
                R[i] = 0;
                S[i] = 2 - i;
            } else {
                R[i] = i / 3;
                S[i] = i % 3;
            }
            break;
        case 8:
            R[i] = r;
            S[i] = r - 1 - i;
            break;
        case 9:
            R[i] = (r + 3) % n;
            S[i] = (i + 4) % 10;
            break;
        case 10:
            R[i] = (r + 3) % n;
            S[i] = (i + 15) % 70;
            break;
        case 11:
            R[i] = n - 1 - i;
            S[i] = n - 1 - r;
            break;
        }
    }
    *nb = m;
    *dr = R;
    *ds = S;
    return k;
}

int main(int argc, char **argv)
{
    int refused = 0, only = 0, ntests = 0;
    setup(&argc, &argv);
    if (argc > 2 && 0 == strcmp(argv[1], "-t")) {
        only = atoi(argv[2]);
    }
    if (0 == rank) {
        printf("redist_seed: %d ranks, component %s%s\n", nprocs, comp ? comp : "(default)",
               MPI_INFO_NULL != info ? " (info key)" : "");
        fflush(stdout);
    }
    for (int t = 1; t <= 11; t++) {
        if (only && t != only) {
            continue;
        }
        ntests++;
        int nb, count, *dr, *ds;
        int own = seed_map(t, &nb, &dr, &ds, &count);
        int kinds[3] = {own, K_INT == own ? K_DOUBLE : K_INT, K_REC == own ? K_DOUBLE : K_REC};
        char line[256];
        int len = snprintf(line, sizeof(line), "seed %d %s:", t, test_name[t]);
        for (int j = 0; j < 3; j++) {
            char label[128];
            struct gmap *g = gmap_allgather(nb, dr, ds);
            g->count = count;
            g->t = &T[kinds[j]];
            snprintf(label, sizeof(label), "test %d (%s, %s)", t, test_name[t], g->t->name);
            gmap_prepare(g, label);
            int st = run_map(g, label);
            refused += MAP_REFUSED == st;
            len += snprintf(line + len, sizeof(line) - len, " %s=%s", g->t->name,
                            MAP_OK == st ? "ok" : "refused");
            gmap_free(g);
        }
        if (0 == rank) {
            printf("%s\n", line);
            fflush(stdout);
        }
        free(dr);
        free(ds);
    }
    if (0 == rank) {
        printf("redist_seed: %d tests, %d refused, 0 failed\n", ntests, refused);
    }
    teardown();
    return 0;
}
