// The Simt warp reductions of the C++ SIMT interface (AscendC::Simt::WarpReduceAddSync / MaxSync /
// MinSync), in the style of public Ascend 950 pooling kernels (RecSDK's recops split_embedding SIMT
// path): one warp per bag of rows, each lane accumulates its strided rows of an 8-float chunk, the
// warp sums every column with WarpReduceAddSync and lane 0 stores the pooled row.  A second VF
// reports add / max / min of one value per lane for int32, uint32, float and half.  Build with
// soc="Ascend950PR_9599".
#include "kernel_operator.h"

using namespace AscendC;

#if __CCE_AICORE__ == 310
constexpr int32_t WR_WARP = 32;
constexpr int32_t WR_THREADS = 64;
constexpr int32_t WR_DIM = 8;

__simt_vf__ __aicore__ LAUNCH_BOUND(WR_THREADS) inline void BagSumVf(__gm__ float *rows, __gm__ int32_t *offsets,
                                                                      __gm__ float *out, int32_t bags)
{
    const int32_t tid = Simt::GetThreadIdx<0>();
    const int32_t lane = tid % WR_WARP;
    const int32_t warps = Simt::GetThreadNum<0>() / WR_WARP;
    const int32_t firstWarp = Simt::GetBlockIdx() * warps + tid / WR_WARP;
    const int32_t allWarps = Simt::GetBlockNum() * warps;
    for (int32_t bag = firstWarp; bag < bags; bag += allWarps) {
        float local[WR_DIM] = {0};
        for (int32_t r = offsets[bag] + lane; r < offsets[bag + 1]; r += WR_WARP) {
            for (int32_t d = 0; d < WR_DIM; ++d) {
                local[d] += rows[r * WR_DIM + d];
            }
        }
        float sums[WR_DIM];
        for (int32_t d = 0; d < WR_DIM; ++d) {
            sums[d] = Simt::WarpReduceAddSync(local[d]);
        }
        if (lane == 0) {
            for (int32_t d = 0; d < WR_DIM; ++d) {
                out[bag * WR_DIM + d] = sums[d];
            }
        }
    }
}

__simt_vf__ __aicore__ LAUNCH_BOUND(WR_WARP) inline void KindsVf(__gm__ int32_t *xi, __gm__ float *xf,
                                                                  __gm__ int32_t *oi, __gm__ uint32_t *ou,
                                                                  __gm__ float *of, __gm__ half *oh)
{
    const int32_t lane = Simt::GetThreadIdx<0>();
    const int32_t vi = xi[lane];
    const uint32_t vu = static_cast<uint32_t>(vi) & 0xFFFFu;
    const float vf = xf[lane];
    const half vh = static_cast<half>(static_cast<float>(vi % 8));
    const int32_t a = Simt::WarpReduceAddSync(vi);
    const int32_t b = Simt::WarpReduceMaxSync(vi);
    const int32_t c = Simt::WarpReduceMinSync(vi);
    const uint32_t d = Simt::WarpReduceMaxSync(vu);
    const float e = Simt::WarpReduceMaxSync(vf);
    const float f = Simt::WarpReduceMinSync(vf);
    const half g = Simt::WarpReduceAddSync(vh);
    if (lane == 0) {
        oi[0] = a;
        oi[1] = b;
        oi[2] = c;
        ou[0] = d;
        of[0] = e;
        of[1] = f;
        oh[0] = g;
    }
}

extern "C" __global__ __aicore__ void wr_bag_sum(GM_ADDR rows, GM_ADDR offsets, GM_ADDR out, int32_t bags)
{
    asc_vf_call<BagSumVf>(dim3{WR_THREADS}, (__gm__ float *)rows, (__gm__ int32_t *)offsets, (__gm__ float *)out,
                          bags);
}

extern "C" __global__ __aicore__ void wr_kinds(GM_ADDR xi, GM_ADDR xf, GM_ADDR oi, GM_ADDR ou, GM_ADDR of,
                                               GM_ADDR oh)
{
    asc_vf_call<KindsVf>(dim3{WR_WARP}, (__gm__ int32_t *)xi, (__gm__ float *)xf, (__gm__ int32_t *)oi,
                         (__gm__ uint32_t *)ou, (__gm__ float *)of, (__gm__ half *)oh);
}
#endif
