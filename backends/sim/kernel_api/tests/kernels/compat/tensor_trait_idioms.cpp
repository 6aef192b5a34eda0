// TensorTrait idioms (reference pages TensorTrait简介, MakeTensorTrait, Layout简介, LocalTensor构造函数),
// in the style of the public code and written for pyasc: tensors typed LocalTensor<TensorTrait<T, pos,
// Layout>> / GlobalTensor<TensorTrait<T>> (no ShapeInfo), built at a fixed address with the
// TensorTrait-only static constructor LocalTensor<Trait>(uint32_t addr) or handed out by a TQue with
// AllocTensor<TensorTrait<T>>(), and passed to the APIs all-TensorTrait.
//
// trait_axpb:   per block of 256 floats, y = x * alpha + beta; static tensors from
//               MakeTensorTrait<float, VECIN / VECOUT>(MakeLayout(MakeShape(UIntImm<256>), ...)).
// trait_queue:  per block of n halves, z = exp(x) + y through TQue<VECIN/VECOUT> with TensorTrait
//               tensors, then Cast to float on a TBuf.
// trait_at:     a static 64-float VECCALC tensor at `addr` (the sanitizer checks addr's 32-byte
//               alignment and the end of the UB), filled and copied out; also writes its layout's
//               shape and stride (read back with Std::get) to `meta`.
#include "kernel_operator.h"
#include "kernel_operator_tensor_trait.h"

using namespace AscendC;

namespace {
template <uint32_t v>
using UIntImm = Std::integral_constant<uint32_t, v>;
constexpr uint32_t TILE = 256;
using VecLayout = Layout<Shape<UIntImm<64>>, Stride<UIntImm<1>>>;
using CalcTrait = TensorTrait<float, TPosition::VECCALC, VecLayout>;
}  // namespace

extern "C" __global__ __aicore__ void trait_axpb(GM_ADDR x, GM_ADDR y, float alpha, float beta) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GlobalTensor<TensorTrait<float>> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * TILE, TILE);
    yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * TILE, TILE);
    auto layout = MakeLayout(MakeShape(UIntImm<TILE>{}), MakeStride(UIntImm<1>{}));
    auto inTrait = MakeTensorTrait<float, TPosition::VECIN>(layout);
    auto outTrait = MakeTensorTrait<float, TPosition::VECOUT>(layout);
    LocalTensor<decltype(inTrait)> in(0);
    LocalTensor<decltype(outTrait)> out(TILE * sizeof(float));
    in.SetTensorTrait(inTrait);
    const uint32_t n = Std::get<0>(in.GetShape());  // 256, from the layout
    DataCopy(in, xGm, n);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Muls(out, in, alpha, n);
    PipeBarrier<PIPE_V>();
    Adds(out, out, beta, n);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, out, n);
}

extern "C" __global__ __aicore__ void trait_queue(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> qx, qy;
    TQue<QuePosition::VECOUT, 1> qz;
    TBuf<TPosition::VECCALC> wide;
    pipe.InitBuffer(qx, 1, n * sizeof(half));
    pipe.InitBuffer(qy, 1, n * sizeof(half));
    pipe.InitBuffer(qz, 1, n * sizeof(float));
    pipe.InitBuffer(wide, n * sizeof(half));
    GlobalTensor<TensorTrait<half>> xGm, yGm;
    GlobalTensor<TensorTrait<float>> zGm;
    xGm.SetGlobalBuffer((__gm__ half *)x + GetBlockIdx() * n, n);
    yGm.SetGlobalBuffer((__gm__ half *)y + GetBlockIdx() * n, n);
    zGm.SetGlobalBuffer((__gm__ float *)z + GetBlockIdx() * n, n);

    LocalTensor<TensorTrait<half>> xl = qx.AllocTensor<TensorTrait<half>>();
    LocalTensor<TensorTrait<half>> yl = qy.AllocTensor<TensorTrait<half>>();
    DataCopy(xl, xGm, n);
    DataCopy(yl, yGm, n);
    qx.EnQue(xl);
    qy.EnQue(yl);
    xl = qx.DeQue<TensorTrait<half>>();
    yl = qy.DeQue<TensorTrait<half>>();
    LocalTensor<TensorTrait<half>> e = wide.Get<TensorTrait<half>>();
    Exp(e, xl, n);
    PipeBarrier<PIPE_V>();
    Add(e, e, yl, n);
    PipeBarrier<PIPE_V>();
    LocalTensor<TensorTrait<float>> zl = qz.AllocTensor<TensorTrait<float>>();
    Cast(zl, e, RoundMode::CAST_NONE, n);
    qz.EnQue(zl);
    qx.FreeTensor(xl);
    qy.FreeTensor(yl);
    zl = qz.DeQue<TensorTrait<float>>();
    DataCopy(zGm, zl, n);
    qz.FreeTensor(zl);
}

extern "C" __global__ __aicore__ void trait_at(GM_ADDR y, GM_ADDR meta, uint32_t addr) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GlobalTensor<TensorTrait<float>> yGm;
    yGm.SetGlobalBuffer((__gm__ float *)y, 64);
    GlobalTensor<int32_t> metaGm;
    metaGm.SetGlobalBuffer((__gm__ int32_t *)meta, 2);
    LocalTensor<CalcTrait> t(addr);
    Duplicate(t, 3.0f, 64);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID1);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID1);
    DataCopy(yGm, t, 64);
    const CalcTrait trait = t.GetTensorTrait();
    metaGm.SetValue(0, static_cast<int32_t>(Std::get<0>(trait.GetLayout().GetShape())));
    metaGm.SetValue(1, static_cast<int32_t>(Std::get<0>(t.GetStride())) + (is_tensorTrait<CalcTrait>::value ? 100 : 0) +
                           (is_tensorTrait<float>::value ? 1000 : 0));
}
