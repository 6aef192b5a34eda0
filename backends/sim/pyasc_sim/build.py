"""Compiling simulator kernel binaries: C++ sources -> a host shared object (g++ -shared -fPIC),
cached by content hash so repeated builds are free."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence

from pyasc_core.errors import PyascError


class KernelBuildError(PyascError, RuntimeError):
    """The compiler rejected a kernel source (the message holds its output)."""


def cache_dir() -> str:
    """Where built kernels are kept: ``PYASC_SIM_KERNEL_CACHE`` or a per-user temp directory."""
    path = os.environ.get("PYASC_SIM_KERNEL_CACHE") or os.path.join(
        tempfile.gettempdir(), f"pyasc_sim_kernels_{os.getuid()}"
    )
    os.makedirs(path, exist_ok=True)
    return path


def compile_kernel(source: str | os.PathLike, *, flags: Sequence[str] = (), compiler: str | None = None) -> str:
    """Build a simulator kernel binary from C++ ``source`` (a path, or the source text itself) and
    return the path of the shared object."""
    from . import get_include

    text = source
    if isinstance(source, os.PathLike) or (isinstance(source, str) and "\n" not in source and os.path.isfile(source)):
        with open(source, encoding="utf-8") as f:
            text = f.read()
    cxx = compiler or os.environ.get("CXX") or "g++"
    if shutil.which(cxx) is None:
        raise KernelBuildError(f"no C++ compiler {cxx!r} on PATH; install g++ or set CXX")
    cmd_tail = ["-std=c++17", "-O2", "-shared", "-fPIC", "-fvisibility=hidden", "-I", get_include(), *flags]
    key = hashlib.sha256("\0".join([str(text), cxx, *cmd_tail]).encode()).hexdigest()[:24]
    out = os.path.join(cache_dir(), f"kernel_{key}.so")
    if os.path.isfile(out):
        return out
    tmpdir = tempfile.mkdtemp(dir=cache_dir())
    try:
        src = os.path.join(tmpdir, "kernel.cpp")
        with open(src, "w", encoding="utf-8") as f:
            f.write(str(text))
        tmp_out = os.path.join(tmpdir, "kernel.so")
        proc = subprocess.run([cxx, *cmd_tail, src, "-o", tmp_out], capture_output=True, text=True)
        if proc.returncode != 0:
            raise KernelBuildError(f"compiling the kernel failed ({cxx}):\n{proc.stderr.strip()}")
        os.replace(tmp_out, out)  # atomic: concurrent builders agree on the result
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)
    return out
