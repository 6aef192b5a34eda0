// Our own kernel in the style of the public Reg-base loss kernels (Ascend/DrivingSDK's arch35
// sigmoid_focal_loss_grad, COMPAT.md "Round 26 (s26a)"): a `__VEC_SCOPE__` loop over VL chunks of UB that loads
// with MicroAPI::DataCopy, forms p = 1 / (1 + exp(-x)) and 1 - p on registers and takes MicroAPI::Log of both
// (the CANN 9.0 Reg page Log), storing log(p) and log(1 - p), and p * (1 - p) + log(p) through MulAddDst.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t REG_LOG_N = 256;

extern "C" __global__ __aicore__ void reg_log_sigmoid(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4 * REG_LOG_N * sizeof(float));
    LocalTensor<float> in = buf.Get<float>();
    LocalTensor<float> out = in[REG_LOG_N];
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, REG_LOG_N);
    yGm.SetGlobalBuffer((__gm__ float *)y, 3 * REG_LOG_N);
    DataCopy(in, xGm, REG_LOG_N);
    PipeBarrier<PIPE_ALL>();
    __local_mem__ float *src = (__local_mem__ float *)in.GetPhyAddr();
    __local_mem__ float *dst = (__local_mem__ float *)out.GetPhyAddr();
    uint16_t step = GetVecLen() / sizeof(float);
    uint16_t repeats = REG_LOG_N / step;
    __VEC_SCOPE__ {
        MicroAPI::RegTensor<float> v, e, one, p, q, r;
        MicroAPI::MaskReg mask = MicroAPI::CreateMask<float, MicroAPI::MaskPattern::ALL>();
        for (uint16_t i = 0; i < repeats; i++) {
            MicroAPI::DataCopy(v, src + i * step);
            MicroAPI::Neg(e, v, mask);
            MicroAPI::Exp(e, e, mask);
            MicroAPI::Duplicate(one, 1.0f, mask);
            MicroAPI::Add(e, e, one, mask);
            MicroAPI::Div(p, one, e, mask);
            MicroAPI::Neg(q, p, mask);
            MicroAPI::Adds(q, q, 1.0f, mask);
            MicroAPI::Log(r, p, mask);
            MicroAPI::MulAddDst(r, p, q, mask);
            MicroAPI::Log(p, p, mask);
            MicroAPI::Log(q, q, mask);
            MicroAPI::DataCopy(dst + i * step, p, mask);
            MicroAPI::DataCopy(dst + REG_LOG_N + i * step, q, mask);
            MicroAPI::DataCopy(dst + 2 * REG_LOG_N + i * step, r, mask);
        }
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, out, 3 * REG_LOG_N);
}
