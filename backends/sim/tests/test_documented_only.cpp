// Compile-only check: the kernel API headers (and the SDK paths' lib headers) compile warning-free in
// documented-names-only mode (PYASC_SIM_DOCUMENTED_ONLY=1), and a kernel written with documented
// names only compiles there. The names the mode hides are listed in kernel_api/README.md.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "lib/matrix/matmul/matmul.h"
#include "lib/pad/broadcast.h"
#include "lib/sort/topk.h"

#if !PYASC_SIM_DOCUMENTED_ONLY
#error "compile this file with -DPYASC_SIM_DOCUMENTED_ONLY=1"
#endif

extern "C" __global__ __aicore__ void documented_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n) {
    AscendC::GlobalTensor<float> xg, yg, zg;
    xg.SetGlobalBuffer((__gm__ float *)x, n);
    yg.SetGlobalBuffer((__gm__ float *)y, n);
    zg.SetGlobalBuffer((__gm__ float *)z, n);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 3 * n * sizeof(float));
    AscendC::LocalTensor<float> a = buf.Get<float>();
    AscendC::LocalTensor<float> b = a[n];
    AscendC::LocalTensor<float> c = a[2 * n];
    AscendC::DataCopy(a, xg, n);
    AscendC::DataCopy(b, yg, n);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(0);
    AscendC::Add(c, a, b, n);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::DataCopy(zg, c, n);
    pipe_barrier(PIPE_ALL);  // the compiler builtin's global spelling stays
}
PYASC_SIM_KERNEL(documented_add)
