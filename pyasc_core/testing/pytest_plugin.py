"""pyasc's pytest plugin (entry point ``pytest11``): backends, references and per-op parametrization.

Options ``--pyasc-backend NAME`` (repeatable) and ``--pyasc-reference NAME``; fixtures ``backend``
(parametrized over the chosen backends), ``reference`` and ``assert_matches_reference``; the
marker ``@pytest.mark.pyasc_ops("example::*")`` runs a test once per matching op as ``op``::

    @pytest.mark.pyasc_ops("mypack::*")
    def test_mypack(op, backend):
        pyasc.testing.check_op(op, backend).raise_for_failures()

An op with no kernel on the backend fails that test as ``pyasc check`` fails it (unless
``check_op(..., allow_missing=True)`` or its ``expected_missing`` list names the kernel).
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable
from typing import Any

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("pyasc", "pyasc differential testing")
    group.addoption("--pyasc-backend", action="append", dest="pyasc_backends", default=None,
                    metavar="NAME", help="backend the `backend` fixture runs on (repeatable; "
                    "default: pyasc's current backend)")
    group.addoption("--pyasc-reference", dest="pyasc_reference", default="numpy", metavar="NAME",
                    help="golden backend for `reference` and assert_matches_reference (default: numpy)")


def _chosen_backends(config: pytest.Config) -> list[str]:
    from pyasc_core.registry import REGISTRY
    from pyasc_core.selection import get_backend

    names = config.getoption("pyasc_backends") or [get_backend()]
    out: list[str] = []
    for n in names:
        for part in n.split(","):
            canon = REGISTRY.available_backend(part.strip()).name
            if canon not in out:
                out.append(canon)
    return out


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "pyasc_ops(*patterns, namespace=None): run the test once per registered op matching the "
        "glob patterns (default: all), passing its handle as the `op` argument",
    )
    try:
        config.stash[_BACKENDS] = _chosen_backends(config)
    except Exception as exc:  # a bad --pyasc-backend is a usage error, shown clearly
        raise pytest.UsageError(f"pyasc: {exc}") from None


_BACKENDS = pytest.StashKey[list]()


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """The name of the backend under test: one test instance per ``--pyasc-backend``."""
    return request.param


@pytest.fixture
def reference(pytestconfig: pytest.Config) -> str:
    """The name of the golden backend (``--pyasc-reference``, default numpy)."""
    from pyasc_core.registry import REGISTRY

    return REGISTRY.available_backend(pytestconfig.getoption("pyasc_reference")).name


@pytest.fixture
def assert_matches_reference(backend: str, reference: str) -> Callable[..., Any]:
    """``assert_matches_reference(op, *args, rtol=None, atol=None, **kwargs)``: run ``op`` on the
    backend and on the reference (NumPy arrays in ``args`` become tensors on each), assert the
    outputs are close, and return the backend's output."""
    from pyasc_core.dispatch import OpHandle, get_op
    from pyasc_core.testing.compare import assert_close
    from pyasc_core.samples import Sample

    def check(op: Any, *args: Any, rtol: float | None = None, atol: float | None = None, **kwargs: Any) -> Any:
        handle = op if isinstance(op, OpHandle) else get_op(op)
        sample = Sample(tuple(_host(a) for a in args), {k: _host(v) for k, v in kwargs.items()})
        b_args, b_kwargs = sample.materialize(backend)
        r_args, r_kwargs = sample.materialize(reference)
        got = handle(*b_args, **b_kwargs)
        want = handle(*r_args, **r_kwargs)
        pairs = zip(got, want) if isinstance(got, tuple) else [(got, want)]
        for i, (g, w) in enumerate(pairs):
            assert_close(g, w, rtol=rtol, atol=atol,
                         msg=f"{handle.name} on {backend} vs {reference} (output {i})")
        return got

    return check


def _host(v: Any) -> Any:
    from pyasc_core.tensor import Tensor

    return v.numpy() if isinstance(v, Tensor) else v


def _uses_our_backend_fixture(metafunc: pytest.Metafunc) -> bool:
    """True unless a conftest or test module overrides ``backend`` with a fixture of its own."""
    defs = getattr(metafunc, "_arg2fixturedefs", {}).get("backend")  # pytest keeps this private
    if not defs:
        return False
    func = defs[-1].func
    return getattr(func, "__module__", None) == __name__ and getattr(func, "__name__", "") == "backend"


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" in metafunc.fixturenames and _uses_our_backend_fixture(metafunc):
        names = metafunc.config.stash[_BACKENDS]
        metafunc.parametrize("backend", names, indirect=True, ids=[f"backend={b}" for b in names])
    marker = metafunc.definition.get_closest_marker("pyasc_ops")
    if marker is None:
        return
    if "op" not in metafunc.fixturenames:
        raise pytest.UsageError(f"{metafunc.definition.nodeid}: @pytest.mark.pyasc_ops needs an `op` argument")
    from pyasc_core.dispatch import handle
    from pyasc_core.registry import REGISTRY

    REGISTRY.ensure()
    patterns = [p if "::" in p else f"pyasc::{p}" for p in marker.args] or ["*"]
    namespace = marker.kwargs.get("namespace")
    names = [n for n in sorted(REGISTRY.ops)
             if any(fnmatch.fnmatchcase(n, p) for p in patterns)
             and (namespace is None or REGISTRY.ops[n].namespace == namespace)]
    if not names:
        raise pytest.UsageError(f"{metafunc.definition.nodeid}: pyasc_ops{marker.args} matches no registered op")
    metafunc.parametrize("op", [handle(n) for n in names], ids=names)
