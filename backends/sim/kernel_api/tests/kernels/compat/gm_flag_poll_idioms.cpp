// Compatibility kernels (ours, in the style of public collective kernels such as memfabric_hybrid's
// zbal broadcast / reduce-scatter): blocks signal each other through a GM flag word and the scalar
// data cache instead of SyncAll or cross-core flags.  The writer moves its data to GM by DMA, waits
// for the DMA (PipeBarrier<PIPE_ALL>), stores the flag and writes its line back with
// DataCacheCleanAndInvalid; a reader invalidates the line and loads the flag until the value
// appears, then reads the data.  Two spellings: raw `__gm__` pointers with a dcci helper (as zbal's
// ZBALSetFlag / ZBALWaitFlag), and GlobalTensor SetValue / GetValue.  The `flag_broadcast_bad`
// modes break one rule each (BAD(...) lines): gm-cross-core-race must report them.
// tests/test_sim_compat_gm_flag_poll.py runs them against NumPy.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t kTile = 64;        // floats per block
constexpr uint32_t kFlagStride = 8;   // uint64 per flag: one 64-byte line each

// A store of the flag, written back (published).
__aicore__ inline void set_flag_raw(__gm__ uint64_t *flag, uint64_t v)
{
    *flag = v;
    GlobalTensor<uint64_t> g;
    g.SetGlobalBuffer(flag);
    DataCacheCleanAndInvalid<uint64_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(g);
}

// Invalidate, load, until the value appears.
__aicore__ inline void wait_flag_raw(__gm__ uint64_t *flag, uint64_t v)
{
    GlobalTensor<uint64_t> g;
    g.SetGlobalBuffer(flag);
    while (true) {
        DataCacheCleanAndInvalid<uint64_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(g);
        if (*flag == v) {
            break;
        }
    }
}

// tile <- scale * src (DMA in, Muls, DMA out), then every pipe done before the scalar unit goes on.
__aicore__ inline void scaled_copy(TPipe &pipe, GlobalTensor<float> dst, GlobalTensor<float> src, uint32_t n,
                                   float scale)
{
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, n * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, src, n);
    PipeBarrier<PIPE_ALL>();
    Muls(t, t, scale, n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(dst, t, n);
    PipeBarrier<PIPE_ALL>();
}
}  // namespace

// Block 0 writes work = 2 * x (all tiles) and publishes flags[0] = val; every block waits for it and
// copies its tile of work to y.  y = 2 * x.
extern "C" __global__ __aicore__ void flag_broadcast_raw(GM_ADDR x, GM_ADDR work, GM_ADDR y, GM_ADDR flags,
                                                         uint64_t val)
{
    TPipe pipe;
    const uint32_t n = GetBlockNum() * kTile, b = GetBlockIdx();
    GlobalTensor<float> xGm, workGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), n);
    workGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(work), n);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), n);
    __gm__ uint64_t *flag = reinterpret_cast<__gm__ uint64_t *>(flags);
    if (b == 0) {
        scaled_copy(pipe, workGm, xGm, n, 2.0f);
        set_flag_raw(flag, val);
    } else {
        wait_flag_raw(flag, val);
    }
    TPipe pipe2;
    scaled_copy(pipe2, yGm[b * kTile], workGm[b * kTile], kTile, 1.0f);
}

// The same with GlobalTensor<uint64_t>::SetValue / GetValue and DataCacheCleanAndInvalid.
extern "C" __global__ __aicore__ void flag_broadcast_setvalue(GM_ADDR x, GM_ADDR work, GM_ADDR y, GM_ADDR flags,
                                                              uint64_t val)
{
    TPipe pipe;
    const uint32_t n = GetBlockNum() * kTile, b = GetBlockIdx();
    GlobalTensor<float> xGm, workGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), n);
    workGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(work), n);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), n);
    GlobalTensor<uint64_t> flagGm;
    flagGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint64_t *>(flags), kFlagStride);
    if (b == 0) {
        scaled_copy(pipe, workGm, xGm, n, 2.0f);
        flagGm.SetValue(0, val);
        DataCacheCleanAndInvalid<uint64_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(flagGm);
    } else {
        do {
            DataCacheCleanAndInvalid<uint64_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(flagGm);
        } while (flagGm.GetValue(0) != val);
    }
    TPipe pipe2;
    scaled_copy(pipe2, yGm[b * kTile], workGm[b * kTile], kTile, 1.0f);
}

// A ring, every block both a writer and a reader (reduce-scatter style): block b writes
// work[b] = 3 * x[b], publishes flags[b] = val, waits for flags[(b + 1) % n] and adds that block's
// tile: y[b] = work[b] + work[b + 1].
extern "C" __global__ __aicore__ void flag_ring_raw(GM_ADDR x, GM_ADDR work, GM_ADDR y, GM_ADDR flags, uint64_t val)
{
    TPipe pipe;
    const uint32_t blocks = GetBlockNum(), b = GetBlockIdx(), next = (b + 1) % blocks;
    GlobalTensor<float> xGm, workGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), blocks * kTile);
    workGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(work), blocks * kTile);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), blocks * kTile);
    __gm__ uint64_t *flag = reinterpret_cast<__gm__ uint64_t *>(flags);
    scaled_copy(pipe, workGm[b * kTile], xGm[b * kTile], kTile, 3.0f);
    set_flag_raw(flag + b * kFlagStride, val);
    wait_flag_raw(flag + next * kFlagStride, val);
    TPipe pipe2;
    TBuf<TPosition::VECCALC> buf;
    pipe2.InitBuffer(buf, 2 * kTile * sizeof(float));
    LocalTensor<float> mine = buf.Get<float>(), theirs = mine[kTile];
    DataCopy(mine, workGm[b * kTile], kTile);
    DataCopy(theirs, workGm[next * kTile], kTile);
    PipeBarrier<PIPE_ALL>();
    Add(mine, mine, theirs, kTile);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm[b * kTile], mine, kTile);
}

// flag_broadcast_raw with one rule broken (two blocks): mode 0 the writer never writes the flag's line
// back, 1 the reader loads the flag without invalidating its line, 2 the reader reads the data before
// it waits, 3 the writer writes the data after it published the flag.
extern "C" __global__ __aicore__ void flag_broadcast_bad(GM_ADDR x, GM_ADDR work, GM_ADDR y, GM_ADDR flags,
                                                         uint64_t val, uint32_t mode)
{
    TPipe pipe;
    const uint32_t n = GetBlockNum() * kTile, b = GetBlockIdx();
    GlobalTensor<float> xGm, workGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), n);
    workGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(work), n);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), n);
    __gm__ uint64_t *flag = reinterpret_cast<__gm__ uint64_t *>(flags);
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, n * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    if (b == 0) {
        DataCopy(t, xGm, n);
        PipeBarrier<PIPE_ALL>();
        if (mode != 3) {
            DataCopy(workGm, t, n);  // BAD(bad-write)
            PipeBarrier<PIPE_ALL>();
        }
        if (mode == 0) {
            *flag = val;  // never written back
        } else {
            set_flag_raw(flag, val);
        }
        if (mode == 3) {
            DataCopy(workGm, t, n);  // BAD(late-write)
            PipeBarrier<PIPE_ALL>();
        }
        return;
    }
    if (mode == 2) {
        DataCopy(t, workGm[b * kTile], kTile);  // BAD(early-read)
        PipeBarrier<PIPE_ALL>();
    }
    if (mode == 1) {
        while (*reinterpret_cast<volatile __gm__ uint64_t *>(flag) != val) {  // BAD(cached-poll)
        }
    } else {
        wait_flag_raw(flag, val);
    }
    if (mode != 2) {
        DataCopy(t, workGm[b * kTile], kTile);  // BAD(bad-read)
        PipeBarrier<PIPE_ALL>();
    }
    DataCopy(yGm[b * kTile], t, kTile);
}

// flag_broadcast_setvalue past the per-core limit of the race check's flag tables (kGmPollSlots, 8; kernel
// API README "GM flag polling"), each core touching 8 more lines of its own `scratch` (one int64 per
// 64-byte line, nobody else's): mode 0 the writer stores the flag, then 8 scratch words, then writes the
// whole data cache back; mode 1 the readers invalidate the flag's line, then 8 scratch lines, then poll
// the flag; mode 2 the readers poll the flag, then load 8 invalidated scratch lines, in each iteration.
// All three are correct: no report, y = 2 * x.
extern "C" __global__ __aicore__ void flag_past_the_slots(GM_ADDR x, GM_ADDR work, GM_ADDR y, GM_ADDR flags,
                                                          GM_ADDR scratch, uint64_t val, uint32_t mode)
{
    TPipe pipe;
    constexpr uint32_t kMore = 8;
    const uint32_t n = GetBlockNum() * kTile, b = GetBlockIdx();
    GlobalTensor<float> xGm, workGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), n);
    workGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(work), n);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), n);
    GlobalTensor<uint64_t> flagGm, mine;
    flagGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint64_t *>(flags), kFlagStride);
    mine.SetGlobalBuffer(reinterpret_cast<__gm__ uint64_t *>(scratch) + b * kMore * kFlagStride, kMore * kFlagStride);
    if (b == 0) {
        scaled_copy(pipe, workGm, xGm, n, 2.0f);
        flagGm.SetValue(0, val);
        if (mode == 0) {
            for (uint32_t i = 0; i < kMore; ++i) mine.SetValue(i * kFlagStride, val + i);
            DataCacheCleanAndInvalid<uint64_t, CacheLine::ENTIRE_DATA_CACHE, DcciDst::CACHELINE_OUT>(flagGm);
        } else {
            DataCacheCleanAndInvalid<uint64_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(flagGm);
        }
    } else {
        uint64_t seen = 0, sum = 0;
        do {
            DataCacheCleanAndInvalid<uint64_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(flagGm);
            if (mode == 2) seen = flagGm.GetValue(0);
            for (uint32_t i = 0; i < kMore; ++i) {
                GlobalTensor<uint64_t> line = mine[i * kFlagStride];
                DataCacheCleanAndInvalid<uint64_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(line);
                if (mode == 2) sum += line.GetValue(0);
            }
            if (mode != 2) seen = flagGm.GetValue(0);
        } while (seen != val);
        (void)sum;
    }
    TPipe pipe2;
    scaled_copy(pipe2, yGm[b * kTile], workGm[b * kTile], kTile, 1.0f);
}
