"""Shared fixtures: isolation of pyasc's global state and throwaway plugin distributions."""

from __future__ import annotations

import os
import sys
import textwrap
from pathlib import Path

import pytest

import pyasc
from pyasc_core import plugins, selection
from pyasc_core.library import PLUGIN as RUNTIME_LIBRARY
from pyasc_core.reference_backend import BACKEND as NUMPY_BACKEND

_ENV_KEYS = ("PYASC_BACKEND", "PYASC_PLUGINS", "PYASC_DISABLE_PLUGIN_AUTOLOAD")

# Kernels the tests compile without naming an optimisation level (pyasc.Kernel, the JIT, pyasc_sim.compile
# without opt=, `pyasc compile` without --opt; also in the CLI subprocesses, which inherit it) build at -O0
# instead of pyasc_sim.compile's -O3: the same results (the build's floating-point flags pin them), the least
# compiler time per kernel (README, "The test command must stay well under CI's 30 minutes"). No test asserts
# kernel speed; tests that need a level pass opt= themselves. CPU-debug programs (pyasc cpu-debug, cpudebug.build)
# built without --debug follow it too (their default is -O2): the saxpy program 11.0 -> 7.8 CPU s.
os.environ.setdefault("PYASC_SIM_OPT", "-O0")
# The suite builds kernels under about a dozen flag sets (SoCs, core kinds, raw __gm__ builds); with pyasc_sim.pch's
# default of six precompiled headers the least recently used are evicted and built again (7 CPU s each).
os.environ.setdefault("PYASC_SIM_PCH_MAX", "12")


@pytest.fixture(autouse=True)
def _isolate_pyasc_state():
    """Undo what a test did to process-wide pyasc state: backend, runtime ops, plugins, limits."""
    ops_before = dict(RUNTIME_LIBRARY.ops)
    kernels_before = dict(RUNTIME_LIBRARY.kernels)
    backend_before = selection._global
    yield
    changed = ops_before != RUNTIME_LIBRARY.ops or kernels_before != RUNTIME_LIBRARY.kernels
    RUNTIME_LIBRARY.ops.clear()
    RUNTIME_LIBRARY.ops.update(ops_before)
    RUNTIME_LIBRARY.kernels.clear()
    RUNTIME_LIBRARY.kernels.update(kernels_before)
    selection._global = backend_before
    if NUMPY_BACKEND._limit is not None:
        NUMPY_BACKEND.set_memory_limit(NUMPY_BACKEND.device(), None)
    if changed:
        from pyasc_core.registry import REGISTRY

        REGISTRY.invalidate()


class DistFactory:
    """Makes installed-looking distributions (a package plus a .dist-info with entry points)
    under a temporary sys.path entry, the way importlib.metadata finds real installs."""

    def __init__(self, root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.root = root
        self.monkeypatch = monkeypatch
        monkeypatch.syspath_prepend(str(root))

    def make(self, dist: str, module: str, source: str, entry_name: str | None = None,
             version: str = "1.0") -> None:
        """Create distribution ``dist`` whose module ``module`` has ``source``, registered under
        the ``pyasc`` entry-point group as ``entry_name`` (default: the module name)."""
        (self.root / f"{module}.py").write_text(textwrap.dedent(source))
        info = self.root / f"{dist.replace('-', '_')}-{version}.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n")
        (info / "entry_points.txt").write_text(f"[pyasc]\n{entry_name or module} = {module}\n")
        sys.modules.pop(module, None)

    def reload(self, **env: str | None) -> None:
        """Apply environment switches and make pyasc load its plugins again."""
        for key in _ENV_KEYS:
            self.monkeypatch.delenv(key, raising=False)
        for key, value in env.items():
            if value is not None:
                self.monkeypatch.setenv(key, value)
        plugins.reset_for_tests()


@pytest.fixture
def stream():
    """The current stream of the sim device (tests that launch kernels on it and read its errors)."""
    return pyasc.current_stream("sim")


@pytest.fixture
def dists(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A DistFactory; pyasc's plugins are reloaded from the real environment afterwards."""
    site = tmp_path / "site"
    site.mkdir()
    yield DistFactory(site, monkeypatch)
    monkeypatch.undo()
    plugins.reset_for_tests()


@pytest.fixture
def backend_name() -> str:
    return "numpy"


@pytest.fixture
def numpy_backend():
    """Run the test with numpy as the current backend (the default is sim when it is available):
    for tests of host-tensor behaviour (zero-copy NumPy views, DLPack, host memory accounting)."""
    with pyasc.using_backend("numpy"):
        yield


def pytest_report_header(config):
    return f"pyasc {pyasc.__version__}; PYASC_BACKEND={os.environ.get('PYASC_BACKEND', '')!r}"


# --------------------------------------------------------------------------------------------
# the example op pack (plugins/pyasc-example-pack), really installed with pip
# --------------------------------------------------------------------------------------------

EXAMPLE_PACK = Path(__file__).resolve().parent.parent / "plugins" / "pyasc-example-pack"


@pytest.fixture(scope="session")
def example_pack_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory where ``pip install --target`` put the example pack (package + .dist-info).

    The pack is built from a copy of its source, so no build/ or .egg-info lands in the repo and
    parallel workers do not share a build directory.
    """
    import shutil
    import subprocess

    try:
        import setuptools  # noqa: F401  (the pack's build backend; pip runs without isolation)
    except ImportError:
        pytest.fail("setuptools is needed to install the example pack: pip install '.[test]'")
    src = tmp_path_factory.mktemp("example-pack-src") / EXAMPLE_PACK.name
    shutil.copytree(EXAMPLE_PACK, src, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    site = tmp_path_factory.mktemp("example-pack-site")
    cmd = [sys.executable, "-m", "pip", "install", "--no-deps", "--no-build-isolation", "--no-index",
           "--disable-pip-version-check", "--quiet", "--target", str(site), str(src)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        pytest.fail(f"{' '.join(cmd)} failed:\n{done.stdout}\n{done.stderr}")
    return site


@pytest.fixture
def example_pack(example_pack_site: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The installed example pack on sys.path, plugins reloaded; both undone afterwards."""
    monkeypatch.syspath_prepend(str(example_pack_site))
    for key in _ENV_KEYS:
        monkeypatch.delenv(key, raising=False)
    plugins.reset_for_tests()
    yield example_pack_site
    monkeypatch.undo()
    plugins.reset_for_tests()


@pytest.fixture
def return_cached_sim_blocks():
    """Leave the sim device's caching allocator as found: later tests in the same worker place
    tensors next to each other (tests/test_sim_tensor_checks.py's neighbours())."""
    yield
    import gc

    gc.collect()
    pyasc.synchronize("sim")
    pyasc.memory.empty_cache("sim")


@pytest.fixture
def fill():
    """slow_fill(out, nbytes, value, sleep_us) on a stream (the sim test kernels): a kernel that
    writes its argument, for the stream-sanitizer tests."""
    import pyasc_acl
    from acl_fixtures import kernel_binary

    fn = pyasc_acl.Binary(kernel_binary(), device="sim").function("slow_fill")

    def run(t, value, stream, sleep_us=0):
        fn(1, t, t.nbytes, value, sleep_us, stream=stream)

    return run
