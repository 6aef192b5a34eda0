"""pyasc.Kernel on npu compiles its source on first use with CANN's bisheng, without CANN here: a
stand-in toolkit (a fake ASCEND_HOME_PATH whose compiler/ccec_compiler/bin/bisheng records its
command line and writes a placeholder) checks that the command is kernels/npu.cmake's, that the
output lands in the per-user cache and that this path is what loading opens (a placeholder cannot
be loaded on sim: the load is stopped at aclrtBinaryLoadFromFile's caller, pyasc_acl.Binary)."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest

import pyasc
from pyasc_core.device import Device

pytest.importorskip("pyasc_sim")

from pyasc_acl import cann_compile  # noqa: E402
from pyasc_acl.plugin import BACKEND as NPU  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
FAKE_BISHENG = """#!{python}
# Stand-in for CANN's bisheng: records argv, writes a placeholder to the -o file (or fails).
import json, sys
argv = sys.argv[1:]
with open({log!r}, "a") as f:
    f.write(json.dumps(argv) + "\\n")
if {fail!r}:
    sys.stderr.write("kernel.cpp:3:1: error: unknown type name 'bogus'\\n")
    sys.exit(1)
with open(argv[argv.index("-o") + 1], "wb") as f:
    f.write(b"placeholder device binary of " + argv[argv.index("-c") + 1].encode())
"""
SOURCE = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void vk(GM_ADDR x, GM_ADDR y) {}
"""


def fake_toolkit(root: Path, log: Path, fail: bool = False) -> str:
    bisheng = root / "compiler" / "ccec_compiler" / "bin" / "bisheng"
    bisheng.parent.mkdir(parents=True)
    bisheng.write_text(FAKE_BISHENG.format(python=sys.executable, log=str(log), fail=fail))
    bisheng.chmod(0o755)
    (root / "compiler" / "tikcpp" / "tikcfw").mkdir(parents=True)
    return str(bisheng)


def cmake_command(bisheng: str, includes: list[str], src: str, out: str, core: str) -> list[str]:
    """kernels/npu.cmake's bisheng COMMAND with its variables substituted."""
    text = (REPO / "kernels" / "npu.cmake").read_text()
    m = re.search(r"COMMAND \$\{PYASC_BISHENG\}(.*?)\n\s*DEPENDS", text, re.S)
    assert m, "kernels/npu.cmake has no bisheng COMMAND"
    subst = {"${SOC_VERSION}": "Ascend910B1", "${_core}": core, "${src}": src, "${out}": out}
    argv = [bisheng]
    for tok in m.group(1).split():
        if tok == "${_pyasc_npu_includes}":
            argv += includes
            continue
        for k, v in subst.items():
            tok = tok.replace(k, v)
        argv.append(tok)
    return argv


@pytest.fixture
def toolkit(tmp_path, monkeypatch):
    root, log = tmp_path / "cann", tmp_path / "bisheng.log"
    bisheng = fake_toolkit(root, log)
    monkeypatch.setenv("ASCEND_HOME_PATH", str(root))
    monkeypatch.setenv("PYASC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PYASC_NPU_SOC_VERSION", raising=False)
    return root, bisheng, log


def recorded(log: Path) -> list[list[str]]:
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


class FakeBinary:
    """Stands in for pyasc_acl.Binary (aclrtBinaryLoadFromFile) and records what it is asked to load."""

    opened: list[tuple[str, Device]] = []

    def __init__(self, path, device=None):
        FakeBinary.opened.append((os.fspath(path), device))

    def function(self, name):
        return LoadedFunction(name)


class LoadedFunction:
    signature = None  # a CANN binary records no pyasc signature table

    def __init__(self, name):
        self.name = name

    def typed(self):  # packed by the signature pyasc computed from the source's declarations
        return self


def test_first_use_runs_npu_cmake_s_command_into_the_cache_and_loads_that_file(toolkit, tmp_path, monkeypatch):
    root, bisheng, log = toolkit
    src = tmp_path / "src" / "vk.cpp"
    src.parent.mkdir()
    src.write_text(SOURCE)
    monkeypatch.setattr("pyasc_acl.kernels.Binary", FakeBinary)
    FakeBinary.opened = []
    k = pyasc.Kernel(src, "vk")
    fn = k.function(Device("npu", 0))  # compile on first use, then load once for the device
    assert isinstance(fn, LoadedFunction) and fn.name == "vk"
    # the typed layout of the source's declaration (bisheng's output has no signature table)
    assert str(fn.signature) == "vk(GM_ADDR x, GM_ADDR y)" and fn.signature.size == 16
    [argv] = recorded(log)
    out = argv[argv.index("-o") + 1]
    includes = [f"-I{src.parent}", f"-I{root / 'compiler' / 'tikcpp' / 'tikcfw'}"]
    assert [bisheng, *argv] == cmake_command(bisheng, includes, str(src), out, "VecCore")
    artifact = k.compile(Device("npu", 0))
    assert os.path.dirname(artifact) == os.path.realpath(tmp_path / "cache")  # the per-user cache
    assert Path(artifact).read_bytes() == b"placeholder device binary of " + str(src).encode()
    assert FakeBinary.opened == [(artifact, Device("npu", 0))]  # what loading opens is bisheng's output
    assert k.function(Device("npu", 0)) is fn and len(FakeBinary.opened) == 1  # loaded once
    # a new process (a new Kernel) finds the cached binary: bisheng does not run again
    assert pyasc.Kernel(src, "vk").compile(Device("npu", 0)) == artifact and len(recorded(log)) == 1


def test_source_text_with_cube_code_struct_checks_and_the_soc_setting(toolkit, tmp_path, monkeypatch):
    root, bisheng, log = toolkit
    monkeypatch.setenv("PYASC_NPU_SOC_VERSION", "Ascend910B3")

    class T(pyasc.TilingStruct):
        cpp_name = "Tile"
        n: pyasc.tiling.uint32_t

    text = SOURCE.replace("{}", "{ Mmad(a, b, c, p); }") + "struct Tile { uint32_t n; };\n"
    artifact = pyasc.Kernel(text, "vk", structs=[T]).compile(Device("npu", 0))
    [argv] = recorded(log)
    src = argv[argv.index("-c") + 1]
    assert "--cce-soc-core-type=AICore" in argv and "--cce-soc-version=Ascend910B3" in argv
    assert not any(a.startswith(f"-I{tmp_path / 'src'}") for a in argv)
    assert src.endswith("kernel.cpp") and not os.path.exists(src)  # written to a private build dir, removed
    assert Path(artifact).read_bytes().endswith(src.encode())
    assert cann_compile.core_type(SOURCE) == "VecCore"


def test_a_shipped_binary_wins_over_compiling(toolkit, tmp_path):
    _, _, log = toolkit
    shipped = tmp_path / "vk.o"
    shipped.write_bytes(b"prebuilt")
    assert pyasc.Kernel(SOURCE, "vk", binaries={"npu": shipped}).compile(Device("npu", 0)) == str(shipped)
    assert recorded(log) == []


def test_a_bisheng_failure_shows_its_command_and_diagnostics(tmp_path, monkeypatch):
    root, log = tmp_path / "cann", tmp_path / "bisheng.log"
    fake_toolkit(root, log, fail=True)
    monkeypatch.setenv("ASCEND_HOME_PATH", str(root))
    monkeypatch.setenv("PYASC_CACHE_DIR", str(tmp_path / "cache"))
    with pytest.raises(cann_compile.NpuKernelCompileError, match=r"(?s)for the NPU failed \(exit 1\): .*bisheng "
                                                                 r"-xcce.*unknown type name 'bogus'") as e:
        pyasc.Kernel(SOURCE, "vk").compile(Device("npu", 0))
    assert isinstance(e.value, pyasc.PyascError)
    assert not list((tmp_path / "cache").glob("kernel_*"))  # nothing published


def test_without_cann_the_error_names_the_places_searched_and_both_fixes(tmp_path, monkeypatch):
    if any(os.path.exists(os.path.join(r, cann_compile.BISHENG)) for r in cann_compile.STANDARD_ROOTS):
        pytest.skip("CANN is installed on this machine")
    monkeypatch.setenv("ASCEND_HOME_PATH", str(tmp_path / "no-cann"))
    with pytest.raises(pyasc.KernelNotFoundError) as e:
        NPU.compile_kernel(pyasc.KernelSource(SOURCE))
    msg = str(e.value)
    for root in (str(tmp_path / "no-cann"), *cann_compile.STANDARD_ROOTS):
        assert os.path.join(root, "compiler", "ccec_compiler", "bin", "bisheng") in msg
    assert "install CANN" in msg and "ASCEND_HOME_PATH" in msg and "binaries={'npu'" in msg
