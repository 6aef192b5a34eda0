// Idioms of the round 11 (study11a) public kernel (kernel_api/COMPAT.md), written for pyasc in the style
// of the public kernel studied, a PReLU-like activation: a per-segment scalar read back with GetValue from
// a one-element DataCopyPad into a 32-byte depth-1 VECIN queue, float arithmetic on offset views (Maxs /
// Mins / Muls / Add), half / bf16 computed in float through Cast CAST_NONE and written back with CAST_ROUND
// (round half away from zero), queue tensors reinterpreted as float for the float type.
#include "kernel_operator.h"

namespace {

template <typename T>
class SegmentSlope {
public:
    // Each block owns n elements of x / y; slope holds one value per segment of seg elements.
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR slope, GM_ADDR y, int64_t n, int64_t seg)
    {
        n_ = n;
        seg_ = seg;
        base_ = static_cast<int64_t>(AscendC::GetBlockIdx()) * n;
        xg_.SetGlobalBuffer((__gm__ T *)x + base_, n);
        yg_.SetGlobalBuffer((__gm__ T *)y + base_, n);
        sg_.SetGlobalBuffer((__gm__ T *)slope);
        pipe_.InitBuffer(inQ_, 1, n * sizeof(T));
        pipe_.InitBuffer(outQ_, 1, n * sizeof(T));
        pipe_.InitBuffer(scalarQ_, 1, 32);
        pipe_.InitBuffer(wide_, n * sizeof(float));
        pipe_.InitBuffer(pos_, n * sizeof(float));
        pipe_.InitBuffer(neg_, n * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<T> xl = inQ_.AllocTensor<T>();
        AscendC::DataCopyExtParams whole{1, static_cast<uint32_t>(n_ * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPad(xl, xg_, whole, AscendC::DataCopyPadExtParams<T>{false, 0, 0, static_cast<T>(0)});
        inQ_.EnQue(xl);
        xl = inQ_.DeQue<T>();
        AscendC::LocalTensor<T> yl = outQ_.AllocTensor<T>();
        if constexpr (sizeof(T) == sizeof(float)) {
            Segments(yl.template ReinterpretCast<float>(), xl.template ReinterpretCast<float>());
        } else {
            AscendC::LocalTensor<float> w = wide_.Get<float>();
            AscendC::Cast(w, xl, AscendC::RoundMode::CAST_NONE, n_);
            Segments(w, w);
            AscendC::Cast(yl, w, AscendC::RoundMode::CAST_ROUND, n_);
        }
        outQ_.EnQue(yl);
        inQ_.FreeTensor(xl);
        yl = outQ_.DeQue<T>();
        AscendC::DataCopyPad(yg_, yl, whole);
        outQ_.FreeTensor(yl);
    }

private:
    __aicore__ inline float Slope(int64_t idx)
    {
        AscendC::LocalTensor<T> s = scalarQ_.AllocTensor<T>();
        AscendC::DataCopyPad(s, sg_[idx], AscendC::DataCopyExtParams{1, static_cast<uint32_t>(sizeof(T)), 0, 0, 0},
                             AscendC::DataCopyPadExtParams<T>{false, 0, 0, static_cast<T>(0)});
        scalarQ_.EnQue(s);
        s = scalarQ_.DeQue<T>();
        // DeQue is the MTE2 -> V flag: the scalar read of the loaded value waits for MTE2 itself
        AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(0);
        float v = static_cast<float>(s.GetValue(0));
        scalarQ_.FreeTensor(s);
        return v;
    }

    __aicore__ inline void Segments(AscendC::LocalTensor<float> dst, AscendC::LocalTensor<float> src)
    {
        AscendC::LocalTensor<float> p = pos_.Get<float>();
        AscendC::LocalTensor<float> q = neg_.Get<float>();
        for (int64_t off = 0; off < n_; off += seg_) {
            int64_t len = (n_ - off) < seg_ ? (n_ - off) : seg_;
            float a = Slope((base_ + off) / seg_);
            AscendC::Maxs(p[off], src[off], 0.0f, len);
            AscendC::Mins(q[off], src[off], 0.0f, len);
            AscendC::Muls(q[off], q[off], a, len);
            AscendC::Add(dst[off], p[off], q[off], len);
        }
    }

    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQ_;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQ_;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> scalarQ_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> wide_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> pos_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> neg_;
    AscendC::GlobalTensor<T> xg_;
    AscendC::GlobalTensor<T> yg_;
    AscendC::GlobalTensor<T> sg_;
    int64_t n_ = 0;
    int64_t seg_ = 1;
    int64_t base_ = 0;
};

}  // namespace

// dtypeCode as public launchers pass it: 0 half, 1 float, 2 bfloat16.
extern "C" __global__ __aicore__ void segment_slope(GM_ADDR x, GM_ADDR slope, GM_ADDR y, int64_t n, int64_t seg,
                                                    int64_t dtypeCode)
{
    if (dtypeCode == 1) {
        SegmentSlope<float> op;
        op.Init(x, slope, y, n, seg);
        op.Process();
    } else if (dtypeCode == 2) {
        SegmentSlope<bfloat16_t> op;
        op.Init(x, slope, y, n, seg);
        op.Process();
    } else {
        SegmentSlope<half> op;
        op.Init(x, slope, y, n, seg);
        op.Process();
    }
}
