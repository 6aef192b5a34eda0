"""CANN CPU-debug programs on the simulator: a host ``main.cpp`` (``#ifdef ASCENDC_CPU_DEBUG``:
``AscendC::GmAlloc``, ``SetKernelMode``, ``ICPU_SET_TILING_KEY``, ``ICPU_RUN_KF``, ``GmFree``,
from ``tikicpulib.h``) plus the kernel source(s), built unchanged into a native executable that
runs the kernel on the CPU with the kernel API's sanitizer. ``pyasc cpu-debug main.cpp kernel.cpp
-- args`` builds and runs; ``build`` is the library form; ``cmake_module`` the CMake helper."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence

from .build import KernelBuildError, KernelCompileError, _compiler, _first_error, _kernel_api_include, arch_defines

__all__ = ["build", "cmake_module", "run"]


def build(sources: Sequence[str | os.PathLike], output: str | os.PathLike, *, debug: bool = False,
          include_dirs: Sequence[str | os.PathLike] = (), extra_flags: Sequence[str] = (), soc: str | None = None,
          compiler: str | None = None) -> str:
    """Compile and link ``sources`` (the host main.cpp and the kernel sources) into the executable
    ``output`` and return its path. ``debug`` builds with ``-O0 -g`` (for gdb) instead of ``-O2``.
    The sources see the kernel API, ``tikicpulib.h``, the architecture macros of ``soc`` and
    ``ASCENDC_CPU_DEBUG``; each source's directory is on the include path."""
    if isinstance(sources, (str, os.PathLike)):
        sources = [sources]
    paths = [os.path.abspath(os.fspath(s)) for s in sources]
    if not paths:
        raise KernelBuildError("cpu-debug needs the host main.cpp and the kernel source(s)")
    for p in paths:
        if not os.path.isfile(p):
            raise KernelBuildError(f"cpu-debug source {p} does not exist")
    cxx = _compiler(compiler)
    inc = _kernel_api_include()
    dirs = []
    for d in [*(os.path.dirname(p) for p in paths), *(os.path.abspath(os.fspath(d)) for d in include_dirs)]:
        if d not in dirs:
            dirs.append(d)
    out = os.path.abspath(os.fspath(output))
    cmd = [cxx, "-std=c++20", *(["-O0", "-g"] if debug else ["-O2"]), "-pthread", "-fno-math-errno",
           *arch_defines(soc), "-I", inc, *(a for d in dirs for a in ("-I", d)), *paths, "-o", out, *extra_flags]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        file, line, msg = _first_error(proc.stderr)
        where = f"{file}:{line}" if line else (file or paths[0])
        raise KernelCompileError(f"{where}: error: {msg or 'the build failed'}\nbuilding the CPU-debug program "
                                 f"failed ({' '.join(cmd)}); the compiler said:\n{proc.stderr.strip()}",
                                 file=file, line=line, output=proc.stderr)
    return out


def run(executable: str | os.PathLike, args: Sequence[str] = (), *, serial: bool = False) -> int:
    """Run a built CPU-debug program in the current directory and return its exit status;
    ``serial`` runs the blocks one at a time in the calling thread (``PYASC_SIM_SERIAL=1``)."""
    env = dict(os.environ)
    if serial:
        env["PYASC_SIM_SERIAL"] = "1"
    return subprocess.run([os.fspath(executable), *args], env=env).returncode


def cmake_module() -> str:
    """The path of ``PyascCpuDebug.cmake`` (``include()`` it; it defines
    ``pyasc_cpu_debug_executable(<target> <sources...> [DEBUG])``)."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "cmake", "PyascCpuDebug.cmake")
