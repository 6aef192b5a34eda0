// Ascend C on the CPU -- kernel-side tiling structs of the high-level vector APIs (SoftMaxTiling,
// LayerNormTiling), global as in the SDK's kernel_tiling/kernel_tiling.h and visible in AscendC::.
// Fields in the documented order; the host helpers in pyasc_sim.hl_tiling fill them.
#ifndef PYASC_SIM_KAPI_TILING_STRUCTS_H_
#define PYASC_SIM_KAPI_TILING_STRUCTS_H_

#include <cstdint>

struct SoftMaxTiling {
    uint32_t srcM = 0, srcK = 0, srcSize = 0;
    uint32_t outMaxM = 0, outMaxK = 0, outMaxSize = 0;
    uint32_t splitM = 0, splitK = 0, splitSize = 0;
    uint32_t reduceM = 0, reduceK = 0, reduceSize = 0;
    uint32_t rangeM = 0, tailM = 0, tailSplitSize = 0, tailReduceSize = 0;
};

struct LayerNormTiling {
    uint32_t bLength = 0, sLength = 0, hLength = 0, originalHLength = 0;
    uint32_t inputXSize = 0, meanVarSize = 0, numberOfTmpBuf = 0;
    uint32_t meanTmpTensorPos = 0, meanTmpTensorSize = 0, varianceTmpTensorPos = 0, varianceTmpTensorSize = 0;
    uint32_t tmpBufSize = 0, oneTmpSize = 0;
    uint32_t firstTmpStartPos = 0, secondTmpStartPos = 0, thirdTmpStartPos = 0;
    uint32_t loopRound = 0, inputRoundSize = 0, inputTailSize = 0, inputTailPos = 0;
    uint32_t meanVarRoundSize = 0, meanVarTailSize = 0, meanVarTailPos = 0;
    uint32_t bshCurLength = 0, bsCurLength = 0;
    float lastDimValueBack = 0.0f;
};

struct RmsNormTiling {
    uint32_t bLength = 0, sLength = 0, hLength = 0, originalHLength = 0;
    float reciprocalOfHLength = 0.0f;
    uint32_t mainBshLength = 0, mainBsLength = 0, mainBsLengthAlign = 0;
    uint32_t loopRound = 0, inputTailPos = 0, tailBshLength = 0, tailBsLength = 0;
};

namespace AscendC {
using ::RmsNormTiling;
using ::LayerNormTiling;
using ::SoftMaxTiling;
}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_TILING_STRUCTS_H_
