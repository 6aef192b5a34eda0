"""`pyasc check` on a kernel set built for the Atlas inference series (Ascend310P3): that family has
no bfloat16, so bfloat16 rows are "not supported by the SoC" -- neither a failure (no kernel can
exist) nor a pass -- with the reason in the table and the JSON; every other row still runs."""

from __future__ import annotations

import json
import pathlib

import pytest

pytest.importorskip("pyasc_kernels")
pyasc_sim = pytest.importorskip("pyasc_sim")

from kernel_sets import build_kernel_dir  # noqa: E402
from pyasc_kernels import _runtime as rt  # noqa: E402

import pyasc  # noqa: E402
from pyasc_core import cli  # noqa: E402
from pyasc_core.testing.check import check_op  # noqa: E402


@pytest.fixture(scope="module")
def p310_dir(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    return build_kernel_dir(tmp_path_factory.mktemp("k310p_check"), ("binary", "copy"), "Ascend310P3")


@pytest.fixture
def use_310p(p310_dir, monkeypatch):
    monkeypatch.setattr(rt, "kernel_dir_candidates", lambda: [str(p310_dir)])
    rt.KERNELS.clear()
    yield p310_dir
    rt.KERNELS.clear()


def test_bfloat16_rows_are_not_supported_by_the_soc(use_310p):
    assert rt.kernel_soc() == "Ascend310P3"
    report = check_op("add", backend="sim", dtypes=["bfloat16", "float32"])
    report.raise_for_failures()  # not a failure
    rows = {r["dtype"]: r for r in report.by_dtype()}
    bf = rows["bfloat16"]
    bf_results = [r for r in report.results if r.dtype == "bfloat16"]
    # the passes are samples that only move bytes (16-bit copies exist on every SoC) or run nothing
    ran = [r for r in bf_results if r.status == "pass" and r.runs_on]
    assert bf["status"] == ("pass, partly not supported by the SoC" if ran else "not supported by the SoC"), bf
    assert bf["soc_unsupported"] > bf["passed"] and bf["failed"] == 0 and bf["no_kernel"] == 0, bf
    assert bf["passed"] == sum(r.status == "pass" for r in bf_results)
    assert "not supported by Ascend310P3" in bf["why"] and "no bfloat16" in bf["why"], bf["why"]
    assert rows["float32"]["status"] == "pass" and rows["float32"]["passed"] == rows["float32"]["samples"]
    statuses = {r.status for r in report.results if r.dtype == "bfloat16"}
    assert "soc-unsupported" in statuses and statuses <= {"soc-unsupported", "pass"}, statuses


def test_the_error_names_the_soc_and_the_reason(use_310p):
    a = pyasc.ones(64, dtype="bfloat16", device="sim")
    with pytest.raises(pyasc.NotOnSocError) as info:
        a + a
    assert info.value.soc == "Ascend310P3" and "no bfloat16" in info.value.reason
    assert isinstance(info.value, pyasc.KernelNotFoundError)  # what older handlers catch
    pyasc.synchronize("sim")


def test_an_a2_kernel_set_without_a_bfloat16_kernel_is_still_no_kernel(tmp_path, monkeypatch):
    # a kernel set without the SOC file is the installed (Atlas A2) one: a missing bfloat16 kernel there
    # is a real gap and fails
    build_kernel_dir(tmp_path, ("copy",), "Ascend310P3")
    (tmp_path / rt.SOC_FILE).unlink()
    monkeypatch.setattr(rt, "kernel_dir_candidates", lambda: [str(tmp_path)])
    rt.KERNELS.clear()
    try:
        assert rt.kernel_soc() == rt.INSTALLED_SOC
        assert rt.soc_lacks("binary_add_bfloat16") is None
    finally:
        rt.KERNELS.clear()


def test_pyasc_check_table_and_json(use_310p, tmp_path, capsys):
    out = tmp_path / "check.json"
    rc = cli.main(["check", "--backend", "sim", "--op", "add", "--dtype", "bfloat16", "--dtype", "float32",
                   "--no-opcheck", "--json", str(out)])
    text = capsys.readouterr().out
    assert rc == 0, text
    assert "not supported by the SoC" in text and "samples not supported by the SoC" in text, text
    payload = json.loads(out.read_text())
    assert payload["ok"] is True and payload["soc_unsupported"] > 0
    rows = {r["dtype"]: r for r in payload["ops"][0]["summary"]}
    assert "not supported by the SoC" in rows["bfloat16"]["status"] and rows["bfloat16"]["soc_unsupported"] > 0
    assert any(r["status"] == "soc-unsupported" and "not supported by Ascend310P3" in r["message"]
               for r in payload["ops"][0]["results"])


def test_an_unknown_kernel_soc_is_refused(monkeypatch):
    monkeypatch.setenv("PYASC_SIM_KERNEL_SOC", "Ascend999X")
    with pytest.raises(pyasc.EnvironmentSettingError, match=r"PYASC_SIM_KERNEL_SOC='Ascend999X' .*Ascend310P3"):
        rt.kernel_dir_candidates()
    monkeypatch.setenv("PYASC_SIM_KERNEL_SOC", rt.INSTALLED_SOC)  # the installed set itself: no build
    assert rt.kernel_dir_candidates() == [p + "/kernels" for p in pyasc_sim.__path__]


def test_a_kernel_set_is_keyed_by_its_optimisation_flag(tmp_path, monkeypatch):
    """PYASC_SIM_KERNEL_SOC's kernel set builds at PYASC_SIM_OPT's level: a set built at another level is
    another directory of the cache (never handed out for this one), the same level reuses its set."""
    monkeypatch.setenv("PYASC_CACHE_DIR", str(tmp_path / "cache"))
    built = []

    def fake_build(directory, soc, families=()):
        pathlib.Path(directory).mkdir(parents=True)
        (pathlib.Path(directory) / rt.SOC_FILE).write_text(soc + "\n")
        built.append(directory)
        return directory

    monkeypatch.setattr(rt, "build_kernel_set", fake_build)
    monkeypatch.setattr(rt, "_SETS", {})
    dirs = []
    for opt in ("-O1", "-O2", "-O1"):
        monkeypatch.setenv("PYASC_SIM_OPT", opt)
        rt._SETS.clear()
        dirs.append(rt.kernel_set_dir("Ascend310P3"))
    assert dirs[0] != dirs[1] and dirs[0] == dirs[2], dirs
    assert built == dirs[:2]


def test_a_row_of_only_soc_unsupported_samples_is_not_a_pass():
    from pyasc_core.testing.check import CheckReport, SampleResult

    why = "not supported by Ascend310P3: no bfloat16"
    only = CheckReport("pyasc::exp", "sim", "numpy", [
        SampleResult("bfloat16", "shape (0,)", "pass"),  # empty: nothing ran
        SampleResult("bfloat16", "shape (5,)", "soc-unsupported", why)])
    row = only.by_dtype()[0]
    assert row["status"] == "not supported by the SoC" and row["why"] == why and only.ok
    mixed = CheckReport("pyasc::cast", "sim", "numpy", [
        SampleResult("float32", "-> float16", "pass", runs_on="AI Core"),
        SampleResult("float32", "-> bfloat16", "soc-unsupported", why)])
    assert mixed.by_dtype()[0]["status"] == "pass, partly not supported by the SoC"
    failing = CheckReport("pyasc::exp", "sim", "numpy", [
        SampleResult("bfloat16", "shape (5,)", "soc-unsupported", why),
        SampleResult("bfloat16", "shape (6,)", "no-kernel", "no kernel")])
    assert failing.by_dtype()[0]["status"] == "no kernel" and not failing.ok


def test_the_expected_missing_list_neither_needs_nor_flags_soc_rows():
    # issue 10 point 6: only missing kernels are listed; a dtype the SoC lacks is not a missing kernel
    from pyasc_core.testing.check import CheckReport, SampleResult, _check_listing
    from pyasc_core.testing.missing import as_expected_missing

    why = "not supported by Ascend310P3: no bfloat16"
    rep = CheckReport("pyasc::exp", "sim", "numpy", [SampleResult("bfloat16", "shape (5,)", "soc-unsupported", why)])
    _check_listing(rep, as_expected_missing([("pyasc::exp", "bfloat16", "sim")]), {"bfloat16"})
    assert rep.ok and [r.status for r in rep.results] == ["soc-unsupported"]
    _check_listing(rep, as_expected_missing(None), {"bfloat16"})
    assert rep.ok
