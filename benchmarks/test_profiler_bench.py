"""What the profiler costs (issue 17): the 16M-element float32 add (a queued, double-buffered kernel on
32 blocks, checks off and on) with the profiler's bookkeeping compiled out
(-DPYASC_SIM_TIMELINE_SPANS=0: same schedule, no source lines / bytes / span checks), as built
(profiling off: the target is <= 2% over compiled out) and with profiling on (spans kept, written
and loaded), side by side in one run: ``pytest benchmarks/test_profiler_bench.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

import pyasc

N = 1 << 24
BLOCKS = 32  # 512K elements, 128 tiles per block
KERNEL = r"""
#include "kernel_operator.h"
using namespace AscendC;
constexpr uint32_t TILE = 4096;
extern "C" __global__ __aicore__ void prof_bench_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n)
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
        const uint32_t len = TILE;
        LocalTensor<float> a = qx.AllocTensor<float>(), b = qy.AllocTensor<float>();
        DataCopy(a, gx[i], len);
        DataCopy(b, gy[i], len);
        qx.EnQue(a);
        qy.EnQue(b);
        LocalTensor<float> u = qx.DeQue<float>(), v = qy.DeQue<float>(), w = qz.AllocTensor<float>();
        Add(w, u, v, len);
        qz.EnQue(w);
        qx.FreeTensor(u);
        qy.FreeTensor(v);
        LocalTensor<float> o = qz.DeQue<float>();
        DataCopy(gz[i], o, len);
        qz.FreeTensor(o);
    }
}
"""
_MEDIANS: dict[tuple[str, str], float] = {}


def _sim_available() -> bool:
    from pyasc_core.registry import REGISTRY

    return REGISTRY.availability("sim")[0]


needs_sim = pytest.mark.skipif(not _sim_available(), reason="the sim backend is not available")


@pytest.fixture(scope="module")
def inputs():
    rng = np.random.default_rng(17)
    xs, ys = rng.standard_normal(N, dtype=np.float32), rng.standard_normal(N, dtype=np.float32)
    x, y = pyasc.tensor(xs, device="sim"), pyasc.tensor(ys, device="sim")
    z = pyasc.empty((N,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    return xs + ys, x, y, z


@needs_sim
@pytest.mark.parametrize("checks", ["off", "on"])
@pytest.mark.parametrize("mode", ["bookkeeping compiled out", "profiling off", "profiling on"])
def test_profiler_cost(benchmark, inputs, mode, checks, monkeypatch):
    import pyasc_acl
    import pyasc_sim

    expected, x, y, z = inputs
    flags = ["-DPYASC_SIM_TIMELINE_SPANS=0"] if mode == "bookkeeping compiled out" else []
    monkeypatch.setenv("PYASC_SIM_CHECKS", "1" if checks == "on" else "0")
    fn = pyasc_acl.Binary(pyasc_sim.compile(KERNEL, extra_flags=flags), device="sim").function("prof_bench_add")

    def run():
        if mode == "profiling on":
            with pyasc.profiler.profile():
                pyasc_acl.launch(fn, BLOCKS, (x, y, z, N))
        else:
            pyasc_acl.launch(fn, BLOCKS, (x, y, z, N))
            pyasc.synchronize("sim")

    benchmark.group = f"profiler: add 16M float32, checks {checks}"
    benchmark.pedantic(run, rounds=9, iterations=1, warmup_rounds=2)
    np.testing.assert_array_equal(z.numpy(), expected)
    _MEDIANS[(checks, mode)] = benchmark.stats.stats.median


_PAIRED: dict[str, tuple[float, float]] = {}


@needs_sim
@pytest.mark.parametrize("checks", ["off", "on"])
def test_profiling_off_overhead_interleaved(benchmark, inputs, checks, monkeypatch):
    """The <= 2% figure: the compiled-out and the as-built kernel launched alternately (a busy machine's
    drift hits both alike); the ratio of their fastest and of their median launches."""
    import time

    import pyasc_acl
    import pyasc_sim

    expected, x, y, z = inputs
    monkeypatch.setenv("PYASC_SIM_CHECKS", "1" if checks == "on" else "0")
    fns = [pyasc_acl.Binary(pyasc_sim.compile(KERNEL, extra_flags=f), device="sim").function("prof_bench_add")
           for f in (["-DPYASC_SIM_TIMELINE_SPANS=0"], [])]
    times: list[list[float]] = [[], []]

    def pair():
        for k in (0, 1) if len(times[0]) % 2 == 0 else (1, 0):
            t0 = time.perf_counter()
            pyasc_acl.launch(fns[k], BLOCKS, (x, y, z, N))
            pyasc.synchronize("sim")
            times[k].append(time.perf_counter() - t0)

    benchmark.group = f"profiler: interleaved pairs, checks {checks}"
    benchmark.pedantic(pair, rounds=15, iterations=1, warmup_rounds=1)
    np.testing.assert_array_equal(z.numpy(), expected)
    out, off = (np.asarray(t[1:]) for t in times)  # the warmup pair is not counted
    _PAIRED[checks] = (float(off.min() / out.min()), float(np.median(off) / np.median(out)))


def summary_lines() -> list[str]:
    """Each mode's median and its ratio to the compiled-out build (printed by conftest)."""
    out = []
    for checks in ("off", "on"):
        base = _MEDIANS.get((checks, "bookkeeping compiled out"))
        for mode in ("bookkeeping compiled out", "profiling off", "profiling on"):
            m = _MEDIANS.get((checks, mode))
            if m is None:
                continue
            ratio = f" ({100 * (m / base - 1):+.1f}% vs compiled out)" if base and mode != "bookkeeping compiled out" else ""
            out.append(f"checks {checks:<3} {mode:<26} {m * 1e3:8.2f} ms{ratio}")
    for checks, (fastest, median) in _PAIRED.items():
        out.append(f"checks {checks:<3} profiling off / compiled out, interleaved: fastest {100 * (fastest - 1):+.1f}%, "
                   f"median {100 * (median - 1):+.1f}%")
    return out
