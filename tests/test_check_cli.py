"""`pyasc check` and `pyasc bench`, run as real commands."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

import pytest

def run_pyasc(*args: str, env_extra: dict | None = None) -> subprocess.CompletedProcess:
    """Run the CLI in a child process, outside the checkout (whose pyasc_core is uncompiled)."""
    env = dict(os.environ)
    env.pop("PYASC_BACKEND", None)
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-m", "pyasc_core.cli", *args], capture_output=True,
                          text=True, env=env, timeout=300, cwd=tempfile.gettempdir())


@pytest.fixture
def twin_env(dists):
    import twin_backend  # numpy with a wrong mul kernel

    dists.make("twin-backend", "twin_backend_plugin", twin_backend.SOURCE)
    return {"PYTHONPATH": str(dists.root)}


def test_check_passes_and_writes_json(twin_env, tmp_path):
    out = tmp_path / "report.json"
    # twin's add and softmax are numpy's own kernels (only its mul is wrong)
    proc = run_pyasc("check", "--backend", "twin", "--op", "add", "--op", "soft*", "--dtype", "float32",
                     "--dtype", "float16", "--json", str(out), env_extra=twin_env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "pyasc check: twin vs numpy (seed 0)" in proc.stdout
    assert "2 ops, 58 samples on twin: all passed" in proc.stdout
    data = json.loads(out.read_text())
    assert data["ok"] is True and data["backend"] == "twin"
    assert [o["op"] for o in data["ops"]] == ["pyasc::add", "pyasc::softmax"]
    dtypes = {row["dtype"] for o in data["ops"] for row in o["summary"]}
    assert dtypes == {"float16", "float32"}


def test_check_catches_a_wrong_kernel_and_exits_nonzero(twin_env, tmp_path):
    out = tmp_path / "twin.json"
    proc = run_pyasc("check", "--backend", "twin", "--op", "mul", "--op", "add",
                     "--dtype", "float32", "--json", str(out), env_extra=twin_env)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    text = proc.stdout
    assert "pyasc check: twin vs numpy" in text
    assert "FAIL" in text
    assert "pyasc::mul on twin vs numpy:" in text
    assert "elements differ beyond rtol=1.3e-06, atol=1e-05 (float32)" in text
    assert "at index" in text and "max ULP distance" in text
    data = json.loads(out.read_text())
    by_op = {o["op"]: o for o in data["ops"]}
    assert by_op["pyasc::add"]["ok"] is True
    assert by_op["pyasc::mul"]["ok"] is False
    failing = [r for r in by_op["pyasc::mul"]["results"] if r["status"] == "fail"]
    assert failing and failing[0]["comparison"]["max_abs"] > 0


@pytest.mark.parametrize(("args", "env", "given"), [
    (("--backend", "numpy"), {}, "given as --backend numpy"),
    (("--backend", "reference"), {}, "given as --backend reference"),  # an alias of the reference
    (("--backend", "numpy", "--reference", "reference"), {}, "reference (an alias of numpy)"),
    ((), {"PYASC_BACKEND": "numpy"}, "the current backend"),
])
def test_check_refuses_to_compare_a_backend_with_itself(args, env, given):
    proc = run_pyasc("check", "--op", "add", *args, env_extra=env)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    err = proc.stderr
    assert "pyasc check: error: the backend to check, numpy" in err and "is the reference" in err
    assert given in err
    assert "proves nothing" in err and "--backend sim" in err and "--reference NAME" in err
    assert "all passed" not in proc.stdout


def test_check_unknown_op_is_a_clear_error():
    proc = run_pyasc("check", "--op", "softmaxx")
    assert proc.returncode == 2
    assert "no op matches 'softmaxx'" in proc.stderr and "Did you mean 'pyasc::softmax'" in proc.stderr


def test_bench_prints_throughput_and_ratio():
    proc = run_pyasc("bench", "--op", "add", "--op", "matmul", "--size", "4096",
                     "--min-time", "0.005")
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout
    assert "pyasc::add" in text and "pyasc::matmul" in text
    assert "GB/s" in text and "GFLOP/s" in text and "vs numpy" in text
    assert "(4096,)" in text
