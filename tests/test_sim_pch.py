"""The precompiled kernel API header (pyasc_sim/pch.py): a flag set built a second time loads a GCC
precompiled header of the prelude and kernel_operator.h instead of parsing them; the kernel it builds
computes what the plain build computes; sources that define anything before kernel_operator.h, and
builds that pre-include other files, never use one; a damaged header is rebuilt; the count is capped."""

from __future__ import annotations

import os
import subprocess

import numpy as np
import pytest

pyasc_sim = pytest.importorskip("pyasc_sim")

import pyasc  # noqa: E402
import pyasc_acl  # noqa: E402
from pyasc_sim import build, cache, pch  # noqa: E402

KERNEL = """// a license header, as public kernels have
/* and a block comment */
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void twice(GM_ADDR x, GM_ADDR y) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> b;
    pipe.InitBuffer(b, 1024);
    AscendC::GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer((__gm__ float *)x, 64);
    gy.SetGlobalBuffer((__gm__ float *)y, 64);
    AscendC::LocalTensor<float> t = b.Get<float>();
    AscendC::DataCopy(t, gx, 64);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Muls(t, t, 2.0f, 64);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(gy, t, 64);
}
// %s
"""


@pytest.fixture
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PYASC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PYASC_SIM_PCH", raising=False)
    monkeypatch.delenv("PYASC_SIM_PCH_MAX", raising=False)
    return tmp_path / "cache"


def _compile_recording(monkeypatch, path):
    """(binary, the compiler commands the build ran)."""
    seen = []
    real = subprocess.run

    def run(cmd, *a, **k):
        seen.append(list(cmd))
        return real(cmd, *a, **k)

    monkeypatch.setattr(build.subprocess, "run", run)
    monkeypatch.setattr(pch.subprocess, "run", run)
    try:
        return pyasc_sim.compile(path, opt="-O0"), seen
    finally:
        monkeypatch.setattr(build.subprocess, "run", real)
        monkeypatch.setattr(pch.subprocess, "run", real)


def _run(binary):
    x = np.arange(64, dtype=np.float32) - 20
    gx, gy = pyasc.tensor(x, device="sim"), pyasc.zeros((64,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(pyasc_acl.Binary(binary, device="sim").function("twice"), 1, (gx, gy))
    pyasc.synchronize("sim")
    return x, gy.numpy()


def test_a_second_build_of_a_flag_set_uses_the_header_and_computes_the_same(private_cache, tmp_path, monkeypatch):
    first, second = tmp_path / "first.cpp", tmp_path / "second.cpp"
    first.write_text(KERNEL % "first")
    second.write_text(KERNEL % "second")
    plain, cmds = _compile_recording(monkeypatch, first)
    assert not any("-include" in c and any(a.endswith(pch.HEADER) for a in c) for c in cmds)  # first use: none
    fast, cmds = _compile_recording(monkeypatch, second)
    header_builds = [c for c in cmds if "c++-header" in c]
    assert len(header_builds) == 1  # built once, for this flag set
    build_cmd = cmds[-1]
    assert build_cmd[build_cmd.index("-include") + 1].endswith(pch.HEADER)
    assert "stdint.h" not in build_cmd  # the header holds the prelude
    # GCC really loads it (-H marks a precompiled header it uses with "!")
    probe = tmp_path / "probe.cpp"
    probe.write_text('#include "kernel_operator.h"\n')
    out = subprocess.run([*build_cmd[:-3], str(probe), "-H", "-fsyntax-only"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert any(line.startswith("! ") and line.endswith(".gch") for line in out.stderr.splitlines()), out.stderr[:2000]
    # `pyasc cache info` counts it apart from the kernel binaries
    gch = os.path.join(os.path.dirname(build_cmd[build_cmd.index("-include") + 1]), pch.HEADER + ".gch")
    info = cache.info()
    assert info["pch_headers"] == 1 and info["pch_bytes"] >= os.path.getsize(gch) > 1_000_000, info
    x, a = _run(plain)
    _, b = _run(fast)
    np.testing.assert_array_equal(a, 2 * x)
    np.testing.assert_array_equal(b, a)
    # a damaged header is noticed (its sha256 no longer matches) and built again
    d = os.path.dirname(build_cmd[build_cmd.index("-include") + 1])
    with open(os.path.join(d, pch.HEADER + ".gch"), "r+b") as f:
        f.seek(4096)
        f.write(b"damaged")
    third = tmp_path / "third.cpp"
    third.write_text(KERNEL % "third")
    again, cmds = _compile_recording(monkeypatch, third)
    assert len([c for c in cmds if "c++-header" in c]) == 1
    np.testing.assert_array_equal(_run(again)[1], a)


RAW_KERNEL = """#include "kernel_operator.h"
// raw __gm__ loads and stores: the translation unit is built with ThreadSanitizer's instrumentation
extern "C" __global__ __aicore__ void raw_twice(GM_ADDR x, GM_ADDR y, uint32_t n) {
    __gm__ float *px = (__gm__ float *)x;
    __gm__ float *py = (__gm__ float *)y;
    for (uint32_t i = 0; i < n; ++i) {
        py[i] = px[i] * 2.0f;
    }
}
// %s
"""


def test_a_raw_gm_build_uses_a_header_of_its_own_flags_and_still_checks_raw_accesses(private_cache, tmp_path,
                                                                                      monkeypatch):
    """Raw __gm__ builds (-fsanitize=thread) get a header built with that flag: the kernel computes the same bits
    and its raw accesses are still checked (the instrumentation is per translation unit, after the header)."""
    first, second = tmp_path / "raw_first.cpp", tmp_path / "raw_second.cpp"
    first.write_text(RAW_KERNEL % "first")
    second.write_text(RAW_KERNEL % "second")
    assert build.uses_raw_gm(first.read_text())
    plain, cmds = _compile_recording(monkeypatch, first)
    assert not any(c[c.index("-include") + 1].endswith(pch.HEADER) for c in cmds if "-include" in c)
    fast, cmds = _compile_recording(monkeypatch, second)
    header_builds = [c for c in cmds if "c++-header" in c]
    assert len(header_builds) == 1 and "-fsanitize=thread" in header_builds[0]
    build_cmd = cmds[-1]
    assert build_cmd[build_cmd.index("-include") + 1].endswith(pch.HEADER) and "-fsanitize=thread" in build_cmd
    with open(fast, "rb") as f:
        assert b"__tsan_write4" in f.read()  # instrumented, as without the header
    x = np.arange(64, dtype=np.float32) - 20
    outs = []
    for binary in (plain, fast):
        gx, gy = pyasc.tensor(x, device="sim"), pyasc.zeros((64,), dtype="float32", device="sim")
        pyasc.synchronize("sim")
        fn = pyasc_acl.Binary(binary, device="sim").function("raw_twice")
        pyasc_acl.launch(fn, 1, (gx, gy, 64))
        pyasc.synchronize("sim")
        outs.append(gy.numpy())
        # a raw load past the tensor's block is still the error it is without the header
        pyasc_acl.launch(fn, 1, (gx, gy, 4 * 64))
        with pytest.raises(pyasc_acl.AclKernelError, match="gm-out-of-allocation"):
            pyasc.synchronize("sim")
    np.testing.assert_array_equal(outs[0], 2 * x)
    assert outs[0].tobytes() == outs[1].tobytes()


def test_pyasc_sim_pch_0_turns_it_off(private_cache, tmp_path, monkeypatch):
    monkeypatch.setenv("PYASC_SIM_PCH", "0")
    with pytest.raises(pch.Unavailable):
        pch.include_flags(str(private_cache), "g++", "/inc", "v", ["-O0", *build.PRELUDE_FLAGS], KERNEL)


@pytest.mark.parametrize("text,ok", [
    (KERNEL, True),
    ('#include <kernel_operator.h>\n', True),
    ('  #  include "kernel_operator.h"  // the API\n', True),
    ('#define K_MAX_SHAPE_DIM 0\n#include "kernel_operator.h"\n', False),  # the header would see it
    ('#include "my_tiling.h"\n#include "kernel_operator.h"\n', False),
    ('#ifndef X\n#include "kernel_operator.h"\n#endif\n', False),
    ('/* a comment\n#define HIDDEN */\n#include "kernel_operator.h"\n', True),
])
def test_only_sources_that_start_with_the_kernel_api_use_it(text, ok):
    assert pch.starts_with_kernel_operator(text) is ok


def test_builds_that_pre_include_other_files_use_none(private_cache):
    flags = ["-O0", *build.PRELUDE_FLAGS, "-include", "/op_host/add_tiling.h"]
    with pytest.raises(pch.Unavailable):
        pch.include_flags(str(private_cache), "g++", "/inc", "v", flags, KERNEL)
    assert pch._pch_flags(["-O0", *build.PRELUDE_FLAGS, "-shared", "-DX=1"], "/inc") == \
        ["-O0", "-DX=1", "-iquote", "/inc", "-I", "/inc"]


def test_the_number_of_headers_is_capped_least_recently_used_first(tmp_path, monkeypatch):
    monkeypatch.setenv("PYASC_SIM_PCH_MAX", "2")
    for i, name in enumerate(["old", "mid", "new", "tmp_left_by_a_killed_build"]):
        (tmp_path / name).mkdir()
        os.utime(tmp_path / name, (1000 + i, 1000 + i))
    pch.evict(str(tmp_path), keep="just_built")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new"]  # + the one just built: two


def test_a_bad_pyasc_sim_pch_max_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("PYASC_SIM_PCH_MAX", "lots")
    with pytest.raises(pyasc_sim.KernelCacheError, match=r"PYASC_SIM_PCH_MAX='lots' is not a count.*or unset it for 6") as e:
        pch.max_headers()
    assert isinstance(e.value, pyasc.PyascError) and e.value.variable == "PYASC_SIM_PCH_MAX"
