/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Random MADRE redistributions.  Every rank draws the same maps from the
 * seed (its own generator, not rand()), so each knows the whole map and
 * what its slots must hold.  Map kinds:
 *   random      0..MAXSLOTS slots a rank, 0-50 % of them free, the live
 *               blocks sent to distinct slots drawn from all ranks' slots
 *   ring        the exp-3 ring: every slot live, the same slot count on
 *               every rank, all blocks of rank i to the same slot of
 *               rank (i+1)%n (no free slot anywhere)
 *   ring-free   the same with 0-50 % of the slots free
 *   permutation a random permutation of all slots of all ranks (every
 *               slot live, slot counts differ)
 * Block: 1 int, 4 KB of bytes, 64 KB of doubles (at most 16 slots a rank)
 * or 3 struct {double; char}.  Each map is checked as in redist_seed.c
 * (create, execute twice, free, MPIX_Redistribute; every byte and the
 * MPI_T counts).
 *
 *   redist_random SEED NMAPS [MAXSLOTS] [-c COMPONENT]
 * Prints "map <i>: <kind> <count> x <type>, <slots> slots, <live> live: ok"
 * (or "refused", only where the component may refuse), then
 * "redist_random: seed S, N maps, R refused, 0 failed".
 */
#include "redist_util.c"
#include "check.h"

static uint64_t rng;

static uint64_t rnd(void)
{
    return test_rand(&rng);
}

static int rnd_int(int lo, int hi) /* lo..hi inclusive */
{
    return lo + (int) (rnd() % (uint64_t) (hi - lo + 1));
}

static void shuffle(long *a, long n)
{
    for (long i = n - 1; i > 0; i--) {
        long j = (long) (rnd() % (uint64_t) (i + 1)), t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

enum { RANDOM, RING, RING_FREE, PERM };
static const char *kind_name[] = {"random", "ring", "ring-free", "permutation"};

/* Map number idx of the run with this seed; the same on every rank. */
static struct gmap *make_map(uint64_t seed, int idx, int maxslots, int *kind)
{
    struct gmap *g = gmap_new();
    int n = nprocs, u;
    rng = seed * 1000003ULL + (uint64_t) idx;
    rnd();

    u = rnd_int(0, 99);
    g->t = &T[u < 40 ? K_INT : u < 60 ? K_BYTE : u < 75 ? K_DOUBLE : K_REC];
    g->count = K_INT == g->t->k ? 1 : K_BYTE == g->t->k ? 4096 : K_DOUBLE == g->t->k ? 8192 : 3;
    if (K_DOUBLE == g->t->k && maxslots > 16) {
        maxslots = 16; /* 64 KB blocks */
    }
    u = rnd_int(0, 99);
    *kind = u < 55 ? RANDOM : u < 70 ? RING : u < 80 ? RING_FREE : PERM;
    int same = rnd_int(0, maxslots > 0 ? maxslots : 0);
    int freepct = RING == *kind || PERM == *kind ? 0 : rnd_int(0, 50);

    /* slot counts, then which slots are free */
    long total = 0;
    for (int r = 0; r < n; r++) {
        int nb = RING == *kind || RING_FREE == *kind ? same : rnd_int(0, maxslots);
        gmap_alloc_rank(g, r, nb);
        total += nb;
    }
    for (int r = 0; r < n; r++) {
        int nb = g->nb[r], nfree = (nb * freepct + 50) / 100;
        long *perm = malloc((nb + 1) * sizeof(long));
        for (int i = 0; i < nb; i++) {
            perm[i] = i;
            g->dr[r][i] = 0;
        }
        shuffle(perm, nb);
        for (int i = 0; i < nfree; i++) {
            g->dr[r][perm[i]] = MPIX_REDIST_FREE;
            g->ds[r][perm[i]] = -1;
        }
        free(perm);
    }

    if (RING == *kind || RING_FREE == *kind) {
        for (int r = 0; r < n; r++) {
            for (int i = 0; i < g->nb[r]; i++) {
                if (MPIX_REDIST_FREE != g->dr[r][i]) {
                    g->dr[r][i] = (r + 1) % n;
                    g->ds[r][i] = i;
                }
            }
        }
        return g;
    }
    /* live blocks to the first of a random order of all slots */
    long *all = malloc((total + 1) * sizeof(long)), k = 0;
    for (int r = 0; r < n; r++) {
        for (int i = 0; i < g->nb[r]; i++) {
            all[k++] = (long) r << 32 | i;
        }
    }
    shuffle(all, total);
    k = 0;
    for (int r = 0; r < n; r++) {
        for (int i = 0; i < g->nb[r]; i++) {
            if (MPIX_REDIST_FREE != g->dr[r][i]) {
                g->dr[r][i] = (int) (all[k] >> 32);
                g->ds[r][i] = (int) (all[k++] & 0xffffffff);
            }
        }
    }
    free(all);
    return g;
}

int main(int argc, char **argv)
{
    setup(&argc, &argv);
    if (argc < 3) {
        if (0 == rank) {
            fprintf(stderr, "usage: redist_random SEED NMAPS [MAXSLOTS] [-c COMPONENT]\n");
        }
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    uint64_t seed = strtoull(argv[1], NULL, 0);
    int nmaps = atoi(argv[2]), maxslots = argc > 3 ? atoi(argv[3]) : 64, refused = 0;
    if (0 == rank) {
        printf("redist_random: %d ranks, seed %llu, %d maps, up to %d slots a rank, component %s%s\n",
               nprocs, (unsigned long long) seed, nmaps, maxslots, comp ? comp : "(default)",
               MPI_INFO_NULL != info ? " (info key)" : "");
        fflush(stdout);
    }
    for (int m = 0; m < nmaps; m++) {
        int kind;
        char label[160];
        struct gmap *g = make_map(seed, m, maxslots, &kind);
        snprintf(label, sizeof(label), "seed %llu map %d (%s, %d x %s)", (unsigned long long) seed,
                 m, kind_name[kind], g->count, g->t->name);
        gmap_prepare(g, label);
        int st = run_map(g, label);
        refused += MAP_REFUSED == st;
        if (0 == rank) {
            printf("map %d: %s %d x %s, %ld slots, %ld live: %s\n", m, kind_name[kind], g->count,
                   g->t->name, g->total, g->live, MAP_OK == st ? "ok" : "refused");
            fflush(stdout);
        }
        gmap_free(g);
    }
    if (0 == rank) {
        printf("redist_random: seed %llu, %d maps, %d refused, 0 failed\n",
               (unsigned long long) seed, nmaps, refused);
    }
    teardown();
    return 0;
}
