"""A kernel declaring ``KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY)`` is compiled for the cube core, round 35
(s35a; COMPAT.md "Round 35 (s35a)"): the NPU toolchain builds an AIC-only kernel for the AIC only, so its
``#if defined(__DAV_C220_CUBE__)`` body exists without the caller asking for ``core="cube"`` (kda-ascendc's aclab
k2_min built empty before). The decision (:func:`pyasc_sim.mix_build.aic_only_core`) and one small kernel of ours
built with the default core (one kernel build)."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from pyasc_sim import mix_build

DECL = b"KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);\n"
CUBE_IF = b"#if defined(__DAV_C220_CUBE__)\n#endif\n"


@pytest.mark.parametrize("core, dav, sources, want", [
    ("vec", "C220", [DECL + CUBE_IF], "cube"),                      # declared, tests the macros: the cube core
    ("vec", "C220", [DECL, b"#ifdef __DAV_CUBE__\n#endif\n"], "cube"),  # the test in one of its own headers
    ("vec", "C220", [DECL], "vec"),                                 # no core-macro test: one build as before
    ("vec", "C220", [CUBE_IF], "vec"),                              # no AIC-only declaration
    ("vec", "C220", [DECL + CUBE_IF + b"KERNEL_TASK_TYPE(1, KERNEL_TYPE_MIX_AIC_1_2);\n"], "vec"),  # other types
    ("vec", "C220", [DECL + CUBE_IF + b"KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);\n"], "vec"),
    ("mix", "C220", [DECL + CUBE_IF], "mix"),                       # an explicit mixed build stays
    ("vec", "M200", [DECL + CUBE_IF], "vec"),                       # the 310P: one core kind, one macro
    ("vec", "C310", [DECL + CUBE_IF], "vec"),                       # the 950: vector kernels only
])
def test_the_core_an_aic_only_kernel_is_built_for(core, dav, sources, want):
    assert mix_build.aic_only_core(core, dav, sources) == want


KERNEL = """
#include "kernel_operator.h"
// what each build of an AIC-only kernel sees: the NPU toolchain compiles it for the cube core only
extern "C" __global__ __aicore__ void aic_only_halves(GM_ADDR out)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    AscendC::GlobalTensor<int32_t> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(out) + AscendC::GetBlockIdx() * 16, 16);  // a 64-byte line each
#if defined(__DAV_C220_CUBE__) && !defined(__DAV_C220_VEC__)
    g.SetValue(0, 11);
#elif defined(__DAV_C220_VEC__)
    g.SetValue(0, 22);
#endif
    g.SetValue(1, ASCEND_IS_AIC ? 1 : 0);
    AscendC::DataCacheCleanAndInvalid<int32_t, AscendC::CacheLine::SINGLE_CACHE_LINE,
                                      AscendC::DcciDst::CACHELINE_OUT>(g);
}
"""


def test_an_aic_only_kernel_runs_its_cube_half_by_default(tmp_path):
    src = tmp_path / "aic_only_halves.cpp"
    src.write_text(KERNEL)
    binary = pyasc_acl.Binary(pyasc_sim.compile(src, opt="-O1"), device="sim")  # the default core="vec"
    blocks = 3
    out = pyasc.full((blocks * 16,), -7, dtype="int32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("aic_only_halves"), blocks, (out,))
    pyasc.synchronize("sim")
    got = out.numpy().reshape(blocks, 16)
    np.testing.assert_array_equal(got[:, :2], [[11, 1]] * blocks)  # the cube half, on AICs
    np.testing.assert_array_equal(got[:, 2:], -7)
