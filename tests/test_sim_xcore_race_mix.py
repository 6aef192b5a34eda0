"""gm-cross-core-race between the cores of one mixed block (round 28, s28b; backends/sim/kernel_api/COMPAT.md
"Round 28 (s28b)"): the AIC and the AIVs of a KERNEL_TYPE_MIX_AIC_1_2 block run their own instruction streams, so
an AIV reading GM bytes its partner AIV wrote, with no cross-core flag chain between them, is the same race as
between two blocks (it was never compared: the check skipped every pair of one block). Public kernels share a
per-core GM workspace between their AIVs this way (mamba-ascendc chunk_scan_bwd_diag_state's 2-heads path, whose
output changed from run to run with no report). Kernel: backends/sim/kernel_api/tests/kernels/xrace_mix.cpp."""

from __future__ import annotations

import re

import numpy as np
import pytest

import pyasc
import pyasc_acl

from ascendc_kernels import load, marked_line

SRC = "xrace_mix.cpp"
TILE = 64


@pytest.fixture(scope="module")
def kernels():
    return load(SRC)


def _args(groups: int):
    x_np = np.random.default_rng(groups).standard_normal(groups * 2 * TILE).astype(np.float32)
    x = pyasc.tensor(x_np, device="sim")
    y = pyasc.zeros(groups * 2 * TILE, dtype="float32", device="sim")
    work = pyasc.zeros(groups * 2 * TILE, dtype="float32", device="sim")
    return x_np, x, y, work


@pytest.mark.parametrize("groups", [1, 3])
def test_aivs_of_one_block_meeting_in_gm_without_a_flag_race(kernels, stream, groups):
    _, x, y, work = _args(groups)
    pyasc_acl.launch(kernels.function("xrace_mix_no_sync"), groups, (x, y, work), stream=stream)
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        stream.synchronize()
    msg = info.value.message
    reader, writer = marked_line(SRC, "mix-race-reader"), marked_line(SRC, "mix-race-writer")
    assert f"sanitizer check 'gm-cross-core-race' failed at {reader}: " in msg, msg
    # both cores of the one block are named, with both lines and the bytes (one 64-float tile)
    m = re.search(r"block (\d+)'s AIV (\d) wrote global memory \[\S+, \S+\) \((\d+) bytes\) at (\S+) and "
                  r"block (\d+)'s AIV (\d) read it at (\S+) in the same launch", msg)
    assert m is not None, msg
    assert m.group(1) == m.group(5) and {m.group(2), m.group(6)} == {"0", "1"}, msg
    assert int(m.group(3)) == TILE * 4 and m.group(4) == writer and m.group(7) == reader, msg
    assert "from one core to the other" in msg, msg


@pytest.mark.parametrize("groups", [1, 3])
def test_aivs_ordered_by_the_cross_core_flag_chain_run_clean(kernels, stream, groups):
    x_np, x, y, work = _args(groups)
    pyasc_acl.launch(kernels.function("xrace_mix_flag"), groups, (x, y, work), stream=stream)
    stream.synchronize()
    t = (2 * x_np).reshape(groups, 2, TILE)
    np.testing.assert_array_equal(y.numpy().reshape(groups, 2, TILE), t + t[:, ::-1])
