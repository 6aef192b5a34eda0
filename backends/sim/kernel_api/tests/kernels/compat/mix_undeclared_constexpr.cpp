// The undeclared mixed kernel of mix_undeclared.cpp dispatching at compile time, as MindSpore Lite's ascend_native
// MixCore matmul does: `if constexpr (g_coreType == AIV)` is a constant only in a build for one core kind, so the
// NPU compiler's MixCore build (core="mix" here) compiles the kernel once per core kind; with no kernel type
// declared the type is inferred (cube + vector instructions: MIX AIC:AIV 1:2).  Our own kernel
// (tests/test_sim_compat_mix_inferred.py).
#include "mix_undeclared_parts.h"

extern "C" __global__ __aicore__ void mix_undeclared_constexpr(GM_ADDR x, GM_ADDR ws, GM_ADDR y, GM_ADDR out,
                                                               GM_ADDR info)
{
    if constexpr (g_coreType == AIV) {
        mix_parts::VectorPart op;
        op.Run(x, ws, y, out, info);
    } else {
        mix_parts::CubePart op;
        op.Run(ws, y);
    }
}
