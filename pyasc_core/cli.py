"""The ``pyasc`` command: info, ops, plugins, check (differential testing) and bench, plus the
subcommands plugins add through the ``pyasc_register_commands`` hook (e.g. the simulator's ``compile``
and ``cache info|clear``)."""

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
import numpy as np

from .dtypes import ALL_DTYPES, dtype_name
from .errors import PyascError
from .registry import REGISTRY

_SHORT = {
    "bool": "bool", "uint8": "u8", "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
    "float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64",
}


def _console() -> Console:
    con = Console()
    # logs and pipes get wide tables rather than rich's 80-column fallback
    return con if con.is_terminal else Console(width=160)


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
                devices = [str(b.device(i)) for i in range(b.device_count())]
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
                kernels[bname] = REGISTRY.backends[bname].default_kernel_label
        rows.append({
            "op": name, "schema": str(op.schema), "dtypes": [dtype_name(d) for d in ALL_DTYPES if d in op.all_dtypes],
            "backends": kernels, "kernel_dtypes": _kernel_dtypes(name, op), "runs_on": _placements(name),
            "composite": op.is_composite, "source": op.source,
        })
    return rows


def _kernel_dtypes(name: str, op: Any) -> dict[str, list[str] | None]:
    """{backend: the input dtypes its registered kernel takes} for each backend with a kernel of
    ``name``: the kernel's ``dtypes`` (a tuple, or a function returning one; pyasc.library.impl
    with kernel= sets it), None when the kernel does not say."""
    out: dict[str, list[str] | None] = {}
    for (opname, bname), k in sorted(REGISTRY.kernels.items()):
        if opname != name:
            continue
        ds = getattr(k.fn, "dtypes", None)
        if callable(ds):
            ds = ds()
        out[bname] = None if ds is None else [dtype_name(d) for d in ALL_DTYPES if d in {np.dtype(x) for x in ds}]
    return out


_PLACE_SHORT = {"AI Core": "aicore", "AI CPU": "aicpu", "host fallback": "host", "none": "none"}


def _placements(name: str) -> dict[str, dict[str, str]]:
    """{backend: {dtype: where it runs}} for each backend whose kernel of ``name`` says (its
    ``placement``: "AI Core", "AI CPU", "host fallback" or "none" per input dtype)."""
    out: dict[str, dict[str, str]] = {}
    for (opname, bname), k in sorted(REGISTRY.kernels.items()):
        if opname != name:
            continue
        where = getattr(k.fn, "placement", None)
        if where is not None:
            out[bname] = dict(where() if callable(where) else where)
    return out


def _fmt_placement(places: dict[str, str]) -> str:
    """'aicore f16 bf16 f32, aicpu i64 f64' for one backend's {dtype: where}."""
    groups: dict[str, list[str]] = {}
    for d, where in places.items():
        groups.setdefault(_PLACE_SHORT.get(where, where), []).append(_SHORT[d])
    return ", ".join(f"{k} {' '.join(v)}" for k, v in groups.items())


def cmd_ops(args: argparse.Namespace) -> int:
    rows = _op_rows(args.namespace)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    t = Table(title=f"{len(rows)} ops")
    for col in ("op", "schema", "dtypes", "backends", "kernels", "runs on", "source"):
        t.add_column(col, overflow="fold")
    for r in rows:
        backends = ", ".join(f"{b}" + ("" if how == "kernel" else f" ({how})") for b, how in r["backends"].items())
        kernels = "; ".join(f"{b}: " + ("?" if ds is None else " ".join(_SHORT[d] for d in ds) or "-")
                            for b, ds in r["kernel_dtypes"].items())
        runs_on = "; ".join(f"{b}: {_fmt_placement(p)}" for b, p in r["runs_on"].items()) or "-"
        t.add_row(r["op"], r["schema"], " ".join(_SHORT[d] for d in r["dtypes"]), backends, kernels, runs_on,
                  r["source"])
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


def _select_ops(patterns: list[str] | None) -> list[str]:
    import fnmatch

    REGISTRY.ensure()
    names = sorted(REGISTRY.ops)
    if not patterns:
        return names
    chosen: list[str] = []
    for pat in patterns:
        full = pat if "::" in pat else f"pyasc::{pat}"
        hits = [n for n in names if fnmatch.fnmatchcase(n, full)]
        if not hits:
            from .errors import UnknownOpError, did_you_mean

            raise UnknownOpError(f"no op matches {pat!r}{did_you_mean(full, names)}; see 'pyasc ops'")
        chosen.extend(h for h in hits if h not in chosen)
    return chosen


def _progress(con: Console):
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeElapsedColumn(), console=con, transient=False)


def _check_all(ops: list[str], backend: str, reference: str, args: argparse.Namespace, progress: Any,
               expected: Any, reports: list[Any], registration: dict[str, str]) -> None:
    """check_op (and opcheck) for each op into ``reports`` and ``registration``; anything an op
    raises becomes its failing row, so the run always goes on to the next op."""
    from .testing.check import CheckReport, SampleResult, check_op, opcheck

    task = progress.add_task(f"checking {backend} against {reference}", total=len(ops))
    for name in ops:
        progress.update(task, description=f"{name} on {backend}")
        try:
            reports.append(check_op(name, backend, reference, dtypes=args.dtype or None, seed=args.seed,
                                    allow_missing=args.allow_missing, expected_missing=expected))
        except Exception as exc:
            rep = CheckReport(name, backend, reference)
            rep.results.append(SampleResult("*", "checking the op", "error", f"{type(exc).__name__}: {exc}"))
            reports.append(rep)
        if not args.no_opcheck:
            try:
                opcheck(name, backend, seed=args.seed)
                registration[name] = "ok"
            except Exception as exc:
                registration[name] = str(exc) if isinstance(exc, PyascError) else f"opcheck raised {type(exc).__name__}: {exc}"
        progress.advance(task)


def _unknown_listed(expected: Any, backend: str, patterns: list[str] | None) -> list[str]:
    """Expected-missing entries on ``backend`` naming ops that no longer exist (checked when every
    op is: with --op the run cannot tell)."""
    if patterns:
        return []
    return sorted(f"{expected.source} lists {op} on {backend}, which is not a registered op: delete "
                  "the entry (the list only shrinks)" for op in expected.ops(backend) if op not in REGISTRY.ops)


def _fmt_err(value: Any, fmt: str) -> str:
    return "-" if value is None else format(value, fmt)


def cmd_check(args: argparse.Namespace) -> int:
    from .selection import get_backend
    from .testing.check import refuse_self_comparison
    from .testing.missing import ExpectedMissing, load_expected_missing

    con = _console()
    backend = REGISTRY.available_backend(args.backend or get_backend()).name
    reference = REGISTRY.available_backend(args.reference).name
    refuse_self_comparison(backend, reference, args.backend, args.reference)
    ops = _select_ops(args.op)
    expected = ExpectedMissing() if args.allow_missing else load_expected_missing(args.expected_missing)
    reports: list[Any] = []
    registration: dict[str, str] = {}
    try:
        with _progress(con) as progress:
            _check_all(ops, backend, reference, args, progress, expected, reports, registration)
    except BaseException:  # interrupted: the table and the JSON of what ran are still written
        _check_output(con, args, backend, reference, ops, reports, registration, expected)
        raise
    return _check_output(con, args, backend, reference, ops, reports, registration, expected)


def _check_output(con: Console, args: argparse.Namespace, backend: str, reference: str, ops: list[str],
                  reports: list[Any], registration: dict[str, str], expected: Any) -> int:
    t = Table(title=f"pyasc check: {backend} vs {reference} (seed {args.seed})")
    for col in ("op", "dtype", "runs on", "samples", "result", "max abs err", "max rel err", "max ULP",
                "why it passed"):
        t.add_column(col, justify="right" if col.startswith(("samples", "max")) else "left",
                     no_wrap=col == "op")
    n_samples = n_fail = n_nokernel = n_allowed = n_listed = n_warn = n_host = n_soc = 0
    for rep in reports:
        for row in rep.by_dtype():
            n_samples += row["samples"]
            n_host += row.get("host_fallback", 0)
            n_warn += row.get("warnings", 0)
            n_fail += row["failed"]
            n_nokernel += row["no_kernel"]
            n_allowed += row["missing_allowed"]
            n_listed += row["listed_but_present"]
            n_soc += row.get("soc_unsupported", 0)
            parts = []
            if row["passed"]:
                parts.append(f"[green]pass {row['passed']}[/green]" if row["passed"] != row["samples"] else "[green]pass[/green]")
            if row["failed"]:
                parts.append(f"[red]FAIL {row['failed']}[/red]")
            if row["no_kernel"]:
                parts.append(f"[red]no kernel {row['no_kernel']}[/red]")
            if row["missing_allowed"]:
                how = "allowed" if args.allow_missing else "listed"
                parts.append(f"[yellow]no kernel {row['missing_allowed']} ({how})[/yellow]")
            if row["listed_but_present"]:
                parts.append("[red]listed missing, has a kernel[/red]")
            if row.get("soc_unsupported"):  # no kernel can exist: the reason is in "why"
                parts.append(f"[yellow]not supported by the SoC {row['soc_unsupported']}[/yellow]")
            if row.get("host_fallback"):  # right, but run on the host: not a kernel pass
                parts.append(f"[yellow]host fallback {row['host_fallback']} (no kernel ran)[/yellow]")
            if row.get("warnings"):  # sanitizer warnings (pyasc.SanitizerWarning): tolerated, shown
                parts.append(f"[yellow]{row['warnings']} sanitizer warnings[/yellow]")
            t.add_row(rep.op, row["dtype"], " + ".join(row.get("runs_on", ())) or "-", str(row["samples"]),
                      ", ".join(parts) or "-",
                      _fmt_err(row["max_abs"], ".3g"), _fmt_err(row["max_rel"], ".3g"),
                      _fmt_err(row["max_ulp"], "d"), row["why"] if not row["failed"] else "")
    con.print(t)
    bad_reg = {k: v for k, v in registration.items() if v != "ok"}
    stale_ops = _unknown_listed(expected, backend, args.op) if len(reports) == len(ops) else []
    for rep in reports:
        if not rep.ok:
            con.print(rep.summary(), markup=False, highlight=False)
    for text in list(bad_reg.values()) + stale_ops:
        con.print(text, markup=False, highlight=False)
    for rep in reports:
        for r in rep.results:
            for w in r.warnings[:1]:
                con.print(f"warning: {rep.op} [{r.dtype}] {r.desc}: {w}", markup=False, highlight=False)
    ok = len(reports) == len(ops) and not any(not r.ok for r in reports) and not bad_reg and not stale_ops
    if args.json:
        import pathlib

        payload = {"backend": backend, "reference": reference, "seed": args.seed, "ok": ok,
                   "allow_missing": args.allow_missing, "expected_missing": expected.source,
                   "registration": registration, "warnings": n_warn, "stale_expected_missing": stale_ops,
                   "soc_unsupported": n_soc,
                   "ops_checked": len(reports), "ops_selected": len(ops),
                   "ops": [r.as_dict() for r in reports]}
        pathlib.Path(args.json).write_text(json.dumps(payload, indent=1, default=str))
    problems = [f"{n_fail} failing samples" if n_fail else "",
                f"{n_nokernel} samples with no kernel on {backend} (list them in {expected.source} "
                "or pass --allow-missing)" if n_nokernel else "",
                f"{n_listed} expected-missing entries whose kernel exists" if n_listed else "",
                f"{len(stale_ops)} expected-missing entries for unknown ops" if stale_ops else "",
                f"{len(bad_reg)} registration problems" if bad_reg else "",
                f"only {len(reports)} of {len(ops)} ops checked (interrupted)" if len(reports) != len(ops) else ""]
    problems = [p for p in problems if p]
    verdict = ("all passed" if not n_host else f"all right, {n_samples - n_host} by kernels") if ok else ", ".join(problems)
    con.print(f"{len(ops)} ops, {n_samples} samples on {backend}: {verdict}"
              + (f" ({n_allowed} samples have no kernel on {backend}, "
                 + ("allowed by --allow-missing)" if args.allow_missing else f"as {expected.source} lists)")
                 if n_allowed else "")
              + (f"; {n_warn} sanitizer warnings (PYASC_SIM_STRICT=1 makes them errors)" if n_warn else "")
              + (f"; {n_soc} samples not supported by the SoC of {backend}'s kernels (their dtype does not "
                 "exist there: see each row's reason; not counted as passes)" if n_soc else "")
              + (f"; {n_host} samples ran on the host fallback (no kernel ran: not counted as kernel passes)"
                 if n_host else ""))
    return 0 if ok else 1


def cmd_bench(args: argparse.Namespace) -> int:
    from .testing.bench import bench_case, numpy_callable, pyasc_callable, time_call, torch_callable

    con = _console()
    REGISTRY.ensure()
    if args.backend:
        backends = [REGISTRY.available_backend(b).name for b in args.backend]
    else:
        backends = [b for b in sorted(REGISTRY.backends, key=lambda n: -REGISTRY.backends[n].priority)
                    if b != "meta" and REGISTRY.availability(b)[0]]
    ops = _select_ops(args.op)
    t = Table(title=f"pyasc bench ({args.dtype}, about {args.size:,} elements per tensor)")
    for col in ("op", "shape", "backend", "time", "throughput", "numpy", "vs numpy", "torch"):
        t.add_column(col, justify="left" if col in ("op", "shape", "backend") else "right",
                     no_wrap=col in ("op", "shape"))
    rows = []
    with _progress(con) as progress:
        task = progress.add_task("benchmarking", total=len(ops))
        for name in ops:
            progress.update(task, description=name)
            case = bench_case(name, args.dtype, args.size)
            if case is None:
                progress.advance(task)
                continue
            np_fn = numpy_callable(case)
            np_t = time_call(np_fn, min_time=args.min_time) if np_fn else None
            th_fn = torch_callable(case)
            th_t = time_call(th_fn, min_time=args.min_time) if th_fn else None
            for b in backends:
                try:
                    secs = time_call(pyasc_callable(case, b), min_time=args.min_time)
                except PyascError as exc:
                    rows.append({"op": name, "backend": b, "error": str(exc).split(";")[0]})
                    continue
                work = case.flops if case.flops else case.bytes_moved
                rows.append({"op": name, "shape": case.desc, "backend": b, "seconds": secs,
                             "throughput": work / secs / 1e9, "metric": case.metric,
                             "numpy_seconds": np_t, "torch_seconds": th_t})
            progress.advance(task)
    for r in rows:
        if "error" in r:
            t.add_row(r["op"], "", r["backend"], "-", r["error"], "", "", "")
            continue
        ratio = f"{r['seconds'] / r['numpy_seconds']:.2f}x" if r["numpy_seconds"] else "-"
        t.add_row(r["op"], r["shape"], r["backend"], _fmt_time(r["seconds"]),
                  f"{r['throughput']:.2f} {r['metric']}",
                  _fmt_time(r["numpy_seconds"]) if r["numpy_seconds"] else "-", ratio,
                  _fmt_time(r["torch_seconds"]) if r["torch_seconds"] else "-")
    con.print(t)
    con.print("time: per call, best of 5 loops, device synchronised; 'vs numpy': pyasc time / "
              "NumPy time (lower is faster)")
    if args.json:
        import pathlib

        pathlib.Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


def _fmt_time(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} us"
    return f"{seconds * 1e3:.2f} ms"


def cmd_profile(args: argparse.Namespace) -> int:
    """Runs a script under the profiler; writes the Chrome trace and prints (and writes) the summary."""
    import runpy
    from pathlib import Path

    from .errors import ArgumentError
    from .profiler import profile

    script = Path(args.script)
    if not script.is_file():
        raise ArgumentError(f"pyasc profile: no script {str(script)!r} (give the path of a Python file to run)")
    trace = Path(args.trace or script.with_suffix(".trace.json").name)
    saved = sys.argv
    sys.argv = [str(script), *args.args]
    sys.path.insert(0, str(script.parent.resolve()))
    try:
        with profile(span_cap=args.span_cap) as p:
            runpy.run_path(str(script), run_name="__main__")
    finally:
        sys.argv = saved
        sys.path.pop(0)
    p.export_chrome_trace(trace)
    table = p.key_averages()
    con = _console()
    con.print(table.table())
    summary = Path(args.summary or trace.with_suffix("").name + ".summary.txt")
    summary.write_text(str(table))
    con.print(f"trace: {trace} (open in https://ui.perfetto.dev or chrome://tracing); summary: {summary}")
    return 0


COMMANDS: dict[str, tuple[Callable[[argparse.Namespace], int], str]] = {
    "info": (cmd_info, "version, backends, devices, plugins and build details"),
    "ops": (cmd_ops, "registered ops with their dtypes and the backends that run them"),
    "plugins": (cmd_plugins, "installed plugins, including ones that failed to load"),
    "check": (cmd_check, "check every op on a backend against the reference (differential test)"),
    "bench": (cmd_bench, "time ops on each backend next to NumPy (and torch when installed)"),
    "profile": (cmd_profile, "run a script under the simulator's profiler: Chrome trace + per-kernel summary"),
}


def plugin_commands() -> dict[str, tuple[str, Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]]:
    """Subcommands that plugins add through the ``pyasc_register_commands`` hook:
    name -> (help, add_arguments, run). A plugin whose hook fails is marked failed (by the plugin
    manager's one isolating hook caller); a command whose name is already in use is skipped with
    a warning. The other commands still work."""
    import warnings

    from .plugins import PyascPluginWarning, get_plugin_manager

    pm = get_plugin_manager()
    per_plugin: dict[str, list[tuple[str, str, Any, Any]]] = {}

    def register_for(plugin: str, _hookname: str) -> Callable[..., None]:
        def register(name: str, help: str, add_arguments: Callable[[argparse.ArgumentParser], None],
                     run: Callable[[argparse.Namespace], int]) -> None:
            per_plugin.setdefault(plugin, []).append((name, help, add_arguments, run))

        return register

    found: dict[str, Any] = {}
    for plugin in pm.call_hooks(("pyasc_register_commands",), register_for, stage="register its commands"):
        source = pm.source_of(plugin)
        for name, help_text, add_arguments, run in per_plugin.get(plugin, ()):
            if name in COMMANDS or name in found:
                taken = "a built-in command" if name in COMMANDS else f"taken by {found[name][3]}"
                warnings.warn(f"pyasc plugin {source} registers the command {name!r}, which is {taken}; "
                              "it was skipped (rename the plugin's command)", PyascPluginWarning, stacklevel=2)
                continue
            found[name] = (help_text, add_arguments, run, source)
    return {name: entry[:3] for name, entry in found.items()}


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
    p = sub.add_parser("check", help=COMMANDS["check"][1])
    p.add_argument("--backend", help="backend to check (default: the current backend)")
    p.add_argument("--reference", default="numpy", help="golden backend (default: numpy)")
    p.add_argument("--op", action="append", help="op name or glob, e.g. add, 'example::*' (repeatable)")
    p.add_argument("--dtype", action="append", help="only these dtypes (repeatable)")
    p.add_argument("--seed", type=int, default=0, help="sample seed (default 0)")
    p.add_argument("--json", metavar="PATH", help="also write the full report as JSON")
    p.add_argument("--no-opcheck", action="store_true", help="skip the registration checks")
    p.add_argument("--allow-missing", action="store_true",
                   help="tolerate samples with no kernel on the backend (default: they fail unless "
                   "--expected-missing lists them)")
    p.add_argument("--expected-missing", metavar="PATH",
                   help="a list of (op, dtype, backend) kernels known to be missing, e.g. an op pack's "
                   "(default: none; pyasc's built-in ops run every dtype)")
    p = sub.add_parser("bench", help=COMMANDS["bench"][1])
    p.add_argument("--backend", action="append", help="backend to time (repeatable; default: all available)")
    p.add_argument("--op", action="append", help="op name or glob (repeatable; default: all)")
    p.add_argument("--dtype", default="float32", help="dtype of the inputs (default float32)")
    p.add_argument("--size", type=int, default=1 << 20, help="elements per tensor (default 1048576)")
    p.add_argument("--min-time", type=float, default=0.05, help="seconds per timing loop (default 0.05)")
    p.add_argument("--json", metavar="PATH", help="also write the rows as JSON")
    p = sub.add_parser("profile", help=COMMANDS["profile"][1])
    p.add_argument("script", help="the Python script to run")
    p.add_argument("args", nargs=argparse.REMAINDER, help="its arguments")
    p.add_argument("--trace", metavar="PATH", help="Chrome trace file (default <script>.trace.json)")
    p.add_argument("--summary", metavar="PATH", help="summary table file (default <trace>.summary.txt)")
    p.add_argument("--span-cap", type=int, default=1_000_000, help="spans kept at most (default 1000000)")
    for name, (help_text, add_arguments, run) in plugin_commands().items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        add_arguments(p)
        p.set_defaults(_plugin_run=run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        run = getattr(args, "_plugin_run", None)
        if run is not None:
            return int(run(args) or 0)
        return COMMANDS[args.command][0](args)
    except PyascError as exc:
        print(f"pyasc {args.command}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
