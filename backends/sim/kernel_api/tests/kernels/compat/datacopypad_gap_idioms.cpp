// DataCopyPad GM -> UB writes each burst's slot and leaves the dstStride gap after it alone; without isPad
// it does not fill the padding either. For tests/test_sim_compat_datacopypad_gaps.py (the initcheck,
// local-uninit-read, follows what the copy wrote).
//
// x: rows x cols floats in GM. The tile in UB: one slot per row, slot = align32((left + cols + right) * 4)
// bytes, then `gap` 32-byte blocks (dstStride). y receives the tile as the kernel stores it:
//   store 0: each row's cols values (DataCopyPad UB -> GM, srcStride skipping the rest of the slot and the
//            gap; left must be 0)
//   store 1: the tile from its first slot to the end of its last (DataCopy): the gaps between the slots too
//   store 2: each whole slot (padding included, gaps skipped)
// fill_gap: Duplicate(-1) over the whole tile before the copy (the gaps then hold data the kernel wrote).
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void pad_gap_rows(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t cols,
                                                   uint32_t left, uint32_t right, uint32_t gap, uint32_t isPad,
                                                   uint32_t store, uint32_t fillGap)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    const uint32_t slotBytes = (left + cols + right) * sizeof(float);
    const uint32_t slot = (slotBytes + 31) / 32 * 32;
    const uint32_t pitch = slot + gap * 32;
    const uint32_t tileBytes = rows * pitch;
    pipe.InitBuffer(inQueue, 1, tileBytes);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), rows * cols);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), tileBytes / sizeof(float));

    LocalTensor<float> tile = inQueue.AllocTensor<float>();
    if (fillGap != 0) {
        Duplicate(tile, -1.0f, tileBytes / sizeof(float));
        PipeBarrier<PIPE_ALL>();
    }
    DataCopyExtParams in{static_cast<uint16_t>(rows), cols * static_cast<uint32_t>(sizeof(float)), 0, gap, 0};
    DataCopyPadExtParams<float> pad{isPad != 0, static_cast<uint8_t>(left), static_cast<uint8_t>(right), 7.0f};
    DataCopyPad(tile, xGm, in, pad);
    inQueue.EnQue(tile);
    tile = inQueue.DeQue<float>();
    if (store == 0) {
        // the data of each row (left padding 0): srcStride skips the rest of the slot and the gap
        const uint32_t rowBytes = cols * static_cast<uint32_t>(sizeof(float));
        DataCopyExtParams out{static_cast<uint16_t>(rows), rowBytes, (pitch - (rowBytes + 31) / 32 * 32) / 32, 0, 0};
        DataCopyPad(yGm, tile, out);  // BAD(rows-only)
    } else if (store == 1) {
        DataCopy(yGm, tile, ((rows - 1) * pitch + slot) / sizeof(float));  // BAD(whole-tile)
    } else {
        DataCopyExtParams out{static_cast<uint16_t>(rows), slot, gap, (pitch - slot), 0};
        DataCopyPad(yGm, tile, out);  // BAD(whole-slots)
    }
    inQueue.FreeTensor(tile);
}
