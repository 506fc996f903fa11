/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Jonker-Volgenant shortest augmenting path LAP solver (R. Jonker and
 * A. Volgenant, "A shortest augmenting path algorithm for dense and sparse
 * linear assignment problems", Computing 38, 1987), written for
 * fcoll/la_twophase.
 *
 * The solver assigns n "agents" to distinct "tasks" among m >= n and
 * minimises the total cost, cost = -profit.  Square problems use the gain
 * matrix in place (agents = processes, tasks = file domains); rectangular
 * ones (fewer domains than processes) first copy it transposed, so that the
 * domains are the agents, every one of which must be assigned.  Task duals
 * v[j] are explicit, agent duals implicit: u[i] = cost(i, x[i]) - v[x[i]].
 * Invariants after every step below: each assigned agent's task minimises
 * cost(i, j) - v[j] over j, and v only decreases, and only on assigned
 * tasks (which stay assigned).
 *
 * Phases:
 *   start from v = 0 with every agent free.  This is the rectangular JV
 *     without padding: the dual of "each task at most once" needs v[j] <= 0,
 *     and v[j] = 0 on the tasks left unassigned, which the invariants keep.
 *     Square problems start the same way: with JV's column reduction and
 *     reduction transfer this solver measured 10 to 100 times slower on
 *     banded gains (each process holding data in one to four consecutive
 *     domains, with or without a little everywhere else: the usual
 *     two-phase pattern) and on very sparse ones, for 1.4 (1024 x 1024) to
 *     1.7 (4096 x 4096) times faster on dense uniform random ones.  Column
 *     reduction prices every domain by its best holder, so the agents it
 *     leaves free all crowd onto the few cheapest domains;
 *   two passes of augmenting row reduction (auction-like); its first scan
 *     of each agent is the row reduction.  A budget bounds the immediate
 *     re-scans: without it a price war between agents can take a number of
 *     steps proportional to the cost range;
 *   one Dijkstra-like shortest augmenting path per remaining free agent,
 *     with the JV dual update.  O(n^2 m) worst case.
 *
 * Bounds: costs lie in [-C, 0] with C <= GAIN_MAX = 2^60.  v starts at 0 and
 * stays there on unassigned tasks; while an agent is free such a task
 * exists, and the invariant then gives v >= -C on assigned tasks.  So
 * v is in [-C, 0] and reduced costs, path lengths and the values derived
 * from them stay within 3C < 2^62 in magnitude: no int64_t overflow.
 */

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "ompi/mca/fcoll/la_twophase/fcoll_la_twophase_lap.h"

/* The problem as the solver sees it: agent i's profit on task j is
 * p[i * m + j], its cost the opposite. */
typedef struct {
    int n, m;
    const int64_t *p;
} lap_t;

#define COST(row, j) (-(row)[j])

/* Augmenting row reduction: each free agent takes its cheapest task and
 * lowers that task's dual until it is indifferent with the second cheapest,
 * displacing the previous holder, which continues at once.  On a tie the
 * displaced agent waits for the next pass (or the augmentation phase),
 * which is what guarantees termination.  Needs m >= 2. */
static int arr(const lap_t *L, int *x, int *y, int64_t *v, int *fr, int nfree)
{
    const int n = L->n, m = L->m;
    const int64_t *p = L->p;
    int pass;

    for (pass = 0; pass < 2 && nfree > 0; ++pass) {
        int k = 0, prev = nfree;
        long budget = 2L * n;

        nfree = 0;
        while (k < prev) {
            int i = fr[k++], i0, j, j1 = 0, j2 = 1;
            const int64_t *row = p + (size_t)i * m;
            int64_t u1 = COST(row, 0) - v[0], u2 = COST(row, 1) - v[1];

            if (u2 < u1) {
                int64_t t = u1;
                u1 = u2;
                u2 = t;
                j1 = 1;
                j2 = 0;
            }
            for (j = 2; j < m; ++j) {
                int64_t h = COST(row, j) - v[j];
                if (h < u2) {
                    if (h < u1) {
                        u2 = u1;
                        j2 = j1;
                        u1 = h;
                        j1 = j;
                    } else {
                        u2 = h;
                        j2 = j;
                    }
                }
            }

            i0 = y[j1];
            if (u1 < u2) {
                v[j1] -= u2 - u1;
            } else if (i0 >= 0) {
                /* Indifferent: prefer the second task, it may be free. */
                j1 = j2;
                i0 = y[j2];
            }
            x[i] = j1;
            y[j1] = i;
            if (i0 >= 0) {
                x[i0] = -1;
                if (u1 < u2 && budget-- > 0) {
                    fr[--k] = i0;
                } else {
                    fr[nfree++] = i0;
                }
            }
        }
    }
    return nfree;
}

/* Shortest augmenting path from free agent f (Dijkstra on reduced costs
 * over tasks), JV dual update, then augmentation.  col keeps the tasks in
 * three ranges: [0, low) scanned, [low, up) at the current minimum distance
 * mn and not yet scanned, [up, m) the rest. */
static void augment(const lap_t *L, int f, int *x, int *y, int64_t *v,
                    int *col, int *pred, int64_t *d)
{
    const int m = L->m;
    const int64_t *p = L->p;
    const int64_t *row = p + (size_t)f * m;
    int low = 0, up = 0, j, k, i, sink = -1;
    int64_t mn = 0;

    for (j = 0; j < m; ++j) {
        d[j] = COST(row, j) - v[j];
        pred[j] = f;
        col[j] = j;
    }

    for (;;) {
        int j1;
        const int64_t *ri;
        int64_t h;

        if (up == low) {
            /* Next distance level.  The range [up, m) is never empty here:
             * an unassigned task is never scanned. */
            mn = d[col[up]];
            for (k = up; k < m; ++k) {
                j = col[k];
                if (d[j] <= mn) {
                    if (d[j] < mn) {
                        up = low;
                        mn = d[j];
                    }
                    col[k] = col[up];
                    col[up++] = j;
                }
            }
            for (k = low; k < up; ++k) {
                if (y[col[k]] < 0) {
                    sink = col[k];
                    goto found;
                }
            }
        }

        /* Scan one task at distance mn through the agent holding it. */
        j1 = col[low++];
        i = y[j1];
        ri = p + (size_t)i * m;
        h = COST(ri, j1) - v[j1] - mn;
        for (k = up; k < m; ++k) {
            int64_t dj;
            j = col[k];
            dj = COST(ri, j) - v[j] - h;
            if (dj < d[j]) {
                d[j] = dj;
                pred[j] = i;
                if (dj == mn) {
                    if (y[j] < 0) {
                        sink = j;
                        goto found;
                    }
                    col[k] = col[up];
                    col[up++] = j;
                }
            }
        }
    }

found:
    /* Scanned tasks have d <= mn: lowering their duals keeps every reduced
     * cost >= 0 and makes the new path tight. */
    for (k = 0; k < low; ++k) {
        j = col[k];
        v[j] += d[j] - mn;
    }
    do {
        i = pred[sink];
        y[sink] = i;
        j = x[i];
        x[i] = sink;
        sink = j;
    } while (i != f);
}

/* Optimal assignment x (agent -> task) and task duals v for L. */
static int lap_solve(const lap_t *L, int *x, int64_t *v)
{
    const int n = L->n, m = L->m;
    int *y = malloc((size_t)m * sizeof(*y));
    int *fr = malloc((size_t)n * sizeof(*fr));
    int *col = malloc((size_t)m * sizeof(*col));
    int *pred = malloc((size_t)m * sizeof(*pred));
    int64_t *d = malloc((size_t)m * sizeof(*d));
    int i, j, k, nfree, rc = MCA_FCOLL_LA_TWOPHASE_LAP_ERR_NOMEM;

    if (NULL == y || NULL == fr || NULL == col || NULL == pred || NULL == d) {
        goto out;
    }
    for (i = 0; i < n; ++i) {
        x[i] = -1;
    }
    for (j = 0; j < m; ++j) {
        y[j] = -1;
    }

    /* Start from v = 0 with every agent free (see the top of the file). */
    for (j = 0; j < m; ++j) {
        v[j] = 0;
    }
    for (i = 0; i < n; ++i) {
        fr[i] = i;
    }
    nfree = n;
    if (m > 1) {
        nfree = arr(L, x, y, v, fr, nfree);
    }
    for (k = 0; k < nfree; ++k) {
        augment(L, fr[k], x, y, v, col, pred, d);
    }
    rc = MCA_FCOLL_LA_TWOPHASE_LAP_SUCCESS;

out:
    free(y);
    free(fr);
    free(col);
    free(pred);
    free(d);
    return rc;
}

/* Block size of the transposing copy: small enough that the lines of a
 * block stay cached even when the row length is a power of two. */
#define TILE 16

static int solve_max(int nrows, int ncols, const int64_t *gain,
                     const int *def, int *row_of_col)
{
    const int square = nrows == ncols;
    lap_t L;
    size_t nm, t;
    int64_t maxg = 0, scale = 1;
    int64_t *c = NULL, *v = NULL;
    int *x = NULL;
    int i, j, ib, jb, scaled = 0, rc = MCA_FCOLL_LA_TWOPHASE_LAP_ERR_NOMEM;

    if (NULL == gain || NULL == row_of_col || nrows <= 0 || ncols <= 0 ||
        ncols > nrows) {
        return MCA_FCOLL_LA_TWOPHASE_LAP_ERR_BAD_PARAM;
    }
    if ((size_t)ncols > SIZE_MAX / sizeof(int64_t) / (size_t)nrows) {
        return MCA_FCOLL_LA_TWOPHASE_LAP_ERR_NOMEM;
    }
    nm = (size_t)ncols * (size_t)nrows;
    for (t = 0; t < nm; ++t) {
        if (gain[t] < 0 || gain[t] > MCA_FCOLL_LA_TWOPHASE_LAP_GAIN_MAX) {
            return MCA_FCOLL_LA_TWOPHASE_LAP_ERR_BAD_PARAM;
        }
        if (gain[t] > maxg) {
            maxg = gain[t];
        }
    }
    if (NULL != def) {
        /* Bonus 1 per kept default on gains scaled by ncols + 1: the
         * bonuses sum to at most ncols, less than one unit of scaled gain. */
        if (maxg <= (MCA_FCOLL_LA_TWOPHASE_LAP_GAIN_MAX - 1) /
                    ((int64_t)ncols + 1)) {
            scaled = 1;
            scale = (int64_t)ncols + 1;
        } else if (ncols > (1 << 29)) {
            /* The second solve's profits, down to -(n (n + 2) + 1). */
            return MCA_FCOLL_LA_TWOPHASE_LAP_ERR_NOMEM;
        }
    }

    /* Square: agents are processes, tasks file domains, and the plain
     * problem reads gain in place.  Rectangular: agents are file domains
     * (all must be assigned), so the profits are a transposed copy. */
    L.n = square ? nrows : ncols;
    L.m = square ? ncols : nrows;
    L.p = gain;
    v = malloc((size_t)L.m * sizeof(*v));
    x = malloc((size_t)L.n * sizeof(*x));
    if (NULL == v || NULL == x) {
        goto out;
    }
    if (scaled || !square) {
        c = malloc(nm * sizeof(*c));
        if (NULL == c) {
            goto out;
        }
        if (square) {
            for (t = 0; t < nm; ++t) {
                c[t] = gain[t] * scale;
            }
        } else {
            for (ib = 0; ib < ncols; ib += TILE) {
                int ie = ib + TILE < ncols ? ib + TILE : ncols;
                for (jb = 0; jb < nrows; jb += TILE) {
                    int je = jb + TILE < nrows ? jb + TILE : nrows;
                    for (i = ib; i < ie; ++i) {
                        int64_t *ci = c + (size_t)i * nrows;
                        for (j = jb; j < je; ++j) {
                            ci[j] = gain[(size_t)j * ncols + i] * scale;
                        }
                    }
                }
            }
        }
        if (scaled) {
            /* Several domains may share a default process. */
            for (j = 0; j < ncols; ++j) {
                if (def[j] >= 0 && def[j] < nrows) {
                    c[square ? (size_t)def[j] * ncols + j
                             : (size_t)j * nrows + def[j]] += 1;
                }
            }
        }
        L.p = c;
    }

    rc = lap_solve(&L, x, v);
    if (MCA_FCOLL_LA_TWOPHASE_LAP_SUCCESS != rc) {
        goto out;
    }

    if (NULL != def && !scaled) {
        /* Gains too large to scale.  The optimal assignments are exactly
         * those using only tight pairs (zero reduced cost) and covering
         * every task with v < 0 (complementary slackness).  Solve again
         * with profits (n + 1) [v[j] < 0] + [default] on tight pairs and
         * -(n (n + 2) + 1) elsewhere: any assignment using a non-tight pair
         * has a negative total, every all-tight one a total >= 0.  A
         * rectangular problem overwrites its own copy row by row. */
        const int n = L.n, m = L.m;
        const int64_t big = (int64_t)n * ((int64_t)n + 2) + 1;
        int64_t *q = c;

        if (NULL == q) {
            q = c = malloc(nm * sizeof(*c));
            if (NULL == q) {
                rc = MCA_FCOLL_LA_TWOPHASE_LAP_ERR_NOMEM;
                goto out;
            }
        }
        for (i = 0; i < n; ++i) {
            const int64_t *row = L.p + (size_t)i * m;
            int64_t *qi = q + (size_t)i * m;
            const int64_t ui = COST(row, x[i]) - v[x[i]];
            for (j = 0; j < m; ++j) {
                if (COST(row, j) - ui - v[j] == 0) {
                    int isdef = square ? def[j] == i : def[i] == j;
                    qi[j] = (v[j] < 0 ? (int64_t)n + 1 : 0) + isdef;
                } else {
                    qi[j] = -big;
                }
            }
        }
        L.p = q;
        rc = lap_solve(&L, x, v);
        if (MCA_FCOLL_LA_TWOPHASE_LAP_SUCCESS != rc) {
            goto out;
        }
    }

    if (square) {
        for (i = 0; i < L.n; ++i) {
            row_of_col[x[i]] = i;
        }
    } else {
        for (i = 0; i < L.n; ++i) {
            row_of_col[i] = x[i];
        }
    }

out:
    free(c);
    free(v);
    free(x);
    return rc;
}

int mca_fcoll_la_twophase_lap_max(int nrows, int ncols, const int64_t *gain,
                                  int *row_of_col)
{
    return solve_max(nrows, ncols, gain, NULL, row_of_col);
}

int mca_fcoll_la_twophase_lap_max_pref(int nrows, int ncols,
                                       const int64_t *gain,
                                       const int *default_row_of_col,
                                       int *row_of_col)
{
    if (NULL == default_row_of_col) {
        return MCA_FCOLL_LA_TWOPHASE_LAP_ERR_BAD_PARAM;
    }
    return solve_max(nrows, ncols, gain, default_row_of_col, row_of_col);
}
