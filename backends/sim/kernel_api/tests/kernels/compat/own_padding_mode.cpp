// Our own kernel in the style of Ascend/DrivingSDK's grid_sampler2d_v2: the kernel declares its own
// `enum PaddingMode {ZEROS, BORDER, REFLECTION}` in an unnamed namespace beside `using namespace AscendC`
// and names it unqualified. The SDK declares `AscendC::PaddingMode` (DataCopyPad's transfer mode) for the
// Ascend 950 only, so on an Atlas A2 build the kernel's name is the only one; on the 950 the two meet
// (ambiguous, as with CANN). COMPAT.md "Round 31 (s31a)", tests/test_sim_compat_own_names_r31.py:
//   pad_gather(src, idx, out, w, n, mode): out[i] = src[idx[i]] for idx[i] inside [0, w); outside it
//     ZEROS gives 0, BORDER the nearest edge element, REFLECTION the index reflected at the edges
//     (period 2 * (w - 1), the edge elements not repeated) -- scalar reads of UB tiles.
#include "kernel_operator.h"

namespace {
enum PaddingMode { ZEROS, BORDER, REFLECTION };
constexpr uint32_t PAD_GATHER_MAX = 256;
}  // namespace

using namespace AscendC;

template <PaddingMode MODE>
class PadGather {
public:
    __aicore__ inline PadGather(GM_ADDR src, GM_ADDR idx, GM_ADDR out, uint32_t w, uint32_t n) : w_(w), n_(n)
    {
        srcGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(src), w);
        idxGm_.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(idx), n);
        outGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(out), n);
        pipe_.InitBuffer(srcBuf_, PAD_GATHER_MAX * sizeof(float));
        pipe_.InitBuffer(idxBuf_, PAD_GATHER_MAX * sizeof(int32_t));
        pipe_.InitBuffer(outBuf_, PAD_GATHER_MAX * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> s = srcBuf_.Get<float>();
        LocalTensor<int32_t> ix = idxBuf_.Get<int32_t>();
        LocalTensor<float> o = outBuf_.Get<float>();
        DataCopyExtParams srcParams{1, static_cast<uint32_t>(w_ * sizeof(float)), 0, 0, 0};
        DataCopyExtParams idxParams{1, static_cast<uint32_t>(n_ * sizeof(int32_t)), 0, 0, 0};
        DataCopyPad(s, srcGm_, srcParams, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        DataCopyPad(ix, idxGm_, idxParams, DataCopyPadExtParams<int32_t>{false, 0, 0, 0});
        SetFlag<HardEvent::MTE2_S>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_S>(EVENT_ID0);
        for (uint32_t i = 0; i < n_; ++i) {
            o.SetValue(i, Fetch(s, ix.GetValue(i)));
        }
        SetFlag<HardEvent::S_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::S_MTE3>(EVENT_ID0);
        DataCopyExtParams outParams{1, static_cast<uint32_t>(n_ * sizeof(float)), 0, 0, 0};
        DataCopyPad(outGm_, o, outParams);
    }

private:
    __aicore__ inline float Fetch(const LocalTensor<float> &s, int32_t i) const
    {
        const int32_t w = static_cast<int32_t>(w_);
        if (i >= 0 && i < w) {
            return s.GetValue(i);
        }
        if (MODE == ZEROS) {
            return 0.0f;
        }
        if (MODE == BORDER || w == 1) {
            return s.GetValue(i < 0 ? 0 : w - 1);
        }
        const int32_t period = 2 * (w - 1);
        int32_t r = i % period;
        r = r < 0 ? r + period : r;
        return s.GetValue(r < w ? r : period - r);
    }

    TPipe pipe_;
    TBuf<TPosition::VECCALC> srcBuf_;
    TBuf<TPosition::VECCALC> idxBuf_;
    TBuf<TPosition::VECCALC> outBuf_;
    GlobalTensor<float> srcGm_;
    GlobalTensor<int32_t> idxGm_;
    GlobalTensor<float> outGm_;
    uint32_t w_;
    uint32_t n_;
};

extern "C" __global__ __aicore__ void pad_gather(GM_ADDR src, GM_ADDR idx, GM_ADDR out, uint32_t w, uint32_t n,
                                                 uint32_t mode)
{
    PaddingMode padding = static_cast<PaddingMode>(mode);
    if (padding == ZEROS) {
        PadGather<ZEROS> op(src, idx, out, w, n);
        op.Process();
    } else if (padding == BORDER) {
        PadGather<BORDER> op(src, idx, out, w, n);
        op.Process();
    } else {
        PadGather<REFLECTION> op(src, idx, out, w, n);
        op.Process();
    }
}
