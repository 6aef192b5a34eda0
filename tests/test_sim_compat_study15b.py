"""Idioms of the round-15 (study15b) public kernels (Ascend/IndexSDK retrieval kernels, backends/sim/kernel_api/
COMPAT.md): host tiling headers that take TCubeTiling from the older SDK paths tiling/matrix/matmul_tilingdata.h /
matmul_tiling.h, `using namespace matmul;` alone (CANN's namespace matmul brings AscendC's names in), an operator
class that keeps a copy of the kernel's TPipe, and the builtins get_subblockid() / get_subblockdim() next to
get_block_idx(), which counts AI Cores (groups) on the vector cores of a mixed kernel. Kernels are our own
(kernels/compat/op_project_study15b, kernels/compat/study15b_subblock.cpp), run on sim vs NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR, on_sim
from pyasc_sim import hl_tiling, tiling

OP = ASCENDC_DIR / "compat" / "op_project_study15b"
SRC = OP / "op_kernel" / "mm_blocked.cpp"
HDR = OP / "op_host" / "mm_blocked_tiling.h"

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.fixture(scope="module")
def binary():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1", tiling_header=HDR), device="sim")


def _tiling_bytes(cube=None, scale_rows=0):
    t = pyasc_sim.tiling_struct(HDR, scaleRows=scale_rows)
    raw = bytearray(bytes(t))
    if cube is not None:  # the TCubeTiling member is a kernel_tiling.h struct: placed by its offset
        f = next(f for f in tiling.layout(HDR).fields if f.name == "cubeTiling")
        raw[f.offset:f.offset + f.size] = cube.to_bytes()[:f.size]
    return on_sim(np.frombuffer(bytes(raw), np.uint8).copy())


def _workspace():
    return pyasc.zeros((pyasc_sim.SYS_WORKSPACE_SIZE + 1024,), dtype="uint8", device="sim")


@pytest.mark.parametrize("m, n, k, cores", [(32, 48, 40, 1), (64, 64, 32, 2), (64, 128, 48, 4)])
def test_matmul_namespace_alone_and_old_tiling_headers(binary, m, n, k, cores):
    rng = np.random.default_rng(m * n + k)
    a = rng.integers(-4, 5, (m, k)).astype(np.float32)
    b = rng.integers(-4, 5, (k, n)).astype(np.float32)
    cube = hl_tiling.matmul_tiling(m, n, k, core_num=cores, a_dtype="float32", c_dtype="float32")
    assert cube.usedCoreNum == cores  # the block split the kernel computes from GetBlockIdx() is exercised
    c = pyasc.full((m * n,), -1.0, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("mm_blocked"), cube.usedCoreNum,
                     (on_sim(a), on_sim(b), c, _workspace(), _tiling_bytes(cube)))
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(c.numpy().reshape(m, n), a @ b)  # small integers: exact in float32


def test_operator_keeps_a_copy_of_the_kernel_pipe(binary):
    n, blocks = 64, 3
    x = np.random.default_rng(3).standard_normal(n * blocks).astype(np.float32)
    y = pyasc.zeros((n * blocks,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("scale_pipe_copy"), blocks, (on_sim(x), y, _workspace(), _tiling_bytes(scale_rows=n)))
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(y.numpy(), x * np.float32(2))


def test_pipe_copy_semantics(tmp_path):
    # compile-time: TPipe is copy-constructible and copy-assignable, as the NPU compiler's implicit members are
    src = tmp_path / "k.cpp"
    src.write_text('#include "kernel_operator.h"\n#include <type_traits>\n'
                   "static_assert(std::is_copy_assignable_v<AscendC::TPipe> && "
                   "std::is_copy_constructible_v<AscendC::TPipe>);\n"
                   'extern "C" __global__ __aicore__ void k(GM_ADDR x) {}\n')
    pyasc_sim.compile(src, opt="-O0")


@pytest.mark.parametrize("groups", [1, 3])
def test_builtin_block_ids_on_mixed_vector_cores(groups):
    fn = pyasc_acl.Binary(pyasc_sim.compile(ASCENDC_DIR / "compat" / "study15b_subblock.cpp", opt="-O1"),
                          device="sim").function("subblock_ids")
    out = pyasc.full((groups * 2 * 8,), -1, dtype="int32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(fn, groups, (out,))
    pyasc.synchronize("sim")
    got = out.numpy().reshape(groups * 2, 8)
    for vid in range(groups * 2):
        g, sub = divmod(vid, 2)
        # get_block_idx, get_block_num, get_subblockid, get_subblockdim, block_idx, GetBlockIdx, GetBlockNum, vid
        np.testing.assert_array_equal(got[vid], [g, groups, sub, 2, g, vid, groups, vid])


@pytest.mark.parametrize("rows, dim, blocks", [(32, 64, 1), (48, 96, 2)])
def test_transposed_nz_operand_and_nz_local_result(binary, rows, dim, blocks):
    # x x^T with x as A and as transposed NZ B (both the same TSCM tensor), C NZ half in a local tensor written
    # by a synchronous IterateAll and read by the vector unit right after (no race), diagonal fractals picked
    rng = np.random.default_rng(rows + dim)
    x = rng.integers(-9, 10, (blocks * rows, dim)).astype(np.int8)
    onehot = np.zeros((rows, 16), np.float16)
    onehot[np.arange(rows), np.arange(rows) % 16] = 1
    cube = hl_tiling.matmul_tiling(rows, rows, dim, a_dtype="int8", c_dtype="float16")
    y = pyasc.full((blocks * rows,), -1.0, dtype="float16", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("row_norms_nz"), blocks,
                     (on_sim(x), on_sim(onehot), y, _workspace(), _tiling_bytes(cube, scale_rows=dim)))
    pyasc.synchronize("sim")
    want = (x.astype(np.int64) ** 2).sum(1).astype(np.float16)  # the exact sums, rounded to half as C is
    np.testing.assert_array_equal(y.numpy(), want)
