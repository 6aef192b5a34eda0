// z = x + y for half, float and bfloat16_t, written as for the NPU: the elements are split over the
// blocks in whole 256-byte slices, each block streams its share through UB in tiles with two
// buffers per queue (the copy-in of tile i + 1 is issued before tile i is computed), and the last
// tile of a block -- whose byte length need not be a multiple of 32 -- moves with DataCopyPad.
//
// Launch: vadd_<type>(x, y, z, total, tile) on any number of blocks; `tile` is in elements and a
// multiple of 32 bytes.
#include "kernel_operator.h"
using namespace AscendC;

namespace {

constexpr int32_t kDepth = 2;  // double buffering

template <typename T>
class StreamAdd {
public:
    __aicore__ inline void Setup(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total, uint32_t tile)
    {
        constexpr uint32_t slice = 256 / sizeof(T);  // elements in one 256-byte repeat
        const uint32_t blocks = static_cast<uint32_t>(GetBlockNum());
        const uint32_t slices = (total + slice - 1) / slice;
        const uint32_t per = (slices + blocks - 1) / blocks * slice;  // elements per block
        const uint32_t first = per * static_cast<uint32_t>(GetBlockIdx());
        mine_ = first >= total ? 0 : (total - first < per ? total - first : per);
        tile_ = tile;
        xs_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(x) + first, mine_);
        ys_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(y) + first, mine_);
        zs_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(z) + first, mine_);
        pipe_.InitBuffer(qx_, kDepth, tile * sizeof(T));
        pipe_.InitBuffer(qy_, kDepth, tile * sizeof(T));
        pipe_.InitBuffer(qz_, kDepth, tile * sizeof(T));
        if constexpr (std::is_same<T, bfloat16_t>::value) {
            pipe_.InitBuffer(fbuf_, 2 * tile * sizeof(float));
        }
    }

    __aicore__ inline void Run()
    {
        const uint32_t tiles = (mine_ + tile_ - 1) / tile_;
        if (tiles == 0) {
            return;
        }
        Load(0);
        for (uint32_t i = 0; i < tiles; ++i) {
            if (i + 1 < tiles) {
                Load(i + 1);  // prefetch into the second buffer
            }
            Sum(i);
            Store(i);
        }
    }

private:
    __aicore__ inline uint32_t Len(uint32_t i) const
    {
        const uint32_t rest = mine_ - i * tile_;
        return rest < tile_ ? rest : tile_;
    }

    __aicore__ inline void Load(uint32_t i)
    {
        const uint32_t n = Len(i);
        LocalTensor<T> a = qx_.template AllocTensor<T>();
        LocalTensor<T> b = qy_.template AllocTensor<T>();
        if (n * sizeof(T) % 32 == 0) {
            DataCopy(a, xs_[i * tile_], n);
            DataCopy(b, ys_[i * tile_], n);
        } else {
            const DataCopyExtParams burst{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
            const DataCopyPadExtParams<T> pad{false, 0, 0, T(0)};
            DataCopyPad(a, xs_[i * tile_], burst, pad);
            DataCopyPad(b, ys_[i * tile_], burst, pad);
        }
        qx_.EnQue(a);
        qy_.EnQue(b);
    }

    __aicore__ inline void Sum(uint32_t i)
    {
        LocalTensor<T> a = qx_.template DeQue<T>();
        LocalTensor<T> b = qy_.template DeQue<T>();
        LocalTensor<T> c = qz_.template AllocTensor<T>();
        const int32_t n = static_cast<int32_t>(Len(i));
        if constexpr (std::is_same<T, bfloat16_t>::value) {
            // Atlas A2's Add takes no bfloat16_t (kapi/dtype_tables.h): add in float, round once (RINT)
            LocalTensor<float> fa = fbuf_.template Get<float>();
            LocalTensor<float> fb = fa[tile_];
            Cast(fa, a, RoundMode::CAST_NONE, n);
            Cast(fb, b, RoundMode::CAST_NONE, n);
            Add(fa, fa, fb, n);
            Cast(c, fa, RoundMode::CAST_RINT, n);
        } else {
            Add(c, a, b, n);
        }
        qz_.EnQue(c);
        qx_.FreeTensor(a);
        qy_.FreeTensor(b);
    }

    __aicore__ inline void Store(uint32_t i)
    {
        const uint32_t n = Len(i);
        LocalTensor<T> c = qz_.template DeQue<T>();
        if (n * sizeof(T) % 32 == 0) {
            DataCopy(zs_[i * tile_], c, n);
        } else {
            DataCopyPad(zs_[i * tile_], c, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0});
        }
        qz_.FreeTensor(c);
    }

    TPipe pipe_;
    TQue<TPosition::VECIN, kDepth> qx_, qy_;
    TQue<TPosition::VECOUT, kDepth> qz_;
    TBuf<TPosition::VECCALC> fbuf_;  // bfloat16_t only: the float operands
    GlobalTensor<T> xs_, ys_, zs_;
    uint32_t mine_ = 0;
    uint32_t tile_ = 0;
};

template <typename T>
__aicore__ inline void RunAdd(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total, uint32_t tile)
{
    StreamAdd<T> op;
    op.Setup(x, y, z, total, tile);
    op.Run();
}

}  // namespace

extern "C" __global__ __aicore__ void vadd_half(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total, uint32_t tile)
{
    RunAdd<half>(x, y, z, total, tile);
}

extern "C" __global__ __aicore__ void vadd_float(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total, uint32_t tile)
{
    RunAdd<float>(x, y, z, total, tile);
}

extern "C" __global__ __aicore__ void vadd_bf16(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total, uint32_t tile)
{
    RunAdd<bfloat16_t>(x, y, z, total, tile);
}
