"""OpHandle's call in C (pyasc_core._native.OpCall, round 16): a cached one- or two-argument call
runs the cached kernel directly; every other call, and every call after the registry changed, goes
to the Python method ``_call``. Both must give the same results and the same errors."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
from pyasc_core import dispatch
from pyasc_core._native import OpCall
from pyasc_core.tensor import wrap_host


@pytest.fixture
def counted_binary():
    """A two-input op (``_key2`` form) whose kernel calls are counted per route."""
    calls = {"kernel": 0}
    def meta(x, y):
        t = x if isinstance(x, pyasc.TensorMeta) else y
        return pyasc.TensorMeta(t.shape, t.dtype)

    pyasc.library.define("tcn::plus", "(Tensor|Scalar x, Tensor|Scalar y) -> Tensor", meta=meta,
                         reference=lambda x, y: np.add(x, y))

    @pyasc.library.impl("tcn::plus", "numpy")
    def kernel(meta_out, x, y):
        calls["kernel"] += 1
        xv = x.numpy() if isinstance(x, pyasc.Tensor) else x
        yv = y.numpy() if isinstance(y, pyasc.Tensor) else y
        return wrap_host(np.asarray(np.add(xv, yv), dtype=meta_out.dtype), (x if isinstance(x, pyasc.Tensor) else y).device)

    return pyasc.ops.tcn.plus, calls


def _python_calls(monkeypatch, handle):
    """Count the calls that reach the Python method _call."""
    seen = {"n": 0}
    original = dispatch.OpHandle._call

    def counting(self, *args, **kwargs):
        if self is handle:
            seen["n"] += 1
        return original(self, *args, **kwargs)

    monkeypatch.setattr(dispatch.OpHandle, "_call", counting)
    return seen


def test_op_handles_call_through_the_native_base():
    assert isinstance(pyasc.add, OpCall)
    assert "__call__" not in vars(dispatch.OpHandle)  # the C call, not a Python __call__


def test_a_cached_form_skips_the_python_call_and_gives_the_same_result(counted_binary, monkeypatch):
    op, calls = counted_binary
    x = pyasc.tensor([1.0, 2.0], device="numpy")
    y = pyasc.tensor([10.0, 20.0], device="numpy")
    first = op(x, y)  # binds and caches this form
    seen = _python_calls(monkeypatch, op)
    for _ in range(3):
        out = op(x, y)
    assert seen["n"] == 0 and calls["kernel"] == 4
    assert out.numpy().tolist() == first.numpy().tolist() == [11.0, 22.0]


@pytest.mark.parametrize("form", ["tensor-scalar", "scalar-tensor"])
def test_scalar_forms_are_cached_by_the_scalar_type(counted_binary, monkeypatch, form):
    op, _ = counted_binary
    x = pyasc.tensor([1.0, 2.0], device="numpy")
    args = (x, 2.0) if form == "tensor-scalar" else (2.0, x)
    op(*args)
    seen = _python_calls(monkeypatch, op)
    assert op(*args).numpy().tolist() == [3.0, 4.0]
    assert seen["n"] == 0
    # another scalar type is another form: the Python call decides (and caches it)
    other = (x, 2) if form == "tensor-scalar" else (2, x)
    assert op(*other).numpy().tolist() == [3.0, 4.0]
    assert seen["n"] == 1


def test_keywords_other_arities_and_bad_arguments_take_the_python_call(counted_binary, monkeypatch):
    op, _ = counted_binary
    x = pyasc.tensor([1.0, 2.0], device="numpy")
    op(x, x)
    seen = _python_calls(monkeypatch, op)
    assert op(x, y=x).numpy().tolist() == [2.0, 4.0]
    with pytest.raises(pyasc.ArgumentError, match="missing required argument 'y'"):
        op(x)
    with pytest.raises(pyasc.ArgumentError, match="at most 2 positional"):
        op(x, x, x)
    with pytest.raises(pyasc.ArgumentError, match="must be a pyasc.Tensor or a Python number"):
        op(x, "one")
    assert seen["n"] == 4


def test_a_registry_change_sends_the_next_call_to_python_and_rebinds(counted_binary, monkeypatch):
    op, calls = counted_binary
    x = pyasc.tensor([1.0, 2.0], device="numpy")
    op(x, x)
    op(x, x)
    seen = _python_calls(monkeypatch, op)

    @pyasc.library.impl("tcn::plus", "numpy")  # a new kernel: the registry's version moves on
    def doubled(meta_out, a, b):
        return wrap_host(np.asarray(2 * (a.numpy() + b.numpy()), dtype=meta_out.dtype), a.device)

    assert op(x, x).numpy().tolist() == [4.0, 8.0]  # the new kernel, through the Python call
    assert seen["n"] == 1
    assert op(x, x).numpy().tolist() == [4.0, 8.0]  # cached again, in C
    assert seen["n"] == 1 and calls["kernel"] == 2


def test_a_kernel_that_clears_the_cache_while_it_runs_is_safe(counted_binary):
    op, _ = counted_binary
    x = pyasc.tensor([1.0, 2.0], device="numpy")
    op(x, x)
    key = op._keyfn((x, x))
    meta, kernel, fill = op._cache[key]
    assert fill is None

    def clearing(m, *args):
        op._cache.clear()  # drops the entry the C call is running
        return kernel(m, *args)

    op._cache[key] = (meta, clearing, None)
    assert op(x, x).numpy().tolist() == [2.0, 4.0]
    assert key not in op._cache
    assert op(x, x).numpy().tolist() == [2.0, 4.0]  # re-cached through the Python call
