"""`pyasc check` cannot go green by accident (issue 10, point 6): a missing kernel fails unless
allowed or listed in an expected-missing list (enforced exactly: a listed kernel that
exists fails too), a raising sample is a failing row and the run goes on, attributes are sampled
over several values (a kernel ignoring one on its tail tile is caught), and every pass says why.

The ops and the ``holey`` backend come from tests/trust_pack.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import pytest

import pyasc
from pyasc.testing import MismatchError, check_op, compare, sample_inputs, tolerances
from pyasc_core import plugins
from pyasc_core.errors import OpRegistrationError
from pyasc_core.testing.missing import (
    ExpectedMissingListError,
    _parse_minimal,
    load_expected_missing,
    parse_expected_missing,
)

import trust_pack


@pytest.fixture
def trust():
    plugins.register(trust_pack, "trust-pack")
    try:
        yield
    finally:
        plugins.unregister(trust_pack)


# -- missing kernels ----------------------------------------------------------------------------

def test_a_missing_kernel_fails_and_shows_no_kernel_not_zeros(trust):
    report = check_op("mul", backend="holey", dtypes=["float32"], expected_missing=[])
    assert not report.ok
    assert {r.status for r in report.results} == {"no-kernel"}
    assert "has no kernel for backend 'holey'" in report.results[0].message
    (row,) = report.by_dtype()
    assert row["status"] == "no kernel" and row["no_kernel"] == row["samples"] > 0
    assert row["max_abs"] is None and row["max_rel"] is None and row["max_ulp"] is None
    with pytest.raises(MismatchError, match=r"(?s)pyasc::mul on holey vs numpy: 0 of \d+ samples pass.*no-kernel"):
        report.raise_for_failures()


def test_allow_missing_tolerates_a_missing_kernel(trust):
    report = check_op("mul", backend="holey", dtypes=["float32"], allow_missing=True)
    assert report.ok
    assert {r.status for r in report.results} == {"missing-allowed"}
    assert "tolerated: --allow-missing" in report.results[0].message
    assert report.by_dtype()[0]["status"] == "missing (allowed)"
    report.raise_for_failures()


def test_a_listed_missing_kernel_passes_and_an_unlisted_one_fails(trust):
    listed = [("pyasc::mul", "float32", "holey")]
    assert check_op("mul", backend="holey", dtypes=["float32"], expected_missing=listed).ok
    # listed for float32 only: float16 has no kernel either and is not listed
    report = check_op("mul", backend="holey", dtypes=["float32", "float16"], expected_missing=listed)
    rows = {r["dtype"]: r["status"] for r in report.by_dtype()}
    assert rows == {"float16": "no kernel", "float32": "missing (allowed)"}
    assert not report.ok
    # and for another backend the entry does not apply
    assert not check_op("mul", backend="holey", dtypes=["float32"],
                        expected_missing=[("pyasc::mul", "float32", "sim")]).ok


def test_a_listed_kernel_that_exists_fails_so_the_list_only_shrinks(trust):
    report = check_op("add", backend="holey", dtypes=["float32"],
                      expected_missing=[("pyasc::add", "float32", "holey")])
    assert not report.ok
    stale = [r for r in report.results if r.status == "listed-but-present"]
    assert len(stale) == 1
    assert "lists (pyasc::add, float32, holey) as having no kernel" in stale[0].message
    assert "found a kernel: delete the entry (the list only shrinks)" in stale[0].message
    (row,) = report.by_dtype()
    assert row["status"] == "listed but present" and row["passed"] == row["samples"]
    with pytest.raises(MismatchError, match="delete the entry"):
        report.raise_for_failures()
    # a listed dtype outside the run (--dtype) is not judged
    assert check_op("add", backend="holey", dtypes=["float16"],
                    expected_missing=[("pyasc::add", "float32", "holey")]).ok


def test_a_listed_dtype_the_op_does_not_take_fails_too(trust):
    report = check_op("trust::boom", backend="holey", expected_missing=[("trust::boom", "int8", "holey")])
    stale = [r for r in report.results if r.status == "listed-but-present"]
    assert stale and "has no int8 sample on holey" in stale[0].message


def test_pyasc_keeps_no_expected_missing_list():
    # issue 11: every built-in op runs every dtype on the device backends, so the list is gone
    import pyasc_core.testing.missing as missing

    assert not hasattr(missing, "EXPECTED_MISSING_FILE")
    lst = load_expected_missing()
    assert not lst.entries and lst.source == "no list"


def test_an_op_packs_list_parses_the_same_without_tomllib(tmp_path):
    text = '[sim]\n"trust::boom" = ["int8", "int64"]\n'
    path = tmp_path / "missing.toml"
    path.write_text(text)
    lst = load_expected_missing(path)
    assert lst.entries == {("trust::boom", "int8", "sim"), ("trust::boom", "int64", "sim")}
    minimal = _parse_minimal(text, "x")
    assert {(op, d, b) for b, t in minimal.items() for op, ds in t.items() for d in ds} == set(lst.entries)


@pytest.mark.parametrize(("text", "match"), [
    ('[sim]\n"pyasc::add" = ["int65"]\n', "'int65', which is not a dtype"),
    ('[sim]\n"add" = ["int8"]\n', "must be namespaced"),
    ('[sim]\n"pyasc::add" = []\n', "must list dtype names"),
    ('"pyasc::add" = ["int8"]\n', "must be a table"),
    ("[sim\n", "not valid TOML"),
])
def test_a_bad_list_is_a_clear_error(text, match):
    with pytest.raises(ExpectedMissingListError, match=match):
        parse_expected_missing(text, "my.toml")


def test_a_listed_op_that_no_longer_exists_fails_a_run_of_every_op():
    from pyasc_core.cli import _unknown_listed

    lst = parse_expected_missing('[sim]\n"gone::op" = ["int8"]\n"pyasc::add" = ["int8"]\n', "my.toml")
    (msg,) = _unknown_listed(lst, "sim", None)
    assert msg == ("my.toml lists gone::op on sim, which is not a registered op: delete the entry "
                   "(the list only shrinks)")
    assert _unknown_listed(lst, "sim", ["add"]) == []  # a run of some ops cannot tell
    assert _unknown_listed(lst, "holey", None) == []


def test_a_missing_list_file_is_a_clear_error(tmp_path):
    with pytest.raises(ExpectedMissingListError, match="cannot read the expected-missing kernel list"):
        load_expected_missing(tmp_path / "nope.toml")


# -- samples that raise -------------------------------------------------------------------------

def test_a_raising_sample_is_a_failing_row_and_the_next_samples_run(trust):
    report = check_op("trust::boom", backend="holey")
    by_desc = {r.desc: r for r in report.results}
    bad = by_desc["shape (33,)"]
    assert bad.status == "error" and bad.failed
    assert "ZeroDivisionError: the kernel divided by zero on 33 elements" in bad.message
    assert by_desc["shape (8,)"].status == "pass"
    assert not report.ok
    with pytest.raises(MismatchError, match=r"(?s)\[float32\] shape \(33,\): error.*ZeroDivisionError"):
        report.raise_for_failures()


def test_a_wrong_shape_is_a_failing_row(trust):
    report = check_op("trust::badshape", backend="holey")
    by_desc = {r.desc: r for r in report.results}
    assert by_desc["shape (3, 5)"].status == "fail"
    assert "shape mismatch: actual (14,), expected (3, 5)" in by_desc["shape (3, 5)"].message
    assert by_desc["shape (7,)"].status == "pass"


# -- attribute sampling -------------------------------------------------------------------------

def test_attributes_are_sampled_over_three_values(trust):
    samples = sample_inputs("trust::axpy")
    alphas = {s.kwargs["alpha"] for s in samples}
    assert len(alphas) >= 3 and 1.0 in alphas
    # the variants use the largest sample, which has a tail tile
    varied = [s for s in samples if s.kwargs["alpha"] != 1.0]
    assert varied and all(s.args[0].size % trust_pack.TILE for s in varied)
    assert all(" [alpha=" in s.desc for s in varied)


def test_a_kernel_ignoring_an_attribute_on_its_tail_tile_is_caught(trust):
    report = check_op("trust::axpy", backend="holey")
    assert not report.ok
    failing = report.failures
    assert failing and all(" [alpha=" in r.desc for r in failing)
    assert all(r.status == "fail" for r in failing)
    # at the default alpha the bug cannot show: those samples pass
    assert all(r.status == "pass" for r in report.results if " [alpha=" not in r.desc)


def test_declared_attribute_values_are_sampled_and_validated():
    from pyasc_core.registry import REGISTRY

    REGISTRY.ensure()
    norm = REGISTRY.op("pyasc::layer_norm")
    assert norm.attr_values["eps"] == (0.5, 4.0)
    eps = {s.kwargs.get("eps", 1e-5) for s in sample_inputs(norm, dtypes=["float32"])}
    assert {1e-5, 0.5, 4.0} <= eps
    with pytest.raises(OpRegistrationError, match="attr_values names 'alpha', which is not an attribute"):
        pyasc.OpDef("t10::x", "(Tensor x, *, float eps=1.0) -> Tensor", meta=lambda x, eps: x,
                    reference=lambda x, eps: x, attr_values={"alpha": (1.0,)})
    with pytest.raises(OpRegistrationError, match=r"attr_values\['eps'\].*must be float"):
        pyasc.OpDef("t10::x", "(Tensor x, *, float eps=1.0) -> Tensor", meta=lambda x, eps: x,
                    reference=lambda x, eps: x, attr_values={"eps": ("big",)})


# -- why a pass passed --------------------------------------------------------------------------

def test_passing_rows_explain_themselves(trust):
    report = check_op("add", backend="holey", dtypes=["float32"])
    assert report.ok
    assert all(r.why for r in report.results if r.status == "pass")
    (row,) = report.by_dtype()
    assert row["why"] == "exact; nan/inf positions match"


def test_relative_error_is_measured_where_it_means_something():
    # expected 0, actual within atol: the relative error there would be inf
    c = compare(np.array([1e-7, 2.0], np.float32), np.array([0.0, 2.0], np.float32))
    assert c.ok and c.max_rel == 0.0 and c.max_ulp == 0 and c.rel_elements == 1
    assert c.why() == "within rtol 1.3e-06, atol 1e-05 (torch.testing default)"
    # tiny expected values pass by atol: the why says atol governs there
    c = compare(np.array([2e-5], np.float32), np.array([1.5e-5], np.float32))
    assert c.ok and c.max_rel > c.rtol
    assert "atol governs where |expected| < 7.69" in c.why()
    assert compare(np.array([1.0, np.nan, np.inf]), np.array([1.0, np.nan, np.inf])).why() == \
        "exact; nan/inf positions match (2)"
    assert compare(np.array([3], np.int32), np.array([3], np.int32)).why() == "exact"
    assert "(given by the caller)" in compare(np.array([1.0]), np.array([1.01]), rtol=0.1, atol=0.0).why()
    with tolerances({"float32": (0.1, 0.0)}):
        assert "(a tolerances block)" in compare(np.array([1.0], np.float32), np.array([1.01], np.float32)).why()
    assert compare(np.array([1.0]), np.array([2.0])).why() == ""


# -- the command and the pytest marker, in child processes ---------------------------------------

def run_pyasc(*args: str, env_extra: dict | None = None) -> subprocess.CompletedProcess:
    """The CLI in a child process, outside the checkout (whose pyasc_core is uncompiled)."""
    env = dict(os.environ)
    env.pop("PYASC_BACKEND", None)
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-m", "pyasc_core.cli", *args], capture_output=True,
                          text=True, env=env, timeout=300, cwd=tempfile.gettempdir())


@pytest.fixture
def trust_env(dists):
    dists.make("trust-pack", "trust_pack_plugin", trust_pack.SOURCE)
    return {"PYTHONPATH": str(dists.root)}


def test_cli_missing_kernel_fails_with_a_no_kernel_row(trust_env, tmp_path):
    empty = tmp_path / "empty.toml"
    empty.write_text("# nothing is expected to be missing\n")
    out = tmp_path / "r.json"
    proc = run_pyasc("check", "--backend", "holey", "--op", "add", "--op", "mul", "--dtype", "float32",
                     "--expected-missing", str(empty), "--json", str(out), env_extra=trust_env)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "no kernel" in proc.stdout and "all passed" not in proc.stdout
    assert "samples with no kernel on holey" in proc.stdout and "--allow-missing" in proc.stdout
    data = json.loads(out.read_text())
    by_op = {o["op"]: o for o in data["ops"]}
    (row,) = by_op["pyasc::mul"]["summary"]
    assert row["status"] == "no kernel" and row["max_abs"] is None
    assert by_op["pyasc::add"]["ok"] is True and data["ok"] is False
    # --allow-missing: the same run passes, and says how many had no kernel
    proc = run_pyasc("check", "--backend", "holey", "--op", "add", "--op", "mul", "--dtype", "float32",
                     "--allow-missing", env_extra=trust_env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "all passed" in proc.stdout and "have no kernel on holey, allowed by --allow-missing" in proc.stdout


def test_cli_enforces_the_list_exactly(trust_env, tmp_path):
    lst = tmp_path / "missing.toml"
    lst.write_text('[holey]\n"pyasc::mul" = ["float32"]\n')
    proc = run_pyasc("check", "--backend", "holey", "--op", "add", "--op", "mul", "--dtype", "float32",
                     "--expected-missing", str(lst), env_extra=trust_env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lst.write_text('[holey]\n"pyasc::mul" = ["float32"]\n"pyasc::add" = ["float32"]\n')
    out = tmp_path / "r.json"
    proc = run_pyasc("check", "--backend", "holey", "--op", "add", "--op", "mul", "--dtype", "float32",
                     "--expected-missing", str(lst), "--json", str(out), env_extra=trust_env)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "listed missing, has a kernel" in proc.stdout and "delete the entry" in proc.stdout
    assert json.loads(out.read_text())["ok"] is False


def test_cli_a_sanitizer_error_is_a_row_and_the_run_goes_on(trust_env, tmp_path):
    from ascendc_kernels import kernel_path

    env = dict(trust_env, TRUST_SANITIZER_BINARY=kernel_path("sanitizer.cpp"))
    out = tmp_path / "r.json"
    proc = run_pyasc("check", "--backend", "sim", "--op", "trust::addone", "--op", "add", "--dtype", "float32",
                     "--json", str(out), env_extra=env)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    text = proc.stdout
    assert "pyasc check: sim vs numpy" in text and "FAIL 1" in text
    assert "shape (3, 64): block 1 reads past its tensor: error" in text
    data = json.loads(out.read_text())
    by_op = {o["op"]: o for o in data["ops"]}
    res = {r["desc"]: r for r in by_op["trust::addone"]["results"]}
    bad = res["shape (3, 64): block 1 reads past its tensor"]
    assert bad["status"] == "error"
    assert "gm-out-of-bounds" in bad["message"] and "507015" in bad["message"]
    # the device's sticky error was cleared: the next sample and the next op ran and passed
    assert res["shape (192,)"]["status"] == "pass"
    assert by_op["pyasc::add"]["ok"] is True


def test_cli_an_op_whose_check_raises_is_a_row(trust_env, tmp_path):
    out = tmp_path / "r.json"
    proc = run_pyasc("check", "--backend", "holey", "--op", "trust::boom", "--op", "trust::badshape",
                     "--op", "add", "--dtype", "float32", "--allow-missing", "--json", str(out),
                     env_extra=trust_env)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    data = json.loads(out.read_text())
    assert [o["op"] for o in data["ops"]] == ["trust::boom", "trust::badshape", "pyasc::add"]
    assert data["ops"][2]["ok"] is True
    assert "ZeroDivisionError" in proc.stdout and "shape mismatch" in proc.stdout


def test_pytest_marker_fails_a_missing_kernel(pytester):
    pytester.makepyfile(trust_pack_plugin=trust_pack.SOURCE)
    pytester.makeconftest(
        "import trust_pack_plugin\n"
        "from pyasc_core import plugins\n"
        "plugins.register(trust_pack_plugin, 'trust')\n"
    )
    pytester.makepyfile(
        """
        import pytest
        import pyasc

        @pytest.mark.pyasc_ops("add", "mul")
        def test_op(op, backend):
            pyasc.testing.check_op(op, backend, dtypes=["float32"]).raise_for_failures()
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-v", "--pyasc-backend", "holey")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines([
        "*test_op?backend=holey-pyasc::add? PASSED*",
        "*test_op?backend=holey-pyasc::mul? FAILED*",
        "*shape (1,): no-kernel*",
    ])


def test_cli_an_ignored_attribute_is_a_failing_row(trust_env, tmp_path):
    out = tmp_path / "r.json"
    proc = run_pyasc("check", "--backend", "holey", "--op", "trust::axpy", "--json", str(out),
                     env_extra=trust_env)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "FAIL" in proc.stdout and "[alpha=" in proc.stdout
    (op,) = json.loads(out.read_text())["ops"]
    failing = [r for r in op["results"] if r["status"] == "fail"]
    assert failing and all("[alpha=" in r["desc"] for r in failing)


@pytest.mark.parametrize("name", ["gelu", "tanh"])
def test_sim_rows_that_pass_have_finite_errors_and_say_why(name):
    # these once passed showing max rel err inf (gelu) and 1 (tanh) with nothing explaining why
    report = check_op(name, backend="sim", dtypes=["float32", "float16"])
    assert report.ok
    for row in report.by_dtype():
        assert row["status"] == "pass"
        assert np.isfinite(row["max_rel"]) and row["max_rel"] < 0.1, row
        assert row["why"], row
        if row["max_rel"] > pyasc.testing.tolerance(row["dtype"])[0]:
            assert "atol governs where |expected| <" in row["why"], row
