"""Loading kernel binaries and launching kernels (the design's launch contract: arguments laid out
as the device compiler lays out kernel parameters, by the signature a binary records (see
``signature.py``); binaries without a signature table keep the first ABI, 8 bytes per argument)."""

from __future__ import annotations

import os
import struct
from collections.abc import Sequence
from typing import Any

import numpy as np

from pyasc_core import stream_sanitizer as _san
from pyasc_core.errors import ArgumentError, DeviceMismatchError
from pyasc_core.stream_sanitizer import _active as _san_active
from pyasc_core.stream_sanitizer import _lock as _san_lock
from pyasc_core.stream_sanitizer import _op_reads
from pyasc_core.streams import Stream, _current, _local, current_stream
from pyasc_core.tensor import Tensor

from .backend import AclBackend, acl_backend_of
from .errors import BinaryUnloadedError
from . import fork as _fork
from .signature import Signature, read_signatures
from .storage import DeviceArray


class Binary:
    """A kernel binary loaded on a device (``aclrtBinaryLoadFromFile``); on the simulator a host
    shared object exporting ``__pyasc_sim_entry_<name>``. Unloaded when dropped or by ``unload()``."""

    def __init__(self, path: str | os.PathLike, device: Any = None, *, cpu_kernel_mode: int | None = None) -> None:
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
        if cpu_kernel_mode is not None and cpu_kernel_mode not in (0, 1, 2):
            raise ArgumentError(f"cpu_kernel_mode must be 0, 1 or 2 (ACL's AI CPU registration modes), got "
                                f"{cpu_kernel_mode!r}; pyasc's AI CPU libraries load with 1")
        #: an AI CPU library (ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE): its functions run on the AI CPU
        self.aicpu = cpu_kernel_mode is not None
        self._raw = self.backend.raw_device(self.device).load_binary(
            self.path, -1 if cpu_kernel_mode is None else cpu_kernel_mode)
        self.unloaded = False
        #: {kernel: Signature} from the binary's signature table ({} without one: 8-byte slots)
        self.signatures: dict[str, Signature] = {} if self.aicpu else read_signatures(self.path)

    @classmethod
    def from_data(cls, data: bytes, device: Any = None, *, label: str = "<data>") -> Binary:
        """An AI CPU library from host memory (``aclrtBinaryLoadFromData`` with
        ``ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE`` 2); its functions come from
        :meth:`register_cpu_func`."""
        if not isinstance(data, (bytes, bytearray, memoryview)) or not len(data):
            raise ArgumentError(f"Binary.from_data needs the library's bytes (non-empty), got {type(data).__name__}")
        self = cls.__new__(cls)
        self.backend, self.device = acl_backend_of(device)
        self.path = label
        self.aicpu = True
        self._raw = self.backend.raw_device(self.device).load_binary_data(bytes(data), 2, label)
        self.unloaded = False
        self.signatures = {}
        return self

    def register_cpu_func(self, func_name: str, kernel_name: str) -> Function:
        """The AI CPU function ``func_name`` of this library, registered as op type ``kernel_name``
        (``aclrtRegisterCpuFunc``)."""
        if not self.aicpu:
            raise ArgumentError(f"register_cpu_func: {self.path} is not an AI CPU library; load it with "
                                "Binary(path, cpu_kernel_mode=1) or Binary.from_data(data)")
        self._check_loaded(f"register_cpu_func({func_name!r})")
        return Function(self, self._raw.register_cpu_func(func_name, kernel_name), None)

    def function(self, name: str) -> Function:
        """The kernel ``name`` of this binary (``aclrtBinaryGetFunction``). A template instance is
        named as C++ spells it (``leaky_relu<half>``): simulator binaries export that name, a
        CANN binary its mangled symbol, found in its symbol table (``symbols.resolve``)."""
        if not isinstance(name, str) or not name:
            raise ArgumentError(
                f"Binary.function needs a kernel name (a non-empty str), got {type(name).__name__} {name!r:.60}"
            )
        self._check_loaded(f"function({name!r})")
        symbol = name
        if not name.isidentifier() and name not in self.signatures:
            from .symbols import resolve

            symbol = resolve(self.path, name)
        return Function(self, self._raw.function(symbol), self.signatures.get(name))

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

    def __init__(self, binary: Binary, raw: Any, signature: Signature | None = None) -> None:
        self.binary = binary
        self.raw = raw
        #: the kernel's parameters and their layout (None: the binary has no table; 8-byte slots)
        self.signature = signature if signature is not None else binary.signatures.get(raw.name)

    @property
    def name(self) -> str:
        return self.raw.name

    def __call__(self, num_blocks: int, *args: Any, stream: Any = None) -> None:
        launch(self, num_blocks, args, stream=stream)

    def typed(self) -> TypedFunction:
        """This kernel launched as ``pyasc.Kernel`` launches: Python numbers converted to each
        parameter's declared type (``launch`` takes an int as the parameter's bits)."""
        return TypedFunction(self)

    def __repr__(self) -> str:
        return f"<pyasc_acl.Function {self.name} of {self.binary.path!r}>"


class TypedFunction:
    """A Function whose arguments are converted by their declared types (what
    ``Backend.load_kernel`` returns for pyasc.Kernel): ``fn(num_blocks, *args, stream=None)``."""

    __slots__ = ("function", "signature", "_ctx", "_fast")

    def __init__(self, function: Function) -> None:
        self.function = function
        self.signature = function.signature
        self._ctx: tuple[Any, ...] | None = None
        #: the launch hot path in C (``_acl.launcher``; made at the first launch, False: none)
        self._fast: Any = None

    def __call__(self, num_blocks: int, *args: Any, stream: Any = None) -> None:
        """A launch on ``stream`` (default: the current stream), through :meth:`launcher`."""
        if stream is None:
            fast = self._fast
            if fast is None:
                fast = self.launcher()
            if fast:
                return fast(num_blocks, *args)
        return self._call(num_blocks, *args, stream=stream)

    def launcher(self) -> Any:
        """``fn(num_blocks, *args)`` launching on the current stream: the C launch hot path
        (``_acl.launcher``: packing, stream lookup, the sanitizer's records and the enqueue in one
        call; any other form of call goes to :meth:`_call`), or this function itself."""
        fast = self._fast
        if fast is None:
            fast = self._fast = _fast_launcher(self)
        return fast or self

    def launcher_with_reads(self) -> Any:
        """``fn(reads, num_blocks, *args)``: :meth:`launcher` with the op's read list (the blocks the
        op only reads, for the stream sanitizer; None: none) passed instead of read from the op-reads
        ContextVar (``_acl.launch_with_reads``; without it, that ContextVar set around the launch)."""
        fast = self.launcher()
        if fast is not self:
            from . import _acl

            make = getattr(_acl, "launch_with_reads", None)
            if make is not None:
                return make(fast)

        def launch_with_reads(reads: Any, num_blocks: int, *args: Any) -> None:
            token = _op_reads.set(reads)
            try:
                fast(num_blocks, *args)
            finally:
                _op_reads.reset(token)

        return launch_with_reads

    def _call(self, num_blocks: int, *args: Any, stream: Any = None) -> None:
        """The launch hot path: a typed launch on the current stream in one pass when every argument
        has the common form (a contiguous tensor of the kernel's device, a raw address, an int, a
        float) and the sanitizer's switch is known: packing, the stream lookup, the sanitizer's
        records (as :func:`_sanitize_launch` makes them) and the enqueue. Anything else takes
        :func:`launch` (which also names a bad argument)."""
        ctx = self._ctx
        if stream is not None or type(num_blocks) is not int or not 0 < num_blocks < 4294967296 or ctx is False:
            return launch(self.function, num_blocks, args, stream=stream, _typed=True)
        if ctx is None:
            ctx = self._ctx = _launch_context(self.function)
            if not ctx:
                return launch(self.function, num_blocks, args, _typed=True)
        binary, st, kinds, labels, label, raw_fn, backend, device, spec = ctx
        if binary.unloaded or _fork.stale or len(args) != len(kinds):
            return launch(self.function, num_blocks, args, _typed=True)
        raw_device = backend._devices.get(device.index)
        on = _san_active.get(backend.name)
        if raw_device is None or on is None:
            return launch(self.function, num_blocks, args, _typed=True)
        vals: list[Any] = []
        blocks: list[Any] = []
        i = 0
        for a in args:
            k = kinds[i]
            t = type(a)
            if k == _PTR:
                if t is Tensor and a._device is device:
                    d = a._data
                elif t is DeviceArray:
                    d = a
                elif t is int and 0 <= a < 18446744073709551616:
                    vals.append(a)
                    i += 1
                    continue
                else:
                    return launch(self.function, num_blocks, args, _typed=True)
                if not d.contiguous:
                    return launch(self.function, num_blocks, args, _typed=True)
                p = d._ptr
                blocks.append(d._block)
                o = d.offset
                vals.append(p + o * d.dtype.itemsize if o else p)
            elif (t is int) if k == _INT else (t is float):
                vals.append(a)
            else:
                return launch(self.function, num_blocks, args, _typed=True)
            i += 1
        try:
            blob = st.pack(*vals)
        except (struct.error, OverflowError):
            return launch(self.function, num_blocks, args, _typed=True)
        stack = _current.get().get(device)  # current_stream(device), inlined
        if stack:
            raw_stream = stack[-1]._impl.raw
        else:
            cache = getattr(_local, "defaults", None)
            s = cache.get(device) if cache is not None else None
            raw_stream = (s if s is not None else current_stream(device))._impl.raw
        if on and not getattr(raw_stream, "is_external", False):
            # the sanitizer's records (as _sanitize_launch makes them), checked and made in C; the
            # Python loop takes any it left (a possible race: it reports; what is formatted then)
            record = _LAUNCH_RECORD[0] if _LAUNCH_RECORD else _launch_record()
            reads = _op_reads.get()
            with _san_lock:
                left = record(id(raw_stream), args, spec, reads)
                if left is not None:
                    acc = _launch_accesses(args, kinds, labels, reads)
                    _san.access(raw_stream, acc[left:] if left > 0 else acc, label)
        raw_device.launch(raw_fn, num_blocks, blob, raw_stream, blocks, True)

    def __repr__(self) -> str:
        return f"<pyasc_acl.TypedFunction {self.signature}>"


def _raw_stream(stream: Any, backend: AclBackend, device: Any) -> Any:
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
           host_args: bool = True, _typed: bool = False) -> None:
    """Enqueue ``function`` with ``num_blocks`` blocks on ``stream`` (default: the current stream of
    its device). Returns at once; errors inside the kernel surface at the next synchronize."""
    if type(num_blocks) is not int or not 0 < num_blocks < 4294967296:
        if not isinstance(num_blocks, int) or isinstance(num_blocks, bool) or not 1 <= num_blocks < 2**32:
            raise ArgumentError(f"num_blocks must be an int in 1..2**32-1 (aclrtLaunchKernel's uint32 blockDim), "
                                f"got {num_blocks!r}")
    if type(function) is not Function and not isinstance(function, Function):
        raise ArgumentError(f"launch needs a pyasc_acl Function (Binary.function(name)), got "
                            f"{type(function).__name__} {function!r:.60}")
    binary = function.binary
    if binary.unloaded:
        binary._check_loaded(f"launching {function.name}")
    sig = function.signature
    device = binary.device
    backend = binary.backend
    packed = None
    if _typed and sig is not None:  # the hot path: pyasc.Kernel launches of common arguments
        plan = sig.__dict__.get("_fast_plan", False)
        if plan is False:
            plan = _fast_plan(sig)
        if plan is not None and len(args) == len(plan[1]):
            packed = _pack_fast(plan, args, device)
    if packed is not None:
        blob, blocks, where = packed
    else:
        where = None
        if sig is None:
            blob, blocks = pack_args(args, device)
        else:
            blob, blocks = pack_typed(sig, args, device, raw=not _typed)
    if stream is None:  # current_stream(device) inlined (the launch hot path)
        stack = _current.get().get(device)
        if stack:
            raw_stream = stack[-1].impl.raw
        else:
            cache = getattr(_local, "defaults", None)
            s = cache.get(device) if cache is not None else None
            raw_stream = (s if s is not None else current_stream(device)).impl.raw
    else:
        raw_stream = _raw_stream(stream, backend, device)
    on = _san_active.get(backend.name)
    if on is None:
        on = _san.active(backend.name)
    if on and not getattr(raw_stream, "is_external", False):
        if where is not None:
            _sanitize_fast(function, sig, blocks, where, raw_stream)
        else:
            _sanitize_launch(function.name, sig, args, raw_stream)
    backend.raw_device(device).launch(function.raw, num_blocks, blob, raw_stream, blocks, host_args)


def _launch_context(function: Function) -> tuple[Any, ...] | bool:
    """What the launch fast path (TypedFunction.__call__) needs of ``function``, looked up once (False: its signature needs
    the general path)."""
    sig = function.signature
    plan = _fast_plan(sig) if sig is not None else None
    if plan is None:
        return False
    labels = tuple((p.name == "tiling", f"its GM argument {i}" + (f" {p.name!r}" if p.name else ""))
                   for i, p in enumerate(sig.params))
    binary = function.binary
    label = f"the launch of kernel {function.name!r}"
    return (binary, plan[0], plan[1], labels, label, function.raw, binary.backend, binary.device,
            (plan[1], labels, label, Tensor, DeviceArray))


def _fast_launcher(fn: TypedFunction) -> Any:
    """The C launch hot path of ``fn`` (``_acl.launcher``), or False when its signature needs the
    general path or the binding has none."""
    ctx = _launch_context(fn.function)
    if not ctx:
        return False
    binary, st, kinds, labels, label, raw_fn, backend, device, spec = ctx
    try:
        from . import _acl
    except ImportError:
        return False
    params = tuple((k, p.offset, p.size, p.kind == "int") for k, p in zip(kinds, fn.signature.params))

    def partial(raw_stream: Any, args: tuple, reads: Any, left: Any) -> None:
        """The sanitizer's records the C recorder left (``left``: -1 or an index; False: the
        sanitizer's lock was held, so all are made here, under it)."""
        with _san_lock:
            if left is False:
                record = _LAUNCH_RECORD[0] if _LAUNCH_RECORD else _launch_record()
                left = record(id(raw_stream), args, spec, reads)
                if left is None:
                    return
            acc = _launch_accesses(args, kinds, labels, reads)
            _san.access(raw_stream, acc[left:] if left > 0 else acc, label)

    _launch_record()
    return _acl.launcher(params, st.size, (
        fn._call, binary, raw_fn, backend, device, device.index, spec, _LAUNCH_RECORD, partial, _current, _local,
        _san_active, backend.name, _fork.stale, _op_reads, _san._busy, Tensor, DeviceArray))


#: the sanitizer's launch record in C (``_acl.stream_launch_recorder`` over its state), made once
_LAUNCH_RECORD: list[Any] = []


def _launch_record() -> Any:
    if not _LAUNCH_RECORD:
        from . import _acl

        _LAUNCH_RECORD.append(_acl.stream_launch_recorder(_san._clocks, _san._blocks, _san._host, _san._joined,
                                                          _san._host_gen, _san._MAX_ENTRIES))
    return _LAUNCH_RECORD[0]


def _launch_accesses(args: Sequence[Any], kinds: tuple[int, ...], labels: tuple[tuple[bool, str], ...],
                     reads: Any) -> list[tuple[int, int, int, bool, Any]]:
    """The sanitizer's records of a fast-path launch (TypedFunction.__call__) (one per distinct block argument,
    written unless a tiling parameter or in the op's ``reads``); what the C record makes itself."""
    acc: list[tuple[int, int, int, bool, Any]] = []
    keys: list[int] = []
    for i, a in enumerate(args):
        if kinds[i] != _PTR:
            continue
        t = type(a)
        if t is Tensor:
            d = a._data
        elif t is DeviceArray:
            d = a
        else:
            continue  # a raw address: not tracked
        p = d._ptr
        what = labels[i]
        write = not (what[0] or (reads is not None and p in reads))
        if p not in keys:
            keys.append(p)
            acc.append((p, 0, d._nbytes, write, what))
        else:
            j = keys.index(p)
            if write and not acc[j][3]:
                acc[j] = (p, 0, acc[j][2], True, acc[j][4])
    return acc




def _sanitize_fast(function: Function, sig: Signature, blocks: list[Any], where: list[int],
                   raw_stream: Any) -> None:
    """:func:`_sanitize_launch` for the fast path, from the blocks packing found (``where``: the
    parameter index of each): the same records, with labels built once per (parameter, size)."""
    reads = _op_reads.get()
    labels = sig.__dict__.get("_san_labels")
    if labels is None:
        labels = tuple((p.name == "tiling", f"argument {i}" + (f" {p.name!r}" if p.name else ""))
                       for i, p in enumerate(sig.params))
        object.__setattr__(sig, "_san_labels", labels)
    acc: list[tuple[int, int, int, bool, str]] = []
    keys: list[int] = []
    for b, i in zip(blocks, where):
        key = b.ptr
        tiling, what = labels[i]
        write = not (tiling or (reads is not None and key in reads))
        nbytes = b.nbytes
        if key in keys:
            j = keys.index(key)
            if write and not acc[j][3]:
                acc[j] = (key, 0, nbytes, True, acc[j][4])
            continue
        keys.append(key)
        lk = (what, nbytes)
        text = _WHAT.get(lk)
        if text is None:
            if len(_WHAT) > 4096:
                _WHAT.clear()
            text = _WHAT[lk] = f"its GM {what} ({nbytes} bytes)"
        acc.append((key, 0, nbytes, write, text))
    name = function.__dict__.get("_launch_label")
    if name is None:
        name = function._launch_label = f"the launch of kernel {function.name!r}"
    _san.access(raw_stream, acc, name)


#: per (parameter label, bytes): the text of a sanitizer record
_WHAT: dict[tuple[str, int], str] = {}


#: labels of launch arguments and launches in the stream sanitizer's records (built once each)
_ARG_LABELS: dict[tuple[int, str], str] = {}
_LAUNCH_LABELS: dict[str, str] = {}


def _sanitize_launch(name: str, sig: Signature | None, args: Sequence[Any], raw_stream: Any) -> None:
    """The stream sanitizer's view of a launch: inside an op its input blocks are read, and so is a
    ``tiling`` parameter (uploads are immutable); every other GM block argument may be written
    (whole blocks: a kernel argument's extent is not known)."""
    reads = _san.read_only_blocks()
    acc: list[tuple[int, int, int, bool, str]] = []
    seen: dict[int, int] = {}
    params = sig.params if sig is not None else ()
    for i, a in enumerate(args):
        t = type(a)
        if t is int or t is float:
            continue  # the common scalars, without the attribute probes below
        if t is Tensor or isinstance(a, Tensor):
            a = a._data
        if type(a) is DeviceArray or isinstance(a, DeviceArray):
            a = a.block
        elif not hasattr(a, "record_stream") or not hasattr(a, "nbytes"):
            continue  # scalars, raw addresses, tiling structs (uploaded read-only)
        key = a.ptr
        pname = params[i].name if i < len(params) else ""
        write = not ((reads is not None and key in reads) or pname == "tiling")
        nbytes = a.nbytes
        j = seen.get(key)
        if j is not None:
            if write and not acc[j][3]:
                acc[j] = (key, 0, nbytes, True, acc[j][4])
            continue
        seen[key] = len(acc)
        what = _ARG_LABELS.get((i, pname))
        if what is None:
            what = _ARG_LABELS[(i, pname)] = f"argument {i}" + (f" {pname!r}" if pname else "")
        acc.append((key, 0, nbytes, write, f"its GM {what} ({nbytes} bytes)"))
    op = _LAUNCH_LABELS.get(name)
    if op is None:
        op = _LAUNCH_LABELS[name] = f"the launch of kernel {name!r}"
    _san.access(raw_stream, acc, op)


# -- typed packing (by the kernel's signature) ------------------------------------------------------

_INT_RANGE = {(size, signed): ((-(2 ** (8 * size - 1)), 2 ** (8 * size - 1) - 1) if signed else (0, 2 ** (8 * size) - 1))
              for size in (1, 2, 4, 8) for signed in (True, False)}
_FLOAT_FMT = {2: "<e", 4: "<f", 8: "<d"}


def _where(sig: Signature, i: int) -> str:
    p = sig.params[i]
    return f"kernel {sig.kernel!r}: argument {i} '{p.name}' ({p.type or p.kind}, {p.size} bytes)"


def _pointer(sig: Signature, i: int, a: Any, device: Any, blocks: list[Any]) -> int:
    from pyasc_core.tensor import Tensor

    if isinstance(a, Tensor):
        pass
    elif hasattr(a, "__pyasc_struct__"):  # a tiling struct for a GM_ADDR tiling parameter
        from pyasc_core.kernel import upload_struct

        a = upload_struct(a, device)
    elif not isinstance(a, (Tensor, DeviceArray, int, np.integer)) and hasattr(a, "__dlpack__") \
            and not hasattr(a, "ptr"):
        from pyasc_core.interop import from_dlpack

        a = from_dlpack(a)
    if isinstance(a, Tensor):
        if a.device is not device:
            raise DeviceMismatchError(f"{_where(sig, i)} is a tensor on {a.device} but the kernel runs on "
                                      f"{device}; move it with .to({str(device)!r})")
        a = a._data
    if isinstance(a, DeviceArray):
        if not a.contiguous:
            raise ArgumentError(
                f"{_where(sig, i)} is a strided view (shape {a.shape}, strides {a.strides}); kernels get "
                "contiguous memory: pass t.contiguous()")
        blocks.append(a.block)
        return a.block.ptr + a.byte_offset
    if hasattr(a, "record_stream") and hasattr(a, "ptr"):  # an _acl.DeviceBlock
        blocks.append(a)
        return int(a.ptr)
    if isinstance(a, (int, np.integer)) and not isinstance(a, bool) and 0 <= int(a) < 2**64:
        return int(a)  # a raw device address (0: no buffer, e.g. an unused workspace)
    raise ArgumentError(f"{_where(sig, i)} takes a device tensor on {device} (or a raw address), got "
                        f"{type(a).__name__} {a!r:.60}")


def _raw_scalar(sig: Signature, i: int, a: Any) -> bytes | None:
    """pyasc_acl.launch's own meaning of a value (as with 8-byte slots): an int is the parameter's
    bits (any signedness), a NumPy scalar its own bytes (its width must be the parameter's)."""
    p = sig.params[i]
    if isinstance(a, (int, np.integer)) and not isinstance(a, (bool, np.bool_)) and p.kind != "struct":
        v = int(a)
        if not -(2 ** (8 * p.size - 1)) <= v < 2 ** (8 * p.size):
            raise ArgumentError(f"{_where(sig, i)} got {v}, which does not fit in {p.size} bytes")
        return (v & (2 ** (8 * p.size) - 1)).to_bytes(p.size, "little")
    if isinstance(a, np.generic) and _is_float_scalar(a):
        raw = np.asarray(a).astype(a.dtype.newbyteorder("<")).tobytes()
        if len(raw) != p.size:
            raise ArgumentError(f"{_where(sig, i)} got the {a.dtype} scalar {a!r} ({len(raw)} bytes); pass a "
                                f"{p.size}-byte value (or a Python float: it is converted to {p.type or p.kind})")
        return raw
    return None


def _scalar(sig: Signature, i: int, a: Any, raw: bool = False) -> bytes:
    p = sig.params[i]
    if raw:
        out = _raw_scalar(sig, i, a)
        if out is not None:
            return out
    if p.kind in ("int", "uint", "bool"):
        if isinstance(a, (bool, np.bool_)) or isinstance(a, (int, np.integer)):
            v = int(a)
            lo, hi = _INT_RANGE[(p.size, p.kind == "int")]
            if p.kind == "bool":
                lo, hi = 0, 1
            if not lo <= v <= hi:
                raise ArgumentError(f"{_where(sig, i)} got {v}, which does not fit ({lo}..{hi}); pass a value "
                                    "in range or change the parameter's type")
            return v.to_bytes(p.size, "little", signed=p.kind == "int")
        raise ArgumentError(f"{_where(sig, i)} takes an integer, got {type(a).__name__} {a!r:.60}")
    if p.kind in ("float", "bfloat16"):
        if isinstance(a, (bool, np.bool_)) or not isinstance(a, (int, float, np.integer, np.floating)) and not (
                isinstance(a, np.generic) and _is_float_scalar(a)):
            raise ArgumentError(f"{_where(sig, i)} takes a number, got {type(a).__name__} {a!r:.60}")
        if p.kind == "bfloat16":
            from pyasc_core import dtypes as _dt

            return np.array(float(a), np.float32).astype(_dt.bfloat16).tobytes()
        with np.errstate(over="ignore"):
            if p.size == 2:
                return np.array(float(a), np.float16).tobytes()
            return struct.pack(_FLOAT_FMT[p.size], float(a) if p.size == 8 else float(np.float32(a)))
    # a struct by value: a tiling object or raw bytes of exactly its size
    data = a.__pyasc_struct__() if hasattr(a, "__pyasc_struct__") else a
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise ArgumentError(f"{_where(sig, i)} is a struct passed by value: pass a pyasc.TilingStruct instance "
                            f"of that type (or its {p.size} bytes), got {type(a).__name__} {a!r:.60}")
    data = bytes(data)
    if len(data) != p.size:
        raise ArgumentError(f"{_where(sig, i)} is a struct of {p.size} bytes in the compiled kernel, but the "
                            f"value has {len(data)} bytes ({type(a).__name__}); make the Python struct's fields "
                            "match the C++ struct (same types, order and arrays)")
    return data


_PTRS = [struct.Struct(f"<{n}Q") for n in range(65)]

#: struct codes of the scalar parameters the typed fast path packs: (kind, size) -> code
_FAST_CODES = {("int", 1): "b", ("int", 2): "h", ("int", 4): "i", ("int", 8): "q",
               ("uint", 1): "B", ("uint", 2): "H", ("uint", 4): "I", ("uint", 8): "Q",
               ("float", 4): "f", ("float", 8): "d"}
_PTR, _INT, _FLOAT = 0, 1, 2


def _fast_plan(sig: Signature) -> tuple[struct.Struct, tuple[int, ...]] | None:
    """One struct.Struct laying out every parameter of ``sig`` at its offset (pointers, ints, float
    and double), cached on the signature; None when a parameter needs the general path (structs,
    half, bfloat16, bool)."""
    plan = sig.__dict__.get("_fast_plan", False)
    if plan is not False:
        return plan
    fmt, kinds, at = ["<"], [], 0
    for p in sig.params:
        code = "Q" if p.kind == "pointer" and p.size == 8 else _FAST_CODES.get((p.kind, p.size))
        if code is None or p.offset < at:
            plan = None
            break
        fmt.append("x" * (p.offset - at) + code)
        kinds.append(_PTR if p.kind == "pointer" else _FLOAT if p.kind == "float" else _INT)
        at = p.offset + p.size
    else:
        fmt.append("x" * (sig.size - at))
        plan = struct.Struct("".join(fmt)), tuple(kinds)
        if plan[0].size != sig.size:
            plan = None
    object.__setattr__(sig, "_fast_plan", plan)
    return plan


def _pack_fast(plan: tuple[struct.Struct, tuple[int, ...]], args: Sequence[Any], device: Any
               ) -> tuple[bytes, list[Any]] | None:
    """The blob by ``plan`` when every argument is of the common form (a contiguous tensor of
    ``device``, a raw address, a Python int for an integer, a Python float for float/double), else
    None: the general path then converts or names the bad argument."""
    st, kinds = plan
    vals: list[Any] = []
    blocks: list[Any] = []
    where: list[int] = []
    for i, (a, k) in enumerate(zip(args, kinds)):
        t = type(a)
        if k == _PTR:
            if t is Tensor and a._device is device:
                d = a._data
            elif t is DeviceArray:
                d = a
            elif t is int and 0 <= a < 2**64:
                vals.append(a)
                continue
            else:
                return None
            if not d.contiguous:
                return None
            b = d._block if not _fork.stale else d.block
            blocks.append(b)
            where.append(i)
            vals.append(b.ptr + d.offset * d.dtype.itemsize)
        elif (t is int) if k == _INT else (t is float):
            vals.append(a)
        else:
            return None
    try:
        return st.pack(*vals), blocks, where
    except (struct.error, OverflowError):  # out of range: the general path says which and why
        return None


def pack_typed(sig: Signature, args: Sequence[Any], device: Any, raw: bool = False) -> tuple[bytes, list[Any]]:
    """The argument blob of ``args`` laid out by ``sig`` (each parameter at its offset, by its
    declared type) and the device blocks it refers to. Python numbers are converted to the
    parameter's type; with ``raw`` (pyasc_acl.launch) ints and NumPy scalars are taken as the
    parameter's bits, as with 8-byte slots. Raises ArgumentError / DeviceMismatchError naming the
    parameter."""
    if len(args) != len(sig.params):
        raise ArgumentError(
            f"kernel {sig.kernel!r} takes {len(sig.params)} arguments ({sig}), got {len(args)}")
    if not raw:
        plan = _fast_plan(sig)
        if plan is not None:
            packed = _pack_fast(plan, args, device)
            if packed is not None:
                return packed[0], packed[1]
    if sig.pointers_only and len(args) < len(_PTRS):  # the built-in kernels' form: the hot path, as cheap as 8-byte slots
        ptrs, blocks = [], []
        for a in args:
            t = type(a)
            if t is Tensor and a._device is device:
                d = a._data
            elif t is DeviceArray:
                d = a
            elif t is int and 0 <= a < 2**64:  # a raw address (0: no buffer)
                ptrs.append(a)
                continue
            else:
                break
            if not d.contiguous:
                break
            b = d.block
            blocks.append(b)
            ptrs.append(b.ptr + d.byte_offset)
        else:
            return _PTRS[len(ptrs)].pack(*ptrs), blocks
    blob = bytearray(sig.size)
    blocks: list[Any] = []
    for i, (p, a) in enumerate(zip(sig.params, args)):
        if p.kind == "pointer":
            struct.pack_into("<Q", blob, p.offset, _pointer(sig, i, a, device, blocks))
        else:
            blob[p.offset:p.offset + p.size] = _scalar(sig, i, a, raw)
    return bytes(blob), blocks
