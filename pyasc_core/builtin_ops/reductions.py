"""Reductions over axes: sum, mean, max, min (with keepdims)."""

from __future__ import annotations

import numpy as np

from .. import dtypes as dt
from ..backend import TensorMeta
from ..errors import ShapeError
from ..opdef import OpDef
from ..shape_rules import normalize_axes, reduced_shape
from . import torch_equivalents as th
from .samples import reduction_bench, reduction_samples

SCHEMA = "(Tensor x, int[]? axis=None, bool keepdims=False) -> Tensor"


def _meta(dtype_rule, empty_ok=True):
    def meta(x, axis, keepdims):
        axes = normalize_axes(axis, x.ndim)
        if x.ndim == 0:
            axes = ()  # a 0-d tensor accepts axis 0 or -1 (as in PyTorch) and reduces over nothing
        if not empty_ok and any(x.shape[a] == 0 for a in axes):
            raise ShapeError(
                f"cannot reduce over an empty axis (shape {x.shape}, axis {axis}): the result has "
                "no identity; reduce over non-empty axes"
            )
        return TensorMeta(reduced_shape(x.shape, axes, keepdims), dtype_rule(x.dtype))

    return meta


def _sum_dtype(d):
    return dt.int64 if d in dt.INTEGER or d == dt.bool_ else d


def _same(d):
    return d


def _ref(fn, **extra):
    def ref(x, axis, keepdims):
        return fn(x, axis=axis, keepdims=keepdims, **extra)

    return ref


# Floating sums accumulate in float64 and are rounded once (to the result dtype, by the backend):
# NumPy's float32 sum is only pairwise along the contiguous axis and drifts by tens of ulp over a
# few thousand elements along other axes, which is not a golden model.
def _mean_ref(x, axis, keepdims):
    count = x.size if axis is None else int(np.prod([x.shape[a] for a in axis]))
    with np.errstate(invalid="ignore", divide="ignore"):  # the mean of nothing is NaN, quietly
        return np.sum(x, axis=axis, keepdims=keepdims, dtype=np.float64) / np.float64(count)


def _sum_ref(x, axis, keepdims):
    kind = x.dtype.kind
    return np.sum(x, axis=axis, keepdims=keepdims, dtype=np.int64 if kind in "iub" else np.float64)


def _reduction(name: str, meta, reference, doc: str, dtypes, torch) -> OpDef:
    return OpDef(f"pyasc::{name}", SCHEMA, dtypes=dtypes, meta=meta, reference=_zero_d(reference),
                 sample_inputs=reduction_samples, bench_inputs=reduction_bench, torch=torch, doc=doc)


def _zero_d(ref):
    """NumPy rejects axis 0 of a 0-d array; the meta function accepts it, so reduce over nothing."""

    def reference(x, axis, keepdims):
        return ref(x, None if x.ndim == 0 else axis, keepdims)

    reference.__name__ = getattr(ref, "__name__", "reference")
    return reference


OPS = [
    _reduction("sum", _meta(_sum_dtype), _sum_ref,
               "Sum over axes (all when axis is None); ints and bool sum to int64.",
               dt.NUMERIC | {dt.bool_}, th.sum_),
    _reduction("mean", _meta(_same), _mean_ref, "Arithmetic mean over axes.", dt.FLOATING, th.mean),
    _reduction("max", _meta(_same, empty_ok=False), _ref(np.max), "Maximum over axes (NaN propagates).",
               dt.NUMERIC | {dt.bool_}, th.amax),
    _reduction("min", _meta(_same, empty_ok=False), _ref(np.min), "Minimum over axes (NaN propagates).",
               dt.NUMERIC | {dt.bool_}, th.amin),
]

