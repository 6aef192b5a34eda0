"""The built-in cast kernels built for the Atlas inference series (Ascend310P3) convert only through that
family's Cast rows (kapi/dtype_tables.h, its Cast page table), with the same bits as the Atlas A2 build:
float -> int16 as float -> int32 CAST_TRUNC then int32 -> int16 CAST_NONE (both saturating, as A2's one
float -> int16 CAST_TRUNC), int64 -> bool from the two 32-bit words. The table lists no int64_t
conversion, so int64 -> float16 / float32 and every conversion to int64 (but int64 -> int64) are "not
supported by the SoC" (pyasc.NotOnSocError, check status soc-unsupported), as bfloat16 is. One kernel set
(the cast family) is compiled once for the module."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest

pytest.importorskip("pyasc_kernels")
pyasc_sim = pytest.importorskip("pyasc_sim")

from kernel_sets import build_kernel_dir, run_with_kernels  # noqa: E402
from pyasc_kernels import _runtime as rt  # noqa: E402

import pyasc  # noqa: E402
from pyasc_core.testing.check import check_op  # noqa: E402

# a dtype-table error (an unlisted Cast row) or any other sanitizer report fails here
pytestmark = pytest.mark.filterwarnings("error::pyasc.SanitizerWarning")


@pytest.fixture(scope="module")
def p310_dir(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    return build_kernel_dir(tmp_path_factory.mktemp("k310p_cast_routes"), ("cast",), "Ascend310P3")


def _both(p310_dir, monkeypatch, a: np.ndarray, dst: str) -> tuple[np.ndarray, np.ndarray]:
    def fn():
        t = pyasc.tensor(a, device="sim")
        pyasc.synchronize("sim")
        return t.astype(dst).numpy()

    return run_with_kernels(p310_dir, fn, monkeypatch), run_with_kernels(None, fn, monkeypatch)


@pytest.mark.parametrize("src", ["float32", "float16"])
def test_float_to_int16_saturates_through_listed_rows_as_a2(p310_dir, monkeypatch, src):
    rng = np.random.default_rng(3)
    special = [np.nan, np.inf, -np.inf, 40000.0, -40000.0, 32767.9, 32767.0, -32768.0, -32768.9, 32768.0,
               -32769.0, 0.5, -0.5, -0.0, 2.0**31, -(2.0**31), 3e38, -3e38]
    with np.errstate(over="ignore"):  # 3e38 is inf in float16
        a = np.concatenate([np.array(special), rng.standard_normal(3000) * 20000]).astype(src)
    p310, a2 = _both(p310_dir, monkeypatch, a, "int16")
    assert p310.dtype == a2.dtype == np.int16
    np.testing.assert_array_equal(p310.view(np.uint16), a2.view(np.uint16))
    # the documented rule: truncate toward zero, NaN -> 0, saturate at the int16 bounds
    f = a.astype(np.float64)
    want = np.where(np.isnan(f), 0, np.clip(np.trunc(np.nan_to_num(f, nan=0.0)), -32768, 32767)).astype(np.int16)
    np.testing.assert_array_equal(p310, want)


def test_int64_to_bool_tests_both_words_as_a2(p310_dir, monkeypatch):
    i = np.iinfo(np.int64)
    a = np.array([0, 1, -1, 1 << 32, -(1 << 32), 1 << 62, i.min, i.max, (1 << 32) - 1, 1 << 31, 7 << 40, 0],
                 dtype=np.int64)
    a = np.concatenate([a, np.random.default_rng(5).integers(-3, 3, 2000) << np.int64(33)])
    p310, a2 = _both(p310_dir, monkeypatch, a, "bool")
    np.testing.assert_array_equal(p310, a2)
    np.testing.assert_array_equal(p310, a != 0)


def test_int64_narrowings_need_no_int64_row(p310_dir, monkeypatch):
    a = np.random.default_rng(6).integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max, 1000, dtype=np.int64)
    for dst in ("int32", "int16", "int8", "uint8"):
        p310, a2 = _both(p310_dir, monkeypatch, a, dst)
        np.testing.assert_array_equal(p310, a2)
        np.testing.assert_array_equal(p310, a.astype(dst))


@pytest.fixture
def use_310p(p310_dir, monkeypatch):
    monkeypatch.setattr(rt, "kernel_dir_candidates", lambda: [str(p310_dir)])
    rt.KERNELS.clear()
    yield p310_dir
    rt.KERNELS.clear()


@pytest.mark.parametrize("src,dst", [("int64", "float32"), ("int64", "float16"), ("int32", "int64"),
                                     ("float32", "int64"), ("bool", "int64")])
def test_int64_conversions_are_not_supported_by_the_soc(use_310p, src, dst):
    x = pyasc.zeros(64, dtype=src, device="sim")
    pyasc.synchronize("sim")
    with pytest.raises(pyasc.NotOnSocError) as info:
        x.astype(dst)
    assert info.value.soc == "Ascend310P3" and "lists no int64_t conversion" in info.value.reason
    assert f"cast_{src}_{dst} is not supported by Ascend310P3" in str(info.value)
    assert pyasc.tensor(np.arange(5, dtype=np.int64), device="sim").astype("int64").numpy().tolist() == [0, 1, 2, 3, 4]
    pyasc.synchronize("sim")


def test_check_reports_the_int64_rows_soc_unsupported(use_310p):
    report = check_op("pyasc::cast", backend="sim", dtypes=["int64"])
    report.raise_for_failures()  # not a failure
    results = [r for r in report.results if r.dtype == "int64"]
    statuses = {r.status for r in results}
    # host-fallback: a target no AI Core cast kernel serves on any SoC, run by the host fallback
    assert statuses <= {"soc-unsupported", "pass", "host-fallback"} and "soc-unsupported" in statuses, statuses
    assert any(r.status == "pass" and r.runs_on for r in results), results  # int64 -> int32 etc. run
    why = [r.message for r in results if r.status == "soc-unsupported"]
    assert any("lists no int64_t conversion" in m for m in why), why
    assert all("lists no int64_t conversion" in m or "no bfloat16" in m for m in why), why  # -> bfloat16 too


def test_the_a2_kernel_set_keeps_every_int64_conversion():
    assert rt.soc_lacks("cast_int32_int64") is None or rt.kernel_soc() != rt.INSTALLED_SOC
    a = np.array([-(1 << 31), -1, 0, (1 << 31) - 1], dtype=np.int32)
    assert pyasc.tensor(a, device="sim").astype("int64").numpy().tolist() == a.astype(np.int64).tolist()
    pyasc.synchronize("sim")
