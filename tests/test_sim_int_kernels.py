"""The sim's integer AI Core kernels over whole integer ranges (issue 11, point 2), against NumPy:
int16 arithmetic wraps like NumPy (8-bit integers compute in int16, pow and matmul in int32, and
wrap back through the cast kernel), int32 ordering comparisons are exact near the int32 limits
(compare.cpp compares a - b from float(x) and the exact residual x - int32(float(x)): Compare takes
int32 for EQ/NE only, and the inference series has no ShiftLeft/ShiftRight to split halves), and integer
casts wrap or sign-extend exactly (kernels/cast.cpp). The schema-driven differential tests
(test_sim_ops.py) use small values; these use the extremes."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc

pytest.importorskip("pyasc_kernels")

INT_LIMITS = {
    "uint8": [0, 1, 2, 127, 128, 254, 255],
    "int8": [-128, -127, -1, 0, 1, 126, 127],
    "int16": [-32768, -32767, -1, 0, 1, 32766, 32767],
    "int32": [-(2**31), -(2**31) + 1, -65537, -65536, -65535, -1, 0, 1, 65535, 65536, 2**24 + 1, 2**31 - 2, 2**31 - 1],
    "int64": [-(2**63), -(2**32) - 1, -(2**31) - 1, -1, 0, 1, 2**31, 2**32 + 7, 2**40 + 3, 2**63 - 1],
}


def _pairs(dtype: str) -> tuple[np.ndarray, np.ndarray]:
    """Every pair of the limit values, plus random values of the whole range (5000 elements: more
    than one tile and core share)."""
    lim = np.array(INT_LIMITS[dtype], dtype=dtype)
    a, b = np.meshgrid(lim, lim)
    info = np.iinfo(dtype)
    rng = np.random.default_rng(11)
    ra = rng.integers(info.min, info.max, 5000, endpoint=True, dtype=dtype)
    rb = rng.integers(info.min, info.max, 5000, endpoint=True, dtype=dtype)
    rb[::3] = ra[::3]  # equal pairs
    rb[1::3] = ra[1::3] + 1  # neighbours (wrapping at the top, as NumPy)
    return np.concatenate([a.ravel(), ra]), np.concatenate([b.ravel(), rb])


def _sim(a: np.ndarray) -> pyasc.Tensor:
    return pyasc.tensor(a, device="sim")


@pytest.mark.parametrize("op", ["lt", "le", "gt", "ge", "eq", "ne"])
@pytest.mark.parametrize("dtype", ["int16", "int32"])
def test_int_comparisons_are_exact_over_the_whole_range(op: str, dtype: str) -> None:
    a, b = _pairs(dtype)
    fn = getattr(pyasc, op)
    want = getattr(np, {"lt": "less", "le": "less_equal", "gt": "greater", "ge": "greater_equal",
                        "eq": "equal", "ne": "not_equal"}[op])
    np.testing.assert_array_equal(fn(_sim(a), _sim(b)).numpy(), want(a, b))
    for s in (int(a[0]), 0, int(np.iinfo(dtype).max)):  # a Python scalar on either side
        np.testing.assert_array_equal(fn(_sim(a), s).numpy(), want(a, s))
        np.testing.assert_array_equal(fn(s, _sim(b)).numpy(), want(s, b))


@pytest.mark.parametrize("op", ["lt", "le", "gt", "ge"])
def test_int32_ordering_is_exact_where_float_rounds(op: str) -> None:
    # neighbours that round to the same float (2^24 + 1, 2^31 - 64 ... 2^31 - 1, which rounds to 2^31 and
    # saturates back) and pairs whose floats differ by one ulp: the residual term decides
    edges = np.array([-2**31, -2**31 + 1, -2**31 + 64, -2**31 + 65, -2**24 - 1, -2**24, -1, 0, 1, 2**24 - 1,
                      2**24, 2**24 + 1, 2**24 + 2, 2**24 + 3, 2**30 + 1, 2**30 + 63, 2**30 + 64, 2**30 + 65,
                      2**31 - 129, 2**31 - 65, 2**31 - 64, 2**31 - 63, 2**31 - 2, 2**31 - 1], np.int64)
    a = np.repeat(edges, len(edges)).astype(np.int32)
    b = np.tile(edges, len(edges)).astype(np.int32)
    want = getattr(np, {"lt": "less", "le": "less_equal", "gt": "greater", "ge": "greater_equal"}[op])
    np.testing.assert_array_equal(getattr(pyasc, op)(_sim(a), _sim(b)).numpy(), want(a, b))


def test_every_builtin_kernel_compiles_for_the_inference_series() -> None:
    # the API x dtype tables of Ascend310P3 accept every built-in kernel (compare.cpp's int32 ordering
    # path used to need ShiftLeft/ShiftRight, which that AI Core does not have)
    import pathlib

    import pyasc_sim

    root = pathlib.Path(__file__).resolve().parents[1] / "kernels"
    sources = sorted(root.glob("*.cpp"))
    assert root / "compare.cpp" in sources
    for src in sources:
        assert pathlib.Path(pyasc_sim.compile(src, opt="-O0", soc="Ascend310P3")).is_file(), src


@pytest.mark.parametrize("op", ["add", "sub", "mul", "maximum", "minimum"])
@pytest.mark.parametrize("dtype", ["uint8", "int8", "int16"])
def test_narrow_int_arithmetic_wraps_like_numpy(op: str, dtype: str) -> None:
    a, b = _pairs(dtype)
    fn = getattr(pyasc, op)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(fn(_sim(a), _sim(b)).numpy(), getattr(np, {"add": "add", "sub": "subtract",
                                      "mul": "multiply"}.get(op, op))(a, b))
        ref = pyasc.tensor(a, device="numpy")
        info = np.iinfo(dtype)
        for s in (int(info.min), 3, 7, int(info.max)):
            np.testing.assert_array_equal(fn(_sim(a), s).numpy(), fn(ref, s).numpy())
            np.testing.assert_array_equal(fn(s, _sim(a)).numpy(), fn(s, ref).numpy())


@pytest.mark.parametrize("op,dtype", [(op, d) for op in ("neg", "abs", "relu") for d in ("uint8", "int8", "int16")
                                      if not (op == "neg" and d == "uint8")])  # neg's schema takes no unsigned dtype
def test_narrow_int_unary_over_the_whole_range(op: str, dtype: str) -> None:
    a, _ = _pairs(dtype)
    fn = getattr(pyasc, op)
    np.testing.assert_array_equal(fn(_sim(a)).numpy(), fn(pyasc.tensor(a, device="numpy")).numpy())


@pytest.mark.parametrize("dtype", ["uint8", "int8", "int16"])
def test_narrow_int_pow_matmul_and_where_wrap_like_numpy(dtype: str) -> None:
    a, b = _pairs(dtype)
    e = (b.astype(np.int64) % 13).astype(dtype)  # exponents 0..12: products wrap many times
    ref = pyasc.tensor(a, device="numpy")
    np.testing.assert_array_equal(pyasc.pow(_sim(a), _sim(e)).numpy(),
                                  pyasc.pow(ref, pyasc.tensor(e, device="numpy")).numpy())
    np.testing.assert_array_equal(pyasc.pow(_sim(a), 5).numpy(), pyasc.pow(ref, 5).numpy())
    m, k = a[:40 * 33].reshape(40, 33), b[:33 * 7].reshape(33, 7)
    np.testing.assert_array_equal(pyasc.matmul(_sim(m), _sim(k)).numpy(), np.matmul(m, k))
    c = a > b
    np.testing.assert_array_equal(pyasc.where(_sim(c), _sim(a), _sim(b)).numpy(), np.where(c, a, b))
    np.testing.assert_array_equal(pyasc.where(_sim(c), _sim(a), 1).numpy(), np.where(c, a, np.array(1, dtype)))


def test_bool_where_selects_16_bit_lanes() -> None:
    rng = np.random.default_rng(2)
    c, x, y = (rng.random(5000) < 0.5 for _ in range(3))
    np.testing.assert_array_equal(pyasc.where(_sim(c), _sim(x), _sim(y)).numpy(), np.where(c, x, y))


def test_int16_where_and_promotion_to_int32() -> None:
    a, b = _pairs("int16")
    c = a > b
    np.testing.assert_array_equal(pyasc.where(_sim(c), _sim(a), _sim(b)).numpy(), np.where(c, a, b))
    got = (_sim(a) + _sim(b.astype(np.int32))).numpy()
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, a.astype(np.int32) + b)


def test_an_out_of_range_scalar_for_a_narrow_int_is_refused() -> None:
    with pytest.raises(pyasc.ArgumentError, match=r"40000 does not fit the int16 tensor .*-32768\.\.32767"):
        _sim(np.ones(3, np.int16)) + 40000
    with pytest.raises(pyasc.ArgumentError, match=r"300 does not fit the uint8 tensor .*astype\('int32'\)"):
        _sim(np.ones(3, np.uint8)) * 300


@pytest.mark.parametrize("src", ["int16", "int32", "int64"])
@pytest.mark.parametrize("dst", ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16",
                                 "float32"])
def test_integer_casts_over_the_whole_range(src: str, dst: str) -> None:
    a, _ = _pairs(src)
    np.testing.assert_array_equal(_sim(a).astype(dst).numpy(), pyasc.tensor(a, device="numpy").astype(dst).numpy())


def test_issue_examples_run_after_the_suggested_cast() -> None:
    # int64 storage, the cast out of it on the AI Core, then int32 arithmetic
    x = pyasc.tensor([1, 2])
    assert x.dtype == np.int64
    np.testing.assert_array_equal((x.astype("int32") + 1).numpy(), [2, 3])
    np.testing.assert_array_equal((x.astype("float32") + 1).numpy(), [2.0, 3.0])
    np.testing.assert_array_equal((x.astype("int32") + 1).astype("int64").numpy(), np.array([2, 3], np.int64))


@pytest.mark.parametrize("op", ["max", "min"])
@pytest.mark.parametrize("dtype", ["bool", "uint8", "int8", "int16"])
def test_narrow_int_max_min_reduce_exactly(op: str, dtype: str) -> None:
    rng = np.random.default_rng(4)
    if dtype == "bool":
        a = rng.random((5, 300, 7)) < 0.3
    else:
        info = np.iinfo(dtype)
        a = rng.integers(info.min, info.max, (5, 300, 7), endpoint=True).astype(dtype)
    fn = getattr(pyasc, op)
    for axis, keep in [(None, False), (1, False), ((0, 2), True), (-1, False)]:
        got = fn(_sim(a), axis, keep).numpy()
        want = fn(pyasc.tensor(a, device="numpy"), axis, keep).numpy()
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("op", ["eq", "ne"])
def test_int64_equality_compares_both_halves(op: str) -> None:
    a, b = _pairs("int64")
    b[2::5] = a[2::5] ^ 1  # differ in the low word only
    b[3::5] = a[3::5] ^ (1 << 40)  # in the high word only
    want = np.equal(a, b) if op == "eq" else np.not_equal(a, b)
    fn = getattr(pyasc, op)
    np.testing.assert_array_equal(fn(_sim(a), _sim(b)).numpy(), want)
    s = int(a[7])
    np.testing.assert_array_equal(fn(_sim(a), s).numpy(), (a == s) if op == "eq" else (a != s))
    np.testing.assert_array_equal(fn(s, _sim(a)).numpy(), (a == s) if op == "eq" else (a != s))


def test_int64_where_selects_both_halves() -> None:
    a, b = _pairs("int64")
    c = np.random.default_rng(6).random(a.shape) < 0.5
    np.testing.assert_array_equal(pyasc.where(_sim(c), _sim(a), _sim(b)).numpy(), np.where(c, a, b))
    np.testing.assert_array_equal(pyasc.where(_sim(c), -(2**62), _sim(b)).numpy(), np.where(c, np.int64(-(2**62)), b))
    m, row = a[:600].reshape(20, 30), b[:30]  # broadcast
    np.testing.assert_array_equal(pyasc.where(_sim(c[:30]), _sim(m), _sim(row)).numpy(), np.where(c[:30], m, row))
