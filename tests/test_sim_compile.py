"""pyasc_sim.compile and `pyasc compile`: any Ascend C source -> a simulator kernel binary that
aclrtBinaryLoadFromFile loads and aclrtLaunchKernel runs (through pyasc_acl.Binary / launch)."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import pyasc

pyasc_sim = pytest.importorskip("pyasc_sim")
pyasc_acl = pytest.importorskip("pyasc_acl")

SCALE_ADD = textwrap.dedent("""\
    #include "kernel_operator.h"
    using namespace AscendC;

    // z = alpha * x + y over n floats, split over the blocks
    extern "C" __global__ __aicore__ void scale_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n, float alpha) {
        // whole 64-byte data-cache lines per block: blocks storing into one line race (gm-cache-line-share)
        const uint32_t per = ((n + GetBlockNum() - 1) / GetBlockNum() + 15) / 16 * 16;
        const uint32_t start = GetBlockIdx() * per;
        if (start >= n) return;
        const uint32_t len = n - start < per ? n - start : per;
        GlobalTensor<float> xg, yg, zg;
        xg.SetGlobalBuffer((__gm__ float *)x + start, len);
        yg.SetGlobalBuffer((__gm__ float *)y + start, len);
        zg.SetGlobalBuffer((__gm__ float *)z + start, len);
        for (uint32_t i = 0; i < len; ++i) zg.SetValue(i, xg.GetValue(i) * alpha + yg.GetValue(i));
    }

    #define NEG_KERNEL(T, NAME)                                                                  \\
        extern "C" __global__ __aicore__ void NAME(GM_ADDR x, GM_ADDR y, int64_t n) {           \\
            if (GetBlockIdx() != 0) return;                                                    \\
            GlobalTensor<T> xg, yg;                                                            \\
            xg.SetGlobalBuffer((__gm__ T *)x, n);                                              \\
            yg.SetGlobalBuffer((__gm__ T *)y, n);                                              \\
            for (int64_t i = 0; i < n; ++i) yg.SetValue(i, -xg.GetValue(i));                   \\
        }
    NEG_KERNEL(int32_t, neg_int32)
""")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    d = tmp_path / "cache"
    monkeypatch.setenv("PYASC_CACHE_DIR", str(d))
    return d


@pytest.fixture
def source(tmp_path):
    p = tmp_path / "scale_add.cpp"
    p.write_text(SCALE_ADD)
    return p


def _f32_bits(v: float) -> int:
    return struct.unpack("<I", struct.pack("<f", v))[0]


def test_compiled_kernel_launches_through_acl(cache, source):
    path = pyasc_sim.compile(source)
    assert os.path.isfile(path) and path.startswith(str(cache))
    fn = pyasc_acl.Binary(path, device="sim").function("scale_add")
    n = 1000
    x = pyasc.tensor(np.arange(n, dtype=np.float32), device="sim")
    y = pyasc.tensor(np.ones(n, dtype=np.float32), device="sim")
    z = pyasc.zeros(n, dtype="float32", device="sim")
    pyasc_acl.launch(fn, 7, (x, y, z, n, _f32_bits(2.5)))
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(z.numpy(), np.arange(n, dtype=np.float32) * 2.5 + 1)


def test_macro_declared_kernels_get_stubs(cache, source):
    path = pyasc_sim.compile(source)
    fn = pyasc_acl.Binary(path, device="sim").function("neg_int32")
    x = pyasc.tensor(np.arange(-5, 5, dtype=np.int32), device="sim")
    y = pyasc.zeros(10, dtype="int32", device="sim")
    fn(2, x, y, 10)
    np.testing.assert_array_equal(y.numpy(), -np.arange(-5, 5, dtype=np.int32))


def test_source_text_and_kernel_selection(cache):
    path = pyasc_sim.compile(SCALE_ADD, kernels=["scale_add"])
    binary = pyasc_acl.Binary(path, device="sim")
    binary.function("scale_add")
    with pytest.raises(pyasc_acl.AclError):
        binary.function("neg_int32")  # no stub was generated for it
    with pytest.raises(pyasc_sim.KernelBuildError, match="no kernel named 'nope'.*neg_int32, scale_add"):
        pyasc_sim.compile(SCALE_ADD, kernels=["nope"])


def test_recompiling_hits_the_cache(cache, source):
    first = pyasc_sim.compile(source)
    mtime = os.stat(first).st_mtime_ns
    assert pyasc_sim.compile(source) == first
    assert os.stat(first).st_mtime_ns == mtime  # not rebuilt
    assert pyasc_sim.compile(source, checks=False) != first  # other flags: another binary
    source.write_text(SCALE_ADD + "\n// changed\n")
    assert pyasc_sim.compile(source) != first


def test_local_header_change_misses_the_cache(cache, tmp_path):
    (tmp_path / "factor.h").write_text("#define FACTOR 2\n")
    src = tmp_path / "k.cpp"
    src.write_text(SCALE_ADD.replace("* alpha", "* alpha * FACTOR").replace(
        '#include "kernel_operator.h"', '#include "kernel_operator.h"\n#include "factor.h"'))
    first = pyasc_sim.compile(src)
    (tmp_path / "factor.h").write_text("#define FACTOR 3\n")
    assert pyasc_sim.compile(src) != first


def test_syntax_error_names_file_and_line(cache, tmp_path):
    bad = tmp_path / "bad.cpp"
    lines = SCALE_ADD.splitlines()
    lines.insert(9, "    this is not C++;")  # becomes line 10
    bad.write_text("\n".join(lines) + "\n")
    with pytest.raises(pyasc_sim.KernelCompileError) as info:
        pyasc_sim.compile(bad)
    err = info.value
    assert isinstance(err, pyasc.PyascError)
    assert str(err).startswith(f"{bad}:10: error:")
    assert err.file == str(bad) and err.line == 10
    assert "the compiler said" in str(err)


def test_unsupported_parameter_is_rejected_with_location(cache, tmp_path):
    src = tmp_path / "ref.cpp"
    src.write_text('#include "kernel_operator.h"\n\n'
                   'extern "C" __global__ __aicore__ void k(GM_ADDR x, uint32_t &n) { (void)x; (void)n; }\n')
    with pytest.raises(pyasc_sim.KernelBuildError, match=r"ref\.cpp:3: kernel 'k': parameter 2 'uint32_t &n'"):
        pyasc_sim.compile(src)


def test_no_kernel_and_bad_options(cache, tmp_path):
    src = tmp_path / "none.cpp"
    src.write_text('#include "kernel_operator.h"\nint helper() { return 1; }\n')
    with pytest.raises(pyasc_sim.KernelBuildError, match="no kernel in"):
        pyasc_sim.compile(src)
    with pytest.raises(pyasc_sim.KernelBuildError, match="optimisation flag"):
        pyasc_sim.compile(SCALE_ADD, opt="-O9; rm")
    with pytest.raises(pyasc_sim.KernelBuildError, match="cannot read"):
        pyasc_sim.compile(tmp_path / "missing.cpp")


def test_pyasc_sim_opt_is_the_default_optimisation_flag(cache, monkeypatch):
    """compile() without opt= builds with PYASC_SIM_OPT (else -O3); an explicit opt= wins; a bad value names
    the variable (it reaches the compiler's command line)."""
    from pyasc_sim import build

    class Built(Exception):
        pass

    seen = []

    def fake_build(text, path, src_dir, key, kernels, flags, *args, **kwargs):
        seen.append([f for f in flags if f.startswith("-O")])
        raise Built

    monkeypatch.setattr(build, "_build", fake_build)
    for env, opt, want in ((None, None, "-O3"), ("-O0", None, "-O0"), ("", None, "-O3"), ("-O0", "-O2", "-O2")):
        if env is None:
            monkeypatch.delenv("PYASC_SIM_OPT", raising=False)
        else:
            monkeypatch.setenv("PYASC_SIM_OPT", env)
        with pytest.raises(Built):
            pyasc_sim.compile(SCALE_ADD, opt=opt)
        assert seen[-1] == [want], (env, opt, seen[-1])
    monkeypatch.setenv("PYASC_SIM_OPT", "-O9")
    with pytest.raises(pyasc_sim.KernelBuildError,
                       match=r"PYASC_SIM_OPT must be a g\+\+ optimisation flag .*unset it for -O3.*got '-O9'"):
        pyasc_sim.compile(SCALE_ADD)


def test_get_include_holds_the_kernel_api():
    inc = pyasc_sim.get_include()
    assert os.path.isfile(os.path.join(inc, "kernel_operator.h"))
    assert os.path.isfile(os.path.join(inc, "pyasc_sim", "kernel_abi.h"))


def _cli(*args, env=None, cwd):
    return subprocess.run([sys.executable, "-m", "pyasc_core.cli", *args], capture_output=True, text=True,
                          env=env, cwd=cwd)


def test_cli_compile(cache, source, tmp_path):
    env = dict(os.environ, PYASC_CACHE_DIR=str(cache))
    out = tmp_path / "out" / "scale_add.so"
    done = _cli("compile", str(source), "-o", str(out), env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == str(out)
    assert "kernels: scale_add, neg_int32" in done.stdout
    fn = pyasc_acl.Binary(out, device="sim").function("scale_add")
    x = pyasc.tensor(np.ones(4, dtype=np.float32), device="sim")
    z = pyasc.zeros(4, dtype="float32", device="sim")
    fn(1, x, x, z, 4, _f32_bits(3.0))
    np.testing.assert_array_equal(z.numpy(), np.full(4, 4.0, np.float32))

    bad = tmp_path / "bad.cpp"
    bad.write_text('#include "kernel_operator.h"\nextern "C" __global__ __aicore__ void k(GM_ADDR x) { oops }\n')
    done = _cli("compile", str(bad), env=env, cwd=tmp_path)
    assert done.returncode == 2
    assert f"pyasc compile: error: {bad}:2: error:" in done.stderr
    done = _cli("--help", env=env, cwd=tmp_path)
    assert "compile" in done.stdout


OOB = textwrap.dedent("""\
    #include "kernel_operator.h"
    using namespace AscendC;
    // reads one element past the GlobalTensor's declared size, inside x: a sanitizer warning
    extern "C" __global__ __aicore__ void oob(GM_ADDR x, GM_ADDR y) {
        GlobalTensor<int32_t> xg, yg;
        xg.SetGlobalBuffer((__gm__ int32_t *)x, 4);
        yg.SetGlobalBuffer((__gm__ int32_t *)y, 4);
        yg.SetValue(0, xg.GetValue(4));
    }
""")


def test_checks_false_builds_a_binary_without_sanitizer_checks(cache, monkeypatch):
    monkeypatch.delenv("PYASC_SIM_CHECKS", raising=False)
    x = pyasc.tensor(np.arange(16, dtype=np.int32), device="sim")
    y = pyasc.zeros(4, dtype="int32", device="sim")
    pyasc.synchronize("sim")  # the fills ran on the current stream, the launches go to s
    checked = pyasc_acl.Binary(pyasc_sim.compile(OOB), device="sim").function("oob")
    s = pyasc.Stream(device="sim")
    checked(1, x, y, stream=s)
    # a read past the declared size inside x's memory: the warning gm-read-past-size (the NPU reads it)
    with pytest.warns(pyasc.SanitizerWarning, match="gm-read-past-size"):
        s.synchronize()
    assert y.numpy()[0] == 4
    y2 = pyasc.zeros(4, dtype="int32", device="sim")
    pyasc.synchronize("sim")
    unchecked = pyasc_acl.Binary(pyasc_sim.compile(OOB, checks=False), device="sim").function("oob")
    with warnings.catch_warnings():
        warnings.simplefilter("error", pyasc.SanitizerWarning)
        unchecked(1, x, y2, stream=s)
        s.synchronize()
    assert y2.numpy()[0] == 4  # the element after the tensor's 4, read without complaint


def test_plugins_add_cli_commands_through_the_hook(dists, capsys):
    from pyasc_core import cli

    dists.make("hello-cmd", "hello_cmd_plugin", """
        import pyasc

        def add_arguments(parser):
            parser.add_argument("--name", default="world")

        def run(args):
            if args.name == "error":
                raise pyasc.ArgumentError("bad name 'error'; pass another --name")
            print(f"hello {args.name}")
            return 3

        @pyasc.hookimpl
        def pyasc_register_commands(register):
            register("hello", "say hello", add_arguments, run)
            register("info", "steals a built-in name", add_arguments, run)
    """)
    dists.reload()
    with pytest.warns(UserWarning, match="registers the command 'info', which is a built-in command"):
        assert cli.main(["hello", "--name", "pyasc"]) == 3
    assert "hello pyasc" in capsys.readouterr().out
    with pytest.warns(UserWarning):
        assert cli.main(["hello", "--name", "error"]) == 2
    assert "pyasc hello: error: bad name 'error'" in capsys.readouterr().err
