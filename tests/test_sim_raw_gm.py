"""Raw ``__gm__`` pointer loads and stores in kernel code are checked like GlobalTensor scalar
accesses: the kernel's translation unit is compiled with GCC's ThreadSanitizer instrumentation and
kapi/raw_gm.h implements its hooks (a device-heap address is checked, anything else returns after
one compare). Planted bugs: a store out of its tensor's block, a load of never-written memory or of
a freed tensor, two blocks storing into one 64-byte line, two blocks racing; each names the source
line. Kernels: backends/sim/kernel_api/tests/kernels/san_raw_gm.cpp (compiled once)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import pyasc
import pyasc_acl

from ascendc_kernels import ASCENDC_DIR, load, marked_line

pyasc_sim = pytest.importorskip("pyasc_sim")

SRC = "san_raw_gm.cpp"
N = 64  # floats per tensor: 256 bytes, a 288-byte block extent (aclrtMalloc's padding)


@pytest.fixture(scope="module")
def kernels():
    return load(SRC)


def run(stream, fn, blocks: int, args: tuple) -> list[str]:
    """Launches and synchronises; returns the sanitizer warnings."""
    pyasc.synchronize("sim")  # fills on the current stream before the launch
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        pyasc_acl.launch(fn, blocks, args, stream=stream)
        stream.synchronize()
    return [str(w.message) for w in seen if issubclass(w.category, pyasc.SanitizerWarning)]


def expect_error(stream, fn, blocks: int, args: tuple, check: str, where: str, *details: str) -> str:
    pyasc.synchronize("sim")
    pyasc_acl.launch(fn, blocks, args, stream=stream)
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        stream.synchronize()
    msg = info.value.message
    assert f"sanitizer check '{check}' failed at {where}: " in msg, msg
    for d in details:
        assert d in msg, (d, msg)
    return msg


def test_the_source_is_built_instrumented_and_links_no_libtsan(kernels):
    path = pyasc_sim.compile(ASCENDC_DIR / SRC, opt="-O1")
    with open(path, "rb") as f:
        data = f.read()
    assert b"__tsan_write4" in data and b"libtsan" not in data


def test_raw_loads_and_stores_compute_the_same_bits_as_an_unchecked_build(kernels, stream):
    x = pyasc.asarray(np.linspace(-3, 3, N, dtype=np.float32), device="sim")
    y = pyasc.zeros(N, dtype="float32", device="sim")
    assert run(stream, kernels.function("raw_add_one"), 1, (x, y, N)) == []
    plain = pyasc_acl.Binary(pyasc_sim.compile(ASCENDC_DIR / SRC, opt="-O1", checks=False), device="sim")
    y2 = pyasc.zeros(N, dtype="float32", device="sim")
    assert run(stream, plain.function("raw_add_one"), 1, (x, y2, N)) == []
    np.testing.assert_array_equal(y.numpy(), x.numpy() * np.float32(0.5) + np.float32(1))
    assert y.numpy().tobytes() == y2.numpy().tobytes()


def test_a_raw_store_past_the_tensor_block_is_an_error(kernels, stream):
    z = pyasc.zeros(N, dtype="float32", device="sim")
    # the padding aclrtMalloc documents (N + 8 floats: 288 bytes) is legal
    assert run(stream, kernels.function("raw_fill"), 1, (z, N + 8)) == []
    np.testing.assert_array_equal(z.numpy(), np.full(N, 3.0, np.float32))
    base = z._data.ptr
    msg = expect_error(stream, kernels.function("raw_fill"), 1, (z, 4 * N), "gm-out-of-allocation",
                       marked_line(SRC, "raw-store"), "a raw __gm__ store writes 4 bytes",
                       f"at global address {base + 288:#x}")
    assert "tensor block" in msg


def test_a_raw_load_of_never_written_memory_is_an_uninitialised_read(kernels, stream):
    x = pyasc.empty(N, dtype="float32", device="sim")
    y = pyasc.zeros(N, dtype="float32", device="sim")
    expect_error(stream, kernels.function("raw_add_one"), 1, (x, y, N), "gm-uninit-read",
                 marked_line(SRC, "raw-load"), "a raw __gm__ load reads 4 bytes",
                 f"at global address {x._data.ptr:#x}", "never written since its tensor was allocated")


def test_a_raw_load_of_a_freed_tensor_is_use_after_free(kernels, stream):
    x = pyasc.full((N,), 1.0, dtype="float32", device="sim")
    y = pyasc.zeros(N, dtype="float32", device="sim")
    ptr = x._data.ptr
    pyasc.synchronize("sim")
    del x
    expect_error(stream, kernels.function("raw_add_one"), 1, (ptr, y, N), "gm-use-after-free",
                 marked_line(SRC, "raw-load"), f"a raw __gm__ load reads 4 bytes at global address {ptr:#x}: ",
                 "freed before this launch was enqueued")


def test_raw_stores_of_two_blocks_into_one_line_warn(kernels, stream, monkeypatch):
    monkeypatch.delenv("PYASC_SIM_STRICT", raising=False)
    out = pyasc.zeros(64, dtype="float32", device="sim")
    seen = run(stream, kernels.function("raw_store_own"), 2, (out, 1))  # 4 bytes apart
    np.testing.assert_array_equal(out.numpy()[:2], [1.0, 2.0])
    hits = [w for w in seen if "gm-cache-line-share" in w]
    assert len(hits) == 1, seen
    where = marked_line(SRC, "raw-line-share")
    assert f"sanitizer warning 'gm-cache-line-share' at {where}:" in hits[0], hits[0]
    assert f"which block 0 at {where} also wrote" in hits[0], hits[0]
    assert run(stream, kernels.function("raw_store_own"), 2, (out, 16)) == []  # a line apart: clean


def test_two_blocks_racing_through_raw_pointers(kernels, stream):
    buf = pyasc.zeros(N, dtype="float32", device="sim")
    out = pyasc.zeros(N, dtype="float32", device="sim")
    expect_error(stream, kernels.function("raw_race"), 2, (buf, out, 16), "gm-cross-core-race",
                 marked_line(SRC, "raw-race-read"), f"wrote global memory [{buf._data.ptr:#x}, ",
                 f"at {marked_line(SRC, 'raw-race-write')} and block 1 read it at {marked_line(SRC, 'raw-race-read')}")


def test_raw_accesses_ordered_by_a_write_back_and_syncall_are_clean(kernels, stream):
    buf = pyasc.zeros(N, dtype="float32", device="sim")
    out = pyasc.zeros(N, dtype="float32", device="sim")
    ws = pyasc.zeros(64, dtype="int32", device="sim")
    assert run(stream, kernels.function("raw_ordered"), 2, (buf, out, ws, 16)) == []
    np.testing.assert_array_equal(out.numpy()[:16], 1.0 + np.arange(16, dtype=np.float32))


def test_the_kernel_apis_own_accesses_are_not_checked_twice(kernels, stream):
    x = pyasc.asarray(np.arange(N, dtype=np.float32), device="sim")
    out = pyasc.empty(N, dtype="float32", device="sim")
    assert run(stream, kernels.function("api_scalar"), 1, (x, out, N)) == []
    np.testing.assert_array_equal(out.numpy(), 2 * np.arange(N, dtype=np.float32) + 1)


def test_which_sources_are_instrumented(monkeypatch):
    from pyasc_sim.build import KernelBuildError, uses_raw_gm

    monkeypatch.delenv("PYASC_SIM_RAW_GM", raising=False)
    cast_only = "x.SetGlobalBuffer((__gm__ half *)x + GetBlockIdx() * 8, 8); // __gm__ in a comment\n"
    assert not uses_raw_gm(cast_only)
    assert uses_raw_gm(cast_only + "((__gm__ float *)y)[0] = 1;\n")
    # a kernel signature spelling GM_ADDR out is no raw access; a typed __gm__ parameter may be
    signature = 'extern "C" __global__ __aicore__ void k(__gm__ uint8_t *x, const __gm__ uint8_t* y, __gm__ uint8_t *)'
    assert not uses_raw_gm(signature + " {\n" + cast_only + "}\n")
    assert uses_raw_gm(signature.replace("const __gm__ uint8_t* y", "__gm__ float *y") + " { y[0] = 1; }\n")
    assert uses_raw_gm(signature + " { ((__gm__ uint32_t *)x)[0] = 1; }\n")
    monkeypatch.setenv("PYASC_SIM_RAW_GM", "1")
    assert uses_raw_gm(cast_only)
    monkeypatch.setenv("PYASC_SIM_RAW_GM", "yes")
    with pytest.raises(KernelBuildError, match="PYASC_SIM_RAW_GM must be '1'.*got 'yes'") as info:
        uses_raw_gm(cast_only)
    assert isinstance(info.value, pyasc.PyascError)
