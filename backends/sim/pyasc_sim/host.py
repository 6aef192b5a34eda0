"""Host functions of a kernel binary, called from Python (host launchers of kernel-launch sources).

A source that keeps its host launcher next to the kernel (``void add_do(uint32_t blockDim, void
*stream, uint8_t *x, ...) { add<<<blockDim, nullptr, stream>>>(x, ...); }``) compiles with
:func:`pyasc_sim.compile` into a binary whose ``<<<>>>`` launches go through the simulated runtime;
:func:`host_function` makes such a launcher callable with pyasc tensors."""

from __future__ import annotations

import ctypes
import os
import re
import subprocess
from collections.abc import Sequence

from .build import KernelBuildError
from .mix_build import SUFFIX as _AIV_SUFFIX

__all__ = ["host_function"]

_CTYPES = {"int8": ctypes.c_int8, "uint8": ctypes.c_uint8, "int16": ctypes.c_int16, "uint16": ctypes.c_uint16,
           "int32": ctypes.c_int32, "uint32": ctypes.c_uint32, "int64": ctypes.c_int64, "uint64": ctypes.c_uint64,
           "float": ctypes.c_float, "float32": ctypes.c_float, "double": ctypes.c_double, "bool": ctypes.c_bool,
           "pointer": ctypes.c_void_p}


def _symbol(binary: str, name: str) -> str:
    """The exported symbol of the function ``name``: itself (extern "C") or its C++ mangled name."""
    proc = subprocess.run(["nm", "-D", "--defined-only", binary], capture_output=True, text=True)
    if proc.returncode != 0:
        raise KernelBuildError(f"cannot read the symbols of {binary} (nm: {proc.stderr.strip()})")
    # a mixed kernel built per core kind (mix_build) also holds the vector pass's renamed copies: not callable
    syms = [s for s in (line.split()[-1] for line in proc.stdout.splitlines() if line.strip())
            if not s.endswith(_AIV_SUFFIX)]
    if name in syms:
        return name
    parts = name.split("::")
    prefix = (f"_Z{len(name)}{name}" if len(parts) == 1
              else "_ZN" + "".join(f"{len(p)}{p}" for p in parts) + "E")
    mangled = [s for s in syms if s.startswith(prefix)]
    if len(mangled) == 1:
        return mangled[0]
    if not mangled:
        raise KernelBuildError(f"{binary} exports no host function {name!r} (a launcher left out by "
                               "#ifndef ASCENDC_CPU_DEBUG / __CCE_KT_TEST__ is not compiled on the simulator)")
    raise KernelBuildError(f"{binary} has several overloads of {name!r} ({', '.join(mangled)}); pass the symbol")


def _open_sim_device() -> None:
    """Open the simulated device (aclInit + context) as a host program does before its first
    launch, so a launcher called before any tensor exists (``hello<<<n, nullptr, stream>>>()``
    with no arguments) finds the runtime initialized."""
    from pyasc_core.registry import backend_for_device
    from pyasc_core.selection import resolve_device

    dev = resolve_device("sim")
    backend_for_device(dev).raw_device(dev)  # type: ignore[attr-defined]


def _acl_global() -> None:
    """Make the simulated ACL library's symbols global before a binary is loaded, so ACL calls in its
    host code (weak references, kapi/host_launch.h) bind to the runtime pyasc uses; the binding
    itself opens the library RTLD_LOCAL, which would leave them null."""
    from .build import _acl_library

    try:
        ctypes.CDLL(_acl_library(), mode=ctypes.RTLD_GLOBAL)
    except OSError:
        pass  # no simulator library: launches report it when they run


def host_function(binary: str | os.PathLike, name: str, argtypes: Sequence[str]):
    """A callable for the host function ``name`` (``ns::name`` for one in a namespace) of ``binary``
    with parameter types ``argtypes``
    (``"pointer"`` for addresses and streams, ``"uint32"``, ``"float"``, ``"bool"``, ...). Call it with
    pyasc tensors (their device address is passed), ints, floats, bools or ``None`` (a null pointer /
    the default stream); it returns after enqueueing, so synchronize (``pyasc.synchronize()``) before
    reading results. The function's own return value is ignored (launchers return void); a failed
    ``<<<>>>`` launch inside it raises :class:`KernelBuildError`."""
    path = os.path.abspath(os.fspath(binary))
    try:
        types = [_CTYPES[t] for t in argtypes]
    except KeyError as exc:
        raise KernelBuildError(f"argtypes entries are {', '.join(sorted(_CTYPES))}; got {exc.args[0]!r}") from None
    _acl_global()
    lib = ctypes.CDLL(path)
    fn = getattr(lib, _symbol(path, name))
    fn.argtypes = types
    fn.restype = None

    def call(*args):
        if len(args) != len(types):
            raise TypeError(f"{name} takes {len(types)} arguments, got {len(args)}")
        conv = [getattr(getattr(a, "_data", None), "ptr", a) for a in args]
        _open_sim_device()
        fn(*conv)
        err = getattr(lib, "pyasc_sim_last_launch_error", None)
        code = err() if err is not None else 0
        if code:
            raise KernelBuildError(f"{name}: its <<<>>> launch failed with ACL error {code} (see stderr)")

    call.__name__ = name
    return call
