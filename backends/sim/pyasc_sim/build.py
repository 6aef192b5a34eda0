"""Compiling Ascend C kernels for the simulator.

:func:`compile` turns any Ascend C source (``#include "kernel_operator.h"``, ``extern "C"
__global__ __aicore__ void name(GM_ADDR ..., uint32_t ...)``) into a kernel binary that
``aclrtBinaryLoadFromFile`` loads on the simulator: a host shared object built with g++ against the
kernel API headers (:func:`pyasc_sim.get_include`), with one launch stub per kernel generated from
its signature (see ``_stubgen.py``). Binaries are cached by content hash in the per-user cache of
``cache.py`` (verified on every use; a binary is returned only if its recorded sha256 matches).

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

from . import (_stubgen, bisheng_syntax, cache, cxx17_aggregates, execution_space, member_specialization, mix_build,
               pch, simt_soc, task_infer, tpl)
from .cache import KernelCacheError


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


class SimtUnavailableError(KernelCompileError):
    """SIMT code (``asc_vf_call`` / ``Simt::VF_CALL``, ``__simt_vf__``, ``threadIdx``, ``__sync_workitems``, ...)
    built for a SoC without SIMT (every SoC but the Ascend 950): ``api`` is the SIMT name the compiler reported
    unknown, ``soc`` the SoC built for; the message gives the ``soc=`` / ``--soc`` value that has SIMT
    (:mod:`pyasc_sim.simt_soc`). The build fails, as it does for that NPU."""

    def __init__(self, message: str, *, api: str = "", soc: str = "", file: str = "", line: int = 0,
                 output: str = "") -> None:
        super().__init__(message, file=file, line=line, output=output)
        self.api = api
        self.soc = soc


#: BiSheng's automatic synchronisation switch, as CANN kernel builds spell it (atlas_bisheng_10_0008, "Automatic
#: Synchronization": ``--cce-auto-sync`` "is enabled in kernel launch projects and custom operator projects by
#: default"; some op builds pass ``--cce-auto-sync=off``, e.g. vllm-ascend's build_dspark_swa_indices, while
#: its gumbel_sample passes ``--cce-auto-sync=on``).
AUTO_SYNC_FLAG = "--cce-auto-sync"


def auto_sync_flags(flags: Sequence[str]) -> list[str]:
    """``flags`` with BiSheng's automatic-synchronisation option translated for g++: ``--cce-auto-sync=off``
    becomes ``-DPYASC_SIM_AUTO_SYNC=0`` (the kernel API then checks the Scalar Unit's pairs with MTE2 / MTE3 / V
    the kernel writes itself: ``pipe-race``); ``--cce-auto-sync`` and ``--cce-auto-sync=on`` are the default and
    are dropped. Of several spellings the last one decides, as for a compiler option given twice. Any other
    value raises :class:`KernelBuildError` naming it and the accepted spellings."""
    out: list[str] = []
    off = None
    for f in flags:
        if not isinstance(f, str) or not f.startswith(AUTO_SYNC_FLAG) or f.startswith(AUTO_SYNC_FLAG + "-"):
            out.append(f)  # (--cce-auto-sync-log=<file> is another option: left to the compiler)
            continue
        value = f[len(AUTO_SYNC_FLAG):]
        if value in ("", "=on"):
            off = False
        elif value == "=off":
            off = True
        else:
            raise KernelBuildError(
                f"extra_flags: {f!r} is not a value of BiSheng's automatic synchronisation option: use "
                f"'--cce-auto-sync=off' to build with it off (the kernel must then order the Scalar Unit's "
                f"accesses against MTE2 / MTE3 / V itself), or '--cce-auto-sync' / '--cce-auto-sync=on' (the "
                f"default: the compiler inserts those pairs); got the value {value.lstrip('=')!r}")
    if off:
        out.append("-DPYASC_SIM_AUTO_SYNC=0")
    return out


def cache_dir() -> str:
    """The verified per-user kernel cache directory (see :mod:`pyasc_sim.cache`): ``PYASC_CACHE_DIR``,
    else ``$XDG_CACHE_HOME/pyasc``, else ``~/.cache/pyasc``; raises :class:`KernelCacheError` when
    it is not the user's own or others can write it."""
    return cache.directory()


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
    cmd_tail = ["-std=c++17", "-O2", "-g1", "-shared", "-fPIC", "-fvisibility=hidden", "-I", get_include(), *flags]
    # the headers' content is part of the key: a binary built against an older kernel_abi.h must
    # not be reused after an upgrade (its ABI version check would fail every launch)
    key = hashlib.sha256("\0".join([str(text), cxx, *cmd_tail, _header_version(get_include())]).encode()).hexdigest()[:24]
    root = cache.directory()
    name = f"kernel_{key}"
    hit = cache.lookup(root, name)
    if hit is not None:
        return hit
    with cache.build_lock(root, name):  # a concurrent builder of this kernel: wait, then take its binary
        return cache.lookup(root, name) or _build_abi_kernel(root, name, text, cxx, cmd_tail)


def _build_abi_kernel(root: str, name: str, text: str, cxx: str, cmd_tail: list[str]) -> str:
    tmpdir = cache.build_dir(root)
    try:
        src = os.path.join(tmpdir, "kernel.cpp")
        with open(src, "w", encoding="utf-8") as f:
            f.write(str(text))
        tmp_out = os.path.join(tmpdir, "kernel.so")
        proc = subprocess.run([cxx, *cmd_tail, f"-fdebug-prefix-map={tmpdir}=/pyasc-build", src, "-o", tmp_out],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise KernelBuildError(f"compiling the kernel failed ({cxx}):\n{proc.stderr.strip()}",
                                   output=proc.stderr)
        return cache.publish(root, name, tmp_out)
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)


# -- compile(): any Ascend C source -----------------------------------------------------------------

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


def _local_includes(text: str, directory: str) -> list[bytes]:
    """``path\0contents`` of the ``#include "..."`` files found next to the source (recursively,
    bisheng_syntax.own_headers): a change in a kernel's own header must miss the cache."""
    out = []
    for path in bisheng_syntax.own_headers(text, directory):
        with open(path, "rb") as f:
            out.append(path.encode() + b"\0" + f.read())
    return out


def _include_dir_headers(text: str, src_dir: str, extra_flags: Sequence[str], inc: str) -> list[str]:
    """The headers the source reaches through the ``-I`` directories of ``extra_flags`` (recursively, searched as
    :func:`compile`'s command line searches: quoted includes from the includer's directory, the kernel API, the
    source's directory, then the -I directories; angle-bracket includes from the -I directories), not the kernel
    API's: [] without -I directories."""
    dirs = bisheng_syntax.include_dirs(extra_flags)
    if not dirs:
        return []
    return bisheng_syntax.reachable_headers(text, src_dir, [inc, src_dir, *dirs, inc], [*dirs, inc], inc)


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


def compile(source: str | os.PathLike, *, kernels: Sequence[str] | None = None, opt: str | None = None,
            checks: bool = True, isa: str | None = None, output: str | os.PathLike | None = None,
            extra_flags: Sequence[str] = (), compiler: str | None = None, soc: str | None = None,
            core: str = "vec", tiling_header: str | os.PathLike | None = None, op_type: str | None = None,
            dtypes: dict[str, str] | None = None, tiling_key: int | None = None,
            instances: Sequence[str] = (), tpl_args: dict[str, int] | Sequence[int] | None = None,
            raw_gm: bool | None = None) -> str:
    """Compile an Ascend C source into a simulator kernel binary and return its path.

    ``source`` is a path to a ``.cpp`` file or the source text itself. Every ``extern "C"
    __global__ __aicore__ void name(...)`` kernel in it (also ones declared through macros) gets a
    launch stub, so it runs through ``aclrtBinaryLoadFromFile`` / ``aclrtBinaryGetFunction(name)``
    / ``aclrtLaunchKernel`` (``pyasc_acl.Binary(path, device="sim").function(name)``, launched
    with ``pyasc_acl.launch``, or use ``pyasc.Kernel``). Parameters are GM addresses (``GM_ADDR``,
    ``__gm__ T *``), scalars or trivially copyable structs by value, laid out in the argument blob
    as the device compiler lays out parameters (each at its type's alignment, by its size); the
    binary records the signature in its ``.pyasc_sim_sig`` section.

    Template kernels (``template <typename T> __global__ __aicore__ void name(...)``) get a stub
    per instance: those the source instantiates explicitly (``template __global__ __aicore__ void
    name<half>(...);``) and those ``instances`` names (``["name<half>"]``); an instance's kernel
    name is spelled as C++ spells it (``_stubgen.canonical_name``), also for
    ``aclrtBinaryGetFunction``.

    ``kernels`` restricts the stubs to these names (default: all kernels of the source). ``opt`` is
    the optimisation flag (default ``PYASC_SIM_OPT``, else ``-O3``; the build's floating-point flags
    keep results the same at -O0..-O3, so a lower one only trades kernel speed for build time;
    ``-Ofast`` turns on fast-math). ``isa`` picks the target instruction set: ``"native"``
    (default, or ``PYASC_SIM_ISA``) builds with ``-march=native`` for this machine (less AVX512-FP16:
    ``NATIVE_EXCLUDED``), and the cache key
    holds the instruction set it resolves to (a home directory shared between machines never hands
    a binary to a CPU that lacks its instructions); ``"portable"`` builds for the compiler's
    baseline. Both build with ``-ffp-contract=off`` (no fused multiply-add the source did not ask
    for), so the two give bit-identical results. ``checks=False`` makes a binary whose kernels never run the kernel API's
    sanitizer checks (faster; its stubs clear the block's checks flag, and ``PYASC_SIM_NO_CHECKS`` is
    defined); with ``checks=True`` they run unless ``PYASC_SIM_CHECKS=0`` switches them off.
    ``output`` copies the binary there as well; the returned path is then ``output``.

    Raw ``__gm__`` pointer loads and stores in kernel code are checked like GlobalTensor scalar
    accesses when the binary is built with ``raw_gm`` (:func:`uses_raw_gm`; default: when ``checks``
    is on and the source uses ``__gm__`` outside ``SetGlobalBuffer(...)``, or ``PYASC_SIM_RAW_GM=1`` /
    ``0`` forces it): the translation unit is compiled with GCC's ThreadSanitizer instrumentation,
    whose hooks the kernel API implements (kapi/raw_gm.h; libtsan is not linked).

    The source is C++20 (what the clang-based NPU compiler accepts, e.g. ``ReduceSum<float>(...)``
    found by argument-dependent lookup) and sees the architecture macros of ``soc`` (default
    ``PYASC_SIM_SOC``, else Ascend910B1): ``__CCE_AICORE__``, ``__NPU_ARCH__``, and for ``core``
    ``"vec"`` (default) ``__DAV_C220_VEC__``, ``"cube"`` ``__DAV_C220_CUBE__``, ``"mix"`` both
    (see :func:`arch_defines`; a ``"vec"`` build of a kernel declaring ``KERNEL_TYPE_AIC_ONLY`` and no other task
    type whose source tests the core macros is a ``"cube"`` build, as the NPU toolchain compiles an AIC-only kernel:
    :func:`pyasc_sim.mix_build.aic_only_core`); ``ASCENDC_CPU_DEBUG`` and ``__CCE_KT_TEST__`` are defined as in
    CANN's CPU debug build. ``extra_flags`` reach every compiler run (stub generation too). A mixed
    kernel (``KERNEL_TYPE_MIX_AIC_1_1`` / ``1_2``) that tests ``__DAV_C220_CUBE__`` / ``__DAV_C220_VEC__``
    is built once per core kind (with ``core="vec"`` or ``"mix"``): the block's AIC runs the cube
    pass, its AIV the vector pass, both in one binary (:mod:`pyasc_sim.mix_build`). A kernel that declares
    no task type gets the one the NPU compiler infers (:mod:`pyasc_sim.task_infer`: cube and vector
    instructions in a kernel that tells its cores apart launch as MIX AIC:AIV 1:2, numBlocks counting groups).

    Op-project kernels (``(GM_ADDR x, ..., GM_ADDR workspace, GM_ADDR tiling)``): ``tiling_header``
    is the op's host tiling header (``op_host/<op>_tiling.h``, or its directory: every header there
    that uses ``BEGIN_TILING_DATA_DEF``), included before the source so ``GET_TILING_DATA`` finds
    the struct ``REGISTER_TILING_DATA_CLASS(op_type, Struct)`` registers (``op_type`` may be left
    out when the header registers one op). ``dtypes`` maps the op's input/output names to dtypes
    (``{"x": "float16"}`` defines ``DTYPE_X`` as ``half``, ``ORIG_DTYPE_X`` as ``DT_FLOAT16`` and
    ``FORMAT_X`` as ``FORMAT_ND``, with the ``DT_*`` / ``FORMAT_*`` numbers of kapi/op_dtypes.h, as CANN's
    op build does); ``tiling_key`` is the key ``TILING_KEY_IS`` compares with (default 0) and the number
    ``TILING_KEY_VAR`` is defined as (so ``#if TILING_KEY_VAR == k`` works). See :mod:`pyasc_sim.tiling` for filling
    a macro-declared struct from Python.

    Tiling template programming (``ASCENDC_TPL_ARGS_DECL`` / ``ASCENDC_TPL_SEL`` from
    ``ascendc/host_api/tiling/template_argument.h``, kernels ``template <uint32_t A, ...>``):
    ``tpl_args`` (``{"A": 1, ...}`` or the values in declaration order) or ``tiling_key`` (decoded
    as ``GET_TPL_TILING_KEY`` encodes) selects the combination; each template kernel with one
    template parameter per declared argument gets that instance (``name<1, 0>``; see
    :func:`template_arguments` and :mod:`pyasc_sim.tpl`) and ``TILING_KEY_IS`` sees its key.
    Values the declaration or no ``ASCENDC_TPL_ARGS_SEL`` allows raise ``tpl.TemplateArgumentError``.

    Binaries are cached in :func:`cache_dir` under a hash of the source, the contents of the
    headers it includes with quotes from its own directory and of those it reaches through the ``-I``
    directories of ``extra_flags``, the flags, the compiler and the kernel API headers, so compiling an unchanged source again returns at once. A cached binary is
    returned only if its content still matches the sha256 recorded when it was built. Two builders of
    one kernel at once (processes, threads) compile it once: the second waits for the first's binary.

    The compiler always sees the caller's own text (written with a ``#line`` naming the source to a
    private build directory), never a file re-read from the cache. Headers: ``kernel_operator.h``
    and the rest of the kernel API come from :func:`get_include` first; ``#include "x.h"`` then
    finds the source's own directory (``-iquote``; for source text, the current directory).

    Raises :class:`KernelCompileError` (a ``pyasc.PyascError``) on a compile error, its message
    starting with the source's ``file:line`` and holding the compiler's output (its subclass
    :class:`SimtUnavailableError` when SIMT code is built for a SoC without SIMT: it names the API and
    ``soc="Ascend950PR_9599"``),
    :class:`KernelBuildError` for a kernel signature the launch ABI cannot pass, no kernels, or an
    unknown name in ``kernels``, and :class:`KernelCacheError` when the cache directory is not
    safe to use.
    """
    text, path = _read_source(source)
    cxx = _compiler(compiler)
    inc = _kernel_api_include()
    opt = opt_flag(opt)
    if kernels is not None:
        if isinstance(kernels, str):
            kernels = [kernels]
        kernels = [_stubgen.canonical_name(k) for k in kernels]
    if isinstance(instances, str):
        instances = [instances]
    instances = sorted({_stubgen.canonical_name(i) for i in instances})
    if isinstance(extra_flags, str):
        raise KernelBuildError(f"extra_flags must be a sequence of flags such as ['-DN=8'], got the string "
                               f"{extra_flags!r}")
    extra_flags = auto_sync_flags(extra_flags)
    project_flags, project_files = op_project_flags(tiling_header, op_type, dtypes, tiling_key)
    build_text, launches = rewrite_launches(text)
    if launches:
        project_flags.append(f"-DPYASC_SIM_ACL_LIBRARY={_stubgen.cxx_string(_acl_library())}")
    # -g1: line tables only, so a kernel crash names its source line (issue 16); no effect on speed
    isa_flags, isa_key = target_isa(cxx, isa)
    src_dir = os.path.dirname(path) if path else os.getcwd()
    own_headers = _local_includes(text, src_dir)
    # the headers found through -I include directories (part of the key: a change in one misses the cache)
    include_headers = _include_dir_headers(text, src_dir, extra_flags, inc)
    include_texts = [_file_bytes(h) for h in include_headers]  # read once: the rewrites' scans and the key
    if tiling_key is None and tpl_args is None and not any(f.startswith("-DTILING_KEY_VAR") for f in extra_flags):
        _require_key_for_if(text, own_headers, path or "<source>")
    if raw_gm is None:
        raw_gm = checks and uses_raw_gm(text, own_headers)
    # a declared KERNEL_TYPE_AIC_ONLY kernel testing the core macros is compiled for the cube core (mix_build)
    arch = SOC_ARCH.get(_soc_name(soc))  # an unknown SoC is arch_defines' error, below
    if arch is not None:
        core = mix_build.aic_only_core(core, arch[2], [text.encode(), *own_headers])
    flags = ["-std=c++20", opt, "-g1", *isa_flags, *FP_FLAGS, "-shared", "-fPIC", "-fvisibility=hidden", *PRELUDE_FLAGS,
             *(["-DPYASC_SIM_NO_CHECKS=1"] if not checks else []), *(RAW_GM_FLAGS if raw_gm and checks else []),
             *arch_defines(soc, core), *project_flags]
    flags += [*simt_flags(flags, text, own_headers), *extra_flags]
    root = cache.directory()
    h = hashlib.sha256()
    for part in (_LAYOUT.encode(), text.encode(), cxx.encode(), "\0".join(flags).encode(), repr(kernels).encode(), repr(instances).encode(),
                 _header_version(inc).encode(), _stubgen.STUB_VERSION.encode(), src_dir.encode(), isa_key.encode(),
                 (path or "").encode(), repr(tpl_args).encode(), *own_headers,
                 *(_file_bytes(f) for f in project_files), *include_texts):
        h.update(part)
        h.update(b"\0\1")
    key = h.hexdigest()[:32]
    cached = cache.lookup(root, f"ascendc_{key}")
    if cached is None:
        with cache.build_lock(root, f"ascendc_{key}"):  # a concurrent builder of this key: wait, take its binary
            cached = cache.lookup(root, f"ascendc_{key}") or _build_new(
                text, build_text, path, src_dir, key, kernels, flags, cxx, inc, root, checks, launches, instances,
                tpl_args, tiling_key, tiling_header, soc, own_headers, include_texts, include_headers)
    if output is None:
        return cached
    return _copy_out(cached, os.path.abspath(os.fspath(output)))


def _build_new(text: str, build_text: str, path: str | None, src_dir: str, key: str, kernels, flags: list[str],
               cxx: str, inc: str, root: str, checks: bool, launches: int, instances, tpl_args, tiling_key,
               tiling_header, soc, own_headers, include_texts, include_headers) -> str:
    """Build the key's binary (under its build lock) and return its cached path."""
    # the rewrites of C++ the NPU compiler accepts and g++ does not: pure functions of what the key hashes
    # (the source, its own headers, its -I headers), so a cache hit needs none of their scans
    # the NPU compiler's `[aicore]` function attribute, spelled __aicore__ for g++ (pyasc_sim.bisheng_syntax)
    aicore_attr = bisheng_syntax.uses_aicore_attribute([text, *own_headers, *include_texts])
    if aicore_attr:
        build_text = bisheng_syntax.rewrite(build_text)[0]
    # in-class explicit specializations of member templates (clang accepts them; pyasc_sim.member_specialization)
    member_spec = member_specialization.uses_member_specialization([text, *own_headers])
    if member_spec:
        build_text = member_specialization.rewrite(build_text)[0]
    # classes whose only constructor is `X() = default;`: aggregates, as in the NPU compiler's C++17
    # (pyasc_sim.cxx17_aggregates)
    lone_ctor = cxx17_aggregates.uses_lone_defaulted_constructor([text, *own_headers])
    if lone_ctor:
        build_text = cxx17_aggregates.rewrite(build_text)[0]
    # a host function sharing an __aicore__ function's signature: device calls take the __aicore__ one, as on
    # the NPU compiler (pyasc_sim.execution_space)
    host_twins = execution_space.device_signatures([text, *own_headers, *include_texts])
    if host_twins:
        build_text = execution_space.rewrite(build_text, host_twins)[0]
    # the op-project build and -DHAVE_WORKSPACE set the system workspace from `workspace` (SetSysWorkSpace)
    sys_ws = tiling_header is not None or any(fl == "-DHAVE_WORKSPACE" or fl.startswith("-DHAVE_WORKSPACE=")
                                              for fl in flags)
    return _build(build_text, path, src_dir, key, kernels, flags, cxx, inc, root, checks, launches > 0,
                  instances, tpl_args, tiling_key, sys_workspace=sys_ws, aicore_attr=aicore_attr,
                  soc=_soc_name(soc), include_headers=include_headers if aicore_attr or host_twins else (),
                  member_spec=member_spec, lone_ctor=lone_ctor, host_twins=host_twins)


#: the flags of a build whose raw __gm__ accesses are checked (kapi/raw_gm.h implements the hooks GCC's
#: ThreadSanitizer instrumentation calls; -static-libtsan with -shared links no libtsan at all)
RAW_GM_FLAGS = ("-fsanitize=thread", "-static-libtsan", "--param=tsan-instrument-func-entry-exit=0", "-gdwarf-4")
#: the flags of a build with SIMT VF calls (Ascend 950): GCC calls __sanitizer_cov_trace_pc() at every basic
#: block, where kapi/simt.h keeps the lanes of a warp in step (the documented lockstep warp)
SIMT_FLAGS = ("-fsanitize-coverage=trace-pc", "-DPYASC_SIM_SIMT_LOCKSTEP=1")
_SIMT_RE = re.compile(rb"\b(?:VF_CALL|asc_vf_call)\b")


def uses_simt(text: str, own_headers: Sequence[bytes] = ()) -> bool:
    """Whether an Ascend C source (with its own headers) starts SIMT VF calls (``Simt::VF_CALL`` /
    ``asc_vf_call``): such a build gets :data:`SIMT_FLAGS`."""
    return any(_SIMT_RE.search(part) for part in (text.encode(), *own_headers))


def simt_flags(flags: Sequence[str], text: str, own_headers: Sequence[bytes] = ()) -> tuple[str, ...]:
    """:data:`SIMT_FLAGS` for an Ascend 950 build (``flags`` from :func:`arch_defines`) of a source that
    starts SIMT VF calls, else nothing: shared by :func:`compile` and the CPU-debug build."""
    return SIMT_FLAGS if "-D__CCE_AICORE__=310" in flags and uses_simt(text, own_headers) else ()


_GM_RE = re.compile(r"\b__gm__\b")
_SET_GLOBAL_RE = re.compile(r"\bSetGlobalBuffer\s*\(")
#: a byte-pointer parameter (``__gm__ uint8_t *x``, what ``GM_ADDR`` spells): a handle the kernel
#: hands to SetGlobalBuffer through a cast, so by itself no sign of a raw access (a cast of it is)
_GM_BYTE_PARAM_RE = re.compile(r"(?<=[(,])\s*(?:const\s+)?__gm__\s+(?:const\s+)?(?:u?int8_t|char|void)\s*\*\s*"
                               r"(?:__restrict__\s*)?\w*\s*(?=[,)])")


def uses_raw_gm(text: str, own_headers: Sequence[bytes] = ()) -> bool:
    """Whether an Ascend C source (with ``own_headers``, the headers it includes with quotes as
    :func:`_local_includes` reads them) may load or store through raw ``__gm__`` pointers: ``__gm__`` appears outside the arguments of
    ``SetGlobalBuffer(...)`` (a cast such as ``(__gm__ half *)x`` handed to a GlobalTensor is no raw
    access) and outside byte-pointer parameters (``__gm__ uint8_t *x``, the spelled-out ``GM_ADDR``).
    ``PYASC_SIM_RAW_GM=1`` / ``0`` overrides the answer."""
    forced = os.environ.get("PYASC_SIM_RAW_GM", "")
    if forced in ("0", "1"):
        return forced == "1"
    if forced:
        raise KernelBuildError(f"PYASC_SIM_RAW_GM must be '1' (check raw __gm__ accesses), '0' (do not) or unset "
                               f"(decide from the source), got {forced!r}")
    parts = [text, *(b.split(b"\0", 1)[1].decode("utf-8", "replace") for b in own_headers)]
    for part in parts:
        code = _CODE_ONLY_RE.sub(lambda m: m.group(0) if m.group(0)[0] not in "/\"'" else " ", part)
        # blank the arguments of every SetGlobalBuffer( ... ) call (balanced parentheses)
        out, last = [], 0
        for m in _SET_GLOBAL_RE.finditer(code):
            if m.start() < last:
                continue
            depth, i = 1, m.end()
            while i < len(code) and depth:
                depth += {"(": 1, ")": -1}.get(code[i], 0)
                i += 1
            out.append(code[last:m.start()])
            last = i
        out.append(code[last:])
        if _GM_RE.search(_GM_BYTE_PARAM_RE.sub(" ", "".join(out))):
            return True
    return False


def opt_flag(opt: str | None) -> str:
    """The optimisation flag of a build: ``opt``, else ``PYASC_SIM_OPT``, else ``-O3`` (checked: it reaches the
    compiler's command line)."""
    name = "opt"
    if opt is None:
        opt = os.environ.get("PYASC_SIM_OPT") or "-O3"
        name = "PYASC_SIM_OPT"
    if not isinstance(opt, str) or not re.fullmatch(r"-O[0-3sgz]?|-Ofast", opt):
        fix = "" if name == "opt" else " (or unset it for -O3)"
        raise KernelBuildError(f"{name} must be a g++ optimisation flag such as '-O2', '-O3' or '-O0'{fix}, got {opt!r}")
    return opt


#: how compile() lays out a build (part of the cache key): bump when it changes
_LAYOUT = "iquote-line-3-mix-pass-task-infer-2"


def _copy_out(cached: str, out: str) -> str:
    """Copy the binary to ``out`` through a private temporary file next to it, renamed atomically
    (never through a predictable name a symlink could redirect)."""
    directory = os.path.dirname(out) or "."
    os.makedirs(directory, exist_ok=True)
    with open(cached, "rb") as src:
        data = src.read()
    return cache.write_atomic(directory, os.path.basename(out), data, 0o755, prefix=f".{os.path.basename(out)}.")


def _private_copy(tmpdir: str, text: str, shown: str) -> str:
    """The caller's text in the private build directory, with a ``#line`` so diagnostics, line
    markers and ``__FILE__`` name ``shown`` (the caller's file) rather than the copy."""
    copy = os.path.join(tmpdir, "kernel.cpp")
    with open(copy, "w", encoding="utf-8") as f:
        f.write(f"#line 1 {_stubgen.cxx_string(shown)}\n{text}")
    return copy


def _build(text: str, path: str | None, src_dir: str, key: str, kernels: list[str] | None,
           flags: list[str], cxx: str, inc: str, root: str, checks: bool, launches: bool = False,
           instances: Sequence[str] = (), tpl_args: dict[str, int] | Sequence[int] | None = None,
           tiling_key: int | None = None, sys_workspace: bool = False, aicore_attr: bool = False,
           soc: str | None = None, include_headers: Sequence[str] = (), member_spec: bool = False,
           lone_ctor: bool = False, host_twins: frozenset[tuple[str, str]] = frozenset()) -> str:
    tmpdir = cache.build_dir(root, prefix=f"build_{key[:8]}_")
    try:
        # source text: messages point at a kept copy in the cache (for people; never compiled)
        shown = path if path is not None else cache.publish_source(root, text)
        copy = _private_copy(tmpdir, text, shown)
        pch_flags = flags  # the flags that pick the precompiled header (never the private tree's random path)
        twins = functools.partial(execution_space.rewrite, signatures=host_twins)
        if aicore_attr or member_spec or lone_ctor or host_twins:  # its own headers rewritten likewise, found first
            rewriters = [r for r, on in ((bisheng_syntax.rewrite, aicore_attr),
                                         (member_specialization.rewrite, member_spec),
                                         (cxx17_aggregates.rewrite, lone_ctor), (twins, bool(host_twins))) if on]
            bisheng_syntax.mirror_headers(tmpdir, src_dir, text, inc, rewriters)
        if (aicore_attr or host_twins) and include_headers:  # and those of its -I directories, in a private tree
            tree = os.path.join(tmpdir, "aicore_tree")
            bisheng_syntax.mirror_tree(tree, include_headers,
                                       [r for r, on in ((bisheng_syntax.rewrite, aicore_attr),
                                                        (twins, bool(host_twins))) if on])
            flags = bisheng_syntax.mirrored_dirs(tree, flags)
        quote_dirs = [inc, src_dir]  # pyasc's kernel_operator.h before anything of the caller's
        try:
            pre = _stubgen.preprocess(copy, [inc], cxx, quote_dirs=quote_dirs, flags=_pp_flags(flags))
        except _stubgen.StubError as exc:
            _raise_compile_error(str(exc), shown)
        if tpl_args is not None or tiling_key is not None:
            extra, key_flag = _tpl_instances(pre, shown, tpl_args, tiling_key)
            instances = sorted({*instances, *extra})
            flags, pch_flags = [*flags, *key_flag], [*pch_flags, *key_flag]
        try:
            found = _stubgen.find_kernels(pre, shown, list(instances))
        except _stubgen.StubError as exc:
            raise KernelBuildError(str(exc), file=exc.file, line=exc.line) from None
        if not found and not launches:  # a launch file of template kernels has only instance entries
            raise KernelBuildError(
                f'no kernel in {shown}: a kernel is declared as extern "C" __global__ __aicore__ void '
                "name(GM_ADDR ..., uint32_t ...) after #include \"kernel_operator.h\" (a template kernel needs an "
                "instance: instantiate it in the source, or name one, pyasc.Kernel(source, 'name<half>'))",
                file=shown)
        own = [text.encode(), *_local_includes(text, src_dir)]
        # the kernel type the NPU compiler infers when the kernel declares none (pyasc_sim.task_infer)
        infer = task_infer.wanted(flags, pre, own, [k.name for k in found])
        if kernels is not None:
            names = {k.name for k in found}
            missing = [k for k in kernels if k not in names]
            if missing:
                raise KernelBuildError(
                    f"{shown} has no kernel named {', '.join(map(repr, missing))}; its kernels are "
                    f"{', '.join(sorted(names))}", file=shown)
            found = [k for k in found if k.name in kernels]
        prelude = _prelude(tmpdir, copy, found, launches)
        tmp_out = os.path.join(tmpdir, "kernel.so")
        # the private build directory's random name must not reach the line tables: builds of one
        # source stay byte-identical (two processes compiling it at once publish the same binary)
        common = [f"-fdebug-prefix-map={tmpdir}=/pyasc-build", *(a for d in quote_dirs for a in ("-iquote", d)), "-I", inc]
        if mix_build.wanted(flags, pre, own) or mix_build.wanted_undeclared(flags, pre, own, infer):
            vector_only = sorted(n for n, t in _stubgen.find_templates(pre, shown).items() if t.vector_only) \
                if launches else []
            _build_mixed(tmpdir, prelude, found, checks, flags, common, cxx, shown, tmp_out, sys_workspace, vector_only,
                         infer, soc)
            return cache.publish(root, f"ascendc_{key}", tmp_out)
        stub = os.path.join(tmpdir, "stubs.cpp")
        with open(stub, "w", encoding="utf-8") as f:
            f.write(_stubgen.generate(prelude, found, checks=checks, sys_workspace=sys_workspace))
            if infer:
                f.write(task_infer.stub_definition())
        cmd = [cxx, *flags, *common, stub, "-o", tmp_out]
        proc = _run_with_pch(cmd, pch_flags, text, root, cxx, inc)
        if proc.returncode != 0:
            _raise_compile_error(proc.stderr, shown, cmd, soc)
        return cache.publish(root, f"ascendc_{key}", tmp_out)
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)


def _build_mixed(tmpdir: str, prelude: str, found: list, checks: bool, flags: list[str], common: list[str],
                 cxx: str, shown: str, tmp_out: str, sys_workspace: bool = False,
                 vector_only: Sequence[str] = (), infer: bool = False, soc: str | None = None) -> None:
    """Build a mixed kernel once per core kind into ``tmp_out`` (:mod:`pyasc_sim.mix_build`): the cube
    and vector passes compile at the same time, the vector pass's symbols are renamed, one link."""
    procs = []
    for kind in ("aic", "aiv"):
        stub = os.path.join(tmpdir, f"stubs_{kind}.cpp")
        with open(stub, "w", encoding="utf-8") as f:
            f.write(_stubgen.generate(prelude, found, checks=checks, split=kind, sys_workspace=sys_workspace,
                                      vector_only_templates=vector_only))
            if infer and kind == "aic":  # the entries' unit asks for the inferred task type (task_infer)
                f.write(task_infer.stub_definition())
        cmd = [cxx, *mix_build.pass_flags(flags, kind), *common, stub, "-o", os.path.join(tmpdir, f"{kind}.o")]
        procs.append((cmd, subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)))
    for cmd, proc in procs:
        _, err = proc.communicate()
        if proc.returncode != 0:
            for _, other in procs:
                other.communicate()  # drain its pipes: a pass whose stderr fills the pipe would never exit
            _raise_compile_error(err, shown, cmd, soc)
    aiv = os.path.join(tmpdir, "aiv_renamed.o")
    try:
        mix_build.rename_vector_pass(cxx, os.path.join(tmpdir, "aiv.o"), aiv,
                                     tuple(_stubgen.aiv_getter(i) for i in range(len(found))))
    except FileNotFoundError as exc:
        raise KernelBuildError(str(exc), file=shown) from None
    except subprocess.CalledProcessError as exc:
        raise KernelBuildError(f"renaming the vector pass's symbols of {shown} failed ({' '.join(exc.cmd[:1])}):\n"
                               f"{(exc.stderr or '').strip()}", file=shown) from None
    cmd = [cxx, *mix_build.link_flags(flags), os.path.join(tmpdir, "aic.o"), aiv, "-o", tmp_out]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        _raise_compile_error(proc.stderr, shown, cmd, soc)


def _run_with_pch(cmd: list[str], flags: list[str], text: str, root: str, cxx: str, inc: str):
    """Run the build, with the precompiled kernel API header of its flags in place of the prelude
    flags when one applies (:mod:`pyasc_sim.pch`); the result is the same build either way."""
    try:
        header = pch.include_flags(root, cxx, inc, _header_version(inc), flags, text)
    except KernelCacheError:
        raise  # a bad setting: the user's to fix
    except (pch.Unavailable, OSError):  # OSError: the cache's pch directory unusable, build without
        return subprocess.run(cmd, capture_output=True, text=True)
    i = cmd.index(PRELUDE_FLAGS[0])
    assert tuple(cmd[i:i + len(PRELUDE_FLAGS)]) == PRELUDE_FLAGS
    with_pch = [*cmd[:i], *header, "-Winvalid-pch", *cmd[i + len(PRELUDE_FLAGS):]]
    proc = subprocess.run(with_pch, capture_output=True, text=True)
    if f"{pch.HEADER}.gch: not used because" in proc.stderr or (
            proc.returncode != 0 and not os.path.exists(header[1])):  # unusable, or evicted meanwhile
        if os.path.exists(header[1]):
            pch.drop(header)
        return subprocess.run(cmd, capture_output=True, text=True)
    return proc


def _tpl_instances(pre: str, shown: str, tpl_args, tiling_key: int | None) -> tuple[list[str], list[str]]:
    """(the template-kernel instances a tiling template combination selects, the tiling-key flag for
    ``tpl_args``) from the source's ASCENDC_TPL_ARGS_DECL; none without a declaration and tpl_args."""
    if tpl_args is not None and tiling_key is not None:
        raise KernelBuildError(f"pass tpl_args= ({tpl_args!r}) or tiling_key= ({tiling_key}), not both: the key is "
                               "derived from the template arguments", file=shown)
    decl = tpl.parse(pre)
    if decl is None:
        if tpl_args is not None:
            raise KernelBuildError(f"tpl_args={tpl_args!r} but {shown} declares no template arguments: include the "
                                   "op's tiling key header (ASCENDC_TPL_ARGS_DECL, ascendc/host_api/tiling/"
                                   "template_argument.h)", file=shown)
        return [], []
    if tpl_args is not None:
        values = decl.values_of(tpl_args)
        key_flag = tiling_key_flags(decl.encode(values))
    else:
        values = list(decl.decode(tiling_key).values())
        key_flag = []
    templates = _stubgen.find_templates(pre, shown)
    names = [t.name for t in templates.values() if len(t.tparams) == len(decl.args)]
    if not names:
        raise KernelBuildError(f"{shown} declares {len(decl.args)} template argument(s) ({', '.join(decl.names)}) "
                               "but has no template kernel with as many template parameters (template <uint32_t "
                               f"{', uint32_t '.join(decl.names) or '...'}> __global__ __aicore__ void name(...))",
                               file=shown)
    return [_stubgen.canonical_name(decl.instance(n, values)) for n in names], key_flag


def template_arguments(source: str | os.PathLike, compiler: str | None = None) -> tpl.Declaration:
    """The tiling template declaration (ASCENDC_TPL_ARGS_DECL / ASCENDC_TPL_SEL) of a kernel source
    or of the op's tiling key header: ``.encode({...})`` gives GET_TPL_TILING_KEY's key,
    ``.decode(key)`` the values, ``.instance(name, values)`` the kernel instance name."""
    pre, name = _preprocessed(source, compiler)
    decl = tpl.parse(pre)
    if decl is None:
        raise tpl.TemplateArgumentError(f"{name} declares no template arguments (ASCENDC_TPL_ARGS_DECL)")
    return decl


# -- op projects: the host tiling header, dtypes, tiling key ----------------------------------------

_REGISTER_RE = re.compile(r"REGISTER_TILING_DATA_CLASS\s*\(\s*(\w+)\s*,\s*([\w:]+)\s*\)")
_C_TYPES = {
    "float16": "half", "half": "half", "float32": "float", "float": "float", "bfloat16": "bfloat16_t",
    "float64": "double", "double": "double", "int8": "int8_t", "uint8": "uint8_t", "int16": "int16_t",
    "uint16": "uint16_t", "int32": "int32_t", "uint32": "uint32_t", "int64": "int64_t", "uint64": "uint64_t",
    "bool": "bool",
}
#: ORIG_DTYPE_X as the op build defines it: the ge::DataType name (a number in kapi/op_dtypes.h)
_DT_NAMES = {
    "half": "DT_FLOAT16", "float": "DT_FLOAT", "bfloat16_t": "DT_BF16", "double": "DT_DOUBLE", "int8_t": "DT_INT8",
    "uint8_t": "DT_UINT8", "int16_t": "DT_INT16", "uint16_t": "DT_UINT16", "int32_t": "DT_INT32",
    "uint32_t": "DT_UINT32", "int64_t": "DT_INT64", "uint64_t": "DT_UINT64", "bool": "DT_BOOL",
}


def tiling_key_flags(key: int) -> list[str]:
    """The flags a binary built for tiling key ``key`` gets: the run-time slot's initial value and
    ``TILING_KEY_VAR`` as the op build defines it (a number, so ``#if TILING_KEY_VAR == k`` works;
    ``ull`` above INT64_MAX, where a plain decimal literal would not fit a signed type)."""
    return [f"-DPYASC_SIM_TILING_KEY={key}ull", f"-DTILING_KEY_VAR={key}" + ("ull" if key >= 2 ** 63 else "")]


def _file_bytes(path: str) -> bytes:
    with open(path, "rb") as f:
        return path.encode() + b"\0" + f.read()


def tiling_headers(tiling_header: str | os.PathLike) -> list[str]:
    """The host tiling header(s) ``tiling_header`` names: the file itself, or every ``.h`` file of
    a directory that declares a struct with ``BEGIN_TILING_DATA_DEF``."""
    path = os.path.abspath(os.fspath(tiling_header))
    if os.path.isfile(path):
        return [path]
    if os.path.isdir(path):
        found = []
        for name in sorted(os.listdir(path)):
            full = os.path.join(path, name)
            if name.endswith((".h", ".hpp")) and os.path.isfile(full):
                with open(full, encoding="utf-8", errors="replace") as f:
                    if "BEGIN_TILING_DATA_DEF" in f.read():
                        found.append(full)
        if not found:
            raise KernelBuildError(f"tiling_header directory {path} has no header declaring a tiling struct "
                                   "(BEGIN_TILING_DATA_DEF); pass the op's op_host/<op>_tiling.h itself")
        return found
    raise KernelBuildError(f"tiling_header {path} does not exist; pass the op project's host tiling header "
                           "(op_host/<op>_tiling.h) or its directory")


def registered_ops(headers: Sequence[str]) -> dict[str, str]:
    """op type -> tiling struct name of every ``REGISTER_TILING_DATA_CLASS`` in ``headers``."""
    out: dict[str, str] = {}
    for h in headers:
        with open(h, encoding="utf-8", errors="replace") as f:
            text = re.sub(r"//[^\n]*|/\*.*?\*/", "", f.read(), flags=re.S)
        for op, cls in _REGISTER_RE.findall(text):
            out[op] = cls
    return out


_SCOPE_RE = re.compile(r"\bnamespace\s*([A-Za-z_][\w:]*)?\s*\{|[{}]|\bBEGIN_TILING_DATA_DEF\s*\(\s*(\w+)\s*\)"
                       r"|\bREGISTER_TILING_DATA_CLASS\s*\(\s*(\w+)\s*,")
_OWN_MACROS_RE = re.compile(r"#\s*(?:define\s+(?:BEGIN_TILING_DATA_DEF|REGISTER_TILING_DATA_CLASS)\b|else\b|elif\b)")


def tiling_scoped_names(headers: Sequence[str]) -> list[str] | None:
    """The qualified names (``::optiling::Name``) of the tiling structs (``BEGIN_TILING_DATA_DEF``) and op
    registrations (``REGISTER_TILING_DATA_CLASS``; the simulator's ``__pyasc_tiling_type_<Op>`` alias) the host
    tiling headers declare inside a namespace. CANN's kernel build sees only the generated tiling structs, never
    the rest of the host header's namespace, so the kernel build brings exactly these names into the global
    scope (a kernel's own ``MAX_DIM_NUM`` next to the header's ``optiling::MAX_DIM_NUM`` is then not ambiguous).
    None when the headers cannot be read that simply (a declaration inside braces that are not a namespace, an
    ``#else`` / ``#elif`` alternative, headers defining the macros themselves, unbalanced braces): the build then
    keeps ``using namespace optiling``."""
    names: list[str] = []
    for h in headers:
        with open(h, encoding="utf-8", errors="replace") as f:
            text = f.read()
        text = re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.S)
        if _OWN_MACROS_RE.search(text):
            return None
        text = re.sub(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', '""', text)
        stack: list[str | None] = []
        for m in _SCOPE_RE.finditer(text):
            tok = m.group(0)
            if tok.startswith("namespace"):
                stack.append(m.group(1) or "")
            elif tok == "{":
                stack.append(None)
            elif tok == "}":
                if not stack:
                    return None
                stack.pop()
            else:
                if None in stack:
                    return None
                scope = "::".join(n for n in stack if n)
                if "" in stack and not scope:
                    continue  # an unnamed namespace at file scope: already visible
                if scope:
                    name = m.group(2) or f"__pyasc_tiling_type_{m.group(3)}"
                    names.append(f"::{scope}::{name}")
        if stack:
            return None
    return names


_GUARD_RE = re.compile(r"\A\s*#\s*ifndef\s+([A-Za-z_]\w*)\s*\n\s*#\s*define\s+\1\b")


def host_header_guards(headers: Sequence[str]) -> list[str]:
    """The include-guard macros (a leading ``#ifndef NAME`` / ``#define NAME``) of the host tiling headers.
    CANN's kernel build never compiles the host header (it sees the generated tiling structs), so its guard
    cannot hide a kernel header that happens to use the same one (RecSDK's invert_permute spells
    ``Invert_Permute_H`` in both); the build saves each guard's state before the headers and restores it
    after them (``#pragma push_macro`` / ``pop_macro``, kapi/host_header_begin.h and _end.h)."""
    guards: list[str] = []
    for h in headers:
        with open(h, encoding="utf-8", errors="replace") as f:
            text = re.sub(r"//[^\n]*|/\*.*?\*/", " ", f.read(), flags=re.S)
        m = _GUARD_RE.match(text)
        if m:
            guards.append(m.group(1))
    return list(dict.fromkeys(guards))


_KEY_IF_RE = re.compile(r"^[ \t]*#[ \t]*(?:el)?if\b.*$", re.M)
_DEFINED_KEY_RE = re.compile(r"\bdefined\s*\(?\s*TILING_KEY_VAR\b\s*\)?")


def _require_key_for_if(text: str, own_headers: Sequence[bytes], shown: str) -> None:
    """Raise when the source (or a header of its own) tests ``TILING_KEY_VAR`` in ``#if`` but no tiling key
    was given: the op build compiles such a kernel once per key with ``-DTILING_KEY_VAR=<key>``; without
    one it is the run-time key, which the preprocessor cannot read."""
    parts = [(shown, text), *((b.split(b"\0", 1)[0].decode("utf-8", "replace"),
                               b.split(b"\0", 1)[1].decode("utf-8", "replace")) for b in own_headers)]
    for name, part in parts:
        for m in _KEY_IF_RE.finditer(part):
            if re.search(r"\bTILING_KEY_VAR\b", _DEFINED_KEY_RE.sub(" ", m.group(0))):
                line = part.count("\n", 0, m.start()) + 1
                raise KernelBuildError(
                    f"{name}:{line} tests TILING_KEY_VAR in the preprocessor ({m.group(0).strip()!r}) but no tiling "
                    "key was given: pass tiling_key=<key> (--tiling-key), one build per key as the op build does "
                    "(-DTILING_KEY_VAR=<key>)", file=name, line=line)


def op_project_flags(tiling_header: str | os.PathLike | None, op_type: str | None,
                     dtypes: dict[str, str] | None, tiling_key: int | None) -> tuple[list[str], list[str]]:
    """(compiler flags, files whose content belongs to the cache key) for an op-project kernel."""
    flags: list[str] = []
    files: list[str] = []
    if tiling_header is not None:
        files = tiling_headers(tiling_header)
        ops = registered_ops(files)
        if op_type is None and len(set(ops.values())) == 1:
            # one struct, registered once or under several names (one per tiling key): any of them
            op_type = next(iter(ops))
        elif op_type is None and len(ops) > 1:
            raise KernelBuildError(f"the tiling header registers several ops ({', '.join(sorted(ops))}); pass "
                                   "op_type= to say which one's tiling struct GET_TILING_DATA reads")
        if op_type is not None and op_type not in ops:
            raise KernelBuildError(f"op_type {op_type!r} has no REGISTER_TILING_DATA_CLASS({op_type}, ...) in "
                                   f"{', '.join(files)}; registered: {', '.join(sorted(ops)) or 'none'}")
        guards = host_header_guards(files)
        if guards:  # the headers' include guards do not outlive them (host_header_guards)
            for side, pragma in (("PUSH", "push_macro"), ("POP", "pop_macro")):
                flags.append(f"-DPYASC_SIM_HOST_GUARDS_{side}=" +
                             " ".join(f'_Pragma("{pragma}(\\"{g}\\")")' for g in guards))
        # the host header sees no DT_* / FORMAT_* numbers (it may spell ge::DT_FLOAT16): kapi/host_header_begin.h
        flags += ["-include", "pyasc_sim/kapi/host_header_begin.h"]
        for h in files:
            flags += ["-include", h]
        scoped = tiling_scoped_names(files)
        if scoped is not None:  # the tiling structs' names alone, not `using namespace optiling`
            flags.append("-DPYASC_SIM_TILING_NAMES=" + " ".join(f"using {n};" for n in dict.fromkeys(scoped)))
        flags += ["-include", "pyasc_sim/kapi/host_header_end.h"]
        if op_type is not None:
            flags.append(f"-D__PYASC_SIM_TILING_TYPE=__pyasc_tiling_type_{op_type}")
    elif op_type is not None:
        raise KernelBuildError(f"op_type={op_type!r} needs tiling_header= (the op's host tiling header that "
                               "registers it)")
    for name, dtype in (dtypes or {}).items():
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z_]\w*", name):
            raise KernelBuildError(f"dtypes keys are the op's input/output names (like 'x'), got {name!r}")
        key = str(getattr(dtype, "name", None) or getattr(dtype, "__name__", None) or dtype).lower()
        if key not in _C_TYPES:
            raise KernelBuildError(f"dtype {dtype!r} of {name!r} has no Ascend C type; use one of "
                                   f"{', '.join(sorted(_C_TYPES))}")
        ctype, upper = _C_TYPES[key], name.upper()
        flags += [f"-DDTYPE_{upper}={ctype}", f"-DORIG_DTYPE_{upper}={_DT_NAMES[ctype]}", f"-DFORMAT_{upper}=FORMAT_ND"]
    if dtypes:
        flags.append("-DPYASC_SIM_OP_DTYPE_MACROS=1")
    if tiling_key is not None:
        if isinstance(tiling_key, bool) or not isinstance(tiling_key, int) or not 0 <= tiling_key < 2 ** 64:
            raise KernelBuildError(f"tiling_key must be an integer in [0, 2**64), got {tiling_key!r}")
        flags += tiling_key_flags(tiling_key)
    return flags, files


#: the SoC profiles' architecture facts (runtime/soc_profile.cpp has the rest): SoC -> (__CCE_AICORE__,
#: __NPU_ARCH__, the DAV core macro stem); values from the public Ascend C documentation. The Atlas
#: inference series (Ascend310P*) is compile-only: its kernels compile against that family's macros
#: and API x dtype tables (kapi/dtype_tables.h) with soc=, while the runtime simulates the 910B profiles
SOC_ARCH = {
    "Ascend910B1": (220, 2201, "C220"), "Ascend910B2": (220, 2201, "C220"),
    "Ascend910B3": (220, 2201, "C220"), "Ascend910B4": (220, 2201, "C220"),
    "Ascend310P1": (200, 2002, "M200"), "Ascend310P3": (200, 2002, "M200"),
    # Atlas 350 / Ascend 950 (vector kernels only): __NPU_ARCH__ 3510 and the dav-c310 core macros public
    # 950 kernels test (__DAV_C310__, __DAV_C310_VEC__); its UB (248 KiB usable) differs from the 910B's
    "Ascend950PR_9599": (310, 3510, "C310"),
}
#: Unified Buffer bytes a kernel built for the SoC sees whatever device profile runs it (where it differs
#: from the runtime default): platform ub_size of the Ascend 950 (253952 = 248 KiB, GetCoreMemSize(UB))
SOC_UB_BYTES = {"Ascend950PR_9599": 253952}
_CORES = ("vec", "cube", "mix")


def _soc_name(soc: str | None) -> str:
    """The SoC a build is for: ``soc``, else ``PYASC_SIM_SOC``, else Ascend910B1 (as :func:`arch_defines` reads it)."""
    return soc if soc is not None else (os.environ.get("PYASC_SIM_SOC") or "Ascend910B1")


def arch_defines(soc: str | None = None, core: str = "vec") -> list[str]:
    """The ``-D`` flags the NPU toolchain's architecture macros become for ``soc`` (default
    ``PYASC_SIM_SOC``, else Ascend910B1) and the core kind ``core`` ("vec", "cube" or "mix"), plus
    the CPU-debug macros (``ASCENDC_CPU_DEBUG``, ``__CCE_KT_TEST__``) so guarded host code is left out."""
    name = _soc_name(soc)
    if name not in SOC_ARCH:
        raise KernelBuildError(f"unknown SoC {name!r} for the simulator's architecture macros; known SoCs: "
                               f"{', '.join(sorted(SOC_ARCH))} (set soc= or PYASC_SIM_SOC to one of them)")
    if core not in _CORES:
        raise KernelBuildError(f"core must be one of {', '.join(map(repr, _CORES))} (which __DAV_*__ core macro "
                               f"the kernel is built with), got {core!r}")
    aicore, arch, dav = SOC_ARCH[name]
    out = [f"-D__CCE_AICORE__={aicore}", f"-D__NPU_ARCH__={arch}", "-DASCENDC_CPU_DEBUG=1", "-D__CCE_KT_TEST__=1"]
    if name in SOC_UB_BYTES:
        out.append(f"-DPYASC_SIM_SOC_UB_BYTES={SOC_UB_BYTES[name]}")
    if dav == "C310":
        if core != "vec":
            raise KernelBuildError(f"core={core!r} for {name}: the simulator runs vector (AIV) kernels only on the "
                                   "Atlas 350 / Ascend 950 profile (its cube path is not simulated); build with "
                                   "core='vec', or for an Atlas A2 SoC such as Ascend910B1 for cube / mixed kernels")
        out += ["-D__DAV_C310__=1", "-D__DAV_C310_VEC__=1"]
        # the NPU compiler's device-pass marker: public 950 SIMT code (CUDA ports) keys device code on it
        out.append("-D__CCE__=1")
        return out
    if dav == "M200":  # one AI Core runs cube and vector code: one macro for every core kind
        out.append("-D__DAV_M200__=1")
        return out
    # the bisheng compiler also defines the generic spellings __DAV_VEC__ / __DAV_CUBE__ per core kind
    if core in ("vec", "mix"):
        out += [f"-D__DAV_{dav}_VEC__=1", "-D__DAV_VEC__=1"]
    if core in ("cube", "mix"):
        out += [f"-D__DAV_{dav}_CUBE__=1", "-D__DAV_CUBE__=1"]
    return out


#: The C headers every compile step pre-includes (see pch.PRELUDE: the precompiled header holds them too).
PRELUDE_FLAGS = pch.PRELUDE
#: floating-point flags of every kernel build (kernels/CMakeLists.txt uses the same): no errno from
#: libm, no FP exception flags to preserve (lets conditional element loops vectorise; values do not
#: change), and no contraction of a * b + c into an FMA, so vectorised, native and portable builds agree
FP_FLAGS = ("-fno-math-errno", "-fno-trapping-math", "-ffp-contract=off")
_ISAS = ("native", "portable")
_ISA_FLAG_RE = re.compile(r'(?<![\w-])(-march=\S+|-mtune=\S+|-m(?:no-)?[a-z0-9][\w.-]*|"-target-(?:cpu|feature)" "[^"]+")')


def target_isa(cxx: str, isa: str | None = None) -> tuple[list[str], str]:
    """(compile flags, cache-key text) of the target instruction set ``isa`` (``"native"`` or
    ``"portable"``; default ``PYASC_SIM_ISA``, else native). The key of a native build is the list of
    ISA flags ``-march=native`` resolves to on this machine."""
    source = "isa"
    if isa is None:
        isa = os.environ.get("PYASC_SIM_ISA") or "native"
        source = "PYASC_SIM_ISA"
    if isa not in _ISAS:
        raise KernelBuildError(f"{source} must be 'native' (this machine's instruction set) or 'portable' (the "
                               f"compiler's baseline), got {isa!r}")
    if isa == "portable":
        return [], "portable"
    resolved = _resolved_native(cxx)
    off = [f"-mno-{ext}" for ext in NATIVE_EXCLUDED if f"-m{ext}" in resolved.split()]
    return ["-march=native", *off], " ".join(["native:" + resolved, *off])


#: instruction-set extensions a native build leaves out where the CPU has them. AVX512-FP16: with it the
#: compiler computes _Float16 arithmetic in half precision (native and portable builds would differ in
#: bits), and GCC 12 with binutils 2.40 emits masked `vmovsh` forms that assembler rejects ("unsupported
#: masking for `vmovsh'": the native build of kernel_api/tests/kernels/fastpath.cpp failed on such a CPU)
NATIVE_EXCLUDED = ("avx512fp16",)


@functools.lru_cache(maxsize=None)
def _resolved_native(cxx: str) -> str:
    """The instruction-set flags ``cxx -march=native`` means on this machine (its driver's -v output)."""
    proc = subprocess.run([cxx, "-march=native", "-E", "-v", "-x", "c++", os.devnull], capture_output=True,
                          text=True)
    if proc.returncode != 0:
        raise KernelBuildError(f"{cxx} -march=native failed on this machine:\n{proc.stderr.strip()}\nbuild portable "
                               "kernels with isa='portable' or PYASC_SIM_ISA=portable")
    lines = [ln for ln in proc.stderr.splitlines() if "cc1" in ln] or proc.stderr.splitlines()
    found = [f for ln in lines for f in _ISA_FLAG_RE.findall(ln) if "native" not in f]
    # no flags found (an unknown driver): the whole output names the machine well enough
    return " ".join(found) if found else hashlib.sha256(proc.stderr.encode()).hexdigest()


def _pp_flags(flags: list[str]) -> list[str]:
    """The compile flags the stub generator's preprocessing gets too (all but the language standard,
    which it sets itself)."""
    return [f for f in flags if not f.startswith("-std=")]


#: C library functions <cmath>/<cstdlib>/<cstring>/<cstdio> declare in the global namespace: a kernel
#: with one of these names (legal for the NPU compiler, which has no C library) is renamed in the
#: stub translation unit so it does not clash with the kernel API's own includes
LIBC_NAMES = frozenset("""
abs acos acosf acosh acoshf acosl asin asinf asinh asinhf atan atan2 atan2f atanf atanh atanhf cbrt cbrtf ceil
ceilf copysign copysignf cos cosf cosh coshf erf erfc erfcf erff exp exp2 exp2f expf expm1 expm1f fabs fabsf fdim
fdimf floor floorf fma fmaf fmax fmaxf fmin fminf fmod fmodf frexp hypot hypotf ilogb ldexp lgamma llrint llround
log log10 log10f log1p log1pf log2 log2f logb logf lrint lround modf nan nearbyint nextafter pow powf remainder
remquo rint round roundf scalbn sin sinf sinh sinhf sqrt sqrtf tan tanf tanh tanhf tgamma trunc truncf
atoi atol atof abort exit free malloc calloc realloc qsort bsearch rand srand div labs llabs
memcpy memmove memset memcmp strlen strcpy strncpy strcmp strncmp strcat strchr strstr
printf fprintf sprintf snprintf puts putchar fopen fclose fread fwrite remove rename
""".split())


def _prelude(tmpdir: str, copy: str, found: list, launches: bool = False) -> str:
    """A file that includes the kernel source for the stub translation unit; kernels named like C
    library functions (``hypot``) are renamed by a macro around it, after the kernel API (and its
    <cmath>) is included, so they do not clash (their entries keep the kernel's name). A source
    with rewritten ``<<<>>>`` launches gets the host launch support and default visibility, so its
    host launchers are callable from outside the binary."""
    clashing = sorted(k.name for k in found if k.name in LIBC_NAMES)
    if not clashing and not launches:
        return copy
    path = os.path.join(tmpdir, "prelude.cpp")
    lines = ['#include "kernel_operator.h"', *(f"#define {n} __pyasc_kernel_{n}" for n in clashing)]
    if launches:
        lines += ['#include "pyasc_sim/kapi/host_launch.h"', "#pragma GCC visibility push(default)"]
    lines.append(f"#include {_stubgen.cxx_string(copy)}")
    if launches:
        lines.append("#pragma GCC visibility pop")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    return path


# -- <<<>>> launches in host code -----------------------------------------------------------------

_LAUNCH_RE = re.compile(r"(?<![\w:#])((?:::\s*)?(?:[A-Za-z_]\w*\s*::\s*)*[A-Za-z_]\w*"  # kernel, ns::kernel, ::kernel
                        r"(?:\s*##\s*[A-Za-z_]\w*)*(?:\s*\([^()]*\))?)\s*"        # pasted k_##T, NAME(T, S)
                        r"(<(?:[^<>;{}]|<(?:[^<>;{}]|<[^<>;{}]*>)*>)*>)?\s*"   # template arguments
                        r"<<<((?:(?!<<<|>>>)[^;{}])*)>>>\s*\(")
# comments and string / character literals (blanked before looking for launches)
_CODE_ONLY_RE = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)


def rewrite_launches(text: str) -> tuple[str, int]:
    """``text`` with every ``kernel<<<blocks, l2ctrl, stream>>>(args)`` turned into a launch through
    the simulated runtime (``pyasc_sim::host::launcher(&kernel, "kernel", blocks, l2ctrl,
    stream)(args)``, kapi/host_launch.h), and the number of launches rewritten. Lines keep their
    numbers. A template instance ``kernel<T, 8><<<...>>>(args)`` (``T`` may be the enclosing host
    template's parameter) becomes ``::pyasc_sim::host::instance_launcher<&kernel<T, 8>>("kernel<T,
    8>", blocks, l2ctrl, stream)(args)``: it launches through the binary's trampoline entry
    (kapi/host_launch.h), as template kernels have no extern "C" entry of their own. A name pasted in a
    macro body (``copy_##TYPE##_##SLOT<<<...>>>(args)``) keeps its pasting, and its entry's name is
    the stringized pasted token (``PYASC_SIM_LAUNCH_NAME``), known once the macro expands; so is a name made by
    a function-like macro (``KERNEL_NAME(T, S)<<<...>>>(args)``)."""
    shadow = _CODE_ONLY_RE.sub(lambda m: m.group(0) if m.group(0)[0] not in "/\"'" else
                               re.sub(r"[^\n]", " ", m.group(0)), text)
    out, last, n = [], 0, 0
    for m in _LAUNCH_RE.finditer(shadow):
        out.append(text[last:m.start()])
        name = re.sub(r"\s+", "", text[m.start(1):m.end(1)])
        launch_args = text[m.start(3):m.end(3)]
        if m.group(2):
            targs = text[m.start(2):m.end(2)]
            spelled = _stubgen.cxx_string(re.sub(r"\s+", " ", name + targs))
            out.append(f"::pyasc_sim::host::instance_launcher<&{name}{targs} >({spelled}, {launch_args})(")
        elif "##" in name or "(" in name:
            # a name pasted inside a macro body (``copy_##TYPE<<<...>>>``) or made by a macro
            # (``KERNEL_NAME(T, S)<<<...>>>``): the entry's name exists only once the macro expands, so it is
            # spelled by stringizing the expanded token (kapi/host_launch.h)
            entry = name if "(" in name else name.split("::")[-1]
            out.append(f"::pyasc_sim::host::launcher(&({name}), PYASC_SIM_LAUNCH_NAME({entry}), {launch_args})(")
        else:
            entry = name.split("::")[-1]  # extern "C" entries carry the plain name
            out.append(f'::pyasc_sim::host::launcher(&({name}), "{entry}", {launch_args})(')
            close = _matching_paren(shadow, m.end() - 1)
            missing = _missing_defaults(shadow, text, entry, shadow[m.end():close]) if close > 0 else []
            if missing:
                # the kernel's default arguments, written out at the call as the compiler supplies them
                given = text[m.end():close]
                out.append(given + (", " if given.strip() else "") + ", ".join(missing) + ")")
                last, n = close + 1, n + 1
                continue
        last, n = m.end(), n + 1
    out.append(text[last:])
    return "".join(out), n


def _matching_paren(shadow: str, open_pos: int) -> int:
    """Index of the ``)`` closing the ``(`` at ``open_pos`` in ``shadow`` (comments / literals blanked), or -1."""
    depth = 0
    for i in range(open_pos, len(shadow)):
        if shadow[i] in "([{":
            depth += 1
        elif shadow[i] in ")]}":
            depth -= 1
            if depth == 0:
                return i
    return -1


def _split_top(s: str) -> list[str]:
    """``s`` split at the commas outside parentheses, brackets, braces and template angle brackets."""
    parts, depth, cur = [], 0, []
    for ch in s:
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur))
    return parts


def _missing_defaults(shadow: str, text: str, name: str, call_args: str) -> list[str]:
    """The default arguments of ``__global__`` kernel ``name`` (declared in ``text``) that a ``<<<>>>`` launch
    with ``call_args`` leaves out, in order; [] when it passes them all (or the kernel has none)."""
    decl = re.search(r"__global__[^;{}()]*?\b" + re.escape(name) + r"\s*\(", shadow)
    if decl is None:
        return []
    close = _matching_paren(shadow, decl.end() - 1)
    if close < 0:
        return []
    params = _split_top(text[decl.end():close])
    given = len(_split_top(call_args))
    out = []
    for p in params[given:]:
        default = p.partition("=")[2].strip()
        if not default:
            return []  # a parameter without a default: the compiler reports the short call
        out.append(default)
    return out


def _acl_library() -> str:
    """The simulated ACL library a launcher falls back to when the process has none loaded."""
    from . import library_path

    try:
        return library_path()
    except FileNotFoundError:
        return "libpyasc_acl_sim.so"


def kernel_names(source: str | os.PathLike, compiler: str | None = None, extra_flags: Sequence[str] = ()) -> list[str]:
    """Names of the kernels of an Ascend C source, found the way :func:`compile` finds them (the
    caller's text in a private directory, pyasc's headers first; ``extra_flags`` such as ``-I dir``
    as :func:`compile` gets them)."""
    text, path = _read_source(source)
    inc = _kernel_api_include()
    src_dir = os.path.dirname(path) if path else os.getcwd()
    tmpdir = tempfile.mkdtemp(prefix="pyasc_names_")
    try:
        copy = _private_copy(tmpdir, text, path or "<source>")
        pre = _stubgen.preprocess(copy, [inc], _compiler(compiler), quote_dirs=[inc, src_dir],
                                  flags=[*arch_defines(), *_pp_flags(auto_sync_flags(extra_flags))])
        return [k.name for k in _stubgen.find_kernels(pre, path or "<source>")]  # with explicit instances
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)


def declared_kernels(source: str | os.PathLike, instances: Sequence[str] = (),
                     compiler: str | None = None) -> list[tuple[str, list[tuple[str, str]]]]:
    """[(kernel name, [(parameter, declared type)])] of a source's kernels (its template instances
    and ``instances`` too), found as :func:`compile` finds them: what the NPU path lays arguments
    out from when its binary records no signature table (``pyasc_acl.signature.layout_of``)."""
    pre, name = _preprocessed(source, compiler)
    try:
        found = _stubgen.find_kernels(pre, name, list(instances))
    except _stubgen.StubError as exc:
        raise KernelBuildError(str(exc), file=exc.file, line=exc.line) from None
    return [(k.name, [(p.name, p.type) for p in k.params]) for k in found]


def _preprocessed(source: str | os.PathLike, compiler: str | None) -> tuple[str, str]:
    """(the source preprocessed as :func:`compile` sees it, its display name), from a private copy."""
    text, path = _read_source(source)
    inc = _kernel_api_include()
    src_dir = os.path.dirname(path) if path else os.getcwd()
    tmpdir = tempfile.mkdtemp(prefix="pyasc_pre_")
    try:
        copy = _private_copy(tmpdir, text, path or "<source>")
        pre = _stubgen.preprocess(copy, [inc], _compiler(compiler), quote_dirs=[inc, src_dir],
                                  flags=arch_defines())
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)
    return pre, path or "<source>"


def explicit_instantiations(source: str | os.PathLike, instances: Sequence[str],
                            compiler: str | None = None) -> str:
    """Explicit instantiations of the template kernel ``instances`` (``leaky_relu<half>``) the
    source does not instantiate itself, one ``template __global__ __aicore__ void name<args>(...);``
    per line: what the NPU compile appends so bisheng emits them (the simulator's stubs instantiate
    them by taking their address). Raises KernelBuildError for an instance of no template kernel."""
    pre, name = _preprocessed(source, compiler)
    try:
        have = {k.name for k in _stubgen.find_kernels(pre, name)}
        wanted = [k for k in _stubgen.find_kernels(pre, name, list(instances))
                  if k.instance and k.name not in have]
    except _stubgen.StubError as exc:
        raise KernelBuildError(str(exc), file=exc.file, line=exc.line) from None
    return "".join(f"template __global__ __aicore__ void {k.name}({', '.join(p.type for p in k.params)});\n"
                   for k in wanted)


def _raise_simt_error(output: str, path: str, cmd: Sequence[str] | None, soc: str | None) -> None:
    """Raise :class:`SimtUnavailableError` when a build without SIMT (``cmd``'s architecture macros are not the
    Ascend 950's) failed on a SIMT API (:func:`simt_soc.find`); else nothing."""
    if not cmd or "-D__CCE_AICORE__=310" in cmd:
        return
    use = simt_soc.find(output)
    if use is None:
        return
    arch = next((int(f.partition("=")[2]) for f in cmd if f.startswith("-D__NPU_ARCH__=")), 0)
    name = soc or next((n for n, a in SOC_ARCH.items() if a[1] == arch), "this SoC")
    lines = output.strip().splitlines()
    shown = "\n".join(lines[:60]) + (f"\n... ({len(lines) - 60} more lines)" if len(lines) > 60 else "")
    raise SimtUnavailableError(f"{simt_soc.message(use, name, arch)}\ncompiling {path} for the simulator failed; the "
                               f"compiler said:\n{shown}", api=use.api, soc=name, file=use.file or path,
                               line=use.line, output=output)


def _raise_compile_error(output: str, path: str, cmd: list[str] | None = None, soc: str | None = None) -> None:
    _raise_simt_error(output, path, cmd, soc)
    output = output.strip()
    file, line, msg = _first_error(output)
    if not file:
        file, line, msg = path, 0, "the compiler failed"
    elif "pyasc dtype-table" in msg:  # point at the kernel's call, not at dtype_tables.h
        call = re.search(r"^%s:(\d+):(?:\d+:)?\s+required from" % re.escape(path), output, re.M)
        if call is not None:
            file, line = path, int(call.group(1))
    elif "NoTilingStruct" in msg:  # a field read ahead of load_tiling's static_assert: lead with its advice
        advice = re.search(r"static assertion failed: (GET_TILING_DATA: no tiling struct[^\n]*)", output)
        if advice is not None:
            msg = f"{advice.group(1)} (the kernel reads a field of it: {msg})"
    if cmd and "-DPYASC_SIM_DOCUMENTED_ONLY=1" in cmd and "is not a member of" in msg and "AscendC" in msg:
        msg += (" (documented-names-only mode, -DPYASC_SIM_DOCUMENTED_ONLY=1, hides what the public Ascend C "
                "reference does not document)")
    where = f"{file}:{line}" if line else file
    lines = output.splitlines()
    shown = "\n".join(lines[:60]) + (f"\n... ({len(lines) - 60} more lines)" if len(lines) > 60 else "")
    raise KernelCompileError(
        f"{where}: error: {msg}\ncompiling {path} for the simulator failed"
        + (f" ({' '.join(cmd[:1] + cmd[1:4])} ...)" if cmd else "") + f"; the compiler said:\n{shown}",
        file=file, line=line, output=output,
    )
