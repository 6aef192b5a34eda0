"""AscendC::Simt::WarpReduceAddSync / WarpReduceMaxSync / WarpReduceMinSync (the C++ SIMT warp-level
interface; int32_t, uint32_t, half, float), as RecSDK's recops split_embedding SIMT pooling calls
them: one warp per bag sums its rows column by column; every active lane gets the reduction. Our own
Ascend 950 kernel (kernels/compat/study15a_warp_reduce.cpp) against NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR, launch_synced

SRC = ASCENDC_DIR / "compat" / "study15a_warp_reduce.cpp"

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.fixture(scope="module")
def binary():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1", soc="Ascend950PR_9599"), device="sim")


@pytest.mark.parametrize("blocks", [1, 2])
def test_warp_per_bag_sum_matches_numpy(binary, blocks):
    rng = np.random.default_rng(blocks)
    lengths = np.array([0, 1, 31, 32, 33, 70, 5])
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
    rows = rng.integers(-50, 50, (int(offsets[-1]), 8)).astype(np.float32)  # integers: every order is exact
    out = pyasc.zeros((len(lengths), 8), dtype="float32", device="sim")
    launch_synced(binary.function("wr_bag_sum"), blocks,
                  (pyasc.tensor(rows, device="sim"), pyasc.tensor(offsets, device="sim"), out, len(lengths)))
    want = np.stack([rows[offsets[b]:offsets[b + 1]].sum(0) for b in range(len(lengths))])
    np.testing.assert_array_equal(out.numpy(), want)


def test_add_max_min_for_each_documented_type(binary):
    rng = np.random.default_rng(15)
    xi = rng.integers(-1000, 1000, 32).astype(np.int32)
    xf = rng.standard_normal(32).astype(np.float32)
    oi = pyasc.zeros((8,), dtype="int32", device="sim")
    ou = pyasc.zeros((8,), dtype="int32", device="sim")  # read back as uint32
    of = pyasc.zeros((8,), dtype="float32", device="sim")
    oh = pyasc.zeros((16,), dtype="float16", device="sim")
    launch_synced(binary.function("wr_kinds"), 1,
                  (pyasc.tensor(xi, device="sim"), pyasc.tensor(xf, device="sim"), oi, ou, of, oh))
    assert oi.numpy()[:3].tolist() == [xi.sum(), xi.max(), xi.min()]
    assert ou.numpy().view(np.uint32)[0] == (xi.view(np.uint32) & 0xFFFF).max()
    assert of.numpy()[:2].tolist() == [xf.max(), xf.min()]
    assert oh.numpy()[0] == np.float16(np.fmod(xi, 8).sum())  # C remainder; small integers: exact in half
