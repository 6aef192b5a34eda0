"""What checking raw ``__gm__`` pointer accesses costs (issue 10 acceptance: the sanitizer's cost stays
measured, checks on vs off): a scalar loop ``y[i] = x[i] + 1`` through raw ``__gm__ float *`` pointers
over 4M float32 on 8 blocks, built with the ThreadSanitizer hooks (``raw_gm=True``, what
``pyasc_sim.compile`` picks for such a source with checks on), without them (``raw_gm=False``: the
other checks only; the raw accesses go unseen), and with the checks off. Results must be equal; the
ratio is the hooks' cost: ``pytest benchmarks/test_raw_gm_bench.py``."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc

N = 1 << 22
BLOCKS = 8
KERNEL = r"""
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void raw_bench_add_one(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    const uint32_t per = n / GetBlockNum(), base = per * GetBlockIdx();
    const __gm__ float *px = reinterpret_cast<const __gm__ float *>(x) + base;
    __gm__ float *py = reinterpret_cast<__gm__ float *>(y) + base;
    for (uint32_t i = 0; i < per; ++i) {
        py[i] = px[i] + 1.0f;
    }
}
"""


def _sim_available() -> bool:
    from pyasc_core.registry import REGISTRY

    return REGISTRY.availability("sim")[0]


@pytest.mark.skipif(not _sim_available(), reason="the sim backend is not available")
@pytest.mark.parametrize("mode", ["checks on, raw hooks", "checks on, no raw hooks", "checks off"])
def test_raw_gm_check_cost(benchmark, mode, monkeypatch):
    import pyasc_acl
    import pyasc_sim

    monkeypatch.setenv("PYASC_SIM_CHECKS", "0" if mode == "checks off" else "1")
    path = pyasc_sim.compile(KERNEL, raw_gm=mode == "checks on, raw hooks", checks=mode != "checks off")
    fn = pyasc_acl.Binary(path, device="sim").function("raw_bench_add_one")
    xs = np.random.default_rng(5).standard_normal(N, dtype=np.float32)
    x = pyasc.tensor(xs, device="sim")
    y = pyasc.empty((N,), dtype="float32", device="sim")
    pyasc.synchronize("sim")

    def run():
        pyasc_acl.launch(fn, BLOCKS, (x, y, N))
        pyasc.synchronize("sim")

    benchmark.group = "raw __gm__ loop 4M float32"
    benchmark.pedantic(run, rounds=4, iterations=1, warmup_rounds=1)
    np.testing.assert_array_equal(y.numpy(), xs + np.float32(1.0))
    benchmark.extra_info["GB/s"] = 2 * 4 * N / benchmark.stats.stats.median / 1e9
