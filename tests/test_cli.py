"""The ``pyasc`` command, run as real processes (``python -m pyasc_core.cli`` and the console script)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest

import pyasc
from pyasc_core import _native, cli

BUILTIN_PLUGINS = ("pyasc_core.reference_backend", "pyasc_core.meta_backend", "pyasc_core.builtin_ops",
                   "pyasc_core.library")

GHOST_BACKENDS = """
    import pyasc

    class Ghost(pyasc.Backend):
        name = "ghost"
        description = "a device that is never there"

        def availability(self):
            return False, "no ghost device found (looked at /dev/ghost0)"

    class Crashy(pyasc.Backend):
        name = "crashy"

        def availability(self):
            raise RuntimeError("driver exploded")

    @pyasc.hookimpl
    def pyasc_register_backends(register):
        register(Ghost())
        register(Crashy())
"""

GOOD = """
    import pyasc

    @pyasc.hookimpl
    def pyasc_register_ops(register):
        register(pyasc.OpDef("good::triple", "(Tensor x) -> Tensor", dtypes=["float32", "int8"],
                             meta=lambda x: x, reference=lambda x: 3 * x))
"""

BROKEN_IMPORT = """
    raise ImportError("libfoo.so.3: cannot open shared object file")
"""

BROKEN_HOOK = """
    import pyasc

    @pyasc.hookimpl
    def pyasc_register_ops(register):
        raise ValueError("bad op table")
"""


def console_script() -> str:
    path = Path(sys.executable).with_name("pyasc")
    assert path.is_file(), f"the console script {path} is not installed next to {sys.executable}"
    return str(path)


def run(args, *, script=False, pythonpath=None, expect=0) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYASC_")}
    env["PYASC_BACKEND"] = "numpy"  # a fixed current backend, whatever else is installed
    env.pop("PYTHONPATH", None)
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    cmd = [console_script()] if script else [sys.executable, "-m", "pyasc_core.cli"]
    done = subprocess.run(cmd + list(args), capture_output=True, text=True, env=env, timeout=120,
                          cwd=tempfile.gettempdir())  # not the checkout: its pyasc_core is uncompiled
    assert done.returncode == expect, f"{cmd + list(args)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def table_rows(text: str) -> list[tuple[str, list[str]]]:
    """The body rows of rich tables as (first cell of the first line, cells), with cells wrapped
    over several lines joined again."""
    rows: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if not line.startswith("│"):
            continue
        cells = [c.strip() for c in line.split("│")[1:-1]]
        # a new row starts with a first cell (the backends table continues it with "aliases: ...")
        if not rows or (cells[0] and not cells[0].startswith("aliases:")):
            rows.append((cells[0], cells))
        else:
            key, prev = rows[-1]
            rows[-1] = (key, [f"{a} {b}".strip() for a, b in zip(prev, cells)])
    return rows


def row(text: str, first_cell: str) -> str:
    """The table row whose first cell starts with ``first_cell``, as 'cell | cell | ...'."""
    for key, cells in table_rows(text):
        if key == first_cell:
            return " | ".join(squash(c) for c in cells)
    raise AssertionError(f"no table row for {first_cell!r} in:\n{text}")


def test_info_reports_version_build_backends_and_plugins(dists):
    dists.make("pyasc-ghost-backends", "ghost_backends", GHOST_BACKENDS, entry_name="ghosts", version="0.3")
    dists.make("pyasc-broken", "broken_plugin", BROKEN_IMPORT, entry_name="broken", version="9.9")
    done = run(["info"], pythonpath=dists.root)
    out = done.stdout
    text = squash(out)
    assert f"pyasc {pyasc.__version__}" in text
    assert f"Python {sys.version.split()[0]}" in text
    for key, value in _native.build_info().items():  # the build details come from the native module
        assert f"{key} {value}" in text
    numpy_row = row(out, "numpy (current)")
    assert numpy_row.startswith("numpy (current) aliases: reference | yes | numpy | NumPy reference implementations")
    assert f"numpy: {np.__version__}" in numpy_row
    assert row(out, "meta").startswith("meta | yes | meta |")
    assert row(out, "ghost") == "ghost | no |  | no ghost device found (looked at /dev/ghost0)"
    assert row(out, "crashy") == "crashy | no |  | availability check failed: driver exploded"
    for name in BUILTIN_PLUGINS:
        assert row(out, name) == f"{name} | pyasc-runtime | {pyasc.__version__} | builtin | loaded"
    assert row(out, "ghosts") == "ghosts | pyasc-ghost-backends | 0.3 | entrypoint | loaded"
    broken = row(out, "broken")
    assert broken.startswith("broken | pyasc-broken | 9.9 | entrypoint | failed: import failed: ImportError")
    assert "libfoo.so.3" in broken
    assert "PyascPluginWarning" in done.stderr and "'broken'" in done.stderr  # and a warning


def test_info_json_from_the_console_script():
    data = json.loads(run(["info", "--json"], script=True).stdout)
    assert data["pyasc"] == pyasc.__version__
    assert data["build"] == json.loads(json.dumps(_native.build_info()))
    backends = {b["name"]: b for b in data["backends"]}
    assert backends["numpy"]["available"] is True and backends["numpy"]["current"] is True
    assert backends["numpy"]["aliases"] == ["reference"]
    assert backends["numpy"]["devices"] == ["numpy"]
    assert backends["numpy"]["source"] == "pyasc-runtime"
    assert "numpy" in backends["numpy"]["info"]
    assert backends["meta"]["available"] is True and backends["meta"]["current"] is False
    recs = {p["name"]: p for p in data["plugins"]}
    for name in BUILTIN_PLUGINS:
        assert (recs[name]["status"], recs[name]["kind"], recs[name]["dist"]) == ("loaded", "builtin", "pyasc-runtime")
    assert all(p["kind"] == "builtin" for p in data["plugins"])  # nothing third-party on this path


def test_ops_table():
    out = run(["ops"], script=True).stdout
    assert f"{len(pyasc._BUILTIN_OPS)} ops" in out
    for name in pyasc._BUILTIN_OPS:
        op, _schema, _dtypes, backends, _kernels, _runs_on, source = row(out, f"pyasc::{name}").split(" | ", 6)
        assert {"meta (meta function)", "numpy (reference)"} <= set(backends.split(", ")), backends
        assert source == "pyasc-runtime"
    assert "| (Tensor x) -> Tensor | f16 bf16 f32 f64 |" in row(out, "pyasc::exp")
    assert "| u8 i8 i16 i32 i64 f16 bf16 f32 f64 |" in row(out, "pyasc::add")
    assert "| bool u8 i8 i16 i32 i64 f16 bf16 f32 f64 |" in row(out, "pyasc::eq")
    assert "(Tensor x, int[]? axis=None, bool keepdims=False) -> Tensor" in row(out, "pyasc::sum")
    assert "sim: f16 bf16 f32 f64 |" in row(out, "pyasc::exp")  # the dtypes the sim kernels take
    # where each runs (issue 11): the AI Core's, the AI CPU for the rest
    assert "sim: aicore f16 bf16 f32, aicpu f64" in row(out, "pyasc::exp")
    assert "npu: host f16 bf16 f32 f64" in row(out, "pyasc::exp")  # no CANN here: the host fallback


def test_ops_json_with_a_plugin(dists):
    dists.make("pyasc-good-pack", "good_pack", GOOD, entry_name="good")
    rows = {r["op"]: r for r in json.loads(run(["ops", "--json"], pythonpath=dists.root).stdout)}
    assert set(rows) == {f"pyasc::{n}" for n in pyasc._BUILTIN_OPS} | {"good::triple"}
    assert rows["pyasc::exp"]["dtypes"] == ["float16", "bfloat16", "float32", "float64"]
    assert rows["pyasc::where"]["dtypes"][0] == "bool"
    assert {b: rows["pyasc::matmul"]["backends"][b] for b in ("meta", "numpy")} == {"meta": "meta function",
                                                                                    "numpy": "reference"}
    good = rows["good::triple"]
    assert {b: good["backends"][b] for b in ("meta", "numpy")} == {"meta": "meta function", "numpy": "reference"}
    del good["backends"]
    assert good == {"op": "good::triple", "schema": "(Tensor x) -> Tensor", "dtypes": ["int8", "float32"],
                    "kernel_dtypes": {}, "runs_on": {}, "composite": False, "source": "pyasc-good-pack"}
    assert rows["pyasc::exp"]["kernel_dtypes"]["sim"] == ["float16", "bfloat16", "float32", "float64"]
    assert rows["pyasc::exp"]["runs_on"]["sim"] == {"float16": "AI Core", "bfloat16": "AI Core",
                                                   "float32": "AI Core", "float64": "AI CPU"}


def test_plugins_json_all_with_good_and_failed_plugins(dists):
    dists.make("pyasc-good-pack", "good_pack", GOOD, entry_name="good", version="1.2")
    dists.make("pyasc-broken", "broken_plugin", BROKEN_IMPORT, entry_name="broken")
    dists.make("pyasc-broken-hook", "broken_hook", BROKEN_HOOK, entry_name="badhook")
    done = run(["plugins", "--json", "--all"], pythonpath=dists.root)
    data = json.loads(done.stdout)  # warnings go to stderr only
    assert "PyascPluginWarning" in done.stderr
    recs = {p["name"]: p for p in data["plugins"]}
    assert data["error"] is None
    assert set(BUILTIN_PLUGINS) <= set(recs)
    assert recs["good"] == {"name": "good", "dist": "pyasc-good-pack", "version": "1.2", "kind": "entrypoint",
                            "status": "loaded", "module": "good_pack", "error": ""}
    assert recs["broken"]["status"] == "failed"
    assert recs["broken"]["error"] == "import failed: ImportError: libfoo.so.3: cannot open shared object file"
    assert recs["badhook"]["status"] == "failed"
    assert recs["badhook"]["error"] == "register failed: ValueError: bad op table"


def test_plugins_table_with_a_failed_plugin(dists):
    dists.make("pyasc-good-pack", "good_pack", GOOD, entry_name="good", version="1.2")
    dists.make("pyasc-broken", "broken_plugin", BROKEN_IMPORT, entry_name="broken", version="0.0.1")
    out = run(["plugins"], script=True, pythonpath=dists.root).stdout
    assert row(out, "good") == "good | pyasc-good-pack | 1.2 | entrypoint | loaded"
    assert row(out, "broken") == ("broken | pyasc-broken | 0.0.1 | entrypoint | failed: import failed: "
                                  "ImportError: libfoo.so.3: cannot open shared object file")
    assert "pyasc_core.builtin_ops" not in out and "--all adds built-ins" in out


def test_plugins_and_ops_show_the_installed_example_pack(example_pack_site):
    out = run(["plugins"], script=True, pythonpath=example_pack_site).stdout
    assert row(out, "example") == "example | pyasc-example-pack | 0.1.0 | entrypoint | loaded"
    out = run(["ops", "--namespace", "example"], pythonpath=example_pack_site).stdout
    assert "5 ops" in out
    op, _schema, dtypes, backends, _kernels, _runs_on, source = row(out, "example::mish").split(" | ", 6)
    assert dtypes == "f16 bf16 f32 f64" and source == "pyasc-example-pack"
    assert {"meta (composite)", "numpy (composite)"} <= set(backends.split(", "))
    assert "(Tensor x, *, float negative_slope=0.01) -> Tensor" in row(out, "example::leaky_relu")
    assert "| sim: f16 f32 |" in row(out, "example::leaky_relu")  # the pack's Ascend C kernel
    assert "pyasc::add" not in out

# ---------------------------------------------------------------------------------------------
# in-process: quick checks of the same entry point
# ---------------------------------------------------------------------------------------------


def test_plugins_without_third_party_plugins(capsys, dists):
    dists.reload()
    assert cli.main(["plugins"]) == 0
    out = capsys.readouterr().out
    assert "no third-party plugins installed (entry-point group 'pyasc')" in out
    assert cli.main(["plugins", "--all"]) == 0
    out = capsys.readouterr().out
    for name in BUILTIN_PLUGINS:
        assert name in out


def test_plugins_reports_a_conflict(capsys, dists):
    shared = """
        import pyasc

        @pyasc.hookimpl
        def pyasc_register_ops(register):
            register(pyasc.OpDef("shared::op", "(Tensor x) -> Tensor", meta=lambda x: x, reference=lambda x: x))
    """
    dists.make("pyasc-pack-a", "pack_a", shared, entry_name="a")
    dists.make("pyasc-pack-b", "pack_b", shared, entry_name="b")
    dists.reload()
    # the later plugin is marked failed (with the conflict), the rest of pyasc keeps working
    with pytest.warns(pyasc.PyascPluginWarning, match="shared::op"):
        assert cli.main(["plugins", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["error"] is None
    recs = {p["name"]: p for p in data["plugins"] if p["name"] in ("a", "b")}
    (loser,) = [p for p in recs.values() if p["status"] == "failed"]
    (winner,) = [p for p in recs.values() if p["status"] == "loaded"]
    assert "PluginConflictError: op shared::op is defined by both" in loser["error"]
    assert "pyasc-pack-a" in loser["error"] and "pyasc-pack-b" in loser["error"]
    assert cli.main(["plugins"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "failed: register failed:" in out and "error:" not in out
    assert cli.main(["ops", "--json", "--namespace", "shared"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert (row["op"], row["source"]) == ("shared::op", winner["dist"])


def test_version_and_usage(capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out.strip() == f"pyasc {pyasc.__version__}"
    with pytest.raises(SystemExit) as info:
        cli.main(["frobnicate"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'frobnicate'" in err and "info" in err and "plugins" in err
