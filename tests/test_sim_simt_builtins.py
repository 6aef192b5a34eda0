"""The NPU compiler's SIMT builtins and spellings public Ascend 950 kernels ported from CUDA use (IndexSDK's RaBitQ
CAGRA search): the `__forceinline__[aicore]` function attribute (the build spells it __aicore__ for g++), a GM visited
bitmap claimed with atomicOr, __sync_workitems / asc_syncthreads, __reduce_min / _max / _add, __all / __any /
__activemask, __clz, atomicAnd / atomicXOr / asc_atomic_or / _and / _xor, half2 / uint1 / ushort1. Our own kernels in
that style (kernels/compat/simt_visited_bitmap.cpp), compared with NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR
from pyasc_sim import bisheng_syntax

SRC = ASCENDC_DIR / "compat/simt_visited_bitmap.cpp"
THREADS = 128

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.fixture(scope="module")
def binary():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1", soc="Ascend950PR_9599"), device="sim")


@pytest.mark.parametrize("n, words, blocks", [(300, 8, 1), (1000, 20, 3), (77, 2, 2)])
def test_visited_bitmap_inserts_each_id_once(binary, n, words, blocks):
    rng = np.random.default_rng(n)
    ids = rng.integers(0, 32 * words + 40, n).astype(np.uint32)  # repeats, and ids past the bitmap
    bitmap = pyasc.zeros((words,), dtype="int32", device="sim")
    fresh = pyasc.zeros((n,), dtype="int32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("simt_visited_insert"), blocks,
                     (pyasc.tensor(ids.view(np.int32), device="sim"), bitmap, fresh, np.uint32(n), np.uint32(words)))
    pyasc.synchronize("sim")
    want = np.zeros(words, np.uint32)
    for i in ids[ids < 32 * words]:
        want[i // 32] |= np.uint32(1) << np.uint32(i % 32)
    np.testing.assert_array_equal(bitmap.numpy().view(np.uint32), want)
    got = fresh.numpy()
    assert np.all(got[ids >= 32 * words] == 0)
    for i in np.unique(ids[ids < 32 * words]):  # exactly one occurrence of each id inserted it
        assert got[ids == i].sum() == 1, f"id {i}"
    assert len(np.unique(ids)) < n  # the case has repeats


def _clz32(v: int) -> int:
    return 32 - int(v & 0xFFFFFFFF).bit_length()


def _clz64(v: int) -> int:
    return 64 - int(v & 0xFFFFFFFFFFFFFFFF).bit_length()


@pytest.mark.parametrize("n", [128, 100, 45])
def test_warp_builtins_barriers_and_bitwise_atomics(binary, n):
    rng = np.random.default_rng(n)
    f = rng.standard_normal(n).astype(np.float32)
    iv = rng.integers(-5, 300, n).astype(np.int32)
    iv[0] = 0
    h = (rng.standard_normal(n) * 10).astype(np.float16)
    dev = {k: pyasc.zeros(s, dtype=d, device="sim") for k, s, d in
           [("stats", (32,), "int32"), ("clz", (2 * THREADS,), "int32"), ("rot", (2 * THREADS,), "int32"),
            ("h2", (THREADS,), "float16"), ("u1", (THREADS,), "int32")]}
    bits0 = np.array([-1, 0, 0, 0, 0, 0], np.int32)
    bits = pyasc.tensor(bits0, device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("simt_builtins"), 1,
                     (pyasc.tensor(f, device="sim"), pyasc.tensor(iv, device="sim"), pyasc.tensor(h, device="sim"),
                      dev["stats"], dev["clz"], dev["rot"], dev["h2"], bits, dev["u1"], np.uint32(n)))
    pyasc.synchronize("sim")
    stats = dev["stats"].numpy().view(np.uint32).reshape(4, 8)
    fpad = np.full(THREADS, 3.0e38, np.float32)
    fpad[:n] = f
    ipad = np.full(THREADS, np.iinfo(np.int32).min, np.int64)
    ipad[:n] = iv
    upad = np.zeros(THREADS, np.uint64)
    upad[:n] = iv.astype(np.int64) & 0xFFFF
    hpad = np.full(THREADS, 60000, np.float16)
    hpad[:n] = h
    for w in range(4):
        s = slice(32 * w, 32 * w + 32)
        assert stats[w, 0] == fpad[s].min().view(np.uint32), f"warp {w} __reduce_min(float)"
        assert stats[w, 1] == np.uint32(ipad[s].max() & 0xFFFFFFFF), f"warp {w} __reduce_max(int32)"
        assert stats[w, 2] == upad[s].sum() & 0xFFFFFFFF, f"warp {w} __reduce_add(uint32)"
        assert stats[w, 3] == hpad[s].min().view(np.uint16), f"warp {w} __reduce_min(half)"
        lanes = np.arange(32 * w, 32 * w + 32)
        assert stats[w, 4] == int(np.all((lanes >= n) | (ipad[s] >= 0))), f"warp {w} __all"
        assert stats[w, 5] == int(np.any((lanes < n) & (ipad[s] > 100))), f"warp {w} __any"
        assert stats[w, 6] == 0x55555555, f"warp {w} __activemask in the even lanes' branch"
    clz = dev["clz"].numpy()
    np.testing.assert_array_equal(clz[:n], [_clz32(int(v)) for v in iv])
    np.testing.assert_array_equal(clz[THREADS:THREADS + n], [_clz64(int(v) << 20) for v in iv])
    assert clz[0] == 32 and clz[THREADS] == 64  # __clz(0)
    rot = dev["rot"].numpy()
    ivpad = ipad.astype(np.int32)
    np.testing.assert_array_equal(rot[:THREADS], np.roll(ivpad, -1))  # read after __sync_workitems()
    np.testing.assert_array_equal(rot[THREADS:], np.roll(ivpad, -2))  # read after asc_syncthreads()
    h2 = dev["h2"].numpy()[: 2 * (n // 2)].reshape(-1, 2)
    np.testing.assert_array_equal(h2, h[: 2 * (n // 2)].reshape(-1, 2)[:, ::-1])
    b = bits.numpy().view(np.uint32)
    lane_bits = np.uint32(0)
    for t in range(n):
        lane_bits |= np.uint32(1) << np.uint32(t % 32)
    ub_bits = np.uint32(0)
    for t in range(n):
        ub_bits |= np.uint32(1) << np.uint32(t % 31)
    xor_bits = np.uint32(0)
    for t in range(n):
        xor_bits ^= np.uint32(1) << np.uint32(t % 32)
    np.testing.assert_array_equal(b, [~lane_bits, np.bitwise_xor.reduce(iv.view(np.uint32)), lane_bits, 0, xor_bits,
                                      ub_bits])
    uiv = iv.view(np.uint32)
    np.testing.assert_array_equal(dev["u1"].numpy()[:n].view(np.uint32), uiv + (uiv & 0xFFFF))  # uint1 + ushort1


def test_aicore_attribute_rewrite_positions():
    src = ("__forceinline__[aicore] void f();\n#define DI __forceinline__[aicore]\n[aicore] int g();\n"
           "constexpr __forceinline__[aicore] int h();\n__forceinline__ __simt_callee__[aicore] T s(T v);\n"
           "x = table[aicore];\n")
    out, n = bisheng_syntax.rewrite(src)
    assert n == 5
    assert out.splitlines() == [
        "__forceinline__ __aicore__ void f();", "#define DI __forceinline__ __aicore__", " __aicore__ int g();",
        "constexpr __forceinline__ __aicore__ int h();", "__forceinline__ __simt_callee__ __aicore__ T s(T v);",
        "x = table[aicore];"]
    assert bisheng_syntax.uses_aicore_attribute([b"x = table[aicore];", src])
    assert not bisheng_syntax.uses_aicore_attribute(["x = table[aicore];"])


def test_aicore_attribute_in_own_header_of_a_subdirectory(tmp_path):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "helpers.h").write_text(
        '#include "kernel_operator.h"\ntemplate <typename T>\n__forceinline__[aicore] T twice(T v) { return v + v; }\n')
    src = tmp_path / "k.cpp"
    src.write_text('#include "inc/helpers.h"\n'
                   'extern "C" __global__ __aicore__ void twice_k(GM_ADDR y) {\n'
                   '    AscendC::GlobalTensor<int32_t> g; g.SetGlobalBuffer((__gm__ int32_t *)y, 1);\n'
                   '    g.SetValue(0, twice<int32_t>(21));\n}\n')
    fn = pyasc_acl.Binary(pyasc_sim.compile(src, opt="-O1", soc="Ascend950PR_9599"), device="sim").function("twice_k")
    y = pyasc.zeros((8,), dtype="int32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(fn, 1, (y,))
    pyasc.synchronize("sim")
    assert y.numpy()[0] == 42
    assert (tmp_path / "inc" / "helpers.h").read_text().count("[aicore]") == 1  # the user's file is never changed
