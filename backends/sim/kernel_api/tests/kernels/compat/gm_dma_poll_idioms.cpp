// Compatibility kernels (ours, in the style of MoE dispatch / combine kernels that exchange status
// blocks between cores or PEs): producer blocks write their data to GM, fence, and publish a 32-byte
// status block by DMA; consumer blocks poll every producer's status block with one strided DataCopy
// (GM -> UB) in a loop, add the status words up and go on once the sum is the target.  Such a loop
// never gives up its core on hardware, where every block has one.  The consumers are the low block
// numbers, so on a host with fewer threads than consumers they all start before any producer (the
// simulator must let them yield, kapi/gm_poll_yield.h), and the poll is the acquire that orders the
// producers' data before the consumers' reads (gm-cross-core-race, kapi/gm_poll.h).
// `mode`: 0 the handshake; 1 BAD: the consumers read the data without waiting; 2 BAD: the producers
// publish their status before their data; 3: producer 0 never publishes (a hang on hardware).
// tests/test_sim_compat_gm_dma_poll.py runs them against NumPy.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t kTile = 64;          // floats per producer
constexpr uint32_t kStatusFloats = 8;   // one 32-byte status block
constexpr uint32_t kStatusStride = 16;  // floats from one producer's status block to the next (a block apart)

// t = 2 * x[p] in UB, and st = val (a status block, when st is given), ready for MTE3.
__aicore__ inline void DoubleTile(TPipe &pipe, const LocalTensor<float> &t, const GlobalTensor<float> &xGm, uint32_t p,
                                  const LocalTensor<float> *st = nullptr, float val = 0.0f)
{
    DataCopy(t, xGm[p * kTile], kTile);
    event_t loaded = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_V));
    SetFlag<HardEvent::MTE2_V>(loaded);
    WaitFlag<HardEvent::MTE2_V>(loaded);
    Muls(t, t, 2.0f, kTile);
    if (st != nullptr) {
        Duplicate(*st, val, kStatusFloats);
    }
    event_t computed = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE3));
    SetFlag<HardEvent::V_MTE3>(computed);
    WaitFlag<HardEvent::V_MTE3>(computed);
}

// y[c] = work[c % producers], through UB.
__aicore__ inline void CopyTile(TPipe &pipe, const LocalTensor<float> &t, const GlobalTensor<float> &workGm,
                                const GlobalTensor<float> &yGm, uint32_t c, uint32_t producers)
{
    DataCopy(t, workGm[(c % producers) * kTile], kTile);  // BAD(consumer-read)
    event_t loaded = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_MTE3));
    SetFlag<HardEvent::MTE2_MTE3>(loaded);
    WaitFlag<HardEvent::MTE2_MTE3>(loaded);
    DataCopy(yGm[c * kTile], t, kTile);
    PipeBarrier<PIPE_ALL>();
}

// Producer p: work[p] = 2 * x[p], then its status block = val (all eight words).
__aicore__ inline void Produce(TPipe &pipe, const LocalTensor<float> &t, const LocalTensor<float> &st,
                               const GlobalTensor<float> &xGm, const GlobalTensor<float> &workGm,
                               const GlobalTensor<float> &statusGm, uint32_t p, float val, uint32_t mode)
{
    DoubleTile(pipe, t, xGm, p, &st, val);
    if (mode == 2) {
        DataCopy(statusGm[p * kStatusStride], st, kStatusFloats);  // BAD(status-first)
    }
    DataCopy(workGm[p * kTile], t, kTile);  // BAD(producer-write)
    PipeBarrier<PIPE_ALL>();  // the data has landed before the status copy starts
    if (mode == 0 || mode == 1 || (mode == 3 && p != 0)) {
        DataCopy(statusGm[p * kStatusStride], st, kStatusFloats);
    }
    PipeBarrier<PIPE_ALL>();
}

// Consumer c: waits until the producers' status words add up to producers * val, then y[c] = work[c % producers].
__aicore__ inline void Consume(TPipe &pipe, const LocalTensor<float> &t, const LocalTensor<float> &st,
                               const GlobalTensor<float> &statusGm, const GlobalTensor<float> &workGm,
                               const GlobalTensor<float> &yGm, uint32_t c, uint32_t producers, float val, uint32_t mode)
{
    if (mode != 1) {
        const float target = val * static_cast<float>(producers);
        DataCopyParams rows{static_cast<uint16_t>(producers), 1, static_cast<uint16_t>(kStatusStride / 8 - 1), 0};
        float sum = -1.0f;
        while (sum != target) {
            DataCopy(st, statusGm, rows);  // BAD(status-poll)
            event_t got = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
            SetFlag<HardEvent::MTE2_S>(got);
            WaitFlag<HardEvent::MTE2_S>(got);
            sum = 0.0f;
            for (uint32_t p = 0; p < producers; ++p) {
                sum += st.GetValue(p * kStatusFloats);
            }
            event_t read = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE2));
            SetFlag<HardEvent::S_MTE2>(read);
            WaitFlag<HardEvent::S_MTE2>(read);
        }
    }
    CopyTile(pipe, t, workGm, yGm, c, producers);
}
}  // namespace

// Blocks 0 .. blocks - producers - 1 consume, the last `producers` blocks produce.  work: producers * kTile
// floats, status: producers * kStatusStride floats (a launch waits for status words equal to val: a second
// launch with another val polls past the first one's), y: consumers * kTile floats.
extern "C" __global__ __aicore__ void dma_poll_handshake(GM_ADDR x, GM_ADDR work, GM_ADDR status, GM_ADDR y,
                                                         uint32_t producers, float val, uint32_t mode)
{
    TPipe pipe;
    const uint32_t blocks = GetBlockNum(), b = GetBlockIdx(), consumers = blocks - producers;
    GlobalTensor<float> xGm, workGm, statusGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), producers * kTile);
    workGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(work), producers * kTile);
    statusGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(status), producers * kStatusStride);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), consumers * kTile);
    TBuf<TPosition::VECCALC> buf, statusBuf;
    pipe.InitBuffer(buf, kTile * sizeof(float));
    pipe.InitBuffer(statusBuf, producers * kStatusFloats * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    LocalTensor<float> st = statusBuf.Get<float>();
    if (b >= consumers) {
        Produce(pipe, t, st, xGm, workGm, statusGm, b - consumers, val, mode);
    } else {
        Consume(pipe, t, st, statusGm, workGm, yGm, b, producers, val, mode);
    }
}

// A scalar poll of the same handshake: producer blocks (the last `producers`) write work[p] = 2 * x[p] and then
// store flags[p * 16] = val and write its line back; consumer blocks invalidate and load each flag until it
// is val (DataCacheCleanAndInvalid + GetValue), then y[c] = work[c % producers].
extern "C" __global__ __aicore__ void scalar_poll_handshake(GM_ADDR x, GM_ADDR work, GM_ADDR flags, GM_ADDR y,
                                                            uint32_t producers, int32_t val)
{
    TPipe pipe;
    const uint32_t blocks = GetBlockNum(), b = GetBlockIdx(), consumers = blocks - producers;
    GlobalTensor<float> xGm, workGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), producers * kTile);
    workGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(work), producers * kTile);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), consumers * kTile);
    GlobalTensor<int32_t> flagGm;
    flagGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(flags), producers * 16);  // a 64-byte line each
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kTile * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    if (b >= consumers) {
        const uint32_t p = b - consumers;
        DoubleTile(pipe, t, xGm, p);
        DataCopy(workGm[p * kTile], t, kTile);
        PipeBarrier<PIPE_ALL>();
        flagGm.SetValue(p * 16, val);
        DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(flagGm[p * 16]);
        return;
    }
    for (uint32_t p = 0; p < producers; ++p) {
        do {
            DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(flagGm[p * 16]);
        } while (flagGm.GetValue(p * 16) != val);
    }
    CopyTile(pipe, t, workGm, yGm, b, producers);
}
