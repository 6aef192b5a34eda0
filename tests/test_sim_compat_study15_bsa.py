"""Idioms of sgl-kernel-npu's block_sparse_attention kernel (round 15, backends/sim/kernel_api/COMPAT.md):
AscendC::IsSameType / Conditional, GetNormalConfig with its documented BatchMode parameter, the free Align /
AlignDown of the Matmul headers, SelectWithBytesMask in both operand orders (a bool mask wider than the rows, and
the page's alignment constraint refused), and InitOutput (InitGlobalMemory's earlier spelling) over each block's
slice of an output.  The kernel is our own (kernels/compat/study15_bsa_idioms.cpp), compiled once."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR, launch_synced, on_sim

SRC = ASCENDC_DIR / "compat/study15_bsa_idioms.cpp"

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.fixture(scope="module")
def binary():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1"), device="sim")


@pytest.mark.parametrize("x,a", [(100, 64), (128, 64), (5, 0), (1, 7)])
def test_type_helpers_and_align(binary, x, a):
    out = pyasc.zeros((8,), dtype="int32", device="sim")
    launch_synced(binary.function("study15_type_utils"), 1, (out, np.uint32(x), np.uint32(a)))
    got = out.numpy()
    up = 0 if a == 0 else -(-x // a) * a
    down = 0 if a == 0 else x // a * a
    np.testing.assert_array_equal(got, [2, 4, 1, 0, up, -(-x // 64) * 64, down, 1])


@pytest.mark.parametrize("rows,cols,mask_cols", [(3, 16, 32), (4, 64, 64)])
def test_select_with_bytes_mask_both_forms(binary, rows, cols, mask_cols):
    rng = np.random.default_rng(rows * 100 + cols)
    x = rng.standard_normal((rows, cols)).astype(np.float32)
    mask = rng.random((rows, mask_cols)) < 0.4
    y0 = pyasc.zeros((rows * cols,), dtype="float32", device="sim")
    y1 = pyasc.zeros((rows * cols,), dtype="float32", device="sim")
    launch_synced(binary.function("study15_select_bytes_mask"), 1,
                  (on_sim(x), on_sim(mask.astype(np.uint8)), y0, y1, np.uint32(rows), np.uint32(cols), np.uint32(mask_cols)))
    m = mask[:, :cols]  # the mask's extra columns are ignored
    np.testing.assert_array_equal(y0.numpy().reshape(rows, cols), np.where(m, np.float32(-3.0), x))
    np.testing.assert_array_equal(y1.numpy().reshape(rows, cols), np.where(m, x, np.float32(-3.0)))


def test_select_with_bytes_mask_refuses_a_narrow_mask(binary):
    y = pyasc.zeros((8,), dtype="float32", device="sim")
    with pytest.raises(pyasc.PyascError, match=r"invalid-argument.*SelectWithBytesMask.*maskLastAxis 16"):
        launch_synced(binary.function("study15_select_bytes_mask_narrow"), 1, (y,))


@pytest.mark.parametrize("total,per_block,blocks,zeroed", [(100, 32, 4, 5), (64, 16, 5, 16)])
def test_init_output_per_block_slices(binary, total, per_block, blocks, zeroed):
    out = pyasc.tensor(np.full((total,), 7.0, np.float16), device="sim")
    launch_synced(binary.function("study15_init_output"), blocks,
                  (out, np.uint32(total), np.uint32(per_block), np.uint32(zeroed)))
    want = np.full((total,), 7.0, np.float16)
    for b in range(blocks):
        lo, hi = b * per_block, min(total, (b + 1) * per_block)
        if lo >= hi:
            continue
        want[lo:hi] = 2.5
        want[lo:min(hi, lo + zeroed)] = 0
    np.testing.assert_array_equal(out.numpy(), want)


def test_init_output_past_the_end_is_refused(binary):
    out = pyasc.zeros((32,), dtype="float32", device="sim")
    with pytest.raises(pyasc.PyascError, match=r"gm-out-of-bounds.*writes 32 elements into a GlobalTensor of 16"):
        launch_synced(binary.function("study15_init_output_past_end"), 1, (out,))


@pytest.mark.parametrize("m,k,block,blocks,base_n,base_k", [(32, 64, 16, [3, 0, 5, 1], 32, 32),
                                                           (16, 48, 16, [2, 7, 4], 16, 48)])
def test_matmul_custom_copy_b1_gathers_key_blocks(binary, m, k, block, blocks, base_n, base_k):
    from pyasc_sim import hl_tiling
    n = len(blocks) * block
    rng = np.random.default_rng(m + k)
    a = (rng.standard_normal((m, k)) * 0.5).astype(np.float16)
    key = (rng.standard_normal((8 * block, k)) * 0.5).astype(np.float16)
    t = hl_tiling.matmul_tiling(m, n, k, a_dtype="float16", c_dtype="float32", base_n=base_n, base_k=base_k)
    info = np.zeros((8 + len(blocks),), np.int32)  # read as uint32 words by the kernel
    info[:4] = [block, t.baseN, t.baseK, k]
    info[8:] = blocks
    c = pyasc.zeros((m * n,), dtype="float32", device="sim")
    tiling = on_sim(np.frombuffer(t.to_bytes(), dtype=np.uint8).copy())
    launch_synced(binary.function("study15_matmul_copy_b1"), 1, (on_sim(a), on_sim(key), on_sim(info), c, tiling))
    rows = np.concatenate([np.arange(b * block, (b + 1) * block) for b in blocks])
    ref = a.astype(np.float32) @ key[rows].astype(np.float32).T
    np.testing.assert_allclose(c.numpy().reshape(m, n), ref, rtol=1e-5, atol=1e-5)


def test_mixed_kernel_aic_leaves_at_regist_matmul_obj(binary):
    from pyasc_sim import hl_tiling
    m, n, k = 32, 32, 64
    rng = np.random.default_rng(5)
    a = (rng.standard_normal((m, k)) * 0.5).astype(np.float16)
    b = (rng.standard_normal((k, n)) * 0.5).astype(np.float16)
    t = hl_tiling.matmul_tiling(m, n, k, a_dtype="float16", c_dtype="float32")
    c = pyasc.zeros((m * n,), dtype="float32", device="sim")
    flags = pyasc.zeros((48,), dtype="int32", device="sim")
    tiling = on_sim(np.frombuffer(t.to_bytes(), dtype=np.uint8).copy())
    launch_synced(binary.function("study15_mix_regist"), 1, (on_sim(a), on_sim(b), c, tiling, flags))
    got = flags.numpy()
    assert got[0] == 1 and got[16] == 2  # both AIV ran past REGIST_MATMUL_OBJ
    assert got[32] == 0  # the AIC did not
    np.testing.assert_allclose(c.numpy().reshape(m, n), a.astype(np.float32) @ b.astype(np.float32),
                               rtol=1e-5, atol=1e-5)
