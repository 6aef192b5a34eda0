"""The kernel type of a kernel that declares none, inferred as the NPU compiler does (backends/sim/kernel_api/
COMPAT.md, "Round 17 (mix17)"; kernel API README, "Kernel type inference"): public mixed kernels (sgl-kernel-npu
tri_inv_cube, SimmerChan/RecSDK attention_fusion) leave out KERNEL_TASK_TYPE_DEFAULT and rely on the compiler to
build cube + vector code as MIX AIC:AIV 1:2, launched as numBlocks groups of one AIC and two AIV. Our kernel
(kernels/compat/mix_undeclared.cpp) in that idiom runs on sim and is compared with NumPy bit for bit; a pure vector
kernel stays vector-only (numBlocks vector cores), and the rules that switch the inference off are checked."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR
from pyasc_sim import task_infer

SRC = ASCENDC_DIR / "compat" / "mix_undeclared.cpp"
# the same halves dispatched by `if constexpr (g_coreType == AIV)`, built core="mix" (MindSpore Lite's MixCore idiom)
SRC_CONSTEXPR = ASCENDC_DIR / "compat" / "mix_undeclared_constexpr.cpp"
# ... and by a member template whose parameter defaults to g_coreType (Catlass's idiom, NPUKernelBench level3 Gemm)
SRC_MEMBER_DEFAULT = ASCENDC_DIR / "compat" / "mix_undeclared_member_default.cpp"

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


def _dev(x):
    return pyasc.tensor(np.ascontiguousarray(x), device="sim")


def _run_mixed(binary, groups, name="mix_undeclared"):
    rng = np.random.default_rng(groups)
    x = rng.integers(-1, 2, (groups, 32, 32)).astype(np.float16)
    ws = pyasc.zeros((groups * 1024,), dtype="float16", device="sim")
    y = pyasc.full((groups * 1024,), -7.0, dtype="float32", device="sim")
    out = pyasc.full((groups * 1024,), -7.0, dtype="float32", device="sim")
    info = pyasc.full((groups * 2 * 8,), -1, dtype="int32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function(name), groups, (_dev(x), ws, y, out, info))
    pyasc.synchronize("sim")
    w = 2 * x.astype(np.float64) - 1
    want = np.stack([wi @ wi for wi in w]).astype(np.float32)  # |sums| <= 288: exact in float
    return want, y.numpy().reshape(groups, 32, 32), out.numpy().reshape(groups, 32, 32), info.numpy()


@pytest.fixture(scope="module", params=["run-time dispatch", "constexpr dispatch", "member-default dispatch"])
def inferred(request):
    if request.param == "run-time dispatch":
        return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1"), device="sim"), "mix_undeclared"
    if request.param == "member-default dispatch":
        return pyasc_acl.Binary(pyasc_sim.compile(SRC_MEMBER_DEFAULT, opt="-O1", core="mix"), device="sim"), \
            "mix_undeclared_member_default"
    # g_coreType is a constant only per core kind: the core="mix" build compiles it once per kind
    return pyasc_acl.Binary(pyasc_sim.compile(SRC_CONSTEXPR, opt="-O1", core="mix"), device="sim"), \
        "mix_undeclared_constexpr"


@pytest.mark.parametrize("groups", [1, 3])
def test_undeclared_cube_vector_kernel_launches_groups_of_one_aic_two_aiv(inferred, groups):
    binary, name = inferred
    want, y, out, info = _run_mixed(binary, groups, name)
    np.testing.assert_array_equal(y, want)  # the AIC's Mmad of what both AIV wrote
    np.testing.assert_array_equal(out, want / 2 + 1)  # each AIV's rows after the AIC set its flag
    facts = info.reshape(groups * 2, 8)[:, :4]
    # per AIV: GetBlockIdx (group * 2 + sub), GetBlockNum (groups: numBlocks counts groups), sub, GetTaskRation
    want_facts = [[g * 2 + s, groups, s, 2] for g in range(groups) for s in range(2)]
    np.testing.assert_array_equal(facts, want_facts)


def test_explicit_default_task_type_flag_gives_the_same_launch(tmp_path):
    """Round 16's -DPYASC_SIM_DEFAULT_TASK_TYPE still works (and wins over the inference)."""
    b = pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1",
                                           extra_flags=["-DPYASC_SIM_DEFAULT_TASK_TYPE=KERNEL_TYPE_MIX_AIC_1_2"]),
                         device="sim")
    want, y, out, info = _run_mixed(b, 2)
    np.testing.assert_array_equal(y, want)
    np.testing.assert_array_equal(out, want / 2 + 1)
    np.testing.assert_array_equal(info.reshape(4, 8)[:, :4], [[0, 2, 0, 2], [1, 2, 1, 2], [2, 2, 0, 2], [3, 2, 1, 2]])


# A vector kernel (vector compute, a scalar `if ASCEND_IS_AIC` branch, no cube instruction): every block is
# one vector core, as before the inference existed.
VECTOR_SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void vector_facts(GM_ADDR x, GM_ADDR y, GM_ADDR info)
{
    GlobalTensor<float> xGm, yGm;
    GlobalTensor<int32_t> infoGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * 64, 64);
    yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * 64, 64);
    infoGm.SetGlobalBuffer((__gm__ int32_t *)info + GetBlockIdx() * 8, 8);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, facts;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    pipe.InitBuffer(facts, 8 * sizeof(int32_t));
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xGm, 64);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Adds(t, t, 1.0f, 64);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, t, 64);
    LocalTensor<int32_t> f = facts.Get<int32_t>();
    for (int32_t i = 0; i < 8; ++i) f.SetValue(i, 0);
    f.SetValue(0, static_cast<int32_t>(GetBlockIdx()));
    f.SetValue(1, static_cast<int32_t>(GetBlockNum()));
    f.SetValue(2, ASCEND_IS_AIV ? 1 : 0);
    if ASCEND_IS_AIC {
        f.SetValue(3, 1);
    }
    SetFlag<HardEvent::S_MTE3>(EVENT_ID1);
    WaitFlag<HardEvent::S_MTE3>(EVENT_ID1);
    DataCopy(infoGm, f, 8);
}
"""


def test_pure_vector_kernel_stays_vector_only():
    b = pyasc_acl.Binary(pyasc_sim.compile(VECTOR_SRC, opt="-O1"), device="sim")
    blocks = 5
    x = np.arange(blocks * 64, dtype=np.float32)
    y = pyasc.zeros((blocks * 64,), dtype="float32", device="sim")
    info = pyasc.full((blocks * 8,), -1, dtype="int32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(b.function("vector_facts"), blocks, (_dev(x), y, info))
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(y.numpy(), x + 1)
    # numBlocks vector cores, indices 0 .. 4, none of them an AIC
    np.testing.assert_array_equal(info.numpy().reshape(blocks, 8)[:, :4], [[i, blocks, 1, 0] for i in range(blocks)])


A2_VEC = ["-D__CCE_AICORE__=220", "-D__DAV_C220_VEC__=1", "-D__DAV_VEC__=1"]


AWARE = b"if ASCEND_IS_AIV { Muls(x, x, 2.0f, 64); } if ASCEND_IS_AIC { Mmad(c, a, b, p); }"


@pytest.mark.parametrize("flags, names, source, want", [
    (A2_VEC, ["k"], AWARE, True),  # one kernel, A2 build with vector cores, cores told apart: inferred
    (A2_VEC, ["k<half>", "k<float>"], AWARE, True),  # instances of one template kernel are one kernel function
    (A2_VEC, ["k"], b"g_coreType == AIV", True),
    (A2_VEC, ["k"], b"REGIST_MATMUL_OBJ(&pipe, ws, mm, &tiling);", True),
    (A2_VEC, ["k"], b"ffts_cross_core_sync(PIPE_MTE3, conf); wait_flag_dev(12);", True),
    # cube and vector code that never tells the cores apart (pyasc's JIT tutorials): one core per block, as before
    (A2_VEC, ["k"], b"Mmad(c, a, b, p); Muls(x, x, 2.0f, 64);", False),
    (A2_VEC, ["k", "other"], AWARE, False),  # two kernels in the unit: the developer must set the type
    (A2_VEC, ["k"], AWARE + b"KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);", False),  # declared: kept
    (A2_VEC, ["k"], AWARE + b"KERNEL_TASK_TYPE(1, KERNEL_TYPE_MIX_AIC_1_2);", False),
    ([*A2_VEC, "-DPYASC_SIM_DEFAULT_TASK_TYPE=KERNEL_TYPE_MIX_AIC_1_2"], ["k"], AWARE, False),  # the explicit flag
    (["-D__CCE_AICORE__=220", "-D__DAV_C220_CUBE__=1"], ["k"], AWARE, False),  # core="cube": the AIC half
    (["-D__CCE_AICORE__=310", "-D__DAV_C310_VEC__=1"], ["k"], AWARE, False),  # Atlas 350: no inference
    (["-D__CCE_AICORE__=200", "-D__DAV_M200__=1"], ["k"], AWARE, False),  # Atlas inference series: none
])
def test_when_the_build_asks_for_the_inference(flags, names, source, want):
    assert task_infer.wanted(flags, "", [source], names) is want


def test_declaration_expanded_by_the_preprocessor_counts():
    pre = "void k() { ::pyasc_sim::kapi::declare_task_type(static_cast<int>(KERNEL_TYPE_AIV_ONLY)); }"
    assert task_infer.wanted(A2_VEC, pre, [AWARE], ["k"]) is False
    # the kernel's own headers reach the preprocessed text (headers found through include_dirs too)
    assert task_infer.wanted(A2_VEC, "if (ASCEND_IS_AIV) {}", [b""], ["k"]) is True


# A vector kernel whose code sits under `if constexpr (g_coreType == AIV)`, built core="mix" with no type declared:
# compiled once per core kind (g_coreType is a constant only so), its binary has vector instructions only, so its
# blocks are vector cores running the vector pass.
GUARDED_SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void vec_guarded(GM_ADDR x, GM_ADDR y)
{
    if constexpr (g_coreType == AIV) {
        GlobalTensor<float> xGm, yGm;
        xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * 64, 64);
        yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * 64, 64);
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 64 * sizeof(float));
        LocalTensor<float> t = buf.Get<float>();
        DataCopy(t, xGm, 64);
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
        Muls(t, t, 3.0f, 64);
        SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
        DataCopy(yGm, t, 64);
    }
}
"""


def test_constexpr_vector_kernel_built_mix_runs_its_vector_pass():
    b = pyasc_acl.Binary(pyasc_sim.compile(GUARDED_SRC, opt="-O1", core="mix"), device="sim")
    blocks = 3
    x = np.arange(blocks * 64, dtype=np.float32)
    y = pyasc.zeros((blocks * 64,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(b.function("vec_guarded"), blocks, (_dev(x), y))
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(y.numpy(), x * 3)


@pytest.mark.parametrize("text, want", [
    ("template <int32_t CORE_TYPE = g_coreType> void run(P &p) {}", True),
    ("template <int32_t C = AscendC::g_coreType>\nvoid run();", True),
    ("int32_t t = g_coreType; if (t == AIV) {}", False),  # a run-time value: one build with both macros
])
def test_member_template_defaulted_to_core_type_builds_once_per_core_kind(text, want):
    from pyasc_sim import mix_build
    flags = [mix_build.CUBE_FLAG, mix_build.VEC_FLAG]
    assert mix_build.wanted_undeclared(flags, text, [b""], True) is want
    assert mix_build.wanted_undeclared(flags, "", [text.encode()], True) is want
    assert mix_build.wanted_undeclared(flags, text, [b""], False) is False  # only when the type is inferred


# a vector half that only moves data (UB -> GM copies, flags) still makes the kernel mixed: Catlass padding
# prologues (NPUKernelBench level3 OptimizedMatmul), whose AIV part copies with DataCopyPad and computes nothing
SRC_COPY_ONLY = ASCENDC_DIR / "compat" / "mix_undeclared_copy_only.cpp"


@pytest.mark.parametrize("groups", [1, 3])
def test_undeclared_kernel_whose_vector_half_only_copies_is_mixed(groups):
    b = pyasc_acl.Binary(pyasc_sim.compile(SRC_COPY_ONLY, opt="-O1", core="mix"), device="sim")
    rng = np.random.default_rng(groups + 40)
    x = rng.integers(-2, 3, (groups, 32, 32)).astype(np.float16)
    ws = pyasc.zeros((groups * 1024,), dtype="float16", device="sim")
    y = pyasc.full((groups * 1024,), -7.0, dtype="float32", device="sim")
    out = pyasc.full((groups * 1024,), -7.0, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(b.function("mix_undeclared_copy_only"), groups, (_dev(x), ws, y, out))
    pyasc.synchronize("sim")
    want = np.stack([xi.astype(np.float64) @ xi for xi in x]).astype(np.float32)  # |sums| <= 128: exact
    np.testing.assert_array_equal(ws.numpy().reshape(groups, 32, 32), x)  # both AIV copied their rows
    np.testing.assert_array_equal(y.numpy().reshape(groups, 32, 32), want)  # the AIC ran after both
    np.testing.assert_array_equal(out.numpy().reshape(groups, 32, 32), want)  # and released them
