"""The built-in kernels built for the Atlas inference series (Ascend310P3), which has no DataCopyPad:
unaligned lengths move as whole 32-byte blocks (kernels/kernel_common.h CopyIn / CopyOut), with
bit-identical results to the Atlas A2 build (DataCopyPad) and to NumPy, and no sanitizer report
(bounds, initcheck, pipe and cross-core races run on every launch here; no gm-cache-line-share
warning either: shares that can end in a scalar store start on a 64-byte line)."""

from __future__ import annotations

import pathlib
from typing import Any, Callable

import numpy as np
import pytest

import pyasc

pytest.importorskip("pyasc_kernels")
pyasc_sim = pytest.importorskip("pyasc_sim")

# a scalar store of one block into a 64-byte line another block writes is a sanitizer warning for
# kernels built for Ascend310P (gm-cache-line-share): none of the built-in kernels may cause one
pytestmark = pytest.mark.filterwarnings("error::pyasc.SanitizerWarning")

from kernel_sets import build_kernel_dir, run_with_kernels  # noqa: E402
from pyasc_kernels import _runtime as rt  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[1] / "kernels"
FAMILIES = ("binary", "unary", "reduce", "softmax", "norm", "matmul", "copy", "cast")
LENGTHS = (1, 7, 8, 33, 1000, 4099)


@pytest.fixture(scope="module")
def p310_dir(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    """The families above compiled for Ascend310P3, laid out as an installed kernel directory."""
    return build_kernel_dir(tmp_path_factory.mktemp("k310p"), FAMILIES, "Ascend310P3")


_run = run_with_kernels


def _same_bits(a: np.ndarray, b: np.ndarray) -> None:
    assert a.dtype == b.dtype and a.shape == b.shape
    np.testing.assert_array_equal(a.view(np.uint8), b.view(np.uint8))


def _sim(a: np.ndarray) -> Any:
    t = pyasc.tensor(a, device="sim")
    pyasc.synchronize("sim")
    return t


def _cases(n: int, dtype: str) -> dict[str, tuple[Callable[[], np.ndarray], np.ndarray, float]]:
    """name -> (sim computation, NumPy result, relative tolerance against NumPy)."""
    rng = np.random.default_rng(n)
    a = rng.standard_normal(n).astype(dtype)
    b = rng.standard_normal(n).astype(dtype)
    rows = rng.standard_normal((3, n)).astype(dtype)
    f = rows.astype(np.float32)
    sm = np.exp(f - f.max(-1, keepdims=True))
    tol = 1e-6 if dtype == "float32" else 2e-3
    return {
        "add": (lambda: (_sim(a) + _sim(b)).numpy(), a + b, 0.0),
        "exp": (lambda: pyasc.exp(_sim(a)).numpy(), np.exp(a), tol),
        "sum": (lambda: _sim(rows).sum(axis=-1).numpy(), f.sum(-1).astype(dtype), max(tol, 1e-5) * 50),
        "softmax": (lambda: _sim(rows).softmax(axis=-1).numpy(), (sm / sm.sum(-1, keepdims=True)).astype(dtype),
                    tol * 10),
        "copy": (lambda: _sim(rows)[:, 1:].contiguous().numpy(), rows[:, 1:], 0.0),
        "cast": (lambda: _sim(a).astype("float16").numpy(), a.astype(np.float16), 0.0),
    }


@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize("n", LENGTHS)
def test_unaligned_lengths_on_310p_match_a2_and_numpy(p310_dir, monkeypatch, n: int, dtype: str) -> None:
    for name, (fn, want, tol) in _cases(n, dtype).items():
        a2 = _run(None, fn, monkeypatch)
        p310 = _run(p310_dir, fn, monkeypatch)
        _same_bits(p310, a2)
        np.testing.assert_allclose(p310.astype(np.float64), want.astype(np.float64), rtol=tol, atol=tol,
                                   err_msg=f"{name} n={n} {dtype}")


@pytest.mark.parametrize("m, k, n", [(3, 5, 7), (2, 9, 33), (5, 3, 1)])
def test_matmul_with_unaligned_rows_on_310p(p310_dir, monkeypatch, m: int, k: int, n: int) -> None:
    # int32 takes matmul's vector path, the one the Ascend310P build has (its cube entries exist
    # only where __CCE_AICORE__ == 220: Fixpipe and float / bfloat16 Mmad are not on the 310P AI Core)
    rng = np.random.default_rng(m * 100 + n)
    x = rng.integers(-50, 50, (m, k)).astype(np.int32)
    y = rng.integers(-50, 50, (k, n)).astype(np.int32)
    fn = lambda: (_sim(x) @ _sim(y)).numpy()  # noqa: E731
    p310 = _run(p310_dir, fn, monkeypatch)
    _same_bits(p310, _run(None, fn, monkeypatch))
    _same_bits(p310, x @ y)


def test_layer_norm_rows_of_unaligned_width_on_310p(p310_dir, monkeypatch) -> None:
    x = np.random.default_rng(5).standard_normal((4, 37)).astype(np.float32)
    fn = lambda: pyasc.layer_norm(_sim(x)).numpy()  # noqa: E731
    _same_bits(_run(p310_dir, fn, monkeypatch), _run(None, fn, monkeypatch))


@pytest.mark.parametrize("dtype", ["float32", "float16", "int64"])
@pytest.mark.parametrize("shape", [(7, 5), (33, 40), (100, 3), (9, 1000)])
def test_transposes_on_310p(p310_dir, monkeypatch, dtype: str, shape: tuple[int, int]) -> None:
    # copy.cpp's tiled transpose moves its runs one at a time through CopyIn / CopyOut there
    a = np.arange(shape[0] * shape[1]).reshape(shape).astype(dtype)
    fn = lambda: _sim(a).T.contiguous().numpy()  # noqa: E731
    p310 = _run(p310_dir, fn, monkeypatch)
    _same_bits(p310, _run(None, fn, monkeypatch))
    _same_bits(p310, np.ascontiguousarray(a.T))


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32"])
@pytest.mark.parametrize("n", LENGTHS)
def test_integer_tails_on_310p(p310_dir, monkeypatch, dtype: str, n: int) -> None:
    # 1-byte elements: 32 per block; int8 add runs the int16 kernel and casts back
    rng = np.random.default_rng(n)
    a = rng.integers(-100, 100, (2, n)).astype(dtype)
    b = rng.integers(-100, 100, (2, n)).astype(dtype)
    for fn, want in ((lambda: (_sim(a) + _sim(b)).numpy(), a + b),
                     (lambda: _sim(a)[:, 1:].contiguous().numpy(), a[:, 1:])):
        p310 = _run(p310_dir, fn, monkeypatch)
        _same_bits(p310, _run(None, fn, monkeypatch))
        _same_bits(p310, np.ascontiguousarray(want))


def test_multi_core_tails_on_310p(p310_dir, monkeypatch) -> None:
    # several cores: the tail (whole-block overlap or scalar) is the last share's, inside its range,
    # so the cross-core race check stays quiet; narrow rows (< one block) are split over cores too
    blocks: list[int] = []
    launch = rt.launch

    def record(device, family, name, num_blocks, args, tiling):
        blocks.append(num_blocks)
        launch(device, family, name, num_blocks, args, tiling)

    monkeypatch.setattr(rt, "launch", record)
    rng = np.random.default_rng(3)
    n = 3 * rt.MIN_PER_CORE + 5
    a = rng.standard_normal(n).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    rows = rng.standard_normal((4096, 7)).astype(np.float32)
    for fn in (lambda: (_sim(a) + _sim(b)).numpy(), lambda: _sim(a).astype("float16").numpy(),
               lambda: _sim(rows).softmax(axis=-1).numpy(), lambda: _sim(rows).sum(axis=-1).numpy()):
        blocks.clear()
        p310 = _run(p310_dir, fn, monkeypatch)
        assert max(blocks) > 1, blocks
        _same_bits(p310, _run(None, fn, monkeypatch))


SPLIT_PROBE = r"""
#include "kernel_common.h"
// Each block writes its share (ScalarSafeRange over items of `bytes` output bytes from byte `base`)
// to out[16 * block], out[16 * block + 1] (one 64-byte slot per block: no two blocks store into one
// cache line, gm-cache-line-share).
extern "C" __global__ __aicore__ void split_probe(GM_ADDR out, GM_ADDR args) {
    GlobalTensor<uint32_t> a;
    a.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t *>(args), 8);
    const uint32_t total = a.GetValue(0), per = a.GetValue(1), bytes = a.GetValue(2), base = a.GetValue(3);
    uint32_t start = 0, length = 0;
    const pyasc_kernels::UniformItems items{base, bytes};
    pyasc_kernels::ScalarSafeRange(total, per, items, true, start, length);
    GlobalTensor<uint32_t> o;
    o.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t *>(out) + 16 * GetBlockIdx(), 16);
    o.SetValue(0, start);
    o.SetValue(1, length);
    DataCacheCleanAndInvalid<uint32_t, CacheLine::ENTIRE_DATA_CACHE>(o);
}
"""


def _shares(soc: str, blocks: int, total: int, per: int, item_bytes: int, base: int) -> list[tuple[int, int]]:
    import pyasc_acl

    path = pyasc_sim.compile(SPLIT_PROBE, soc=soc, extra_flags=["-I", str(ROOT)])
    fn = pyasc_acl.Binary(path, device="sim").function("split_probe")
    out = pyasc.zeros(16 * blocks, dtype="int32", device="sim")
    args = pyasc.tensor(np.array([total, per, item_bytes, base, 0, 0, 0, 0], dtype=np.int32), device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(fn, blocks, (out, args))
    got = out.numpy().reshape(blocks, 16)
    return [(int(s), int(n)) for s, n, *_ in got]


@pytest.mark.parametrize("item_bytes, base", [(4, 0), (4, 32), (2, 32), (28, 32), (12, 0), (12, 32), (1, 16),
                                              (24, 8)])
def test_310p_shares_start_on_a_cache_line(item_bytes: int, base: int) -> None:
    # the split behind every built-in kernel whose writes can go through the scalar unit's data cache
    # on Ascend310P: the shares tile [0, total) and each starts on a 64-byte line of the output, so no
    # line is written by two cores (kernels/README.md); the Atlas A2 build keeps the plain split
    total, per, blocks = 1000, 130, 8
    shares = _shares("Ascend310P3", blocks, total, per, item_bytes, base)
    assert sum(n for _, n in shares) == total
    at = 0
    for start, length in shares:
        if length:
            assert start == at, shares
            assert at == 0 or (base + start * item_bytes) % 64 == 0, (start, shares)
            lines = {(base + i * item_bytes + j) // 64 for i in range(start, start + length) for j in range(item_bytes)}
            others = {(base + i * item_bytes + j) // 64 for i in range(total) if not start <= i < start + length
                      for j in range(item_bytes)}
            assert not lines & others, (start, length)
        at += length
    assert at == total
    assert sum(1 for _, n in shares if n) > 1  # still split over cores
    a2 = _shares("Ascend910B1", blocks, total, per, item_bytes, base)
    assert a2 == [(min(i * per, total), max(0, min(per, total - i * per))) for i in range(blocks)]


def test_310p_split_without_a_line_start_gives_one_core_everything() -> None:
    # items of 64 bytes from byte 32: no item starts a line, so core 0 writes every line
    shares = _shares("Ascend310P3", 4, 100, 25, 64, 32)
    assert shares == [(0, 100), (100, 0), (100, 0), (100, 0)]


@pytest.mark.parametrize("shape", [(40000, 1), (12000, 3), (4096, 7), (6001, 5)])
def test_narrow_rows_split_over_cores_on_310p(p310_dir, monkeypatch, shape: tuple[int, int]) -> None:
    # rows narrower than one block are scalar writes on Ascend310P: softmax, layer_norm, the sum and
    # a copy of narrow rows still split over cores (at cache-line boundaries), bit-identical to A2
    blocks: list[int] = []
    launch = rt.launch

    def record(device, family, name, num_blocks, args, tiling):
        blocks.append(num_blocks)
        launch(device, family, name, num_blocks, args, tiling)

    monkeypatch.setattr(rt, "launch", record)
    x = np.random.default_rng(shape[1]).standard_normal(shape).astype(np.float32)
    for fn in (lambda: _sim(x).softmax(axis=-1).numpy(), lambda: pyasc.layer_norm(_sim(x)).numpy(),
               lambda: _sim(x).sum(axis=-1).numpy(), lambda: _sim(x)[:, :-1].contiguous().numpy()
               if shape[1] > 1 else _sim(x).T.contiguous().numpy()):
        blocks.clear()
        p310 = _run(p310_dir, fn, monkeypatch)
        assert max(blocks, default=2) > 1, blocks  # (a transpose of one column is a view: no launch)
        _same_bits(p310, _run(None, fn, monkeypatch))


@pytest.mark.parametrize("m, k, n", [(2000, 4, 1), (700, 3, 5), (40, 2, 1030), (9, 3, 2049)])
def test_narrow_matmul_outputs_on_310p(p310_dir, monkeypatch, m: int, k: int, n: int) -> None:
    # C rows (or a last N tile) shorter than one block: the vector path's units start on a cache line
    # of C, and the host never leaves a narrow last N tile; int32 is exact
    rng = np.random.default_rng(m + n)
    x = rng.integers(-50, 50, (m, k)).astype(np.int32)
    y = rng.integers(-50, 50, (k, n)).astype(np.int32)
    fn = lambda: (_sim(x) @ _sim(y)).numpy()  # noqa: E731
    _same_bits(_run(p310_dir, fn, monkeypatch), x @ y)


def test_vec_tile_never_leaves_a_narrow_last_tile() -> None:
    from pyasc_kernels.linalg import VEC_TILE_N, _vec_tile_n

    for n in (1, 7, 64, 1024, 1025, 1031, 1032, 2049, 15 * 1024 + 3, 100_001):
        for size in (1, 2, 4):
            tn = _vec_tile_n(n, size)
            assert tn % 64 == 0 and 64 <= tn <= VEC_TILE_N
            assert n <= tn or n % tn == 0 or n % tn * size >= 32, (n, size, tn)


@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize("m, k, n", [(3, 5, 7), (33, 70, 65), (2, 1, 1), (130, 40, 1030)])
def test_float_matmul_with_the_310p_kernel_set(p310_dir, monkeypatch, dtype: str, m: int, k: int, n: int) -> None:
    # the 310P build has no cube kernels (no Fixpipe, no float Mmad): float32 takes the vector path,
    # float16 runs it in float32 and rounds once (as the cube's float accumulation does)
    rng = np.random.default_rng(m * k + n)
    x = rng.standard_normal((m, k)).astype(dtype)
    y = rng.standard_normal((k, n)).astype(dtype)
    names: list[str] = []
    launch = rt.launch

    def record(device, family, name, num_blocks, args, tiling):
        names.append(name)
        launch(device, family, name, num_blocks, args, tiling)

    monkeypatch.setattr(rt, "launch", record)
    fn = lambda: (_sim(x) @ _sim(y)).numpy()  # noqa: E731
    got = _run(p310_dir, fn, monkeypatch)
    assert "matmul_vec_float32" in names and not any("cube" in s for s in names), names
    want = x.astype(np.float64) @ y.astype(np.float64)
    assert got.dtype == np.dtype(dtype) and got.shape == want.shape
    if dtype == "float32":
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5 * np.sqrt(k))
    else:  # float accumulation rounded once: within half an ulp of float16 of the float32 result
        exact = (x.astype(np.float32) @ y.astype(np.float32)).astype(np.float16)
        np.testing.assert_allclose(got.astype(np.float32), exact.astype(np.float32), rtol=1e-3, atol=1e-3)
    names.clear()
    a2 = _run(None, fn, monkeypatch)  # the installed (Atlas A2) set keeps the cube path
    assert any("cube" in s for s in names), names
    np.testing.assert_allclose(a2.astype(np.float64), got.astype(np.float64), rtol=2e-3, atol=2e-3 * np.sqrt(k))


def test_pyasc_check_of_matmul_with_the_310p_kernel_set(p310_dir, monkeypatch) -> None:
    # what `pyasc check --backend sim` runs for matmul, with the kernels built for Ascend310P3
    from pyasc_core.testing.check import check_op

    with monkeypatch.context() as m:
        m.setattr(rt, "kernel_dir_candidates", lambda: [str(p310_dir)])
        rt.KERNELS.clear()
        try:
            # the Atlas inference series has no bfloat16 (kernel_entry.h): every other dtype of the schema
            dtypes = [d for d in ("float16", "float32", "int32", "int16", "int8", "uint8")]
            report = check_op("matmul", backend="sim", dtypes=dtypes)
            report.raise_for_failures()
        finally:
            rt.KERNELS.clear()
