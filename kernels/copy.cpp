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
//
// Transposes (tAxis != 0: output axis tAxis - 1, not the last, has input stride 1; 2-, 4- and
// 8-byte elements) go by tiles instead: a unit is tileRows x chunk output elements (tileRows along
// that axis, chunk along the last). The tile's input is chunk contiguous runs of tileRows elements,
// brought into UB by one strided DataCopyPad (a row at a time when the stride is negative or too
// small), transposed in UB by one Gather with a byte-offset table built once per core, and written
// out by one strided DataCopyPad. 8-byte elements are gathered as two 32-bit words (Gather takes
// 16- and 32-bit types on Atlas A2). On the inference series (no DataCopyPad) the runs move one at a
// time through CopyIn / CopyOut (kernel_common.h: whole blocks).
#include "kernel_operator.h"  // first, so the simulator's precompiled kernel API header applies (pyasc_sim.pch)
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
    uint32_t tAxis;         // 0: row units; else 1 + the output axis tiled as rows (input stride 1)
    uint32_t tileRows;      // transposes: output rows per tile (along axis tAxis - 1)
    uint32_t tilesPerAxis;  // transposes: ceil(outShape[tAxis - 1] / tileRows)
};

// 32-bit words per element for the transposing Gather (8-byte elements move as two words).
template <typename T>
struct GatherWord {
    using type = uint32_t;
};
template <>
struct GatherWord<uint16_t> {
    using type = uint16_t;
};
template <>
struct GatherWord<uint8_t> {
    using type = uint8_t;  // not used: 1-byte transposes keep the element path
};

template <typename T>
class KernelCopy {
public:
    using Tiling = CopyTiling;

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const CopyTiling &tiling) {
        t_ = tiling;
        Split(y);
        if (length_ == 0) {
            return;
        }
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(x));
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(y), static_cast<uint64_t>(t_.rows) * t_.cols);
        if constexpr (sizeof(T) != 1) {
            if (t_.tAxis != 0) {
                InitTranspose();
                return;
            }
        }
        pipe_.InitBuffer(que_, BUFFER_NUM, t_.chunk * sizeof(T));
    }

    __aicore__ inline void Process() {
        if constexpr (sizeof(T) != 1) {
            if (t_.tAxis != 0) {
                for (uint32_t u = start_; u < start_ + length_; ++u) {
                    TransposeUnit(u);
                }
                return;
            }
        }
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
                    ScalarStoresDone();
                }
            } else {
                for (uint32_t j = 0; j < count; ++j) {
                    const int64_t at = base + static_cast<int64_t>(c0 + j) * lastStride;
                    buf.SetValue(j, xGm_.GetValue(static_cast<uint64_t>(at)));
                }
                ScalarStoresDone();
            }
            que_.EnQue(buf);
            LocalTensor<T> out = que_.DeQue<T>();
            CopyOut(yGm_[static_cast<uint64_t>(row) * t_.cols + c0], out, count);
            que_.FreeTensor(out);
        }
    }

private:
    // The tile was filled by scalar stores (SetValue): the store out of it (MTE3) waits for them -- the queue's
    // EnQue / DeQue orders only the producer pipe (SetFlag/WaitFlag page: SetValue then DataCopy needs
    // PIPE_S -> PIPE_MTE3).
    __aicore__ inline void ScalarStoresDone()
    {
        event_t stored = static_cast<event_t>(pipe_.FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(stored);
        WaitFlag<HardEvent::S_MTE3>(stored);
    }

    // Output item u (element path: row u / chunksPerRow, chunk u % chunksPerRow) starts at this GM byte.
    struct ChunkStarts {
        uint64_t y;
        uint32_t cols;
        uint32_t chunk;
        uint32_t chunksPerRow;
        __aicore__ inline uint64_t operator()(uint32_t u) const {
            return y + (static_cast<uint64_t>(u / chunksPerRow) * cols + u % chunksPerRow * chunk) * sizeof(T);
        }
    };

    // This core's units. A write shorter than one block is scalar on Ascend310P (CopyOut): the element
    // path's units follow one another in y, so the cores' units start on a cache line of y; a
    // transpose's units write columns of many rows, so when a run is that short one core does them all.
    __aicore__ inline void Split(GM_ADDR y) {
        const uint32_t lastRun = t_.cols - (t_.chunksPerRow - 1) * t_.chunk;
        const bool narrow = lastRun < PER_BLOCK || (t_.chunksPerRow > 1 && t_.chunk < PER_BLOCK);
        const bool elementPath = sizeof(T) == 1 || t_.tAxis == 0;
        if (kScalarTails && narrow && !elementPath) {
            start_ = 0;
            length_ = GetBlockIdx() == 0 ? t_.totalUnits : 0;
            return;
        }
        const ChunkStarts starts{reinterpret_cast<uint64_t>(y), t_.cols, t_.chunk, t_.chunksPerRow};
        ScalarSafeRange(t_.totalUnits, t_.unitsPerCore, starts, elementPath && (t_.cols % PER_BLOCK != 0 || narrow),
                        start_, length_);
    }

    using W = typename GatherWord<T>::type;
    static constexpr uint32_t WORDS = sizeof(T) / sizeof(W);
    static constexpr uint32_t PER_BLOCK = BLOCK_BYTES / sizeof(T);

    // UB: two input tiles (chunk rows of tileRows, each padded to whole 32-byte blocks), two
    // output tiles (tileRows rows of chunk) and the Gather offsets: one table for whole tiles and,
    // when the last axis is ragged, one for its last chunk (its missing columns read row 0).
    __aicore__ inline void InitTranspose() {
        p_ = t_.tAxis - 1;
        pitch_ = (t_.tileRows + PER_BLOCK - 1) / PER_BLOCK * PER_BLOCK;
        const uint32_t cols = t_.cols, chunk = t_.chunk;
        lastCount_ = cols - (t_.chunksPerRow - 1) * chunk;
        outRowStride_ = 1;
        for (uint32_t d = p_ + 1; d + 1 < t_.ndim; ++d) {
            outRowStride_ *= t_.outShape[d];
        }
        const uint32_t entries = t_.tileRows * chunk * WORDS;
        pipe_.InitBuffer(inQue_, BUFFER_NUM, chunk * pitch_ * sizeof(T));
        pipe_.InitBuffer(outQue_, BUFFER_NUM, t_.tileRows * chunk * sizeof(T));
        pipe_.InitBuffer(offBuf_, (lastCount_ == chunk ? 1 : 2) * entries * sizeof(uint32_t));
        full_ = offBuf_.Get<uint32_t>();
        edge_ = lastCount_ != chunk ? full_[entries] : full_;
        FillFirstRow(full_, chunk);
        if (lastCount_ != chunk) {
            FillFirstRow(edge_, lastCount_);
        }
        SetFlag<HardEvent::S_V>(EVENT_ID0);
        WaitFlag<HardEvent::S_V>(EVENT_ID0);
        FillRows(full_);
        if (lastCount_ != chunk) {
            FillRows(edge_);
        }
    }

    // table[(i * chunk + j) * WORDS + h] = byte offset of word h of input-tile element (j, i):
    // row i is row 0 plus i elements. Columns j >= valid (past a ragged edge) read (0, i), which
    // every tile loads. Row 0 by the scalar unit, the others by one Adds each.
    __aicore__ inline void FillFirstRow(const LocalTensor<uint32_t> &table, uint32_t valid) {
        for (uint32_t j = 0; j < t_.chunk; ++j) {
            const uint32_t src = (j < valid ? j : 0) * pitch_;
            for (uint32_t h = 0; h < WORDS; ++h) {
                table.SetValue(j * WORDS + h, static_cast<uint32_t>(src * sizeof(T) + h * sizeof(W)));
            }
        }
    }

    __aicore__ inline void FillRows(const LocalTensor<uint32_t> &table) {
        const uint32_t row = t_.chunk * WORDS;
        LocalTensor<int32_t> t = table.template ReinterpretCast<int32_t>();
        for (uint32_t i = 1; i < t_.tileRows; ++i) {
            Adds(t[i * row], t, static_cast<int32_t>(i * sizeof(T)), static_cast<int32_t>(row));
        }
    }

    __aicore__ inline void TransposeUnit(uint32_t u) {
        const uint32_t chunkIdx = u % t_.chunksPerRow;
        uint32_t rest = u / t_.chunksPerRow;
        const uint32_t r0 = (rest % t_.tilesPerAxis) * t_.tileRows;
        rest /= t_.tilesPerAxis;
        const uint32_t last = t_.ndim - 1;
        const uint32_t c0 = chunkIdx * t_.chunk;
        const uint32_t cc = chunkIdx + 1 == t_.chunksPerRow ? lastCount_ : t_.chunk;
        const uint32_t rc = t_.outShape[p_] - r0 < t_.tileRows ? t_.outShape[p_] - r0 : t_.tileRows;
        const int64_t lastStride = t_.inStride[last];
        // input offset and output row of the tile's first element
        int64_t in = static_cast<int64_t>(t_.inOffset) + r0 + static_cast<int64_t>(c0) * lastStride;
        uint64_t outRow = static_cast<uint64_t>(r0) * outRowStride_;
        uint64_t rowScale = 1;
        for (int32_t d = static_cast<int32_t>(last) - 1; d >= 0; --d) {
            const uint32_t n = t_.outShape[d];
            if (static_cast<uint32_t>(d) != p_) {
                const uint32_t idx = rest % n;
                rest /= n;
                in += static_cast<int64_t>(idx) * t_.inStride[d];
                outRow += static_cast<uint64_t>(idx) * rowScale;
            }
            rowScale *= n;
        }
        // in: cc runs of rc contiguous elements, lastStride apart, into rows pitch_ apart
        LocalTensor<T> src = inQue_.AllocTensor<T>();
        const uint32_t runBytes = rc * static_cast<uint32_t>(sizeof(T));
        const uint32_t runSlot = (runBytes + BLOCK_BYTES - 1) / BLOCK_BYTES * BLOCK_BYTES;
        const uint32_t ubGap = (pitch_ * static_cast<uint32_t>(sizeof(T)) - runSlot) / BLOCK_BYTES;
        const int64_t gmGap = lastStride * static_cast<int64_t>(sizeof(T)) - runBytes;
#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 200
        // the inference series has no DataCopyPad: a run at a time through CopyIn (whole blocks)
        (void)ubGap;
        (void)gmGap;
        for (uint32_t j = 0; j < cc; ++j) {
            CopyIn(src[j * pitch_], xGm_[static_cast<uint64_t>(in + static_cast<int64_t>(j) * lastStride)], rc);
        }
#else
        DataCopyPadExtParams<T> noPad{false, 0, 0, 0};
        if (gmGap >= 0 && gmGap <= static_cast<int64_t>(UINT32_MAX)) {
            DataCopyExtParams params{static_cast<uint16_t>(cc), runBytes, static_cast<uint32_t>(gmGap), ubGap, 0};
            DataCopyPad(src, xGm_[static_cast<uint64_t>(in)], params, noPad);
        } else {
            DataCopyExtParams params{1, runBytes, 0, 0, 0};
            for (uint32_t j = 0; j < cc; ++j) {
                DataCopyPad(src[j * pitch_], xGm_[static_cast<uint64_t>(in + static_cast<int64_t>(j) * lastStride)],
                            params, noPad);
            }
        }
#endif
        inQue_.EnQue(src);
        // transpose: rc rows of chunk elements
        LocalTensor<T> tin = inQue_.DeQue<T>();
        LocalTensor<T> tout = outQue_.AllocTensor<T>();
        Gather(tout.template ReinterpretCast<W>(), tin.template ReinterpretCast<W>(), cc == t_.chunk ? full_ : edge_,
               0, rc * t_.chunk * WORDS);
        inQue_.FreeTensor(tin);
        outQue_.EnQue(tout);
        // out: rc runs of cc elements, output rows outRowStride_ apart
        LocalTensor<T> res = outQue_.DeQue<T>();
        const uint32_t outBytes = cc * static_cast<uint32_t>(sizeof(T));
        const uint32_t outSlot = (outBytes + BLOCK_BYTES - 1) / BLOCK_BYTES * BLOCK_BYTES;
        const uint32_t ubSkip = (t_.chunk * static_cast<uint32_t>(sizeof(T)) - outSlot) / BLOCK_BYTES;
        const uint64_t rowElems = static_cast<uint64_t>(outRowStride_) * t_.cols;
        const uint64_t outGap = (rowElems - cc) * sizeof(T);
        const uint64_t outAt = outRow * t_.cols + c0;
#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 200
        // a row at a time through CopyOut (whole blocks; it rearranges row i's last block in place)
        (void)outSlot;
        (void)ubSkip;
        (void)outGap;
        for (uint32_t i = 0; i < rc; ++i) {
            CopyOut(yGm_[outAt + i * rowElems], res[i * t_.chunk], cc);
        }
#else
        if (outGap <= UINT32_MAX) {
            DataCopyExtParams params{static_cast<uint16_t>(rc), outBytes, ubSkip, static_cast<uint32_t>(outGap), 0};
            DataCopyPad(yGm_[outAt], res, params);
        } else {
            DataCopyExtParams params{1, outBytes, 0, 0, 0};
            for (uint32_t i = 0; i < rc; ++i) {
                DataCopyPad(yGm_[outAt + i * rowElems], res[i * t_.chunk], params);
            }
        }
#endif
        outQue_.FreeTensor(res);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> que_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQue_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue_;
    TBuf<QuePosition::VECCALC> offBuf_;
    LocalTensor<uint32_t> full_, edge_;
    uint32_t p_ = 0, pitch_ = 0, lastCount_ = 0, outRowStride_ = 1;
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
