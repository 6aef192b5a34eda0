"""`FULL_MASK`, decided from the public SDK sources (COMPAT.md, round 29 s29a): the SDK's
kernel_utils_constants.h declares `const uint64_t FULL_MASK = 0xffffffffffffffff;` in namespace AscendC beside
DEFAULT_REPEAT_STRIDE, and public kernels restore a narrowed vector mask with
`SetVectorMask<float>(FULL_MASK, FULL_MASK)` after `using namespace AscendC` (DrivingSDK deformable_conv2d,
deformable_conv2d_grad, multi_scale_deformable_attn). No reference page documents the name, so it is hidden with
PYASC_SIM_DOCUMENTED_ONLY like the other SDK constants.

Our kernel in that idiom: backends/sim/kernel_api/tests/kernels/compat/full_mask_idioms.cpp."""

from __future__ import annotations

import textwrap

import numpy as np
import pytest

import pyasc
import pyasc_sim
from ascendc_kernels import launch_synced, load, on_sim

SRC = "compat/full_mask_idioms.cpp"


@pytest.fixture(scope="module")
def binary():
    return load(SRC)


@pytest.mark.parametrize("rows, embed", [(1, 16), (3, 32), (4, 63), (2, 64)])
def test_masked_add_then_the_whole_mask_restored(binary, rows, embed):
    x = np.random.default_rng(rows * 100 + embed).uniform(-4, 4, (rows, 64)).astype(np.float32)
    y = pyasc.full((rows * 64,), -7.0, dtype="float32", device="sim")
    launch_synced(binary.function("masked_rows"), 1, (on_sim(x.reshape(-1)), y, rows, embed))
    want = x * np.float32(2)
    want[:, :embed] = (x[:, :embed] + x[:, :embed]) * np.float32(2)
    np.testing.assert_array_equal(y.numpy().reshape(rows, 64), want)


def test_full_mask_is_hidden_in_documented_only_mode(tmp_path):
    src = tmp_path / "undocumented_full_mask.cpp"
    src.write_text(textwrap.dedent("""\
        #include "kernel_operator.h"
        using namespace AscendC;
        extern "C" __global__ __aicore__ void k(GM_ADDR x)
        {
            SetVectorMask<float>(FULL_MASK, FULL_MASK);
        }
        """))
    pyasc_sim.compile(src, opt="-O1")  # the SDK's name, as kernels use it
    with pytest.raises(pyasc_sim.KernelCompileError) as err:
        pyasc_sim.compile(src, opt="-O1", extra_flags=["-DPYASC_SIM_DOCUMENTED_ONLY=1"])
    assert "FULL_MASK" in str(err.value), str(err.value)
