"""Matmul family (kernels/matmul.cpp): float16 / bfloat16 / float32 on the cube path (float
accumulation; float32 gets B transposed, as its 32-bit fractals cannot be transposed by the load),
int32 on the vector path (8/16-bit integers compute in it and are cast back: the low bits of an
integer sum of products do not depend on the wider bits, so the result wraps like NumPy's).

NumPy semantics on the host: 1-D operands act as vectors, batch dimensions broadcast (the
broadcast operand is materialised by the copy kernel), the kernel sees (batch, M, K) @ (batch, K, N)."""

from __future__ import annotations

from typing import Any

from pyasc_core import dtypes as dt
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
    av = expand(rt.alias(to_dtype(a, dtype), a2), batch_shape + (m, k))
    bv = expand(rt.alias(to_dtype(b, dtype), b2), batch_shape + (k, n))
    out = rt.new_tensor((batch, m, n), dtype, device)
    if dtype in CUBE:
        tk_max = CUBE_TILE_K32 if dtype == dt.float32 else CUBE_TILE
        tm, tn, tk = min(CUBE_TILE, _a16(m)), min(CUBE_TILE, _a16(n)), min(tk_max, _a16(k))
        cores, name = rt.cube_cores(device), f"matmul_cube_{rt.DTYPE_NAMES[dtype]}"
        if dtype == dt.float32:
            bv = permute(bv, (*range(len(batch_shape)), len(batch_shape) + 1, len(batch_shape)))
    else:
        tm, tn, tk = VEC_ROWS, min(VEC_TILE_N, -(-n // 64) * 64), 0
        cores, name = rt.vector_cores(device), f"matmul_vec_{rt.DTYPE_NAMES[dtype]}"
    units = batch * -(-m // tm) * -(-n // tn)
    blocks, per_core = rt.split(units, align=1, min_per_core=1, cores=cores)
    tiling = tl.MatmulTiling(batch=batch, m=m, n=n, k=k, tileM=tm, tileN=tn, tileK=tk, unitsPerCore=per_core,
                            totalUnits=units)
    rt.launch(device, "matmul", name, blocks, (av, bv, out), tiling)
    return rt.alias(out, out_shape)


KERNELS = {"pyasc::matmul": matmul_kernel}
