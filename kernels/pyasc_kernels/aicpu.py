"""The AI CPU path of the built-in ops (kernels/aicpu/*.cpp): plain C++ functions over device
memory for the dtypes the AI Core has no kernel for (int64 / float64 arithmetic, int64
accumulators, every cast), loaded through ACL's AI CPU loading (``aclrtBinaryLoadFromFile`` with
``ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE``) and launched on the current stream like any kernel.

Operands are prepared as for the AI Core kernels (cast to the kernel's dtype, broadcast to the
output's shape, reduced axes moved last); each launch is one AI CPU task whose arguments are 8
bytes each (addresses, int64 sizes, float64 bits). Where the device has no AI CPU library (an NPU
without CANN at install), :func:`host_fallback` runs the op's reference on the host instead."""

from __future__ import annotations

import os
import struct
import threading
from typing import Any

import numpy as np

from pyasc_core import dtypes as dt
from pyasc_core.errors import ArgumentError, KernelNotFoundError
from pyasc_core.shape_rules import broadcast_shapes, normalize_axes, normalize_axis
from pyasc_core.tensor import Tensor

from . import _runtime as rt

#: the AI CPU libraries (kernels/aicpu/<family>.cpp) and the kernels each holds
FAMILIES = ("elementwise", "rows")
#: the dtypes pyasc's AI CPU kernels take (every pyasc dtype) -> their names in kernel names
NAMES = {**rt.DTYPE_NAMES, dt.float64: "float64"}


def library_path(backend: str, family: str) -> str:
    """The AI CPU library of ``family`` for ``backend``: pyasc_sim/kernels/aicpu/<family>.so on the
    simulator; npu/aicpu/<family>.so for an NPU (built only with CANN's AI CPU toolchain: never by
    pyasc today, so NPU ops without an AI Core kernel take the host fallback)."""
    name = os.path.join("aicpu", f"{family}.so") if backend == "sim" else os.path.join("npu", "aicpu", f"{family}.so")
    tried = []
    for d in rt.kernel_dir_candidates():
        path = os.path.join(d, name)
        if os.path.isfile(path):
            return path
        tried.append(path)
    raise KernelNotFoundError(f"the {backend} AI CPU library {name!r} is not installed (looked at {', '.join(tried)})")


#: {backend: whether its AI CPU libraries are installed}, looked up once per backend
AVAILABLE: dict[str, bool] = {}


def available(backend: str) -> bool:
    """True when every AI CPU library is installed for ``backend`` (cached in AVAILABLE)."""
    found = AVAILABLE.get(backend)
    if found is None:
        try:
            for f in FAMILIES:
                library_path(backend, f)
            found = True
        except KernelNotFoundError:
            found = False
        AVAILABLE[backend] = found
    return found


class _Functions:
    """AI CPU functions loaded per (device, family): one Binary each (ACL's AI CPU mode 1)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._binaries: dict[tuple[Any, str], Any] = {}
        self._functions: dict[tuple[Any, str, str], Any] = {}

    def get(self, device: Any, family: str, name: str) -> Any:
        key = (device, family, name)
        fn = self._functions.get(key)
        if fn is None:
            from pyasc_acl.kernels import Binary

            with self._lock:
                binary = self._binaries.get((device, family))
                if binary is None:
                    binary = self._binaries[(device, family)] = Binary(
                        library_path(device.type, family), device, cpu_kernel_mode=1)
                fn = self._functions[key] = binary.function(name)
        return fn

    def clear(self) -> None:
        with self._lock:
            self._binaries.clear()
            self._functions.clear()


FUNCTIONS = _Functions()


def launch(device: Any, family: str, name: str, *args: Any) -> None:
    """One AI CPU task ``name`` of ``family`` on the current stream of ``device``."""
    from pyasc_acl.kernels import launch as acl_launch

    acl_launch(FUNCTIONS.get(device, family, name), 1, args)


def f64_bits(value: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", float(value)))[0]


# -- operand preparation (as the AI Core glue does, with every dtype) ---------------------------------

def to_dtype(x: Tensor, dtype: np.dtype) -> Tensor:
    """x converted to ``dtype`` by the AI CPU cast (x itself when it already has it)."""
    src = x._data.dtype
    if src == dtype:
        return x
    out = rt.new_tensor(x._data.shape, dtype, x._device)
    n = rt.size_of(x._data.shape)
    if n:
        launch(x._device, "elementwise", f"cast_{NAMES[src]}_{NAMES[dtype]}", x, out, n)
    return out


def _operand(v: Any, dtype: np.dtype, shape: tuple[int, ...], device: Any) -> Tensor:
    from .elementwise import to_dtype as any_cast
    from .shape import expand

    if isinstance(v, Tensor):
        return expand(any_cast(v, dtype), shape)
    return rt.full_tensor(shape, v, dtype, device)  # a Python scalar, checked against the dtype by full


def _scalar_fits(op: str, v: Any, dtype: np.dtype) -> None:
    if isinstance(v, Tensor) or dtype not in dt.INTEGER:
        return
    info = np.iinfo(dtype)
    if not info.min <= int(v) <= info.max:
        raise ArgumentError(f"{op}: the Python scalar {v} does not fit the {dt.dtype_name(dtype)} tensor it meets; "
                            "cast the tensor to a wider dtype first, e.g. x.astype('int64')")


def binary(name: str):
    op = f"pyasc::{name}"

    def kernel(meta: Any, x: Any, y: Any) -> Tensor:
        device = rt.device_of(x, y)
        dtype = meta.dtype
        shape = tuple(meta.shape)
        if name == "pow" and dtype in dt.INTEGER and not isinstance(y, Tensor) and int(y) < 0:
            raise ArgumentError("pyasc::pow: integer tensors cannot be raised to negative integer powers; "
                                "cast to a floating dtype first, e.g. x.astype('float32')")
        _scalar_fits(op, x, dtype)
        _scalar_fits(op, y, dtype)
        out = rt.new_tensor(shape, dtype, device)
        n = rt.size_of(shape)
        if n:
            launch(device, "elementwise", f"binary_{name}_{NAMES[dtype]}",
                   _operand(x, dtype, shape, device), _operand(y, dtype, shape, device), out, n)
        return out

    return kernel


def compare(name: str):
    op = f"pyasc::{name}"

    def kernel(meta: Any, x: Any, y: Any) -> Tensor:
        device = rt.device_of(x, y)
        dtype = dt.result_type(*(a._data.dtype if isinstance(a, Tensor) else type(a) for a in (x, y)))
        shape = tuple(meta.shape)
        _scalar_fits(op, x, dtype)
        _scalar_fits(op, y, dtype)
        out = rt.new_tensor(shape, dt.bool_, device)
        n = rt.size_of(shape)
        if n:
            launch(device, "elementwise", f"compare_{name}_{NAMES[dtype]}",
                   _operand(x, dtype, shape, device), _operand(y, dtype, shape, device), out, n)
        return out

    return kernel


def unary(name: str):
    def kernel(meta: Any, x: Tensor) -> Tensor:
        out = rt.new_tensor(meta.shape, meta.dtype, x._device)
        n = rt.size_of(meta.shape)
        if n:
            launch(x._device, "elementwise", f"unary_{name}_{NAMES[meta.dtype]}", x, out, n)
        return out

    return kernel


def cast(meta: Any, x: Tensor, dtype: Any) -> Tensor:
    out = rt.new_tensor(meta.shape, meta.dtype, x._device)
    n = rt.size_of(meta.shape)
    if n:
        launch(x._device, "elementwise", f"cast_{NAMES[x._data.dtype]}_{NAMES[meta.dtype]}", x, out, n)
    return out


def where(meta: Any, cond: Tensor, x: Any, y: Any) -> Tensor:
    from .shape import expand

    device = rt.device_of(cond, x, y)
    dtype, shape = meta.dtype, tuple(meta.shape)
    _scalar_fits("pyasc::where", x, dtype)
    _scalar_fits("pyasc::where", y, dtype)
    out = rt.new_tensor(shape, dtype, device)
    n = rt.size_of(shape)
    if n:
        launch(device, "elementwise", f"where_{NAMES[dtype]}", expand(cond, shape),
               _operand(x, dtype, shape, device), _operand(y, dtype, shape, device), out, n)
    return out


def reduce(name: str):
    def kernel(meta: Any, x: Tensor, axis: Any, keepdims: bool) -> Tensor:
        from .shape import permute

        device = x._device
        shape = x._data.shape
        axes = normalize_axes(axis, len(shape)) if shape else ()
        if rt.size_of(meta.shape) == 0:
            return rt.new_tensor(meta.shape, meta.dtype, device)
        kept = [a for a in range(len(shape)) if a not in axes]
        rows = rt.size_of([shape[a] for a in kept])
        cols = rt.size_of([shape[a] for a in axes])
        if cols == 0:
            return rt.full_tensor(meta.shape, 0 if name == "sum" else float("nan"), meta.dtype, device)
        src = permute(x, kept + sorted(axes)) if axes else x
        out = rt.new_tensor((rows,), meta.dtype, device)
        launch(device, "rows", f"reduce_{name}_{NAMES[x._data.dtype]}", src, out, rows, cols)
        return rt.alias(out, meta.shape)

    return kernel


def softmax(name: str):
    def kernel(meta: Any, x: Tensor, axis: int) -> Tensor:
        from .shape import permute

        device, dtype, shape = x._device, x._data.dtype, x._data.shape
        if rt.size_of(shape) == 0:
            return rt.new_tensor(shape, dtype, device)
        nd = len(shape)
        ax = normalize_axis(axis, nd) if nd else 0
        order = [a for a in range(nd) if a != ax] + [ax] if nd else []
        src = permute(x, order) if nd else rt.alias(x, (1,))
        cols = shape[ax] if nd else 1
        rows = rt.size_of(shape) // cols
        out = rt.new_tensor(src._data.shape, dtype, device)
        launch(device, "rows", f"{name}_{NAMES[dtype]}", src, out, rows, cols)
        if not nd:
            return rt.alias(out, ())
        return permute(out, [order.index(a) for a in range(nd)])

    return kernel


def _norm(meta: Any, x: Tensor, weight: Any, bias: Any, eps: float, layer: bool) -> Tensor:
    from .elementwise import to_dtype as any_cast
    from .shape import expand

    device, dtype, shape = x._device, meta.dtype, tuple(meta.shape)
    out = rt.new_tensor(shape, dtype, device)
    if rt.size_of(shape) == 0:
        return out
    cols = shape[-1]
    rows = rt.size_of(shape) // cols
    xs = any_cast(x, dtype)
    w = expand(any_cast(weight, dtype), (cols,)) if weight is not None else xs
    if layer:
        b = expand(any_cast(bias, dtype), (cols,)) if bias is not None else xs
        launch(device, "rows", f"layer_norm_{NAMES[dtype]}", xs, w, b, out, rows, cols, int(weight is not None),
               int(bias is not None), f64_bits(eps))
    else:
        launch(device, "rows", f"rms_norm_{NAMES[dtype]}", xs, w, out, rows, cols, int(weight is not None),
               f64_bits(eps))
    return out


def layer_norm(meta: Any, x: Tensor, weight: Any, bias: Any, eps: float) -> Tensor:
    return _norm(meta, x, weight, bias, eps, True)


def rms_norm(meta: Any, x: Tensor, weight: Any, eps: float) -> Tensor:
    return _norm(meta, x, weight, None, eps, False)


def matmul(meta: Any, a: Tensor, b: Tensor) -> Tensor:
    from .elementwise import to_dtype as any_cast
    from .shape import expand

    device, dtype, out_shape = a._device, meta.dtype, tuple(meta.shape)
    if rt.size_of(out_shape) == 0:
        return rt.new_tensor(out_shape, dtype, device)
    ash, bsh = a._data.shape, b._data.shape
    a2 = ash if len(ash) > 1 else (1,) + ash
    b2 = bsh if len(bsh) > 1 else bsh + (1,)
    m, k, n = a2[-2], a2[-1], b2[-1]
    batch_shape = broadcast_shapes(a2[:-2], b2[:-2])
    if k == 0:
        return rt.full_tensor(out_shape, 0, dtype, device)
    av = expand(rt.alias(any_cast(a, dtype), a2), batch_shape + (m, k))
    bv = expand(rt.alias(any_cast(b, dtype), b2), batch_shape + (k, n))
    batch = rt.size_of(batch_shape)
    out = rt.new_tensor((batch, m, n), dtype, device)
    launch(device, "rows", f"matmul_{NAMES[dtype]}", av, bv, out, batch, m, k, n)
    return rt.alias(out, out_shape)


KERNELS: dict[str, Any] = {}
for _n in ("add", "sub", "mul", "div", "maximum", "minimum", "pow"):
    KERNELS[f"pyasc::{_n}"] = binary(_n)
for _n in ("eq", "ne", "lt", "le", "gt", "ge"):
    KERNELS[f"pyasc::{_n}"] = compare(_n)
for _n in ("neg", "abs", "exp", "log", "sqrt", "rsqrt", "relu", "sigmoid", "tanh", "gelu", "silu"):
    KERNELS[f"pyasc::{_n}"] = unary(_n)
KERNELS["pyasc::cast"] = cast
KERNELS["pyasc::where"] = where
for _n in ("sum", "mean", "max", "min"):
    KERNELS[f"pyasc::{_n}"] = reduce(_n)
KERNELS["pyasc::softmax"] = softmax("softmax")
KERNELS["pyasc::log_softmax"] = softmax("log_softmax")
KERNELS["pyasc::layer_norm"] = layer_norm
KERNELS["pyasc::rms_norm"] = rms_norm
KERNELS["pyasc::matmul"] = matmul
del _n


# -- the host fallback ------------------------------------------------------------------------------

def host_fallback(op_name: str):
    """The op run by its NumPy reference on the host: inputs copied out on the current stream
    (waiting for the work before them), the reference, the result copied back in."""
    def kernel(meta: Any, *args: Any) -> Any:
        from pyasc_core.registry import REGISTRY

        device = rt.device_of(*args)
        ref = REGISTRY.backends["numpy"]
        host_dev = ref.device(None)
        fn = ref.default_kernel(REGISTRY.ops[op_name])
        host_args = [a.to(host_dev) if isinstance(a, Tensor) else a for a in args]
        res = fn(meta, *host_args)
        if isinstance(res, tuple):
            return tuple(r.to(device) for r in res)
        return res.to(device)

    return kernel
