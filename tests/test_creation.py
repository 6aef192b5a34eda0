"""Creating tensors: tensor, asarray, from_numpy, empty/zeros/ones/full, arange, the *_like forms;
dtype inference, devices, zero-copy rules and every bad-input path."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from numpy.testing import assert_array_equal

import pyasc
from pyasc_core import dtypes as pdt

# these tests are about host (numpy-backend) tensors; the default backend is sim when available
pytestmark = pytest.mark.usefixtures("numpy_backend")

BF16 = np.dtype(ml_dtypes.bfloat16)
ALL_DTYPES = [
    pyasc.bool_, pyasc.uint8, pyasc.int8, pyasc.int16, pyasc.int32, pyasc.int64,
    pyasc.float16, pyasc.bfloat16, pyasc.float32, pyasc.float64,
]


def name(dt) -> str:
    return pdt.dtype_name(np.dtype(dt))


def f32(a) -> np.ndarray:
    return np.asarray(a).astype(np.float32)


NUMPY = pyasc.Device("numpy")
META = pyasc.Device("meta")


# ---------------------------------------------------------------------------------------------
# tensor(): dtype inference
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "dtype", "shape"),
    [
        (1.5, "float32", ()),
        ([1.0, 2.0], "float32", (2,)),
        ([[1.0], [2.5]], "float32", (2, 1)),
        ((1.0, 2.0), "float32", (2,)),
        ([1, 2.5], "float32", (2,)),  # mixed ints and floats: a float
        (3, "int64", ()),
        ([1, 2, 3], "int64", (3,)),
        (range(4), "int64", (4,)),
        (True, "bool", ()),
        ([True, False], "bool", (2,)),
        ([True, 2], "int64", (2,)),
        ([], "float32", (0,)),
        ([np.float64(1.5)], "float32", (1,)),  # Python-list data: floats default to float32
    ],
    ids=lambda v: repr(v),
)
def test_python_data_dtype_inference(data, dtype, shape):
    t = pyasc.tensor(data)
    assert t.dtype == pyasc.dtype(dtype)
    assert t.shape == shape
    assert t.device is NUMPY
    assert_array_equal(t.numpy(), np.asarray(list(data) if isinstance(data, range) else data, dtype=dtype))


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=name)
def test_numpy_arrays_keep_their_dtype(dtype):
    a = np.arange(6).reshape(2, 3).astype(dtype)
    t = pyasc.tensor(a)
    assert t.dtype == dtype
    assert_array_equal(f32(t.numpy()), f32(a))


def test_numpy_float64_stays_float64():
    assert pyasc.tensor(np.array([1.0, 2.0])).dtype == pyasc.float64
    assert pyasc.tensor(np.float64(1.5)).dtype == pyasc.float64  # a NumPy scalar has a dtype
    assert pyasc.asarray(np.zeros(3)).dtype == pyasc.float64
    assert pyasc.from_numpy(np.zeros(3)).dtype == pyasc.float64


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=name)
def test_explicit_dtype_converts(dtype):
    t = pyasc.tensor([0, 1, 2], dtype=dtype)
    assert t.dtype == dtype
    assert_array_equal(f32(t.numpy()), f32(np.array([0, 1, 2]).astype(dtype)))


@pytest.mark.parametrize("spec", ["float16", "half", np.float16, pyasc.float16, np.dtype("float16")], ids=str)
def test_dtype_spellings(spec):
    assert pyasc.tensor([1.0], dtype=spec).dtype == pyasc.float16


def test_dtype_python_types():
    assert pyasc.tensor([1, 2], dtype=float).dtype == pyasc.float32
    assert pyasc.tensor([1.9], dtype=int).dtype == pyasc.int64
    assert pyasc.tensor([1.9], dtype=int).tolist() == [1]
    assert pyasc.tensor([0, 3], dtype=bool).tolist() == [False, True]


def test_tensor_copies_numpy_data():
    a = np.array([1.0, 2.0], np.float32)
    t = pyasc.tensor(a)
    assert not np.shares_memory(t.numpy(), a)
    a[0] = 100.0
    assert t[0].item() == 1.0


def test_tensor_from_tensor_copies():
    src = pyasc.tensor([1.0, 2.0])
    t = pyasc.tensor(src)
    assert t is not src and not np.shares_memory(t.numpy(), src.numpy())
    assert t.dtype == pyasc.float32
    assert pyasc.tensor(src, dtype="int8").dtype == pyasc.int8


def test_tensor_from_non_native_byte_order_converts():
    a = np.array([1, 2, 300], dtype=">i4")
    t = pyasc.tensor(a)
    assert t.dtype == pyasc.int32
    assert t.tolist() == [1, 2, 300]


def test_tensor_bfloat16_from_ml_dtypes():
    a = np.array([1.5, -2.25], dtype=BF16)
    t = pyasc.tensor(a)
    assert t.dtype == pyasc.bfloat16
    assert_array_equal(f32(t.numpy()), [1.5, -2.25])


def test_tensor_from_torch_when_available():
    torch = pytest.importorskip("torch")
    assert pyasc.tensor(torch.ones(2)).dtype == pyasc.float32
    assert pyasc.tensor(torch.ones(2, dtype=torch.float64)).dtype == pyasc.float64
    assert pyasc.tensor(torch.arange(3)).tolist() == [0, 1, 2]


# ---------------------------------------------------------------------------------------------
# device=
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        lambda d: pyasc.tensor([1.0], device=d),
        lambda d: pyasc.asarray(np.zeros(2), device=d),
        lambda d: pyasc.from_numpy(np.zeros(2), device=d),
        lambda d: pyasc.empty(2, device=d),
        lambda d: pyasc.zeros(2, device=d),
        lambda d: pyasc.ones(2, device=d),
        lambda d: pyasc.full((2,), 3.0, device=d),
        lambda d: pyasc.arange(3, device=d),
        lambda d: pyasc.zeros_like(pyasc.ones(2), device=d),
        lambda d: pyasc.ones_like(pyasc.ones(2), device=d),
        lambda d: pyasc.empty_like(pyasc.ones(2), device=d),
        lambda d: pyasc.full_like(pyasc.ones(2), 1.0, device=d),
    ],
    ids=["tensor", "asarray", "from_numpy", "empty", "zeros", "ones", "full", "arange",
         "zeros_like", "ones_like", "empty_like", "full_like"],
)
@pytest.mark.parametrize(
    ("spec", "expected"),
    [("numpy", NUMPY), ("reference", NUMPY), (NUMPY, NUMPY), ("meta", META), (META, META)],
    ids=["numpy", "reference", "Device(numpy)", "meta", "Device(meta)"],
)
def test_device_argument(make, spec, expected):
    assert make(spec).device is expected


def test_bad_devices():
    with pytest.raises(pyasc.UnknownBackendError, match="unknown backend 'nmupy'.*Did you mean 'numpy'.*Known backends"):
        pyasc.zeros(2, device="nmupy")
    with pytest.raises(pyasc.PyascError, match="'numpy:1' does not exist.*1 device"):
        pyasc.zeros(2, device="numpy:1")
    with pytest.raises(pyasc.PyascError, match="bad index 'x'.*'name:N'"):
        pyasc.zeros(2, device="numpy:x")
    with pytest.raises(pyasc.PyascError, match="cannot use int 3 as a device.*'numpy'"):
        pyasc.tensor([1.0], device=3)


# ---------------------------------------------------------------------------------------------
# asarray and from_numpy: sharing memory
# ---------------------------------------------------------------------------------------------


def test_asarray_shares_numpy_memory():
    a = np.arange(4.0)
    t = pyasc.asarray(a)
    assert t.dtype == pyasc.float64
    assert np.shares_memory(t.numpy(), a)
    a[1] = -1.0
    assert t[1].item() == -1.0
    t[2] = 42.0
    assert a[2] == 42.0


def test_asarray_copy_false_shares_and_copy_true_does_not():
    a = np.arange(4, dtype=np.int32)
    assert np.shares_memory(pyasc.asarray(a, copy=False).numpy(), a)
    assert not np.shares_memory(pyasc.asarray(a, copy=True).numpy(), a)
    strided = a[::2]
    t = pyasc.asarray(strided, copy=False)
    assert np.shares_memory(t.numpy(), a) and t.tolist() == [0, 2]


def test_asarray_dtype_change_copies():
    a = np.arange(4.0)
    t = pyasc.asarray(a, dtype="float32")
    assert t.dtype == pyasc.float32 and not np.shares_memory(t.numpy(), a)
    same = pyasc.asarray(a, dtype="float64")
    assert np.shares_memory(same.numpy(), a)


@pytest.mark.parametrize(
    ("make", "where"),
    [
        (lambda: pyasc.asarray([1.0, 2.0], copy=False), "on numpy"),
        (lambda: pyasc.asarray(np.arange(3.0), dtype="float32", copy=False), "on numpy"),
        (lambda: pyasc.asarray(np.arange(3.0), device="meta", copy=False), "on meta"),
    ],
    ids=["list", "dtype_change", "meta_device"],
)
def test_asarray_copy_false_errors(make, where):
    with pytest.raises(pyasc.PyascError) as exc:
        make()
    msg = str(exc.value)
    assert "asarray(copy=False) cannot share" in msg and where in msg
    assert "drop copy=False" in msg


def test_asarray_of_tensor():
    t = pyasc.tensor([1.0, 2.0])
    assert pyasc.asarray(t) is t
    assert pyasc.asarray(t, copy=False) is t
    assert pyasc.asarray(t, device="numpy") is t
    c = pyasc.asarray(t, copy=True)
    assert c is not t and not np.shares_memory(c.numpy(), t.numpy())
    h = pyasc.asarray(t, dtype="float16")
    assert h.dtype == pyasc.float16 and t.dtype == pyasc.float32
    with pytest.raises(pyasc.PyascError, match=r"asarray\(copy=False\) cannot avoid a copy here \(device or dtype change\)"):
        pyasc.asarray(t, dtype="float16", copy=False)
    m = pyasc.asarray(t, device="meta")
    assert m.device is META and m.shape == (2,)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=name)
def test_from_numpy_shares_memory_every_dtype(dtype):
    a = np.arange(6).reshape(3, 2).astype(dtype)
    t = pyasc.from_numpy(a)
    assert t.dtype == dtype and t.shape == (3, 2)
    assert np.shares_memory(t.numpy(), a)
    a[0, 0] = np.ones((), dtype)
    assert t[0, 0].item() == np.ones((), dtype).item()


def test_from_numpy_non_contiguous_view():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    t = pyasc.from_numpy(a.T)
    assert t.shape == (4, 3)
    assert_array_equal(t.numpy(), a.T)
    t[0, 1] = -1.0
    assert a[1, 0] == -1.0


def test_from_numpy_to_meta_keeps_shape():
    t = pyasc.from_numpy(np.zeros((2, 5), np.int16), device="meta")
    assert (t.device, t.shape, t.dtype) == (META, (2, 5), pyasc.int16)


# ---------------------------------------------------------------------------------------------
# empty / zeros / ones / full
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("shape_args", [(2, 3), ((2, 3),), ([2, 3],), (np.int64(2), 3)], ids=str)
def test_shape_spellings(shape_args):
    for fn in (pyasc.empty, pyasc.zeros, pyasc.ones):
        t = fn(*shape_args)
        assert t.shape == (2, 3) and t.dtype == pyasc.float32


def test_scalar_and_empty_shapes():
    assert pyasc.zeros(()).shape == ()
    assert pyasc.zeros().shape == ()
    assert pyasc.ones(0).shape == (0,)
    assert pyasc.ones(3, 0).size == 0


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=name)
def test_zeros_ones_empty_every_dtype(dtype):
    z = pyasc.zeros(2, 2, dtype=dtype)
    o = pyasc.ones((2, 2), dtype=dtype)
    e = pyasc.empty(4, dtype=dtype)
    assert z.dtype == o.dtype == e.dtype == dtype
    assert e.shape == (4,)
    assert_array_equal(f32(z.numpy()), np.zeros((2, 2)))
    assert_array_equal(f32(o.numpy()), np.ones((2, 2)))


@pytest.mark.parametrize(
    ("value", "dtype"),
    [(2.5, "float32"), (7, "int64"), (True, "bool"), (np.float64(2.5), "float32"),
     (np.int32(3), "int64"), (np.bool_(False), "bool")],
    ids=repr,
)
def test_full_infers_dtype_from_the_value(value, dtype):
    t = pyasc.full((2, 2), value)
    assert t.dtype == pyasc.dtype(dtype)
    assert_array_equal(t.numpy(), np.full((2, 2), value, dtype=dtype))


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=name)
def test_full_with_dtype(dtype):
    t = pyasc.full(3, 1, dtype=dtype)
    assert t.dtype == dtype and t.shape == (3,)
    assert_array_equal(f32(t.numpy()), [1.0, 1.0, 1.0])
    assert pyasc.full((), 2, dtype=dtype).shape == ()


def test_full_converts_value_to_dtype():
    assert pyasc.full((2,), 1.9, dtype="int32").tolist() == [1, 1]
    assert_array_equal(f32(pyasc.full(2, 0.1, dtype="bfloat16").numpy()),
                       f32(np.full(2, 0.1, dtype=BF16)))


# ---------------------------------------------------------------------------------------------
# *_like
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=name)
def test_like_forms_copy_shape_dtype_device(dtype):
    src = pyasc.ones(2, 3, dtype=dtype)
    for t in (pyasc.zeros_like(src), pyasc.ones_like(src), pyasc.empty_like(src), pyasc.full_like(src, 1)):
        assert (t.shape, t.dtype, t.device) == ((2, 3), dtype, NUMPY)
        assert t is not src and not np.shares_memory(t.numpy(), src.numpy())
    assert_array_equal(f32(pyasc.zeros_like(src).numpy()), np.zeros((2, 3)))
    assert_array_equal(f32(pyasc.ones_like(src).numpy()), np.ones((2, 3)))


def test_like_forms_override_dtype_and_device():
    src = pyasc.zeros(4, dtype="int8")
    assert pyasc.ones_like(src, dtype="float16").dtype == pyasc.float16
    f = pyasc.full_like(src, 2.7)
    assert f.dtype == pyasc.int8 and f.tolist() == [2, 2, 2, 2]  # the source's dtype wins
    g = pyasc.full_like(src, np.float32(1.5), dtype="float32")
    assert g.tolist() == [1.5] * 4
    m = pyasc.zeros_like(src, device="meta")
    assert (m.device, m.shape, m.dtype) == (META, (4,), pyasc.int8)
    with pyasc.using_backend("meta"):
        meta_src = pyasc.ones(2)
    back = pyasc.ones_like(meta_src, device="numpy")
    assert back.device is NUMPY and back.tolist() == [1.0, 1.0]
    assert pyasc.ones_like(meta_src).device is META  # default: the source's device


# ---------------------------------------------------------------------------------------------
# arange
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "kwargs", "dtype"),
    [
        ((5,), {}, "int64"),
        ((1, 5), {}, "int64"),
        ((1, 10, 3), {}, "int64"),
        ((5, 0, -1), {}, "int64"),
        ((5.0,), {}, "float32"),
        ((0, 1, 0.25), {}, "float32"),
        ((np.float64(3.0),), {}, "float32"),
        ((np.int32(4),), {}, "int64"),
        ((0, 4), {"dtype": "float16"}, "float16"),
        ((0, 4), {"dtype": "bfloat16"}, "bfloat16"),
        ((0, 4), {"dtype": "int8"}, "int8"),
        ((0, 3), {"dtype": "float64"}, "float64"),
        ((3, 3), {}, "int64"),
    ],
    ids=lambda v: repr(v),
)
def test_arange(args, kwargs, dtype):
    t = pyasc.arange(*args, **kwargs)
    assert t.dtype == pyasc.dtype(dtype)
    expected = np.arange(*[float(a) if isinstance(a, np.floating) else a for a in args])
    assert_array_equal(f32(t.numpy()), f32(expected))


def test_arange_float_step_count_matches_numpy():
    assert pyasc.arange(0, 1, 0.1).shape == np.arange(0, 1, 0.1).shape


# ---------------------------------------------------------------------------------------------
# Bad inputs: the error class and a message naming the value and the fix
# ---------------------------------------------------------------------------------------------


def _raises(cls, fn, *fragments):
    with pytest.raises(cls) as exc:
        fn()
    assert isinstance(exc.value, pyasc.PyascError)
    msg = str(exc.value)
    for frag in fragments:
        assert frag in msg, f"{frag!r} not in {msg!r}"
    return msg


def test_ragged_lists_are_shape_errors():
    _raises(pyasc.ShapeError, lambda: pyasc.tensor([[1, 2], [3]]),
            "cannot make a tensor from this data", "inhomogeneous", "rows must have equal lengths")
    _raises(pyasc.ShapeError, lambda: pyasc.asarray([[1.0], [2.0, 3.0]]), "rows must have equal lengths")


@pytest.mark.parametrize(
    ("data", "shown"),
    [(["a", "b"], "<U1"), ("abc", "<U3"), ([1j, 2], "complex128"), (None, "object"),
     ({1: 2}, "object"), (object(), "object")],
    ids=["str_list", "str", "complex", "None", "dict", "object"],
)
def test_unsupported_data_is_a_dtype_error(data, shown):
    msg = _raises(pyasc.DtypeError, lambda: pyasc.tensor(data), f"NumPy dtype {shown}")
    assert "give numbers, bools or arrays of a supported dtype" in msg


@pytest.mark.parametrize(
    "make",
    [
        lambda: pyasc.tensor(np.zeros(2, np.uint16)),
        lambda: pyasc.asarray(np.zeros(2, np.uint16)),
        lambda: pyasc.from_numpy(np.zeros(2, np.uint16)),
    ],
    ids=["tensor", "asarray", "from_numpy"],
)
def test_uint16_arrays_are_dtype_errors(make):
    msg = _raises(pyasc.DtypeError, make, "dtype uint16 is not supported by pyasc")
    assert "float32" in msg and "astype('float32')" in msg


@pytest.mark.parametrize(
    ("make", "fragments"),
    [
        (lambda: pyasc.tensor([1], dtype="uint16"), ["unknown dtype name 'uint16'", "Did you mean 'int16'"]),
        (lambda: pyasc.zeros(2, dtype="complex64"), ["unknown dtype name 'complex64'", "pyasc supports bool"]),
        (lambda: pyasc.ones(2, dtype=np.complex64), ["dtype complex64 is not supported", "astype('float32')"]),
        (lambda: pyasc.full((2,), 1, dtype=np.uint32), ["dtype uint32 is not supported", "use one of"]),
        (lambda: pyasc.arange(3, dtype="uint16"), ["unknown dtype name 'uint16'"]),
        (lambda: pyasc.from_numpy(np.zeros(2, np.complex64)), ["dtype complex64 is not supported"]),
        (lambda: pyasc.from_numpy(np.zeros(2, ">f4")), ["float32 in non-native byte order", "newbyteorder('=')"]),
    ],
    ids=["tensor_name", "zeros_name", "ones_type", "full_type", "arange_name", "from_numpy_complex",
         "from_numpy_byteorder"],
)
def test_bad_dtypes(make, fragments):
    _raises(pyasc.DtypeError, make, *fragments)


@pytest.mark.parametrize(
    ("make", "shown"),
    [
        (lambda: pyasc.zeros(-1), "(-1,)"),
        (lambda: pyasc.ones((2, -3)), "(2, -3)"),
        (lambda: pyasc.empty(2, -1), "(2, -1)"),
        (lambda: pyasc.full((-2,), 1.0), "(-2,)"),
    ],
    ids=["zeros", "ones", "empty", "full"],
)
def test_negative_shapes_are_shape_errors(make, shown):
    _raises(pyasc.ShapeError, make, f"shape {shown} has a negative dimension", "must be >= 0")


@pytest.mark.parametrize(
    ("make", "shown"),
    [
        (lambda: pyasc.zeros("3"), "'3'"),
        (lambda: pyasc.zeros(2.5), "2.5"),
        (lambda: pyasc.ones(2, 3.0), "(2, 3.0)"),
        (lambda: pyasc.empty(None), "None"),
        (lambda: pyasc.zeros(True), "(True,)"),
        (lambda: pyasc.full((2, True), 1), "(2, True)"),
    ],
    ids=["str", "float", "float_dim", "None", "bool", "bool_dim"],
)
def test_bad_shapes_are_argument_errors(make, shown):
    _raises(pyasc.ArgumentError, make, "a shape must be an int or a sequence of ints", f"got {shown}")


def test_bad_fill_values():
    _raises(pyasc.ArgumentError, lambda: pyasc.full((2,), "x"),
            "full() needs a number or bool as fill_value", "got str 'x'", "pass e.g.")
    _raises(pyasc.ArgumentError, lambda: pyasc.full((2,), 1 + 2j), "got complex")
    _raises(pyasc.ArgumentError, lambda: pyasc.full_like(pyasc.zeros(2), "a"),
            "full_like() needs a number or bool as fill_value", "got str 'a'")
    _raises(pyasc.ArgumentError, lambda: pyasc.full_like(pyasc.zeros(2), None), "got NoneType None")


@pytest.mark.parametrize(
    ("value", "dtype"), [(300, "uint8"), (-1, "uint8"), (200, "int8"), (2**40, "int32")], ids=str
)
def test_fill_value_out_of_range_for_dtype(value, dtype):
    _raises(pyasc.ArgumentError, lambda: pyasc.full((2,), value, dtype=dtype),
            f"fill value {value} does not fit in dtype {dtype}", "wider dtype")
    _raises(pyasc.ArgumentError, lambda: pyasc.full_like(pyasc.zeros(2, dtype=dtype), value),
            f"fill value {value} does not fit in dtype {dtype}")


def test_like_forms_need_a_tensor():
    for fn in (pyasc.zeros_like, pyasc.ones_like, pyasc.empty_like):
        _raises(pyasc.ArgumentError, lambda fn=fn: fn([1, 2]), "take a pyasc.Tensor, got list")
    _raises(pyasc.ArgumentError, lambda: pyasc.full_like(np.zeros(2), 1.0), "got ndarray")


def test_from_numpy_needs_an_ndarray():
    _raises(pyasc.ArgumentError, lambda: pyasc.from_numpy([1, 2]),
            "from_numpy expects a numpy.ndarray, got list", "pyasc.tensor(...)")


@pytest.mark.parametrize(
    ("make", "fragments"),
    [
        (lambda: pyasc.arange(0, 5, 0), ["step must not be 0", "positive or negative step"]),
        (lambda: pyasc.arange(0, 5, 0.0), ["step must not be 0"]),
        (lambda: pyasc.arange("a"), ["stop must be a number, got str 'a'"]),
        (lambda: pyasc.arange(0, None, "x"), ["step must be a number, got str 'x'"]),
        (lambda: pyasc.arange(True), ["stop must be a number, got bool True"]),
        (lambda: pyasc.arange([1, 2]), ["must be a number, got list"]),
        (lambda: pyasc.arange(float("inf")), ["stop must be finite, got inf"]),
        (lambda: pyasc.arange(float("nan"), 3), ["start must be finite, got nan"]),
        (lambda: pyasc.arange(0, 1e30, 1e-30), ["cannot be made", "fewer elements"]),
        (lambda: pyasc.arange(2**70), ["arange(0, 1180591620717411303424, 1) cannot be made"]),
        (lambda: pyasc.arange(0, 2**70, 2**69), ["cannot be made"]),
    ],
    ids=["step0", "step0.0", "str_stop", "str_step", "bool", "list", "inf", "nan", "too_many",
         "huge_int", "huge_int_step"],
)
def test_arange_bad_arguments(make, fragments):
    _raises(pyasc.ArgumentError, make, *fragments)


def test_errors_are_also_builtin_exceptions():
    # code written against NumPy conventions keeps catching them
    with pytest.raises(ValueError):
        pyasc.tensor([[1], [2, 3]])
    with pytest.raises(TypeError):
        pyasc.tensor(["a"])
    with pytest.raises(TypeError):
        pyasc.zeros("3")
