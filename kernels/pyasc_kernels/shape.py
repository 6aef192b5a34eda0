"""Shape family (kernels/copy.cpp): strided copies for broadcasting, permutes and strided views;
transpose and reshape return views of the same device memory (like NumPy's), reshape copies only
when the view cannot be expressed with strides (NumPy's rule).

Broadcasting is materialised: an operand whose shape differs from the output's is first copied to
the output's shape by the copy kernel with stride 0 along broadcast dimensions, so the elementwise
kernels only ever see equal-length, contiguous operands."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pyasc_core import views
from pyasc_core.errors import ShapeError
from pyasc_core.tensor import Tensor, wrap_storage

from . import _runtime as rt
from . import tilings as tl

MAX_DIMS = 8
_KERNEL_BY_SIZE = {1: "copy_b8", 2: "copy_b16", 4: "copy_b32", 8: "copy_b64"}
CHUNK_BYTES = 16384
# transposes (copy.cpp's tiled path): tiles of at most TILE_ROWS x (TILE_BYTES / item / TILE_ROWS)
TILE_BYTES = 16384
TILE_ROWS = 64


def contiguous_strides(shape: Sequence[int]) -> list[int]:
    return list(views.contiguous_strides(shape))


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


def _transpose_axis(shape: Sequence[int], strides: Sequence[int], item: int) -> int:
    """1 + the output axis that copy.cpp tiles as rows for a transpose (an axis other than the last
    whose input stride is 1, the last one of them), or 0 for the row path: a last-axis stride of 0
    or 1, 1-byte elements (Gather has no 8-bit form on Atlas A2) or no such axis."""
    if item == 1 or len(shape) < 2 or strides[-1] in (0, 1):
        return 0
    for d in range(len(shape) - 2, -1, -1):
        if strides[d] == 1:
            return d + 1
    return 0


def strided_copy(x: Tensor, out_shape: Sequence[int], in_strides: Sequence[int], in_offset: int = 0) -> Tensor:
    """A new contiguous tensor of ``out_shape`` whose element at index i is the element
    ``in_offset + sum(i[d] * in_strides[d])`` of x's block (stride 0 broadcasts; x may be a view:
    offsets and strides count from its block's start)."""
    device = x._device
    dtype = x._data.dtype
    out = rt.new_tensor(out_shape, dtype, device)
    total = rt.size_of(out_shape)
    if total == 0:
        return out
    # the kernel reads from the lowest element the copy reaches, so every index is >= 0
    lo, hi = views.extent(out_shape, in_strides, in_offset)
    src = x._data.view((hi - lo,), None, lo)
    shape, strides = _simplify(out_shape, in_strides)
    if in_offset - lo >= 2**32 or any(abs(st) >= 2**31 for st in strides):
        raise ShapeError(f"the sim copy kernel takes element offsets below 2**32 and strides below 2**31; got "
                         f"offset {in_offset - lo} and strides {tuple(in_strides)} (shape {tuple(out_shape)})")
    if len(shape) > MAX_DIMS:
        raise ShapeError(f"the sim copy kernel handles up to {MAX_DIMS} non-trivial dimensions; got shape "
                         f"{tuple(out_shape)} with strides {tuple(in_strides)}")
    item = dtype.itemsize
    cols = shape[-1]
    rows = total // cols
    per_block = 32 // item  # elements per 32-byte block
    t_axis = _transpose_axis(shape, strides, item)
    if t_axis:
        n = shape[t_axis - 1]
        tile_rows = min(TILE_ROWS, n)
        chunk = min(TILE_BYTES // item // TILE_ROWS, -(-cols // per_block) * per_block)
        tiles_per_axis = -(-n // tile_rows)
        chunks_per_row = -(-cols // chunk)
        units = rows // n * tiles_per_axis * chunks_per_row
        unit_elems = tile_rows * chunk
    else:
        tile_rows = tiles_per_axis = 0
        chunk = min(CHUNK_BYTES // item, -(-cols // per_block) * per_block)
        chunks_per_row = -(-cols // chunk)
        units = rows * chunks_per_row
        unit_elems = chunk
    blocks, per_core = rt.split(units, align=1, min_per_core=max(1, (rt.MIN_PER_CORE // unit_elems)),
                                 cores=rt.vector_cores(device))
    pad = [0] * (MAX_DIMS - len(shape))
    tiling = tl.CopyTiling(ndim=len(shape), rows=rows, cols=cols, chunk=chunk, chunksPerRow=chunks_per_row,
                           unitsPerCore=per_core, totalUnits=units, inOffset=in_offset - lo,
                           outShape=(*shape, *pad), inStride=(*strides, *pad), tAxis=t_axis,
                           tileRows=tile_rows, tilesPerAxis=tiles_per_axis)
    rt.launch(device, "copy", _KERNEL_BY_SIZE[item], blocks, (src, out), tiling)
    return out


def expand(x: Tensor, shape: Sequence[int]) -> Tensor:
    """x broadcast to ``shape`` as a contiguous tensor (x itself when it already has that shape)."""
    shape = tuple(int(s) for s in shape)
    d = x._data
    xs = d.shape
    if xs == shape:
        return x
    lead = len(shape) - len(xs)
    strides = [0] * lead + [0 if s == 1 and t != 1 else st for s, t, st in zip(xs, shape[lead:], d.strides)]
    if rt.size_of(xs) == rt.size_of(shape) and d.contiguous:  # only size-1 axes added or removed
        return rt.alias(x, shape)
    return strided_copy(x, shape, strides, d.offset)


def transpose_kernel(meta: Any, x: Tensor, axes: Sequence[int] | None) -> Tensor:
    """A view with permuted strides (no data moves)."""
    d = x._data
    nd = len(d.shape)
    if axes is None:
        axes = tuple(range(nd))[::-1]
    axes = tuple(a % nd for a in axes) if nd else ()
    shape, strides = views.permute(d.shape, d.strides, axes)
    return _wrap_view(x, d.view(shape, strides, d.offset))


def reshape_kernel(meta: Any, x: Tensor, shape: Sequence[int]) -> Tensor:
    """A view when strides can express the new shape (always for contiguous x), else a copy."""
    d = x._data
    strides = views.nocopy_reshape(d.shape, d.strides, meta.shape)
    if strides is None:
        return rt.alias(contiguous_copy(x), meta.shape)
    return _wrap_view(x, d.view(meta.shape, strides, d.offset))


transpose_kernel.pyasc_strided_inputs = True  # type: ignore[attr-defined]
reshape_kernel.pyasc_strided_inputs = True  # type: ignore[attr-defined]


def _wrap_view(x: Tensor, storage: Any) -> Tensor:
    return wrap_storage(storage, x._device)


def contiguous_copy(x: Tensor) -> Tensor:
    """A contiguous copy of x (a strided view or not) made on the device."""
    d = x._data
    return strided_copy(x, d.shape, d.strides, d.offset)


def gather(storage: Any) -> Any:
    """AclBackend.gather: a contiguous DeviceArray copy of a strided one, by the copy kernel."""
    return contiguous_copy(wrap_storage(storage, storage.device))._data


def permute(x: Tensor, axes: Sequence[int]) -> Tensor:
    """x with its axes permuted, as a contiguous copy (x itself for the identity permutation of a
    contiguous x)."""
    d = x._data
    if list(axes) == list(range(len(axes))) and d.contiguous:
        return x
    shape, strides = views.permute(d.shape, d.strides, axes)
    return strided_copy(x, shape, strides, d.offset)


KERNELS = {
    "pyasc::transpose": transpose_kernel,
    "pyasc::reshape": reshape_kernel,
}
