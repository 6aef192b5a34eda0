"""Errors that give a fix that works (issue 11, point 4): a DtypeError / KernelNotFoundError on the
sim names a dtype (``x.astype('<dtype>')``) that the sim's registered kernel of the op takes and its
cast kernel reaches; following the suggestion runs the op and matches the NumPy reference."""

from __future__ import annotations

import re

import numpy as np
import pytest

import pyasc
from pyasc_core import dtypes as dt
from pyasc_core.dtype_advice import cast_targets, kernel_dtypes, suggest_dtype

pytest.importorskip("pyasc_kernels")

_HINT = re.compile(r"astype\('(\w+)'\)")

# (name, call on the tensors, input arrays): the op's schema refuses the inputs' dtype on every backend
CASES = [
    ("exp int64", lambda x: pyasc.exp(x), [np.array([0, 1, 2], np.int64)]),
    ("softmax int32", lambda x: pyasc.softmax(x, -1), [np.arange(6, dtype=np.int32).reshape(2, 3)]),
    ("sqrt int16", lambda x: pyasc.sqrt(x), [np.array([1, 4, 9], np.int16)]),
    ("layer_norm int8", lambda x: pyasc.layer_norm(x), [np.arange(6, dtype=np.int8).reshape(2, 3)]),
]

# these failed on sim with a KernelNotFoundError before the AI CPU path (issue 11): the AI Core
# has no kernel for the dtype, the simulated AI CPU runs them now
NOW_RUN = [
    ("add int64 + scalar", lambda x: x + 1, [np.array([1, 2, -3], dtype=np.int64)]),
    ("sub int64 - int64", lambda x, y: x - y, [np.array([1, 200], np.int64), np.array([3, -100], np.int64)]),
    ("maximum int64", lambda x, y: pyasc.maximum(x, y), [np.arange(5, dtype=np.int64), np.full(5, 2, np.int64)]),
    ("neg int64", lambda x: -x, [np.array([1, -2, 3], np.int64)]),
    ("pow int64", lambda x: x ** 2, [np.array([1, -2, 3], np.int64)]),
    ("sum int32", lambda x: pyasc.sum(x), [np.arange(7, dtype=np.int32)]),
    ("matmul int64", lambda x, y: pyasc.matmul(x, y), [np.ones((2, 3), np.int64), np.ones((3, 2), np.int64)]),
    ("max int8", lambda x: pyasc.max(x), [np.array([3, -7, 5], np.int8)]),
]


@pytest.mark.parametrize("call,arrays", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_following_the_suggestion_works(call, arrays) -> None:
    xs = [pyasc.tensor(a, device="sim") for a in arrays]
    with pytest.raises((pyasc.KernelNotFoundError, pyasc.DtypeError)) as exc:
        call(*xs)
    msg = str(exc.value)
    found = _HINT.search(msg)
    assert found, f"no astype(...) suggestion in: {msg}"
    target = found.group(1)
    assert target != dt.dtype_name(xs[0].dtype), msg
    fixed = call(*(x.astype(target) for x in xs))  # the fix as the message words it
    want = call(*(pyasc.tensor(a, device="numpy").astype(target) for a in arrays))
    pyasc.testing.assert_close(fixed.to("numpy"), want)


@pytest.mark.parametrize("call,arrays", [c[1:] for c in NOW_RUN], ids=[c[0] for c in NOW_RUN])
def test_dtypes_the_ai_core_lacks_run_and_match(call, arrays) -> None:
    got = call(*(pyasc.tensor(a, device="sim") for a in arrays))
    want = call(*(pyasc.tensor(a, device="numpy") for a in arrays))
    assert got.dtype == want.dtype
    pyasc.testing.assert_close(got.to("numpy"), want)


def test_suggestion_is_one_the_sim_kernel_and_cast_take() -> None:
    for op, src in [("pyasc::add", dt.int64), ("pyasc::sum", dt.int64), ("pyasc::exp", dt.int32),
                    ("pyasc::matmul", dt.uint8), ("pyasc::where", dt.int8)]:
        d = suggest_dtype(op, "sim", src)
        assert d is not None, op
        assert d in kernel_dtypes(op, "sim"), (op, d)
        assert d in cast_targets("sim", src), (op, d)
        assert d != dt.float64  # the sim's built-in kernels list no float64 (not a fixed choice)


def test_the_schema_error_names_a_dtype_the_backend_runs_not_the_last_allowed() -> None:
    # exp allows float64 in its schema; the old message suggested astype('float64') (the last one
    # in sorted order) although the sim's exp kernel does not take it
    x = pyasc.tensor(np.array([1, 2], np.int32), device="sim")
    with pytest.raises(pyasc.DtypeError) as exc:
        pyasc.exp(x)
    hinted = _HINT.search(str(exc.value)).group(1)
    assert dt.as_dtype(hinted) in kernel_dtypes("pyasc::exp", "sim")


def test_no_cast_helps_says_so(monkeypatch) -> None:
    # a backend whose cast kernel reaches nothing the op takes: the message says so instead of
    # naming a dtype that would fail again
    import pyasc_core.dtype_advice as adv

    monkeypatch.setattr(adv, "cast_targets", lambda backend, src: ())
    assert adv.suggest_dtype("pyasc::add", "sim", dt.int64) is None
    assert "no cast of int64 makes it run on sim" in adv.cast_hint("pyasc::add", "sim", dt.int64)
