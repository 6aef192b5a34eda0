"""Every Python-kernel tutorial under examples/ runs on the simulator and matches NumPy, in
documented-names-only mode (its generated source uses only names the public reference documents);
vadd runs exactly as issue 14 spells it and specialises per dtype (float16, float32)."""

from __future__ import annotations

import os
import runpy

import numpy as np
import pytest

import pyasc
import pyasc.lang as asc

EXAMPLES = os.path.join(os.path.dirname(__file__), os.pardir, "examples")


def tutorial(name: str) -> dict:
    return runpy.run_path(os.path.join(EXAMPLES, name), run_name="tutorial")


@pytest.fixture(autouse=True)
def documented_only(monkeypatch):
    monkeypatch.setenv("PYASC_JIT_DOCUMENTED_ONLY", "1")


def test_vadd_runs_as_spelled_in_the_issue():
    ns = tutorial("01_vadd.py")  # the file launches vadd[8](x, y, z, n // 8, 256) itself
    np.testing.assert_allclose(ns["z"].numpy(), ns["x"].numpy() + ns["y"].numpy(), rtol=1e-6)
    src = ns["vadd"].source(ns["x"], ns["y"], ns["z"], 2048, 256)
    assert 'extern "C" __global__ __aicore__ void vadd(GM_ADDR x' in src
    assert "AscendC::TQue<AscendC::TPosition::VECIN, 2> in_x;" in src  # BUFFER_NUM baked in
    assert asc.undocumented_tokens(src) == []


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_vadd_specialises_per_dtype(dtype):
    ns = tutorial("01_vadd.py")
    vadd, n = ns["vadd"], 4 * 512
    rng = np.random.default_rng(5)
    xa, ya = rng.random(n).astype(dtype), rng.random(n).astype(dtype)
    x, y, z = pyasc.tensor(xa), pyasc.tensor(ya), pyasc.empty(n, dtype=dtype)
    vadd[4](x, y, z, n // 4, 128)
    np.testing.assert_allclose(z.numpy(), xa + ya, rtol=1e-3 if dtype == "float16" else 1e-6)
    cpp = {"float16": "half", "float32": "float"}[dtype]
    assert f"AscendC::GlobalTensor<{cpp}> x_gm;" in vadd.source(x, y, z, n // 4, 128)


def test_specialisations_are_cached_and_distinct():
    ns = tutorial("01_vadd.py")
    vadd = ns["vadd"]
    k32 = vadd.specialize(ns["x"], ns["y"], ns["z"], 2048, 256)
    assert vadd.specialize(ns["x"], ns["y"], ns["z"], 1024, 128) is k32  # same types: same kernel
    h = pyasc.empty(8, dtype="float16")
    assert vadd.specialize(h, h, h, 2048, 256) is not k32
    assert isinstance(k32, pyasc.Kernel) and k32.name == "vadd"


def test_module_constants_are_part_of_the_specialisation():
    ns = tutorial("01_vadd.py")
    vadd = ns["vadd"]
    k2 = vadd.specialize(ns["x"], ns["y"], ns["z"], 2048, 256)
    vadd.fn.__globals__["BUFFER_NUM"] = 1
    try:
        k1 = vadd.specialize(ns["x"], ns["y"], ns["z"], 2048, 256)
        assert k1 is not k2 and "TQue<AscendC::TPosition::VECIN, 1>" in k1.source.text
    finally:
        vadd.fn.__globals__["BUFFER_NUM"] = 2


@pytest.mark.parametrize("name, tol", [("02_add_flags.py", 1e-6), ("03_leaky_relu_tiling.py", 1e-6),
                                       ("04_softmax_rows.py", 1e-5), ("05_matmul_cube.py", 1e-3),
                                       ("06_matmul_leaky_relu.py", 1e-3), ("07_matmul_highlevel.py", 1e-3)])
def test_tutorial_matches_numpy(name, tol):
    got, want = tutorial(name)["run"]()
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol / 10)


def test_leaky_relu_float16():
    got, want = tutorial("03_leaky_relu_tiling.py")["run"](dtype="float16")
    np.testing.assert_allclose(got, want, rtol=1e-3)


def test_launch_on_a_stream():
    ns = tutorial("02_add_flags.py")
    s = pyasc.Stream("sim")
    n = 2048
    x, y = pyasc.ones(n, dtype="float32"), pyasc.full((n,), 2.0, dtype="float32")
    z = pyasc.empty(n, dtype="float32")
    pyasc.synchronize("sim")
    ns["add_flags"][2, s](x, y, z, n // 2, 256)
    s.synchronize()
    np.testing.assert_array_equal(z.numpy(), 3.0)


def test_a_python_kernel_is_an_op_kernel():
    ns = tutorial("03_leaky_relu_tiling.py")
    lib = pyasc.library.Library("jit14")
    lib.define("leaky", "(Tensor x, *, float alpha=0.1) -> Tensor", meta=lambda x, alpha=0.1: x,
               reference=lambda x, alpha=0.1: np.where(x >= 0, x, x * alpha))
    try:
        lib.impl("leaky", "sim", kernel=ns["leaky_relu"],
                 tiling=lambda x, alpha=0.1: (4, ns["host_tiling"](x.size, 4, alpha)))
        xa = np.linspace(-4, 4, 4096, dtype=np.float32)
        out = pyasc.ops.jit14.leaky(pyasc.tensor(xa), alpha=0.25)
        np.testing.assert_allclose(out.numpy(), np.where(xa >= 0, xa, xa * np.float32(0.25)), rtol=1e-6)
    finally:
        lib.remove()


def test_vadd_refuses_bfloat16_at_the_python_line():
    """The API table documents Add for half/int16/int32/float on Atlas A2, not bfloat16: the
    compile error points at the asc.add line of the tutorial."""
    ns = tutorial("01_vadd.py")
    x = pyasc.ones(2048, dtype="bfloat16")
    with pytest.raises(pyasc.PyascError) as err:
        ns["vadd"][1](x, x, pyasc.empty(2048, dtype="bfloat16"), 2048, 256)
        pyasc.synchronize("sim")
    with open(os.path.join(EXAMPLES, "01_vadd.py")) as f:
        line = next(i for i, ln in enumerate(f, 1) if "asc.add(" in ln)
    assert f"01_vadd.py:{line}" in str(err.value) and "AscendC::Add is not documented" in str(err.value)


def _cann():
    try:
        from pyasc_acl import cann_compile
    except ImportError:
        return None
    return cann_compile if cann_compile.find_bisheng() else None


@pytest.mark.skipif(_cann() is None, reason="needs CANN's bisheng (an Ascend toolkit) to compile for the NPU")
@pytest.mark.parametrize("name, kernel", [("02_add_flags.py", "add_flags"), ("03_leaky_relu_tiling.py", "leaky_relu"),
                                          ("04_softmax_rows.py", "softmax_rows"), ("05_matmul_cube.py", "matmul"),
                                          ("06_matmul_leaky_relu.py", "matmul_leaky_relu"),
                                          ("07_matmul_highlevel.py", "matmul_hl")])
def test_cann_compiles_the_generated_source_unchanged(name, kernel, tmp_path):
    from pyasc_core.cli import main

    assert main(["compile", os.path.join(EXAMPLES, name), "--kernel", kernel, "-o", str(tmp_path)]) == 0
    cpp = tmp_path / f"{name[:-3]}_{kernel}.cpp"
    assert os.path.getsize(_cann().build(pyasc.KernelSource(str(cpp)))) > 0


def test_a_helper_modules_constants_are_part_of_the_specialisation():
    from jit_kernels import helpers

    x = pyasc.empty(8, dtype="float32")
    first = helpers.scaled.specialize(x, 8)
    assert helpers.scaled.specialize(x, 8) is first  # the helper's module constant, unchanged: cached
    helpers.constants.SCALE = 5
    try:
        again = helpers.scaled.specialize(x, 8)
        assert again is not first and "* 5" in again.source.text
    finally:
        helpers.constants.SCALE = 3
