"""Hypothesis strategies for pyasc tensors (needs the ``hypothesis`` package: the ``test`` extra)."""

from __future__ import annotations

from typing import Any

import numpy as np

try:
    from hypothesis import strategies as st
    from hypothesis.extra import numpy as hnp
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        "pyasc.testing.strategies needs hypothesis; install it with pip install 'pyasc-runtime[test]'"
    ) from exc

from .. import dtypes as _dt


def dtypes(op: Any = None, *, include: Any = None) -> st.SearchStrategy[np.dtype]:
    """pyasc dtypes: all of them, the ones ``op`` accepts, or ``include``."""
    if op is not None:
        from .check import resolve_op

        allowed = resolve_op(op).all_dtypes
        choices = [d for d in _dt.ALL_DTYPES if d in allowed]
    elif include is not None:
        choices = [_dt.as_dtype(d) for d in include]
    else:
        choices = list(_dt.ALL_DTYPES)
    return st.sampled_from(choices)


def shapes(*, min_dims: int = 0, max_dims: int = 3, min_side: int = 0, max_side: int = 8) -> st.SearchStrategy[tuple[int, ...]]:
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=max_side)


def arrays(dtype: Any, shape: Any, *, elements: Any = None, allow_nan: bool = False,
           allow_infinity: bool = False) -> st.SearchStrategy[np.ndarray]:
    """NumPy arrays of any pyasc dtype (bfloat16 is drawn as float32 and rounded)."""
    def build(dt: np.dtype) -> st.SearchStrategy[np.ndarray]:
        draw_dt = np.dtype(np.float32) if dt == _dt.bfloat16 else dt
        elems = elements
        if elems is None and draw_dt.kind == "f":
            width = 16 if dt == _dt.float16 else (32 if draw_dt == np.float32 else 64)
            limit = 6e4 if dt == _dt.float16 else 2.0**100  # exactly representable bounds
            elems = st.floats(-limit, limit, width=width, allow_nan=allow_nan,
                              allow_infinity=allow_infinity)
        base = hnp.arrays(draw_dt, shape, elements=elems)
        return base.map(lambda a: a.astype(dt)) if dt == _dt.bfloat16 else base

    if isinstance(dtype, st.SearchStrategy):
        return dtype.flatmap(build)
    return build(_dt.as_dtype(dtype))


def tensors(dtype: Any = None, shape: Any = None, *, device: Any = "numpy", elements: Any = None,
            allow_nan: bool = False, allow_infinity: bool = False) -> st.SearchStrategy[Any]:
    """pyasc tensors on ``device``; ``dtype`` and ``shape`` may be values or strategies."""
    from ..creation import tensor

    return arrays(dtype if dtype is not None else dtypes(),
                  shape if shape is not None else shapes(), elements=elements,
                  allow_nan=allow_nan, allow_infinity=allow_infinity).map(
        lambda a: tensor(a, dtype=a.dtype, device=device))
