"""Test kernels have one home and the C++ suites run in CI: the Ascend C test kernels live in
backends/sim/kernel_api/tests/kernels/ and the plain-ABI ones in backends/sim/tests/test_kernels.cpp,
shared by the Python suite and the C++ suites (ctest); no kernel name is defined twice; every test
kernel source is used; .ci/run builds backends/sim and runs ctest so that a failure fails CI."""

from __future__ import annotations

import re
from pathlib import Path

from acl_fixtures import KERNEL_SOURCE
from ascendc_kernels import ASCENDC_DIR

REPO = Path(__file__).resolve().parent.parent
SIM = REPO / "backends" / "sim"
KAPI_CMAKE = SIM / "kernel_api" / "CMakeLists.txt"

KERNEL_DEF = re.compile(r'extern "C" __global__ __aicore__ void (\w+)\(|PYASC_SIM_KERNEL_ENTRY\((\w+)\)')


def kernel_definitions() -> dict[Path, list[str]]:
    """Every test kernel source -> the kernel names it defines."""
    sources = sorted(ASCENDC_DIR.glob("*.cpp")) + [KERNEL_SOURCE]
    return {p: [a or b for a, b in KERNEL_DEF.findall(p.read_text())] for p in sources}


def test_the_suites_share_one_home_for_test_kernels():
    assert ASCENDC_DIR == SIM / "kernel_api" / "tests" / "kernels"
    assert KERNEL_SOURCE == SIM / "tests" / "test_kernels.cpp"
    assert not (REPO / "tests" / "kernels").exists()
    cmake = (SIM / "CMakeLists.txt").read_text()
    assert "tests/test_kernels.cpp" in cmake  # the runtime's C++ tests build the same file


def test_no_kernel_name_is_defined_twice():
    seen: dict[str, Path] = {}
    for path, names in kernel_definitions().items():
        assert names, f"{path} defines no kernel"
        for name in names:
            assert name not in seen, f"kernel {name} is defined in both {seen[name]} and {path}: keep one copy"
            seen[name] = path


def test_every_ascendc_test_kernel_source_is_used():
    cmake = KAPI_CMAKE.read_text()
    python = "\n".join(p.read_text() for p in (REPO / "tests").glob("*.py"))
    for path in ASCENDC_DIR.glob("*.cpp"):
        used_by_ctest = f"tests/kernels/{path.name}" in cmake
        used_by_pytest = f'"{path.name}"' in python
        assert used_by_ctest or used_by_pytest, f"{path} is used by neither the C++ nor the Python tests"


def test_ci_runs_ctest_and_fails_with_it():
    run = (REPO / ".ci" / "run").read_text()
    assert "set -euo pipefail" in run
    configure = re.search(r'^cmake -S "\$repo/backends/sim" -B "(\S+)" .*-DPYASC_SIM_WERROR=ON', run, re.M)
    assert configure, "CI must configure backends/sim with warnings as errors"
    build_dir = configure.group(1)
    assert re.search(rf'^cmake --build "{re.escape(build_dir)}"', run, re.M)
    ctest = re.search(rf'^ctest --test-dir "{re.escape(build_dir)}" (.*)$', run, re.M)
    assert ctest and "--no-tests=error" in ctest.group(1) and "--output-on-failure" in ctest.group(1)
    # not behind `|| true`, `set +e` or a pipe that would hide ctest's exit status
    assert "||" not in ctest.group(0) and "|" not in ctest.group(1)
    assert run.index("set +e") < run.index("set -e\n") < ctest.start()
    # the C++ tests are registered: ctest has something to run
    cmake = (SIM / "CMakeLists.txt").read_text() + KAPI_CMAKE.read_text()
    assert len(re.findall(r"add_test\(NAME", cmake)) >= 4
