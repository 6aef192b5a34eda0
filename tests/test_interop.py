"""DLPack through pyasc: zero-copy exchange with NumPy (and PyTorch when installed), bfloat16 both
ways through the native helper, device checks and errors."""

from __future__ import annotations

import ctypes
import gc

import ml_dtypes
import numpy as np
import pytest
from numpy.testing import assert_array_equal

import pyasc
from pyasc_core import _native
from pyasc_core import dtypes as pdt

# these tests are about host (numpy-backend) tensors; the default backend is sim when available
pytestmark = pytest.mark.usefixtures("numpy_backend")

BF16 = np.dtype(ml_dtypes.bfloat16)
NUMPY_EXPORTABLE = [
    pyasc.bool_, pyasc.uint8, pyasc.int8, pyasc.int16, pyasc.int32, pyasc.int64,
    pyasc.float16, pyasc.float32, pyasc.float64,
]

_get_name = ctypes.pythonapi.PyCapsule_GetName
_get_name.restype = ctypes.c_char_p
_get_name.argtypes = [ctypes.py_object]


def capsule_name(capsule) -> str:
    return _get_name(capsule).decode()


def name(dt) -> str:
    return pdt.dtype_name(np.dtype(dt))


def ptr(a: np.ndarray) -> int:
    return a.__array_interface__["data"][0]


def sample(dtype, shape=(2, 3)) -> np.ndarray:
    n = int(np.prod(shape))
    if np.dtype(dtype) == np.bool_:
        return (np.arange(n) % 2 == 0).reshape(shape)
    return (np.arange(n) + 1).astype(dtype).reshape(shape)


def bump(dtype, v):
    """A value different from ``v`` in ``dtype``."""
    return np.logical_not(v) if np.dtype(dtype) == np.bool_ else (v + 1).astype(dtype)


class Producer:
    """A foreign DLPack producer exporting a NumPy array (any dtype, bfloat16 included) through
    the native helper, as a third-party library would."""

    def __init__(self, array: np.ndarray, device=(1, 0), versioned: bool | None = None) -> None:
        self.array = array
        self.device = device
        self.versioned = versioned  # None: follow the consumer's max_version
        self.requests: list[dict] = []

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        self.requests.append({"max_version": max_version, "dl_device": dl_device, "copy": copy})
        versioned = self.versioned
        if versioned is None:
            versioned = max_version is not None and max_version[0] >= 1
        return _native.to_dlpack(self.array, versioned)

    def __dlpack_device__(self):
        return self.device


# ---------------------------------------------------------------------------------------------
# numpy.from_dlpack(pyasc tensor)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", NUMPY_EXPORTABLE, ids=name)
def test_numpy_from_dlpack_shares_memory(dtype):
    t = pyasc.tensor(sample(dtype), dtype=dtype)
    n = np.from_dlpack(t)
    assert n.dtype == dtype and n.shape == (2, 3)
    assert ptr(n) == ptr(t.numpy())
    assert_array_equal(n, t.numpy())
    # write through NumPy, see it in pyasc
    new = bump(dtype, n[0, 0])
    n[0, 0] = new
    assert t[0, 0].item() == new.item()
    # write through pyasc, see it in NumPy
    t[1, 2] = pyasc.tensor(bump(dtype, n[1, 2]).item(), dtype=dtype)
    assert n[1, 2] == t[1, 2].item()


def test_numpy_from_dlpack_of_views_and_scalars():
    base = pyasc.tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
    for view in (base.T, base[:, ::2], base[1:, 1]):
        n = np.from_dlpack(view)
        assert n.shape == view.shape and n.strides == view.numpy().strides
        assert_array_equal(n, view.numpy())
        assert np.shares_memory(n, base.numpy())
    s = np.from_dlpack(pyasc.tensor(5.0))
    assert s.shape == () and s == 5.0


def test_numpy_from_dlpack_copy_true_does_not_share():
    t = pyasc.tensor([1.0, 2.0])
    n = np.from_dlpack(t, copy=True)
    assert not np.shares_memory(n, t.numpy())
    assert_array_equal(n, [1.0, 2.0])


def test_exported_memory_outlives_the_tensor():
    t = pyasc.tensor(np.arange(1000, dtype=np.int32))
    n = np.from_dlpack(t)
    del t
    gc.collect()
    assert_array_equal(n, np.arange(1000, dtype=np.int32))


def test_dlpack_capsule_versions():
    t = pyasc.tensor([1.0, 2.0])
    assert capsule_name(t.__dlpack__()) == "dltensor"
    assert capsule_name(t.__dlpack__(max_version=(1, 0))) == "dltensor_versioned"
    assert capsule_name(t.__dlpack__(max_version=(0, 8))) == "dltensor"
    b = pyasc.tensor([1.0], dtype="bfloat16")
    assert capsule_name(b.__dlpack__()) == "dltensor"
    assert capsule_name(b.__dlpack__(max_version=(1, 1))) == "dltensor_versioned"


# ---------------------------------------------------------------------------------------------
# __dlpack_device__ and dl_device
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [pyasc.float32, pyasc.bfloat16, pyasc.bool_], ids=name)
def test_dlpack_device_is_cpu_0(dtype):
    assert pyasc.zeros(2, dtype=dtype).__dlpack_device__() == (1, 0)


def test_dl_device_cpu_is_accepted():
    t = pyasc.tensor([1.0, 2.0])
    out, is_bf16 = _native.from_dlpack(t.__dlpack__(dl_device=(1, 0)))
    assert not is_bf16 and ptr(out) == ptr(t.numpy())


@pytest.mark.parametrize("dl_device", [(2, 0), (1, 1), (13, 0)], ids=str)
def test_dl_device_mismatch_is_an_error(dl_device):
    t = pyasc.tensor([1.0, 2.0])
    with pytest.raises(pyasc.PyascError) as exc:
        t.__dlpack__(dl_device=dl_device)
    msg = str(exc.value)
    assert str(dl_device) in msg and "only be exported to the CPU (1, 0)" in msg


# ---------------------------------------------------------------------------------------------
# pyasc.from_dlpack
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", NUMPY_EXPORTABLE, ids=name)
def test_from_dlpack_numpy_array_shares_memory(dtype):
    a = sample(dtype)
    t = pyasc.from_dlpack(a)
    assert type(t) is pyasc.Tensor
    assert t.dtype == dtype and t.shape == (2, 3) and t.device is pyasc.Device("numpy")
    assert ptr(t.numpy()) == ptr(a)
    a[0, 1] = bump(dtype, a[0, 1])
    assert t[0, 1].item() == a[0, 1].item()
    t[1, 0] = pyasc.tensor(bump(dtype, a[1, 0]).item(), dtype=dtype)
    assert a[1, 0].item() == t[1, 0].item()


def test_from_dlpack_non_contiguous_numpy():
    a = np.arange(20, dtype=np.int16).reshape(4, 5)
    t = pyasc.from_dlpack(a[::2, 1:].T)
    assert t.shape == (4, 2)
    assert_array_equal(t.numpy(), a[::2, 1:].T)
    assert np.shares_memory(t.numpy(), a)


def test_from_dlpack_read_only_array_stays_read_only():
    a = np.arange(3.0)
    a.flags.writeable = False
    t = pyasc.from_dlpack(a)
    assert np.shares_memory(t.numpy(), a)
    with pytest.raises(pyasc.PyascError, match="read-only tensor.*t.clone\\(\\)"):
        t[0] = 5.0
    c = t.clone()
    c[0] = 5.0
    assert c.tolist() == [5.0, 1.0, 2.0] and a[0] == 0.0


def test_from_dlpack_of_a_pyasc_tensor_is_identity():
    t = pyasc.tensor([1.0])
    assert pyasc.from_dlpack(t) is t
    m = pyasc.from_dlpack(t, device="meta")
    assert m.device is pyasc.Device("meta") and m.shape == (1,)


def test_from_dlpack_with_device_argument():
    a = np.arange(4, dtype=np.int32)
    m = pyasc.from_dlpack(a, device="meta")
    assert (m.device, m.shape, m.dtype) == (pyasc.Device("meta"), (4,), pyasc.int32)
    same = pyasc.from_dlpack(a, device="numpy")
    assert np.shares_memory(same.numpy(), a)


def test_from_dlpack_does_not_count_foreign_memory():
    gc.collect()
    before = pyasc.memory.memory_allocated()
    a = np.zeros(10_000, np.float32)
    t = pyasc.from_dlpack(a)
    assert pyasc.memory.memory_allocated() == before  # the producer owns it
    del t


# ---------------------------------------------------------------------------------------------
# bfloat16, which NumPy cannot exchange, goes through the native helper
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("versioned", [False, True], ids=["unversioned", "versioned"])
def test_from_dlpack_bfloat16_producer(versioned):
    a = np.array([[1.5, -2.25, 3.0], [0.125, 1e30, -0.0]], dtype=BF16)
    prod = Producer(a, versioned=versioned)
    t = pyasc.from_dlpack(prod)
    assert prod.requests  # the capsule came from the producer
    assert t.dtype == pyasc.bfloat16 and t.shape == (2, 3)
    assert ptr(t.numpy()) == ptr(a)
    assert_array_equal(t.numpy().astype(np.float32), a.astype(np.float32))
    t[0, 0] = 42.0
    assert float(a[0, 0]) == 42.0
    a[1, 2] = -7.5
    assert t[1, 2].item() == -7.5


def test_from_dlpack_bfloat16_non_contiguous():
    base = np.arange(24, dtype=np.float32).reshape(4, 6).astype(BF16)
    view = base[::2, ::3].T
    t = pyasc.from_dlpack(Producer(view))
    assert t.shape == view.shape and t.numpy().strides == view.strides
    assert_array_equal(t.numpy().astype(np.float32), view.astype(np.float32))


@pytest.mark.parametrize("max_version", [None, (1, 0)], ids=["unversioned", "versioned"])
def test_pyasc_bfloat16_export_consumed_natively(max_version):
    t = pyasc.tensor([[1.5, -2.0], [0.25, 8.0]], dtype="bfloat16")
    out, is_bf16 = _native.from_dlpack(t.__dlpack__(max_version=max_version))
    assert is_bf16 is True
    assert out.dtype == np.uint16  # raw bits; the consumer views them as bfloat16
    assert ptr(out) == ptr(t.numpy())
    as_bf16 = out.view(BF16)
    assert_array_equal(as_bf16.astype(np.float32), [[1.5, -2.0], [0.25, 8.0]])
    as_bf16[0, 1] = 3.0
    assert t[0, 1].item() == 3.0


def test_bfloat16_round_trip_through_pyasc():
    t = pyasc.tensor([1.0, 2.5, -3.0], dtype="bfloat16")
    back = pyasc.from_dlpack(Producer(t.numpy()))
    assert back.dtype == pyasc.bfloat16 and ptr(back.numpy()) == ptr(t.numpy())
    assert_array_equal(back.numpy().astype(np.float32), [1.0, 2.5, -3.0])


def test_numpy_cannot_consume_bfloat16_but_pyasc_can():
    t = pyasc.tensor([1.0], dtype="bfloat16")
    with pytest.raises((RuntimeError, BufferError, TypeError)):
        np.from_dlpack(t)  # NumPy's own limitation, not pyasc's
    out, is_bf16 = _native.from_dlpack(t.__dlpack__())
    assert is_bf16 and out.view(BF16)[0] == 1.0


# ---------------------------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------------------------


def test_meta_tensors_cannot_be_exported():
    with pyasc.using_backend("meta"):
        m = pyasc.ones(2)
    for call in (m.__dlpack__, m.__dlpack_device__, lambda: np.from_dlpack(m)):
        with pytest.raises(pyasc.PyascError) as exc:
            call()
        msg = str(exc.value)
        assert "host-resident tensor" in msg and "lives on meta" in msg and "t.to('numpy')" in msg


def test_from_dlpack_non_host_producer():
    prod = Producer(np.zeros(2, np.float32), device=(2, 0))
    with pytest.raises(pyasc.PyascError) as exc:
        pyasc.from_dlpack(prod)
    msg = str(exc.value)
    assert "(2, 0)" in msg and "host (CPU)" in msg and ".cpu()" in msg
    assert prod.requests == []  # refused before asking for a capsule


@pytest.mark.parametrize("obj", [[1, 2], 3.0, None, "abc"], ids=repr)
def test_from_dlpack_needs_a_producer(obj):
    with pytest.raises(pyasc.ArgumentError, match=f"needs an object with __dlpack__.*got {type(obj).__name__}"):
        pyasc.from_dlpack(obj)


@pytest.mark.parametrize("dtype", [np.uint16, np.uint32, np.complex64], ids=lambda d: np.dtype(d).name)
def test_from_dlpack_unsupported_dtype(dtype):
    with pytest.raises(pyasc.DtypeError) as exc:
        pyasc.from_dlpack(np.zeros(2, dtype))
    msg = str(exc.value)
    assert msg.startswith("from_dlpack:") and f"dtype {np.dtype(dtype).name} is not supported" in msg
    assert "astype('float32')" in msg


# ---------------------------------------------------------------------------------------------
# PyTorch, when installed
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["float32", "float16", "int64", "int8", "uint8", "bool", "bfloat16"])
def test_torch_from_dlpack_shares_memory(dtype):
    torch = pytest.importorskip("torch")
    t = pyasc.tensor(sample(np.float32, (2, 3)), dtype=dtype)
    x = torch.from_dlpack(t)
    assert x.dtype == getattr(torch, dtype)
    assert tuple(x.shape) == (2, 3)
    assert x.data_ptr() == ptr(t.numpy())
    assert x.float().tolist() == t.numpy().astype(np.float32).tolist()
    x[0, 0] = 0
    assert t[0, 0].item() == 0
    t[1, 1] = 1
    assert x[1, 1].item() == 1


def test_torch_from_dlpack_of_a_view():
    torch = pytest.importorskip("torch")
    t = pyasc.tensor(np.arange(6.0).reshape(2, 3))
    x = torch.from_dlpack(t.T)
    assert tuple(x.shape) == (3, 2)
    assert x.tolist() == np.arange(6.0).reshape(2, 3).T.tolist()
    assert x.stride() == (1, 3)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "bool", "bfloat16", "float16"])
def test_pyasc_from_dlpack_torch_tensor(dtype):
    torch = pytest.importorskip("torch")
    x = torch.arange(6).reshape(2, 3).to(getattr(torch, dtype))
    t = pyasc.from_dlpack(x)
    assert t.dtype == pyasc.dtype(dtype) and t.shape == (2, 3)
    assert ptr(t.numpy()) == x.data_ptr()
    assert t.numpy().astype(np.float32).tolist() == x.float().tolist()
    t[0, 2] = True if dtype == "bool" else 9
    assert x[0, 2].item() == t[0, 2].item()
    x[1, 0] = 0
    assert t[1, 0].item() == 0


def test_pyasc_from_dlpack_torch_non_contiguous_and_unsupported():
    torch = pytest.importorskip("torch")
    x = torch.arange(12, dtype=torch.float32).reshape(3, 4).t()
    t = pyasc.from_dlpack(x)
    assert t.numpy().tolist() == x.tolist()
    with pytest.raises(pyasc.DtypeError, match="from_dlpack: dtype complex64 is not supported"):
        pyasc.from_dlpack(torch.zeros(2, dtype=torch.complex64))
