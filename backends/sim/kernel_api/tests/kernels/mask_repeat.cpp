// Mask / repeat forms of the vector instructions on 512 floats (x, y) -> out (1024 floats).
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void mask_ops(GM_ADDR x, GM_ADDR y, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bo;
    pipe.InitBuffer(bx, 512 * sizeof(float));
    pipe.InitBuffer(by, 512 * sizeof(float));
    pipe.InitBuffer(bo, 1024 * sizeof(float));
    GlobalTensor<float> xGm, yGm, oGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 512);
    yGm.SetGlobalBuffer((__gm__ float *)y, 512);
    oGm.SetGlobalBuffer((__gm__ float *)out, 1024);
    LocalTensor<float> xl = bx.Get<float>();
    LocalTensor<float> yl = by.Get<float>();
    LocalTensor<float> ol = bo.Get<float>();
    DataCopy(xl, xGm, 512);
    DataCopy(yl, yGm, 512);
    event_t eventMte2V = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
    SetFlag<HardEvent::MTE2_V>(eventMte2V);
    WaitFlag<HardEvent::MTE2_V>(eventMte2V);

    Duplicate(ol, -1.0f, 1024);
    PipeBarrier<PIPE_V>();
    // [0, 256): continuous mask 40, 4 repeats, default strides.
    BinaryRepeatParams dense;
    Add(ol, xl, yl, 40, 4, dense);
    // [256, 384): bit mask (every other element), 2 repeats; src0 reads every other block.
    uint64_t bits[2] = {0x5555555555555555ull, 0};
    BinaryRepeatParams strided(1, 2, 1, 8, 16, 8);
    Mul(ol[256], xl, yl, bits, 2, strided);
    // [384, 512): Exp then Relu with unary repeat params; [512, 640): Abs on y reading every other repeat.
    UnaryRepeatParams unary;
    Exp(ol[384], xl, 64, 2, unary);
    Relu(ol[384], ol[384], 32, 2, unary);
    UnaryRepeatParams skip(1, 1, 8, 16);
    Abs(ol[512], yl, 64, 2, skip);
    // [640, 768): Adds / Muls with a scalar, mask 16 and 48.
    Adds(ol[640], xl, 10.0f, 16, 2, unary);
    Muls(ol[704], yl, 3.0f, 48, 1, unary);
    // [768, 1024): Duplicate with block stride 2 (every other 32-byte block), 2 repeats of 32 elements.
    Duplicate(ol[768], 7.0f, 32, 2, 2, 16);
    // Max / Min / Sub / Div mask form, full mask, 1 repeat each, into [896, 960) and [960, 1024).
    Max(ol[896], xl, yl, 64, 1, dense);
    Sub(ol[960], xl[64], yl[64], 32, 1, dense);
    Div(ol[992], xl[128], yl[128], 32, 1, dense);

    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(oGm, ol, 1024);
}
