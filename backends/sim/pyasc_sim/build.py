"""Compiling Ascend C kernels for the simulator.

:func:`compile` turns any Ascend C source (``#include "kernel_operator.h"``, ``extern "C"
__global__ __aicore__ void name(GM_ADDR ..., uint32_t ...)``) into a kernel binary that
``aclrtBinaryLoadFromFile`` loads on the simulator: a host shared object built with g++ against the
kernel API headers (:func:`pyasc_sim.get_include`), with one launch stub per kernel generated from
its signature (see ``_stubgen.py``). Binaries are cached by content hash.

:func:`compile_kernel` is the lower-level tool for sources written directly against
``pyasc_sim/kernel_abi.h`` (they export their own ``__pyasc_sim_entry_<name>``).
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Sequence

from pyasc_core.errors import PyascError

from . import _stubgen


class KernelBuildError(PyascError, RuntimeError):
    """Building a kernel binary failed (no compiler, a bad signature, a compile error).

    ``file`` and ``line`` locate the first error in the source when known; ``output`` is the
    compiler's full message."""

    def __init__(self, message: str, *, file: str = "", line: int = 0, output: str = "") -> None:
        super().__init__(message)
        self.file = file
        self.line = line
        self.output = output


class KernelCompileError(KernelBuildError):
    """The compiler rejected an Ascend C source: the message starts with ``file:line: error`` and
    holds the compiler's output."""


def cache_dir() -> str:
    """Where built kernels are kept: ``PYASC_SIM_KERNEL_CACHE`` or a per-user temp directory."""
    path = os.environ.get("PYASC_SIM_KERNEL_CACHE") or os.path.join(
        tempfile.gettempdir(), f"pyasc_sim_kernels_{os.getuid()}"
    )
    os.makedirs(path, exist_ok=True)
    return path


def _compiler(compiler: str | None) -> str:
    cxx = compiler or os.environ.get("CXX") or "g++"
    if shutil.which(cxx) is None:
        raise KernelBuildError(f"no C++ compiler {cxx!r} on PATH; install g++ (C++17) or set CXX to one")
    return cxx


def _read_source(source: str | os.PathLike) -> tuple[str, str | None]:
    """(text, path or None) of a source given as a path or as the text itself."""
    if isinstance(source, os.PathLike) or (isinstance(source, str) and "\n" not in source
                                            and source.strip().endswith((".cpp", ".cc", ".cxx", ".h", ".hpp"))):
        path = os.path.abspath(os.fspath(source))
        try:
            with open(path, encoding="utf-8") as f:
                return f.read(), path
        except OSError as exc:
            raise KernelBuildError(f"cannot read the kernel source {path}: {exc.strerror}; pass an existing "
                                   "file or the source text itself") from None
    if not isinstance(source, str):
        raise KernelBuildError(f"source must be a path or the source text, got {type(source).__name__}")
    return source, None


def compile_kernel(source: str | os.PathLike, *, flags: Sequence[str] = (), compiler: str | None = None) -> str:
    """Build a simulator kernel binary from C++ ``source`` written against ``pyasc_sim/kernel_abi.h``
    (a path, or the source text itself) and return the path of the shared object."""
    from . import get_include

    text = source
    if isinstance(source, os.PathLike) or (isinstance(source, str) and "\n" not in source and os.path.isfile(source)):
        with open(source, encoding="utf-8") as f:
            text = f.read()
    cxx = _compiler(compiler)
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
            raise KernelBuildError(f"compiling the kernel failed ({cxx}):\n{proc.stderr.strip()}",
                                   output=proc.stderr)
        os.replace(tmp_out, out)  # atomic: concurrent builders agree on the result
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)
    return out


# -- compile(): any Ascend C source -----------------------------------------------------------------

_INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
_DIAG_RE = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?:(?P<col>\d+):)?\s*(?:fatal )?error:\s*(?P<msg>.*)$", re.M)


@functools.lru_cache(maxsize=None)
def _header_version(include_dir: str) -> str:
    """Hash of every header under the kernel API include directory (part of the cache key)."""
    h = hashlib.sha256()
    for root, dirs, files in sorted(os.walk(include_dir)):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(root, name)
            h.update(os.path.relpath(path, include_dir).encode())
            with open(path, "rb") as f:
                h.update(f.read())
    return h.hexdigest()


def _local_includes(text: str, directory: str, seen: set[str]) -> list[bytes]:
    """Contents of the ``#include "..."`` files found next to the source (recursively): a change
    in a kernel's own header must miss the cache."""
    out = []
    for name in _INCLUDE_RE.findall(text):
        path = os.path.normpath(os.path.join(directory, name))
        if path in seen or not os.path.isfile(path):
            continue
        seen.add(path)
        with open(path, "rb") as f:
            data = f.read()
        out.append(path.encode() + b"\0" + data)
        out.extend(_local_includes(data.decode("utf-8", "replace"), os.path.dirname(path), seen))
    return out


def _first_error(output: str) -> tuple[str, int, str]:
    """(file, line, message) of the compiler's first error, or ('', 0, '')."""
    m = _DIAG_RE.search(output)
    if m is None:
        return "", 0, ""
    return m.group("file"), int(m.group("line")), m.group("msg").strip()


def _kernel_api_include() -> str:
    from . import get_include

    inc = get_include()
    if not os.path.isfile(os.path.join(inc, "kernel_operator.h")):
        raise KernelBuildError(
            f"the Ascend C kernel API (kernel_operator.h) is not installed in {inc}; reinstall pyasc "
            "with 'pip install .' (or 'pip install -e .' in a checkout)"
        )
    return inc


def compile(source: str | os.PathLike, *, kernels: Sequence[str] | None = None, opt: str = "-O2",
            checks: bool = True, output: str | os.PathLike | None = None,
            extra_flags: Sequence[str] = (), compiler: str | None = None) -> str:
    """Compile an Ascend C source into a simulator kernel binary and return its path.

    ``source`` is a path to a ``.cpp`` file or the source text itself. Every ``extern "C"
    __global__ __aicore__ void name(...)`` kernel in it (also ones declared through macros) gets a
    launch stub, so it runs through ``aclrtBinaryLoadFromFile`` / ``aclrtBinaryGetFunction(name)``
    / ``aclrtLaunchKernel`` (``pyasc_npu.Binary(path, device="sim").function(name)``, launched
    with ``pyasc_npu.launch``). Parameters are GM addresses (``GM_ADDR``, ``__gm__ T *``) or
    integer / float / double scalars; each takes 8 bytes of the argument blob, in order (integers
    as their 64-bit value, ``float`` as its bits in the low 4 bytes, ``double`` as its 8 bytes).

    ``kernels`` restricts the stubs to these names (default: all kernels of the source). ``opt`` is
    the optimisation flag. ``checks=False`` makes a binary whose kernels never run the kernel API's
    sanitizer checks (faster; its stubs clear the block's checks flag, and ``PYASC_SIM_NO_CHECKS`` is
    defined); with ``checks=True`` they run unless ``PYASC_SIM_CHECKS=0`` switches them off.
    ``output`` copies the binary there as well; the returned path is then ``output``.

    Binaries are cached in :func:`cache_dir` under a hash of the source, the contents of the
    headers it includes with quotes from its own directory, the flags, the compiler and the
    kernel API headers, so compiling an unchanged source again returns at once.

    Raises :class:`KernelCompileError` (a ``pyasc.PyascError``) on a compile error, its message
    starting with the source's ``file:line`` and holding the compiler's output, and
    :class:`KernelBuildError` for a kernel signature the launch ABI cannot pass, no kernels, or an
    unknown name in ``kernels``.
    """
    text, path = _read_source(source)
    cxx = _compiler(compiler)
    inc = _kernel_api_include()
    if not isinstance(opt, str) or not re.fullmatch(r"-O[0-3sgz]?|-Ofast", opt):
        raise KernelBuildError(f"opt must be a g++ optimisation flag such as '-O2', '-O3' or '-O0', got {opt!r}")
    if kernels is not None:
        if isinstance(kernels, str):
            kernels = [kernels]
        kernels = list(kernels)
    flags = ["-std=c++17", opt, "-shared", "-fPIC", "-fvisibility=hidden", "-fno-math-errno",
             *(["-DPYASC_SIM_NO_CHECKS=1"] if not checks else []), *extra_flags]
    src_dir = os.path.dirname(path) if path else os.getcwd()
    h = hashlib.sha256()
    for part in (text.encode(), cxx.encode(), "\0".join(flags).encode(), repr(kernels).encode(),
                 _header_version(inc).encode(), _stubgen.STUB_VERSION.encode(), src_dir.encode(),
                 *_local_includes(text, src_dir, set())):
        h.update(part)
        h.update(b"\0\1")
    key = h.hexdigest()[:32]
    cached = os.path.join(cache_dir(), f"ascendc_{key}.so")
    if not os.path.isfile(cached):
        _build(text, path, src_dir, key, kernels, flags, cxx, inc, cached, checks)
    if output is None:
        return cached
    out = os.path.abspath(os.fspath(output))
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    tmp = f"{out}.tmp{os.getpid()}"
    shutil.copyfile(cached, tmp)
    os.replace(tmp, out)
    return out


def _build(text: str, path: str | None, src_dir: str, key: str, kernels: list[str] | None,
           flags: list[str], cxx: str, inc: str, target: str, checks: bool) -> None:
    tmpdir = tempfile.mkdtemp(dir=cache_dir(), prefix=f"build_{key[:8]}_")
    try:
        if path is None:  # source text: a stable file name, so messages and stubs can point at it
            srcs = os.path.join(cache_dir(), "sources")
            os.makedirs(srcs, exist_ok=True)
            path = os.path.join(srcs, f"kernel_{hashlib.sha256(text.encode()).hexdigest()[:16]}.cpp")
            if not os.path.isfile(path):
                tmp = os.path.join(tmpdir, "source.cpp")
                with open(tmp, "w", encoding="utf-8") as f:
                    f.write(text)
                os.replace(tmp, path)
        try:
            pre = _stubgen.preprocess(path, [src_dir, inc], cxx)
        except _stubgen.StubError as exc:
            _raise_compile_error(str(exc), path)
        try:
            found = _stubgen.find_kernels(pre, path)
        except _stubgen.StubError as exc:
            raise KernelBuildError(str(exc), file=exc.file, line=exc.line) from None
        if not found:
            raise KernelBuildError(
                f'no kernel in {path}: a kernel is declared as extern "C" __global__ __aicore__ void '
                "name(GM_ADDR ..., uint32_t ...) after #include \"kernel_operator.h\"", file=path)
        if kernels is not None:
            names = {k.name for k in found}
            missing = [k for k in kernels if k not in names]
            if missing:
                raise KernelBuildError(
                    f"{path} has no kernel named {', '.join(map(repr, missing))}; its kernels are "
                    f"{', '.join(sorted(names))}", file=path)
            found = [k for k in found if k.name in kernels]
        stub = os.path.join(tmpdir, "stubs.cpp")
        with open(stub, "w", encoding="utf-8") as f:
            f.write(_stubgen.generate(path, found, checks=checks))
        tmp_out = os.path.join(tmpdir, "kernel.so")
        cmd = [cxx, *flags, "-I", src_dir, "-I", inc, stub, "-o", tmp_out]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            _raise_compile_error(proc.stderr, path, cmd)
        os.replace(tmp_out, target)  # atomic: concurrent builders agree on the result
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)


def _raise_compile_error(output: str, path: str, cmd: list[str] | None = None) -> None:
    output = output.strip()
    file, line, msg = _first_error(output)
    if not file:
        file, line, msg = path, 0, "the compiler failed"
    where = f"{file}:{line}" if line else file
    lines = output.splitlines()
    shown = "\n".join(lines[:60]) + (f"\n... ({len(lines) - 60} more lines)" if len(lines) > 60 else "")
    raise KernelCompileError(
        f"{where}: error: {msg}\ncompiling {path} for the simulator failed"
        + (f" ({' '.join(cmd[:1] + cmd[1:4])} ...)" if cmd else "") + f"; the compiler said:\n{shown}",
        file=file, line=line, output=output,
    )
