"""Fixes from the second public-kernel study (backends/sim/kernel_api/COMPAT.md, issue 8's measure
of done): kernels inside ``extern "C" { }``, acl/acl.h in a kernel header, the lowercase mask-mode
intrinsics and AscendCUtils::ResetMask, ReduceSum<T, isSetMask>, Broadcast (lib/pad/broadcast.h),
braced DataCopyPad parameters, scalar min / max / Ceil, the SoC constants, MatmulImpl and the SDK
paths lib/matrix/matmul/{matmul,tiling}.h and lib/rmsnorm/kernel_operator_rmsnorm_intf.h. The
kernels are our own, in the style of the public kernels studied (kernels/compat/study2_idioms.cpp)."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat" / "study2_idioms.cpp"
K, ROWS, COLS, OUT = 64, 4, 16, 200


pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


def test_study2_idioms_match_numpy():
    blocks = 2
    rng = np.random.default_rng(82)
    x = rng.uniform(-3, 3, blocks * K).astype(np.float32)
    out = pyasc.zeros((blocks * OUT,), dtype="float32", device="sim")
    binary = pyasc_sim.compile(SRC, opt="-O1")
    pyasc_acl.launch(pyasc_acl.Binary(binary, device="sim").function("study2_idioms"), blocks,
                     (pyasc.tensor(x, device="sim"), out))
    got = out.numpy().reshape(blocks, OUT)
    for b in range(blocks):
        xb = x[b * K:(b + 1) * K]
        np.testing.assert_allclose(got[b, :K], xb * xb, rtol=1e-6)
        np.testing.assert_array_equal(got[b, K:K + ROWS * COLS].reshape(ROWS, COLS),
                                      np.broadcast_to(xb[:ROWS, None], (ROWS, COLS)))
        np.testing.assert_array_equal(got[b, K + ROWS * COLS:K + 2 * ROWS * COLS].reshape(ROWS, COLS),
                                      np.broadcast_to(xb[None, :COLS], (ROWS, COLS)))
        tail = got[b, K + 2 * ROWS * COLS:]
        np.testing.assert_allclose(tail[0], xb.astype(np.float64).sum(), rtol=1e-5, atol=1e-5)
        assert tail[1:].tolist() == [min(b, 1), max(b, 1), 4, 512, 128, 1, 32]


def test_extern_c_block_kernels_are_found():
    """Kernels declared inside `extern "C" { }` (the `#ifdef __cplusplus` wrapper public sources
    use) get launch stubs; a kernel only declared in a nested scope of the block does not. A kernel
    defined outside the block has C++ linkage and gets one too (round 15: C++-linkage kernels)."""
    pre = ('extern "C" {\n__pyasc_global__ __pyasc_aicore__ void k1(__pyasc_gm__ unsigned char * x) {}\n'
           'namespace n { __pyasc_global__ __pyasc_aicore__ void hidden(int a); }\n'
           '__pyasc_global__ __pyasc_aicore__ void k2(int a);\n}\n'
           '__pyasc_global__ __pyasc_aicore__ void outside(int a) {}\n')
    exposed = pyasc_sim._stubgen.expose_extern_c_blocks(pre)
    assert exposed.count("\n") == pre.count("\n")  # locations (line numbers) stay right
    names = sorted(k.name for k in pyasc_sim._stubgen.find_kernels(exposed, "t.cpp"))
    assert names == ["k1", "k2", "outside"]


def test_broadcast_rejects_a_shape_that_does_not_broadcast(tmp_path):
    src = tmp_path / "bad_broadcast.cpp"
    src.write_text(
        '#include "kernel_operator.h"\n#include "lib/pad/broadcast.h"\n'
        'extern "C" __global__ __aicore__ void bad_broadcast(GM_ADDR out) {\n'
        '    AscendC::TPipe pipe; AscendC::TBuf<AscendC::TPosition::VECCALC> b;\n'
        '    pipe.InitBuffer(b, 512 * sizeof(float));\n'
        '    AscendC::LocalTensor<float> t = b.Get<float>();\n'
        '    const uint32_t dst[2] = {4, 16}; const uint32_t srcShape[2] = {4, 8};\n'
        '    AscendC::Broadcast<float, 2, 1>(t[256], t, dst, srcShape);\n'
        '}\n')
    binary = pyasc_sim.compile(src, opt="-O0")
    out = pyasc.zeros((8,), dtype="float32", device="sim")
    with pytest.raises(pyasc.PyascError, match="broadcast-shape|Broadcast<dim 2, axis 1>"):
        pyasc_acl.launch(pyasc_acl.Binary(binary, device="sim").function("bad_broadcast"), 1, (out,))
        pyasc.synchronize("sim")


def test_sdk_paths_and_matmul_impl_compile(tmp_path):
    """The SDK header paths the study's engine kernels include, MatmulImpl with SetSubBlockIdx and
    the matmul tiling header; TOTAL_* in a buffer size (compile only: no Matmul is run here)."""
    src = tmp_path / "sdk_paths.cpp"
    src.write_text(
        '#include "kernel_operator.h"\n#include "kernel_tiling/kernel_tiling.h"\n'
        '#include "lib/matrix/matmul/matmul.h"\n#include "lib/matrix/matmul/tiling.h"\n'
        '#include "lib/rmsnorm/kernel_operator_rmsnorm_intf.h"\n'
        'using namespace AscendC;\nusing namespace matmul;\n'
        'extern "C" __global__ __aicore__ void sdk_paths(GM_ADDR a, GM_ADDR tiling) {\n'
        '    if (g_coreType == AIV) { return; }\n'
        '    TPipe pipe; TCubeTiling t;\n'
        '    typedef MatmulType<TPosition::GM, CubeFormat::ND, half> AT;\n'
        '    typedef MatmulType<TPosition::GM, CubeFormat::ND, float> CT;\n'
        '    MatmulImpl<AT, AT, CT, CT> mm; mm.SetSubBlockIdx(0);\n'
        '    (void)t; (void)TOTAL_VEC_LOCAL_SIZE; (void)Ceil(t.M, 16);\n'
        '}\n')
    assert pyasc_sim.compile(src, opt="-O0")
