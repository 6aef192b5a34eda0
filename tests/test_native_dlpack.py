"""Tests of pyasc_core._native: build_info() and the DLPack export/import of NumPy arrays.

The DLPack structs are read back through ctypes mirrors of the spec's C ABI, so these tests check
what a foreign consumer actually sees in the capsule, not only what our own from_dlpack makes of it.
"""

from __future__ import annotations

import ctypes
import gc
import importlib.metadata
import os
import re
import subprocess
import sys
import sysconfig
import textwrap
import weakref

import ml_dtypes
import numpy as np
import pytest

from pyasc_core import _native

BF16 = np.dtype(ml_dtypes.bfloat16)

# ---------------------------------------------------------------------------------------------
# ctypes mirrors of the DLPack ABI, and capsule helpers from the CPython C API
# ---------------------------------------------------------------------------------------------


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


# A deleter called with the GIL held (PYFUNCTYPE); CFUNCTYPE calls release it.
DELETER_WITH_GIL = ctypes.PYFUNCTYPE(None, ctypes.c_void_p)


class DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p)]


class DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [
        ("version", DLPackVersion),
        ("manager_ctx", ctypes.c_void_p),
        ("deleter", ctypes.c_void_p),
        ("flags", ctypes.c_uint64),
        ("dl_tensor", DLTensor),
    ]


_api = ctypes.pythonapi
_api.PyCapsule_GetPointer.restype = ctypes.c_void_p
_api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_GetName.restype = ctypes.c_char_p
_api.PyCapsule_GetName.argtypes = [ctypes.py_object]
_api.PyCapsule_SetName.restype = ctypes.c_int
_api.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_New.restype = ctypes.py_object
_api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]

# Capsule names must outlive the capsules that point at them: keep them as module constants.
USED_NAME = b"used_dltensor"
USED_VERSIONED_NAME = b"used_dltensor_versioned"
OTHER_NAME = b"not_a_dltensor"
_DUMMY = ctypes.c_int(0)


def capsule_name(capsule) -> str:
    return _api.PyCapsule_GetName(capsule).decode()


def managed(capsule):
    """The DLManagedTensor[Versioned] inside an unconsumed capsule, as a ctypes view."""
    name = capsule_name(capsule)
    struct = DLManagedTensorVersioned if name == "dltensor_versioned" else DLManagedTensor
    return struct.from_address(_api.PyCapsule_GetPointer(capsule, name.encode()))


def consume_by_hand(capsule):
    """Do what a foreign consumer does: take the tensor and rename the capsule "used_..."."""
    m = managed(capsule)
    used = USED_VERSIONED_NAME if isinstance(m, DLManagedTensorVersioned) else USED_NAME
    assert _api.PyCapsule_SetName(capsule, used) == 0
    return m


class Producer:
    """A minimal object speaking the Python DLPack protocol, for numpy.from_dlpack."""

    def __init__(self, array, versioned=False):
        self.array = array
        self.versioned = versioned

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        if self.versioned and (max_version is None or max_version[0] < 1):
            raise BufferError("consumer does not accept a versioned capsule")
        return _native.to_dlpack(self.array, versioned=self.versioned)

    def __dlpack_device__(self):
        return (1, 0)


SUPPORTED = [
    # dtype, (code, bits)
    (np.dtype(np.bool_), (6, 8)),
    (np.dtype(np.int8), (0, 8)),
    (np.dtype(np.int16), (0, 16)),
    (np.dtype(np.int32), (0, 32)),
    (np.dtype(np.int64), (0, 64)),
    (np.dtype(np.uint8), (1, 8)),
    (np.dtype(np.float16), (2, 16)),
    (np.dtype(np.float32), (2, 32)),
    (np.dtype(np.float64), (2, 64)),
    (BF16, (4, 16)),
]
SUPPORTED_IDS = [str(dt) for dt, _ in SUPPORTED]
SUPPORTED_LIST = "bool, int8, int16, int32, int64, uint8, float16, float32, float64, bfloat16"


def sample(dtype, shape=(4, 6)):
    values = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    if dtype == np.bool_:
        return (values % 3 == 0).astype(np.bool_)
    if dtype == np.uint8 or dtype == np.int8:
        return (values % 100).astype(dtype)
    return (values - 5).astype(dtype)


def layouts(a):
    """Contiguous and non-contiguous views of a 2-D array, with their names."""
    return {
        "contiguous": a,
        "rows_step2": a[::2],
        "transpose": a.T,
        "negative_step": a[:, ::-2],
        "offset_slice": a[1:, 2:],
        "column": a[:, 3],
    }


def data_ptr(a) -> int:
    return a.__array_interface__["data"][0]


# ---------------------------------------------------------------------------------------------
# build_info
# ---------------------------------------------------------------------------------------------


def test_build_info_facts():
    info = _native.build_info()
    assert set(info) == {"compiler", "cxx_standard", "pybind11", "build_type", "version", "platform"}
    assert re.fullmatch(r"(GCC|Clang|AppleClang|IntelLLVM|MSVC) \d+(\.\d+)*", info["compiler"])
    assert isinstance(info["cxx_standard"], int) and info["cxx_standard"] >= 201703
    assert re.fullmatch(r"\d+\.\d+\.\w+", info["pybind11"])
    assert int(info["pybind11"].split(".")[0]) >= 2
    assert info["build_type"] in ("Release", "Debug")
    assert info["version"] == "unknown" or re.fullmatch(r"\d+\.\d+.*", info["version"])
    if info["version"] != "unknown":  # built by the project's packaging: its version
        try:
            assert info["version"] == importlib.metadata.version("pyasc-runtime")
        except importlib.metadata.PackageNotFoundError:
            pass
    if sys.platform.startswith("linux"):
        assert info["platform"] == sysconfig.get_platform()
    else:
        assert re.fullmatch(r"[a-z]+-\w+", info["platform"])


# ---------------------------------------------------------------------------------------------
# to_dlpack: what the capsule holds
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("dtype", "code_bits"), SUPPORTED, ids=SUPPORTED_IDS)
def test_capsule_describes_array_without_copy(dtype, code_bits):
    a = sample(dtype)[::2, ::-3]  # non-contiguous with a negative stride
    capsule = _native.to_dlpack(a)
    assert capsule_name(capsule) == "dltensor"
    t = managed(capsule).dl_tensor
    assert t.data == data_ptr(a)
    assert (t.device.device_type, t.device.device_id) == (1, 0)
    assert (t.dtype.code, t.dtype.bits, t.dtype.lanes) == (*code_bits, 1)
    assert t.ndim == 2
    assert [t.shape[i] for i in range(2)] == list(a.shape)
    assert [t.strides[i] for i in range(2)] == [s // a.itemsize for s in a.strides]
    assert [t.strides[i] for i in range(2)] == [12, -3]
    assert t.byte_offset == 0


@pytest.mark.parametrize("writeable", [True, False])
def test_versioned_capsule_header(writeable):
    a = sample(np.float32)
    a.flags.writeable = writeable
    capsule = _native.to_dlpack(a, versioned=True)
    assert capsule_name(capsule) == "dltensor_versioned"
    m = managed(capsule)
    assert (m.version.major, m.version.minor) == (1, 0)
    assert m.flags == (0 if writeable else 1)  # DLPACK_FLAG_BITMASK_READ_ONLY
    assert m.dl_tensor.data == data_ptr(a)
    assert (m.dl_tensor.dtype.code, m.dl_tensor.dtype.bits) == (2, 32)
    assert m.deleter and m.manager_ctx


def test_zero_dim_and_empty_arrays():
    scalar = np.array(2.5, dtype=np.float32)
    capsule = _native.to_dlpack(scalar)
    t = managed(capsule).dl_tensor
    assert t.ndim == 0 and t.data == data_ptr(scalar)
    del t, capsule
    out, is_bf16 = _native.from_dlpack(_native.to_dlpack(scalar))
    assert out.shape == () and out[()] == 2.5 and not is_bf16

    empty = np.zeros((0, 3), dtype=np.int16)
    out, _ = _native.from_dlpack(_native.to_dlpack(empty, versioned=True))
    assert out.shape == (0, 3) and out.dtype == np.int16


def test_byte_stride_not_multiple_of_itemsize_is_rejected():
    base = np.zeros(16, dtype=np.int32)
    odd = np.lib.stride_tricks.as_strided(base, shape=(3,), strides=(6,))
    with pytest.raises(ValueError, match=r"byte stride 6 of axis 0 is not a multiple of the itemsize 4"):
        _native.to_dlpack(odd)
    # An axis of extent 1 never uses its stride, so an odd one there is harmless.
    ok = np.lib.stride_tricks.as_strided(base, shape=(1, 3), strides=(6, 4))
    out = np.from_dlpack(Producer(ok))
    assert out.shape == (1, 3) and data_ptr(out) == data_ptr(base)


@pytest.mark.parametrize(
    "bad",
    [
        np.zeros(3, dtype=np.complex64),
        np.zeros(3, dtype=np.uint16),
        np.zeros(3, dtype=np.uint64),
        np.zeros(3, dtype=object),
        np.zeros(3, dtype="datetime64[s]"),
        np.zeros(3, dtype=[("a", "u1"), ("b", "u1")]),  # kind 'V', itemsize 2, not bfloat16
    ],
    ids=lambda a: str(a.dtype),
)
def test_unsupported_dtype_is_a_type_error_naming_it(bad):
    with pytest.raises(TypeError) as exc:
        _native.to_dlpack(bad)
    message = str(exc.value)
    assert f"unsupported dtype '{bad.dtype}'" in message
    assert f"supported dtypes: {SUPPORTED_LIST}" in message


def test_non_native_byte_order_is_rejected():
    swapped = np.arange(3, dtype=np.dtype(np.int32).newbyteorder("S"))
    with pytest.raises(TypeError, match="native byte order"):
        _native.to_dlpack(swapped)


@pytest.mark.parametrize("obj", [[1, 2, 3], 3.0, np.float32(1.0), None])
def test_non_ndarray_is_a_type_error(obj):
    with pytest.raises(TypeError, match=r"expected a numpy\.ndarray, got"):
        _native.to_dlpack(obj)


# ---------------------------------------------------------------------------------------------
# Round trips through numpy.from_dlpack (a foreign consumer)
# ---------------------------------------------------------------------------------------------

NUMPY_NATIVE = [(dt, cb) for dt, cb in SUPPORTED if dt != BF16]


@pytest.mark.parametrize("versioned", [False, True], ids=["unversioned", "versioned"])
@pytest.mark.parametrize(("dtype", "code_bits"), NUMPY_NATIVE, ids=[str(d) for d, _ in NUMPY_NATIVE])
def test_numpy_from_dlpack_round_trip_shares_memory(dtype, code_bits, versioned):
    for name, view in layouts(sample(dtype)).items():
        out = np.from_dlpack(Producer(view, versioned=versioned))
        assert out.dtype == view.dtype, name
        assert out.shape == view.shape and out.strides == view.strides, name
        assert data_ptr(out) == data_ptr(view), name
        np.testing.assert_array_equal(out, view, err_msg=name)
        # Writing through the producer's array shows in the consumer's.
        flipped = ~view[0] if dtype == np.bool_ else view[0] + 1
        view[0] = flipped
        np.testing.assert_array_equal(out[0], flipped, err_msg=name)
        # NumPy makes arrays from legacy (unversioned) capsules read-only, as it cannot tell;
        # a versioned capsule says the array is writeable, so writes go the other way too.
        assert out.flags.writeable == versioned, name
        if versioned:
            out[0] = view[0] + 1 if dtype != np.bool_ else ~view[0]
            np.testing.assert_array_equal(view[0], out[0], err_msg=name)


def test_numpy_from_dlpack_read_only_versioned():
    a = sample(np.float32)
    a.flags.writeable = False
    out = np.from_dlpack(Producer(a, versioned=True))
    assert not out.flags.writeable
    np.testing.assert_array_equal(out, a)


# ---------------------------------------------------------------------------------------------
# Our from_dlpack, bfloat16 included
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("versioned", [False, True], ids=["unversioned", "versioned"])
def test_bfloat16_round_trip_values_and_shared_memory(versioned):
    values = np.array([[1.5, -2.25, 3.0], [0.125, 1e30, -0.0]], dtype=np.float32)
    a = values.astype(BF16)
    out, is_bf16 = _native.from_dlpack(_native.to_dlpack(a, versioned=versioned))
    assert is_bf16 is True
    assert out.dtype == np.uint16 and out.shape == (2, 3)
    assert data_ptr(out) == data_ptr(a)
    np.testing.assert_array_equal(out, a.view(np.uint16))  # bit-exact
    as_bf16 = out.view(BF16)
    np.testing.assert_array_equal(as_bf16.astype(np.float32), a.astype(np.float32))
    # Shared both ways.
    as_bf16[0, 0] = 42.0
    assert float(a[0, 0]) == 42.0
    a[1, 2] = -7.5
    assert float(as_bf16[1, 2]) == -7.5


def test_bfloat16_non_contiguous_round_trip():
    a = sample(np.float32, (4, 6)).astype(BF16)
    for name, view in layouts(a).items():
        out, is_bf16 = _native.from_dlpack(_native.to_dlpack(view))
        assert is_bf16, name
        assert out.strides == view.strides and data_ptr(out) == data_ptr(view), name
        np.testing.assert_array_equal(out.view(BF16).astype(np.float32), view.astype(np.float32))


@pytest.mark.parametrize(("dtype", "code_bits"), NUMPY_NATIVE, ids=[str(d) for d, _ in NUMPY_NATIVE])
def test_from_dlpack_all_dtypes(dtype, code_bits):
    a = sample(dtype).T
    out, is_bf16 = _native.from_dlpack(_native.to_dlpack(a))
    assert is_bf16 is False
    assert out.dtype == dtype and out.strides == a.strides and data_ptr(out) == data_ptr(a)
    np.testing.assert_array_equal(out, a)


def test_from_dlpack_consumes_numpy_capsules():
    src = np.arange(10.0).reshape(2, 5)[:, ::2]
    before = sys.getrefcount(src)
    out, is_bf16 = _native.from_dlpack(src.__dlpack__())
    assert not is_bf16 and data_ptr(out) == data_ptr(src) and out.strides == src.strides
    np.testing.assert_array_equal(out, src)
    assert sys.getrefcount(src) > before  # NumPy's manager keeps src alive
    del out
    gc.collect()
    assert sys.getrefcount(src) == before  # NumPy's deleter ran

    out, _ = _native.from_dlpack(src.__dlpack__(max_version=(1, 0)))
    np.testing.assert_array_equal(out, src)


def test_from_dlpack_read_only_flag_makes_read_only_array():
    a = sample(np.int32)
    a.flags.writeable = False
    out, _ = _native.from_dlpack(_native.to_dlpack(a, versioned=True))
    assert not out.flags.writeable
    with pytest.raises(ValueError):
        out[0, 0] = 1
    w = sample(np.int32)
    out, _ = _native.from_dlpack(_native.to_dlpack(w, versioned=True))
    assert out.flags.writeable


def test_from_dlpack_renames_capsule_and_refuses_second_use():
    a = sample(np.float32)
    for versioned, used in [(False, "used_dltensor"), (True, "used_dltensor_versioned")]:
        capsule = _native.to_dlpack(a, versioned=versioned)
        out, _ = _native.from_dlpack(capsule)
        assert capsule_name(capsule) == used
        with pytest.raises(ValueError, match=f"already consumed.*'{used}'"):
            _native.from_dlpack(capsule)
        del out


def test_from_dlpack_rejects_non_capsules_and_foreign_capsules():
    with pytest.raises(TypeError, match="expected a DLPack PyCapsule, got int"):
        _native.from_dlpack(1)
    with pytest.raises(TypeError, match="expected a DLPack PyCapsule, got numpy.ndarray"):
        _native.from_dlpack(np.zeros(2))
    foreign = _api.PyCapsule_New(ctypes.addressof(_DUMMY), OTHER_NAME, None)
    with pytest.raises(ValueError, match="named 'dltensor' or 'dltensor_versioned', got 'not_a_dltensor'"):
        _native.from_dlpack(foreign)


def test_from_dlpack_rejects_non_cpu_device_without_consuming():
    a = sample(np.float32)
    before = sys.getrefcount(a)
    capsule = _native.to_dlpack(a)
    t = managed(capsule).dl_tensor
    t.device.device_type = 2  # kDLCUDA
    with pytest.raises(ValueError, match=r"kDLCUDA \(2\).*only kDLCPU \(1\)"):
        _native.from_dlpack(capsule)
    assert capsule_name(capsule) == "dltensor"  # still the producer's
    t.device.device_type = 99
    with pytest.raises(ValueError, match="device type 99"):
        _native.from_dlpack(capsule)
    del t, capsule
    assert sys.getrefcount(a) == before  # the refused capsule was still freed


def test_from_dlpack_rejects_unsupported_dlpack_dtype_and_major_version():
    a = sample(np.float32)
    before = sys.getrefcount(a)
    capsule = _native.to_dlpack(a)
    dtype = managed(capsule).dl_tensor.dtype
    dtype.code, dtype.bits = 5, 64  # kDLComplex 64
    with pytest.raises(TypeError, match=r"unsupported DLPack dtype \(code=5, bits=64, lanes=1\)"):
        _native.from_dlpack(capsule)
    dtype.code, dtype.bits, dtype.lanes = 2, 32, 4  # vector lanes
    with pytest.raises(TypeError, match="lanes=4"):
        _native.from_dlpack(capsule)
    assert capsule_name(capsule) == "dltensor"
    del dtype, capsule

    capsule = _native.to_dlpack(a, versioned=True)
    managed(capsule).version.major = 2
    with pytest.raises(ValueError, match=r"unsupported DLPack version 2\.0"):
        _native.from_dlpack(capsule)
    assert capsule_name(capsule) == "dltensor_versioned"
    del capsule
    assert sys.getrefcount(a) == before


# ---------------------------------------------------------------------------------------------
# Lifetimes: references, deleters, the capsule protocol
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("versioned", [False, True], ids=["unversioned", "versioned"])
def test_unconsumed_capsule_releases_the_array(versioned):
    a = sample(np.float64)
    before = sys.getrefcount(a)
    capsule = _native.to_dlpack(a, versioned=versioned)
    assert sys.getrefcount(a) == before + 1
    del capsule
    assert sys.getrefcount(a) == before
    for _ in range(1000):  # no leak per export
        _native.to_dlpack(a, versioned=versioned)
    assert sys.getrefcount(a) == before


def test_capsule_keeps_array_alive():
    a = sample(np.float32)
    alive = weakref.ref(a)
    capsule = _native.to_dlpack(a)
    del a
    gc.collect()
    assert alive() is not None
    del capsule
    assert alive() is None


@pytest.mark.parametrize("versioned", [False, True], ids=["unversioned", "versioned"])
def test_consumed_capsule_defers_release_to_the_consumer(versioned):
    a = sample(BF16)
    before = sys.getrefcount(a)
    capsule = _native.to_dlpack(a, versioned=versioned)
    out, _ = _native.from_dlpack(capsule)
    del capsule  # renamed "used_...": its destructor must not run the deleter
    assert sys.getrefcount(a) == before + 1
    tail = out[1:]  # a view keeps the consumer's array (and so the tensor) alive
    del out
    gc.collect()
    assert sys.getrefcount(a) == before + 1
    del tail
    gc.collect()
    assert sys.getrefcount(a) == before


def test_numpy_consumer_runs_the_deleter():
    a = sample(np.int8)
    before = sys.getrefcount(a)
    out = np.from_dlpack(Producer(a))
    assert sys.getrefcount(a) == before + 1
    del out
    gc.collect()
    assert sys.getrefcount(a) == before


def test_deleter_called_by_hand_after_rename():
    a = sample(np.float32)
    before = sys.getrefcount(a)
    for versioned in (False, True):
        capsule = _native.to_dlpack(a, versioned=versioned)
        m = consume_by_hand(capsule)
        del capsule  # consumed: no release yet
        assert sys.getrefcount(a) == before + 1
        DELETER_WITH_GIL(m.deleter)(ctypes.addressof(m))
        assert sys.getrefcount(a) == before


def test_deleter_without_the_gil_from_another_thread(tmp_path):
    # The last reference to the array is the capsule's; the deleter is called from a worker
    # thread with the GIL released (ctypes releases it around foreign calls). Dropping the array
    # runs a Python weakref callback, which would crash if the deleter did not take the GIL.
    # Run it in a child interpreter so that a crash is reported as a failure, not a dead run.
    script = textwrap.dedent(
        """
        import ctypes, sys, threading, weakref
        import numpy as np
        from pyasc_core import _native

        api = ctypes.pythonapi
        api.PyCapsule_GetPointer.restype = ctypes.c_void_p
        api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
        api.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]
        USED = {False: b"used_dltensor", True: b"used_dltensor_versioned"}
        DELETER = ctypes.CFUNCTYPE(None, ctypes.c_void_p)

        for versioned in (False, True):
            name = b"dltensor_versioned" if versioned else b"dltensor"
            events = []
            a = np.arange(1000, dtype=np.float32)
            ref = weakref.ref(a, lambda _: events.append(threading.get_ident()))
            capsule = _native.to_dlpack(a, versioned=versioned)
            del a
            ptr = api.PyCapsule_GetPointer(capsule, name)
            offset = OFFSETS[versioned]  # of the deleter field, from the ctypes mirrors
            deleter = ctypes.c_void_p.from_address(ptr + offset).value
            api.PyCapsule_SetName(capsule, USED[versioned])
            del capsule
            assert ref() is not None
            worker = threading.Thread(target=DELETER(deleter), args=(ptr,))
            worker.start()
            worker.join()
            assert ref() is None, "array not released"
            assert events == [worker.ident], events
        print("ok")
        """
    )
    offsets = {False: DLManagedTensor.deleter.offset, True: DLManagedTensorVersioned.deleter.offset}
    script = f"OFFSETS = {offsets!r}\n" + script
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    proc = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120,
        cwd=tmp_path,  # not the checkout: its pyasc_core has no compiled module
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"


# ---------------------------------------------------------------------------------------------
# Interoperability with PyTorch, when it is installed
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("versioned", [False, True], ids=["unversioned", "versioned"])
def test_torch_from_dlpack_bfloat16_shares_memory(versioned):
    torch = pytest.importorskip("torch")
    a = np.array([[1.5, -2.25, 3.0], [0.125, 7.0, 8.0]], dtype=BF16)
    before = sys.getrefcount(a)
    t = torch.from_dlpack(_native.to_dlpack(a, versioned=versioned))
    assert t.dtype == torch.bfloat16 and tuple(t.shape) == (2, 3)
    assert t.data_ptr() == data_ptr(a)
    assert t.float().tolist() == a.astype(np.float32).tolist()
    t[0, 0] = 100.0
    assert float(a[0, 0]) == 100.0
    del t
    gc.collect()
    assert sys.getrefcount(a) == before


def test_torch_bfloat16_tensor_into_from_dlpack():
    torch = pytest.importorskip("torch")
    t = torch.tensor([[1.5, -2.25, 3.0], [0.125, 7.0, 8.0]], dtype=torch.bfloat16).t()
    for capsule in (t.__dlpack__(), t.__dlpack__(max_version=(1, 0))):
        out, is_bf16 = _native.from_dlpack(capsule)
        assert is_bf16 and out.dtype == np.uint16
        assert data_ptr(out) == t.data_ptr()
        assert out.strides == tuple(s * 2 for s in t.stride())
        assert out.view(BF16).astype(np.float32).tolist() == t.float().tolist()
        t[0, 1] = 11.0
        assert float(out.view(BF16)[0, 1]) == 11.0
