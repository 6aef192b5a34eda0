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

TILE = 4096  # elements per tile of the elementwise kernels (LONG_TILE below for those without scratch; UB use < 140 KiB)

FLOATS = (dt.float16, dt.bfloat16, dt.float32)
#: the integer dtypes the vector unit's Add/Sub/Mul/Max/Min (and Adds/Muls/Maxs/Mins) take on Atlas A2
VECTOR_INTS = (dt.int16, dt.int32)
#: 8-bit integers have no vector arithmetic: they compute in int16 and are cast back, which wraps
#: modulo 256 exactly (cast.cpp), so the result is NumPy's (the low 8 bits of a sum, difference or
#: product do not depend on the wider bits; max / min / neg / abs / relu are exact in int16)
WIDEN_8 = {dt.uint8: dt.int16, dt.int8: dt.int16}
BINARY_DTYPES = {
    "add": FLOATS + VECTOR_INTS + tuple(WIDEN_8), "sub": FLOATS + VECTOR_INTS + tuple(WIDEN_8),
    "mul": FLOATS + VECTOR_INTS + tuple(WIDEN_8), "div": FLOATS,
    "maximum": FLOATS + VECTOR_INTS + tuple(WIDEN_8), "minimum": FLOATS + VECTOR_INTS + tuple(WIDEN_8),
}
BINARY_MODE = {"tensor": 0, "scalar_y": 1, "scalar_x": 2}
#: pow's integer kernel is int32 (binary exponentiation, wrapping): narrower integers compute in it
#: and are cast back (the low bits of a product mod 2^32 are those of the product mod 2^8 / 2^16)
POW_WIDEN = {dt.uint8: dt.int32, dt.int8: dt.int32, dt.int16: dt.int32}
POW_DTYPES = FLOATS + (dt.int32,) + tuple(POW_WIDEN)
#: pow (kernels/pow.cpp) keeps 16 float temporaries of a tile in UB: a smaller tile (176 KiB of 192)
POW_TILE = 2048
#: dtypes cast.cpp converts between (bool is one byte 0/1)
CAST_DTYPES = (dt.bool_, dt.uint8, dt.int8, dt.int16, dt.int32, dt.int64, dt.float16, dt.bfloat16, dt.float32)
#: casts from or to int64 move 8-byte elements: a smaller tile keeps the double-buffered queues in UB
CAST_TILE_64 = 2048
#: comparisons run in the promoted dtype; these are widened exactly to one the kernel takes
#: (Compare takes half, float and int32 on Atlas A2: no 8/16-bit integers)
COMPARE_WIDEN = {dt.bool_: dt.int32, dt.uint8: dt.int32, dt.int8: dt.int32, dt.int16: dt.int32}
COMPARE_DTYPES = FLOATS + (dt.int32,)
#: int32 lt/le/gt/ge keep four more tiles in UB (compare.cpp compares a - b in float from 16-bit halves)
COMPARE_ORDER_TILE = 2048
UNARY_INT = {"neg", "abs", "relu"}
#: kernels that keep no scratch buffer take tiles of this many elements: float32 unary ops whose kernel has no
#: calc buffer (unary.cpp, kCalc) and the direct float <-> half / bfloat16 casts (cast.cpp, kDirect). Two
#: VECIN and two VECOUT buffers of 32 KiB (+ relu's 1 KiB mask) fit UB, and half as many tiles halve the
#: per-tile instructions (with the sanitizer on, a 16M exp's device CPU 9.02 -> 8.43 ms: backends/sim/README.md)
LONG_TILE = 8192
UNARY_LONG_TILE_OPS = frozenset({"neg", "abs", "exp", "log", "sqrt", "rsqrt", "relu"})
CAST_LONG_TILE_PAIRS = frozenset({(dt.float32, dt.float16), (dt.float32, dt.bfloat16), (dt.float16, dt.float32),
                                  (dt.bfloat16, dt.float32)})
#: the integer dtypes of unary.cpp's neg / abs / relu (built from Muls, Max, Maxs)
UNARY_INT_DTYPES = VECTOR_INTS + tuple(WIDEN_8)
#: where selects 16- or 32-bit lanes
WHERE_DTYPES = FLOATS + VECTOR_INTS + (dt.bool_, dt.int64) + tuple(WIDEN_8)
#: where of 8-bit values selects 16-bit lanes (exact both ways)
WHERE_WIDEN = {dt.bool_: dt.int16, **WIDEN_8}
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
            rt.unpin_tilings(_TILINGS.values())
            _TILINGS.clear()
        tiling = _TILINGS[key] = rt.pin_tiling(device, tiling)
    return blocks, tiling


def to_dtype(x: Tensor, dtype: np.dtype) -> Tensor:
    """x converted to ``dtype`` on the device (x itself when it already has it)."""
    src = x._data.dtype
    if src == dtype:
        return x
    if src not in CAST_DTYPES or dtype not in CAST_DTYPES:
        from . import aicpu  # no AI Core cast for this pair: the AI CPU's, when installed

        if aicpu.available(x._device.type):
            from pyasc_core import placement

            placement.COUNTS[placement.AICPU] += 1
            return aicpu.to_dtype(x, dtype)
        raise rt.no_kernel("pyasc::cast", x._device, f"{dt.dtype_name(src)} -> {dt.dtype_name(dtype)}",
                           CAST_DTYPES)
    out = rt.new_tensor(x._data.shape, dtype, x._device)
    n = rt.size_of(x._data.shape)
    if n:
        blocks, tiling = _elementwise_tiling(x._device, n, tl.CastTiling, _cast_tile(src, dtype))
        name = f"cast_{rt.DTYPE_NAMES[src]}_{rt.DTYPE_NAMES[dtype]}"
        rt.launch(x._device, "cast", name, blocks, (x, out), tiling)
    return out


def _cast_tile(src: np.dtype, dst: np.dtype) -> int:
    if (src, dst) in CAST_LONG_TILE_PAIRS:
        return LONG_TILE
    return CAST_TILE_64 if dt.int64 in (src, dst) else TILE


def _operand(x: Tensor, dtype: np.dtype, shape: tuple[int, ...]) -> Tensor:
    return expand(to_dtype(x, dtype), shape)


def scalar_bits(op: str, value: Any, dtype: np.dtype) -> int:
    """A Python scalar as the kernel's 32-bit scalar field for ``dtype`` (an integer one: the value
    must fit ``dtype``, as NumPy refuses an out-of-range Python int with an integer array)."""
    if dtype in FLOATS:
        return rt.float_bits(float(value))
    v = int(value)
    info = np.iinfo(dtype)
    if not info.min <= v <= info.max:
        name = dt.dtype_name(dtype)
        wider = "int32" if info.bits < 32 else "float32"  # both run on the AI Core
        raise ArgumentError(
            f"{op}: the Python scalar {value} does not fit the {name} tensor it meets ({name} holds "
            f"{info.min}..{info.max}); a Python scalar must fit the integer dtype of the tensor. Cast the "
            f"tensor to a wider dtype first, e.g. x.astype({wider!r}), or use a float scalar"
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
                  tile: int = TILE, widen: dict[np.dtype, np.dtype] | None = None):
    op = f"pyasc::{name}"
    supported = BINARY_DTYPES[name] if supported is None else supported
    widen = WIDEN_8 if widen is None else widen
    prefix = "binary_" if family == "binary" else ""

    plans: dict[Any, tuple[Any, int, Tensor, Any]] = rt.plan_cache()

    def kernel(meta: Any, x: Any, y: Any) -> Tensor:
        if type(x) is Tensor and type(y) is Tensor:  # a launch plan for this (dtype, shape, device)
            xd, yd = x._data, y._data
            device = x._device
            plan = plans.get((meta.dtype, meta.shape, xd.dtype, xd.shape, yd.dtype, yd.shape, device))
            if plan is not None and rt.launch is _LAUNCH and rt.split is _SPLIT:
                fn, blocks, buf, new, _ = plan
                out = new(meta.shape, meta.dtype, device)
                fn(blocks, x, y, out, 0, buf)
                return out
        device = rt.device_of(x, y)
        dtype = meta.dtype
        if dtype not in supported:
            raise rt.no_kernel(op, device, f"result dtype {dt.dtype_name(dtype)}", supported, dtype)
        if name == "pow":
            _check_pow_scalar(x, y, dtype)
        if dtype in widen:  # compute in the wider dtype, wrap back (a Python scalar must fit dtype)
            for v in (x, y):
                if not isinstance(v, Tensor):
                    scalar_bits(op, v, dtype)
            return to_dtype(kernel(meta.__class__(meta.shape, widen[dtype]), x, y), dtype)
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

    def plan_call(meta: Any, args: tuple, count: Any = None) -> Any:
        """The launch plan of calls like ``kernel(meta, *args)`` (an rt.PlanCall), or None when
        such a call takes no plan; ``count``: the placement counter (rt.PlanCall)."""
        if len(args) != 2 or type(args[0]) is not Tensor or type(args[1]) is not Tensor:
            return None
        xd, yd = args[0]._data, args[1]._data
        device = args[0]._device
        plan = plans.get((meta.dtype, meta.shape, xd.dtype, xd.shape, yd.dtype, yd.shape, device))
        return None if plan is None else rt.plan_call(plan, meta.shape, meta.dtype, device, count)

    kernel.__name__ = f"sim_{name}"
    kernel.pyasc_plan_call = plan_call  # type: ignore[attr-defined]
    return kernel


def _promoted(x: Any, y: Any) -> np.dtype:
    return dt.result_type(*(a._data.dtype if isinstance(a, Tensor) else type(a) for a in (x, y)))


def compare_kernel(name: str):
    op = f"pyasc::{name}"

    def kernel(meta: Any, x: Any, y: Any) -> Tensor:
        device = rt.device_of(x, y)
        dtype = _promoted(x, y)
        dtype = COMPARE_WIDEN.get(dtype, dtype)
        if dtype == dt.int64 and name in ("eq", "ne"):
            return _compare_int64(meta, name, x, y)
        if dtype not in COMPARE_DTYPES:
            raise rt.no_kernel(op, device, f"operands of dtype {dt.dtype_name(dtype)}",
                               (*COMPARE_WIDEN, *COMPARE_DTYPES), dtype)
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
        tile = COMPARE_ORDER_TILE if dtype == dt.int32 and kname not in ("eq", "ne") else TILE
        blocks, tiling = _elementwise_tiling(device, n, tl.CompareTiling, tile, mode=mode, scalarBits=bits)
        rt.launch(device, "compare", f"compare_{kname}_{rt.DTYPE_NAMES[dtype]}", blocks, (*args, out), tiling)
        return out

    kernel.__name__ = f"sim_{name}"
    return kernel


def _int64_operand(v: Any, shape: tuple[int, ...], device: Any) -> Tensor:
    """v (a tensor, or a Python int that must fit int64) as a contiguous int64 tensor of ``shape``."""
    if isinstance(v, Tensor):
        return _operand(v, dt.int64, shape)
    return rt.full_tensor(shape, v, dt.int64, device)


def _pairs_of(t: Tensor, n: int) -> Tensor:
    """(n, 2): each element of contiguous ``t`` twice (the condition of both 32-bit halves of an int64)."""
    return expand(rt.alias(t, (n, 1)), (n, 2))


def _compare_int64(meta: Any, name: str, x: Any, y: Any) -> Tensor:
    """int64 == / != on the AI Core: compare_{eq,ne}_int32 on the two 32-bit halves of each element
    (Compare takes int32 for EQ/NE), then both halves equal (min) / either differs (max)."""
    from .reduce import KERNELS as REDUCE

    device = rt.device_of(x, y)
    shape, n = tuple(meta.shape), rt.size_of(meta.shape)
    if n == 0:
        return rt.new_tensor(shape, dt.bool_, device)
    a, b = _int64_operand(x, shape, device), _int64_operand(y, shape, device)
    halves = rt.new_tensor((n, 2), dt.bool_, device)
    blocks, tiling = _elementwise_tiling(device, 2 * n, tl.CompareTiling, mode=0, scalarBits=0)
    rt.launch(device, "compare", f"compare_{name}_int32", blocks, (a, b, halves), tiling)
    both = REDUCE["pyasc::min" if name == "eq" else "pyasc::max"]
    return rt.alias(both(meta.__class__((n,), dt.bool_), halves, (1,), False), shape)


def unary_kernel(name: str):
    op = f"pyasc::{name}"
    supported = FLOATS + (UNARY_INT_DTYPES if name in UNARY_INT else ())

    plans: dict[Any, tuple[Any, int, Tensor, Any]] = rt.plan_cache()

    def kernel(meta: Any, x: Tensor) -> Tensor:
        device = x._device
        dtype = x._data.dtype
        plan = plans.get((dtype, meta.shape, device))
        if plan is not None and rt.launch is _LAUNCH and rt.split is _SPLIT:  # the launch plan
            fn, blocks, buf, new, _ = plan
            out = new(meta.shape, dtype, device)
            fn(blocks, x, out, 0, buf)
            return out
        if dtype not in supported:
            raise rt.no_kernel(op, device, f"dtype {dt.dtype_name(dtype)}", supported, dtype)
        if dtype in WIDEN_8:  # int16 kernel, wrapped back (neg of uint8 wraps like NumPy)
            wide = WIDEN_8[dtype]
            return to_dtype(kernel(meta.__class__(meta.shape, wide), to_dtype(x, wide)), dtype)
        out = rt.new_tensor(meta.shape, dtype, device)
        n = rt.size_of(meta.shape)
        if n:
            tile = LONG_TILE if dtype == dt.float32 and name in UNARY_LONG_TILE_OPS else TILE
            blocks, tiling = _elementwise_tiling(device, n, tl.UnaryTiling, tile=tile)
            kname = f"unary_{name}_{rt.DTYPE_NAMES[dtype]}"
            rt.launch(device, "unary", kname, blocks, (x, out), tiling)
            rt.remember_plan(plans, (dtype, meta.shape, device), device, "unary", kname, blocks, tiling)
        return out

    def plan_call(meta: Any, args: tuple, count: Any = None) -> Any:
        """The launch plan of calls like ``kernel(meta, x)`` (an rt.PlanCall), or None when such a
        call takes no plan; ``count``: the placement counter (rt.PlanCall)."""
        if len(args) != 1 or type(args[0]) is not Tensor:
            return None
        device = args[0]._device
        dtype = args[0]._data.dtype
        plan = plans.get((dtype, meta.shape, device))
        return None if plan is None else rt.plan_call(plan, meta.shape, dtype, device, count)

    kernel.__name__ = f"sim_{name}"
    kernel.pyasc_plan_call = plan_call  # type: ignore[attr-defined]
    return kernel


def cast_kernel(meta: Any, x: Tensor, dtype: Any) -> Tensor:
    src, dst = x._data.dtype, meta.dtype
    if src == dst:  # a copy, as NumPy's astype
        out = rt.new_tensor(meta.shape, dst, x._device)
        n = rt.size_of(meta.shape)
        if n and src in CAST_DTYPES:
            blocks, tiling = _elementwise_tiling(x._device, n, tl.CastTiling, _cast_tile(src, dst))
            name = f"cast_{rt.DTYPE_NAMES[src]}_{rt.DTYPE_NAMES[dst]}"
            rt.launch(x._device, "cast", name, blocks, (x, out), tiling)
            return out
        if n:
            from .shape import contiguous_copy

            return contiguous_copy(x)
        return out
    return to_dtype(x, dst)


def cast_targets(src: np.dtype) -> tuple[np.dtype, ...]:
    """The dtypes cast.cpp converts ``src`` to (every pair of CAST_DTYPES): what an error's
    suggested ``x.astype(...)`` may name (pyasc_core.dtype_advice)."""
    return CAST_DTYPES if src in CAST_DTYPES else ()


cast_kernel.cast_targets = cast_targets  # type: ignore[attr-defined]


def where_kernel(meta: Any, cond: Tensor, x: Any, y: Any) -> Tensor:
    device = rt.device_of(cond, x, y)
    dtype = meta.dtype
    if dtype not in WHERE_DTYPES:
        raise rt.no_kernel("pyasc::where", device, f"result dtype {dt.dtype_name(dtype)}", WHERE_DTYPES, dtype)
    if dtype == dt.int64:  # 32-bit lanes: both halves of each element, the condition doubled
        shape, n = tuple(meta.shape), rt.size_of(meta.shape)
        out = rt.new_tensor(shape, dtype, device)
        if n:
            args = (_pairs_of(expand(cond, shape), n), _int64_operand(x, shape, device),
                    _int64_operand(y, shape, device), out)
            blocks, tiling = _elementwise_tiling(device, 2 * n, tl.WhereTiling)
            rt.launch(device, "where", "where_int32", blocks, args, tiling)
        return out
    if dtype in WHERE_WIDEN:  # 16-bit lanes: widen tensor operands, select, cast back (exact)
        wide = WHERE_WIDEN[dtype]
        if dtype != dt.bool_:
            for v in (x, y):
                if not isinstance(v, Tensor):
                    scalar_bits("pyasc::where", v, dtype)  # range check against the 8-bit dtype
        x, y = (to_dtype(v, wide) if isinstance(v, Tensor) else int(v) for v in (x, y))
        return to_dtype(where_kernel(meta.__class__(meta.shape, wide), cond, x, y), dtype)
    out = rt.new_tensor(meta.shape, dtype, device)
    n = rt.size_of(meta.shape)
    if n == 0:
        return out

    def operand(v: Any) -> Tensor:
        if isinstance(v, Tensor):
            return _operand(v, dtype, meta.shape)
        if dtype in VECTOR_INTS:
            scalar_bits("pyasc::where", v, dtype)  # range check
        return rt.full_tensor(meta.shape, v, dtype, device)

    c = expand(cond, meta.shape)
    blocks, tiling = _elementwise_tiling(device, n, tl.WhereTiling)
    rt.launch(device, "where", f"where_{rt.DTYPE_NAMES[dtype]}", blocks, (c, operand(x), operand(y), out), tiling)
    return out


KERNELS: dict[str, Any] = {}
for _name in BINARY_DTYPES:
    KERNELS[f"pyasc::{_name}"] = binary_kernel(_name)
KERNELS["pyasc::pow"] = binary_kernel("pow", family="pow", supported=POW_DTYPES, tile=POW_TILE, widen=POW_WIDEN)
for _name in _SWAP:
    KERNELS[f"pyasc::{_name}"] = compare_kernel(_name)
for _name in ("neg", "abs", "exp", "log", "sqrt", "rsqrt", "relu", "sigmoid", "tanh", "gelu", "silu"):
    KERNELS[f"pyasc::{_name}"] = unary_kernel(_name)
KERNELS["pyasc::cast"] = cast_kernel
KERNELS["pyasc::where"] = where_kernel
