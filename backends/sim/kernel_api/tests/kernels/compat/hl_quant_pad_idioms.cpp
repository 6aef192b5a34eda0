// Compatibility kernels (ours, in the style of public Ascend C): the high-level APIs CumSum, Pad /
// UnPad and the quantization trio AscendQuant / AscendDequant / AscendAntiQuant, included through
// their SDK paths (lib/math, lib/pad, lib/quantization) as public kernels do. Each entry point copies
// its inputs GM -> UB, calls the API once and copies the result back; the Pad / UnPad kernels read
// their PadTiling / UnPadTiling from the tiling buffer field by field. tests/test_sim_compat_hl_quant_pad.py
// runs them against NumPy.
#include "kernel_operator.h"
#include "lib/math/cumsum.h"
#include "lib/pad/pad.h"
#include "lib/quantization/ascend_quant.h"
#include "lib/quantization/ascend_dequant.h"
#include "lib/quantization/ascend_antiquant.h"

using namespace AscendC;

namespace {
constexpr uint32_t kUbBytes = 8192;  // per buffer; every test shape fits

// one VECCALC buffer per operand (TBuf::Get(count) gives each tensor its exact size, which the APIs
// without a count read), loads and stores fenced by PipeBarrier<PIPE_ALL>
class Scratch {
public:
    __aicore__ inline Scratch()
    {
        for (uint32_t i = 0; i < kSlots; ++i) {
            pipe.InitBuffer(bufs[i], kUbBytes);
        }
    }
    template <typename T>
    __aicore__ inline LocalTensor<T> Get(uint32_t slot, uint32_t count)
    {
        return bufs[slot].Get<T>(count);
    }
    static constexpr uint32_t kSlots = 5;
    TPipe pipe;
    TBuf<TPosition::VECCALC> bufs[kSlots];
};

template <typename T>
__aicore__ inline LocalTensor<T> Load(Scratch &s, uint32_t slot, GM_ADDR src, uint32_t count)
{
    GlobalTensor<T> gm;
    gm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(src), count);
    LocalTensor<T> t = s.Get<T>(slot, count);
    DataCopy(t, gm, count);
    return t;
}

template <typename T>
__aicore__ inline void Store(GM_ADDR dst, const LocalTensor<T> &t, uint32_t count)
{
    GlobalTensor<T> gm;
    gm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(dst), count);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gm, t, count);
}

template <typename TilingT>
__aicore__ inline void CopyTiling(TilingT *dst, GM_ADDR tiling)
{
    auto src = reinterpret_cast<__gm__ uint32_t *>(tiling);
    auto out = reinterpret_cast<uint32_t *>(dst);
    for (uint32_t i = 0; i < sizeof(TilingT) / sizeof(uint32_t); ++i) {
        out[i] = src[i];
    }
}

constexpr CumSumConfig kLastAxisWithLastRow = {true, false, true};
constexpr CumSumConfig kFirstAxis = {false, false, false};
}  // namespace

// ---- CumSum -------------------------------------------------------------------------------------------
// y = cumsum(x, axis=-1) of half [outter, inner]; last = y[-1]
extern "C" __global__ __aicore__ void cumsum_last_axis_half(GM_ADDR x, GM_ADDR y, GM_ADDR last, uint32_t outter,
                                                            uint32_t inner)
{
    Scratch s;
    LocalTensor<half> src = Load<half>(s, 0, x, outter * inner);
    LocalTensor<half> dst = s.Get<half>(1, outter * inner);
    LocalTensor<half> lastRow = s.Get<half>(2, inner);
    LocalTensor<uint8_t> tmp = s.Get<uint8_t>(3, kUbBytes);
    PipeBarrier<PIPE_ALL>();
    CumSumInfo info{outter, inner};
    CumSum<half, kLastAxisWithLastRow>(dst, lastRow, src, tmp, info);
    Store(y, dst, outter * inner);
    Store(last, lastRow, inner);
}

// y = cumsum(x, axis=0) of float [outter, inner], in place (dst is src), without the tmp buffer
extern "C" __global__ __aicore__ void cumsum_first_axis_float(GM_ADDR x, GM_ADDR y, uint32_t outter, uint32_t inner)
{
    Scratch s;
    LocalTensor<float> data = Load<float>(s, 0, x, outter * inner);
    LocalTensor<float> unused = s.Get<float>(1, inner);
    PipeBarrier<PIPE_ALL>();
    CumSum<float, kFirstAxis>(data, unused, data, {outter, inner});
    Store(y, data, outter * inner);
}

// ---- Pad / UnPad -----------------------------------------------------------------------------------------
// x: srcHeight x srcWidth T (compact); y: srcHeight x (srcOriWidth + rightPad)
template <typename T>
__aicore__ inline void PadKernel(GM_ADDR x, GM_ADDR y, GM_ADDR tiling, uint32_t rightPad, int32_t padValue)
{
    PadTiling tilingData;
    CopyTiling(&tilingData, tiling);
    Scratch s;
    const uint32_t inCount = tilingData.srcHeight * tilingData.srcWidth;
    const uint32_t outCount = tilingData.srcHeight * (tilingData.srcOriWidth + rightPad);
    LocalTensor<T> src = Load<T>(s, 0, x, inCount);
    LocalTensor<T> dst = s.Get<T>(1, outCount);
    LocalTensor<uint8_t> tmp = s.Get<uint8_t>(2, kUbBytes);
    PipeBarrier<PIPE_ALL>();
    PadParams padParams{0, static_cast<uint16_t>(rightPad), padValue};
    Pad(dst, src, padParams, tmp, tilingData);
    Store(y, dst, outCount);
}
extern "C" __global__ __aicore__ void pad_half(GM_ADDR x, GM_ADDR y, GM_ADDR tiling, uint32_t rightPad,
                                               int32_t padValue)
{
    PadKernel<half>(x, y, tiling, rightPad, padValue);
}
extern "C" __global__ __aicore__ void pad_float(GM_ADDR x, GM_ADDR y, GM_ADDR tiling, uint32_t rightPad,
                                                int32_t padValue)
{
    PadKernel<float>(x, y, tiling, rightPad, padValue);
}

// x: srcHeight x srcWidth T; y: srcHeight x (srcWidth - rightPad), the framework-tmp prototype
template <typename T>
__aicore__ inline void UnPadKernel(GM_ADDR x, GM_ADDR y, GM_ADDR tiling, uint32_t rightPad)
{
    UnPadTiling tilingData;
    CopyTiling(&tilingData, tiling);
    Scratch s;
    const uint32_t inCount = tilingData.srcHeight * tilingData.srcWidth;
    const uint32_t outCount = tilingData.srcHeight * (tilingData.srcWidth - rightPad);
    LocalTensor<T> src = Load<T>(s, 0, x, inCount);
    LocalTensor<T> dst = s.Get<T>(1, outCount);
    PipeBarrier<PIPE_ALL>();
    UnPadParams unPadParams;
    unPadParams.rightPad = static_cast<uint16_t>(rightPad);
    UnPad(dst, src, unPadParams, tilingData);
    Store(y, dst, outCount);
}
extern "C" __global__ __aicore__ void unpad_half(GM_ADDR x, GM_ADDR y, GM_ADDR tiling, uint32_t rightPad)
{
    UnPadKernel<half>(x, y, tiling, rightPad);
}
extern "C" __global__ __aicore__ void unpad_float(GM_ADDR x, GM_ADDR y, GM_ADDR tiling, uint32_t rightPad)
{
    UnPadKernel<float>(x, y, tiling, rightPad);
}

// ---- AscendQuant ----------------------------------------------------------------------------------------
// per tensor: y = int8(round(x * scale + offset)) over count half elements
extern "C" __global__ __aicore__ void quant_per_tensor_half(GM_ADDR x, GM_ADDR y, uint32_t count, float scale,
                                                            float offset)
{
    Scratch s;
    LocalTensor<half> src = Load<half>(s, 0, x, count);
    LocalTensor<int8_t> dst = s.Get<int8_t>(1, count);
    LocalTensor<uint8_t> tmp = s.Get<uint8_t>(2, kUbBytes);
    PipeBarrier<PIPE_ALL>();
    AscendQuant<half>(dst, src, tmp, scale, offset, count);
    Store(y, dst, count);
}

// per channel: x [m, n] float, scale [n], offset [n]
extern "C" __global__ __aicore__ void quant_per_channel_float(GM_ADDR x, GM_ADDR scale, GM_ADDR offset, GM_ADDR y,
                                                              uint32_t m, uint32_t n)
{
    Scratch s;
    LocalTensor<float> src = Load<float>(s, 0, x, m * n);
    LocalTensor<float> scaleLocal = Load<float>(s, 1, scale, n);
    LocalTensor<float> offsetLocal = Load<float>(s, 2, offset, n);
    LocalTensor<int8_t> dst = s.Get<int8_t>(3, m * n);
    PipeBarrier<PIPE_ALL>();
    AscendQuant<float>(dst, src, scaleLocal, offsetLocal, n, n, m * n);
    Store(y, dst, m * n);
}

// ---- AscendDequant --------------------------------------------------------------------------------------
// x [m, n] int32, deqScale [n] uint64_t (float bits low), y [m, n rounded up to 32 bytes] half
extern "C" __global__ __aicore__ void dequant_u64_half(GM_ADDR x, GM_ADDR deqScale, GM_ADDR y, uint32_t m,
                                                       uint32_t n, uint32_t calCount)
{
    Scratch s;
    const uint32_t nDst = (n + 15) / 16 * 16;
    LocalTensor<int32_t> src = Load<int32_t>(s, 0, x, m * n);
    LocalTensor<uint64_t> scaleLocal = Load<uint64_t>(s, 1, deqScale, n);
    LocalTensor<half> dst = s.Get<half>(2, m * nDst);
    Duplicate(dst, static_cast<half>(0), m * nDst);  // the columns past calCount are left as they are
    PipeBarrier<PIPE_ALL>();
    AscendDequant<half, uint64_t>(dst, src, scaleLocal, {m, n, calCount});
    Store(y, dst, m * nDst);
}

// x [m, n] int32, scalar float deqScale, y [m, n rounded up to 32 bytes] bfloat16_t
extern "C" __global__ __aicore__ void dequant_scalar_bf16(GM_ADDR x, GM_ADDR y, uint32_t m, uint32_t n,
                                                          uint32_t calCount, float deqScale)
{
    Scratch s;
    const uint32_t nDst = (n + 15) / 16 * 16;
    LocalTensor<int32_t> src = Load<int32_t>(s, 0, x, m * n);
    LocalTensor<bfloat16_t> dst = s.Get<bfloat16_t>(1, m * nDst);
    Duplicate(dst.ReinterpretCast<uint16_t>(), static_cast<uint16_t>(0), m * nDst);
    LocalTensor<uint8_t> tmp = s.Get<uint8_t>(2, kUbBytes);
    PipeBarrier<PIPE_ALL>();
    DequantParams params{m, n, calCount};
    AscendDequant<bfloat16_t, float>(dst, src, deqScale, tmp, params);
    Store(y, dst, m * nDst);
}

// calCount form: y[i] = x[i] * deqScale[i % k] (float), count a multiple of k
extern "C" __global__ __aicore__ void dequant_count_float(GM_ADDR x, GM_ADDR deqScale, GM_ADDR y, uint32_t count,
                                                          uint32_t k)
{
    Scratch s;
    LocalTensor<int32_t> src = Load<int32_t>(s, 0, x, count);
    LocalTensor<float> scaleLocal = Load<float>(s, 1, deqScale, k);
    LocalTensor<float> dst = s.Get<float>(2, count);
    PipeBarrier<PIPE_ALL>();
    AscendDequant<float, float>(dst, src, scaleLocal, count);
    Store(y, dst, count);
}

// ---- AscendAntiQuant ------------------------------------------------------------------------------------
// per channel, not transposed: x [K, N] int8, offset / scale [groups, N] half -> y [K, N] half
extern "C" __global__ __aicore__ void antiquant_channel_half(GM_ADDR x, GM_ADDR offset, GM_ADDR scale, GM_ADDR y,
                                                             uint32_t K, uint32_t N, uint32_t groups)
{
    Scratch s;
    LocalTensor<int8_t> src = Load<int8_t>(s, 0, x, K * N);
    LocalTensor<half> offsetLocal = Load<half>(s, 1, offset, groups * N);
    LocalTensor<half> scaleLocal = Load<half>(s, 2, scale, groups * N);
    LocalTensor<half> dst = s.Get<half>(3, K * N);
    LocalTensor<uint8_t> tmp = s.Get<uint8_t>(4, kUbBytes);
    PipeBarrier<PIPE_ALL>();
    AntiQuantShapeInfo shapeInfo = {groups, N, groups, N};
    AscendAntiQuant<int8_t, half, false>(dst, src, offsetLocal, scaleLocal, tmp, K, shapeInfo);
    Store(y, dst, K * N);
}

// per channel, transposed: x [N, K] int8, offset / scale [N, groups] bfloat16_t -> y [N, K] bfloat16_t
extern "C" __global__ __aicore__ void antiquant_transposed_bf16(GM_ADDR x, GM_ADDR offset, GM_ADDR scale, GM_ADDR y,
                                                                uint32_t K, uint32_t N, uint32_t groups)
{
    Scratch s;
    LocalTensor<int8_t> src = Load<int8_t>(s, 0, x, K * N);
    LocalTensor<bfloat16_t> offsetLocal = Load<bfloat16_t>(s, 1, offset, N * groups);
    LocalTensor<bfloat16_t> scaleLocal = Load<bfloat16_t>(s, 2, scale, N * groups);
    LocalTensor<bfloat16_t> dst = s.Get<bfloat16_t>(3, K * N);
    PipeBarrier<PIPE_ALL>();
    AntiQuantShapeInfo shapeInfo = {N, groups, N, groups};
    AscendAntiQuant<int8_t, bfloat16_t, true>(dst, src, offsetLocal, scaleLocal, K, shapeInfo);
    Store(y, dst, K * N);
}

// per tensor: y = scale * (x + offset), half scalars passed as float
extern "C" __global__ __aicore__ void antiquant_tensor_half(GM_ADDR x, GM_ADDR y, uint32_t count, float offset,
                                                            float scale)
{
    Scratch s;
    LocalTensor<int8_t> src = Load<int8_t>(s, 0, x, count);
    LocalTensor<half> dst = s.Get<half>(1, count);
    PipeBarrier<PIPE_ALL>();
    AscendAntiQuant<int8_t, half, false>(dst, src, static_cast<half>(offset), static_cast<half>(scale), count);
    Store(y, dst, count);
}
