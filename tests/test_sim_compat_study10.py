"""Fixes from the tenth public-kernel study (backends/sim/kernel_api/COMPAT.md, round 10): the newer
SDK header path ``ascendc/basic_api/kernel_operator.h`` and ``acl/acl_base.h`` / ``tiling/tiling_api.h``,
the CPU-debug globals ``block_idx`` / ``block_num`` and the builtins ``get_block_idx()`` /
``get_block_num()``, ``likely()``, ``AscendC::AlignUp``, ``AllocTensor`` / ``FreeTensor`` on a ``TBuf``,
``LocalMemAllocator`` (static tensors, with the static-tensor bounds check) and the CCE data-move
builtins ``copy_gm_to_ubuf_align_b*`` / ``copy_ubuf_to_gm_align_b*``. The kernels are our own, in the
style of the public kernels studied (kernels/compat/study10_idioms.cpp)."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat" / "study10_idioms.cpp"
UB_BYTES = 196608  # Ascend910B1 (the default SoC profile)


@pytest.fixture(scope="module")
def kernels():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1"), device="sim")


pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.mark.parametrize("cols", [8, 13])
def test_block_globals_and_align_copies_match_numpy(kernels, cols):
    blocks, rows = 3, 4
    x = np.random.default_rng(cols).uniform(-4, 4, (blocks * rows, cols)).astype(np.float32)
    y = pyasc.zeros((blocks * rows * cols,), dtype="float32", device="sim")
    xd = pyasc.tensor(x.ravel(), device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("rows_scale_plus_block"), blocks, (xd, y, rows, cols))
    pyasc.synchronize("sim")
    want = x * np.float32(2) + np.repeat(np.arange(blocks, dtype=np.float32), rows)[:, None]
    np.testing.assert_array_equal(y.numpy().reshape(blocks * rows, cols), want)


def test_local_mem_allocator_hands_out_aligned_static_tensors(kernels):
    n = 40  # 160 bytes: the next tensor starts at the next 32-byte boundary (160), then 320
    rng = np.random.default_rng(10)
    a, b = (rng.standard_normal(n).astype(np.float32) for _ in range(2))
    out = pyasc.zeros((n,), dtype="float32", device="sim")
    addrs = pyasc.zeros((8,), dtype="int32", device="sim")
    ad, bd = pyasc.tensor(a, device="sim"), pyasc.tensor(b, device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("allocator_add"), 1, (ad, bd, out, addrs, n))
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(out.numpy(), a + b)
    assert addrs.numpy()[:3].tolist() == [160, 320, 320 + 256]


def test_local_mem_allocator_past_the_ub_end_is_reported(kernels):
    n = UB_BYTES // 4 // 2 + 8  # two of these do not fit
    out = pyasc.zeros((8,), dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function("allocator_overflow"), 1, (out, n))
    with pytest.raises(pyasc_acl.AclKernelError, match=r"'local-out-of-bounds' failed at .*study10_idioms.cpp:\d+: "
                                                        r"LocalTensor\(TPosition::VECCALC, addr 98336, tileSize 24584\)"):
        pyasc.synchronize("sim")


def test_tiling_api_header_brings_the_tiling_macros(tmp_path):
    """An op project's tiling header that includes tiling/tiling_api.h next to register/tilingdata_base.h."""
    (tmp_path / "op_host").mkdir()
    (tmp_path / "op_kernel").mkdir()
    th = tmp_path / "op_host" / "scale_tiling.h"
    th.write_text('#include "register/tilingdata_base.h"\n#include "tiling/tiling_api.h"\nnamespace optiling {\n'
                  "BEGIN_TILING_DATA_DEF(ScaleTilingData)\nTILING_DATA_FIELD_DEF(uint32_t, n);\n"
                  "TILING_DATA_FIELD_DEF(float, k);\nEND_TILING_DATA_DEF;\n"
                  "REGISTER_TILING_DATA_CLASS(Scale, ScaleTilingData)\n}\n")
    src = tmp_path / "op_kernel" / "scale.cpp"
    src.write_text('#include "kernel_operator.h"\nusing namespace AscendC;\n'
                   'extern "C" __global__ __aicore__ void scale(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)\n'
                   "{\n    GET_TILING_DATA(t, tiling);\n    GlobalTensor<float> gx, gy;\n"
                   "    gx.SetGlobalBuffer((__gm__ float *)x, t.n);\n    gy.SetGlobalBuffer((__gm__ float *)y, t.n);\n"
                   "    for (uint32_t i = 0; i < t.n; ++i) gy.SetValue(i, gx.GetValue(i) * t.k);\n}\n")
    fn = pyasc_acl.Binary(pyasc_sim.compile(src, opt="-O1", tiling_header=th), device="sim").function("scale")
    x = np.arange(16, dtype=np.float32)
    y = pyasc.zeros((16,), dtype="float32", device="sim")
    t = pyasc_sim.tiling_struct(th, n=16, k=0.5)
    xd = pyasc.tensor(x, device="sim")
    td = pyasc.tensor(np.frombuffer(bytes(t), np.uint8).copy(), device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(fn, 1, (xd, y, pyasc.zeros((32,), dtype="uint8", device="sim"), td))
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(y.numpy(), x * np.float32(0.5))
