"""The per-signature dispatch cache: repeated calls skip checks and meta, and stay correct."""

from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest

import pyasc
from pyasc_core.tensor import wrap_host


@pytest.fixture
def counted_op():
    """An op whose meta calls and kernel arguments are recorded."""
    calls = {"meta": 0, "attrs": []}

    def meta(x, dtype, *, scale=1.0):
        calls["meta"] += 1
        return pyasc.TensorMeta(x.shape, dtype)

    pyasc.library.define("tc::scaled_cast", "(Tensor x, dtype dtype, *, float scale=1.0) -> Tensor",
                         meta=meta, reference=lambda x, dtype, scale=1.0: (x * scale).astype(dtype))

    @pyasc.library.impl("tc::scaled_cast", "numpy")
    def kernel(meta_out, x, dtype, scale):
        calls["attrs"].append((dtype, scale))
        return wrap_host((x.numpy() * scale).astype(meta_out.dtype), x.device)

    return pyasc.ops.tc.scaled_cast, calls


def test_repeated_calls_run_meta_once_per_signature(counted_op):
    op, calls = counted_op
    x = pyasc.tensor([1.0, 2.0], device="numpy")
    for _ in range(5):
        op(x, "float16", scale=2.0)
    assert calls["meta"] == 1
    op(x, "float16", scale=3.0)  # another attribute value: a new signature
    op(pyasc.tensor([1.0, 2.0, 3.0], device="numpy"), "float16", scale=2.0)  # another shape
    assert calls["meta"] == 3


def test_kernels_get_normalised_attributes_on_cache_hits(counted_op):
    op, calls = counted_op
    x = pyasc.tensor([1.0, 2.0], device="numpy")
    for _ in range(3):
        out = op(x, "float16", scale=2)
    assert out.dtype == pyasc.float16 and out.numpy().tolist() == [2.0, 4.0]
    assert all(d == pyasc.float16 and isinstance(d, np.dtype) for d, _ in calls["attrs"])
    assert all(type(s) is float for _, s in calls["attrs"])  # int 2 arrives as float 2.0


def test_keyword_only_attribute_passed_positionally_is_rejected_even_after_caching(counted_op):
    op, _ = counted_op
    x = pyasc.tensor([1.0, 2.0], device="numpy")
    op(x, "float16", scale=2.0)
    op(x, "float16", scale=2.0)
    with pytest.raises(pyasc.ArgumentError, match="at most 2 positional"):
        op(x, "float16", 2.0)


def test_cache_does_not_keep_tensors_alive():
    t = pyasc.zeros(1000, device="numpy")
    ref = weakref.ref(t)
    for _ in range(2):
        t.reshape(10, 100)  # a normalised attribute: the cached entry stores a template
        pyasc.layer_norm(t, eps=1e-5)
    del t
    gc.collect()
    assert ref() is None


def test_defaulted_inputs_keep_their_defaults_on_cache_hits():
    x = pyasc.tensor(np.arange(6, dtype=np.float32).reshape(2, 3), device="numpy")
    w = pyasc.tensor([1.0, 2.0, 3.0], device="numpy")
    a = pyasc.layer_norm(x, w, eps=1e-5)
    b = pyasc.layer_norm(x, w, eps=1e-5)  # cached: bias stays None
    np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_calls_leaving_trailing_parameters_at_their_defaults_are_cached():
    """``pyasc.sum(x)`` (axis and keepdims left at their defaults) is a cached form like any other:
    the meta runs once per form, cache hits hand the kernel the defaults, and forms passing more
    arguments (even the default value itself) are their own entries."""
    calls = {"meta": 0, "kernel": []}

    def meta(x, axis=0, scale=1.0):
        calls["meta"] += 1
        return pyasc.TensorMeta(x.shape, x.dtype)

    pyasc.library.define("tc::defaults_scale", "(Tensor x, int axis=0, float scale=1.0) -> Tensor", meta=meta,
                         reference=lambda x, axis=0, scale=1.0: x * scale)

    @pyasc.library.impl("tc::defaults_scale", "numpy")
    def kernel(meta_out, x, axis, scale):
        calls["kernel"].append((axis, scale))
        return wrap_host(x.numpy() * np.float32(scale), x.device)

    op = pyasc.ops.tc.defaults_scale
    x = pyasc.tensor([1.0, 2.0], device="numpy")
    for _ in range(4):
        assert op(x).numpy().tolist() == [1.0, 2.0]
    assert calls["meta"] == 1 and calls["kernel"] == [(0, 1.0)] * 4
    assert op(x, 0, 3.0).numpy().tolist() == [3.0, 6.0]  # more arguments: another form
    assert op(x, 0, 3.0).numpy().tolist() == [3.0, 6.0]
    assert op(x, 1).numpy().tolist() == [1.0, 2.0]
    assert calls["meta"] == 3 and calls["kernel"][4:] == [(0, 3.0), (0, 3.0), (1, 1.0)]
    assert op(pyasc.tensor([1.0, 2.0, 3.0], device="numpy")).numpy().tolist() == [1.0, 2.0, 3.0]  # new shape
    assert calls["meta"] == 4
    with pytest.raises(pyasc.ArgumentError):
        op(x, 0, 1.0, 2)  # too many: never a cached form


def test_sum_with_default_axis_takes_the_cached_path(monkeypatch):
    x = pyasc.tensor(np.arange(12, dtype=np.float32).reshape(3, 4), device="numpy")
    assert float(pyasc.sum(x).numpy()) == 66.0
    checked = []
    original = type(pyasc.sum)._call_checked
    monkeypatch.setattr(type(pyasc.sum), "_call_checked", lambda self, a, k: checked.append(1) or original(self, a, k))
    for _ in range(3):
        assert float(pyasc.sum(x).numpy()) == 66.0
    assert checked == []
