"""The simulator's kernels next to NumPy and torch (2 threads), side by side in one run.

* add of two 16M-element float32 tensors: sim with the sanitizer checks on and off (the runtime
  switch PYASC_SIM_CHECKS, read at every launch; "on" includes the tensor-exact bounds, the
  initcheck shadow lookups, pipe-race and the cross-core race records of every GM read and write),
  numpy.add, torch.add;
* pipe-race's own cost: a queued add kernel (4M float32) compiled as usual and with
  -DPYASC_SIM_RACECHECK=0, both with the checks on, and with the checks off;
* softmax over the last axis of a (4096, 1024) float32 tensor;
* matmul of (512, 512) @ (512, 512): float16 and float32 (both on sim's cube path);
* a transpose materialised (``x.T.contiguous()``, copy.cpp's tiled path) of a (4096, 1024) float32
  tensor, checks on and off, next to NumPy's ``a.T.copy()``.

The device is synchronised inside each timed call. GB/s (bytes read + written) and GFLOP/s are
stored in each benchmark's extra_info and printed at the end:
``pytest benchmarks/test_sim_bench.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

import pyasc

N_ADD = 1 << 24
SOFTMAX = (4096, 1024)
MM = 512

_THROUGHPUT: dict[tuple[str, str], str] = {}


def _torch():
    try:
        import torch
    except ImportError:
        return None
    torch.set_num_threads(2)
    return torch


def _sim_available() -> bool:
    from pyasc_core.registry import REGISTRY

    return REGISTRY.availability("sim")[0]


needs_sim = pytest.mark.skipif(not _sim_available(), reason="the sim backend is not available")


def _report(benchmark, group: str, impl: str, work: float, unit: str) -> None:
    median = benchmark.stats.stats.median
    rate = work / median / 1e9
    benchmark.extra_info[unit] = rate
    _THROUGHPUT[(group, impl)] = f"{rate:.2f} {unit}  ({median * 1e3:.2f} ms)"


def throughput_lines() -> list[str]:
    """One line per benchmark of this module that ran: its GB/s or GFLOP/s (printed by conftest)."""
    return [f"{group:<22} {impl:<24} {text}" for (group, impl), text in sorted(_THROUGHPUT.items())]


# -- add: 16M float32 ------------------------------------------------------------------------------
ADD_BYTES = 3 * 4 * N_ADD  # two reads, one write


@pytest.fixture(scope="module")
def add_inputs():
    rng = np.random.default_rng(0)
    return rng.standard_normal(N_ADD, dtype=np.float32), rng.standard_normal(N_ADD, dtype=np.float32)


@needs_sim
@pytest.mark.parametrize("checks", ["on", "off"])
def test_add_sim(benchmark, add_inputs, checks, monkeypatch):
    monkeypatch.setenv("PYASC_SIM_CHECKS", "1" if checks == "on" else "0")
    a, b = (pyasc.tensor(x, device="sim") for x in add_inputs)
    expected = add_inputs[0] + add_inputs[1]

    def run():
        out = a + b
        pyasc.synchronize("sim")
        return out

    benchmark.group = "add 16M float32"
    out = benchmark.pedantic(run, rounds=10, iterations=1, warmup_rounds=2)
    np.testing.assert_array_equal(out.numpy(), expected)
    _report(benchmark, "add 16M float32", f"sim checks {checks}", ADD_BYTES, "GB/s")


# -- pipe-race on vs off: the same kernel compiled with and without the check ------------------------
N_RACE = 1 << 22
RACE_BLOCKS = 8
RACE_KERNEL = r"""
#include "kernel_operator.h"
using namespace AscendC;
constexpr uint32_t TILE = 4096;
extern "C" __global__ __aicore__ void race_bench_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n)
{
    const uint32_t per = n / GetBlockNum(), base = per * GetBlockIdx();
    TPipe pipe;
    TQue<TPosition::VECIN, 2> qx, qy;
    TQue<TPosition::VECOUT, 2> qz;
    pipe.InitBuffer(qx, 2, TILE * sizeof(float));
    pipe.InitBuffer(qy, 2, TILE * sizeof(float));
    pipe.InitBuffer(qz, 2, TILE * sizeof(float));
    GlobalTensor<float> gx, gy, gz;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x) + base, per);
    gy.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y) + base, per);
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z) + base, per);
    for (uint32_t i = 0; i < per; i += TILE) {
        LocalTensor<float> a = qx.AllocTensor<float>(), b = qy.AllocTensor<float>();
        DataCopy(a, gx[i], TILE);
        DataCopy(b, gy[i], TILE);
        qx.EnQue(a);
        qy.EnQue(b);
        LocalTensor<float> u = qx.DeQue<float>(), v = qy.DeQue<float>(), w = qz.AllocTensor<float>();
        Add(w, u, v, TILE);
        qz.EnQue(w);
        qx.FreeTensor(u);
        qy.FreeTensor(v);
        LocalTensor<float> o = qz.DeQue<float>();
        DataCopy(gz[i], o, TILE);
        qz.FreeTensor(o);
    }
}
"""


@needs_sim
@pytest.mark.parametrize("mode", ["checks on, pipe-race on", "checks on, pipe-race off", "checks off"])
def test_pipe_race_cost(benchmark, mode, monkeypatch):
    import pyasc_acl
    import pyasc_sim

    flags = ["-DPYASC_SIM_RACECHECK=0"] if "pipe-race off" in mode else []
    monkeypatch.setenv("PYASC_SIM_CHECKS", "0" if mode == "checks off" else "1")
    fn = pyasc_acl.Binary(pyasc_sim.compile(RACE_KERNEL, extra_flags=flags), device="sim").function("race_bench_add")
    rng = np.random.default_rng(3)
    xs, ys = rng.standard_normal(N_RACE, dtype=np.float32), rng.standard_normal(N_RACE, dtype=np.float32)
    x, y = pyasc.tensor(xs, device="sim"), pyasc.tensor(ys, device="sim")
    z = pyasc.empty((N_RACE,), dtype="float32", device="sim")
    pyasc.synchronize("sim")

    def run():
        pyasc_acl.launch(fn, RACE_BLOCKS, (x, y, z, N_RACE))
        pyasc.synchronize("sim")

    group = "queued add 4M float32"
    benchmark.group = group
    benchmark.pedantic(run, rounds=5, iterations=1, warmup_rounds=1)
    np.testing.assert_array_equal(z.numpy(), xs + ys)
    _report(benchmark, group, mode, 3 * 4 * N_RACE, "GB/s")


# numpy.add / torch.add as they are usually called (a new output each time, like a + b on sim,
# whose output comes from the caching allocator), and with a preallocated out= for reference
@pytest.mark.parametrize("out", ["new", "out="])
def test_add_numpy(benchmark, add_inputs, out):
    a, b = add_inputs
    kw = {"out": np.empty_like(a)} if out == "out=" else {}
    benchmark.group = "add 16M float32"
    benchmark.pedantic(np.add, (a, b), kw, rounds=10, iterations=1, warmup_rounds=2)
    _report(benchmark, "add 16M float32", "numpy" + (" out=" if kw else ""), ADD_BYTES, "GB/s")


@pytest.mark.parametrize("out", ["new", "out="])
def test_add_torch(benchmark, add_inputs, out):
    torch = _torch()
    if torch is None:
        pytest.skip("torch is not installed")
    a, b = (torch.from_numpy(x) for x in add_inputs)
    kw = {"out": torch.empty_like(a)} if out == "out=" else {}
    benchmark.group = "add 16M float32"
    benchmark.pedantic(torch.add, (a, b), kw, rounds=10, iterations=1, warmup_rounds=2)
    _report(benchmark, "add 16M float32", "torch 2 thr" + (" out=" if kw else ""), ADD_BYTES, "GB/s")


# -- softmax -----------------------------------------------------------------------------------------
SOFTMAX_BYTES = 2 * 4 * SOFTMAX[0] * SOFTMAX[1]


@pytest.fixture(scope="module")
def softmax_input():
    return np.random.default_rng(1).standard_normal(SOFTMAX, dtype=np.float32)


def _np_softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


@needs_sim
def test_softmax_sim(benchmark, softmax_input):
    x = pyasc.tensor(softmax_input, device="sim")

    def run():
        out = pyasc.softmax(x, axis=-1)
        pyasc.synchronize("sim")
        return out

    benchmark.group = "softmax (4096, 1024)"
    out = benchmark.pedantic(run, rounds=5, iterations=1, warmup_rounds=1)
    np.testing.assert_allclose(out.numpy(), _np_softmax(softmax_input), rtol=1e-5, atol=1e-7)
    _report(benchmark, "softmax (4096, 1024)", "sim", SOFTMAX_BYTES, "GB/s")


def test_softmax_numpy(benchmark, softmax_input):
    benchmark.group = "softmax (4096, 1024)"
    benchmark.pedantic(_np_softmax, (softmax_input,), rounds=5, iterations=1, warmup_rounds=1)
    _report(benchmark, "softmax (4096, 1024)", "numpy", SOFTMAX_BYTES, "GB/s")


def test_softmax_torch(benchmark, softmax_input):
    torch = _torch()
    if torch is None:
        pytest.skip("torch is not installed")
    x = torch.from_numpy(softmax_input)
    benchmark.group = "softmax (4096, 1024)"
    benchmark.pedantic(torch.softmax, (x, -1), rounds=5, iterations=1, warmup_rounds=1)
    _report(benchmark, "softmax (4096, 1024)", "torch 2 threads", SOFTMAX_BYTES, "GB/s")


# -- matmul --------------------------------------------------------------------------------------------
MM_FLOPS = 2 * MM**3


@pytest.fixture(scope="module")
def mm_inputs():
    rng = np.random.default_rng(2)
    return rng.standard_normal((MM, MM), dtype=np.float32), rng.standard_normal((MM, MM), dtype=np.float32)


@needs_sim
@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_matmul_sim(benchmark, mm_inputs, dtype):
    a, b = (pyasc.tensor(x.astype(dtype), device="sim") for x in mm_inputs)

    def run():
        out = a @ b
        pyasc.synchronize("sim")
        return out

    group = f"matmul {MM}^3"
    benchmark.group = group
    out = benchmark.pedantic(run, rounds=3, iterations=1, warmup_rounds=1)
    exact = mm_inputs[0].astype(dtype).astype(np.float64) @ mm_inputs[1].astype(dtype).astype(np.float64)
    np.testing.assert_allclose(out.numpy().astype(np.float64), exact, rtol=2e-2 if dtype == "float16" else 1e-5,
                               atol=1e-1 if dtype == "float16" else 1e-4)
    _report(benchmark, group, f"sim {dtype}", MM_FLOPS, "GFLOP/s")


def test_matmul_numpy(benchmark, mm_inputs):
    group = f"matmul {MM}^3"
    benchmark.group = group
    benchmark.pedantic(np.matmul, mm_inputs, rounds=5, iterations=1, warmup_rounds=1)
    _report(benchmark, group, "numpy float32", MM_FLOPS, "GFLOP/s")


def test_matmul_torch(benchmark, mm_inputs):
    torch = _torch()
    if torch is None:
        pytest.skip("torch is not installed")
    a, b = (torch.from_numpy(x) for x in mm_inputs)
    group = f"matmul {MM}^3"
    benchmark.group = group
    benchmark.pedantic(torch.matmul, (a, b), rounds=5, iterations=1, warmup_rounds=1)
    _report(benchmark, group, "torch float32 2 threads", MM_FLOPS, "GFLOP/s")


# -- transpose: x.T materialised -------------------------------------------------------------------
TRANSPOSE = (4096, 1024)
TRANSPOSE_BYTES = 2 * 4 * TRANSPOSE[0] * TRANSPOSE[1]  # one read, one write


@pytest.fixture(scope="module")
def transpose_input():
    return np.random.default_rng(3).standard_normal(TRANSPOSE, dtype=np.float32)


@needs_sim
@pytest.mark.parametrize("checks", ["on", "off"])
def test_transpose_sim(benchmark, transpose_input, checks, monkeypatch):
    monkeypatch.setenv("PYASC_SIM_CHECKS", "1" if checks == "on" else "0")
    x = pyasc.tensor(transpose_input, device="sim")

    def run():
        out = x.T.contiguous()
        pyasc.synchronize("sim")
        return out

    group = "transpose (4096, 1024)"
    benchmark.group = group
    out = benchmark.pedantic(run, rounds=5, iterations=1, warmup_rounds=1)
    np.testing.assert_array_equal(out.numpy(), transpose_input.T)
    _report(benchmark, group, f"sim float32 checks {checks}", TRANSPOSE_BYTES, "GB/s")


def test_transpose_numpy(benchmark, transpose_input):
    group = "transpose (4096, 1024)"
    benchmark.group = group
    benchmark.pedantic(lambda: transpose_input.T.copy(), rounds=5, iterations=1, warmup_rounds=1)
    _report(benchmark, group, "numpy float32", TRANSPOSE_BYTES, "GB/s")
