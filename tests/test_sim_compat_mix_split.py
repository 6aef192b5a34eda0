"""Mixed cube/vector kernels whose halves are split by ``#if defined(__DAV_C220_CUBE__)`` / ``#elif
defined(__DAV_C220_VEC__)`` (issue 8 point 8): pyasc_sim.compile builds them once per core kind into one
binary, and each block's AIC runs the cube pass, its AIV the vector pass. Our own kernel, in the public
style: kernels/compat/mix_split_idioms.cpp."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR
from pyasc_sim import mix_build

SRC = ASCENDC_DIR / "compat" / "mix_split_idioms.cpp"
M, K, N = 16, 32, 16


@pytest.fixture(scope="module")
def kernels():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1"), device="sim")


@pytest.mark.parametrize("groups", [1, 3])
def test_cube_half_mmad_then_vector_half_matches_numpy(kernels, groups):
    rng = np.random.default_rng(groups + 80)
    a = rng.standard_normal((groups, M, K)).astype(np.float16)
    b = rng.standard_normal((N, K)).astype(np.float16)
    alpha = 0.75
    ws = pyasc.zeros((groups * M * N,), dtype="float32", device="sim")
    out = pyasc.zeros((groups * M * N,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("mix_split"), groups,
                     (pyasc.tensor(a, device="sim"), pyasc.tensor(b, device="sim"), ws, out, np.float32(alpha)))
    pyasc.synchronize("sim")
    c = a.astype(np.float32) @ b.astype(np.float32).T
    np.testing.assert_allclose(ws.numpy().reshape(groups, M, N), c, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(out.numpy().reshape(groups, M, N), np.maximum(c, 0) * np.float32(alpha) + 1,
                               rtol=1e-5, atol=1e-5)


def test_each_core_runs_its_own_pass(kernels):
    groups = 2
    info = pyasc.full((groups * 3 * 16,), -1, dtype="int32", device="sim")  # a 64-byte row per core
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("mix_split_info"), groups, (info,))
    pyasc.synchronize("sim")
    rows = info.numpy().reshape(groups, 3, 16)
    assert (rows[:, :, 8:] == -1).all()
    for g in range(groups):
        # cube macro, vector macro, ASCEND_IS_AIC, g_coreType, sub-block, the pass's inline static, class
        assert rows[g, 0, :8].tolist() == [1, 0, 1, 1, 0, 100, 1, g]
        for sub in range(2):
            assert rows[g, 1 + sub, :8].tolist() == [0, 1, 0, 2, sub, 200, 2, 2 * g + sub]


def test_a_template_instance_runs_its_pass_per_core(kernels):
    out = pyasc.full((48,), -1, dtype="int32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("mix_split_tag<float>"), 1, (out,))
    pyasc.synchronize("sim")
    assert out.numpy()[::16].tolist() == [104, 204, 204]


def test_a_vector_only_kernel_of_the_file_runs_the_vector_pass(kernels):
    out = pyasc.full((8,), -1, dtype="int32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("mix_split_vec_only"), 1, (out,))
    pyasc.synchronize("sim")
    assert out.numpy()[:4].tolist() == [0, 1, 200, 2]


def test_a_vector_only_template_kernel_starts_only_on_its_vector_pass(kernels):
    out_np = np.full((16,), -1, np.int32)
    out_np[8] = 0
    out = pyasc.tensor(out_np, device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("mix_split_vec_only_tpl<half>"), 1, (out,))
    pyasc.synchronize("sim")
    got = out.numpy()
    assert got[:4].tolist() == [0, 1, 200, 2] and got[8] == 1  # the vector pass only, once


def test_only_mixed_kernels_testing_the_core_macros_build_twice():
    flags = pyasc_sim.build.arch_defines("Ascend910B1", "vec")
    mixed = "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);"
    split = b"#if defined(__DAV_C220_CUBE__)\n#elif defined(__DAV_C220_VEC__)\n#endif\n"
    assert mix_build.wanted(flags, mixed, [split])
    assert mix_build.wanted(pyasc_sim.build.arch_defines("Ascend910B1", "mix"), mixed, [b"", split])
    assert not mix_build.wanted(flags, mixed, [b"if ASCEND_IS_AIC { }"])  # branches at run time: once
    assert not mix_build.wanted(flags, "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);", [split])
    assert mix_build.wanted(flags, "", [split + b"KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);"])  # under an #if
    assert not mix_build.wanted(pyasc_sim.build.arch_defines("Ascend910B1", "cube"), mixed, [split])
    passes = {k: mix_build.pass_flags(pyasc_sim.build.arch_defines("Ascend910B1", "mix"), k) for k in ("aic", "aiv")}
    assert "-D__DAV_C220_CUBE__=1" in passes["aic"] and "-D__DAV_C220_VEC__=1" not in passes["aic"]
    assert "-D__DAV_C220_VEC__=1" in passes["aiv"] and "-D__DAV_C220_CUBE__=1" not in passes["aiv"]
    assert mix_build.link_flags(["-O2", "-include", "t.h", "-DX=1", "-I", "inc", "-shared", "-lm"]) == \
        ["-O2", "-shared", "-lm"]


def test_an_error_in_the_vector_pass_names_its_line(tmp_path):
    src = tmp_path / "bad_vec.cpp"
    src.write_text(
        '#include "kernel_operator.h"\n'
        'extern "C" __global__ __aicore__ void bad(GM_ADDR x) {\n'
        "    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);\n"
        "#if defined(__DAV_C220_CUBE__)\n"
        "    (void)x;\n"
        "#elif defined(__DAV_C220_VEC__)\n"
        "    undeclared_in_the_vector_half(x);\n"
        "#endif\n"
        "}\n")
    with pytest.raises(pyasc_sim.KernelCompileError, match=r"bad_vec\.cpp:7: error:.*undeclared_in_the_vector_half"):
        pyasc_sim.compile(src, opt="-O0")


def test_a_vector_half_that_hands_a_flag_back_releases_its_aic(kernels):
    out = pyasc.full((8,), -1, dtype="int32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("mix_split_handback"), 1, (out, np.int32(0)))
    pyasc.synchronize("sim")
    assert out.numpy()[0] == 7


def test_the_vector_halfs_own_failure_is_reported_not_the_aics_deadlock(kernels):
    # the AIV fail before setting the flag their AIC waits for: the AIC's cross-core deadlock is only the
    # consequence; the launch names the cause (as public kernels fail: kda-ascendc k2_mix2's AIV pipe-race)
    out = pyasc.full((8,), -1, dtype="int32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("mix_split_handback"), 1, (out, np.int32(1)))
    with pytest.raises(pyasc.PyascError) as err:
        pyasc.synchronize("sim")
    msg = str(err.value)
    assert "AIV 0" in msg and "local-out-of-bounds" in msg and "cross-core-deadlock" not in msg, msg
    assert out.numpy()[0] == -1
