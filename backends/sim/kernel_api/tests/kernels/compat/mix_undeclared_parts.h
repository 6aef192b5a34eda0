// The cube and vector halves of our undeclared mixed kernels (mix_undeclared.cpp dispatches on ASCEND_IS_AIC /
// ASCEND_IS_AIV at run time, mix_undeclared_constexpr.cpp on `if constexpr (g_coreType == ...)` as MindSpore
// Lite's MixCore matmul does).  Per group g (one 32 x 32 half matrix x[g]): each AIV writes w = 2 x - 1 for its 16
// rows into the workspace and sets flag 3 (mode 2: the AIC waits for both); the AIC computes y[g] = w @ w in float
// and sets flag 4; each AIV then writes out = y / 2 + 1 for its rows, and its block facts (GetBlockIdx,
// GetBlockNum, GetSubBlockIdx, GetTaskRation) into info.
#ifndef PYASC_TEST_MIX_UNDECLARED_PARTS_H_
#define PYASC_TEST_MIX_UNDECLARED_PARTS_H_
#include "kernel_operator.h"

using namespace AscendC;

namespace mix_parts {

constexpr uint32_t kN = 32;
constexpr uint32_t kLen = kN * kN;
constexpr uint32_t kRows = kN / 2;  // rows per vector core
constexpr uint16_t kF = kN / 16;    // fractals per side
constexpr uint16_t kFlagW = 3;      // AIV -> AIC: w is in the workspace
constexpr uint16_t kFlagY = 4;      // AIC -> AIV: y is in GM

class VectorPart {
public:
    __aicore__ inline void Run(GM_ADDR x, GM_ADDR ws, GM_ADDR y, GM_ADDR out, GM_ADDR info)
    {
        const uint32_t sub = GetSubBlockIdx();
        const uint32_t group = GetBlockIdx() / GetTaskRation();
        const uint32_t rowOffset = group * kLen + sub * kRows * kN;
        pipe_.InitBuffer(buf_, kRows * kN * sizeof(float));
        pipe_.InitBuffer(infoBuf_, 8 * sizeof(int32_t));

        GlobalTensor<half> xGm, wsGm;
        xGm.SetGlobalBuffer((__gm__ half *)x + rowOffset, kRows * kN);
        wsGm.SetGlobalBuffer((__gm__ half *)ws + rowOffset, kRows * kN);
        LocalTensor<half> w = buf_.Get<half>();
        DataCopy(w, xGm, kRows * kN);
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
        Muls(w, w, static_cast<half>(2), kRows * kN);
        Adds(w, w, static_cast<half>(-1), kRows * kN);
        SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
        DataCopy(wsGm, w, kRows * kN);
        SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);  // the buffer is loaded again below
        WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
        CrossCoreSetFlag<0x2, PIPE_MTE3>(kFlagW);

        CrossCoreWaitFlag(kFlagY);
        GlobalTensor<float> yGm, outGm;
        yGm.SetGlobalBuffer((__gm__ float *)y + rowOffset, kRows * kN);
        outGm.SetGlobalBuffer((__gm__ float *)out + rowOffset, kRows * kN);
        LocalTensor<float> f = buf_.Get<float>();
        DataCopy(f, yGm, kRows * kN);
        SetFlag<HardEvent::MTE2_V>(EVENT_ID1);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID1);
        Muls(f, f, 0.5f, kRows * kN);
        Adds(f, f, 1.0f, kRows * kN);
        SetFlag<HardEvent::V_MTE3>(EVENT_ID1);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID1);
        DataCopy(outGm, f, kRows * kN);

        LocalTensor<int32_t> facts = infoBuf_.Get<int32_t>();
        facts.SetValue(0, static_cast<int32_t>(GetBlockIdx()));
        facts.SetValue(1, static_cast<int32_t>(GetBlockNum()));
        facts.SetValue(2, static_cast<int32_t>(sub));
        facts.SetValue(3, static_cast<int32_t>(GetTaskRation()));
        for (int32_t i = 4; i < 8; ++i) facts.SetValue(i, 0);
        SetFlag<HardEvent::S_MTE3>(EVENT_ID2);
        WaitFlag<HardEvent::S_MTE3>(EVENT_ID2);
        GlobalTensor<int32_t> infoGm;
        infoGm.SetGlobalBuffer((__gm__ int32_t *)info + (group * 2 + sub) * 8, 8);
        DataCopy(infoGm, facts, 8);
    }

private:
    TPipe pipe_;
    TBuf<TPosition::VECCALC> buf_;
    TBuf<TPosition::VECCALC> infoBuf_;
};

class CubePart {
public:
    __aicore__ inline void Run(GM_ADDR ws, GM_ADDR y)
    {
        const uint32_t group = GetBlockIdx();
        GlobalTensor<half> wsGm;
        GlobalTensor<float> yGm;
        wsGm.SetGlobalBuffer((__gm__ half *)ws + group * kLen, kLen);
        yGm.SetGlobalBuffer((__gm__ float *)y + group * kLen, kLen);
        pipe_.InitBuffer(a1_, 1, kLen * sizeof(half));
        pipe_.InitBuffer(b1_, 1, kLen * sizeof(half));
        pipe_.InitBuffer(a2_, 1, kLen * sizeof(half));
        pipe_.InitBuffer(b2_, 1, kLen * sizeof(half));
        pipe_.InitBuffer(c1_, 1, kLen * sizeof(float));

        CrossCoreWaitFlag(kFlagW);
        LocalTensor<half> aL1 = a1_.AllocTensor<half>();
        LocalTensor<half> bL1 = b1_.AllocTensor<half>();
        Nd2NzParams nd;
        nd.ndNum = 1;
        nd.nValue = kN;
        nd.dValue = kN;
        nd.srcDValue = kN;
        nd.dstNzC0Stride = kN;
        nd.dstNzNStride = 1;
        DataCopy(aL1, wsGm, nd);
        DataCopy(bL1, wsGm, nd);
        a1_.EnQue(aL1);
        b1_.EnQue(bL1);

        aL1 = a1_.DeQue<half>();
        bL1 = b1_.DeQue<half>();
        LocalTensor<half> aL0 = a2_.AllocTensor<half>();
        LocalTensor<half> bL0 = b2_.AllocTensor<half>();
        for (uint16_t i = 0; i < kF; ++i) {
            LoadData2dParams p;
            p.repeatTimes = kF;
            p.srcStride = kF;
            p.ifTranspose = false;
            LoadData(aL0[i * kF * 256], aL1[i * 256], p);  // NZ -> Zz
            p.ifTranspose = true;
            LoadData(bL0[i * kF * 256], bL1[i * 256], p);  // NZ -> Zn
        }
        a1_.FreeTensor(aL1);
        b1_.FreeTensor(bL1);
        a2_.EnQue(aL0);
        b2_.EnQue(bL0);

        aL0 = a2_.DeQue<half>();
        bL0 = b2_.DeQue<half>();
        LocalTensor<float> c = c1_.AllocTensor<float>();
        Mmad(c, aL0, bL0, {static_cast<uint16_t>(kN), static_cast<uint16_t>(kN), static_cast<uint16_t>(kN), false, 0,
                           false, false, false});
        a2_.FreeTensor(aL0);
        b2_.FreeTensor(bL0);
        c1_.EnQue(c);

        c = c1_.DeQue<float>();
        FixpipeParamsV220 fp;
        fp.nSize = kN;
        fp.mSize = kN;
        fp.srcStride = kN;
        fp.dstStride = kN;
        fp.ndNum = 1;
        Fixpipe<float, float, CFG_ROW_MAJOR>(yGm, c, fp);
        c1_.FreeTensor(c);
        CrossCoreSetFlag<0x2, PIPE_FIX>(kFlagY);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::A1, 1> a1_;
    TQue<QuePosition::B1, 1> b1_;
    TQue<QuePosition::A2, 1> a2_;
    TQue<QuePosition::B2, 1> b2_;
    TQue<QuePosition::CO1, 1> c1_;
};

}  // namespace mix_parts

#endif  // PYASC_TEST_MIX_UNDECLARED_PARTS_H_
