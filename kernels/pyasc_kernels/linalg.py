"""Matmul family (kernels/matmul.cpp): float16 / bfloat16 / float32 on the cube path (float
accumulation; float32 gets B transposed, as its 32-bit fractals cannot be transposed by the load),
or, with a kernel set that has no cube entries (Ascend310P), float32 on the vector path and float16
through it in float32; int32 on the vector path (8/16-bit integers compute in it and are cast back: the low bits of an
integer sum of products do not depend on the wider bits, so the result wraps like NumPy's).

NumPy semantics on the host: 1-D operands act as vectors, batch dimensions broadcast (the
broadcast operand is materialised by the copy kernel), the kernel sees (batch, M, K) @ (batch, K, N)."""

from __future__ import annotations

from typing import Any

import numpy as np

from pyasc_core import dtypes as dt
from pyasc_core.errors import KernelNotFoundError
from pyasc_core.shape_rules import broadcast_shapes
from pyasc_core.tensor import Tensor

from . import _runtime as rt
from . import tilings as tl
from .elementwise import to_dtype
from .shape import expand, permute

CUBE = (dt.float16, dt.bfloat16, dt.float32)
VECTOR = (dt.int32,)
#: integer dtypes that run on the int32 vector path and are cast back (wrapping, exact)
VECTOR_WIDEN = {dt.uint8: dt.int32, dt.int8: dt.int32, dt.int16: dt.int32}
CUBE_TILE = 128
CUBE_TILE_K32 = 64  # float32 K step: a 128 x 64 float tile fills half of L0A, as 128 x 128 half does
VEC_ROWS = 8
VEC_TILE_N = 1024


def _a16(v: int) -> int:
    return -(-v // 16) * 16


#: (device, kernel name) -> whether the installed matmul binary has it (cleared with the kernels)
_HAS = rt.plan_cache()


def _has_kernel(device: Any, name: str) -> bool:
    """Whether the installed matmul binary has kernel ``name`` on ``device``: a kernel set built for
    the Atlas inference series (Ascend310P) has no cube entries (no Fixpipe, no float Mmad there)."""
    key = (device, name)
    have = _HAS.get(key)
    if have is None:
        try:
            rt.KERNELS.function("matmul", name, device)
            have = True
        except KernelNotFoundError:
            have = False
        _HAS[key] = have
    return have


def _vec_tile_n(n: int, itemsize: int) -> int:
    """Columns per vector unit: up to VEC_TILE_N, whole 64-element groups, and never a last tile of
    C's rows shorter than one 32-byte block when there are several (such a run is a scalar write on
    Ascend310P, and the units of one row run on different cores: kernels/README.md)."""
    tn = min(VEC_TILE_N, -(-n // 64) * 64)
    while tn > 64 and 0 < n % tn < 32 // itemsize:
        tn -= 64
    return tn


def matmul_kernel(meta: Any, a: Tensor, b: Tensor) -> Tensor:
    device = a._device
    dtype = meta.dtype
    if dtype in VECTOR_WIDEN:
        return to_dtype(matmul_kernel(meta.__class__(meta.shape, VECTOR_WIDEN[dtype]), a, b), dtype)
    if dtype not in CUBE + VECTOR:
        raise rt.no_kernel("pyasc::matmul", device, f"result dtype {dt.dtype_name(dtype)}",
                           CUBE + VECTOR + tuple(VECTOR_WIDEN), dtype)
    out_shape = meta.shape
    if rt.size_of(out_shape) == 0:
        return rt.new_tensor(out_shape, dtype, device)
    ash, bsh = a._data.shape, b._data.shape
    a2 = ash if len(ash) > 1 else (1,) + ash
    b2 = bsh if len(bsh) > 1 else bsh + (1,)
    m, k = a2[-2], a2[-1]
    n = b2[-1]
    batch_shape = broadcast_shapes(a2[:-2], b2[:-2])
    batch = rt.size_of(batch_shape)
    if k == 0:
        return rt.full_tensor(out_shape, 0, dtype, device)
    if dtype in VECTOR:
        return _matmul_vec(a, b, dtype, out_shape, a2, b2, batch_shape, device)
    if not _has_kernel(device, f"matmul_cube_{rt.DTYPE_NAMES[dtype]}"):
        # the Atlas inference series computes float matmul on the vector path (float32, compensated
        # sums); a 16-bit float runs it in float32 and rounds once, as the cube's float accumulation does
        if dtype == dt.float32:
            return _matmul_vec(a, b, dtype, out_shape, a2, b2, batch_shape, device)
        wide = meta.__class__(meta.shape, dt.float32)
        return to_dtype(matmul_kernel(wide, to_dtype(a, dt.float32), to_dtype(b, dt.float32)), dtype)
    av = expand(rt.alias(to_dtype(a, dtype), a2), batch_shape + (m, k))
    bv = expand(rt.alias(to_dtype(b, dtype), b2), batch_shape + (k, n))
    out = rt.new_tensor((batch, m, n), dtype, device)
    tk_max = CUBE_TILE_K32 if dtype == dt.float32 else CUBE_TILE
    tm, tn, tk = min(CUBE_TILE, _a16(m)), min(CUBE_TILE, _a16(n)), min(tk_max, _a16(k))
    cores, name = rt.cube_cores(device), f"matmul_cube_{rt.DTYPE_NAMES[dtype]}"
    if dtype == dt.float32:
        bv = permute(bv, (*range(len(batch_shape)), len(batch_shape) + 1, len(batch_shape)))
    units = batch * -(-m // tm) * -(-n // tn)
    blocks, per_core = rt.split(units, align=1, min_per_core=1, cores=cores)
    tiling = tl.MatmulTiling(batch=batch, m=m, n=n, k=k, tileM=tm, tileN=tn, tileK=tk, unitsPerCore=per_core,
                            totalUnits=units)
    rt.launch(device, "matmul", name, blocks, (av, bv, out), tiling)
    return rt.alias(out, out_shape)


def _matmul_vec(a: Tensor, b: Tensor, dtype: Any, out_shape: Any, a2: tuple, b2: tuple, batch_shape: tuple,
                device: Any) -> Tensor:
    """matmul_vec_<dtype>: (batch, VEC_ROWS rows, N tile) units over the vector cores."""
    m, k, n = a2[-2], a2[-1], b2[-1]
    batch = rt.size_of(batch_shape)
    av = expand(rt.alias(to_dtype(a, dtype), a2), batch_shape + (m, k))
    bv = expand(rt.alias(to_dtype(b, dtype), b2), batch_shape + (k, n))
    out = rt.new_tensor((batch, m, n), dtype, device)
    tm, tn = VEC_ROWS, _vec_tile_n(n, np.dtype(dtype).itemsize)
    units = batch * -(-m // tm) * -(-n // tn)
    blocks, per_core = rt.split(units, align=1, min_per_core=1, cores=rt.vector_cores(device))
    tiling = tl.MatmulTiling(batch=batch, m=m, n=n, k=k, tileM=tm, tileN=tn, tileK=0, unitsPerCore=per_core,
                            totalUnits=units)
    rt.launch(device, "matmul", f"matmul_vec_{rt.DTYPE_NAMES[dtype]}", blocks, (av, bv, out), tiling)
    return rt.alias(out, out_shape)


KERNELS = {"pyasc::matmul": matmul_kernel}
