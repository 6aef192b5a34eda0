"""The FFTS base address of cross-core synchronisation, as memfabric_hybrid's zbal dispatch / combine kernels
install it (backends/sim/kernel_api/COMPAT.md, "Round 20 (s20g)"): AscendC::SetSyncBaseAddr(fftsAddr) and the
CCE intrinsic set_ffts_base_addr(fftsAddr) with the address passed as a uint64_t kernel argument, then the cores
meet (SyncAll, or a mode-0 ffts_cross_core_sync / wait_flag_dev) and read each other's results. The simulator's
counters need no address, so the value is only checked: 4-byte aligned, below 2^48 (`ffts-config`). Kernels are our
own (kernels/compat/sync_base_addr_idioms.cpp), compared with NumPy bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat" / "sync_base_addr_idioms.cpp"
TILE = 64

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.fixture(scope="module")
def binary():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1"), device="sim")


def _run(binary, kernel, blocks, ffts_addr, x):
    work = pyasc.full((blocks * TILE,), -7.0, dtype="float32", device="sim")
    y = pyasc.full((blocks * TILE,), -1.0, dtype="float32", device="sim")
    xd = pyasc.tensor(np.ascontiguousarray(x), device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function(kernel), blocks, (np.uint64(ffts_addr), xd, work, y))
    pyasc.synchronize("sim")
    return y.numpy().reshape(blocks, TILE)


@pytest.mark.parametrize("kernel", ["sync_base_rotate", "ffts_base_rotate"])
@pytest.mark.parametrize("blocks, ffts_addr", [(1, 0), (4, 0x12C0_0000_0000), (7, (1 << 48) - 4)])
def test_cores_meet_after_installing_the_base_address(binary, kernel, blocks, ffts_addr):
    rng = np.random.default_rng(blocks)
    x = rng.integers(-50, 51, (blocks, TILE)).astype(np.float32)
    got = _run(binary, kernel, blocks, ffts_addr, x)
    want = 3 * np.roll(x, -1, axis=0) - x  # another core's phase-1 result: needs the meeting
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("kernel", ["sync_base_rotate", "ffts_base_rotate"])
@pytest.mark.parametrize("ffts_addr", [0x1002, 1 << 48])
def test_a_misaligned_or_too_large_address_is_reported(binary, kernel, ffts_addr):
    x = np.zeros((2, TILE), np.float32)
    with pytest.raises(pyasc.PyascError, match=rf"ffts-config.*set_ffts_base_addr / SetSyncBaseAddr\(0x{ffts_addr:x}\).*"
                                               r"4-byte aligned in \[0, 2\^48 - 1\]"):
        _run(binary, kernel, 2, ffts_addr, x)
