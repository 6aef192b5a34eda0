// where(cond, x, y): x where cond else y, elementwise over equal-length operands (the host
// materialises broadcasts and scalars).
//
// Kernels where_<dtype> for float16, bfloat16, float32 and int32. cond (bool bytes) is widened to
// half and compared with 0 into a bit mask; Select picks x or y. Select moves 16- or 32-bit
// lanes, so bfloat16 selects as half and int32 as float (ReinterpretCast: the bits move unchanged).
#include "kernel_common.h"

namespace pyasc_kernels {

// Host side: pyasc_sim/ops/elementwise.py.
struct WhereTiling {
    uint32_t totalLength;
    uint32_t perCore;
    uint32_t tileLength;  // multiple of 256 elements
    uint32_t reserved;
};

template <typename T, typename L>  // L: the lane type Select moves (half or float)
class KernelWhere {
public:
    __aicore__ inline KernelWhere() {}

    __aicore__ inline void Init(GM_ADDR cond, GM_ADDR x, GM_ADDR y, GM_ADDR z, const WhereTiling &tiling) {
        t_ = tiling;
        CoreRange(t_.totalLength, t_.perCore, start_, length_);
        if (length_ == 0) {
            return;
        }
        const uint32_t tile = t_.tileLength;
        cGm_.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t *>(cond) + start_, length_);
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(x) + start_, length_);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(y) + start_, length_);
        zGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(z) + start_, length_);
        pipe_.InitBuffer(inC_, BUFFER_NUM, tile);
        pipe_.InitBuffer(inX_, BUFFER_NUM, tile * sizeof(T));
        pipe_.InitBuffer(inY_, BUFFER_NUM, tile * sizeof(T));
        pipe_.InitBuffer(outZ_, BUFFER_NUM, tile * sizeof(T));
        pipe_.InitBuffer(condHalf_, 2 * tile * sizeof(half));  // cond as half, zeros
        Duplicate(condHalf_.Get<half>()[tile], static_cast<half>(0.0f), tile);
        PipeBarrier<PIPE_V>();
        pipe_.InitBuffer(mask_, tile / 8);
    }

    __aicore__ inline void Process() {
        if (length_ == 0) {
            return;
        }
        const uint32_t tiles = (length_ + t_.tileLength - 1) / t_.tileLength;
        for (uint32_t i = 0; i < tiles; ++i) {
            const uint32_t offset = i * t_.tileLength;
            const uint32_t count = i + 1 == tiles ? length_ - offset : t_.tileLength;
            LoadTile(offset, count);
            ComputeTile(count);
            LocalTensor<T> z = outZ_.DeQue<T>();
            CopyOut(zGm_[offset], z, count);
            outZ_.FreeTensor(z);
        }
    }

private:
    __aicore__ inline void LoadTile(uint32_t offset, uint32_t count) {
        LocalTensor<uint8_t> c = inC_.AllocTensor<uint8_t>();
        CopyIn(c, cGm_[offset], count);
        inC_.EnQue(c);
        LocalTensor<T> x = inX_.AllocTensor<T>();
        CopyIn(x, xGm_[offset], count);
        inX_.EnQue(x);
        LocalTensor<T> y = inY_.AllocTensor<T>();
        CopyIn(y, yGm_[offset], count);
        inY_.EnQue(y);
    }

    __aicore__ inline void ComputeTile(uint32_t count) {
        LocalTensor<uint8_t> c = inC_.DeQue<uint8_t>();
        LocalTensor<T> x = inX_.DeQue<T>();
        LocalTensor<T> y = inY_.DeQue<T>();
        LocalTensor<T> z = outZ_.AllocTensor<T>();
        LocalTensor<half> ch = condHalf_.Get<half>();
        LocalTensor<uint8_t> mask = mask_.Get<uint8_t>();
        const uint32_t nh = AlignRepeat<half>(count);
        Cast(ch, c, RoundMode::CAST_NONE, nh);
        Compare(mask, ch, ch[t_.tileLength], CMPMODE::NE, nh);
        Select(z.template ReinterpretCast<L>(), mask, x.template ReinterpretCast<L>(),
               y.template ReinterpretCast<L>(), SELMODE::VSEL_TENSOR_TENSOR_MODE, AlignRepeat<L>(count));
        outZ_.EnQue(z);
        inC_.FreeTensor(c);
        inX_.FreeTensor(x);
        inY_.FreeTensor(y);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inC_, inX_, inY_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outZ_;
    TBuf<QuePosition::VECCALC> condHalf_, mask_;
    GlobalTensor<uint8_t> cGm_;
    GlobalTensor<T> xGm_, yGm_, zGm_;
    WhereTiling t_;
    uint32_t start_ = 0;
    uint32_t length_ = 0;
};

template <typename T, typename L>
__aicore__ inline void RunWhere(GM_ADDR cond, GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling) {
    WhereTiling t;
    LoadTiling(t, tiling);
    KernelWhere<T, L> op;
    op.Init(cond, x, y, z, t);
    op.Process();
}

}  // namespace pyasc_kernels

#define PYASC_WHERE_KERNEL(DTYPE, T, L)                                                                      \
    extern "C" __global__ __aicore__ void where_##DTYPE(GM_ADDR cond, GM_ADDR x, GM_ADDR y, GM_ADDR z,       \
                                                        GM_ADDR workspace, GM_ADDR tiling) {                 \
        (void)workspace;                                                                                     \
        pyasc_kernels::RunWhere<T, L>(cond, x, y, z, tiling);                                                \
    }

PYASC_WHERE_KERNEL(float16, half, half)
PYASC_WHERE_KERNEL(bfloat16, bfloat16_t, half)
PYASC_WHERE_KERNEL(float32, float, float)
PYASC_WHERE_KERNEL(int32, int32_t, float)
