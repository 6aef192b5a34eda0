"""GatherMask in counter mode (reduceMode = true) with the repeat strides, decided from the GatherMask page
(atlasascendc_api_07_0071, reduceMode row and the two counter-mode figures; COMPAT.md round 27 s27a).

The page: on Atlas A2 / A3 (and the Atlas 200I/500 A2, the Ascend 950) counter mode is "配置方式一" -- each repeat
covers `mask` elements, repeatTimes repeats; on the Atlas inference series AI Core "配置方式二" -- `mask` elements
in all in 256-byte repeats, repeatTimes ignored. In both the repeat strides apply: src0RepeatStride 4 starts the
second repeat at element 33 (1-based), src1RepeatStride 0 re-reads the pattern from its start. Until round 27 the
simulator read src0 and the pattern bits of counter mode as one contiguous run (`r * mask + i`): DrivingSDK's
cylinder_query (mask 24, src0RepeatStride 3, src1RepeatStride 0, a 3-word pattern) read past its pattern and lost
every point after the 32nd of a tile.

Our kernels in that idiom: backends/sim/kernel_api/tests/kernels/compat/gather_mask_counter_idioms.cpp."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR, launch_synced, load, on_sim

SRC = "compat/gather_mask_counter_idioms.cpp"


@pytest.fixture(scope="module")
def binary():
    return load(SRC)


@pytest.fixture(scope="module")
def binary_310p():
    return pyasc_acl.Binary(pyasc_sim.compile(ASCENDC_DIR / SRC, opt="-O1", soc="Ascend310P3"), device="sim")


def split(binary, n: int, seed: int):
    xyz = np.random.default_rng(seed).standard_normal((n, 3)).astype(np.float32)
    out = pyasc.full((3 * n,), -7.0, dtype="float32", device="sim")
    counts = pyasc.zeros((8,), dtype="int32", device="sim")
    launch_synced(binary.function("split_xyz"), 1, (on_sim(xyz.reshape(-1)), out, counts, n))
    return xyz, out.numpy().reshape(3, n), counts.numpy()[:3]


@pytest.mark.parametrize("n", [8, 40, 2000])
def test_split_xyz_rereads_the_pattern_every_repeat(binary, n):
    # 40 points: 5 repeats, the 5th past the 96 pattern bits a contiguous read would take
    xyz, planes, counts = split(binary, n, seed=n)
    np.testing.assert_array_equal(planes, xyz.T)
    assert counts.tolist() == [n, n, n]


def odd(binary, builtin: int):
    src = np.arange(1, 257, dtype=np.int32) * np.int32(3)  # the kernel's uint32_t elements, bit for bit
    out = pyasc.zeros((128,), dtype="int32", device="sim")
    counts = pyasc.zeros((8,), dtype="int32", device="sim")
    launch_synced(binary.function("gather_odd"), 1, (on_sim(src), out, counts, builtin))
    return src, out.numpy(), int(counts.numpy()[0])


# Atlas A2 (configuration 1): mask 70 per repeat, 2 repeats, src0RepeatStride 4 -> elements 0..69 and 32..101;
# the Atlas inference series (configuration 2): mask 70 in all -> elements 0..63, then 6 from element 32.
# The odd ones of each repeat are kept.
@pytest.mark.parametrize("builtin", [0, 1])
@pytest.mark.parametrize("soc,runs", [("a2", ((1, 70), (33, 102))), ("310p", ((1, 64), (33, 38)))])
def test_counter_mode_is_the_pages_configuration_for_the_soc(binary, binary_310p, soc, runs, builtin):
    src, out, kept = odd(binary if soc == "a2" else binary_310p, builtin)
    want = np.concatenate([src[a:b:2] for a, b in runs])
    assert kept == len(want) == (70 if soc == "a2" else 35)
    np.testing.assert_array_equal(out[:kept], want)
    np.testing.assert_array_equal(out[kept:], 0)
