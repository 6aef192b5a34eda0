"""Local-memory initcheck with the sanitizer's record of wholly written ranges (round 15: a read
inside a range every 32-byte sector of which an instruction wrote skips the walk over the shadow
bits, and writing such a range again skips setting them; kapi/state.h, BlockState::wspan). Planted
bugs next to those ranges must still fail: a read across a gap between two written pieces, one
sector past the end or before the start of pieces that touch or overlap; reads exactly on them pass.
Kernels: backends/sim/kernel_api/tests/kernels/san_written_spans.cpp."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl

from ascendc_kernels import load, marked_line

SRC = "san_written_spans.cpp"


@pytest.fixture
def kernels():
    return load(SRC)


@pytest.mark.parametrize("mode,tag,what,unwritten", [
    (0, "span-gap", "DataCopy reads 1536 bytes at UB offset", 512),  # the Adds result's lanes from the gap
    (1, "span-past-end", "DataCopy reads 1056 bytes at UB offset", 1024),
    (2, "span-before-start", "DataCopy reads 992 bytes at UB offset", 32)])
def test_a_read_next_to_written_ranges_still_fails(kernels, mode, tag, what, unwritten):
    stream = pyasc.current_stream("sim")
    z = pyasc.full((512,), 7.0, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("written_spans"), 1, (z, mode), stream=stream)
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        stream.synchronize()
    msg = info.value.message
    head = f"kernel written_spans block 0: sanitizer check 'local-uninit-read' failed at {marked_line(SRC, tag)}: "
    assert head in msg, msg
    assert what in msg, msg
    base = int(msg.split(" bytes at UB offset ")[1].split(",")[0])  # the buffer's offset in UB (+ the read's)
    first = int(msg.split("no instruction of this kernel wrote UB offset ")[1].split(" ")[0])
    read_start = {0: 0, 1: 0, 2: 32}[mode]
    assert first == base - read_start + unwritten, msg
    np.testing.assert_array_equal(z.numpy(), np.full(512, 7.0, np.float32))  # the bad DMA never landed


def test_reads_exactly_on_written_ranges_pass(kernels):
    stream = pyasc.current_stream("sim")
    z = pyasc.full((512,), 7.0, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("written_spans"), 1, (z, 3), stream=stream)
    stream.synchronize()
    expected = np.full(512, 7.0, np.float32)
    expected[:256] = 2.0
    np.testing.assert_array_equal(z.numpy(), expected)
