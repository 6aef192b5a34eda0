#include "kernel_operator.h"
// Warp-synchronous SIMT idioms of public Atlas 350 / Ascend 950 kernels, in their style: code that relies on the
// documented lockstep warp ("a warp is a set of threads that execute the same instruction", 32 threads) with no
// barrier or warp function between the steps, and the warp functions (votes, reductions, shuffles).
//   simt_warp_bucket_count: one warp per row of a CSR list; lanes 0..nb-1 zero the warp's UB counters, every lane
//     counts its row items into them with asc_atomic_add, lanes 0..nb-1 write the counts out (rows shorter than
//     the warp leave lanes with nothing to count, which run straight on to the write-out).
//   simt_warp_tree_sum: each warp sums its 32 values in UB by halving (ub[l] += ub[l + s], s = 16 ... 1, lanes
//     l < s; through a volatile pointer, as warp-synchronous code must), then lane 0 writes the sum; beside it the warp functions give the same sum, the max, the min,
//     a ballot, all / any votes, an xor-butterfly sum of shuffles, and in divergent branches a reduction over lanes
//     0..7 beside the active mask of lanes 8..31.
#include "simt_api/device_atomic_functions.h"
#include "simt_api/device_warp_functions.h"

using namespace AscendC;

#if __CCE_AICORE__ == 310
constexpr int32_t WARP = 32;
constexpr int32_t COUNT_THREADS = 128;
constexpr int32_t SUM_THREADS = 64;

__simt_vf__ __aicore__ LAUNCH_BOUND(COUNT_THREADS) inline void WarpBucketCountVf(
    __gm__ int32_t *offsets, __gm__ int32_t *items, __gm__ int32_t *counts, __ubuf__ int32_t *ub, int32_t rows,
    int32_t nb, int32_t rowBegin, int32_t rowEnd)
{
    const int32_t tid = Simt::GetThreadIdx<0>();
    const int32_t warps = Simt::GetThreadNum<0>() / WARP;
    const int32_t warpId = tid / WARP;
    const int32_t lane = tid % WARP;
    __ubuf__ int32_t *cnt = ub + warpId * nb;
    for (int32_t row = rowBegin + warpId; row < rowEnd && row < rows; row += warps) {
        for (int32_t b = lane; b < nb; b += WARP) {
            cnt[b] = 0;
        }
        for (int32_t i = offsets[row] + lane; i < offsets[row + 1]; i += WARP) {
            asc_atomic_add(&cnt[static_cast<uint32_t>(items[i]) % static_cast<uint32_t>(nb)], 1);
        }
        for (int32_t b = lane; b < nb; b += WARP) {
            counts[row * nb + b] = cnt[b];
        }
    }
}

__simt_vf__ __aicore__ LAUNCH_BOUND(SUM_THREADS) inline void WarpTreeSumVf(__gm__ int32_t *x, __gm__ int32_t *out,
                                                                          __ubuf__ int32_t *ub, int32_t base)
{
    const int32_t tid = Simt::GetThreadIdx<0>();
    const int32_t lane = tid % WARP;
    const int32_t warpId = tid / WARP;
    const int32_t v = x[base + tid];
    volatile __ubuf__ int32_t *part = ub + warpId * WARP;  // warp-synchronous: every step reads memory
    part[lane] = v;
    for (int32_t s = WARP / 2; s > 0; s >>= 1) {
        if (lane < s) {
            part[lane] += part[lane + s];
        }
    }
    __gm__ int32_t *o = out + (base + tid) * 8;
    if (lane == 0) {
        o[0] = part[0];
    } else {
        o[0] = 0;
    }
    o[1] = asc_reduce_add(v);
    o[2] = asc_reduce_max(v);
    o[3] = asc_reduce_min(v);
    o[4] = static_cast<int32_t>(asc_ballot(v > 0));
    o[5] = asc_all(v > -100) * 2 + asc_any(v > 90);
    int32_t b = v;
    for (int32_t m = 1; m < WARP; m <<= 1) {
        b += asc_shfl_xor(b, m);
    }
    o[6] = b;
    if (lane < 8) {  // divergent: each branch's lanes are the active lanes of its warp function
        o[7] = asc_reduce_add(v);
    } else {
        o[7] = static_cast<int32_t>(asc_activemask());
    }
}

extern "C" __global__ __aicore__ void simt_warp_bucket_count(GM_ADDR offsets, GM_ADDR items, GM_ADDR counts,
                                                             int32_t rows, int32_t nb)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, COUNT_THREADS / WARP * nb * sizeof(int32_t));
    LocalTensor<int32_t> ub = buf.Get<int32_t>();
    const int32_t per = (rows + GetBlockNum() - 1) / GetBlockNum();
    const int32_t begin = per * GetBlockIdx();
    Simt::VF_CALL<WarpBucketCountVf>(Simt::Dim3{COUNT_THREADS, 1, 1}, (__gm__ int32_t *)offsets,
                                     (__gm__ int32_t *)items, (__gm__ int32_t *)counts,
                                     reinterpret_cast<__ubuf__ int32_t *>(ub.GetPhyAddr()), rows, nb, begin,
                                     begin + per);
}

extern "C" __global__ __aicore__ void simt_warp_tree_sum(GM_ADDR x, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, SUM_THREADS * sizeof(int32_t));
    LocalTensor<int32_t> ub = buf.Get<int32_t>();
    asc_vf_call<WarpTreeSumVf>(dim3{SUM_THREADS}, (__gm__ int32_t *)x, (__gm__ int32_t *)out,
                               reinterpret_cast<__ubuf__ int32_t *>(ub.GetPhyAddr()),
                               static_cast<int32_t>(GetBlockIdx()) * SUM_THREADS);
}
#endif
