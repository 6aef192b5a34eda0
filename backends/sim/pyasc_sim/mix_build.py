"""Mixed cube/vector kernels built once per core kind, into one binary (what the NPU toolchain does).

A mixed kernel (``KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2)``) whose source tells its halves
apart with ``#if defined(__DAV_C220_CUBE__)`` / ``#elif defined(__DAV_C220_VEC__)`` is compiled twice:
a cube pass (only ``__DAV_C220_CUBE__``) whose entries the runtime calls, and a vector pass (only
``__DAV_C220_VEC__``) whose kernels the block's AIV run. Both objects go into one shared library;
before linking, every symbol the vector pass defines is renamed (``<name>.pyasc_aiv``), so its
inline functions, templates and globals (which may differ from the cube pass's under the ``#if``)
are its own, except the kernel API's state (data of the ``pyasc_sim`` / ``AscendC`` / ``std``
namespaces: block state, flags, caches), which both passes share.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess

_DECLARES_MIX_RE = re.compile(r"\bKERNEL_TYPE_MIX_AIC_1_[12]\b")
_DECLARES_MIX_BYTES_RE = re.compile(rb"\bKERNEL_TYPE_MIX_AIC_1_[12]\b")
_TESTS_CORE_MACRO_RE = re.compile(rb"\b__DAV_(?:C220_)?(?:CUBE|VEC)__\b")
#: the -D flags of the two core kinds (build.arch_defines spells them so): the 910B's and the generic
#: spelling the bisheng compiler defines too (__DAV_CUBE__ / __DAV_VEC__)
CUBE_FLAG = "-D__DAV_C220_CUBE__=1"
VEC_FLAG = "-D__DAV_C220_VEC__=1"
CUBE_FLAGS = (CUBE_FLAG, "-D__DAV_CUBE__=1")
VEC_FLAGS = (VEC_FLAG, "-D__DAV_VEC__=1")
#: suffix of the vector pass's renamed symbols
SUFFIX = ".pyasc_aiv"
#: demangled prefixes of data both passes share (the kernel API's and the C++ library's state)
_SHARED_PREFIXES = ("pyasc_sim::", "AscendC::", "std::", "__gnu_cxx::", "__cxxabiv1::")
_DEMANGLED_KIND_RE = re.compile(r"^(?:guard variable for |TLS init function for |TLS wrapper function for |"
                                r"vtable for |typeinfo for |typeinfo name for |VTT for |construction vtable for |"
                                r"reference temporary #\d+ for )+")


def tests_core_macros(source: bytes) -> bool:
    """True when ``source`` names ``__DAV_C220_CUBE__`` / ``__DAV_C220_VEC__`` (or ``__DAV_CUBE__`` / ``__DAV_VEC__``)."""
    return bool(_TESTS_CORE_MACRO_RE.search(source))


def wanted(flags: list[str], preprocessed: str, sources: list[bytes]) -> bool:
    """True when a build with ``flags`` should compile the kernel once per core kind: the flags
    define a 910B core macro (not the cube one alone: ``core="cube"`` asks for the cube half), the
    kernel declares a mixed task type (KERNEL_TYPE_MIX_AIC_1_1 / 1_2) and its source (or one of its
    own headers, ``sources``) tests ``__DAV_C220_CUBE__`` / ``__DAV_C220_VEC__`` (or the generic
    ``__DAV_CUBE__`` / ``__DAV_VEC__``); other kernels
    compile once (their halves, if any, branch at run time)."""
    if VEC_FLAG not in flags or not any(_TESTS_CORE_MACRO_RE.search(s) for s in sources):
        return False  # the cheap test first: most kernels never name the core macros
    # declared where the preprocessor keeps it, or in the source text (inside one half's #if)
    return bool(_DECLARES_MIX_RE.search(preprocessed)) or any(_DECLARES_MIX_BYTES_RE.search(s) for s in sources)


_DECLARES_AIC_ONLY_RE = re.compile(rb"\bKERNEL_TASK_TYPE_DEFAULT\s*\(\s*(?:::)?KERNEL_TYPE_AIC_ONLY\s*\)")
#: a task type other than KERNEL_TYPE_AIC_ONLY declared anywhere (by default or for one tiling key)
_DECLARES_OTHER_TYPE_RE = re.compile(rb"\bKERNEL_TASK_TYPE(?:_DEFAULT)?\s*\([^;]*?\bKERNEL_TYPE_(?!AIC_ONLY\b)\w+")


def aic_only_core(core: str, dav: str, sources: list[bytes]) -> str:
    """The core kind a build for ``core`` on a ``dav`` SoC (``"C220"``: the 910B's split AIC / AIV) gets: ``"cube"``
    for a ``core="vec"`` build of a kernel whose source (or one of its own headers, ``sources``) declares
    ``KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY)``, no other task type, and tests the core macros -- the NPU
    toolchain compiles an AIC-only kernel for the cube core only (``__DAV_C220_CUBE__``, no ``__DAV_C220_VEC__``),
    so its ``#if defined(__DAV_C220_CUBE__)`` body exists without the caller saying ``core="cube"`` (kda-ascendc's
    aclab k2_min). Every other build keeps ``core``."""
    if core != "vec" or dav != "C220" or not any(_TESTS_CORE_MACRO_RE.search(s) for s in sources):
        return core
    if not any(_DECLARES_AIC_ONLY_RE.search(s) for s in sources) or any(_DECLARES_OTHER_TYPE_RE.search(s)
                                                                       for s in sources):
        return core
    return "cube"


_CONSTEXPR_CORE_TYPE_RE = re.compile(rb"\bif\s+constexpr\s*\(\s*(?:AscendC::)?g_coreType\b")
_CONSTEXPR_CORE_TYPE_TEXT_RE = re.compile(_CONSTEXPR_CORE_TYPE_RE.pattern.decode())
_CONSTEXPR_CORE_TYPE_EXPANDED_RE = re.compile(r"\bif\s+constexpr\s*\(\s*\(\s*::pyasc_sim::kapi::core_is_aic\(\)")
#: a template parameter defaulted to ``g_coreType`` (Catlass kernels: ``template <int32_t CORE_TYPE = g_coreType>
#: void operator()(Params &)`` with ``operator()<AscendC::AIC>`` / ``<AscendC::AIV>`` specializations): a
#: template argument, so a constant expression -- as in ``if constexpr``, only a build for one core kind has one
_DEFAULT_CORE_TYPE_RE = re.compile(rb"=\s*(?:::)?(?:AscendC::)?g_coreType\s*>")
_DEFAULT_CORE_TYPE_TEXT_RE = re.compile(_DEFAULT_CORE_TYPE_RE.pattern.decode())
_DEFAULT_CORE_TYPE_EXPANDED_RE = re.compile(r"=\s*\(\s*::pyasc_sim::kapi::core_is_aic\(\)")


def wanted_undeclared(flags: list[str], preprocessed: str, sources: list[bytes], infer: bool) -> bool:
    """True when a kernel that declares no task type, built ``core="mix"`` (the MixCore build of public CMake
    projects: both core macros) with the task type inferred (:mod:`pyasc_sim.task_infer`), should compile once
    per core kind: it branches on ``g_coreType`` in an ``if constexpr``, or defaults a template parameter to
    it (NPUKernelBench's Catlass Gemm: ``template <int32_t CORE_TYPE = g_coreType> void operator()(...)``) --
    a constant only in a build for one core kind, as the NPU compiler builds each pass (MindSpore Lite's
    ascend_native MixCore matmul); such a kernel compiles no other way. One that only tests the core macros with ``#if`` keeps its single build with
    both macros (as before the inference: a scalar kernel reporting the macros, for one)."""
    if not infer or CUBE_FLAG not in flags or VEC_FLAG not in flags:
        return False
    # the preprocessed text holds the headers found through include_dirs (g_coreType in it as written, or
    # expanded to the run-time core_is_aic())
    if any(r.search(preprocessed) for r in (_CONSTEXPR_CORE_TYPE_TEXT_RE, _CONSTEXPR_CORE_TYPE_EXPANDED_RE,
                                            _DEFAULT_CORE_TYPE_TEXT_RE, _DEFAULT_CORE_TYPE_EXPANDED_RE)):
        return True
    return any(r.search(s) for s in sources for r in (_CONSTEXPR_CORE_TYPE_RE, _DEFAULT_CORE_TYPE_RE))


def pass_flags(flags: list[str], kind: str) -> list[str]:
    """``flags`` with the core macros of ``kind`` ("aic": cube only, "aiv": vector only), the pass
    (``PYASC_SIM_SPLIT_PASS`` 1 or 2) and ``-c`` (an object file, linked later)."""
    base = [f for f in flags if f not in (*CUBE_FLAGS, *VEC_FLAGS, "-shared")]
    # PYASC_SIM_SPLIT_PASS tells the kernel API's host launch support (kapi/host_launch.h) which pass it is in
    return [*base, *(CUBE_FLAGS if kind == "aic" else VEC_FLAGS), f"-DPYASC_SIM_SPLIT_PASS={1 if kind == 'aic' else 2}",
            "-c"]


_PAIRED = ("-include", "-imacros", "-iquote", "-isystem", "-idirafter", "-I", "-D", "-U", "-x")


def link_flags(flags: list[str]) -> list[str]:
    """The compile ``flags`` the link of the two passes keeps (preprocessor flags and their
    arguments dropped; -shared, optimisation, machine and extra link flags kept)."""
    out, skip = [], False
    for f in flags:
        if skip:
            skip = False
        elif f in _PAIRED:
            skip = True
        elif not f.startswith(("-D", "-U", "-I", "-include", "-iquote", "-isystem")):
            out.append(f)
    return out


def _tool(cxx: str, name: str) -> str:
    """The binutils program ``name`` next to the compiler (``cxx -print-prog-name``), else on PATH."""
    env = os.environ.get(name.upper())
    if env:
        return env
    proc = subprocess.run([cxx, f"-print-prog-name={name}"], capture_output=True, text=True)
    prog = proc.stdout.strip()
    if proc.returncode == 0 and prog and os.path.isabs(prog) and os.access(prog, os.X_OK):
        return prog
    found = shutil.which(name)
    if found is None:
        raise FileNotFoundError(f"{name} (GNU binutils) is not on PATH; building a mixed cube/vector kernel needs "
                                f"it (install binutils, or set {name.upper()} to it)")
    return found


def _defined_symbols(readelf: str, obj: str) -> list[tuple[str, str]]:
    """(name, type) of every named symbol ``obj`` defines (local ones too: COMDAT group signatures)."""
    proc = subprocess.run([readelf, "-sW", obj], capture_output=True, text=True, check=True)
    out = []
    for line in proc.stdout.splitlines():
        cols = line.split()
        # Num: Value Size Type Bind Vis Ndx Name
        if len(cols) < 8 or not cols[0].endswith(":") or cols[6] == "UND":
            continue
        if cols[3] in ("SECTION", "FILE"):
            continue
        out.append((cols[7], cols[3]))
    return out


def _demangle(cxxfilt: str, names: list[str]) -> list[str]:
    proc = subprocess.run([cxxfilt], input="\n".join(names) + "\n", capture_output=True, text=True, check=True)
    out = proc.stdout.split("\n")[: len(names)]
    return out if len(out) == len(names) else list(names)


def rename_vector_pass(cxx: str, obj: str, out: str, keep: tuple[str, ...]) -> None:
    """Copy object ``obj`` to ``out`` with every symbol it defines renamed (``SUFFIX``), except
    ``keep`` (the getters the cube pass calls) and the shared data (see the module's docstring)."""
    readelf, objcopy, cxxfilt = (_tool(cxx, n) for n in ("readelf", "objcopy", "c++filt"))
    syms = sorted(set(_defined_symbols(readelf, obj)))
    data = [n for n, t in syms if t in ("OBJECT", "TLS")]
    shared = {n for n, d in zip(data, _demangle(cxxfilt, data))
              if _DEMANGLED_KIND_RE.sub("", d).startswith(_SHARED_PREFIXES) or n.startswith(("__pyasc_sim", "DW.ref."))}
    names = sorted({n for n, _ in syms} - shared - set(keep))
    table = os.path.join(os.path.dirname(out), "aiv_symbols.txt")
    with open(table, "w", encoding="utf-8") as f:
        f.write("".join(f"{n} {n}{SUFFIX}\n" for n in names))
    subprocess.run([objcopy, f"--redefine-syms={table}", obj, out], capture_output=True, text=True, check=True)
