"""Registers the ``sim`` backend: the ACL backend of pyasc_acl over the simulator's library, and the
``pyasc compile`` / ``pyasc cache`` commands. (The built-in kernels register through pyasc_kernels.)"""

from __future__ import annotations

import os
import sys

from collections.abc import Callable
from typing import Any

from pyasc_acl.backend import AclBackend
from pyasc_core.backend import Backend
from pyasc_core.env import env_flag
from pyasc_core.hookspecs import hookimpl

from . import library_path


def _locate() -> tuple[str | None, str]:
    try:
        return library_path(), ""
    except FileNotFoundError as exc:
        return None, str(exc)


#: the environment variables the simulated runtime reads (a bad value makes selecting sim raise)
SETTINGS = ("PYASC_SIM_SOC", "PYASC_SIM_DEVICE_COUNT", "PYASC_SIM_DEVICE_MEMORY", "PYASC_SIM_CHECKS",
            "PYASC_SIM_STRICT", "PYASC_SIM_HUGE_PAGES")


def _check_settings() -> None:
    """What Python checks before aclInit: the boolean switches (the runtime itself refuses a bad
    SoC name, device count, memory size or timeout, naming the variable and the valid values)."""
    env_flag("PYASC_SIM_CHECKS", default=True)
    env_flag("PYASC_SIM_STRICT", default=False)
    env_flag("PYASC_SIM_HUGE_PAGES", default=True)


def _compile_source(source: Any) -> str:
    """A pyasc.Kernel's source compiled with the simulator's compiler (pyasc_sim.build.compile, cached per user by
    content) with its TilingStructs' layouts checked by static_asserts."""
    from .build import compile as compile_sim

    opts = dict(source.options)
    flags = list(opts.pop("extra_flags", ()))
    text = source.text
    checks = source.checks_text
    if checks:  # after the source, where its structs are declared
        text = f"{text}\n#include <cstddef>\n{checks}\n"
    src = text if (source.path is None or checks) else source.path
    if source.path is not None and checks:  # messages and #include "..." as for the file
        import os

        from ._stubgen import cxx_string

        src = f"#line 1 {cxx_string(source.path)}\n{text}"
        flags += ["-iquote", os.path.dirname(source.path)]
    return compile_sim(src, extra_flags=flags, instances=sorted(getattr(source, "instances", ())), **opts)


class SimBackend(AclBackend):
    """The ACL backend over the simulator's library (libpyasc_acl_sim.so). What differs from npu:
    where the library is found, the settings it reads, its priority and its kernel compiler."""

    def __init__(self) -> None:
        # Priority 10 (above numpy's 0): with a kernel for every built-in op, the simulator is the
        # default backend wherever it is available (its library is installed); numpy stays the
        # reference. When it is installed but a setting is wrong, choosing the default raises
        # rather than falling to numpy.
        super().__init__(
            "sim",
            description="simulated Ascend NPU on the CPU (pyasc's ACL runtime)",
            priority=10,
            locate=_locate,
            settings=SETTINGS,
            check_settings=_check_settings,
            compile_source=_compile_source,
        )


BACKEND = SimBackend()


@hookimpl
def pyasc_register_backends(register: Callable[[Backend], None]) -> None:
    register(BACKEND)


def _auto_sync_argument(parser) -> None:  # type: ignore[no-untyped-def]
    """BiSheng's ``--cce-auto-sync[=on|off]``, as ``pyasc compile`` and ``pyasc cpu-debug`` take it."""
    parser.add_argument("--cce-auto-sync", nargs="?", const="on", choices=("on", "off"),
                        help="BiSheng's automatic synchronisation (default on, as in kernel launch and custom operator projects): "
                        "--cce-auto-sync=off checks the Scalar Unit's pairs with MTE2 / MTE3 / V the kernel writes "
                        "itself (pipe-race)")


def _auto_sync_flag(args) -> list[str]:  # type: ignore[no-untyped-def]
    """The option back as an extra flag for the build (pyasc_sim.build.auto_sync_flags translates it)."""
    return [f"--cce-auto-sync={args.cce_auto_sync}"] if args.cce_auto_sync else []


def _compile_arguments(parser) -> None:  # type: ignore[no-untyped-def]
    parser.add_argument("source", help="Ascend C source file (.cpp), or a Python file whose @pyasc.jit kernels' "
                        "generated Ascend C is written (-o: the directory; --dtype float16: the tensors' element "
                        "type; -D NAME=VALUE: a constexpr parameter)")
    parser.add_argument("-o", "--output", help="also write the kernel binary here (default: only the cache)")
    parser.add_argument("--no-checks", action="store_true",
                        help="a binary whose kernels never run the sanitizer checks (faster)")
    parser.add_argument("--kernel", action="append", dest="kernels",
                        help="only this kernel (repeatable; default: every kernel of the source)")
    parser.add_argument("--opt", default=None, help="optimisation flag (default PYASC_SIM_OPT, else -O3)")
    parser.add_argument("--isa", choices=("native", "portable"),
                        help="target instruction set: native (-march=native, the default, or PYASC_SIM_ISA) or "
                        "portable (the compiler's baseline; same results)")
    parser.add_argument("--tiling-header", help="op project: the op's host tiling header (op_host/<op>_tiling.h) or its "
                        "directory")
    parser.add_argument("--op-type", help="op project: the op whose registered tiling struct GET_TILING_DATA reads")
    parser.add_argument("--dtype", action="append", default=[], metavar="NAME=DTYPE",
                        help="op project: DTYPE_<NAME> (e.g. x=float16; repeatable)")
    parser.add_argument("--tiling-key", type=int, help="the key TILING_KEY_IS compares with (default 0); with "
                        "ASCENDC_TPL_ARGS_DECL, also the template arguments whose kernel instance is built")
    parser.add_argument("--tpl-arg", action="append", default=[], metavar="NAME=VALUE",
                        help="tiling template programming: a declared template argument's value (repeatable); "
                        "builds the instance these select")
    parser.add_argument("--soc", help="SoC whose architecture macros to define (default PYASC_SIM_SOC)")
    parser.add_argument("--core", default="vec", choices=("vec", "cube", "mix"), help="__DAV_*__ core macro")
    parser.add_argument("-D", dest="defines", action="append", default=[], help="extra macro (NAME or NAME=VALUE)")
    parser.add_argument("-I", dest="include_dirs", action="append", default=[],
                        help="extra include directory (repeatable; its headers may use the [aicore] attribute)")
    _auto_sync_argument(parser)


def _compile_python(args) -> int:  # type: ignore[no-untyped-def]
    """``pyasc compile kernel.py``: write the Ascend C of its @pyasc.jit kernels (pyasc.lang.compile_cmd)."""
    from pyasc.lang.compile_cmd import compile_file

    dtype = next((d for d in args.dtype if "=" not in d), "float32")
    consts = dict(d.split("=", 1) for d in args.defines if "=" in d)
    for kernel in args.kernels or [None]:
        written = compile_file(args.source, kernel=kernel, dtype=dtype, consts=consts, out=args.output)
        stem = os.path.splitext(os.path.basename(args.source))[0]
        target = args.output or os.path.dirname(os.path.abspath(args.source))
        for name, text in written.items():
            print(text if args.output == "-" else os.path.join(target, f"{stem}_{name}.cpp"))
    return 0


def _compile_run(args) -> int:  # type: ignore[no-untyped-def]
    if args.source.endswith(".py"):
        return _compile_python(args)
    from . import _stubgen
    from .build import compile as compile_source
    from .build import kernel_names

    dtypes = {}
    for item in args.dtype:
        name, sep, dtype = item.partition("=")
        if not sep:
            print(f"pyasc compile: --dtype takes NAME=DTYPE (e.g. x=float16), got {item!r}", file=sys.stderr)
            return 2
        dtypes[name] = dtype
    tpl_args = {}
    for item in args.tpl_arg:
        name, sep, value = item.partition("=")
        if not sep or not value.strip().lstrip("-").isdigit():
            print(f"pyasc compile: --tpl-arg takes NAME=VALUE with an integer value (e.g. kMode=1), got {item!r}",
                  file=sys.stderr)
            return 2
        tpl_args[name.strip()] = int(value)
    flags = [*(f"-D{d}" for d in args.defines), *(f"-I{os.path.abspath(d)}" for d in args.include_dirs),
             *_auto_sync_flag(args)]
    path = compile_source(args.source, kernels=args.kernels, opt=args.opt, checks=not args.no_checks,
                          output=args.output, tiling_header=args.tiling_header, op_type=args.op_type,
                          dtypes=dtypes or None, tiling_key=args.tiling_key, soc=args.soc, core=args.core, isa=args.isa,
                          extra_flags=flags, tpl_args=tpl_args or None)
    try:
        names = kernel_names(args.source, extra_flags=flags)
        if tpl_args or args.tiling_key is not None:
            from .build import _preprocessed, _tpl_instances

            pre, shown = _preprocessed(args.source, None)
            names += _tpl_instances(pre, shown, tpl_args or None, None if tpl_args else args.tiling_key)[0]
    except _stubgen.StubError:
        names = []
    if args.kernels:
        names = [n for n in names if n in args.kernels]
    print(path)
    if names:
        print(f"kernels: {', '.join(names)}")
    return 0


def _cache_arguments(parser) -> None:  # type: ignore[no-untyped-def]
    sub = parser.add_subparsers(dest="cache_command", required=True, metavar="{info,clear}")
    p = sub.add_parser("info", help="where the kernel cache is, its entries, size and cap")
    p.add_argument("--json", action="store_true", help="print JSON")
    sub.add_parser("clear", help="remove every cached kernel binary")


def _cache_run(args) -> int:  # type: ignore[no-untyped-def]
    from . import cache

    if args.cache_command == "clear":
        count, freed = cache.clear()
        print(f"removed {count} files ({freed} bytes) from {cache.directory()}")
        return 0
    data = cache.info()
    if getattr(args, "json", False):
        import json

        print(json.dumps(data, indent=2))
        return 0
    cap = data["max_bytes"]
    print(f"path: {data['path']} (from {data['variable']})")
    print(f"entries: {data['entries']}")
    print(f"bytes: {data['bytes']}")
    print(f"max bytes: {cap if cap else 'no cap'} (PYASC_CACHE_MAX_BYTES)")
    print(f"precompiled headers: {data['pch_headers']} ({data['pch_bytes']} bytes; at most PYASC_SIM_PCH_MAX, "
          "not counted in the cap above)")
    return 0


def _cpu_debug_arguments(parser) -> None:  # type: ignore[no-untyped-def]
    import argparse

    parser.add_argument("items", nargs=argparse.REMAINDER, metavar="main.cpp kernel.cpp ... [-- args]",
                        help="the host main.cpp and the kernel source(s), then -- and the program's arguments")
    parser.add_argument("-o", "--output", help="keep the executable here (default: a temporary file)")
    parser.add_argument("--debug", action="store_true", help="build with -O0 -g (for gdb)")
    parser.add_argument("--serial", action="store_true",
                        help="run the blocks one at a time in the calling thread (PYASC_SIM_SERIAL=1)")
    parser.add_argument("--build-only", action="store_true", help="build, do not run")
    parser.add_argument("-I", dest="include_dirs", action="append", default=[], help="extra include directory")
    parser.add_argument("-D", dest="defines", action="append", default=[], help="extra macro (NAME or NAME=VALUE)")
    parser.add_argument("--soc", help="SoC whose architecture macros to define (default PYASC_SIM_SOC, else "
                        "Ascend910B1; Ascend950PR_9599 for SIMT code)")
    _auto_sync_argument(parser)


def _cpu_debug_run(args) -> int:  # type: ignore[no-untyped-def]
    import tempfile

    from . import cpudebug

    items = list(args.items)
    program_args = items[items.index("--") + 1:] if "--" in items else []
    items = items[:items.index("--")] if "--" in items else items
    sources, it = [], iter(items)
    for item in it:  # options may follow the sources too
        if item in ("--debug", "--serial", "--build-only"):
            setattr(args, item[2:].replace("-", "_"), True)
        elif item == "--cce-auto-sync" or item.startswith("--cce-auto-sync="):
            args.cce_auto_sync = item.partition("=")[2] or "on"
        elif item in ("-o", "--output", "-I", "-D", "--soc"):
            value = next(it, None)
            if value is None:
                print(f"pyasc cpu-debug: {item} needs a value", file=sys.stderr)
                return 2
            if item in ("-o", "--output"):
                args.output = value
            elif item == "--soc":
                args.soc = value
            else:
                (args.include_dirs if item == "-I" else args.defines).append(value)
        else:
            sources.append(item)
    if not sources:
        print("pyasc cpu-debug: give the host main.cpp and the kernel source(s): pyasc cpu-debug main.cpp "
              "kernel.cpp -- args", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="pyasc_cpu_debug_") as tmp:
        out = args.output or os.path.join(tmp, os.path.splitext(os.path.basename(sources[0]))[0])
        exe = cpudebug.build(sources, out, debug=args.debug, include_dirs=args.include_dirs,
                             extra_flags=[*(f"-D{d}" for d in args.defines),
                                          *_auto_sync_flag(args)],
                             soc=args.soc)
        if args.build_only:
            print(exe)
            return 0
        return cpudebug.run(exe, program_args, serial=args.serial)


@hookimpl
def pyasc_register_commands(register: Callable[..., None]) -> None:
    register("cpu-debug", "build a CANN CPU-debug program (main.cpp + kernel sources, tikicpulib.h) and run it "
             "on the simulator: pyasc cpu-debug main.cpp kernel.cpp [--debug] [--serial] -- args",
             _cpu_debug_arguments, _cpu_debug_run)
    register("compile", "compile an Ascend C source into a simulator kernel binary (cached; prints its path)",
             _compile_arguments, _compile_run)
    register("cache", "the simulator's kernel cache: 'pyasc cache info' (path, entries, bytes, cap) or "
             "'pyasc cache clear'", _cache_arguments, _cache_run)
