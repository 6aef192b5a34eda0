"""Reduction family (kernels/reduce.cpp): sum, mean, max, min over any axes.

The kernel reduces the last axis of a (rows, cols) view; other axes are first permuted to the end
by the copy kernel (the kept axes keep their order), so any set of axes becomes one trailing
block of length cols. max / min of bool and 8/16-bit integers reduce in float32 (every value is
exact there and the result is one of them) and cast back; ReduceMax / ReduceMin take no integers."""

from __future__ import annotations

from typing import Any

import numpy as np

from pyasc_core import dtypes as dt
from pyasc_core.shape_rules import normalize_axes
from pyasc_core.tensor import Tensor

from . import _runtime as rt
from . import tilings as tl
from .elementwise import FLOATS, cast_kernel, to_dtype
from .shape import permute

CHUNK = 4096
#: dtypes max / min reduce exactly in float32 (values within 2^24)
EXACT_IN_FLOAT = (dt.bool_, dt.uint8, dt.int8, dt.int16)


def dtypes_of(name: str) -> tuple[Any, ...]:
    """The input dtypes reduce_kernel(name) runs."""
    return FLOATS + (EXACT_IN_FLOAT if name in ("max", "min") else ())
BATCH = 256


#: a row is cut into segments (reduced by the cores side by side, then combined by a second
#: launch) when there are fewer rows than cores and each segment keeps at least this many elements
MIN_SEGMENT = 1 << 16


def segments_of(rows: int, cols: int, op: str, dtype: Any, cores: int) -> int:
    """How many equal segments to cut each row into so that every core gets work: a divisor of cols
    (segments of whole 32-byte blocks, >= MIN_SEGMENT elements), 1 when the rows already spread.
    16-bit sums and means stay whole (their partial results would round to the 16-bit type)."""
    if rows >= cores or cols < 2 * MIN_SEGMENT or (dtype != dt.float32 and op in ("sum", "mean")):
        return 1
    want = -(-cores // rows)
    best = 1
    for parts in range(2, cols // MIN_SEGMENT + 1):
        seg, rem = divmod(cols, parts)
        if rem or seg % 8:
            continue
        best = parts
        if parts >= want:
            break
    return best


#: (device, rows, cols, op, dtype, cores, the module's sizes) -> the launches reduce_rows makes:
#: decided, packed and uploaded once per shape (cleared with the kernels, ``KERNELS.clear``)
_PLANS: dict[Any, tuple[tuple[int, int, int, Any], ...]] = rt.plan_cache()
#: plans apply only while the block split is the glue's own (a test may replace it)
_SPLIT = rt.split


def _levels(device: Any, rows: int, cols: int, op: str, dtype: Any) -> list[tuple[int, int, int, Any]]:
    """The launches reducing each row of a (rows, cols) tensor, in order: (rows, cols, blocks,
    tiling) per level. A few long rows are cut into equal segments reduced side by side (the op over
    segments), then the segments' results are reduced per row (a mean: the mean of the equal
    segments' means); rows == 0 is one level with no launch (blocks 0)."""
    if rows > 0:
        parts = segments_of(rows, cols, op, dtype, rt.vector_cores(device))
        if parts > 1:
            return _levels(device, rows * parts, cols // parts, op, dtype) + _levels(device, rows, parts, op, dtype)
    if rows == 0:
        return [(0, cols, 0, None)]
    # each core's results are whole 32-byte blocks of out (8 float32 / 16 half values); long rows take
    # few rows per core, so a few long rows (a segmented sum's 64 segments) still spread over enough
    # blocks for the host threads to share them evenly (16 rows a core made 4 blocks of 16M elements)
    align = max(1, 32 // np.dtype(dtype).itemsize)
    blocks, per_core = rt.split(rows, align=align, min_per_core=max(align, rt.MIN_PER_CORE // max(cols, 1)),
                                cores=rt.vector_cores(device))
    chunk = min(CHUNK, -(-cols // 64) * 64)
    tiling = tl.ReduceTiling(rows=rows, cols=cols, rowsPerCore=per_core, chunk=chunk,
                             batch=min(BATCH, -(-per_core // 16) * 16))
    return [(rows, cols, blocks, tiling)]


def _plan(device: Any, rows: int, cols: int, op: str, dtype: Any) -> tuple[tuple[int, int, int, Any], ...]:
    """_levels, cached per shape with its tilings pinned (uploaded once) while rt.split is the glue's."""
    key = (device, rows, cols, op, dtype, rt.vector_cores(device), CHUNK, BATCH, MIN_SEGMENT)
    plan = _PLANS.get(key)
    if plan is None or rt.split is not _SPLIT:
        plan = tuple(_levels(device, rows, cols, op, dtype))
        if rt.split is _SPLIT:
            if len(_PLANS) >= rt._PLANS_LIMIT:
                rt.unpin_tilings(t for old in _PLANS.values() for _, _, _, t in old if t is not None)
                _PLANS.clear()
            plan = _PLANS[key] = tuple((r, c, b, t if t is None else rt.pin_tiling(device, t)) for r, c, b, t in plan)
    return plan


def reduce_rows(x: Tensor, rows: int, cols: int, op: str, dtype: Any) -> Tensor:
    """(rows,) results of reducing each row of the contiguous (rows, cols) tensor x (of any shape with
    rows * cols elements; the launches of :func:`_levels`). Every level's output is made first and the launches follow back to back, so a
    segmented reduction's second launch is queued right behind the first (the stream worker posts
    launches queued together in one request to the device)."""
    device = x._device
    plan = _plan(device, rows, cols, op, dtype)
    outs = [rt.new_tensor((r,), dtype, device) for r, _, _, _ in plan]
    if plan[0][2] == 0:  # no rows
        return outs[0]
    name = f"reduce_{op}_{rt.DTYPE_NAMES[dtype]}"
    src = x  # the kernel takes its (rows, cols) from the tiling: no (rows * parts, cols // parts) alias
    for (_, _, blocks, tiling), out in zip(plan, outs):
        rt.launch(device, "reduce", name, blocks, (src, out), tiling)
        src = out
    return outs[-1]


def reduce_kernel(name: str):
    op = f"pyasc::{name}"
    takes = dtypes_of(name)

    def kernel(meta: Any, x: Tensor, axis: Any, keepdims: bool) -> Tensor:
        device = x._device
        dtype = x._data.dtype
        if dtype not in takes:
            raise rt.no_kernel(op, device, f"dtype {dt.dtype_name(dtype)}", takes, dtype)
        if dtype not in FLOATS:  # max / min of a narrow integer: exact in float32
            wide = meta.__class__(meta.shape, dt.float32)
            return to_dtype(kernel(wide, to_dtype(x, dt.float32), axis, keepdims), dtype)
        shape = x._data.shape
        axes = normalize_axes(axis, len(shape)) if shape else ()
        if not axes:  # nothing to reduce (0-d input): a copy
            return rt.alias(cast_kernel(meta, x, dtype), meta.shape)
        kept = [a for a in range(len(shape)) if a not in axes]
        rows = rt.size_of([shape[a] for a in kept])
        cols = rt.size_of([shape[a] for a in axes])
        if rt.size_of(meta.shape) == 0:
            return rt.new_tensor(meta.shape, dtype, device)
        if cols == 0:  # the sum of nothing is 0, the mean of nothing NaN (max/min: the meta refused)
            return rt.full_tensor(meta.shape, 0.0 if name == "sum" else float("nan"), dtype, device)
        src = permute(x, kept + sorted(axes))
        return rt.alias(reduce_rows(src, rows, cols, name, dtype), meta.shape)

    kernel.__name__ = f"sim_{name}"
    return kernel


KERNELS = {f"pyasc::{n}": reduce_kernel(n) for n in ("sum", "mean", "max", "min")}
