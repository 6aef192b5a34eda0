/*
 * pyasc_sim/kernel_abi.h -- the contract between the simulated ACL runtime
 * (libpyasc_acl_sim.so) and simulator kernel binaries.  pyasc's own design; it has
 * no Ascend counterpart.
 *
 * On the simulator a "kernel binary" is a host shared object compiled with g++.
 * For every kernel `name` it exports
 *
 *     extern "C" void __pyasc_sim_entry_<name>(PyascSimBlockContext *ctx);
 *
 * aclrtBinaryLoadFromFile dlopens the object, aclrtBinaryGetFunction(name) looks up
 * __pyasc_sim_entry_<name>, and aclrtLaunchKernel runs the entry once per block
 * (block_idx 0..block_dim-1), blocks in parallel on the device's thread pool.
 * Blocks of one launch share global memory; each block gets its own context.
 *
 * A binary may also export the ABI version it was built against
 * (PYASC_SIM_DEFINE_ABI_VERSION()); when present the runtime refuses a version
 * newer than its own (or 0) at load time with ACL_ERROR_INVALID_FILE.  The context
 * only grows at its end, so binaries built against an older version keep working.
 *
 * Version history:
 *   1  block_idx/block_dim/args/soc_name in, cycles/status/message out.
 *   2  appended: flags (sanitizer switch), kernel_name, the SoC's buffer sizes,
 *      gm_query (is an address inside a live device allocation?) and
 *      report_gm_writes (a block hands the runtime the global-memory ranges it
 *      wrote; after the whole launch the runtime reports ranges written by more
 *      than one block).  Used by the Ascend C kernel API (backends/sim/kernel_api).
 *   3  appended: report_gm_write_sites, report_gm_writes with the source line that
 *      wrote each range, so that an overlap between blocks names the kernel lines.
 *   4  appended: report_warning (a check hardware tolerates: reported, the block goes on),
 *      the cross-core primitives launch_shared / cross_core_wait / cross_core_notify that
 *      SyncAll, IBSet/IBWait and CrossCoreSetFlag/WaitFlag are built on, and the flag
 *      PYASC_SIM_FLAG_STRICT (warnings are errors).
 *   5  appended: gm_uninit*, the initcheck shadow of device memory (one bit per 32-byte sector,
 *      set = never written since a caching-allocator block was handed out; kernels clear the
 *      bits of what they write and report reads of set bits).  gm_query may now return 2: the
 *      range is a tensor block the caching allocator registered (pyascRtTrackBlock), so the
 *      kernel API names it a tensor; a why starting with PYASC_SIM_WHY_USE_AFTER_FREE means the
 *      address lies in a tensor block freed before the launch was enqueued.
 *   6  appended: span_cap and report_spans, the block's scheduled timeline (per-pipe spans in
 *      simulated cycles) when PYASC_SIM_FLAG_PROFILE is set (the profiler).
 *   7  appended: poll_wait, where a block that polls global memory (re-reads bytes it read before,
 *      unchanged) gives up its host thread until they change, so that blocks not started yet, or
 *      waiting for a thread, can write them.
 */
#ifndef PYASC_SIM_KERNEL_ABI_H_
#define PYASC_SIM_KERNEL_ABI_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PYASC_SIM_KERNEL_ABI_VERSION 7u

/* Symbol names. */
#define PYASC_SIM_ENTRY_PREFIX "__pyasc_sim_entry_"
#define PYASC_SIM_ABI_VERSION_SYMBOL "__pyasc_sim_kernel_abi_version"

/* Status values a block may report (numerically equal to the public aclError
 * codes of the same meaning, so the runtime passes them through unchanged). */
#define PYASC_SIM_STATUS_OK 0
#define PYASC_SIM_STATUS_AICORE_EXCEPTION 507015        /* ACL_ERROR_RT_AICORE_EXCEPTION */
#define PYASC_SIM_STATUS_VECTOR_CORE_EXCEPTION 507035   /* ACL_ERROR_RT_VECTOR_CORE_EXCEPTION */
#define PYASC_SIM_STATUS_AICORE_TRAP_READ_OVERFLOW 507042
#define PYASC_SIM_STATUS_AICORE_TRAP_WRITE_OVERFLOW 507043

#define PYASC_SIM_MESSAGE_SIZE 1024

/* gm_query (v5): results and the prefix of a use-after-free reason. */
#define PYASC_SIM_GM_ALLOCATION 1   /* [base, base + size) is an aclrtMalloc allocation */
#define PYASC_SIM_GM_TENSOR 2       /* [base, base + size) is a tensor block (padded extent) */
#define PYASC_SIM_WHY_USE_AFTER_FREE "use after free: "

/* Bits of PyascSimBlockContext::flags (v2). */
#define PYASC_SIM_FLAG_CHECKS 0x1u /* sanitizer checks on (env PYASC_SIM_CHECKS, default on) */
#define PYASC_SIM_FLAG_STRICT 0x2u /* warnings are errors (env PYASC_SIM_STRICT, default off) (v4) */
/* The runtime reads PyascSimGmWrite::reserved as PYASC_SIM_GM_* tags (v5): the kernel may then
 * report its GM reads, atomic writes and cross-core sync events with report_gm_write_sites, for
 * the cross-core race check (gm-cross-core-race).  Without it only plain writes, tag 0. */
#define PYASC_SIM_FLAG_XRACE 0x4u
/* Keep the block's timeline spans and hand them to report_spans (v6; the profiler). */
#define PYASC_SIM_FLAG_PROFILE 0x8u

/* PyascSimGmWrite::reserved when PYASC_SIM_FLAG_XRACE is set: kind bits, the core of the block
 * (0: the block's only / AIC core, 1..3: its AIV cores) and the core's segment (a count of the
 * sync events it passed).  An event entry: begin = the sync object's key, end = a sequence
 * number in one order for the whole launch, line = PYASC_SIM_GM_EVENT_RELEASE / _ACQUIRE,
 * file = NULL; after an event of segment s the core runs segment s + 1. */
#define PYASC_SIM_GM_READ 0x80000000u
#define PYASC_SIM_GM_EVENT 0x40000000u
#define PYASC_SIM_GM_ATOMIC 0x20000000u
#define PYASC_SIM_GM_CORE_SHIFT 27u
#define PYASC_SIM_GM_CORE_MASK 0x3u
/* a plain write that is a scalar store through the core's data cache (GlobalTensor::SetValue, every
 * SoC), whose 64-byte lines the reference asks cores not to share (gm-cache-line-share) */
#define PYASC_SIM_GM_SCALAR 0x04000000u
#define PYASC_SIM_GM_SEGMENT_MASK 0x03ffffffu
#define PYASC_SIM_GM_EVENT_RELEASE 1u /* what this core did so far happens before a later acquire */
#define PYASC_SIM_GM_EVENT_ACQUIRE 2u /* ... of the same key */
/* A data-cache write-back (DataCacheCleanAndInvalid after a PYASC_SIM_GM_SCALAR store): begin / end
 * are the GM bytes whose lines it cleans ([0, UINT64_MAX) for the whole cache), not a key and a
 * sequence number; the core's scalar stores in segments <= this event's reached GM (gm-cache-line-share) */
#define PYASC_SIM_GM_EVENT_FLUSH 3u

/* A half-open byte range [begin, end) of global (device) memory (v2). */
typedef struct PyascSimGmRange {
    uint64_t begin;
    uint64_t end;
} PyascSimGmRange;

/* A range of global memory a block wrote and the kernel source line that wrote it (v3).
 * `file` points at a string of the kernel binary (valid while it is loaded) or is NULL. */
typedef struct PyascSimGmWrite {
    uint64_t begin;
    uint64_t end;
    const char *file;
    uint32_t line;
    uint32_t reserved;
} PyascSimGmWrite;

/* One span of a block's scheduled timeline (v6): an instruction, or a run of the same
 * instruction back to back, on one pipe (0 S, 1 V, 2 M, 3 MTE1, 4 MTE2, 5 MTE3, 6 FIX), from
 * `start` to `end` in simulated cycles since the block started; kind PYASC_SIM_SPAN_WAIT is time
 * the pipe was blocked on a flag, a queue or a barrier.  `file` is a string of the kernel binary. */
#define PYASC_SIM_SPAN_INSTR 0u
#define PYASC_SIM_SPAN_WAIT 1u
typedef struct PyascSimSpan {
    double start;
    double end;
    uint64_t bytes;     /* bytes moved by DMA instructions (MTE2 / MTE3), else 0 */
    const char *file;
    uint32_t line;
    uint32_t count;     /* instructions merged into this span */
    uint16_t pipe;
    uint16_t kind;
    uint32_t reserved;
} PyascSimSpan;

typedef struct PyascSimBlockContext {
    uint32_t abi_version;   /* PYASC_SIM_KERNEL_ABI_VERSION, set by the runtime */
    uint32_t block_idx;     /* this block, 0..block_dim-1 */
    uint32_t block_dim;     /* numBlocks of the launch */
    const void *args;       /* the launch's args blob, as the binary's entry stubs lay it out
                               (kapi/entry.h: by type, GM addresses as uint64) */
    size_t args_size;       /* bytes in args */
    const char *soc_name;   /* e.g. "Ascend910B1" */
    uint64_t cycles;        /* out: estimated device cycles of this block (0 if the
                               kernel does not model cost); runtime sets it to 0 first */
    int32_t status;         /* out: 0, or an aclError such as ACL_ERROR_RT_AICORE_EXCEPTION;
                               runtime sets it to 0 first */
    char message[PYASC_SIM_MESSAGE_SIZE]; /* out: what went wrong, when status != 0
                                             (NUL-terminated; runtime zeroes it first) */

    /* ---- version 2 (valid when abi_version >= 2) ---- */
    uint32_t flags;           /* PYASC_SIM_FLAG_* */
    uint32_t vector_cores;    /* SoC profile: AIV cores (blocks per wave) */
    uint32_t cube_cores;      /* SoC profile: AIC cores */
    uint32_t reserved0;
    const char *kernel_name;  /* the name passed to aclrtBinaryGetFunction */
    uint64_t ub_bytes;        /* SoC profile: Unified Buffer per vector core */
    uint64_t l1_bytes;        /* SoC profile: L1 per cube core */
    uint64_t l0a_bytes;
    uint64_t l0b_bytes;
    uint64_t l0c_bytes;
    void *runtime_user;       /* first argument of the callbacks below */
    /* Finds the live device allocation containing p: returns 1 and sets *base /
     * *size, or returns 0 and writes why p is not device memory into why (may be
     * NULL).  Thread-safe. */
    int (*gm_query)(void *user, const void *p, uint64_t *base, uint64_t *size, char *why, size_t why_size);
    /* Hands the runtime the global-memory ranges this block wrote (sorted or not,
     * may overlap each other).  Called at most once per block, before the entry
     * returns; the runtime copies them.  Blocks write disjoint slots: thread-safe. */
    void (*report_gm_writes)(void *user, uint32_t block_idx, const PyascSimGmRange *ranges, size_t count);

    /* ---- version 3 (valid when abi_version >= 3) ---- */
    /* report_gm_writes with the source line of every range; a block calls one of the two.
     * NULL when the checks are off (like report_gm_writes). */
    void (*report_gm_write_sites)(void *user, uint32_t block_idx, const PyascSimGmWrite *writes, size_t count);

    /* ---- version 4 (valid when abi_version >= 4) ---- */
    /* A warning: something hardware tolerates but that is suspicious ("sanitizer warning
     * '<check>' at <file>:<line>: ..."); the block goes on.  Thread-safe; the runtime copies it. */
    void (*report_warning)(void *user, uint32_t block_idx, const char *message);
    /* A zeroed area of `bytes` bytes shared by every block of this launch (the same pointer for
     * all; the first call fixes the size, a later larger request returns NULL).  Thread-safe. */
    void *(*launch_shared)(void *user, size_t bytes);
    /* Blocks the calling block until ready(arg) returns nonzero (evaluated under the runtime's
     * lock, after every cross_core_notify).  Returns 0 then; returns nonzero with `why` filled
     * when it can never become ready: every other block of the launch has ended or waits too
     * (a hang on hardware).  `what` describes the wait for that message. */
    int (*cross_core_wait)(void *user, uint32_t block_idx, int (*ready)(void *arg), void *arg, const char *what,
                           char *why, size_t why_size);
    /* Wakes the blocks waiting in cross_core_wait to evaluate their conditions again: call it after
     * changing what they wait for. */
    void (*cross_core_notify)(void *user);
    /* A block of a mixed cube/vector kernel runs its AI Core's other cores (the vector cores of
     * KERNEL_TYPE_MIX_AIC_1_2) on threads of its own: core_started before each such core starts,
     * core_ended when it ended, so cross_core_wait counts them. */
    void (*core_started)(void *user);
    void (*core_ended)(void *user);
    /* out: cores this block ran (0 or 1: one core; 3: one AIC and two AIV).  A launch whose blocks
     * ran more than one core is costed in waves of the SoC's cube cores (AI Cores). */
    uint32_t cores_per_block;
    uint32_t reserved4;

    /* ---- version 5 (valid when abi_version >= 5) ---- */
    /* Initcheck shadow of device memory [gm_uninit_base, gm_uninit_base + gm_uninit_span): bit
     * (a - base) / 32 of gm_uninit is set while that 32-byte sector was never written since
     * its tensor block was handed out.  NULL when unavailable or the checks are off.  Shared by
     * all blocks (update bits atomically). */
    uint8_t *gm_uninit;
    uint64_t gm_uninit_base;
    uint64_t gm_uninit_span;

    /* ---- version 6 (valid when abi_version >= 6) ---- */
    /* With PYASC_SIM_FLAG_PROFILE: spans a core keeps at most, and where it hands them when it
     * ends (core 0: the block's only / AIC core, 1..: its AIV cores; `dropped`: spans past the
     * cap).  Thread-safe; the runtime copies them.  NULL when not profiling. */
    uint64_t span_cap;
    void (*report_spans)(void *user, uint32_t block_idx, uint32_t core, const PyascSimSpan *spans, size_t count,
                         uint64_t dropped);

    /* ---- version 7 (valid when abi_version >= 7) ---- */
    /* The calling block polls global memory: it re-read bytes several times and they did not change.
     * Gives up the block's host thread (starting a thread for blocks not started yet) until changed(arg)
     * returns nonzero -- evaluated by the calling thread under the runtime's lock, after every
     * cross_core_notify and at least every millisecond, since a DMA write that changes the bytes
     * notifies nobody -- and returns 0 then.  Returns 1 without a change when nothing else can run:
     * every block has started and every other one has ended, waits in cross_core_wait or polls in
     * poll_wait, each having seen its condition false since the last notify (the kernel API counts
     * such returns and reports a hang).  A polling block is not a waiting one for cross_core_wait's
     * deadlock verdict: it may still go on by itself.  `wrote`: nonzero when the block may have changed
     * what other blocks wait or poll for since its last poll_wait (they look again).  May be NULL (then
     * the block just yields). */
    int (*poll_wait)(void *user, uint32_t block_idx, int (*changed)(void *arg), void *arg, int wrote);
} PyascSimBlockContext;

typedef void (*PyascSimKernelEntry)(PyascSimBlockContext *ctx);

/* Helpers for kernel binaries. */
#if defined(__GNUC__)
#define PYASC_SIM_EXPORT __attribute__((visibility("default")))
#else
#define PYASC_SIM_EXPORT
#endif

#ifdef __cplusplus
#define PYASC_SIM_EXTERN_C extern "C"
#else
#define PYASC_SIM_EXTERN_C
#endif

/* Declares the entry point of kernel `name`:
 *     PYASC_SIM_KERNEL_ENTRY(vector_add) { ... uses ctx ... }          */
#define PYASC_SIM_KERNEL_ENTRY(name) \
    PYASC_SIM_EXTERN_C PYASC_SIM_EXPORT void __pyasc_sim_entry_##name(PyascSimBlockContext *ctx)

/* Exports the ABI version this binary was compiled against (once per binary). */
#define PYASC_SIM_DEFINE_ABI_VERSION() \
    PYASC_SIM_EXTERN_C PYASC_SIM_EXPORT const uint32_t __pyasc_sim_kernel_abi_version = \
        PYASC_SIM_KERNEL_ABI_VERSION

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PYASC_SIM_KERNEL_ABI_H_ */
