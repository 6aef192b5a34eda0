"""Kernels as first-class objects: ``pyasc.Kernel`` and ``pyasc.kernels``.

::

    k = pyasc.Kernel("leaky_relu.cpp", "leaky_relu_float")
    k[8](x, y, n, 0.1)              # 8 blocks on the current stream of x's device (asynchronous)
    k[8, stream](x, y, n, 0.1)      # on another stream
    k.signature                     # leaky_relu_float(GM_ADDR x, GM_ADDR y, uint32_t n, float alpha)

A kernel is compiled on first use per backend by that backend (``Backend.compile_kernel``: the
simulator compiles the source with g++ into the per-user cache; the NPU takes a binary the pack
ships, else compiles with CANN's bisheng into the same cache) and loaded once per device (``Backend.load_kernel``); both steps are thread-safe, and the
cache is process-safe. Arguments are packed by the kernel's signature (see ``pyasc_acl.signature``).
Tiling structs (``pyasc.TilingStruct``) given for a pointer parameter are uploaded to the device
once per content (:func:`upload`)."""

from __future__ import annotations

import os
import re
import sys
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .device import Device
from .errors import ArgumentError, KernelNotFoundError
from .registry import backend_for_device
from .selection import resolve_device
from .streams import Stream, current_stream
from .tensor import Tensor, wrap_storage
from .torch_tensors import (
    PLAIN_TYPES,
    from_torch,
    has_torch_tensor,
    is_torch_tensor,
    npu_device_of_args,
    on_torch_stream,
    to_torch,
)

_SUFFIXES = (".cpp", ".cc", ".cxx", ".c++", ".h", ".hpp")
_TEMPLATE_ID_RE = re.compile(r"[A-Za-z_]\w*\s*<.+>", re.S)

#: dtype -> the Ascend C type a template instance is named with (Kernel.instance)
_C_TYPES = {"bool": "bool", "int8": "int8_t", "uint8": "uint8_t", "int16": "int16_t", "uint16": "uint16_t",
            "int32": "int32_t", "uint32": "uint32_t", "int64": "int64_t", "uint64": "uint64_t",
            "float16": "half", "bfloat16": "bfloat16_t", "float32": "float", "float64": "double"}


def canonical_name(name: str) -> str:
    """A kernel name in one spelling (as pyasc_sim._stubgen.canonical_name spells it): whitespace
    collapsed, none around ``<>(),*&:[]`` but one space after each comma: ``leaky_relu<half, 8>``."""
    s = re.sub(r"\s+", " ", name.strip())
    s = re.sub(r"\s*([<>(),*&:\[\]])\s*", r"\1", s)
    return s.replace(",", ", ")


def is_template_id(name: str) -> bool:
    """True for a template instance's name, ``leaky_relu<half>``."""
    return bool(_TEMPLATE_ID_RE.fullmatch(name))


def c_type(arg: Any) -> str:
    """A template argument as C++ spells it: a dtype (pyasc.float16, np.float32) as its Ascend C
    type (half, float), an int as its literal, a str as written (C++: 'half', 'float', '8')."""
    from . import dtypes as _dt

    if isinstance(arg, str):
        if not arg.strip():
            raise ArgumentError("a template argument is a C++ type or value such as 'half' or 8, got ''")
        return arg.strip()
    if isinstance(arg, bool):
        return "true" if arg else "false"
    if isinstance(arg, (int, np.integer)):
        return str(int(arg))
    try:
        name = _dt.dtype_name(_dt.as_dtype(arg))
    except Exception:
        name = None
    if name not in _C_TYPES:
        raise ArgumentError(f"a template argument is a dtype ({', '.join(sorted(_C_TYPES))}), an int or a C++ "
                            f"spelling such as 'half', got {type(arg).__name__} {arg!r:.60}")
    return _C_TYPES[name]


class KernelSource:
    """Ascend C source shared by the kernels built from it: compiled once per backend.

    ``text`` and ``path`` (None for source text), compile ``options`` (``opt``, ``extra_flags``,
    ``checks``), ``binaries`` ({backend: prebuilt binary path}, e.g. what a pack ships for the NPU)
    and ``structs`` (TilingStruct classes whose layout the compiled kernel is checked against).
    ``source=None`` with ``binaries`` is a pack that ships prebuilt binaries only (any Mapping:
    the built-in kernels find theirs per backend on first use)."""

    def __init__(self, source: str | os.PathLike | None, *, options: Mapping[str, Any] | None = None,
                 binaries: Mapping[str, str | os.PathLike] | None = None,
                 structs: Sequence[type] = ()) -> None:
        if source is None:  # a pack that ships binaries only: nothing to compile
            if binaries is None or (type(binaries) is dict and not binaries):
                raise ArgumentError("KernelSource(None) needs binaries={backend: path} (a pack that ships "
                                    "prebuilt binaries only); otherwise pass the source file or text")
            text, self.path = "", None
        elif isinstance(source, os.PathLike) or (isinstance(source, str) and "\n" not in source
                                                and source.strip().endswith(_SUFFIXES)):
            path = os.path.abspath(os.fspath(source))
            try:
                with open(path, encoding="utf-8") as f:
                    text = f.read()
            except OSError as exc:
                raise ArgumentError(f"cannot read the kernel source {path}: {exc.strerror}; pass an existing "
                                    "file or the source text itself") from None
            self.path: str | None = path
        elif isinstance(source, str) and source.strip():
            text, self.path = source, None
        else:
            raise ArgumentError(f"a kernel source is a path to an Ascend C file (.cpp) or the source text, got "
                                f"{type(source).__name__} {source!r:.60}")
        self.text = text
        self.options = dict(options or {})
        # a Mapping subclass is kept as given (it may find its paths lazily, per backend)
        self.binaries = ({k: os.path.abspath(os.fspath(v)) for k, v in binaries.items()}
                         if type(binaries) is dict else binaries if binaries is not None else {})
        if self.path is not None:  # binaries built ahead of time next to the source (pyasc_sim.pack_build)
            stem = os.path.splitext(self.path)[0]
            for backend, suffix in (("sim", ".sim.so"), ("npu", ".npu.o")):
                pre = stem + suffix
                if backend not in self.binaries and os.path.isfile(pre) and \
                        os.path.getmtime(pre) >= os.path.getmtime(self.path):
                    self.binaries[backend] = pre
        self.structs = tuple(structs)
        self._lock = threading.Lock()
        self._artifacts: dict[str, Any] = {}
        self.instances: frozenset[str] = frozenset()

    def request(self, name: str) -> None:
        """Ask for template instance ``name`` (``leaky_relu<half>``) in this source's binaries: the
        compile instantiates it (a source compiled without it is compiled again, once, on next use)."""
        with self._lock:
            if name not in self.instances:
                self.instances = self.instances | {name}
                self._artifacts.clear()

    instances: frozenset[str] = frozenset()

    def __repr__(self) -> str:
        return f"<pyasc.KernelSource {self.path or '<text>'}>"

    @property
    def checks_text(self) -> str:
        """C++ layout checks of ``structs`` (static_asserts appended after the source)."""
        return "\n".join(s.cpp_checks() for s in self.structs)

    def artifact(self, backend: Any) -> Any:
        """What ``backend.compile_kernel`` built from this source (compiled on first use, once)."""
        art = self._artifacts.get(backend.name)
        if art is None:
            with self._lock:
                art = self._artifacts.get(backend.name)
                if art is None:
                    art = self._artifacts[backend.name] = backend.compile_kernel(self)
        return art


class Kernel:
    """One kernel of an Ascend C source: ``Kernel(source, name)``; launch with ``k[blocks](*args)``.

    ``source`` is a path or the source text (or a :class:`KernelSource` shared with other kernels);
    ``name`` the kernel's name (optional when the source has one kernel). A template kernel's
    instance is named as C++ spells it, ``Kernel(source, "leaky_relu<half>")`` (as CuPy's
    ``name_expressions``): it is instantiated when the source compiles, whether or not the source
    instantiates it explicitly; ``Kernel(source, "leaky_relu").instance(pyasc.float16)`` names the
    same instance from a dtype. ``opt``/``extra_flags``/
    ``checks`` go to the simulator's compiler, ``binaries`` maps a backend to a prebuilt binary
    (``{"npu": "build/leaky_relu.o"}``), ``structs`` lists the TilingStruct classes to check
    against the compiled kernel's C++ structs of the same ``cpp_name``."""

    def __init__(self, source: str | os.PathLike | KernelSource, name: str | None = None, *,
                 opt: str | None = None, extra_flags: Sequence[str] = (), checks: bool = True,
                 binaries: Mapping[str, str | os.PathLike] | None = None, structs: Sequence[type] = (),
                 _request: bool = True) -> None:
        if name is not None and (not isinstance(name, str) or not (name.isidentifier() or is_template_id(name))):
            raise ArgumentError(f"a kernel name is a C identifier such as 'add_custom' or a template instance "
                                f"such as 'leaky_relu<half>', got {name!r:.60}")
        if name is not None and not name.isidentifier():
            name = canonical_name(name)
        if isinstance(source, KernelSource):
            self.source = source
        else:
            options: dict[str, Any] = {"checks": checks, "extra_flags": tuple(extra_flags)}
            if opt is not None:
                options["opt"] = opt
            self.source = KernelSource(source, options=options, binaries=binaries, structs=structs)
        self._name = name
        self._lock = threading.Lock()
        self._loaded: dict[Device, Any] = {}
        self._instances: dict[str, Kernel] = {}
        if name is not None and _request and is_template_id(name):
            self.source.request(name)

    def instance(self, *args: Any) -> Kernel:
        """The template instance ``name<args>`` of this (template) kernel, sharing its source:
        ``k.instance(pyasc.float16)`` is ``Kernel(source, "leaky_relu<half>")``; dtypes become
        their Ascend C types, ints their literals, strings stay as written (C++ spelling)."""
        if not args:
            raise ArgumentError(f"{self.name}.instance() needs the template arguments, e.g. "
                                "k.instance(pyasc.float16) or k.instance('half', 8)")
        if not self.name.isidentifier():
            raise ArgumentError(f"{self.name!r} is already a template instance; instance() is for the "
                                "template kernel, pyasc.Kernel(source, 'leaky_relu')")
        full = canonical_name(f"{self.name}<{', '.join(c_type(a) for a in args)}>")
        k = self._instances.get(full)
        if k is None:
            with self._lock:
                k = self._instances.setdefault(full, Kernel(self.source, full))
        return k

    @property
    def name(self) -> str:
        """The kernel's name (found in the compiled source when not given)."""
        if self._name is None:
            names = self.names()
            if len(names) != 1:
                raise ArgumentError(f"{self.source.path or 'the source'} has {len(names)} kernels "
                                    f"({', '.join(names)}): name one, pyasc.Kernel(source, 'name'), or use "
                                    "pyasc.kernels(source)")
            self._name = names[0]
        return self._name

    def names(self, device: Any = None) -> list[str]:
        """The kernels of the source, as compiled for ``device``'s backend."""
        backend = backend_for_device(resolve_device(device) if not isinstance(device, Device) else device)
        return list(backend.kernel_names(self.source.artifact(backend)))

    def __repr__(self) -> str:
        return f"<pyasc.Kernel {self._name or '?'} of {self.source.path or '<source text>'}>"

    def compile(self, device: Any = None) -> Any:
        """Compile now for ``device``'s backend (default: the current device); returns the artifact
        (the simulator: the binary's path)."""
        device = device if isinstance(device, Device) else resolve_device(device)
        return self.source.artifact(backend_for_device(device))

    def function(self, device: Any = None) -> Any:
        """The kernel loaded on ``device`` (compiled and loaded on first use, once per device)."""
        device = device if isinstance(device, Device) else resolve_device(device)
        fn = self._loaded.get(device)
        if fn is None:
            backend = backend_for_device(device)
            art = self.source.artifact(backend)
            with self._lock:
                fn = self._loaded.get(device)
                if fn is None:
                    self._check_name(backend, art)
                    fn = self._loaded[device] = backend.load_kernel(art, self.name, device)
        return fn

    def _check_name(self, backend: Any, art: Any) -> None:
        """Refuse a name the compiled source does not have, listing the kernels it has."""
        try:
            names = list(backend.kernel_names(art))
        except Exception:  # a binary without names (CANN's): the backend's own lookup reports it
            return
        if names and self.name not in names:
            hint = (f"; if {self.name!r} is a template kernel, launch an instance: pyasc.Kernel(source, "
                    f"'{self.name}<half>') or k.instance(pyasc.float16)" if self.name.isidentifier() else "")
            raise KernelNotFoundError(f"{self.source.path or 'the kernel source'} has no kernel {self.name!r} for "
                                      f"{backend.name}; its kernels are {', '.join(sorted(names))}{hint}")

    @property
    def signature(self) -> Any:
        """The parameters of the kernel compiled for the current device's backend, with their
        declared types and where each sits in the argument blob."""
        sig = getattr(self.function(), "signature", None)
        if sig is None:
            raise KernelNotFoundError(f"the binary of kernel {self.name!r} records no signature (an older or "
                                      "foreign binary): its arguments are packed 8 bytes each")
        return sig

    def __getitem__(self, key: Any) -> _Launcher:
        if isinstance(key, tuple):
            if len(key) != 2:
                raise ArgumentError(f"launch a kernel as k[blocks](...) or k[blocks, stream](...), got k[{key!r:.60}]")
            blocks, stream = key
        else:
            blocks, stream = key, None
        if not isinstance(blocks, (int, np.integer)) or isinstance(blocks, bool) or not 1 <= int(blocks) < 2**32:
            raise ArgumentError(f"k[blocks]: blocks must be an int in 1..2**32-1, got {blocks!r:.60}")
        if stream is not None and not isinstance(stream, Stream):
            raise ArgumentError(f"k[blocks, stream]: stream must be a pyasc.Stream or None, got "
                                f"{type(stream).__name__} {stream!r:.60}")
        return _Launcher(self, int(blocks), stream)

    def launch(self, blocks: int, *args: Any, stream: Stream | None = None) -> None:
        """``k[blocks, stream](*args)``."""
        self[blocks, stream](*args)


class _Launcher:
    __slots__ = ("kernel", "blocks", "stream")

    def __init__(self, kernel: Kernel, blocks: int, stream: Stream | None) -> None:
        self.kernel, self.blocks, self.stream = kernel, blocks, stream

    def __call__(self, *args: Any) -> None:
        # (the plain-type test inline: the launch hot path, see PLAIN_TYPES)
        if "torch" in sys.modules and not PLAIN_TYPES.issuperset(map(type, args)) and has_torch_tensor(args, {}):
            return _launch_with_torch(self, args)
        stream = self.stream
        if stream is not None:
            device = stream.device
            fn = self.kernel._loaded.get(device) or self.kernel.function(device)
            fn(self.blocks, *args, stream=stream)
            return
        device = None
        for a in args:
            if type(a) is Tensor or isinstance(a, Tensor):
                device = a._device
                break
        if device is None:
            device = resolve_device(None)
        fn = self.kernel._loaded.get(device) or self.kernel.function(device)
        fn(self.blocks, *args)  # the current stream (no keyword: the launch hot path)


def _launch_with_torch(launcher: _Launcher, args: tuple) -> None:
    """A launch with torch tensor arguments: each is copied to the launch device, the kernel runs,
    the stream is synchronized and the tensors are copied back (the kernel may write any of them).
    On a host device nothing is copied (the kernel sees the torch tensors' memory)."""
    import contextlib

    import torch

    npu = npu_device_of_args(args, {})
    device = launcher.stream.device if launcher.stream is not None else next(
        (a._device for a in args if isinstance(a, Tensor)), None) or (resolve_device(npu) if npu else None) \
        or resolve_device(None)
    pairs = [(a, from_torch(a, device)) if is_torch_tensor(a) else (None, a) for a in args]
    # torch_npu tensors on the launch device are shared in place: no copies, and (without a stream
    # of the caller's) the launch queues on torch_npu's current stream, in order with torch's work
    copied = [(t, p) for t, p in pairs if t is not None and not p.backend.is_host and not _shares(t, p)]
    in_place = launcher.stream is None and npu is not None and device == resolve_device(npu)
    with on_torch_stream(npu) if in_place else contextlib.nullcontext():
        launcher(*(p for _, p in pairs))
    if not copied:
        return
    (launcher.stream or current_stream(device)).synchronize()
    with torch.no_grad():
        for t, p in copied:  # a CPU torch tensor gets its data back through the host
            t.copy_(torch.from_dlpack(p.to("numpy")) if t.device.type == "cpu" else to_torch(p))


def _shares(t: Any, p: Tensor) -> bool:
    """Whether pyasc tensor ``p`` is torch tensor ``t``'s own memory (from_torch of a torch_npu tensor)."""
    owner = getattr(getattr(p._data, "block", None), "owner", None)
    return is_torch_tensor(owner) and owner.data_ptr() == t.data_ptr()


class KernelDict(dict):
    """{name: Kernel} of one source (:func:`kernels`); a template instance not instantiated by the
    source is made on first lookup, ``ks["leaky_relu<float>"]`` (compiled on its first use)."""

    def __init__(self, source: KernelSource, kernels: Mapping[str, Kernel]) -> None:
        super().__init__(kernels)
        self.source = source

    def __missing__(self, name: str) -> Kernel:
        if isinstance(name, str) and is_template_id(name):
            full = canonical_name(name)
            if full in self:
                return self[full]
            k = self.setdefault(full, Kernel(self.source, full))
            return k
        raise KeyError(f"{name!r} is not a kernel of {self.source.path or 'the source'}; its kernels are "
                       f"{', '.join(sorted(self)) or 'none'} (a template kernel's instance is named "
                       "'name<type>', e.g. 'leaky_relu<half>')")


def kernels(source: str | os.PathLike, *, device: Any = None, **options: Any) -> KernelDict:
    """Every kernel of an Ascend C source, {name: Kernel}, sharing one compile per backend (the
    names come from compiling for ``device``'s backend, default the current device): its
    ``extern "C"`` kernels and the template instances it instantiates; other instances of its
    template kernels are made on lookup, ``kernels(src)["leaky_relu<float>"]``."""
    opts = {k: v for k, v in options.items() if k in ("opt", "extra_flags", "checks")}
    extra = set(options) - set(opts) - {"binaries", "structs"}
    if extra:
        raise ArgumentError(f"pyasc.kernels got unknown options {sorted(extra)}; it takes opt, extra_flags, checks, "
                            "binaries, structs")
    if "extra_flags" in opts:
        opts["extra_flags"] = tuple(opts["extra_flags"])
    opts.setdefault("checks", True)
    opts.setdefault("extra_flags", ())
    src = KernelSource(source, options=opts, binaries=options.get("binaries"), structs=options.get("structs", ()))
    names = Kernel(src).names(device)
    return KernelDict(src, {n: Kernel(src, n, _request=False) for n in names})


# -- tiling uploads -----------------------------------------------------------------------------

class _Uploads:
    """Device copies of tiling structs (immutable once uploaded), one per (device, content): an
    LRU of device buffers, so a tiling seen again costs no copy."""

    def __init__(self, limit: int = 256) -> None:
        self._lock = threading.Lock()
        self._cache: OrderedDict[tuple[Device, bytes], Tensor] = OrderedDict()
        self.limit = limit

    def get(self, device: Device, data: bytes) -> Tensor:
        key = (device, data)
        with self._lock:
            t = self._cache.get(key)
            if t is not None:
                self._cache.move_to_end(key)
                return t
        backend = backend_for_device(device)
        t = wrap_storage(backend.from_numpy(np.frombuffer(data, np.uint8), device, copy=True), device, backend)
        with self._lock:
            self._cache[key] = t
            while len(self._cache) > self.limit:
                self._cache.popitem(last=False)
        return t

    def clear(self) -> None:
        with self._lock:
            self._cache.clear()


UPLOADS = _Uploads()


def upload(data: Any, device: Any = None) -> Tensor:
    """The device copy of a tiling struct (a ``pyasc.TilingStruct``, anything with
    ``__pyasc_struct__()`` such as macro-declared tiling data, or bytes), uploaded once per content
    and device and reused: pass it for a ``GM_ADDR tiling`` parameter. Do not write to it."""
    if hasattr(data, "__pyasc_struct__"):
        data = data.__pyasc_struct__()
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise ArgumentError(f"upload takes a tiling struct (pyasc.TilingStruct) or bytes, got "
                            f"{type(data).__name__} {data!r:.60}")
    data = bytes(data)
    if not data:
        raise ArgumentError("upload: the tiling struct is empty (0 bytes)")
    device = device if isinstance(device, Device) else resolve_device(device)
    return UPLOADS.get(device, data)


def upload_struct(data: Any, device: Device) -> Tensor:
    """:func:`upload` for the launch path (``device`` already resolved)."""
    return UPLOADS.get(device, bytes(data.__pyasc_struct__()) if hasattr(data, "__pyasc_struct__") else bytes(data))

