"""A failed check ends a block by unwinding it, and Catlass-style kernels wait for their pipeline events in
destructors (NPUKernelBench level3: BlockMmad, BlockEpilogue; backends/sim/kernel_api/COMPAT.md, rounds 19-21).
The wait finds a flag the interrupted code never set: it must not fail again (a second throw from a destructor
ends the device process with SIGABRT and hides the block's first report), and the first report must reach
Python. Our kernel (kernels/compat/pipeline_stage_unwind.cpp) in that idiom: a ping-pong stage whose constructor
sets its events and whose destructor waits for them, y = 2 x + 1, compared with NumPy; then the same kernel with a
vector step computing past what its copy wrote and storing those lanes."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat" / "pipeline_stage_unwind.cpp"


@pytest.fixture(scope="module")
def binary():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1", core="vec"), device="sim")


def _run(binary, count, tile, copied):
    x = np.linspace(-4, 4, count, dtype=np.float32)
    y = pyasc.full((count,), -7.0, dtype="float32", device="sim")
    pyasc_acl.launch(binary.function("pipeline_stage_unwind"), 1,
                     (pyasc.tensor(x, device="sim"), y, np.uint32(count), np.uint32(tile), np.uint32(copied)))
    pyasc.synchronize("sim")
    return x, y.numpy()


@pytest.mark.parametrize("count, tile", [(256, 256), (1024, 128)])
def test_pingpong_stage_with_destructor_waits_matches_numpy(binary, count, tile):
    x, y = _run(binary, count, tile, tile)
    np.testing.assert_array_equal(y, x * np.float32(2) + np.float32(1))


def test_first_report_survives_destructor_wait_while_unwinding(binary):
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        _run(binary, 256, 128, 64)  # the store moves 128 floats, 64 of them computed from never-written UB
    msg = info.value.message
    assert "kernel pipeline_stage_unwind block 0: sanitizer check 'local-uninit-read' failed at " in msg, msg
    assert "pipeline_stage_unwind.cpp:" in msg and "DataCopy reads 512 bytes" in msg, msg
    assert "SIGABRT" not in msg and "waitflag-unpaired" not in msg, msg
    assert "restarted" not in msg, msg  # the block ended alone; the device process did not crash
    # the device stays usable: the clean launch after it matches again
    x, y = _run(binary, 256, 64, 64)
    np.testing.assert_array_equal(y, x * np.float32(2) + np.float32(1))

