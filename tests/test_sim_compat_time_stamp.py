"""AscendC::PrintTimeStamp and a positional MatmulConfig (backends/sim/kernel_api/COMPAT.md, "Round 34 (s34c)":
yyz3172/vllm-ascend's turboquant_pack_kv_for_cache_fused marks its phases with PrintTimeStamp; its
turboquant_rotate_matmul_probe writes the MDL template as a 19-value braced list).  PrintTimeStamp (page
PrintTimeStamp, atlasascendc_api_07_00002) prints "descId is <id>, rsv is 0, timeStamp is <cycles>, ..." when the
kernel is built with -DASCENDC_TIME_STAMP_ON (the simulator's timeStamp: GetSystemCycle()); the MatmulConfig
members lead in the documented order (page MatmulConfig, atlasascendc_api_07_0616).  One build, with the marks on.
The kernel is our own (kernels/compat/time_stamp_mm_config_idioms.cpp)."""

from __future__ import annotations

import re

import pytest

from ascendc_kernels import run_child

SRC = "compat/time_stamp_mm_config_idioms.cpp"
TILE = 64

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


def test_marks_print_per_block_and_the_positional_config_keeps_member_order(tmp_path):
    blocks = 2
    out = run_child(tmp_path, f"""
        import numpy as np, pyasc
        from ascendc_kernels import launch_synced, load
        x = np.random.default_rng(34).standard_normal({blocks} * {TILE}).astype(np.float32)
        y = pyasc.zeros(({blocks} * {TILE},), dtype="float32", device="sim")
        cfg = pyasc.zeros((8,), dtype="int32", device="sim")
        f = load({SRC!r}, ("-DASCENDC_TIME_STAMP_ON",)).function("stamp_double")
        launch_synced(f, {blocks}, (pyasc.tensor(x, device="sim"), y, cfg))
        np.testing.assert_array_equal(y.numpy(), x * np.float32(2))
        # doMultiDataLoad, doNorm, basicK, doMTE2Preload, enUnitFlag of {{false, false, true, 16, 32, 48, ..., 2, ..., true}}
        np.testing.assert_array_equal(cfg.numpy()[:5], [1, 0, 48, 2, 1])
        print("RESULTS-OK", flush=True)
    """)
    assert out.returncode == 0, out.stderr
    assert "RESULTS-OK" in out.stdout, out.stdout
    marks = re.findall(r"descId is (\d+), rsv is 0, timeStamp is (\d+), pcPtr is 0, entry is 0\.", out.stdout)
    assert sorted(int(d) for d, _ in marks) == [0x10001, 0x10001, 0x10002, 0x10002], out.stdout
    # each block prints its two marks together, the later one with the later counter value
    for first, second in zip(marks[0::2], marks[1::2]):
        assert (int(first[0]), int(second[0])) == (0x10001, 0x10002)
        assert int(second[1]) > int(first[1])
