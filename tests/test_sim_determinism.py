"""The simulator is deterministic: an op on the same inputs gives the same output bytes every run,
whether its blocks run in parallel on the pool or all work goes to one block (the elementwise and
matmul kernels split work into disjoint shares, so the split does not change any result).

The cases are the ones once reported as nondeterministic (bfloat16 add, cast to bool, matmul with
K and N tails). That report came from a harness that consumed, on a new stream, tensors a cast
kernel was still writing on the default stream: streams are independent queues (as in PyTorch /
CuPy), so the consumer raced the producer. Ordered with ``wait_stream`` the results are
bit-identical; ``test_cross_stream_consumer_ordered_with_wait_stream`` keeps that pattern."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
from pyasc_core import dtypes as dt

pyasc_kernels = pytest.importorskip("pyasc_kernels")
rt = pytest.importorskip("pyasc_kernels._runtime")

P = pyasc.ops.pyasc
BF16 = dt.bfloat16
RUNS = 5


def _data(shape: tuple[int, ...], seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(shape) * 3.0).astype(np.float32)
    flat = x.reshape(-1)
    if flat.size > 16:
        flat[3], flat[5], flat[7], flat[9] = np.nan, np.inf, -np.inf, 0.0
        flat[11], flat[13] = 9.2e-41, -9.2e-41  # bfloat16 subnormals
    return x


def _sim(x: np.ndarray, dtype: np.dtype = BF16) -> pyasc.Tensor:
    return pyasc.tensor(x.astype(dtype), device="sim")


def _add(n: int):
    x, y = _data((n,), 1), _data((n,), 2)
    return lambda: P.add(_sim(x), _sim(y))


def _cast_bool(n: int):
    x = _data((n,), 3)
    x[::7] = 0.0
    return lambda: P.cast(_sim(x), pyasc.bool_)


def _matmul(m: int, k: int, n: int):
    a, b = _data((m, k), 4), _data((k, n), 5)
    a[~np.isfinite(a)] = 1.0  # finite products: NaN payloads are not what this checks
    b[~np.isfinite(b)] = 1.0
    return lambda: P.matmul(_sim(a), _sim(b))


# name -> (inputs and op, whether the work can be split over several blocks: a matmul whose output
# fits one 128 x 128 tile is one unit of work)
CASES = {
    "add-bfloat16-300001": (lambda: _add(300001), True),
    "add-bfloat16-4099": (lambda: _add(4099), True),
    "cast-bfloat16-bool-300001": (lambda: _cast_bool(300001), True),
    "matmul-bfloat16-17x33x65": (lambda: _matmul(17, 33, 65), False),
    "matmul-bfloat16-128x200x96": (lambda: _matmul(128, 200, 96), False),
    "matmul-bfloat16-300x200x300": (lambda: _matmul(300, 200, 300), True),
}


def _bytes(t: pyasc.Tensor) -> bytes:
    return np.ascontiguousarray(t.numpy()).tobytes()


@pytest.fixture
def launches(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """(kernel, blocks) of every launch. ``launches.split = "one"`` puts all the work of the
    elementwise and matmul kernels into one block, ``"many"`` spreads it over as many blocks as the
    share alignment allows (no minimum per core), ``"default"`` is the host glue's own split."""
    split, launch = rt.split, rt.launch

    class Log(list):
        split = "default"

    log = Log()

    def split_(total: int, align: int = rt.CORE_ALIGN, min_per_core: int = rt.MIN_PER_CORE, *,
               cores: int) -> tuple[int, int]:
        if log.split == "one":
            return split(total, align, min_per_core, cores=1)
        if log.split == "many":
            return split(total, align, align, cores=cores)
        return split(total, align, min_per_core, cores=cores)

    def launch_(device, family, name, num_blocks, args, tiling) -> None:
        log.append((name, num_blocks))
        launch(device, family, name, num_blocks, args, tiling)

    monkeypatch.setattr(rt, "split", split_)
    monkeypatch.setattr(rt, "launch", launch_)
    return log


@pytest.mark.parametrize("case", list(CASES))
def test_same_bytes_every_run_and_with_any_block_split(case: str, launches) -> None:
    make, splits = CASES[case]
    op = make()
    first = _bytes(op())
    for _ in range(RUNS - 1):
        assert _bytes(op()) == first, f"{case}: the output bytes changed between runs"
    for mode in ("many", "one"):
        launches.clear()
        launches.split = mode
        got = _bytes(op())
        blocks = max(b for _, b in launches)
        assert blocks == 1 if mode == "one" or not splits else blocks > 1, (mode, launches)
        assert got == first, f"{case}: {blocks} blocks give other bytes than the default split"


def test_bfloat16_add_is_exactly_the_float32_sum_rounded_once() -> None:
    x, y = _data((4099,), 6), _data((4099,), 7)
    xb, yb = x.astype(BF16), y.astype(BF16)
    with np.errstate(invalid="ignore"):
        want = (xb.astype(np.float32) + yb.astype(np.float32)).astype(BF16)
    got = P.add(_sim(x), _sim(y)).numpy()
    finite = ~np.isnan(want.astype(np.float32))
    np.testing.assert_array_equal(got.view(np.uint16)[finite], want.view(np.uint16)[finite])
    assert np.isnan(got.astype(np.float32)[~finite]).all()


def test_cross_stream_consumer_ordered_with_wait_stream() -> None:
    """Inputs produced by a kernel on the default stream, consumed on a new stream that first waits
    for the default stream: the same bytes every time (without the wait the two streams race)."""
    n = 300001
    xs, ys = _data((n,), 8), _data((n,), 9)
    want = None
    for _ in range(RUNS):
        x = P.cast(pyasc.tensor(xs, device="sim"), pyasc.bfloat16)  # kernels on the default stream
        y = P.cast(pyasc.tensor(ys, device="sim"), pyasc.bfloat16)
        s = pyasc.Stream(device="sim")
        s.wait_stream(pyasc.default_stream("sim"))
        with pyasc.stream(s):
            z = P.add(x, y)
        s.synchronize()
        got = _bytes(z)
        if want is None:
            want = _bytes(P.add(_sim(xs), _sim(ys)))
        assert got == want
