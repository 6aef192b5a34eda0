"""The Ascend 950 SIMT warp runs in lockstep on the simulator, as documented ("a warp is a set of threads that
execute the same instruction", 32 threads): warp-synchronous code with no barrier between its steps (UB counters
zeroed, counted with asc_atomic_add and read back by the same warp; a UB tree sum by halving) gives what the NPU
gives, and the warp votes / reductions / shuffles are exact over the active lanes. Our own kernel in the style of
public 950 code (kernels/compat/simt_lockstep.cpp), compiled once."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR, launch_synced

SRC = ASCENDC_DIR / "compat/simt_lockstep.cpp"
A950 = "Ascend950PR_9599"

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.fixture(scope="module")
def binary():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1", soc=A950), device="sim")


@pytest.mark.parametrize("blocks, nb", [(1, 5), (2, 32), (3, 40)])
def test_warp_counts_its_rows_without_a_barrier(binary, blocks, nb):
    rng = np.random.default_rng(nb)
    rows = 11
    lengths = rng.integers(0, 70, rows)
    lengths[:3] = [0, 1, 33]  # an empty row, one item, one more than a warp
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
    items = rng.integers(0, 1 << 20, int(offsets[-1])).astype(np.int32)
    counts = pyasc.zeros((rows * nb,), dtype="int32", device="sim")
    launch_synced(binary.function("simt_warp_bucket_count"), blocks,
                  (pyasc.tensor(offsets, device="sim"), pyasc.tensor(items, device="sim"), counts, np.int32(rows),
          np.int32(nb)))
    want = np.zeros((rows, nb), np.int32)
    for r in range(rows):
        np.add.at(want[r], items[offsets[r]:offsets[r + 1]] % nb, 1)
    np.testing.assert_array_equal(counts.numpy().reshape(rows, nb), want)


def test_warp_tree_sum_and_warp_functions(binary):
    rng = np.random.default_rng(14)
    blocks, threads = 2, 64
    x = rng.integers(-99, 100, blocks * threads).astype(np.int32)
    x[32:64] = np.abs(x[32:64]) + 1  # a warp whose values are all positive
    out = pyasc.zeros((blocks * threads * 8,), dtype="int32", device="sim")
    launch_synced(binary.function("simt_warp_tree_sum"), blocks, (pyasc.tensor(x, device="sim"), out))
    got = out.numpy().reshape(-1, 32, 8)
    for w, v in enumerate(x.reshape(-1, 32)):
        ballot = int(sum(1 << i for i in range(32) if v[i] > 0))
        vote = 2 * int(np.all(v > -100)) + int(np.any(v > 90))
        want = np.tile([v.sum(), v.sum(), v.max(), v.min(), np.uint32(ballot).view(np.int32), vote, v.sum(), -1],
                       (32, 1)).astype(np.int32)
        want[1:, 0] = 0  # only lane 0 writes the tree sum
        want[:8, 7] = v[:8].sum()  # lanes 0..7 reduce among themselves, lanes 8..31 see their own active mask
        want[8:, 7] = np.uint32(0xFFFFFF00).view(np.int32)
        np.testing.assert_array_equal(got[w], want, err_msg=f"warp {w}")


def test_only_950_sources_with_vf_calls_get_the_lockstep_hooks():
    assert pyasc_sim.build.uses_simt("asc_vf_call<Vf>(dim3{32}, x);")
    assert pyasc_sim.build.uses_simt("", [b"/k.h\0AscendC::Simt::VF_CALL<Vf>(Simt::Dim3{64}, x);"])
    assert not pyasc_sim.build.uses_simt("Add(z, x, y, n);")

