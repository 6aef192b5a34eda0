// C++ the clang-based NPU compiler accepts: a kernel named like a C library function, unqualified
// calls with explicit template arguments found by argument-dependent lookup (no using-directive),
// four-field braced DataCopyExtParams for DataCopyPad, GetTPipePtr() from the global namespace.
// hypot(x, y, z, n): z[i] = sqrt(x[i]^2 + y[i]^2); the sum of z goes to z[n] (ReduceSum).
#include "kernel_operator.h"

namespace idioms {

class KernelHypot {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n)
    {
        this->n = n;
        xGm.SetGlobalBuffer((__gm__ float *)x, n);
        yGm.SetGlobalBuffer((__gm__ float *)y, n);
        zGm.SetGlobalBuffer((__gm__ float *)z, n + 8);
        AscendC::TPipe *pipe = GetTPipePtr();
        pipe->InitBuffer(inQ, 2, 2048 * sizeof(float));
        pipe->InitBuffer(outQ, 1, 2048 * sizeof(float));
        pipe->InitBuffer(tmp, 2048 * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        const uint32_t bytes = n * sizeof(float);
        AscendC::LocalTensor<float> xl = inQ.AllocTensor<float>();
        AscendC::LocalTensor<float> yl = inQ.AllocTensor<float>();
        DataCopyPad(xl, xGm, {1, bytes, 0, 0, 0}, {false, 0, 0, 0});
        DataCopyPad(yl, yGm, {1, bytes, 0, 0, 0}, {false, 0, 0, 0});
        inQ.EnQue(xl);
        inQ.EnQue(yl);
        xl = inQ.DeQue<float>();
        yl = inQ.DeQue<float>();
        AscendC::LocalTensor<float> zl = outQ.AllocTensor<float>();
        Mul<float>(xl, xl, xl, n);
        Mul<float>(yl, yl, yl, n);
        Add<float>(zl, xl, yl, n);
        Sqrt<float>(zl, zl, n);
        AscendC::LocalTensor<float> work = tmp.Get<float>();
        ReduceSum<float>(xl, zl, work, n);  // sum into xl[0]
        AscendC::SetFlag<AscendC::HardEvent::V_S>(0);  // the sum is written before the scalar unit reads it
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(0);
        zl.SetValue(n, xl.GetValue(0));
        AscendC::SetFlag<AscendC::HardEvent::S_MTE3>(0);  // the store of zl waits for the scalar write
        AscendC::WaitFlag<AscendC::HardEvent::S_MTE3>(0);
        outQ.EnQue(zl);
        inQ.FreeTensor(xl);
        inQ.FreeTensor(yl);
        zl = outQ.DeQue<float>();
        DataCopyPad(zGm, zl, {1, bytes + static_cast<uint32_t>(sizeof(float)), 0, 0});
        outQ.FreeTensor(zl);
    }

private:
    AscendC::TQue<AscendC::QuePosition::VECIN, 2> inQ;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQ;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> tmp;
    AscendC::GlobalTensor<float> xGm, yGm, zGm;
    uint32_t n = 0;
};

}  // namespace idioms

#ifdef PYASC_COMPAT_WITH_KERNEL  // defined by the test through extra_flags
extern "C" __global__ __aicore__ void hypot(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n)
{
    AscendC::TPipe pipe;
    idioms::KernelHypot op;
    op.Init(x, y, z, n);
    op.Process();
}
#endif
