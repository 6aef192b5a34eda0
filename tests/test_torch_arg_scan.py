"""The torch-argument test on the launch path (pyasc_core.torch_tensors.has_torch_tensor, PLAIN_TYPES):
with torch loaded, a kernel launch whose arguments are all pyasc tensors, Python scalars, strings or None
answers "no torch tensor" by exact type, without an isinstance per argument through torch.Tensor's
metaclass (that cost ~1 us a launch, a third of the 100k queued-launch rate). Any other argument, a
subclass of a plain type or a keyword argument still gets the isinstance test. torch is not needed: a
stand-in module with a Tensor class plays it (as torch_tensors reads it: sys.modules["torch"].Tensor)."""

from __future__ import annotations

import sys
import types

import numpy as np
import pytest

import pyasc
from pyasc_core import kernel as kernel_mod
from pyasc_core.tensor import Tensor
from pyasc_core.torch_tensors import PLAIN_TYPES, has_torch_tensor


class _FakeTorchTensor:
    pass


class _SubTorchTensor(_FakeTorchTensor):
    pass


class _Disguised:
    """Not a subclass, but isinstance(obj, cls) also looks at obj.__class__."""

    @property
    def __class__(self):
        return _FakeTorchTensor


class _MyInt(int):
    pass


@pytest.fixture
def fake_torch(monkeypatch):
    torch = types.ModuleType("torch")
    torch.Tensor = _FakeTorchTensor
    monkeypatch.setitem(sys.modules, "torch", torch)
    return torch


@pytest.fixture
def x():
    return pyasc.tensor(np.arange(4, dtype=np.float32), device="numpy")


def test_plain_arguments_are_no_torch_tensors(fake_torch, x):
    assert Tensor in PLAIN_TYPES and int in PLAIN_TYPES and type(None) in PLAIN_TYPES
    assert not has_torch_tensor((x, x, 16, 1.0, True, None, "s", b"b", 1j), {})
    assert not has_torch_tensor((), {})


@pytest.mark.parametrize("arg", [_FakeTorchTensor(), _SubTorchTensor(), _Disguised()],
                         ids=["tensor", "subclass", "disguised"])
def test_a_torch_tensor_among_plain_arguments_is_found(fake_torch, x, arg):
    assert has_torch_tensor((x, 16, arg, 1.0), {})
    assert has_torch_tensor((x, 16), {"out": arg})
    assert not has_torch_tensor((x, 16), {"alpha": 1.0})


def test_a_subclass_of_a_plain_type_takes_the_isinstance_test(fake_torch):
    fake_torch.Tensor = int  # a "torch" whose tensors are ints: a subclass of int is one, int itself never
    assert has_torch_tensor((_MyInt(3),), {})  # tested by isinstance: not in PLAIN_TYPES by exact type


def test_without_torch_nothing_is_a_torch_tensor(monkeypatch, x):
    monkeypatch.delitem(sys.modules, "torch", raising=False)
    assert not has_torch_tensor((x, _FakeTorchTensor()), {})


def _launcher(calls):
    """A _Launcher whose kernel records its launches instead of running them (no compile)."""
    loaded = types.SimpleNamespace(get=lambda device: lambda blocks, *args: calls.append(("kernel", args)))
    return kernel_mod._Launcher(types.SimpleNamespace(_loaded=loaded), 1, None)


def test_the_launch_path_routes_torch_arguments_and_only_them(fake_torch, monkeypatch, x):
    calls = []
    monkeypatch.setattr(kernel_mod, "_launch_with_torch", lambda launcher, args: calls.append(("torch", args)))
    launch = _launcher(calls)
    launch(x, x, 16, 1.0)
    t = _FakeTorchTensor()
    launch(x, t, 16, 1.0)
    assert calls == [("kernel", (x, x, 16, 1.0)), ("torch", (x, t, 16, 1.0))]
