"""The ``pyasc`` command: info, ops and plugins (and, as they land, check and bench)."""

from __future__ import annotations

import argparse
import json
import platform
import sys
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from . import __version__
from .dtypes import ALL_DTYPES, dtype_name
from .errors import PyascError
from .registry import REGISTRY

_SHORT = {
    "bool": "bool", "uint8": "u8", "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
    "float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64",
}


def _console() -> Console:
    return Console(soft_wrap=False)


def _build_info() -> dict[str, Any]:
    try:
        from . import _native
    except ImportError as exc:
        return {"native module": f"missing ({exc}); reinstall with 'pip install .'"}
    return dict(_native.build_info())


def _backend_rows() -> list[dict[str, Any]]:
    from .selection import get_backend

    REGISTRY.ensure()
    try:
        current = get_backend()
    except PyascError:
        current = None
    rows = []
    for name in sorted(REGISTRY.backends, key=lambda n: -REGISTRY.backends[n].priority):
        b = REGISTRY.backends[name]
        ok, reason = REGISTRY.availability(name)
        devices: list[str] = []
        extra: dict[str, Any] = {}
        if ok:
            try:
                devices = [str(b.device(i)) for i in range(b.device_count())] if name not in ("numpy", "meta") else [str(b.device())]
                extra = b.info()
            except Exception as exc:  # show what went wrong instead of failing the whole report
                extra = {"error": str(exc)}
        rows.append({
            "name": name, "aliases": list(b.aliases), "available": ok, "reason": reason,
            "current": name == current, "devices": devices, "source": REGISTRY.backend_sources[name],
            "description": b.description, "info": extra,
        })
    return rows


def cmd_info(args: argparse.Namespace) -> int:
    from .plugins import list_plugins

    plugins = list_plugins()
    data = {
        "pyasc": __version__,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "build": _build_info(),
        "backends": _backend_rows(),
        "plugins": [p.as_dict() for p in plugins],
    }
    if args.json:
        print(json.dumps(data, indent=2, default=str))
        return 0
    con = _console()
    con.print(f"[bold]pyasc[/bold] {__version__}  (Python {data['python']}, {data['platform']})")
    con.print("build: " + ", ".join(f"{k} {v}" for k, v in data["build"].items()))
    t = Table(title="backends")
    for col in ("backend", "available", "devices", "details"):
        t.add_column(col)
    for r in data["backends"]:
        name = r["name"] + (" (current)" if r["current"] else "")
        if r["aliases"]:
            name += f"\naliases: {', '.join(r['aliases'])}"
        details = r["description"] if r["available"] else r["reason"]
        if r["info"]:
            details += "\n" + ", ".join(f"{k}: {v}" for k, v in r["info"].items())
        t.add_row(name, "yes" if r["available"] else "[red]no[/red]", ", ".join(r["devices"]), details)
    con.print(t)
    _print_plugins(con, plugins, title="plugins")
    return 0


def _print_plugins(con: Console, plugins: list[Any], title: str) -> None:
    t = Table(title=title)
    for col in ("plugin", "distribution", "version", "kind", "status"):
        t.add_column(col)
    for p in plugins:
        status = p.status
        if p.status == "failed":
            status = f"[red]failed[/red]: {p.error}"
        elif p.status == "skipped":
            status = f"skipped: {p.error}"
        t.add_row(p.name, p.dist, p.version, p.kind, status)
    con.print(t)


def _op_rows(namespace: str | None) -> list[dict[str, Any]]:
    REGISTRY.ensure()
    rows = []
    for name in sorted(REGISTRY.ops):
        op = REGISTRY.ops[name]
        if namespace and op.namespace != namespace:
            continue
        kernels: dict[str, str] = {}
        for bname in sorted(REGISTRY.backends):
            if (name, bname) not in REGISTRY.table:
                continue
            if (name, bname) in REGISTRY.kernels:
                kernels[bname] = "kernel"
            elif op.composite is not None and REGISTRY.backends[bname].default_kernel(op) is None:
                kernels[bname] = "composite"
            else:
                kernels[bname] = "default"
        rows.append({
            "op": name, "schema": str(op.schema), "dtypes": [dtype_name(d) for d in ALL_DTYPES if d in op.all_dtypes],
            "backends": kernels, "composite": op.is_composite, "source": op.source,
        })
    return rows


def cmd_ops(args: argparse.Namespace) -> int:
    rows = _op_rows(args.namespace)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    t = Table(title=f"{len(rows)} ops")
    for col in ("op", "schema", "dtypes", "backends", "source"):
        t.add_column(col, overflow="fold")
    for r in rows:
        backends = ", ".join(f"{b}" + ("" if how == "kernel" else f" ({how})") for b, how in r["backends"].items())
        t.add_row(r["op"], r["schema"], " ".join(_SHORT[d] for d in r["dtypes"]), backends, r["source"])
    _console().print(t)
    return 0


def cmd_plugins(args: argparse.Namespace) -> int:
    from .plugins import list_plugins

    plugins = list_plugins()
    conflict = None
    try:
        REGISTRY.ensure()
    except PyascError as exc:
        conflict = str(exc)
    if args.json:
        print(json.dumps({"plugins": [p.as_dict() for p in plugins], "error": conflict}, indent=2))
        return 0
    con = _console()
    shown = plugins if args.all else [p for p in plugins if p.kind != "builtin"]
    _print_plugins(con, shown, title="pyasc plugins" + ("" if args.all else " (--all adds built-ins)"))
    if not shown:
        con.print("no third-party plugins installed (entry-point group 'pyasc')")
    if conflict:
        con.print(f"[red]error:[/red] {conflict}")
    return 0


COMMANDS: dict[str, tuple[Callable[[argparse.Namespace], int], str]] = {
    "info": (cmd_info, "version, backends, devices, plugins and build details"),
    "ops": (cmd_ops, "registered ops with their dtypes and the backends that run them"),
    "plugins": (cmd_plugins, "installed plugins, including ones that failed to load"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pyasc", description="pyasc: Ascend NPU runtime and simulator")
    parser.add_argument("--version", action="version", version=f"pyasc {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("info", help=COMMANDS["info"][1])
    p.add_argument("--json", action="store_true", help="print JSON")
    p = sub.add_parser("ops", help=COMMANDS["ops"][1])
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--namespace", help="only ops of this namespace, e.g. pyasc")
    p = sub.add_parser("plugins", help=COMMANDS["plugins"][1])
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--all", action="store_true", help="include the built-in plugins")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return COMMANDS[args.command][0](args)
    except PyascError as exc:
        print(f"pyasc {args.command}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
