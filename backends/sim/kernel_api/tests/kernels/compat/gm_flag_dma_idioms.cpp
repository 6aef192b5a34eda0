// Compatibility kernels (ours, in the style of SHMEM-based collectives and MC2 dispatch / combine
// kernels): the writer publishes a GM flag with a DMA copy of a UB flag block (DataCopy of one 32-byte
// block, or DataCopyPad of one int32 word) instead of a scalar store + DataCacheCleanAndInvalid; the
// readers poll the flag through the data cache (DataCacheCleanAndInvalid + GetValue until the value
// appears) and then read the data.  The writer's data copy to GM must have landed before the flag's
// copy starts: PipeBarrier<PIPE_MTE3>, PipeBarrier<PIPE_ALL>, or SetFlag / WaitFlag MTE3_S (the scalar
// unit, which issues the flag copy, waits for MTE3's copies).  `mode` picks the fence; modes 3 and 4
// break the rule (BAD(...) lines): gm-cross-core-race must report them.
// tests/test_sim_compat_gm_flag_dma.py runs them against NumPy.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t kTile = 64;      // floats per block
constexpr uint32_t kFlagWords = 8;  // int32 per flag block: one 32-byte DMA block

// What orders the data copy before the flag copy.
__aicore__ inline void fence(uint32_t mode)
{
    if (mode == 0) {
        PipeBarrier<PIPE_MTE3>();
    } else if (mode == 1) {
        event_t done = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE3_S));
        SetFlag<HardEvent::MTE3_S>(done);
        WaitFlag<HardEvent::MTE3_S>(done);
    } else if (mode == 2) {
        PipeBarrier<PIPE_ALL>();
    }
}

// t = 2 * x (n floats) in UB, ready for MTE3 to copy out.
__aicore__ inline void DoubleInUb(TPipe &pipe, const LocalTensor<float> &t, const GlobalTensor<float> &xGm, uint32_t n)
{
    DataCopy(t, xGm, n);
    event_t loaded = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_V));
    SetFlag<HardEvent::MTE2_V>(loaded);
    WaitFlag<HardEvent::MTE2_V>(loaded);
    Muls(t, t, 2.0f, n);
    event_t computed = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE3));
    SetFlag<HardEvent::V_MTE3>(computed);
    WaitFlag<HardEvent::V_MTE3>(computed);
}

// A poller block b: waits (through the data cache) for flags[word] == val, then copies its tile of work to y.
__aicore__ inline void PollThenCopyTile(TPipe &pipe, const LocalTensor<float> &t, GlobalTensor<int32_t> &flagGm,
                                        uint32_t word, int32_t val, const GlobalTensor<float> &workGm,
                                        const GlobalTensor<float> &yGm, uint32_t b)
{
    do {
        DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(flagGm[word]);
    } while (flagGm.GetValue(word) != val);  // BAD(scalar-flag-poll)
    DataCopy(t, workGm[b * kTile], kTile);  // BAD(poller-read) // BAD(scalar-flag-poller-read)
    event_t loaded = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_MTE3));
    SetFlag<HardEvent::MTE2_MTE3>(loaded);
    WaitFlag<HardEvent::MTE2_MTE3>(loaded);
    DataCopy(yGm[b * kTile], t, kTile);
    PipeBarrier<PIPE_ALL>();
}
}  // namespace

// Block 0 writes work = 2 * x (all tiles) by DMA and publishes flags[word] = val by DMA (`pad` 0: the
// whole 32-byte flag block by DataCopy; 1: the one int32 word by DataCopyPad); every other block polls
// flags[word] and copies its tile of work to y.  y = 2 * x.
extern "C" __global__ __aicore__ void dma_flag_broadcast(GM_ADDR x, GM_ADDR work, GM_ADDR y, GM_ADDR flags,
                                                         int32_t val, uint32_t mode, uint32_t pad, uint32_t word)
{
    TPipe pipe;
    const uint32_t blocks = GetBlockNum(), n = blocks * kTile, b = GetBlockIdx();
    GlobalTensor<float> xGm, workGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), n);
    workGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(work), n);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), n);
    GlobalTensor<int32_t> flagGm;
    flagGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(flags), kFlagWords);
    TBuf<TPosition::VECCALC> buf, flagBuf;
    pipe.InitBuffer(buf, n * sizeof(float));
    pipe.InitBuffer(flagBuf, kFlagWords * sizeof(int32_t));
    LocalTensor<float> t = buf.Get<float>();
    if (b == 0) {
        LocalTensor<int32_t> f = flagBuf.Get<int32_t>();
        Duplicate(f, val, kFlagWords);
        DoubleInUb(pipe, t, xGm, n);
        if (mode == 4) {  // half of the data before the fence, half after it, then the flag
            DataCopy(workGm, t, n / 2);
            PipeBarrier<PIPE_MTE3>();
            DataCopy(workGm[n / 2], t[n / 2], n / 2);  // BAD(after-fence)
        } else {
            DataCopy(workGm, t, n);  // BAD(unfenced)
            fence(mode);
        }
        if (pad != 0) {
            DataCopyExtParams one{1, static_cast<uint32_t>(sizeof(int32_t)), 0, 0, 0};
            DataCopyPad(flagGm[word], f, one);
        } else {
            DataCopy(flagGm, f, kFlagWords);
        }
        PipeBarrier<PIPE_ALL>();
    } else {
        PollThenCopyTile(pipe, t, flagGm, word, val, workGm, yGm, b);
        return;
    }
    DataCopy(yGm, t, kTile);  // block 0's own tile (2 * x, still in UB)
    PipeBarrier<PIPE_ALL>();
}

// Block 0 writes work = 2 * x by DMA, then publishes flags[word] = val with a scalar store
// (GlobalTensor::SetValue + DataCacheCleanAndInvalid, the zbal-style flag); every other block polls it and
// copies its tile of work to y.  The flag's write-back orders the scalar unit's work, not copies MTE3 still
// runs: the data copy must have landed before the flag store -- SetFlag / WaitFlag MTE3_S (mode 1) or
// PipeBarrier<PIPE_ALL> (mode 2) hold the scalar unit until then; PipeBarrier<PIPE_MTE3> (mode 0) waits on
// the MTE3 pipe only, and mode 3 has no fence: both are races.
extern "C" __global__ __aicore__ void dma_data_scalar_flag(GM_ADDR x, GM_ADDR work, GM_ADDR y, GM_ADDR flags,
                                                           int32_t val, uint32_t mode, uint32_t word)
{
    TPipe pipe;
    const uint32_t blocks = GetBlockNum(), n = blocks * kTile, b = GetBlockIdx();
    GlobalTensor<float> xGm, workGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), n);
    workGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(work), n);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), n);
    GlobalTensor<int32_t> flagGm;
    flagGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(flags), kFlagWords);
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, n * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    if (b == 0) {
        DoubleInUb(pipe, t, xGm, n);
        DataCopy(workGm, t, n);  // BAD(scalar-flag-unfenced)
        fence(mode);
        flagGm.SetValue(word, val);  // BAD(scalar-flag-store)
        DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(flagGm[word]);
    } else {
        PollThenCopyTile(pipe, t, flagGm, word, val, workGm, yGm, b);
        return;
    }
    DataCopy(yGm, t, kTile);  // block 0's own tile (2 * x, still in UB)
    PipeBarrier<PIPE_ALL>();
}
