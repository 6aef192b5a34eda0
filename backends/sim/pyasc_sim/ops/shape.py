"""Shape family (kernels/copy.cpp): strided copies for broadcasting, transpose and permutes;
reshape is an alias of the same device memory (like a NumPy view).

Broadcasting is materialised: an operand whose shape differs from the output's is first copied to
the output's shape by the copy kernel with stride 0 along broadcast dimensions, so the elementwise
kernels only ever see equal-length, contiguous operands."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pyasc_core.errors import ShapeError
from pyasc_core.tensor import Tensor

from . import _runtime as rt

MAX_DIMS = 8
_KERNEL_BY_SIZE = {1: "copy_b8", 2: "copy_b16", 4: "copy_b32", 8: "copy_b64"}
CHUNK_BYTES = 16384


def contiguous_strides(shape: Sequence[int]) -> list[int]:
    strides, acc = [], 1
    for s in reversed(shape):
        strides.append(acc)
        acc *= int(s)
    return strides[::-1]


def _simplify(shape: Sequence[int], strides: Sequence[int]) -> tuple[list[int], list[int]]:
    """Drop size-1 dimensions and merge neighbours that are contiguous with each other."""
    dims = [(int(s), int(st)) for s, st in zip(shape, strides) if s != 1]
    if not dims:
        return [1], [1]
    out = [dims[0]]
    for s, st in dims[1:]:
        ps, pst = out[-1]
        if pst == st * s:
            out[-1] = (ps * s, st)
        else:
            out.append((s, st))
    return [s for s, _ in out], [st for _, st in out]


def strided_copy(x: Tensor, out_shape: Sequence[int], in_strides: Sequence[int]) -> Tensor:
    """A new contiguous tensor of ``out_shape`` whose element at index i is x's flat element
    sum(i[d] * in_strides[d]) (stride 0 broadcasts)."""
    device = x._device
    dtype = x._data.dtype
    out = rt.new_tensor(out_shape, dtype, device)
    total = rt.size_of(out_shape)
    if total == 0:
        return out
    shape, strides = _simplify(out_shape, in_strides)
    if len(shape) > MAX_DIMS:
        raise ShapeError(f"the sim copy kernel handles up to {MAX_DIMS} non-trivial dimensions; got shape "
                         f"{tuple(out_shape)} with strides {tuple(in_strides)}")
    item = dtype.itemsize
    cols = shape[-1]
    rows = total // cols
    per_block = 32 // item  # elements per 32-byte block
    chunk = min(CHUNK_BYTES // item, -(-cols // per_block) * per_block)
    chunks_per_row = -(-cols // chunk)
    units = rows * chunks_per_row
    blocks, per_core = rt.split(units, align=1, min_per_core=max(1, (rt.MIN_PER_CORE // chunk)))
    pad = [0] * (MAX_DIMS - len(shape))
    tiling = rt.pack(len(shape), rows, cols, chunk, chunks_per_row, per_core, units, 0,
                     *shape, *pad, *strides, *pad)
    rt.launch(device, "copy", _KERNEL_BY_SIZE[item], blocks, (x, out), tiling)
    return out


def expand(x: Tensor, shape: Sequence[int]) -> Tensor:
    """x broadcast to ``shape`` as a contiguous tensor (x itself when it already has that shape)."""
    shape = tuple(int(s) for s in shape)
    xs = x._data.shape
    if xs == shape:
        return x
    own = contiguous_strides(xs)
    lead = len(shape) - len(xs)
    strides = [0] * lead + [0 if s == 1 and t != 1 else st for s, t, st in zip(xs, shape[lead:], own)]
    if rt.size_of(xs) == rt.size_of(shape):  # only size-1 axes added or removed: same memory
        return rt.alias(x, shape)
    return strided_copy(x, shape, strides)


def transpose_kernel(meta: Any, x: Tensor, axes: Sequence[int] | None) -> Tensor:
    nd = len(x._data.shape)
    if axes is None:
        axes = tuple(range(nd))[::-1]
    axes = tuple(a % nd for a in axes) if nd else ()
    if nd == 0:
        return contiguous_copy(x)
    own = contiguous_strides(x._data.shape)
    return strided_copy(x, meta.shape, [own[a] for a in axes])


def reshape_kernel(meta: Any, x: Tensor, shape: Sequence[int]) -> Tensor:
    return rt.alias(x, meta.shape)


def contiguous_copy(x: Tensor) -> Tensor:
    shape = x._data.shape
    return strided_copy(x, shape, contiguous_strides(shape))


def permute(x: Tensor, axes: Sequence[int]) -> Tensor:
    """x with its axes permuted (a copy unless the permutation is the identity)."""
    if list(axes) == list(range(len(axes))):
        return x
    shape = x._data.shape
    own = contiguous_strides(shape)
    return strided_copy(x, [shape[a] for a in axes], [own[a] for a in axes])


KERNELS = {
    "pyasc::transpose": transpose_kernel,
    "pyasc::reshape": reshape_kernel,
}
