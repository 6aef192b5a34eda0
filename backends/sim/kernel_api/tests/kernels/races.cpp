// Ascend C kernels for tests/test_sim_races.py: intra-core pipe races (check 'pipe-race').
// TBuf code orders its pipes itself with SetFlag/WaitFlag; each `racy_*` kernel leaves one pair
// out. The line the race is reported at ends with a `BAD(<tag>)` comment; the earlier
// instruction of the pair with a `FIRST(<tag>)` comment.
#include "kernel_operator.h"
using namespace AscendC;

namespace {
constexpr uint32_t kTile = 256;  // floats per tile
}  // namespace

// z = x + 1 over one tile through one TBuf; `flags` bit 0 keeps MTE2->V, bit 1 V->MTE3,
// bit 2 MTE3->MTE2 (the next tile's load over the stored buffer), cleared bits drop the pair.
extern "C" __global__ __aicore__ void tbuf_add_one(GM_ADDR x, GM_ADDR z, uint32_t tiles, uint32_t flags)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kTile * sizeof(float));
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), tiles * kTile);
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z), tiles * kTile);
    LocalTensor<float> t = buf.Get<float>();
    for (uint32_t i = 0; i < tiles; ++i) {
        DataCopy(t, gx[i * kTile], kTile);  // BAD(war-mte3-mte2) FIRST(raw-mte2-v)
        if (flags & 1u) {
            SetFlag<HardEvent::MTE2_V>(0);
            WaitFlag<HardEvent::MTE2_V>(0);
        }
        Adds(t, t, 1.0f, kTile);  // BAD(raw-mte2-v) FIRST(raw-v-mte3)
        if (flags & 2u) {
            SetFlag<HardEvent::V_MTE3>(0);
            WaitFlag<HardEvent::V_MTE3>(0);
        }
        DataCopy(gz[i * kTile], t, kTile);  // BAD(raw-v-mte3) FIRST(war-mte3-mte2)
        if (flags & 4u) {
            SetFlag<HardEvent::MTE3_MTE2>(0);
            WaitFlag<HardEvent::MTE3_MTE2>(0);
        }
    }
}

// The same with PipeBarrier<PIPE_ALL>() between the instructions: clean.
extern "C" __global__ __aicore__ void tbuf_barrier(GM_ADDR x, GM_ADDR z, uint32_t tiles)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kTile * sizeof(float));
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), tiles * kTile);
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z), tiles * kTile);
    LocalTensor<float> t = buf.Get<float>();
    for (uint32_t i = 0; i < tiles; ++i) {
        DataCopy(t, gx[i * kTile], kTile);
        PipeBarrier<PIPE_ALL>();
        Adds(t, t, 1.0f, kTile);
        PipeBarrier<PIPE_ALL>();
        DataCopy(gz[i * kTile], t, kTile);
        PipeBarrier<PIPE_ALL>();
    }
}

// Two vector ops on one tile (one pipe: program order, clean), then a scalar GetValue reads it;
// `flags` bit 0 keeps the V->S pair, without it the read races the vector pipe.
extern "C" __global__ __aicore__ void scalar_after_vector(GM_ADDR z, uint32_t flags)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kTile * sizeof(float));
    GlobalTensor<float> gz;
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z), kTile);
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, 2.0f, kTile);
    Adds(t, t, 1.0f, kTile);  // FIRST(raw-v-s)
    if (flags & 1u) {
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
    }
    const float v = t.GetValue(0);  // BAD(raw-v-s)
    t.SetValue(1, v);
    SetFlag<HardEvent::S_MTE3>(0);
    WaitFlag<HardEvent::S_MTE3>(0);
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(gz, t, kTile);
}

// z = x + 1 through queues (VECIN, VECOUT), double-buffered: clean by construction.
extern "C" __global__ __aicore__ void queued_add_one(GM_ADDR x, GM_ADDR z, uint32_t tiles)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 2> qin;
    TQue<TPosition::VECOUT, 2> qout;
    pipe.InitBuffer(qin, 2, kTile * sizeof(float));
    pipe.InitBuffer(qout, 2, kTile * sizeof(float));
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), tiles * kTile);
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z), tiles * kTile);
    for (uint32_t i = 0; i < tiles; ++i) {
        LocalTensor<float> a = qin.AllocTensor<float>();
        DataCopy(a, gx[i * kTile], kTile);
        qin.EnQue(a);
        LocalTensor<float> b = qin.DeQue<float>();
        LocalTensor<float> c = qout.AllocTensor<float>();
        Adds(c, b, 1.0f, kTile);
        qout.EnQue(c);
        qin.FreeTensor(b);
        LocalTensor<float> d = qout.DeQue<float>();
        DataCopy(gz[i * kTile], d, kTile);
        qout.FreeTensor(d);
    }
}

// A scalar SetValue into a tile the vector pipe then reads: `flags` bit 0 keeps the S->V pair,
// bit 1 the S->MTE3 pair before the store of a tile the scalar unit wrote last (the second half).
extern "C" __global__ __aicore__ void scalar_then_vector(GM_ADDR z, uint32_t flags)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * kTile * sizeof(float));
    GlobalTensor<float> gz;
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z), 2 * kTile);
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, 2.0f, 2 * kTile);
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
    t.SetValue(0, 5.0f);  // FIRST(raw-s-v)
    if (flags & 1u) {
        SetFlag<HardEvent::S_V>(0);
        WaitFlag<HardEvent::S_V>(0);
    }
    Adds(t, t, 1.0f, kTile);  // BAD(raw-s-v)
    // V -> V (one pipe, program order): no flag needed between two vector ops on the same bytes
    Muls(t, t, 2.0f, kTile);
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
    t.SetValue(kTile, 7.0f);  // FIRST(raw-s-mte3)
    if (flags & 2u) {
        SetFlag<HardEvent::S_MTE3>(0);
        WaitFlag<HardEvent::S_MTE3>(0);
    }
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(gz, t, 2 * kTile);  // BAD(raw-s-mte3)
}

// Row by row (race.h holds such accesses and records them merged): a vector op on each half of a
// tile, then a scalar read of the second half and a store of the whole tile; `flags` bit 0 keeps
// the V->S pair, bit 1 the V->MTE3 pair, bit 2 leaves the scalar read out.
extern "C" __global__ __aicore__ void rows_then_read(GM_ADDR z, uint32_t flags)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * kTile * sizeof(float));
    GlobalTensor<float> gz;
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z), 2 * kTile);
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, 2.0f, 2 * kTile);
    for (uint32_t k = 0; k < 2; ++k) {
        Adds(t[k * kTile], t[k * kTile], 1.0f, kTile);  // FIRST(raw-rows-v-s) FIRST(raw-rows-v-mte3)
    }
    if (flags & 1u) {
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
    }
    float v = 0.0f;
    if (!(flags & 4u)) v = t.GetValue(kTile);  // BAD(raw-rows-v-s)
    if (flags & 2u) {
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
    }
    DataCopy(gz, t, 2 * kTile);  // BAD(raw-rows-v-mte3)
    (void)v;
}

// A row loop: one instruction per row on the next slices of the same buffers, which the checks take in one
// pass from the second row on (kapi/vector.h row_unary, reduce.h row_reduce), with something between rows kMid
// and kMid + 1 that pass must not carry over.  Adds(y[k], x[k]) rows, `mode` 0: MTE2 loads row kMid + 1 of x
// again with no MTE2 -> V pair (that row's Adds races it); 1: SetFlag<V_MTE3> right after row kMid (MTE3,
// waiting for it, stores the later rows unordered); 2 and 3: the same with the pair / the flag after the loop
// (clean).  ReduceSum(s[8 k], x[k]) rows (4, 5): SetFlag<V_S> right after row kMid, then the scalar unit reads
// row kMid + 1's sum (4: unordered) or row kMid's (5: clean).
extern "C" __global__ __aicore__ void row_loop_edges(GM_ADDR x, GM_ADDR z, uint32_t mode)
{
    constexpr uint32_t kRow = 64, kRows = 8, kMid = 3;
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bs;
    pipe.InitBuffer(bx, kRows * kRow * sizeof(float));
    pipe.InitBuffer(by, kRows * kRow * sizeof(float));
    pipe.InitBuffer(bs, (8 * kRows + kRow) * sizeof(float));
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), kRows * kRow);
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z), kRows * kRow);
    LocalTensor<float> tx = bx.Get<float>(), ty = by.Get<float>(), ts = bs.Get<float>();
    DataCopy(tx, gx, kRows * kRow);
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    if (mode >= 4) {
        for (uint32_t k = 0; k < kRows; ++k) {
            ReduceSum(ts[8 * k], tx[k * kRow], ts[8 * kRows], kRow);  // FIRST(raw-row-v-s)
            if (k == kMid) SetFlag<HardEvent::V_S>(0);
        }
        WaitFlag<HardEvent::V_S>(0);
        const float s = ts.GetValue(8 * (mode == 4 ? kMid + 1 : kMid));  // BAD(raw-row-v-s)
        (void)s;
        return;
    }
    for (uint32_t k = 0; k < kRows; ++k) {
        Adds(ty[k * kRow], tx[k * kRow], 1.0f, kRow);  // BAD(raw-row-mte2-v) FIRST(raw-row-v-mte3)
        if (k != kMid) continue;
        if (mode == 0 || mode == 2) {
            DataCopy(tx[(kMid + 1) * kRow], gx[(kMid + 1) * kRow], kRow);  // FIRST(raw-row-mte2-v)
            if (mode == 2) {
                SetFlag<HardEvent::MTE2_V>(0);
                WaitFlag<HardEvent::MTE2_V>(0);
            }
        } else if (mode == 1) {
            SetFlag<HardEvent::V_MTE3>(0);
        }
    }
    if (mode != 1) SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(gz, ty, kRows * kRow);  // BAD(raw-row-v-mte3)
}

// C (16 x 16, float) = A (16 x 16, half) x B (16 x 16, half) through TBufs on the cube path:
// `flags` bit 0 keeps MTE2->MTE1 (L1 load before LoadData), bit 1 MTE1->M (LoadData before Mmad),
// bit 2 M->FIX (Mmad before Fixpipe).
extern "C" __global__ __aicore__ void tbuf_cube(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t flags)
{
    constexpr uint16_t F = 16;
    TPipe pipe;
    TBuf<TPosition::A1> ba1;
    TBuf<TPosition::B1> bb1;
    TBuf<TPosition::A2> ba2;
    TBuf<TPosition::B2> bb2;
    TBuf<TPosition::CO1> bc;
    pipe.InitBuffer(ba1, F * F * sizeof(half));
    pipe.InitBuffer(bb1, F * F * sizeof(half));
    pipe.InitBuffer(ba2, F * F * sizeof(half));
    pipe.InitBuffer(bb2, F * F * sizeof(half));
    pipe.InitBuffer(bc, F * F * sizeof(float));
    GlobalTensor<half> ga, gb;
    GlobalTensor<float> gc;
    ga.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a), F * F);
    gb.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b), F * F);
    gc.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), F * F);
    LocalTensor<half> a1 = ba1.Get<half>(), b1 = bb1.Get<half>(), a2 = ba2.Get<half>(), b2 = bb2.Get<half>();
    LocalTensor<float> c1 = bc.Get<float>();
    DataCopy(a1, ga, Nd2NzParams(1, F, F, 0, F, F, 1, 0));
    DataCopy(b1, gb, Nd2NzParams(1, F, F, 0, F, F, 1, 0));  // FIRST(raw-mte2-mte1)
    if (flags & 1u) {
        SetFlag<HardEvent::MTE2_MTE1>(0);
        WaitFlag<HardEvent::MTE2_MTE1>(0);
    }
    LoadData2DParams pb;
    pb.repeatTimes = 1;
    pb.ifTranspose = true;
    LoadData(b2, b1, pb);  // BAD(raw-mte2-mte1)
    LoadData2DParams pa;
    pa.repeatTimes = 1;
    LoadData(a2, a1, pa);  // FIRST(raw-mte1-m)
    if (flags & 2u) {
        SetFlag<HardEvent::MTE1_M>(0);
        WaitFlag<HardEvent::MTE1_M>(0);
    }
    MmadParams mp;
    mp.m = F;
    mp.n = F;
    mp.k = F;
    Mmad(c1, a2, b2, mp);  // BAD(raw-mte1-m) FIRST(raw-m-fix)
    if (flags & 4u) {
        SetFlag<HardEvent::M_FIX>(0);
        WaitFlag<HardEvent::M_FIX>(0);
    }
    FixpipeParamsV220 fp(F, F, F, F, false);
    Fixpipe(gc, c1, fp);  // BAD(raw-m-fix)
}

// z = x * x through the LocalTensor operator form (`dst = src0 * src1`) on TBufs; `flags` bit 0
// keeps the MTE2->V pair. Without it the operator's multiply races the load, and the report names
// this kernel's operator line (not the kernel API header that implements the operator).
extern "C" __global__ __aicore__ void tbuf_operator_mul(GM_ADDR x, GM_ADDR z, uint32_t flags)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bufIn, bufOut;
    pipe.InitBuffer(bufIn, kTile * sizeof(float));
    pipe.InitBuffer(bufOut, kTile * sizeof(float));
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), kTile);
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z), kTile);
    LocalTensor<float> in = bufIn.Get<float>();
    LocalTensor<float> out = bufOut.Get<float>();
    DataCopy(in, gx, kTile);  // FIRST(raw-mte2-v-operator)
    if (flags & 1u) {
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
    }
    out = in * in;  // BAD(raw-mte2-v-operator)
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(gz, out, kTile);
}

// z = x + 1 over one tile with the scalar unit waiting in between, as public retrieval kernels order
// their pipes (set_flag(PIPE_MTE2, PIPE_S) / wait_flag before vector work): a wait of PIPE_S stalls the
// Scalar Unit, which issues every later instruction, so `flags` bit 0 (MTE2 -> S) orders the load before
// the vector op and bit 1 (V -> S) the vector op before the store; a cleared bit drops the wait.
extern "C" __global__ __aicore__ void scalar_wait_orders_all(GM_ADDR x, GM_ADDR z, uint32_t flags)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kTile * sizeof(float));
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), kTile);
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z), kTile);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, gx, kTile);  // FIRST(raw-mte2-s-v)
    if (flags & 1u) {
        set_flag(PIPE_MTE2, PIPE_S, EVENT_ID0);
        wait_flag(PIPE_MTE2, PIPE_S, EVENT_ID0);
    }
    Adds(t, t, 1.0f, kTile);  // BAD(raw-mte2-s-v) FIRST(raw-v-s-mte3)
    if (flags & 2u) {
        SetFlag<HardEvent::V_S>(EVENT_ID1);
        WaitFlag<HardEvent::V_S>(EVENT_ID1);
    }
    DataCopy(gz, t, kTile);  // BAD(raw-v-s-mte3)
}

// A scalar SetValue into a queue's tile, then EnQue / DeQue and the consumer: the queue's flag orders the
// producer pipe (EnQue of a VECOUT tile: V -> MTE3; of a VECIN tile: MTE2 -> V), not the Scalar Unit's store, so
// the consumer needs its own S -> consumer pair (the SetFlag/WaitFlag page: a DataCopy after a SetValue needs
// PIPE_S -> PIPE_MTE3).  `flags` bit 0 keeps that pair; bit 1: a VECIN tile consumed by a vector op (else a
// VECOUT tile stored to GM).
extern "C" __global__ __aicore__ void scalar_then_queue(GM_ADDR z, uint32_t flags)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qin;
    TQue<TPosition::VECOUT, 1> qout;
    pipe.InitBuffer(qin, 1, kTile * sizeof(float));
    pipe.InitBuffer(qout, 1, kTile * sizeof(float));
    GlobalTensor<float> gz;
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z), kTile);
    const bool vecin = (flags & 2u) != 0;
    LocalTensor<float> t = vecin ? qin.AllocTensor<float>() : qout.AllocTensor<float>();
    Duplicate(t, 2.0f, kTile);
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
    t.SetValue(3, 9.0f);  // FIRST(raw-s-enque-mte3) FIRST(raw-s-enque-v)
    if (vecin) {
        if (flags & 1u) {
            SetFlag<HardEvent::S_V>(0);
            WaitFlag<HardEvent::S_V>(0);
        }
        qin.EnQue(t);
        LocalTensor<float> a = qin.DeQue<float>();
        LocalTensor<float> c = qout.AllocTensor<float>();
        Adds(c, a, 1.0f, kTile);  // BAD(raw-s-enque-v)
        qin.FreeTensor(a);
        qout.EnQue(c);
    } else {
        if (flags & 1u) {
            SetFlag<HardEvent::S_MTE3>(0);
            WaitFlag<HardEvent::S_MTE3>(0);
        }
        qout.EnQue(t);
    }
    LocalTensor<float> d = qout.DeQue<float>();
    DataCopy(gz, d, kTile);  // BAD(raw-s-enque-mte3)
    qout.FreeTensor(d);
}

// The mirror case: a scalar read of a dequeued tile.  DeQue is a WaitFlag of the queue's event on the consumer
// pipe (VECIN: MTE2 -> V, VECOUT: V -> MTE3), which does not stall the Scalar Unit, so a GetValue of what the
// producer wrote needs its own producer -> S pair, exactly as after an explicit WaitFlag<HardEvent::MTE2_V>.
// z[0, kTile) = x + x[3] (VECIN) or 2 x (VECOUT); z[kTile, 2 kTile) = the value read (x[3] or 2 x[3]).
// `flags` bit 0 keeps the MTE2_S / V_S pair; bit 1: read the VECOUT tile after its DeQue (else the VECIN one);
// bit 2 (VECIN): an explicit SetFlag / WaitFlag<MTE2_V> instead of EnQue / DeQue.
extern "C" __global__ __aicore__ void queue_then_scalar(GM_ADDR x, GM_ADDR z, uint32_t flags)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qin;
    TQue<TPosition::VECOUT, 1> qout;
    pipe.InitBuffer(qin, 1, kTile * sizeof(float));
    pipe.InitBuffer(qout, 1, kTile * sizeof(float));
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), kTile);
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z), 2 * kTile);
    const bool vecout = (flags & 2u) != 0;
    LocalTensor<float> a = qin.AllocTensor<float>();
    DataCopy(a, gx, kTile);  // FIRST(raw-deque-mte2-s)
    if (flags & 4u) {
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
    } else {
        qin.EnQue(a);
        a = qin.DeQue<float>();
    }
    LocalTensor<float> c = qout.AllocTensor<float>();
    float v = 0.0f;
    if (!vecout) {
        if (flags & 1u) {
            SetFlag<HardEvent::MTE2_S>(0);
            WaitFlag<HardEvent::MTE2_S>(0);
        }
        v = a.GetValue(3);  // BAD(raw-deque-mte2-s)
        Adds(c, a, v, kTile);
        qin.FreeTensor(a);
        qout.EnQue(c);
        c = qout.DeQue<float>();
    } else {
        Muls(c, a, 2.0f, kTile);  // FIRST(raw-deque-v-s)
        qin.FreeTensor(a);
        qout.EnQue(c);
        c = qout.DeQue<float>();
        if (flags & 1u) {
            SetFlag<HardEvent::V_S>(0);
            WaitFlag<HardEvent::V_S>(0);
        }
        v = c.GetValue(3);  // BAD(raw-deque-v-s)
    }
    DataCopy(gz, c, kTile);
    qout.FreeTensor(c);
    LocalTensor<float> e = qout.AllocTensor<float>();
    Duplicate(e, v, kTile);
    qout.EnQue(e);
    e = qout.DeQue<float>();
    DataCopy(gz[kTile], e, kTile);
    qout.FreeTensor(e);
}
