#include "kernel_operator.h"
// Idioms of sgl-kernel-npu's block_sparse_attention kernel (round 15, backends/sim/kernel_api/COMPAT.md), written
// for pyasc in the style of public code:
// - AscendC::IsSameType<T, U>::value / AscendC::Conditional<cond, A, B>::type picking a compute type;
// - a Matmul config from GetNormalConfig(false, false, false, BatchMode::BATCH_LESS_THAN_L1, false) held in a
//   static constexpr member, as the kernel's GetMatmulConfig<MatMulType> does;
// - the free Align(x, a) / Align<uint32_t>(x, a) of the Matmul headers;
// - SelectWithBytesMask in both forms (tensor / scalar and scalar / tensor) with a bool mask wider than the rows;
// - InitOutput<T>(gm[offset], count, value) and InitOutput(gm[offset], count) over a block's slice of an output.
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

namespace {
enum class PickMode { LOW, HIGH };

template <typename T, PickMode M>
struct ComputeTypeOf {
    using type = typename AscendC::Conditional<M == PickMode::HIGH, float, T>::type;
};

struct NormCfgHolder {
    static constexpr MatmulConfig cfg = GetNormalConfig(false, false, false, BatchMode::BATCH_LESS_THAN_L1, false);
};
}  // namespace

// out[0..3]: sizeof of the picked compute types and IsSameType answers; out[4..7]: Align / AlignDown results.
extern "C" __global__ __aicore__ void study15_type_utils(GM_ADDR out, uint32_t x, uint32_t a)
{
    GlobalTensor<int32_t> outGm;
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(out), 8);
    using Low = ComputeTypeOf<half, PickMode::LOW>::type;
    using High = ComputeTypeOf<half, PickMode::HIGH>::type;
    outGm.SetValue(0, static_cast<int32_t>(sizeof(Low)));
    outGm.SetValue(1, static_cast<int32_t>(sizeof(High)));
    outGm.SetValue(2, IsSameType<High, float>::value ? 1 : 0);
    outGm.SetValue(3, AscendC::IsSameType<Low, float>::value ? 1 : 0);
    outGm.SetValue(4, static_cast<int32_t>(Align(x, a)));
    outGm.SetValue(5, static_cast<int32_t>(Align<uint32_t>(x, sizeof(float) * 16)));
    outGm.SetValue(6, static_cast<int32_t>(AlignDown(x, a)));
    outGm.SetValue(7, NormCfgHolder::cfg.doNorm ? 1 : 0);
}

// y0 = mask ? scalar : x  (tensor / scalar form), y1 = mask ? x : scalar (scalar / tensor form); x is
// [rows, cols] float, mask is [rows, maskCols] bool with maskCols >= cols.
extern "C" __global__ __aicore__ void study15_select_bytes_mask(GM_ADDR x, GM_ADDR mask, GM_ADDR y0, GM_ADDR y1,
                                                                uint32_t rows, uint32_t cols, uint32_t maskCols)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> xQ, mQ;
    TQue<TPosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> tmpBuf;
    const uint32_t n = rows * cols;
    pipe.InitBuffer(xQ, 1, n * sizeof(float));
    pipe.InitBuffer(mQ, 1, rows * maskCols);
    pipe.InitBuffer(outQ, 2, n * sizeof(float));
    pipe.InitBuffer(tmpBuf, 4096);
    GlobalTensor<float> xGm, y0Gm, y1Gm;
    GlobalTensor<bool> mGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), n);
    mGm.SetGlobalBuffer(reinterpret_cast<__gm__ bool *>(mask), rows * maskCols);
    y0Gm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y0), n);
    y1Gm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y1), n);

    LocalTensor<float> xl = xQ.AllocTensor<float>();
    LocalTensor<bool> ml = mQ.AllocTensor<bool>();
    DataCopy(xl, xGm, n);
    DataCopy(ml, mGm, rows * maskCols);
    xQ.EnQue(xl);
    mQ.EnQue(ml);
    xl = xQ.DeQue<float>();
    ml = mQ.DeQue<bool>();

    SelectWithBytesMaskShapeInfo info;
    info.firstAxis = rows;
    info.srcLastAxis = cols;
    info.maskLastAxis = maskCols;
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    LocalTensor<float> a = outQ.AllocTensor<float>();
    SelectWithBytesMask(a, xl, -3.0f, ml, tmp, info);
    outQ.EnQue(a);
    a = outQ.DeQue<float>();
    DataCopy(y0Gm, a, n);
    outQ.FreeTensor(a);
    LocalTensor<float> b = outQ.AllocTensor<float>();
    SelectWithBytesMask(b, -3.0f, xl, ml, tmp, info);
    outQ.EnQue(b);
    b = outQ.DeQue<float>();
    DataCopy(y1Gm, b, n);
    outQ.FreeTensor(b);
    xQ.FreeTensor(xl);
    mQ.FreeTensor(ml);
}

// A mask row narrower than the source row: the page's constraint, refused.
extern "C" __global__ __aicore__ void study15_select_bytes_mask_narrow(GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, mb, tb;
    pipe.InitBuffer(xb, 64 * sizeof(float));
    pipe.InitBuffer(mb, 64);
    pipe.InitBuffer(tb, 1024);
    LocalTensor<float> xl = xb.Get<float>();
    LocalTensor<uint8_t> ml = mb.Get<uint8_t>();
    Duplicate(xl, 1.0f, 64);
    Duplicate(ml.ReinterpretCast<uint16_t>(), static_cast<uint16_t>(0), 32);
    PipeBarrier<PIPE_V>();
    SelectWithBytesMaskShapeInfo info;
    info.firstAxis = 2;
    info.srcLastAxis = 32;
    info.maskLastAxis = 16;
    SelectWithBytesMask(xl, xl, 0.0f, ml, tb.Get<uint8_t>(), info);
    (void)y;
}

// Each block fills its slice of out (perBlock elements, the last block the tail) with `value`, then zeroes the
// first `zeroed` elements of that slice with the two-argument form.
extern "C" __global__ __aicore__ void study15_init_output(GM_ADDR out, uint32_t total, uint32_t perBlock,
                                                          uint32_t zeroed)
{
    GlobalTensor<half> outGm;
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(out), total);
    const uint32_t idx = GetBlockIdx();
    const int32_t tail = static_cast<int32_t>(total) - static_cast<int32_t>(idx * perBlock);
    if (tail <= 0) {
        return;
    }
    const uint32_t count = tail < static_cast<int32_t>(perBlock) ? static_cast<uint32_t>(tail) : perBlock;
    InitOutput<half>(outGm[idx * static_cast<int64_t>(perBlock)], count, static_cast<half>(2.5f));
    InitOutput(outGm[idx * static_cast<int64_t>(perBlock)], zeroed < count ? zeroed : count);
}

// Writing past the end of a sized GlobalTensor is refused.
extern "C" __global__ __aicore__ void study15_init_output_past_end(GM_ADDR out)
{
    GlobalTensor<float> outGm;
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(out), 16);
    InitOutput<float>(outGm, 32, 1.0f);
}

// ---- A Matmul whose B comes from a custom CopyB1 (MatmulCallBackFunc<nullptr, nullptr, fn>), as the kernel's
// sparse key / value gather: C[m, n] = A[m, k] . K'[n, k]^T where row p of K' is row
// (blocks[p / blockSize] * blockSize + p % blockSize) of key (key is [rows, k] ND, B transposed).  The block list
// sits in GM after an 8-word header {blockSize, baseN, baseK, k}; its address goes in with SetSelfDefineData.
namespace {
__aicore__ inline void GatherKeyBlocks(const LocalTensor<int8_t> &bMatrix, const __gm__ void *gm, int row, int col,
                                       int useK, int useN, const uint64_t tilingPtr, const uint64_t dataPtr)
{
    (void)tilingPtr;
    GlobalTensor<uint32_t> info;
    info.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t *>(dataPtr));
    const uint32_t blockSize = info.GetValue(0);
    const uint32_t baseN = info.GetValue(1);
    const uint32_t baseK = info.GetValue(2);
    const uint32_t kTotal = info.GetValue(3);
    GlobalTensor<half> key;
    key.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(const_cast<__gm__ void *>(gm)));
    LocalTensor<half> dst = bMatrix.ReinterpretCast<half>();
    uint32_t done = 0;
    const uint32_t first = static_cast<uint32_t>(col) * baseN;
    while (done < static_cast<uint32_t>(useN)) {
        const uint32_t pos = first + done;
        const uint32_t blk = info.GetValue(8 + pos / blockSize);
        const uint32_t off = pos % blockSize;
        uint32_t cnt = blockSize - off;
        if (cnt > static_cast<uint32_t>(useN) - done) {
            cnt = static_cast<uint32_t>(useN) - done;
        }
        Nd2NzParams p;
        p.ndNum = 1;
        p.nValue = cnt;
        p.dValue = useK;
        p.srcNdMatrixStride = 0;
        p.srcDValue = kTotal;
        p.dstNzC0Stride = (useN + 15) / 16 * 16;
        p.dstNzNStride = 1;
        p.dstNzMatrixStride = 1;
        DataCopy(dst[done * 16], key[(static_cast<uint64_t>(blk) * blockSize + off) * kTotal + row * baseK], p);
        done += cnt;
    }
}
}  // namespace

extern "C" __global__ __aicore__ void study15_matmul_copy_b1(GM_ADDR a, GM_ADDR key, GM_ADDR blocks, GM_ADDR c,
                                                             GM_ADDR tilingGm)
{
    TCubeTiling tiling;
    auto *words = reinterpret_cast<__gm__ uint32_t *>(tilingGm);
    for (size_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); ++i) {
        reinterpret_cast<uint32_t *>(&tiling)[i] = words[i];
    }
    GlobalTensor<half> aGm, keyGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a), tiling.M * tiling.Ka);
    keyGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(key));
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), tiling.M * tiling.N);
    TPipe pipe;
    matmul::Matmul<matmul::MatmulType<TPosition::GM, CubeFormat::ND, half>,
                   matmul::MatmulType<TPosition::GM, CubeFormat::ND, half, true>,
                   matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>,
                   matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>, NormCfgHolder::cfg,
                   matmul::MatmulCallBackFunc<nullptr, nullptr, GatherKeyBlocks>> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    mm.SetUserDefInfo(reinterpret_cast<uint64_t>(tilingGm));
    mm.SetSelfDefineData(reinterpret_cast<uint64_t>(blocks));
    mm.SetTensorA(aGm);
    mm.SetTensorB(keyGm, true);
    mm.IterateAll(cGm);
    mm.End();
}

// ---- A mixed kernel (MIX_AIC_1_2) with REGIST_MATMUL_OBJ first, as block_sparse_attention: in the documented MIX
// mode the AIC serves the AIV's Matmul calls and does not run the code after REGIST_MATMUL_OBJ; each AIV marks
// its slot (a 64-byte cache line each) and sub-block 0 runs the Matmul.  Slot 2 would be the AIC's.
extern "C" __global__ __aicore__ void study15_mix_regist(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm,
                                                         GM_ADDR flags)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    TCubeTiling tiling;
    auto *words = reinterpret_cast<__gm__ uint32_t *>(tilingGm);
    for (size_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); ++i) {
        reinterpret_cast<uint32_t *>(&tiling)[i] = words[i];
    }
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    GlobalTensor<int32_t> flagGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a), tiling.M * tiling.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b), tiling.Kb * tiling.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), tiling.M * tiling.N);
    flagGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(flags), 48);
    TPipe pipe;
    matmul::Matmul<matmul::MatmulType<TPosition::GM, CubeFormat::ND, half>,
                   matmul::MatmulType<TPosition::GM, CubeFormat::ND, half>,
                   matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    if ASCEND_IS_AIC {
        flagGm.SetValue(32, 1);  // not reached: the AIC left at REGIST_MATMUL_OBJ
        return;
    }
    flagGm.SetValue(GetSubBlockIdx() * 16, 1 + static_cast<int32_t>(GetSubBlockIdx()));
    if (GetSubBlockIdx() == 0) {
        mm.SetTensorA(aGm);
        mm.SetTensorB(bGm);
        mm.IterateAll(cGm);
        mm.End();
    }
}
