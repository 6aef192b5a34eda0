"""Compatibility suite for the basic Ascend C APIs public kernels use beyond the core set
(issue 8 point 6): each kernel in backends/sim/kernel_api/tests/kernels/compat_api.cpp (written
in public Ascend C style) runs on the simulator and is compared with a NumPy model of the
documented semantics; printf / DumpTensor output reaches the host process per block, a false
ASSERT is a kernel error naming the condition, and a documented API the simulator lacks fails
to compile with a message naming it."""

from __future__ import annotations

import textwrap

import numpy as np
import pytest

import pyasc
import pyasc_acl

from ascendc_kernels import load, marked_line, run_child, source_line

TILE = 256
SRC = "compat_api.cpp"


@pytest.fixture(scope="module")
def kernels():
    return load(SRC)


def sim(a: np.ndarray) -> pyasc.Tensor:
    return pyasc.tensor(a, device="sim")


def run(kernels, name: str, x: np.ndarray, y: np.ndarray, out_len: int) -> np.ndarray:
    z = pyasc.zeros(out_len, dtype=str(x.dtype), device="sim")
    pyasc_acl.launch(kernels.function(name), 1, (sim(x), sim(y), z))
    return z.numpy()


def test_and_or_not(kernels):
    rng = np.random.default_rng(1)
    x = rng.integers(-2**15, 2**15, TILE, dtype=np.int16)
    y = rng.integers(-2**15, 2**15, TILE, dtype=np.int16)
    z = run(kernels, "compat_and_or_not", x, y, 2 * TILE)
    np.testing.assert_array_equal(z[:128], x[:128] & y[:128])
    np.testing.assert_array_equal(z[128:256], x[128:] | y[128:])
    np.testing.assert_array_equal(z[256:384], ~x[:128] & y[:128])
    np.testing.assert_array_equal(z[384:], ~x[128:])


def test_shift_left_and_right(kernels):
    x = np.random.default_rng(2).integers(-2**15, 2**15, TILE, dtype=np.int16)
    z = run(kernels, "compat_shift", x, x, 2 * TILE)
    np.testing.assert_array_equal(z[:TILE], (x.astype(np.int32) << 3).astype(np.int16))
    np.testing.assert_array_equal(z[TILE:], x >> 2)  # arithmetic for signed types


def test_leaky_relu_and_add_relu(kernels):
    rng = np.random.default_rng(3)
    x, y = rng.standard_normal(TILE).astype(np.float32), rng.standard_normal(TILE).astype(np.float32)
    z = run(kernels, "compat_activations", x, y, 2 * TILE)
    np.testing.assert_array_equal(z[:TILE], np.where(x >= 0, x, x * np.float32(0.125)))
    np.testing.assert_array_equal(z[TILE:], np.maximum(x + y, 0))


def test_axpy(kernels):
    rng = np.random.default_rng(4)
    x, y = rng.standard_normal(TILE).astype(np.float32), rng.standard_normal(TILE).astype(np.float32)
    z = run(kernels, "compat_axpy", x, y, TILE)
    np.testing.assert_allclose(z, x * np.float32(2.5) + y, rtol=1e-6)


def test_block_and_pair_reductions(kernels):
    x = np.random.default_rng(5).standard_normal(TILE).astype(np.float32)
    z = run(kernels, "compat_block_reduce", x, x, TILE)
    blocks = x.reshape(32, 8)
    np.testing.assert_allclose(z[:32], blocks.sum(axis=1), rtol=1e-5)
    np.testing.assert_array_equal(z[32:64], blocks.max(axis=1))
    np.testing.assert_array_equal(z[64:96], blocks.min(axis=1))
    np.testing.assert_allclose(z[96:224], x.reshape(128, 2).sum(axis=1), rtol=1e-6)
    np.testing.assert_array_equal(z[224:], 0)


def test_copy_with_strides_and_brcb(kernels):
    x = np.arange(TILE, dtype=np.float32)
    z = run(kernels, "compat_copy_brcb", x, x, 2 * TILE)
    blocks = x.reshape(32, 8)
    # repeat r copies 4 blocks (32 floats, mask 32) from src blocks 8r, 8r+2, 8r+4, 8r+6 to dst blocks 4r..4r+3
    want = np.concatenate([blocks[[0, 2, 4, 6]].ravel(), blocks[[8, 10, 12, 14]].ravel()])
    np.testing.assert_array_equal(z[:64], want)
    np.testing.assert_array_equal(z[64:TILE], 0)
    np.testing.assert_array_equal(z[TILE:TILE + 128], np.repeat(x[:16], 8))


def test_gather_and_gather_mask(kernels):
    rng = np.random.default_rng(6)
    x = rng.standard_normal(TILE).astype(np.float32)
    idx = rng.integers(0, TILE, TILE).astype(np.uint32)
    offsets = (idx * 4).view(np.float32)  # byte offsets, passed through the float input
    z = run(kernels, "compat_gather", x, offsets, 2 * TILE)
    np.testing.assert_array_equal(z[:128], x[idx[:128]])
    # 2 repeats of 64 floats, packed: even indices then (separately) odd indices of x[:128]
    np.testing.assert_array_equal(z[TILE:TILE + 64], x[:128][0::2])
    np.testing.assert_array_equal(z[TILE + 64:TILE + 128], x[:128][1::2])
    assert z[2 * TILE - 1] == 64 and z[2 * TILE - 2] == 64


def test_transpose_16x16(kernels):
    x = np.arange(TILE, dtype=np.float16)
    z = run(kernels, "compat_transpose", x, x, TILE)
    np.testing.assert_array_equal(z.reshape(16, 16), x.reshape(16, 16).T)


def test_compare_scalar_and_select(kernels):
    rng = np.random.default_rng(7)
    x, y = rng.uniform(0, 1, TILE).astype(np.float32), rng.uniform(5, 6, TILE).astype(np.float32)
    z = run(kernels, "compat_compare_scalar", x, y, TILE)
    np.testing.assert_array_equal(z, np.where(x > 0.5, x, y))


def test_local_tensor_operators(kernels):
    rng = np.random.default_rng(8)
    x, y = rng.standard_normal(TILE).astype(np.float32), rng.standard_normal(TILE).astype(np.float32)
    z = run(kernels, "compat_operators", x, y, TILE)
    want = (x + y) * x - y
    assert z[0] == 7.0  # Std::max(3, 7) written over element 0
    np.testing.assert_array_equal(z[1:], want[1:])


def test_lowercase_intrinsics(kernels):
    x = np.arange(TILE, dtype=np.float32)
    z = pyasc.zeros(TILE, dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function("compat_intrinsics"), 1, (sim(x), z))
    np.testing.assert_array_equal(z.numpy(), x * 2)


def test_tquebind_vecin_to_vecout(kernels):
    x = np.arange(TILE, dtype=np.float32) - 3
    z = pyasc.zeros(TILE, dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function("compat_quebind"), 1, (sim(x), z))
    np.testing.assert_array_equal(z.numpy(), x)


def test_printf_and_dump_tensor_reach_the_host_per_block(tmp_path):
    out = run_child(tmp_path, """
        import numpy as np, pyasc, pyasc_acl
        from ascendc_kernels import load
        k = load("compat_api.cpp")
        x = pyasc.tensor(np.arange(256, dtype=np.float32) + 0.5, device="sim")
        pyasc_acl.launch(k.function("compat_printf"), 4, (x, 17))
        pyasc.current_stream("sim").synchronize()
        print("HOST-DONE", flush=True)
    """)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "HOST-DONE" in text
    chunks = text.split("block ")[1:]
    seen = sorted(int(c.split(" ", 1)[0]) for c in chunks if " of 4: " in c)
    assert seen == [0, 1, 2, 3], text
    for b in range(4):
        start = text.index(f"block {b} of 4: n=17 first=0.500000\n")
        piece = text[start:]
        # each block's lines stay together, in program order
        want = (f"block {b} of 4: n=17 first=0.500000\nhalf 1.50\n"
                f"DumpTensor: desc=7, block={b}, position=VECCALC, data_type=float, dump_size=4\n"
                "[0.5, 1.5, 2.5, 3.5]\n"
                f"DumpTensor: desc=8, block={b}, position=GM, data_type=float, dump_size=2\n[0.5, 1.5]\n")
        assert piece.startswith(want), piece[:400]


def test_false_assert_is_a_kernel_error_naming_the_condition(kernels):
    stream = pyasc.current_stream("sim")
    x = sim(np.zeros(TILE, np.float32))
    pyasc_acl.launch(kernels.function("compat_printf"), 1, (x, 999), stream=stream)
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        stream.synchronize()
    msg = info.value.message
    where = source_line(SRC, 'ASSERT(n <= TILE')
    assert f"sanitizer check 'assert' failed at {where}" in msg, msg
    assert "ASSERT(n <= TILE, \"n = %u exceeds the tile\", n) failed: n = 999 exceeds the tile" in msg, msg


@pytest.mark.parametrize("api", ["AbsSub", "MulsCast"])
def test_unsupported_documented_api_names_itself_at_compile_time(tmp_path, api):
    import pyasc_sim

    src = tmp_path / f"uses_{api.lower()}.cpp"
    src.write_text(textwrap.dedent(f"""
        #include "kernel_operator.h"
        using namespace AscendC;
        extern "C" __global__ __aicore__ void uses_{api.lower()}(GM_ADDR x)
        {{
            TPipe pipe;
            TBuf<TPosition::VECCALC> b;
            pipe.InitBuffer(b, 1024);
            LocalTensor<float> t = b.Get<float>();
            {api}<float, true>(t, t, t, t, 1);
        }}
    """))
    with pytest.raises(pyasc.PyascError) as info:
        pyasc_sim.compile(src, opt="-O0")
    assert f"AscendC::{api} is not supported by the pyasc simulator" in str(info.value)


def test_sub_relu_and_fused_multiply_add(kernels):
    rng = np.random.default_rng(9)
    x, y = rng.standard_normal(TILE).astype(np.float32), rng.standard_normal(TILE).astype(np.float32)
    z = run(kernels, "compat_fused", x, y, 2 * TILE)
    np.testing.assert_array_equal(z[:TILE], np.maximum(x - y, 0))
    d = (x - y).astype(np.float64)
    x64, y64 = x.astype(np.float64), y.astype(np.float64)
    want = np.concatenate([x64[:128] * y64[:128] + d[:128], x64[128:192] * d[128:192] + y64[128:192],
                           np.maximum(x64[192:] * d[192:] + y64[192:], 0)]).astype(np.float32)
    np.testing.assert_array_equal(z[TILE:], want)


def expect_check(stream, kernel: str, check: str, where: str, *details: str) -> str:
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        stream.synchronize()
    msg = info.value.message
    assert f"kernel {kernel} block 0: sanitizer check '{check}' failed at {where}" in msg, msg
    for d in details:
        assert d in msg, msg
    return msg


def test_gather_offset_past_the_source_is_a_local_bounds_error(kernels):
    stream = pyasc.current_stream("sim")
    x = sim(np.zeros(TILE, np.float32))
    offsets = np.zeros(TILE, np.uint32)
    offsets[5] = TILE * 4 + 64  # 64 bytes past the 1 KiB source buffer
    z = pyasc.zeros(TILE, dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function("compat_gather_bad"), 1, (x, sim(offsets.view(np.float32)), z), stream=stream)
    expect_check(stream, "compat_gather_bad", "local-out-of-bounds", marked_line(SRC, "gather-oob"), "Gather reads")
    np.testing.assert_array_equal(z.numpy(), 0)  # the block stopped before writing


def test_gather_reading_an_unwritten_sector_is_an_initcheck_error(kernels):
    """Gather's reads are checked by the sectors they touch: a table reading each written sector
    many times passes, one offset into a sector nothing wrote fails."""
    stream = pyasc.current_stream("sim")
    x = sim(np.zeros(TILE, np.float32))
    offsets = (np.arange(TILE, dtype=np.uint32) * 64) % (TILE * 4)  # the written first TILE floats
    z = pyasc.zeros(TILE, dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function("compat_gather_uninit"), 1, (x, sim(offsets.view(np.float32)), z), stream=stream)
    stream.synchronize()
    np.testing.assert_array_equal(z.numpy(), 2.0)
    offsets[TILE - 1] = TILE * 4 + 40  # a float in the never-written second half
    pyasc_acl.launch(kernels.function("compat_gather_uninit"), 1, (x, sim(offsets.view(np.float32)), z), stream=stream)
    expect_check(stream, "compat_gather_uninit", "local-uninit-read", marked_line(SRC, "gather-uninit"),
                 "Gather reads")


def test_block_reduce_mask_past_one_repeat_is_reported(kernels):
    stream = pyasc.current_stream("sim")
    x = sim(np.zeros(TILE, np.float32))
    z = pyasc.zeros(TILE, dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function("compat_block_reduce_bad"), 1, (x, x, z), stream=stream)
    expect_check(stream, "compat_block_reduce_bad", "vector-mask", marked_line(SRC, "block-reduce-mask"),
                 "BlockReduceSum: mask 65 is outside [1, 64]")
