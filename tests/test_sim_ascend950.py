"""The Atlas 350 / Ascend 950 SoC profile (soc="Ascend950PR_9599"): vector kernels built for it see
the architecture macros public 950 code tests (__CCE_AICORE__ 310, __NPU_ARCH__ 3510, __DAV_C310__ /
__DAV_C310_VEC__) and its 248 KiB Unified Buffer, run on the simulator and match NumPy; the device
profile of that name reports its core counts; cube / mixed builds for it are refused clearly."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR, launch_synced

SOC = "Ascend950PR_9599"
SRC = ASCENDC_DIR / "compat" / "ascend950_vec.cpp"


def binary(soc: str | None = SOC):
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1", soc=soc), device="sim")


def test_arch_macros_are_the_documented_ones():
    out = pyasc.zeros((6,), dtype="int32", device="sim")
    launch_synced(binary().function("a950_arch"), 1, (out,))
    # __CCE_AICORE__, __NPU_ARCH__, __DAV_C310__, __DAV_C310_VEC__, any __DAV_C220_*__, the 3510 path
    assert out.numpy().tolist() == [310, 3510, 1, 1, 0, 3510]
    flags = pyasc_sim.build.arch_defines(SOC)
    assert "-D__NPU_ARCH__=3510" in flags and "-D__CCE_AICORE__=310" in flags
    assert not any("C220" in f for f in flags)


def test_a_vector_kernel_built_for_950_matches_numpy_with_its_larger_ub():
    rng = np.random.default_rng(950)
    blocks, n = 3, 16384 + 40  # two tiles per block, the second a short one
    x = rng.standard_normal(blocks * n).astype(np.float32)
    y = rng.standard_normal(blocks * n).astype(np.float32)
    gx, gy = pyasc.tensor(x, device="sim"), pyasc.tensor(y, device="sim")
    gz = pyasc.zeros(blocks * n, dtype="float32", device="sim")
    launch_synced(binary().function("a950_add"), blocks, (gx, gy, gz, n))
    np.testing.assert_array_equal(gz.numpy(), x + y)


def test_the_same_tiles_overflow_an_atlas_a2_ub():
    # 224 KiB of buffers: fits the 950's 248 KiB, not the 910B's 192 KiB
    gx = pyasc.zeros(16384, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    fn = binary("Ascend910B1").function("a950_add")
    stream = pyasc.current_stream("sim")
    pyasc_acl.launch(fn, 1, (gx, gx, gx, 16384), stream=stream)
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        stream.synchronize()
    assert "InitBuffer" in info.value.message or "UB" in info.value.message, info.value.message


@pytest.mark.parametrize("core", ["cube", "mix"])
def test_cube_builds_for_950_are_refused_naming_the_fix(core):
    with pytest.raises(pyasc_sim.KernelBuildError, match=r"core='%s' for Ascend950PR_9599.*vector \(AIV\) kernels only"
                       % core):
        pyasc_sim.compile(SRC, opt="-O1", soc=SOC, core=core)


CHILD = r"""
import json, sys
import pyasc_acl
binary = pyasc_acl.Binary(sys.argv[1], device="sim")
raw = binary.backend.raw_device(binary.device)
print(json.dumps({"vec": raw.device_info(201), "cube": raw.device_info(102)}))
"""


def test_device_profile_of_that_name_has_the_950_core_counts(tmp_path):
    env = dict(os.environ, PYASC_SIM_SOC=SOC)
    path = pyasc_sim.compile(SRC, opt="-O1", soc=SOC)
    done = subprocess.run([sys.executable, "-c", CHILD, path], env=env, capture_output=True, text=True, timeout=120,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == {"vec": 64, "cube": 32}


# ---- the basic vector APIs of the Ascend 950 only (kapi/ascend950.h) --------------------------------

API_SRC = ASCENDC_DIR / "compat" / "ascend950_api.cpp"
ONLY_ON_950 = ["Neg", "AbsSub", "ExpSub", "Subs", "Divs", "Ands", "Ors", "Interleave", "DeInterleave"]


def api_binary():
    return pyasc_acl.Binary(pyasc_sim.compile(API_SRC, opt="-O1", soc=SOC), device="sim")


def test_950_only_apis_match_numpy():
    n = 256
    rng = np.random.default_rng(3510)
    x = rng.uniform(-2, 2, n).astype(np.float32)
    y = rng.uniform(0.5, 2, n).astype(np.float32)
    xi = rng.integers(-40000, 40000, n).astype(np.int32)
    out = pyasc.zeros(13 * n, dtype="float32", device="sim")
    outi = pyasc.zeros(4 * n, dtype="int32", device="sim")
    args = (pyasc.tensor(x, device="sim"), pyasc.tensor(y, device="sim"), pyasc.tensor(xi, device="sim"), out, outi)
    launch_synced(api_binary().function("a950_api"), 1, args)
    o = out.numpy().reshape(13, n)
    np.testing.assert_array_equal(o[0], -x)
    np.testing.assert_array_equal(o[1], np.abs(x - y))
    np.testing.assert_allclose(o[2], np.exp(x - y), rtol=3e-7)
    np.testing.assert_array_equal(o[3], x - np.float32(1.5))
    np.testing.assert_array_equal(o[4], np.float32(2) - x)
    np.testing.assert_array_equal(o[5], x / np.float32(4))
    np.testing.assert_allclose(o[6], np.float32(3) / y, rtol=2e-7)
    z = np.empty(2 * n, np.float32)
    z[0::2], z[1::2] = x, y
    np.testing.assert_array_equal(o[7], z[:n])  # Interleave: dst0, then dst1
    np.testing.assert_array_equal(o[8], z[n:])
    np.testing.assert_array_equal(o[9], np.concatenate([x[0::2], x[1::2]]))  # DeInterleave, one input
    xy = np.concatenate([x, y])
    np.testing.assert_array_equal(o[10], xy[0::2])  # DeInterleave, two inputs
    np.testing.assert_array_equal(o[11], xy[1::2])
    h = lambda a: a.astype(np.float16).astype(np.float32)  # noqa: E731
    np.testing.assert_allclose(o[12], np.exp(h(x) - h(y)), rtol=3e-7)  # ExpSub<float, half>
    oi = outi.numpy().reshape(4, n)
    np.testing.assert_array_equal(oi[0], -xi)
    np.testing.assert_array_equal(oi[1], xi & 0x0F0F)
    np.testing.assert_array_equal(oi[2], 0x100 | xi)
    np.testing.assert_array_equal(oi[3], 7 - xi)


def test_an_odd_interleave_count_is_a_sanitizer_error():
    from ascendc_kernels import marked_line

    out = pyasc.zeros(8, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    stream = pyasc.current_stream("sim")
    pyasc_acl.launch(api_binary().function("a950_odd_interleave"), 1, (out,), stream=stream)
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        stream.synchronize()
    msg = info.value.message
    assert marked_line("compat/ascend950_api.cpp", "odd-count") in msg, msg
    assert "Interleave: count = 255 must be even" in msg, msg


def test_950_only_apis_are_refused_elsewhere_naming_the_soc_that_has_them(tmp_path):
    calls = "\n".join(f"    {n}(t, t, t, 64);" for n in ONLY_ON_950)
    src = tmp_path / "only950.cpp"
    src.write_text('#include "kernel_operator.h"\nusing namespace AscendC;\n'
                   'extern "C" __global__ __aicore__ void only950(GM_ADDR x)\n{\n'
                   '    TPipe pipe;\n    TBuf<TPosition::VECCALC> b;\n    pipe.InitBuffer(b, 1024);\n'
                   '    LocalTensor<half> t = b.Get<half>();\n' + calls + "\n}\n")
    for soc in ("Ascend910B1", "Ascend310P3"):
        with pytest.raises(pyasc_sim.KernelCompileError) as info:
            pyasc_sim.compile(src, opt="-O0", soc=soc, extra_flags=["-fmax-errors=0"])
        out = info.value.output
        missing = [n for n in ONLY_ON_950 if f"AscendC::{n} is not supported by the pyasc simulator on this SoC: the "
                   "reference documents it for the Atlas 350 / Ascend 950 only; build the kernel with "
                   'soc="Ascend950PR_9599"' not in out]
        assert not missing, (soc, missing)


def test_950_dtype_rows_refuse_an_unlisted_type(tmp_path):
    src = tmp_path / "neg_u16.cpp"
    src.write_text('#include "kernel_operator.h"\nusing namespace AscendC;\n'
                   'extern "C" __global__ __aicore__ void neg_u16(GM_ADDR x)\n{\n'
                   '    TPipe pipe;\n    TBuf<TPosition::VECCALC> b;\n    pipe.InitBuffer(b, 1024);\n'
                   '    LocalTensor<uint16_t> t = b.Get<uint16_t>();\n    Neg(t, t, 64);\n}\n')
    with pytest.raises(pyasc_sim.KernelCompileError) as info:
        pyasc_sim.compile(src, opt="-O0", soc=SOC)
    out = info.value.output
    assert "AscendC::Neg is not documented for this element type T on the Atlas 350 / Ascend 950" in out, out
    assert "int8_t, int16_t, half, int32_t, float, int64_t" in out


# ---- SIMT basics (kapi/simt.h): a VF call's threads run in order on the block's thread ---------------

SIMT_SRC = ASCENDC_DIR / "compat" / "ascend950_simt.cpp"


def simt_binary():
    return pyasc_acl.Binary(pyasc_sim.compile(SIMT_SRC, opt="-O1", soc=SOC), device="sim")


@pytest.mark.parametrize("blocks", [1, 3])
def test_simt_vf_call_inverts_a_permutation(blocks):
    n = 5000
    perm = np.random.default_rng(blocks).permutation(n).astype(np.int64)
    out = pyasc.zeros(n, dtype="int64", device="sim")
    launch_synced(simt_binary().function("a950_invert_permute"), blocks,
                  (pyasc.tensor(perm, device="sim"), out, n))
    want = np.empty(n, np.int64)
    want[perm] = np.arange(n)
    np.testing.assert_array_equal(out.numpy(), want)


def test_asc_vf_call_with_2d_threads_and_the_builtin_indices():
    out = pyasc.zeros(2 * 128, dtype="float32", device="sim")
    launch_synced(simt_binary().function("a950_grid2d"), 2, (out,))
    y, x = np.meshgrid(np.arange(8), np.arange(16), indexing="ij")
    one = (x * 100 + y).ravel().astype(np.float32)
    np.testing.assert_array_equal(out.numpy(), np.concatenate([one, one + 1000]))


def test_a_vf_call_past_2048_threads_is_an_error():
    out = pyasc.zeros(8, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    stream = pyasc.current_stream("sim")
    pyasc_acl.launch(simt_binary().function("a950_too_many_threads"), 1, (out,), stream=stream)
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        stream.synchronize()
    assert "64 x 64 x 1 = 4096 threads; a SIMT VF call runs 1 to 2048 threads" in info.value.message


# ---- SIMT device functions and vector types (kapi/simt_api.h), device code keyed on __CCE__ ----------

SIMT_API_SRC = ASCENDC_DIR / "compat" / "ascend950_simt_api.cpp"


def _umul64hi(a, b):
    return np.array([(int(x) * int(y)) >> 64 for x, y in zip(a, b)], dtype=np.uint64)


@pytest.mark.parametrize("blocks", [1, 2])
def test_umul64hi_quick_division_and_uint4_records_match_numpy(blocks):
    n, d = 1000, 1000003  # d: a prime table capacity, as hash tables size themselves
    shift = (d - 1).bit_length()  # ceil(log2(d))
    magic = ((1 << (64 + shift)) + d - 1) // d - (1 << 64)  # the low 64 bits of ceil(2^(64+shift) / d)
    keys = np.random.default_rng(blocks).integers(0, 2**64, n, dtype=np.uint64)
    out = pyasc.zeros(2 * n, dtype="int64", device="sim")  # uint64 / uint32 data in pyasc's signed dtypes
    rec = pyasc.zeros(4 * n, dtype="int32", device="sim")
    fn = pyasc_acl.Binary(pyasc_sim.compile(SIMT_API_SRC, opt="-O1", soc=SOC), device="sim").function("a950_simt_hash")
    launch_synced(fn, blocks, (pyasc.tensor(keys.view(np.int64), device="sim"), out, rec, magic, shift - 1, d, n))
    with np.errstate(over="ignore"):
        h = keys ^ (keys >> np.uint64(33))
        h = h * np.uint64(0xff51afd7ed558ccd)
        h = h ^ (h >> np.uint64(33))
    got = out.numpy().view(np.uint64).reshape(n, 2)
    np.testing.assert_array_equal(got[:, 0], h % np.uint64(d))
    np.testing.assert_array_equal(got[:, 1], _umul64hi(h, keys))
    lo, hi = (h & np.uint64(0xFFFFFFFF)), (h >> np.uint64(32))
    want = np.stack([lo, hi, (lo * hi) >> np.uint64(32), np.arange(n, dtype=np.uint64)], axis=1).astype(np.uint32)
    np.testing.assert_array_equal(rec.numpy().view(np.uint32).reshape(n, 4), want)


def test_cce_is_defined_only_for_the_950_profile():
    assert "-D__CCE__=1" in pyasc_sim.build.arch_defines(SOC)
    assert not any(f.startswith("-D__CCE__") for f in pyasc_sim.build.arch_defines("Ascend910B1"))


@pytest.mark.parametrize("n", [512, 700])  # two full blocks; a short last block whose spare threads end early
def test_thread_barrier_and_warp_shuffles_scan_like_numpy(n):
    x = np.random.default_rng(n).integers(-100, 100, n).astype(np.int32)
    blocks = (n + 255) // 256
    scan = pyasc.zeros(n, dtype="int32", device="sim")
    lanes = pyasc.zeros(3 * n, dtype="int32", device="sim")
    fn = pyasc_acl.Binary(pyasc_sim.compile(SIMT_API_SRC, opt="-O1", soc=SOC), device="sim").function("a950_simt_scan")
    launch_synced(fn, blocks, (pyasc.tensor(x, device="sim"), scan, lanes, n))
    want = np.concatenate([np.cumsum(x[b:b + 256]) for b in range(0, n, 256)])
    np.testing.assert_array_equal(scan.numpy(), want)
    got = lanes.numpy().reshape(n, 3)
    xp = np.zeros(blocks * 256, np.int32)
    xp[:n] = x
    live = np.zeros(blocks * 256, bool)
    live[:n] = True
    g = xp.reshape(-1, 16)  # the xor butterfly sums each group of 16 lanes (whole groups: reading an ended
    full = n // 16 * 16     # lane is undefined on hardware)
    np.testing.assert_array_equal(got[:full, 0], np.repeat(g.sum(axis=1), 16)[:full])
    w = xp.reshape(-1, 32)
    down = np.concatenate([w[:, 1:], w[:, -1:]], axis=1).ravel()  # lane 31 reads its own value
    lw = live.reshape(-1, 32)
    down_live = np.concatenate([lw[:, 1:], lw[:, -1:]], axis=1).ravel()
    own = xp
    np.testing.assert_array_equal(got[:, 1], np.where(down_live, down, own)[:n])
    src5 = np.repeat(w[:, 5], 32)
    np.testing.assert_array_equal(got[:, 2], np.where(np.repeat(lw[:, 5], 32), src5, own)[:n])


def test_simt_atomics_are_atomic_across_blocks():
    n, blocks = 1000, 8  # 8 blocks of 128 threads, run concurrently by the simulator's host threads
    x = np.random.default_rng(7).integers(-5000, 5000, n).astype(np.int32)
    hist = pyasc.zeros(16, dtype="int32", device="sim")
    stats = pyasc.tensor(np.array([-2**31, 2**31 - 1, n, 0, 0, 0, 0, 0], np.int32), device="sim")
    fsum = pyasc.zeros(8, dtype="float32", device="sim")
    fn = pyasc_acl.Binary(pyasc_sim.compile(SIMT_API_SRC, opt="-O1", soc=SOC), device="sim").function("a950_simt_atomics")
    launch_synced(fn, blocks, (pyasc.tensor(x, device="sim"), hist, stats, fsum, n))
    np.testing.assert_array_equal(hist.numpy(), np.bincount(x & 15, minlength=16))
    got = stats.numpy()
    assert got[0] == x.max() and got[1] == x.min() and got[2] == 0
    assert 1 <= got[3] <= n and got[4] == 1  # one thread won the compare-and-swap
    assert fsum.numpy()[0] == 0.5 * n
