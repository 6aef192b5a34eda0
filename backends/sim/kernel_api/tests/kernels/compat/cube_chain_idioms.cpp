// Cube chains and CCE cross-core sync in the style of public mixed kernels (sgl-kernel-npu's tri_inv idiom):
// a product kept on chip (Fixpipe from L0C into an L1 B1 tensor with F322F16, then LoadData to L0B for a second
// Mmad), the older FixpipeParams<float> with Nz2NdParams writing ND to GM, and the AIC / AIV handshake through
// the intrinsics ffts_cross_core_sync / wait_flag_dev.  Our own kernels (tests/test_sim_compat_cube_chain.py).
#include "kernel_operator.h"

using namespace AscendC;

namespace {

constexpr uint32_t kFrac = 16;

// GM (ND rows x cols half) -> L1 (NZ).
__aicore__ inline void GmToL1(const LocalTensor<half> &dst, const GlobalTensor<half> &src, uint16_t rows, uint16_t cols)
{
    Nd2NzParams p;
    p.ndNum = 1;
    p.nValue = rows;
    p.dValue = cols;
    p.srcDValue = cols;
    p.dstNzC0Stride = rows;
    p.dstNzNStride = 1;
    DataCopy(dst, src, p);
}

// L1 NZ (rows x cols) -> L0A (Zz): one LoadData per row of fractals.
__aicore__ inline void L1ToL0A(const LocalTensor<half> &dst, const LocalTensor<half> &src, uint16_t rowFracs,
                               uint16_t colFracs)
{
    for (uint16_t i = 0; i < rowFracs; ++i) {
        LoadData2dParams p;
        p.repeatTimes = colFracs;
        p.srcStride = rowFracs;
        p.ifTranspose = false;
        LoadData(dst[i * colFracs * 256], src[i * 256], p);
    }
}

// L1 NZ (rows x cols) -> L0B (Zn): the same walk, each fractal transposed.
__aicore__ inline void L1ToL0B(const LocalTensor<half> &dst, const LocalTensor<half> &src, uint16_t rowFracs,
                               uint16_t colFracs)
{
    for (uint16_t i = 0; i < rowFracs; ++i) {
        LoadData2dParams p;
        p.repeatTimes = colFracs;
        p.srcStride = rowFracs;
        p.ifTranspose = true;
        LoadData(dst[i * colFracs * 256], src[i * 256], p);
    }
}

// L0C (m x n float) -> GM ND through the older FixpipeParams with NZ2ND.
__aicore__ inline void L0CToGmNd(const GlobalTensor<float> &dst, const LocalTensor<float> &src, uint16_t m, uint16_t n)
{
    FixpipeParams<float> params;
    params.cburstNum = n / kFrac;
    params.burstLen = m * kFrac * sizeof(float) / 32;
    params.srcStride = 0;
    params.dstStride = n;
    Nz2NdParams nz2nd;
    nz2nd.nz2ndEn = true;
    nz2nd.originalNSize = n;
    params.nz2ndParams = nz2nd;
    Fixpipe(dst, src, params);
}

// L0C (m x n float) -> L1 NZ half (F322F16): dstStride counts 32-byte blocks, one per half row of a fractal.
__aicore__ inline void L0CToL1Half(const LocalTensor<half> &dst, const LocalTensor<float> &src, uint16_t m, uint16_t n)
{
    FixpipeParamsV220 params;
    params.nSize = n;
    params.mSize = m;
    params.srcStride = m;
    params.dstStride = m;
    params.quantPre = QuantMode_t::F322F16;
    Fixpipe<half, float, CFG_NZ>(dst, src, params);
}

}  // namespace

// y = a2 @ half(a @ b): a (m x k), b (k x n), a2 (m2 x m), all half, y float (m2 x n).  One cube core.
extern "C" __global__ __aicore__ void chain_mm(GM_ADDR a, GM_ADDR b, GM_ADDR a2, GM_ADDR y, GM_ADDR shape)
{
    GlobalTensor<uint32_t> shapeGm;
    shapeGm.SetGlobalBuffer((__gm__ uint32_t *)shape, 4);
    const uint16_t m = shapeGm.GetValue(0), k = shapeGm.GetValue(1), n = shapeGm.GetValue(2), m2 = shapeGm.GetValue(3);
    GlobalTensor<half> aGm, bGm, a2Gm;
    GlobalTensor<float> yGm;
    aGm.SetGlobalBuffer((__gm__ half *)a, m * k);
    bGm.SetGlobalBuffer((__gm__ half *)b, k * n);
    a2Gm.SetGlobalBuffer((__gm__ half *)a2, m2 * m);
    yGm.SetGlobalBuffer((__gm__ float *)y, m2 * n);

    TPipe pipe;
    TQue<QuePosition::A1, 1> a1Q;
    TQue<QuePosition::B1, 1> b1Q;
    TQue<QuePosition::A2, 1> a2Q;
    TQue<QuePosition::B2, 1> b2Q;
    TQue<QuePosition::CO1, 1> c1Q;
    pipe.InitBuffer(a1Q, 1, 64 * 64 * sizeof(half));
    pipe.InitBuffer(b1Q, 1, 64 * 64 * sizeof(half));
    pipe.InitBuffer(a2Q, 1, 64 * 64 * sizeof(half));
    pipe.InitBuffer(b2Q, 1, 64 * 64 * sizeof(half));
    pipe.InitBuffer(c1Q, 1, 64 * 64 * sizeof(float));

    // C = A @ B
    LocalTensor<half> aL1 = a1Q.AllocTensor<half>();
    GmToL1(aL1, aGm, m, k);
    a1Q.EnQue(aL1);
    LocalTensor<half> bL1 = b1Q.AllocTensor<half>();
    GmToL1(bL1, bGm, k, n);
    b1Q.EnQue(bL1);
    aL1 = a1Q.DeQue<half>();
    LocalTensor<half> aL0 = a2Q.AllocTensor<half>();
    L1ToL0A(aL0, aL1, m / kFrac, k / kFrac);
    a1Q.FreeTensor(aL1);
    a2Q.EnQue(aL0);
    bL1 = b1Q.DeQue<half>();
    LocalTensor<half> bL0 = b2Q.AllocTensor<half>();
    L1ToL0B(bL0, bL1, k / kFrac, n / kFrac);
    b1Q.FreeTensor(bL1);
    b2Q.EnQue(bL0);
    aL0 = a2Q.DeQue<half>();
    bL0 = b2Q.DeQue<half>();
    LocalTensor<float> c = c1Q.AllocTensor<float>();
    Mmad(c, aL0, bL0, {m, n, k, false, 0, false, false, false});
    a2Q.FreeTensor(aL0);
    b2Q.FreeTensor(bL0);
    c1Q.EnQue(c);

    // C stays on chip: L0C -> B1 (half), then B1 -> L0B
    c = c1Q.DeQue<float>();
    LocalTensor<half> cL1 = b1Q.AllocTensor<half>();
    L0CToL1Half(cL1, c, m, n);
    c1Q.FreeTensor(c);
    b1Q.EnQue(cL1);
    cL1 = b1Q.DeQue<half>();
    LocalTensor<half> cL0 = b2Q.AllocTensor<half>();
    L1ToL0B(cL0, cL1, m / kFrac, n / kFrac);
    b1Q.FreeTensor(cL1);
    b2Q.EnQue(cL0);

    // Y = A2 @ C
    LocalTensor<half> a2L1 = a1Q.AllocTensor<half>();
    GmToL1(a2L1, a2Gm, m2, m);
    a1Q.EnQue(a2L1);
    a2L1 = a1Q.DeQue<half>();
    LocalTensor<half> a2L0 = a2Q.AllocTensor<half>();
    L1ToL0A(a2L0, a2L1, m2 / kFrac, m / kFrac);
    a1Q.FreeTensor(a2L1);
    a2Q.EnQue(a2L0);
    a2L0 = a2Q.DeQue<half>();
    cL0 = b2Q.DeQue<half>();
    LocalTensor<float> yL0 = c1Q.AllocTensor<float>();
    Mmad(yL0, a2L0, cL0, {m2, n, m, false, 0, false, false, false});
    a2Q.FreeTensor(a2L0);
    b2Q.FreeTensor(cL0);
    c1Q.EnQue(yL0);
    yL0 = c1Q.DeQue<float>();
    L0CToGmNd(yGm, yL0, m2, n);
    c1Q.FreeTensor(yL0);
}

// Mixed AIC:AIV = 1:2, one 32 x 32 matrix per group: vector core 0 writes w = 2 x into the workspace, both vector
// cores publish with ffts_cross_core_sync (mode 2, flag 11); the cube core waits (wait_flag_dev(11): both must
// have set), computes y = w @ half(w @ w) with the product kept on chip, and publishes (mode 2, flag 12); each
// vector core waits for it and copies y + its sub-block index into z.
extern "C" __global__ __aicore__ void ffts_cube_chain(GM_ADDR x, GM_ADDR ws, GM_ADDR y, GM_ADDR z)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    constexpr uint32_t kN = 32, kLen = kN * kN;
    const uint32_t group = GetBlockIdx() / GetTaskRation();
    if ASCEND_IS_AIV {
        const uint32_t sub = GetSubBlockIdx();
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, kLen * sizeof(float));
        if (sub == 0) {
            GlobalTensor<half> xGm, wsGm;
            xGm.SetGlobalBuffer((__gm__ half *)x + group * kLen, kLen);
            wsGm.SetGlobalBuffer((__gm__ half *)ws + group * kLen, kLen);
            LocalTensor<half> t = buf.Get<half>();
            DataCopy(t, xGm, kLen);
            SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
            WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
            Muls(t, t, static_cast<half>(2), kLen);
            SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
            WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
            DataCopy(wsGm, t, kLen);
            // the buffer is read again below (MTE2): order this core's MTE3 read of it first
            SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
            WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
        }
        ffts_cross_core_sync(PIPE_MTE3, 1 | (2 << 4) | (11 << 8));
        wait_flag_dev(12);
        GlobalTensor<float> yGm, zGm;
        yGm.SetGlobalBuffer((__gm__ float *)y + group * kLen, kLen);
        zGm.SetGlobalBuffer((__gm__ float *)z + (group * 2 + sub) * kLen, kLen);
        LocalTensor<float> f = buf.Get<float>();
        DataCopy(f, yGm, kLen);
        SetFlag<HardEvent::MTE2_V>(EVENT_ID1);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID1);
        Adds(f, f, static_cast<float>(sub), kLen);
        SetFlag<HardEvent::V_MTE3>(EVENT_ID1);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID1);
        DataCopy(zGm, f, kLen);
    }
    if ASCEND_IS_AIC {
        wait_flag_dev(11);
        GlobalTensor<half> wsGm;
        GlobalTensor<float> yGm;
        wsGm.SetGlobalBuffer((__gm__ half *)ws + group * kLen, kLen);
        yGm.SetGlobalBuffer((__gm__ float *)y + group * kLen, kLen);
        TPipe pipe;
        TQue<QuePosition::A1, 1> a1Q;
        TQue<QuePosition::B1, 1> b1Q;
        TQue<QuePosition::A2, 1> a2Q;
        TQue<QuePosition::B2, 1> b2Q;
        TQue<QuePosition::CO1, 1> c1Q;
        pipe.InitBuffer(a1Q, 1, kLen * sizeof(half));
        pipe.InitBuffer(b1Q, 1, kLen * sizeof(half));
        pipe.InitBuffer(a2Q, 1, kLen * sizeof(half));
        pipe.InitBuffer(b2Q, 1, kLen * sizeof(half));
        pipe.InitBuffer(c1Q, 1, kLen * sizeof(float));
        constexpr uint16_t kF = kN / kFrac;

        LocalTensor<half> wA = a1Q.AllocTensor<half>();
        GmToL1(wA, wsGm, kN, kN);
        a1Q.EnQue(wA);
        LocalTensor<half> wB = b1Q.AllocTensor<half>();
        GmToL1(wB, wsGm, kN, kN);
        b1Q.EnQue(wB);
        wA = a1Q.DeQue<half>();
        LocalTensor<half> aL0 = a2Q.AllocTensor<half>();
        L1ToL0A(aL0, wA, kF, kF);
        a2Q.EnQue(aL0);  // w stays in L1 (A1) for the second product's A
        wB = b1Q.DeQue<half>();
        LocalTensor<half> bL0 = b2Q.AllocTensor<half>();
        L1ToL0B(bL0, wB, kF, kF);
        b1Q.FreeTensor(wB);
        b2Q.EnQue(bL0);
        aL0 = a2Q.DeQue<half>();
        bL0 = b2Q.DeQue<half>();
        LocalTensor<float> c = c1Q.AllocTensor<float>();
        Mmad(c, aL0, bL0, {kN, kN, kN, false, 0, false, false, false});
        b2Q.FreeTensor(bL0);
        c1Q.EnQue(c);
        c = c1Q.DeQue<float>();
        LocalTensor<half> cL1 = b1Q.AllocTensor<half>();
        L0CToL1Half(cL1, c, kN, kN);
        c1Q.FreeTensor(c);
        b1Q.EnQue(cL1);
        cL1 = b1Q.DeQue<half>();
        LocalTensor<half> cL0 = b2Q.AllocTensor<half>();
        L1ToL0B(cL0, cL1, kF, kF);
        b1Q.FreeTensor(cL1);
        b2Q.EnQue(cL0);
        cL0 = b2Q.DeQue<half>();
        LocalTensor<float> yL0 = c1Q.AllocTensor<float>();
        Mmad(yL0, aL0, cL0, {kN, kN, kN, false, 0, false, false, false});
        a2Q.FreeTensor(aL0);
        a1Q.FreeTensor(wA);
        b2Q.FreeTensor(cL0);
        c1Q.EnQue(yL0);
        yL0 = c1Q.DeQue<float>();
        L0CToGmNd(yGm, yL0, kN, kN);
        c1Q.FreeTensor(yL0);
        ffts_cross_core_sync(PIPE_FIX, 1 | (2 << 4) | (12 << 8));
    }
}

// Misuse the sanitizer reports (mode selects): 0 ffts config with mode 3, 1 Fixpipe into L1 without CFG_NZ,
// 2 FixpipeParams with NZ2ND but no originalNSize.
extern "C" __global__ __aicore__ void cube_chain_misuse(GM_ADDR y, GM_ADDR mode)
{
    GlobalTensor<uint32_t> modeGm;
    modeGm.SetGlobalBuffer((__gm__ uint32_t *)mode, 8);
    const uint32_t which = modeGm.GetValue(0);
    if (which == 0) {
        ffts_cross_core_sync(PIPE_FIX, 1 | (3 << 4) | (2 << 8));
        return;
    }
    TPipe pipe;
    TQue<QuePosition::B1, 1> b1Q;
    TQue<QuePosition::CO1, 1> c1Q;
    pipe.InitBuffer(b1Q, 1, 256 * sizeof(half));
    pipe.InitBuffer(c1Q, 1, 256 * sizeof(float));
    LocalTensor<float> c = c1Q.AllocTensor<float>();
    LocalTensor<half> l1 = b1Q.AllocTensor<half>();
    if (which == 1) {
        FixpipeParamsV220 params(16, 16, 16, 16, false);
        params.quantPre = QuantMode_t::F322F16;
        Fixpipe(l1, c, params);
    } else {
        GlobalTensor<float> yGm;
        yGm.SetGlobalBuffer((__gm__ float *)y, 256);
        FixpipeParams<float> params(1, 32, 0, 16);
        params.nz2ndParams.nz2ndEn = true;
        Fixpipe(yGm, c, params);
    }
    b1Q.FreeTensor(l1);
    c1Q.FreeTensor(c);
}

// Rounds of mode-2 sync with uneven vector cores (tri_inv's pattern): per round r AIV 0 writes the round's value
// into workspace slot r, then both AIV set flag 5 and wait for flag 6; AIV 1 does nothing else. Each round the cube
// core sets flag 6 first, then waits for flag 5 (both AIV must have set for that round) and records slot r, so AIV 1
// can be a whole round ahead of AIV 0: a release counted from any two sets of flag 5 would let the cube core read
// slot r before AIV 0 wrote it.
extern "C" __global__ __aicore__ void ffts_uneven_rounds(GM_ADDR ws, GM_ADDR out)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    constexpr uint32_t kRounds = 6, kInts = 16;  // one 64-byte line per slot
    const uint32_t group = GetBlockIdx() / GetTaskRation();
    GlobalTensor<int32_t> wsGm;
    wsGm.SetGlobalBuffer((__gm__ int32_t *)ws + group * kRounds * kInts, kRounds * kInts);
    if ASCEND_IS_AIV {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, kInts * sizeof(int32_t));
        LocalTensor<int32_t> t = buf.Get<int32_t>();
        for (uint32_t r = 0; r < kRounds; ++r) {
            if (GetSubBlockIdx() == 0) {
                Duplicate(t, static_cast<int32_t>((group + 1) * 100 + r), kInts);
                SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
                WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
                DataCopy(wsGm[r * kInts], t, kInts);
                SetFlag<HardEvent::MTE3_V>(EVENT_ID0);
                WaitFlag<HardEvent::MTE3_V>(EVENT_ID0);
            }
            ffts_cross_core_sync(PIPE_MTE3, 1 | (2 << 4) | (5 << 8));
            wait_flag_dev(6);
        }
    }
    if ASCEND_IS_AIC {
        GlobalTensor<int32_t> outGm;
        outGm.SetGlobalBuffer((__gm__ int32_t *)out + group * kInts, kInts);
        for (uint32_t r = 0; r < kRounds; ++r) {
            ffts_cross_core_sync(PIPE_S, 1 | (2 << 4) | (6 << 8));  // set first, then wait, as tri_inv's cube core
            wait_flag_dev(5);
            DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(wsGm[r * kInts]);
            outGm.SetValue(r, wsGm.GetValue(r * kInts));
        }
        DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(outGm);
    }
}
