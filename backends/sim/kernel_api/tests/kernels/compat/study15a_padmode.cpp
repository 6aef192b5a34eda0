// DataCopyPad's transfer mode (CANN 9, Ascend 950: template <typename T, PaddingMode mode>), in the
// style of public op kernels that gather column slices of a row-major matrix: `rows` bursts of `cols`
// elements (a GM row stride of `ld` elements) are packed back to back in UB with
// PaddingMode::Compact and written to a dense rows x cols output with the Compact UB -> GM form;
// the Normal mode kernel does the same with one 32-byte slot per row.  Build with
// soc="Ascend950PR_9599" (Compact is the 950's only).
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t PM_BUFFER_NUM = 2;

template <typename T, PaddingMode MODE>
class SliceGather {
public:
    __aicore__ inline SliceGather(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t cols, uint32_t ld, uint32_t offset)
        : rows_(rows), cols_(cols), ld_(ld), offset_(offset)
    {
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(x), rows * ld);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(y), rows * cols);
        // Compact needs rows * cols elements rounded up to 32 bytes; Normal one 32-byte slot per row.
        uint32_t perBlock = 32 / sizeof(T);
        uint32_t slot = (cols + perBlock - 1) / perBlock * perBlock;
        uint32_t bytes = MODE == PaddingMode::Compact ? (rows * cols + perBlock - 1) / perBlock * perBlock * sizeof(T)
                                                      : rows * slot * sizeof(T);
        pipe_.InitBuffer(que_, PM_BUFFER_NUM, bytes);
    }

    __aicore__ inline void Process()
    {
        DataCopyExtParams inParams{static_cast<uint16_t>(rows_), static_cast<uint32_t>(cols_ * sizeof(T)),
                                   static_cast<uint32_t>((ld_ - cols_) * sizeof(T)), 0, 0};
        DataCopyPadExtParams<T> padParams{true, 0, 0, static_cast<T>(0)};
        LocalTensor<T> t = que_.AllocTensor<T>();
        DataCopyPad<T, MODE>(t, xGm_[offset_], inParams, padParams);
        que_.EnQue<T>(t);
        t = que_.DeQue<T>();
        DataCopyExtParams outParams{static_cast<uint16_t>(rows_), static_cast<uint32_t>(cols_ * sizeof(T)), 0, 0, 0};
        DataCopyPad<T, MODE>(yGm_, t, outParams);
        que_.FreeTensor<T>(t);
    }

private:
    TPipe pipe_;
    TQueBind<QuePosition::VECIN, QuePosition::VECOUT, PM_BUFFER_NUM> que_;
    GlobalTensor<T> xGm_;
    GlobalTensor<T> yGm_;
    uint32_t rows_;
    uint32_t cols_;
    uint32_t ld_;
    uint32_t offset_;
};

extern "C" __global__ __aicore__ void pm_compact_f32(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t cols, uint32_t ld,
                                                     uint32_t offset)
{
    SliceGather<float, PaddingMode::Compact> op(x, y, rows, cols, ld, offset);
    op.Process();
}

extern "C" __global__ __aicore__ void pm_compact_f16(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t cols, uint32_t ld,
                                                     uint32_t offset)
{
    SliceGather<half, PaddingMode::Compact> op(x, y, rows, cols, ld, offset);
    op.Process();
}

extern "C" __global__ __aicore__ void pm_normal_f32(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t cols, uint32_t ld,
                                                    uint32_t offset)
{
    SliceGather<float, PaddingMode::Normal> op(x, y, rows, cols, ld, offset);
    op.Process();
}

// The Compact layout in UB itself: rows bursts of cols floats land back to back, and with isPad the
// tail up to the next 32 bytes holds the padding value (here -1); the whole UB tile is copied out.
extern "C" __global__ __aicore__ void pm_compact_layout(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t cols,
                                                        uint32_t ld, uint32_t tileFloats)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, tileFloats * sizeof(float));
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), rows * ld);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), tileFloats);
    LocalTensor<float> t = buf.Get<float>();
    Duplicate<float>(t, 7.0f, tileFloats);
    PipeBarrier<PIPE_ALL>();
    DataCopyExtParams inParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(float)),
                               static_cast<uint32_t>((ld - cols) * sizeof(float)), 0, 0};
    DataCopyPadExtParams<float> padParams{true, 0, 0, -1.0f};
    DataCopyPad<float, PaddingMode::Compact>(t, xGm, inParams, padParams);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, t, tileFloats);
}
