// The compare-mask walk of scatter / gather kernels (tests/test_sim_compat_scalar_bitset.py): a CompareScalar bit
// mask sized with AscendCUtils::GetBitSize(sizeof(uint8_t)) bits per byte, read back 64 bits at a time, and its set
// bits visited lowest first with ScalarGetSFFValue<1>(w) and cleared with the compiler builtin sbitset0(w, p); the
// visited positions rebuilt into a word with sbitset1 -- the idiom of DrivingSDK's scatter_add_v3 (COMPAT.md round 28).
//
// bit_walk(x, idx, words, sizes, n, thr, badBit): x holds n floats (n a multiple of 64).
//   idx   (n int32_t): the positions i with x[i] >= thr in increasing order, then -1 up to n;
//   words (n / 64 uint64_t): each 64-bit word rebuilt from the visited positions with sbitset1 (= the mask word);
//   sizes (8 int32_t): [the number of positions, GetBitSize(1), GetBitSize(4), GetC0Size(), GetC0Count(2),
//                       GetC0Count(4), GetDefaultBlockNum(), 0].
//   badBit >= 0 calls sbitset1(0, badBit) once first (a bit outside 0..63 is invalid-argument); badBit -2 calls
//   AscendCUtils::GetC0Count(0) (invalid-argument).
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void bit_walk(GM_ADDR x, GM_ADDR idx, GM_ADDR words, GM_ADDR sizes, uint32_t n,
                                               float thr, int32_t badBit)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf, maskBuf, idxBuf, wordBuf, sizeBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<int32_t> idxGm, sizeGm;
    GlobalTensor<uint64_t> wordGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), n);
    idxGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(idx), n);
    wordGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint64_t *>(words), n / 64);
    sizeGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(sizes), 8);

    const uint32_t bitsPerByte = AscendCUtils::GetBitSize(sizeof(uint8_t));
    const uint32_t maskBytes = (n / bitsPerByte + 31) / 32 * 32;
    pipe.InitBuffer(xBuf, n * sizeof(float));
    pipe.InitBuffer(maskBuf, maskBytes);
    pipe.InitBuffer(idxBuf, n * sizeof(int32_t));
    pipe.InitBuffer(wordBuf, (n / 64 + 3) / 4 * 32);
    pipe.InitBuffer(sizeBuf, 8 * sizeof(int32_t));
    LocalTensor<float> xLocal = xBuf.Get<float>();
    LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();
    LocalTensor<int32_t> idxLocal = idxBuf.Get<int32_t>();
    LocalTensor<uint64_t> wordLocal = wordBuf.Get<uint64_t>();
    LocalTensor<int32_t> sizeLocal = sizeBuf.Get<int32_t>();

    if (badBit >= 0) {
        uint64_t probe = sbitset1(0, badBit);  // BAD(bad_bit)
        sizeLocal.SetValue(7, static_cast<int32_t>(probe));
    }
    if (badBit == -2) {  // an element size of 0 bytes
        sizeLocal.SetValue(7, AscendCUtils::GetC0Count(badBit + 2));  // BAD(c0_zero)
    }

    DataCopy(xLocal, xGm, n);
    Duplicate(idxLocal, static_cast<int32_t>(-1), n);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    CompareScalar(mask, xLocal, thr, CMPMODE::GE, n);
    SetFlag<HardEvent::V_S>(EVENT_ID0);
    WaitFlag<HardEvent::V_S>(EVENT_ID0);

    int32_t count = 0;
    for (uint32_t m = 0; m < n / 64; m++) {
        uint64_t w = mask.ReinterpretCast<uint64_t>().GetValue(m);
        uint64_t rebuilt = 0;
        for (int64_t p = ScalarGetSFFValue<1>(w); p >= 0; p = ScalarGetSFFValue<1>(w)) {
            w = sbitset0(w, p);
            rebuilt = sbitset1(rebuilt, p);
            idxLocal.SetValue(count++, static_cast<int32_t>(m * 64 + p));
        }
        wordLocal.SetValue(m, rebuilt);
    }
    sizeLocal.SetValue(0, count);
    sizeLocal.SetValue(1, AscendCUtils::GetBitSize(1));
    sizeLocal.SetValue(2, AscendCUtils::GetBitSize(4));
    sizeLocal.SetValue(3, AscendCUtils::GetC0Size());
    sizeLocal.SetValue(4, AscendCUtils::GetC0Count(2));
    sizeLocal.SetValue(5, AscendCUtils::GetC0Count(4));
    sizeLocal.SetValue(6, AscendCUtils::GetDefaultBlockNum());
    if (badBit < 0) {
        sizeLocal.SetValue(7, 0);
    }
    SetFlag<HardEvent::S_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::S_MTE3>(EVENT_ID0);
    DataCopy(idxGm, idxLocal, n);
    DataCopyPad(wordGm, wordLocal, {1, static_cast<uint32_t>(n / 64 * sizeof(uint64_t)), 0, 0, 0});
    DataCopy(sizeGm, sizeLocal, 8);
}
