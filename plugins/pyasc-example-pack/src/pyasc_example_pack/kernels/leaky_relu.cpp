// example::leaky_relu for the simulator and the NPU: y = x >= 0 ? x : x * slope.
// A template kernel with the standard custom-op signature, instantiated for float and half below
// (pyasc names the instances leaky_relu<float> and leaky_relu<half> and picks one per input
// dtype); the host tiling (kernels.py) splits n elements over the blocks in multiples of TILE and
// passes the slope in the tiling struct.
#include "kernel_operator.h"
using namespace AscendC;

struct LeakyReluTiling {
    uint32_t total;     // elements
    uint32_t per_core;  // elements per block (a multiple of tile)
    uint32_t tile;      // elements per UB tile (a multiple of 8)
    float slope;
};

template <typename T>
__global__ __aicore__ void leaky_relu(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    const LeakyReluTiling t = *reinterpret_cast<__gm__ LeakyReluTiling *>(tiling);
    const uint32_t start = GetBlockIdx() * t.per_core;
    if (start >= t.total) return;
    const uint32_t count = t.total - start < t.per_core ? t.total - start : t.per_core;
    GlobalTensor<T> xg, yg;
    xg.SetGlobalBuffer((__gm__ T *)x + start, count);
    yg.SetGlobalBuffer((__gm__ T *)y + start, count);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, t.tile * sizeof(T));
    LocalTensor<T> a = buf.Get<T>();
    const T slope = static_cast<T>(t.slope);
    for (uint32_t off = 0; off < count; off += t.tile) {
        const uint32_t len = count - off < t.tile ? count - off : t.tile;
        const DataCopyExtParams bytes{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPad(a, xg[off], bytes, DataCopyPadExtParams<T>{false, 0, 0, 0});
        PipeBarrier<PIPE_ALL>();
        for (uint32_t i = 0; i < len; ++i) {
            const T v = a.GetValue(i);
            a.SetValue(i, v >= static_cast<T>(0) ? v : static_cast<T>(v * slope));
        }
        PipeBarrier<PIPE_ALL>();
        DataCopyPad(yg[off], a, bytes);
        PipeBarrier<PIPE_ALL>();
    }
}

// the instances the pack ships (explicit, so an ahead-of-time build has them too)
template __global__ __aicore__ void leaky_relu<float>(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling);
template __global__ __aicore__ void leaky_relu<half>(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling);
