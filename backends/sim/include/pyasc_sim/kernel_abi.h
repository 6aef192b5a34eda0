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
 * (PYASC_SIM_DEFINE_ABI_VERSION()); when present the runtime refuses a mismatch
 * at load time with ACL_ERROR_INVALID_FILE.
 */
#ifndef PYASC_SIM_KERNEL_ABI_H_
#define PYASC_SIM_KERNEL_ABI_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PYASC_SIM_KERNEL_ABI_VERSION 1u

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

typedef struct PyascSimBlockContext {
    uint32_t abi_version;   /* PYASC_SIM_KERNEL_ABI_VERSION, set by the runtime */
    uint32_t block_idx;     /* this block, 0..block_dim-1 */
    uint32_t block_dim;     /* numBlocks of the launch */
    const void *args;       /* the launch's args blob: each argument packed as 8 bytes
                               (GM addresses as uint64) */
    size_t args_size;       /* bytes in args */
    const char *soc_name;   /* e.g. "Ascend910B1" */
    uint64_t cycles;        /* out: estimated device cycles of this block (0 if the
                               kernel does not model cost); runtime sets it to 0 first */
    int32_t status;         /* out: 0, or an aclError such as ACL_ERROR_RT_AICORE_EXCEPTION;
                               runtime sets it to 0 first */
    char message[PYASC_SIM_MESSAGE_SIZE]; /* out: what went wrong, when status != 0
                                             (NUL-terminated; runtime zeroes it first) */
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
