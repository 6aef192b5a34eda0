"""__ballot / __popc on the Ascend 950 SIMT model: one warp per row votes whether the row's key is among each
lane's entries (__ballot, the CUDA spelling of asc_ballot), counts the voting lanes (__popc, 32- and 64-bit
overloads) and takes the row minimum with an __shfl_xor butterfly, as public 950 graph kernels (IndexSDK's CAGRA
prune) do. Our own kernel in their style (kernels/compat/simt_team_vote.cpp), compared with NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat/simt_team_vote.cpp"

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.fixture(scope="module")
def function():
    path = pyasc_sim.compile(SRC, opt="-O1", soc="Ascend950PR_9599")
    return pyasc_acl.Binary(path, device="sim").function("simt_row_vote")


@pytest.mark.parametrize("nrows, width, blocks", [(9, 128, 1), (21, 70, 2), (5, 17, 3)])
def test_team_vote_counts_lanes_holding_the_key(function, nrows, width, blocks):
    rng = np.random.default_rng(width)
    rows = rng.integers(0, 12, (nrows, width)).astype(np.int32)  # small values: keys repeat within a row
    keys = rng.integers(0, 14, nrows).astype(np.int32)  # 12, 13: keys no row holds
    keys[0] = 99
    out = pyasc.zeros((nrows * 4,), dtype="int32", device="sim")  # uint32 words, held as int32
    pyasc.synchronize("sim")
    pyasc_acl.launch(function, blocks, (pyasc.tensor(rows, device="sim"), pyasc.tensor(keys, device="sim"), out,
                                        np.uint32(nrows), np.uint32(width)))
    pyasc.synchronize("sim")
    got = out.numpy().view(np.uint32).reshape(nrows, 4)
    for r in range(nrows):
        mask = 0
        for c in np.nonzero(rows[r] == keys[r])[0]:
            mask |= 1 << (int(c) % 32)
        ones = bin(mask).count("1")
        np.testing.assert_array_equal(got[r], [ones, mask, rows[r].min(), 2 * ones], err_msg=f"row {r}")
    assert got[0, 1] == 0 and got[:, 0].max() > 1  # the absent key votes no lane; some key is in several lanes
