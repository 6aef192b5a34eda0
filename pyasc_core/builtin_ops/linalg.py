"""Matrix multiplication (2-D and batched, NumPy semantics)."""

from __future__ import annotations

import numpy as np

from .. import dtypes as dt
from ..backend import TensorMeta
from ..opdef import OpDef
from ..shape_rules import matmul_shape
from .samples import matmul_bench, matmul_flops, matmul_samples


def _matmul_ref(a, b):
    # floating products are summed in float64 and rounded once (by the backend, to the result
    # dtype): float32 BLAS sums drift from the exact product by ~1e-5 at K=128, more than
    # float32's tolerance, so the golden model must not be a float32 GEMM
    if a.dtype.kind == "f" or b.dtype.kind == "f":
        return np.matmul(a.astype(np.float64), b.astype(np.float64))
    return np.matmul(a, b)


def _matmul_meta(a, b):
    return TensorMeta(matmul_shape(a.shape, b.shape), dt.result_type(a.dtype, b.dtype))


OPS = [
    OpDef("pyasc::matmul", "(Tensor a, Tensor b) -> Tensor", dtypes=dt.NUMERIC,
          meta=_matmul_meta, reference=_matmul_ref, sample_inputs=matmul_samples,
          bench_inputs=matmul_bench, flops=matmul_flops, torch="matmul",
          doc="Matrix product; batch dimensions broadcast, 1-D operands act as vectors."),
]
