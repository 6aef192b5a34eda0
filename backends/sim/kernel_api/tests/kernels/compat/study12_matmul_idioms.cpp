// Matmul idioms of retrieval kernels (round 12 study, backends/sim/kernel_api/COMPAT.md), written for
// pyasc in public Ascend C style: an int8 query matrix the kernel moves itself into a TSCM queue (L1,
// Nd2Nz) and hands to Matmul as a TSCM / NZ operand, an int8 x int8 -> half product dequantised by
// SetQuantScalar, the asynchronous IterateAll<false> + WaitIterateAll, two Matmul objects registered
// without tilings and Init-ed afterwards, IterateAll into a local (LCM) tensor with a SetTail shape,
// and the default BIAS_TYPE (= C_TYPE).  Checked against NumPy by tests/test_sim_compat_study12.py.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;

template <typename T>
__aicore__ inline void LoadTilingWords(T *dst, GM_ADDR tiling)
{
    auto *src = reinterpret_cast<__gm__ uint32_t *>(tiling);
    auto *out = reinterpret_cast<uint32_t *>(dst);
    for (size_t i = 0; i < sizeof(T) / sizeof(uint32_t); ++i) {
        out[i] = src[i];
    }
}

// c[M, N] (half) = dequant(a[M, K] (int8) @ b[N, K]^T (int8)) with one float scale; A through TSCM.
extern "C" __global__ __aicore__ void study12_tscm_dequant(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm,
                                                           float scale)
{
    TCubeTiling tiling;
    LoadTilingWords(&tiling, tilingGm);
    GlobalTensor<int8_t> aGm, bGm;
    GlobalTensor<half> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t *>(a), tiling.M * tiling.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t *>(b), tiling.N * tiling.Ka);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(c), tiling.M * tiling.N);

    TPipe pipe;
    TSCM<TPosition::GM, 1> aScm;
    pipe.InitBuffer(aScm, 1, tiling.M * tiling.Ka * sizeof(int8_t));
    Matmul<MatmulType<TPosition::TSCM, CubeFormat::NZ, int8_t>,
           MatmulType<TPosition::GM, CubeFormat::ND, int8_t, true>,
           MatmulType<TPosition::GM, CubeFormat::ND, half>> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm);
    mm.Init(&tiling);

    LocalTensor<int8_t> aLocal = aScm.AllocTensor<int8_t>();
    Nd2NzParams nd2nz{1, static_cast<uint16_t>(tiling.M), static_cast<uint16_t>(tiling.Ka), 0,
                      static_cast<uint16_t>(tiling.Ka), static_cast<uint16_t>(tiling.M), 1, 0};
    DataCopy(aLocal, aGm, nd2nz);
    aScm.EnQue(aLocal);
    aLocal = aScm.DeQue<int8_t>();

    const uint64_t quantScalar = static_cast<uint64_t>(*reinterpret_cast<int32_t *>(&scale));
    mm.SetTensorA(aLocal);
    mm.SetQuantScalar(quantScalar);
    mm.SetTensorB(bGm, true);
    mm.IterateAll<false>(cGm, 0, false, true);
    mm.WaitIterateAll();
    mm.End();
    aScm.FreeTensor(aLocal);
}

// sq[tailM, tailM] (int32, from an LCM queue, rows singleCoreN apart) = q[tailM, K] @ q[tailM, K]^T and
// ip[tailM, N] (int32, GM) = q @ base[N, K]^T: two objects registered without tilings.
extern "C" __global__ __aicore__ void study12_two_objects(GM_ADDR q, GM_ADDR base, GM_ADDR sq, GM_ADDR ip,
                                                          GM_ADDR tilingSqGm, GM_ADDR tilingIpGm, uint32_t tailM)
{
    TCubeTiling tilingSq, tilingIp;
    LoadTilingWords(&tilingSq, tilingSqGm);
    LoadTilingWords(&tilingIp, tilingIpGm);
    GlobalTensor<int8_t> qGm, baseGm;
    GlobalTensor<int32_t> sqGm, ipGm;
    qGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t *>(q), tilingIp.M * tilingIp.Ka);
    baseGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t *>(base), tilingIp.N * tilingIp.Ka);
    sqGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(sq), tilingSq.M * tilingSq.singleCoreN);
    ipGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(ip), tilingIp.M * tilingIp.N);

    using QueryA = MatmulType<TPosition::GM, CubeFormat::ND, int8_t>;
    using QueryB = MatmulType<TPosition::GM, CubeFormat::ND, int8_t, true>;
    Matmul<QueryA, QueryB, MatmulType<TPosition::LCM, CubeFormat::ND, int32_t>> mmSq;
    Matmul<QueryA, QueryB, MatmulType<TPosition::GM, CubeFormat::ND, int32_t>> mmIp;
    TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mmSq, mmIp);
    TQue<QuePosition::VECOUT, 1> sqQue;
    pipe.InitBuffer(sqQue, 1, tilingSq.singleCoreM * tilingSq.singleCoreN * sizeof(int32_t));
    mmSq.Init(&tilingSq);
    mmIp.Init(&tilingIp);

    LocalTensor<int32_t> sqLocal = sqQue.AllocTensor<int32_t>();
    mmSq.SetTail(tailM, tailM, tilingSq.Ka);
    mmSq.SetTensorA(qGm);
    mmSq.SetTensorB(qGm, true);
    mmSq.IterateAll(sqLocal);
    sqQue.EnQue(sqLocal);
    sqLocal = sqQue.DeQue<int32_t>();
    // only the tailM x tailM corner was written: copy those rows' first tailM words (whole 32-byte blocks)
    const uint16_t blocks = static_cast<uint16_t>(tailM * sizeof(int32_t) / 32);
    const uint16_t gap = static_cast<uint16_t>((tilingSq.singleCoreN - tailM) * sizeof(int32_t) / 32);
    DataCopy(sqGm, sqLocal, DataCopyParams{static_cast<uint16_t>(tailM), blocks, gap, gap});
    sqQue.FreeTensor(sqLocal);

    mmIp.SetTail(tailM, tilingIp.N, tilingIp.Ka);
    mmIp.SetTensorA(qGm);
    mmIp.SetTensorB(baseGm, true);
    mmIp.IterateAll<false>(ipGm, 0, false, true);
    mmIp.WaitIterateAll();
    mmSq.End();
    mmIp.End();
}

// A bias for an int8 x int8 -> half Matmul declared with the default BIAS_TYPE (half): the documented
// bias of that row is int32, so SetBias reports it.
extern "C" __global__ __aicore__ void study12_default_bias_set(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                               GM_ADDR tilingGm)
{
    TCubeTiling tiling;
    LoadTilingWords(&tiling, tilingGm);
    GlobalTensor<int8_t> aGm, bGm;
    GlobalTensor<half> biasGm, cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t *>(a), tiling.M * tiling.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t *>(b), tiling.N * tiling.Ka);
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(bias), tiling.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(c), tiling.M * tiling.N);
    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, int8_t>, MatmulType<TPosition::GM, CubeFormat::ND, int8_t, true>,
           MatmulType<TPosition::GM, CubeFormat::ND, half>> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm, true);
    mm.SetBias(biasGm);  // BAD(default-bias)
    mm.IterateAll(cGm);
    mm.End();
}

// Built with -DHAVE_WORKSPACE (or as an op project), the framework sets the system workspace from the
// kernel's `workspace` parameter before the kernel runs: GetSysWorkSpacePtr() without a SetSysWorkspace.
extern "C" __global__ __aicore__ void study12_sys_workspace(GM_ADDR out, GM_ADDR workspace)
{
    GM_ADDR sys = GetSysWorkSpacePtr();
    GM_ADDR user = GetUserWorkspace(sys);
    GlobalTensor<int32_t> outGm;
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(out), 8);
    outGm.SetValue(0, sys == workspace ? 1 : 0);
    outGm.SetValue(1, user == nullptr ? -1 : static_cast<int32_t>(user - workspace));
}
