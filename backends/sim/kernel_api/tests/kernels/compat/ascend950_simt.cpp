// SIMT on the Atlas 350 / Ascend 950 (build with soc="Ascend950PR_9599"), in the style of public 950
// kernels: a __simt_vf__ function started with AscendC::Simt::VF_CALL over a grid-stride loop (an
// inverse permutation: out[perm[i]] = i), and the asc_vf_call / threadIdx form of the reference's example.
#include "kernel_operator.h"
#include "simt_api/common_functions.h"

using namespace AscendC;

constexpr uint32_t THREADS = 256;

template <typename T>
__simt_vf__ __aicore__ LAUNCH_BOUND(THREADS) inline void InvertPermuteVf(__gm__ T *perm, __gm__ T *out, int64_t n)
{
    // locals named like the SIMT built-ins, as public kernels write them
    const int64_t threadIdx = Simt::GetThreadIdx<0>();
    const int64_t blockIdx = Simt::GetBlockIdx();
    const int64_t stride = static_cast<int64_t>(Simt::GetThreadNum<0>()) * Simt::GetBlockNum();
    for (int64_t i = threadIdx + blockIdx * Simt::GetThreadNum<0>(); i < n; i += stride) {
        out[perm[i]] = static_cast<T>(i);
    }
}

extern "C" __global__ __aicore__ void a950_invert_permute(GM_ADDR perm, GM_ADDR out, int64_t n)
{
    AscendC::Simt::VF_CALL<InvertPermuteVf<int64_t>>(AscendC::Simt::Dim3{THREADS, 1, 1}, (__gm__ int64_t *)perm,
                                                     (__gm__ int64_t *)out, n);
}

// 2-D threads: out[y * 16 + x] = x * 100 + y + the block's offset, with threadIdx / blockDim.
__simt_vf__ __launch_bounds__(128) inline void Grid2d(__gm__ float *out)
{
    const uint32_t i = threadIdx.y * blockDim.x + threadIdx.x;
    out[blockIdx.x * blockDim.x * blockDim.y + i] = static_cast<float>(threadIdx.x * 100 + threadIdx.y + blockIdx.x * 1000);
}

extern "C" __global__ __aicore__ void a950_grid2d(GM_ADDR out)
{
    asc_vf_call<Grid2d>(dim3{16, 8, 1}, (__gm__ float *)out);
}

// More threads than a VF call may have (the reference's limit is 2048).
extern "C" __global__ __aicore__ void a950_too_many_threads(GM_ADDR out)
{
    asc_vf_call<Grid2d>(dim3{64, 64, 1}, (__gm__ float *)out);
}
