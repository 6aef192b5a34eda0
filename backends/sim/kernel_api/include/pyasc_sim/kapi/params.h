// Ascend C on the CPU -- parameter structures of the data-move, vector and cube APIs.
//
// Field names, types, defaults and constructor argument orders follow the public Ascend C
// API reference.  Units (documented): DataCopyParams counts blocks of 32 bytes;
// DataCopyExtParams::blockLen counts bytes and its GM-side stride bytes, its local-side
// stride 32-byte blocks; repeat-parameter block strides count 32-byte blocks and repeat
// strides count 32-byte blocks between the starts of consecutive repeats.
#ifndef PYASC_SIM_KAPI_PARAMS_H_
#define PYASC_SIM_KAPI_PARAMS_H_

#include "pyasc_sim/kapi/base.h"

// pad_t is a global-scope enum on the NPU (kernels write `pad_t::PAD_NONE` without `AscendC::`).
enum class pad_t : uint8_t { PAD_NONE = 0 };

namespace AscendC {

struct DataCopyParams {
    DataCopyParams() {}
    DataCopyParams(const uint16_t count, const uint16_t len, const uint16_t srcStrideIn, const uint16_t dstStrideIn)
        : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn) {}
    uint16_t blockCount = sim_detail::DEFAULT_DATA_COPY_NBURST;  // number of bursts
    uint16_t blockLen = 0;                           // burst length, 32-byte blocks (bytes in DataCopyPad)
    uint16_t srcStride = 0;                          // gap between bursts in the source
    uint16_t dstStride = 0;                          // gap between bursts in the destination
};

struct DataCopyExtParams {
    DataCopyExtParams() {}
    DataCopyExtParams(const uint16_t count, const uint32_t len, const uint32_t srcStrideIn,
                      const uint32_t dstStrideIn, const uint32_t rsvIn = 0)
        : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn), rsv(rsvIn) {}
    uint16_t blockCount = sim_detail::DEFAULT_DATA_COPY_NBURST;
    uint32_t blockLen = 0;   // bytes
    uint32_t srcStride = 0;  // GM: bytes; local: 32-byte blocks
    uint32_t dstStride = 0;  // GM: bytes; local: 32-byte blocks
    uint32_t rsv = 0;
};

template <typename T>
struct DataCopyPadExtParams {
    DataCopyPadExtParams() {}
    DataCopyPadExtParams(const bool isPadIn, const uint8_t leftPadIn, const uint8_t rightPadIn, T padValue)
        : isPad(isPadIn), leftPadding(leftPadIn), rightPadding(rightPadIn), paddingValue(padValue) {}
    bool isPad = false;
    uint8_t leftPadding = 0;   // elements
    uint8_t rightPadding = 0;  // elements
    T paddingValue = 0;
};

struct DataCopyPadParams {
    DataCopyPadParams() {}
    DataCopyPadParams(const bool isPadIn, const uint8_t leftPadIn, const uint8_t rightPadIn, const uint64_t padValue)
        : isPad(isPadIn), leftPadding(leftPadIn), rightPadding(rightPadIn), paddingValue(padValue) {}
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    uint64_t paddingValue = 0;
};

// Members in the documented order (enhanced DataCopy page, e.g. CANN 8.0.RC2 atlasascendc_api_07_0111),
// so a positional braced list such as {BLOCK_MODE_MATRIX, DeqScale::DEQ_NONE, 0, 0, true, pad_t::PAD_NONE, 0}
// fills the same fields as on the NPU. deqScale / padMode / deqTensorAddr are carried, not modelled: only
// their documented defaults (DEQ_NONE, PAD_NONE) are declared, the in-line quantisation is not simulated.
enum class DeqScale : uint8_t { DEQ_NONE = 0 };

struct DataCopyEnhancedParams {
    BlockMode blockMode = BlockMode::BLOCK_MODE_NORMAL;
    DeqScale deqScale = DeqScale::DEQ_NONE;
    uint64_t deqValue = 0;
    uint8_t sidStoreMode = 0;
    bool isRelu = false;
    pad_t padMode = pad_t::PAD_NONE;
    uint64_t padValue = 0;
    uint64_t deqTensorAddr = 0;
};

struct Nd2NzParams {
    Nd2NzParams() {}
    Nd2NzParams(const uint16_t ndNumIn, const uint16_t nValueIn, const uint16_t dValueIn,
                const uint16_t srcNdMatrixStrideIn, const uint16_t srcDValueIn, const uint16_t dstNzC0StrideIn,
                const uint16_t dstNzNStrideIn, const uint16_t dstNzMatrixStrideIn)
        : ndNum(ndNumIn), nValue(nValueIn), dValue(dValueIn), srcNdMatrixStride(srcNdMatrixStrideIn),
          srcDValue(srcDValueIn), dstNzC0Stride(dstNzC0StrideIn), dstNzNStride(dstNzNStrideIn),
          dstNzMatrixStride(dstNzMatrixStrideIn) {}
    uint16_t ndNum = 1;              // matrices
    uint16_t nValue = 0;             // rows per matrix
    uint16_t dValue = 0;             // columns per matrix (elements)
    uint16_t srcNdMatrixStride = 0;  // elements between source matrices
    uint16_t srcDValue = 0;          // elements between source rows
    uint16_t dstNzC0Stride = 0;      // 32-byte blocks between destination column blocks
    uint16_t dstNzNStride = 0;       // 32-byte blocks between destination rows
    uint16_t dstNzMatrixStride = 0;  // elements between destination matrices
};

struct BinaryRepeatParams {
    BinaryRepeatParams() {}
    BinaryRepeatParams(const uint8_t dstBlkStrideIn, const uint8_t src0BlkStrideIn, const uint8_t src1BlkStrideIn,
                       const uint8_t dstRepStrideIn, const uint8_t src0RepStrideIn, const uint8_t src1RepStrideIn)
        : dstBlkStride(dstBlkStrideIn), src0BlkStride(src0BlkStrideIn), src1BlkStride(src1BlkStrideIn),
          dstRepStride(dstRepStrideIn), src0RepStride(src0RepStrideIn), src1RepStride(src1RepStrideIn) {}
    uint32_t blockNumber = sim_detail::DEFAULT_BLK_NUM;
    uint8_t dstBlkStride = sim_detail::DEFAULT_BLK_STRIDE;
    uint8_t src0BlkStride = sim_detail::DEFAULT_BLK_STRIDE;
    uint8_t src1BlkStride = sim_detail::DEFAULT_BLK_STRIDE;
    uint8_t dstRepStride = sim_detail::DEFAULT_REPEAT_STRIDE;
    uint8_t src0RepStride = sim_detail::DEFAULT_REPEAT_STRIDE;
    uint8_t src1RepStride = sim_detail::DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
};

struct UnaryRepeatParams {
    UnaryRepeatParams() {}
    UnaryRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t srcBlkStrideIn, const uint8_t dstRepStrideIn,
                      const uint8_t srcRepStrideIn)
        : dstBlkStride(dstBlkStrideIn), srcBlkStride(srcBlkStrideIn), dstRepStride(dstRepStrideIn),
          srcRepStride(srcRepStrideIn) {}
    UnaryRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t srcBlkStrideIn, const uint8_t dstRepStrideIn,
                      const uint8_t srcRepStrideIn, const bool halfBlockIn)
        : dstBlkStride(dstBlkStrideIn), srcBlkStride(srcBlkStrideIn), dstRepStride(dstRepStrideIn),
          srcRepStride(srcRepStrideIn), halfBlock(halfBlockIn) {}
    uint32_t blockNumber = sim_detail::DEFAULT_BLK_NUM;
    uint16_t dstBlkStride = sim_detail::DEFAULT_BLK_STRIDE;
    uint16_t srcBlkStride = sim_detail::DEFAULT_BLK_STRIDE;
    uint8_t dstRepStride = sim_detail::DEFAULT_REPEAT_STRIDE;
    uint8_t srcRepStride = sim_detail::DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
    bool halfBlock = false;
};

struct LoadData2DParams {
    LoadData2DParams() {}
    LoadData2DParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn, const uint16_t srcStrideIn,
                     const uint8_t sidIn, const uint16_t dstGapIn, const bool ifTransposeIn, const uint8_t addrModeIn)
        : startIndex(startIndexIn), dstGap(dstGapIn), srcStride(srcStrideIn), ifTranspose(ifTransposeIn),
          repeatTimes(repeatTimesIn), sid(sidIn), addrMode(addrModeIn) {}
    uint16_t startIndex = 0;  // first source fractal (512 bytes each)
    uint16_t dstGap = 0;      // fractals skipped between destination fractals
    uint16_t srcStride = 0;   // fractals between consecutive source fractals
    bool ifTranspose = false; // transpose each 16x16 fractal (16-bit types)
    uint8_t repeatTimes = 0;  // fractals to load
    uint8_t sid = 0;
    uint8_t addrMode = 0;
};
#if !PYASC_SIM_DOCUMENTED_ONLY
using LoadData2dParams = LoadData2DParams;  // spelling used by older samples (undocumented)
#endif

struct MmadParams {
    MmadParams() {}
    MmadParams(const uint16_t mIn, const uint16_t nIn, const uint16_t kIn, const bool isBiasIn,
               const int32_t fmOffsetIn, const bool enSsparseIn, const bool enWinogradAIn, const bool enWinogradBIn)
        : m(mIn), n(nIn), k(kIn), isBias(isBiasIn), fmOffset(fmOffsetIn), enSsparse(enSsparseIn),
          enWinogradA(enWinogradAIn), enWinogradB(enWinogradBIn) {}
    MmadParams(const uint16_t mIn, const uint16_t nIn, const uint16_t kIn, const uint8_t unitFlagIn,
               const bool cmatrixSourceIn, const bool cmatrixInitValIn)
        : m(mIn), n(nIn), k(kIn), unitFlag(unitFlagIn), cmatrixSource(cmatrixSourceIn),
          cmatrixInitVal(cmatrixInitValIn) {}
    uint16_t m = 0;
    uint16_t n = 0;
    uint16_t k = 0;
    bool isBias = false;         // true: C += A x B (accumulate into L0C)
    int32_t fmOffset = 0;
    bool enSsparse = false;
    bool enWinogradA = false;
    bool enWinogradB = false;
    uint8_t unitFlag = 0;
    bool kDirectionAlign = false;
    bool cmatrixSource = false;  // initial C from the bias table (C2) instead of L0C
    bool cmatrixInitVal = true;  // true: C starts at 0; false: accumulate into L0C
};

struct FixpipeParamsV220 {
    FixpipeParamsV220() {}
    FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                      const uint32_t dstStrideIn, const bool reluEnIn)
        : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), reluEn(reluEnIn) {}
    // The full form (Fixpipe page, FixpipeParamsV220): the five above, then the quantization, the
    // ND batch (ndNum matrices, srcNdStride in 1 KB L0C fractals, dstNdStride in elements) and unitFlag.
    FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                      const uint32_t dstStrideIn, const bool reluEnIn, const QuantMode_t quantPreIn,
                      const int64_t deqScalarIn, const uint16_t ndNumIn, const uint16_t srcNdStrideIn,
                      const uint16_t dstNdStrideIn, const uint8_t unitFlagIn)
        : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), quantPre(quantPreIn),
          deqScalar(static_cast<uint64_t>(deqScalarIn)), ndNum(ndNumIn), srcNdStride(srcNdStrideIn),
          dstNdStride(dstNdStrideIn), reluEn(reluEnIn), unitFlag(unitFlagIn) {}
    uint16_t nSize = 0;      // columns to move
    uint16_t mSize = 0;      // rows to move
    uint16_t srcStride = 0;  // rows (of 16 elements) between the source's column fractals
    uint32_t dstStride = 0;  // ND output: elements between rows; NZ output: rows between column fractals
    QuantMode_t quantPre = QuantMode_t::NoQuant;
    uint64_t deqScalar = 0;
    uint16_t ndNum = 1;
    uint16_t srcNdStride = 0;
    uint16_t dstNdStride = 0;
    bool reluEn = false;
    uint8_t unitFlag = 0;
    bool isChannelSplit = false;
};

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_PARAMS_H_
