// Our own kernels for round 15 (study15c) of the public-kernel study (kernel_api/COMPAT.md), in the style
// of the older operator code studied (PaddlePaddle custom-device kernels, early CANN samples): the CCE
// general data-move intrinsics copy_gm_to_ubuf / copy_ubuf_to_gm (burst counts, 32-byte block lengths and
// gaps; the byte mode of copy_ubuf_to_gm) and get_imm(0) as the raw Unified Buffer address a template
// helper reads the tiling struct into.
#include "kernel_operator.h"

namespace study15c {

struct ScaleTiling {
    uint32_t n;      // floats to scale (a multiple of 8)
    float scale;
    float bias;
    uint32_t pad;
};

inline __aicore__ size_t div_ceil(size_t m, size_t n) { return (m + n - 1) / n; }

// The tiling struct read into UB offset 0 with the CCE intrinsics (as PaddlePaddle's __get_tiling_ubuf).
template <typename TilingDataT>
inline __aicore__ __ubuf__ TilingDataT *get_tiling_ubuf(GM_ADDR tiling)
{
    __ubuf__ TilingDataT *t = reinterpret_cast<__ubuf__ TilingDataT *>(get_imm(0));
    copy_gm_to_ubuf(reinterpret_cast<__ubuf__ uint8_t *>(t), tiling, 0, 1, div_ceil(sizeof(TilingDataT), 32), 0, 0);
    pipe_barrier(PIPE_ALL);
    return t;
}

}  // namespace study15c

// y = x * scale + bias, n and the two scalars read from the tiling struct through UB offset 0.
extern "C" __global__ __aicore__ void tiling_via_ubuf(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    __ubuf__ study15c::ScaleTiling *t = study15c::get_tiling_ubuf<study15c::ScaleTiling>(tiling);
    const uint32_t n = t->n;
    const float scale = t->scale;
    const float bias = t->bias;
    AscendC::TPipe pipe;  // its buffers start at UB offset 0 too: the fields were read first
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, n * sizeof(float));
    AscendC::LocalTensor<float> v = buf.Get<float>();
    AscendC::GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer((__gm__ float *)x, n);
    gy.SetGlobalBuffer((__gm__ float *)y, n);
    AscendC::DataCopy(v, gx, n);
    pipe_barrier(PIPE_ALL);
    AscendC::Muls(v, v, scale, n);
    AscendC::Adds(v, v, bias, n);
    pipe_barrier(PIPE_ALL);
    AscendC::DataCopy(gy, v, n);
}

// rows of `lenBlocks` 32-byte blocks taken every (lenBlocks + srcGap) blocks of x, doubled, stored every
// (lenBlocks + dstGap) blocks of y: nBurst / lenBurst / gaps of copy_gm_to_ubuf and copy_ubuf_to_gm.
extern "C" __global__ __aicore__ void strided_rows_double(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t lenBlocks,
                                                          uint32_t srcGap, uint32_t dstGap)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    const uint32_t n = rows * lenBlocks * 8;
    pipe.InitBuffer(buf, n * sizeof(float));
    AscendC::LocalTensor<float> v = buf.Get<float>();
    copy_gm_to_ubuf((__ubuf__ float *)v.GetPhyAddr(), (__gm__ float *)x, 0, rows, lenBlocks, srcGap, 0);
    pipe_barrier(PIPE_ALL);
    AscendC::Muls(v, v, 2.0f, n);
    pipe_barrier(PIPE_ALL);
    copy_ubuf_to_gm((__gm__ float *)y, (__ubuf__ float *)v.GetPhyAddr(), 0, rows, lenBlocks, 0, dstGap);
}

// n floats (any n) stored with the byte mode: lenBurst counts bytes, the rest of y is left alone.
extern "C" __global__ __aicore__ void byte_mode_store(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    const uint32_t blocks = (n * sizeof(float) + 31) / 32;
    pipe.InitBuffer(buf, blocks * 32);
    AscendC::LocalTensor<float> v = buf.Get<float>();
    copy_gm_to_ubuf((__ubuf__ float *)v.GetPhyAddr(), (__gm__ float *)x, 0, 1, blocks, 0, 0);
    pipe_barrier(PIPE_ALL);
    AscendC::Adds(v, v, 1.0f, blocks * 8);
    pipe_barrier(PIPE_ALL);
    copy_ubuf_to_gm((__gm__ float *)y, (__ubuf__ float *)v.GetPhyAddr(), 0, 1, n * sizeof(float), 0, 0, BM_ENABLE);
}

// A UB destination 16 bytes past a 32-byte boundary: the sanitizer reports ub-alignment.
extern "C" __global__ __aicore__ void misaligned_cce_copy(GM_ADDR x)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 128);
    AscendC::LocalTensor<float> v = buf.Get<float>();
    copy_gm_to_ubuf((__ubuf__ float *)v[4].GetPhyAddr(), (__gm__ float *)x, 0, 1, 1, 0, 0);
}

// C++-linkage kernels (no extern "C"), one in a namespace launched from a host launcher in the same file
// with <<<>>> (as PaddlePaddle's custom-device kernels): each gets an entry under its plain name.
namespace study15c::kernels {
__global__ __aicore__ void ns_add_one(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, n * sizeof(float));
    AscendC::LocalTensor<float> v = buf.Get<float>();
    AscendC::GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer((__gm__ float *)x + AscendC::GetBlockIdx() * n, n);
    gy.SetGlobalBuffer((__gm__ float *)y + AscendC::GetBlockIdx() * n, n);
    AscendC::DataCopy(v, gx, n);
    pipe_barrier(PIPE_ALL);
    AscendC::Adds(v, v, 1.0f, n);
    pipe_barrier(PIPE_ALL);
    AscendC::DataCopy(gy, v, n);
}
}  // namespace study15c::kernels

__global__ __aicore__ void cxx_linkage_negate(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, n * sizeof(float));
    AscendC::LocalTensor<float> v = buf.Get<float>();
    AscendC::GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer((__gm__ float *)x, n);
    gy.SetGlobalBuffer((__gm__ float *)y, n);
    AscendC::DataCopy(v, gx, n);
    pipe_barrier(PIPE_ALL);
    AscendC::Muls(v, v, -1.0f, n);
    pipe_barrier(PIPE_ALL);
    AscendC::DataCopy(gy, v, n);
}

extern "C" void ns_add_one_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y, uint32_t n)
{
    study15c::kernels::ns_add_one<<<blockDim, nullptr, stream>>>(x, y, n);
}
