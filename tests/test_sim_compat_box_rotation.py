"""Names DrivingSDK's box / sparse-conv kernels use, decided from the public reference and SDK sources (COMPAT.md,
round 28 s28a):

* The whole-tensor forms of the math library's elementwise functions, `Sin(dst, src)` and `Sin(dst, src,
  sharedTmpBuffer)` (the Sin page atlasascendc_api_07_0500: "源操作数Tensor全部参与计算"; the same four prototypes on
  the Cos, Sinh, ... pages): calCount is the source's size. DrivingSDK box_iou (arch35) rotates corners with them.
* `B64_BYTE_SIZE` / `B32_BYTE_SIZE` / `B16_BYTE_SIZE` / `B8_BYTE_SIZE` (8 / 4 / 2 / 1): the SDK's
  kernel_utils_constants.h beside `B32_DATA_NUM_PER_BLOCK` (DrivingSDK bev_pool_v3_grad, multi_scale_deformable_attn).

(`GetIBShareNormConfig`, the third name of round 28's DrivingSDK study, is tested in test_sim_compat_load3d_b2.py.)

Our kernel in those idioms: backends/sim/kernel_api/tests/kernels/compat/box_rotation_idioms.cpp."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_sim
from ascendc_kernels import launch_synced, load, on_sim

SRC = "compat/box_rotation_idioms.cpp"


@pytest.fixture(scope="module")
def binary():
    return load(SRC)


@pytest.mark.parametrize("n", [8, 5])
def test_whole_tensor_sin_cos_rotate_and_the_byte_size_constants(binary, n):
    angles = np.random.default_rng(n).uniform(-3.1, 3.1, n).astype(np.float32)
    out = pyasc.full((5 * 8,), -7.0, dtype="float32", device="sim")
    launch_synced(binary.function("rotate_corners"), 1, (on_sim(angles), out, n))
    got = out.numpy().reshape(5, 8)
    a = np.zeros(8, np.float64)
    a[:n] = angles  # the tensor's other lanes hold the Duplicate's 0: whole-tensor forms compute all 8
    s, c = np.sin(a), np.cos(a)
    np.testing.assert_allclose(got[0], 0.5 * c - 0.25 * s, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(got[1], 0.5 * s + 0.25 * c, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(got[2], s, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(got[3], c, rtol=1e-6, atol=1e-7)
    np.testing.assert_array_equal(got[4], [8, 4, 2, 1, 0, 0, 0, 0])


def test_byte_size_constants_are_hidden_in_documented_only_mode(tmp_path):
    src = tmp_path / "undocumented.cpp"
    src.write_text('#include "kernel_operator.h"\nusing namespace AscendC;\n'
                   'extern "C" __global__ __aicore__ void k(GM_ADDR x) { (void)x; uint32_t b = B32_BYTE_SIZE; (void)b; }\n')
    with pytest.raises(pyasc_sim.KernelCompileError) as err:
        pyasc_sim.compile(src, opt="-O1", extra_flags=["-DPYASC_SIM_DOCUMENTED_ONLY=1"])
    assert "B32_BYTE_SIZE" in str(err.value), str(err.value)
