"""The Ascend C kernel API on the CPU, end to end from Python: correct kernels of our own
(backends/sim/kernel_api/tests/kernels/*.cpp, written as for the NPU) are compiled with
pyasc_sim.compile, loaded with pyasc_acl.Binary(path, device="sim"), launched with pyasc_acl.launch on sim tensors and compared
with NumPy models of the documented semantics."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import pyasc
import pyasc_acl

from ascendc_kernels import f32_arg, load

LENGTHS = [1, 31, 32, 33, 255, 256, 257, 4097]
BF16 = np.dtype(ml_dtypes.bfloat16)


def sim(array: np.ndarray) -> pyasc.Tensor:
    return pyasc.tensor(array, device="sim")


# ---- vector add: multi-core split, double buffering, DataCopyPad tails ---------------------------


@pytest.fixture(scope="module")
def vadd():
    return load("vadd.cpp")


@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("dtype, kernel", [(np.float16, "vadd_half"), (np.float32, "vadd_float"),
                                           (BF16, "vadd_bf16")], ids=["float16", "float32", "bfloat16"])
def test_vector_add(vadd, dtype, kernel, n):
    rng = np.random.default_rng(n)
    x = rng.uniform(-100, 100, n).astype(dtype)
    y = rng.uniform(-100, 100, n).astype(dtype)
    pad = 37  # elements after the output the kernel must not write
    z = pyasc.full((n + pad,), 3, dtype=str(np.dtype(dtype)), device="sim")
    # 8 blocks, 128-element tiles: several tiles per block, a partial last tile, blocks left empty
    pyasc_acl.launch(vadd.function(kernel), 8, (sim(x), sim(y), z, n, 128))
    out = z.numpy()
    # one correctly rounded addition per element (the sum of two values of these types is exact
    # in float32, then rounded once to the element type)
    np.testing.assert_array_equal(out[:n], (x.astype(np.float32) + y.astype(np.float32)).astype(dtype))
    np.testing.assert_array_equal(out[n:].astype(np.float32), 3)


def test_vector_add_any_block_count_gives_the_same_result(vadd):
    n = 4097
    rng = np.random.default_rng(1)
    x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    want = x + y
    for blocks in (1, 3, 16, 40, 70):
        z = pyasc.zeros(n, dtype="float32", device="sim")
        pyasc_acl.launch(vadd.function("vadd_float"), blocks, (sim(x), sim(y), z, n, 256))
        np.testing.assert_array_equal(z.numpy(), want, err_msg=f"{blocks} blocks")


# ---- the mask / repeat form with BinaryRepeatParams -----------------------------------------------


def repeat_model(z: np.ndarray, x: np.ndarray, y: np.ndarray, mask: np.ndarray, repeats: int,
                 strides: tuple[int, ...]) -> np.ndarray:
    """The documented addressing of a binary repeat instruction: in repeat r, element i of an
    operand is at r * repStride * E + (i // E) * blkStride * E + i % E (E elements per 32-byte
    block, strides in blocks); only elements whose mask bit is set are computed."""
    e = 32 // x.itemsize
    dst_blk, s0_blk, s1_blk, dst_rep, s0_rep, s1_rep = strides
    out = z.copy()
    i = np.nonzero(mask)[0]
    for r in range(repeats):
        def at(blk, rep):
            return r * rep * e + (i // e) * blk * e + i % e
        out[at(dst_blk, dst_rep)] = (x[at(s0_blk, s0_rep)].astype(np.float32)
                                     - y[at(s1_blk, s1_rep)].astype(np.float32)).astype(x.dtype)
    return out


def mask_bits(lo: int, hi: int, per_repeat: int) -> np.ndarray:
    bits = [(lo >> k) & 1 for k in range(64)] + [(hi >> k) & 1 for k in range(64)]
    return np.array(bits[:per_repeat], dtype=bool)


REPEAT_CASES = {
    # name: (dtype, len, mask: count | (lo, hi), repeats, (dstBlk, src0Blk, src1Blk, dstRep, src0Rep, src1Rep))
    "f32-count48-src0-gapped": (np.float32, 1024, 48, 4, (1, 2, 1, 8, 16, 4)),
    "f32-bits-dst-gapped": (np.float32, 1024, (0xF0F0_0000_FFFF_0001, 0), 3, (2, 1, 1, 16, 8, 8)),
    "f16-count100-src1-broadcast": (np.float16, 2048, 100, 5, (1, 1, 2, 8, 8, 0)),
    "f16-bits-both-words": (np.float16, 2048, (0xAAAA_5555_AAAA_5555, 0x0000_FFFF_0000_FFFF), 2, (1, 1, 1, 8, 8, 8)),
    "f16-255-repeats": (np.float16, 255 * 128, 128, 255, (1, 1, 1, 8, 8, 8)),
}


@pytest.mark.parametrize("case", list(REPEAT_CASES))
def test_mask_repeat_form_with_strides(case):
    dtype, length, mask, repeats, strides = REPEAT_CASES[case]
    per_repeat = 256 // np.dtype(dtype).itemsize
    rng = np.random.default_rng(len(case))
    x = rng.integers(-512, 512, length).astype(dtype) / 4
    y = rng.integers(-512, 512, length).astype(dtype) / 8
    z0 = np.full(length, 1000, dtype=dtype)
    if isinstance(mask, tuple):
        lo, hi, bits, active = mask[0], mask[1], 1, mask_bits(*mask, per_repeat)
    else:
        lo, hi, bits, active = mask, 0, 0, np.arange(per_repeat) < mask
    z = sim(z0)
    kernel = "sub_repeat_float" if dtype == np.float32 else "sub_repeat_half"
    pyasc_acl.launch(load("vector_api.cpp").function(kernel), 1,
                     (sim(x), sim(y), z, length, lo, hi, bits, repeats, *strides))
    want = repeat_model(z0, x, y, active, repeats, strides)
    np.testing.assert_array_equal(z.numpy(), want)
    computed = want != z0
    if case == "f16-255-repeats":
        assert computed.all()  # 255 full repeats cover the whole buffer
    else:
        assert computed.any() and not computed.all()  # masked-off / skipped elements kept z's value


# ---- Cast with round modes ------------------------------------------------------------------------

MODES = {"rint": 1, "floor": 2, "ceil": 3, "round": 4, "trunc": 5, "odd": 6}


@pytest.fixture(scope="module")
def vector_api():
    return load("vector_api.cpp")


def run_cast(vector_api, kernel: str, x: np.ndarray, out_dtype, mode: str) -> np.ndarray:
    z = pyasc.zeros(x.size, dtype=str(np.dtype(out_dtype)), device="sim")
    pyasc_acl.launch(vector_api.function(kernel), 1, (sim(x), z, x.size, MODES[mode]))
    return z.numpy()


def test_cast_half_to_int32_rint_and_trunc_differ(vector_api):
    x = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 2.25, -2.75, 7.0, 100.5, -100.5, 0.0, 1023.5, -3.5,
                  3.75, 65504.0, -65504.0, 0.4995, -0.4995, 33.5] * 4, dtype=np.float16)
    f = x.astype(np.float64)
    want = {
        "rint": np.rint(f),                                   # ties to even
        "trunc": np.trunc(f),
        "floor": np.floor(f),
        "ceil": np.ceil(f),
        "round": np.sign(f) * np.floor(np.abs(f) + 0.5),      # ties away from zero
    }
    got = {mode: run_cast(vector_api, "cast_half_int32", x, np.int32, mode) for mode in want}
    for mode, expected in want.items():
        np.testing.assert_array_equal(got[mode], expected.astype(np.int32), err_msg=mode)
    assert (got["rint"] != got["trunc"]).any() and (got["rint"] != got["round"]).any()


def float_to_half_model(x: np.ndarray, mode: str) -> np.ndarray:
    """float32 -> float16 by rounding mode, from the two float16 neighbours of each value."""
    near = x.astype(np.float16)  # round to nearest even
    up = np.float16(np.inf)
    down = np.float16(-np.inf)
    lo = np.where(near.astype(np.float32) <= x, near, np.nextafter(near, down))
    hi = np.where(near.astype(np.float32) >= x, near, np.nextafter(near, up))
    exact = near.astype(np.float32) == x
    if mode == "rint":
        out = near
    elif mode == "floor":
        out = lo
    elif mode == "ceil":
        out = hi
    elif mode == "trunc":
        out = np.where(x > 0, lo, hi)
    elif mode == "round":
        dl = x.astype(np.float64) - lo.astype(np.float64)
        dh = hi.astype(np.float64) - x.astype(np.float64)
        out = np.where(dl < dh, lo, np.where(dh < dl, hi, np.where(x > 0, hi, lo)))
    else:  # odd: the neighbour whose last mantissa bit is 1
        out = np.where(lo.view(np.uint16) & 1, lo, hi)
    return np.where(exact, near, out)


@pytest.mark.parametrize("mode", ["rint", "floor", "ceil", "trunc", "round", "odd"])
def test_cast_float_to_half(vector_api, mode):
    rng = np.random.default_rng(5)
    one_ulp = 2.0 ** -10
    x = np.concatenate([
        rng.uniform(-300, 300, 200),
        [1 + one_ulp / 2, 1 + 3 * one_ulp / 2, -(1 + one_ulp / 2), 2048 + 1, -2048 - 3, 0.1, -0.1, 1.0, -2.0, 0.0],
    ]).astype(np.float32)
    got = run_cast(vector_api, "cast_float_half", x, np.float16, mode)
    np.testing.assert_array_equal(got.view(np.uint16), float_to_half_model(x, mode).view(np.uint16))


def test_cast_float_to_bfloat16_rint_and_trunc(vector_api):
    x = np.random.default_rng(9).standard_normal(96).astype(np.float32) * 1000
    rint = run_cast(vector_api, "cast_float_bf16", x, BF16, "rint")
    trunc = run_cast(vector_api, "cast_float_bf16", x, BF16, "trunc")
    np.testing.assert_array_equal(rint.view(np.uint16), x.astype(BF16).view(np.uint16))
    # toward zero = drop the low 16 bits of the float32
    np.testing.assert_array_equal(trunc.view(np.uint16), (x.view(np.uint32) >> 16).astype(np.uint16))
    assert (rint != trunc).any()


# ---- reductions -----------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [64, 1001, 4096])
def test_reduce_sum_max_and_whole_reduce(vector_api, n):
    rows = n // 64
    rng = np.random.default_rng(n)
    x = rng.permutation(n).astype(np.float32) / 7 - n / 14  # distinct values: unique argmax
    sum_at = (16 + 2 * rows + 7) // 8 * 8
    out = pyasc.full((sum_at + rows,), -1, dtype="float32", device="sim")
    pyasc_acl.launch(vector_api.function("reductions"), 1, (sim(x), out, n, rows))
    got = out.numpy()
    # ReduceSum: the documented pairwise tree in float (kernel API README), close to the exact sum
    assert got[0].view(np.uint32) == _pairwise_f32(x).view(np.uint32)
    np.testing.assert_allclose(got[0], x.astype(np.float64).sum(), rtol=0, atol=1e-6 * np.abs(x).sum())
    assert got[8] == x.max() and got[9:10].view(np.uint32)[0] == x.argmax()           # ReduceMax + index
    table = x[: rows * 64].reshape(rows, 64)
    pairs = got[16: 16 + 2 * rows].reshape(rows, 2)
    np.testing.assert_array_equal(pairs[:, 0], table.max(axis=1))                        # WholeReduceMax
    np.testing.assert_array_equal(pairs[:, 1].copy().view(np.uint32), table.argmax(axis=1))
    np.testing.assert_array_equal(got[sum_at:], [_pairwise_f32(row) for row in table])  # WholeReduceSum
    np.testing.assert_allclose(got[sum_at:], table.astype(np.float64).sum(axis=1), rtol=1e-6, atol=1e-4)


def _pairwise_f32(x: np.ndarray) -> np.float32:
    """ReduceSum's order: halve level by level, x[i] + x[i + h] in float32, an odd last element carried up."""
    t = np.asarray(x, dtype=np.float32)
    while t.size > 1:
        h = t.size // 2
        t = np.concatenate([t[:h] + t[h:2 * h], t[2 * h:]])
    return t[0]


# ---- Compare + Select -----------------------------------------------------------------------------

CMP = {"lt": (0, np.less), "gt": (1, np.greater), "eq": (2, np.equal), "le": (3, np.less_equal),
       "ge": (4, np.greater_equal), "ne": (5, np.not_equal)}


@pytest.mark.parametrize("op", list(CMP))
def test_compare_and_select(vector_api, op):
    code, np_op = CMP[op]
    n = 256
    rng = np.random.default_rng(code)
    x = rng.integers(-3, 4, n).astype(np.float32)
    y = rng.integers(-3, 4, n).astype(np.float32)
    bits = pyasc.zeros(n // 8, dtype="uint8", device="sim")
    z = pyasc.zeros(2 * n, dtype="float32", device="sim")
    pyasc_acl.launch(vector_api.function("compare_select"), 1, (sim(x), sim(y), bits, z, n, code, f32_arg(-9.5)))
    cond = np_op(x, y)
    assert cond.any() and not cond.all()
    np.testing.assert_array_equal(bits.numpy(), np.packbits(cond, bitorder="little"))
    np.testing.assert_array_equal(z.numpy()[:n], np.where(cond, x, y))
    np.testing.assert_array_equal(z.numpy()[n:], np.where(cond, x, np.float32(-9.5)))


# ---- the cube path ------------------------------------------------------------------------------


@pytest.mark.parametrize("m, n, k, blocks", [(32, 32, 32, 1), (64, 48, 80, 2), (128, 16, 16, 4)])
def test_matmul_on_the_cube_path(m, n, k, blocks):
    fn = load("cube_matmul.cpp").function("matmul_rows")
    rng = np.random.default_rng(m + n + k)

    def run(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        c = pyasc.full((m, n), np.nan, dtype="float32", device="sim")
        pyasc_acl.launch(fn, blocks, (sim(a), sim(b), c, m // blocks, n, k))
        return c.numpy()

    # small integers: every product and sum is exact, so any layout slip shows as a wrong value
    ai = rng.integers(-4, 5, (m, k)).astype(np.float16)
    bi = rng.integers(-4, 5, (k, n)).astype(np.float16)
    np.testing.assert_array_equal(run(ai, bi), ai.astype(np.float32) @ bi.astype(np.float32))
    # general half inputs, float accumulation: float32 reference within a half-appropriate tolerance
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    np.testing.assert_allclose(run(a, b), a.astype(np.float32) @ b.astype(np.float32), rtol=1e-3, atol=1e-3)
