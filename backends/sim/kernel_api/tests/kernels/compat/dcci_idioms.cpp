// Compatibility kernels (ours, in the style of public Ascend C): scalar GM accesses ordered with
// DataCacheCleanAndInvalid.  Public kernels that write GM element by element with
// GlobalTensor::SetValue (counters, offsets tables, small scans) flush the data cache afterwards so
// that the stores reach GM before another core or a DMA reads them, and invalidate before scalar
// reads of data a DMA wrote.  Every documented form is used here: the three-parameter forms on a
// GlobalTensor and a LocalTensor, and the two-parameter GlobalTensor form of the Atlas inference
// series.  tests/test_sim_compat_dcci.py runs them against NumPy.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t kCols = 64;           // floats per row
constexpr uint32_t kLineFloats = 16;     // 64-byte cache line
constexpr uint32_t kBins = 16;
}  // namespace

// y[b, :] = cumsum(x[b, :]) * scale for row b = block index: scalar reads, scalar stores, one
// SINGLE_CACHE_LINE flush per written line and a whole-cache flush at the end.
extern "C" __global__ __aicore__ void scalar_row_cumsum(GM_ADDR x, GM_ADDR y, float scale)
{
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x) + GetBlockIdx() * kCols, kCols);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y) + GetBlockIdx() * kCols, kCols);
    // the input came by DMA from the host: drop any stale line before the scalar reads
    DataCacheCleanAndInvalid<float, CacheLine::ENTIRE_DATA_CACHE, DcciDst::CACHELINE_OUT>(xGm);
    float acc = 0.0f;
    for (uint32_t i = 0; i < kCols; ++i) {
        acc += xGm.GetValue(i);
        yGm.SetValue(i, acc * scale);
        if ((i + 1) % kLineFloats == 0) {
            DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(
                yGm[i + 1 - kLineFloats]);
        }
    }
    DataCacheCleanAndInvalid<float, CacheLine::ENTIRE_DATA_CACHE, DcciDst::CACHELINE_ALL>(yGm);
}

// hist[v] counts the values v of codes[0:n] (0 <= v < 16), one block: the Atlas-inference-style
// two-parameter flush after the scalar read-modify-writes; a local staging row written with
// LocalTensor::SetValue and flushed with the LocalTensor form is copied out with DataCopy as well.
extern "C" __global__ __aicore__ void scalar_histogram(GM_ADDR codes, GM_ADDR hist, GM_ADDR histCopy, uint32_t n)
{
    GlobalTensor<int32_t> codeGm, histGm, copyGm;
    codeGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(codes), n);
    histGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(hist), kBins);
    copyGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(histCopy), kBins);
    for (uint32_t b = 0; b < kBins; ++b) {
        histGm.SetValue(b, 0);
    }
    DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE>(histGm);
    for (uint32_t i = 0; i < n; ++i) {
        const int32_t v = codeGm.GetValue(i);
        histGm.SetValue(v, histGm.GetValue(v) + 1);
    }
    DataCacheCleanAndInvalid<int32_t, CacheLine::ENTIRE_DATA_CACHE>(histGm);

    TPipe pipe;
    TBuf<TPosition::VECCALC> stage;
    pipe.InitBuffer(stage, kBins * sizeof(int32_t));
    LocalTensor<int32_t> row = stage.Get<int32_t>();
    for (uint32_t b = 0; b < kBins; ++b) {
        row.SetValue(b, histGm.GetValue(b));
    }
    DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_UB>(row);
    // the scalar stores into UB must land before MTE3 reads the row
    event_t stored = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
    SetFlag<HardEvent::S_MTE3>(stored);
    WaitFlag<HardEvent::S_MTE3>(stored);
    DataCopy(copyGm, row, kBins);
}
