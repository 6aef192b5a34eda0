"""Shape ops: transpose and reshape."""

from __future__ import annotations

import numpy as np

from .. import dtypes as dt
from ..backend import TensorMeta
from ..errors import ShapeError
from ..opdef import OpDef
from ..shape_rules import reshape_shape
from . import torch_equivalents as th
from .samples import reshape_bench, reshape_samples, transpose_bench, transpose_samples


def _transpose_meta(x, axes):
    if axes is None:
        return TensorMeta(x.shape[::-1], x.dtype)
    if sorted(a % max(x.ndim, 1) if -x.ndim <= a < x.ndim else -99 for a in axes) != list(range(x.ndim)):
        raise ShapeError(
            f"axes {axes} is not a permutation of the {x.ndim} axes of a tensor of shape {x.shape}"
        )
    return TensorMeta(tuple(x.shape[a] for a in axes), x.dtype)


def _reshape_meta(x, shape):
    return TensorMeta(reshape_shape(x.size, x.shape, shape), x.dtype)


def _reshape_ref(x, shape):
    return np.reshape(x, shape)


OPS = [
    OpDef("pyasc::transpose", "(Tensor x, int[]? axes=None) -> Tensor", dtypes=dt.ANY,
          meta=_transpose_meta, reference=np.transpose, sample_inputs=transpose_samples,
          bench_inputs=transpose_bench, torch=th.transpose,
          doc="Permute axes (reverse them when axes is None)."),
    OpDef("pyasc::reshape", "(Tensor x, int[] shape) -> Tensor", dtypes=dt.ANY,
          meta=_reshape_meta, reference=_reshape_ref, sample_inputs=reshape_samples,
          bench_inputs=reshape_bench, torch=None,
          doc="Same data, new shape; one dimension may be -1."),
]
