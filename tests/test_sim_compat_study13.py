"""Idioms of round 13's public kernel (RecSDK's c310 block_bucketize_sparse_features, backends/sim/kernel_api/
COMPAT.md): ListTensorDesc / TensorDesc over a tensor-list argument (kernel_operator_list_tensor_intf.h), the
dcci intrinsic with cache_line_t / dcci_dst_t, RecSDK disentangle_attention's ClampMin / ClampMax,
the SoftMax form with a temporary buffer, ASCENDC_ASSERT and MatmulType's SRCPOS, and on the Ascend 950 Simt::UintDiv / asc_uintdiv with
GetUintDivMagicAndShift and asc_atomic_add on UB counters. The kernel is our own
(kernels/compat/study13_idioms.cpp); one compile per SoC."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR, launch_synced, on_sim

SRC = ASCENDC_DIR / "compat/study13_idioms.cpp"
A950 = "Ascend950PR_9599"

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.fixture(scope="module")
def a2():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1"), device="sim")


@pytest.fixture(scope="module")
def a950():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1", soc=A950), device="sim")


def test_list_tensor_desc_gathers_the_listed_tensors(a2):
    rng = np.random.default_rng(13)
    parts = [rng.integers(-1000, 1000, n).astype(np.int32) for n in (5, 16, 9)]
    out = pyasc.zeros((32,), dtype="int32", device="sim")
    info = pyasc.zeros((16,), dtype="int64", device="sim")
    lst = pyasc.zeros((16,), dtype="int64", device="sim")
    launch_synced(a2.function("study13_list_gather"), 1,
                  (*[on_sim(p) for p in parts], lst, out, info, *[np.uint32(len(p)) for p in parts]))
    np.testing.assert_array_equal(out.numpy()[:30], np.concatenate(parts))
    got = info.numpy()
    assert got[0] == 3
    for i, p in enumerate(parts):  # dim 1, index i, length, the three data pointers agree
        assert got[1 + 4 * i: 5 + 4 * i].tolist() == [1, i, len(p), 1]
    words = lst.numpy().view(np.uint64)  # the layout the kernel wrote: pointer-table offset 56, [1 | i << 32, length] descriptors
    assert words[0] == 56 and [int(w) for w in words[1:7]] == [1, 5, 1 | 1 << 32, 16, 1 | 2 << 32, 9]


def test_list_tensor_desc_pointer_only_form(a2):
    ptrs = [0x1000, 0x2040, 0x30C0, 0x4100]
    block = np.array([24, len(ptrs) << 32, 0xFFFFFFFF, *ptrs], dtype=np.uint64)
    info = pyasc.zeros((8,), dtype="int64", device="sim")
    launch_synced(a2.function("study13_list_parse"), 1, (on_sim(block.view(np.int64)), info))
    assert info.numpy()[:5].tolist() == [4, *ptrs]


def test_list_tensor_desc_refuses_a_block_that_is_not_a_list(a2):
    block = np.array([40, 1, 7, 1 | 1 << 32, 9, 0, 0], dtype=np.uint64)  # 2 descriptors of dim 1 need offset 40 ...
    block[0] = 48  # ... not 48
    info = pyasc.zeros((8,), dtype="int64", device="sim")
    with pytest.raises(pyasc.PyascError, match=r"invalid-argument.*ListTensorDesc::Init: the data is not a tensor list"):
        launch_synced(a2.function("study13_list_parse"), 1, (on_sim(block.view(np.int64)), info))


def _magic_shift(d: int, bits: int) -> tuple[int, int]:
    s = (d - 1).bit_length()
    return ((1 << bits) * ((1 << s) - d)) // d + 1, s


@pytest.mark.parametrize("n, d", [(1000, 7), (3000, 1), (777, 256)])
def test_simt_uintdiv_and_ub_atomic_counts(a950, n, d):
    rng = np.random.default_rng(n + d)
    x = rng.integers(0, 2**31 - 1, n, dtype=np.int64).astype(np.uint32)
    x[:3] = [0, d, 2**31 - 1]
    d64 = 10**12 + 39
    x64 = rng.integers(0, 2**63 - 1, n, dtype=np.int64).astype(np.uint64)
    q = pyasc.zeros((n,), dtype="int32", device="sim")
    q64 = pyasc.zeros((n,), dtype="int64", device="sim")
    counts = pyasc.zeros((d,), dtype="int32", device="sim")
    launch_synced(a950.function("study13_simt_bucket"), 1,
                  (on_sim(x.view(np.int32)), q, counts, on_sim(x64.view(np.int64)), q64, np.uint32(n), np.uint32(d), np.uint64(d64)))
    np.testing.assert_array_equal(q.numpy().view(np.uint32), x // d)
    np.testing.assert_array_equal(q64.numpy().view(np.uint64), x64 // np.uint64(d64))
    np.testing.assert_array_equal(counts.numpy(), np.bincount(x % d, minlength=d))


def test_uintdiv_magic_matches_the_documented_formula():
    # the scalar formula the simulator implements (shift = ceil(log2 d), magic = 2^N (2^shift - d) / d + 1) divides
    # exactly over the documented range: checked here in Python for the boundary divisors
    for bits, top in ((32, 2**31 - 1), (64, 2**63 - 1)):
        for d in (1, 2, 3, 7, 255, 256, 257, 10**6 + 3, top - 1, top):
            m, s = _magic_shift(d, bits)
            for x in (0, 1, d - 1, d, d + 1, top - 1, top):
                assert (x + ((x * m) >> bits)) >> s == x // d


def test_bad_divisor_is_reported(a950):
    out = pyasc.zeros((8,), dtype="int32", device="sim")
    with pytest.raises(pyasc.PyascError, match=r"GetUintDivMagicAndShift.*divisor 0.*\[1, 2147483647\]"):
        launch_synced(a950.function("study13_bad_divisor"), 1, (out, np.uint32(0)))


@pytest.mark.parametrize("rows, cols", [(4, 64), (2, 256)])
def test_clamp_and_softmax_with_a_temporary_buffer(a2, rows, cols):
    x = np.random.default_rng(rows).standard_normal((rows, cols)).astype(np.float32)
    clipped = pyasc.zeros((rows * cols,), dtype="float32", device="sim")
    probs = pyasc.zeros((rows * cols,), dtype="float32", device="sim")
    launch_synced(a2.function("study13_clamp_softmax"), 1, (on_sim(x), clipped, probs, np.uint32(rows), np.uint32(cols)))
    np.testing.assert_array_equal(clipped.numpy().reshape(rows, cols), np.clip(x, -0.5, 0.5))
    e = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(probs.numpy().reshape(rows, cols), e / e.sum(axis=1, keepdims=True), rtol=1e-5)


def test_ascendc_assert_names_the_condition(a2):
    x = pyasc.zeros((8,), dtype="float32", device="sim")
    with pytest.raises(pyasc.PyascError, match=r"assert.*ASCENDC_ASSERT\(\(rows \* cols <= 1024\)\) failed"):
        launch_synced(a2.function("study13_clamp_softmax"), 1, (x, x, x, np.uint32(64), np.uint32(64)))
