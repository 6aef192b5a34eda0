"""The kernel API's fast paths (issue 13): vectorised instruction loops, hardware half conversions,
pairwise sums, the blocked Mmad, and kernels built for the host ISA (-march=native) giving the same
bits as portable ones."""

from __future__ import annotations

import subprocess
import textwrap

import ml_dtypes
import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

N = 2048
SRC = ASCENDC_DIR / "fastpath.cpp"


def sim(a: np.ndarray) -> pyasc.Tensor:
    return pyasc.tensor(a, device="sim")


@pytest.fixture(scope="module")
def builds():
    """fastpath.cpp built for this machine's ISA and for the portable baseline (both -O3)."""
    native = pyasc_sim.compile(SRC, isa="native", opt="-O3")
    portable = pyasc_sim.compile(SRC, isa="portable", opt="-O3")
    assert native != portable  # the ISA is part of the cache key
    return {name: pyasc_acl.Binary(path, device="sim") for name, path in (("native", native), ("portable", portable))}


def inputs() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(13)
    x = rng.uniform(0.01, 8.0, N).astype(np.float32)
    y = rng.standard_normal(N).astype(np.float32)
    x[:8] = [0.0, 1e-40, 65520.0, 65504.0, 3.0e-8, 2.0 ** -24 * 1.5, 1.0009765625 + 2 ** -12, 8.0]  # f16 edges
    y[y == 0] = 1.0
    return x, y


def run_vec(binary, x, y) -> np.ndarray:
    z = pyasc.zeros(15 * N + 32, dtype="float32", device="sim")
    pyasc_acl.launch(binary.function("fastpath_vec"), 1, (sim(x), sim(y), z))
    return z.numpy()


def test_native_and_portable_builds_give_identical_bits(builds):
    x, y = inputs()
    native, portable = run_vec(builds["native"], x, y), run_vec(builds["portable"], x, y)
    np.testing.assert_array_equal(native.view(np.uint32), portable.view(np.uint32))


def test_vector_fast_paths_compute_the_documented_values(builds):
    x, y = inputs()
    z = run_vec(builds["native"], x, y)
    seg = [z[i * N:(i + 1) * N] for i in range(15)]
    exact = [x + y, x - y, x * y, x / y, np.maximum(x, y)]
    for got, want in zip(seg[:5], exact):
        np.testing.assert_array_equal(got, want)
    with np.errstate(over="ignore", divide="ignore"):
        np.testing.assert_allclose(seg[5], np.exp(x), rtol=1e-6)
        np.testing.assert_allclose(seg[6], np.log(x), rtol=1e-6, atol=1e-7)
    np.testing.assert_array_equal(seg[7], np.sqrt(x))
    np.testing.assert_array_equal(seg[8], x + np.float32(0.1))
    np.testing.assert_array_equal(seg[9], x * np.float32(-3.3))
    np.testing.assert_array_equal(seg[10], x + y)  # in place
    masked = np.full(N, 7.0, np.float32).reshape(-1, 64)
    masked[:, :40] = (x + y).reshape(-1, 64)[:, :40]
    np.testing.assert_array_equal(seg[11], masked.ravel())
    strided = np.full(N, 7.0, np.float32).reshape(-1, 8)  # data blocks of 8 floats: every other one
    strided[::2] = (x + y).reshape(-1, 8)[::2]
    np.testing.assert_array_equal(seg[12], strided.ravel())
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(seg[13], x.astype(np.float16).astype(np.float32))  # round to nearest even
    np.testing.assert_array_equal(seg[14], x.astype(ml_dtypes.bfloat16).astype(np.float32))
    tail = z[15 * N:]
    assert tail[0] == pairwise_sum(x)
    assert tail[8] == x.max() and tail[9:10].view(np.uint32)[0] == int(np.argmax(x))
    assert tail[16] == x.min() and tail[17:18].view(np.uint32)[0] == int(np.argmin(x))


FMA_EDGES = np.array([0x7FC00000, 0xFFC00000, 0x7FC12345, 0xFFD54321, 0x7F800001, 0xFF8ABCDE,  # NaNs (signalling too)
                      0x7F800000, 0xFF800000, 0x00000000, 0x80000000, 0x00000001, 0x807FFFFF,  # inf, zeros, subnormals
                      0x7F7FFFFF, 0xFF7FFFFF, 0x5F800000, 0x1F800000, 0x3F800000, 0xBF800001],  # FLT_MAX, 2^64, 2^-64
                     np.uint32)


def fma_inputs() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Random a, b, c with every pair of FMA_EDGES in each pair of operands (the third random), and
    in (a, b) with an edge in c too; sums that cancel (c = -a b and its neighbours) and sums that
    round across FLT_MAX."""
    rng = np.random.default_rng(23)
    a, b = rng.standard_normal((2, N)).astype(np.float32)
    c = rng.standard_normal(N).astype(np.float32) * np.float32(4)
    e = FMA_EDGES.view(np.float32)
    k = len(e)
    i, j = np.divmod(np.arange(k * k), k)
    for s, (p, q, r) in enumerate([(a, b, None), (a, c, None), (b, c, None), (a, b, c)]):
        lanes = slice(s * k * k, (s + 1) * k * k)
        p[lanes], q[lanes] = e[i], e[j]
        if r is not None:
            r[lanes] = e[(i + j) % k]
    at = 4 * k * k
    c[at:at + 300] = -(a[at:at + 300].astype(np.float64) * b[at:at + 300]).astype(np.float32)
    c[at:at + 300] = (c[at:at + 300].view(np.int32) + rng.integers(-2, 3, 300).astype(np.int32)).view(np.float32)
    big = np.float32(np.finfo(np.float32).max)
    a[at + 300:at + 310], b[at + 300:at + 310] = big, np.float32(1.0)
    c[at + 300:at + 310] = big * np.float32([1, -1, 2 ** -24, 2 ** -25, 2 ** -23, -2 ** -24, 0.5, 1e-30, 0, -1])
    return a, b, c


def fma_model(a: np.ndarray, b: np.ndarray, c: np.ndarray, relu: bool = False) -> np.ndarray:
    """The documented three-operand form on the simulator (kapi/vector_more.h fma_round): float(a * b
    + c) with the product exact and the sum rounded once in double; a NaN result is the first NaN of
    a, b (else the default NaN 0xFFC00000 of 0 * inf), then c's, quieted; relu: r > 0 ? r : +0."""
    with np.errstate(all="ignore"):
        r = (a.astype(np.float64) * b.astype(np.float64) + c.astype(np.float64)).astype(np.float32)
    bits = r.view(np.uint32).copy()
    quiet = np.uint32(0x00400000)
    inv = (np.isinf(a) & (b == 0)) | ((a == 0) & np.isinf(b))
    for cond, src in [(np.isnan(c), c.view(np.uint32) | quiet), (inv, np.uint32(0xFFC00000)),
                      (np.isnan(b), b.view(np.uint32) | quiet), (np.isnan(a), a.view(np.uint32) | quiet)]:
        bits = np.where(cond, src, bits)  # later rows win: a's NaN over b's over 0 * inf over c's
    out = bits.view(np.float32)
    return np.where(out > 0, out, np.float32(0)) if relu else out


def run_fma(binary, a, b, c) -> list[np.ndarray]:
    z = pyasc.zeros(7 * N, dtype="float32", device="sim")
    pyasc_acl.launch(binary.function("fastpath_fma"), 1, (sim(a), sim(b), sim(c), z))
    return np.split(z.numpy(), 7)


def test_three_operand_forms_native_and_portable_give_identical_bits(builds):
    a, b, c = fma_inputs()
    native, portable = run_fma(builds["native"], a, b, c), run_fma(builds["portable"], a, b, c)
    for n, p in zip(native, portable):
        np.testing.assert_array_equal(n.view(np.uint32), p.view(np.uint32))


def test_three_operand_forms_round_once_with_nans_in_operand_order(builds):
    """MulAddDst / FusedMulAdd / FusedMulAddRelu (the AVX-512 / AVX2 loops of kapi/simd.h on this
    CPU): every bit as the model, NaN payloads included, out of place, in place and with a tail; the
    half forms as half(the float result) (NaN lanes: NaN)."""
    a, b, c = fma_inputs()
    seg = run_fma(builds["native"], a, b, c)
    want = [fma_model(a, b, c), fma_model(a, b, c), fma_model(a, b, c, relu=True), fma_model(a, b, a)]
    for got, w in zip(seg[:4], want):
        np.testing.assert_array_equal(got.view(np.uint32), w.view(np.uint32))
    tail = np.concatenate([fma_model(a, b, c)[:N - 3], b[N - 3:]])
    np.testing.assert_array_equal(seg[4].view(np.uint32), tail.view(np.uint32))
    with np.errstate(all="ignore"):
        ha, hb, hc = (v.astype(np.float16).astype(np.float32) for v in (a, b, c))
        for got, w in [(seg[5], fma_model(ha, hb, hc)), (seg[6], fma_model(ha, hb, hc, relu=True))]:
            w = w.astype(np.float16).astype(np.float32)
            assert np.array_equal(np.isnan(got), np.isnan(w))
            np.testing.assert_array_equal(got[~np.isnan(w)].view(np.uint32), w[~np.isnan(w)].view(np.uint32))


def pairwise_sum(x: np.ndarray) -> np.float32:
    """The documented ReduceSum order: halve level by level, x[i] + x[i + h] in float32, an odd last
    element carried up."""
    t = np.asarray(x, dtype=np.float32)
    while t.size > 1:
        h = t.size // 2
        nxt = t[:h] + t[h:2 * h]
        t = np.concatenate([nxt, t[2 * h:]]) if t.size & 1 else nxt
    return t[0] if t.size else np.float32(0)


@pytest.mark.parametrize("n", [1, 2, 3, 7, 32, 48, 64, 65, 496, 1000, 1040, 2032, 2048])
def test_reduce_sum_is_a_pairwise_float_tree(builds, n):
    rng = np.random.default_rng(n)
    x = (rng.standard_normal(N) * 10.0 ** rng.integers(-3, 6, N)).astype(np.float32)
    z = pyasc.zeros(8, dtype="float32", device="sim")
    pyasc_acl.launch(builds["native"].function("fastpath_sum"), 1, (sim(x), z, n))
    got = z.numpy()[0]
    assert got.view(np.uint32) == pairwise_sum(x[:n]).view(np.uint32)


def test_reduce_sum_order_is_the_tree_not_a_serial_double_sum(builds):
    # [1e8, -1e8, 1, 1]: a serial sum gives 2 (in double, and in float too), the tree pairs x[i] with
    # x[i + 2]: (1e8 + 1) + (-1e8 + 1) in float, where both 1s round away, gives 0
    x = np.zeros(N, np.float32)
    x[:4] = [1e8, -1e8, 1.0, 1.0]
    z = pyasc.zeros(8, dtype="float32", device="sim")
    pyasc_acl.launch(builds["native"].function("fastpath_sum"), 1, (sim(x), z, 4))
    assert z.numpy()[0] == np.float32(0.0)
    assert pairwise_sum(x[:4]) == np.float32(0.0)


def test_blocked_mmad_matches_the_serial_double_sum_bit_for_bit():
    from ascendc_kernels import load

    fn = load("cube_matmul.cpp").function("matmul_rows")
    m, n, k = 64, 48, 80
    rng = np.random.default_rng(5)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    a[rng.random((m, k)) < 0.2] = 0  # zero A elements (the reference skips them)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)

    def run(a, b):
        c = pyasc.full((m, n), np.nan, dtype="float32", device="sim")
        pyasc_acl.launch(fn, 2, (sim(a), sim(b), c, m // 2, n, k))
        return c.numpy()

    def serial(a, b):
        acc = np.zeros((m, n))
        a64, b64 = a.astype(np.float64), b.astype(np.float64)
        for kk in range(k):
            prod = a64[:, kk:kk + 1] * b64[kk:kk + 1, :]
            acc = acc + np.where(a64[:, kk:kk + 1] == 0, 0.0, prod)
        return acc.astype(np.float32)

    np.testing.assert_array_equal(run(a, b).view(np.uint32), serial(a, b).view(np.uint32))
    b[3, 5] = np.inf  # the blocked kernel hands B with an Inf to the reference loop (0 * Inf skipped)
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(run(a, b).view(np.uint32), serial(a, b).view(np.uint32))


HALF_TEST = textwrap.dedent(r"""
    #include <cstdio>
    #include <cstring>
    #include <random>
    #include "kernel_operator.h"
    using pyasc_sim::simd::f16_to_f32_f16c; using pyasc_sim::simd::f16_to_f32_soft;
    using pyasc_sim::simd::f32_to_f16_f16c; using pyasc_sim::simd::f32_to_f16_soft;
    static bool same(const void *a, const void *b, size_t n) { return std::memcmp(a, b, n) == 0; }
    int main() {
        if (!__builtin_cpu_supports("f16c") || !__builtin_cpu_supports("avx")) { std::puts("no-f16c"); return 0; }
        static half h[65536]; static float f1[65536], f2[65536];
        for (int i = 0; i < 65536; ++i) { uint16_t b = (uint16_t)i; std::memcpy(&h[i], &b, 2); }
        f16_to_f32_f16c(f1, h, 65536); f16_to_f32_soft(f2, h, 65536);
        if (!same(f1, f2, sizeof f1)) { std::puts("f16->f32 differs"); return 1; }
        // float -> half: every half's value, its float neighbours, the midpoints to the next half and
        // their neighbours (ties and near-ties), NaN payloads, random floats
        std::vector<float> src;
        for (int i = 0; i < 65536; ++i) {
            float v = f1[i], w = f1[(i + 1) & 0xffff];
            for (float c : {v, (v + w) / 2}) {
                uint32_t u; std::memcpy(&u, &c, 4);
                for (int d = -2; d <= 2; ++d) { uint32_t t = u + d; float g; std::memcpy(&g, &t, 4); src.push_back(g); }
            }
        }
        std::mt19937 rng(1);
        for (int i = 0; i < 2000000; ++i) { uint32_t t = rng(); float g; std::memcpy(&g, &t, 4); src.push_back(g); }
        for (uint32_t t : {0x7f800001u, 0x7fc00000u, 0xffbfffffu, 0x7f802000u, 0x7fffe000u}) {
            float g; std::memcpy(&g, &t, 4); src.push_back(g);
        }
        std::vector<half> o1(src.size()), o2(src.size());
        f32_to_f16_f16c(o1.data(), src.data(), (int64_t)src.size());
        f32_to_f16_soft(o2.data(), src.data(), (int64_t)src.size());
        if (!same(o1.data(), o2.data(), o1.size() * 2)) { std::puts("f32->f16 differs"); return 1; }
        std::printf("ok %zu\n", src.size());
        return 0;
    }
""")


def test_f16c_conversions_are_bit_identical_to_the_software_ones(tmp_path):
    """Every half -> float, and float -> half at every rounding boundary (plus NaNs and 2M random
    floats): F16C and the software conversion (built portable, so _Float16 goes through libgcc)
    agree bit for bit."""
    src = tmp_path / "half.cpp"
    src.write_text(HALF_TEST)
    exe = tmp_path / "half"
    subprocess.run(["g++", "-std=c++17", "-O2", "-ffp-contract=off", "-I", pyasc_sim.get_include(), str(src), "-o",
                    str(exe)], check=True, capture_output=True, text=True)
    out = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120)
    if out.stdout.strip() == "no-f16c":
        pytest.skip("this CPU has no F16C")
    assert out.returncode == 0 and out.stdout.startswith("ok"), out.stdout + out.stderr


def test_a_bad_isa_names_the_choices(monkeypatch):
    with pytest.raises(pyasc_sim.KernelBuildError, match="isa must be 'native'.*'portable'.*got 'avx9'"):
        pyasc_sim.compile(SRC, isa="avx9")
    monkeypatch.setenv("PYASC_SIM_ISA", "fast")
    with pytest.raises(pyasc_sim.KernelBuildError, match="PYASC_SIM_ISA must be 'native'.*got 'fast'"):
        pyasc_sim.compile(SRC)
    assert pyasc.PyascError in pyasc_sim.KernelBuildError.__mro__


@pytest.mark.parametrize("resolved, flags", [
    ("-march=sapphirerapids -mavx512f -mavx512fp16 -mf16c", ["-march=native", "-mno-avx512fp16"]),
    ("-march=znver3 -mavx2 -mf16c", ["-march=native"]),
])
def test_native_builds_leave_out_avx512fp16(monkeypatch, resolved, flags):
    """Where -march=native has AVX512-FP16, a native build turns it off (GCC 12 + binutils 2.40 emitted
    masked vmovsh the assembler rejects: the native build of fastpath.cpp failed on such a CPU;
    with it _Float16 arithmetic would not round as the portable build's): its flags and cache key say so."""
    from pyasc_sim import build

    monkeypatch.setattr(build, "_resolved_native", lambda cxx: resolved)
    got, key = build.target_isa("g++", "native")
    assert got == flags
    assert key == " ".join(["native:" + resolved, *flags[1:]])
    assert build.target_isa("g++", "portable") == ([], "portable")


@pytest.mark.parametrize("ashape, bshape", [((37, 50), (50, 29)), ((130, 200), (200, 140)), ((2, 3, 17, 70), (70, 5)),
                                            ((40,), (40, 33)), ((3, 16, 16), (3, 16, 16))])
def test_float32_matmul_runs_on_the_cube_path(ashape, bshape):
    """float32 matmul takes the cube path (B transposed on the device, 16 x 8 fractals, K steps of
    64 accumulated in float in L0C): results within float rounding of the exact product."""
    from pyasc_kernels import linalg

    assert pyasc.float32 in linalg.CUBE
    rng = np.random.default_rng(len(ashape) + ashape[-1])
    a = rng.standard_normal(ashape).astype(np.float32)
    b = rng.standard_normal(bshape).astype(np.float32)
    got = (sim(a) @ sim(b)).numpy()
    exact = a.astype(np.float64) @ b.astype(np.float64)
    assert got.dtype == np.float32 and got.shape == exact.shape
    np.testing.assert_allclose(got, exact, rtol=1e-5, atol=1e-5 * np.sqrt(ashape[-1]))


def test_float_exp_is_within_its_documented_error_bound():
    """Exp of float (simd.h exp_f32_one, float arithmetic): < 1.03 ulp of the exact e^x over a dense
    sample of every float in [-110, 90] (bit patterns drawn uniformly), plus the edges."""
    rng = np.random.default_rng(1313)
    lo, hi = np.float32(-110.0).view(np.uint32), np.float32(90.0).view(np.uint32)
    neg = rng.integers(0x80000000, lo, 1 << 19, dtype=np.uint64, endpoint=True).astype(np.uint32).view(np.float32)
    pos = rng.integers(0, hi, 1 << 19, dtype=np.uint64, endpoint=True).astype(np.uint32).view(np.float32)
    edges = np.array([0.0, -0.0, 88.72283, 88.7229, -87.33655, -103.97, -104.0, 1e-30, -1e-30, np.inf, -np.inf],
                     np.float32)
    x = np.concatenate([neg, pos, edges])
    got = pyasc.exp(sim(x)).numpy().astype(np.float64)
    with np.errstate(over="ignore"):
        exact = np.exp(x.astype(np.float64))
    finite = exact < float(np.finfo(np.float32).max)
    assert np.all(np.isinf(got[~finite]))
    e = exact[finite]
    # one ulp of the float at e: 2^(exponent - 23), at least the subnormal step 2^-149
    ulp = np.ldexp(1.0, np.maximum(np.frexp(e)[1] - 24, -149))
    err = np.abs(got[finite] - e) / ulp
    assert err.max() < 1.03, (err.max(), x[finite][np.argmax(err)])
    assert np.isnan(pyasc.exp(sim(np.array([np.nan], np.float32))).numpy()[0])


def test_float_log_is_within_its_documented_error_bound():
    """Ln of float (simd.h log_f32_one, float arithmetic, AVX-512 loop): < 1 ulp of the exact ln x over
    a dense sample of every positive float (subnormals included), and glibc logf's special values:
    ln(+-0) = -inf, ln(+inf) = +inf, ln(x < 0) = the default NaN, NaN -> NaN."""
    rng = np.random.default_rng(1314)
    pos = rng.integers(1, 0x7F800000, 1 << 20, dtype=np.uint64).astype(np.uint32).view(np.float32)
    x = np.concatenate([pos, np.array([1.0, 2.0, 0.5, 1e-45, 1.1754942e-38, 3.4028235e38], np.float32)])
    got = pyasc.log(sim(x)).numpy().astype(np.float64)
    exact = np.log(x.astype(np.float64))
    nonzero = exact != 0
    ulp = np.ldexp(1.0, np.frexp(exact[nonzero])[1] - 24)
    err = np.abs(got[nonzero] - exact[nonzero]) / ulp
    assert err.max() < 1.0, (err.max(), x[nonzero][np.argmax(err)])
    assert np.all(got[~nonzero] == 0.0)
    specials = np.array([0.0, -0.0, np.inf, -1.0, -np.inf, np.nan], np.float32)
    out = pyasc.log(sim(specials)).numpy()
    assert out[0] == -np.inf and out[1] == -np.inf and out[2] == np.inf
    assert out[3:5].view(np.uint32).tolist() == [0xFFC00000, 0xFFC00000]  # x86's default NaN, as glibc's logf
    assert np.isnan(out[5])
