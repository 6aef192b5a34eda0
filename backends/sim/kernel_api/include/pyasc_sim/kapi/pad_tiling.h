// Ascend C on the CPU -- kernel-side tiling structs of Pad / UnPad (PadTiling, UnPadTiling), global as in
// the SDK's kernel_tiling/kernel_tiling.h and visible in AscendC:: and AscendC::tiling::.  Fields in the
// documented order (lib/pad/pad_tilingdata.h); the simulator reads srcHeight, srcWidth and srcOriWidth
// (the rest describe the NPU's internal loop split and are carried, not read).  pyasc_sim.hl_tiling's
// pad_tiling / unpad_tiling fill them on the host.
#ifndef PYASC_SIM_KAPI_PAD_TILING_H_
#define PYASC_SIM_KAPI_PAD_TILING_H_

#include <cstdint>

struct UnPadTiling {
    uint32_t srcHeight = 0, srcWidth = 0;
    uint32_t tmpBuffer1BlockNum = 0, tmpBuffer1RowNum = 0, tmpBuffer2Offset = 0;
    uint32_t widthTiling = 0, widthFractal = 0, widthFractalTail = 0;
};

struct PadTiling {
    uint32_t srcHeight = 0, srcWidth = 0, srcOriWidth = 0;
    uint32_t widthWithoutLastBlock = 0, blocksPerRow = 0, heightTiling = 0, heightFractal = 0;
    uint32_t heightFractalTail = 0, mainLoopOffset = 0, tailBlockOffset = 0;
    uint32_t tmpBuffer1BlockNum = 0, tmpBuffer1RowNum = 0, tmpBuffer2Offset = 0;
    uint32_t widthTiling = 0, widthFractal = 0, widthFractalTail = 0, widthFractalTailAlingned = 0;
    uint32_t brcbTiling = 0, brcbFractal = 0, brcbFractalTail = 0, maxRepeatTimes = 0;
    uint32_t brcbTilingRepeatTimes = 0, brcbTilingRepeatTimesTail = 0, brcbFractalTailRepeatTimes = 0;
    uint32_t brcbFractalTailRepeatTimesTail = 0, reserved = 0;
};

namespace AscendC {
using ::PadTiling;
using ::UnPadTiling;
namespace tiling {
using ::PadTiling;
using ::UnPadTiling;
}  // namespace tiling
}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_PAD_TILING_H_
