"""Fixes from round 15 of the public-kernel study, helper study15c (backends/sim/kernel_api/COMPAT.md,
"Round 15 (study15c)"): the CCE general data-move intrinsics ``copy_gm_to_ubuf`` / ``copy_ubuf_to_gm``
(bursts of 32-byte blocks with gaps; the byte mode of ``copy_ubuf_to_gm``) and ``get_imm(0)`` as a raw
Unified Buffer address, which PaddlePaddle's custom-device Ascend C kernel declares a tiling helper with.
The kernels are our own, in the style of the public code studied (kernels/compat/study15c_idioms.cpp)."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat" / "study15c_idioms.cpp"


@pytest.fixture(scope="module")
def kernels():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1"), device="sim")


pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


def _run(kernels, name, blocks, args):
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function(name), blocks, args)
    pyasc.synchronize("sim")


@pytest.mark.parametrize(("n", "scale", "bias"), [(8, 2.0, 1.0), (64, -0.5, 3.25)])
def test_tiling_read_through_ub_offset_zero(kernels, n, scale, bias):
    tiling = np.zeros(16, np.uint8)
    tiling[0:4] = np.frombuffer(np.uint32(n).tobytes(), np.uint8)
    tiling[4:8] = np.frombuffer(np.float32(scale).tobytes(), np.uint8)
    tiling[8:12] = np.frombuffer(np.float32(bias).tobytes(), np.uint8)
    tiling = np.concatenate([tiling, np.zeros(16, np.uint8)])  # the helper moves one whole 32-byte block
    x = np.random.default_rng(n).standard_normal(n).astype(np.float32)
    y = pyasc.zeros((n,), dtype="float32", device="sim")
    _run(kernels, "tiling_via_ubuf", 1, (pyasc.tensor(x, device="sim"), y, pyasc.tensor(tiling, device="sim")))
    np.testing.assert_array_equal(y.numpy(), x * np.float32(scale) + np.float32(bias))


@pytest.mark.parametrize(("rows", "length", "src_gap", "dst_gap"), [(3, 1, 0, 0), (4, 2, 1, 3), (2, 3, 2, 1)])
def test_bursts_and_gaps_in_32_byte_blocks(kernels, rows, length, src_gap, dst_gap):
    blk = 8  # floats per 32-byte block
    x = np.random.default_rng(rows).standard_normal(rows * (length + src_gap) * blk).astype(np.float32)
    out_len = rows * (length + dst_gap) * blk
    y = pyasc.tensor(np.full(out_len, -7.0, np.float32), device="sim")
    _run(kernels, "strided_rows_double", 1, (pyasc.tensor(x, device="sim"), y, rows, length, src_gap, dst_gap))
    want = np.full(out_len, -7.0, np.float32)
    for r in range(rows):
        src = x[r * (length + src_gap) * blk:][:length * blk]
        want[r * (length + dst_gap) * blk:][:length * blk] = src * 2
    np.testing.assert_array_equal(y.numpy(), want)


@pytest.mark.parametrize("n", [3, 8, 13])
def test_byte_mode_stores_exactly_n_values(kernels, n):
    x = np.arange(((n + 7) // 8) * 8, dtype=np.float32)
    y = pyasc.tensor(np.full(16, -1.0, np.float32), device="sim")
    _run(kernels, "byte_mode_store", 1, (pyasc.tensor(x, device="sim"), y, n))
    want = np.full(16, -1.0, np.float32)
    want[:n] = x[:n] + 1
    np.testing.assert_array_equal(y.numpy(), want)


def test_misaligned_ub_destination_is_reported(kernels):
    xd = pyasc.tensor(np.zeros(8, np.float32), device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("misaligned_cce_copy"), 1, (xd,))
    with pytest.raises(pyasc_acl.AclKernelError, match=r"'ub-alignment' failed at .*study15c_idioms\.cpp:\d+"):
        pyasc.synchronize("sim")


@pytest.mark.parametrize("blocks", [1, 3])
def test_namespaced_kernel_launched_by_its_host_launcher(kernels, blocks):
    n = 16
    x = np.random.default_rng(blocks).standard_normal(blocks * n).astype(np.float32)
    y = pyasc.zeros((blocks * n,), dtype="float32", device="sim")
    f = pyasc_sim.host_function(pyasc_sim.compile(SRC, opt="-O1"), "ns_add_one_do",
                                ["uint32", "pointer", "pointer", "pointer", "uint32"])
    pyasc.synchronize("sim")
    f(blocks, None, pyasc.tensor(x, device="sim"), y, n)
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(y.numpy(), x + 1)


def test_cxx_linkage_kernels_are_launchable_by_plain_name(kernels):
    n = 24
    x = np.random.default_rng(n).standard_normal(n).astype(np.float32)
    y = pyasc.zeros((n,), dtype="float32", device="sim")
    _run(kernels, "cxx_linkage_negate", 1, (pyasc.tensor(x, device="sim"), y, n))
    np.testing.assert_array_equal(y.numpy(), -x)
    assert {"ns_add_one", "cxx_linkage_negate"} <= set(pyasc_sim.build.kernel_names(SRC))


def test_older_sdk_header_paths_compile():
    """``tikcfw/...`` (the compiler/tikcpp include root of older CANN layouts) and ``acl/acl_rt.h``, as
    MindSpore Lite's ascend_native kernels include them, and the bare SDK names ``kernel_common.h`` /
    ``kernel_tpipe_impl.h`` (DrivingSDK hard_voxelize and its arch35 kernels) and the SDK-internal
    ``inner_interface/inner_kernel_operator_intf.h`` (vllm-ascend pos_encoding_kernels) forward to the kernel API."""
    src = "\n".join([
        '#include "acl/acl.h"',
        '#include "acl/acl_rt.h"',
        '#include "tikcfw/kernel_operator.h"',
        '#include "tikcfw/impl/kernel_utils.h"',
        '#include "tikcfw/interface/kernel_operator_vec_binary_intf.h"',
        '#include "interface/kernel_operator_vec_binary_intf.h"',
        '#include "kernel_common.h"',  # bare SDK names (DrivingSDK hard_voxelize, arch35 kernels)
        '#include "kernel_tpipe_impl.h"',
        '#include "inner_interface/inner_kernel_operator_intf.h"',  # vllm-ascend pos_encoding_kernels
        'extern "C" __global__ __aicore__ void sdk_paths_copy(GM_ADDR x, GM_ADDR y) {',
        "    AscendC::TPipe pipe; AscendC::TBuf<AscendC::TPosition::VECCALC> b; pipe.InitBuffer(b, 32);",
        "    AscendC::LocalTensor<float> t = b.Get<float>(); AscendC::GlobalTensor<float> gx, gy;",
        "    gx.SetGlobalBuffer((__gm__ float *)x, 8); gy.SetGlobalBuffer((__gm__ float *)y, 8);",
        "    AscendC::DataCopy(t, gx, 8); pipe_barrier(PIPE_ALL); AscendC::DataCopy(gy, t, 8);",
        "}",
    ])
    f = pyasc_acl.Binary(pyasc_sim.compile(src, opt="-O1"), device="sim").function("sdk_paths_copy")
    x = np.arange(8, dtype=np.float32)
    y = pyasc.zeros((8,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(f, 1, (pyasc.tensor(x, device="sim"), y))
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(y.numpy(), x)


def test_cube_only_build_knows_its_core_kind_at_compile_time():
    """In a cube-only build g_coreType is the constant AIC (``if constexpr (g_coreType == AIC)`` compiles,
    as in MindSpore Lite's ascend_native Matmul); set_atomic_none() and an unqualified GetSysWorkSpacePtr()
    are accepted there too."""
    src = "\n".join([
        '#include "kernel_operator.h"',
        'extern "C" __global__ __aicore__ void core_kind(GM_ADDR y, GM_ADDR ws) {',
        "    AscendC::SetSysWorkspace(ws);",
        "    set_atomic_none();",
        "    __gm__ int32_t *out = (__gm__ int32_t *)y;",
        "    if constexpr (g_coreType == AscendC::AIC) { out[0] = 1; } else { out[0] = 2; }",
        "    out[1] = GetSysWorkSpacePtr() == ws ? 7 : 8;",
        "}",
    ])
    f = pyasc_acl.Binary(pyasc_sim.compile(src, opt="-O1", core="cube"), device="sim").function("core_kind")
    y = pyasc.zeros((8,), dtype="int32", device="sim")
    ws = pyasc.zeros((pyasc_sim.SYS_WORKSPACE_SIZE,), dtype="uint8", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(f, 1, (y, ws))
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(y.numpy()[:2], [1, 7])
