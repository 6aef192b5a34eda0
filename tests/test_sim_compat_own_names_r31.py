"""Names the SDK declares (or does not) where a kernel sees them, round 31 (s31a; COMPAT.md "Round 31 (s31a)"):
a kernel's own `PaddingMode` beside `using namespace AscendC` (Ascend/DrivingSDK grid_sampler2d_v2): the SDK declares
`AscendC::PaddingMode` for the Ascend 950's architectures only, so the kernel's enum is the only one on an Atlas A2
build and the two meet (ambiguous) on the 950, as with CANN.

Our kernel in that idiom: backends/sim/kernel_api/tests/kernels/compat/own_padding_mode.cpp."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

PAD_SRC = ASCENDC_DIR / "compat/own_padding_mode.cpp"
A950 = "Ascend950PR_9599"

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


def _pad_gather_reference(src, idx, mode):
    w = len(src)
    out = np.empty(len(idx), np.float32)
    for k, i in enumerate(idx):
        if 0 <= i < w:
            out[k] = src[i]
        elif mode == 0:  # ZEROS
            out[k] = 0.0
        elif mode == 1 or w == 1:  # BORDER
            out[k] = src[0 if i < 0 else w - 1]
        else:  # REFLECTION, the edge elements not repeated
            period = 2 * (w - 1)
            r = i % period
            out[k] = src[r if r < w else period - r]
    return out


@pytest.mark.parametrize("mode", [0, 1, 2])
def test_a_kernels_own_padding_mode_builds_and_matches_on_an_atlas_a2(mode):
    binary = pyasc_acl.Binary(pyasc_sim.compile(PAD_SRC, opt="-O1"), device="sim")
    rng = np.random.default_rng(31 + mode)
    w, n = 13, 100
    src = rng.standard_normal(w).astype(np.float32)
    idx = rng.integers(-40, 40, n).astype(np.int32)
    out = pyasc.full((n,), -7.0, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("pad_gather"), 1, (pyasc.tensor(src, device="sim"), pyasc.tensor(idx, device="sim"),
                                                        out, np.uint32(w), np.uint32(n), np.uint32(mode)))
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(out.numpy(), _pad_gather_reference(src, idx, mode))


def test_a_kernels_own_padding_mode_is_ambiguous_on_the_950():
    # the 950 has AscendC::PaddingMode (DataCopyPad's transfer mode), which `using namespace AscendC` brings in
    with pytest.raises(pyasc_sim.KernelCompileError) as info:
        pyasc_sim.compile(PAD_SRC, opt="-O1", soc=A950)
    assert "'PaddingMode' is ambiguous" in str(info.value).replace("\u2018", "'").replace("\u2019", "'"), \
        str(info.value)[:2000]


# ---- INT_MAX / INT_MIN: CANN's kernel_operator.h leaves them undefined; the simulator's SDK headers hide the
# <climits> macros the C++ library brings in (pyasc_sim/sdk_begin.h), and its <climits> / <limits.h> wrappers
# define them again for a kernel that includes those itself, before or after an SDK header.
LIMITS_SRC = ASCENDC_DIR / "compat/own_int_limits.cpp"
SCALE_ROWS_TILING = ASCENDC_DIR / "compat/study15a_op/op_host/scale_rows_tiling.h"

# every kind of SDK entry header a kernel includes, each followed by the kernel's own INT_MAX / INT_MIN
ENTRY_HEADERS = ("kernel_operator.h", "kernel_operator_intf.h", "lib/matmul_intf.h", "kernel_tiling/kernel_tiling.h",
                 "lib/activation/softmax.h", "lib/sort/topk.h", "lib/normalization/layernorm.h", "tikicpulib.h",
                 "register/tilingdata_base.h", "tiling/tiling_api.h", "shmem_api.h", "shmem.h")

LIMITS_KERNEL = """
extern "C" __global__ __aicore__ void limits_probe(GM_ADDR out)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 32);
    AscendC::LocalTensor<int32_t> t = buf.Get<int32_t>();
    AscendC::GlobalTensor<int32_t> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(out), 8);
    for (int32_t i = 0; i < 8; ++i) {
        t.SetValue(i, VALUES[i]);
    }
    AscendC::SetFlag<AscendC::HardEvent::S_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::S_MTE3>(EVENT_ID0);
    AscendC::DataCopy(g, t, 8);
}
"""


def _limits_values(tmp_path, name, text, **options):
    path = tmp_path / f"{name}.cpp"
    path.write_text(text + LIMITS_KERNEL)
    binary = pyasc_acl.Binary(pyasc_sim.compile(path, opt="-O1", **options), device="sim")
    out = pyasc.full((8,), -7, dtype="int32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("limits_probe"), 1, (out,))
    pyasc.synchronize("sim")
    return out.numpy()


def test_a_kernel_declares_its_own_int_max_after_every_kind_of_entry_header(tmp_path):
    text = "".join(f'#include "{h}"\nnamespace own{i} {{\nconstexpr int32_t INT_MAX = {i + 1};\n'
                   f'constexpr int32_t INT_MIN = -{i + 1};\n}}\n' for i, h in enumerate(ENTRY_HEADERS))
    text += "constexpr int32_t VALUES[8] = {own0::INT_MAX, own0::INT_MIN, own2::INT_MAX, own7::INT_MAX, "
    text += f"own{len(ENTRY_HEADERS) - 1}::INT_MIN, 0, 0, 0}};\n"
    got = _limits_values(tmp_path, "own_after_entries", text)
    np.testing.assert_array_equal(got, [1, -1, 3, 8, -len(ENTRY_HEADERS), 0, 0, 0])


@pytest.mark.parametrize("header", ["climits", "limits.h"])
@pytest.mark.parametrize("where", ["before", "after", "between"])
def test_a_kernel_including_climits_itself_sees_the_macros(tmp_path, header, where):
    sdk = '#include "kernel_operator.h"\n'
    more = '#include "lib/matmul_intf.h"\n#include "kernel_tiling/kernel_tiling.h"\n'
    own = f"#include <{header}>\n"
    text = {"before": own + sdk + more, "after": sdk + more + own, "between": sdk + own + more}[where]
    text += "constexpr int32_t VALUES[8] = {INT_MAX, INT_MIN, INT_MAX - 1, INT_MIN + 1, 0, 0, 0, 0};\n"
    got = _limits_values(tmp_path, f"climits_{where}_{header.replace('.', '_')}", text)
    np.testing.assert_array_equal(got, [2**31 - 1, -2**31, 2**31 - 2, -2**31 + 1, 0, 0, 0, 0])


@pytest.mark.parametrize("tiling", [False, True])
def test_a_kernel_with_its_own_int_limits_clamps_as_numpy(tiling):
    options = {"tiling_header": SCALE_ROWS_TILING} if tiling else {}
    binary = pyasc_acl.Binary(pyasc_sim.compile(LIMITS_SRC, opt="-O1", **options), device="sim")
    n = 64
    x = np.random.default_rng(7).uniform(-4e9, 4e9, n).astype(np.float32)
    x[:6] = [0.5, -1.5, 2147483647.0, -2147483648.0, 3e9, -3e9]
    out = pyasc.full((n,), -7, dtype="int32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("clamp_to_int"), 1, (pyasc.tensor(x, device="sim"), out, np.uint32(n)))
    pyasc.synchronize("sim")
    xd = x.astype(np.float64)
    want = np.where(xd >= 2.0**31, 2**31 - 1, np.where(xd <= -2.0**31, -2**31, np.trunc(xd))).astype(np.int64)
    np.testing.assert_array_equal(out.numpy(), want.astype(np.int32))


# ---- the SDK's TopK-internal constants (TWO ... FORTYEIGHT, MIN_SORT32_SIZE, ...): global, in an unnamed namespace,
# reached from kernel_operator.h on the A2, the 950 and the Atlas inference series, as the SDK declares them
TOPK_CONSTANTS_SRC = ASCENDC_DIR / "compat/sdk_topk_constants.cpp"


@pytest.mark.parametrize("soc", [None, A950])
def test_the_sdks_two_and_eight_are_there_unqualified(soc):
    binary = pyasc_acl.Binary(pyasc_sim.compile(TOPK_CONSTANTS_SRC, opt="-O1", soc=soc), device="sim")
    k = np.array([1, 3, 5, 7, 9, 11, 27, 31], np.int32)
    out = pyasc.full((2 * len(k),), -7, dtype="int32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("half_windows"), 1, (pyasc.tensor(k, device="sim"), out, np.uint32(len(k))))
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(out.numpy().reshape(-1, 2), np.stack([k // 2, k ** 3 // 8], axis=1))


@pytest.mark.parametrize("declaration,message", [
    ("namespace {\nconstexpr uint32_t TWO = 2;\n}", "redefinition of"),
    ("constexpr int32_t TWO = 2;", "'TWO' is ambiguous"),
])
def test_a_kernel_declaring_its_own_two_meets_the_sdks(tmp_path, declaration, message):
    path = tmp_path / "own_two.cpp"
    path.write_text('#include "kernel_operator.h"\n' + declaration + "\n"
                    'extern "C" __global__ __aicore__ void own_two(GM_ADDR out, uint32_t n)\n'
                    "{\n    (void)out;\n    (void)(n / TWO);\n}\n")
    with pytest.raises(pyasc_sim.KernelCompileError) as info:
        pyasc_sim.compile(path, opt="-O1")
    assert message in str(info.value).replace("\u2018", "'").replace("\u2019", "'"), str(info.value)[:2000]


def test_the_sdks_topk_constants_are_hidden_in_documented_only_mode():
    with pytest.raises(pyasc_sim.KernelCompileError) as info:
        pyasc_sim.compile(TOPK_CONSTANTS_SRC, opt="-O1", extra_flags=["-DPYASC_SIM_DOCUMENTED_ONLY=1"])
    assert "'TWO' was not declared" in str(info.value).replace("\u2018", "'").replace("\u2019", "'"), \
        str(info.value)[:2000]


# ---- the Level-0 CreateVecIndex (page atlasascendc_api_07_0090; repeat semantics from the SDK's A2 and 950
# implementations): lane k of repeat r receives first + r * 256 / sizeof(T) + k
VEC_INDEX_SRC = ASCENDC_DIR / "compat/create_vec_index_l0.cpp"


def _vec_index_reference(dtype, first, lanes, repeat, blk, rep, total):
    size = np.dtype(dtype).itemsize
    per_block, per_repeat = 32 // size, 256 // size
    out = np.full(total, -1, dtype)
    for r in range(repeat):
        for k in lanes:
            pos = r * rep * per_block + (k // per_block) * blk * per_block + k % per_block
            out[pos] = first + r * per_repeat + k
    return out


def _vec_index(kernel, dtype, args, total):
    binary = pyasc_acl.Binary(pyasc_sim.compile(VEC_INDEX_SRC, opt="-O1"), device="sim")
    out = pyasc.full((total,), -7, dtype=np.dtype(dtype).name, device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function(kernel), 1, (out, *args, np.uint32(total)))
    pyasc.synchronize("sim")
    return out.numpy()


@pytest.mark.parametrize("first,mask,repeat,blk,rep", [
    (0, 32, 1, 1, 4),     # diff_iou_rotated_sort_vertices' call: 32 int32 lanes, one repeat
    (5, 64, 3, 1, 8),     # whole repeats back to back: firstValue + i over 192 elements
    (-3, 20, 4, 2, 16),   # a partial last block, blocks two apart, repeats 16 blocks apart
    (100, 9, 2, 1, 3),    # fewer lanes than one block; the repeats overlap nothing
])
def test_level0_create_vec_index_int32_counts_each_repeat_on(first, mask, repeat, blk, rep):
    total = 1024
    got = _vec_index("vec_index_l0_i32", np.int32, (np.int32(first), np.uint32(mask), np.uint32(repeat), np.uint32(blk),
                                                    np.uint32(rep)), total)
    np.testing.assert_array_equal(got, _vec_index_reference(np.int32, first, range(mask), repeat, blk, rep, total))


def test_level0_create_vec_index_half_and_the_bit_mask():
    total = 1024
    got = _vec_index("vec_index_l0_f16", np.float16, (np.float32(1.0), np.uint32(128), np.uint32(3), np.uint32(1),
                                                      np.uint32(8)), total)
    np.testing.assert_array_equal(got, _vec_index_reference(np.float16, 1.0, range(128), 3, 1, 8, total))
    lo = 0b1011_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0001_0110
    got = _vec_index("vec_index_l0_bits_i32", np.int32, (np.int32(7), np.uint64(lo), np.uint32(2), np.uint32(1),
                                                        np.uint32(8)), total)
    lanes = [k for k in range(64) if lo >> k & 1]
    np.testing.assert_array_equal(got, _vec_index_reference(np.int32, 7, lanes, 2, 1, 8, total))
