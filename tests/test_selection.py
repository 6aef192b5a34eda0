"""Backend selection: set_backend / get_backend / using_backend, the 'reference' alias,
PYASC_BACKEND, unknown names, where new tensors live, and mixing devices in one op."""

from __future__ import annotations

import asyncio
import contextvars
import sys
import threading

import numpy as np
import pytest

import pyasc
from pyasc_core import selection
from pyasc_core.registry import REGISTRY

NUMPY = pyasc.Device("numpy")
META = pyasc.Device("meta")
# the default backend: the simulator when it is available (priority 10, above numpy's 0)
DEFAULT = "sim" if REGISTRY.availability("sim")[0] else "numpy"


@pytest.fixture
def fresh(monkeypatch):
    """No PYASC_BACKEND and no process-wide choice yet (conftest restores ``_global`` afterwards)."""
    monkeypatch.delenv("PYASC_BACKEND", raising=False)
    monkeypatch.setattr(selection, "_global", None)
    return monkeypatch


# ---------------------------------------------------------------------------------------------
# get_backend / set_backend
# ---------------------------------------------------------------------------------------------


def test_default_backend_is_sim_when_available(fresh):
    # sim has kernels for the built-in ops and outranks the reference backend
    assert pyasc.get_backend() == DEFAULT
    assert pyasc.tensor([1.0]).device.type == DEFAULT
    with pyasc.using_backend("numpy"):
        assert pyasc.tensor([1.0]).device is NUMPY


def test_set_backend_switches_where_tensors_go(fresh):
    pyasc.set_backend("meta")
    assert pyasc.get_backend() == "meta"
    t = pyasc.ones(2, 3)
    assert t.device is META
    assert pyasc.arange(3).device is META
    assert pyasc.current_stream().device is META
    pyasc.set_backend("numpy")
    assert pyasc.get_backend() == "numpy"
    assert pyasc.ones(2).device is NUMPY
    assert t.device is META  # existing tensors stay where they are


def test_reference_is_an_alias_for_numpy(fresh):
    pyasc.set_backend("reference")
    assert pyasc.get_backend() == "numpy"
    with pyasc.using_backend("reference") as got:
        assert got == "numpy"
    assert pyasc.tensor([1.0], device="reference").device is NUMPY


def test_set_backend_survives_threads(fresh):
    pyasc.set_backend("meta")
    seen = []
    th = threading.Thread(target=lambda: seen.append(pyasc.get_backend()))
    th.start()
    th.join()
    assert seen == ["meta"]  # set_backend is process-wide


# ---------------------------------------------------------------------------------------------
# using_backend
# ---------------------------------------------------------------------------------------------


def test_using_backend_nests_and_restores(fresh):
    assert pyasc.get_backend() == DEFAULT
    with pyasc.using_backend("meta") as outer:
        assert outer == "meta"
        assert pyasc.get_backend() == "meta"
        assert pyasc.zeros(1).device is META
        with pyasc.using_backend("numpy") as inner:
            assert inner == "numpy"
            assert pyasc.zeros(1).device is NUMPY
            with pyasc.using_backend("meta"):
                assert pyasc.get_backend() == "meta"
            assert pyasc.get_backend() == "numpy"
        assert pyasc.get_backend() == "meta"
    assert pyasc.get_backend() == DEFAULT
    assert pyasc.zeros(1).device.type == DEFAULT


def test_using_backend_restores_after_an_exception(fresh):
    with pytest.raises(RuntimeError, match="inside"):
        with pyasc.using_backend("meta"):
            raise RuntimeError("inside")
    assert pyasc.get_backend() == DEFAULT


def test_using_backend_wins_over_set_backend(fresh):
    pyasc.set_backend("meta")
    with pyasc.using_backend("numpy"):
        assert pyasc.get_backend() == "numpy"
        pyasc.set_backend("meta")  # changes the process default, not the scope
        assert pyasc.get_backend() == "numpy"
    assert pyasc.get_backend() == "meta"


def test_using_backend_is_local_to_its_thread(fresh):
    seen = []
    inside = threading.Event()
    release = threading.Event()

    def worker():
        with pyasc.using_backend("meta"):
            seen.append(("worker", pyasc.get_backend()))
            inside.set()
            release.wait(5)

    th = threading.Thread(target=worker)
    th.start()
    assert inside.wait(5)
    seen.append(("main", pyasc.get_backend()))  # while the worker is inside its block
    release.set()
    th.join()
    assert seen == [("worker", "meta"), ("main", DEFAULT)]

    with pyasc.using_backend("meta"):
        other = []
        th = threading.Thread(target=lambda: other.append(pyasc.get_backend()))
        th.start()
        th.join()
        assert pyasc.get_backend() == "meta"
    # a new thread starts from the process-wide choice (unless this Python makes threads
    # inherit the caller's context, as free-threaded 3.14 builds do by default)
    inherits = bool(getattr(sys.flags, "thread_inherit_context", 0))
    assert other == (["meta"] if inherits else [DEFAULT])


def test_using_backend_is_local_to_its_context(fresh):
    ctx = contextvars.copy_context()
    with pyasc.using_backend("meta"):
        assert ctx.run(pyasc.get_backend) == DEFAULT  # a context copied before the block

    async def task(name, delay):
        with pyasc.using_backend(name):
            await asyncio.sleep(delay)
            return pyasc.get_backend(), pyasc.zeros(1).device

    async def main():
        return await asyncio.gather(task("meta", 0.01), task("numpy", 0.0))

    assert asyncio.run(main()) == [("meta", META), ("numpy", NUMPY)]
    assert pyasc.get_backend() == DEFAULT


# ---------------------------------------------------------------------------------------------
# PYASC_BACKEND
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "expected"), [("meta", "meta"), ("numpy", "numpy"), ("reference", "numpy")])
def test_env_var_picks_the_default(fresh, value, expected):
    fresh.setenv("PYASC_BACKEND", value)
    assert pyasc.get_backend() == expected
    assert pyasc.ones(1).device is pyasc.Device(expected)


def test_env_var_empty_means_default(fresh):
    fresh.setenv("PYASC_BACKEND", "")
    assert pyasc.get_backend() == DEFAULT


def test_set_backend_overrides_env_var(fresh):
    fresh.setenv("PYASC_BACKEND", "meta")
    pyasc.set_backend("numpy")
    assert pyasc.get_backend() == "numpy"
    with pyasc.using_backend("meta"):
        assert pyasc.get_backend() == "meta"


def test_env_var_is_read_once(fresh):
    fresh.setenv("PYASC_BACKEND", "meta")
    assert pyasc.get_backend() == "meta"
    fresh.setenv("PYASC_BACKEND", "numpy")
    assert pyasc.get_backend() == "meta"  # the default is chosen once, at first use


def test_env_var_unknown_backend(fresh):
    fresh.setenv("PYASC_BACKEND", "nmupy")
    for call in (pyasc.get_backend, lambda: pyasc.tensor([1.0])):
        with pytest.raises(pyasc.UnknownBackendError) as exc:
            call()
        msg = str(exc.value)
        assert msg.startswith("PYASC_BACKEND='nmupy':")
        assert "Did you mean 'numpy'?" in msg
        known = msg.split("Known backends: ", 1)[1]
        assert "meta (available)" in known and "numpy (available)" in known


# ---------------------------------------------------------------------------------------------
# Unknown backends
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bad", "suggestion"),
    [("nump", "numpy"), ("Numpy", "numpy"), ("metta", "meta"), ("referense", "reference"), ("cuda", None)],
)
def test_unknown_backend_lists_known_and_suggests(fresh, bad, suggestion):
    for call in (lambda: pyasc.set_backend(bad), lambda: pyasc.using_backend(bad).__enter__(),
                 lambda: pyasc.zeros(1, device=bad)):
        with pytest.raises(pyasc.UnknownBackendError) as exc:
            call()
        msg = str(exc.value)
        assert f"unknown backend {bad!r}" in msg
        assert "Known backends:" in msg and "numpy (available)" in msg and "meta (available)" in msg
        if suggestion:
            assert f"Did you mean {suggestion!r}?" in msg
        else:
            assert "Did you mean" not in msg
        assert isinstance(exc.value, pyasc.BackendError) and isinstance(exc.value, ValueError)
    assert pyasc.get_backend() == DEFAULT  # nothing changed


@pytest.mark.parametrize("bad", [None, 3, NUMPY], ids=repr)
def test_backend_name_must_be_a_string(fresh, bad):
    with pytest.raises(pyasc.UnknownBackendError, match=f"a backend name must be a string, got {type(bad).__name__}"):
        pyasc.set_backend(bad)


def test_failed_using_backend_leaves_no_scope(fresh):
    with pytest.raises(pyasc.UnknownBackendError):
        with pyasc.using_backend("nope"):
            pass  # pragma: no cover
    assert pyasc.get_backend() == DEFAULT


# ---------------------------------------------------------------------------------------------
# Mixing devices
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "op",
    [lambda a, b: a + b, lambda a, b: a * b, lambda a, b: a == b, lambda a, b: a @ b,
     lambda a, b: pyasc.maximum(a, b), lambda a, b: pyasc.where(a > 0, a, b)],
    ids=["add", "mul", "eq", "matmul", "maximum", "where"],
)
def test_mixing_devices_names_both(op):
    n = pyasc.ones(3, 3, device="numpy")
    m = pyasc.ones(3, 3, device="meta")
    for a, b, first, second in ((n, m, "numpy", "meta"), (m, n, "meta", "numpy")):
        with pytest.raises(pyasc.DeviceMismatchError) as exc:
            op(a, b)
        msg = str(exc.value)
        assert "different devices" in msg
        assert f"on {first}" in msg and f"on {second}" in msg
        assert f".to('{first}')" in msg  # how to fix it
    assert n.numpy().tolist() == np.ones((3, 3)).tolist()  # inputs untouched


def test_numpy_array_operand_joins_the_tensors_device():
    with pyasc.using_backend("meta"):
        m = pyasc.ones(3)
    out = m + np.ones(3, np.float32)  # the array is converted onto m's device
    assert out.device is META and out.shape == (3,)


def test_mismatch_error_is_a_value_error():
    with pytest.raises(ValueError):
        pyasc.ones(1, device="numpy") + pyasc.ones(1, device="meta")
