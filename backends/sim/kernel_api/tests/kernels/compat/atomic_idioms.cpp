// Compatibility kernels (ours, in the style of public Ascend C): atomic accumulation into GM.
// Public kernels reduce partial results across blocks with SetAtomicAdd<T>() around a DataCopy
// from VECOUT to GM; some also write single GM values with GlobalTensor::SetValue while the
// atomic mode is on, which the reference documents as a scalar store through the data cache, not
// an atomic move (it overwrites). tests/test_sim_compat_atomic.py runs them against NumPy.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t kCols = 64;  // floats per row: one 256-byte tile
}  // namespace

// y[0:64] += x[block, 0:64] for every block (y zeroed by the host), through the atomic DataCopy.
extern "C" __global__ __aicore__ void atomic_row_sum(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQue;
    pipe.InitBuffer(inQue, 1, kCols * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x) + GetBlockIdx() * kCols, kCols);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), kCols);
    LocalTensor<float> row = inQue.AllocTensor<float>();
    DataCopy(row, xGm, kCols);
    inQue.EnQue(row);
    row = inQue.DeQue<float>();
    SetAtomicAdd<float>();
    // the row moves from VECIN to GM with the MTE3 store: wait for the MTE2 load first
    event_t loaded = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_MTE3));
    SetFlag<HardEvent::MTE2_MTE3>(loaded);
    WaitFlag<HardEvent::MTE2_MTE3>(loaded);
    DataCopy(yGm, row, kCols);
    SetAtomicNone();
    inQue.FreeTensor(row);
}

// y[slot] = value with SetAtomicAdd<float>() still on: a scalar store, so y[slot] == value
// afterwards (not y[slot] + value), and the simulator warns 'setvalue-not-atomic'.
extern "C" __global__ __aicore__ void atomic_then_setvalue(GM_ADDR y, uint32_t slot, float value)
{
    GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), kCols);
    SetAtomicAdd<float>();
    yGm.SetValue(slot, value);  // WARN(setvalue-not-atomic)
    SetAtomicNone();
}
