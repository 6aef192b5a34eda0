"""Per-dtype comparison tolerances (torch.testing's defaults), documented and overridable.

``|actual - expected| <= atol + rtol * |expected|`` elementwise. Integer and bool dtypes compare
exactly. Override globally with ``set_tolerance`` or for a block with ``tolerances({...})``.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator, Mapping

import numpy as np

from .. import dtypes as _dt

#: dtype -> (rtol, atol); torch.testing.assert_close's defaults
DEFAULT_TOLERANCES: dict[np.dtype, tuple[float, float]] = {
    _dt.float16: (1e-3, 1e-5),
    _dt.bfloat16: (1.6e-2, 1e-5),
    _dt.float32: (1.3e-6, 1e-5),
    _dt.float64: (1e-7, 1e-7),
    **{d: (0.0, 0.0) for d in (_dt.bool_, _dt.uint8, _dt.int8, _dt.int16, _dt.int32, _dt.int64)},
}

_overrides: contextvars.ContextVar[Mapping[np.dtype, tuple[float, float]]] = contextvars.ContextVar(
    "pyasc_tolerances", default={}
)
_global: dict[np.dtype, tuple[float, float]] = {}


def tolerance(dtype: object) -> tuple[float, float]:
    """(rtol, atol) in force for ``dtype``: a ``tolerances`` block, else set_tolerance, else default."""
    dt = _dt.as_dtype(dtype)
    scoped = _overrides.get()
    if dt in scoped:
        return scoped[dt]
    if dt in _global:
        return _global[dt]
    return DEFAULT_TOLERANCES[dt]


def tolerance_source(dtype: object) -> str:
    """Where ``tolerance(dtype)`` comes from, for reports that explain why a result passed."""
    dt = _dt.as_dtype(dtype)
    if dt in _overrides.get():
        return "a tolerances block"
    if dt in _global:
        return "set_tolerance"
    if dt in _dt.FLOATING:
        return "torch.testing default"
    return "exact dtype"


def set_tolerance(dtype: object, rtol: float, atol: float) -> None:
    """Change the tolerance of ``dtype`` for the rest of the process."""
    _global[_dt.as_dtype(dtype)] = (float(rtol), float(atol))


def reset_tolerances() -> None:
    _global.clear()


@contextlib.contextmanager
def tolerances(table: Mapping[object, tuple[float, float]]) -> Iterator[None]:
    """Within the block, use these (rtol, atol) per dtype: ``with tolerances({"float16": (1e-2, 1e-3)}):``."""
    merged = dict(_overrides.get())
    merged.update({_dt.as_dtype(k): (float(v[0]), float(v[1])) for k, v in table.items()})
    token = _overrides.set(merged)
    try:
        yield
    finally:
        _overrides.reset(token)
