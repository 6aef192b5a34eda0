// ScaledRelu's template argument, declared through the installed SDK spelling of the tiling template
// header ("tiling/template_argument.h", as public op projects include it): RELU in {0, 1}, a
// one-dimensional UINT list whose tiling key is the value's position (0 or 1).
#ifndef SCALED_RELU_TILING_KEY_H
#define SCALED_RELU_TILING_KEY_H
#include "tiling/template_argument.h"

ASCENDC_TPL_ARGS_DECL(ScaledRelu,
    ASCENDC_TPL_UINT_DECL(RELU, ASCENDC_TPL_2_BW, ASCENDC_TPL_UI_LIST, 0, 1));

ASCENDC_TPL_SEL(
    ASCENDC_TPL_ARGS_SEL(
        ASCENDC_TPL_UINT_SEL(RELU, ASCENDC_TPL_UI_LIST, 0, 1)));

#endif
