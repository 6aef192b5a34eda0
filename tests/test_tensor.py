"""pyasc.Tensor: attributes, repr, NumPy conversion, moves and casts, Python protocols, indexing,
operators with broadcasting and type promotion, all dtypes, and the meta device."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

import pyasc
from pyasc_core import dtypes as pdt

# these tests are about host (numpy-backend) tensors; the default backend is sim when available
pytestmark = pytest.mark.usefixtures("numpy_backend")

BF16 = np.dtype(ml_dtypes.bfloat16)

ALL_DTYPES = [
    pyasc.bool_, pyasc.uint8, pyasc.int8, pyasc.int16, pyasc.int32, pyasc.int64,
    pyasc.float16, pyasc.bfloat16, pyasc.float32, pyasc.float64,
]
FLOATS = [pyasc.float16, pyasc.bfloat16, pyasc.float32, pyasc.float64]
INTS = [pyasc.uint8, pyasc.int8, pyasc.int16, pyasc.int32, pyasc.int64]
NUMERIC = INTS + FLOATS
ITEMSIZE = {"bool": 1, "uint8": 1, "int8": 1, "int16": 2, "int32": 4, "int64": 8,
            "float16": 2, "bfloat16": 2, "float32": 4, "float64": 8}


def name(dt) -> str:
    return pdt.dtype_name(np.dtype(dt))


def sample(dtype, shape=(2, 3)) -> np.ndarray:
    """Small exact values representable in every dtype (bool: alternating)."""
    n = int(np.prod(shape))
    if np.dtype(dtype) == np.bool_:
        return (np.arange(n) % 2 == 0).reshape(shape)
    return (np.arange(n) + 1).astype(dtype).reshape(shape)


def f32(a) -> np.ndarray:
    return np.asarray(a).astype(np.float32)


# ---------------------------------------------------------------------------------------------
# Attributes
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=name)
def test_attributes_every_dtype(dtype):
    t = pyasc.tensor(sample(dtype, (2, 3, 4)), dtype=dtype)
    assert t.shape == (2, 3, 4)
    assert isinstance(t.shape, tuple)
    assert t.dtype == dtype
    assert t.ndim == 3
    assert t.size == 24
    assert t.itemsize == ITEMSIZE[name(dtype)]
    assert t.nbytes == 24 * ITEMSIZE[name(dtype)]
    assert t.device == pyasc.Device("numpy")
    assert t.device is pyasc.Device("numpy")  # interned
    assert str(t.device) == "numpy"


def test_attributes_of_scalar_and_empty_tensors():
    s = pyasc.tensor(3.5)
    assert (s.shape, s.ndim, s.size, s.nbytes) == ((), 0, 1, 4)
    e = pyasc.zeros(0, 4)
    assert (e.shape, e.ndim, e.size, e.nbytes) == ((0, 4), 2, 0, 0)


def test_tensor_constructor_is_pyasc_tensor():
    t = pyasc.Tensor([1.0, 2.0])
    assert type(t) is pyasc.Tensor
    assert t.dtype == pyasc.float32
    assert_array_equal(t.numpy(), [1.0, 2.0])
    assert pyasc.Tensor([1, 2], dtype="int8").dtype == pyasc.int8


# ---------------------------------------------------------------------------------------------
# repr
# ---------------------------------------------------------------------------------------------


def test_repr_shows_values_dtype_and_device():
    t = pyasc.tensor([[1.0, 2.0], [3.0, 4.5]])
    r = repr(t)
    assert r.startswith("tensor([[1. , 2. ],")
    assert "[3. , 4.5]]" in r
    assert r.endswith("dtype=float32, device='numpy')")


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=name)
def test_repr_names_every_dtype(dtype):
    r = repr(pyasc.tensor(sample(dtype, (2,)), dtype=dtype))
    assert f"dtype={name(dtype)}," in r
    assert r.startswith("tensor([")


def test_repr_of_bool_scalar_and_large_tensor():
    assert repr(pyasc.tensor(True)) == "tensor(True, dtype=bool, device='numpy')"
    assert repr(pyasc.tensor(2.5)) == "tensor(2.5, dtype=float32, device='numpy')"
    big = repr(pyasc.arange(1000))
    assert "..." in big and "999" in big and len(big) < 200  # summarised, not 1000 numbers


def test_repr_of_bfloat16_shows_values():
    assert repr(pyasc.tensor([1.5, -2.0], dtype="bfloat16")) == (
        "tensor([1.5, -2], dtype=bfloat16, device='numpy')"
    )


# ---------------------------------------------------------------------------------------------
# .numpy() and __array__
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=name)
def test_numpy_shares_memory_on_numpy_backend(dtype):
    t = pyasc.tensor(sample(dtype), dtype=dtype)
    a = t.numpy()
    assert isinstance(a, np.ndarray)
    assert a.dtype == dtype and a.shape == (2, 3)
    assert t.numpy() is a or np.shares_memory(t.numpy(), a)
    # write through NumPy, read through pyasc
    new = np.zeros((), dtype)
    a[1, 2] = new
    assert t[1, 2].item() == new.item()
    # and the other way
    t[0, 0] = pyasc.tensor(sample(dtype, (1,))[0].item(), dtype=dtype)
    assert a[0, 0] == sample(dtype, (1,))[0]


def test_array_protocol_with_and_without_dtype():
    t = pyasc.tensor([1.0, 2.0, 3.0])
    a = np.asarray(t)
    assert a.dtype == np.float32
    assert np.shares_memory(a, t.numpy())
    same = np.asarray(t, dtype=np.float32)
    assert np.shares_memory(same, t.numpy())
    d = np.asarray(t, dtype=np.float64)
    assert d.dtype == np.float64 and not np.shares_memory(d, t.numpy())
    assert_array_equal(d, [1.0, 2.0, 3.0])
    i = np.asarray(t, dtype=np.int16)
    assert i.dtype == np.int16 and i.tolist() == [1, 2, 3]
    c = np.array(t)  # np.array copies by default
    assert not np.shares_memory(c, t.numpy())
    assert_array_equal(c, t.numpy())


def test_array_protocol_copy_false():
    t = pyasc.tensor([1.0, 2.0])
    a = np.array(t, copy=False)
    assert np.shares_memory(a, t.numpy())
    with pytest.raises(pyasc.PyascError, match="without a copy.*drop copy=False"):
        np.array(t, dtype=np.float64, copy=False)


def test_array_protocol_bfloat16():
    t = pyasc.tensor([1.5, 2.5], dtype="bfloat16")
    a = np.asarray(t)
    assert a.dtype == BF16 and np.shares_memory(a, t.numpy())
    assert_array_equal(np.asarray(t, dtype=np.float32), [1.5, 2.5])


# ---------------------------------------------------------------------------------------------
# .to / .astype / .clone
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["numpy", "reference", pyasc.Device("numpy")], ids=str)
def test_to_same_device_returns_self(spec):
    t = pyasc.tensor([1.0, 2.0])
    assert t.to(spec) is t


@pytest.mark.parametrize(
    "spec", ["float16", pyasc.float16, np.float16, np.dtype("float16"), "half"], ids=str
)
def test_to_dtype_accepts_every_spelling(spec):
    t = pyasc.tensor([1.5, -2.0])
    out = t.to(spec)
    assert out.dtype == pyasc.float16 and out.device is t.device
    assert_array_equal(out.numpy(), np.array([1.5, -2.0], np.float16))
    assert t.dtype == pyasc.float32  # the source is unchanged


def test_to_python_types_map_to_defaults():
    t = pyasc.tensor([1.7, 0.0])
    assert t.to(float).dtype == pyasc.float32
    assert t.to(int).dtype == pyasc.int64
    assert t.to(bool).dtype == pyasc.bool_
    assert t.to(bool).tolist() == [True, False]
    assert t.to(int).tolist() == [1, 0]  # float -> int truncates toward zero


def test_to_same_dtype_returns_self_and_none_is_a_no_op():
    t = pyasc.tensor([1.0])
    assert t.to("float32") is t
    assert t.to(None) is t
    assert t.to(None, "float16").dtype == pyasc.float16


def test_to_device_and_dtype_together():
    t = pyasc.tensor([1.0, 2.0])
    out = t.to("numpy", "bfloat16")
    assert out.dtype == pyasc.bfloat16 and out.device is pyasc.Device("numpy")
    assert_array_equal(f32(out.numpy()), [1.0, 2.0])
    m = t.to("meta", "float16")
    assert m.device is pyasc.Device("meta")
    assert (m.shape, m.dtype) == ((2,), pyasc.float16)


def test_to_meta_keeps_shape_and_dtype_but_drops_data():
    t = pyasc.tensor(np.arange(6, dtype=np.int32).reshape(2, 3))
    m = t.to("meta")
    assert m.device is pyasc.Device("meta")
    assert (m.shape, m.dtype) == ((2, 3), pyasc.int32)
    with pytest.raises(pyasc.PyascError, match="no data"):
        m.to("numpy")


def test_to_copy_true_makes_a_new_buffer():
    t = pyasc.tensor([1.0, 2.0])
    c = t.to(copy=True)
    assert c is not t and not np.shares_memory(c.numpy(), t.numpy())
    assert_array_equal(c.numpy(), t.numpy())


def test_to_bad_arguments():
    t = pyasc.tensor([1.0])
    with pytest.raises(pyasc.UnknownBackendError, match="unknown backend 'nump'.*Did you mean 'numpy'"):
        t.to("nump")
    with pytest.raises(pyasc.DtypeError, match="uint16 is not supported"):
        t.to(np.uint16)
    with pytest.raises(pyasc.PyascError, match="'numpy:1' does not exist"):
        t.to("numpy:1")


@pytest.mark.parametrize("src", ALL_DTYPES, ids=name)
@pytest.mark.parametrize("dst", ALL_DTYPES, ids=name)
def test_astype_between_all_dtypes(src, dst):
    data = sample(src, (4,))
    t = pyasc.tensor(data, dtype=src)
    out = t.astype(dst)
    assert out.dtype == dst and out.shape == (4,)
    expected = data.astype(dst)
    assert_array_equal(f32(out.numpy()) if dst == BF16 else out.numpy(),
                       f32(expected) if dst == BF16 else expected)


def test_astype_float_to_int_truncates_and_bool_is_nonzero():
    t = pyasc.tensor([-1.7, -0.2, 0.0, 0.9, 2.5])
    assert t.astype("int32").tolist() == [-1, 0, 0, 0, 2]
    assert t.astype("bool").tolist() == [True, True, False, True, True]


def test_clone_is_independent():
    t = pyasc.tensor([[1, 2], [3, 4]], dtype="int16")
    c = t.clone()
    assert c is not t
    assert (c.dtype, c.shape, c.device) == (t.dtype, t.shape, t.device)
    assert not np.shares_memory(c.numpy(), t.numpy())
    c[0, 0] = 100
    assert t[0, 0].item() == 1
    assert c[0, 0].item() == 100


def test_astype_rejects_unknown_dtype_with_suggestion():
    with pytest.raises(pyasc.DtypeError, match=r"unknown dtype name 'flaot32'.*Did you mean 'float32'"):
        pyasc.tensor([1.0]).astype("flaot32")


# ---------------------------------------------------------------------------------------------
# Python protocols: item, float, int, bool, index, len, iter, tolist
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=name)
def test_item_returns_a_python_scalar(dtype):
    value = True if dtype == np.bool_ else 3
    t = pyasc.tensor([[value]], dtype=dtype)
    got = t.item()
    expected_type = bool if dtype == np.bool_ else (int if dtype in INTS else float)
    assert type(got) is expected_type
    assert got == value


def test_item_needs_one_element():
    with pytest.raises(pyasc.PyascError, match=r"exactly one element.*shape \(2,\).*t\[0\]\.item\(\)"):
        pyasc.tensor([1.0, 2.0]).item()


def test_float_int_bool_conversions():
    assert float(pyasc.tensor(2.5)) == 2.5
    assert int(pyasc.tensor(-2.7)) == -2
    assert int(pyasc.tensor([7], dtype="int8")) == 7
    assert bool(pyasc.tensor([0.0])) is False
    assert bool(pyasc.tensor(3)) is True
    assert float(pyasc.tensor([1.5], dtype="bfloat16")) == 1.5
    with pytest.raises(pyasc.PyascError, match="truth value of a tensor with 2 elements is ambiguous"):
        bool(pyasc.tensor([1.0, 2.0]))
    with pytest.raises(pyasc.PyascError, match="exactly one element"):
        float(pyasc.tensor([1.0, 2.0]))


def test_index_protocol_for_integer_tensors_only():
    assert [10, 20, 30][pyasc.tensor(1)] == 20
    assert list(range(pyasc.tensor(3, dtype="int8"))) == [0, 1, 2]
    with pytest.raises(pyasc.DtypeError, match="only integer tensors can be used as an index, got float32"):
        [1, 2][pyasc.tensor(0.0)]


def test_len_and_iter():
    t = pyasc.tensor([[1, 2], [3, 4], [5, 6]])
    assert len(t) == 3
    rows = list(t)
    assert len(rows) == 3
    assert all(type(r) is pyasc.Tensor and r.shape == (2,) for r in rows)
    assert [r.tolist() for r in rows] == [[1, 2], [3, 4], [5, 6]]
    assert [x.item() for x in pyasc.tensor([4.0, 5.0])] == [4.0, 5.0]
    with pytest.raises(TypeError, match="len\\(\\) of a 0-d tensor"):
        len(pyasc.tensor(1.0))
    with pytest.raises(TypeError, match="iteration over a 0-d tensor"):
        iter(pyasc.tensor(1.0)).__next__()


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=name)
def test_tolist_gives_python_scalars(dtype):
    data = sample(dtype, (2, 2))
    out = pyasc.tensor(data, dtype=dtype).tolist()
    assert out == data.astype(np.float64 if dtype == BF16 else dtype).tolist()
    assert isinstance(out, list) and isinstance(out[0], list)
    assert type(out[0][0]) in (bool, int, float)


# ---------------------------------------------------------------------------------------------
# Indexing
# ---------------------------------------------------------------------------------------------

A = np.arange(24, dtype=np.float32).reshape(2, 3, 4)

KEYS = {
    "int": 1,
    "negative": -1,
    "pair": (1, 2),
    "triple_negative": (-1, -2, -3),
    "slice": slice(0, 1),
    "slice_step": (slice(None), slice(None, None, 2)),
    "negative_step": (Ellipsis, slice(None, None, -1)),
    "ellipsis_last": (Ellipsis, 0),
    "ellipsis_middle": (0, Ellipsis, 3),
    "newaxis": (None, 1),
    "newaxis_middle": (slice(None), None, 0),
    "empty_slice": slice(5, 10),
}


@pytest.mark.parametrize("key", list(KEYS.values()), ids=list(KEYS))
def test_basic_indexing_matches_numpy_and_returns_tensors(key):
    t = pyasc.tensor(A)
    out = t[key]
    assert type(out) is pyasc.Tensor
    assert out.device is t.device and out.dtype == t.dtype
    assert_array_equal(out.numpy(), A[key])
    assert out.shape == A[key].shape


def test_scalar_index_gives_a_0d_tensor():
    t = pyasc.tensor(A)
    out = t[1, 2, 3]
    assert type(out) is pyasc.Tensor and out.shape == () and out.item() == 23.0


def test_basic_slices_are_views():
    t = pyasc.tensor(A)
    row = t[0, 1]
    row[0] = -5.0
    assert t[0, 1, 0].item() == -5.0
    assert np.shares_memory(t[:, ::2].numpy(), t.numpy())


def test_bool_mask_tensor():
    t = pyasc.tensor([[1.0, -2.0], [-3.0, 4.0]])
    mask = t > 0.0
    assert mask.dtype == pyasc.bool_
    out = t[mask]
    assert type(out) is pyasc.Tensor
    assert_array_equal(out.numpy(), [1.0, 4.0])
    rows = t[pyasc.tensor([False, True])]
    assert_array_equal(rows.numpy(), [[-3.0, 4.0]])
    with pytest.raises(pyasc.IndexingError, match="boolean index did not match"):
        t[pyasc.tensor([True, False, True])]


def test_integer_array_tensors():
    t = pyasc.tensor(A)
    idx = pyasc.tensor([2, 0, 2])
    assert_array_equal(t[1, idx].numpy(), A[1, [2, 0, 2]])
    assert_array_equal(t[:, :, pyasc.tensor([-1, 0], dtype="int8")].numpy(), A[:, :, [-1, 0]])
    both = t[pyasc.tensor([0, 1]), pyasc.tensor([2, 0])]
    assert_array_equal(both.numpy(), A[[0, 1], [2, 0]])
    # advanced indexing copies
    got = t[pyasc.tensor([0])]
    got[0, 0, 0] = 99.0
    assert t[0, 0, 0].item() == 0.0


@pytest.mark.parametrize(
    ("key", "message"),
    [
        (2, "index 2 is out of bounds for axis 0 with size 2"),
        (-3, "index -3 is out of bounds for axis 0 with size 2"),
        ((0, 3), "index 3 is out of bounds for axis 1 with size 3"),
        ((0, 0, 4), "index 4 is out of bounds for axis 2 with size 4"),
        ((0, 0, 0, 0), "too many indices"),
    ],
    ids=["axis0", "negative", "axis1", "axis2", "too_many"],
)
def test_out_of_range_index_is_an_indexing_error(key, message):
    t = pyasc.tensor(A)
    with pytest.raises(pyasc.IndexingError) as exc:
        t[key]
    assert message in str(exc.value)
    assert "tensor shape (2, 3, 4)" in str(exc.value)
    assert isinstance(exc.value, IndexError)  # NumPy-style code keeps working


def test_out_of_range_int_array_index():
    with pytest.raises(pyasc.IndexingError, match="index 5 is out of bounds"):
        pyasc.tensor([1.0, 2.0])[pyasc.tensor([0, 5])]


@pytest.mark.parametrize("key", [1.5, "a", pyasc.tensor([1.0])], ids=["float", "str", "float_tensor"])
def test_malformed_index_is_an_indexing_error(key):
    with pytest.raises(pyasc.IndexingError, match=r"(only integers|integer \(or boolean\) type)"):
        pyasc.tensor([1.0, 2.0, 3.0])[key]


# ---------------------------------------------------------------------------------------------
# __setitem__
# ---------------------------------------------------------------------------------------------


def test_setitem_scalars_slices_and_broadcast():
    t = pyasc.zeros(3, 4)
    t[0] = 1.0
    t[1, 1:3] = 2
    t[:, -1] = pyasc.tensor([7.0, 8.0, 9.0])
    t[2, :2] = np.array([5.0, 6.0])
    t[..., 0] += 0  # a no-op read-modify-write through operators keeps the values
    expected = np.zeros((3, 4), np.float32)
    expected[0] = 1
    expected[1, 1:3] = 2
    expected[:, -1] = [7, 8, 9]
    expected[2, :2] = [5, 6]
    assert_array_equal(t.numpy(), expected)


def test_setitem_with_mask_and_int_array():
    t = pyasc.tensor([1.0, -2.0, 3.0, -4.0])
    t[t < 0.0] = 0.0
    assert t.tolist() == [1.0, 0.0, 3.0, 0.0]
    t[pyasc.tensor([0, 2])] = pyasc.tensor([10.0, 30.0])
    assert t.tolist() == [10.0, 0.0, 30.0, 0.0]


def test_setitem_casts_to_the_tensor_dtype():
    t = pyasc.zeros(2, dtype="int32")
    t[0] = 2.9
    t[1] = pyasc.tensor(-1.5)
    assert t.dtype == pyasc.int32
    assert t.tolist() == [2, -1]
    b = pyasc.zeros(2, dtype="bfloat16")
    b[1] = 1.5
    assert_array_equal(f32(b.numpy()), [0.0, 1.5])


def test_setitem_errors():
    t = pyasc.zeros(3)
    with pytest.raises(pyasc.IndexingError, match="index 3 is out of bounds.*tensor shape \\(3,\\)"):
        t[3] = 1.0
    with pytest.raises(pyasc.ShapeError, match="could not broadcast input array from shape \\(2,\\) into shape \\(3,\\)"):
        t[:] = pyasc.tensor([1.0, 2.0])
    with pytest.raises(pyasc.DeviceMismatchError, match="tensor on meta into a tensor on numpy.*value.to\\('numpy'\\)"):
        t[0] = pyasc.zeros(1, device="meta")
    assert t.tolist() == [0.0, 0.0, 0.0]  # failed assignments changed nothing


# ---------------------------------------------------------------------------------------------
# Operators
# ---------------------------------------------------------------------------------------------

X = np.array([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]], np.float32)
Y = np.array([[2.0, 4.0, -1.0], [0.5, 2.0, 3.0]], np.float32)

BINOPS = {
    "add": (lambda a, b: a + b, np.add),
    "sub": (lambda a, b: a - b, np.subtract),
    "mul": (lambda a, b: a * b, np.multiply),
    "div": (lambda a, b: a / b, np.true_divide),
    "pow": (lambda a, b: a ** b, np.power),
}
CMPOPS = {
    "eq": (lambda a, b: a == b, np.equal),
    "ne": (lambda a, b: a != b, np.not_equal),
    "lt": (lambda a, b: a < b, np.less),
    "le": (lambda a, b: a <= b, np.less_equal),
    "gt": (lambda a, b: a > b, np.greater),
    "ge": (lambda a, b: a >= b, np.greater_equal),
}


@pytest.mark.parametrize("op", list(BINOPS), ids=str)
def test_binary_operators_tensor_tensor(op):
    fn, ref = BINOPS[op]
    y = np.abs(Y) if op == "pow" else Y
    out = fn(pyasc.tensor(X), pyasc.tensor(y))
    assert type(out) is pyasc.Tensor and out.dtype == pyasc.float32
    assert_allclose(out.numpy(), ref(X, y), rtol=1e-6)


@pytest.mark.parametrize("op", list(CMPOPS), ids=str)
def test_comparison_operators_give_bool_tensors(op):
    fn, ref = CMPOPS[op]
    b = X.copy()
    b[0, 0] = 0.0  # some equal, some not
    out = fn(pyasc.tensor(X), pyasc.tensor(b))
    assert type(out) is pyasc.Tensor and out.dtype == pyasc.bool_
    assert_array_equal(out.numpy(), ref(X, b))
    scalar = fn(pyasc.tensor(X), 3.0)
    assert_array_equal(scalar.numpy(), ref(X, np.float32(3.0)))


@pytest.mark.parametrize("op", list(BINOPS), ids=str)
@pytest.mark.parametrize("scalar", [2, 2.5], ids=["int", "float"])
def test_binary_operators_with_scalars_both_sides(op, scalar):
    fn, ref = BINOPS[op]
    x = np.abs(X) if op == "pow" else X
    t = pyasc.tensor(x)
    right = fn(t, scalar)
    left = fn(scalar, t)
    assert right.dtype == pyasc.float32 and left.dtype == pyasc.float32
    assert_allclose(right.numpy(), ref(x, np.float32(scalar)), rtol=1e-6)
    assert_allclose(left.numpy(), ref(np.float32(scalar), x), rtol=1e-6)


@pytest.mark.parametrize("op", list(BINOPS) + list(CMPOPS), ids=str)
def test_numpy_array_on_the_left_gives_a_tensor(op):
    fn, ref = {**BINOPS, **CMPOPS}[op]
    y = np.abs(Y) if op == "pow" else Y
    out = fn(y, pyasc.tensor(X))  # ndarray.__op__ defers to Tensor.__rop__
    assert type(out) is pyasc.Tensor
    assert out.device is pyasc.Device("numpy")
    assert_allclose(out.numpy(), ref(y, X), rtol=1e-6)
    right = fn(pyasc.tensor(X), y)
    assert type(right) is pyasc.Tensor
    assert_allclose(right.numpy(), ref(X, y), rtol=1e-6)


def test_numpy_float64_array_operand_promotes_like_a_tensor():
    out = np.array([1.0, 2.0]) + pyasc.tensor([1.0, 1.0])
    assert out.dtype == pyasc.float64  # an array is a tensor operand, not a weak scalar
    assert_array_equal(out.numpy(), [2.0, 3.0])


@pytest.mark.parametrize(
    "scalar",
    [np.float64(2.0), np.float32(2.0), np.float16(2.0), np.int64(2), np.int8(2)],
    ids=lambda s: type(s).__name__,
)
def test_numpy_scalars_are_weak_like_python_scalars(scalar):
    t = pyasc.tensor([1.0, 2.0], dtype="float16")
    for out in (t * scalar, scalar * t, t + scalar):
        assert type(out) is pyasc.Tensor
        assert out.dtype == pyasc.float16
    assert_array_equal((t * scalar).numpy(), np.array([2.0, 4.0], np.float16))
    assert_array_equal((scalar - t).numpy(), np.array([1.0, 0.0], np.float16))


def test_matmul_operator_and_reflected():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.arange(12, dtype=np.float32).reshape(3, 4)
    out = pyasc.tensor(a) @ pyasc.tensor(b)
    assert out.shape == (2, 4)
    assert_allclose(out.numpy(), a @ b)
    left = a @ pyasc.tensor(b)
    assert type(left) is pyasc.Tensor
    assert_allclose(left.numpy(), a @ b)
    v = pyasc.tensor([1.0, 2.0, 3.0])
    dot = v @ v
    assert dot.shape == () and dot.item() == 14.0
    batched = pyasc.tensor(np.ones((5, 2, 3), np.float32)) @ pyasc.tensor(b)
    assert batched.shape == (5, 2, 4)
    with pytest.raises(pyasc.ShapeError, match=r"matmul shapes \(2, 3\) and \(2, 3\) do not fit"):
        pyasc.tensor(a) @ pyasc.tensor(a)


def test_unary_operators():
    t = pyasc.tensor(X)
    assert_array_equal((-t).numpy(), -X)
    assert_array_equal(abs(t).numpy(), np.abs(X))
    assert (+t) is t
    i = pyasc.tensor([-3, 0, 4], dtype="int8")
    assert (-i).tolist() == [3, 0, -4] and (-i).dtype == pyasc.int8
    assert abs(i).tolist() == [3, 0, 4]
    b = pyasc.tensor([-1.5, 2.0], dtype="bfloat16")
    assert (-b).dtype == pyasc.bfloat16
    assert_array_equal(f32((-b).numpy()), [1.5, -2.0])
    with pytest.raises(pyasc.DtypeError, match="pyasc::neg argument 'x' has dtype uint8"):
        -pyasc.tensor([1], dtype="uint8")


def test_bad_operands_are_argument_errors():
    t = pyasc.tensor([1.0, 2.0])
    with pytest.raises(pyasc.ArgumentError, match="pyasc::add argument 'y'.*got str 'a'.*pyasc.tensor"):
        t + "a"
    with pytest.raises(pyasc.ArgumentError, match="pyasc::add argument 'y'.*got list"):
        t + [1.0, 2.0]
    with pytest.raises(pyasc.ArgumentError, match="pyasc::eq argument 'y'.*got NoneType None"):
        t == None  # noqa: E711
    with pytest.raises(TypeError):
        t // 2  # not defined: a plain Python TypeError


def test_integer_pow_and_division():
    i = pyasc.tensor([1, 2, 3], dtype="int32")
    sq = i ** 2
    assert sq.dtype == pyasc.int32 and sq.tolist() == [1, 4, 9]
    assert (2 ** i).tolist() == [2, 4, 8]
    half = i / 2
    assert half.dtype == pyasc.float32  # true division of ints gives the default float
    assert_array_equal(half.numpy(), [0.5, 1.0, 1.5])
    with pytest.raises(pyasc.ArgumentError, match="negative integer powers.*astype\\('float32'\\)"):
        i ** -1


def test_operators_do_not_modify_their_inputs():
    a, b = pyasc.tensor(X), pyasc.tensor(Y)
    for fn, _ in BINOPS.values():
        fn(a, b)
    assert_array_equal(a.numpy(), X)
    assert_array_equal(b.numpy(), Y)


# ---------------------------------------------------------------------------------------------
# Broadcasting
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sa", "sb"),
    [((2, 3), (3,)), ((2, 1), (1, 4)), ((4, 1, 3), (2, 1)), ((), (2, 2)), ((1,), (5,)), ((0, 3), (1, 3))],
    ids=str,
)
def test_broadcasting_matches_numpy(sa, sb):
    a = np.arange(int(np.prod(sa)), dtype=np.float32).reshape(sa)
    b = np.arange(int(np.prod(sb)), dtype=np.float32).reshape(sb) + 1
    out = pyasc.tensor(a) * pyasc.tensor(b)
    assert out.shape == np.broadcast_shapes(sa, sb)
    assert_array_equal(out.numpy(), a * b)
    rev = pyasc.tensor(b) - pyasc.tensor(a)
    assert_array_equal(rev.numpy(), b - a)


def test_shapes_that_do_not_broadcast_name_both_shapes():
    with pytest.raises(pyasc.ShapeError) as exc:
        pyasc.ones(2, 3) + pyasc.ones(4)
    msg = str(exc.value)
    assert msg.startswith("pyasc::add")
    assert "(2, 3) and (4,) do not broadcast" in msg
    assert "reshape" in msg


# ---------------------------------------------------------------------------------------------
# dtype promotion
# ---------------------------------------------------------------------------------------------

TENSOR_PAIRS = [
    ("float16", "bfloat16", "float32"),
    ("bfloat16", "float32", "float32"),
    ("float16", "float64", "float64"),
    ("float32", "float64", "float64"),
    ("uint8", "int8", "int16"),
    ("uint8", "int16", "int16"),
    ("uint8", "int64", "int64"),
    ("int8", "int32", "int32"),
    ("int16", "int64", "int64"),
    ("int32", "float16", "float16"),
    ("int64", "bfloat16", "bfloat16"),
    ("uint8", "float32", "float32"),
    ("int64", "float32", "float32"),
]


@pytest.mark.parametrize(("a", "b", "expected"), TENSOR_PAIRS, ids=lambda v: str(v))
def test_tensor_tensor_promotion(a, b, expected):
    assert pyasc.result_type(pyasc.dtype(a), pyasc.dtype(b)) == pyasc.dtype(expected)
    assert pyasc.result_type(pyasc.dtype(b), pyasc.dtype(a)) == pyasc.dtype(expected)
    x = pyasc.tensor([1, 2], dtype=a)
    y = pyasc.tensor([3, 4], dtype=b)
    for out in (x + y, y * x, x - y):
        assert out.dtype == pyasc.dtype(expected)
    assert_array_equal(f32((x + y).numpy()), [4.0, 6.0])
    assert (x == y).dtype == pyasc.bool_


@pytest.mark.parametrize(
    ("dtype", "scalar", "expected"),
    [
        ("float16", 2.0, "float16"),
        ("bfloat16", 2.0, "bfloat16"),
        ("float16", 2, "float16"),
        ("int32", 2.5, "float32"),
        ("int8", 2.5, "float32"),
        ("uint8", 2, "uint8"),
        ("int8", 3, "int8"),
        ("int16", True, "int16"),
        ("float64", 2.5, "float64"),
        ("int64", 2, "int64"),
    ],
    ids=lambda v: str(v),
)
def test_python_scalars_are_weak(dtype, scalar, expected):
    t = pyasc.tensor([1, 2], dtype=dtype)
    for out in (t * scalar, scalar * t, t + scalar, scalar - t):
        assert out.dtype == pyasc.dtype(expected)
    assert pyasc.result_type(pyasc.dtype(dtype), type(scalar)) == pyasc.dtype(expected)
    assert_allclose(f32((t * scalar).numpy()), np.array([1, 2]) * float(scalar))


def test_weak_scalar_values_in_half_precision():
    t = pyasc.tensor([0.1, 1000.0], dtype="float16")
    out = t * 3.0
    expected = (np.array([0.1, 1000.0], np.float16).astype(np.float32) * 3.0).astype(np.float16)
    assert_array_equal(out.numpy(), expected)
    b = pyasc.tensor([1.5, 2.25], dtype="bfloat16") + pyasc.tensor([0.5, 0.25], dtype="bfloat16")
    assert b.dtype == pyasc.bfloat16
    assert_array_equal(f32(b.numpy()), [2.0, 2.5])
    mixed = pyasc.tensor([1.5], dtype="float16") + pyasc.tensor([0.25], dtype="bfloat16")
    assert mixed.dtype == pyasc.float32 and mixed.item() == 1.75


def test_int_tensor_plus_float_scalar_values():
    out = pyasc.tensor([1, 2, 3], dtype="int32") + 2.5
    assert out.dtype == pyasc.float32
    assert_array_equal(out.numpy(), [3.5, 4.5, 5.5])


def test_uint8_int8_promotion_values_do_not_wrap():
    out = pyasc.tensor([200, 255], dtype="uint8") + pyasc.tensor([-100, 1], dtype="int8")
    assert out.dtype == pyasc.int16
    assert out.tolist() == [100, 256]


@pytest.mark.parametrize(
    ("operands", "expected"),
    [
        ((bool,), "bool"),
        ((int,), "int64"),
        ((float,), "float32"),
        ((int, float), "float32"),
        ((pdt.bool_, int), "int64"),
        ((pdt.bool_, float), "float32"),
        ((pdt.bool_, pdt.uint8), "uint8"),
        ((pdt.bool_, pdt.float16), "float16"),
        ((pdt.int8, pdt.int8), "int8"),
        ((pdt.float16, float, int), "float16"),
        ((np.float32, pdt.float16), "float32"),
        (("int8", int), "int8"),
    ],
    ids=lambda v: str(v),
)
def test_result_type_table(operands, expected):
    assert pyasc.result_type(*operands) == pyasc.dtype(expected)


def test_result_type_rejects_unsupported_dtypes():
    with pytest.raises(pyasc.DtypeError, match="complex128 is not supported"):
        pyasc.result_type(complex)
    with pytest.raises(pyasc.DtypeError, match="unknown dtype name 'x'"):
        pyasc.result_type("x", pdt.float32)


def test_bool_tensors_compare_but_do_not_do_arithmetic():
    a = pyasc.tensor([True, False, True])
    b = pyasc.tensor([True, True, False])
    assert (a == b).tolist() == [True, False, False]
    assert (a != b).tolist() == [False, True, True]
    assert (a == True).tolist() == [True, False, True]  # noqa: E712
    with pytest.raises(pyasc.DtypeError, match="pyasc::add argument 'x' has dtype bool.*astype"):
        a + b


@pytest.mark.parametrize("dtype", NUMERIC, ids=name)
def test_arithmetic_in_every_numeric_dtype(dtype):
    a = np.array([1, 2, 3, 4], dtype=dtype)
    b = np.array([4, 3, 2, 1], dtype=dtype)
    ta, tb = pyasc.tensor(a), pyasc.tensor(b)
    assert ta.dtype == dtype
    for fn, ref in (BINOPS["add"], BINOPS["mul"], BINOPS["sub"]):
        if dtype == np.uint8 and ref is np.subtract:
            continue  # would wrap below zero
        out = fn(ta, tb)
        assert out.dtype == dtype
        assert_array_equal(f32(out.numpy()), ref(f32(a), f32(b)))
    assert_array_equal((ta < tb).numpy(), f32(a) < f32(b))
    assert_array_equal((ta == tb).numpy(), f32(a) == f32(b))
    q = ta / tb
    assert q.dtype == (dtype if dtype in FLOATS else pyasc.float32)
    assert_allclose(f32(q.numpy()), f32(a) / f32(b), rtol=1e-2)


# ---------------------------------------------------------------------------------------------
# Methods that route through ops
# ---------------------------------------------------------------------------------------------


def test_shape_and_reduction_methods():
    t = pyasc.tensor(A)
    assert t.reshape(6, 4).shape == (6, 4)
    assert t.reshape((4, -1)).shape == (4, 6)
    assert t.T.shape == (4, 3, 2)
    assert_array_equal(t.transpose(1, 0, 2).numpy(), A.transpose(1, 0, 2))
    assert t.sum().item() == A.sum()
    assert_array_equal(t.sum(axis=1).numpy(), A.sum(axis=1))
    assert t.max(axis=(0, 2), keepdims=True).shape == (1, 3, 1)
    assert_allclose(t.mean(axis=-1).numpy(), A.mean(axis=-1))
    assert t.min().item() == 0.0


# ---------------------------------------------------------------------------------------------
# The meta device
# ---------------------------------------------------------------------------------------------


def test_meta_tensors_have_shapes_only():
    with pyasc.using_backend("meta"):
        a = pyasc.ones(2, 3)
        b = pyasc.zeros(3, dtype="float16")
    assert a.device is pyasc.Device("meta") and b.device is pyasc.Device("meta")
    assert (a.shape, a.dtype, a.nbytes) == ((2, 3), pyasc.float32, 24)
    out = a * b + 1.0
    assert out.device is pyasc.Device("meta")
    assert (out.shape, out.dtype) == ((2, 3), pyasc.float32)
    c = (a == 1.0)
    assert c.dtype == pyasc.bool_
    assert (a @ pyasc.ones(3, 5, device="meta")).shape == (2, 5)
    assert a.sum(axis=0).shape == (3,)
    assert a[None, :, 1].shape == (1, 2)
    assert a.to("bfloat16").dtype == pyasc.bfloat16
    assert repr(a) == "tensor(..., shape=(2, 3), dtype=float32, device='meta')"


@pytest.mark.parametrize(
    "read",
    [lambda t: t.numpy(), lambda t: np.asarray(t), lambda t: t.tolist(), lambda t: t[0, 0].item()],
    ids=["numpy", "asarray", "tolist", "item"],
)
def test_reading_meta_data_raises(read):
    with pyasc.using_backend("meta"):
        t = pyasc.ones(2, 3)
    with pytest.raises(pyasc.PyascError, match=r"meta tensor \(shape .*\) has no data.*set_backend\('numpy'\)"):
        read(t)


def test_meta_checks_shapes_and_indexes():
    with pyasc.using_backend("meta"):
        t = pyasc.ones(2, 3)
        with pytest.raises(pyasc.ShapeError, match="do not broadcast"):
            t + pyasc.ones(4)
        with pytest.raises(pyasc.IndexingError, match="index 5 is out of bounds for axis 0 with size 2"):
            t[5]
        with pytest.raises(pyasc.IndexingError, match="out of bounds"):
            t[0, 3] = 1.0
        t[1] = 2.0  # a valid assignment is accepted (and has nothing to write)


def test_meta_uses_no_memory():
    with pyasc.using_backend("meta"):
        pyasc.ones(1000, 1000)
        assert pyasc.memory.memory_allocated() == 0
        assert pyasc.memory.memory_allocated("meta") == 0
