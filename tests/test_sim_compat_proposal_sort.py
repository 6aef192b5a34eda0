"""Region-proposal sorting of the Atlas inference series (RpSort16, MrgSort4, GetMrgSortResult) on the
simulator against NumPy, with the documented ordering (score descending, ties: lower position / list
first), the exhausted-suspension counts, and the SoC and overlap checks (issue 8 point 6).
Kernels: backends/sim/kernel_api/tests/kernels/compat/proposal_sort_310p.cpp (ours, in the public style)."""
from __future__ import annotations

import textwrap

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim

from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat" / "proposal_sort_310p.cpp"
N = 64


@pytest.fixture(scope="module")
def kernels():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1", soc="Ascend310P3"), device="sim")


def _run(kernels, scores, merge, suspend):
    ids = np.arange(N, dtype=np.float32)
    out_s = pyasc.zeros((N,), dtype="float32", device="sim")
    out_i = pyasc.zeros((N,), dtype="float32", device="sim")
    counts = pyasc.full((4,), -1, dtype="int32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("proposal_sort"), 1,
                     (pyasc.tensor(scores, device="sim"), pyasc.tensor(ids, device="sim"), out_s, out_i, counts,
                      merge, suspend))
    pyasc.synchronize("sim")
    return out_s.numpy(), out_i.numpy().astype(np.int64), counts.numpy()


def _stable_desc(scores, ids):
    order = np.argsort(-scores, kind="stable")
    return scores[order], ids[order]


def test_rp_sort16_sorts_each_group_of_16_by_score_descending(kernels):
    scores = np.random.default_rng(5).uniform(-100, 100, N).astype(np.float32)
    scores[3] = scores[9] = 7.5  # a tie inside group 0: position 3 first
    got_s, got_i, _ = _run(kernels, scores, 0, 0)
    for g in range(4):
        sl = slice(16 * g, 16 * g + 16)
        want_s, want_i = _stable_desc(scores[sl], np.arange(N)[sl])
        np.testing.assert_array_equal(got_s[sl], want_s)
        np.testing.assert_array_equal(got_i[sl], want_i)


def test_mrg_sort4_merges_four_sorted_groups_into_one_list(kernels):
    scores = np.random.default_rng(6).uniform(-100, 100, N).astype(np.float32)
    scores[20] = scores[40] = 1.25  # a tie across lists 2 and 3: list 2 first
    got_s, got_i, counts = _run(kernels, scores, 1, 0)
    want_s, want_i = _stable_desc(scores, np.arange(N))
    np.testing.assert_array_equal(got_s, want_s)
    np.testing.assert_array_equal(got_i, want_i)
    assert counts.tolist() == [16, 16, 16, 16]


def test_mrg_sort4_with_exhausted_suspension_stops_and_get_mrg_sort_result_counts(kernels):
    # List 1 (ids 0-15) holds the 16 largest scores: it runs out first and the merge stops there.
    scores = np.concatenate([np.linspace(100, 85, 16), np.linspace(50, -50, 48)]).astype(np.float32)
    got_s, got_i, counts = _run(kernels, scores, 1, 1)
    assert counts.tolist() == [16, 0, 0, 0]
    np.testing.assert_array_equal(got_s[:16], np.sort(scores[:16])[::-1])
    np.testing.assert_array_equal(got_i[:16], np.arange(16))
    np.testing.assert_array_equal(got_s[16:], 0.0)  # nothing written past the stop


def test_mrg_sort4_into_its_own_source_lists_is_reported(kernels):
    with pytest.raises(pyasc.PyascError) as info:
        pyasc.synchronize("sim")
        pyasc_acl.launch(kernels.function("mrg_sort4_overlap"), 1, (pyasc.zeros((8,), dtype="float32", device="sim"),))
        pyasc.synchronize("sim")
    msg = str(info.value)
    assert "vector-overlap" in msg and "MrgSort4" in msg, msg


@pytest.mark.parametrize("call", ["RpSort16(t, t, 1);",
                                  "uint16_t l[4] = {16, 16, 0, 0}; MrgSort4(t, MrgSortSrcList<half>(t, t), "
                                  "MrgSort4Info(l, false, 3, 1));"])
def test_proposal_sorts_are_refused_on_atlas_a2(tmp_path, call):
    src = tmp_path / "a2_rp.cpp"
    src.write_text(textwrap.dedent("""
        #include "kernel_operator.h"
        using namespace AscendC;
        extern "C" __global__ __aicore__ void a2_rp(GM_ADDR x)
        {
            TPipe pipe;
            TBuf<TPosition::VECCALC> b;
            pipe.InitBuffer(b, 4096);
            LocalTensor<half> t = b.Get<half>();
        """) + "    " + call + "\n}\n")
    with pytest.raises(pyasc_sim.KernelCompileError) as info:
        pyasc_sim.compile(src, opt="-O0", soc="Ascend910B1")
    assert "is not documented for this element type T on Atlas A2" in info.value.output
