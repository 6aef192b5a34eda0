// Our own kernel in the style of Catlass-based public kernels that mark host-and-device helpers with the NPU
// compiler's attribute list (NPUKernelBench level3 GroupedMatmulSliceMPerTokenDequant / MatmulAdd:
// `#define CATLASS_HOST_DEVICE __forceinline__ [host, aicore]`, next to `CATLASS_DEVICE __forceinline__ [aicore]`):
//
//   host_aicore_axpb   y = RoundUp<8>(a) * x + b over n floats (n a multiple of 256, one block): RoundUp and the coordinate struct are
//                      host-and-device helpers, the per-tile work a device helper.
#include "kernel_operator.h"

#define KDEV __forceinline__ [aicore]
#define KHOST_DEV __forceinline__ [host, aicore]

template <uint32_t ALIGN, typename T>
KHOST_DEV constexpr T RoundUp(const T &val)
{
    return (val + ALIGN - 1) / ALIGN * ALIGN;
}

struct Span {
    KHOST_DEV Span(uint32_t off, uint32_t len) : off_(off), len_(len) {}
    KHOST_DEV uint32_t off() const { return off_; }
    KHOST_DEV uint32_t len() const { return len_; }
    uint32_t off_;
    uint32_t len_;
};

KDEV void AxpbTile(AscendC::LocalTensor<float> const &t, float a, float b, uint32_t len)
{
    AscendC::Muls(t, t, a, len);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Adds(t, t, b, len);
}

extern "C" __global__ __aicore__ void host_aicore_axpb(GM_ADDR px, GM_ADDR py, int32_t n, float a, float b)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256 * sizeof(float));
    AscendC::GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(px), n);
    gy.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(py), n);
    AscendC::LocalTensor<float> t = buf.Get<float>();
    const float scale = static_cast<float>(RoundUp<8>(static_cast<uint32_t>(a)));
    for (Span s(0, 256); s.off() < static_cast<uint32_t>(n); s = Span(s.off() + s.len(), 256)) {
        AscendC::DataCopy(t, gx[s.off()], s.len());
        AscendC::PipeBarrier<PIPE_ALL>();
        AxpbTile(t, scale, b, s.len());
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::DataCopy(gy[s.off()], t, s.len());
        AscendC::PipeBarrier<PIPE_ALL>();
    }
}
