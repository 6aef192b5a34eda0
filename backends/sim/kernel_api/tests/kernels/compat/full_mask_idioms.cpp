// The narrow-then-restore vector mask of the deformable-sampling kernels (tests/test_sim_compat_full_mask.py):
// the mask is narrowed to the first `embed` lanes of each 64-float repeat for a masked Add (isSetMask = false),
// then restored whole with SetVectorMask<float>(FULL_MASK, FULL_MASK) -- the SDK constant FULL_MASK
// (kernel_utils_constants.h) used unqualified after `using namespace AscendC`, as DrivingSDK's deformable_conv2d
// and multi_scale_deformable_attn do (COMPAT.md round 29).
//
// masked_rows(x, y, rows, embed): x and y hold rows x 64 floats, 1 <= embed <= 64.
//   y[r][i] = 4 * x[r][i] for i < embed (doubled under the narrowed mask, then doubled again under the whole mask),
//   y[r][i] = 2 * x[r][i] otherwise.
#include "kernel_operator.h"
using namespace AscendC;

static_assert(FULL_MASK == 0xffffffffffffffffULL, "FULL_MASK sets all 64 bits of one mask half");

extern "C" __global__ __aicore__ void masked_rows(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t embed)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), rows * 64);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), rows * 64);
    pipe.InitBuffer(buf, rows * 64 * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();

    DataCopy(t, xGm, rows * 64);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);

    const uint64_t embedMask = embed < 64 ? (1UL << embed) - 1 : FULL_MASK;
    SetVectorMask<float>(0, embedMask);
    Add<float, false>(t, t, t, MASK_PLACEHOLDER, rows, {1, 1, 1, 8, 8, 8});
    PipeBarrier<PIPE_V>();
    SetVectorMask<float>(FULL_MASK, FULL_MASK);
    Muls<float, false>(t, t, 2.0f, MASK_PLACEHOLDER, rows, {1, 1, 8, 8});
    ResetMask();

    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, t, rows * 64);
}
