// Our own kernels in the style of the ops-nn normalisation kernels (NPUKernelBench's AddLayerNorm answer):
// the CCE vector intrinsics such kernels call directly under `#if __CCE_AICORE__ == 220` -- vcadd with
// mode 1 into SPR.ACC_VAL read back by get_acc_val() (a row sum: full repeats, then the tail under a
// shorter mask), vcadd with mode 0 (one sum per repeat), and the 2-byte helpers vector_dup / vor /
// vtranspose / copy_ubuf_to_ubuf on raw `__ubuf__` pointers.
#include "kernel_operator.h"
#include "impl/dav_c220/kernel_operator_reg_others_impl.h"

using namespace AscendC;

// sums[r] = x[r, :cols] summed (mode 1), rep[r * (cols / 64) + k] = the k-th 64-float repeat of row r (mode 0).
extern "C" __global__ __aicore__ void vcadd_row_sums(GM_ADDR x, GM_ADDR sums, GM_ADDR rep, uint32_t rows,
                                                      uint32_t cols)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> qin;
    TBuf<> outBuf;
    TBuf<> repBuf;
    const uint32_t fullReps = cols / 64;
    pipe.InitBuffer(qin, 1, rows * cols * sizeof(float));
    pipe.InitBuffer(outBuf, (rows + 7) / 8 * 8 * sizeof(float));
    pipe.InitBuffer(repBuf, (rows * fullReps + 7) / 8 * 8 * sizeof(float) + 32);
    GlobalTensor<float> xGm, sumGm, repGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, rows * cols);
    sumGm.SetGlobalBuffer((__gm__ float *)sums, rows);
    repGm.SetGlobalBuffer((__gm__ float *)rep, rows * fullReps);

    LocalTensor<float> in = qin.AllocTensor<float>();
    DataCopy(in, xGm, rows * cols);
    qin.EnQue(in);
    LocalTensor<float> src = qin.DeQue<float>();
    LocalTensor<float> out = outBuf.Get<float>();
    LocalTensor<float> repOut = repBuf.Get<float>();
    for (uint32_t r = 0; r < rows; ++r) {
        float value = 0.0f;
        if (fullReps > 0) {
            AscendCUtils::SetMask<float>(64);
            vcadd(nullptr, (__ubuf__ float *)src[r * cols].GetPhyAddr(), fullReps, 1, 1, 8, true);
            set_flag(PIPE_V, PIPE_S, EVENT_ID0);
            wait_flag(PIPE_V, PIPE_S, EVENT_ID0);
            uint64_t acc = get_acc_val();
            value = *reinterpret_cast<float *>(&acc);
            AscendCUtils::SetMask<float>(64);
            vcadd((__ubuf__ float *)repOut[r * fullReps].GetPhyAddr(), (__ubuf__ float *)src[r * cols].GetPhyAddr(),
                  fullReps, 1, 1, 8, false);
        }
        const uint32_t tail = cols % 64;
        if (tail != 0) {
            AscendCUtils::SetMask<float>(tail);
            vcadd(nullptr, (__ubuf__ float *)src[r * cols + fullReps * 64].GetPhyAddr(), 1, 1, 1, 8, true);
            set_flag(PIPE_V, PIPE_S, EVENT_ID0);
            wait_flag(PIPE_V, PIPE_S, EVENT_ID0);
            uint64_t acc = get_acc_val();
            value += *reinterpret_cast<float *>(&acc);
        }
        out.SetValue(r, value);
    }
    ResetMask();
    qin.FreeTensor(src);
    set_flag(PIPE_S, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_S, PIPE_MTE3, EVENT_ID0);
    DataCopyPad(sumGm, out, DataCopyParams(1, rows * sizeof(float), 0, 0));
    if (fullReps > 0) {
        set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
        wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
        DataCopyPad(repGm, repOut, DataCopyParams(1, rows * fullReps * sizeof(float), 0, 0));
    }
}

// y = x^T | 0 for one 16x16 int16 matrix: vector_dup zeros a block, copy_ubuf_to_ubuf stages the input,
// vtranspose transposes it, vor ORs it with the zero block (stride 0) into the output.
extern "C" __global__ __aicore__ void int16_transpose_or(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> qin;
    TQue<QuePosition::VECOUT, 1> qout;
    TBuf<> stage, tposed, zero;
    pipe.InitBuffer(qin, 1, 256 * sizeof(int16_t));
    pipe.InitBuffer(qout, 1, 256 * sizeof(int16_t));
    pipe.InitBuffer(stage, 256 * sizeof(int16_t));
    pipe.InitBuffer(tposed, 256 * sizeof(int16_t));
    pipe.InitBuffer(zero, 16 * sizeof(int16_t));
    GlobalTensor<int16_t> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ int16_t *)x, 256);
    yGm.SetGlobalBuffer((__gm__ int16_t *)y, 256);

    LocalTensor<int16_t> in = qin.AllocTensor<int16_t>();
    DataCopy(in, xGm, 256);
    qin.EnQue(in);
    LocalTensor<int16_t> src = qin.DeQue<int16_t>();
    LocalTensor<int16_t> st = stage.Get<int16_t>();
    LocalTensor<int16_t> tp = tposed.Get<int16_t>();
    LocalTensor<int16_t> z = zero.Get<int16_t>();
    LocalTensor<int16_t> out = qout.AllocTensor<int16_t>();

    set_vector_mask(0x0, 0xffff);
    vector_dup((__ubuf__ int16_t *)z.GetPhyAddr(), (int16_t)0, 1, 1, 0, 8, 0);
    copy_ubuf_to_ubuf((__ubuf__ void *)st.GetPhyAddr(), (__ubuf__ void *)src.GetPhyAddr(), 0, 1, 16, 0, 0);
    pipe_barrier(PIPE_V);
    vtranspose((__ubuf__ int16_t *)tp.GetPhyAddr(), (__ubuf__ int16_t *)st.GetPhyAddr());
    pipe_barrier(PIPE_V);
    AscendCUtils::SetMask<int16_t>(128);
    vor((__ubuf__ int16_t *)out.GetPhyAddr(), (__ubuf__ int16_t *)tp.GetPhyAddr(), (__ubuf__ int16_t *)z.GetPhyAddr(),
        2, 1, 1, 0, 8, 8, 0);
    ResetMask();
    qin.FreeTensor(src);
    qout.EnQue(out);
    LocalTensor<int16_t> res = qout.DeQue<int16_t>();
    DataCopy(yGm, res, 256);
    qout.FreeTensor(res);
}

// The 310P branch of such kernels: VA registers then scatter_vnchwconv_b16, which the simulator declares but
// does not run (no public page gives the register layout of its 16 addresses): the call reports it.
extern "C" __global__ __aicore__ void scatter_vnchwconv_call(GM_ADDR x)
{
    TPipe pipe;
    TBuf<> buf;
    pipe.InitBuffer(buf, 2 * 16 * 16 * sizeof(int16_t));
    LocalTensor<int16_t> t = buf.Get<int16_t>();
    __ubuf__ int16_t *base = (__ubuf__ int16_t *)t.GetPhyAddr();
    uint64_t dstRegs[8], srcRegs[8];
    for (int i = 0; i < 8; ++i) {
        dstRegs[i] = (uint64_t)(base + 16 * i);
        srcRegs[i] = (uint64_t)(base + 256 + 16 * i);
    }
    set_va_reg_sb(VA0, dstRegs);
    set_va_reg_sb(VA2, srcRegs);
    scatter_vnchwconv_b16(VA0, VA2, 1, 0, 0);
}

// get_acc_val() with no vcadd mode 1 before it in the block: SPR.ACC_VAL holds nothing yet.
extern "C" __global__ __aicore__ void acc_val_unset(GM_ADDR y)
{
    GlobalTensor<int64_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int64_t *)y, 1);
    yGm.SetValue(0, get_acc_val());
}
