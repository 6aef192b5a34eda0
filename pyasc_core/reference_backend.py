"""The ``numpy`` backend (alias ``reference``): the golden model every other backend is checked against.

Tensors are NumPy arrays in host memory. Each op runs its NumPy reference implementation, in
float32 for float16/bfloat16 inputs, and the result is cast back to the dtype the meta function
declared.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from . import dtypes as _dt
from . import views
from .backend import Backend
from .device import Device
from .errors import ArgumentError, IndexingError, PyascError, ReferenceMismatchError, ShapeError
from .hookspecs import hookimpl
from .host_backend import HostBackend, nbytes_of as _nbytes, physical_memory
from .host_memory import HOST_MEMORY
from .registry import REGISTRY
from .tensor import Tensor, _Owned, wrap_storage
from .tensor_meta import TensorMeta

_F16 = _dt.float16
_BF16 = _dt.bfloat16
_F32 = np.dtype(np.float32)
#: ops whose result is a view of their input where NumPy's is (transpose always, reshape when the
#: strides allow), on every backend
VIEW_OPS = frozenset({"pyasc::transpose", "pyasc::reshape"})


def _upcast(a: Any) -> Any:
    """Tensor -> its array, float16/bfloat16 widened to float32; other values unchanged."""
    if isinstance(a, Tensor):
        d = a._data
        dt = d.dtype
        if dt is _F16 or dt is _BF16:  # tensors hold native, canonical dtype objects
            return d.astype(_F32)
        return d
    return a


def _overflow(op: str, exc: OverflowError) -> ArgumentError:
    """NumPy refuses a Python int that does not fit the tensor's integer dtype: say so and how to fix."""
    return ArgumentError(
        f"{op}: {exc}; a Python scalar must fit the integer dtype of the tensor it meets. "
        "Cast the tensor to a wider dtype first, e.g. x.astype('int64')"
    )


class ReferenceBackend(HostBackend):
    name = "numpy"
    aliases = ("reference",)
    description = "NumPy reference implementations on the host (the golden model)"
    is_host = True
    priority = 0
    default_kernel_label = "reference"

    def info(self) -> dict[str, Any]:
        return {"numpy": np.__version__, "host memory": f"{physical_memory() / 2**30:.1f} GiB"}

    # -- storage -----------------------------------------------------------------------------
    def from_numpy(self, array: np.ndarray, device: Device, copy: bool) -> np.ndarray:
        if copy:
            try:
                return np.array(array, copy=True, order="C")
            except MemoryError as exc:
                raise self.host_oom("a copy of an array", array.nbytes, exc) from None
        return array.view()  # shares the caller's memory, which pyasc does not count as its own

    def to_numpy(self, storage: np.ndarray) -> np.ndarray:
        return storage

    def empty(self, shape: tuple[int, ...], dtype: np.dtype, device: Device) -> np.ndarray:
        try:
            return np.empty(shape, dtype)
        except (MemoryError, ValueError) as exc:
            what = f"a {np.dtype(dtype).name} tensor of shape {tuple(shape)}"
            raise self.host_oom(what, _nbytes(shape, dtype), exc) from None

    def full(self, shape: tuple[int, ...], value: Any, dtype: np.dtype, device: Device) -> np.ndarray:
        try:
            return np.full(shape, value, dtype)
        except (MemoryError, ValueError) as exc:
            what = f"a {np.dtype(dtype).name} tensor of shape {tuple(shape)}"
            raise self.host_oom(what, _nbytes(shape, dtype), exc) from None

    def getitem(self, storage: np.ndarray, key: Any) -> np.ndarray:
        try:
            out = storage[key]
            if type(out) is not np.ndarray:
                # an int per axis: a 0-d view (as PyTorch; NumPy would give a detached scalar),
                # a copy for advanced keys (0-d index arrays)
                out = storage[views.full_int_key(key)] if views.is_basic_key(key) else np.asarray(out)
        except IndexError as exc:
            raise IndexingError(f"{exc} (tensor shape {storage.shape})") from None
        return out

    def contiguous(self, storage: np.ndarray) -> np.ndarray:
        return storage if storage.flags.c_contiguous else storage.copy(order="C")

    def setitem(self, storage: np.ndarray, key: Any, value: Any) -> None:
        if not storage.flags.writeable:
            raise PyascError(
                f"cannot assign into a read-only tensor (shape {storage.shape}): it shares memory "
                "with a read-only buffer (e.g. from from_dlpack); make a writable copy with t.clone()"
            )
        try:
            storage[key] = value
        except IndexError as exc:
            raise IndexingError(f"{exc} (tensor shape {storage.shape})") from None
        except ValueError as exc:
            raise ShapeError(f"cannot assign: {exc}") from None

    # -- kernels -----------------------------------------------------------------------------
    def default_kernel(self, op: Any) -> Callable[..., Any] | None:
        if op.reference is None:
            return None
        ref = op.caller(op.reference)
        name = op.name
        device = self._device
        oom = self.host_oom
        nret = len(op.schema.returns)

        if name in VIEW_OPS:  # views of the input's memory: no float32 round trip
            def view_kernel(meta: TensorMeta, x: Tensor, arg: Any) -> Tensor:
                res = ref(x._data, arg)
                if res.shape != meta.shape:
                    raise ReferenceMismatchError(
                        f"the reference of {name} returned shape {res.shape}, but its meta function "
                        f"declared {meta.shape}; fix one of them"
                    )
                return wrap_storage(res, device, self)

            return view_kernel

        def finish(res: Any, meta: TensorMeta) -> Tensor:
            if type(res) is not np.ndarray:
                res = np.asarray(res)
            if res.dtype is not meta.dtype and res.dtype != meta.dtype:
                res = res.astype(meta.dtype)
            if res.shape != meta.shape:
                raise ReferenceMismatchError(
                    f"the reference of {name} returned shape {res.shape}, but its meta function "
                    f"declared {meta.shape}; fix one of them"
                )
            return wrap_storage(res, device, self)

        if nret == 1 and len(op.schema.params) == 2 and self._limit is None:
            # the hot binary path, inlined: this is most of an op's per-call cost
            alloc = HOST_MEMORY.alloc
            new = object.__new__

            def kernel2(meta: TensorMeta, a: Any, b: Any) -> Tensor:
                if type(a) is Tensor:
                    a = a._data
                    d = a.dtype
                    if d is _F16 or d is _BF16:
                        a = a.astype(_F32)
                if type(b) is Tensor:
                    b = b._data
                    d = b.dtype
                    if d is _F16 or d is _BF16:
                        b = b.astype(_F32)
                try:
                    res = ref(a, b)
                except OverflowError as exc:
                    raise _overflow(name, exc) from None
                except MemoryError as exc:
                    raise oom(name, _nbytes(meta.shape, meta.dtype), exc) from None
                if type(res) is not np.ndarray:
                    res = np.asarray(res)
                if res.dtype is not meta.dtype:
                    res = res.astype(meta.dtype, copy=False)
                if res.shape != meta.shape:
                    return finish(res, meta)  # raises the mismatch error
                t = new(Tensor)
                t._data = res
                t._device = device
                if res.base is None:
                    n = res.nbytes
                    t._owned = _Owned(n) if n else 0
                    alloc(n)
                else:
                    t._owned = 0
                return t

            return kernel2
        if nret == 1 and len(op.schema.params) == 1:
            def kernel1(meta: TensorMeta, a: Any) -> Tensor:
                try:
                    return finish(ref(_upcast(a)), meta)
                except OverflowError as exc:
                    raise _overflow(name, exc) from None
                except MemoryError as exc:
                    raise oom(name, _nbytes(meta.shape, meta.dtype), exc) from None

            return kernel1

        def kernel(meta: Any, *args: Any) -> Any:
            try:
                res = ref(*[_upcast(a) for a in args])
            except OverflowError as exc:
                raise _overflow(name, exc) from None
            except MemoryError as exc:
                metas = meta if nret != 1 else (meta,)
                raise oom(name, sum(_nbytes(m.shape, m.dtype) for m in metas), exc) from None
            if nret == 1:
                return finish(res, meta)
            return tuple(finish(r, m) for r, m in zip(res, meta))

        return kernel

    # -- memory ------------------------------------------------------------------------------
    def set_memory_limit(self, device: Device, nbytes: int | None) -> None:
        if (self._limit is None) != (nbytes is None):
            REGISTRY.invalidate()  # kernels are specialised on whether a limit is checked
        super().set_memory_limit(device, nbytes)


BACKEND = ReferenceBackend()


@hookimpl
def pyasc_register_backends(register: Callable[[Backend], None]) -> None:
    register(BACKEND)
