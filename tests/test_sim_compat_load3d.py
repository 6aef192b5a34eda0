"""Load3Dv2 (LoadData with LoadData3DParamsV2, A1 -> A2) and InitConstValue on the simulator (reference
pages Load3D and InitConstValue), the cube idioms of chunk_scaled_dot_kkt. Our own kernel:
kernels/compat/load3d_idioms.cpp (K cut into two parts by kStartPt, accumulated by Mmad)."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat" / "load3d_idioms.cpp"
MM, KK, NN = 32, 64, 16


@pytest.fixture(scope="module")
def kernels():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1"), device="sim")


@pytest.mark.parametrize("rows", [MM, 20])
def test_load3d_parts_feed_mmad_and_init_const_value_fills_the_rest(kernels, rows):
    rng = np.random.default_rng(rows)
    a = rng.standard_normal((MM, KK)).astype(np.float16)
    b = rng.standard_normal((NN, KK)).astype(np.float16)
    fill = 0.5
    c = pyasc.zeros((MM * NN,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("load3d_gram"), 1,
                     (pyasc.tensor(a.reshape(-1), device="sim"), pyasc.tensor(b.reshape(-1), device="sim"), c,
                      np.uint32(rows), np.float32(fill)))
    pyasc.synchronize("sim")
    a_used = a.astype(np.float32).copy()
    a_used[rows:] = fill
    np.testing.assert_allclose(c.numpy().reshape(MM, NN), a_used @ b.astype(np.float32).T, rtol=1e-5, atol=1e-4)


def test_load3d_outside_the_1x1_case_is_reported(kernels):
    with pytest.raises(pyasc_acl.AclKernelError, match="'unsupported' failed at .*load3d_idioms.cpp:\\d+: .*1 x 1 filter"):
        pyasc_acl.launch(kernels.function("load3d_bad"), 1, ())
        pyasc.synchronize("sim")


def _im2col_1x1(fm, l1h, l1w, pads, pad_value, rows):
    """Rows 0..rows-1 of the 1 x 1 im2col of fm (l1h * l1w positions x channels), padList {left, right, top,
    bottom}: row m = ho * (left + l1w + right) + wo reads position (ho - top, wo - left) or pad_value."""
    left, right, top, _ = pads
    out_w = left + l1w + right
    out = np.full((rows, fm.shape[1]), pad_value, dtype=np.float32)
    for m in range(rows):
        h, w = m // out_w - top, m % out_w - left
        if 0 <= h < l1h and 0 <= w < l1w:
            out[m] = fm[h * l1w + w]
    return out


@pytest.mark.parametrize("l1h, l1w, pads", [
    (2, 16, (0, 0, 0, 255)),  # glm_kpool_score_v310's bottom padding: rows past the map are never reached
    (1, 16, (0, 0, 1, 0)),    # one padded row on top: im2col rows 0..15 are padValue
    (2, 8, (8, 0, 0, 3)),     # 8 padded columns on the left
])
def test_padded_load3d_with_a_reset_config_and_mm_layout_transform(kernels, l1h, l1w, pads):
    rng = np.random.default_rng(l1h * 100 + l1w)
    fm = rng.standard_normal((l1h * l1w, KK)).astype(np.float16)
    b = rng.standard_normal((NN, KK)).astype(np.float16)
    pad_value = 0.25
    c = pyasc.full((MM * NN,), -7.0, dtype="float32", device="sim")
    packed = pads[0] | pads[1] << 8 | pads[2] << 16 | pads[3] << 24
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("load3d_padded"), 1,
                     (pyasc.tensor(fm.reshape(-1), device="sim"), pyasc.tensor(b.reshape(-1), device="sim"), c,
                      np.uint32(l1h), np.uint32(l1w), np.uint32(packed), np.float32(pad_value)))
    pyasc.synchronize("sim")
    a_model = _im2col_1x1(fm.astype(np.float32), l1h, l1w, pads, pad_value, MM)
    np.testing.assert_allclose(c.numpy().reshape(MM, NN), a_model @ b.astype(np.float32).T, rtol=1e-5, atol=1e-4)
