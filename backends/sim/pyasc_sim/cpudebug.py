"""CANN CPU-debug programs on the simulator: a host ``main.cpp`` (``#ifdef ASCENDC_CPU_DEBUG``:
``AscendC::GmAlloc``, ``SetKernelMode``, ``ICPU_SET_TILING_KEY``, ``ICPU_RUN_KF``, ``GmFree``,
from ``tikicpulib.h``) plus the kernel source(s), built unchanged into a native executable that
runs the kernel on the CPU with the kernel API's sanitizer. ``pyasc cpu-debug main.cpp kernel.cpp
-- args`` builds and runs; ``build`` is the library form; ``cmake_module`` the CMake helper."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence

from . import _stubgen, bisheng_syntax, cache, mix_build
from .build import (KernelBuildError, KernelCompileError, _compiler, _first_error, _header_version, _kernel_api_include,
                    _local_includes, _raise_simt_error, _soc_name, arch_defines, auto_sync_flags, opt_flag, simt_flags)

__all__ = ["build", "cmake_module", "compile_object", "run"]


def build(sources: Sequence[str | os.PathLike], output: str | os.PathLike, *, debug: bool = False,
          include_dirs: Sequence[str | os.PathLike] = (), extra_flags: Sequence[str] = (), soc: str | None = None,
          compiler: str | None = None, opt: str | None = None) -> str:
    """Compile and link ``sources`` (the host main.cpp and the kernel sources) into the executable
    ``output`` and return its path. ``debug`` builds with ``-O0 -g`` (for gdb); otherwise the optimisation
    flag is ``opt``, else ``PYASC_SIM_OPT`` when set, else ``-O2``.
    The sources see the kernel API, ``tikicpulib.h``, the architecture macros of ``soc`` and
    ``ASCENDC_CPU_DEBUG``; each source's directory is on the include path. A mixed kernel source
    split with ``#if defined(__DAV_C220_CUBE__)`` / ``__DAV_C220_VEC__`` compiles once per core kind
    (:func:`compile_object`), as the NPU toolchain builds it; the other sources compile once."""
    if isinstance(sources, (str, os.PathLike)):
        sources = [sources]
    extra_flags = auto_sync_flags(extra_flags)  # BiSheng's --cce-auto-sync=off, as pyasc_sim.compile takes it
    paths = [os.path.abspath(os.fspath(s)) for s in sources]
    if not paths:
        raise KernelBuildError("cpu-debug needs the host main.cpp and the kernel source(s)")
    for p in paths:
        if not os.path.isfile(p):
            raise KernelBuildError(f"cpu-debug source {p} does not exist")
    cxx = _compiler(compiler)
    level = _opt_flags(debug, opt)
    out = os.path.abspath(os.fspath(output))
    dirs = [*(os.path.dirname(p) for p in paths), *(os.fspath(d) for d in include_dirs)]
    with tempfile.TemporaryDirectory(prefix="pyasc_cpu_debug_build_") as tmp:
        jobs = [_Compile(p, os.path.join(tmp, f"{i}_{os.path.basename(p)}.o"), level=level, include_dirs=dirs,
                         extra_flags=extra_flags, soc=soc, cxx=cxx) for i, p in enumerate(paths)]
        for job in jobs:
            job.start()
        for job in jobs:
            job.finish()
        cmd = [cxx, *level, "-pthread", *(j.output for j in jobs), "-o", out,
               *mix_build.link_flags(list(extra_flags))]
        _check(subprocess.run(cmd, capture_output=True, text=True), cmd, paths[0])
    return out


def compile_object(source: str | os.PathLike, output: str | os.PathLike, *, debug: bool = False,
                   include_dirs: Sequence[str | os.PathLike] = (), extra_flags: Sequence[str] = (),
                   soc: str | None = None, compiler: str | None = None, opt: str | None = None) -> str:
    """Compile one source of a CPU-debug program into the object file ``output`` (what the CMake
    helper runs for a mixed kernel source). A mixed kernel (``KERNEL_TYPE_MIX_AIC_1_1`` / ``1_2``)
    that tests ``__DAV_C220_CUBE__`` / ``__DAV_C220_VEC__`` compiles twice, a cube pass and a vector
    pass whose symbols are renamed (:mod:`pyasc_sim.mix_build`), joined into one relocatable object
    that registers each kernel's vector pass: ``ICPU_RUN_KF`` runs the cube pass on a block's AIC
    (``MIX_MODE``, ``AIC_MODE``) and the vector pass on its AIV (``MIX_MODE``, ``AIV_MODE``)."""
    out = os.path.abspath(os.fspath(output))
    extra_flags = auto_sync_flags(extra_flags)  # BiSheng's --cce-auto-sync=off, as pyasc_sim.compile takes it
    if not os.path.isfile(source):
        raise KernelBuildError(f"cpu-debug source {os.path.abspath(os.fspath(source))} does not exist; pass the "
                               "kernel (or host) .cpp file to compile")
    with tempfile.TemporaryDirectory(prefix="pyasc_cpu_debug_obj_") as tmp:
        job = _Compile(os.path.abspath(os.fspath(source)), os.path.join(tmp, "out.o"), level=_opt_flags(debug, opt),
                       include_dirs=[os.fspath(d) for d in include_dirs], extra_flags=extra_flags, soc=soc,
                       cxx=_compiler(compiler))
        job.start()
        job.finish()
        os.makedirs(os.path.dirname(out), exist_ok=True)
        shutil.copyfile(job.output, out)
    return out


def _opt_flags(debug: bool, opt: str | None) -> list[str]:
    """``-O0 -g`` for a debug build; else ``opt``, else ``PYASC_SIM_OPT`` when set, else ``-O2`` (the front end is
    most of a build: -O0 costs about 10% less CPU than -O2)."""
    if debug:
        return ["-O0", "-g"]
    if opt is None and not os.environ.get("PYASC_SIM_OPT"):
        return ["-O2"]
    return [opt_flag(opt)]


def _check(proc: subprocess.CompletedProcess, cmd: list[str], source: str, soc: str | None = None) -> None:
    if proc.returncode != 0:
        _raise_simt_error(proc.stderr, source, cmd, _soc_name(soc))  # SIMT code built for a SoC without SIMT
        file, line, msg = _first_error(proc.stderr)
        where = f"{file}:{line}" if line else (file or source)
        raise KernelCompileError(f"{where}: error: {msg or 'the build failed'}\nbuilding the CPU-debug program "
                                 f"failed ({' '.join(cmd)}); the compiler said:\n{proc.stderr.strip()}",
                                 file=file, line=line, output=proc.stderr)


class _Compile:
    """One source's compile into an object: a single compile, or the mixed kernel's two passes
    (started together: the machine's cores build them at once), renamed and joined by ``finish``."""

    def __init__(self, source: str, output: str, *, level: list[str], include_dirs: Sequence[str],
                 extra_flags: Sequence[str], soc: str | None, cxx: str) -> None:
        self.source, self.output, self.cxx, self.soc = source, output, cxx, soc
        inc = _kernel_api_include()
        dirs: list[str] = []
        for d in [os.path.dirname(source), *(os.path.abspath(d) for d in include_dirs)]:
            if d not in dirs:
                dirs.append(d)
        with open(source, "rb") as f:
            data = f.read()
        text = data.decode("utf-8", "replace")
        # the NPU compiler's `[aicore]` attribute in the source or a header it reaches (its directory's, the include
        # directories'): compile a rewritten copy whose headers are rewritten copies found first (bisheng_syntax)
        self.compiled, search = source, [a for d in dirs for a in ("-I", d)]
        headers = bisheng_syntax.reachable_headers(text, dirs[0], [inc, *dirs], [inc, *dirs], inc)
        if bisheng_syntax.uses_aicore_attribute([text, *(_file_text(h) for h in headers)]):
            tree = os.path.splitext(output)[0] + ".aicore_tree"
            self.compiled = bisheng_syntax.tree_path(tree, source)
            bisheng_syntax.write_copy(self.compiled, source, text)
            bisheng_syntax.mirror_tree(tree, headers)
            search = bisheng_syntax.mirrored_dirs(tree, search)
        self.flags = ["-std=c++20", *level, "-pthread", "-fno-math-errno",
                      *arch_defines(soc), "-I", inc, *search, *extra_flags]
        own = [data, *_local_includes(text, os.path.dirname(source))]  # the source and its own headers
        self.flags += simt_flags(self.flags, text, own[1:])  # SIMT VF calls: the lockstep warp's hooks
        self.kernels = self._split_kernels(inc, own)
        self.cache_entry = self._cache_entry(inc, data, headers)
        # the vector pass's getters, named after the source: several split sources link into one program
        tag = hashlib.sha256(source.encode()).hexdigest()[:12]
        self.getters = [f"{_stubgen.aiv_getter(i)}_{tag}" for i in range(len(self.kernels or ()))]
        self.procs: list[tuple[list[str], subprocess.Popen]] = []

    def _split_kernels(self, inc: str, own: list[bytes]) -> list | None:
        """The kernels of a source (``own``: its bytes and its own headers') to build per core kind, else
        None (most sources: one compile)."""
        if mix_build.VEC_FLAG not in self.flags or not any(mix_build.tests_core_macros(s) for s in own):
            return None  # the cheap test first (mix_build.wanted's own): most sources never name the core macros
        try:
            pre = _stubgen.preprocess(self.compiled, [inc], self.cxx, flags=[f for f in self.flags
                                                                            if not f.startswith("-std=")])
        except _stubgen.StubError:
            return None  # the compile itself reports the error with its line
        if not mix_build.wanted(self.flags, pre, own):
            return None
        try:
            return _stubgen.find_kernels(pre, self.source)
        except _stubgen.StubError as exc:
            raise KernelBuildError(str(exc), file=exc.file, line=exc.line) from None

    def _cache_entry(self, inc: str, data: bytes, headers: list[str]) -> tuple[str, str] | None:
        """(cache directory, entry name) of this compile's object in the kernel cache, or None (a mixed kernel's two
        passes, a rewritten `[aicore]` copy, or no usable cache directory: it builds uncached). The key: the source's
        path and bytes, every header it reaches outside the kernel API (quoted ones from the includer's directory,
        the include directories: the headers the `[aicore]` scan reads), the flags, the compiler and the kernel API
        headers, as a kernel binary's."""
        if self.kernels is not None or self.compiled != self.source or not cache_enabled():
            return None
        try:
            root = cache.directory()
        except cache.KernelCacheError:
            return None  # (pyasc_sim.compile reports an unsafe cache; a CPU-debug program builds without one)
        h = hashlib.sha256()
        for part in (_OBJECT_LAYOUT, self.cxx, "\0".join(self.flags), self.source, _header_version(inc)):
            h.update(part.encode())
            h.update(b"\0\1")
        h.update(data)
        for path in headers:
            with open(path, "rb") as f:
                h.update(b"\0\1" + path.encode() + b"\0" + f.read())
        return root, f"cpudebug_{h.hexdigest()[:32]}"

    def start(self) -> None:
        if self.cache_entry is not None:
            hit = cache.lookup(*self.cache_entry)
            if hit is not None:
                shutil.copyfile(hit, self.output)
                return
        if self.kernels is None:
            cmd = [self.cxx, *self.flags, "-c", self.compiled, "-o", self.output]
            self.procs.append((cmd, subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)))
            return
        base = os.path.splitext(self.output)[0]
        units = {"aic": _aic_unit(self.compiled, self.kernels, self.getters),
                 "aiv": _aiv_unit(self.compiled, self.kernels, self.getters)}
        for kind, unit in units.items():
            path = f"{base}.{kind}.cpp"
            with open(path, "w", encoding="utf-8") as f:
                f.write(unit)
            cmd = [self.cxx, *mix_build.pass_flags(self.flags, kind), path, "-o",
                   f"{base}.{kind}.o"]
            self.procs.append((cmd, subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                                     text=True)))

    def finish(self) -> None:
        failed = None
        for cmd, proc in self.procs:
            _, err = proc.communicate()
            if proc.returncode != 0 and failed is None:
                failed = (cmd, err)
        if failed is not None:
            _check(subprocess.CompletedProcess(failed[0], 1, "", failed[1]), failed[0], self.source, self.soc)
        if self.kernels is None:
            if self.procs and self.cache_entry is not None:
                self._publish()
            return
        base = os.path.splitext(self.output)[0]
        try:
            mix_build.rename_vector_pass(self.cxx, f"{base}.aiv.o", f"{base}.aiv_renamed.o", tuple(self.getters))
        except FileNotFoundError as exc:
            raise KernelBuildError(str(exc), file=self.source) from None
        except subprocess.CalledProcessError as exc:
            raise KernelBuildError(f"renaming the vector pass's symbols of {self.source} failed:\n"
                                   f"{(exc.stderr or '').strip()}", file=self.source) from None
        # one relocatable object (what the CMake helper links like any other object)
        cmd = [self.cxx, "-r", "-nostdlib", f"{base}.aic.o", f"{base}.aiv_renamed.o", "-o", self.output]
        _check(subprocess.run(cmd, capture_output=True, text=True), cmd, self.source)

    def _publish(self) -> None:
        root, name = self.cache_entry
        try:
            tmpdir = cache.build_dir(root)
            try:
                built = os.path.join(tmpdir, "out.o")
                shutil.copyfile(self.output, built)
                cache.publish(root, name, built)
            finally:
                shutil.rmtree(tmpdir, ignore_errors=True)
        except OSError:
            pass  # (the program is built; only the cache entry is missing)


def cache_enabled() -> bool:
    """False when ``PYASC_SIM_CPU_DEBUG_CACHE`` is ``0`` (or ``off`` / ``no`` / ``false``): every CPU-debug
    source compiles."""
    return os.environ.get("PYASC_SIM_CPU_DEBUG_CACHE", "1").strip().lower() not in ("0", "off", "no", "false")


#: how a CPU-debug object's cache key is made (bump when _Compile's build changes)
_OBJECT_LAYOUT = "cpudebug-obj-1"


def _file_text(path: str) -> str:
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def _aiv_unit(source: str, kernels: list, getters: list[str]) -> str:
    """The vector pass's unit of a mixed kernel source: the source, and a getter per kernel handing
    out its address (the only symbols of the pass kept by name)."""
    lines = [f"// Generated by pyasc_sim.cpudebug for {source}, vector pass: do not edit.",
             f"#include {_stubgen.cxx_string(source)}",
             '#include "kernel_operator.h"', ""]
    lines += [f'extern "C" void {get}(decltype(&{k.name}) *out) {{ *out = &{k.name}; }}'
              for get, k in zip(getters, kernels)]
    return "\n".join(lines) + "\n"


def _aic_unit(source: str, kernels: list, getters: list[str]) -> str:
    """The cube pass's unit of a mixed kernel source: the source, and for each kernel a registration
    of its vector pass (through the vector pass's getter) for ICPU_RUN_KF (cpu_debug_cores.h)."""
    lines = [f"// Generated by pyasc_sim.cpudebug for {source}, cube pass: do not edit.",
             f"#include {_stubgen.cxx_string(source)}",
             '#include "kernel_operator.h"',
             '#include "pyasc_sim/kapi/cpu_debug_cores.h"', ""]
    for i, (get, k) in enumerate(zip(getters, kernels)):
        lines += [f'extern "C" void {get}(decltype(&{k.name}) *out);',
                  f"static const bool __pyasc_sim_split_{i} = ::pyasc_sim::cpudebug::register_split(&{k.name}, "
                  f"[] {{ decltype(&{k.name}) f = nullptr; {get}(&f); return f; }}());"]
    return "\n".join(lines) + "\n"


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


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m pyasc_sim.cpudebug SOURCE -o OBJECT [--debug] [-I DIR] [-D NAME[=VALUE]]``: one
    source's object (:func:`compile_object`), for the CMake helper's mixed kernel sources."""
    import argparse
    import sys

    ap = argparse.ArgumentParser(prog="python -m pyasc_sim.cpudebug", description=main.__doc__)
    ap.add_argument("source")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--debug", action="store_true")
    ap.add_argument("-I", dest="include_dirs", action="append", default=[])
    ap.add_argument("-D", dest="defines", action="append", default=[])
    args = ap.parse_args(argv)
    try:
        compile_object(args.source, args.output, debug=args.debug, include_dirs=[d for d in args.include_dirs if d],
                       extra_flags=[f"-D{d}" for d in args.defines if d])
    except KernelBuildError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
