"""One float -> int cast rule on every backend: the NPU's saturation (Ascend C's type conversion
rules). Truncate toward zero; NaN -> 0; +inf and values above the range -> the int max; -inf and
values below it -> the int min. The golden model (numpy) implements it as the sim kernels do."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
from pyasc_core.builtin_ops.elementwise import saturating_to_int

BACKENDS = ["numpy", "sim"]
FLOATS = ["float16", "bfloat16", "float32"]
SIM_INTS = ["uint8", "int8", "int16", "int32", "int64"]  # the sim's cast kernels (kernels/cast.cpp)
ALL_INTS = ["uint8", "int8", "int16", "int32", "int64"]

VALUES = [np.nan, -np.nan, np.inf, -np.inf, 1e30, -1e30, 3e9, -3e9, 70000.0, -70000.0, 300.0, -300.0,
          2.7, -2.7, 0.5, -0.5, -0.0, 127.9, -128.9, 255.5, 1.0]


def expected(values: list[float], src: str, dst: str) -> np.ndarray:
    """The rule written out per element (independent of saturating_to_int)."""
    info = np.iinfo(dst)
    out = []
    with np.errstate(over="ignore"):
        floats = np.asarray(values, dtype=np.float32).astype(src).astype(np.float64)
    for v in floats:
        if np.isnan(v):
            out.append(0)
        elif v >= info.max:
            out.append(info.max)
        elif v <= info.min:
            out.append(info.min)
        else:
            out.append(int(np.trunc(v)))
    return np.array(out, dtype=dst)


@pytest.mark.parametrize("dev", BACKENDS)
@pytest.mark.parametrize("src", FLOATS)
@pytest.mark.parametrize("dst", ALL_INTS)
def test_float_to_int_saturates(dev: str, src: str, dst: str) -> None:
    if dev == "sim" and dst not in SIM_INTS:
        pytest.skip(f"the sim has no {src} -> {dst} cast kernel")
    with np.errstate(over="ignore"):
        x = pyasc.tensor(np.asarray(VALUES, dtype=np.float32).astype(src), device=dev)
    want = expected(VALUES, src, dst)
    np.testing.assert_array_equal(x.astype(dst).numpy(), want)
    np.testing.assert_array_equal(x.to(dst).numpy(), want)
    np.testing.assert_array_equal(pyasc.cast(x, dst).numpy(), want)


@pytest.mark.parametrize("dev", BACKENDS)
def test_nan_and_inf_to_bool_are_true(dev: str) -> None:
    x = pyasc.tensor(np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-30], dtype=np.float32), device=dev)
    np.testing.assert_array_equal(x.astype("bool").numpy(), [True, True, True, False, False, True])


@pytest.mark.parametrize("dev", BACKENDS)
def test_int_to_narrower_int_wraps(dev: str) -> None:
    # integer -> integer keeps NumPy's modular rule on every backend (no float is involved)
    x = pyasc.tensor(np.array([300, -129, 255, 256, -1], dtype=np.int32), device=dev)
    np.testing.assert_array_equal(x.astype("int8").numpy(), np.array([44, 127, -1, 0, -1], dtype=np.int8))
    np.testing.assert_array_equal(x.astype("uint8").numpy(), np.array([44, 127, 255, 0, 255], dtype=np.uint8))


def test_float64_to_int64_edges_on_numpy() -> None:
    x = pyasc.tensor(np.array([2.0**63, -(2.0**63), 2.0**62, np.nan, -np.inf, 9.2e18], dtype=np.float64),
                     device="numpy")
    got = x.astype("int64").numpy()
    info = np.iinfo(np.int64)
    np.testing.assert_array_equal(got, [info.max, info.min, 2**62, 0, info.min, 9200000000000000000])


def test_golden_model_helper_keeps_shape_and_zero_d() -> None:
    assert saturating_to_int(np.array(np.nan, dtype=np.float32), np.dtype("int32")).shape == ()
    out = saturating_to_int(np.array([[np.inf], [-5.5]], dtype=np.float32), np.dtype("uint8"))
    np.testing.assert_array_equal(out, [[255], [0]])
    assert out.dtype == np.uint8


def test_pyasc_check_samples_saturation_and_sim_matches_the_golden_model() -> None:
    from pyasc_core.testing import check_op, sample_inputs

    op = pyasc.ops.pyasc.cast
    names = [s.desc for s in sample_inputs(op, dtypes=["float32"])]
    for dst in ALL_INTS:
        assert f"NaN, +-inf, out of range -> {dst} (saturates)" in names
    report = check_op(op, "sim", dtypes=["float16", "bfloat16", "float32"])
    report.raise_for_failures()


def test_the_rule_is_documented() -> None:
    doc = pyasc.ops.pyasc.cast.__doc__
    assert "NaN -> 0" in doc and "saturates" in doc
    readme = __import__("pathlib").Path(__file__).resolve().parents[1] / "README.md"
    assert "NaN -> 0" in readme.read_text()
