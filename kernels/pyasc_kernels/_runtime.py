"""What every built-in kernel's Python glue shares: finding and loading the kernel binaries,
packing tiling structs into (cached) device buffers, allocating outputs, launching on the current
stream, and saying clearly when an op/dtype has no kernel."""

from __future__ import annotations

import os
import struct
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from pyasc_core import dtypes as dt
from pyasc_core.errors import KernelNotFoundError
from pyasc_core.registry import backend_for_device
from pyasc_core.tensor import Tensor, wrap_storage

#: elements every core's share is a multiple of: 256 elements keep each core's slice of every
#: operand (1 to 8 bytes per element) aligned to whole 32-byte blocks and 256-byte repeats
CORE_ALIGN = 256
#: below this many elements per core, fewer cores are used (launch cost beats parallelism)
MIN_PER_CORE = 16384

#: pyasc dtype -> the name kernels use in their names (binary_add_float16, ...)
DTYPE_NAMES = {
    dt.bool_: "bool", dt.uint8: "uint8", dt.int8: "int8", dt.int16: "int16", dt.int32: "int32",
    dt.int64: "int64", dt.float16: "float16", dt.bfloat16: "bfloat16", dt.float32: "float32",
}


def kernel_dir_candidates() -> list[str]:
    import pyasc_sim

    return [os.path.join(os.fspath(p), "kernels") for p in pyasc_sim.__path__]


#: the kernel families (kernels/<family>.cpp) the glue launches; each is one binary per backend
KERNEL_FAMILIES = ("binary", "cast", "compare", "copy", "matmul", "norm", "pow", "reduce", "softmax",
                   "unary", "where")


def binary_name(backend: str, family: str) -> str:
    """The file of ``family`` for ``backend`` under pyasc_sim/kernels/, as kernels/CMakeLists.txt
    installs it: sim <family>.sim.so (host shared object), npu npu/<family>.o (the *.o device
    binary aclrtBinaryLoadFromFile loads, built by kernels/npu.cmake)."""
    return f"{family}.sim.so" if backend == "sim" else os.path.join("npu", f"{family}.o")


def missing_binaries(backend: str) -> list[str]:
    """The binaries of KERNEL_FAMILIES for ``backend`` that no kernel directory holds (relative names)."""
    dirs = kernel_dir_candidates()
    return [name for name in (binary_name(backend, f) for f in KERNEL_FAMILIES)
            if not any(os.path.isfile(os.path.join(d, name)) for d in dirs)]


def binary_path(backend: str, family: str) -> str:
    """The kernel binary of ``family`` for ``backend`` (see :func:`binary_name`)."""
    name = binary_name(backend, family)
    tried = []
    for d in kernel_dir_candidates():
        path = os.path.join(d, name)
        if os.path.isfile(path):
            return path
        tried.append(path)
    how = ("reinstall pyasc with 'pip install .' (or 'pip install -e .' in a checkout) so kernels/ is "
           "compiled for the simulator" if backend == "sim" else
           "install pyasc on a machine with a CANN toolkit (ASCEND_HOME_PATH) so kernels/ is compiled "
           "for the NPU, or run on the simulator with device='sim'")
    raise KernelNotFoundError(f"the {backend} kernel binary {name!r} is not installed (looked at "
                              f"{', '.join(tried)}); {how}")


class _Functions:
    """Loaded binaries and their kernel functions, per (backend, device index)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._binaries: dict[tuple[str, int, str], Any] = {}
        self._functions: dict[tuple[str, int, str, str], Any] = {}

    def get(self, device: Any, family: str, name: str) -> Any:
        key = (device.type, device.index or 0, family, name)
        fn = self._functions.get(key)
        if fn is not None:
            return fn
        import pyasc_acl

        with self._lock:
            bkey = key[:3]
            binary = self._binaries.get(bkey)
            if binary is None:
                binary = self._binaries[bkey] = pyasc_acl.Binary(binary_path(device.type, family), device=device)
            fn = self._functions[key] = binary.function(name)
        return fn

    def clear(self) -> None:
        with self._lock:
            self._functions.clear()
            self._binaries.clear()


FUNCTIONS = _Functions()


class _TilingCache:
    """Tiling structs are immutable once on the device: identical ones are uploaded once and
    reused (an LRU of device buffers per device)."""

    def __init__(self, limit: int = 256) -> None:
        self._lock = threading.Lock()
        self._cache: OrderedDict[tuple[Any, bytes], Any] = OrderedDict()
        self._limit = limit

    def get(self, device: Any, data: bytes) -> Any:
        key = (device, data)
        with self._lock:
            buf = self._cache.get(key)
            if buf is not None:
                self._cache.move_to_end(key)
                return buf
        backend = backend_for_device(device)
        buf = backend.from_numpy(np.frombuffer(data, np.uint8), device, copy=True)
        with self._lock:
            self._cache[key] = buf
            while len(self._cache) > self._limit:
                self._cache.popitem(last=False)
        return buf


TILING = _TilingCache()


def pack(*fields: int | float) -> bytes:
    """A tiling struct of 32-bit fields: ints as uint32 (negative ones two's complement), floats
    as IEEE float32 bits; padded to whole 32 bytes like the structs in kernels/*.cpp."""
    out = bytearray()
    for f in fields:
        if isinstance(f, float):
            out += struct.pack("<f", f)
        else:
            out += struct.pack("<I", int(f) & 0xFFFFFFFF)
    out += b"\0" * (-len(out) % 32)
    return bytes(out)


def float_bits(value: float) -> int:
    """The float32 bits of a Python float (rounded like NumPy's float32(value), overflow -> inf)."""
    with np.errstate(over="ignore"):
        return int(np.array(value, dtype=np.float32).view(np.uint32))


def vector_cores(device: Any) -> int:
    """The device's vector cores (aclrtGetDeviceInfo): the most blocks a vector launch uses."""
    import pyasc_acl

    return pyasc_acl.device_facts(device).vector_cores


def cube_cores(device: Any) -> int:
    """The device's cube cores (aclrtGetDeviceInfo): the most blocks of matmul's cube path."""
    import pyasc_acl

    return pyasc_acl.device_facts(device).cube_cores


def split(total: int, align: int = CORE_ALIGN, min_per_core: int = MIN_PER_CORE, *,
          cores: int) -> tuple[int, int]:
    """(num_blocks, per_core) splitting ``total`` items over at most ``cores`` cores, each
    share a multiple of ``align`` items and (when there is enough work) at least ``min_per_core``."""
    if total <= 0:
        return 1, align
    per = -(-total // cores)
    per = max(per, min(total, min_per_core))
    per = -(-per // align) * align
    return -(-total // per), per


def device_of(*args: Any) -> Any:
    for a in args:
        if isinstance(a, Tensor):
            return a._device
    raise AssertionError("a kernel was called without tensor arguments")


def new_tensor(shape: Sequence[int], dtype: np.dtype, device: Any) -> Tensor:
    backend = backend_for_device(device)
    return wrap_storage(backend.empty(tuple(shape), np.dtype(dtype), device), device, backend)


def full_tensor(shape: Sequence[int], value: Any, dtype: np.dtype, device: Any) -> Tensor:
    backend = backend_for_device(device)
    return wrap_storage(backend.full(tuple(shape), value, np.dtype(dtype), device), device, backend)


def alias(t: Tensor, shape: Sequence[int]) -> Tensor:
    """A tensor sharing contiguous ``t``'s device memory with another shape (same number of elements)."""
    d = t._data
    assert d.contiguous, "alias() of a strided view: make it contiguous first"
    backend = backend_for_device(t._device)
    return wrap_storage(d.view(tuple(int(s) for s in shape), None, d.offset), t._device, backend)


def launch(device: Any, family: str, name: str, num_blocks: int, args: Iterable[Any], tiling: bytes) -> None:
    """Launch kernel ``name`` of ``family`` with ``args`` + (workspace=0, tiling buffer) on the current stream."""
    import pyasc_acl

    fn = FUNCTIONS.get(device, family, name)
    buf = TILING.get(device, tiling)
    pyasc_acl.launch(fn, num_blocks, (*args, 0, buf))


def no_kernel(op: str, device: Any, what: str, supported: Iterable[np.dtype] | str) -> KernelNotFoundError:
    names = supported if isinstance(supported, str) else ", ".join(dt.dtype_name(d) for d in supported)
    return KernelNotFoundError(
        f"{op} has no {device.type} kernel for {what}; its kernels take {names}. Cast first "
        f"(e.g. x.astype('float32')) or run it on the reference with .to('numpy')"
    )


def size_of(shape: Sequence[int]) -> int:
    n = 1
    for s in shape:
        n *= int(s)
    return n
