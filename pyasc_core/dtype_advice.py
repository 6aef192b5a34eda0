"""Which dtype an error should tell the user to cast to: one the backend's registered kernel of the
op runs, reachable from the tensor's dtype by that backend's own cast kernel, so that following the
suggestion works (a fixed "x.astype('float32')" may name a dtype the backend cannot cast to or the
op cannot take there)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from . import dtypes as _dt
from .registry import REGISTRY

#: the order candidates are tried in: a dtype of the same kind first (integers stay integers when
#: the backend has an integer kernel), then the widest
_FLOAT_FIRST = ("float32", "float64", "bfloat16", "float16", "int64", "int32", "int16", "int8", "uint8", "bool")
_INT_FIRST = ("int64", "int32", "int16", "float32", "float64", "int8", "uint8", "bfloat16", "float16", "bool")


def _declared(fn: Any) -> tuple[np.dtype, ...] | None:
    """The dtypes a registered kernel says it takes (its ``dtypes``: a tuple, or a function
    returning one), None when it does not say."""
    ds = getattr(fn, "dtypes", None)
    if callable(ds):
        ds = ds()
    return None if ds is None else tuple(np.dtype(d) for d in ds)


def kernel_dtypes(op: str, backend: str) -> tuple[np.dtype, ...] | None:
    """The input dtypes the kernel registered for ``op`` on ``backend`` takes; None when the
    backend has no registered kernel for it or the kernel does not say (then nothing is known)."""
    REGISTRY.ensure()
    k = REGISTRY.kernels.get((op, backend))
    return None if k is None else _declared(k.fn)


def cast_targets(backend: str, src: np.dtype) -> tuple[np.dtype, ...] | None:
    """The dtypes ``backend``'s cast kernel converts ``src`` to: its ``cast_targets(src)`` when the
    kernel has one, else (a kernel that only lists its dtypes) those dtypes when ``src`` is one of
    them; None when the backend registers no cast kernel (the reference backends cast anything)."""
    REGISTRY.ensure()
    k = REGISTRY.kernels.get(("pyasc::cast", backend))
    if k is None:
        return None
    targets = getattr(k.fn, "cast_targets", None)
    if callable(targets):
        return tuple(np.dtype(d) for d in targets(np.dtype(src)))
    ds = _declared(k.fn)
    if ds is None:
        return None
    return ds if np.dtype(src) in ds else ()


def suggest_dtype(op: str, backend: str, src: Any, allowed: Iterable[Any] | None = None) -> np.dtype | None:
    """A dtype to cast a ``src`` tensor to so that ``op`` runs on ``backend``: one its kernel there
    takes (and ``allowed`` lists, when given: the op's schema), other than ``src``, which the
    backend's cast kernel reaches from ``src``. None when there is none."""
    src = np.dtype(src)
    candidates = [np.dtype(d) for d in (_dt.ALL_DTYPES if allowed is None else allowed)]
    takes = kernel_dtypes(op, backend)
    if takes is not None:
        candidates = [d for d in candidates if d in takes]
    reach = cast_targets(backend, src)
    if reach is not None:
        candidates = [d for d in candidates if d in reach]
    candidates = [d for d in candidates if d != src]
    order = _FLOAT_FIRST if src.kind in "fcV" else _INT_FIRST
    rank = {name: i for i, name in enumerate(order)}
    candidates.sort(key=lambda d: rank.get(_dt.dtype_name(d), len(order)))
    return candidates[0] if candidates else None


def cast_hint(op: str, backend: str, src: Any, allowed: Iterable[Any] | None = None, var: str = "x") -> str:
    """The "cast first" part of an error message: ``x.astype('<dtype>')`` with the dtype
    :func:`suggest_dtype` picks, or the advice to run elsewhere when no cast helps."""
    d = suggest_dtype(op, backend, src, allowed)
    elsewhere = "" if backend == "numpy" else "run it on the reference with .to('numpy')"
    if d is None:
        none = f"no cast of {_dt.dtype_name(np.dtype(src))} makes it run on {backend}"
        return f"{none}: {elsewhere}" if elsewhere else none
    return f"cast first, e.g. {var}.astype({_dt.dtype_name(d)!r})" + (f", or {elsewhere}" if elsewhere else "")
