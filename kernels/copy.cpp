// Strided copy into a contiguous tensor: broadcasting (stride 0), transpose / permute and strided
// views (any strides, negative ones included, from an element offset) and plain copies. Element
// size only matters, so the kernels are copy_b8, copy_b16, copy_b32 and copy_b64 (1, 2, 4, 8
// bytes per element).
//
// The output is walked as rows (its last axis) split into chunks; a core takes a contiguous range
// of (row, chunk) units. Per unit, by the stride of the input along the last axis:
//   1      -> one DMA of the chunk (DataCopy / DataCopyPad for a tail)
//   0      -> the element is read once and Duplicate'd (broadcast)
//   other  -> a gather: the chunk is read element by element (GlobalTensor::GetValue)
#include "kernel_entry.h"

namespace pyasc_kernels {

constexpr uint32_t COPY_MAX_DIMS = 8;

// Host side: pyasc_kernels/shape.py.
struct CopyTiling {
    uint32_t ndim;          // dimensions of the output (1..8)
    uint32_t rows;          // product of the output's leading dimensions
    uint32_t cols;          // the output's last dimension
    uint32_t chunk;         // elements per unit (whole 32-byte blocks)
    uint32_t chunksPerRow;  // ceil(cols / chunk)
    uint32_t unitsPerCore;
    uint32_t totalUnits;    // rows * chunksPerRow
    uint32_t inOffset;      // elements from x to the input's element 0
    uint32_t outShape[COPY_MAX_DIMS];
    int32_t inStride[COPY_MAX_DIMS];   // elements; 0 along broadcast dimensions, < 0 for reversed views
};

template <typename T>
class KernelCopy {
public:
    using Tiling = CopyTiling;

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const CopyTiling &tiling) {
        t_ = tiling;
        CoreRange(t_.totalUnits, t_.unitsPerCore, start_, length_);
        if (length_ == 0) {
            return;
        }
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(x));
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(y), static_cast<uint64_t>(t_.rows) * t_.cols);
        pipe_.InitBuffer(que_, BUFFER_NUM, t_.chunk * sizeof(T));
    }

    __aicore__ inline void Process() {
        const uint32_t last = t_.ndim - 1;
        const int64_t lastStride = t_.inStride[last];
        for (uint32_t u = start_; u < start_ + length_; ++u) {
            const uint32_t row = u / t_.chunksPerRow;
            const uint32_t c0 = (u % t_.chunksPerRow) * t_.chunk;
            const uint32_t count = t_.cols - c0 < t_.chunk ? t_.cols - c0 : t_.chunk;
            // offset of the row's first element in the input (never negative: x is the lowest
            // address the view reaches)
            int64_t base = t_.inOffset;
            uint32_t r = row;
            for (int32_t d = static_cast<int32_t>(last) - 1; d >= 0; --d) {
                base += static_cast<int64_t>(r % t_.outShape[d]) * t_.inStride[d];
                r /= t_.outShape[d];
            }
            LocalTensor<T> buf = que_.AllocTensor<T>();
            if (lastStride == 1) {
                CopyIn(buf, xGm_[static_cast<uint64_t>(base + c0)], count);
            } else if (lastStride == 0) {
                const T v = xGm_.GetValue(static_cast<uint64_t>(base));
                if constexpr (sizeof(T) == 2 || sizeof(T) == 4) {
                    Duplicate(buf, v, count);
                } else {
                    for (uint32_t j = 0; j < count; ++j) {
                        buf.SetValue(j, v);
                    }
                }
            } else {
                for (uint32_t j = 0; j < count; ++j) {
                    const int64_t at = base + static_cast<int64_t>(c0 + j) * lastStride;
                    buf.SetValue(j, xGm_.GetValue(static_cast<uint64_t>(at)));
                }
            }
            que_.EnQue(buf);
            LocalTensor<T> out = que_.DeQue<T>();
            CopyOut(yGm_[static_cast<uint64_t>(row) * t_.cols + c0], out, count);
            que_.FreeTensor(out);
        }
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> que_;
    GlobalTensor<T> xGm_, yGm_;
    CopyTiling t_;
    uint32_t start_ = 0;
    uint32_t length_ = 0;
};

}  // namespace pyasc_kernels

PYASC_ENTRY_2(copy_b8, pyasc_kernels::KernelCopy<uint8_t>)
PYASC_ENTRY_2(copy_b16, pyasc_kernels::KernelCopy<uint16_t>)
PYASC_ENTRY_2(copy_b32, pyasc_kernels::KernelCopy<uint32_t>)
PYASC_ENTRY_2(copy_b64, pyasc_kernels::KernelCopy<uint64_t>)
