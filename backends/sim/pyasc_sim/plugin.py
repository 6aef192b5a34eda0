"""Registers the ``sim`` backend: the ACL backend of pyasc_acl over the simulator's library, and the
``pyasc compile`` / ``pyasc cache`` commands. (The built-in kernels register through pyasc_kernels.)"""

from __future__ import annotations

from collections.abc import Callable

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
            "PYASC_SIM_STRICT")


def _check_settings() -> None:
    """What Python checks before aclInit: the boolean switches (the runtime itself refuses a bad
    SoC name, device count, memory size or timeout, naming the variable and the valid values)."""
    env_flag("PYASC_SIM_CHECKS", default=True)
    env_flag("PYASC_SIM_STRICT", default=False)


class SimBackend(AclBackend):
    """The ACL backend over the simulator's library (libpyasc_acl_sim.so). What differs from npu:
    where the library is found, the settings it reads, and its priority."""

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
        )


BACKEND = SimBackend()


@hookimpl
def pyasc_register_backends(register: Callable[[Backend], None]) -> None:
    register(BACKEND)


def _compile_arguments(parser) -> None:  # type: ignore[no-untyped-def]
    parser.add_argument("source", help="Ascend C source file (.cpp)")
    parser.add_argument("-o", "--output", help="also write the kernel binary here (default: only the cache)")
    parser.add_argument("--no-checks", action="store_true",
                        help="a binary whose kernels never run the sanitizer checks (faster)")
    parser.add_argument("--kernel", action="append", dest="kernels",
                        help="only this kernel (repeatable; default: every kernel of the source)")
    parser.add_argument("--opt", default="-O2", help="optimisation flag (default -O2)")


def _compile_run(args) -> int:  # type: ignore[no-untyped-def]
    from . import _stubgen
    from .build import compile as compile_source
    from .build import kernel_names

    path = compile_source(args.source, kernels=args.kernels, opt=args.opt, checks=not args.no_checks,
                          output=args.output)
    try:
        names = kernel_names(args.source)
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
    return 0


@hookimpl
def pyasc_register_commands(register: Callable[..., None]) -> None:
    register("compile", "compile an Ascend C source into a simulator kernel binary (cached; prints its path)",
             _compile_arguments, _compile_run)
    register("cache", "the simulator's kernel cache: 'pyasc cache info' (path, entries, bytes, cap) or "
             "'pyasc cache clear'", _cache_arguments, _cache_run)
