// Our own kernels in the style of public cube code that loads its B operand with
// LoadDataWithTranspose and stores with the full FixpipeParamsV220 constructor (kda-ascendc's
// k1_solve_* kernels, backends/sim/kernel_api/COMPAT.md "Round 17 (study17a)"):
//
//   band_matmul      C = A @ S for bf16 32 x 32 operands: A loaded whole by Nd2Nz and moved to L0A
//                    fractal by fractal, S loaded as two 16-row bands (Nd2Nz ndNum = 2) and moved to
//                    L0B by one LoadDataWithTranspose of four fractals; stored as bf16 (F322BF16)
//                    through the eleven-argument FixpipeParamsV220 constructor.
//   pick_nd_batch    LoadDataWithTranspose's startIndex / srcStride / dstGap picking fractals of four
//                    16 x 16 source tiles, two 16 x 16 products in L0C 1 KB apart, stored by ONE
//                    Fixpipe with ndNum = 2 (srcNdStride 1 fractal, dstNdStride a run-time argument).
//   float_band_matmul  C = A @ B for float A (16 x 16) and B (16 x 32), as Catlass's float Gemm
//                    (NPUKernelBench level3 Gemm) moves them: B by Nd2Nz into 16 x 8 zZ tiles, then ONE
//                    LoadDataWithTranspose of the 32-bit form (two 16 x 16 squares, dstFracGap 1) into
//                    L0B's nZ fractals; A by Nd2Nz (zN) and LoadData into L0A.
//   int8_band_matmul C = A @ B for int8_t A (64 x 64, column-major in GM) and B (64 x 96, row-major) into
//                    int32_t, as Catlass's int8 grouped matmul (NPUKernelBench level3
//                    GroupedMatmulSliceKPerTokenDequant) moves them: A by Nd2Nz into nZ tiles (32 M x 16 K)
//                    and the 8-bit LoadDataWithTranspose into L0A's zZ (dstFracGap = K / 32 - 1), B by
//                    Nd2Nz into zN tiles (16 K x 32 N) and the 8-bit form into L0B (srcStride K / 32
//                    squares, dstGap 1); Mmad, Fixpipe NoQuant.
//   transpose_load_misuse   mode 0: ndNum = 2 with dstNdStride = 0 (documented as not 0);
//                    mode 1: an 8-bit LoadDataWithTranspose whose second fractal (dstFracGap) lands past
//                    the end of its L0B tensor.
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BM = 32;        // band_matmul's square size
constexpr int32_t BMM = BM * BM;
constexpr int32_t BKF = BM / 16;  // 16-row bands

extern "C" __global__ __aicore__ void band_matmul(GM_ADDR pa, GM_ADDR ps, GM_ADDR py) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    TPipe pipe;
    TEventID e21 = pipe.AllocEventID<HardEvent::MTE2_MTE1>();
    TEventID e1m = pipe.AllocEventID<HardEvent::MTE1_M>();
    TEventID emf = pipe.AllocEventID<HardEvent::M_FIX>();
    TBuf<TPosition::B1> bufA, bufS;
    pipe.InitBuffer(bufA, BMM * 2);
    pipe.InitBuffer(bufS, BMM * 2);
    GlobalTensor<bfloat16_t> gA, gS, gY;
    gA.SetGlobalBuffer(reinterpret_cast<__gm__ bfloat16_t *>(pa), BMM);
    gS.SetGlobalBuffer(reinterpret_cast<__gm__ bfloat16_t *>(ps), BMM);
    gY.SetGlobalBuffer(reinterpret_cast<__gm__ bfloat16_t *>(py), BMM);
    LocalTensor<bfloat16_t> la = bufA.Get<bfloat16_t>();
    LocalTensor<bfloat16_t> ls = bufS.Get<bfloat16_t>();
    LocalTensor<bfloat16_t> a(TPosition::A2, 0, BMM);
    LocalTensor<bfloat16_t> b(TPosition::B2, 0, BMM);
    LocalTensor<float> c(TPosition::CO1, 0, BMM);

    DataCopy(la, gA, Nd2NzParams(1, BM, BM, 0, BM, BM, 1, 0));
    DataCopy(ls, gS, Nd2NzParams(BKF, 16, BM, 16 * BM, BM, 16, 1, BKF * 256));
    SetFlag<HardEvent::MTE2_MTE1>(e21);
    WaitFlag<HardEvent::MTE2_MTE1>(e21);
    for (int32_t kb = 0; kb < BKF; ++kb) {
        for (int32_t mb = 0; mb < BKF; ++mb) {
            LoadData(a[(mb * BKF + kb) * 256], la[(kb * BKF + mb) * 256], LoadData2DParams(0, 1, 1, 0, 0, false, 0));
        }
    }
    LoadDataWithTranspose(b, ls, LoadData2dTransposeParams(0, BKF * BKF, 1, 0, 0));
    SetFlag<HardEvent::MTE1_M>(e1m);
    WaitFlag<HardEvent::MTE1_M>(e1m);
    Mmad(c, a, b, MmadParams(BM, BM, BM, 0, false, true));
    SetFlag<HardEvent::M_FIX>(emf);
    WaitFlag<HardEvent::M_FIX>(emf);
    Fixpipe<bfloat16_t, float, CFG_ROW_MAJOR>(
        gY, c, FixpipeParamsV220(BM, BM, BM, BM, false, QuantMode_t::F322BF16, 0, 1, 0, 0, 0));
    PipeBarrier<PIPE_ALL>();
}

// pa: two 16 x 16 bf16 A tiles; ps: four 16 x 16 bf16 S tiles (tile t at ps + 256 t);
// py: float, at least 256 + dstNd elements.  mode 0 picks S1 and S3 (startIndex 1, srcStride 2,
// repeat 2), mode 1 picks S0 and S1 into L0B fractals 0 and 2 (dstGap 1): y = A0 @ Sx, then
// A1 @ Sy at py + dstNd.
extern "C" __global__ __aicore__ void pick_nd_batch(GM_ADDR pa, GM_ADDR ps, GM_ADDR py, int32_t dstNd, int32_t mode) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    TPipe pipe;
    TEventID e21 = pipe.AllocEventID<HardEvent::MTE2_MTE1>();
    TEventID e1m = pipe.AllocEventID<HardEvent::MTE1_M>();
    TEventID emf = pipe.AllocEventID<HardEvent::M_FIX>();
    TBuf<TPosition::B1> bufA, bufS;
    pipe.InitBuffer(bufA, 2 * 256 * 2);
    pipe.InitBuffer(bufS, 4 * 256 * 2);
    GlobalTensor<bfloat16_t> gA, gS;
    GlobalTensor<float> gY;
    gA.SetGlobalBuffer(reinterpret_cast<__gm__ bfloat16_t *>(pa), 2 * 256);
    gS.SetGlobalBuffer(reinterpret_cast<__gm__ bfloat16_t *>(ps), 4 * 256);
    gY.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(py), 256 + dstNd);
    LocalTensor<bfloat16_t> la = bufA.Get<bfloat16_t>();
    LocalTensor<bfloat16_t> ls = bufS.Get<bfloat16_t>();
    LocalTensor<bfloat16_t> a(TPosition::A2, 0, 2 * 256);
    LocalTensor<bfloat16_t> b(TPosition::B2, 0, 3 * 256);
    LocalTensor<float> c(TPosition::CO1, 0, 2 * 256);

    DataCopy(la, gA, Nd2NzParams(2, 16, 16, 256, 16, 16, 1, 256));
    DataCopy(ls, gS, Nd2NzParams(4, 16, 16, 256, 16, 16, 1, 256));
    SetFlag<HardEvent::MTE2_MTE1>(e21);
    WaitFlag<HardEvent::MTE2_MTE1>(e21);
    LoadData(a, la, LoadData2DParams(0, 2, 1, 0, 0, false, 0));
    int32_t second = 256;
    if (mode == 0) {
        LoadDataWithTranspose(b, ls, LoadData2dTransposeParams(1, 2, 2, 0, 0));
    } else {
        LoadDataWithTranspose(b, ls, LoadData2dTransposeParams(0, 2, 1, 1, 0));
        second = 512;
    }
    SetFlag<HardEvent::MTE1_M>(e1m);
    WaitFlag<HardEvent::MTE1_M>(e1m);
    Mmad(c, a, b, MmadParams(16, 16, 16, 0, false, true));
    Mmad(c[256], a[256], b[second], MmadParams(16, 16, 16, 0, false, true));
    SetFlag<HardEvent::M_FIX>(emf);
    WaitFlag<HardEvent::M_FIX>(emf);
    Fixpipe<float, float, CFG_ROW_MAJOR>(
        gY, c, FixpipeParamsV220(16, 16, 16, 16, false, QuantMode_t::NoQuant, 0, 2, 1,
                                 static_cast<uint16_t>(dstNd), 0));
    PipeBarrier<PIPE_ALL>();
}

extern "C" __global__ __aicore__ void float_band_matmul(GM_ADDR pa, GM_ADDR pb, GM_ADDR py) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    constexpr int32_t M = 16, K = 16, N = 32;
    TPipe pipe;
    TEventID e21 = pipe.AllocEventID<HardEvent::MTE2_MTE1>();
    TEventID e1m = pipe.AllocEventID<HardEvent::MTE1_M>();
    TEventID emf = pipe.AllocEventID<HardEvent::M_FIX>();
    TBuf<TPosition::A1> bufA;
    TBuf<TPosition::B1> bufB;
    pipe.InitBuffer(bufA, M * K * 4);
    pipe.InitBuffer(bufB, K * N * 4);
    GlobalTensor<float> gA, gB, gY;
    gA.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(pa), M * K);
    gB.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(pb), K * N);
    gY.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(py), M * N);
    LocalTensor<float> la = bufA.Get<float>();
    LocalTensor<float> lb = bufB.Get<float>();
    LocalTensor<float> a(TPosition::A2, 0, M * K);
    LocalTensor<float> b(TPosition::B2, 0, K * N);
    LocalTensor<float> c(TPosition::CO1, 0, M * N);

    // A: zN, two 16 x 8 column fractals; B: zZ, the 16-row band as four 16 x 8 fractals side by side
    DataCopy(la, gA, Nd2NzParams(1, M, K, 0, K, M, 1, 0));
    DataCopy(lb, gB, Nd2NzParams(1, 16, N, 16 * N, N, 16, 1, N * 16));
    SetFlag<HardEvent::MTE2_MTE1>(e21);
    WaitFlag<HardEvent::MTE2_MTE1>(e21);
    LoadData(a, la, LoadData2DParams(0, K / 8, 1, 0, 0, false, 0));
    // N / 16 squares; each square's second fractal (K rows 8..15) lands N / 16 fractals after its first
    LoadDataWithTranspose(b, lb, LoadData2dTransposeParams(0, N / 16, 1, 0, N / 16 - 1));
    SetFlag<HardEvent::MTE1_M>(e1m);
    WaitFlag<HardEvent::MTE1_M>(e1m);
    Mmad(c, a, b, MmadParams(M, N, K, 0, false, true));
    SetFlag<HardEvent::M_FIX>(emf);
    WaitFlag<HardEvent::M_FIX>(emf);
    Fixpipe<float, float, CFG_ROW_MAJOR>(
        gY, c, FixpipeParamsV220(N, M, M, N, false, QuantMode_t::NoQuant, 0, 1, 0, 0, 0));
    PipeBarrier<PIPE_ALL>();
}

extern "C" __global__ __aicore__ void int8_band_matmul(GM_ADDR pa, GM_ADDR pb, GM_ADDR py) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    constexpr int32_t M = 64, K = 64, N = 96;
    TPipe pipe;
    TEventID e21 = pipe.AllocEventID<HardEvent::MTE2_MTE1>();
    TEventID e1m = pipe.AllocEventID<HardEvent::MTE1_M>();
    TEventID emf = pipe.AllocEventID<HardEvent::M_FIX>();
    TBuf<TPosition::A1> bufA;
    TBuf<TPosition::B1> bufB;
    pipe.InitBuffer(bufA, M * K);
    pipe.InitBuffer(bufB, K * N);
    GlobalTensor<int8_t> gA, gB;
    GlobalTensor<int32_t> gY;
    gA.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t *>(pa), M * K);
    gB.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t *>(pb), K * N);
    gY.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(py), M * N);
    LocalTensor<int8_t> la = bufA.Get<int8_t>();
    LocalTensor<int8_t> lb = bufB.Get<int8_t>();
    LocalTensor<int8_t> a(TPosition::A2, 0, M * K);
    LocalTensor<int8_t> b(TPosition::B2, 0, K * N);
    LocalTensor<int32_t> c(TPosition::CO1, 0, M * N);

    // A (column-major: K lines of M) -> nZ: 32-byte lines of one K column, 16 lines a fractal, a 32-row M
    // band's fractals K / 16 apart; B (row-major) -> zN: 16 K rows x 32 N a fractal, an N band K / 16 fractals
    DataCopy(la, gA, Nd2NzParams(1, K, M, 0, M, K, 1, 0));
    DataCopy(lb, gB, Nd2NzParams(1, K, N, 0, N, K, 1, 0));
    SetFlag<HardEvent::MTE2_MTE1>(e21);
    WaitFlag<HardEvent::MTE2_MTE1>(e21);
    for (int32_t i = 0; i < M / 32; ++i) {  // one 32-row band of M: its two 16-row halves K / 32 fractals apart
        LoadDataWithTranspose(a[i * 32 * K], la[i * 32 * K], LoadData2dTransposeParams(0, K / 32, 1, 0, K / 32 - 1));
    }
    for (int32_t i = 0; i < K / 32; ++i) {  // one 32-row band of K: N / 32 squares, K / 32 squares apart in L1
        LoadDataWithTranspose(b[i * 32 * N], lb[i * 32 * 32], LoadData2dTransposeParams(0, N / 32, K / 32, 1, 0));
    }
    SetFlag<HardEvent::MTE1_M>(e1m);
    WaitFlag<HardEvent::MTE1_M>(e1m);
    Mmad(c, a, b, MmadParams(M, N, K, 0, false, true));
    SetFlag<HardEvent::M_FIX>(emf);
    WaitFlag<HardEvent::M_FIX>(emf);
    Fixpipe<int32_t, int32_t, CFG_ROW_MAJOR>(
        gY, c, FixpipeParamsV220(N, M, M, N, false, QuantMode_t::NoQuant, 0, 1, 0, 0, 0));
    PipeBarrier<PIPE_ALL>();
}

extern "C" __global__ __aicore__ void transpose_load_misuse(GM_ADDR py, int32_t mode) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    TPipe pipe;
    TBuf<TPosition::B1> bufS;
    pipe.InitBuffer(bufS, 1024);
    GlobalTensor<float> gY;
    gY.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(py), 512);
    LocalTensor<float> c(TPosition::CO1, 0, 512);
    if (mode == 0) {
        Fixpipe<float, float, CFG_ROW_MAJOR>(
            gY, c, FixpipeParamsV220(16, 16, 16, 16, false, QuantMode_t::NoQuant, 0, 2, 1, 0, 0));
    } else {
        LocalTensor<int8_t> ls = bufS.Get<int8_t>();
        LocalTensor<int8_t> b(TPosition::B2, 0, 1024);
        LoadDataWithTranspose(b, ls, LoadData2dTransposeParams(0, 1, 1, 0, 1));
    }
    PipeBarrier<PIPE_ALL>();
}
