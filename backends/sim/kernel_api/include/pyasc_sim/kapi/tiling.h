// Ascend C on the CPU -- the op-project kernel side: tiling macros, tiling keys, dtype macros, workspace.
//
// GET_TILING_DATA(var, tiling) declares `var` as the op's tiling struct (from the host tiling header
// pyasc_sim.compile(tiling_header=..., op_type=...) includes: the struct REGISTER_TILING_DATA_CLASS
// associates with the op, or the one REGISTER_TILING_DEFAULT names in the kernel) and copies it from
// the tiling argument in global memory.  TILING_KEY_IS(k) compares with the tiling key the binary
// was built for (compile(tiling_key=k), default 0) or the one ICPU_SET_TILING_KEY set.
// Written from the public Ascend C documentation (names and documented behaviour only).
#ifndef PYASC_SIM_KAPI_TILING_H_
#define PYASC_SIM_KAPI_TILING_H_

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "pyasc_sim/kapi/tensor.h"

namespace pyasc_sim {
namespace kapi {

struct NoTilingStruct {};  // no tiling header was given and no REGISTER_TILING_DEFAULT
template <typename T>
struct is_no_tiling : std::is_same<T, NoTilingStruct> {};

// REGISTER_TILING_DEFAULT wins over the op type's registered struct.
template <typename Default, typename Registered>
using pick_tiling_t = std::conditional_t<is_no_tiling<Default>::value, Registered, Default>;

template <typename T>
inline void load_tiling(T &dst, const void *tiling, SrcLoc loc = SrcLoc()) {
    static_assert(!is_no_tiling<T>::value,
                  "GET_TILING_DATA: no tiling struct for this kernel: compile it with the op's host tiling header "
                  "(pyasc_sim.compile(..., tiling_header='op_host/<op>_tiling.h', op_type='<OpType>')) or name "
                  "the struct with REGISTER_TILING_DEFAULT(T) / GET_TILING_DATA_WITH_STRUCT(T, var, tiling)");
    static_assert(std::is_trivially_copyable<T>::value, "a tiling struct must be trivially copyable");
    if (tiling == nullptr) {
        fail("tiling-null", loc, "GET_TILING_DATA: the tiling argument is a null address; pass the %zu-byte tiling "
             "struct in device memory", sizeof(T));
    }
    check_gm_alloc(tiling, sizeof(T), "GET_TILING_DATA reads", loc);
    std::memcpy(static_cast<void *>(&dst), tiling, sizeof(T));
}

// The tiling key: compile(tiling_key=k) bakes k in; ICPU_SET_TILING_KEY (CPU-debug programs) sets it.
#ifndef PYASC_SIM_TILING_KEY
#define PYASC_SIM_TILING_KEY 0
#endif
inline uint64_t &tiling_key_slot() {
    static uint64_t key = static_cast<uint64_t>(PYASC_SIM_TILING_KEY);
    return key;
}

// The system workspace: the first kSysWorkspaceBytes of the workspace argument belong to the
// high-level APIs (16 MiB on Atlas A2, the size GetLibApiWorkSpaceSize() reports); the user part
// follows.  Hosts allocate workspace = kSysWorkspaceBytes + user bytes.
constexpr uint64_t kSysWorkspaceBytes = 16ull * 1024 * 1024;
inline uint8_t *&sys_workspace_slot() {
    thread_local uint8_t *p = nullptr;
    return p;
}

}  // namespace kapi
}  // namespace pyasc_sim

#ifndef __PYASC_SIM_TILING_TYPE
#define __PYASC_SIM_TILING_TYPE ::pyasc_sim::kapi::NoTilingStruct
#endif
// Shadowed by REGISTER_TILING_DEFAULT(T) in the kernel body.
using __pyasc_sim_tiling_default_t = ::pyasc_sim::kapi::NoTilingStruct;

#define REGISTER_TILING_DEFAULT(tiling_struct) using __pyasc_sim_tiling_default_t = tiling_struct
#define REGISTER_TILING_FOR_TILINGKEY(key_expr, tiling_struct)
// Both are complete statements, as the NPU build accepts them without a trailing semicolon (RecSDK's
// recops split_embedding c310 kernel writes `GET_TILING_DATA(tilingData, args.tiling)` and goes on);
// the usual `GET_TILING_DATA(...);` then adds an empty statement.
#define GET_TILING_DATA(tiling_data, tiling_arg)                                                      \
    ::pyasc_sim::kapi::pick_tiling_t<__pyasc_sim_tiling_default_t, __PYASC_SIM_TILING_TYPE> tiling_data; \
    ::pyasc_sim::kapi::load_tiling(tiling_data, (tiling_arg));
#define GET_TILING_DATA_WITH_STRUCT(tiling_struct, tiling_data, tiling_arg) \
    tiling_struct tiling_data;                                              \
    ::pyasc_sim::kapi::load_tiling(tiling_data, (tiling_arg));
#define GET_TILING_DATA_PTR_WITH_STRUCT(tiling_struct, ptr, tiling_arg) \
    const tiling_struct *ptr = reinterpret_cast<const tiling_struct *>(tiling_arg)
#define GET_TILING_DATA_MEMBER(tiling_struct, member, var, tiling_arg)                                   \
    decltype(tiling_struct::member) var;                                                                 \
    std::memcpy(&var, reinterpret_cast<const uint8_t *>(tiling_arg) + offsetof(tiling_struct, member), \
                sizeof(var))

// compile(tiling_key=k) also defines TILING_KEY_VAR=k on the command line, as CANN's op build does
// (one binary per key), so `#if TILING_KEY_VAR == k` selects code in the preprocessor; without a
// key (CPU-debug programs: ICPU_SET_TILING_KEY) it is the run-time key.
#ifndef TILING_KEY_VAR
#define TILING_KEY_VAR (::pyasc_sim::kapi::tiling_key_slot())
#endif
// compile(dtypes=...) defines ORIG_DTYPE_X=DT_FLOAT16 ... and PYASC_SIM_OP_DTYPE_MACROS: the DT_* /
// FORMAT_* numbers `#if ORIG_DTYPE_X == DT_FLOAT16` compares.
#ifdef PYASC_SIM_OP_DTYPE_MACROS
#include "pyasc_sim/kapi/op_dtypes.h"
#endif
#define TILING_KEY_IS(k) (::pyasc_sim::kapi::tiling_key_slot() == static_cast<uint64_t>(k))

namespace AscendC {

inline __gm__ uint8_t *GetUserWorkspace(GM_ADDR workspace) {
    return workspace == nullptr ? nullptr : workspace + pyasc_sim::kapi::kSysWorkspaceBytes;
}
inline void SetSysWorkspace(GM_ADDR workspace) { pyasc_sim::kapi::sys_workspace_slot() = workspace; }
#if !PYASC_SIM_DOCUMENTED_ONLY
inline void SetSysWorkspaceForce(GM_ADDR workspace) { SetSysWorkspace(workspace); }
#endif
inline __gm__ uint8_t *GetSysWorkSpacePtr() { return pyasc_sim::kapi::sys_workspace_slot(); }

// Fills `size` elements of gm with `value` (documented use: zeroing a workspace before atomics).
template <typename T>
inline void InitGlobalMemory(GlobalTensor<T> &gm, const uint64_t size, const T value,
                             pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    if (size == 0) return;
    __gm__ T *p = gm.GetPhyAddr();
    if (p == nullptr) {
        pyasc_sim::kapi::fail("gm-out-of-bounds", loc, "InitGlobalMemory on a GlobalTensor without SetGlobalBuffer");
    }
    if (gm.GetSize() != 0 && size > gm.GetSize()) {
        pyasc_sim::kapi::fail("gm-out-of-bounds", loc,
                              "InitGlobalMemory writes %llu elements into a GlobalTensor of %llu elements",
                              static_cast<unsigned long long>(size), static_cast<unsigned long long>(gm.GetSize()));
    }
    pyasc_sim::kapi::check_gm_alloc(p, size * sizeof(T), "InitGlobalMemory writes", loc);
    for (uint64_t i = 0; i < size; ++i) p[i] = value;
    const uint64_t a = reinterpret_cast<uintptr_t>(p);
    pyasc_sim::kapi::record_write(a, a + size * sizeof(T), loc);
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeMTE3, pyasc_sim::kapi::dma_cycles(size * sizeof(T), 1));
}

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_TILING_H_
