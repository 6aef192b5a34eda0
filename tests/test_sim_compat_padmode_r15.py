"""DataCopyPad's transfer mode, DataCopyPad<T, PaddingMode::Compact> (CANN 9, Ascend 950; RecSDK's
multislice_concat builds it for the 950): with Compact the bursts of a GM -> UB copy lie back to back
in UB and the whole transfer is padded once to 32 bytes; the UB -> GM form reads packed bursts.
Checked against NumPy on the 950 profile, next to the Normal mode (one 32-byte slot per burst); on
an Atlas A2 build the Compact mode is reported, as the page gives it to the 950 only."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR, launch_synced

SRC = ASCENDC_DIR / "compat" / "study15a_padmode.cpp"
A950 = "Ascend950PR_9599"


def binary(soc: str = A950):
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1", soc=soc), device="sim")


@pytest.mark.parametrize("kernel,dtype", [("pm_compact_f32", np.float32), ("pm_compact_f16", np.float16),
                                          ("pm_normal_f32", np.float32)])
@pytest.mark.parametrize("rows,cols,ld,offset", [(5, 3, 11, 2), (7, 12, 12, 0), (4, 13, 40, 9)])
def test_column_slice_gathered_with_each_mode_matches_numpy(kernel, dtype, rows, cols, ld, offset):
    rng = np.random.default_rng(rows * 100 + cols)
    x = rng.standard_normal(rows * ld + offset).astype(dtype)
    y = pyasc.zeros((rows * cols,), dtype=np.dtype(dtype).name, device="sim")
    launch_synced(binary().function(kernel), 1, (pyasc.tensor(x, device="sim"), y, rows, cols, ld, offset))
    want = x[offset:offset + rows * ld].reshape(rows, ld)[:, :cols].ravel()
    np.testing.assert_array_equal(y.numpy(), want)


def test_compact_packs_the_bursts_and_pads_only_the_end_to_32_bytes():
    rows, cols, ld, tile = 3, 5, 9, 32  # 15 floats of data, padded to 16; the rest of the tile untouched
    x = np.arange(rows * ld, dtype=np.float32)
    y = pyasc.zeros((tile,), dtype="float32", device="sim")
    launch_synced(binary().function("pm_compact_layout"), 1, (pyasc.tensor(x, device="sim"), y, rows, cols, ld, tile))
    want = np.full(tile, 7.0, np.float32)
    want[:15] = x.reshape(rows, ld)[:, :cols].ravel()
    want[15] = -1.0  # isPad: the padding value up to the 32-byte boundary
    np.testing.assert_array_equal(y.numpy(), want)


def test_compact_on_an_atlas_a2_build_is_reported():
    x = pyasc.zeros((64,), dtype="float32", device="sim")
    y = pyasc.zeros((64,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    stream = pyasc.current_stream("sim")
    pyasc_acl.launch(binary("Ascend910B1").function("pm_compact_f32"), 1, (x, y, 2, 3, 8, 0), stream=stream)
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        stream.synchronize()
    assert "PaddingMode::Compact" in info.value.message and "950" in info.value.message, info.value.message


def test_normal_mode_on_an_atlas_a2_build_still_matches():
    rows, cols, ld = 4, 6, 10
    x = np.random.default_rng(1).standard_normal(rows * ld).astype(np.float32)
    y = pyasc.zeros((rows * cols,), dtype="float32", device="sim")
    launch_synced(binary("Ascend910B1").function("pm_normal_f32"), 1, (pyasc.tensor(x, device="sim"), y, rows, cols,
                                                                      ld, 0))
    np.testing.assert_array_equal(y.numpy(), x.reshape(rows, ld)[:, :cols].ravel())
