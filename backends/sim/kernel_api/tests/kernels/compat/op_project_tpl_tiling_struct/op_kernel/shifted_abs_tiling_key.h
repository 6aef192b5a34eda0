// ShiftedAbs's template argument MODE in {0, 1, 2} (2 bits), of which the op builds 0 (y = x + shift)
// and 2 (y = |x + shift|).  Each selection names its tiling struct with ASCENDC_TPL_TILING_STRUCT_SEL,
// the newer releases' spelling: no template argument, no part of the tiling key.
#ifndef SHIFTED_ABS_TILING_KEY_H
#define SHIFTED_ABS_TILING_KEY_H
#include "shifted_abs_tiling_data.h"
#include "ascendc/host_api/tiling/template_argument.h"

#define SHIFTED_ABS_MODE_PLAIN 0
#define SHIFTED_ABS_MODE_UNUSED 1
#define SHIFTED_ABS_MODE_ABS 2

ASCENDC_TPL_ARGS_DECL(ShiftedAbs,
    ASCENDC_TPL_UINT_DECL(MODE, ASCENDC_TPL_2_BW, ASCENDC_TPL_UI_LIST, SHIFTED_ABS_MODE_PLAIN,
                          SHIFTED_ABS_MODE_UNUSED, SHIFTED_ABS_MODE_ABS));

ASCENDC_TPL_SEL(
    ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_UINT_SEL(MODE, ASCENDC_TPL_UI_LIST, SHIFTED_ABS_MODE_PLAIN),
                         ASCENDC_TPL_TILING_STRUCT_SEL(ShiftedAbsTilingData)),
    ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_UINT_SEL(MODE, ASCENDC_TPL_UI_LIST, SHIFTED_ABS_MODE_ABS),
                         ASCENDC_TPL_TILING_STRUCT_SEL(ShiftedAbsTilingData)));

#endif
