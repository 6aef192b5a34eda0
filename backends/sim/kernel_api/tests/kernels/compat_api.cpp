// Compatibility kernels, one per basic API public Ascend C kernels use (written in the style of
// public op code: a class with Init / Process, TPipe + TQue / TBuf, GM_ADDR arguments).
// Each kernel works on one 256-element tile (1 KiB of float, 512 B of half / int16_t).
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t TILE = 256;

// The shared skeleton: x, y in; z out; the body computes z from x and y in UB.
template <typename T, typename Body>
__aicore__ inline void RunTile(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t outLen, Body body)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qx, qy;
    TQue<TPosition::VECOUT, 1> qz;
    pipe.InitBuffer(qx, 1, TILE * sizeof(T));
    pipe.InitBuffer(qy, 1, TILE * sizeof(T));
    pipe.InitBuffer(qz, 1, TILE * sizeof(T) * 2);
    GlobalTensor<T> gx, gy, gz;
    gx.SetGlobalBuffer((__gm__ T *)x, TILE);
    gy.SetGlobalBuffer((__gm__ T *)y, TILE);
    gz.SetGlobalBuffer((__gm__ T *)z, outLen);
    LocalTensor<T> lx = qx.AllocTensor<T>();
    LocalTensor<T> ly = qy.AllocTensor<T>();
    DataCopy(lx, gx, TILE);
    DataCopy(ly, gy, TILE);
    qx.EnQue(lx);
    qy.EnQue(ly);
    lx = qx.DeQue<T>();
    ly = qy.DeQue<T>();
    LocalTensor<T> lz = qz.AllocTensor<T>();
    Duplicate(lz, T(0), static_cast<int32_t>(TILE * 2));
    body(lz, lx, ly);
    qz.EnQue(lz);
    qx.FreeTensor(lx);
    qy.FreeTensor(ly);
    lz = qz.DeQue<T>();
    DataCopy(gz, lz, outLen);
    qz.FreeTensor(lz);
}

extern "C" __global__ __aicore__ void compat_and_or_not(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    RunTile<int16_t>(x, y, z, 2 * TILE, [](LocalTensor<int16_t> &o, LocalTensor<int16_t> &a, LocalTensor<int16_t> &b) {
        And(o, a, b, 128);
        Or(o[128], a[128], b[128], 128);
        Not(o[256], a, 256);
        // o[256:] = ~a, then o[256:384] &= b through the mask form (one repeat of 128 16-bit elements)
        BinaryRepeatParams p;
        And(o[256], o[256], b, 128, 1, p);
    });
}

extern "C" __global__ __aicore__ void compat_shift(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    RunTile<int16_t>(x, y, z, 2 * TILE, [](LocalTensor<int16_t> &o, LocalTensor<int16_t> &a, LocalTensor<int16_t> &) {
        ShiftLeft(o, a, int16_t(3), static_cast<int32_t>(TILE));
        ShiftRight(o[TILE], a, int16_t(2), static_cast<int32_t>(TILE));
    });
}

extern "C" __global__ __aicore__ void compat_activations(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    RunTile<float>(x, y, z, 2 * TILE, [](LocalTensor<float> &o, LocalTensor<float> &a, LocalTensor<float> &b) {
        LeakyRelu(o, a, 0.125f, static_cast<int32_t>(TILE));
        AddRelu(o[TILE], a, b, static_cast<int32_t>(TILE));
    });
}

extern "C" __global__ __aicore__ void compat_axpy(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    RunTile<float>(x, y, z, TILE, [](LocalTensor<float> &o, LocalTensor<float> &a, LocalTensor<float> &b) {
        DataCopy(o, b, TILE);       // o = y
        Axpy(o, a, 2.5f, static_cast<int32_t>(TILE));  // o = 2.5 * x + y
    });
}

// z[0:32] = BlockReduceSum over the 4 repeats of 64 floats (8 blocks each), z[32:64] = BlockReduceMax,
// z[64:96] = BlockReduceMin, z[96:224] = PairReduceSum (32 pairs per repeat).
extern "C" __global__ __aicore__ void compat_block_reduce(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    RunTile<float>(x, y, z, TILE, [](LocalTensor<float> &o, LocalTensor<float> &a, LocalTensor<float> &) {
        BlockReduceSum(o, a, 4, 64, 1, 1, 8);
        BlockReduceMax(o[32], a, 4, 64, 1, 1, 8);
        BlockReduceMin(o[64], a, 4, 64, 1, 1, 8);
        PairReduceSum(o[96], a, 4, 64, 1, 1, 8);
    });
}

// Copy with a source block stride of 2 (every other 32-byte block), Brcb of the first 16 elements.
extern "C" __global__ __aicore__ void compat_copy_brcb(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    RunTile<float>(x, y, z, 2 * TILE, [](LocalTensor<float> &o, LocalTensor<float> &a, LocalTensor<float> &) {
        Copy(o, a, 32, 2, CopyRepeatParams(1, 2, 4, 8));  // 2 repeats of 4 blocks from blocks 0,2,4,6 / 8,10,12,14
        Brcb(o[TILE], a, 2, BrcbRepeatParams(1, 8));      // 16 values, each filling 8 floats
    });
}

// Gather by byte offsets taken from y (as uint32), GatherMask with built-in pattern 1 (even indices)
// and 2 (odd indices); z[TILE + 255] / z[TILE + 254] hold the element counts.
extern "C" __global__ __aicore__ void compat_gather(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    RunTile<float>(x, y, z, 2 * TILE, [](LocalTensor<float> &o, LocalTensor<float> &a, LocalTensor<float> &b) {
        LocalTensor<uint32_t> offsets = b.ReinterpretCast<uint32_t>();
        Gather(o, a, offsets, 0, 128);
        uint64_t even = 0, odd = 0;
        GatherMask(o[TILE], a, 1, false, 0, GatherMaskParams(1, 2, 8, 0), even);
        GatherMask(o[TILE + 64], a, 2, false, 0, GatherMaskParams(1, 2, 8, 0), odd);
        SetFlag<HardEvent::V_S>(0);  // the vector pipe is done with o before the scalar unit writes it
        WaitFlag<HardEvent::V_S>(0);
        o.SetValue(2 * TILE - 1, static_cast<float>(even));
        o.SetValue(2 * TILE - 2, static_cast<float>(odd));
        SetFlag<HardEvent::S_MTE3>(0);  // the store of o (after the queue's V -> MTE3) waits for the scalar writes
        WaitFlag<HardEvent::S_MTE3>(0);
    });
}

extern "C" __global__ __aicore__ void compat_transpose(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    RunTile<half>(x, y, z, TILE, [](LocalTensor<half> &o, LocalTensor<half> &a, LocalTensor<half> &) {
        Transpose(o, a);
    });
}

// CompareScalar (x > 0.5) then Select: z = x > 0.5 ? x : y.
extern "C" __global__ __aicore__ void compat_compare_scalar(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    RunTile<float>(x, y, z, TILE, [](LocalTensor<float> &o, LocalTensor<float> &a, LocalTensor<float> &b) {
        LocalTensor<uint8_t> bits = o[TILE].ReinterpretCast<uint8_t>();
        CompareScalar(bits, a, 0.5f, CMPMODE::GT, TILE);
        Select(o, bits, a, b, SELMODE::VSEL_TENSOR_TENSOR_MODE, TILE);
    });
}

// LocalTensor operators: z[0:256] = x + y, then z = z * x, then z = z - y; Std::min / Std::max.
extern "C" __global__ __aicore__ void compat_operators(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    RunTile<float>(x, y, z, TILE, [](LocalTensor<float> &o, LocalTensor<float> &a, LocalTensor<float> &b) {
        LocalTensor<float> head = o[0];
        head.SetSize(Std::min(TILE, 1024u));
        head = a + b;
        head = head * a;
        head = head - b;
        SetFlag<HardEvent::V_S>(0);  // the vector pipe read head before the scalar unit overwrites it
        WaitFlag<HardEvent::V_S>(0);
        o.SetValue(0, static_cast<float>(Std::max(3, 7)));
        SetFlag<HardEvent::S_MTE3>(0);  // the store of o (after the queue's V -> MTE3) waits for the scalar write
        WaitFlag<HardEvent::S_MTE3>(0);
    });
}

// set_flag / wait_flag / pipe_barrier, the lowercase intrinsics, around a manual copy.
extern "C" __global__ __aicore__ void compat_intrinsics(GM_ADDR x, GM_ADDR z)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, TILE * sizeof(float));
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer((__gm__ float *)x, TILE);
    gz.SetGlobalBuffer((__gm__ float *)z, TILE);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, gx, TILE);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    Muls(t, t, 2.0f, static_cast<int32_t>(TILE));
    pipe_barrier(PIPE_V);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    DataCopy(gz, t, TILE);
}

// A TQueBind VECIN -> VECOUT queue moves a tile through UB with no vector instruction.
extern "C" __global__ __aicore__ void compat_quebind(GM_ADDR x, GM_ADDR z)
{
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 2> bind;
    pipe.InitBuffer(bind, 2, 64 * sizeof(float));
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer((__gm__ float *)x, TILE);
    gz.SetGlobalBuffer((__gm__ float *)z, TILE);
    for (uint32_t i = 0; i < TILE / 64; ++i) {
        LocalTensor<float> t = bind.AllocTensor<float>();
        DataCopy(t, gx[i * 64], 64);
        bind.EnQue(t);
        t = bind.DeQue<float>();
        DataCopy(gz[i * 64], t, 64);
        bind.FreeTensor(t);
    }
}

// printf / PRINTF / DumpTensor from every block; ASSERT on the block count.
extern "C" __global__ __aicore__ void compat_printf(GM_ADDR x, uint32_t n)
{
    ASSERT(GetBlockNum() <= 8);
    ASSERT(n <= TILE, "n = %u exceeds the tile", n);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, TILE * sizeof(float));
    GlobalTensor<float> gx;
    gx.SetGlobalBuffer((__gm__ float *)x, TILE);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, gx, TILE);
    SetFlag<HardEvent::MTE2_S>(0);  // the load lands before the scalar GetValue reads it
    WaitFlag<HardEvent::MTE2_S>(0);
    AscendC::printf("block %ld of %ld: n=%u first=%f\n", static_cast<long>(GetBlockIdx()), static_cast<long>(GetBlockNum()), n, t.GetValue(0));
    PRINTF("half %.2f\n", half(1.5));
    DumpTensor(t, 7, 4);
    DumpTensor(gx, 8, 2);
}

// SubRelu, MulAddDst, FusedMulAdd, FusedMulAddRelu (the ternary forms read dst): z[0:256) =
// relu(x - y); z[256:512) = x * y + (x - y) with dst preset to x - y.
extern "C" __global__ __aicore__ void compat_fused(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    RunTile<float>(x, y, z, 2 * TILE, [](LocalTensor<float> &o, LocalTensor<float> &a, LocalTensor<float> &b) {
        SubRelu(o, a, b, static_cast<int32_t>(TILE));
        Sub(o[TILE], a, b, static_cast<int32_t>(TILE));
        MulAddDst(o[TILE], a, b, 128);                 // dst = a * b + dst
        FusedMulAdd(o[TILE + 128], a[128], b[128], 64);  // dst = a * dst + b
        FusedMulAddRelu(o[TILE + 192], a[192], b[192], 64, 1, BinaryRepeatParams());
    });
}

// Wrong on purpose: the sanitizer checks the new APIs like the old ones.  Gather with a byte
// offset past the source buffer; BlockReduceSum with a mask beyond one repeat.
extern "C" __global__ __aicore__ void compat_gather_bad(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    RunTile<float>(x, y, z, TILE, [](LocalTensor<float> &o, LocalTensor<float> &a, LocalTensor<float> &b) {
        LocalTensor<uint32_t> offsets = b.ReinterpretCast<uint32_t>();
        Gather(o, a, offsets, 0, 16);  // BAD(gather-oob)
    });
}
extern "C" __global__ __aicore__ void compat_block_reduce_bad(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    RunTile<float>(x, y, z, TILE, [](LocalTensor<float> &o, LocalTensor<float> &a, LocalTensor<float> &) {
        BlockReduceSum(o, a, 1, 65, 1, 1, 8);  // BAD(block-reduce-mask)
    });
}

// Wrong on purpose: a transposing Gather (byte offsets 64 apart, several per sector) whose last
// offset reaches a sector nothing wrote; the offsets come from y.
extern "C" __global__ __aicore__ void compat_gather_uninit(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qy;
    TQue<TPosition::VECOUT, 1> qz;
    TBuf<TPosition::VECCALC> srcBuf;
    pipe.InitBuffer(qy, 1, TILE * sizeof(uint32_t));
    pipe.InitBuffer(qz, 1, TILE * sizeof(float));
    pipe.InitBuffer(srcBuf, 2 * TILE * sizeof(float));  // only the first TILE floats are written
    GlobalTensor<uint32_t> gy;
    GlobalTensor<float> gz;
    gy.SetGlobalBuffer((__gm__ uint32_t *)y, TILE);
    gz.SetGlobalBuffer((__gm__ float *)z, TILE);
    LocalTensor<float> src = srcBuf.Get<float>();
    Duplicate(src, 2.0f, static_cast<int32_t>(TILE));
    LocalTensor<uint32_t> off = qy.AllocTensor<uint32_t>();
    DataCopy(off, gy, TILE);
    qy.EnQue(off);
    off = qy.DeQue<uint32_t>();
    LocalTensor<float> out = qz.AllocTensor<float>();
    Gather(out, src, off, 0, TILE);  // BAD(gather-uninit)
    qy.FreeTensor(off);
    qz.EnQue(out);
    out = qz.DeQue<float>();
    DataCopy(gz, out, TILE);
    qz.FreeTensor(out);
    (void)x;
}
