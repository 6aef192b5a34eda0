"""Differential tests of the sim backend's Ascend C kernels (kernels/*.cpp) against the NumPy
reference: every op x every dtype its sim kernel supports (pyasc_kernels.SUPPORTED), on the op's
schema-derived samples (shapes (), 0, 1, 31, 32, 33, 255, 256, 257, 4097, multi-dimensional,
broadcast pairs, Python scalars, special values) plus the sizes 0..4097 along the axis the
reduction / normalisation / matmul / transpose kernels tile, with torch.testing's default
tolerances (pyasc.testing's defaults). No op needs them widened: half types compute in float and
round once like the reference, and float32 matmul sums with compensation (the reference sums in
float64)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
import zlib

import numpy as np
import pytest

import pyasc
from pyasc_core import dtypes as dt
from pyasc_core.testing import Sample, check_op, sample_inputs

pyasc_kernels = pytest.importorskip("pyasc_kernels")
SUPPORTED = pyasc_kernels.SUPPORTED

SIZES = (0, 1, 31, 32, 33, 255, 256, 257, 4097)
CASES = [(op, d) for op, dts in SUPPORTED.items() for d in dts]
# ops some of whose samples legitimately have no sim kernel for a supported input dtype
PARTIAL = {
    "pyasc::cast": "target float64 has no AI Core cast kernel",
}


def _rng(op: str, dtype: str) -> np.random.Generator:
    # a stable seed per case (str hash changes per process, so a failure would not reproduce)
    return np.random.default_rng(zlib.crc32(f"{op}/{dtype}".encode()))


def _arr(rng: np.random.Generator, shape: tuple[int, ...], dtype: str) -> np.ndarray:
    d = dt.as_dtype(dtype)
    if d == dt.bool_:
        return rng.random(shape) < 0.5
    if d in dt.INTEGER:
        return rng.integers(-9 if d != dt.uint8 else 0, 10, size=shape).astype(d)
    return (rng.standard_normal(shape) * 2.0).astype(d)


def extra_samples(op: str, dtype: str) -> Iterator[Sample]:
    """The size list along the axis a kernel tiles, for ops whose own samples pick other shapes."""
    rng = _rng(op, dtype)
    name = op.split("::")[1]
    if name in ("sum", "mean", "max", "min"):
        for n in SIZES:
            if n == 0 and name in ("max", "min"):
                continue
            yield Sample((_arr(rng, (3, n), dtype), -1, False), {}, f"(3, {n}) axis -1", dtype)
            yield Sample((_arr(rng, (n, 3), dtype), 0, True), {}, f"({n}, 3) axis 0 keepdims", dtype)
    elif name in ("softmax", "log_softmax"):
        for n in SIZES:
            yield Sample((_arr(rng, (2, n), dtype), -1), {}, f"(2, {n}) axis -1", dtype)
            yield Sample((_arr(rng, (n, 3), dtype), 0), {}, f"({n}, 3) axis 0", dtype)
    elif name in ("layer_norm", "rms_norm"):
        for n in SIZES[1:]:
            x, w, b = _arr(rng, (2, n), dtype), _arr(rng, (n,), dtype), _arr(rng, (n,), dtype)
            args = (x, w, b) if name == "layer_norm" else (x, w)
            yield Sample(args, {}, f"(2, {n}) with affine", dtype)
            yield Sample((x,), {}, f"(2, {n})", dtype)
    elif name == "matmul":
        for n in SIZES:
            k = max(n, 1)
            yield Sample((_arr(rng, (n, 8), dtype), _arr(rng, (8, 5), dtype)), {}, f"({n}, 8) @ (8, 5)", dtype)
            yield Sample((_arr(rng, (3, k), dtype), _arr(rng, (k, 4), dtype)), {}, f"(3, {k}) @ ({k}, 4)", dtype)
            yield Sample((_arr(rng, (4, 3), dtype), _arr(rng, (3, n), dtype)), {}, f"(4, 3) @ (3, {n})", dtype)
        yield Sample((_arr(rng, (2, 40, 33), dtype), _arr(rng, (33, 150), dtype)), {},
                     "(2, 40, 33) @ (33, 150): tiles with tails", dtype)
    elif name == "transpose":
        for n in SIZES:
            yield Sample((_arr(rng, (n, 3), dtype), None), {}, f"({n}, 3) transposed", dtype)
            yield Sample((_arr(rng, (2, n, 3), dtype), (2, 0, 1)), {}, f"(2, {n}, 3) axes (2, 0, 1)", dtype)
    elif name == "reshape":
        for n in SIZES:
            yield Sample((_arr(rng, (n, 2), dtype), (2, n)), {}, f"({n}, 2) -> (2, {n})", dtype)
    elif name == "pow":
        yield from _pow_samples(rng, dtype)
    elif name == "cast":
        for target in ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32"):
            for n in SIZES:
                x = _arr(rng, (n,), dtype)
                if dtype in ("float16", "bfloat16", "float32") and target in ("uint8", "int8"):
                    x = np.abs(x) if target == "uint8" else x  # in range: out-of-range float->int is undefined
                yield Sample((x, dt.as_dtype(target)), {}, f"({n},) -> {target}", dtype)
            if dtype in ("int16", "int32", "int64"):  # the whole range: narrowing wraps, widening is exact
                info = np.iinfo(dtype)
                x = rng.integers(info.min, info.max, 4097, endpoint=True, dtype=dtype)
                x[:4] = (info.min, info.max, -1, 0)
                yield Sample((x, dt.as_dtype(target)), {}, f"(4097,) full {dtype} range -> {target}", dtype)


def _pow_samples(rng: np.random.Generator, dtype: str) -> Iterator[Sample]:
    """pow along the tiled axis, with integer-valued exponents (negative bases keep a sign), a grid
    of every pair of edge values, large |y ln x| (float32 keeps ~1 ulp where exp(y ln x) would not),
    and for integers exponents up to 40 (products wrap like NumPy's)."""
    d = dt.as_dtype(dtype)
    if d in dt.INTEGER:  # int32, and the 8/16-bit integers that run the int32 kernel
        for n in SIZES:
            x = rng.integers(-5, 6, n).astype(d)
            yield Sample((x, rng.integers(0, 12, n).astype(d)), {}, f"({n},) ** ({n},) exponents 0..11", dtype)
        yield Sample((rng.integers(-9, 10, 257).astype(d), rng.integers(0, 41, 257).astype(d)), {},
                     "(257,) ** exponents up to 40: wraps like NumPy", dtype)
        yield Sample((3, rng.integers(0, 20, 33).astype(d)), {}, "x is a Python scalar", dtype)
        yield Sample((rng.integers(-4, 5, (4, 1)).astype(d), rng.integers(0, 6, (1, 5)).astype(d)),
                     {}, "broadcast (4, 1) ** (1, 5)", dtype)
        return
    for n in SIZES:
        x = _arr(rng, (n,), dtype)
        y = np.round(_arr(rng, (n,), dtype).astype(np.float32)).astype(d)  # integer-valued: signs survive
        yield Sample((x, y), {}, f"({n},) ** integer-valued ({n},)", dtype)
    edges = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 3.0, -3.0, 2.5, -2.5, 0.25]
    if d == dt.float32:
        edges += [1e-45, -1e-45, 1e-40, 3.0e38, -3.0e38, 1.0000001, 0.99999994, 1e6, 64.0, -127.0]
    gx, gy = np.meshgrid(np.array(edges), np.array(edges))
    yield Sample((gx.ravel().astype(d), gy.ravel().astype(d)), {}, "every pair of edge values", dtype)
    if d == dt.float32:
        x = np.exp(rng.uniform(-20, 20, 4097)).astype(np.float32)
        y = (rng.uniform(-87, 87, 4097) / np.log(x.astype(np.float64))).astype(np.float32)
        yield Sample((x, y), {}, "|y ln x| up to 87", dtype)
        x = (1 + rng.uniform(-1e-4, 1e-4, 255)).astype(np.float32)
        yield Sample((x, rng.uniform(-2e5, 2e5, 255).astype(np.float32)), {}, "x near 1, large y", dtype)
        yield Sample((-2.0, np.arange(-130, 130, dtype=np.float32)), {}, "(-2) ** integers: signs and subnormals", dtype)
    # NumPy takes sqrt for a single exponent of 0.5 ((-inf) ** 0.5 is NaN then, inf otherwise)
    specials = np.array(edges, dtype=np.float32).astype(d)
    yield Sample((specials, 0.5), {}, "edge values ** Python scalar 0.5", dtype)
    yield Sample((specials, np.array(0.5, dtype=d)), {}, "edge values ** 0-d 0.5", dtype)
    yield Sample((specials, np.full(specials.shape, 0.5, dtype=d)), {}, "edge values ** a tensor of 0.5", dtype)
    for xs, ys in (((1,), (1,)), ((), (1,)), ((1,), (1, 1)), ((1, 1), (1,)), ((1,), ())):  # one element
        yield Sample((np.full(xs, -np.inf, dtype=d), np.full(ys, 0.5, dtype=d)), {}, f"-inf {xs} ** 0.5 {ys}", dtype)


@pytest.mark.parametrize("op,dtype", CASES, ids=[f"{o.split('::')[1]}-{d}" for o, d in CASES])
def test_sim_matches_reference(op: str, dtype: str) -> None:
    samples = sample_inputs(op, dtypes=[dtype]) + list(extra_samples(op, dtype))
    report = check_op(op, "sim", dtypes=[dtype], samples=samples)
    report.raise_for_failures()
    # no false positives (issue 10): the sanitizer (pipe-race included) reports nothing, not even a warning
    warned = [(r.desc, r.warnings) for r in report.results if r.warnings]
    assert not warned, f"{op} {dtype}: sanitizer warnings on clean samples: {warned[:3]}"
    status = Counter(r.status for r in report.results)
    assert status["pass"] >= 8, status
    if op not in PARTIAL:
        missing = [r.desc for r in report.results if r.status == "no-kernel"]
        assert not missing, f"{op} {dtype}: samples without a sim kernel: {missing[:5]}"


@pytest.mark.parametrize("op,dtype", [("pyasc::add", "int64"), ("pyasc::neg", "int64"), ("pyasc::sum", "int32"),
                                      ("pyasc::matmul", "int64"), ("pyasc::mul", "int64")])
def test_dtypes_without_an_ai_core_kernel_run_on_the_ai_cpu(op: str, dtype: str) -> None:
    # issue 11: no KernelNotFoundError any more; the AI CPU kernel runs what the AI Core lacks
    assert dtype not in SUPPORTED[op], f"{op} has an AI Core kernel for {dtype}: pick a dtype it lacks"
    from pyasc_core import placement

    a = np.arange(4, dtype=dt.as_dtype(dtype)).reshape(2, 2)
    x = pyasc.tensor(a, device="sim")
    fn = pyasc.ops.pyasc.__getattr__(op.split("::")[1])
    before = placement.snapshot()[placement.AICPU]
    out = fn(x, x) if op in ("pyasc::add", "pyasc::mul", "pyasc::matmul") else fn(x)
    ref = {"pyasc::add": a + a, "pyasc::neg": -a, "pyasc::sum": a.sum(dtype=np.int64),
           "pyasc::matmul": a @ a, "pyasc::mul": a * a}[op]
    np.testing.assert_array_equal(out.numpy(), ref)
    assert placement.snapshot()[placement.AICPU] > before


def test_every_builtin_op_has_a_sim_kernel() -> None:
    from pyasc_core.registry import REGISTRY

    REGISTRY.ensure()
    builtin = {n for n, o in REGISTRY.ops.items() if n.startswith("pyasc::") and not o.is_composite}
    without = sorted(n for n in builtin if (n, "sim") not in REGISTRY.kernels)
    assert without == [], without
    assert set(SUPPORTED) == builtin


def test_kernels_run_on_the_current_stream_and_keep_inputs() -> None:
    x = np.arange(10000, dtype=np.float32)
    a = pyasc.tensor(x, device="sim")
    s = pyasc.Stream(device="sim")
    with pyasc.stream(s):
        b = pyasc.softmax(a * 0.001 + 1.0, axis=-1)
        c = (a @ a.reshape((10000, 1))).sum()
    s.synchronize()
    np.testing.assert_array_equal(a.numpy(), x)  # inputs untouched
    e = np.exp((x * 0.001 + 1.0) - (x * 0.001 + 1.0).max())
    np.testing.assert_allclose(b.numpy(), e / e.sum(), rtol=1e-5)
    np.testing.assert_allclose(float(c.numpy()), float(np.dot(x.astype(np.float64), x)), rtol=1e-6)


def test_reshape_and_transpose_are_views() -> None:
    a = pyasc.tensor(np.arange(6, dtype=np.float32), device="sim")
    r = a.reshape((2, 3))
    assert r._data.block is a._data.block
    t = r.T
    assert t._data.block is r._data.block and not t.is_contiguous()
    np.testing.assert_array_equal(t.numpy(), np.arange(6, dtype=np.float32).reshape(2, 3).T)
    flat = t.reshape(6)  # strides cannot express it: a copy, as in NumPy
    assert flat._data.block is not a._data.block and flat.is_contiguous()


def test_int32_pow_with_negative_exponents() -> None:
    x = pyasc.tensor(np.array([1, -1, -1, 2, -3, 0], dtype=np.int32), device="sim")
    with pytest.raises(pyasc.ArgumentError, match=r"pyasc::pow: integer tensors cannot be raised to negative"):
        pyasc.pow(x, -2)  # a Python scalar is checked like the reference does
    # a tensor of exponents is not read back to the host: negative entries truncate toward zero
    y = pyasc.tensor(np.array([-5, -3, -4, -1, -2, -7], dtype=np.int32), device="sim")
    np.testing.assert_array_equal(pyasc.pow(x, y).numpy(), [1, -1, 1, 0, 0, 0])
    big = pyasc.tensor(np.array([-(2**31), 2**31 - 1], dtype=np.int32), device="sim")
    np.testing.assert_array_equal(pyasc.pow(pyasc.tensor(np.array([-1, -1], dtype=np.int32), device="sim"),
                                            big).numpy(), [1, -1])
