"""The npu backend's kernel compiler: a pyasc.Kernel's source compiled on first use with CANN's
bisheng into the per-user kernel cache, by the same command line as the build of kernels/
(kernels/npu.cmake: keep the two in step; tests/test_npu_kernel_compile.py checks both).

The toolkit is the first of ``$ASCEND_HOME_PATH``, ``/usr/local/Ascend/cann`` and
``/usr/local/Ascend/ascend-toolkit/latest`` holding ``compiler/ccec_compiler/bin/bisheng``. The
SoC is ``$PYASC_NPU_SOC_VERSION`` (default Ascend910B1, as kernels/npu.cmake's SOC_VERSION); a
source with cube code (Mmad, the Matmul API) is compiled for the AICore, any other for the VecCore."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
from typing import Any

from pyasc_core.errors import KernelNotFoundError, PyascError

#: the standard CANN install roots searched after $ASCEND_HOME_PATH (kernels/npu.cmake's list)
STANDARD_ROOTS = ("/usr/local/Ascend/cann", "/usr/local/Ascend/ascend-toolkit/latest")
BISHENG = os.path.join("compiler", "ccec_compiler", "bin", "bisheng")
#: the toolkit's Ascend C header directories added with -I where present (kernels/npu.cmake's)
INCLUDE_DIRS = ("compiler/tikcpp/tikcfw", "compiler/tikcpp/tikcfw/impl", "compiler/tikcpp/tikcfw/interface",
                "include")
DEFAULT_SOC = "Ascend910B1"
_CUBE_RE = re.compile(r"\b(Mmad|Matmul|MatmulImpl|LoadData)\b|lib/matmul_intf\.h")


class NpuKernelCompileError(PyascError, RuntimeError):
    """bisheng failed on a kernel source: the message holds its command line and diagnostics."""

    def __init__(self, message: str, *, output: str = "") -> None:
        super().__init__(message)
        self.output = output


def toolkit_roots() -> list[str]:
    """Where the CANN toolkit is looked for, in order."""
    roots = []
    home = os.environ.get("ASCEND_HOME_PATH", "")
    if home:
        roots.append(home)
    roots.extend(STANDARD_ROOTS)
    return roots


def find_bisheng() -> tuple[str, str] | None:
    """(toolkit root, bisheng path) of the first toolkit found, else None."""
    for root in toolkit_roots():
        path = os.path.join(root, BISHENG)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return root, path
    return None


def core_type(text: str) -> str:
    """``AICore`` for a source with cube code, else ``VecCore`` (--cce-soc-core-type)."""
    return "AICore" if _CUBE_RE.search(text) else "VecCore"


def command(bisheng: str, root: str, src: str, out: str, *, text: str, include_dir: str | None,
            opt: str = "-O2") -> list[str]:
    """kernels/npu.cmake's bisheng command line for one source."""
    soc = os.environ.get("PYASC_NPU_SOC_VERSION") or DEFAULT_SOC
    includes = [f"-I{include_dir}"] if include_dir else []
    includes += [f"-I{os.path.join(root, sub)}" for sub in INCLUDE_DIRS if os.path.isdir(os.path.join(root, sub))]
    return [bisheng, "-xcce", "--std=c++17", opt, f"--cce-soc-version={soc}",
            f"--cce-soc-core-type={core_type(text)}", *includes, "-c", src, "-o", out]


def not_found_message(source: Any) -> str:
    searched = ", ".join(os.path.join(r, BISHENG) for r in toolkit_roots())
    return (f"no npu binary for the kernel source {source.path or '<text>'} and no CANN compiler to build one "
            f"(looked for {searched}); either install CANN (or set ASCEND_HOME_PATH to its toolkit) so pyasc "
            "compiles it with bisheng on first use, or ship a binary the pack built: "
            "pyasc.Kernel(source, name, binaries={'npu': 'path/to/kernel.o'}); or run on 'sim'")


class NpuBinary(str):
    """The path of an npu kernel binary built from source, with the signatures pyasc computed
    from the source's declarations (``signatures``: {kernel: Signature}, laid out as the device
    compiler lays out parameters): bisheng's output records no pyasc signature table, and
    pyasc.Kernel packs arguments by these, as on the simulator."""

    signatures: dict[str, Any]


def declared_signatures(source: Any) -> dict[str, Any]:
    """{kernel: Signature} of a pyasc.Kernel's source from its declarations (structs by value
    sized by the source's TilingStruct classes; a kernel with another struct parameter is left
    out: it launches with 8-byte slots, as any binary without a signature)."""
    from pyasc_sim.build import declared_kernels

    from .signature import layout_of

    structs = {s.cpp_name: (s.sizeof, s.alignof) for s in getattr(source, "structs", ())}
    out: dict[str, Any] = {}
    try:
        declared = declared_kernels(source.path or source.text, sorted(getattr(source, "instances", ())))
    except Exception:  # pyasc's headers cannot preprocess it (CANN-only headers): 8-byte slots
        return out
    for name, params in declared:
        try:
            out[name] = layout_of(name, params, structs)
        except KeyError:
            continue
    return out


def compile_source(source: Any) -> str:
    """:func:`build` with the source's declared signatures attached (:class:`NpuBinary`)."""
    art = NpuBinary(build(source))
    art.signatures = declared_signatures(source)
    return art


def build(source: Any) -> str:
    """The npu binary of a pyasc.Kernel's source: bisheng's output, cached per user by the content
    of the source, the command line and the compiler (the cache of pyasc_sim.cache: 0700, verified,
    published atomically, so concurrent first uses are safe). Raises KernelNotFoundError without
    CANN, NpuKernelCompileError when bisheng fails."""
    from pyasc_sim import cache  # the per-user kernel cache (same wheel; shared with sim's compiler)

    found = find_bisheng()
    if found is None:
        raise KernelNotFoundError(not_found_message(source))
    root, bisheng = found
    text = source.text
    instances = sorted(getattr(source, "instances", ()))
    if instances:  # template instances named by pyasc.Kernel(src, "name<half>"): instantiated explicitly
        from pyasc_sim.build import explicit_instantiations

        text = f"{text}\n{explicit_instantiations(source.path or source.text, instances)}"
    checks = source.checks_text
    if checks:  # the TilingStructs' layouts, checked after the source (as on sim)
        text = f"{text}\n#include <cstddef>\n{checks}\n"
    include_dir = os.path.dirname(source.path) if source.path else None
    opt = source.options.get("opt") or "-O2"
    st = os.stat(bisheng)
    probe = command(bisheng, root, "SRC", "OUT", text=text, include_dir=include_dir, opt=opt)
    key = hashlib.sha256("\0".join(["npu", text, *probe, str(st.st_size), str(st.st_mtime_ns)])
                         .encode()).hexdigest()[:24]
    cache_root = cache.directory()
    name = f"kernel_{key}"
    hit = cache.lookup(cache_root, name)
    if hit is not None:
        return hit
    tmpdir = cache.build_dir(cache_root, prefix=f"build_{key[:8]}_")
    try:
        if source.path is not None and not checks and not instances:
            src = source.path
        else:
            src = os.path.join(tmpdir, "kernel.cpp")
            with open(src, "w", encoding="utf-8") as f:
                f.write(text)
        out = os.path.join(tmpdir, "kernel.o")
        cmd = command(bisheng, root, src, out, text=text, include_dir=include_dir, opt=opt)
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0 or not os.path.isfile(out):
            diag = (proc.stderr or proc.stdout).strip()
            raise NpuKernelCompileError(f"compiling {source.path or 'the kernel source'} for the NPU failed "
                                        f"(exit {proc.returncode}): {' '.join(cmd)}\n{diag}", output=diag)
        return cache.publish(cache_root, name, out)
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)
