"""Elementwise families: binary arithmetic (kernels/binary.cpp), power (pow.cpp), comparisons
(compare.cpp), unary math (unary.cpp), cast (cast.cpp) and where (where.cpp).

Operands are first brought to the kernel's dtype with the cast kernel (type promotion, as the
meta function decided) and to the output's shape with the copy kernel (broadcasting); a Python
scalar travels in the tiling struct instead of being materialised."""

from __future__ import annotations

from typing import Any

import numpy as np

from pyasc_core import dtypes as dt
from pyasc_core.errors import ArgumentError
from pyasc_core.tensor import Tensor, wrap_storage
from pyasc_core.tiling import TilingStruct

from . import _runtime as rt
from . import tilings as tl
from .shape import expand

TILE = 4096  # elements per tile of every elementwise kernel (UB use is below 140 KiB for all dtypes)

FLOATS = (dt.float16, dt.bfloat16, dt.float32)
BINARY_DTYPES = {
    "add": FLOATS + (dt.int32,), "sub": FLOATS + (dt.int32,), "mul": FLOATS + (dt.int32,),
    "div": FLOATS, "maximum": FLOATS + (dt.int32,), "minimum": FLOATS + (dt.int32,),
}
BINARY_MODE = {"tensor": 0, "scalar_y": 1, "scalar_x": 2}
POW_DTYPES = FLOATS + (dt.int32,)
#: pow (kernels/pow.cpp) keeps 16 float temporaries of a tile in UB: a smaller tile (176 KiB of 192)
POW_TILE = 2048
#: dtypes cast.cpp converts between (bool is one byte 0/1)
CAST_DTYPES = (dt.bool_, dt.uint8, dt.int8, dt.int32, dt.float16, dt.bfloat16, dt.float32)
#: comparisons run in the promoted dtype; these are widened exactly to one the kernel takes
COMPARE_WIDEN = {dt.bool_: dt.int32, dt.uint8: dt.int32, dt.int8: dt.int32}
COMPARE_DTYPES = FLOATS + (dt.int32,)
UNARY_INT = {"neg", "abs", "relu"}
WHERE_DTYPES = FLOATS + (dt.int32,)
_SWAP = {"lt": "gt", "gt": "lt", "le": "ge", "ge": "le", "eq": "eq", "ne": "ne"}


_TILINGS: dict[Any, TilingStruct] = {}
#: what a launch plan skips: plans apply only while these are the glue's own (not replaced, e.g.
#: by a test that changes the block split or records launches)
_LAUNCH, _SPLIT = rt.launch, rt.split
_TILINGS_LIMIT = 1024


def _elementwise_tiling(device: Any, n: int, struct: type[TilingStruct], tile: int = TILE,
                        **fields: int) -> tuple[int, TilingStruct]:
    """(blocks, ``struct``) splitting ``n`` elements over the vector cores in tiles of ``tile``.
    The struct is cached per content and pinned (uploaded once), so a repeated launch shape packs
    and uploads nothing (the tiling hot path of every elementwise op). Cached structs are shared:
    never change one."""
    blocks, per_core = rt.split(n, cores=rt.vector_cores(device))
    key = (device, n, struct, per_core, min(tile, per_core), *fields.items())
    tiling = _TILINGS.get(key)
    if tiling is None:
        tiling = struct(totalLength=n, perCore=per_core, tileLength=min(tile, per_core), **fields)
        if len(_TILINGS) >= _TILINGS_LIMIT:
            _TILINGS.clear()
            rt.unpin_tilings()
        tiling = _TILINGS[key] = rt.pin_tiling(device, tiling)
    return blocks, tiling


def to_dtype(x: Tensor, dtype: np.dtype) -> Tensor:
    """x converted to ``dtype`` on the device (x itself when it already has it)."""
    src = x._data.dtype
    if src == dtype:
        return x
    if src not in CAST_DTYPES or dtype not in CAST_DTYPES:
        raise rt.no_kernel("pyasc::cast", x._device, f"{dt.dtype_name(src)} -> {dt.dtype_name(dtype)}",
                           CAST_DTYPES)
    out = rt.new_tensor(x._data.shape, dtype, x._device)
    n = rt.size_of(x._data.shape)
    if n:
        blocks, tiling = _elementwise_tiling(x._device, n, tl.CastTiling)
        name = f"cast_{rt.DTYPE_NAMES[src]}_{rt.DTYPE_NAMES[dtype]}"
        rt.launch(x._device, "cast", name, blocks, (x, out), tiling)
    return out


def _operand(x: Tensor, dtype: np.dtype, shape: tuple[int, ...]) -> Tensor:
    return expand(to_dtype(x, dtype), shape)


def scalar_bits(op: str, value: Any, dtype: np.dtype) -> int:
    """A Python scalar as the kernel's 32-bit scalar field for ``dtype``."""
    if dtype in FLOATS:
        return rt.float_bits(float(value))
    v = int(value)
    if not -(2**31) <= v < 2**31:
        raise ArgumentError(
            f"{op}: the Python scalar {value} does not fit the int32 tensor it meets; a Python scalar "
            "must fit the integer dtype of the tensor. Cast the tensor to a wider dtype first, e.g. "
            "x.astype('int64') (on the reference backend), or use a float scalar"
        )
    return v & 0xFFFFFFFF


def _check_pow_scalar(x: Any, y: Any, dtype: np.dtype) -> None:
    """Integer pow refuses negative powers like the reference (checked for a Python scalar y; an
    int32 tensor of exponents is not read back: negative entries give x ** y truncated to an integer)."""
    if dtype in dt.INTEGER and not isinstance(y, Tensor) and int(y) < 0:
        raise ArgumentError(
            "pyasc::pow: integer tensors cannot be raised to negative integer powers; "
            "cast to a floating dtype first, e.g. x.astype('float32')"
        )


def _uniform_exponent(x: Any, y: Any, out_shape: tuple[int, ...]) -> bool:
    """True when NumPy's power loop sees y as one value (stride 0): a Python scalar, a 0-d tensor, a
    one-element tensor broadcast over more elements, or one element outside NumPy's trivial loop
    (which needs every operand 0-d or of the output's shape). NumPy then takes sqrt for y == 0.5,
    and so does kernels/pow.cpp (they differ at x = -inf)."""
    if not isinstance(y, Tensor):
        return True
    ys = tuple(y._data.shape)
    if rt.size_of(ys) != 1:
        return False
    if len(ys) == 0 or rt.size_of(out_shape) > 1:
        return True
    xs = tuple(x._data.shape) if isinstance(x, Tensor) else ()
    trivial = (len(xs) == 0 or xs == tuple(out_shape)) and ys == tuple(out_shape)
    return not trivial


def binary_kernel(name: str, family: str = "binary", supported: tuple[np.dtype, ...] | None = None,
                  tile: int = TILE):
    op = f"pyasc::{name}"
    supported = BINARY_DTYPES[name] if supported is None else supported
    prefix = "binary_" if family == "binary" else ""

    plans: dict[Any, tuple[Any, int, Tensor, Any]] = rt.plan_cache()

    def kernel(meta: Any, x: Any, y: Any) -> Tensor:
        if type(x) is Tensor and type(y) is Tensor:  # a launch plan for this (dtype, shape, device)
            xd, yd = x._data, y._data
            device = x._device
            plan = plans.get((meta.dtype, meta.shape, xd.dtype, xd.shape, yd.dtype, yd.shape, device))
            if plan is not None and rt.launch is _LAUNCH and rt.split is _SPLIT:
                fn, blocks, buf, backend = plan
                out = wrap_storage(backend.empty(meta.shape, meta.dtype, device), device, backend)
                fn(blocks, x, y, out, 0, buf)
                return out
        device = rt.device_of(x, y)
        dtype = meta.dtype
        if dtype not in supported:
            raise rt.no_kernel(op, device, f"result dtype {dt.dtype_name(dtype)}", supported)
        if name == "pow":
            _check_pow_scalar(x, y, dtype)
        out = rt.new_tensor(meta.shape, dtype, device)
        n = rt.size_of(meta.shape)
        if n == 0:
            return out
        if isinstance(x, Tensor) and isinstance(y, Tensor):
            args, mode, bits = (_operand(x, dtype, meta.shape), _operand(y, dtype, meta.shape)), 0, 0
        elif isinstance(x, Tensor):
            args, mode, bits = (_operand(x, dtype, meta.shape), 0), 1, scalar_bits(op, y, dtype)
        else:
            args, mode, bits = (0, _operand(y, dtype, meta.shape)), 2, scalar_bits(op, x, dtype)
        if name == "pow":
            blocks, tiling = _elementwise_tiling(device, n, tl.PowTiling, tile, mode=mode, scalarBits=bits,
                                                 uniformY=int(_uniform_exponent(x, y, tuple(meta.shape))))
        else:
            blocks, tiling = _elementwise_tiling(device, n, tl.BinaryTiling, tile, mode=mode, scalarBits=bits)
        kname = f"{prefix}{name}_{rt.DTYPE_NAMES[dtype]}"
        rt.launch(device, family, kname, blocks, (*args, out), tiling)
        if name != "pow" and mode == 0 and args[0] is x and args[1] is y:  # no cast, no broadcast
            rt.remember_plan(plans, (dtype, meta.shape, x._data.dtype, x._data.shape, y._data.dtype,
                                     y._data.shape, device), device, family, kname, blocks, tiling)
        return out

    kernel.__name__ = f"sim_{name}"
    return kernel


def _promoted(x: Any, y: Any) -> np.dtype:
    return dt.result_type(*(a._data.dtype if isinstance(a, Tensor) else type(a) for a in (x, y)))


def compare_kernel(name: str):
    op = f"pyasc::{name}"

    def kernel(meta: Any, x: Any, y: Any) -> Tensor:
        device = rt.device_of(x, y)
        dtype = _promoted(x, y)
        dtype = COMPARE_WIDEN.get(dtype, dtype)
        if dtype not in COMPARE_DTYPES:
            raise rt.no_kernel(op, device, f"operands of dtype {dt.dtype_name(dtype)}",
                               "bool, uint8, int8, int32, float16, bfloat16, float32")
        out = rt.new_tensor(meta.shape, dt.bool_, device)
        n = rt.size_of(meta.shape)
        if n == 0:
            return out
        kname = name
        if not isinstance(x, Tensor):  # s OP y  ->  y SWAPPED(OP) s
            x, y, kname = y, x, _SWAP[name]
        if isinstance(y, Tensor):
            args, mode, bits = (_operand(x, dtype, meta.shape), _operand(y, dtype, meta.shape)), 0, 0
        else:
            args, mode, bits = (_operand(x, dtype, meta.shape), 0), 1, scalar_bits(op, y, dtype)
        blocks, tiling = _elementwise_tiling(device, n, tl.CompareTiling, mode=mode, scalarBits=bits)
        rt.launch(device, "compare", f"compare_{kname}_{rt.DTYPE_NAMES[dtype]}", blocks, (*args, out), tiling)
        return out

    kernel.__name__ = f"sim_{name}"
    return kernel


def unary_kernel(name: str):
    op = f"pyasc::{name}"
    supported = FLOATS + ((dt.int32,) if name in UNARY_INT else ())

    plans: dict[Any, tuple[Any, int, Tensor, Any]] = rt.plan_cache()

    def kernel(meta: Any, x: Tensor) -> Tensor:
        device = x._device
        dtype = x._data.dtype
        plan = plans.get((dtype, meta.shape, device))
        if plan is not None and rt.launch is _LAUNCH and rt.split is _SPLIT:  # the launch plan
            fn, blocks, buf, backend = plan
            out = wrap_storage(backend.empty(meta.shape, dtype, device), device, backend)
            fn(blocks, x, out, 0, buf)
            return out
        if dtype not in supported:
            raise rt.no_kernel(op, device, f"dtype {dt.dtype_name(dtype)}", supported)
        out = rt.new_tensor(meta.shape, dtype, device)
        n = rt.size_of(meta.shape)
        if n:
            blocks, tiling = _elementwise_tiling(device, n, tl.UnaryTiling)
            kname = f"unary_{name}_{rt.DTYPE_NAMES[dtype]}"
            rt.launch(device, "unary", kname, blocks, (x, out), tiling)
            rt.remember_plan(plans, (dtype, meta.shape, device), device, "unary", kname, blocks, tiling)
        return out

    kernel.__name__ = f"sim_{name}"
    return kernel


def cast_kernel(meta: Any, x: Tensor, dtype: Any) -> Tensor:
    src, dst = x._data.dtype, meta.dtype
    if src == dst:  # a copy, as NumPy's astype
        out = rt.new_tensor(meta.shape, dst, x._device)
        n = rt.size_of(meta.shape)
        if n and src in CAST_DTYPES:
            blocks, tiling = _elementwise_tiling(x._device, n, tl.CastTiling)
            name = f"cast_{rt.DTYPE_NAMES[src]}_{rt.DTYPE_NAMES[dst]}"
            rt.launch(x._device, "cast", name, blocks, (x, out), tiling)
            return out
        if n:
            from .shape import contiguous_copy

            return contiguous_copy(x)
        return out
    return to_dtype(x, dst)


def where_kernel(meta: Any, cond: Tensor, x: Any, y: Any) -> Tensor:
    device = rt.device_of(cond, x, y)
    dtype = meta.dtype
    if dtype not in WHERE_DTYPES:
        raise rt.no_kernel("pyasc::where", device, f"result dtype {dt.dtype_name(dtype)}", WHERE_DTYPES)
    out = rt.new_tensor(meta.shape, dtype, device)
    n = rt.size_of(meta.shape)
    if n == 0:
        return out

    def operand(v: Any) -> Tensor:
        if isinstance(v, Tensor):
            return _operand(v, dtype, meta.shape)
        if dtype == dt.int32:
            scalar_bits("pyasc::where", v, dtype)  # range check
        return rt.full_tensor(meta.shape, v, dtype, device)

    c = expand(cond, meta.shape)
    blocks, tiling = _elementwise_tiling(device, n, tl.WhereTiling)
    rt.launch(device, "where", f"where_{rt.DTYPE_NAMES[dtype]}", blocks, (c, operand(x), operand(y), out), tiling)
    return out


KERNELS: dict[str, Any] = {}
for _name in BINARY_DTYPES:
    KERNELS[f"pyasc::{_name}"] = binary_kernel(_name)
KERNELS["pyasc::pow"] = binary_kernel("pow", family="pow", supported=POW_DTYPES, tile=POW_TILE)
for _name in _SWAP:
    KERNELS[f"pyasc::{_name}"] = compare_kernel(_name)
for _name in ("neg", "abs", "exp", "log", "sqrt", "rsqrt", "relu", "sigmoid", "tanh", "gelu", "silu"):
    KERNELS[f"pyasc::{_name}"] = unary_kernel(_name)
KERNELS["pyasc::cast"] = cast_kernel
KERNELS["pyasc::where"] = where_kernel
