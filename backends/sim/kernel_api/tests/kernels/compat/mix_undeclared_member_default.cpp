// The undeclared mixed kernel of mix_undeclared.cpp dispatching through a member function template whose
// parameter defaults to g_coreType, with in-class specializations for AIC and AIV -- the Catlass kernels'
// idiom (NPUKernelBench level3 Gemm: `template <int32_t CORE_TYPE = g_coreType> void operator()(Params &)`).
// A default template argument is a constant expression, so as with `if constexpr (g_coreType == ...)` the
// NPU compiler's MixCore build (core="mix" here) compiles the kernel once per core kind; with no kernel type
// declared the type is inferred (cube + vector instructions: MIX AIC:AIV 1:2).  Our own kernel
// (tests/test_sim_compat_mix_inferred.py).
#include "mix_undeclared_parts.h"

struct MixDispatch {
    template <int32_t CORE_TYPE = g_coreType>
    __aicore__ inline void operator()(GM_ADDR x, GM_ADDR ws, GM_ADDR y, GM_ADDR out, GM_ADDR info) {}

    template <>
    __aicore__ inline void operator()<AIC>(GM_ADDR x, GM_ADDR ws, GM_ADDR y, GM_ADDR out, GM_ADDR info)
    {
        mix_parts::CubePart op;
        op.Run(ws, y);
    }

    template <>
    __aicore__ inline void operator()<AIV>(GM_ADDR x, GM_ADDR ws, GM_ADDR y, GM_ADDR out, GM_ADDR info)
    {
        mix_parts::VectorPart op;
        op.Run(x, ws, y, out, info);
    }
};

extern "C" __global__ __aicore__ void mix_undeclared_member_default(GM_ADDR x, GM_ADDR ws, GM_ADDR y, GM_ADDR out,
                                                                    GM_ADDR info)
{
    MixDispatch dispatch;
    dispatch(x, ws, y, out, info);
}
