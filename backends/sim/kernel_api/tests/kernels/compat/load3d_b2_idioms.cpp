// Cube and kernel-type idioms of the mamba2 chunk kernels (kernel_api/COMPAT.md, round 17 study17b), written
// for pyasc in public Ascend C style:
//
// load3d_b2_gemm:  c[MM x NN] = a[MM x KK] @ b[KK x NN] (fp16 in, fp32 out).  Both operands go to L1 with
//                  Nd2Nz; A reaches L0A and B reaches L0B through Load3Dv2 (LoadData3DParamsV2, the 1 x 1 im2col:
//                  B1 -> B2 takes the K rows as positions and the N columns as channels).  K is cut in two: the
//                  first half of B by mStartPt, the second by a row offset into B1 (the idiom of a K-split
//                  GEMM helper), both accumulated by Mmad.
// basic_config_matmul: the same product through Matmul with a GetBasicConfig(MM, NN, KK) template config;
// ibshare_config_matmul: the same with GetIBShareNormConfig() (the IBShare template, round 28: DrivingSDK
//                  subm_sparse_conv3d_v3 builds its Matmul with it).
// batch_matmul:    BatchMatmul with NORMAL (BMNK) MatmulTypes: mode 0 SetBatchNum(BATCH, BATCH) + IterateBatch(gm, false,
//                  0, false) over packed matrices; mode 1 IterateBatch(gm, 1, BATCH, ...) reusing one A for every B.
// keyed_task_type: KERNEL_TASK_TYPE(1, MIX_AIC_1_1), KERNEL_TASK_TYPE(2, MIX_AIC_1_2) and a vector-only default:
//                  every core marks its own 64-byte line of out[] (16 int32 each: cores never share a cache line)
//                  so the test sees which cores the built tiling key started.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

namespace {
constexpr uint32_t MM = 32;
constexpr uint32_t KK = 64;
constexpr uint32_t NN = 48;
constexpr uint32_t KHALF = KK / 2;
constexpr uint32_t BATCH = 3;
constexpr MatmulConfig kBasicCfg = GetBasicConfig(MM, NN, KK);
constexpr MatmulConfig kIbShareCfg = GetIBShareNormConfig();
constexpr MatmulConfig kIbShareAllArgs =
    GetIBShareNormConfig(false, false, false, BatchMode::BATCH_LESS_THAN_L1, false, true);
static_assert(kIbShareCfg.doNorm && kIbShareAllArgs.doNorm, "IBShare is a Norm-template variant");
constexpr MatmulConfig kBatchCfg = GetNormalConfig(false, false, false, BatchMode::BATCH_LESS_THAN_L1, true,
                                                   IterateOrder::ORDER_M, ScheduleType::INNER_PRODUCT, true, false,
                                                   BatchOutMode::MULTI_BATCH);
template <typename T>
using NormalGm = MatmulType<TPosition::GM, CubeFormat::ND, T, false, LayoutMode::NORMAL>;
}  // namespace

extern "C" __global__ __aicore__ void load3d_b2_gemm(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer((__gm__ half *)a, MM * KK);
    bGm.SetGlobalBuffer((__gm__ half *)b, KK * NN);
    cGm.SetGlobalBuffer((__gm__ float *)c, MM * NN);
    LocalTensor<half> a1(TPosition::A1, 0, MM * KK);
    LocalTensor<half> b1(TPosition::B1, MM * KK * sizeof(half), KK * NN);
    LocalTensor<half> a2Part0(TPosition::A2, 0, MM * KHALF);
    LocalTensor<half> a2Part1(TPosition::A2, MM * KHALF * sizeof(half), MM * KHALF);
    LocalTensor<half> b2Part0(TPosition::B2, 0, KHALF * NN);
    LocalTensor<half> b2Part1(TPosition::B2, KHALF * NN * sizeof(half), KHALF * NN);
    LocalTensor<float> c1(TPosition::CO1, 0, MM * NN);

    // A: MM rows of KK -> A1 as KK / 16 column blocks of MM x 16; B: KK rows of NN -> B1 as NN / 16 blocks of KK x 16
    DataCopy(a1, aGm, Nd2NzParams(1, MM, KK, 0, KK, MM, 1, 0));
    DataCopy(b1, bGm, Nd2NzParams(1, KK, NN, 0, NN, KK, 1, 0));
    SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);

    LoadData3DParamsV2<half> pa{};
    pa.l1H = 1;
    pa.l1W = MM;
    pa.channelSize = KK;
    pa.kExtension = KHALF;
    pa.mExtension = MM;
    LoadData(a2Part0, a1, pa);
    pa.kStartPt = KHALF;
    LoadData(a2Part1, a1, pa);

    LoadData3DParamsV2<half> pb{};
    pb.l1H = 1;
    pb.l1W = KK;           // positions: the K rows of B
    pb.channelSize = NN;   // channels: the N columns of B
    pb.kExtension = NN;
    pb.mExtension = KHALF;
    LoadData(b2Part0, b1, pb);                 // rows 0 .. KHALF - 1
    LoadData(b2Part1, b1[KHALF * 16], pb);     // rows KHALF .. KK - 1: the row offset inside each 16-column block
    SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
    WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);

    Mmad(c1, a2Part0, b2Part0, MmadParams(MM, NN, KHALF, 0, false, true));
    Mmad(c1, a2Part1, b2Part1, MmadParams(MM, NN, KHALF, 0, false, false));
    SetFlag<HardEvent::M_FIX>(EVENT_ID0);
    WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
    FixpipeParamsV220 fp(NN, MM, MM, NN, false);
    Fixpipe<float, float, CFG_ROW_MAJOR>(cGm, c1, fp);
}

template <const MatmulConfig &CFG>
__aicore__ inline void config_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm) {
    TCubeTiling tiling;
    auto *src = reinterpret_cast<__gm__ uint32_t *>(tilingGm);
    auto *dst = reinterpret_cast<uint32_t *>(&tiling);
    for (size_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); ++i) {
        dst[i] = src[i];
    }
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer((__gm__ half *)a, MM * KK);
    bGm.SetGlobalBuffer((__gm__ half *)b, KK * NN);
    cGm.SetGlobalBuffer((__gm__ float *)c, MM * NN);
    matmul::MatmulImpl<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
                       MatmulType<TPosition::GM, CubeFormat::ND, float>, MatmulType<TPosition::GM, CubeFormat::ND, float>,
                       CFG>
        mm;
    mm.Init(&tiling);
    mm.SetTensorA(aGm, false);
    mm.SetTensorB(bGm, false);
    mm.IterateAll(cGm, false);
    mm.End();
}

extern "C" __global__ __aicore__ void basic_config_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    config_matmul<kBasicCfg>(a, b, c, tilingGm);
}

extern "C" __global__ __aicore__ void ibshare_config_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    config_matmul<kIbShareCfg>(a, b, c, tilingGm);
}

extern "C" __global__ __aicore__ void batch_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm, uint32_t mode) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    TCubeTiling tiling;
    auto *src = reinterpret_cast<__gm__ uint32_t *>(tilingGm);
    auto *dst = reinterpret_cast<uint32_t *>(&tiling);
    for (size_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); ++i) {
        dst[i] = src[i];
    }
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer((__gm__ half *)a, BATCH * MM * KK);
    bGm.SetGlobalBuffer((__gm__ half *)b, BATCH * KK * NN);
    cGm.SetGlobalBuffer((__gm__ float *)c, BATCH * MM * NN);
    matmul::MatmulImpl<NormalGm<half>, NormalGm<half>, NormalGm<float>, NormalGm<float>, kBatchCfg> mm;
    mm.Init(&tiling);
    mm.SetOrgShape(MM, NN, KK);
    mm.SetSingleShape(MM, NN, KK);
    mm.SetTensorA(aGm, false);
    mm.SetTensorB(bGm, false);
    if (mode == 0) {
        mm.SetBatchNum(BATCH, BATCH);
        mm.SetNBatchOutNum(BATCH);
        mm.IterateBatch(cGm, false, 0, false);
    } else {
        mm.IterateBatch(cGm, 1, BATCH, false, 0, KK * NN, MM * NN);
    }
    mm.End();
}

extern "C" __global__ __aicore__ void keyed_task_type(GM_ADDR out) {
    KERNEL_TASK_TYPE(1, KERNEL_TYPE_MIX_AIC_1_1);
    KERNEL_TASK_TYPE(2, KERNEL_TYPE_MIX_AIC_1_2);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GlobalTensor<int32_t> outGm;
    constexpr uint32_t kLine = 16;  // int32 per 64-byte line
    outGm.SetGlobalBuffer((__gm__ int32_t *)out, 16 * kLine);
    if ASCEND_IS_AIC {
        outGm.SetValue((8 + GetBlockIdx()) * kLine, 99);  // one AIC per AI Core of a mixed launch
    } else {
        outGm.SetValue(GetBlockIdx() * kLine, static_cast<int32_t>(10 * GetSubBlockNum() + GetSubBlockIdx() + 1));
    }
}
