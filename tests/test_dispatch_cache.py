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
