"""Scalar writes through LocalTensor::operator() -- the documented reference access (`t(i) = v`, S pipe) --
count as written for the local initcheck, so a DMA copy of an address table filled that way is no
`local-uninit-read` (memfabric_hybrid's zbal dispatch / combine kernels, PutShareAddr; backends/sim/kernel_api/
COMPAT.md, "Round 20 (s20g)"). A sector no operator() or instruction wrote is still reported. Our own kernel
(kernels/compat/local_ref_write_idioms.cpp), compared with NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat" / "local_ref_write_idioms.cpp"

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.fixture(scope="module")
def binary():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1"), device="sim")


def _run(binary, blocks, base, count, copy):
    out = pyasc.tensor(np.full(blocks * 32, 0xAB, np.int64), device="sim")  # the kernel's uint64_t, same bytes
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("publish_table"), blocks,
                     (out, np.uint64(base), np.uint32(count), np.uint32(copy)))
    pyasc.synchronize("sim")
    return out.numpy().reshape(blocks, 32)


@pytest.mark.parametrize("blocks, count", [(1, 1), (2, 6), (3, 16)])
def test_a_table_written_through_operator_call_is_copied_out(binary, blocks, count):
    base = 0x12C0_0000_1000
    got = _run(binary, blocks, base, count, count)
    want = np.full((blocks, 32), 0xAB, np.int64)
    for b in range(blocks):
        want[b, :count] = base + b * 1000 + 7 * np.arange(count, dtype=np.int64)
    np.testing.assert_array_equal(got, want)


def test_a_sector_never_written_is_still_reported(binary):
    # 16 uint64 written = UB bytes [0, 128); copying 32 reads [128, 256), which nothing wrote
    with pytest.raises(pyasc.PyascError, match=r"local-uninit-read.*DataCopyPad reads 256 bytes at UB offset \d+, "
                                               r"but no instruction of this kernel wrote"):
        _run(binary, 1, 5, 16, 32)
