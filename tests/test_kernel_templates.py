"""Template kernel instances as kernels: ``pyasc.Kernel(src, "scale<half>")``, ``kernels(src)[...]``,
``k.instance(dtype)``, the instance picked per input dtype by ``library.impl(kernel=template)``,
and the NPU's naming (the mangled symbol found from the C++ spelling; explicit instantiations
appended for bisheng)."""

from __future__ import annotations

import shutil
import subprocess
import textwrap

import numpy as np
import pytest

import pyasc
from pyasc import tiling as T

pytest.importorskip("pyasc_sim")

SOURCE = textwrap.dedent("""\
    #include "kernel_operator.h"
    using namespace AscendC;

    // y[i] = x[i] * alpha over n elements, block 0 only
    template <typename T>
    __global__ __aicore__ void scale(GM_ADDR x, GM_ADDR y, uint32_t n, T alpha) {
        if (GetBlockIdx() != 0) return;
        GlobalTensor<T> xg, yg;
        xg.SetGlobalBuffer((__gm__ T *)x, n);
        yg.SetGlobalBuffer((__gm__ T *)y, n);
        for (uint32_t i = 0; i < n; ++i) yg.SetValue(i, static_cast<T>(xg.GetValue(i) * alpha));
    }
    template __global__ __aicore__ void scale<float>(GM_ADDR x, GM_ADDR y, uint32_t n, float alpha);

    // y[i] = x[i] * N (N a template value with a default)
    template <typename T, int N = 2>
    __global__ __aicore__ void times(GM_ADDR x, GM_ADDR y, uint32_t n) {
        if (GetBlockIdx() != 0) return;
        GlobalTensor<T> xg, yg;
        xg.SetGlobalBuffer((__gm__ T *)x, n);
        yg.SetGlobalBuffer((__gm__ T *)y, n);
        for (uint32_t i = 0; i < n; ++i) yg.SetValue(i, static_cast<T>(xg.GetValue(i) * static_cast<T>(N)));
    }

    struct ScaleTiling { uint32_t n; float alpha; };

    // the standard custom-op signature, for library.impl(kernel=...)
    template <typename T>
    __global__ __aicore__ void scale_op(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
        if (GetBlockIdx() != 0) return;
        const ScaleTiling t = *reinterpret_cast<__gm__ ScaleTiling *>(tiling);
        GlobalTensor<T> xg, yg;
        xg.SetGlobalBuffer((__gm__ T *)x, t.n);
        yg.SetGlobalBuffer((__gm__ T *)y, t.n);
        for (uint32_t i = 0; i < t.n; ++i) yg.SetValue(i, static_cast<T>(xg.GetValue(i) * static_cast<T>(t.alpha)));
    }

    extern "C" __global__ __aicore__ void plain(GM_ADDR y) {}
""")


@pytest.fixture(scope="module")
def src(tmp_path_factory):
    path = tmp_path_factory.mktemp("tmpl") / "scale.cpp"
    path.write_text(SOURCE)
    return path


def _run(k, dtype, *scalars, n=37):
    x = np.linspace(-3, 3, n).astype(dtype)
    xd = pyasc.tensor(x, device="sim")
    yd = pyasc.empty(n, dtype=dtype, device="sim")
    k[1](xd, yd, n, *scalars)
    return x, yd.numpy()


def test_instance_named_as_cpp_spells_it_runs(src):
    k = pyasc.Kernel(src, "scale<half>")  # not instantiated by the source: pyasc instantiates it
    x, y = _run(k, np.float16, 2.5)
    np.testing.assert_array_equal(y, (x * np.float16(2.5)).astype(np.float16))
    sig = k.signature
    assert sig.kernel == "scale<half>"
    assert [(p.name, p.type, p.size) for p in sig.params] == [
        ("x", "GM_ADDR", 8), ("y", "GM_ADDR", 8), ("n", "uint32_t", 4), ("alpha", "half", 2)]


def test_explicit_instances_are_kernels_of_the_source_and_others_come_on_lookup(src):
    ks = pyasc.kernels(src, device="sim")
    assert sorted(ks) == ["plain", "scale<float>"]  # extern "C" kernels + explicit instances
    x, y = _run(ks["scale<float>"], np.float32, 0.5)
    np.testing.assert_array_equal(y, x * np.float32(0.5))
    k = ks["times< int32_t,3 >"]  # any spelling: one canonical name
    assert k.name == "times<int32_t, 3>" and "times<int32_t, 3>" in ks
    x, y = _run(k, np.int32)
    np.testing.assert_array_equal(y, x * 3)
    x, y = _run(ks["times<float>"], np.float32)  # the default N = 2
    np.testing.assert_array_equal(y, x * 2)
    with pytest.raises(KeyError, match="not a kernel of .*its kernels are plain"):
        ks["nosuch"]


def test_instance_from_dtypes(src):
    fam = pyasc.Kernel(src, "scale")
    assert fam.instance(pyasc.float16).name == "scale<half>"
    assert fam.instance(np.float32) is fam.instance("float")  # one Kernel per instance
    assert fam.instance(pyasc.bfloat16).name == "scale<bfloat16_t>"
    assert pyasc.Kernel(src, "times").instance(pyasc.int8, 4).name == "times<int8_t, 4>"
    x, y = _run(fam.instance(pyasc.float32), np.float32, -1.0)
    np.testing.assert_array_equal(y, -x)


def test_template_kernel_errors(src):
    with pytest.raises(pyasc.PyascError, match="no template kernel 'nosuch'.*template kernels: scale, scale_op, times"):
        pyasc.Kernel(src, "nosuch<half>").compile("sim")
    with pytest.raises(pyasc.PyascError, match=r"scale<half, 3>: template kernel 'scale' takes 1 template argument"):
        pyasc.Kernel(src, "scale<half, 3>").compile("sim")
    with pytest.raises(pyasc.KernelNotFoundError, match="no kernel 'scale' for sim; its kernels are plain, "
                       r"scale<float>; if 'scale' is a template kernel, launch an instance.*'scale<half>'"):
        pyasc.Kernel(src, "scale")[1](pyasc.empty(1, device="sim"))
    with pytest.raises(pyasc.PyascError, match="C identifier .* or a template instance"):
        pyasc.Kernel(src, "scale<")
    with pytest.raises(pyasc.PyascError, match="needs the template arguments"):
        pyasc.Kernel(src, "scale").instance()
    with pytest.raises(pyasc.PyascError, match="already a template instance"):
        pyasc.Kernel(src, "scale<half>").instance("float")
    with pytest.raises(pyasc.PyascError, match="a template argument is a dtype"):
        pyasc.Kernel(src, "scale").instance(object())


class ScaleTiling(pyasc.TilingStruct):
    n: T.uint32_t
    alpha: T.float32


def test_impl_with_a_template_kernel_picks_the_instance_per_dtype(src):
    lib = pyasc.library.Library("tmplop")
    try:
        lib.define("scale", "(Tensor x, *, float alpha=2.0) -> Tensor", meta=lambda x, alpha=2.0: x,
                   reference=lambda x, alpha=2.0: x * alpha)
        kernel = pyasc.Kernel(pyasc.KernelSource(src, structs=[ScaleTiling]), "scale_op")
        lib.impl("scale", "sim", kernel=kernel, dtypes=["float16", "float32"],
                 tiling=lambda x, alpha=2.0: (1, ScaleTiling(n=x.size, alpha=alpha)))
        for dtype in (np.float16, np.float32):
            x = np.arange(-8, 9, dtype=dtype)
            y = pyasc.ops.tmplop.scale(pyasc.tensor(x, device="sim"), alpha=1.5)
            np.testing.assert_array_equal(y.numpy(), (x * dtype(1.5)).astype(dtype))
        assert kernel.instance(pyasc.float16).name == "scale_op<half>"
        with pytest.raises(pyasc.KernelNotFoundError, match="no sim kernel for int32.*float16, float32"):
            pyasc.ops.tmplop.scale(pyasc.tensor(np.arange(4, dtype=np.int32), device="sim"))
    finally:
        lib.remove()


# -- the NPU's naming: the same spelling, resolved to the mangled symbol -------------------------

HOST_TEMPLATE = """
template <typename T> void leaky(unsigned char *x, unsigned n, T alpha) {}
template <typename T, int N> void tile(unsigned char *x) {}
template void leaky<float>(unsigned char *, unsigned, float);
template void leaky<int>(unsigned char *, unsigned, int);
template void tile<float, 8>(unsigned char *);
template void tile<float, -2>(unsigned char *);
extern "C" void plain(unsigned char *x) {}
"""


@pytest.mark.skipif(shutil.which("g++") is None or shutil.which("c++filt") is None, reason="needs g++ and c++filt")
def test_npu_binaries_find_template_instances_by_their_mangled_symbol(tmp_path):
    """A CANN binary names a template instance by its Itanium-mangled symbol: pyasc finds it from
    the C++ spelling (here in a host object file g++ mangles the same way)."""
    from pyasc_acl.symbols import resolve

    (tmp_path / "t.cpp").write_text(HOST_TEMPLATE)
    obj = tmp_path / "t.o"
    subprocess.run(["g++", "-c", str(tmp_path / "t.cpp"), "-o", str(obj)], check=True)

    def demangled(name):
        sym = resolve(str(obj), name)
        return subprocess.run(["c++filt", sym], capture_output=True, text=True, check=True).stdout.strip()

    assert demangled("leaky<float>") == "void leaky<float>(unsigned char*, unsigned int, float)"
    assert demangled("leaky<int32_t>") == "void leaky<int>(unsigned char*, unsigned int, int)"
    assert demangled("tile<float, 8>") == "void tile<float, 8>(unsigned char*)"
    assert demangled("tile<float, -2>") == "void tile<float, -2>(unsigned char*)"
    assert resolve(str(obj), "plain") == "plain"
    with pytest.raises(pyasc.KernelNotFoundError, match="no instance 'leaky<double>'.*its instances: _Z5leakyIfEv"):
        resolve(str(obj), "leaky<double>")


def test_npu_compile_appends_explicit_instantiations(src):
    """bisheng only emits the instances a source instantiates: the NPU compile appends one explicit
    instantiation per instance asked for by name (not for those the source has)."""
    from pyasc_sim.build import explicit_instantiations

    text = explicit_instantiations(str(src), ["scale<half>", "scale<float>", "times<int8_t, 4>"])
    assert text.splitlines() == [
        "template __global__ __aicore__ void scale<half>(GM_ADDR, GM_ADDR, uint32_t, half);",
        "template __global__ __aicore__ void times<int8_t, 4>(GM_ADDR, GM_ADDR, uint32_t);",
    ]
    with pytest.raises(pyasc.PyascError, match="no template kernel 'nosuch'"):
        explicit_instantiations(str(src), ["nosuch<half>"])


def test_npu_first_use_compile_instantiates_the_named_instance_and_lays_out_its_arguments(src, tmp_path, monkeypatch):
    """On npu (a stand-in bisheng here), Kernel(src, "scale<half>") compiles the source with the
    instance's explicit instantiation appended, and packs its arguments by the typed layout of the
    instance's declaration (alpha a 2-byte half), as on sim."""
    from pyasc_core.device import Device
    from test_npu_kernel_compile import FakeBinary, fake_toolkit, recorded

    root, log = tmp_path / "cann", tmp_path / "bisheng.log"
    bisheng = fake_toolkit(root, log)
    with open(bisheng, "a") as f:  # keep what bisheng compiled (its build directory is removed)
        f.write(f"import shutil; shutil.copy(argv[argv.index('-c') + 1], {str(tmp_path / 'compiled.cpp')!r})\n")
    monkeypatch.setenv("ASCEND_HOME_PATH", str(root))
    monkeypatch.setenv("PYASC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr("pyasc_acl.kernels.Binary", FakeBinary)
    FakeBinary.opened = []
    fn = pyasc.Kernel(src, "scale<half>").function(Device("npu", 0))
    assert fn.name == "scale<half>"  # pyasc_acl.Binary finds its mangled symbol (test above)
    assert str(fn.signature) == "scale<half>(GM_ADDR x, GM_ADDR y, uint32_t n, half alpha)"
    assert [p.offset for p in fn.signature.params] == [0, 8, 16, 20] and fn.signature.size == 22
    [argv] = recorded(log)
    assert (tmp_path / "compiled.cpp").read_text().endswith(
        "template __global__ __aicore__ void scale<half>(GM_ADDR, GM_ADDR, uint32_t, half);\n")


def test_instances_asked_for_from_threads_at_once(tmp_path):
    """Threads naming different instances of one source at once each get theirs (a source compiled
    without an instance is compiled again with every instance asked for so far)."""
    import threading

    path = tmp_path / "threads.cpp"
    path.write_text(SOURCE.replace("// y[i] = x[i] * N", "// threads\n// y[i] = x[i] * N"))
    source = pyasc.KernelSource(path)
    results, errors = {}, []
    go = threading.Barrier(4)

    def work(i):
        try:
            k = pyasc.Kernel(source, f"times<int32_t, {i + 2}>")
            go.wait()
            results[i] = _run(k, np.int32)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(600)
    assert not errors, errors
    for i, (x, y) in results.items():
        np.testing.assert_array_equal(y, x * (i + 2))
    assert sorted(results) == [0, 1, 2, 3]
