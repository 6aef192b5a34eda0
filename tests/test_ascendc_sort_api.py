"""The Ascend C sorting family on the simulator (issue 8 point 6, Sort / TopK): our own kernels in
public Ascend C style (backends/sim/kernel_api/tests/kernels/sort_api.cpp) run Sort (full and per
32), Sort32 + MrgSort + Extract, Concat, ArithProgression / CreateVecIndex and the TopK high-level
API, and are compared with NumPy's stable descending sort (equal scores keep their input order,
as the reference documents). The sorted data is the Atlas A2 layout: 8-byte (score, index) structs,
the score in the low bytes, the uint32 index in bytes 4..8."""

from __future__ import annotations

import textwrap

import numpy as np
import pytest

import pyasc
import pyasc_acl

from ascendc_kernels import load

SRC = "sort_api.cpp"
N = 128


@pytest.fixture(scope="module")
def kernels():
    return load(SRC)


def sim(a: np.ndarray) -> pyasc.Tensor:
    return pyasc.tensor(a, device="sim")


def desc_order(x: np.ndarray) -> np.ndarray:
    """Positions of x by descending value, ties in input order."""
    return np.argsort(-x.astype(np.float64), kind="stable")


def structs(raw: np.ndarray, dtype) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(scores, indices, reserved bytes) of a buffer of 8-byte (score, index) structs."""
    b = raw.view(np.uint8).reshape(-1, 8)
    size = np.dtype(dtype).itemsize
    scores = b[:, :size].copy().view(dtype).ravel()
    return scores, b[:, 4:].copy().view(np.uint32).ravel(), b[:, size:4]


def scores_with_ties(seed: int, dtype) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (rng.integers(-20, 20, N) / 4).astype(dtype)  # 160 levels for 128 values: ties certain


def run_sort(kernels, name: str, x: np.ndarray):
    s = pyasc.zeros(N * 8 // x.itemsize, dtype=str(x.dtype), device="sim")
    v = pyasc.zeros(N, dtype=str(x.dtype), device="sim")
    i = pyasc.zeros(N, dtype="int32", device="sim")  # uint32 indices (pyasc has no uint32 dtype)
    pyasc_acl.launch(kernels.function(name), 1, (sim(x), s, v, i))
    return s.numpy(), v.numpy(), i.numpy().view(np.uint32)


@pytest.mark.parametrize("name,dtype", [("sort_full_f32", np.float32), ("sort_full_f16", np.float16)])
def test_full_sort_orders_all_scores_descending_with_stable_ties(kernels, name, dtype):
    x = scores_with_ties(1, dtype)
    assert len(np.unique(x)) < N  # the input really has ties
    s, v, i = run_sort(kernels, name, x)
    order = desc_order(x)
    scores, idx, reserved = structs(s, dtype)
    np.testing.assert_array_equal(idx, order)
    np.testing.assert_array_equal(scores, x[order])
    assert not reserved.any()  # half: the 2 reserved bytes stay 0 on the simulator
    np.testing.assert_array_equal(v, x[order])  # Extract
    np.testing.assert_array_equal(i, order)


def test_sort_without_full_sort_orders_each_group_of_32(kernels):
    x = np.random.default_rng(2).standard_normal(N).astype(np.float32)
    s, v, i = run_sort(kernels, "sort_groups_f32", x)
    want = np.concatenate([g * 32 + desc_order(x[g * 32:(g + 1) * 32]) for g in range(N // 32)])
    np.testing.assert_array_equal(i, want)
    np.testing.assert_array_equal(v, x[want])
    assert not np.array_equal(want, desc_order(x))  # really not a full sort


def test_sort32_then_mrgsort_then_extract(kernels):
    x = scores_with_ties(3, np.float16)
    ids = (np.arange(N, dtype=np.int32) * 7 + 1000)  # the caller's own indices travel with the scores
    v = pyasc.zeros(N, dtype="float16", device="sim")
    i = pyasc.zeros(N, dtype="int32", device="sim")
    pyasc_acl.launch(kernels.function("sort32_merge_f16"), 1, (sim(x), sim(ids), v, i))
    # Sort32 sorts each 32 stably; MrgSort takes equal scores from the lower-numbered list first:
    # together a stable descending sort of all N.
    order = desc_order(x)
    np.testing.assert_array_equal(v.numpy(), x[order])
    np.testing.assert_array_equal(i.numpy(), ids[order])


def test_mrgsort_exhausted_suspension_reports_sorted_counts(kernels):
    x = np.random.default_rng(4).standard_normal(64).astype(np.float32)
    x[:32] += 10.0  # list 0 wins every comparison: it runs out first and the merge stops there
    v = pyasc.zeros(64, dtype="float32", device="sim")
    c = pyasc.zeros(8, dtype="int32", device="sim")
    pyasc_acl.launch(kernels.function("merge_two_suspend_f32"), 1, (sim(x), v, c))
    counts = c.numpy()
    assert list(counts[:3]) == [32, 0, 32]
    np.testing.assert_array_equal(v.numpy()[:32], np.sort(x[:32])[::-1])
    np.testing.assert_array_equal(v.numpy()[32:], 0)  # nothing of list 1 was written


ROWS, INNER, VALID, K, KPAD = 4, 64, 60, 5, 8


@pytest.mark.parametrize("largest", [1, 0])
def test_topk_rows_largest_and_smallest_with_finish_flags(kernels, largest):
    rng = np.random.default_rng(5)
    x = rng.integers(-50, 50, (ROWS, INNER)).astype(np.float32)
    x[:, VALID:] = 1e6 if largest else -1e6  # padding past n: the most attractive value, never picked
    finish = np.zeros(32, np.uint8)
    finish[2] = 1
    v = pyasc.zeros(ROWS * KPAD, dtype="float32", device="sim")
    i = pyasc.zeros(ROWS * KPAD, dtype="int32", device="sim")
    pyasc_acl.launch(kernels.function("topk_f32"), 1, (sim(x.ravel()), sim(finish), v, i, largest))
    vals, idx = v.numpy().reshape(ROWS, KPAD), i.numpy().reshape(ROWS, KPAD)
    for r in range(ROWS):
        row = x[r, :VALID].astype(np.float64)
        order = np.argsort(-row if largest else row, kind="stable")[:K]
        np.testing.assert_array_equal(vals[r, :K], x[r, order])
        np.testing.assert_array_equal(idx[r, :K], VALID if r == 2 else order)


def test_topk_bad_shape_is_a_kernel_error_naming_the_values(tmp_path):
    import pyasc_sim

    src = tmp_path / "topk_bad.cpp"
    src.write_text(textwrap.dedent("""
        #include "kernel_operator.h"
        #include "lib/sort/topk.h"
        using namespace AscendC;
        extern "C" __global__ __aicore__ void topk_bad(GM_ADDR x)
        {
            TPipe pipe;
            TBuf<TPosition::VECCALC> b;
            pipe.InitBuffer(b, 4096);
            LocalTensor<float> t = b.Get<float>();
            Duplicate(t, 1.0f, 256);
            TopkTiling tiling;
            TopKInfo info;
            info.outter = 1;
            info.inner = 40;   // not a multiple of 32
            info.n = 40;
            TopK<float>(t[512], t.ReinterpretCast<int32_t>()[768], t, t.ReinterpretCast<int32_t>(),
                        t.ReinterpretCast<bool>(), 3, tiling, info);
        }
    """))
    kernels = pyasc_acl.Binary(pyasc_sim.compile(src, opt="-O0"), device="sim")
    stream = pyasc.current_stream("sim")
    pyasc_acl.launch(kernels.function("topk_bad"), 1, (pyasc.zeros(8, dtype="float32", device="sim"),), stream=stream)
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        stream.synchronize()
    assert "TopK: outter 1, inner 40, n 40, k 3" in info.value.message
