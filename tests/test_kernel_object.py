"""pyasc.Kernel: an Ascend C kernel compiled on first use, launched as k[blocks](*args) with the
arguments packed by its signature (typed layout, structs by value), tiling structs, and every
error a caller can make (each naming the parameter)."""

from __future__ import annotations

import struct
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

import pyasc
from pyasc import tiling as T

pytest.importorskip("pyasc_sim")

SOURCE = textwrap.dedent("""\
    #include "kernel_operator.h"
    using namespace AscendC;

    struct Params {          // 24 bytes: passed by value (larger than 8 bytes)
        float scale;
        uint32_t pad[3];
        double shift;
    };

    // y[i] = x[i] * alpha + b (b a half) over n floats, block 0 only
    extern "C" __global__ __aicore__ void axpb(GM_ADDR x, GM_ADDR y, uint32_t n, half b, float alpha) {
        if (GetBlockIdx() != 0) return;
        GlobalTensor<float> xg, yg;
        xg.SetGlobalBuffer((__gm__ float *)x, n);
        yg.SetGlobalBuffer((__gm__ float *)y, n);
        for (uint32_t i = 0; i < n; ++i) yg.SetValue(i, xg.GetValue(i) * alpha + static_cast<float>(b));
    }

    // out = (p.scale, p.pad[0..2], p.shift, k) as doubles
    extern "C" __global__ __aicore__ void echo_struct(uint16_t k, Params p, GM_ADDR out) {
        if (GetBlockIdx() != 0) return;
        GlobalTensor<double> o;
        o.SetGlobalBuffer((__gm__ double *)out, 6);
        o.SetValue(0, p.scale);
        for (int i = 0; i < 3; ++i) o.SetValue(1 + i, p.pad[i]);
        o.SetValue(4, p.shift);
        o.SetValue(5, k);
    }

    struct Inner { uint16_t a; float b; };
    struct TileData { uint32_t n; Inner inner; int8_t c[3]; double d; };

    // out = (n, in.a, in.b, c[0], c[1], c[2], d) as doubles, from a tiling buffer in GM
    extern "C" __global__ __aicore__ void echo_tiling(GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling) {
        if (GetBlockIdx() != 0) return;
        TileData t = *reinterpret_cast<__gm__ TileData *>(tiling);
        GlobalTensor<double> o;
        o.SetGlobalBuffer((__gm__ double *)out, 7);
        o.SetValue(0, t.n); o.SetValue(1, t.inner.a); o.SetValue(2, t.inner.b);
        for (int i = 0; i < 3; ++i) o.SetValue(3 + i, t.c[i]);
        o.SetValue(6, t.d);
    }
""")


class Params(pyasc.TilingStruct):
    scale: T.float32
    pad: T.array(T.uint32_t, 3)
    shift: T.double


class Inner(pyasc.TilingStruct):
    a: T.uint16_t
    b: T.float32


class TileData(pyasc.TilingStruct):
    n: T.uint32_t
    inner: Inner
    c: T.array(T.int8_t, 3)
    d: T.float64


@pytest.fixture(scope="module")
def ks():
    return pyasc.kernels(SOURCE, device="sim")


def as_doubles(t):
    return t.numpy().view(np.float64)


def test_kernels_of_a_source_and_their_signatures(ks):
    assert set(ks) == {"axpb", "echo_struct", "echo_tiling"}
    sig = ks["axpb"].signature
    assert [(p.name, p.type, p.size, p.offset) for p in sig.params] == [
        ("x", "GM_ADDR", 8, 0), ("y", "GM_ADDR", 8, 8), ("n", "uint32_t", 4, 16), ("b", "half", 2, 20),
        ("alpha", "float", 4, 24)]
    assert sig.size == 28
    es = ks["echo_struct"].signature
    assert [(p.name, p.size, p.align, p.offset, p.kind) for p in es.params] == [
        ("k", 2, 2, 0, "uint"), ("p", 24, 8, 8, "struct"), ("out", 8, 8, 32, "pointer")]
    assert str(sig) == "axpb(GM_ADDR x, GM_ADDR y, uint32_t n, half b, float alpha)"


def test_launch_packs_python_numbers_by_type(ks):
    x = pyasc.tensor(np.arange(10, dtype=np.float32), device="sim")
    y = pyasc.empty(10, dtype="float32", device="sim")
    ks["axpb"][2](x, y, 10, 0.5, 3.0)
    np.testing.assert_array_equal(y.numpy(), np.arange(10, dtype=np.float32) * 3 + 0.5)
    s = pyasc.Stream(device="sim")
    ks["axpb"][1, s](x, y, 10, -1.0, np.float32(0.1))
    s.synchronize()
    np.testing.assert_array_equal(y.numpy(), np.arange(10, dtype=np.float32) * np.float32(0.1) - 1)


def test_struct_by_value_larger_than_8_bytes(ks):
    out = pyasc.empty(6, dtype="int64", device="sim")
    ks["echo_struct"][1](7, Params(scale=1.5, pad=(1, 2, 2**32 - 1), shift=-0.25), out)
    assert as_doubles(out).tolist() == [1.5, 1, 2, 2**32 - 1, -0.25, 7]
    raw = struct.pack("<f3Id", 2.0, 4, 5, 6, 1.0)
    ks["echo_struct"][1](1, raw, out)  # its bytes work too
    assert as_doubles(out).tolist() == [2.0, 4, 5, 6, 1.0, 1]


def test_tiling_struct_layout_matches_cpp():
    assert [(f.name, f.offset, f.size) for f in TileData.layout()] == [
        ("n", 0, 4), ("inner", 4, 8), ("c", 12, 3), ("d", 16, 8)]
    assert (TileData.sizeof, TileData.alignof, Inner.sizeof) == (24, 8, 8)
    t = TileData(n=3, inner=Inner(a=9, b=0.5), c=(-1, 2, 3), d=2.5)
    assert bytes(t) == struct.pack("<IH2xfbbbxd", 3, 9, 0.5, -1, 2, 3, 2.5)
    assert TileData() == TileData(n=0, inner=Inner(), c=(0, 0, 0), d=0.0)


def test_tiling_struct_uploaded_once_and_read_by_the_kernel():
    k = pyasc.Kernel(SOURCE, "echo_tiling", structs=[TileData, Inner])  # layout checked at compile
    out = pyasc.empty(7, dtype="int64", device="sim")
    t = TileData(n=3, inner=Inner(a=9, b=0.5), c=(-1, 2, 3), d=2.5)
    k[1](out, 0, t)
    assert as_doubles(out).tolist() == [3, 9, 0.5, -1, 2, 3, 2.5]
    a = pyasc.tiling.upload(t, "sim")
    assert pyasc.tiling.upload(TileData(n=3, inner=Inner(a=9, b=0.5), c=(-1, 2, 3), d=2.5), "sim") is a
    assert a.numpy().tobytes() == bytes(t)
    k[1](out, 0, a)  # the uploaded copy is a GM buffer like any other
    assert as_doubles(out)[0] == 3


def test_layout_check_against_the_compiled_kernel_names_the_field():
    class WrongTile(pyasc.TilingStruct):
        cpp_name = "TileData"
        n: T.uint32_t
        inner: Inner
        c: T.array(T.int8_t, 4)  # C++ has 3: d still lands at 16, but c's size differs
        d: T.float64

    k = pyasc.Kernel(SOURCE, "echo_tiling", structs=[WrongTile])
    with pytest.raises(pyasc.PyascError, match=r"WrongTile: TileData::c is not 4 bytes"):
        k.compile("sim")


def test_tiling_struct_errors():
    with pytest.raises(pyasc.ArgumentError, match=r"TileData.n = -1 does not fit uint32_t"):
        bytes(TileData(n=-1))
    with pytest.raises(pyasc.ArgumentError, match=r"TileData.c is int8_t\[3\]: it takes 3 values"):
        bytes(TileData(c=(1, 2)))
    with pytest.raises(pyasc.ArgumentError, match=r"TileData.c\[1\] = 300 does not fit int8_t"):
        bytes(TileData(c=(1, 300, 2)))
    with pytest.raises(pyasc.ArgumentError, match=r"TileData.inner is the struct Inner"):
        bytes(TileData(inner=5))
    with pytest.raises(pyasc.ArgumentError, match=r"Bad.x: a tiling field's type"):
        class Bad(pyasc.TilingStruct):
            x: int
    with pytest.raises(pyasc.ArgumentError, match="declares no fields"):
        class Empty(pyasc.TilingStruct):
            pass


def _axpb_args():
    x = pyasc.tensor(np.arange(4, dtype=np.float32), device="sim")
    y = pyasc.empty(4, dtype="float32", device="sim")
    return x, y


# one case per mistake a caller can make at launch: (what, args from (x, y), error, message naming the parameter)
LAUNCH_ERRORS = {
    "count": (lambda x, y: (x, y, 4, 1.0), pyasc.ArgumentError, r"'axpb' takes 5 arguments .*got 4"),
    "range": (lambda x, y: (x, y, -1, 0.0, 1.0), pyasc.ArgumentError,
              r"argument 2 'n' \(uint32_t, 4 bytes\) got -1, which does not fit"),
    "range-high": (lambda x, y: (x, y, 2**32, 0.0, 1.0), pyasc.ArgumentError, r"argument 2 'n' .* does not fit"),
    "type-int": (lambda x, y: (x, y, 4.0, 0.0, 1.0), pyasc.ArgumentError,
                 r"argument 2 'n' .* takes an integer, got float"),
    "type-float": (lambda x, y: (x, y, 4, 0.0, "1"), pyasc.ArgumentError,
                   r"argument 4 'alpha' .* takes a number, got str"),
    "type-pointer": (lambda x, y: (x, "y", 4, 0.0, 1.0), pyasc.ArgumentError,
                     r"argument 1 'y' .* takes a device tensor on sim:0"),
    "device": (lambda x, y: (x, pyasc.empty(4, dtype="float32", device="numpy"), 4, 0.0, 1.0),
               pyasc.DeviceMismatchError, r"argument 1 'y' .* on numpy.*move it with .to"),
    "non-contiguous": (lambda x, y: (pyasc.tensor(np.arange(8, dtype=np.float32), device="sim")[::2], y, 4, 0.0, 1.0),
                       pyasc.ArgumentError, r"argument 0 'x' .* strided view.*contiguous"),
}


@pytest.mark.parametrize("case", sorted(LAUNCH_ERRORS))
def test_launch_error_names_the_parameter(ks, case):
    make, error, message = LAUNCH_ERRORS[case]
    with pytest.raises(error, match=message) as info:
        ks["axpb"][1](*make(*_axpb_args()))
    assert isinstance(info.value, pyasc.PyascError)


def test_launch_errors_of_the_launch_config_and_struct_parameters(ks):
    k = ks["axpb"]
    x, y = _axpb_args()
    with pytest.raises(pyasc.ArgumentError, match=r"blocks must be an int in 1..2\*\*32-1"):
        k[0](x, y, 4, 0.0, 1.0)
    with pytest.raises(pyasc.ArgumentError, match=r"stream must be a pyasc.Stream"):
        k[1, "s"](x, y, 4, 0.0, 1.0)
    out = pyasc.empty(6, dtype="int64", device="sim")
    with pytest.raises(pyasc.ArgumentError, match=r"argument 1 'p' \(Params, 24 bytes\) is a struct of 24 bytes.*"
                                                  r"has 8 bytes"):
        ks["echo_struct"][1](1, b"12345678", out)
    with pytest.raises(pyasc.ArgumentError, match=r"argument 1 'p' .* pass a pyasc.TilingStruct"):
        ks["echo_struct"][1](1, 3, out)
    with pytest.raises(pyasc.ArgumentError, match=r"argument 0 'k' \(uint16_t, 2 bytes\) got 65536"):
        ks["echo_struct"][1](65536, Params(), out)


def test_kernel_construction_errors(tmp_path):
    with pytest.raises(pyasc.ArgumentError, match="cannot read the kernel source"):
        pyasc.Kernel(tmp_path / "missing.cpp", "k")
    with pytest.raises(pyasc.ArgumentError, match="C identifier"):
        pyasc.Kernel(SOURCE, "not a name")
    with pytest.raises(pyasc.ArgumentError, match="has 3 kernels"):
        pyasc.Kernel(SOURCE).name  # noqa: B018
    with pytest.raises(pyasc.PyascError, match="no kernel named 'nope'|no kernel 'nope'|nope"):
        pyasc.Kernel(SOURCE, "nope")[1]()
    with pytest.raises(pyasc.KernelNotFoundError, match="does not run Ascend C kernels"):
        pyasc.Kernel(SOURCE, "axpb").compile("numpy")
    with pytest.raises(pyasc.KernelNotFoundError, match=r"binaries=\{'npu'"):
        pyasc_acl = pytest.importorskip("pyasc_acl")
        from pyasc_acl.plugin import BACKEND as NPU

        NPU.compile_kernel(pyasc.KernelSource(SOURCE))


THREAD_SOURCE = SOURCE.replace("// out = (p.scale", "// threads {tag}\n// out = (p.scale")


def test_concurrent_first_use_from_threads(tmp_path, monkeypatch):
    """Six threads launch one new Kernel at once: it is compiled once and loaded once on the device
    (counted at the backend's compile_kernel/load_kernel), and the cache holds one binary."""
    from pyasc_core.device import Device
    from pyasc_core.registry import backend_for_device

    monkeypatch.setenv("PYASC_CACHE_DIR", str(tmp_path / "cache"))
    backend = backend_for_device(Device("sim", 0))
    calls = {"compile": 0, "load": 0}
    real_compile, real_load = backend.compile_kernel, backend.load_kernel
    started = threading.Event()

    def compile_kernel(source):
        calls["compile"] += 1
        started.set()
        return real_compile(source)

    def load_kernel(artifact, name, device):
        calls["load"] += 1
        return real_load(artifact, name, device)

    monkeypatch.setattr(backend, "compile_kernel", compile_kernel)
    monkeypatch.setattr(backend, "load_kernel", load_kernel)
    k = pyasc.Kernel(THREAD_SOURCE.replace("{tag}", str(tmp_path)), "axpb")
    x = pyasc.tensor(np.arange(16, dtype=np.float32), device="sim")
    outs = [pyasc.empty(16, dtype="float32", device="sim") for _ in range(6)]
    barrier = threading.Barrier(len(outs))
    errors = []

    def run(i):
        try:
            barrier.wait()
            k[1](x, outs[i], 16, float(i), 1.0)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(outs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    pyasc.synchronize("sim")
    for i, o in enumerate(outs):
        np.testing.assert_array_equal(o.numpy(), np.arange(16, dtype=np.float32) + i)
    assert calls == {"compile": 1, "load": 1}
    assert len(k._loaded) == 1 and len(k.source._artifacts) == 1
    assert len(list((tmp_path / "cache").glob("ascendc_*.sha256"))) == 1  # one binary in the cache
    k[1](x, outs[0], 16, 0.0, 1.0)  # later launches reuse both
    assert calls == {"compile": 1, "load": 1}


TWO_PROCESSES = """\
import hashlib, os, sys, time
import numpy as np, pyasc
src, go = sys.argv[1], sys.argv[2]
k = pyasc.Kernel(open(src).read(), "axpb")
while not os.path.exists(go):  # both processes start compiling together
    time.sleep(0.01)
x = pyasc.tensor(np.arange(8, dtype=np.float32), device="sim")
y = pyasc.empty(8, dtype="float32", device="sim")
k[1](x, y, 8, 1.0, 2.0)
assert y.numpy().tolist() == (np.arange(8) * 2 + 1).tolist(), y.numpy()
path = k.compile("sim")
print(path, hashlib.sha256(open(path, "rb").read()).hexdigest())
"""


def test_concurrent_first_use_from_two_processes(tmp_path):
    """Two processes compile the same new source into one empty PYASC_CACHE_DIR at once: both
    succeed and load the same binary (same cached path, same content); the cache holds one entry.
    The children run outside the checkout, on the installed build."""
    import os

    (tmp_path / "k.cpp").write_text(SOURCE + f"// two processes {tmp_path}\n")
    (tmp_path / "child.py").write_text(TWO_PROCESSES)
    go = tmp_path / "go"
    env = {**os.environ, "PYASC_CACHE_DIR": str(tmp_path / "cache")}
    procs = [subprocess.Popen([sys.executable, "child.py", str(tmp_path / "k.cpp"), str(go)], cwd=tmp_path, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    go.write_text("go")
    results = []
    for p in procs:
        try:
            out, err = p.communicate(timeout=600)
        except subprocess.TimeoutExpired:  # pragma: no cover
            p.kill()
            out, err = p.communicate()
        assert p.returncode == 0, out + err
        results.append(out.split())
    assert results[0] == results[1], results
    path, digest = results[0]
    assert os.path.dirname(path) == os.path.realpath(tmp_path / "cache")
    assert len(list((tmp_path / "cache").glob("ascendc_*.sha256"))) == 1
    assert (tmp_path / "cache" / next((tmp_path / "cache").glob("ascendc_*.sha256")).name).read_text().strip() == digest


def test_concurrent_first_use_from_pytest_xdist(tmp_path):
    """Two pytest-xdist workers compile and load the same new kernel into one empty cache at once
    (runs outside the checkout, on the installed build)."""
    (tmp_path / "test_two.py").write_text(textwrap.dedent(f"""\
        import numpy as np, pyasc, pytest
        SRC = {SOURCE!r} + "// xdist {tmp_path}\\n"

        @pytest.mark.parametrize("i", range(4))
        def test_first_use(i):
            k = pyasc.Kernel(SRC, "axpb")
            x = pyasc.tensor(np.arange(8, dtype=np.float32), device="sim")
            y = pyasc.empty(8, dtype="float32", device="sim")
            k[1](x, y, 8, float(i), 2.0)
            np.testing.assert_array_equal(y.numpy(), np.arange(8, dtype=np.float32) * 2 + i)
    """))
    env = {**__import__("os").environ, "PYASC_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "2", "-p", "no:cacheprovider", "test_two.py"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "4 passed" in proc.stdout


def test_ahead_of_time_build_is_used_instead_of_compiling(tmp_path):
    from pyasc_sim.pack_build import build_kernels

    (tmp_path / "pkg" / "kernels").mkdir(parents=True)
    src = tmp_path / "pkg" / "kernels" / "axpb.cpp"
    src.write_text(SOURCE)
    assert build_kernels(tmp_path) == [str(src.with_suffix(".sim.so"))]
    k = pyasc.Kernel(src, "axpb")
    assert k.source.binaries == {"sim": str(src.with_suffix(".sim.so"))}
    assert k.compile("sim") == str(src.with_suffix(".sim.so"))  # the prebuilt binary, not the cache's
    x = pyasc.tensor(np.ones(4, np.float32), device="sim")
    y = pyasc.empty(4, dtype="float32", device="sim")
    k[1](x, y, 4, 1.0, 2.0)
    assert y.numpy().tolist() == [3, 3, 3, 3]


def test_kernel_api_reference_is_installed():
    import pyasc_sim

    path = pyasc_sim.kernel_api_reference()
    text = open(path, encoding="utf-8").read()
    assert "## Supported API" in text and "pyasc_sim_sig" in text


def test_upload_path_for_other_tiling_objects():
    """Tiling data declared elsewhere (e.g. the op-project tiling macros) uploads through the same
    content cache by exposing __pyasc_struct__()."""

    class MacroTiling:
        def __init__(self, **fields):
            self.fields = fields

        def __pyasc_struct__(self):
            return struct.pack("<II", self.fields["n"], self.fields["tile"])

    a = pyasc.tiling.upload(MacroTiling(n=5, tile=8), "sim")
    assert pyasc.tiling.upload(struct.pack("<II", 5, 8), "sim") is a
    assert a.numpy().tobytes() == struct.pack("<II", 5, 8)
    with pytest.raises(pyasc.ArgumentError, match="upload takes a tiling struct"):
        pyasc.tiling.upload(5, "sim")
    with pytest.raises(pyasc.ArgumentError, match="empty"):
        pyasc.tiling.upload(b"", "sim")


def test_launch_on_a_stream_and_on_the_current_stream(ks):
    """k[blocks, stream](...) queues on that stream; k[blocks](...) on the current stream (a
    pyasc.stream(s) block makes s current); both asynchronous, ordered by their stream."""
    x = pyasc.tensor(np.arange(6, dtype=np.float32), device="sim")
    s = pyasc.Stream(device="sim")
    pyasc.synchronize("sim")  # the fill of x (current stream) before s reads it
    y = pyasc.empty(6, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    ks["axpb"][1, s](x, y, 6, 0.5, 2.0)
    s.synchronize()
    np.testing.assert_array_equal(y.numpy(), np.arange(6) * 2.0 + 0.5)
    z = pyasc.empty(6, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    with pyasc.stream(s):
        ks["axpb"][1](x, z, 6, 1.0, 3.0)  # the current stream is s
        s.synchronize()
    np.testing.assert_array_equal(z.numpy(), np.arange(6) * 3.0 + 1.0)


def test_a_host_dlpack_tensor_for_a_gm_parameter_is_refused_naming_it(ks):
    """A DLPack-capable tensor is taken for a GM pointer when it is on the kernel's device; one in
    host memory (a NumPy array) is refused, naming the parameter and the fix."""
    x, y = _axpb_args()
    with pytest.raises(pyasc.DeviceMismatchError, match=r"argument 1 'y' .* on numpy.*move it with .to\('sim:0'\)"):
        ks["axpb"][1](x, np.zeros(4, np.float32), 4, 0.0, 1.0)


def test_signature_tables_are_read_once_per_version_of_a_binary(ks, tmp_path, monkeypatch):
    """Naming a kernel and loading it both ask for the binary's signature table: the file is read
    once per version (a rebuilt binary at the same path is read again)."""
    import os
    import shutil

    from pyasc_acl import signature

    other = pyasc.kernels('#include "kernel_operator.h"\n'
                          'extern "C" __global__ __aicore__ void only_one(GM_ADDR x) {}\n', device="sim")
    path = tmp_path / "k.so"
    shutil.copyfile(ks["axpb"].compile(), path)
    reads = []
    real_open = open
    monkeypatch.setattr(signature, "open", lambda p, *a, **k: reads.append(p) or real_open(p, *a, **k),
                        raising=False)
    for _ in range(3):
        assert set(signature.read_signatures(str(path))) == {"axpb", "echo_struct", "echo_tiling"}
    assert len(reads) == 1
    table = signature.read_signatures(str(path))
    table.clear()  # a caller's copy: the cached table is not changed
    assert "axpb" in signature.read_signatures(str(path))
    shutil.copyfile(other["only_one"].compile(), path)  # rebuilt: another size and mtime
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    assert set(signature.read_signatures(str(path))) == {"only_one"}
    assert len(reads) == 2
    assert signature.read_signatures(str(tmp_path / "missing.so")) == {}
