"""Async<EngineType::AIC / AIV, funPtr>(args...) on the simulator (reference page Async): in a mixed
kernel the cube-side function runs only on each block's AIC and the vector-side one only on its two
AIV, without ASCEND_IS_AIC / ASCEND_IS_AIV in the kernel. Our own kernel: kernels/compat/async_idioms.cpp."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat" / "async_idioms.cpp"
TILE = 64
INFO_ROW = 16  # int32 per info row: one 64-byte data-cache line per core


@pytest.fixture(scope="module")
def kernels():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1"), device="sim")


@pytest.mark.parametrize("groups", [1, 3])
def test_async_runs_each_function_on_its_engine_only(kernels, groups):
    x_np = np.random.default_rng(groups + 70).standard_normal(2 * TILE * groups).astype(np.float32)
    y = pyasc.zeros((2 * TILE * groups,), dtype="float32", device="sim")
    work = pyasc.zeros((2 * TILE * groups,), dtype="float32", device="sim")
    info = pyasc.full((groups * 3 * INFO_ROW,), -1, dtype="int32", device="sim")
    pyasc_acl.launch(kernels.function("async_mix"), groups, (pyasc.tensor(x_np, device="sim"), y, work, info))
    pyasc.synchronize("sim")
    np.testing.assert_allclose(y.numpy(), 3 * x_np + 1, rtol=1e-6)
    rows = info.numpy().reshape(groups, 3, INFO_ROW)
    for g in range(groups):
        assert list(rows[g, 0, :2]) == [g, 1]  # the AIC ran CubeSide once, nothing else wrote there
        assert (rows[g, 0, 2:] == -1).all()
        for sub in range(2):
            assert list(rows[g, 1 + sub, :3]) == [2 * g + sub, 2, sub]  # each AIV ran VectorSide
            assert (rows[g, 1 + sub, 3:] == -1).all()


def test_async_engine_must_be_aic_or_aiv(tmp_path):
    src = tmp_path / "bad_engine.cpp"
    src.write_text(
        '#include "kernel_operator.h"\n'
        "using namespace AscendC;\n"
        "__aicore__ inline void F() {}\n"
        'extern "C" __global__ __aicore__ void bad() { Async<static_cast<EngineType>(3), F>(); }\n')
    with pytest.raises(pyasc.PyascError, match="engine must be EngineType::AIC or EngineType::AIV"):
        pyasc_sim.compile(src, opt="-O0")
