// Ascend C on the CPU -- the SIMT programming model basics of the Atlas 350 / Ascend 950 (kernels built
// with soc="Ascend950PR_9599"): AscendC::Simt::VF_CALL<f>(Simt::Dim3{x, y, z}, args...) and its C form
// asc_vf_call<f>(dim3{...}, args...), __simt_vf__, LAUNCH_BOUND(n) / __launch_bounds__(n),
// Simt::GetThreadIdx<k>() / GetThreadNum<k>() / GetBlockIdx() / GetBlockNum() / GetWarpSize(), and the
// threadIdx / blockIdx / blockDim / gridDim built-ins of the reference's examples.
//
// How the simulator runs a VF call: its x * y * z threads (at most 2048, the reference's limit) run one
// after another, x fastest, on the calling block's host thread, each to completion.  That is the
// documented result for threads that do not wait for each other (each writes what it alone computes,
// or atomics); an intra-VF barrier is not provided (a kernel that calls one does not compile here).
// LAUNCH_BOUND / __launch_bounds__ (a register-allocation hint) change nothing on the CPU.
#ifndef PYASC_SIM_KAPI_SIMT_H_
#define PYASC_SIM_KAPI_SIMT_H_

#include <cstdint>

#include "pyasc_sim/kapi/state.h"

#if __CCE_AICORE__ == 310

#ifndef __simt_vf__
#define __simt_vf__
#endif
#ifndef __simt_callee__
#define __simt_callee__
#endif
#ifndef LAUNCH_BOUND
#define LAUNCH_BOUND(n)
#endif
#ifndef __launch_bounds__
#define __launch_bounds__(...)
#endif

namespace pyasc_sim {
namespace kapi {
namespace simt {
struct Uint3 {
    uint32_t x = 0, y = 0, z = 0;
};
struct ThreadState {
    Uint3 idx;
    Uint3 dim{1, 1, 1};
    bool in_vf = false;
};
inline ThreadState &thread_state() {
    thread_local ThreadState s;
    return s;
}
constexpr uint32_t kMaxThreads = 2048;  // x * y * z of one VF call (asc_vf_call page, threadNums)
constexpr int32_t kWarpSize = 32;       // ACL_DEV_ATTR_WARP_SIZE of the Ascend 950
}  // namespace simt
}  // namespace kapi
}  // namespace pyasc_sim

// threadIdx / blockDim / blockIdx / gridDim: variables of the block's host thread that VF_CALL sets
// for each SIMT thread it runs (blocks are one-dimensional; a kernel's own local of the same name, as
// public kernels declare, shadows them).
inline thread_local ::pyasc_sim::kapi::simt::Uint3 threadIdx;
inline thread_local ::pyasc_sim::kapi::simt::Uint3 blockDim;
inline thread_local ::pyasc_sim::kapi::simt::Uint3 blockIdx;
inline thread_local ::pyasc_sim::kapi::simt::Uint3 gridDim;


namespace AscendC {
namespace Simt {
struct Dim3 {
    uint32_t x = 1u, y = 1u, z = 1u;
    Dim3(uint32_t dx = 1u, uint32_t dy = 1u, uint32_t dz = 1u) : x(dx), y(dy), z(dz) {}
};

// Runs funcPtr(args...) once per thread of `threads`, in order, with the thread's index set.
template <auto funcPtr, typename... Args>
inline void VF_CALL(Dim3 threads, Args &&...args) {
    namespace st = pyasc_sim::kapi::simt;
    const uint64_t total = static_cast<uint64_t>(threads.x) * threads.y * threads.z;
    if (total == 0 || total > st::kMaxThreads) {
        pyasc_sim::kapi::fail("invalid-argument", pyasc_sim::kapi::SrcLoc(),
                              "VF_CALL / asc_vf_call: %u x %u x %u = %llu threads; a SIMT VF call runs 1 to %u "
                              "threads (threadNums, the reference's limit)",
                              threads.x, threads.y, threads.z, static_cast<unsigned long long>(total), st::kMaxThreads);
    }
    st::ThreadState &s = st::thread_state();
    const st::ThreadState saved = s;
    s.dim = {threads.x, threads.y, threads.z};
    s.in_vf = true;
    const pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
    ::blockDim = s.dim;
    ::blockIdx = {b.block_idx, 0u, 0u};
    ::gridDim = {b.block_dim, 1u, 1u};
    for (uint32_t z = 0; z < threads.z; ++z) {
        for (uint32_t y = 0; y < threads.y; ++y) {
            for (uint32_t x = 0; x < threads.x; ++x) {
                s.idx = {x, y, z};
                ::threadIdx = s.idx;
                funcPtr(args...);
            }
        }
    }
    s = saved;
}

template <int32_t dim>
inline int32_t GetThreadIdx() {
    static_assert(dim >= 0 && dim <= 2, "Simt::GetThreadIdx<dim>: dim is 0 (x), 1 (y) or 2 (z)");
    const auto &i = pyasc_sim::kapi::simt::thread_state().idx;
    return static_cast<int32_t>(dim == 0 ? i.x : dim == 1 ? i.y : i.z);
}
template <int32_t dim>
inline int32_t GetThreadNum() {
    static_assert(dim >= 0 && dim <= 2, "Simt::GetThreadNum<dim>: dim is 0 (x), 1 (y) or 2 (z)");
    const auto &d = pyasc_sim::kapi::simt::thread_state().dim;
    return static_cast<int32_t>(dim == 0 ? d.x : dim == 1 ? d.y : d.z);
}
inline int32_t GetBlockIdx() { return static_cast<int32_t>(pyasc_sim::kapi::blk().block_idx); }
inline int32_t GetBlockNum() { return static_cast<int32_t>(pyasc_sim::kapi::blk().block_dim); }
inline int32_t GetWarpSize() { return pyasc_sim::kapi::simt::kWarpSize; }
}  // namespace Simt
}  // namespace AscendC

// The C-style SIMT names of the reference's asc_vf_call examples.
using dim3 = AscendC::Simt::Dim3;
template <auto funcPtr, typename... Args>
inline void asc_vf_call(dim3 threadNums, Args &&...args) {
    AscendC::Simt::VF_CALL<funcPtr>(threadNums, static_cast<Args &&>(args)...);
}
#endif  // __CCE_AICORE__ == 310

#endif  // PYASC_SIM_KAPI_SIMT_H_
