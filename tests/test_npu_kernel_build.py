"""The NPU build of kernels/ against its loader, without CANN: a stand-in toolkit (a fake
ASCEND_HOME_PATH whose compiler/ccec_compiler/bin/bisheng records its command line and writes a
placeholder output) goes through the real CMake configure + build + install of kernels/ (its NPU
part, kernels/npu.cmake), and the test checks the recorded compiler commands, the installed file
names (npu/<family>.o: the *.o operator binary aclrtBinaryLoadFromFile loads) and that the npu
glue's lookup (binary_path, npu_binaries_installed) finds exactly those files, and names a missing
one clearly."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pyasc_core.errors import KernelNotFoundError

REPO = Path(__file__).resolve().parent.parent
KERNELS = REPO / "kernels"
FAMILIES = sorted(p.stem for p in KERNELS.glob("*.cpp"))

FAKE_BISHENG = """#!{python}
# Stand-in for CANN's bisheng: records argv, writes a placeholder to the -o file.
import json, sys
argv = sys.argv[1:]
with open({log!r}, "a") as f:
    f.write(json.dumps(argv) + "\\n")
out = argv[argv.index("-o") + 1]
with open(out, "wb") as f:
    f.write(b"placeholder device binary of " + argv[argv.index("-c") + 1].encode())
"""

pytestmark = pytest.mark.skipif(shutil.which("cmake") is None, reason="needs cmake (the build's own tool)")


def fake_toolkit(root: Path, log: Path) -> Path:
    bisheng = root / "compiler" / "ccec_compiler" / "bin" / "bisheng"
    bisheng.parent.mkdir(parents=True)
    bisheng.write_text(FAKE_BISHENG.format(python=sys.executable, log=str(log)))
    bisheng.chmod(0o755)
    (root / "compiler" / "tikcpp" / "tikcfw").mkdir(parents=True)
    return bisheng


def cmake(*args: str, env: dict[str, str]) -> str:
    proc = subprocess.run(["cmake", *args], env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"cmake {' '.join(args)} failed:\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


@pytest.fixture(scope="module")
def npu_build(tmp_path_factory):
    """(toolkit root, build dir, install prefix, recorded compiler commands) of one real build."""
    tmp = tmp_path_factory.mktemp("npu-build")
    root, build, prefix, log = tmp / "cann", tmp / "build", tmp / "install", tmp / "bisheng.log"
    bisheng = fake_toolkit(root, log)
    env = {**os.environ, "ASCEND_HOME_PATH": str(root)}
    out = cmake("-S", str(KERNELS), "-B", str(build), f"-DCMAKE_INSTALL_PREFIX={prefix}", env=env)
    assert f"CANN toolkit found at {root}" in out and str(bisheng) in out
    cmake("--build", str(build), env=env)
    cmake("--install", str(build), env=env)
    commands = [json.loads(line) for line in log.read_text().splitlines()]
    return root, build, prefix, commands


def test_bisheng_compiles_each_family_into_one_device_object(npu_build):
    root, build, _, commands = npu_build
    by_source = {Path(c[c.index("-c") + 1]).stem: c for c in commands}
    assert sorted(by_source) == FAMILIES and len(commands) == len(FAMILIES)
    for family, argv in by_source.items():
        assert argv[argv.index("-c") + 1] == str(KERNELS / f"{family}.cpp")
        assert argv[argv.index("-o") + 1] == str(build / "npu" / f"{family}.o")
        for flag in ("-xcce", "--std=c++17", "--cce-soc-version=Ascend910B1", f"-I{KERNELS}",
                     f"-I{root / 'compiler' / 'tikcpp' / 'tikcfw'}"):
            assert flag in argv, (family, flag, argv)
        core = "AICore" if family == "matmul" else "VecCore"  # matmul.cpp has the cube path
        assert f"--cce-soc-core-type={core}" in argv, argv


def test_the_install_holds_exactly_the_files_the_npu_glue_loads(npu_build, monkeypatch):
    from pyasc_kernels import _runtime, npu_binaries_installed

    _, _, prefix, _ = npu_build
    kdir = prefix / "pyasc_sim" / "kernels"
    installed = sorted(p.name for p in (kdir / "npu").iterdir())
    assert installed == [f"{f}.o" for f in FAMILIES]
    assert sorted(_runtime.KERNEL_FAMILIES) == FAMILIES  # the glue's families are kernels/*.cpp
    monkeypatch.setattr(_runtime, "kernel_dir_candidates", lambda: [str(kdir)])
    for family in FAMILIES:
        path = _runtime.binary_path("npu", family)
        assert path == str(kdir / "npu" / f"{family}.o") and os.path.isabs(path)
        assert Path(path).read_bytes().endswith(str(KERNELS / f"{family}.cpp").encode())
    assert _runtime.missing_binaries("npu") == [] and npu_binaries_installed()


def test_a_missing_npu_binary_is_named(npu_build, tmp_path, monkeypatch):
    from pyasc_kernels import _runtime, npu_binaries_installed

    _, _, prefix, _ = npu_build
    kdir = tmp_path / "kernels"
    shutil.copytree(prefix / "pyasc_sim" / "kernels", kdir)
    monkeypatch.setattr(_runtime, "kernel_dir_candidates", lambda: [str(kdir)])
    (kdir / "npu" / "softmax.o").unlink()
    assert _runtime.missing_binaries("npu") == [os.path.join("npu", "softmax.o")]
    assert npu_binaries_installed()  # installed: the missing family fails by name when used
    with pytest.raises(KernelNotFoundError, match=r"npu kernel binary 'npu/softmax\.o' is not installed") as e:
        _runtime.binary_path("npu", "softmax")
    assert str(kdir / "npu" / "softmax.o") in str(e.value) and "CANN" in str(e.value)
    assert _runtime.binary_path("npu", "where") == str(kdir / "npu" / "where.o")


def test_other_files_in_the_npu_directory_do_not_count_as_installed(tmp_path, monkeypatch):
    """A library of another build layout (e.g. one shared object for every kernel) is not what the
    glue loads, so it does not make the npu kernels count as installed."""
    from pyasc_kernels import _runtime, npu_binaries_installed

    (tmp_path / "npu").mkdir()
    (tmp_path / "npu" / "libpyasc_kernels_npu.so").write_bytes(b"\x7fELF")
    monkeypatch.setattr(_runtime, "kernel_dir_candidates", lambda: [str(tmp_path)])
    assert not npu_binaries_installed()
    assert len(_runtime.missing_binaries("npu")) == len(FAMILIES)


def test_without_a_toolkit_the_npu_build_is_skipped_and_says_where_it_looked(tmp_path):
    env = {**os.environ, "ASCEND_HOME_PATH": str(tmp_path / "no-cann")}
    out = cmake("-S", str(KERNELS), "-B", str(tmp_path / "build"), env=env)
    if Path("/usr/local/Ascend").exists():
        pytest.skip("a CANN install root exists on this machine")
    assert "no CANN toolkit" in out and str(tmp_path / "no-cann") in out and "skipping the NPU build" in out
    assert not (tmp_path / "build" / "npu").exists()


def test_binary_hands_acl_an_absolute_path(tmp_path, monkeypatch):
    """aclrtBinaryLoadFromFile takes an absolute path: a relative one given to Binary is resolved
    against the working directory first (what the runtime reports is the absolute path)."""
    import pyasc_acl
    from acl_fixtures import kernel_binary

    shutil.copy(kernel_binary(), tmp_path / "kernels.so")
    monkeypatch.chdir(tmp_path)
    b = pyasc_acl.Binary("kernels.so", device="sim")
    assert b.path == str(tmp_path / "kernels.so")
    b.function("empty")
    with pytest.raises(pyasc_acl.AclFileError, match=re.escape(str(tmp_path / "missing.o"))):
        pyasc_acl.Binary("missing.o", device="sim")
