// where(cond, x, y): x where cond else y, elementwise over equal-length operands (the host
// materialises broadcasts and scalars).
//
// Kernels where_<dtype> for float16, bfloat16, float32, int32 and int16. cond (bool bytes) is
// widened to half and compared with 0 into a bit mask; Select picks x or y. Select moves 16- or
// 32-bit lanes, so bfloat16 and int16 select as half and int32 as float (ReinterpretCast: the bits
// move unchanged).
#include "kernel_operator.h"  // first, so the simulator's precompiled kernel API header applies (pyasc_sim.pch)
#include "kernel_entry.h"
#include "tile_loop.h"

namespace pyasc_kernels {

// Host side: pyasc_kernels/elementwise.py.
struct WhereTiling {
    uint32_t totalLength;
    uint32_t perCore;
    uint32_t tileLength;  // multiple of 256 elements
    uint32_t reserved;
};

template <typename T, typename L>  // L: the lane type Select moves (half or float)
class KernelWhere {
public:
    using Tiling = WhereTiling;

    __aicore__ inline void Init(GM_ADDR cond, GM_ADDR x, GM_ADDR y, GM_ADDR z, const WhereTiling &tiling) {
        tile_ = tiling.tileLength;
        if (!loop_.Init(ShareOf(tiling), z, cond, x, y)) {
            return;
        }
        TPipe &pipe = loop_.Pipe();
        pipe.InitBuffer(condHalf_, 2 * tile_ * sizeof(half));  // cond as half, zeros
        Duplicate(condHalf_.Get<half>()[tile_], static_cast<half>(0.0f), tile_);
        PipeBarrier<PIPE_V>();
        pipe.InitBuffer(mask_, tile_ / 8);
    }

    __aicore__ inline void Process() { loop_.Run(*this); }

    // One tile (called by the loop): z = c ? x : y.
    __aicore__ inline void Compute(const LocalTensor<T> &z, const LocalTensor<uint8_t> &c, const LocalTensor<T> &x,
                                   const LocalTensor<T> &y, uint32_t count) {
        LocalTensor<half> ch = condHalf_.Get<half>();
        LocalTensor<uint8_t> mask = mask_.Get<uint8_t>();
        const uint32_t nh = AlignRepeat<half>(count);
        Cast(ch, c, RoundMode::CAST_NONE, nh);
        Compare(mask, ch, ch[tile_], CMPMODE::NE, nh);
        Select(z.template ReinterpretCast<L>(), mask, x.template ReinterpretCast<L>(),
               y.template ReinterpretCast<L>(), SELMODE::VSEL_TENSOR_TENSOR_MODE, AlignRepeat<L>(count));
    }

private:
    TileLoop<T, uint8_t, T, T> loop_;  // z <- cond, x, y
    TBuf<QuePosition::VECCALC> condHalf_, mask_;
    uint32_t tile_ = 0;
};

}  // namespace pyasc_kernels

#define PYASC_WHERE_KERNEL(DTYPE, T, L) PYASC_ENTRY_4(where_##DTYPE, pyasc_kernels::KernelWhere<T, L>)

PYASC_WHERE_KERNEL(float16, half, half)
#if PYASC_HAS_BF16  // no bfloat16 on the Atlas inference series (kernel_entry.h)
PYASC_WHERE_KERNEL(bfloat16, bfloat16_t, half)
#endif
PYASC_WHERE_KERNEL(float32, float, float)
PYASC_WHERE_KERNEL(int32, int32_t, float)
PYASC_WHERE_KERNEL(int16, int16_t, half)
