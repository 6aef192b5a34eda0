"""GlobalTensor::SetL2CacheHint in its documented form (CacheMode argument, CacheRwMode template parameter), as
NPUKernelBench's GroupedMatmulSliceM uses it (backends/sim/kernel_api/COMPAT.md, round 20). The simulator has no L2
cache: the hint must compile and change nothing. Kernel is our own (kernels/compat/l2_cache_hint_idioms.cpp), run on
sim and compared with NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat" / "l2_cache_hint_idioms.cpp"

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.fixture(scope="module")
def binary():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1"), device="sim")


def test_hinted_tensors_move_data_unchanged_and_enums_are_documented(binary):
    x = np.random.default_rng(2).uniform(-4, 4, 512).astype(np.float32)
    y = pyasc.full((512,), -9.0, dtype="float32", device="sim")
    codes = pyasc.full((5,), -1, dtype="int32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("l2_hint_scale"), 1,
                     (pyasc.tensor(x, device="sim"), y, codes, np.int32(512)))
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(y.numpy(), x * np.float32(2) + np.float32(1))
    np.testing.assert_array_equal(codes.numpy(), [0, 1, 1, 2, 3])  # DISABLE, NORMAL, READ, WRITE, RW


@pytest.mark.parametrize("pre_fetch_len", [2, 5])
def test_icache_preload_is_a_hint_that_changes_no_data(binary, pre_fetch_len):
    # ICachePreLoad (page atlasascendc_api_07_0276) preloads instructions into the ICache, preFetchLen in
    # 2 KB units; w4a16_moe (COMPAT.md, round 35 s35d) calls it with 5. The kernel computes as without it.
    x = np.random.default_rng(pre_fetch_len).uniform(-4, 4, 256).astype(np.float32)
    y = pyasc.full((256,), -9.0, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("icache_preload_scale"), 1,
                     (pyasc.tensor(x, device="sim"), y, np.int32(256), np.int64(pre_fetch_len)))
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(y.numpy(), x * np.float32(3) + np.float32(-2))
