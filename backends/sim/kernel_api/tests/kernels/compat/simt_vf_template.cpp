#include "kernel_operator.h"
// A VF function template started from a member of a class template, as public Ascend 950 retrieval kernels do
// (`Simt::VF_CALL<SimtSearchCompute<16>>(...)` inside `template <typename T> class Op`): each SIMT thread sums a
// per-subspace lookup table (LUT) in UB over the bytes of one code in GM. g++ 12 instantiates a function template
// named only as a template argument inside a template solely when a call names it (GCC PR c++/53164); the
// simulator's VF_CALL makes sure it does (tests/test_sim_simt_vf_template.py).
using namespace AscendC;

#if __CCE_AICORE__ == 310
namespace kernels {
constexpr uint32_t THREADS = 256;

template <int Sub>
__simt_vf__ __aicore__ LAUNCH_BOUND(THREADS) inline void LutSumVf(__ubuf__ float *lut, __gm__ const uint8_t *codes,
                                                                 __gm__ float *out, uint32_t n)
{
    for (uint32_t i = Simt::GetThreadIdx<0>(); i < n; i += Simt::GetThreadNum<0>()) {
        float sum = 0;
        for (int m = 0; m < Sub; ++m) {
            sum += lut[m * 256 + codes[i * Sub + m]];
        }
        out[i] = sum;
    }
    Simt::ThreadBarrier();
}

// The VF template's argument does not depend on the class's own parameter (as in the public kernel): that is
// the case g++ 12 drops.
template <typename T>
class LutSum {
public:
    __aicore__ inline void Init(GM_ADDR lut, GM_ADDR codes, GM_ADDR out, uint32_t n, uint32_t sub)
    {
        Sub = sub;
        lutGm.SetGlobalBuffer((__gm__ T *)lut, Sub * 256);
        codes_ = (__gm__ const uint8_t *)codes;
        out_ = (__gm__ float *)out;
        n_ = n;
        pipe.InitBuffer(lutQue, 1, Sub * 256 * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<T> lut = lutQue.AllocTensor<T>();
        DataCopy(lut, lutGm, Sub * 256);
        lutQue.EnQue(lut);
        lut = lutQue.DeQue<T>();
        if (Sub == 16) {
            Simt::VF_CALL<LutSumVf<16>>(Simt::Dim3{THREADS, 1, 1}, (__ubuf__ float *)lut.GetPhyAddr(), codes_, out_,
                                        n_);
        } else {
            Simt::VF_CALL<LutSumVf<4>>(Simt::Dim3{THREADS, 1, 1}, (__ubuf__ float *)lut.GetPhyAddr(), codes_, out_,
                                       n_);
        }
        lutQue.FreeTensor(lut);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> lutQue;
    GlobalTensor<T> lutGm;
    __gm__ const uint8_t *codes_;
    __gm__ float *out_;
    uint32_t n_;
    uint32_t Sub;
};
}  // namespace kernels

extern "C" __global__ __aicore__ void simt_lut_sum16(GM_ADDR lut, GM_ADDR codes, GM_ADDR out, uint32_t n)
{
    kernels::LutSum<float> op;
    op.Init(lut, codes, out, n, 16);
    op.Process();
}
extern "C" __global__ __aicore__ void simt_lut_sum4(GM_ADDR lut, GM_ADDR codes, GM_ADDR out, uint32_t n)
{
    kernels::LutSum<float> op;
    op.Init(lut, codes, out, n, 4);
    op.Process();
}
#endif
