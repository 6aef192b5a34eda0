"""DLPack exchange for host-resident tensors (NumPy, PyTorch, JAX ... without a copy).

NumPy's own exporter is used where it can; bfloat16, which NumPy cannot export or import,
goes through the small C++ helper in ``pyasc_core._native``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import dtypes as _dt
from .errors import ArgumentError, DtypeError, PyascError
from .tensor import Tensor

KDL_CPU = 1


def _native() -> Any:
    from . import _native as mod  # the compiled helper module

    return mod


def _check_protocol_args(stream: Any, max_version: Any, dl_device: Any, copy: Any) -> None:
    """The ``__dlpack__`` keywords, as the DLPack / array API protocol defines them."""
    if stream is not None and (not isinstance(stream, int) or isinstance(stream, bool)):
        raise ArgumentError(
            f"__dlpack__(stream={stream!r}): a stream is None (or an int) for host memory; pass stream=None"
        )
    if max_version is not None and not (
        isinstance(max_version, tuple) and len(max_version) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in max_version)
    ):
        raise ArgumentError(
            f"__dlpack__(max_version={max_version!r}): give None or a (major, minor) tuple of ints, e.g. (1, 0)"
        )
    if dl_device is not None and not (isinstance(dl_device, tuple) and len(dl_device) == 2):
        raise ArgumentError(
            f"__dlpack__(dl_device={dl_device!r}): give None or a (device_type, device_id) tuple, e.g. (1, 0)"
        )
    if copy is not None and not isinstance(copy, bool):
        raise ArgumentError(f"__dlpack__(copy={copy!r}): give None, True or False")


def to_dlpack(array: np.ndarray, *, max_version: tuple[int, int] | None = None,
              dl_device: Any = None, copy: bool | None = None, stream: Any = None) -> Any:
    """A DLPack capsule over ``array`` following the consumer's requested protocol version."""
    _check_protocol_args(stream, max_version, dl_device, copy)
    if dl_device is not None and tuple(dl_device) != (KDL_CPU, 0):
        raise PyascError(f"pyasc tensors on the host can only be exported to the CPU (1, 0), not {dl_device}")
    if copy:
        array = array.copy()
    versioned = max_version is not None and max_version[0] >= 1
    if array.dtype == _dt.bfloat16:
        return _native().to_dlpack(array, versioned)
    if versioned:
        try:
            return array.__dlpack__(max_version=max_version)
        except TypeError:  # an older NumPy without the versioned protocol
            pass
    return array.__dlpack__()


def from_dlpack(obj: Any, device: Any = None, copy: bool | None = None) -> Any:
    """A pyasc tensor sharing memory with any DLPack producer on the CPU (NumPy, torch, ...).

    ``copy=True`` always copies; ``copy=False`` refuses to copy (so ``device`` must be a host
    backend); None shares when it can (the array API standard's rule)."""
    if copy is not None and not isinstance(copy, bool):
        raise ArgumentError(f"from_dlpack(copy={copy!r}): give None, True or False")
    out = _from_dlpack(obj, device)
    if copy:
        shares = isinstance(obj, Tensor) and out is obj or not isinstance(obj, Tensor) and out.backend.is_host
        return out.clone() if shares else out
    if copy is False and not out.backend.is_host:
        raise PyascError(
            f"from_dlpack(copy=False) cannot share host memory with a tensor on {out.device}; "
            "drop copy=False to allow the copy, or leave device as a host backend such as 'numpy'"
        )
    return out


def _from_dlpack(obj: Any, device: Any) -> Any:
    from .creation import from_numpy

    if isinstance(obj, Tensor):
        return obj if device is None else obj.to(device)
    if not hasattr(obj, "__dlpack__"):
        raise ArgumentError(
            f"from_dlpack needs an object with __dlpack__ (a NumPy array, torch tensor, ...), "
            f"got {type(obj).__name__}"
        )
    if hasattr(obj, "__dlpack_device__"):
        dev_type, dev_id = obj.__dlpack_device__()
        if int(dev_type) != KDL_CPU:
            raise PyascError(
                f"from_dlpack can only share host (CPU) memory; this object is on DLPack device "
                f"({int(dev_type)}, {dev_id}). Copy it to the host first (e.g. .cpu())"
            )
    try:
        arr = np.from_dlpack(obj)
    except (TypeError, BufferError, RuntimeError, ValueError):
        arr = None
    if arr is None:
        capsule = obj.__dlpack__()
        arr, is_bf16 = _native().from_dlpack(capsule)
        if is_bf16:
            arr = arr.view(_dt.bfloat16)
    try:
        _dt.as_dtype(arr.dtype)
    except DtypeError as exc:
        raise DtypeError(f"from_dlpack: {exc}") from None
    out = from_numpy(arr, device="numpy")
    return out if device is None else out.to(device)


def _tensor_dlpack(self: Tensor, *, stream: Any = None, max_version: tuple[int, int] | None = None,
                   dl_device: Any = None, copy: bool | None = None) -> Any:
    """``Tensor.__dlpack__`` (host-resident tensors only)."""
    return to_dlpack(self._host_array("__dlpack__"), max_version=max_version,
                     dl_device=dl_device, copy=copy, stream=stream)


Tensor.__dlpack__ = _tensor_dlpack  # type: ignore[attr-defined]  (tensor.py sits below this module)
