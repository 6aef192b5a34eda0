"""pyasc_sim.hl_tiling.matmul_tiling for a mixed kernel (mix_ratio): in a KERNEL_TYPE_MIX_AIC_1_2 kernel the
Matmul API is driven from the AIVs and GetBlockIdx() numbers the AIVs (block * 2 + sub-block), so, as the host's
MultiCoreMatmulTiling does in the MIX mode (reference page SetDim, 分离模式: SetDim = the AIVs available, the tiling
gives the AIVs used, SetBlockDim = the AI Cores holding them, AIC:AIV 1:2), core_num and usedCoreNum count AIVs and
the launch takes block_dim = ceil(usedCoreNum / 2) blocks.  Our kernel (kernels/compat/matmul_mix_aiv_tiles.cpp)
gives each AIV the tile of its GetBlockIdx(); every tile of C must be computed (against NumPy)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import pyasc
import pyasc_acl
from pyasc_core.errors import ArgumentError
from pyasc_sim import hl_tiling

from ascendc_kernels import load


@pytest.fixture(scope="module")
def kernels():
    return load("compat/matmul_mix_aiv_tiles.cpp")


def run(kernels, t, a, b, blocks):
    m, k = a.shape
    n = b.shape[1]
    c = pyasc.full((m * n,), -7.0, dtype="float32", device="sim")
    ws = pyasc.zeros(32, dtype="uint8", device="sim")
    til = pyasc.tensor(np.frombuffer(t.to_bytes(), dtype=np.uint8).copy(), device="sim")
    pyasc_acl.launch(kernels.function("matmul_mix_aiv_tiles"), blocks,
                     (pyasc.tensor(a.ravel(), device="sim"), pyasc.tensor(b.ravel(), device="sim"), c, ws, til))
    pyasc.synchronize("sim")
    return c.numpy().reshape(m, n)


@pytest.mark.parametrize("m, n, k, aivs", [(128, 96, 32, 8), (100, 70, 48, 6), (64, 64, 32, 3), (40, 70, 32, 2)])
def test_mixed_kernel_tiles_over_the_aivs(kernels, m, n, k, aivs):
    rng = np.random.default_rng(m * n + k)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    t = hl_tiling.matmul_tiling(m, n, k, core_num=aivs, mix_ratio=2)
    assert t.usedCoreNum <= aivs and t.block_dim == math.ceil(t.usedCoreNum / 2)
    got = run(kernels, t, a, b, t.block_dim)
    np.testing.assert_allclose(got, a.astype(np.float64) @ b.astype(np.float64), rtol=1e-5, atol=1e-5)


def test_block_dim_is_the_ai_cores_holding_the_aivs(kernels):
    m, n, k = 128, 96, 32
    t = hl_tiling.matmul_tiling(m, n, k, core_num=8, mix_ratio=2)
    assert (t.usedCoreNum, t.block_dim, t.mix_ratio) == (8, 4, 2)
    # the kernel's struct is the same bytes as the plain tiling's: mix_ratio is host side only
    plain = hl_tiling.matmul_tiling(m, n, k, core_num=8)
    assert t.to_bytes() == plain.to_bytes() and len(t.to_bytes()) == 50 * 4
    assert plain.block_dim == plain.usedCoreNum == 8
    assert hl_tiling.matmul_tiling(m, n, k, core_num=8, mix_ratio=1).block_dim == 8
    assert hl_tiling.matmul_tiling(16, 16, 16, core_num=8, mix_ratio=2).block_dim == 1
    # the tiles need the 8 AIVs of block_dim = 4 blocks: launched with fewer blocks, tiles of C stay unwritten
    # (the launch's block count is what GetBlockIdx() numbers AIVs within)
    rng = np.random.default_rng(5)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    short = run(kernels, t, a, b, 2)
    assert np.count_nonzero(short == -7.0) == m * n // 2


def test_mix_ratio_errors():
    with pytest.raises(ArgumentError, match=r"mix_ratio must be 0 .* got 3"):
        hl_tiling.matmul_tiling(16, 16, 16, mix_ratio=3)
    with pytest.raises(ArgumentError, match=r"mix_ratio must be 0 .* got True"):
        hl_tiling.matmul_tiling(16, 16, 16, mix_ratio=True)


def test_tcube_tiling_is_the_sdk_struct_of_50_words(tmp_path):
    # the SDK's TCubeTiling (asc-devkit include/adv_api/matmul/matmul_tilingdata.h; CANN 8.x kernel_tiling.h, whose
    # last word is `reserved`): the 33 fields the reference's TCubeTiling page lists, then the batch-layout words,
    # BatchNum and mxTypePara -- 50 int32, 200 bytes. Public kernels mirror it word for word (KsanaLLM's
    # PagedTCubeTiling) and copy sizeof(TCubeTiling) / 4 words, so the size is part of the layout.
    from dataclasses import fields

    from pyasc_sim import tiling as T

    names = [f.name for f in fields(hl_tiling.TCubeTiling) if not f.metadata.get("host")]
    assert len(names) == 50 and names[32] == "dbL0C"
    assert names[33:] == ["ALayoutInfoB", "ALayoutInfoS", "ALayoutInfoN", "ALayoutInfoG", "ALayoutInfoD",
                          "BLayoutInfoB", "BLayoutInfoS", "BLayoutInfoN", "BLayoutInfoG", "BLayoutInfoD",
                          "CLayoutInfoB", "CLayoutInfoS1", "CLayoutInfoN", "CLayoutInfoG", "CLayoutInfoS2",
                          "BatchNum", "mxTypePara"]
    t = hl_tiling.matmul_tiling(64, 64, 64, core_num=2)
    words = np.frombuffer(t.to_bytes(), np.int32)
    assert words.size == 50 and (words[0], words[1], words[32]) == (t.usedCoreNum, 64, t.dbL0C)
    # the kernel-side struct (kapi/matmul_tiling.h) as a host tiling header embeds it
    header = tmp_path / "mm_tiling.h"
    header.write_text('#include "register/tilingdata_base.h"\n#include "tiling/tiling_api.h"\n'
                      "namespace optiling {\nBEGIN_TILING_DATA_DEF(MmTilingData)\n"
                      "TILING_DATA_FIELD_DEF(uint32_t, tag);\nTILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cube);\n"
                      "TILING_DATA_FIELD_DEF(uint32_t, after);\nEND_TILING_DATA_DEF;\n"
                      "REGISTER_TILING_DATA_CLASS(MmOp, MmTilingData)\n}\n")
    layout = {f.name: (f.offset, f.size) for f in T.layout(str(header)).fields}
    assert layout == {"tag": (0, 4), "cube": (4, 200), "after": (204, 4)}
