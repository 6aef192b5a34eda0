// Compatibility kernels (ours, in the style of public Ascend C) for TransDataTo5HD and GetSystemCycle
// (issue 8 point 6, the rest of the documented basic API): an NCHW -> NC1HWC0 conversion of half data
// with uint64_t address lists, 16x16 / 16x8 block transposes through the LocalTensor-list and the
// LocalTensor<uint64_t> forms, the int8 half-block form, and a cycle measurement around a vector op.
// tests/test_sim_compat_layout_5hd.py runs them against NumPy.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t kC0 = 16;
}  // namespace

// x: (n, c, h, w) half with c % 16 == 0 and h * w % 16 == 0, y: (n, c / 16, h, w, 16).
extern "C" __global__ __aicore__ void nchw_to_5hd(GM_ADDR x, GM_ADDR y, uint32_t n, uint32_t c, uint32_t hw)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    const uint32_t plane = kC0 * hw;  // one C1 slice: 16 channels of h * w
    pipe.InitBuffer(inQ, 1, plane * sizeof(half));
    pipe.InitBuffer(outQ, 1, plane * sizeof(half));
    GlobalTensor<half> xGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(x), n * c * hw);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(y), n * c * hw);
    TransDataTo5HDParams params;
    params.repeatTimes = static_cast<uint8_t>(hw / kC0);  // one repeat per 16 pixels of the plane
    // 16 pixels x 16 channels = 16 dst blocks per repeat; the next 16 pixels of each channel. With a
    // single repeat the documented start is address + stride, so the strides are 0 there.
    params.dstRepStride = params.repeatTimes == 1 ? 0 : 16;
    params.srcRepStride = params.repeatTimes == 1 ? 0 : 1;
    for (uint32_t s = 0; s < n * c / kC0; ++s) {
        LocalTensor<half> xl = inQ.AllocTensor<half>();
        DataCopy(xl, xGm[s * plane], plane);
        inQ.EnQue(xl);
        xl = inQ.DeQue<half>();
        LocalTensor<half> yl = outQ.AllocTensor<half>();
        uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE];
        uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE];
        for (int i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; i++) {
            srcList[i] = reinterpret_cast<uint64_t>(xl[i * hw].GetPhyAddr());
            dstList[i] = reinterpret_cast<uint64_t>(yl[i * kC0].GetPhyAddr());
        }
        TransDataTo5HD<half>(dstList, srcList, params);
        outQ.EnQue(yl);
        inQ.FreeTensor(xl);
        yl = outQ.DeQue<half>();
        DataCopy(yGm[s * plane], yl, plane);
        outQ.FreeTensor(yl);
    }
}

// One 16-block transpose with the LocalTensor-list form (x: 16 blocks of T, y: 16 blocks of T).
template <typename T>
__aicore__ inline void block_transpose(GM_ADDR x, GM_ADDR y, bool viaAddrTensor)
{
    constexpr uint32_t width = 32 / sizeof(T);
    constexpr uint32_t total = 16 * width;
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> addrBuf;
    pipe.InitBuffer(inQ, 1, total * sizeof(T));
    pipe.InitBuffer(outQ, 1, total * sizeof(T));
    pipe.InitBuffer(addrBuf, 2 * NCHW_CONV_ADDR_LIST_SIZE * sizeof(uint64_t));
    GlobalTensor<T> xGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(x), total);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(y), total);
    LocalTensor<T> xl = inQ.AllocTensor<T>();
    DataCopy(xl, xGm, total);
    inQ.EnQue(xl);
    xl = inQ.DeQue<T>();
    LocalTensor<T> yl = outQ.AllocTensor<T>();
    TransDataTo5HDParams params(false, false, 1, 0, 0);
    if (viaAddrTensor) {
        LocalTensor<uint64_t> dst = addrBuf.Get<uint64_t>();
        LocalTensor<uint64_t> src = dst[NCHW_CONV_ADDR_LIST_SIZE];
        for (int i = 0; i < 16; i++) {
            dst.SetValue(i, reinterpret_cast<uint64_t>(yl[width * i].GetPhyAddr()));
            src.SetValue(i, reinterpret_cast<uint64_t>(xl[width * i].GetPhyAddr()));
        }
        TransDataTo5HD<T>(dst, src, params);
    } else {
        LocalTensor<T> dstList[16];
        LocalTensor<T> srcList[16];
        for (int i = 0; i < 16; i++) {
            dstList[i] = yl[width * i];
            srcList[i] = xl[width * i];
        }
        TransDataTo5HD<T>(dstList, srcList, params);
    }
    outQ.EnQue(yl);
    inQ.FreeTensor(xl);
    yl = outQ.DeQue<T>();
    DataCopy(yGm, yl, total);
    outQ.FreeTensor(yl);
}

extern "C" __global__ __aicore__ void transpose_b16(GM_ADDR x, GM_ADDR y) { block_transpose<half>(x, y, false); }
extern "C" __global__ __aicore__ void transpose_b32(GM_ADDR x, GM_ADDR y) { block_transpose<float>(x, y, true); }

// int8: y starts as a copy of `init`; one TransDataTo5HD with the given halves (0 / 1 each).
extern "C" __global__ __aicore__ void transpose_b8(GM_ADDR x, GM_ADDR init, GM_ADDR y, int32_t srcHigh, int32_t dstHigh)
{
    constexpr uint32_t total = 16 * 32;
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, total);
    pipe.InitBuffer(outQ, 1, total);
    GlobalTensor<int8_t> xGm, initGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t *>(x), total);
    initGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t *>(init), total);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t *>(y), total);
    LocalTensor<int8_t> xl = inQ.AllocTensor<int8_t>();
    DataCopy(xl, xGm, total);
    inQ.EnQue(xl);
    xl = inQ.DeQue<int8_t>();
    LocalTensor<int8_t> yl = outQ.AllocTensor<int8_t>();
    DataCopy(yl, initGm, total);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    TransDataTo5HDParams params;
    params.srcHighHalf = srcHigh != 0;
    params.dstHighHalf = dstHigh != 0;
    params.repeatTimes = 1;
    uint64_t dstList[16], srcList[16];
    for (int i = 0; i < 16; i++) {
        dstList[i] = reinterpret_cast<uint64_t>(yl[32 * i].GetPhyAddr());
        srcList[i] = reinterpret_cast<uint64_t>(xl[32 * i].GetPhyAddr());
    }
    TransDataTo5HD<int8_t>(dstList, srcList, params);
    outQ.EnQue(yl);
    inQ.FreeTensor(xl);
    yl = outQ.DeQue<int8_t>();
    DataCopy(yGm, yl, total);
    outQ.FreeTensor(yl);
}

// A misuse: one address of the list points outside the Unified Buffer (a GM address).
extern "C" __global__ __aicore__ void transpose_gm_address(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * 512);
    LocalTensor<half> t = buf.Get<half>();
    Duplicate(t, static_cast<half>(0), 512);
    uint64_t dstList[16], srcList[16];
    for (int i = 0; i < 16; i++) {
        srcList[i] = reinterpret_cast<uint64_t>(t[16 * i].GetPhyAddr());
        dstList[i] = reinterpret_cast<uint64_t>(t[256 + 16 * i].GetPhyAddr());
    }
    srcList[3] = reinterpret_cast<uint64_t>(x);
    TransDataTo5HDParams params(false, false, 1, 0, 0);
    TransDataTo5HD<half>(dstList, srcList, params);
    (void)y;
}

// cycles[0] = GetSystemCycle() difference around `reps` Adds of 2048 floats, fenced by PIPE_ALL
// barriers (the page's example); cycles[1] = the same with no Adds.
extern "C" __global__ __aicore__ void measure_cycles(GM_ADDR cycles, int32_t reps)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * 2048 * sizeof(float));
    LocalTensor<float> a = buf.Get<float>();
    LocalTensor<float> b = a[2048];
    Duplicate(a, 1.0f, 2048);
    Duplicate(b, 2.0f, 2048);
    GlobalTensor<int64_t> out;
    out.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t *>(cycles), 2);
    PipeBarrier<PIPE_ALL>();
    int64_t before = GetSystemCycle();
    for (int32_t i = 0; i < reps; ++i) {
        Add(a, a, b, 2048);
        PipeBarrier<PIPE_V>();
    }
    PipeBarrier<PIPE_ALL>();
    int64_t after = GetSystemCycle();
    out.SetValue(0, after - before);
    PipeBarrier<PIPE_ALL>();
    before = GetSystemCycle();
    PipeBarrier<PIPE_ALL>();
    after = GetSystemCycle();
    out.SetValue(1, after - before);
    InitSocState();
}

// BilinearInterpolation (half): src0 (512), src1 (16), src0Offset (32 byte offsets) -> dst (2 x 128),
// hRepeat 2, vRepeat 2, vROffset 128, dstBlkStride 1; mask < 0 uses the bit-mask form {~0, ~0}.
extern "C" __global__ __aicore__ void bilinear(GM_ADDR src0, GM_ADDR src1, GM_ADDR offsets, GM_ADDR dst, int32_t mask,
                                               int32_t repeatMode)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> s0Buf, s1Buf, offBuf, dstBuf, tmpBuf;
    pipe.InitBuffer(s0Buf, 512 * sizeof(half));
    pipe.InitBuffer(s1Buf, 32 * sizeof(half));
    pipe.InitBuffer(offBuf, 32 * sizeof(uint32_t));
    pipe.InitBuffer(dstBuf, 256 * sizeof(half));
    pipe.InitBuffer(tmpBuf, 512 * 32 + 32 * 32);
    LocalTensor<half> s0 = s0Buf.Get<half>();
    LocalTensor<half> s1 = s1Buf.Get<half>();
    LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
    LocalTensor<half> d = dstBuf.Get<half>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    GlobalTensor<half> s0Gm, s1Gm, dGm;
    GlobalTensor<uint32_t> offGm;
    s0Gm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(src0), 512);
    s1Gm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(src1), 32);
    offGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t *>(offsets), 32);
    dGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(dst), 256);
    DataCopy(s0, s0Gm, 512);
    DataCopy(s1, s1Gm, 32);
    DataCopy(off, offGm, 32);
    DataCopy(d, dGm, 256);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    if (mask < 0) {
        uint64_t bits[2] = {UINT64_MAX, UINT64_MAX};
        BilinearInterpolation(d, s0, off, s1, bits, 2, repeatMode != 0, 1, 128, 2, tmp);
    } else {
        BilinearInterpolation(d, s0, off, s1, static_cast<uint64_t>(mask), 2, repeatMode != 0, 1, 128, 2, tmp);
    }
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(dGm, d, 256);
}
