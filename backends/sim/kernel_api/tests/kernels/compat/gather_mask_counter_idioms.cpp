// GatherMask in counter mode (reduceMode = true) as point-cloud kernels use it
// (tests/test_sim_compat_gather_mask_counter.py).
//
// split_xyz: interleaved points x0 y0 z0 x1 y1 z1 ... -> three planes. One repeat per 8 points: mask 24 elements,
// src0RepeatStride 3 blocks (the 96 bytes of 8 points), and a 3-word (96-bit) period-3 bit pattern re-read from its
// start by every repeat (src1RepeatStride 0), one pattern per coordinate. out = [x..., y..., z...] (3 n floats),
// counts = the three rsvdCnt values. n is a multiple of 8.
//
// gather_odd: the GatherMask page's counter-mode example: 256 uint32 elements, mask 70, repeatTimes 2,
// src0RepeatStride 4, src1RepeatStride 0, the odd elements (pattern 0xAAAAAAAA, or the built-in pattern 2 when
// `builtin` is 1). out holds 128 uint32 (0 where nothing was written), counts[0] = rsvdCnt.
#include "kernel_operator.h"
using namespace AscendC;

namespace {

constexpr uint32_t kEvery3From0 = 0x49249249U;  // bits 0, 3, 6, ..., 30
constexpr uint32_t kEvery3From1 = 0x92492492U;  // bits 1, 4, 7, ..., 31
constexpr uint32_t kEvery3From2 = 0x24924924U;  // bits 2, 5, 8, ..., 29
constexpr uint32_t kPointsPerRepeat = 8;
constexpr uint32_t kCoords = 3;

class SplitXyz {
public:
    __aicore__ inline void Init(GM_ADDR xyz, GM_ADDR out, GM_ADDR counts, uint32_t n)
    {
        n_ = n;
        xyzGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(xyz), kCoords * n);
        outGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(out), kCoords * n);
        countGm_.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(counts), 8);
        pipe_.InitBuffer(xyzBuf_, kCoords * n * sizeof(float));
        pipe_.InitBuffer(planeBuf_, kCoords * n * sizeof(float));
        pipe_.InitBuffer(patternBuf_, kCoords * 32);  // one 32-byte block of pattern words per coordinate
    }
    __aicore__ inline void Process()
    {
        LocalTensor<float> xyz = xyzBuf_.Get<float>();
        LocalTensor<float> planes = planeBuf_.Get<float>();
        LocalTensor<uint32_t> patterns = patternBuf_.Get<uint32_t>();
        const uint32_t words[kCoords] = {kEvery3From0, kEvery3From1, kEvery3From2};
        for (uint32_t c = 0; c < kCoords; ++c) {  // coordinate c: the cycle of words shifted by c
            for (uint32_t w = 0; w < kCoords; ++w) {
                patterns.SetValue(c * 8 + w, words[(w + c) % kCoords]);
            }
        }
        event_t sV = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sV);
        WaitFlag<HardEvent::S_V>(sV);
        DataCopy(xyz, xyzGm_, kCoords * n_);
        event_t mte2V = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
        SetFlag<HardEvent::MTE2_V>(mte2V);
        WaitFlag<HardEvent::MTE2_V>(mte2V);
        const uint16_t repeats = static_cast<uint16_t>(n_ / kPointsPerRepeat);
        uint64_t kept[kCoords] = {0, 0, 0};
        for (uint32_t c = 0; c < kCoords; ++c) {
            GatherMask(planes[c * n_], xyz, patterns[c * 8], true, kPointsPerRepeat * kCoords,
                       {1, repeats, kCoords, 0}, kept[c]);  // BAD(split)
        }
        event_t vMte3 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE3));
        SetFlag<HardEvent::V_MTE3>(vMte3);
        WaitFlag<HardEvent::V_MTE3>(vMte3);
        DataCopy(outGm_, planes, kCoords * n_);
        for (uint32_t c = 0; c < kCoords; ++c) {
            countGm_.SetValue(c, static_cast<int32_t>(kept[c]));
        }
    }

private:
    TPipe pipe_;
    TBuf<TPosition::VECCALC> xyzBuf_, planeBuf_, patternBuf_;
    GlobalTensor<float> xyzGm_, outGm_;
    GlobalTensor<int32_t> countGm_;
    uint32_t n_ = 0;
};

constexpr uint32_t kSrcElems = 256;
constexpr uint32_t kDstElems = 128;

class GatherOdd {
public:
    __aicore__ inline void Init(GM_ADDR src, GM_ADDR out, GM_ADDR counts, uint32_t builtin)
    {
        builtin_ = builtin;
        srcGm_.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t *>(src), kSrcElems);
        outGm_.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t *>(out), kDstElems);
        countGm_.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(counts), 8);
        pipe_.InitBuffer(inQueue_, 1, kSrcElems * sizeof(uint32_t));
        pipe_.InitBuffer(outQueue_, 1, kDstElems * sizeof(uint32_t));
        pipe_.InitBuffer(patternBuf_, 32);
    }
    __aicore__ inline void Process()
    {
        LocalTensor<uint32_t> src = inQueue_.AllocTensor<uint32_t>();
        DataCopy(src, srcGm_, kSrcElems);
        inQueue_.EnQue(src);
        src = inQueue_.DeQue<uint32_t>();
        LocalTensor<uint32_t> pattern = patternBuf_.Get<uint32_t>();
        Duplicate(pattern, 0xAAAAAAAAU, 8);
        LocalTensor<uint32_t> dst = outQueue_.AllocTensor<uint32_t>();
        Duplicate(dst, 0U, kDstElems);
        PipeBarrier<PIPE_V>();
        uint64_t kept = 0;
        if (builtin_ != 0) {
            GatherMask(dst, src, static_cast<uint8_t>(2), true, 70, {1, 2, 4, 0}, kept);
        } else {
            GatherMask(dst, src, pattern, true, 70, {1, 2, 4, 0}, kept);
        }
        outQueue_.EnQue(dst);
        inQueue_.FreeTensor(src);
        dst = outQueue_.DeQue<uint32_t>();
        DataCopy(outGm_, dst, kDstElems);
        outQueue_.FreeTensor(dst);
        countGm_.SetValue(0, static_cast<int32_t>(kept));
    }

private:
    TPipe pipe_;
    TQue<TPosition::VECIN, 1> inQueue_;
    TQue<TPosition::VECOUT, 1> outQueue_;
    TBuf<TPosition::VECCALC> patternBuf_;
    GlobalTensor<uint32_t> srcGm_, outGm_;
    GlobalTensor<int32_t> countGm_;
    uint32_t builtin_ = 0;
};

}  // namespace

extern "C" __global__ __aicore__ void split_xyz(GM_ADDR xyz, GM_ADDR out, GM_ADDR counts, uint32_t n)
{
    SplitXyz op;
    op.Init(xyz, out, counts, n);
    op.Process();
}

extern "C" __global__ __aicore__ void gather_odd(GM_ADDR src, GM_ADDR out, GM_ADDR counts, uint32_t builtin)
{
    GatherOdd op;
    op.Init(src, out, counts, builtin);
    op.Process();
}
