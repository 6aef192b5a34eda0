// Our own kernels in the style of Ascend/DrivingSDK's diff_iou_rotated_sort_vertices, which numbers its vertices with
// the Level-0 CreateVecIndex (`CreateVecIndex(idx, 0, mask, repeat, 1, 8)`). COMPAT.md "Round 31 (s31a)",
// tests/test_sim_compat_own_names_r31.py. Each fills a tile of `total` elements with -1 (Duplicate), writes the index
// with one Level-0 call and copies the whole tile out:
//   vec_index_l0_i32(out, first, mask, repeat, blkStride, repStride, total): int32_t, a count mask;
//   vec_index_l0_f16(out, first, mask, repeat, blkStride, repStride, total): half, a count mask (first: a float);
//   vec_index_l0_bits_i32(out, first, lo, repeat, blkStride, repStride, total): int32_t, the bit mask {lo, 0}.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t VEC_INDEX_MAX = 4096;

template <typename T, typename M>
__aicore__ inline void VecIndexL0(GM_ADDR out, T first, M mask, uint32_t repeat, uint32_t blkStride, uint32_t repStride,
                                  uint32_t total)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, VEC_INDEX_MAX * sizeof(T));
    GlobalTensor<T> outGm;
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(out), total);
    LocalTensor<T> idx = buf.Get<T>();
    Duplicate(idx, static_cast<T>(-1), static_cast<int32_t>(total));
    PipeBarrier<PIPE_V>();
    CreateVecIndex(idx, first, mask, static_cast<uint8_t>(repeat), static_cast<uint16_t>(blkStride),
                   static_cast<uint8_t>(repStride));
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, idx, total);
}

extern "C" __global__ __aicore__ void vec_index_l0_i32(GM_ADDR out, int32_t first, uint32_t mask, uint32_t repeat,
                                                       uint32_t blkStride, uint32_t repStride, uint32_t total)
{
    VecIndexL0<int32_t, uint64_t>(out, first, mask, repeat, blkStride, repStride, total);
}

extern "C" __global__ __aicore__ void vec_index_l0_f16(GM_ADDR out, float first, uint32_t mask, uint32_t repeat,
                                                       uint32_t blkStride, uint32_t repStride, uint32_t total)
{
    VecIndexL0<half, uint64_t>(out, static_cast<half>(first), mask, repeat, blkStride, repStride, total);
}

extern "C" __global__ __aicore__ void vec_index_l0_bits_i32(GM_ADDR out, int32_t first, uint64_t lo, uint32_t repeat,
                                                            uint32_t blkStride, uint32_t repStride, uint32_t total)
{
    uint64_t mask[2] = {lo, 0};
    VecIndexL0<int32_t, uint64_t *>(out, first, mask, repeat, blkStride, repStride, total);
}
