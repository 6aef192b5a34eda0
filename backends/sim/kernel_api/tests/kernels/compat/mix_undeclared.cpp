// A mixed cube/vector kernel that declares no kernel type, in the style of public kernels relying on the NPU
// compiler to infer it (sgl-kernel-npu tri_inv_cube, SimmerChan/RecSDK attention_fusion, MindSpore Lite's
// MixCore matmul): the source has cube code (GM -> L1 -> L0A / L0B, Mmad, Fixpipe) under `if ASCEND_IS_AIC` and
// vector code under `if ASCEND_IS_AIV`, and no KERNEL_TASK_TYPE_DEFAULT.  The compiler infers MIX AIC:AIV 1:2,
// so numBlocks counts groups of one AIC and two AIV; the vector code finds its group as
// GetBlockIdx() / GetTaskRation() and its half of the rows by GetSubBlockIdx().
// The halves are in mix_undeclared_parts.h.  Our own kernel (tests/test_sim_compat_mix_inferred.py); one kernel
// in the file, as the documented inference requires.
#include "mix_undeclared_parts.h"

extern "C" __global__ __aicore__ void mix_undeclared(GM_ADDR x, GM_ADDR ws, GM_ADDR y, GM_ADDR out, GM_ADDR info)
{
    if ASCEND_IS_AIV {
        mix_parts::VectorPart op;
        op.Run(x, ws, y, out, info);
    }
    if ASCEND_IS_AIC {
        mix_parts::CubePart op;
        op.Run(ws, y);
    }
}
