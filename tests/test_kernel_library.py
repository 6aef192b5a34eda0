"""pyasc.library.impl(op, backend, kernel=..., tiling=..., dtypes=...): an Ascend C kernel becomes an
op's kernel in one call (outputs from the meta function, contiguous inputs, empty tensors skipped,
one kernel per dtype, the host tiling function, the current stream)."""

from __future__ import annotations

import textwrap

import numpy as np
import pytest

import pyasc
from pyasc import tiling as T

pytest.importorskip("pyasc_sim")

SOURCE = textwrap.dedent("""\
    #include "kernel_operator.h"
    using namespace AscendC;
    struct ScaleTiling { uint32_t n; float s; };

    template <typename T>
    __aicore__ inline void scale(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
        ScaleTiling t = *reinterpret_cast<__gm__ ScaleTiling *>(tiling);
        // whole 64-byte lines per block: scalar stores go through each core's data cache
        constexpr uint32_t line = 64 / sizeof(T);
        const uint32_t per = ((t.n + GetBlockNum() - 1) / GetBlockNum() + line - 1) / line * line;
        for (uint32_t i = GetBlockIdx() * per; i < t.n && i < (GetBlockIdx() + 1) * per; ++i)
            ((__gm__ T *)y)[i] = static_cast<T>(((__gm__ T *)x)[i] * static_cast<T>(t.s));
    }
    extern "C" __global__ __aicore__ void scale_float(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
        scale<float>(x, y, tiling);
    }
    extern "C" __global__ __aicore__ void scale_half(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
        scale<half>(x, y, tiling);
    }
""")


class ScaleTiling(pyasc.TilingStruct):
    n: T.uint32_t
    s: T.float32


@pytest.fixture(scope="module")
def ks():
    ks = pyasc.kernels(SOURCE, device="sim", structs=[ScaleTiling])
    return {pyasc.float32: ks["scale_float"], pyasc.float16: ks["scale_half"]}


def scale_tiling(x, s):
    return min(4, x.size), ScaleTiling(n=x.size, s=s)


@pytest.fixture
def lib():
    lib = pyasc.library.Library("kt")
    lib.define("scale", "(Tensor x, *, float s=2.0) -> Tensor", meta=lambda x, s=2.0: x,
               reference=lambda x, s=2.0: x * s)
    yield lib
    lib.remove()


def test_kernel_becomes_the_op_kernel(lib, ks):
    calls = []

    @lib.impl("scale", "sim", kernel=ks)
    def tiling(x, s):
        calls.append((tuple(x.shape), s))
        return scale_tiling(x, s)

    assert callable(tiling) and tiling.__name__ == "tiling"  # the decorated function comes back
    x = pyasc.tensor(np.arange(12, dtype=np.float32).reshape(3, 4), device="sim")
    y = pyasc.ops.kt.scale(x, s=0.5)
    np.testing.assert_array_equal(y.numpy(), np.arange(12, dtype=np.float32).reshape(3, 4) * 0.5)
    h = pyasc.ops.kt.scale(x.astype("float16").T, s=3.0)  # strided: made contiguous first
    np.testing.assert_array_equal(h.numpy(), (np.arange(12, dtype=np.float16).reshape(3, 4).T * np.float16(3)))
    assert calls == [((3, 4), 0.5), ((4, 3), 3.0)]
    e = pyasc.ops.kt.scale(pyasc.empty(0, 4, dtype="float32", device="sim"))
    assert e.shape == (0, 4) and len(calls) == 2  # nothing launched, tiling not called


def test_direct_form_and_dtype_errors(lib, ks):
    fn = pyasc.library.impl("kt::scale", "sim", kernel=ks[pyasc.float32], tiling=scale_tiling, dtypes=["float32"])
    assert fn.dtypes == (np.dtype(np.float32),)
    x = pyasc.tensor(np.ones(5, np.float32), device="sim")
    np.testing.assert_array_equal(pyasc.ops.kt.scale(x).numpy(), np.full(5, 2, np.float32))
    with pytest.raises(pyasc.KernelNotFoundError, match=r"kt::scale has no sim kernel for float16; its kernels "
                                                        r"take float32"):
        pyasc.ops.kt.scale(x.astype("float16"))


def test_registration_errors(lib, ks):
    with pytest.raises(pyasc.OpRegistrationError,
                       match=r"takes a pyasc.Kernel \(a template kernel.s instance is picked .*\) or \{dtype: pyasc.Kernel\}"):
        lib.impl("scale", "sim", kernel="scale_float", tiling=scale_tiling)
    with pytest.raises(pyasc.OpRegistrationError, match="tiling= and dtypes= go with kernel="):
        lib.impl("scale", "sim", lambda m, x, s: x, tiling=scale_tiling)
    with pytest.raises(pyasc.OpRegistrationError, match="tiling must be the host tiling function"):
        lib.impl("scale", "sim", kernel=ks[pyasc.float32], tiling=3)
    with pytest.raises(pyasc.OpRegistrationError, match="give the host tiling function once"):
        lib.impl("scale", "sim", scale_tiling, kernel=ks[pyasc.float32], tiling=scale_tiling)


def test_library_scope_removes_the_kernel(ks):
    with pyasc.library.Library("kt2") as lib:
        lib.define("scale", "(Tensor x, *, float s=2.0) -> Tensor", meta=lambda x, s=2.0: x,
                   reference=lambda x, s=2.0: x * s)
        lib.impl("scale", "sim", kernel=ks, tiling=scale_tiling)
        x = pyasc.tensor(np.ones(3, np.float32), device="sim")
        assert pyasc.ops.kt2.scale(x).numpy().tolist() == [2, 2, 2]
    with pytest.raises(pyasc.PyascError):
        pyasc.get_op("kt2::scale")


def test_pyasc_ops_shows_the_dtypes_with_kernels(lib, ks, capsys):
    from pyasc_core.cli import main

    lib.impl("scale", "sim", kernel=ks, tiling=scale_tiling)
    assert main(["ops", "--json"]) == 0
    rows = {r["op"]: r for r in __import__("json").loads(capsys.readouterr().out)}
    assert rows["kt::scale"]["kernel_dtypes"] == {"sim": ["float16", "float32"]}
    assert rows["pyasc::exp"]["kernel_dtypes"]["sim"] == ["float16", "bfloat16", "float32", "float64"]
    assert main(["ops"]) == 0
    assert "sim: f16 f32" in capsys.readouterr().out


def test_the_same_registration_serves_npu_with_a_shipped_binary(lib, tmp_path, monkeypatch, capsys):
    """impl(op, "npu", kernel=...) registers like sim; the kernel comes from the binary the pack
    ships (binaries={"npu": ...}); 'pyasc ops' lists its dtypes under npu (loading is stubbed:
    there is no NPU here, see test_npu_kernel_compile.py)."""
    import json

    from pyasc_core.cli import main
    from pyasc_core.device import Device

    binary = tmp_path / "scale.o"
    binary.write_bytes(b"placeholder npu binary")
    k = pyasc.Kernel(SOURCE, "scale_float", binaries={"npu": binary})
    lib.impl("scale", "npu", kernel=k, tiling=scale_tiling, dtypes=["float32"])
    opened = []
    monkeypatch.setattr("pyasc_acl.kernels.Binary", lambda path, device=None: opened.append(path) or
                        type("B", (), {"function": lambda self, name: type("F", (), {"signature": None})()})())
    k.function(Device("npu", 0))
    assert opened == [str(binary)]
    assert main(["ops", "--json"]) == 0
    rows = {r["op"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows["kt::scale"]["kernel_dtypes"] == {"npu": ["float32"]}


def test_a_pack_that_ships_binaries_only():
    with pytest.raises(pyasc.ArgumentError, match=r"KernelSource\(None\) needs binaries="):
        pyasc.KernelSource(None)
    src = pyasc.KernelSource(None, binaries={"npu": "/nonexistent/k.o"})
    with pytest.raises(pyasc.KernelNotFoundError, match="no sim binary for the kernel source"):
        pyasc.Kernel(src, "k").compile("sim")
