"""Matrix multiplication (2-D and batched, NumPy semantics)."""

from __future__ import annotations

import numpy as np

from .. import dtypes as dt
from ..backend import TensorMeta
from ..opdef import OpDef
from ..shape_rules import matmul_shape


def _matmul_meta(a, b):
    return TensorMeta(matmul_shape(a.shape, b.shape), dt.result_type(a.dtype, b.dtype))


OPS = [
    OpDef("pyasc::matmul", "(Tensor a, Tensor b) -> Tensor", dtypes=dt.NUMERIC,
          meta=_matmul_meta, reference=np.matmul,
          doc="Matrix product; batch dimensions broadcast, 1-D operands act as vectors."),
]
