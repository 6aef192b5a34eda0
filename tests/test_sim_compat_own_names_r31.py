"""Names the SDK declares (or does not) where a kernel sees them, round 31 (s31a; COMPAT.md "Round 31 (s31a)"):
a kernel's own `PaddingMode` beside `using namespace AscendC` (Ascend/DrivingSDK grid_sampler2d_v2): the SDK declares
`AscendC::PaddingMode` for the Ascend 950's architectures only, so the kernel's enum is the only one on an Atlas A2
build and the two meet (ambiguous) on the 950, as with CANN.

Our kernel in that idiom: backends/sim/kernel_api/tests/kernels/compat/own_padding_mode.cpp."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

PAD_SRC = ASCENDC_DIR / "compat/own_padding_mode.cpp"
A950 = "Ascend950PR_9599"

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


def _pad_gather_reference(src, idx, mode):
    w = len(src)
    out = np.empty(len(idx), np.float32)
    for k, i in enumerate(idx):
        if 0 <= i < w:
            out[k] = src[i]
        elif mode == 0:  # ZEROS
            out[k] = 0.0
        elif mode == 1 or w == 1:  # BORDER
            out[k] = src[0 if i < 0 else w - 1]
        else:  # REFLECTION, the edge elements not repeated
            period = 2 * (w - 1)
            r = i % period
            out[k] = src[r if r < w else period - r]
    return out


@pytest.mark.parametrize("mode", [0, 1, 2])
def test_a_kernels_own_padding_mode_builds_and_matches_on_an_atlas_a2(mode):
    binary = pyasc_acl.Binary(pyasc_sim.compile(PAD_SRC, opt="-O1"), device="sim")
    rng = np.random.default_rng(31 + mode)
    w, n = 13, 100
    src = rng.standard_normal(w).astype(np.float32)
    idx = rng.integers(-40, 40, n).astype(np.int32)
    out = pyasc.full((n,), -7.0, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("pad_gather"), 1, (pyasc.tensor(src, device="sim"), pyasc.tensor(idx, device="sim"),
                                                        out, np.uint32(w), np.uint32(n), np.uint32(mode)))
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(out.numpy(), _pad_gather_reference(src, idx, mode))


def test_a_kernels_own_padding_mode_is_ambiguous_on_the_950():
    # the 950 has AscendC::PaddingMode (DataCopyPad's transfer mode), which `using namespace AscendC` brings in
    with pytest.raises(pyasc_sim.KernelCompileError) as info:
        pyasc_sim.compile(PAD_SRC, opt="-O1", soc=A950)
    assert "'PaddingMode' is ambiguous" in str(info.value).replace("\u2018", "'").replace("\u2019", "'"), \
        str(info.value)[:2000]
