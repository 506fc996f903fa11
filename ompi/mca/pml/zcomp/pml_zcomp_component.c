/*
 * Copyright (c) 2026 The ompi-research-components authors.
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * pml/zcomp component: parameters, MPI_T performance variables, and the
 * interposition over the selected PML.
 *
 * Interposition: zcomp is never a candidate of the PML selection (init()
 * returns no module); the base selects the real PML and then closes us as
 * "not selected".  In that close, when pml_zcomp_enable is set, we look at
 * the winner: if it supports marked messages (ob1) we save the selected
 * component and module and install a copy of the module whose send and
 * start functions are ours; every receive and probe function stays the
 * wrapped PML's own (the receive side works from the marked-message hook).
 * Finalize restores the wrapped PML.  Any other winner (ucx, cm) runs alone,
 * untouched: rank 0 says so once (help topic "other-pml") and zcomp is
 * unloaded like a PML that lost the selection (issue 23).
 *
 * The base loads only the PML components the "pml" MCA parameter names
 * (all of them when it is unset or an exclusion list); core patch 0009 adds
 * zcomp to such an include list, so "--mca pml ob1" and "--mca pml ucx"
 * load it too (README.md, "Other PMLs").
 */
#include "ompi_config.h"
#include "opal/mca/common/suite/suite_compat.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "opal/mca/base/mca_base_component_repository.h"
#include "opal/mca/base/mca_base_pvar.h"
#include "opal/mca/common/suite/common_suite.h"
#include SUITE_PMIX_H
#include "opal/runtime/opal_progress.h"
#include "opal/util/show_help.h"
#include SUITE_RTE_H
#if SUITE_OMPI_5
#    include "opal/mca/accelerator/base/base.h"
#endif

#include "pml_zcomp.h"
#include "pml_zcomp_wire.h"

/* Defaults of the parameters zc_activate checks: it falls back to them. */
#define ZC_DEFAULT_CHUNK_SIZE (256 * 1024)
#define ZC_DEFAULT_WINDOW 8
#define ZC_DEFAULT_INLINE_MAX 2048
#define ZC_DEFAULT_SAMPLE_BUDGET 0.01
#define ZC_DEFAULT_PROBE_BUDGET 0.05

mca_pml_zcomp_globals_t mca_pml_zcomp = {
    .p = {
        .enable = false,
        .strategy = ZC_STRATEGY_ADAPTIVE,
        .threshold = 4096,
        .chunk_size = ZC_DEFAULT_CHUNK_SIZE,
        .window = ZC_DEFAULT_WINDOW,
        .inline_max = ZC_DEFAULT_INLINE_MAX,
        .min_gain = 1.03,
        .msg_overhead = 20.0,
        .sample_budget = ZC_DEFAULT_SAMPLE_BUDGET,
        .probe_budget = ZC_DEFAULT_PROBE_BUDGET,
        .default_bandwidth = 0.0,
    },
    .output = -1,
};

mca_pml_base_module_t mca_pml_zcomp_wrapped;
#if OPAL_C_HAVE_VISIBILITY
/* bench/zcomp_bench.c --ab finds the wrapped PML by this name: the
 * variable itself is hidden, so that the send fast path reads it without
 * a GOT load */
extern mca_pml_base_module_t mca_pml_zcomp_wrapped_export
    __attribute__((alias("mca_pml_zcomp_wrapped"), visibility("default")));
#endif
static mca_pml_base_component_t zc_wrapped_component;
static bool zc_interposed = false;

/* Raw sends of ZC_XFER_MIN (4 MB) and more to a ZC_PEER_FAST peer still
 * take the slow path: mca_pml_zcomp_send times them for the path's
 * bandwidth estimate, which may fall (a path slower than its BTL says). */
#define ZC_TIMED_MIN ((size_t) ZC_XFER_MIN)

/* Guards the communicator table's slots and every write of a code (sends
 * read the table without it: a peer's entry is one byte, and a
 * stale one only sends a message through the model, or the model's
 * previous way, never wrongly). */
static opal_mutex_t zc_comms_lock;
static uint32_t zc_comms_top = 0; /* 1 + the largest context id in use */

double mca_pml_zcomp_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

void mca_pml_zcomp_progress_start(void)
{
    if (!__atomic_exchange_n(&mca_pml_zcomp.progress_on, true, __ATOMIC_ACQ_REL)) {
        opal_progress_register(mca_pml_zcomp_progress);
    }
}

/* ---------------------------------------------------------------- per-peer codes */

static int zc_add_comm(ompi_communicator_t *comm)
{
    uint32_t cid = SUITE_COMM_INDEX(comm), n = (uint32_t) comm->c_remote_group->grp_proc_count;
    zc_comm_t *t;
    int rc;

    if (cid >= mca_pml_zcomp.ncomms) {
        /* cannot happen under ob1 (its largest context id sized the table) */
        opal_output(0, "pml zcomp: communicator context id %u above the PML's limit %u",
                    cid, mca_pml_zcomp.ncomms - 1);
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    t = calloc(1, sizeof(*t) + (size_t) n);
    if (NULL == t) {
        /* MPI_Init ignores add_comm's result for the world and self: send
         * every message raw from now on, so that nothing reads the table */
        opal_output(0, "pml zcomp: out of memory for a communicator's table: "
                    "messages are sent uncompressed from now on");
        mca_pml_zcomp.raw_threshold = SIZE_MAX;
        return mca_pml_zcomp_wrapped.pml_add_comm(comm);
    }
    t->size = n; /* every code ZC_PEER_DECIDE (0): the first message looks */
    rc = mca_pml_zcomp_wrapped.pml_add_comm(comm);
    if (OMPI_SUCCESS != rc) {
        free(t);
        return rc;
    }
    OPAL_THREAD_LOCK(&zc_comms_lock);
    mca_pml_zcomp.comms[cid] = t;
    if (cid >= zc_comms_top) {
        zc_comms_top = cid + 1;
    }
    OPAL_THREAD_UNLOCK(&zc_comms_lock);
    return OMPI_SUCCESS;
}

static int zc_del_comm(ompi_communicator_t *comm)
{
    zc_comm_t *t;
    OPAL_THREAD_LOCK(&zc_comms_lock);
    t = mca_pml_zcomp.comms[SUITE_COMM_INDEX(comm)];
    mca_pml_zcomp.comms[SUITE_COMM_INDEX(comm)] = NULL;
    OPAL_THREAD_UNLOCK(&zc_comms_lock);
    free(t);
    return mca_pml_zcomp_wrapped.pml_del_comm(comm);
}

void mca_pml_zcomp_code_set(ompi_communicator_t *comm, int rank, uint8_t code)
{
    zc_comm_t *t = mca_pml_zcomp.comms[SUITE_COMM_INDEX(comm)];
    if (NULL == t || rank < 0 || (uint32_t) rank >= t->size
        || __atomic_load_n(&t->code[rank], __ATOMIC_RELAXED) == code) {
        return;
    }
    OPAL_THREAD_LOCK(&zc_comms_lock);
    __atomic_store_n(&t->code[rank], code, __ATOMIC_RELAXED);
    OPAL_THREAD_UNLOCK(&zc_comms_lock);
}

void mca_pml_zcomp_codes_reset_fast(void)
{
    uint32_t c, r;
    OPAL_THREAD_LOCK(&zc_comms_lock);
    for (c = 0; c < zc_comms_top; c++) {
        zc_comm_t *t = mca_pml_zcomp.comms[c];
        if (NULL == t) {
            continue;
        }
        for (r = 0; r < t->size; r++) {
            if (ZC_PEER_FAST == t->code[r]) {
                __atomic_store_n(&t->code[r], (uint8_t) ZC_PEER_DECIDE, __ATOMIC_RELAXED);
            }
        }
    }
    OPAL_THREAD_UNLOCK(&zc_comms_lock);
}

int mca_pml_zcomp_progress(void)
{
    static volatile int32_t busy = 0;
    int n = 0;
    if (0 == __atomic_load_n(&mca_pml_zcomp.nactive, __ATOMIC_RELAXED)) {
        return 0;
    }
    if (0 != OPAL_THREAD_ADD_FETCH32(&busy, 1) - 1) {
        OPAL_THREAD_ADD_FETCH32(&busy, -1);
        return 0; /* re-entered (or another thread is at it) */
    }
    n += mca_pml_zcomp_send_progress();
    n += mca_pml_zcomp_recv_progress();
    OPAL_THREAD_ADD_FETCH32(&busy, -1);
    return n;
}

static void zc_register_pvar(const char *name, const char *desc, unsigned long long *storage)
{
    (void) common_suite_component_pvar_register(&mca_pml_zcomp_component.pmlm_version, name, desc,
                                                MCA_BASE_PVAR_CLASS_COUNTER,
                                                MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG, NULL,
                                                storage);
}

/* The counters, registered in this order (pml_zcomp_<name>). */
static const struct {
    const char *name;
    const char *desc;
    unsigned long long *storage;
} zc_pvars[] = {
    {"bytes_original", "Bytes of messages zcomp sent compressed, before compression",
     &mca_pml_zcomp.pv_bytes_original},
    {"bytes_compressed", "Bytes zcomp put on the wire for compressed messages "
     "(headers and chunks)", &mca_pml_zcomp.pv_bytes_sent},
    {"messages_compressed", "Messages sent compressed", &mca_pml_zcomp.pv_msgs_compressed},
    {"messages_raw", "Messages sent raw (below the threshold, or by decision)",
     &mca_pml_zcomp.pv_msgs_raw},
    {"bytes_raw", "Bytes of messages sent raw", &mca_pml_zcomp.pv_bytes_raw},
    {"messages_decompressed", "Compressed messages received", &mca_pml_zcomp.pv_recv_compressed},
    {"receive_errors", "Compressed messages received corrupt", &mca_pml_zcomp.pv_recv_errors},
    {"probes", "Messages of 4 MB or more sent raw although a codec was predicted to win, "
     "timed so that the path's bandwidth estimate can rise (pml_zcomp_probe_budget)",
     &mca_pml_zcomp.pv_probes},
};

/* The counters of each codec the compress framework has open, named after
 * it (pml_zcomp_<codec>_bytes_in, ...) and indexed by its wire id, so a new
 * codec needs no change here.  Before the framework is open (at component
 * registration, and in ompi_info) there is none: they are registered when
 * MPI_Init enables the PML (zc_enable), after zc_activate opened it. */
static void zc_register_codec_pvars(void)
{
    static const struct {
        const char *suffix;
        const char *desc; /* %s: the codec's name */
        unsigned long long (*counters)[OPAL_COMPRESS_ID_MAX + 1];
    } per_codec[] = {
        {"bytes_in", "Bytes given to codec %s by zcomp's sends", &mca_pml_zcomp.pv_codec_in},
        {"bytes_out", "Bytes codec %s produced in zcomp's sends (chunks it did not shrink are "
         "stored raw and not counted)", &mca_pml_zcomp.pv_codec_out},
        {"messages", "Messages zcomp sent compressed with codec %s", &mca_pml_zcomp.pv_codec_msgs},
    };
    char name[64], desc[160];
    size_t k;
    int id;
    for (id = OPAL_COMPRESS_ID_RAW + 1; id <= OPAL_COMPRESS_ID_MAX; id++) {
        const opal_compress_codec_t *c = opal_compress_base_find_id((uint8_t) id);
        if (NULL == c) {
            continue;
        }
        for (k = 0; k < sizeof(per_codec) / sizeof(per_codec[0]); k++) {
            snprintf(name, sizeof(name), "%s_%s", c->name, per_codec[k].suffix);
            snprintf(desc, sizeof(desc), per_codec[k].desc, c->name);
            zc_register_pvar(name, desc, &(*per_codec[k].counters)[id]);
        }
    }
}

static void zc_register_pvars(void)
{
    size_t i;
    for (i = 0; i < sizeof(zc_pvars) / sizeof(zc_pvars[0]); i++) {
        zc_register_pvar(zc_pvars[i].name, zc_pvars[i].desc, zc_pvars[i].storage);
    }
    zc_register_codec_pvars();
}

/* The MCA variables after pml_zcomp_enable and pml_zcomp_strategy, in this
 * order (ompi_info lists them so).  Numeric defaults are the initial values
 * of mca_pml_zcomp.p; a string's default is set right before registration. */
static const struct {
    const char *name;
    mca_base_var_type_t type;
    int level;
    mca_base_var_scope_t scope;
    void *storage;
    const char *string_default;
    const char *desc;
} zc_vars[] = {
    {"codec", MCA_BASE_VAR_TYPE_STRING, OPAL_INFO_LVL_3, MCA_BASE_VAR_SCOPE_READONLY,
     &mca_pml_zcomp.p.codec, "lz4",
     "Codec (opal/mca/compress component) used by the 'always' strategy"},
    {"candidates", MCA_BASE_VAR_TYPE_STRING, OPAL_INFO_LVL_4, MCA_BASE_VAR_SCOPE_READONLY,
     &mca_pml_zcomp.p.candidates, "lz4,zstd,rle,fpc,rice",
     "Comma-separated codecs the adaptive and guided strategies choose from (each "
     "message class only samples the codecs that suit its datatype)"},
    {"threshold", MCA_BASE_VAR_TYPE_UNSIGNED_LONG, OPAL_INFO_LVL_4, MCA_BASE_VAR_SCOPE_READONLY,
     &mca_pml_zcomp.p.threshold, NULL,
     "Messages smaller than this many bytes are never compressed"},
    {"chunk_size", MCA_BASE_VAR_TYPE_UNSIGNED_LONG, OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_READONLY,
     &mca_pml_zcomp.p.chunk_size, NULL,
     "Large messages are compressed, sent and decompressed in chunks of this many "
     "bytes, pipelined (compressing chunk k+1 overlaps sending chunk k)"},
    {"window", MCA_BASE_VAR_TYPE_INT, OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_READONLY,
     &mca_pml_zcomp.p.window, NULL, "Chunks in flight per message (sender and receiver)"},
    {"inline_max", MCA_BASE_VAR_TYPE_UNSIGNED_LONG, OPAL_INFO_LVL_6, MCA_BASE_VAR_SCOPE_READONLY,
     &mca_pml_zcomp.p.inline_max, NULL,
     "A compressed message whose compressed form is at most this many bytes travels "
     "in one message with its header (must stay below the BTLs' eager limits)"},
    {"path_bandwidth", MCA_BASE_VAR_TYPE_DOUBLE, OPAL_INFO_LVL_4, MCA_BASE_VAR_SCOPE_READONLY,
     &mca_pml_zcomp.p.path_bandwidth, NULL,
     "Bandwidth in MB/s the adaptive strategy assumes for every peer instead of "
     "measuring it (0 = measure each path online)"},
    {"default_bandwidth", MCA_BASE_VAR_TYPE_DOUBLE, OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_READONLY,
     &mca_pml_zcomp.p.default_bandwidth, NULL,
     "Bandwidth in MB/s assumed for a path before anything was measured on it and "
     "when the calibration file does not cover it (0 = the BTL's advertised bandwidth)"},
    {"calibration_file", MCA_BASE_VAR_TYPE_STRING, OPAL_INFO_LVL_4, MCA_BASE_VAR_SCOPE_READONLY,
     &mca_pml_zcomp.p.calibration_file, NULL,
     "Path bandwidths written by zcomp_calibrate, seeding the adaptive model"},
    {"decision_file", MCA_BASE_VAR_TYPE_STRING, OPAL_INFO_LVL_4, MCA_BASE_VAR_SCOPE_READONLY,
     &mca_pml_zcomp.p.decision_file, NULL,
     "Decision file of the guided strategy (per process: '.<rank>' is appended); "
     "written by a tracing run when it does not exist"},
    {"min_gain", MCA_BASE_VAR_TYPE_DOUBLE, OPAL_INFO_LVL_6, MCA_BASE_VAR_SCOPE_READONLY,
     &mca_pml_zcomp.p.min_gain, NULL,
     "Adaptive: compress only when the model predicts at least this speedup"},
    {"msg_overhead", MCA_BASE_VAR_TYPE_DOUBLE, OPAL_INFO_LVL_6, MCA_BASE_VAR_SCOPE_READONLY,
     &mca_pml_zcomp.p.msg_overhead, NULL,
     "Adaptive: extra time in microseconds a compressed message costs over a raw one "
     "(its header message, codec set-up), added to the model's compressed time"},
    {"sample_budget", MCA_BASE_VAR_TYPE_DOUBLE, OPAL_INFO_LVL_6, MCA_BASE_VAR_SCOPE_READONLY,
     &mca_pml_zcomp.p.sample_budget, NULL,
     "Adaptive: share (0-1) of a message class's predicted transfer time that sampling "
     "every candidate codec again may take (codec ratios and speeds drift with the "
     "data; 0: sample each class once only)"},
    {"probe_budget", MCA_BASE_VAR_TYPE_DOUBLE, OPAL_INFO_LVL_6, MCA_BASE_VAR_SCOPE_READONLY,
     &mca_pml_zcomp.p.probe_budget, NULL,
     "Adaptive: share (0-1) of the transfer time to a peer on another node that raw "
     "probes may cost: while messages to it are compressed, one of 4 MB or more is now "
     "and then sent raw and timed, so that a path that became faster is noticed "
     "(0: never; the estimate then rises only as far as compressed transfers show)"},
    {"verbose", MCA_BASE_VAR_TYPE_INT, OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_LOCAL,
     &mca_pml_zcomp.p.verbose, NULL,
     "Verbosity of zcomp's output stream (10: every decision with its reasons)"},
    {"corrupt_every", MCA_BASE_VAR_TYPE_INT, OPAL_INFO_LVL_9, MCA_BASE_VAR_SCOPE_READONLY,
     &mca_pml_zcomp.p.corrupt_every, NULL,
     "Testing only: corrupt every Nth compressed chunk after its checksum was taken "
     "(0 = never)"},
};

static int zc_register(void)
{
    static const mca_base_var_enum_value_t strategies[] = {
        {ZC_STRATEGY_ADAPTIVE, "adaptive"},
        {ZC_STRATEGY_ALWAYS, "always"},
        {ZC_STRATEGY_NEVER, "never"},
        {ZC_STRATEGY_GUIDED, "guided"},
        {0, NULL}
    };
    mca_base_var_enum_t *senum = NULL;
    const mca_base_component_t *c = &mca_pml_zcomp_component.pmlm_version;
    mca_pml_zcomp_params_t *p = &mca_pml_zcomp.p;
    size_t i;

    (void) mca_base_component_var_register(c, "enable",
        "Compress point-to-point messages transparently: wrap the selected PML (ob1) "
        "with zcomp (0 = off: Open MPI behaves exactly as without zcomp).  Another PML "
        "(ucx, cm) runs alone, uncompressed, and rank 0 says so",
        MCA_BASE_VAR_TYPE_BOOL, NULL, 0, 0, OPAL_INFO_LVL_2, MCA_BASE_VAR_SCOPE_READONLY,
        &p->enable);

    (void) mca_base_var_enum_create("pml_zcomp_strategy", strategies, &senum);
    (void) mca_base_component_var_register(c, "strategy",
        "How zcomp decides per message: adaptive (cost model with measured codec speed, "
        "ratio and path bandwidth), always (compress every eligible message with "
        "pml_zcomp_codec), never (send everything raw), guided (follow the decision file "
        "pml_zcomp_decision_file; a run without that file traces and writes it)",
        MCA_BASE_VAR_TYPE_INT, senum, 0, 0, OPAL_INFO_LVL_3, MCA_BASE_VAR_SCOPE_READONLY,
        &p->strategy);
    OBJ_RELEASE(senum);

    for (i = 0; i < sizeof(zc_vars) / sizeof(zc_vars[0]); i++) {
        if (MCA_BASE_VAR_TYPE_STRING == zc_vars[i].type) {
            *(char **) zc_vars[i].storage = (char *) zc_vars[i].string_default;
        }
        (void) mca_base_component_var_register(c, zc_vars[i].name, zc_vars[i].desc,
                                               zc_vars[i].type, NULL, 0, 0, zc_vars[i].level,
                                               zc_vars[i].scope, zc_vars[i].storage);
    }

    zc_register_pvars();
    return OMPI_SUCCESS;
}

/* Does the user's "pml" selection offer us as the PML?  The base selects
 * among the components whose name starts its include list's value, so
 * "zcomp" and "zcomp,ob1" do (zcomp is not a PML of its own), while
 * "ob1,zcomp" only makes the base load zcomp, which then wraps ob1. */
static bool zc_offered_as_pml(void)
{
    const char **value = NULL;
    int id = mca_base_var_find("ompi", "pml", NULL, NULL);
    if (id < 0 || OPAL_SUCCESS != mca_base_var_get_value(id, &value, NULL, NULL)
        || NULL == value || NULL == value[0]) {
        return false;
    }
    return 0 == strncmp(value[0], "zcomp", strlen("zcomp"));
}

static int zc_open(void)
{
    mca_pml_zcomp.output = opal_output_open(NULL);
    opal_output_set_verbosity(mca_pml_zcomp.output, mca_pml_zcomp.p.verbose);
    return OMPI_SUCCESS;
}

static int zc_activate(void);

/* The PML selection closes the losing components, and closing a component
 * deregisters its variables: register the MPI_T pvars again once MPI_Init
 * enables the PML (the per-codec ones for the first time: the compress
 * framework is open now). */
static int zc_enable(bool enable)
{
    if (enable) {
        zc_register_pvars();
    }
    return mca_pml_zcomp_wrapped.pml_enable(enable);
}

static void zc_close_output(void)
{
    if (mca_pml_zcomp.output >= 0) {
        opal_output_close(mca_pml_zcomp.output);
        mca_pml_zcomp.output = -1;
    }
}

static int zc_close(void)
{
    const char *winner = mca_pml_base_selected_component.pmlm_version.mca_component_name;
    int rc;

    if (zc_interposed) {
        return OMPI_SUCCESS;
    }
    if (!mca_pml_zcomp.p.enable || NULL == mca_pml_base_selected_component.pmlm_init) {
        /* off, or the framework closes without a selection (ompi_info) */
        zc_close_output();
        return OMPI_SUCCESS;
    }
    if (0 == (mca_pml.pml_flags & MCA_PML_BASE_FLAG_MARKED)) {
        /* A PML without marked messages (ucx, cm): zcomp could only send
         * raw through a wrapper.  Stay out of the way instead, as if off:
         * mca_pml stays the winner's own module (no wrapper on the hot
         * path, no progress callback, no receive hook, nothing in the
         * modex), and the base unloads us with the other losers.  The
         * selection is the same in every process of the job, so one
         * process tells the user, locally as the suite does: no "N more
         * processes" lines, no N copies where nothing aggregates (srun),
         * and stock ORTE 4.1.4 can lose forwarded show_help messages. */
        if (0 == OMPI_PROC_MY_NAME->vpid) {
            common_suite_show_help("help-pml-zcomp.txt", "other-pml", winner, winner, winner);
        }
        ZC_VERBOSE(1, "zcomp: not wrapping pml %s (zcomp needs marked messages, which only "
                   "ob1 has): messages are sent uncompressed", winner);
        zc_close_output();
        return OMPI_SUCCESS;
    }
#if SUITE_OMPI_5
    /* 5.0's ob1 carries GPU buffers, and zcomp's codecs read and write the
     * user's buffer from the CPU.  With an accelerator component other
     * than "null" a buffer may be device memory, on either side (a receive
     * cannot know before the match whether the message is compressed):
     * stay out of the way, as for a PML without marked messages. */
    const char *acc = opal_accelerator_base_selected_component.base_version.mca_component_name;
    if (0 != strcmp(acc, "null")) {
        if (0 == OMPI_PROC_MY_NAME->vpid) {
            common_suite_show_help("help-pml-zcomp.txt", "accelerator", acc);
        }
        ZC_VERBOSE(1, "zcomp: not wrapping pml %s: accelerator %s is active and zcomp cannot "
                   "read device memory: messages are sent uncompressed", winner, acc);
        zc_close_output();
        return OMPI_SUCCESS;
    }
#endif
    /* Called by the PML selection for the losing components, after the
     * winner was installed in mca_pml: interpose now.  Keep our library
     * loaded (the selection unloads the losers); like pml/monitoring, the
     * reference is never released, as our code runs until the very end.
     * A zcomp built into libmpi (5.0's default: no --enable-mca-dso) has no
     * repository entry (OPAL_ERR_NOT_FOUND; NOT_SUPPORTED without dlopen)
     * and nothing to keep loaded. */
    rc = mca_base_component_repository_retain_component("pml", "zcomp");
    if (OPAL_SUCCESS != rc && OPAL_ERR_NOT_FOUND != rc && OPAL_ERR_NOT_SUPPORTED != rc) {
        ZC_VERBOSE(1, "zcomp: cannot keep the component loaded (%d): not wrapping pml %s",
                   rc, winner);
        zc_close_output();
        return OMPI_ERROR;
    }
    /* the per-peer codes: one slot per context id the PML allows (ob1:
     * 65536, 512 KB of address space, touched only where communicators
     * exist); without it, stay out of the way */
    mca_pml_zcomp.ncomms = (uint32_t) mca_pml.pml_max_contextid + 1;
    mca_pml_zcomp.comms = calloc(mca_pml_zcomp.ncomms, sizeof(zc_comm_t *));
    if (NULL == mca_pml_zcomp.comms) {
        zc_close_output();
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    zc_wrapped_component = mca_pml_base_selected_component;
    mca_pml_zcomp_wrapped = mca_pml;
    mca_pml_base_selected_component = mca_pml_zcomp_component;
    /* the PML's progress, tags, CID limits and flags stay the wrapped PML's */
    /* read once (MPI_Init set the thread level before the PML selection):
     * every counter and lock of zcomp's fast paths follows this copy */
    mca_pml_zcomp.mt = opal_using_threads();
    mca_pml.pml_isend_init = mca_pml_zcomp_isend_init;
    mca_pml.pml_isend = mca_pml_zcomp.mt ? mca_pml_zcomp_isend_mt : mca_pml_zcomp_isend;
    mca_pml.pml_send = mca_pml_zcomp.mt ? mca_pml_zcomp_send_mt : mca_pml_zcomp_send;
    mca_pml.pml_start = mca_pml_zcomp_start;
    mca_pml.pml_enable = zc_enable;
    mca_pml.pml_add_comm = zc_add_comm;
    mca_pml.pml_del_comm = zc_del_comm;
    zc_interposed = true;
    return zc_activate();
}

/* value if inside [lo, hi]; else the suite's message and dflt */
static long long zc_in_range_or_default(const char *var, long long value, long long lo,
                                        long long hi, long long dflt)
{
    char outcome[64];
    snprintf(outcome, sizeof(outcome), "using the default %lld", dflt);
    return common_suite_int_in_range(var, value, lo, hi, true, outcome) ? value : dflt;
}

static int zc_activate(void)
{
    mca_pml_zcomp_params_t *p = &mca_pml_zcomp.p;
    static const char *snames[] = {"adaptive", "always", "never", "guided"};
    int rc;

    OBJ_CONSTRUCT(&mca_pml_zcomp.lock, opal_recursive_mutex_t);
    mca_pml_zcomp.nactive = 0;
    OBJ_CONSTRUCT(&mca_pml_zcomp.sends, opal_list_t);
    OBJ_CONSTRUCT(&mca_pml_zcomp.recvs, opal_list_t);
    mca_pml_zcomp.next_ptag = 0;
    mca_pml_zcomp.progress_on = false;
    OBJ_CONSTRUCT(&zc_comms_lock, opal_mutex_t);

    /* every process checks and says what it does with its own value */
    p->chunk_size = (unsigned long) zc_in_range_or_default("pml_zcomp_chunk_size",
                                                           (long long) p->chunk_size, 4096,
                                                           1ll << 30, ZC_DEFAULT_CHUNK_SIZE);
    p->window = (int) zc_in_range_or_default("pml_zcomp_window", p->window, 1, 1024,
                                             ZC_DEFAULT_WINDOW);
    p->inline_max = (unsigned long) zc_in_range_or_default("pml_zcomp_inline_max",
                                                           (long long) p->inline_max, 0, 3072,
                                                           ZC_DEFAULT_INLINE_MAX);
    if (!(p->sample_budget >= 0 && p->sample_budget <= 1)) {
        /* a double: the suite's integer check does not apply (NaN included) */
        common_suite_show_help("help-pml-zcomp.txt", "bad-param", "pml_zcomp_sample_budget",
                               "0 .. 1");
        p->sample_budget = ZC_DEFAULT_SAMPLE_BUDGET;
    }
    if (!(p->probe_budget >= 0 && p->probe_budget <= 1)) {
        common_suite_show_help("help-pml-zcomp.txt", "bad-param", "pml_zcomp_probe_budget",
                               "0 .. 1");
        p->probe_budget = ZC_DEFAULT_PROBE_BUDGET;
    }

    rc = mca_base_framework_open(&opal_compress_base_framework, 0);
    if (OPAL_SUCCESS == rc) {
        mca_pml_zcomp.compress_open = true;
        (void) opal_compress_base_select();
    } else {
        opal_show_help("help-pml-zcomp.txt", "no-compress", true);
        p->strategy = ZC_STRATEGY_NEVER;
    }
    if (ZC_STRATEGY_ALWAYS == p->strategy) {
        mca_pml_zcomp.always_codec = opal_compress_base_find(p->codec);
        if (NULL == mca_pml_zcomp.always_codec) {
            opal_show_help("help-pml-zcomp.txt", "unknown-codec", true, p->codec,
                           "pml_zcomp_codec");
            p->strategy = ZC_STRATEGY_NEVER;
        }
    }
    /* also with strategy never: a peer may still compress (its parameters
     * may differ); zc_close wraps only a PML with marked messages */
    mca_pml_base_marked_recv_hook = mca_pml_zcomp_recv_hook;
    {
        /* before MPI_Init's modex fence: peers compress only to processes
         * that published this (zc_peer_has_zcomp) */
        uint32_t v = ZC_VERSION;
        OPAL_MODEX_SEND_VALUE(rc, SUITE_MODEX_GLOBAL, ZC_MODEX_KEY, &v, SUITE_MODEX_UINT32);
        if (OPAL_SUCCESS != rc) {
            ZC_VERBOSE(1, "zcomp: cannot publish the wire version (%d): peers will send raw", rc);
        }
    }
    /* What a send may skip, decided now (zc_send_raw_ok): with strategy
     * never every message goes straight through; else those below the
     * threshold, and the others by their peer's code. */
    mca_pml_zcomp.raw_threshold = ZC_STRATEGY_NEVER == p->strategy ? SIZE_MAX : p->threshold;
    mca_pml_zcomp.raw_below[ZC_PEER_DECIDE] = 0;
    mca_pml_zcomp.raw_below[ZC_PEER_FAST] = p->threshold > ZC_TIMED_MIN ? p->threshold
                                                                        : ZC_TIMED_MIN;
    mca_pml_zcomp.raw_below[ZC_PEER_NEVER] = SIZE_MAX;
    rc = mca_pml_zcomp_model_init();
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    if (ZC_STRATEGY_ADAPTIVE == p->strategy && 0 == mca_pml_zcomp.ncand) {
        mca_pml_zcomp.raw_threshold = SIZE_MAX; /* no codec to weigh: all raw */
    }
    /* The progress callback is registered by the first compressed send or
     * receive (mca_pml_zcomp_progress_start), but at once with threads:
     * registering may reallocate opal_progress's callback array while
     * other threads run it. */
    if (mca_pml_zcomp.mt) {
        mca_pml_zcomp_progress_start();
    }
    mca_pml_zcomp.active = true;
    ZC_VERBOSE(1, "zcomp: wrapping pml %s, strategy %s%s%s, threshold %lu B, chunks of %lu B",
               zc_wrapped_component.pmlm_version.mca_component_name, snames[p->strategy],
               ZC_STRATEGY_ALWAYS == p->strategy ? ", codec " : "",
               ZC_STRATEGY_ALWAYS == p->strategy ? p->codec : "", p->threshold, p->chunk_size);
    return OMPI_SUCCESS;
}

static mca_pml_base_module_t *zc_init(int *priority, bool enable_progress_threads,
                                      bool enable_mpi_threads)
{
    (void) priority;
    (void) enable_progress_threads;
    (void) enable_mpi_threads;
    /* The base calls this only when the "pml" parameter starts with our
     * name (zcomp no longer adds itself to the base's include list). */
    if (zc_offered_as_pml()) {
        opal_show_help("help-pml-zcomp.txt", "not-a-pml", true);
        ompi_rte_abort(1, NULL);
        return NULL;
    }
    /* Never a candidate: zc_close wraps the winner.  (Until issue 23 this
     * returned an empty module at priority 0, which won when no real PML
     * could run, "--mca pml ^ob1" without UCX devices for example, and
     * MPI_Init then called through its NULL functions.) */
    return NULL;
}

static int zc_finalize(void)
{
    if (!mca_pml_zcomp.active) {
        return OMPI_SUCCESS;
    }
    /* drain what is still in flight (sends the user freed early) */
    {
        double t0 = mca_pml_zcomp_now();
        while ((!opal_list_is_empty(&mca_pml_zcomp.sends)
                || !opal_list_is_empty(&mca_pml_zcomp.recvs))
               && mca_pml_zcomp_now() - t0 < 10.0) {
            opal_progress();
        }
        if (!opal_list_is_empty(&mca_pml_zcomp.sends) || !opal_list_is_empty(&mca_pml_zcomp.recvs)) {
            ZC_VERBOSE(1, "zcomp: finalize: %zu sends and %zu receives never completed",
                       opal_list_get_size(&mca_pml_zcomp.sends),
                       opal_list_get_size(&mca_pml_zcomp.recvs));
        }
    }
    /* the hook first: a receive after it could register progress again */
    mca_pml_base_marked_recv_hook = NULL;
    if (mca_pml_zcomp.progress_on) {
        opal_progress_unregister(mca_pml_zcomp_progress);
        mca_pml_zcomp.progress_on = false;
    }
    mca_pml_zcomp_model_fini();
    ZC_VERBOSE(1, "zcomp: sent %llu messages compressed (%llu -> %llu bytes), %llu raw; "
               "received %llu compressed, %llu corrupt",
               mca_pml_zcomp.pv_msgs_compressed, mca_pml_zcomp.pv_bytes_original,
               mca_pml_zcomp.pv_bytes_sent, mca_pml_zcomp.pv_msgs_raw,
               mca_pml_zcomp.pv_recv_compressed, mca_pml_zcomp.pv_recv_errors);
    if (mca_pml_zcomp.compress_open) {
        (void) mca_base_framework_close(&opal_compress_base_framework);
        mca_pml_zcomp.compress_open = false;
    }
    OBJ_DESTRUCT(&mca_pml_zcomp.sends);
    OBJ_DESTRUCT(&mca_pml_zcomp.recvs);
    OBJ_DESTRUCT(&mca_pml_zcomp.lock);
    {
        /* MPI_Finalize deleted the communicators before; any left over */
        uint32_t c;
        for (c = 0; c < zc_comms_top; c++) {
            free(mca_pml_zcomp.comms[c]);
        }
        free(mca_pml_zcomp.comms);
        mca_pml_zcomp.comms = NULL;
        zc_comms_top = 0;
        OBJ_DESTRUCT(&zc_comms_lock);
    }
    mca_pml_zcomp.active = false;
    /* give the wrapped PML back and let it finalize */
    mca_pml_base_selected_component = zc_wrapped_component;
    mca_pml = mca_pml_zcomp_wrapped;
    if (mca_pml_zcomp.output >= 0) {
        opal_output_close(mca_pml_zcomp.output);
        mca_pml_zcomp.output = -1;
    }
    if (NULL != zc_wrapped_component.pmlm_finalize) {
        return zc_wrapped_component.pmlm_finalize();
    }
    return OMPI_SUCCESS;
}

SUITE_PML_COMPONENT_T mca_pml_zcomp_component = {
    .pmlm_version = {
        SUITE_PML_BASE_VERSION,
        .mca_component_name = "zcomp",
        MCA_BASE_MAKE_VERSION(component, OMPI_MAJOR_VERSION, OMPI_MINOR_VERSION,
                              OMPI_RELEASE_VERSION),
        .mca_open_component = zc_open,
        .mca_close_component = zc_close,
        .mca_register_component_params = zc_register,
    },
    .pmlm_data = {
        MCA_BASE_METADATA_PARAM_CHECKPOINT
    },
    .pmlm_init = zc_init,
    .pmlm_finalize = zc_finalize,
};
