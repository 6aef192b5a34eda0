/*
 * pyasc/acl_abi.h -- pyasc's own C declarations of the subset of the ACL runtime
 * ABI that pyasc uses.
 *
 * Written from the public ACL API reference (function prototypes, enum values and
 * return codes as documented); no CANN file was copied.  Both the real
 * libascendcl.so and pyasc's simulator (libpyasc_acl_sim.so) export these symbols
 * with these exact signatures, so the pybind11 binding can dlopen either and
 * resolve every function by name (see PYASC_ACL_FUNCTION_LIST and the PFN_*
 * function-pointer typedefs at the end of this file).
 */
#ifndef PYASC_ACL_ABI_H_
#define PYASC_ACL_ABI_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Only the simulator defines PYASC_ACL_BUILDING_LIBRARY (it builds with
 * -fvisibility=hidden and exports exactly the functions declared here). */
#if defined(PYASC_ACL_BUILDING_LIBRARY) && defined(__GNUC__)
#define PYASC_ACL_API __attribute__((visibility("default")))
#else
#define PYASC_ACL_API
#endif

/* ------------------------------------------------------------------------- */
/* Handles and base types                                                    */
/* ------------------------------------------------------------------------- */
typedef int aclError;
typedef void *aclrtStream;     /* NULL means the default stream of the current device */
typedef void *aclrtEvent;
typedef void *aclrtBinHandle;  /* a loaded operator binary */
typedef void *aclrtFuncHandle; /* one kernel function inside a binary */

/* ------------------------------------------------------------------------- */
/* Return codes (aclError), public numbering                                 */
/* ------------------------------------------------------------------------- */
/* 1xxxxx: environment / usage errors */
#define ACL_SUCCESS 0
#define ACL_ERROR_NONE 0 /* deprecated alias of ACL_SUCCESS */
#define ACL_ERROR_INVALID_PARAM 100000
#define ACL_ERROR_UNINITIALIZE 100001
#define ACL_ERROR_REPEAT_INITIALIZE 100002
#define ACL_ERROR_INVALID_FILE 100003
#define ACL_ERROR_WRITE_FILE 100004
#define ACL_ERROR_INVALID_FILE_SIZE 100005
#define ACL_ERROR_PARSE_FILE 100006
#define ACL_ERROR_FILE_MISSING_ATTR 100007
#define ACL_ERROR_FILE_ATTR_INVALID 100008
#define ACL_ERROR_REPEAT_FINALIZE 100037
/* 2xxxxx: resources */
#define ACL_ERROR_BAD_ALLOC 200000
#define ACL_ERROR_API_NOT_SUPPORT 200001
#define ACL_ERROR_INVALID_DEVICE 200002 /* deprecated: use ACL_ERROR_RT_INVALID_DEVICEID */
#define ACL_ERROR_MEMORY_ADDRESS_UNALIGNED 200003
#define ACL_ERROR_RESOURCE_NOT_MATCH 200004
#define ACL_ERROR_INVALID_RESOURCE_HANDLE 200005
#define ACL_ERROR_FEATURE_UNSUPPORTED 200006
/* 3xxxxx / 5xxxxx */
#define ACL_ERROR_STORAGE_OVER_LIMIT 300000
#define ACL_ERROR_INTERNAL_ERROR 500000
#define ACL_ERROR_FAILURE 500001
#define ACL_ERROR_GE_FAILURE 500002
#define ACL_ERROR_RT_FAILURE 500003
#define ACL_ERROR_DRV_FAILURE 500004
#define ACL_ERROR_PROFILING_FAILURE 500005

/* Runtime return codes passed through ACL (107xxx / 207xxx / 507xxx) */
#define ACL_ERROR_RT_PARAM_INVALID 107000
#define ACL_ERROR_RT_INVALID_DEVICEID 107001
#define ACL_ERROR_RT_CONTEXT_NULL 107002
#define ACL_ERROR_RT_STREAM_CONTEXT 107003
#define ACL_ERROR_RT_MODEL_CONTEXT 107004
#define ACL_ERROR_RT_STREAM_MODEL 107005
#define ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID 107006
#define ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL 107007
#define ACL_ERROR_RT_ADDR_UNALIGNED 107008
#define ACL_ERROR_RT_FILE_OPEN 107009
#define ACL_ERROR_RT_FILE_WRITE 107010
#define ACL_ERROR_RT_INVALID_MEMORY_TYPE 107016
#define ACL_ERROR_RT_INVALID_HANDLE 107017
#define ACL_ERROR_RT_INVALID_MALLOC_TYPE 107018
#define ACL_ERROR_RT_WAIT_TIMEOUT 107019
#define ACL_ERROR_RT_TASK_TIMEOUT 107020
#define ACL_ERROR_RT_FEATURE_NOT_SUPPORT 207000
#define ACL_ERROR_RT_MEMORY_ALLOCATION 207001
#define ACL_ERROR_RT_MEMORY_FREE 207002
#define ACL_ERROR_RT_AICORE_OVER_FLOW 207003
#define ACL_ERROR_RT_NO_DEVICE 207004
#define ACL_ERROR_RT_RESOURCE_ALLOC_FAIL 207005
#define ACL_ERROR_RT_NO_PERMISSION 207006
#define ACL_ERROR_RT_NO_EVENT_RESOURCE 207007
#define ACL_ERROR_RT_NO_STREAM_RESOURCE 207008
#define ACL_ERROR_RT_DEVIDE_OOM 207018 /* sic: public spelling */
#define ACL_ERROR_RT_INTERNAL_ERROR 507000
#define ACL_ERROR_RT_TS_ERROR 507001
#define ACL_ERROR_RT_STREAM_TASK_FULL 507002
#define ACL_ERROR_RT_STREAM_TASK_EMPTY 507003
#define ACL_ERROR_RT_STREAM_NOT_COMPLETE 507004
#define ACL_ERROR_RT_END_OF_SEQUENCE 507005
#define ACL_ERROR_RT_EVENT_NOT_COMPLETE 507006
#define ACL_ERROR_RT_CONTEXT_RELEASE_ERROR 507007
#define ACL_ERROR_RT_SOC_VERSION 507008
#define ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT 507009
#define ACL_ERROR_RT_MODEL_EXECUTE 507011
#define ACL_ERROR_RT_AICORE_TIMEOUT 507014
#define ACL_ERROR_RT_AICORE_EXCEPTION 507015
#define ACL_ERROR_RT_AICORE_TRAP_EXCEPTION 507016
#define ACL_ERROR_RT_AICPU_TIMEOUT 507017
#define ACL_ERROR_RT_AICPU_EXCEPTION 507018
#define ACL_ERROR_RT_KERNEL_LOOKUP 507027
#define ACL_ERROR_RT_VECTOR_CORE_TIMEOUT 507034
#define ACL_ERROR_RT_VECTOR_CORE_EXCEPTION 507035
#define ACL_ERROR_RT_VECTOR_CORE_TRAP_EXCEPTION 507036
#define ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW 507042
#define ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW 507043
#define ACL_ERROR_RT_VECTOR_CORE_TRAP_READ_OVERFLOW 507044
#define ACL_ERROR_RT_VECTOR_CORE_TRAP_WRITE_OVERFLOW 507045
#define ACL_ERROR_RT_STREAM_SYNC_TIMEOUT 507046
#define ACL_ERROR_RT_EVENT_SYNC_TIMEOUT 507047
#define ACL_ERROR_RT_DRV_INTERNAL_ERROR 507899

/* ------------------------------------------------------------------------- */
/* Enumerations                                                              */
/* ------------------------------------------------------------------------- */
typedef enum aclrtMemMallocPolicy {
    ACL_MEM_MALLOC_HUGE_FIRST,
    ACL_MEM_MALLOC_HUGE_ONLY,
    ACL_MEM_MALLOC_NORMAL_ONLY,
    ACL_MEM_MALLOC_HUGE_FIRST_P2P,
    ACL_MEM_MALLOC_HUGE_ONLY_P2P,
    ACL_MEM_MALLOC_NORMAL_ONLY_P2P,
    ACL_MEM_MALLOC_HUGE1G_ONLY,
    ACL_MEM_MALLOC_HUGE1G_ONLY_P2P,
    ACL_MEM_TYPE_LOW_BAND_WIDTH = 0x0100U,
    ACL_MEM_TYPE_HIGH_BAND_WIDTH = 0x1000U,
    ACL_MEM_ACCESS_USER_SPACE_READONLY = 0x100000U
} aclrtMemMallocPolicy;

typedef enum aclrtMemcpyKind {
    ACL_MEMCPY_HOST_TO_HOST,
    ACL_MEMCPY_HOST_TO_DEVICE,
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACL_MEMCPY_DEVICE_TO_DEVICE,
    ACL_MEMCPY_DEFAULT, /* direction inferred from the two addresses */
    ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE,
    ACL_MEMCPY_INNER_DEVICE_TO_DEVICE,
    ACL_MEMCPY_INTER_DEVICE_TO_DEVICE
} aclrtMemcpyKind;

typedef enum aclrtMemAttr {
    ACL_DDR_MEM,
    ACL_HBM_MEM,
    ACL_DDR_MEM_HUGE,
    ACL_DDR_MEM_NORMAL,
    ACL_HBM_MEM_HUGE,
    ACL_HBM_MEM_NORMAL,
    ACL_DDR_MEM_P2P_HUGE,
    ACL_DDR_MEM_P2P_NORMAL,
    ACL_HBM_MEM_P2P_HUGE,
    ACL_HBM_MEM_P2P_NORMAL
} aclrtMemAttr;

typedef enum aclrtEventRecordedStatus {
    ACL_EVENT_RECORDED_STATUS_NOT_READY = 0,
    ACL_EVENT_RECORDED_STATUS_COMPLETE = 1
} aclrtEventRecordedStatus;

/* Result of aclrtStreamQuery. */
typedef enum aclrtStreamStatus {
    ACL_STREAM_STATUS_COMPLETE = 0,  /* every task on the stream has completed */
    ACL_STREAM_STATUS_NOT_READY = 1, /* at least one task has not completed yet */
    ACL_STREAM_STATUS_RESERVED = 0xFFFF
} aclrtStreamStatus;

/* Resource kind of aclrtGetResInCurrentThread (and of the documented aclrtSetDeviceResLimit /
 * aclrtSetStreamResLimit, which pyasc does not use).  CUBE_CORE means the AI Cores on products
 * without separate cube cores, the cube cores (AIC) on Atlas A2 / A3. */
typedef enum {
    ACL_RT_DEV_RES_CUBE_CORE = 0,
    ACL_RT_DEV_RES_VECTOR_CORE = 1
} aclrtDevResLimitType;

/* Attribute selector of aclrtGetDeviceInfo. */
typedef enum {
    ACL_DEV_ATTR_AICPU_CORE_NUM = 1,
    ACL_DEV_ATTR_AICORE_CORE_NUM = 101,
    ACL_DEV_ATTR_CUBE_CORE_NUM = 102,
    ACL_DEV_ATTR_VECTOR_CORE_NUM = 201,
    ACL_DEV_ATTR_WARP_SIZE = 202,
    ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE = 203,
    ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE = 204,
    ACL_DEV_ATTR_LOCAL_MEM_PER_VECTOR_CORE = 204, /* name used by some doc versions */
    ACL_DEV_ATTR_MAX_GRID_DIM_X = 205,
    ACL_DEV_ATTR_MAX_GRID_DIM_Y = 206,
    ACL_DEV_ATTR_MAX_GRID_DIM_Z = 207,
    ACL_DEV_ATTR_MAX_BLOCK_PER_GRID = 208,
    ACL_DEV_ATTR_MAX_THREADS_PER_BLOCK = 209,
    ACL_DEV_ATTR_MAX_BLOCK_DIM_X = 210,
    ACL_DEV_ATTR_MAX_BLOCK_DIM_Y = 211,
    ACL_DEV_ATTR_MAX_BLOCK_DIM_Z = 212,
    ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE = 301,
    ACL_DEV_ATTR_L2_CACHE_SIZE = 302,
    ACL_DEV_ATTR_SMP_ID = 401,
    ACL_DEV_ATTR_PHY_CHIP_ID = 402,
    ACL_DEV_ATTR_SUPER_POD_DEVICE_ID = 403,
    ACL_DEV_ATTR_SUPER_POD_SERVER_ID = 404,
    ACL_DEV_ATTR_SUPER_POD_ID = 405,
    ACL_DEV_ATTR_CUST_OP_PRIVILEGE = 406,
    ACL_DEV_ATTR_MAINBOARD_ID = 407,
    ACL_DEV_ATTR_HD_CONNECT_TYPE = 408,
    ACL_DEV_ATTR_IS_VIRTUAL = 501,
    ACL_DEV_ATTR_NPU_ARCH = 601
} aclrtDevAttr;

/* Options of aclrtBinaryLoadFromFile. */
typedef enum aclrtBinaryLoadOptionType {
    ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD = 1,
    ACL_RT_BINARY_LOAD_OPT_MAGIC = 2,
    ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE = 3
} aclrtBinaryLoadOptionType;

typedef union aclrtBinaryLoadOptionValue {
    uint32_t isLazyLoad;
    uint32_t magic;
    int32_t cpuKernelMode;
    uint32_t rsv[4];
} aclrtBinaryLoadOptionValue;

typedef struct {
    aclrtBinaryLoadOptionType type;
    aclrtBinaryLoadOptionValue value;
} aclrtBinaryLoadOption;

typedef struct aclrtBinaryLoadOptions {
    aclrtBinaryLoadOption *options;
    size_t numOpt;
} aclrtBinaryLoadOptions;

/* Launch configuration of aclrtLaunchKernelWithHostArgs.  The attribute record
 * is only passed by pointer here, so it is declared incomplete. */
typedef struct aclrtLaunchKernelAttr aclrtLaunchKernelAttr;
typedef struct aclrtLaunchKernelCfg {
    aclrtLaunchKernelAttr *attrs;
    size_t numAttrs;
} aclrtLaunchKernelCfg;

typedef struct {
    uint32_t addrOffset;
    uint32_t dataOffset;
} aclrtPlaceHolderInfo;

/* ------------------------------------------------------------------------- */
/* Functions                                                                 */
/* ------------------------------------------------------------------------- */
/* Initialization and errors */
PYASC_ACL_API aclError aclInit(const char *configPath);
PYASC_ACL_API aclError aclFinalize(void);
PYASC_ACL_API const char *aclGetRecentErrMsg(void);

/* Devices */
PYASC_ACL_API aclError aclrtSetDevice(int32_t deviceId);
PYASC_ACL_API aclError aclrtResetDevice(int32_t deviceId);
PYASC_ACL_API aclError aclrtGetDevice(int32_t *deviceId);
PYASC_ACL_API aclError aclrtGetDeviceCount(uint32_t *count);
PYASC_ACL_API aclError aclrtSynchronizeDevice(void);
PYASC_ACL_API const char *aclrtGetSocName(void);
PYASC_ACL_API aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t *value);
/* The cores of one kind the calling thread may use on its current device: the stream limit, else
 * the process limit, else the hardware's count (documented order; the simulator sets no limits, so
 * it answers the simulated SoC's count).  Optional for the binding: newer than older CANN. */
PYASC_ACL_API aclError aclrtGetResInCurrentThread(aclrtDevResLimitType type, uint32_t *value);

/* Memory */
PYASC_ACL_API aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy);
PYASC_ACL_API aclError aclrtFree(void *devPtr);
PYASC_ACL_API aclError aclrtMallocHost(void **hostPtr, size_t size);
PYASC_ACL_API aclError aclrtFreeHost(void *hostPtr);
PYASC_ACL_API aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count,
                                   aclrtMemcpyKind kind);
PYASC_ACL_API aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count,
                                        aclrtMemcpyKind kind, aclrtStream stream);
PYASC_ACL_API aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count);
PYASC_ACL_API aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count,
                                        aclrtStream stream);
PYASC_ACL_API aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free, size_t *total);

/* Streams */
PYASC_ACL_API aclError aclrtCreateStream(aclrtStream *stream);
PYASC_ACL_API aclError aclrtDestroyStream(aclrtStream stream);
PYASC_ACL_API aclError aclrtSynchronizeStream(aclrtStream stream);
PYASC_ACL_API aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event);
/* Non-blocking.  Optional for the binding: older libascendcl.so builds may not export it. */
PYASC_ACL_API aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus *status);

/* Events */
PYASC_ACL_API aclError aclrtCreateEvent(aclrtEvent *event);
PYASC_ACL_API aclError aclrtDestroyEvent(aclrtEvent event);
PYASC_ACL_API aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream);
PYASC_ACL_API aclError aclrtSynchronizeEvent(aclrtEvent event);
PYASC_ACL_API aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status);
PYASC_ACL_API aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent);

/* Kernel binaries and launch */
PYASC_ACL_API aclError aclrtBinaryLoadFromFile(const char *binPath, aclrtBinaryLoadOptions *options,
                                               aclrtBinHandle *binHandle);
PYASC_ACL_API aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char *kernelName,
                                              aclrtFuncHandle *funcHandle);
/* argsData must point into device memory (documented); numBlocks was named blockDim in
 * older documentation versions. */
PYASC_ACL_API aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                         const void *argsData, size_t argsSize, aclrtStream stream);
/* hostArgs is host memory, captured when the call returns. */
PYASC_ACL_API aclError aclrtLaunchKernelWithHostArgs(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                                     aclrtStream stream, aclrtLaunchKernelCfg *cfg,
                                                     void *hostArgs, size_t argsSize,
                                                     aclrtPlaceHolderInfo *placeHolderArray,
                                                     size_t placeHolderNum);
PYASC_ACL_API aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle);
/* AI CPU kernels: a binary loaded from host memory (with ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE 2)
 * and the registration of one of its AI CPU functions (funcName: its entry function, kernelName:
 * the op type).  Optional for the binding. */
PYASC_ACL_API aclError aclrtBinaryLoadFromData(const void *data, size_t length,
                                               const aclrtBinaryLoadOptions *options, aclrtBinHandle *binHandle);
PYASC_ACL_API aclError aclrtRegisterCpuFunc(const aclrtBinHandle handle, const char *funcName,
                                            const char *kernelName, aclrtFuncHandle *funcHandle);
/* Operator execution timeout in seconds for launches that start afterwards (0: no timeout, in
 * the simulator).  A kernel running longer fails with ACL_ERROR_RT_AICORE_TIMEOUT.  Optional for
 * the binding. */
PYASC_ACL_API aclError aclrtSetOpExecuteTimeOut(uint32_t timeout);

/* pyasc extension, exported by the simulator only (never by libascendcl; optional for the
 * binding, which calls it when present): the caching allocator tells the runtime each tensor
 * block it hands out (event PYASC_RT_BLOCK_ALLOC: [devPtr, devPtr + size) with size the extent
 * aclrtMalloc documents, ALIGN_UP(n, 32) + 32; PYASC_RT_BLOCK_ALLOC_UNINIT: the same, and no
 * queued work can touch the bytes, so they count as never written) and takes back
 * (PYASC_RT_BLOCK_FREE, size ignored).  The simulator bounds kernel accesses by these blocks. */
#define PYASC_RT_BLOCK_FREE 0
#define PYASC_RT_BLOCK_ALLOC 1
#define PYASC_RT_BLOCK_ALLOC_UNINIT 2
PYASC_ACL_API aclError pyascRtTrackBlock(void *devPtr, size_t size, int32_t event);

/* Timed waits: timeout in milliseconds, -1 waits forever.  On timeout they return
 * ACL_ERROR_RT_STREAM_SYNC_TIMEOUT (stream, device) or ACL_ERROR_RT_EVENT_SYNC_TIMEOUT (event).
 * Optional for the binding (it then waits without a timeout and cannot be interrupted). */
PYASC_ACL_API aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout);
PYASC_ACL_API aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout);
PYASC_ACL_API aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout);

/* pyasc extension of the simulator library (not ACL; optional, absent from libascendcl): takes
 * the oldest pending sanitizer warning of a finished kernel launch into buf (NUL-terminated,
 * truncated to size); returns 1 when it took one, 0 when none is pending. */
PYASC_ACL_API int pyascSimTakeWarning(char *buf, size_t size);

/* ------------------------------------------------------------------------- */
/* Function table for dlsym                                                  */
/* ------------------------------------------------------------------------- */
/* X(return_type, name, (parameters)) for every function above, in order.  A loader may treat
 * some entries as optional (see PYASC_ACL_OPTIONAL_FUNCTION_LIST): the rest are required.
 * Usage:  #define DECL(r, n, p) typedef r (*PFN_##n) p;  PYASC_ACL_FUNCTION_LIST(DECL) */
#define PYASC_ACL_FUNCTION_LIST(X)                                                                   \
    X(aclError, aclInit, (const char *configPath))                                                   \
    X(aclError, aclFinalize, (void))                                                                 \
    X(const char *, aclGetRecentErrMsg, (void))                                                      \
    X(aclError, aclrtSetDevice, (int32_t deviceId))                                                  \
    X(aclError, aclrtResetDevice, (int32_t deviceId))                                                \
    X(aclError, aclrtGetDevice, (int32_t * deviceId))                                                \
    X(aclError, aclrtGetDeviceCount, (uint32_t * count))                                             \
    X(aclError, aclrtSynchronizeDevice, (void))                                                      \
    X(const char *, aclrtGetSocName, (void))                                                         \
    X(aclError, aclrtGetDeviceInfo, (uint32_t deviceId, aclrtDevAttr attr, int64_t * value))         \
    X(aclError, aclrtGetResInCurrentThread, (aclrtDevResLimitType type, uint32_t * value))          \
    X(aclError, aclrtMalloc, (void **devPtr, size_t size, aclrtMemMallocPolicy policy))              \
    X(aclError, aclrtFree, (void *devPtr))                                                           \
    X(aclError, aclrtMallocHost, (void **hostPtr, size_t size))                                      \
    X(aclError, aclrtFreeHost, (void *hostPtr))                                                      \
    X(aclError, aclrtMemcpy,                                                                         \
      (void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind))              \
    X(aclError, aclrtMemcpyAsync,                                                                    \
      (void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind,               \
       aclrtStream stream))                                                                          \
    X(aclError, aclrtMemset, (void *devPtr, size_t maxCount, int32_t value, size_t count))           \
    X(aclError, aclrtMemsetAsync,                                                                    \
      (void *devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream))              \
    X(aclError, aclrtGetMemInfo, (aclrtMemAttr attr, size_t * free, size_t * total))                 \
    X(aclError, aclrtCreateStream, (aclrtStream * stream))                                           \
    X(aclError, aclrtDestroyStream, (aclrtStream stream))                                            \
    X(aclError, aclrtSynchronizeStream, (aclrtStream stream))                                        \
    X(aclError, aclrtStreamWaitEvent, (aclrtStream stream, aclrtEvent event))                        \
    X(aclError, aclrtStreamQuery, (aclrtStream stream, aclrtStreamStatus * status))                  \
    X(aclError, aclrtCreateEvent, (aclrtEvent * event))                                              \
    X(aclError, aclrtDestroyEvent, (aclrtEvent event))                                               \
    X(aclError, aclrtRecordEvent, (aclrtEvent event, aclrtStream stream))                            \
    X(aclError, aclrtSynchronizeEvent, (aclrtEvent event))                                           \
    X(aclError, aclrtQueryEventStatus, (aclrtEvent event, aclrtEventRecordedStatus * status))        \
    X(aclError, aclrtEventElapsedTime, (float *ms, aclrtEvent startEvent, aclrtEvent endEvent))      \
    X(aclError, aclrtBinaryLoadFromFile,                                                             \
      (const char *binPath, aclrtBinaryLoadOptions *options, aclrtBinHandle *binHandle))             \
    X(aclError, aclrtBinaryGetFunction,                                                              \
      (const aclrtBinHandle binHandle, const char *kernelName, aclrtFuncHandle *funcHandle))         \
    X(aclError, aclrtLaunchKernel,                                                                   \
      (aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *argsData, size_t argsSize,        \
       aclrtStream stream))                                                                          \
    X(aclError, aclrtLaunchKernelWithHostArgs,                                                       \
      (aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream,                           \
       aclrtLaunchKernelCfg *cfg, void *hostArgs, size_t argsSize,                                   \
       aclrtPlaceHolderInfo *placeHolderArray, size_t placeHolderNum))                               \
    X(aclError, aclrtBinaryUnLoad, (aclrtBinHandle binHandle))                                      \
    X(aclError, aclrtBinaryLoadFromData,                                                             \
      (const void *data, size_t length, const aclrtBinaryLoadOptions *options,                       \
       aclrtBinHandle *binHandle))                                                                   \
    X(aclError, aclrtRegisterCpuFunc,                                                                \
      (const aclrtBinHandle handle, const char *funcName, const char *kernelName,                    \
       aclrtFuncHandle *funcHandle))                                                                 \
    X(aclError, aclrtSynchronizeStreamWithTimeout, (aclrtStream stream, int32_t timeout))            \
    X(aclError, aclrtSynchronizeEventWithTimeout, (aclrtEvent event, int32_t timeout))               \
    X(aclError, aclrtSynchronizeDeviceWithTimeout, (int32_t timeout))                                \
    X(aclError, aclrtSetOpExecuteTimeOut, (uint32_t timeout))                                        \
    X(int, pyascSimTakeWarning, (char *buf, size_t size))                                        \
    X(aclError, pyascRtTrackBlock, (void *devPtr, size_t size, int32_t event))

/* X(name) for the entries of PYASC_ACL_FUNCTION_LIST that an ACL library may lack (newer than
 * the oldest supported CANN, or not on every product); callers check them for NULL. */
#define PYASC_ACL_OPTIONAL_FUNCTION_LIST(X) \
    X(aclrtStreamQuery)                     \
    X(aclrtGetResInCurrentThread)           \
    X(aclrtLaunchKernelWithHostArgs)        \
    X(aclrtSynchronizeStreamWithTimeout)    \
    X(aclrtSynchronizeEventWithTimeout)     \
    X(aclrtSynchronizeDeviceWithTimeout)    \
    X(aclrtSetOpExecuteTimeOut)             \
    X(aclrtBinaryLoadFromData)              \
    X(aclrtRegisterCpuFunc)                 \
    X(pyascSimTakeWarning)                  \
    X(pyascRtTrackBlock)

/* PFN_<name>: pointer-to-function type of each ACL function, for dlsym. */
#define PYASC_ACL_DECLARE_PFN_(ret, name, params) typedef ret(*PFN_##name) params;
PYASC_ACL_FUNCTION_LIST(PYASC_ACL_DECLARE_PFN_)
#undef PYASC_ACL_DECLARE_PFN_

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PYASC_ACL_ABI_H_ */
