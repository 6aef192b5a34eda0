"""Issue 11: every dtype works on every device backend. Storage of every dtype; the simulated AI
CPU (ACL's AI CPU loading, stream order, cost, faults); built-in ops routed AI Core -> AI CPU ->
host fallback; PYASC_FALLBACK / set_fallback; where each op and dtype runs (pyasc ops)."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings

import numpy as np
import pytest

import pyasc
from pyasc_core import placement

@pytest.fixture(autouse=True)
def _sim():
    with pyasc.using_backend("sim"):
        yield
    pyasc.synchronize("sim")


ALL = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64"]


@pytest.mark.parametrize("name", ALL)
def test_every_dtype_is_stored_on_sim(name):
    host = np.arange(7).astype(pyasc.dtype(name))
    t = pyasc.from_numpy(host, device="sim")
    assert t.dtype == pyasc.dtype(name) and str(t.device) == "sim:0"
    np.testing.assert_array_equal(t.numpy(), host)
    np.testing.assert_array_equal(t[2:5].numpy(), host[2:5])
    np.testing.assert_array_equal(pyasc.zeros((3,), dtype=name, device="sim").numpy(), np.zeros(3, host.dtype))


def test_the_issue_examples_work_on_the_default_backend():
    # the three examples of the issue and the seed example, as a new user types them
    assert (pyasc.tensor([1, 2]) + 1).numpy().tolist() == [2, 3]
    f = pyasc.tensor([1, 2]).astype("float32")
    assert f.dtype == pyasc.float32 and f.numpy().tolist() == [1.0, 2.0]
    assert (pyasc.arange(4) + 1).numpy().tolist() == [1, 2, 3, 4]
    seed = pyasc.Tensor(np.array([1.0, 2.0, 3.0]))
    assert seed.dtype == pyasc.float64 and str(seed.device) == "sim:0"
    assert (seed * 2).numpy().tolist() == [2.0, 4.0, 6.0]


def test_int64_and_float64_ops_run_on_the_ai_cpu_and_match_numpy():
    before = placement.snapshot()
    a = np.array([[1, -2, 3], [2**40, 5, -6]], np.int64)
    x = pyasc.from_numpy(a, device="sim")
    np.testing.assert_array_equal((x * 3 - 1).numpy(), a * 3 - 1)
    np.testing.assert_array_equal(x.sum(axis=1).numpy(), a.sum(axis=1))
    np.testing.assert_array_equal(pyasc.matmul(x, x.T).numpy(), a @ a.T)
    d = np.linspace(-2, 2, 12).reshape(3, 4)
    y = pyasc.from_numpy(d, device="sim")
    np.testing.assert_allclose(pyasc.softmax(y).numpy(), np.exp(d) / np.exp(d).sum(-1, keepdims=True), rtol=1e-12)
    np.testing.assert_allclose(pyasc.exp(y).numpy(), np.exp(d), rtol=1e-15)
    after = placement.snapshot()
    assert after[placement.AICPU] > before[placement.AICPU]
    assert after[placement.HOST] == before[placement.HOST]


def test_an_ai_core_kernel_wins_over_the_ai_cpu():
    before = placement.snapshot()
    out = pyasc.tensor([1.0, 2.0]) + 1.0  # float32: the AI Core kernel
    assert out.numpy().tolist() == [2.0, 3.0]
    after = placement.snapshot()
    assert after[placement.AICORE] == before[placement.AICORE] + 1
    assert after[placement.AICPU] == before[placement.AICPU]


def test_pyasc_ops_shows_where_each_dtype_runs(capsys):
    from pyasc_core import cli

    assert cli.main(["ops", "--json"]) == 0
    rows = {r["op"]: r for r in json.loads(capsys.readouterr().out)}
    add = rows["pyasc::add"]["runs_on"]["sim"]
    assert add["float32"] == "AI Core" and add["int64"] == "AI CPU" and add["float64"] == "AI CPU"
    for r in rows.values():  # no built-in op has a dtype that runs nowhere on sim
        if r["op"].startswith("pyasc::") and "sim" in r["runs_on"]:
            assert "none" not in r["runs_on"]["sim"].values() and "host fallback" not in r["runs_on"]["sim"].values()


# -- the host fallback (an NPU install without an AI CPU library), exercised on the simulator ---------

@pytest.fixture()
def no_aicpu(monkeypatch):
    from pyasc_kernels import aicpu

    monkeypatch.setitem(aicpu.AVAILABLE, "sim", False)
    monkeypatch.setattr(placement, "_warned", set())
    yield
    pyasc.set_fallback("warn")
    placement._mode = None


def test_without_an_ai_cpu_library_ops_fall_back_to_the_host_with_one_warning(no_aicpu):
    x = pyasc.tensor([1, 2, 3])
    before = placement.snapshot()
    with pytest.warns(pyasc.FallbackWarning, match="pyasc::add runs on the host on sim"):
        assert (x + 1).numpy().tolist() == [2, 3, 4]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # once per op and backend
        assert (x + 2).numpy().tolist() == [3, 4, 5]
    assert placement.snapshot()[placement.HOST] == before[placement.HOST] + 2
    out = x + 1
    assert str(out.device) == "sim:0" and out.dtype == pyasc.int64


def test_fallback_error_mode_raises_and_silent_mode_is_quiet(no_aicpu):
    x = pyasc.tensor([1.0, 2.0], dtype="float64")
    pyasc.set_fallback("error")
    with pytest.raises(pyasc.KernelNotFoundError, match="set_fallback is 'error'"):
        pyasc.exp(x)
    pyasc.set_fallback("silent")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_allclose(pyasc.exp(x).numpy(), np.exp([1.0, 2.0]))
    assert pyasc.get_fallback() == "silent"


def test_a_host_fallback_sample_is_never_a_kernel_pass(no_aicpu):
    from pyasc.testing import check_op

    pyasc.set_fallback("silent")
    report = check_op("pyasc::neg", backend="sim", dtypes=["int64"])
    assert report.results and all(r.status == "host-fallback" for r in report.results)
    assert all(r.runs_on == "host fallback" for r in report.results)
    row = report.by_dtype()[0]
    assert row["status"] == "host fallback" and row["passed"] == 0 and row["host_fallback"] == row["samples"]


@pytest.mark.parametrize("bad", ["loud", "", 3, None])
def test_set_fallback_refuses_bad_modes(bad):
    with pytest.raises(pyasc.ArgumentError, match="must be one of error, warn, silent"):
        pyasc.set_fallback(bad)


def test_a_bad_pyasc_fallback_setting_is_a_typed_error(monkeypatch):
    monkeypatch.setattr(placement, "_mode", None)
    monkeypatch.setenv("PYASC_FALLBACK", "sometimes")
    with pytest.raises(pyasc.EnvironmentSettingError, match="PYASC_FALLBACK must be one of error, warn, silent"):
        pyasc.get_fallback()
    monkeypatch.setenv("PYASC_FALLBACK", "Error")
    assert pyasc.get_fallback() == "error"


# -- the simulated AI CPU through the ACL binding ------------------------------------------------------

AICPU_SOURCE = r'''
#include <cstdint>
#include <cstring>
extern "C" __attribute__((visibility("default"))) uint32_t scale2(void *args) {
    const uint64_t *a = static_cast<const uint64_t *>(args);
    const int64_t *x = reinterpret_cast<const int64_t *>(a[0]);
    int64_t *out = reinterpret_cast<int64_t *>(a[1]);
    for (uint64_t i = 0; i < a[2]; ++i) out[i] = 2 * x[i];
    return 0;
}
extern "C" __attribute__((visibility("default"))) uint32_t refuses(void *) { return 7; }
extern "C" __attribute__((visibility("default"))) uint32_t faults(void *args) {
    const uint64_t *a = static_cast<const uint64_t *>(args);
    *reinterpret_cast<volatile int *>(a[0]) = 1;  // address 8: not memory
    return 0;
}
'''


@pytest.fixture(scope="module")
def aicpu_lib(tmp_path_factory):
    d = tmp_path_factory.mktemp("aicpu")
    src = d / "mine.cpp"
    src.write_text(AICPU_SOURCE)
    lib = d / "mine.so"
    subprocess.run(["g++", "-std=c++17", "-O1", "-shared", "-fPIC", "-fvisibility=hidden", "-o", str(lib), str(src)],
                   check=True)
    return lib


def test_an_ai_cpu_library_loads_and_runs_in_stream_order(aicpu_lib):
    import pyasc_acl
    from pyasc_acl.kernels import Binary, launch

    binary = Binary(aicpu_lib, "sim", cpu_kernel_mode=1)
    assert binary._raw.aicpu
    fn = binary.function("scale2")
    x = pyasc.arange(1000, dtype="int64", device="sim")
    y = x + 1  # queued work before the AI CPU task
    out = pyasc.empty((1000,), dtype="int64", device="sim")
    launch(fn, 1, (y, out, 1000))
    np.testing.assert_array_equal(out.numpy(), 2 * (np.arange(1000) + 1))
    # the .json op info file of ACL's mode 1 names the library beside it
    json_path = aicpu_lib.with_suffix(".json")
    json_path.write_text("{}")
    assert Binary(json_path, "sim", cpu_kernel_mode=1).function("scale2") is not None
    with pytest.raises(pyasc.ArgumentError, match="cpu_kernel_mode must be 0, 1 or 2"):
        Binary(aicpu_lib, "sim", cpu_kernel_mode=5)
    assert pyasc_acl is not None


def test_ai_cpu_time_is_costed_with_the_ai_cpu_figures(aicpu_lib):
    from pyasc_acl.kernels import Binary, launch

    fn = Binary(aicpu_lib, "sim", cpu_kernel_mode=1).function("scale2")
    x = pyasc.arange(16, dtype="int64", device="sim")
    out = pyasc.empty((16,), dtype="int64", device="sim")
    start, end = pyasc.Event(enable_timing=True), pyasc.Event(enable_timing=True)
    start.record()
    launch(fn, 1, (x, out, 16))
    end.record()
    end.synchronize()
    assert start.elapsed_time(end) >= 0.02  # ms: at least the profile's AI CPU task cost (20 us)


def test_ai_cpu_errors_and_faults_are_reported_like_ai_core_ones(aicpu_lib):
    from pyasc_acl.kernels import Binary, launch

    binary = Binary(aicpu_lib, "sim", cpu_kernel_mode=1)
    launch(binary.function("refuses"), 1, (0,))
    with pytest.raises(pyasc.PyascError, match=r"507018|AICPU_EXCEPTION") as info:
        pyasc.synchronize("sim")
    assert "the AI CPU function refuses returned error 7" in str(info.value)
    launch(binary.function("faults"), 1, (8,))
    with pytest.raises(pyasc.PyascError, match="SIGSEGV") as info:
        pyasc.synchronize("sim")
    assert "kernel faults block 0" in str(info.value)
    # the device stays usable
    assert (pyasc.tensor([1, 2]) + 1).numpy().tolist() == [2, 3]
    with pytest.raises(pyasc.PyascError, match="numBlocks must be 1"):
        launch(binary.function("scale2"), 4, (0, 0, 0))
    with pytest.raises(pyasc.PyascError, match="no exported symbol"):
        binary.function("missing")


def test_an_ai_cpu_library_loads_from_data_and_registers_its_functions(aicpu_lib):
    from pyasc_acl.kernels import Binary, launch

    binary = Binary.from_data(aicpu_lib.read_bytes(), "sim", label="mine")
    fn = binary.register_cpu_func("scale2", "Scale2")
    assert fn.name == "Scale2"
    x = pyasc.arange(8, dtype="int64", device="sim")
    out = pyasc.empty((8,), dtype="int64", device="sim")
    launch(fn, 1, (x, out, 8))
    assert out.numpy().tolist() == [2 * i for i in range(8)]
    with pytest.raises(pyasc.PyascError, match="no exported symbol"):
        binary.register_cpu_func("absent", "Absent")
    from pyasc_kernels._runtime import binary_path

    with pytest.raises(pyasc.ArgumentError, match="not an AI CPU library"):
        Binary(binary_path("sim", "binary"), "sim").register_cpu_func("binary_add_float32", "Add")


def test_exp_of_ints_works_after_the_cast_to_float64():
    # the issue: `pyasc exp` on ints suggests astype('float64'), which sim used to refuse
    x = pyasc.tensor([1, 2])
    with pytest.raises(pyasc.DtypeError):
        pyasc.exp(x)
    np.testing.assert_allclose(pyasc.exp(x.astype("float64")).numpy(), np.exp([1.0, 2.0]), rtol=1e-15)


def test_pyasc_check_counts_host_fallback_samples_apart(no_aicpu, capsys):
    from pyasc_core import cli

    pyasc.set_fallback("silent")
    assert cli.main(["check", "--backend", "sim", "--op", "neg", "--dtype", "int64", "--no-opcheck"]) == 0
    out = capsys.readouterr().out
    assert "host fallback" in out and "0 by kernels" in out and "not counted as kernel passes" in out
