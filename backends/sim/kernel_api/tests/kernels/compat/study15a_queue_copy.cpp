// Queue objects copied by value, as public kernels do when a helper class keeps its own TQue members
// and assigns the kernel's queues to them (`this->queIn = queIn;`): on the NPU the copy refers to
// the same buffers (they live in the TPipe), so a buffer the helper frees can be allocated through
// the original and vice versa.  y[r] = 2 * x[r] + 1 for rows of 16 floats: even rows through the
// helper's copies, odd rows through the kernel's own queues.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t QC_COLS = 16;

class RowHelper {
public:
    __aicore__ inline RowHelper(TQue<TPosition::VECIN, 1> &queIn, TQue<TPosition::VECOUT, 1> &queOut,
                                GlobalTensor<float> &xGm, GlobalTensor<float> &yGm)
    {
        this->queIn = queIn;
        this->queOut = queOut;
        this->xGm = xGm;
        this->yGm = yGm;
    }

    __aicore__ inline void Row(uint32_t r)
    {
        LocalTensor<float> in = queIn.AllocTensor<float>();
        DataCopy(in, xGm[r * QC_COLS], QC_COLS);
        queIn.EnQue(in);
        in = queIn.DeQue<float>();
        LocalTensor<float> out = queOut.AllocTensor<float>();
        Muls(out, in, 2.0f, QC_COLS);
        Adds(out, out, 1.0f, QC_COLS);
        queIn.FreeTensor(in);
        queOut.EnQue(out);
        out = queOut.DeQue<float>();
        DataCopy(yGm[r * QC_COLS], out, QC_COLS);
        queOut.FreeTensor(out);
    }

    // Allocates the one input buffer and keeps it (for the conflict kernel below).
    __aicore__ inline LocalTensor<float> Hold() { return queIn.AllocTensor<float>(); }
    __aicore__ inline void Release(LocalTensor<float> &t) { queIn.FreeTensor(t); }

private:
    TQue<TPosition::VECIN, 1> queIn;
    TQue<TPosition::VECOUT, 1> queOut;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
};

class QueueCopyKernel {
public:
    __aicore__ inline QueueCopyKernel(GM_ADDR x, GM_ADDR y, uint32_t rows) : rows_(rows)
    {
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), rows * QC_COLS);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), rows * QC_COLS);
        pipe_.InitBuffer(queIn_, 1, QC_COLS * sizeof(float));
        pipe_.InitBuffer(queOut_, 1, QC_COLS * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        RowHelper helper(queIn_, queOut_, xGm_, yGm_);
        for (uint32_t r = 0; r < rows_; ++r) {
            if (r % 2 == 0) {
                helper.Row(r);
            } else {
                OwnRow(r);
            }
        }
    }

    // The helper holds the single input buffer; the kernel's own queue then has none left.
    __aicore__ inline void Conflict()
    {
        RowHelper helper(queIn_, queOut_, xGm_, yGm_);
        LocalTensor<float> held = helper.Hold();
        LocalTensor<float> mine = queIn_.AllocTensor<float>();
        queIn_.FreeTensor(mine);
        helper.Release(held);
    }

private:
    __aicore__ inline void OwnRow(uint32_t r)
    {
        LocalTensor<float> in = queIn_.AllocTensor<float>();
        DataCopy(in, xGm_[r * QC_COLS], QC_COLS);
        queIn_.EnQue(in);
        in = queIn_.DeQue<float>();
        LocalTensor<float> out = queOut_.AllocTensor<float>();
        Muls(out, in, 2.0f, QC_COLS);
        Adds(out, out, 1.0f, QC_COLS);
        queIn_.FreeTensor(in);
        queOut_.EnQue(out);
        out = queOut_.DeQue<float>();
        DataCopy(yGm_[r * QC_COLS], out, QC_COLS);
        queOut_.FreeTensor(out);
    }

    TPipe pipe_;
    TQue<TPosition::VECIN, 1> queIn_;
    TQue<TPosition::VECOUT, 1> queOut_;
    GlobalTensor<float> xGm_;
    GlobalTensor<float> yGm_;
    uint32_t rows_;
};

extern "C" __global__ __aicore__ void qc_rows(GM_ADDR x, GM_ADDR y, uint32_t rows)
{
    QueueCopyKernel op(x, y, rows);
    op.Process();
}

extern "C" __global__ __aicore__ void qc_conflict(GM_ADDR x, GM_ADDR y, uint32_t rows)
{
    QueueCopyKernel op(x, y, rows);
    op.Conflict();
}

// Round 34: the inplace queue forms of Qeeweew/sgl-kernel-npu gemv_w4a16 (AllocTensor / DeQue pages: the
// tensor comes back through a reference, on depth-0 queues; the LocalTensor objects are class members, as
// there). Same rows, y[r] = 2 * x[r] + 1, two buffers per queue.
class InplaceQueueKernel {
public:
    __aicore__ inline InplaceQueueKernel(GM_ADDR x, GM_ADDR y, uint32_t rows) : rows_(rows)
    {
        xGm_.SetGlobalBuffer((__gm__ float *)x);
        yGm_.SetGlobalBuffer((__gm__ float *)y);
        pipe_.InitBuffer(queIn_, 2, QC_COLS * sizeof(float));
        pipe_.InitBuffer(queOut_, 2, QC_COLS * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < rows_; ++r) {
            queIn_.AllocTensor<float>(in_);
            DataCopy(in_, xGm_[r * QC_COLS], QC_COLS);
            queIn_.EnQue(in_);
            queIn_.DeQue(in_);
            queOut_.AllocTensor<float>(out_);
            Muls(out_, in_, 2.0f, QC_COLS);
            Adds(out_, out_, 1.0f, QC_COLS);
            queIn_.FreeTensor(in_);
            queOut_.EnQue(out_);
            queOut_.DeQue<float>(out_);
            DataCopy(yGm_[r * QC_COLS], out_, QC_COLS);
            queOut_.FreeTensor(out_);
        }
    }

private:
    TPipe pipe_;
    TQue<TPosition::VECIN, 0> queIn_;
    TQue<TPosition::VECOUT, 0> queOut_;
    LocalTensor<float> in_, out_;
    GlobalTensor<float> xGm_;
    GlobalTensor<float> yGm_;
    uint32_t rows_;
};

extern "C" __global__ __aicore__ void qc_inplace_rows(GM_ADDR x, GM_ADDR y, uint32_t rows)
{
    InplaceQueueKernel op(x, y, rows);
    op.Process();
}
