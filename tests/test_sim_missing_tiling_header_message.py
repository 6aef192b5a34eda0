"""An op-project kernel compiled without its host tiling header (issue 8, acceptance: errors name what is missing).

``GET_TILING_DATA(t, tiling)`` has no struct to declare then, and g++ reports the kernel's first field read
(``NoTilingStruct has no member named 'totalLength'``) before the kernel API's static_assert that says what to
pass.  Public kernels written against a shared op_host header (Zerone-CS/Ascend-C-DB resnet_ascendc ``kernels/``)
hit this; the error's headline must carry the advice: ``tiling_header=`` / ``op_type=`` / REGISTER_TILING_DEFAULT."""

from __future__ import annotations

import pytest

import pyasc_sim

KERNEL = r"""
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void scale_by_tiling(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, tilingData.totalLength);
    yGm.SetGlobalBuffer((__gm__ float *)y, tilingData.totalLength);
    for (uint32_t i = GetBlockIdx(); i < tilingData.totalLength; i += GetBlockNum()) {
        yGm.SetValue(i, xGm.GetValue(i) * 2.0f);
    }
}
"""


def test_missing_tiling_header_error_leads_with_the_advice(tmp_path):
    src = tmp_path / "scale_by_tiling.cpp"
    src.write_text(KERNEL)
    with pytest.raises(pyasc_sim.KernelCompileError) as info:
        pyasc_sim.compile(src, opt="-O0")
    headline = str(info.value).splitlines()[0]
    assert "GET_TILING_DATA: no tiling struct for this kernel" in headline
    assert "tiling_header=" in headline and "op_type=" in headline
    assert "no member named" in headline and "totalLength" in headline  # the g++ diagnostic it explains
    assert info.value.file == str(src) and info.value.line == 9  # the kernel's first field read
