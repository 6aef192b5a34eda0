"""A failing raw ``__gm__`` store (gm-foreign-block, issue 10 point 1) cannot be stopped by the
compiler's hooks, so it lands; its target bytes are put back at the block's next device-memory access
(and again when the block ends), not only when the block ends: the window in which the wrong bytes are
visible shrinks from the rest of the block to the instructions between the store and the block's next
GM access. Kernel: backends/sim/kernel_api/tests/kernels/san_raw_window.cpp (round 15 audit)."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl

from ascendc_kernels import load, marked_line

pytest.importorskip("pyasc_sim")

SRC = "san_raw_window.cpp"


def test_the_neighbour_reads_its_own_value_right_after_the_failing_store():
    k = load(SRC)
    stream = pyasc.current_stream("sim")
    x = pyasc.full((64,), 1.0, dtype="float32", device="sim")
    nb = pyasc.full((64,), 5.0, dtype="float32", device="sim")
    y = pyasc.zeros(64, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(k.function("raw_store_then_look"), 1, (x, y, nb._data.ptr - x._data.ptr), stream=stream)
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        stream.synchronize()
    msg = info.value.message
    assert f"sanitizer check 'gm-foreign-block' failed at {marked_line(SRC, 'raw-window')}: " in msg, msg
    assert "a raw __gm__ store writes 4 bytes" in msg and f"at global address {nb._data.ptr:#x}" in msg
    # y[1] is what nb[0] held after the kernel's next GM access (x[0]): its own 5.0, not the 9.0 stored
    np.testing.assert_array_equal(y.numpy()[:3], np.array([1.0, 5.0, 0.0], np.float32))
    np.testing.assert_array_equal(nb.numpy(), np.full(64, 5.0, np.float32))
