// TplScale's template arguments (tiling template programming): the input dtype, the number of tiles
// a block's share is cut into and whether a ReLU follows; the combinations the op builds.
#ifndef TPL_SCALE_TILING_KEY_H
#define TPL_SCALE_TILING_KEY_H

#include "ascendc/host_api/tiling/template_argument.h"

#define TPL_SCALE_FP32 0
#define TPL_SCALE_FP16 1

ASCENDC_TPL_ARGS_DECL(TplScale,
    ASCENDC_TPL_DTYPE_DECL(D_T_X, TPL_SCALE_FP32, TPL_SCALE_FP16),
    ASCENDC_TPL_UINT_DECL(TILE_NUM, ASCENDC_TPL_4_BW, ASCENDC_TPL_UI_MIX, 1, 1, 2, 4, 8),
    ASCENDC_TPL_BOOL_DECL(RELU, 0, 1));

ASCENDC_TPL_SEL(
    ASCENDC_TPL_ARGS_SEL(
        ASCENDC_TPL_KERNEL_TYPE_SEL(ASCENDC_TPL_AIV_ONLY),
        ASCENDC_TPL_DTYPE_SEL(D_T_X, TPL_SCALE_FP32),
        ASCENDC_TPL_UINT_SEL(TILE_NUM, ASCENDC_TPL_UI_RANGE, 1, 1, 2),
        ASCENDC_TPL_BOOL_SEL(RELU, 0, 1)),
    ASCENDC_TPL_ARGS_SEL(
        ASCENDC_TPL_DTYPE_SEL(D_T_X, TPL_SCALE_FP16),
        ASCENDC_TPL_UINT_SEL(TILE_NUM, ASCENDC_TPL_UI_LIST, 4, 8),
        ASCENDC_TPL_BOOL_SEL(RELU, 1)), );

#endif
