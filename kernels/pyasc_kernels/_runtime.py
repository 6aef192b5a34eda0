"""What every built-in kernel's Python glue shares: where the kernel binaries are, the built-in
kernels as ``pyasc.Kernel`` objects (loaded once per device by the public kernel API), tiling
structs uploaded through ``pyasc.tiling.upload``'s content cache, output allocation, and saying
clearly when an op/dtype has no kernel."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

import pyasc
from pyasc_core import dtypes as dt
from pyasc_core.backend import Backend
from pyasc_core.creation import empty as _empty
from pyasc_core.errors import KernelNotFoundError
from pyasc_core.registry import backend_for_device
from pyasc_core.tensor import Tensor, wrap_storage
from pyasc_core.tiling import TilingStruct

from .tilings import device_bytes

#: elements every core's share is a multiple of: 256 elements keep each core's slice of every
#: operand (1 to 8 bytes per element) aligned to whole 32-byte blocks and 256-byte repeats
CORE_ALIGN = 256
#: below this many elements per core, fewer cores are used (launch cost beats parallelism)
MIN_PER_CORE = 16384

#: pyasc dtype -> the name kernels use in their names (binary_add_float16, ...)
DTYPE_NAMES = {
    dt.bool_: "bool", dt.uint8: "uint8", dt.int8: "int8", dt.int16: "int16", dt.int32: "int32",
    dt.int64: "int64", dt.float16: "float16", dt.bfloat16: "bfloat16", dt.float32: "float32",
    dt.float64: "float64",
}


def kernel_dir_candidates() -> list[str]:
    import pyasc_sim

    installed = [os.path.join(os.fspath(p), "kernels") for p in pyasc_sim.__path__]
    soc = os.environ.get("PYASC_SIM_KERNEL_SOC", "")
    if soc and soc != INSTALLED_SOC:  # the AI Core kernels compiled for another SoC (cached) first;
        return [kernel_set_dir(soc), *installed]  # the AI CPU libraries (host code) stay the installed ones
    return installed


#: the SoC the installed sim kernels are built for (kernels/CMakeLists.txt: the default, Atlas A2);
#: a kernel directory built for another SoC names it in a file SOC_FILE (build_kernel_set)
INSTALLED_SOC = "Ascend910B1"
SOC_FILE = "SOC"

#: per SoC family: the dtypes it has no kernels for, and the reference fact that says so
SOC_LACKS = {
    "Ascend310P": {"bfloat16": "the Atlas inference series has no bfloat16 (the reference's DataCopy, Duplicate "
                               "and vector API tables list no bfloat16_t for it; kernels/kernel_entry.h leaves "
                               "the bfloat16 kernels out of its builds)"},
}

_NO_INT64_CAST = ("the Atlas inference series' Cast table lists no int64_t conversion (kernels/cast.cpp leaves "
                  "the conversions to int64 and from int64 to a float type out of its builds)")
#: per SoC family: kernels (by name) it has no route for, and the reference fact that says so
SOC_LACKS_KERNELS = {
    "Ascend310P": {**{f"cast_{src}_int64": _NO_INT64_CAST
                      for src in ("bool", "uint8", "int8", "int16", "int32", "float16", "float32")},
                   "cast_int64_float16": _NO_INT64_CAST, "cast_int64_float32": _NO_INT64_CAST},
}


def build_kernel_set(directory: str | os.PathLike, soc: str, families: Iterable[str] = ()) -> str:
    """Compile kernels/<family>.cpp (every family by default) for ``soc`` into ``directory``, named
    as installed kernels are, with the SOC_FILE naming the SoC; returns the directory."""
    import pyasc_sim

    src_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # kernels/ of a checkout
    os.makedirs(directory, exist_ok=True)
    for fam in tuple(families) or KERNEL_FAMILIES:
        src = os.path.join(src_dir, f"{fam}.cpp")
        if not os.path.isfile(src):
            raise KernelNotFoundError(f"PYASC_SIM_KERNEL_SOC={soc}: the kernel source {src} is not there (building "
                                      "the built-in kernels for another SoC needs a pyasc checkout installed with "
                                      "'pip install -e .'); unset PYASC_SIM_KERNEL_SOC to use the installed kernels")
        out = os.path.join(os.fspath(directory), binary_name("sim", fam))
        _copy(pyasc_sim.compile(src, soc=soc), out)
    with open(os.path.join(os.fspath(directory), SOC_FILE), "w") as f:
        f.write(soc + "\n")
    return os.fspath(directory)


def _copy(src: str, dst: str) -> None:
    import shutil

    shutil.copyfile(src, dst + ".tmp")
    os.replace(dst + ".tmp", dst)


_SETS: dict[str, str] = {}
_SETS_LOCK = threading.Lock()


def kernel_set_dir(soc: str) -> str:
    """The built-in kernels compiled for ``soc`` (PYASC_SIM_KERNEL_SOC): built once into the kernel
    cache (pyasc_sim.cache: kernel_sets/<soc>-<hash of the sources and the optimisation flag>), reused
    while they are unchanged."""
    import hashlib

    with _SETS_LOCK:
        if soc in _SETS:
            return _SETS[soc]
        import pyasc_sim
        import pyasc_sim.cache

        if soc not in pyasc_sim.build.SOC_ARCH:
            from pyasc_core.errors import EnvironmentSettingError

            raise EnvironmentSettingError(f"PYASC_SIM_KERNEL_SOC={soc!r} is not a SoC the simulator compiles for; "
                                          f"use one of {', '.join(sorted(pyasc_sim.build.SOC_ARCH))}")
        h = hashlib.sha256(pyasc_sim.build.opt_flag(None).encode())  # the level it builds at (PYASC_SIM_OPT)
        for path in _set_inputs():  # the kernel sources and the kernel API headers they include
            h.update(path.encode())
            with open(path, "rb") as f:
                h.update(f.read())
        cache = os.path.join(pyasc_sim.cache.directory(), "kernel_sets", f"{soc}-{h.hexdigest()[:16]}")
        if not os.path.isfile(os.path.join(cache, SOC_FILE)):
            build_kernel_set(cache, soc)
        _SETS[soc] = cache
        return cache


def _set_inputs() -> list[str]:
    """The files a kernel set is built from: kernels/*.cpp, kernels/*.h and the kernel API headers."""
    import glob

    import pyasc_sim

    src_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    files = glob.glob(os.path.join(src_dir, "*.cpp")) + glob.glob(os.path.join(src_dir, "*.h"))
    files += glob.glob(os.path.join(pyasc_sim.build._kernel_api_include(), "**", "*.h"), recursive=True)
    return sorted(files)


def kernel_soc() -> str:
    """The SoC the sim kernel set in use is built for (its SOC_FILE, else the installed one)."""
    for d in kernel_dir_candidates():
        path = os.path.join(d, SOC_FILE)
        if os.path.isfile(path):
            with open(path) as f:
                return f.read().strip()
    return INSTALLED_SOC


def soc_lacks(kernel_name: str) -> tuple[str, str] | None:
    """(SoC, reason) when ``kernel_name``'s dtype (or the kernel itself) does not exist on the SoC of the
    sim kernel set."""
    soc = kernel_soc()
    tokens = set(kernel_name.split("_"))
    for family, lacks in SOC_LACKS.items():
        if soc.startswith(family):
            for dtype_name, reason in lacks.items():
                if dtype_name in tokens:
                    return soc, reason
    for family, kernels in SOC_LACKS_KERNELS.items():
        if soc.startswith(family) and kernel_name in kernels:
            return soc, kernels[kernel_name]
    return None


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


class _Binaries(dict):
    """{backend: binary path}, looked up (and reported when missing) on first use."""

    def __init__(self, family: str) -> None:
        super().__init__()
        self.family = family

    def get(self, backend: str, default: Any = None) -> Any:  # type: ignore[override]
        return binary_path(backend, self.family)


class _Kernels:
    """pyasc.Kernel objects of the built-in kernels, one per (family, name), sharing one source per
    family: compiled (here: found) per backend and loaded per device by the public kernel API."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._sources: dict[str, pyasc.KernelSource] = {}
        self._kernels: dict[tuple[str, str], pyasc.Kernel] = {}
        self._functions: dict[tuple[Any, str, str], Any] = {}
        #: replaced by clear(): a PlanCall made before that no longer applies (its guard)
        self.token = object()

    def get(self, family: str, name: str) -> pyasc.Kernel:
        k = self._kernels.get((family, name))
        if k is None:
            with self._lock:
                src = self._sources.get(family)
                if src is None:  # prebuilt binaries only, found per backend on first use
                    src = self._sources[family] = pyasc.KernelSource(None, binaries=_Binaries(family))
                k = self._kernels.setdefault((family, name), pyasc.Kernel(src, name))
        return k

    def function(self, family: str, name: str, device: Any) -> Any:
        """The kernel loaded on ``device`` (cached: the launch hot path is one dict lookup)."""
        key = (device, family, name)
        fn = self._functions.get(key)
        if fn is None:
            try:
                fn = self._functions[key] = self.get(family, name).function(device)
            except KernelNotFoundError as exc:  # a dtype the kernel set's SoC does not have: say so
                lacks = soc_lacks(name) if getattr(device, "type", "") == "sim" else None
                if lacks is None:
                    raise
                from pyasc_core.errors import NotOnSocError

                raise NotOnSocError(f"{name} is not supported by {lacks[0]}: {lacks[1]}", *lacks) from exc
        return fn

    def clear(self) -> None:
        with self._lock:
            for cache in _PLAN_CACHES:
                cache.clear()
            self._kernels.clear()
            self._sources.clear()
            self._functions.clear()
            self.token = object()


KERNELS = _Kernels()


def float_bits(value: float) -> int:
    """The float32 bits of a Python float (rounded like NumPy's float32(value), overflow -> inf)."""
    with np.errstate(over="ignore"):
        return int(np.array(value, dtype=np.float32).view(np.uint32))


_FACTS: dict[Any, Any] = {}


def _facts(device: Any) -> Any:
    """pyasc_acl.device_facts of ``device``, cached here (no import on the launch hot path)."""
    facts = _FACTS.get(device)
    if facts is None:
        import pyasc_acl

        facts = _FACTS[device] = pyasc_acl.device_facts(device)
    return facts


def vector_cores(device: Any) -> int:
    """The device's vector cores (aclrtGetDeviceInfo): the most blocks a vector launch uses."""
    return _facts(device).vector_cores


def cube_cores(device: Any) -> int:
    """The device's cube cores (aclrtGetDeviceInfo): the most blocks of matmul's cube path."""
    return _facts(device).cube_cores


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
    return _empty(shape if type(shape) is tuple else tuple(shape), dtype=dtype, device=device)


def full_tensor(shape: Sequence[int], value: Any, dtype: np.dtype, device: Any) -> Tensor:
    return pyasc.full(tuple(shape), value, dtype=dtype, device=device)


def alias(t: Tensor, shape: Sequence[int]) -> Tensor:
    """(The reshape kernel itself, below the public API: a storage view of another shape.) A tensor sharing contiguous ``t``'s device memory with another shape (same number of elements)."""
    d = t._data
    assert d.contiguous, "alias() of a strided view: make it contiguous first"
    backend = backend_for_device(t._device)
    return wrap_storage(d.view(tuple(int(s) for s in shape), None, d.offset), t._device, backend)


#: id(tiling) -> (tiling, device, its upload) for tiling structs a glue cache keeps alive and
#: never changes (pinned): their launch packs and looks up nothing
_PINNED: dict[int, tuple[TilingStruct, Any, Tensor]] = {}


def pin_tiling(device: Any, tiling: TilingStruct) -> TilingStruct:
    """Upload ``tiling`` now and remember the upload for :func:`launch`; the caller keeps the
    struct alive and unchanged until :func:`unpin_tilings` (a launch-shape cache)."""
    _PINNED[id(tiling)] = (tiling, device, pyasc.tiling.upload(device_bytes(tiling), device))
    return tiling


def unpin_tilings(tilings: Iterable[TilingStruct]) -> None:
    """Forget the uploads of ``tilings`` (a cache dropping its entries); other caches' pins stay."""
    for tiling in tilings:
        hit = _PINNED.get(id(tiling))
        if hit is not None and hit[0] is tiling:
            del _PINNED[id(tiling)]


def launch(device: Any, family: str, name: str, num_blocks: int, args: Iterable[Any], tiling: TilingStruct) -> None:
    """Launch kernel ``name`` of ``family`` with ``args`` + (workspace=0, tiling buffer) on the
    current stream of ``device``, through the public kernel API (pyasc.Kernel; the tiling struct,
    one of :mod:`.tilings`, uploaded once per content; a pinned one without packing it again)."""
    hit = _PINNED.get(id(tiling))
    if hit is not None and hit[0] is tiling and hit[1] is device:
        buf = hit[2]
    else:
        buf = pyasc.tiling.upload(device_bytes(tiling), device)
    KERNELS.function(family, name, device)(num_blocks, *args, 0, buf)


#: the launch-plan caches of the glue (cleared with the kernels they hold)
_PLAN_CACHES: list[dict[Any, Any]] = []
_PLANS_LIMIT = 1024


def plan_cache() -> dict[Any, Any]:
    """A new launch-plan cache: (what decides the launch) -> (loaded kernel, blocks, tiling upload,
    maker of the output: _output_maker, the kernel's launch taking the op's read list or None),
    so a repeated call skips dispatch decisions, tiling and lookups; cleared by ``KERNELS.clear``."""
    cache: dict[Any, Any] = {}
    _PLAN_CACHES.append(cache)
    return cache


def remember_plan(cache: dict[Any, Any], key: Any, device: Any, family: str, name: str, num_blocks: int,
                  tiling: TilingStruct) -> None:
    """Store the plan of a launch just made with a pinned ``tiling`` (see :func:`plan_cache`)."""
    hit = _PINNED.get(id(tiling))
    if hit is None or hit[0] is not tiling or hit[1] is not device:
        return  # not pinned: the upload is not kept
    if launch is not _OWN[0] or split is not _OWN[1]:
        return  # replaced (a test recording launches or changing the split): no plan skips them
    if len(cache) >= _PLANS_LIMIT:
        cache.clear()
    fn = KERNELS.function(family, name, device)
    launcher = getattr(fn, "launcher", None)  # the C launch hot path where the backend has one
    with_reads = getattr(fn, "launcher_with_reads", None)  # the same, the op's read list passed
    cache[key] = (fn if launcher is None else launcher(), num_blocks, hit[2], _output_maker(device),
                  None if with_reads is None else with_reads())


class PlanCall:
    """What a launch plan (of :func:`plan_cache`) does for calls ``kernel(meta, *args)`` whose
    tensors have the plan's dtypes, shapes and ``device``: ``out = make(shape, dtype, device)``,
    ``launch(reads, blocks, *args, out, *tail)`` (``reads``: the op's read list for the stream
    sanitizer, passed instead of the op-reads ContextVar), ``counts[place] += 1`` (unless counts is
    None), result ``out``; valid while every guard ``(d, key, obj)`` has ``d[key] is obj`` (the
    kernels not cleared, ``launch`` and ``split`` not replaced). A backend's op wrapper makes its
    one-call hot path of it (pyasc_acl: ``_acl.op_plan``)."""

    __slots__ = ("launch", "blocks", "make", "shape", "dtype", "device", "tail", "guards", "counts", "place")

    def __init__(self, plan: Any, shape: tuple[int, ...], dtype: Any, device: Any, count: Any) -> None:
        _, self.blocks, buf, self.make, self.launch = plan
        self.shape, self.dtype, self.device = shape, dtype, device
        self.tail = (0, buf)  # workspace (none), tiling
        self.guards = ((vars(KERNELS), "token", KERNELS.token), (globals(), "launch", _OWN[0]),
                       (globals(), "split", _OWN[1]))
        #: the placement counter a routed kernel counts its runs in ({place: n}, place), or (None, None)
        self.counts, self.place = count if count is not None else (None, None)


def plan_call(plan: Any, shape: tuple[int, ...], dtype: Any, device: Any, count: Any) -> PlanCall | None:
    """The :class:`PlanCall` of ``plan``, or None when its kernel has no launch taking the read list."""
    return None if plan[4] is None else PlanCall(plan, shape, dtype, device, count)


def _output_maker(device: Any) -> Any:
    """``new(shape, dtype, device) -> Tensor``: an uninitialised output on ``device`` (the backend's
    one-call ``empty_tensor`` where it has one and its tensors own no host bytes)."""
    backend = backend_for_device(device)
    make = getattr(backend, "empty_tensor", None)
    if make is not None and type(backend).adopt is Backend.adopt:
        return make

    def new(shape: tuple[int, ...], dtype: np.dtype, dev: Any) -> Tensor:
        return wrap_storage(backend.empty(shape, dtype, dev), dev, backend)

    return new


_OWN = (launch, split)


def no_kernel(op: str, device: Any, what: str, supported: Iterable[np.dtype] | str,
              src: np.dtype | None = None) -> KernelNotFoundError:
    """The error of an AI Core glue without a kernel for the call's dtypes (``pyasc_dtype_gap``:
    the registered kernel then takes the AI CPU path or the host fallback instead). The fix it gives
    casts ``src`` to a dtype the backend's kernels of the op take and its cast kernels reach
    (pyasc_core.dtype_advice), not a fixed one."""
    from pyasc_core.dtype_advice import cast_hint

    names = supported if isinstance(supported, str) else ", ".join(dt.dtype_name(d) for d in supported)
    fix = "run it on the reference with .to('numpy')" if src is None else cast_hint(op, device.type, src)
    exc = KernelNotFoundError(f"{op} has no {device.type} AI Core kernel for {what}; its kernels take {names}. "
                              f"{fix[0].upper()}{fix[1:]}")
    exc.pyasc_dtype_gap = True  # type: ignore[attr-defined]
    return exc


def size_of(shape: Sequence[int]) -> int:
    n = 1
    for s in shape:
        n *= int(s)
    return n
