"""Queues copied by value (`this->queIn = queIn;` in a helper class, as RecSDK's recops
split_embedding kernel does): the copy shares the buffers and their states with the original, as on
the NPU (the buffers live in the TPipe); each copy keeps its own FIFO. Checked against NumPy, and a
buffer held through the copy is not available through the original (the shared state is real)."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR, launch_synced

SRC = ASCENDC_DIR / "compat" / "study15a_queue_copy.cpp"


@pytest.fixture(scope="module")
def binary():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1"), device="sim")


@pytest.mark.parametrize("rows", [1, 2, 7])
def test_rows_through_a_copied_queue_and_the_original_match_numpy(binary, rows):
    x = np.random.default_rng(rows).standard_normal((rows, 16)).astype(np.float32)
    y = pyasc.zeros((rows, 16), dtype="float32", device="sim")
    launch_synced(binary.function("qc_rows"), 1, (pyasc.tensor(x, device="sim"), y, rows))
    np.testing.assert_allclose(y.numpy(), 2 * x + 1, rtol=1e-6)


@pytest.mark.parametrize("rows", [1, 5])
def test_inplace_alloc_and_deque_on_depth_zero_queues_match_numpy(binary, rows):
    x = np.random.default_rng(10 + rows).standard_normal((rows, 16)).astype(np.float32)
    y = pyasc.zeros((rows, 16), dtype="float32", device="sim")
    launch_synced(binary.function("qc_inplace_rows"), 1, (pyasc.tensor(x, device="sim"), y, rows))
    np.testing.assert_allclose(y.numpy(), 2 * x + 1, rtol=1e-6)


def test_a_buffer_held_through_the_copy_is_busy_for_the_original(binary):
    x = pyasc.zeros((16,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    stream = pyasc.current_stream("sim")
    pyasc_acl.launch(binary.function("qc_conflict"), 1, (x, x, 1), stream=stream)
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        stream.synchronize()
    assert "queue-alloc-past-depth" in info.value.message, info.value.message


# ---- GET_TILING_DATA without its semicolon (the same round's op-project idiom) -------------------------

OP = ASCENDC_DIR / "compat" / "study15a_op"


def test_get_tiling_data_without_a_semicolon_compiles_and_reads_the_tiling():
    hdr = OP / "op_host" / "scale_rows_tiling.h"
    path = pyasc_sim.compile(OP / "op_kernel" / "scale_rows.cpp", opt="-O1", tiling_header=hdr)
    cores, rows, cols = 3, 2, 16
    t = pyasc_sim.tiling_struct(hdr, cols=cols, rowsPerCore=rows, alpha=-2.5)
    x = np.random.default_rng(3).standard_normal(cores * rows * cols).astype(np.float32)
    y = pyasc.zeros((x.size,), dtype="float32", device="sim")
    launch_synced(pyasc_acl.Binary(path, device="sim").function("scale_rows"), cores,
                  (pyasc.tensor(x, device="sim"), y, pyasc.zeros((8,), dtype="int32", device="sim"),
                   pyasc.tensor(np.frombuffer(bytes(t), np.uint8).copy(), device="sim")))
    np.testing.assert_array_equal(y.numpy(), x * np.float32(-2.5))
