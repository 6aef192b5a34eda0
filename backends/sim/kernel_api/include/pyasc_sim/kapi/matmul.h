// Ascend C on the CPU -- the Matmul high-level API (lib/matmul_intf.h in the SDK):
//     AscendC::Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<...B>,
//                     MatmulType<...C float>, MatmulType<...bias float>> mm;
//     REGIST_MATMUL_OBJ(&pipe, workspace, mm, &tiling);        // or mm.Init(&tiling, &pipe)
//     mm.SetTensorA(aGm[offsetA], isTransA); mm.SetTensorB(bGm[offsetB], isTransB); mm.SetBias(biasGm[n0]);
//     mm.SetTail(tailM, tailN);                               // optional: a smaller last tile
//     mm.IterateAll(cGm[offsetC]);                            // or: while (mm.Iterate()) mm.GetTensorC(cGm);
//     mm.End();
// TCubeTiling holds the documented fields in the documented order (int32 each); the Python helper
// pyasc_sim.tiling.matmul_tiling fills it.  One block computes its singleCoreM x singleCoreN x
// singleCoreK part (or the SetTail / SetSingleShape shape) directly from GM, accumulating in double
// and rounding once to C's type (the cube unit accumulates in float / int32 per baseK step);
// A / B in GM or local memory (SetTensorA/B(LocalTensor): TPosition::A1 / B1 / VECOUT), ND or NZ
// (CubeFormat::NZ: 16-row fractals of 32 bytes, as DataCopy's Nd2Nz lays them out); C ND or NZ (16 x 16
// fractals); bias ND in GM.  Reads and writes are checked like DataCopy's.
#ifndef PYASC_SIM_KAPI_MATMUL_H_
#define PYASC_SIM_KAPI_MATMUL_H_

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

#include "pyasc_sim/kapi/tensor.h"
#include "pyasc_sim/kapi/pipe.h"
#include "pyasc_sim/kapi/matmul_tiling.h"
#include "pyasc_sim/kapi/dtype_tables.h"
#include "pyasc_sim/kapi/xcore.h"
#include "pyasc_sim/kapi/order.h"   // order_scalar_waits: IterateAll<true> into a local C
#include "pyasc_sim/kapi/matmul_callback.h"  // MatmulCallBackFunc
#include "pyasc_sim/kapi/matmul_utils.h"  // Align / AlignDown (namespace AscendC, as the SDK's Matmul headers)

enum class CubeFormat : uint8_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };
enum class LayoutMode : uint8_t { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };
// GetNormalConfig's parameter types (GetNormalConfig page, atlasascendc_api_07_0621): BatchMatmul's batch-size
// relation to L1, the iteration order, the data-movement schedule, BatchMatmul's output mode.  They select
// hardware scheduling only: no value changes on the simulator.
enum class BatchMode : uint8_t { NONE = 0, BATCH_LESS_THAN_L1, BATCH_LARGE_THAN_L1, SINGLE_LARGE_THAN_L1 };
enum class IterateOrder : uint8_t { ORDER_M = 0, ORDER_N, UNDEF };
enum class ScheduleType : uint8_t { INNER_PRODUCT = 0, OUTER_PRODUCT };
enum class BatchOutMode : uint8_t { SINGLE_BATCH = 0, MULTI_BATCH };

namespace AscendC {

using ::BatchMode;
using ::BatchOutMode;
using ::CubeFormat;
using ::IterateOrder;
using ::LayoutMode;
using ::ScheduleType;

// SRCPOS (the logical position the matrix's data comes from, e.g. a GM matrix the vector core wrote from VECOUT;
// the Matmul usage page's MatmulType, newer releases) is accepted and changes no value on the simulator.
template <TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false, TPosition SRCPOS = TPosition::GM>
struct MatmulType {
    static constexpr TPosition pos = POSITION;
    static constexpr CubeFormat format = FORMAT;
    using T = TYPE;
    static constexpr bool isTrans = ISTRANS;
    static constexpr LayoutMode layout = LAYOUT;
    static constexpr bool ibShare = IBSHARE;
    static constexpr TPosition srcPos = SRCPOS;
};

// MatmulConfig presets: the hardware scheduling variants compute the same result here.  The leading members are
// the documented ones in the order of the MatmulConfig page's parameter table (atlasascendc_api_07_0616: doNorm,
// doBasicBlock, doMultiDataLoad, basicM / N / K, intrinsicsCheck, isNBatch, enVecND2NZ, doSpecialBasicBlock,
// doMTE2Preload, singleCoreM / N / K, stepM / N, baseMN, singleCoreMN, enUnitFlag), so a kernel may build one
// with a positional braced list as public kernels do (vllm-ascend's GM matmul probes spell the MDL template as
// 19 values); enableSetBias, a later documented member, follows.  The simulator reads none of them.
struct MatmulConfig {
    bool doNorm = true;
    bool doBasicBlock = false;
    bool doMultiDataLoad = false;
    uint32_t basicM = 0;
    uint32_t basicN = 0;
    uint32_t basicK = 0;
    bool intrinsicsCheck = false;
    bool isNBatch = false;
    bool enVecND2NZ = false;
    bool doSpecialBasicBlock = false;
    uint32_t doMTE2Preload = 0;
    uint32_t singleCoreM = 0;
    uint32_t singleCoreN = 0;
    uint32_t singleCoreK = 0;
    uint32_t stepM = 0;
    uint32_t stepN = 0;
    uint32_t baseMN = 0;
    uint32_t singleCoreMN = 0;
    bool enUnitFlag = true;
    bool enableSetBias = true;
};
namespace sim_detail {
// A config with the template switches the simulator's presets set (the other members keep their defaults).
constexpr MatmulConfig make_matmul_config(bool doNorm, bool doMultiDataLoad, bool intrinsicsCheck) {
    MatmulConfig c{};
    c.doNorm = doNorm;
    c.doMultiDataLoad = doMultiDataLoad;
    c.intrinsicsCheck = intrinsicsCheck;
    return c;
}
}  // namespace sim_detail
constexpr MatmulConfig CFG_NORM = sim_detail::make_matmul_config(true, false, false);
constexpr MatmulConfig CFG_MDL = sim_detail::make_matmul_config(false, true, false);
constexpr MatmulConfig CFG_IBSHARE_NORM = sim_detail::make_matmul_config(true, false, false);
// The documented prototype (CANN 8.0 .. 9.0 editions: the last two parameters were added in 8.1 / 8.5); the
// Norm template whatever the arguments (they tune scheduling only).
constexpr MatmulConfig GetNormalConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
                                       const bool isVecND2NZ = false,
                                       const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1,
                                       const bool isMsgReuse = true, const IterateOrder iterateOrder = IterateOrder::UNDEF,
                                       const ScheduleType scheduleType = ScheduleType::INNER_PRODUCT,
                                       const bool enUnitFlag = true, const bool enableMixDualMaster = false,
                                       const BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH) {
    (void)batchLoop, (void)isVecND2NZ, (void)bmmMode, (void)isMsgReuse, (void)iterateOrder, (void)scheduleType;
    (void)enUnitFlag, (void)enableMixDualMaster, (void)bmmOutMode;
    return sim_detail::make_matmul_config(true, false, intrinsicsLimit);
}
// Four bools (the simulator's earlier prototype): kept for sources written against it.
constexpr MatmulConfig GetNormalConfig(bool intrinsicsLimit, bool, bool, bool) {
    return sim_detail::make_matmul_config(true, false, intrinsicsLimit);
}
// The BasicBlock template (GetBasicConfig page, atlasascendc_api_07_0625; Atlas A2 / A3 / 350): baseM / baseN /
// baseK fixed at compile time instead of read from the tiling.  The base block only schedules the cube unit; the
// simulator computes the block's whole product, so it is the Norm template with the given intrinsicsCheck.
constexpr MatmulConfig GetBasicConfig(const uint32_t basicM, const uint32_t basicN, const uint32_t basicK,
                                      const bool intrinsicsLimit = false, const bool batchLoop = false,
                                      const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1) {
    (void)basicM, (void)basicN, (void)basicK, (void)batchLoop, (void)bmmMode;
    return sim_detail::make_matmul_config(true, false, intrinsicsLimit);
}
// The IBShare template (GetIBShareNormConfig page, atlasascendc_api_07_0624; Atlas A2 / A3 / 350): the Norm template
// with an A or B matrix shared in L1 by the two vector cores of a group. Sharing only saves L1 loads; the product
// is the Norm template's (DrivingSDK subm_sparse_conv3d_v3 builds its Matmul with it).
constexpr MatmulConfig GetIBShareNormConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
                                            const bool isVecND2NZ = false,
                                            const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1,
                                            const bool isDoubleCache = false, const bool enUnitFlag = true) {
    (void)batchLoop, (void)isVecND2NZ, (void)bmmMode, (void)isDoubleCache, (void)enUnitFlag;
    return sim_detail::make_matmul_config(CFG_IBSHARE_NORM.doNorm, CFG_IBSHARE_NORM.doMultiDataLoad, intrinsicsLimit);
}
constexpr MatmulConfig GetMDLConfig(bool intrinsicsLimit = false, bool = false, uint32_t = 0, bool = false,
                                    bool = false, bool = false, bool = true) {
    return sim_detail::make_matmul_config(false, true, intrinsicsLimit);
}

// The CopyB1 function of a MatmulCallBackFunc Matmul argument (nullptr for none / MM_CB = void).
template <class CB, class = void>
struct matmul_copy_b1 {
    static constexpr MatmulCopyB1Fn value = nullptr;
};
template <class CB>
struct matmul_copy_b1<CB, std::void_t<decltype(CB::kCopyB1)>> {
    static constexpr MatmulCopyB1Fn value = CB::kCopyB1;
};

// BIAS_TYPE left out: C_TYPE, marked so that the type table can tell it from a bias type given explicitly.
template <class C_TYPE>
struct MatmulDefaultBias : C_TYPE {};
template <class T>
struct is_matmul_default_bias : std::false_type {};
template <class C_TYPE>
struct is_matmul_default_bias<MatmulDefaultBias<C_TYPE>> : std::true_type {};

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = MatmulDefaultBias<C_TYPE>,
          const MatmulConfig &MM_CFG = CFG_NORM, class MM_CB = void>
class Matmul {
    using SrcT = typename A_TYPE::T;
    using SrcBT = typename B_TYPE::T;
    using DstT = typename C_TYPE::T;
    using BiasT = typename BIAS_TYPE::T;
    // the documented (A, B, Bias, C) rows, dtype_tables.h
    PYASC_SIM_MATMUL_CHECK(SrcT, SrcBT, BiasT, DstT, is_matmul_default_bias<BIAS_TYPE>::value);

public:
    void Init(const TCubeTiling *cubeTiling, TPipe *tpipe = nullptr,
              pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        (void)tpipe;
        if (cubeTiling == nullptr) {
            pyasc_sim::kapi::fail("matmul-tiling", loc, "Matmul::Init / REGIST_MATMUL_OBJ got a null TCubeTiling");
        }
        t_ = *cubeTiling;
        if (t_.M <= 0 || t_.N <= 0 || t_.Ka <= 0 || t_.singleCoreM <= 0 || t_.singleCoreN <= 0 ||
            t_.singleCoreK <= 0 || t_.baseM <= 0 || t_.baseN <= 0) {
            pyasc_sim::kapi::fail("matmul-tiling", loc,
                                  "Matmul tiling {M %d, N %d, Ka %d, singleCoreM %d, singleCoreN %d, singleCoreK %d, "
                                  "baseM %d, baseN %d}: every field must be > 0 (fill the TCubeTiling with the host "
                                  "tiling helper, pyasc_sim.tiling.matmul_tiling)",
                                  t_.M, t_.N, t_.Ka, t_.singleCoreM, t_.singleCoreN, t_.singleCoreK, t_.baseM, t_.baseN);
        }
        m_ = t_.singleCoreM;
        n_ = t_.singleCoreN;
        k_ = t_.singleCoreK;
        orgM_ = t_.M;
        orgN_ = t_.N;
        orgKa_ = t_.Ka;
        orgKb_ = t_.Kb > 0 ? t_.Kb : t_.Ka;
        hasBias_ = false;
        inited_ = true;
    }
    void SetOrgShape(int orgM, int orgN, int orgK) { SetOrgShape(orgM, orgN, orgK, orgK, orgN); }
    void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0) {
        (void)orgKc;
        orgM_ = orgM;
        orgN_ = orgN;
        orgKa_ = orgKa;
        orgKb_ = orgKb;
    }
    void SetSingleShape(int singleM, int singleN, int singleK) {
        m_ = singleM;
        n_ = singleN;
        k_ = singleK;
    }
    void SetTail(int tailM = -1, int tailN = -1, int tailK = -1) {
        if (tailM > 0) m_ = tailM;
        if (tailN > 0) n_ = tailN;
        if (tailK > 0) k_ = tailK;
    }
    void SetTensorA(const GlobalTensor<SrcT> &gm, bool isTransposeA = false) {
        a_ = gm;
        aLocal_ = false;
        transA_ = isTransposeA || A_TYPE::isTrans;
    }
    void SetTensorB(const GlobalTensor<SrcBT> &gm, bool isTransposeB = false) {
        b_ = gm;
        bLocal_ = false;
        transB_ = isTransposeB || B_TYPE::isTrans;
    }
    // A / B already in local memory (MatmulType position TPosition::A1 / B1 (L1) or VECOUT).
    void SetTensorA(const LocalTensor<SrcT> &local, bool isTransposeA = false) {
        aL_ = local;
        aLocal_ = true;
        transA_ = isTransposeA || A_TYPE::isTrans;
    }
    void SetTensorB(const LocalTensor<SrcBT> &local, bool isTransposeB = false) {
        bL_ = local;
        bLocal_ = true;
        transB_ = isTransposeB || B_TYPE::isTrans;
    }
    void SetBias(const GlobalTensor<BiasT> &biasGlobal, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        if (!PYASC_SIM_MATMUL_ROW_LISTED(SrcT, SrcBT, BiasT, DstT)) {
            pyasc_sim::kapi::fail("dtype-table", loc,
                                  "Matmul::SetBias: this Matmul's BIAS_TYPE (it defaults to C_TYPE) is not a documented "
                                  "bias type for its A / B / C types (see the Matmul table in pyasc_sim/kapi/"
                                  "dtype_tables.h); declare the MatmulType of the bias with a listed type");
        }
        bias_ = biasGlobal;
        hasBias_ = true;
    }
    // The dequantisation / quantisation scale applied as C leaves the cube unit (int8 / int4 inputs to a
    // half or int8 C, half / bf16 inputs to an int8 C): quantScalar's low 32 bits hold the float scale,
    // of which the documented encoding keeps the top 19 bits (scale & 0xFFFFE000); bits 37..45 hold a
    // signed 9-bit offset added before an int8 C is rounded and saturated.
    void SetQuantScalar(const uint64_t quantScalar) {
        uint32_t bits = static_cast<uint32_t>(quantScalar & 0xFFFFE000u);
        float scale;
        std::memcpy(&scale, &bits, sizeof(scale));
        quantScale_ = scale;
        int32_t off = static_cast<int32_t>((quantScalar >> 37) & 0x1FFu);
        quantOffset_ = off >= 256 ? off - 512 : off;
        hasQuant_ = true;
    }
    // IterateAll runs synchronously on the simulator; the asynchronous form's wait has nothing to wait for.
    void WaitIterateAll() {}
    void DisableBias() { hasBias_ = false; }
    void ClearBias() { hasBias_ = false; }
    template <typename... A>
    void SetLocalWorkspace(A &&...) {}
    template <typename... A>
    void SetWorkspace(A &&...) {}
    // The values MatmulCallBackFunc's copy callbacks receive as tilingPtr / dataPtr (a custom CopyB1 gets them
    // with each block, compute_copy_b1).
    void SetUserDefInfo(const uint64_t tilingPtr) { userDefInfo_ = tilingPtr; }
    void SetSelfDefineData(const uint64_t dataPtr) { selfDefineData_ = dataPtr; }
    void End() { iterating_ = false; }

    // The whole singleCore C tile into gm (row stride N of the original shape); enAtomic = 1 adds.
    template <bool sync = true>
    void IterateAll(const GlobalTensor<DstT> &gm, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                    bool waitIterateAll = false, bool fakeMsg = false,
                    pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        (void)enSequentialWrite;
        (void)waitIterateAll;
        (void)fakeMsg;
        require_init("IterateAll", loc);
        compute(0, 0, m_, n_, gm, nullptr, 0, enAtomic != 0, loc);
    }

    // BatchMatmul (IterateBatch page, atlasascendc_api_07_0642; SetBatchNum; SetNBatchOutNum): batchA / batchB
    // products of the single shape, matrix i of A / B / C starting matrixStrideA / B / C elements after matrix
    // i - 1 (0: the matrices are packed, M * K / K * N / M * N apart: the NORMAL (BMNK) layout); with batchA !=
    // batchB the smaller batch is reused (broadcast: matrix i % batch).  SetNBatchOutNum selects how the
    // hardware writes the batches out (BatchOutMode): no value changes here.  GM operands only; enAtomic = 1 adds
    // into C as IterateAll does; enPartialSum (accumulating in L0C across calls) is not simulated.
    void SetBatchNum(int32_t batchA, int32_t batchB) {
        batchA_ = batchA;
        batchB_ = batchB;
    }
    void SetNBatchOutNum(int32_t nBatchOutNum) { (void)nBatchOutNum; }
    void IterateBatch(const GlobalTensor<DstT> &gm, bool enPartialSum, uint8_t enAtomic, bool enSequentialWrite,
                      const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0,
                      const uint32_t matrixStrideC = 0, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        iterate_batch(gm, batchA_, batchB_, matrixStrideA, matrixStrideB, matrixStrideC, enPartialSum, enAtomic,
                      enSequentialWrite, loc);
    }
    template <bool sync = true, bool waitIterateBatch = false>
    void IterateBatch(const GlobalTensor<DstT> &gm, uint32_t batchA, uint32_t batchB, bool enSequentialWrite,
                      const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0,
                      const uint32_t matrixStrideC = 0, const bool enPartialSum = false, const uint8_t enAtomic = 0,
                      pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        iterate_batch(gm, static_cast<int32_t>(batchA), static_cast<int32_t>(batchB), matrixStrideA, matrixStrideB,
                      matrixStrideC, enPartialSum, enAtomic, enSequentialWrite, loc);
    }
    void WaitIterateBatch() {}

    // The whole singleCore C tile into a local tensor (VECIN / VECCALC / LCM), ND with row stride
    // singleCoreN (a SetTail shape fills the top-left part of it).
    // A C_TYPE of CubeFormat::NZ is written NZ (16 x 16 fractals over the tile's m rows, 16-aligned). With
    // sync (the default) it returns once the cube unit's result is in place: later instructions of every pipe
    // are ordered after it (the race detector sees no cube -> vector race on the result).
    template <bool sync = true>
    void IterateAll(const LocalTensor<DstT> &c, uint8_t enAtomic = 0,
                    pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        require_init("IterateAll", loc);
        if constexpr (C_TYPE::format == CubeFormat::NZ) {
            c.check(0, static_cast<int64_t>(align16(m_)) * align16(n_), "Matmul::IterateAll writes", loc);
            localNzRows_ = m_;
        } else {
            c.check(0, static_cast<int64_t>(m_ - 1) * t_.singleCoreN + n_, "Matmul::IterateAll writes", loc);
        }
        compute(0, 0, m_, n_, GlobalTensor<DstT>(), &c, t_.singleCoreN, enAtomic != 0, loc);
        localNzRows_ = 0;
        if constexpr (sync) pyasc_sim::kapi::order_scalar_waits(pyasc_sim::kapi::kPipeM, loc);
    }

    // One baseM x baseN tile per call, in iterateOrder (0: along M first, 1: along N first).
    template <bool sync = true>
    bool Iterate(bool enPartialSum = false, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        (void)enPartialSum;
        require_init("Iterate", loc);
        const int tm = (m_ + t_.baseM - 1) / t_.baseM, tn = (n_ + t_.baseN - 1) / t_.baseN;
        if (!iterating_) {
            iterating_ = true;
            step_ = 0;
        } else {
            ++step_;
        }
        if (step_ >= tm * tn) {
            iterating_ = false;
            return false;
        }
        if (t_.iterateOrder == 1) {
            curM_ = step_ / tn;
            curN_ = step_ % tn;
        } else {
            curM_ = step_ % tm;
            curN_ = step_ / tm;
        }
        return true;
    }
    // The current tile into gm at its place in the C tile (enSequentialWrite: contiguously at
    // step * baseM * baseN instead).
    template <bool sync = true>
    void GetTensorC(const GlobalTensor<DstT> &gm, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                    pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        const int m0 = curM_ * t_.baseM, n0 = curN_ * t_.baseN;
        const int mm = std::min(t_.baseM, m_ - m0), nn = std::min(t_.baseN, n_ - n0);
        if (enSequentialWrite) {
            compute(m0, n0, mm, nn, gm[static_cast<uint64_t>(step_) * t_.baseM * t_.baseN], nullptr, t_.baseN,
                    enAtomic != 0, loc);
        } else {
            compute(m0, n0, mm, nn, gm[static_cast<uint64_t>(m0) * orgN_ + n0], nullptr, 0, enAtomic != 0, loc);
        }
        if constexpr (sync) pyasc_sim::kapi::order_scalar_waits(pyasc_sim::kapi::kPipeM, loc);
    }
    // The current tile into a local tensor, baseM x baseN row-major.  Synchronous (the default, the reference's
    // GetTensorC page: "同步等待C矩阵分片获取完成") it returns once the tile is in place, so later instructions of every
    // pipe -- the vector op that consumes the tile -- are ordered after it, as for IterateAll<true>.
    template <bool sync = true>
    void GetTensorC(const LocalTensor<DstT> &c, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                    pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        (void)enSequentialWrite;
        const int m0 = curM_ * t_.baseM, n0 = curN_ * t_.baseN;
        const int mm = std::min(t_.baseM, m_ - m0), nn = std::min(t_.baseN, n_ - n0);
        c.check(0, static_cast<int64_t>(t_.baseM) * t_.baseN, "Matmul::GetTensorC writes", loc);
        compute(m0, n0, mm, nn, GlobalTensor<DstT>(), &c, t_.baseN, enAtomic != 0, loc);
        if constexpr (sync) pyasc_sim::kapi::order_scalar_waits(pyasc_sim::kapi::kPipeM, loc);
    }

private:
    void require_init(const char *api, const pyasc_sim::kapi::SrcLoc &loc) const {
        if (!inited_) {
            pyasc_sim::kapi::fail("matmul-tiling", loc,
                                  "Matmul::%s before Init: register the object with REGIST_MATMUL_OBJ(&pipe, "
                                  "workspace, obj, &tiling) or call obj.Init(&tiling, &pipe)", api);
        }
    }
    static int64_t align16(int64_t v) { return (v + 15) / 16 * 16; }
    // IterateAll / GetTensorC with enAtomic = 1 into GM: C leaves the cube unit converted to DstT and is added to GM
    // element by element atomically, as DataCopy does after SetAtomicAdd (kapi/xcore.h), so several cores may
    // accumulate into the same C; while the scope lives the block's writes are recorded as atomic (no
    // gm-write-overlap between cores adding into the same bytes).
    struct GmAtomicAdd {
        explicit GmAtomicAdd(bool on) : b_(pyasc_sim::kapi::blk()), op_(b_.atomic_op), type_(b_.atomic_type), on_(on) {
            if (on_) {
                b_.atomic_op = sim_detail::kAtomicAdd;
                b_.atomic_type = sim_detail::atomic_elem<DstT>();
            }
        }
        ~GmAtomicAdd() {
            if (on_) {
                b_.atomic_op = op_;
                b_.atomic_type = type_;
            }
        }
        GmAtomicAdd(const GmAtomicAdd &) = delete;
        GmAtomicAdd &operator=(const GmAtomicAdd &) = delete;
        pyasc_sim::kapi::BlockState &b_;
        int op_, type_;
        bool on_;
    };
    static void store_gm(DstT *c, DstT v, bool atomic) {
        if (atomic) {
            sim_detail::gm_store(c, &v, sizeof(DstT));
        } else {
            *c = v;
        }
    }
    // One C element as it leaves the cube unit: with SetQuantScalar, scaled in float (and, for an int8 C,
    // offset, rounded to nearest even and saturated), else converted as is.
    DstT out(double v) const {
        if (!hasQuant_) return static_cast<DstT>(v);
        const float scaled = static_cast<float>(v) * quantScale_;
        if constexpr (std::is_same<DstT, int8_t>::value) {
            const float r = std::nearbyint(scaled + static_cast<float>(quantOffset_));
            return static_cast<int8_t>(r > 127.0f ? 127.0f : (r < -128.0f ? -128.0f : r));
        } else {
            return static_cast<DstT>(scaled);
        }
    }
    // Element (r, c) of an NZ matrix with `rows` rows (rounded up to 16) and c0 columns per fractal:
    // column block c / c0 starts at (c / c0) * rows16 * c0 (the layout DataCopy's Nd2Nz writes).
    static int64_t nz_index(int64_t r, int64_t c, int64_t rows, int64_t c0) {
        return (c / c0) * align16(rows) * c0 + r * c0 + c % c0;
    }
    // Checks the whole of an operand held in local memory (L1 / UB) against its buffer (bounds only:
    // an NZ operand's padding rows need not have been written).
    template <typename E>
    static void check_local(const LocalTensor<E> &t, int64_t elems, const char *what, const pyasc_sim::kapi::SrcLoc &loc) {
        t.check_bounds(0, elems * static_cast<int64_t>(sizeof(E)), what, loc);
    }
    // C[m0:m0+mm, n0:n0+nn] of this core's tile; into gm (row stride ldc or orgN) or local.
    void iterate_batch(const GlobalTensor<DstT> &gm, int32_t batchA, int32_t batchB, uint32_t strideA,
                       uint32_t strideB, uint32_t strideC, bool enPartialSum, uint8_t enAtomic, bool enSequentialWrite,
                       const pyasc_sim::kapi::SrcLoc &loc) {
        (void)enSequentialWrite;
        require_init("IterateBatch", loc);
        if (aLocal_ || bLocal_ || enPartialSum) {
            pyasc_sim::kapi::fail("unsupported", loc,
                                  "Matmul::IterateBatch: the simulator provides GM A / B operands without enPartialSum "
                                  "(accumulation in L0C) only");
        }
        if (batchA <= 0 || batchB <= 0) {
            pyasc_sim::kapi::fail("matmul-tiling", loc,
                                  "Matmul::IterateBatch: batchA %d / batchB %d must be positive (SetBatchNum first)",
                                  batchA, batchB);
        }
        const int32_t batch = batchA > batchB ? batchA : batchB;
        const uint64_t sa = strideA ? strideA : static_cast<uint64_t>(m_) * k_;
        const uint64_t sb = strideB ? strideB : static_cast<uint64_t>(k_) * n_;
        const uint64_t sc = strideC ? strideC : static_cast<uint64_t>(m_) * n_;
        const GlobalTensor<SrcT> a0 = a_;
        const GlobalTensor<SrcBT> b0 = b_;
        for (int32_t i = 0; i < batch; ++i) {
            a_ = a0[(i % batchA) * sa];
            b_ = b0[(i % batchB) * sb];
            compute(0, 0, m_, n_, gm[i * sc], nullptr, 0, enAtomic != 0, loc);
        }
        a_ = a0;
        b_ = b0;
    }

    void compute(int m0, int n0, int mm, int nn, const GlobalTensor<DstT> &gm, const LocalTensor<DstT> *local, int ldc,
                 bool atomic, const pyasc_sim::kapi::SrcLoc &loc) {
        if constexpr (matmul_copy_b1<MM_CB>::value != nullptr) {
            if (!bLocal_) {
                compute_copy_b1(m0, n0, mm, nn, gm, local, ldc, atomic, loc);
                return;
            }
        }
        constexpr bool nzA = A_TYPE::format == CubeFormat::NZ, nzB = B_TYPE::format == CubeFormat::NZ;
        constexpr bool nzC = C_TYPE::format == CubeFormat::NZ;
        constexpr int64_t c0A = 32 / sizeof(SrcT), c0B = 32 / sizeof(SrcBT);
        if (nzA || nzB || nzC || aLocal_ || bLocal_) {
            compute_general(m0, n0, mm, nn, gm, local, ldc, atomic, loc, nzA, nzB, nzC, c0A, c0B);
            return;
        }
        const int K = k_;
        const int lda = transA_ ? orgM_ : orgKa_;  // A is M x Ka (or Ka x M transposed)
        const int ldb = transB_ ? orgKb_ : orgN_;  // B is Kb x N (or N x Kb transposed)
        const int ldC = ldc > 0 ? ldc : orgN_;
        // bounds: the rows (or columns) of A and B this tile reads
        if (transA_) {
            for (int k = 0; k < K; ++k) a_.check(static_cast<uint64_t>(k) * lda + m0, mm, false, "Matmul reads A", loc);
        } else {
            for (int i = 0; i < mm; ++i) a_.check(static_cast<uint64_t>(m0 + i) * lda, K, false, "Matmul reads A", loc);
        }
        if (transB_) {
            for (int j = 0; j < nn; ++j) b_.check(static_cast<uint64_t>(n0 + j) * ldb, K, false, "Matmul reads B", loc);
        } else {
            for (int k = 0; k < K; ++k) b_.check(static_cast<uint64_t>(k) * ldb + n0, nn, false, "Matmul reads B", loc);
        }
        if (hasBias_) bias_.check(n0, nn, false, "Matmul reads bias", loc);
        const SrcT *a = a_.GetPhyAddr();
        const SrcBT *b = b_.GetPhyAddr();
        std::vector<double> row(nn);
        for (int i = 0; i < mm; ++i) {
            for (int j = 0; j < nn; ++j) {
                double acc = hasBias_ ? pyasc_sim::kapi::to_double(bias_.GetPhyAddr()[n0 + j]) : 0.0;
                for (int k = 0; k < K; ++k) {
                    const SrcT av = transA_ ? a[static_cast<int64_t>(k) * lda + m0 + i] : a[static_cast<int64_t>(m0 + i) * lda + k];
                    const SrcBT bv = transB_ ? b[static_cast<int64_t>(n0 + j) * ldb + k] : b[static_cast<int64_t>(k) * ldb + n0 + j];
                    acc += pyasc_sim::kapi::to_double(av) * pyasc_sim::kapi::to_double(bv);
                }
                row[j] = acc;
            }
            if (local != nullptr) {
                DstT *c = local->ptr() + static_cast<int64_t>(i) * ldC;
                for (int j = 0; j < nn; ++j) c[j] = out(atomic ? row[j] + pyasc_sim::kapi::to_double(c[j]) : row[j]);
            } else {
                const GmAtomicAdd scope(atomic);
                gm.check(static_cast<uint64_t>(i) * ldC, nn, true, "Matmul writes C", loc);
                DstT *c = gm.GetPhyAddr() + static_cast<int64_t>(i) * ldC;
                for (int j = 0; j < nn; ++j) store_gm(c + j, out(row[j]), atomic);
            }
        }
        pyasc_sim::kapi::uses_cube_unit();
        pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeM,
                                16.0 + static_cast<double>(mm) * nn * K / 4096.0);
    }

    // The NZ / local-operand path: A (orgM x orgKa) and B (orgKb x orgN) read from GM or local memory
    // in ND or NZ; C written ND (row stride ldc / orgN) or NZ (16 x 16 fractals over orgM rows).
    void compute_general(int m0, int n0, int mm, int nn, const GlobalTensor<DstT> &gm, const LocalTensor<DstT> *local,
                         int ldc, bool atomic, const pyasc_sim::kapi::SrcLoc &loc, bool nzA, bool nzB, bool nzC,
                         int64_t c0A, int64_t c0B) {
        const int K = k_;
        const int64_t lda = transA_ ? orgM_ : orgKa_, ldb = transB_ ? orgKb_ : orgN_;
        const int64_t ldC = ldc > 0 ? ldc : orgN_;
        // A transposed NZ operand holds the transposed matrix in NZ: A^T (Ka x M) / B^T (N x Kb), fractals over
        // its rows (IndexSDK's ascendc_l2_norm passes one int8 TSCM tensor as A and as transposed B for x x^T).
        const int64_t aElems = nzA ? (transA_ ? align16(orgKa_) * ((orgM_ + c0A - 1) / c0A * c0A)
                                              : align16(orgM_) * ((orgKa_ + c0A - 1) / c0A * c0A))
                                   : static_cast<int64_t>(orgM_) * orgKa_;
        const int64_t bElems = nzB ? (transB_ ? align16(orgN_) * ((orgKb_ + c0B - 1) / c0B * c0B)
                                              : align16(orgKb_) * ((orgN_ + c0B - 1) / c0B * c0B))
                                   : static_cast<int64_t>(orgKb_) * orgN_;
        if (aLocal_) check_local(aL_, aElems, "Matmul reads A", loc);
        else a_.check(0, static_cast<uint64_t>(aElems), false, "Matmul reads A", loc);
        if (bLocal_) check_local(bL_, bElems, "Matmul reads B", loc);
        else b_.check(0, static_cast<uint64_t>(bElems), false, "Matmul reads B", loc);
        if (hasBias_) bias_.check(n0, nn, false, "Matmul reads bias", loc);
        const SrcT *a = aLocal_ ? aL_.ptr() : a_.GetPhyAddr();
        const SrcBT *b = bLocal_ ? bL_.ptr() : b_.GetPhyAddr();
        auto aAt = [&](int64_t i, int64_t k) -> double {
            const int64_t idx = nzA ? (transA_ ? nz_index(k, i, orgKa_, c0A) : nz_index(i, k, orgM_, c0A))
                                    : (transA_ ? k * lda + i : i * lda + k);
            return pyasc_sim::kapi::to_double(a[idx]);
        };
        auto bAt = [&](int64_t k, int64_t j) -> double {
            const int64_t idx = nzB ? (transB_ ? nz_index(j, k, orgN_, c0B) : nz_index(k, j, orgKb_, c0B))
                                    : (transB_ ? j * ldb + k : k * ldb + j);
            return pyasc_sim::kapi::to_double(b[idx]);
        };
        const GmAtomicAdd scope(atomic && local == nullptr);
        if (local == nullptr && nzC) {
            gm.check(0, static_cast<uint64_t>(nz_index(align16(orgM_) - 1, align16(orgN_) - 1, orgM_, 16) + 1), true,
                     "Matmul writes C", loc);
        }
        for (int i = 0; i < mm; ++i) {
            if (local == nullptr && !nzC) gm.check(static_cast<uint64_t>(i) * ldC, nn, true, "Matmul writes C", loc);
            for (int j = 0; j < nn; ++j) {
                double acc = hasBias_ ? pyasc_sim::kapi::to_double(bias_.GetPhyAddr()[n0 + j]) : 0.0;
                for (int k = 0; k < K; ++k) acc += aAt(m0 + i, k) * bAt(k, n0 + j);
                DstT *c = nullptr;
                if (local != nullptr) {
                    c = local->ptr() + (localNzRows_ > 0 ? nz_index(i, j, localNzRows_, 16)
                                                         : static_cast<int64_t>(i) * ldC + j);
                } else if (nzC) {
                    c = gm.GetPhyAddr() + nz_index(m0 + i, n0 + j, orgM_, 16);
                } else {
                    c = gm.GetPhyAddr() + static_cast<int64_t>(i) * ldC + j;
                }
                if (local != nullptr) {
                    *c = out(atomic ? acc + pyasc_sim::kapi::to_double(*c) : acc);
                } else {
                    store_gm(c, out(acc), atomic);
                }
            }
        }
        pyasc_sim::kapi::uses_cube_unit();
        pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeM, 16.0 + static_cast<double>(mm) * nn * K / 4096.0);
    }

    // Custom CopyB1 (MatmulCallBackFunc): B comes block by block from the callback instead of from B's GM.
    // For each baseK x baseN block (row r along K, col c along N of this tile; useK x useN, the last ones
    // shorter) the callback fills an L1 tensor (the top of this block's L1, position B1) with the block in NZ:
    // rows are B's rows as the tensor lies in GM (N for a transposed B, K otherwise), 16-row fractals of 32
    // bytes, the row count rounded up to 16; the product then reads B(k, j) from those blocks.  A is read from
    // its GM / local operand as in compute(); C is written ND (row stride ldc / orgN).
    void compute_copy_b1(int m0, int n0, int mm, int nn, const GlobalTensor<DstT> &gm, const LocalTensor<DstT> *local,
                         int ldc, bool atomic, const pyasc_sim::kapi::SrcLoc &loc) {
        constexpr MatmulCopyB1Fn copyB1 = matmul_copy_b1<MM_CB>::value;
        constexpr bool nzA = A_TYPE::format == CubeFormat::NZ;
        constexpr int64_t c0A = 32 / sizeof(SrcT), c0B = 32 / sizeof(SrcBT);
        if constexpr (C_TYPE::format == CubeFormat::NZ) {
            pyasc_sim::kapi::fail("unsupported", loc,
                                  "Matmul with a custom CopyB1 (MatmulCallBackFunc): the simulator writes C as ND only");
        }
        const int K = k_;
        const int baseK = t_.baseK > 0 ? t_.baseK : K, baseN = t_.baseN > 0 ? t_.baseN : nn;
        const int64_t ldC = ldc > 0 ? ldc : orgN_;
        // the largest block's NZ size, at the top of L1
        const int64_t maxRows = transB_ ? baseN : baseK, maxCols = transB_ ? baseK : baseN;
        const uint64_t tileBytes =
            static_cast<uint64_t>(align16(maxRows)) * ((maxCols + c0B - 1) / c0B * c0B) * sizeof(SrcBT);
        pyasc_sim::kapi::BlockState &bs = pyasc_sim::kapi::blk();
        const size_t l1 = bs.capacity[pyasc_sim::kapi::kL1];
        if (tileBytes + 32 > l1) {
            pyasc_sim::kapi::fail("local-out-of-bounds", loc,
                                  "Matmul custom CopyB1: a %d x %d block of B (%llu bytes in NZ) does not fit the "
                                  "%zu-byte L1",
                                  baseK, baseN, static_cast<unsigned long long>(tileBytes), l1);
        }
        const uint32_t addr = static_cast<uint32_t>((l1 - tileBytes) / 32 * 32);
        std::vector<double> bv(static_cast<size_t>(K) * nn);
        const __gm__ void *bGm = static_cast<const __gm__ void *>(b_.GetPhyAddr());
        for (int r = 0; r * baseK < K; ++r) {
            const int useK = std::min(baseK, K - r * baseK);
            for (int c = 0; c * baseN < nn; ++c) {
                const int useN = std::min(baseN, nn - c * baseN);
                const int64_t rows = transB_ ? useN : useK;
                const int64_t cols = transB_ ? useK : useN;
                const uint32_t bytes =
                    static_cast<uint32_t>(align16(rows) * ((cols + c0B - 1) / c0B * c0B) * sizeof(SrcBT));
                LocalTensor<int8_t> tile(TPosition::B1, addr, bytes, loc);
                copyB1(tile, bGm, r, (n0 / baseN) + c, useK, useN, userDefInfo_, selfDefineData_);
                const SrcBT *t = reinterpret_cast<const SrcBT *>(tile.ptr());
                for (int kk = 0; kk < useK; ++kk) {
                    for (int jj = 0; jj < useN; ++jj) {
                        const int64_t rr = transB_ ? jj : kk, cc = transB_ ? kk : jj;
                        const int64_t idx = (cc / c0B) * align16(rows) * c0B + rr * c0B + cc % c0B;
                        bv[static_cast<size_t>(r * baseK + kk) * nn + c * baseN + jj] = pyasc_sim::kapi::to_double(t[idx]);
                    }
                }
            }
        }
        const int64_t lda = transA_ ? orgM_ : orgKa_;
        const int64_t aElems = nzA ? align16(orgM_) * ((orgKa_ + c0A - 1) / c0A * c0A) : static_cast<int64_t>(orgM_) * orgKa_;
        if (aLocal_) check_local(aL_, aElems, "Matmul reads A", loc);
        else if (nzA) a_.check(0, static_cast<uint64_t>(aElems), false, "Matmul reads A", loc);
        else if (transA_) {
            for (int k = 0; k < K; ++k) a_.check(static_cast<uint64_t>(k) * lda + m0, mm, false, "Matmul reads A", loc);
        } else {
            for (int i = 0; i < mm; ++i) a_.check(static_cast<uint64_t>(m0 + i) * lda, K, false, "Matmul reads A", loc);
        }
        if (hasBias_) bias_.check(n0, nn, false, "Matmul reads bias", loc);
        const SrcT *a = aLocal_ ? aL_.ptr() : a_.GetPhyAddr();
        const GmAtomicAdd scope(atomic && local == nullptr);
        for (int i = 0; i < mm; ++i) {
            if (local == nullptr) gm.check(static_cast<uint64_t>(i) * ldC, nn, true, "Matmul writes C", loc);
            for (int j = 0; j < nn; ++j) {
                double acc = hasBias_ ? pyasc_sim::kapi::to_double(bias_.GetPhyAddr()[n0 + j]) : 0.0;
                for (int k = 0; k < K; ++k) {
                    const int64_t ai = m0 + i;
                    const int64_t aidx = nzA ? nz_index(ai, k, orgM_, c0A) : (transA_ ? k * lda + ai : ai * lda + k);
                    acc += pyasc_sim::kapi::to_double(a[aidx]) * bv[static_cast<size_t>(k) * nn + j];
                }
                if (local != nullptr) {
                    DstT *cp = local->ptr() + static_cast<int64_t>(i) * ldC + j;
                    *cp = out(atomic ? acc + pyasc_sim::kapi::to_double(*cp) : acc);
                } else {
                    store_gm(gm.GetPhyAddr() + static_cast<int64_t>(i) * ldC + j, out(acc), atomic);
                }
            }
        }
        pyasc_sim::kapi::uses_cube_unit();
        pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeM, 16.0 + static_cast<double>(mm) * nn * K / 4096.0);
    }

    TCubeTiling t_{};
    bool inited_ = false, hasBias_ = false, transA_ = false, transB_ = false, iterating_ = false;
    int m_ = 0, n_ = 0, k_ = 0, orgM_ = 0, orgN_ = 0, orgKa_ = 0, orgKb_ = 0;
    int32_t batchA_ = 0, batchB_ = 0;
    int localNzRows_ = 0;  // > 0 while IterateAll writes an NZ C_TYPE into a local tensor
    int step_ = 0, curM_ = 0, curN_ = 0;
    GlobalTensor<SrcT> a_;
    GlobalTensor<SrcBT> b_;
    LocalTensor<SrcT> aL_;
    LocalTensor<SrcBT> bL_;
    bool aLocal_ = false, bLocal_ = false;
    GlobalTensor<BiasT> bias_;
    bool hasQuant_ = false;
    uint64_t userDefInfo_ = 0;
    uint64_t selfDefineData_ = 0;
    float quantScale_ = 1.0f;
    int32_t quantOffset_ = 0;
};

namespace sim_detail {
inline void regist_matmul(TPipe *) {}
template <typename M, typename... Rest>
inline void regist_matmul(TPipe *pipe, M &obj, const TCubeTiling *tiling, Rest &&...rest) {
    obj.Init(tiling, pipe);
    regist_matmul(pipe, std::forward<Rest>(rest)...);
}
template <typename M>
inline void regist_matmul(TPipe *pipe, M &obj) {
    (void)pipe;
    (void)obj;  // registered without a tiling: Init(&tiling) must follow
}
// Several objects registered without tilings (REGIST_MATMUL_OBJ(&pipe, ws, mm1, mm2)): each Init follows.
template <typename M1, typename M2, typename... Rest,
          typename std::enable_if<!std::is_pointer<typename std::decay<M2>::type>::value, int>::type = 0>
inline void regist_matmul(TPipe *pipe, M1 &obj, M2 &next, Rest &&...rest) {
    (void)obj;
    regist_matmul(pipe, next, std::forward<Rest>(rest)...);
}
}  // namespace sim_detail

}  // namespace AscendC

// CANN's Matmul headers open namespace matmul with `using namespace AscendC;`: a kernel that says only
// `using namespace matmul;` (the MatmulCustom sample and kernels derived from it, e.g. IndexSDK's matmul_at_fp32)
// calls GetBlockIdx() / GetSysWorkSpacePtr() unqualified.
namespace matmul {
using AscendC::GetBasicConfig;
using AscendC::GetIBShareNormConfig;
using AscendC::GetNormalConfig;
using namespace AscendC;
using AscendC::Matmul;
using AscendC::MatmulCallBackFunc;
using AscendC::MatmulConfig;
using AscendC::MatmulType;
using AscendC::CFG_MDL;
using AscendC::CFG_NORM;
}  // namespace matmul

// REGIST_MATMUL_OBJ(&pipe, workspace, obj1, &tiling1[, obj2, &tiling2 ...]): Init each object.  In a mixed
// kernel (KERNEL_TYPE_MIX_AIC_1_2 / 1_1) the documented MIX mode drives the AIC by messages from the AIV ("AIC
// and AIV independent running mechanism" page: MIX mode "通过消息机制驱动AIC运行"): the AIC serves the AIV's
// Matmul calls and does not run the kernel code after REGIST_MATMUL_OBJ, which here returns from the enclosing
// function on the AIC (the simulator computes each Matmul call on the calling AIV).  ASCENDC_CUBE_ONLY keeps the
// AIC running (the Matmul runs on the AIC directly).
namespace AscendC {
namespace sim_detail {
inline bool matmul_aic_serves_messages() {
#ifdef ASCENDC_CUBE_ONLY
    return false;
#else
    const pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
    return b.mixed && b.core_kind == 1;  // the AIC of a mixed launch (kapi/mix.h, kCoreAIC)
#endif
}
}  // namespace sim_detail
}  // namespace AscendC
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...)                                                                     \
    do {                                                                                                             \
        (void)(workspace);                                                                                           \
        ::AscendC::sim_detail::regist_matmul(tpipe, __VA_ARGS__);                                                    \
    } while (0);                                                                                                     \
    if (::AscendC::sim_detail::matmul_aic_serves_messages()) return

#endif  // PYASC_SIM_KAPI_MATMUL_H_
