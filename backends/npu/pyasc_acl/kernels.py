"""Loading kernel binaries and launching kernels (the design's launch contract: every argument
packed as 8 bytes, device addresses as uint64)."""

from __future__ import annotations

import os
import struct
from collections.abc import Sequence
from typing import Any

import numpy as np

from pyasc_core.errors import ArgumentError, DeviceMismatchError

from .backend import AclBackend, acl_backend_of
from .errors import BinaryUnloadedError
from .storage import DeviceArray


class Binary:
    """A kernel binary loaded on a device (``aclrtBinaryLoadFromFile``); on the simulator a host
    shared object exporting ``__pyasc_sim_entry_<name>``. Unloaded when dropped or by ``unload()``."""

    def __init__(self, path: str | os.PathLike, device: Any = None) -> None:
        if not isinstance(path, (str, os.PathLike)):
            raise ArgumentError(
                f"Binary needs the path of a kernel binary (str or os.PathLike), got {type(path).__name__} "
                f"{path!r:.60}; e.g. pyasc_acl.Binary(pyasc_sim.compile('kernel.cpp'))"
            )
        self.backend, self.device = acl_backend_of(device)
        self.path = os.fspath(path)
        if isinstance(self.path, bytes):
            self.path = os.fsdecode(self.path)
        self.path = os.path.abspath(self.path)  # aclrtBinaryLoadFromFile takes an absolute path
        self._raw = self.backend.raw_device(self.device).load_binary(self.path)
        self.unloaded = False

    def function(self, name: str) -> Function:
        """The kernel ``name`` of this binary (``aclrtBinaryGetFunction``)."""
        if not isinstance(name, str) or not name:
            raise ArgumentError(
                f"Binary.function needs a kernel name (a non-empty str), got {type(name).__name__} {name!r:.60}"
            )
        self._check_loaded(f"function({name!r})")
        return Function(self, self._raw.function(name))

    def _check_loaded(self, what: str) -> None:
        if self.unloaded:
            raise BinaryUnloadedError(
                f"{what}: the kernel binary {self.path} was unloaded; load it again with "
                f"pyasc_acl.Binary({self.path!r})"
            )

    def unload(self) -> None:
        """Unload now (its functions cannot be launched afterwards); a second call does nothing."""
        self.unloaded = True
        self._raw.unload()

    def __repr__(self) -> str:
        return f"<pyasc_acl.Binary {self.path!r} on {self.device}>"


class Function:
    """One kernel of a loaded Binary."""

    def __init__(self, binary: Binary, raw: Any) -> None:
        self.binary = binary
        self.raw = raw

    @property
    def name(self) -> str:
        return self.raw.name

    def __call__(self, num_blocks: int, *args: Any, stream: Any = None) -> None:
        launch(self, num_blocks, args, stream=stream)

    def __repr__(self) -> str:
        return f"<pyasc_acl.Function {self.name} of {self.binary.path!r}>"


def _raw_stream(stream: Any, backend: AclBackend, device: Any) -> Any:
    from pyasc_core.streams import Stream, current_stream

    if stream is None:
        return current_stream(device).impl.raw
    if isinstance(stream, Stream):
        if stream.device is not device:
            raise DeviceMismatchError(f"launch: the stream is on {stream.device} but the kernel on {device}")
        return stream.impl.raw
    from . import _acl

    raw = getattr(stream, "raw", stream)
    if not isinstance(raw, _acl.Stream):
        raise ArgumentError(
            f"launch: stream must be a pyasc.Stream of {device} or None (its current stream), got "
            f"{type(stream).__name__} {stream!r:.60}"
        )
    return raw


def _float_slot(i: int, a: np.generic) -> bytes:
    """A NumPy floating scalar in the low bytes of its 8-byte slot, packed by its own width (float32:
    its 4 IEEE bytes, float64: 8, float16 / bfloat16: 2), little-endian like the argument blob."""
    raw = np.asarray(a).astype(a.dtype.newbyteorder("<")).tobytes()
    if len(raw) > 8:
        raise ArgumentError(f"launch argument {i} = {a!r} ({a.dtype}) is {len(raw)} bytes; kernel arguments are at "
                            "most 8 bytes (float16, bfloat16, float32 or float64 scalars)")
    return raw + b"\0" * (8 - len(raw))


def _is_float_scalar(a: Any) -> bool:
    if isinstance(a, np.floating):
        return True
    from pyasc_core import dtypes as _dt

    return isinstance(a, np.generic) and a.dtype == _dt.bfloat16


def pack_args(args: Sequence[Any], device: Any) -> tuple[bytes, list[Any]]:
    """The 8-byte-per-argument blob and the device blocks it refers to.

    Ints (and NumPy integer scalars) take 8 bytes; NumPy floating scalars are packed by their own
    width (``numpy.float32(x)`` for a ``float`` parameter, ``numpy.float64(x)`` for a ``double``,
    ``numpy.float16(x)`` for ``half``). A bare Python float is refused: its parameter type is
    unknown here."""
    from pyasc_core.tensor import Tensor

    parts: list[bytes] = []
    blocks: list[Any] = []
    for i, a in enumerate(args):
        if isinstance(a, Tensor):
            if a.device is not device:
                raise DeviceMismatchError(
                    f"launch argument {i} is a tensor on {a.device} but the kernel runs on {device}; "
                    f"move it with .to({str(device)!r})"
                )
            a = a._data
        if isinstance(a, DeviceArray):
            if not a.contiguous:
                raise ArgumentError(
                    f"launch argument {i} is a strided view (shape {a.shape}, strides {a.strides}); kernels "
                    "take contiguous memory: pass t.contiguous()"
                )
            block = a.block
            parts.append(struct.pack("<Q", block.ptr + a.byte_offset))  # the view's first element
            blocks.append(block)
        elif hasattr(a, "record_stream") and hasattr(a, "ptr"):  # an _acl.DeviceBlock
            parts.append(struct.pack("<Q", a.ptr))
            blocks.append(a)
        elif isinstance(a, (int, np.integer)):
            a = int(a)
            if not -(2**63) <= a < 2**64:
                raise ArgumentError(f"launch argument {i} = {a} does not fit in 8 bytes")
            parts.append(struct.pack("<q" if a < 0 else "<Q", a))
        elif _is_float_scalar(a):
            parts.append(_float_slot(i, a))
        elif isinstance(a, float):
            raise ArgumentError(
                f"launch argument {i} is the Python float {a!r}, whose kernel parameter type launch cannot "
                f"know (a float travels as 4 bytes, a double as 8); wrap it: numpy.float32({a!r}) for a "
                f"float parameter, numpy.float64({a!r}) for a double (numpy.float16 for half)"
            )
        else:
            raise ArgumentError(
                f"launch argument {i} is {type(a).__name__} {a!r}; kernel arguments are ints, NumPy float "
                "scalars (numpy.float32 / float64 / float16) or device tensors/buffers (8 bytes each); pass "
                "other values in a tiling buffer"
            )
    return b"".join(parts), blocks


def launch(function: Function, num_blocks: int, args: Sequence[Any] = (), stream: Any = None, *,
           host_args: bool = True) -> None:
    """Enqueue ``function`` with ``num_blocks`` blocks on ``stream`` (default: the current stream of
    its device). Returns at once; errors inside the kernel surface at the next synchronize."""
    if not isinstance(num_blocks, int) or isinstance(num_blocks, bool) or not 1 <= num_blocks < 2**32:
        raise ArgumentError(f"num_blocks must be an int in 1..2**32-1 (aclrtLaunchKernel's uint32 blockDim), "
                            f"got {num_blocks!r}")
    if not isinstance(function, Function):
        raise ArgumentError(f"launch needs a pyasc_acl Function (Binary.function(name)), got "
                            f"{type(function).__name__} {function!r:.60}")
    binary = function.binary
    binary._check_loaded(f"launching {function.name}")
    blob, blocks = pack_args(args, binary.device)
    raw_stream = _raw_stream(stream, binary.backend, binary.device)
    binary.backend.raw_device(binary.device).launch(function.raw, num_blocks, blob, raw_stream, blocks, host_args)
