"""Comparing results across devices: error statistics (absolute, relative, ULP) and assert_close.

The relative error and the ULP distance are measured only where they mean something: over the
elements whose expected value is finite, non-zero and at least ``atol`` in magnitude (nearer zero
the absolute tolerance governs, and a relative error or ULP distance there is huge, up to inf for
an expected 0, whatever the result's quality). A passing comparison says why it passed
(``Comparison.why``): exact, or within which tolerance and where that tolerance came from, and
whether NaN/inf positions matched.
"""

from __future__ import annotations

from typing import Any

import attrs
import numpy as np

from .. import dtypes as _dt
from ..errors import ReferenceMismatchError
from .tolerances import tolerance, tolerance_source

_INT_VIEW = {2: np.int16, 4: np.int32, 8: np.int64}


class MismatchError(ReferenceMismatchError):
    """Two results differ beyond tolerance; the message carries the error statistics."""


@attrs.frozen
class Comparison:
    """How ``actual`` differs from ``expected`` (computed in float64 on the host)."""

    ok: bool
    shape_ok: bool
    dtype_ok: bool
    actual_dtype: str
    expected_dtype: str
    actual_shape: tuple[int, ...]
    expected_shape: tuple[int, ...]
    rtol: float
    atol: float
    numel: int
    mismatches: int = 0
    max_abs: float = 0.0
    max_rel: float = 0.0
    max_ulp: int = 0
    #: first mismatching indexes with (actual, expected)
    first: tuple[tuple[tuple[int, ...], Any, Any], ...] = ()
    #: where rtol/atol came from (the dtype's default, set_tolerance, a tolerances block, the caller)
    tolerance_source: str = ""
    #: elements the relative error and ULP distance were measured over (|expected| >= rel_floor)
    rel_elements: int = 0
    rel_floor: float = 0.0
    #: NaN/inf elements of the expected result that the actual matched at the same positions
    nonfinite_matched: int = 0

    @property
    def exact(self) -> bool:
        return self.ok and self.max_abs == 0.0

    def why(self) -> str:
        """Why a passing comparison passed ("" when it failed)."""
        if not self.ok:
            return ""
        if self.numel == 0:
            return "empty"
        if self.exact:
            text = "exact"
        else:
            note = ""
            if self.rtol > 0 and self.max_rel > self.rtol:  # atol let it pass: say where it governs
                note = f", atol governs where |expected| < {self.atol / self.rtol:.3g}"
            text = f"within rtol {self.rtol:g}, atol {self.atol:g} ({self.tolerance_source}{note})"
        if self.nonfinite_matched:
            text += f"; nan/inf positions match ({self.nonfinite_matched})"
        return text

    def report(self, header: str = "") -> str:
        lines = [header] if header else []
        if not self.shape_ok:
            lines.append(f"shape mismatch: actual {self.actual_shape}, expected {self.expected_shape}")
            return "\n".join(lines)
        if not self.dtype_ok:
            lines.append(f"dtype mismatch: actual {self.actual_dtype}, expected {self.expected_dtype}")
        if self.mismatches:
            lines.append(
                f"{self.mismatches} of {self.numel} elements differ beyond rtol={self.rtol:g}, "
                f"atol={self.atol:g} ({self.actual_dtype})"
            )
        lines.append(
            f"max abs error {self.max_abs:.6g}, max rel error {self.max_rel:.6g}, "
            f"max ULP distance {self.max_ulp} (relative and ULP over the {self.rel_elements} "
            f"elements with |expected| >= {self.rel_floor:g})"
        )
        if self.ok:
            lines.append(f"passed: {self.why()}")
        for idx, a, e in self.first:
            lines.append(f"  at index {idx}: actual {a!r}, expected {e!r}")
        return "\n".join(lines)

    def as_dict(self) -> dict[str, Any]:
        d = attrs.asdict(self)
        d["first"] = [[list(i), _jsonable(a), _jsonable(e)] for i, a, e in self.first]
        return d


def _jsonable(v: Any) -> Any:
    if isinstance(v, float) and not np.isfinite(v):
        return repr(v)
    return v


def to_host(value: Any) -> np.ndarray:
    """A NumPy copy-or-view of a tensor on any device, an array or a scalar."""
    from ..tensor import Tensor

    if isinstance(value, Tensor):
        return np.asarray(value.numpy())
    arr = np.asarray(value)
    if arr.dtype.kind in "OUS":
        from ..errors import ArgumentError

        raise ArgumentError(
            f"cannot compare {type(value).__name__} {value!r:.60}: give pyasc tensors, NumPy arrays or numbers"
        )
    return arr


def _ordered_ints(x: np.ndarray) -> np.ndarray:
    """Map floats to integers whose difference is the ULP distance (sign-magnitude -> two's order)."""
    ints = x.view(_INT_VIEW[x.dtype.itemsize]).astype(np.int64)
    bits = x.dtype.itemsize * 8
    return np.where(ints < 0, -(ints & ((1 << (bits - 1)) - 1)), ints)


def ulp_distance(actual: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """ULP distance per element in the actual's float dtype (0 where both are NaN)."""
    dt = actual.dtype
    a = np.ascontiguousarray(actual, dtype=dt)
    e = np.ascontiguousarray(np.asarray(expected).astype(dt), dtype=dt)
    d = np.abs(_ordered_ints(a) - _ordered_ints(e))
    return np.where(np.isnan(a.astype(np.float64)) | np.isnan(e.astype(np.float64)), 0, d)


def compare(actual: Any, expected: Any, *, rtol: float | None = None, atol: float | None = None,
            equal_nan: bool = True, check_dtype: bool = True, max_report: int = 5) -> Comparison:
    """Error statistics of ``actual`` against ``expected`` with the dtype's tolerance."""
    a = to_host(actual)
    e = to_host(expected)
    dtype = a.dtype
    try:
        d_rtol, d_atol = tolerance(dtype)
    except Exception:
        d_rtol, d_atol = (0.0, 0.0)
    given = [n for n, v in (("rtol", rtol), ("atol", atol)) if v is not None]
    try:
        default_source = tolerance_source(dtype)
    except Exception:
        default_source = f"exact for {dtype}"
    source = ("given by the caller" if len(given) == 2 else
              f"{given[0]} given by the caller, the other from {default_source}" if given else default_source)
    rtol = d_rtol if rtol is None else rtol
    atol = d_atol if atol is None else atol
    common = dict(
        actual_dtype=_dt.dtype_name(a.dtype) if a.dtype in _dt.ANY else str(a.dtype),
        expected_dtype=_dt.dtype_name(e.dtype) if e.dtype in _dt.ANY else str(e.dtype),
        actual_shape=tuple(a.shape), expected_shape=tuple(e.shape), rtol=rtol, atol=atol,
        numel=int(a.size), tolerance_source=source,
    )
    dtype_ok = (a.dtype == e.dtype) or not check_dtype
    if a.shape != e.shape:
        return Comparison(ok=False, shape_ok=False, dtype_ok=dtype_ok, **common)
    af = a.astype(np.float64)
    ef = e.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        diff = np.abs(af - ef)
        same = (af == ef) | (equal_nan & np.isnan(af) & np.isnan(ef))
        finite = np.isfinite(diff)
        close = same | (finite & (diff <= atol + rtol * np.abs(ef)))
        floor = atol
        mag = np.abs(ef)
        meaningful = np.isfinite(ef) & (mag > 0) & (mag >= floor)
        rel = np.where(meaningful & ~same, diff / np.where(meaningful, mag, 1.0), 0.0)
    bad = ~close
    n_bad = int(bad.sum())
    max_abs = float(np.max(np.where(same, 0.0, diff))) if a.size else 0.0
    max_rel = float(np.max(rel)) if a.size else 0.0
    max_ulp = 0
    if a.size and a.dtype in _dt.FLOATING:
        ulps = ulp_distance(a, e)
        max_ulp = int(np.max(np.where(same | ~meaningful, 0, ulps)))
    nonfinite_matched = int((same & ~np.isfinite(ef)).sum())
    first = tuple(
        (tuple(int(i) for i in idx), a[tuple(idx)].item(), e[tuple(idx)].item())
        for idx in np.argwhere(bad)[:max_report]
    )
    return Comparison(
        ok=n_bad == 0 and dtype_ok, shape_ok=True, dtype_ok=dtype_ok, mismatches=n_bad,
        max_abs=max_abs, max_rel=max_rel, max_ulp=max_ulp, first=first,
        rel_elements=int(meaningful.sum()), rel_floor=floor, nonfinite_matched=nonfinite_matched, **common,
    )


def assert_close(actual: Any, expected: Any, *, rtol: float | None = None, atol: float | None = None,
                 equal_nan: bool = True, check_dtype: bool = True, msg: str = "") -> Comparison:
    """Raise MismatchError (an AssertionError) unless ``actual`` matches ``expected`` within tolerance.

    Tensors may live on any device; the default tolerance comes from the actual dtype
    (see ``pyasc.testing.tolerances``).
    """
    cmp = compare(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan, check_dtype=check_dtype)
    if not cmp.ok:
        raise MismatchError(cmp.report(msg or "tensors are not close"))
    return cmp
