"""pyasc.testing: assert_close and its report, tolerances, sample generation, check_op, opcheck."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
from pyasc.testing import (
    DEFAULT_TOLERANCES,
    MismatchError,
    OpcheckError,
    assert_close,
    check_op,
    compare,
    opcheck,
    sample_inputs,
    set_tolerance,
    reset_tolerances,
    tolerance,
    tolerances,
    ulp_distance,
)


# -- assert_close and compare ----------------------------------------------------------------

def test_assert_close_passes_within_float32_tolerance():
    a = pyasc.tensor([1.0, 2.0, 3.0])
    cmp = assert_close(a, np.array([1.0, 2.0, 3.0 * (1 + 1e-7)], dtype=np.float32))
    assert cmp.ok and cmp.mismatches == 0


def test_assert_close_report_names_errors_and_first_indexes():
    actual = pyasc.tensor([[1.0, 2.0], [3.0, 4.5]])
    expected = np.array([[1.0, 2.0], [3.5, 4.0]], dtype=np.float32)
    with pytest.raises(MismatchError) as info:
        assert_close(actual, expected, msg="my check")
    text = str(info.value)
    assert "my check" in text
    assert "2 of 4 elements differ" in text
    assert "max abs error 0.5" in text
    assert "max rel error 0.142857" in text
    assert "at index (1, 0): actual 3.0, expected 3.5" in text
    assert "at index (1, 1): actual 4.5, expected 4.0" in text
    assert isinstance(info.value, pyasc.PyascError) and isinstance(info.value, AssertionError)


def test_ulp_distance_counts_representable_steps():
    one = np.float32(1.0)
    nxt = np.nextafter(one, np.float32(2), dtype=np.float32)
    two_up = np.nextafter(nxt, np.float32(2), dtype=np.float32)
    d = ulp_distance(np.array([one, two_up, -0.0], np.float32), np.array([one, one, 0.0], np.float32))
    assert d.tolist() == [0, 2, 0]
    # across zero: smallest positive and smallest negative denormal are 2 ULPs apart
    tiny = np.finfo(np.float32).smallest_subnormal
    assert ulp_distance(np.array([tiny], np.float32), np.array([-tiny], np.float32)).tolist() == [2]


def test_compare_reports_ulp_for_bfloat16():
    a = np.array([1.0], dtype=pyasc.bfloat16)
    b = np.array([1.0078125], dtype=pyasc.bfloat16)  # the next bfloat16 above 1
    c = compare(a, b)
    assert c.max_ulp == 1 and c.ok  # within bfloat16's rtol of 1.6e-2


def test_compare_nan_inf_and_shape_dtype_mismatch():
    assert compare(np.array([np.nan, np.inf]), np.array([np.nan, np.inf])).ok
    assert not compare(np.array([np.nan]), np.array([np.nan]), equal_nan=False).ok
    assert not compare(np.array([np.inf]), np.array([-np.inf])).ok
    shape = compare(np.zeros(3, np.float32), np.zeros(4, np.float32))
    assert not shape.ok and "shape mismatch: actual (3,), expected (4,)" in shape.report()
    dt = compare(np.zeros(3, np.float32), np.zeros(3, np.float16))
    assert not dt.ok and "dtype mismatch: actual float32, expected float16" in dt.report()
    assert compare(np.zeros(3, np.float32), np.zeros(3, np.float16), check_dtype=False).ok


def test_integer_comparison_is_exact():
    assert not compare(np.array([1, 2], np.int32), np.array([1, 3], np.int32)).ok


# -- tolerances -------------------------------------------------------------------------------

def test_default_tolerances_follow_torch_testing():
    assert DEFAULT_TOLERANCES[pyasc.float16] == (1e-3, 1e-5)
    assert DEFAULT_TOLERANCES[pyasc.bfloat16] == (1.6e-2, 1e-5)
    assert DEFAULT_TOLERANCES[pyasc.float32] == (1.3e-6, 1e-5)
    assert tolerance("int32") == (0.0, 0.0)


def test_tolerance_overrides_scoped_and_global():
    a, b = np.array([1.0], np.float32), np.array([1.001], np.float32)
    assert not compare(a, b).ok
    with tolerances({"float32": (1e-2, 0.0)}):
        assert tolerance("float32") == (1e-2, 0.0)
        assert compare(a, b).ok
    assert not compare(a, b).ok
    try:
        set_tolerance(pyasc.float32, 1e-2, 0.0)
        assert compare(a, b).ok
    finally:
        reset_tolerances()
    assert tolerance("float32") == DEFAULT_TOLERANCES[pyasc.float32]


# -- sample generation ------------------------------------------------------------------------

def test_samples_cover_dtypes_shapes_broadcast_scalars_and_specials():
    samples = sample_inputs("add")
    descs = {(s.dtype, s.desc) for s in samples}
    for shape in [(), (0,), (1,), (31,), (32,), (33,), (255,), (256,), (257,), (4097,)]:
        assert ("float32", f"shape {shape}") in descs
    assert ("float16", "broadcast (4, 1) & (1, 5)") in descs
    assert ("bfloat16", "y is a Python scalar") in descs
    assert ("float32", "special values (+-0, +-inf, NaN, denormals, huge)") in descs
    assert {s.dtype for s in samples} == {"uint8", "int8", "int16", "int32", "int64",
                                          "float16", "bfloat16", "float32", "float64"}
    special = next(s for s in samples if s.desc.startswith("special") and s.dtype == "float32")
    x = special.args[0]
    assert np.isnan(x).any() and np.isposinf(x).any() and np.isneginf(x).any()
    assert (x == 0).any() and np.signbit(x[x == 0]).any()
    assert (np.abs(x[np.isfinite(x) & (x != 0)]) < np.finfo(np.float32).tiny).any()  # denormals


def test_samples_are_reproducible_from_seed():
    a = sample_inputs("mul", dtypes=["float32"], seed=3)
    b = sample_inputs("mul", dtypes=["float32"], seed=3)
    c = sample_inputs("mul", dtypes=["float32"], seed=4)
    assert [s.desc for s in a] == [s.desc for s in b]
    np.testing.assert_array_equal(a[5].args[0], b[5].args[0])
    assert not np.array_equal(a[5].args[0], c[5].args[0])


def test_samples_are_all_valid_calls_for_every_builtin_op():
    from pyasc_core.registry import REGISTRY
    from pyasc_core.testing.samples import accepts

    REGISTRY.ensure()
    for name, op in REGISTRY.ops.items():
        samples = sample_inputs(name)
        assert samples, f"{name} has no samples"
        assert all(accepts(op, s) for s in samples), name


def test_custom_sample_generators_are_used():
    mm = sample_inputs("matmul", dtypes=["float32"])
    assert any(s.desc == "(2, 1, 3, 4) @ (5, 4, 6)" for s in mm)
    cast = sample_inputs("cast", dtypes=["float16"])
    assert {s.args[1] for s in cast} == set(pyasc_core_dtypes())


def pyasc_core_dtypes():
    from pyasc_core.dtypes import ALL_DTYPES

    return ALL_DTYPES


# -- check_op ---------------------------------------------------------------------------------

def test_check_op_passes_for_builtin_on_reference():
    report = check_op("softmax", backend="numpy")
    assert report.ok and len(report.results) > 10
    rows = report.by_dtype()
    assert {r["dtype"] for r in rows} == {"float16", "bfloat16", "float32", "float64"}
    assert all(r["status"] == "pass" for r in rows)


def test_check_op_reports_failures_against_the_reference():
    # backend "twin" is numpy with a deliberately wrong mul kernel (it adds)
    import twin_backend
    from pyasc_core import plugins

    plugins.register(twin_backend, "twin-plugin")
    try:
        report = check_op("mul", backend="twin", dtypes=["float32"])
        assert not report.ok
        failing = report.failures
        assert failing and all(r.status == "fail" for r in failing)
        text = report.summary()
        assert "pyasc::mul on twin vs numpy" in text
        assert "[float32] shape (1,): fail" in text
        assert "1 of 1 elements differ beyond rtol=1.3e-06, atol=1e-05 (float32)" in text
        assert "max abs error" in text and "at index (0,)" in text
        with pytest.raises(MismatchError):
            report.raise_for_failures()
        rows = {r["dtype"]: r for r in report.by_dtype()}
        assert rows["float32"]["status"] == "fail" and rows["float32"]["failed"] > 0
        # every other op on twin is the reference itself and passes
        assert check_op("add", backend="twin", dtypes=["float32"]).ok
        d = report.as_dict()
        assert d["ok"] is False and d["results"][0]["comparison"] is not None
    finally:
        plugins.unregister(twin_backend)


def test_check_op_fails_missing_kernels_unless_allowed():
    from pyasc_core.meta_backend import BACKEND as META

    assert META.default_kernel is not None
    pyasc.library.define("t5::nokernel", "(Tensor x) -> Tensor", meta=lambda x: x, reference=lambda x: x)
    from pyasc_core import plugins
    from pyasc_core.reference_backend import ReferenceBackend

    class Bare(ReferenceBackend):
        name = "bare"
        aliases = ()
        priority = -5

        def __init__(self):
            super().__init__()
            self._device = pyasc.Device("bare")

        def default_kernel(self, op):
            return None

    class P:
        @pyasc.hookimpl
        def pyasc_register_backends(self, register):
            register(Bare())

    obj = P()
    plugins.register(obj, "bare-plugin")
    try:
        report = check_op("t5::nokernel", backend="bare", dtypes=["float32"])
        assert not report.ok  # a pack that forgot its kernel does not pass
        assert {r.status for r in report.results} == {"no-kernel"}
        assert "has no kernel for backend 'bare'" in report.results[0].message
        report = check_op("t5::nokernel", backend="bare", dtypes=["float32"], allow_missing=True)
        assert report.ok and {r.status for r in report.results} == {"missing-allowed"}
    finally:
        plugins.unregister(obj)


# -- opcheck ----------------------------------------------------------------------------------

def test_opcheck_passes_for_builtins():
    for name in ("add", "sum", "matmul", "layer_norm", "cast", "where"):
        assert set(opcheck(name, backend="numpy").values()) == {"SUCCESS"}


def test_opcheck_catches_meta_disagreeing_with_kernel():
    pyasc.library.define(
        "t5::badmeta", "(Tensor x) -> Tensor", dtypes=["float32"],
        meta=lambda x: x, reference=lambda x: x.sum(keepdims=True).reshape((1,) * max(x.ndim, 1)),
    )
    with pytest.raises(OpcheckError) as info:
        opcheck("t5::badmeta", backend="numpy")
    text = str(info.value)
    assert "opcheck of t5::badmeta on numpy failed" in text
    assert "meta:" in text and "ReferenceMismatchError" in text
    # on the meta backend outputs come from the meta function itself, so it is consistent
    assert opcheck("t5::badmeta", backend="meta")["meta"] == "SUCCESS"


def test_opcheck_catches_hidden_mutation():
    def mutating(x):
        x[...] = 0  # writes into its input
        return x + 1

    pyasc.library.define("t5::mutates", "(Tensor x) -> Tensor", dtypes=["float32"],
                         meta=lambda x: x, reference=mutating)
    with pytest.raises(OpcheckError) as info:
        opcheck("t5::mutates", backend="numpy")
    assert "no_mutation" in str(info.value) and "input 'x' was modified" in str(info.value)
    # declared mutation is allowed
    pyasc.library.define("t5::mutates_ok", "(Tensor x) -> Tensor", dtypes=["float32"],
                         meta=lambda x: x, reference=mutating, mutates=("x",))
    assert opcheck("t5::mutates_ok", backend="numpy")["no_mutation"] == "SUCCESS"


def test_opcheck_confirms_disallowed_dtypes_are_rejected():
    # exp allows floating dtypes only: opcheck calls it with each integer dtype and bool and
    # requires a DtypeError before any kernel runs
    assert opcheck("exp", backend="numpy")["dtype_rules"] == "SUCCESS"
