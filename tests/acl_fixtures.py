"""Helpers for the ACL binding / sim / npu tests: the test kernel binary and the three backend
configurations (numpy, sim, npu on the simulator's library)."""

from __future__ import annotations

from pathlib import Path

import pytest

#: plain C++ kernels on the simulator kernel ABI, shared with the runtime's C++ tests (ctest)
KERNEL_SOURCE = Path(__file__).resolve().parent.parent / "backends" / "sim" / "tests" / "test_kernels.cpp"


def kernel_binary() -> str:
    """Path of the compiled test kernels (built once, cached by content hash)."""
    import pyasc_sim

    return pyasc_sim.compile_kernel(KERNEL_SOURCE)


def sim_library():
    """The simulator's ``_acl.Library``."""
    import pyasc_sim
    from pyasc_acl import loader

    return loader.load(pyasc_sim.library_path())


def use_npu_on_simulator(monkeypatch: pytest.MonkeyPatch) -> None:
    """Point the npu backend at the simulator's library (before it probes availability)."""
    import pyasc_sim
    from pyasc_core import plugins

    monkeypatch.setenv("PYASC_ACL_LIBRARY", pyasc_sim.library_path())
    plugins.reset_for_tests()


CONFIGS = ("numpy", "sim", "npu")


@pytest.fixture(params=CONFIGS)
def config(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch):
    """The backend name under test: numpy, sim, or npu running on the simulator's library."""
    from pyasc_core import plugins

    if request.param == "npu":
        use_npu_on_simulator(monkeypatch)
    yield request.param
    if request.param == "npu":
        monkeypatch.undo()
        plugins.reset_for_tests()
