// Cube idioms of chunk_scaled_dot_kkt (kernel_api/COMPAT.md, round 9), written for pyasc: the L1
// operand filled with InitConstValue before a partial Nd2Nz load, then cut into K parts with
// Load3Dv2 (LoadData3DParamsV2 with l1H = 1, l1W = M: the 1 x 1 im2col that is a plain A1 -> A2
// move), the parts accumulated by Mmad.
//
// load3d_gram:  c[MM x NN] = a'[MM x KK] @ b[NN x KK]^T (fp16 in, fp32 out), where a' holds the
//               first `rows` rows of a and `fill` in the others (InitConstValue).
// load3d_bad:   a Load3Dv2 with a 3 x 3 filter, which the simulator reports as unsupported.
// load3d_padded: the 310P cube style of opensensor/vllm-ascend glm_kpool_score_v310 (round 34): a
//               constexpr IsResetLoad3dConfig passed as LoadData<T, cfg>'s template argument, a padded
//               Load3Dv2 (padList = {left, right, top, bottom}, padValue) into L0A, SetMMLayoutTransform
//               around the Mmad; c[MM x NN] = im2col(a as l1H x l1W positions, padded) @ b[NN x KK]^T.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t MM = 32;
constexpr uint32_t KK = 64;
constexpr uint32_t NN = 16;
constexpr uint32_t KPART = KK / 2;
}  // namespace

extern "C" __global__ __aicore__ void load3d_gram(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t rows, float fill) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    InitSocState();
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer((__gm__ half *)a);
    bGm.SetGlobalBuffer((__gm__ half *)b);
    cGm.SetGlobalBuffer((__gm__ float *)c);
    LocalTensor<half> a1(TPosition::A1, 0, MM * KK);
    LocalTensor<half> b1(TPosition::B1, MM * KK * sizeof(half), NN * KK);
    LocalTensor<half> a2Part0(TPosition::A2, 0, MM * KPART);
    LocalTensor<half> a2Part1(TPosition::A2, MM * KPART * sizeof(half), MM * KPART);
    LocalTensor<half> b2Part0(TPosition::B2, 0, NN * KPART);
    LocalTensor<half> b2Part1(TPosition::B2, NN * KPART * sizeof(half), NN * KPART);
    LocalTensor<float> c1(TPosition::CO1, 0, MM * NN);

    InitConstValue(a1, {1, static_cast<uint16_t>(MM * KK * sizeof(half) / 32), 0, static_cast<half>(fill)});
    DataCopy(a1, aGm, Nd2NzParams(1, static_cast<uint16_t>(rows), KK, 0, KK, MM, 1, 0));
    DataCopy(b1, bGm, Nd2NzParams(1, NN, KK, 0, KK, NN, 1, 0));
    SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);

    LoadData3DParamsV2<half> p{};
    p.l1H = 1;
    p.l1W = MM;
    p.channelSize = KK;
    p.kExtension = KPART;
    p.mExtension = MM;
    p.kStartPt = 0;
    LoadData(a2Part0, a1, p);
    p.kStartPt = KPART;
    LoadData(a2Part1, a1, p);
    LoadData(b2Part0, b1, LoadData2DParams(0, NN * KPART / 256, 1, 0, 0, false, 0));
    LoadData(b2Part1, b1[NN * KPART], LoadData2DParams(0, NN * KPART / 256, 1, 0, 0, false, 0));
    SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
    WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);

    Mmad(c1, a2Part0, b2Part0, MmadParams(MM, NN, KPART, 0, false, true));
    Mmad(c1, a2Part1, b2Part1, MmadParams(MM, NN, KPART, 0, false, false));
    SetFlag<HardEvent::M_FIX>(EVENT_ID0);
    WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
    FixpipeParamsV220 fp(NN, MM, MM, NN, false);
    Fixpipe<float, float, CFG_ROW_MAJOR>(cGm, c1, fp);
}

extern "C" __global__ __aicore__ void load3d_bad() {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    LocalTensor<half> a1(TPosition::A1, 0, MM * KK);
    LocalTensor<half> a2(TPosition::A2, 0, MM * KK);
    InitConstValue(a1, {1, static_cast<uint16_t>(MM * KK * sizeof(half) / 32), 0, static_cast<half>(0)});
    SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    LoadData3DParamsV2<half> p{};
    p.l1H = 1;
    p.l1W = MM;
    p.channelSize = KK;
    p.kExtension = KK;
    p.mExtension = MM;
    p.filterW = 3;
    LoadData(a2, a1, p);
}

namespace {
constexpr IsResetLoad3dConfig SET_BOTH = {true, true};
}  // namespace

extern "C" __global__ __aicore__ void load3d_padded(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t l1H, uint32_t l1W,
                                                   uint32_t pads, float padValue) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer((__gm__ half *)a);
    bGm.SetGlobalBuffer((__gm__ half *)b);
    cGm.SetGlobalBuffer((__gm__ float *)c);
    LocalTensor<half> a1(TPosition::A1, 0, MM * KK);
    LocalTensor<half> b1(TPosition::B1, MM * KK * sizeof(half), NN * KK);
    LocalTensor<half> a2(TPosition::A2, 0, MM * KK);
    LocalTensor<half> b2(TPosition::B2, 0, NN * KK);
    LocalTensor<float> c1(TPosition::CO1, 0, MM * NN);
    const uint16_t positions = static_cast<uint16_t>(l1H * l1W);
    DataCopy(a1, aGm, Nd2NzParams(1, positions, KK, 0, KK, positions, 1, 0));
    DataCopy(b1, bGm, Nd2NzParams(1, NN, KK, 0, KK, NN, 1, 0));
    PipeBarrier<PIPE_ALL>();
    LoadData3DParamsV2<half> p;
    p.l1H = static_cast<uint16_t>(l1H);
    p.l1W = static_cast<uint16_t>(l1W);
    p.channelSize = KK;
    for (int i = 0; i < 4; ++i) p.padList[i] = static_cast<uint8_t>(pads >> (8 * i));
    p.padValue = static_cast<half>(padValue);
    p.mExtension = MM;
    p.kExtension = KK;
    LoadData<half, SET_BOTH>(a2, a1, p);
    LoadData(b2, b1, LoadData2DParams(0, NN * KK / 256, 1, 0, 0, false, 0));
    PipeBarrier<PIPE_ALL>();
    SetMMLayoutTransform(true);
    Mmad(c1, a2, b2, MmadParams(MM, NN, KK, 0, false, true));
    SetMMLayoutTransform(false);
    PipeBarrier<PIPE_ALL>();
    FixpipeParamsV220 fp(NN, MM, MM, NN, false);
    Fixpipe<float, float, CFG_ROW_MAJOR>(cGm, c1, fp);
}
