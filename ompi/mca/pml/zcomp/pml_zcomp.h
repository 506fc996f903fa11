/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * pml/zcomp: transparent, adaptive compression of point-to-point messages.
 * It wraps the PML Open MPI selected (the way pml/monitoring interposes) and
 * decides per message whether to send raw or compressed, with which codec
 * of opal/mca/compress.  See README.md.
 */
#ifndef MCA_PML_ZCOMP_H
#define MCA_PML_ZCOMP_H

#include "ompi_config.h"

#include "opal/class/opal_list.h"
#include "opal/datatype/opal_convertor.h"
#include "opal/mca/compress/base/base.h"
#include "opal/mca/common/suite/suite_compat.h"
#include SUITE_THREADS_MUTEX_H
#include "ompi/communicator/communicator.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/pml/base/base.h"
#include "ompi/mca/pml/pml.h"
#include "ompi/request/request.h"

#include "pml_zcomp_wire.h"

BEGIN_C_DECLS

enum {
    ZC_STRATEGY_ADAPTIVE = 0,
    ZC_STRATEGY_ALWAYS = 1,
    ZC_STRATEGY_NEVER = 2,
    ZC_STRATEGY_GUIDED = 3
};

#define ZC_MAX_CANDIDATES 8
#define ZC_NUM_CLASSES 6 /* bytes, int32, int64, float, double, other */
#define ZC_NUM_SIZE_BUCKETS 24

typedef struct mca_pml_zcomp_params_t {
    bool enable;
    int strategy;
    char *codec;           /* for "always" */
    char *candidates;      /* for "adaptive" and "guided" */
    unsigned long threshold;
    unsigned long chunk_size;
    int window;
    unsigned long inline_max;
    double path_bandwidth; /* MB/s override, 0 = measure */
    double default_bandwidth;
    char *calibration_file;
    char *decision_file;
    int verbose;
    int corrupt_every;     /* testing: corrupt every Nth compressed chunk sent */
    double min_gain;       /* adaptive: compress only if predicted speedup >= this */
    double msg_overhead;   /* adaptive: extra cost of a compressed message, us */
    double sample_budget;  /* adaptive: share of transfer time re-sampling may take */
    double probe_budget;   /* adaptive: share of transfer time raw probes may cost */
} mca_pml_zcomp_params_t;

/* Per communicator, per peer (rank in the remote group): what a send to it
 * needs, decided ahead of time (at the first message to it, again when
 * the model changes), so that a message zcomp will not compress reaches
 * the wrapped PML after a load and a compare.  A code's
 * mca_pml_zcomp.raw_below: messages below that size go straight through. */
enum {
    ZC_PEER_DECIDE = 0, /* not looked at yet, or the model decides per message */
    ZC_PEER_FAST = 1,   /* raw while the path is faster than every codec (the
                         * model's fast exit); large sends are still timed */
    ZC_PEER_NEVER = 2,  /* never compressed: the peer cannot decode, or the
                         * BTL's eager limit cannot carry zcomp's header */
    ZC_PEER_NCODES = 4  /* raw_below's entries (code & 3; 3 is unused: 0) */
};

typedef struct zc_comm_t {
    uint32_t size;      /* remote group size */
    /* per rank, one byte (ob1 keeps its own peer table sparse, patch
     * 0005: a communicator must not cost 8 bytes a member here) */
    uint8_t code[];
} zc_comm_t;

typedef struct mca_pml_zcomp_globals_t {
    mca_pml_zcomp_params_t p;
    /* The send fast path reads these first (zc_send_raw_ok): set at
     * activation, constant but for the table's entries. */
    size_t raw_threshold;                 /* p.threshold; SIZE_MAX: strategy never */
    size_t raw_below[ZC_PEER_NCODES];     /* by code, see above */
    zc_comm_t **comms;                    /* by context id (add_comm/del_comm) */
    uint32_t ncomms;                      /* entries of comms */
    bool mt;                              /* opal_using_threads() at activation */
    int output;
    bool active;         /* interposed (only over a PML with marked messages) */
    bool compress_open;  /* we opened opal_compress */
    const opal_compress_codec_t *always_codec;
    const opal_compress_codec_t *cand[ZC_MAX_CANDIDATES];
    int ncand;
    /* Guards the two lists and every request on them.  Recursive: while
     * zcomp's progress holds it, ob1 may call back into zcomp in the same
     * thread (a marked message queued out of order is matched when a chunk
     * is delivered to self; a completed request's callback may send). */
    opal_recursive_mutex_t lock;
    opal_list_t sends;   /* active compressed sends */
    opal_list_t recvs;   /* active compressed receives */
    volatile int32_t nactive; /* items on both lists: progress's quick test */
    bool progress_on;    /* the progress callback is registered */
    int32_t next_ptag;
    /* MPI_T pvars */
    unsigned long long pv_bytes_original;
    unsigned long long pv_bytes_sent;
    unsigned long long pv_msgs_compressed;
    unsigned long long pv_msgs_raw;
    unsigned long long pv_recv_compressed;
    /* not beside pv_msgs_raw: gcc -O3 made one SSE add of the two, 11
     * instructions on the fast path instead of 2 */
    unsigned long long pv_bytes_raw;
    unsigned long long pv_recv_errors;
    unsigned long long pv_probes;        /* raw probes (zc_probe) */
    /* per codec, indexed by wire id: any id the framework may open */
    unsigned long long pv_codec_in[OPAL_COMPRESS_ID_MAX + 1];
    unsigned long long pv_codec_out[OPAL_COMPRESS_ID_MAX + 1];
    unsigned long long pv_codec_msgs[OPAL_COMPRESS_ID_MAX + 1];
    unsigned long long corrupt_count;
} mca_pml_zcomp_globals_t;

/* Hidden: the send fast path reads both without a GOT load. */
#if OPAL_C_HAVE_VISIBILITY
#define ZC_HIDDEN __attribute__((visibility("hidden")))
#else
#define ZC_HIDDEN
#endif
extern mca_pml_zcomp_globals_t mca_pml_zcomp ZC_HIDDEN;
OMPI_DECLSPEC extern SUITE_PML_COMPONENT_T mca_pml_zcomp_component;
extern mca_pml_base_module_t mca_pml_zcomp_wrapped ZC_HIDDEN; /* the PML we wrap */

/* ---- decisions (pml_zcomp_model.c) ---- */
typedef struct zc_decision_t {
    const opal_compress_codec_t *codec; /* NULL = raw */
    int cls;
    int bucket;
    bool measure;        /* try every candidate on this message (adaptive) */
    bool probe;          /* raw although a codec would win: timed (zc_probe) */
    bool recheck;        /* compressed although measured slower: re-measured */
    double pred;         /* compressed: the model's predicted seconds (no efficiency) */
    size_t mark_room;    /* largest marked payload ob1 sends eagerly to the peer */
} zc_decision_t;

/* Bytes of the BTL's eager limit that ob1's own header may take (its
 * largest, mca_pml_ob1_hdr_t, is 80 bytes on x86-64): ob1 sends a payload
 * eagerly only while it fits the rest. */
#define ZC_PML_HDR_RESERVE 128

int mca_pml_zcomp_model_init(void);
void mca_pml_zcomp_model_fini(void);
/* blocking: an MPI_Send, whose raw transfer can be timed (ZC_XFER_TIMED) */
void mca_pml_zcomp_decide(const void *buf, size_t count, ompi_datatype_t *dtype, size_t bytes,
                          int dst, ompi_communicator_t *comm, int tag, bool blocking,
                          zc_decision_t *d);
/* Can (comm, dst) receive compressed messages?  Sets its code to
 * ZC_PEER_NEVER when it cannot. */
bool mca_pml_zcomp_peer_decodes(ompi_communicator_t *comm, int dst);
/* Report a compressed chunk: codec, raw bytes, compressed bytes, seconds. */
void mca_pml_zcomp_note_compress(const zc_decision_t *d, const opal_compress_codec_t *c,
                                 size_t raw, size_t out, double secs);
/* Report a transfer to a peer: bytes on the wire and the seconds it took,
 * a ZC_XFER_TIMED sample (a blocking raw send: may lower the estimate),
 * ZC_XFER_ACKED (one timed from the receiver's rendezvous ACK, which its
 * lateness cannot slow) or ZC_XFER_AT_LEAST (the path is at least this
 * fast).  See the model. */
enum { ZC_XFER_AT_LEAST = 0, ZC_XFER_TIMED = 1, ZC_XFER_ACKED = 2 };
/* transfers below this say more about socket buffers than about the path */
#define ZC_XFER_MIN (4u << 20)
/* a timed sample within this factor of the estimate is noise */
#define ZC_BW_TOLERANCE 1.25
/* an ACKED sample this many times below the estimate lowers it at once */
#define ZC_BW_DROP 2.0
void mca_pml_zcomp_note_transfer(ompi_communicator_t *comm, int dst, size_t bytes,
                                 double secs, int kind);
/* Report a blocking compressed send of d: its original bytes took secs
 * from its first chunk's completion to its last's, over `steady` of them
 * (the pipeline's efficiency, see the model). */
void mca_pml_zcomp_note_coded(ompi_communicator_t *comm, int dst, const zc_decision_t *d,
                              size_t bytes, size_t steady, double secs);
const char *mca_pml_zcomp_class_name(int cls);

/* ---- the model's files (pml_zcomp_guide.c) ---- */
/* Guided strategy: true while this run traces its decisions (no decision
 * file yet); the table is then written under the model's lock. */
extern bool mca_pml_zcomp_guide_tracing;
void mca_pml_zcomp_guide_load(void);
void mca_pml_zcomp_guide_save_and_free(void);
uint64_t mca_pml_zcomp_guide_key(int cls, int bucket, ompi_communicator_t *comm, int dst,
                                 int tag);
/* true if the file decides for key; *codec is then NULL for raw */
bool mca_pml_zcomp_guide_lookup(uint64_t key, const opal_compress_codec_t **codec);
void mca_pml_zcomp_guide_record(uint64_t key, const opal_compress_codec_t *codec);
/* Calibration file: path bandwidth to peer vpid in bytes/s, 0 if unknown. */
void mca_pml_zcomp_calibration_load(void);
double mca_pml_zcomp_calibrated(uint32_t vpid);
void mca_pml_zcomp_calibration_free(void);

/* ---- send side (pml_zcomp_send.c) ---- */
int mca_pml_zcomp_isend_init(const void *buf, size_t count, ompi_datatype_t *datatype,
                             int dst, int tag, mca_pml_base_send_mode_t mode,
                             ompi_communicator_t *comm, ompi_request_t **request);
int mca_pml_zcomp_isend(const void *buf, size_t count, ompi_datatype_t *datatype,
                        int dst, int tag, mca_pml_base_send_mode_t mode,
                        ompi_communicator_t *comm, ompi_request_t **request);
int mca_pml_zcomp_send(const void *buf, size_t count, ompi_datatype_t *datatype,
                       int dst, int tag, mca_pml_base_send_mode_t mode,
                       ompi_communicator_t *comm);
/* the same under MPI_THREAD_MULTIPLE (atomic counters) */
int mca_pml_zcomp_isend_mt(const void *buf, size_t count, ompi_datatype_t *datatype,
                           int dst, int tag, mca_pml_base_send_mode_t mode,
                           ompi_communicator_t *comm, ompi_request_t **request);
int mca_pml_zcomp_send_mt(const void *buf, size_t count, ompi_datatype_t *datatype,
                          int dst, int tag, mca_pml_base_send_mode_t mode,
                          ompi_communicator_t *comm);
int mca_pml_zcomp_start(size_t count, ompi_request_t **requests);
int mca_pml_zcomp_send_progress(void);

/* ---- receive side (pml_zcomp_recv.c) ---- */
void mca_pml_zcomp_recv_hook(struct ompi_request_t *request, const struct iovec *iov,
                             size_t iovcnt);
int mca_pml_zcomp_recv_progress(void);

int mca_pml_zcomp_progress(void);
/* Register zcomp's progress callback, on the first compressed send or
 * receive: a run that never compresses keeps opal_progress as it is. */
void mca_pml_zcomp_progress_start(void);
static inline void zc_progress_needed(void)
{
    if (OPAL_UNLIKELY(!__atomic_load_n(&mca_pml_zcomp.progress_on, __ATOMIC_ACQUIRE))) {
        mca_pml_zcomp_progress_start();
    }
}
double mca_pml_zcomp_now(void);

/* ---- per-peer send codes (pml_zcomp_component.c) ---- */
static inline uint8_t zc_code_get(ompi_communicator_t *comm, int rank)
{
    return __atomic_load_n(&mca_pml_zcomp.comms[SUITE_COMM_INDEX(comm)]->code[rank], __ATOMIC_RELAXED);
}
/* Set the code of (comm, rank).  ZC_PEER_FAST only under the model's lock,
 * as mca_pml_zcomp_codes_reset_fast runs: a code is never set from a model
 * that has changed meanwhile. */
void mca_pml_zcomp_code_set(ompi_communicator_t *comm, int rank, uint8_t code);
/* The model changed so that a ZC_PEER_FAST code may be wrong: every such
 * code goes back to ZC_PEER_DECIDE (the next message decides again). */
void mca_pml_zcomp_codes_reset_fast(void);

/* Does a message of this size to (comm, dst) go straight to the wrapped
 * PML?  The whole of zcomp's work on a message it leaves raw: below the
 * threshold one compare; else a byte of the communicator's table. */
static inline bool zc_peer_raw_ok(size_t bytes, int dst, ompi_communicator_t *comm)
{
    /* & 3: inside raw_below whatever an erroneous dst reads */
    return bytes < mca_pml_zcomp.raw_below[__atomic_load_n(&mca_pml_zcomp.comms[SUITE_COMM_INDEX(comm)]->code[dst],
                                                           __ATOMIC_RELAXED) & 3];
}
static inline bool zc_send_raw_ok(size_t bytes, int dst, ompi_communicator_t *comm)
{
    return bytes < mca_pml_zcomp.raw_threshold || zc_peer_raw_ok(bytes, dst, comm);
}

/* MPI_T counters: several threads may count at once (MPI_THREAD_MULTIPLE). */
static inline void zc_count(unsigned long long *counter, unsigned long long n)
{
    if (OPAL_UNLIKELY(mca_pml_zcomp.mt)) {
        (void) __atomic_fetch_add(counter, n, __ATOMIC_RELAXED);
    } else {
        *counter += n;
    }
}

/* A message sent raw: both counters; mt a constant in the entry points. */
static inline __attribute__((always_inline)) void zc_count_raw_as(size_t bytes, bool mt)
{
    if (mt) {
        (void) __atomic_fetch_add(&mca_pml_zcomp.pv_msgs_raw, 1, __ATOMIC_RELAXED);
        (void) __atomic_fetch_add(&mca_pml_zcomp.pv_bytes_raw, bytes, __ATOMIC_RELAXED);
    } else {
        mca_pml_zcomp.pv_msgs_raw++;
        mca_pml_zcomp.pv_bytes_raw += bytes;
    }
}
static inline void zc_count_raw(size_t bytes)
{
    zc_count_raw_as(bytes, OPAL_UNLIKELY(mca_pml_zcomp.mt));
}

/* The level is tested here so that a quiet fast path makes no call.
 * p.verbose is the stream's verbosity (set once, at open). */
#define ZC_VERBOSE(level, ...)                                               \
    do {                                                                     \
        if (OPAL_UNLIKELY(mca_pml_zcomp.p.verbose >= (level))) {             \
            opal_output_verbose(level, mca_pml_zcomp.output, __VA_ARGS__);   \
        }                                                                    \
    } while (0)

END_C_DECLS

#endif
