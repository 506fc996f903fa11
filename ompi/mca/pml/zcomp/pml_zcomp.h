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
#include "opal/threads/mutex.h"
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
} mca_pml_zcomp_params_t;

typedef struct mca_pml_zcomp_globals_t {
    mca_pml_zcomp_params_t p;
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
    int32_t next_ptag;
    /* MPI_T pvars */
    unsigned long long pv_bytes_original;
    unsigned long long pv_bytes_sent;
    unsigned long long pv_msgs_compressed;
    unsigned long long pv_msgs_raw;
    unsigned long long pv_bytes_raw;
    unsigned long long pv_recv_compressed;
    unsigned long long pv_recv_errors;
    /* per codec, indexed by wire id: any id the framework may open */
    unsigned long long pv_codec_in[OPAL_COMPRESS_ID_MAX + 1];
    unsigned long long pv_codec_out[OPAL_COMPRESS_ID_MAX + 1];
    unsigned long long pv_codec_msgs[OPAL_COMPRESS_ID_MAX + 1];
    unsigned long long corrupt_count;
} mca_pml_zcomp_globals_t;

extern mca_pml_zcomp_globals_t mca_pml_zcomp;
OMPI_DECLSPEC extern mca_pml_base_component_2_0_0_t mca_pml_zcomp_component;
extern mca_pml_base_module_t mca_pml_zcomp_wrapped;   /* the PML we wrap */

/* ---- decisions (pml_zcomp_model.c) ---- */
typedef struct zc_decision_t {
    const opal_compress_codec_t *codec; /* NULL = raw */
    int cls;
    int bucket;
    bool measure;        /* try every candidate on this message (adaptive) */
    size_t mark_room;    /* largest marked payload ob1 sends eagerly to the peer */
} zc_decision_t;

/* Bytes of the BTL's eager limit that ob1's own header may take (its
 * largest, mca_pml_ob1_hdr_t, is 80 bytes on x86-64): ob1 sends a payload
 * eagerly only while it fits the rest. */
#define ZC_PML_HDR_RESERVE 128

int mca_pml_zcomp_model_init(void);
void mca_pml_zcomp_model_fini(void);
void mca_pml_zcomp_decide(const void *buf, size_t count, ompi_datatype_t *dtype, size_t bytes,
                          int dst, ompi_communicator_t *comm, int tag, zc_decision_t *d);
/* Report a compressed chunk: codec, raw bytes, compressed bytes, seconds. */
void mca_pml_zcomp_note_compress(const zc_decision_t *d, const opal_compress_codec_t *c,
                                 size_t raw, size_t out, double secs);
/* Report a transfer to a peer: bytes on the wire, seconds the link was busy. */
void mca_pml_zcomp_note_transfer(ompi_communicator_t *comm, int dst, size_t bytes,
                                 double secs);
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
int mca_pml_zcomp_start(size_t count, ompi_request_t **requests);
int mca_pml_zcomp_send_progress(void);

/* ---- receive side (pml_zcomp_recv.c) ---- */
void mca_pml_zcomp_recv_hook(struct ompi_request_t *request, const struct iovec *iov,
                             size_t iovcnt);
int mca_pml_zcomp_recv_progress(void);

int mca_pml_zcomp_progress(void);
double mca_pml_zcomp_now(void);

/* MPI_T counters: several threads may count at once (MPI_THREAD_MULTIPLE). */
static inline void zc_count(unsigned long long *counter, unsigned long long n)
{
    if (opal_using_threads()) {
        (void) __atomic_fetch_add(counter, n, __ATOMIC_RELAXED);
    } else {
        *counter += n;
    }
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
