/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * fcoll/la_twophase: two-phase collective I/O whose aggregators are chosen
 * by a Linear Assignment Problem (LA-Two-Phase I/O, Filgueira et al.).
 *
 * One collective call runs these steps (fcoll_la_twophase_domain.c):
 *   1. the memory datatype and the file view become lists of byte ranges;
 *   2. an allgather of every rank's first/last byte and byte count gives
 *      the accessed range, which is cut into A equal file domains;
 *   3. every rank measures what it holds in each domain (bytes or
 *      contiguous pieces); one allreduce bounds what any assignment could
 *      keep in place beyond two_phase's default list: when that is below
 *      fcoll_la_twophase_min_gain the default list is taken, else rank 0
 *      gathers the non-zero entries of the P x A matrix and solves the
 *      LAP, and the list is broadcast (the same allreduce tells when no
 *      process's gains changed since the last call on this file: then the
 *      last list is reused);
 *   4. every rank tells each aggregator which (offset, length) pieces it
 *      has in that aggregator's domain;
 *   5. the domains are processed in windows of cycle_buffer_size bytes:
 *      data moves between processes over the PML straight from/to user
 *      memory (derived datatypes, no packing copies) and the aggregator
 *      writes (reads) the covered ranges of its window; a window holding
 *      only the aggregator's own data goes straight between its buffer and
 *      the file (fcoll_la_twophase_exchange.c; the order of its steps in
 *      fcoll_la_twophase_file_{write,read}_all.c).
 */

#ifndef MCA_FCOLL_LA_TWOPHASE_H
#define MCA_FCOLL_LA_TWOPHASE_H

#include "ompi_config.h"

#include <stdint.h>
#include <time.h>

#include "mpi.h"
#include "ompi/mca/mca.h"
#include "ompi/mca/fcoll/fcoll.h"
#include "ompi/mca/fcoll/base/base.h"
#include "ompi/mca/common/ompio/common_ompio.h"

BEGIN_C_DECLS

/* Cost measured per (process, file domain). */
#define MCA_FCOLL_LA_TWOPHASE_COST_BYTES  0
#define MCA_FCOLL_LA_TWOPHASE_COST_BLOCKS 1

/* Accepted fcoll_la_twophase_cycle_buffer_size values (checked once, at
 * the first file_query: fcoll_la_twophase_module.c). */
#define MCA_FCOLL_LA_TWOPHASE_CYCLE_MIN 4096
#define MCA_FCOLL_LA_TWOPHASE_CYCLE_MAX (1 << 30)
/* fcoll_la_twophase_num_aggregators: the default, and what a bad value
 * becomes (io_ompio_num_aggregators or OMPIO's choice). */
#define MCA_FCOLL_LA_TWOPHASE_AGGR_AUTO (-1)
/* fcoll_la_twophase_min_gain -1: the smallest gain bound worth a LAP solve
 * by cost measure.  Bytes: 64 KiB is what a 1 Gbit/s link moves in about
 * the time of the gather, solve and broadcast on a few nodes (0.5 ms).
 * Pieces say nothing about the bytes that move, so the blocks measure
 * (Filgueira et al.'s) solves whenever anything can be gained. */
#define MCA_FCOLL_LA_TWOPHASE_MIN_GAIN_AUTO (-1)
#define MCA_FCOLL_LA_TWOPHASE_MIN_GAIN_BYTES (64 * 1024)
#define MCA_FCOLL_LA_TWOPHASE_MIN_GAIN_BLOCKS 0
/* fcoll_la_twophase_read_self_min default (bytes a piece, on average):
 * from 4 KiB on, reading one's own pieces was as fast as the exchange over
 * shared memory and 8-18x faster at 1 Gbit/s (column and 3-D blocks);
 * 512-byte pieces were 2x faster at 1 Gbit/s but 1.2-1.9x slower over
 * shared memory (bench/results/fcoll-matrix-run2.md). */
#define MCA_FCOLL_LA_TWOPHASE_READ_SELF_MIN 4096
/* fcoll_la_twophase_read_probe_min default: from 8-byte pieces (one
 * double) up to read_self_min the faster of the two paths is measured and
 * kept (random runs of 1-16 doubles, 70-90 bytes a piece, read 1.07x
 * vulcan at 1 Gbit/s with 512; runs of 4 doubles 1.13-1.30x with 64, where
 * vulcan has every process read its span and the self-served read does
 * the same). */
#define MCA_FCOLL_LA_TWOPHASE_READ_PROBE_MIN 8
/* The probe tries the slower path again once in this many reads. */
#define MCA_FCOLL_LA_TWOPHASE_PROBE_PERIOD 32
#define MCA_FCOLL_LA_TWOPHASE_WRITE_IOV_MIN 8192
#define MCA_FCOLL_LA_TWOPHASE_WRITE_SELF_MIN 4096

/* MCA parameters. */
extern int mca_fcoll_la_twophase_priority;
extern int mca_fcoll_la_twophase_cycle_buffer_size;
extern int mca_fcoll_la_twophase_num_aggregators;
extern int mca_fcoll_la_twophase_cost;
extern bool mca_fcoll_la_twophase_assign;
extern bool mca_fcoll_la_twophase_one_per_node;
extern bool mca_fcoll_la_twophase_cache;
extern int mca_fcoll_la_twophase_node_size;
extern int mca_fcoll_la_twophase_min_gain;
extern int mca_fcoll_la_twophase_read_self_min;
extern int mca_fcoll_la_twophase_read_probe_min;
extern int mca_fcoll_la_twophase_write_iov_min;
extern int mca_fcoll_la_twophase_write_self_min;

/* Statistics, exported as MPI_T performance variables (per process). */
typedef struct mca_fcoll_la_twophase_stats_t {
    unsigned long long bytes_exchanged;       /* total, sent to other processes */
    unsigned long long bytes_in_place;        /* total, own data in own domain */
    unsigned long long messages;              /* total data messages sent */
    unsigned long long bytes_exchanged_last;  /* last collective call */
    unsigned long long bytes_in_place_last;
    unsigned long long messages_last;
    unsigned long long assignments;           /* lists decided (cache misses) */
    unsigned long long cache_hits;            /* lists reused */
    unsigned long long default_by_bound;      /* decided by the gain bound, no solve */
    unsigned long long gain_bound_last;       /* the bound of the last decision */
    unsigned long long buffer_last;           /* cycle buffer bytes, last call */
    unsigned long long self_reads;            /* reads of my own pieces by myself */
    unsigned long long self_writes;           /* writes of my own pieces by myself */
    unsigned long long iov_windows;           /* windows written from a gather list */
    double assign_time;                       /* total seconds */
    double assign_time_last;                  /* seconds, last call */
    double plan_time_last;                    /* seconds of plan_build, last call */
    double probe_rate[2];                     /* read probe: my bytes a second, collective / self */
    unsigned long long probe_reads;           /* reads the probe decided */
    double io_time_last;                      /* seconds of file I/O, last call */
} mca_fcoll_la_twophase_stats_t;

extern mca_fcoll_la_twophase_stats_t mca_fcoll_la_twophase_stats;

/* OMPI_DECLSPEC: 5.0 has no OMPI_MODULE_DECLSPEC (4.1 defines both alike) */
OMPI_DECLSPEC extern mca_fcoll_base_component_2_0_0_t mca_fcoll_la_twophase_component;

/* One contiguous piece of this process's access: file offset, length and
 * position of its first byte in the process's data stream. */
typedef struct mca_fcoll_la_twophase_piece_t {
    int64_t off;
    int64_t len;
    int64_t pos;
} mca_fcoll_la_twophase_piece_t;

/* A walk over a sorted piece list, cut at window ends. */
typedef struct mca_fcoll_la_twophase_cursor_t {
    int idx;        /* current piece */
    int end;        /* one past the last piece of the list */
    int64_t done;   /* bytes of piece idx already consumed */
} mca_fcoll_la_twophase_cursor_t;

/* Everything one collective call needs after the assignment step. */
typedef struct mca_fcoll_la_twophase_plan_t {
    ompio_file_t *fh;
    int rank, nprocs;
    int num_domains;                /* A */
    int64_t gmin, gmax, fd_size;    /* accessed range, domain size */
    int64_t cycle;                  /* window size (cycle buffer) */
    int64_t ncycles;                /* windows per domain */
    int *agg;                       /* A entries: aggregator of each domain */
    int my_domain;                  /* domain I aggregate, or -1 */
    bool self_io;                   /* I read/write my pieces myself, not through
                                     * the aggregators (read_self_min, write_self_min) */
    bool probed;                    /* a read's self_io chosen by the probe (its time
                                     * is kept) */
    bool no_sieve;                  /* a write in which some process writes its own
                                     * pieces: nobody may read-modify-write a gap */
    size_t max_data;                /* my bytes in this call */

    /* my data in memory: contiguous at mem_base, or mem_cnt segments */
    char *mem_base;
    struct iovec *mem_iov;
    int64_t *mem_prefix;            /* mem_cnt + 1 stream positions */
    int mem_cnt;

    /* my pieces split at domain ends, sorted by (domain, offset) */
    mca_fcoll_la_twophase_piece_t *pieces;
    int npieces;
    int *dom_first;                 /* A + 1 indices into pieces */

    /* aggregator only: every other process's pieces in my domain */
    mca_fcoll_la_twophase_piece_t *meta;   /* pos unused */
    int *meta_first;                /* nprocs + 1 indices into meta */
} mca_fcoll_la_twophase_plan_t;

/* Growable list of pieces (blocks of one message, covered ranges). */
typedef struct mca_fcoll_la_twophase_pvec_t {
    mca_fcoll_la_twophase_piece_t *v;
    int n, cap;
} mca_fcoll_la_twophase_pvec_t;

/* Growable list of memory blocks of one message. */
typedef struct mca_fcoll_la_twophase_tvec_t {
    int *blen;
    ptrdiff_t *addr;
    int n, cap;
} mca_fcoll_la_twophase_tvec_t;

/* The exchange phase of one collective call (the windows), shared by the
 * write and the read (fcoll_la_twophase_exchange.c): xchg_begin, then per
 * window xchg_next and the steps in the direction's order, xchg_wait among
 * them; at the end xchg_end (xchg_run does it all).  The aggregator steps
 * do nothing on other processes. */
typedef struct mca_fcoll_la_twophase_xchg_t {
    ompio_file_t *fh;
    bool write;                     /* write_all (else read_all) */
    mca_fcoll_la_twophase_plan_t plan;
    int64_t c;                      /* current cycle */
    int64_t ws, we;                 /* aggregator: my window in cycle c */
    bool direct;                    /* aggregator: my window holds only my data */
    bool iov;                       /* aggregator, write: each process's data of my
                                     * window received contiguously, written with
                                     * mine from one gather list (write_iov_min) */
    int64_t winsize;                /* aggregator: bytes of the cycle buffer */
    int64_t *rpos;                  /* aggregator, P: where process r's data of my
                                     * window lie in the buffer (iov windows) */
    int64_t io_end;                 /* end of the gather list's ranges so far */
    mca_common_ompio_io_array_t *io;   /* aggregator: the gather list of a window */
    int nio, capio;
    mca_fcoll_la_twophase_cursor_t *scur;  /* A: my pieces in each domain */
    mca_fcoll_la_twophase_cursor_t *rcur;  /* aggregator, P: each process's pieces */
    mca_fcoll_la_twophase_pvec_t blocks;   /* aggregator: the blocks of my window */
    int *first;                     /* P + 2: process r's blocks are [first[r],
                                     * first[r + 1]), mine from first[P] */
    mca_fcoll_la_twophase_pvec_t mine;     /* my blocks of another's window */
    mca_fcoll_la_twophase_pvec_t cov;      /* aggregator: ranges to write/read */
    int *mhead, *mheap;             /* aggregator, P + 1: merging the block lists */
    mca_fcoll_la_twophase_tvec_t tv;       /* memory blocks of one message */
    mca_fcoll_la_twophase_tvec_t own;      /* memory blocks of my own data */
    ompi_request_t **reqs;          /* this window's requests */
    ompi_datatype_t **types;        /* their derived datatypes, or NULL */
    int nreq;
    char *winbuf;                   /* aggregator: the cycle buffer */
    int io_err;                     /* I/O error, returned at the end */
    int64_t eof;                    /* read: where a short read found the end of
                                       the file, INT64_MAX if none did */
    ompi_status_public_t *status;   /* the caller's, or MPI_STATUS_IGNORE */
    double t0;                      /* start of the call */
} mca_fcoll_la_twophase_xchg_t;

/* Plan the call (plan_build), set status, allocate the cursors, requests
 * and (aggregator) the cycle buffer.  On error call xchg_end anyway. */
int mca_fcoll_la_twophase_xchg_begin(mca_fcoll_la_twophase_xchg_t *x, ompio_file_t *fh,
                                     const void *buf, int count,
                                     struct ompi_datatype_t *datatype,
                                     ompi_status_public_t *status, bool write);
/* Move to the next cycle anyone has data in; false when there is none. */
bool mca_fcoll_la_twophase_xchg_next(mca_fcoll_la_twophase_xchg_t *x);
/* Everyone: post my pieces of each other aggregator's window, straight
 * from (write: send) or into (read: receive) my buffer. */
int mca_fcoll_la_twophase_xchg_peers(mca_fcoll_la_twophase_xchg_t *x);
/* Aggregator: collect the blocks of my window, every process's and mine,
 * and decide whether a write's window is direct or iov. */
int mca_fcoll_la_twophase_xchg_window(mca_fcoll_la_twophase_xchg_t *x);
/* Aggregator: post each other process's blocks of my window, straight
 * into (write: receive) or from (read: send) the cycle buffer: at their
 * window offsets, or (iov window) each process's bytes contiguously. */
int mca_fcoll_la_twophase_xchg_post_window(mca_fcoll_la_twophase_xchg_t *x);
/* Aggregator: count my own blocks of my window as in place and, unless
 * the window is direct or iov, copy them into (write) or out of (read) the
 * cycle buffer. */
int mca_fcoll_la_twophase_xchg_own(mca_fcoll_la_twophase_xchg_t *x);
/* Aggregator: write/read my window, the merged covered ranges through the
 * cycle buffer or, direct, straight between my buffer and the file, or
 * (iov) from one gather list over the received data and my buffer.  An
 * I/O error is kept for xchg_end. */
int mca_fcoll_la_twophase_xchg_io(mca_fcoll_la_twophase_xchg_t *x);
/* Complete this window's requests. */
int mca_fcoll_la_twophase_xchg_wait(mca_fcoll_la_twophase_xchg_t *x);
/* Complete what is still posted, add the call's statistics to the totals,
 * free everything; returns the error every process agrees on. */
int mca_fcoll_la_twophase_xchg_end(mca_fcoll_la_twophase_xchg_t *x, int ret);

/* One step of a window; a direction lists its steps in order, NULL last. */
typedef int (*mca_fcoll_la_twophase_xchg_step_t)(mca_fcoll_la_twophase_xchg_t *x);
/* A whole collective call: xchg_begin, the steps for every window until
 * one fails, xchg_end. */
int mca_fcoll_la_twophase_xchg_run(ompio_file_t *fh, const void *buf, int count,
                                   struct ompi_datatype_t *datatype,
                                   ompi_status_public_t *status, bool write,
                                   const mca_fcoll_la_twophase_xchg_step_t *steps);

/* Component / module entry points. */
int mca_fcoll_la_twophase_component_init_query(bool enable_progress_threads,
                                               bool enable_mpi_threads);
mca_fcoll_base_module_1_0_0_t *
mca_fcoll_la_twophase_component_file_query(ompio_file_t *fh, int *priority);
int mca_fcoll_la_twophase_component_file_unquery(ompio_file_t *fh);
int mca_fcoll_la_twophase_module_init(ompio_file_t *fh);
int mca_fcoll_la_twophase_module_finalize(ompio_file_t *fh);

int mca_fcoll_la_twophase_file_write_all(ompio_file_t *fh, const void *buf,
                                         int count,
                                         struct ompi_datatype_t *datatype,
                                         ompi_status_public_t *status);
int mca_fcoll_la_twophase_file_read_all(ompio_file_t *fh, void *buf,
                                        int count,
                                        struct ompi_datatype_t *datatype,
                                        ompi_status_public_t *status);

/* Steps 1-4.  Returns OMPI_SUCCESS with plan->num_domains == 0 when no
 * process accesses any byte.  Collective over fh->f_comm. */
int mca_fcoll_la_twophase_plan_build(ompio_file_t *fh, const void *buf,
                                     int count, struct ompi_datatype_t *dt,
                                     bool write, mca_fcoll_la_twophase_plan_t *plan);
void mca_fcoll_la_twophase_plan_free(mca_fcoll_la_twophase_plan_t *plan);

/* Forget the cached assignment of this file (file close). */
void mca_fcoll_la_twophase_cache_drop(ompio_file_t *fh);

/* Window [*ws, *we) of domain d in cycle c. */
void mca_fcoll_la_twophase_window(const mca_fcoll_la_twophase_plan_t *plan,
                                  int d, int64_t c, int64_t *ws, int64_t *we);

/* Cycle index of the next unconsumed byte under cursor cur of domain d,
 * or INT64_MAX when the cursor is exhausted. */
int64_t mca_fcoll_la_twophase_next_cycle(const mca_fcoll_la_twophase_plan_t *plan,
                                         const mca_fcoll_la_twophase_piece_t *list,
                                         const mca_fcoll_la_twophase_cursor_t *cur,
                                         int d);

/* Seconds on a monotonic clock (the MPI_T timers). */
static inline double mca_fcoll_la_twophase_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

/* Verbose output on the fcoll framework stream. */
#define LAT_VERBOSE(lvl, ...) \
    opal_output_verbose((lvl), ompi_fcoll_base_framework.framework_output, __VA_ARGS__)

END_C_DECLS

#endif /* MCA_FCOLL_LA_TWOPHASE_H */
