"""The rest of the documented basic vector API (issue 8 point 6, "in order of use"): the APIs added
after the first list -- RepeatReduceSum (with GetDataBlockSizeInBytes), GetReduceMaxMinCount after
WholeReduceMax, the scalar bit helpers, ToBfloat16 / ToFloat, MulAddRelu, DataSyncBarrier, Gatherb,
Trap -- run on the simulator against NumPy, and every
documented API the simulator still lacks fails to compile with a message naming it, the list of those
being the "no" rows of the kernel API reference's table.
Kernels: backends/sim/kernel_api/tests/kernels/compat/basic_api_rest.cpp (ours, in the public style)."""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim

from ascendc_kernels import ASCENDC_DIR, launch_synced

SRC = ASCENDC_DIR / "compat" / "basic_api_rest.cpp"
KAPI = Path(pyasc_sim.get_include()) / "pyasc_sim" / "kapi"
README = Path(__file__).resolve().parent.parent / "backends" / "sim" / "kernel_api" / "README.md"
ROWS, COLS = 8, 64


@pytest.fixture(scope="module")
def kernels():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1"), device="sim")


_run = launch_synced


def test_repeat_reduce_sum_sums_the_masked_part_of_each_row(kernels):
    x = np.random.default_rng(1).uniform(-1, 1, (ROWS, COLS)).astype(np.float32)
    y = pyasc.zeros((ROWS,), dtype="float32", device="sim")
    xs = pyasc.tensor(x.ravel(), device="sim")
    _run(kernels.function("repeat_reduce_rows"), 1, (xs, y, 48))
    np.testing.assert_allclose(y.numpy(), x[:, :48].sum(axis=1), rtol=1e-5, atol=1e-5)


def test_get_reduce_max_min_count_reads_whole_reduce_max_value_and_index(kernels):
    rng = np.random.default_rng(2)
    x = np.stack([rng.permutation(COLS) for _ in range(ROWS)]).astype(np.float32) - 20.0
    vals = pyasc.zeros((ROWS,), dtype="float32", device="sim")
    idx = pyasc.full((ROWS,), -1, dtype="int32", device="sim")
    xs = pyasc.tensor(x.ravel(), device="sim")
    _run(kernels.function("argmax_rows"), 1, (xs, vals, idx))
    np.testing.assert_array_equal(vals.numpy(), x.max(axis=1))
    np.testing.assert_array_equal(idx.numpy(), x.argmax(axis=1).astype(np.int32))


def _bits_reference(v: int) -> list[int]:
    ones = bin(v).count("1")
    clz = 64 - v.bit_length()
    s = v - (1 << 64) if v >> 63 else v
    if s in (0, -1):
        same = -1
    else:
        u = v if s >= 0 else (~v) & ((1 << 64) - 1)
        same = (64 - u.bit_length()) - 1
    first1 = (v & -v).bit_length() - 1 if v else -1
    inv = (~v) & ((1 << 64) - 1)
    first0 = (inv & -inv).bit_length() - 1 if inv else -1
    return [ones, 64 - ones, clz, same, first1, first0]


def test_scalar_bit_helpers_match_the_documented_examples_and_python(kernels):
    values = [0, (1 << 64) - 1, 28, 0xFFFF, 0x0F00000000000000, 1 << 63, 0x8000000000000001, 0xFFFFFFFF00000000]
    values += [int(v) for v in np.random.default_rng(3).integers(0, 1 << 63, 8, dtype=np.int64)]
    xs = pyasc.tensor(np.array(values, dtype=np.uint64).view(np.int64), device="sim")
    y = pyasc.zeros((len(values) * 6,), dtype="int64", device="sim")
    _run(kernels.function("scalar_bits"), 1, (xs, y, len(values)))
    got = y.numpy().reshape(len(values), 6).tolist()
    assert got == [_bits_reference(v) for v in values]
    # the reference pages' own examples
    assert got[3][0] == 16          # ScalarGetCountOfValue<1>(0xffff)
    assert got[4][3] == 3           # CountBitsCntSameAsSignBit(0x0f00000000000000)
    assert got[2][4] == 2           # ScalarGetSFFValue<1>(28)


def _to_bf16_rne(x: np.ndarray) -> np.ndarray:
    u = x.view(np.uint32).astype(np.uint64)
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) << 16
    r = np.where(np.isnan(x), (u | 0x400000) >> 16 << 16, r)
    return r.astype(np.uint32).view(np.float32)


def test_to_bfloat16_rounds_to_nearest_even_and_to_float_is_exact(kernels):
    rng = np.random.default_rng(4)
    x = np.concatenate([rng.normal(0, 100, 60).astype(np.float32),
                        np.array([1.00390625, 1.01171875, -0.0, 3.0e38], np.float32)])  # ties and the top
    xs = pyasc.tensor(x, device="sim")
    y = pyasc.zeros((x.size,), dtype="float32", device="sim")
    _run(kernels.function("bf16_scalar_round_trip"), 1, (xs, y, x.size))
    np.testing.assert_array_equal(y.numpy().view(np.uint32), _to_bf16_rne(x).view(np.uint32))


def test_mul_add_relu_is_relu_of_src0_times_dst_plus_src1(kernels):
    rng = np.random.default_rng(5)
    x, y, z = (rng.integers(-8, 8, 2 * COLS).astype(np.float32) / 4 for _ in range(3))  # exact products
    xs, ys, zs = (pyasc.tensor(a, device="sim") for a in (x, y, z))
    _run(kernels.function("mul_add_relu"), 2, (xs, ys, zs))
    np.testing.assert_array_equal(zs.numpy(), np.maximum(x * z + y, 0))


def test_trap_ends_the_block_with_an_error_naming_its_line(kernels):
    y = pyasc.zeros((8,), dtype="float32", device="sim")
    _run(kernels.function("trap_guard"), 1, (y, 0))
    assert y.numpy()[0] == 1.0
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("trap_guard"), 1, (y, 1))
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        pyasc.synchronize("sim")
    msg = str(info.value)
    assert "sanitizer check 'trap' failed" in msg and "basic_api_rest.cpp" in msg, msg
    assert "Trap() called" in msg


def _lacked() -> list[str]:
    text = (KAPI / "vector_extra.h").read_text(encoding="utf-8")
    names = re.findall(r"^PYASC_SIM_LACKS(?:_ON_TENSORS)?\((\w+)\)$", text, re.M)
    more = re.findall(r"^PYASC_SIM_UNSUPPORTED\((\w+)\)$", (KAPI / "vector_more.h").read_text(encoding="utf-8"), re.M)
    return names + more


def test_every_lacked_documented_api_is_a_compile_error_naming_it(tmp_path):
    names = _lacked()
    assert len(names) >= 8 and "MulsCast" in names and "Prelu" in names  # the 950-only ones: test_sim_ascend950.py
    calls = "\n".join(f"    {n}(t, t, t, 64);" for n in names)
    src = tmp_path / "lacks_all.cpp"
    src.write_text(textwrap.dedent("""
        #include "kernel_operator.h"
        using namespace AscendC;
        extern "C" __global__ __aicore__ void lacks_all(GM_ADDR x)
        {
            TPipe pipe;
            TBuf<TPosition::VECCALC> b;
            pipe.InitBuffer(b, 1024);
            LocalTensor<half> t = b.Get<half>();
        """) + calls + "\n}\n")
    with pytest.raises(pyasc_sim.KernelCompileError) as info:
        pyasc_sim.compile(src, opt="-O0", extra_flags=["-fmax-errors=0"])
    out = info.value.output
    missing = [n for n in names if f"AscendC::{n} is not supported by the pyasc simulator" not in out]
    assert not missing, missing
    assert "the simulator lacks this documented Ascend C API" in out


def test_a_kernels_own_function_named_like_a_lacked_api_still_compiles(tmp_path):
    src = tmp_path / "own_neg.cpp"
    src.write_text(textwrap.dedent("""
        #include "kernel_operator.h"
        using namespace AscendC;
        __aicore__ inline float Neg(float v) { return -v; }
        __aicore__ inline int Scatter(int a, unsigned b) { return a + static_cast<int>(b); }
        extern "C" __global__ __aicore__ void own_neg(GM_ADDR y)
        {
            GlobalTensor<float> g;
            g.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), 8);
            g.SetValue(0, Neg(2) + static_cast<float>(Scatter(1, 2)));
        }
        """))
    binary = pyasc_acl.Binary(pyasc_sim.compile(src, opt="-O0"), device="sim")
    y = pyasc.zeros((8,), dtype="float32", device="sim")
    _run(binary.function("own_neg"), 1, (y,))
    assert y.numpy()[0] == 1.0


def test_the_reference_table_lists_every_lacked_api_as_unsupported():
    text = README.read_text(encoding="utf-8")
    table = text.split("### Documented basic API", 1)[1].split("\n### ", 1)[0]
    rows = [r for r in table.splitlines() if r.startswith("| `")]
    assert len(rows) >= 100
    no = {re.match(r"\| `(\w+)", r).group(1) for r in rows if "| no |" in r}
    yes = {re.match(r"\| `(\w+)", r).group(1) for r in rows if "| yes |" in r}
    assert set(_lacked()) == no, (set(_lacked()) ^ no)
    assert {"RepeatReduceSum", "GetReduceMaxMinCount", "ScalarGetSFFValue", "Add", "WholeReduceSum"} <= yes
    assert all("hiascend.com" in r or "asc-devkit" in r for r in rows)


_REG_KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void reg_forms(GM_ADDR x)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 1024);
    LocalTensor<half> t = b.Get<half>();
    WholeReduceMax<half>(t, t, 128, 1, 1, 1, 8);
    half v, i;
    GetReduceMaxMinCount<half>(v);
    GetReduceMaxMinCount<half>(v, i);
}
"""


@pytest.mark.parametrize("soc, refused, accepted", [
    ("Ascend910B1", "GetReduceMaxMinCount(value) is not documented for Atlas A2",
     "GetReduceMaxMinCount(value, index) is not documented"),
    ("Ascend310P3", "GetReduceMaxMinCount(value, index) is not documented for the Atlas inference series",
     "GetReduceMaxMinCount(value) is not documented"),
])
def test_get_reduce_max_min_count_takes_the_form_each_soc_documents(tmp_path, soc, refused, accepted):
    src = tmp_path / "reg_forms.cpp"
    src.write_text(_REG_KERNEL)
    with pytest.raises(pyasc_sim.KernelCompileError) as info:
        pyasc_sim.compile(src, opt="-O0", soc=soc)
    assert refused in info.value.output and accepted not in info.value.output


def test_data_sync_barrier_orders_dma_and_vector_like_a_full_barrier(kernels):
    from ascendc_kernels import f32_arg

    x = np.random.default_rng(6).uniform(-4, 4, 3 * COLS).astype(np.float32)
    xs = pyasc.tensor(x, device="sim")
    y = pyasc.zeros((x.size,), dtype="float32", device="sim")
    _run(kernels.function("dsb_scale"), 3, (xs, y, f32_arg(0.5)))
    np.testing.assert_array_equal(y.numpy(), x * np.float32(0.5))


def test_gatherb_gathers_32_byte_blocks_by_byte_offsets(kernels):
    x = np.arange(16 * 8, dtype=np.uint32).view(np.int32)
    order = np.random.default_rng(7).permutation(16)
    offs = (order * 32).astype(np.int32)
    xs, os_ = pyasc.tensor(x, device="sim"), pyasc.tensor(offs, device="sim")
    y = pyasc.zeros((x.size,), dtype="int32", device="sim")
    _run(kernels.function("gatherb_blocks"), 1, (xs, os_, y))
    np.testing.assert_array_equal(y.numpy().reshape(16, 8), x.reshape(16, 8)[order])


def test_gatherb_offset_not_a_block_multiple_is_an_alignment_error(kernels):
    x = np.arange(16 * 8, dtype=np.int32)
    offs = (np.arange(16) * 32).astype(np.int32)
    offs[5] = 36
    xs, os_ = pyasc.tensor(x, device="sim"), pyasc.tensor(offs, device="sim")
    y = pyasc.zeros((x.size,), dtype="int32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("gatherb_blocks"), 1, (xs, os_, y))
    with pytest.raises(pyasc_acl.AclKernelError, match=r"ub-alignment.*Gatherb: offset\[5\] = 36"):
        pyasc.synchronize("sim")
