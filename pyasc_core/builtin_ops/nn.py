"""Neural-network ops over one axis: softmax, log_softmax, layer_norm, rms_norm."""

from __future__ import annotations

import numpy as np

from .. import dtypes as dt
from ..backend import TensorMeta
from ..errors import ShapeError
from ..opdef import OpDef
from ..shape_rules import normalize_axis
from . import torch_equivalents as th
from .samples import layer_norm_bench, norm_samples, rms_norm_bench, softmax_bench, softmax_samples


def _softmax_meta(x, axis):
    normalize_axis(axis, x.ndim)
    return x


def _softmax_ref(x, axis):
    if x.size == 0:
        return x.copy()
    shifted = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / np.sum(e, axis=axis, keepdims=True)


def _log_softmax_ref(x, axis):
    if x.size == 0:
        return x.copy()
    shifted = x - np.max(x, axis=axis, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))


def _check_affine(name: str, x: TensorMeta, t: TensorMeta | None) -> None:
    if x.ndim == 0:
        raise ShapeError("needs a tensor with at least 1 dimension (it normalises the last axis)")
    if t is not None and t.shape != (x.shape[-1],):
        raise ShapeError(
            f"{name} must have shape ({x.shape[-1]},) to match the last axis of x {x.shape}, "
            f"got {t.shape}"
        )


def _layer_norm_meta(x, weight, bias, eps):
    _check_affine("weight", x, weight)
    _check_affine("bias", x, bias)
    return TensorMeta(x.shape, dt.result_type(*(t.dtype for t in (x, weight, bias) if t is not None)))


def _layer_norm_ref(x, weight, bias, eps):
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.mean(np.square(x - mean), axis=-1, keepdims=True)
    y = (x - mean) / np.sqrt(var + eps)
    if weight is not None:
        y = y * weight
    if bias is not None:
        y = y + bias
    return y


def _rms_norm_meta(x, weight, eps):
    _check_affine("weight", x, weight)
    return TensorMeta(x.shape, dt.result_type(*(t.dtype for t in (x, weight) if t is not None)))


def _rms_norm_ref(x, weight, eps):
    y = x / np.sqrt(np.mean(np.square(x), axis=-1, keepdims=True) + eps)
    return y if weight is None else y * weight


#: eps values the norms are checked with besides the default: large enough to change every
#: result (the samples' variance is about 4), so a kernel that drops eps anywhere is caught
NORM_EPS_VALUES = (0.5, 4.0)

OPS = [
    OpDef("pyasc::softmax", "(Tensor x, int axis=-1) -> Tensor", dtypes=dt.FLOATING,
          meta=_softmax_meta, reference=_softmax_ref, sample_inputs=softmax_samples,
          bench_inputs=softmax_bench, torch=th.softmax, doc="exp(x) / sum(exp(x)) along axis."),
    OpDef("pyasc::log_softmax", "(Tensor x, int axis=-1) -> Tensor", dtypes=dt.FLOATING,
          meta=_softmax_meta, reference=_log_softmax_ref, sample_inputs=softmax_samples,
          bench_inputs=softmax_bench, torch=th.log_softmax, doc="log(softmax(x)) along axis, stably."),
    OpDef("pyasc::layer_norm",
          "(Tensor x, Tensor? weight=None, Tensor? bias=None, *, float eps=1e-05) -> Tensor",
          dtypes=dt.FLOATING, meta=_layer_norm_meta, reference=_layer_norm_ref,
          sample_inputs=norm_samples, bench_inputs=layer_norm_bench, torch=th.layer_norm,
          attr_values={"eps": NORM_EPS_VALUES},
          doc="Layer normalisation over the last axis, then * weight + bias."),
    OpDef("pyasc::rms_norm", "(Tensor x, Tensor? weight=None, *, float eps=1e-06) -> Tensor",
          dtypes=dt.FLOATING, meta=_rms_norm_meta, reference=_rms_norm_ref,
          sample_inputs=norm_samples, bench_inputs=rms_norm_bench, torch=None,
          attr_values={"eps": NORM_EPS_VALUES},
          doc="x / sqrt(mean(x**2) + eps) over the last axis, then * weight."),
]
