// A vector (AIV) kernel written for the Atlas 350 / Ascend 950 (build with soc="Ascend950PR_9599"):
// the architecture macros public 950 kernels test, and an add whose tile uses the 950's larger Unified
// Buffer (248 KiB usable; 192 KiB on Atlas A2).
#include "kernel_operator.h"

using namespace AscendC;

// Reports __CCE_AICORE__, __NPU_ARCH__ and which dav core macros are defined.
extern "C" __global__ __aicore__ void a950_arch(GM_ADDR out)
{
    GlobalTensor<int32_t> o;
    o.SetGlobalBuffer((__gm__ int32_t *)out, 6);
    if (GetBlockIdx() != 0) {
        return;
    }
    o.SetValue(0, __CCE_AICORE__);
    o.SetValue(1, __NPU_ARCH__);
#if defined(__DAV_C310__)
    o.SetValue(2, 1);
#else
    o.SetValue(2, 0);
#endif
#if defined(__DAV_C310_VEC__)
    o.SetValue(3, 1);
#else
    o.SetValue(3, 0);
#endif
#if defined(__DAV_C220_VEC__) || defined(__DAV_C220_CUBE__)
    o.SetValue(4, 1);
#else
    o.SetValue(4, 0);
#endif
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510
    o.SetValue(5, 3510);  // the A5 code path public kernels select
#else
    o.SetValue(5, 0);
#endif
}

// z = x + y over n floats per block, in tiles of TILE floats: three 64 KiB buffers (192 KiB) plus a
// 32 KiB scratch, 224 KiB of UB in all -- more than an Atlas A2 core has.
constexpr uint32_t TILE = 16384;

extern "C" __global__ __aicore__ void a950_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qx, qy;
    TQue<TPosition::VECOUT, 1> qz;
    TBuf<TPosition::VECCALC> scratch;
    pipe.InitBuffer(qx, 1, TILE * sizeof(float));
    pipe.InitBuffer(qy, 1, TILE * sizeof(float));
    pipe.InitBuffer(qz, 1, TILE * sizeof(float));
    pipe.InitBuffer(scratch, 32 * 1024);
    GlobalTensor<float> gx, gy, gz;
    const uint64_t base = static_cast<uint64_t>(GetBlockIdx()) * n;
    gx.SetGlobalBuffer((__gm__ float *)x + base, n);
    gy.SetGlobalBuffer((__gm__ float *)y + base, n);
    gz.SetGlobalBuffer((__gm__ float *)z + base, n);
    for (uint32_t off = 0; off < n; off += TILE) {
        const uint32_t len = (n - off < TILE) ? n - off : TILE;
        LocalTensor<float> lx = qx.AllocTensor<float>();
        LocalTensor<float> ly = qy.AllocTensor<float>();
        DataCopy(lx, gx[off], len);
        DataCopy(ly, gy[off], len);
        qx.EnQue(lx);
        qy.EnQue(ly);
        lx = qx.DeQue<float>();
        ly = qy.DeQue<float>();
        LocalTensor<float> lz = qz.AllocTensor<float>();
        Add(lz, lx, ly, len);
        qz.EnQue(lz);
        qx.FreeTensor(lx);
        qy.FreeTensor(ly);
        lz = qz.DeQue<float>();
        DataCopy(gz[off], lz, len);
        qz.FreeTensor(lz);
    }
}
