// Member function templates specialized inside their class, as the clang-based NPU compiler accepts (CWG 727)
// and Catlass-style kernels write them (NPUKernelBench's level3 GMM answers: `template <int32_t CORE_TYPE =
// g_coreType> void operator()(Params const &)` declared, then `template <> void operator()<AscendC::AIC>(...)`
// defined in the class body), and member class templates specialized there too (Catlass's LayoutHelper<void>).
// The f32 kernel takes the default template argument, the f16 one names it. Written for pyasc; the simulator's build rewrites each in-class specialization
// into a constrained overload (pyasc_sim.member_specialization). Vector only: the AIC specialization exists
// and is never taken by a vector block.
#include "kernel_operator.h"

#define DEVICE __forceinline__ [aicore]

namespace {

constexpr uint32_t TILE = 256;

template <class T>
class ScaleKernel {
public:
    struct Params {
        GM_ADDR x;
        GM_ADDR y;
        uint32_t n;
    };

    DEVICE ScaleKernel() {}

    // the factor's value by element type: a member class template, specialized in the class (Catlass's
    // `template <class T> struct LayoutHelper {...}; template <> struct LayoutHelper<void> {...};`)
    template <class U>
    struct FactorOf {
        static constexpr float value = 0.0f;
    };

    template <>
    struct FactorOf<float> {
        static constexpr float value = 3.0f;
    };

    template <>
    struct FactorOf<half> : FactorOf<void> {
        static constexpr float value = 0.5f;
    };

    // the factor by element type: a type-parameter member template, specialized in the class
    template <class U>
    DEVICE U Factor() const;

    template <>
    DEVICE float Factor<float>() const { return FactorOf<float>::value; }

    template <>
    DEVICE half Factor<half>() const { return half(FactorOf<half>::value); }

    // dispatch by core type (Catlass defaults it to g_coreType, a constant in a build for one core kind such as
    // core="cube"; this vector kernel runs in the simulator's default build, where g_coreType is read at run time)
    template <int32_t CORE_TYPE = AscendC::AIV>
    DEVICE void operator()(Params const &params);

    template <>
    DEVICE void operator()<AscendC::AIC>(Params const &params) {}

    template <>
    DEVICE void operator()<AscendC::AIV>(Params const &params)
    {
        AscendC::GlobalTensor<T> xGm;
        AscendC::GlobalTensor<T> yGm;
        xGm.SetGlobalBuffer((__gm__ T *)params.x, params.n);
        yGm.SetGlobalBuffer((__gm__ T *)params.y, params.n);
        AscendC::TPipe pipe;
        AscendC::TQue<AscendC::TPosition::VECIN, 1> inQ;
        AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQ;
        pipe.InitBuffer(inQ, 1, TILE * sizeof(T));
        pipe.InitBuffer(outQ, 1, TILE * sizeof(T));
        for (uint32_t off = 0; off < params.n; off += TILE) {
            AscendC::LocalTensor<T> in = inQ.AllocTensor<T>();
            AscendC::DataCopy(in, xGm[off], TILE);
            inQ.EnQue(in);
            in = inQ.DeQue<T>();
            AscendC::LocalTensor<T> out = outQ.AllocTensor<T>();
            AscendC::Muls(out, in, Factor<T>(), TILE);
            inQ.FreeTensor(in);
            outQ.EnQue(out);
            out = outQ.DeQue<T>();
            AscendC::DataCopy(yGm[off], out, TILE);
            outQ.FreeTensor(out);
        }
    }
};

}  // namespace

extern "C" __global__ __aicore__ void member_spec_scale_f32(GM_ADDR x, GM_ADDR y)
{
    ScaleKernel<float> kernel;
    ScaleKernel<float>::Params params{x, y, 4 * TILE};
    kernel(params);
}

extern "C" __global__ __aicore__ void member_spec_scale_f16(GM_ADDR x, GM_ADDR y)
{
    ScaleKernel<half> kernel;
    ScaleKernel<half>::Params params{x, y, 2 * TILE};
    kernel.operator()<AscendC::AIV>(params);
}
