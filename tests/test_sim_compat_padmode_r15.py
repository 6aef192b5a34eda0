"""DataCopyPad's transfer mode, DataCopyPad<T, PaddingMode::Compact> (CANN 9, Ascend 950; RecSDK's
multislice_concat builds it for the 950): with Compact the bursts of a GM -> UB copy lie back to back
in UB and the whole transfer is padded once to 32 bytes; the UB -> GM form reads packed bursts.
Checked against NumPy on the 950 profile, next to the Normal mode (one 32-byte slot per burst); on
an Atlas A2 build `PaddingMode` is not declared (round 31: as the SDK declares it, for the 950 only)."""

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


def test_padding_mode_is_not_declared_on_an_atlas_a2_build():
    # round 31 (s31a): the SDK declares AscendC::PaddingMode and the DataCopyPad prototypes that take it for the
    # 950's architectures only (asc-devkit kernel_utils_struct_confusion_pad.h / kernel_operator_data_copy_intf.h),
    # so a Compact (or Normal) copy built for the A2 stops at compile time, as with CANN -- before round 31 it built
    # and each Compact copy was reported ('unsupported') at run time
    with pytest.raises(pyasc_sim.KernelCompileError) as info:
        pyasc_sim.compile(SRC, opt="-O1", soc="Ascend910B1")
    assert "'PaddingMode' has not been declared" in str(info.value).replace("\u2018", "'").replace("\u2019", "'"), \
        str(info.value)[:2000]
