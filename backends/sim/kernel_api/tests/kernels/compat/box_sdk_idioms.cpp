// SDK names and element types that box / point-cloud kernels rely on beyond the reference's lists
// (tests/test_sim_compat_box_sdk_idioms.py):
// * `PI` unqualified after `using namespace AscendC` (the SDK's float pi, reached from kernel_operator.h);
// * BroadCast<int32_t, 2, 1> of one index per row (and Broadcast<int32_t, 2, 0> of one row of indices);
// * Level-2 And on the uint8_t bit masks of CompareScalar, with count = the mask bytes.
//
// box_idioms(x, counts, angles, idx, inside, rows, lo, hi): x holds rows * 8 floats, counts rows int32_t.
// angles = x * -PI (rows * 8 floats); idx = [counts broadcast along each row of 8 | the first row of 8 counts
// broadcast down rows rows] (2 * rows * 8 int32_t); inside = 1.0 where lo < x < hi else 0.0 (rows * 8 floats).
// rows is a multiple of 8 (one 64-float repeat per 8 rows: the compare masks stay whole bytes).
#include "kernel_operator.h"
using namespace AscendC;

namespace {

constexpr uint32_t kCols = 8;

class BoxIdioms {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR counts, GM_ADDR angles, GM_ADDR idx, GM_ADDR inside,
                                uint32_t rows, float lo, float hi)
    {
        rows_ = rows;
        n_ = rows * kCols;
        lo_ = lo;
        hi_ = hi;
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), n_);
        countGm_.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(counts), rows);
        angleGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(angles), n_);
        idxGm_.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(idx), 2 * n_);
        insideGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(inside), n_);
        pipe_.InitBuffer(xBuf_, n_ * sizeof(float));
        pipe_.InitBuffer(countBuf_, rows * sizeof(int32_t));
        pipe_.InitBuffer(angleBuf_, n_ * sizeof(float));
        pipe_.InitBuffer(idxBuf_, 2 * n_ * sizeof(int32_t));
        pipe_.InitBuffer(insideBuf_, n_ * sizeof(float));
        pipe_.InitBuffer(maskBuf_, 2 * 2 * (n_ / 8));  // two bit masks, each twice its bytes (16-bit lanes)
    }
    __aicore__ inline void Process()
    {
        LocalTensor<float> x = xBuf_.Get<float>();
        LocalTensor<int32_t> counts = countBuf_.Get<int32_t>();
        DataCopy(x, xGm_, n_);
        DataCopy(counts, countGm_, rows_);
        event_t mte2V = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(mte2V);
        WaitFlag<HardEvent::MTE2_V>(mte2V);

        LocalTensor<float> angles = angleBuf_.Get<float>();
        Muls(angles, x, static_cast<float>(-PI), n_);

        LocalTensor<int32_t> idx = idxBuf_.Get<int32_t>();
        uint32_t rowSrc[2] = {rows_, 1};
        uint32_t rowDst[2] = {rows_, kCols};
        BroadCast<int32_t, 2, 1, false>(idx, counts, rowDst, rowSrc);  // BAD(brc_last)
        uint32_t colSrc[2] = {1, kCols};
        Broadcast<int32_t, 2, 0>(idx[n_], counts, rowDst, colSrc);  // BAD(brc_first)

        LocalTensor<uint8_t> above = maskBuf_.Get<uint8_t>();
        LocalTensor<uint8_t> below = above[2 * (n_ / 8)];
        CompareScalar(above, x, lo_, CMPMODE::GT, n_);
        CompareScalar(below, x, hi_, CMPMODE::LT, n_);
        And(above, above, below, static_cast<int32_t>(n_ / 8));  // BAD(and_bytes)
        LocalTensor<float> inside = insideBuf_.Get<float>();
        Duplicate(inside, 1.0f, n_);
        PipeBarrier<PIPE_V>();
        Select(inside, above, inside, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, n_);

        event_t vMte3 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(vMte3);
        WaitFlag<HardEvent::V_MTE3>(vMte3);
        DataCopy(angleGm_, angles, n_);
        DataCopy(idxGm_, idx, 2 * n_);
        DataCopy(insideGm_, inside, n_);
    }

private:
    TPipe pipe_;
    TBuf<TPosition::VECCALC> xBuf_, countBuf_, angleBuf_, idxBuf_, insideBuf_, maskBuf_;
    GlobalTensor<float> xGm_, angleGm_, insideGm_;
    GlobalTensor<int32_t> countGm_, idxGm_;
    uint32_t rows_ = 0, n_ = 0;
    float lo_ = 0.0f, hi_ = 0.0f;
};

}  // namespace

extern "C" __global__ __aicore__ void box_idioms(GM_ADDR x, GM_ADDR counts, GM_ADDR angles, GM_ADDR idx,
                                                 GM_ADDR inside, uint32_t rows, float lo, float hi)
{
    BoxIdioms op;
    op.Init(x, counts, angles, idx, inside, rows, lo, hi);
    op.Process();
}
