"""kernels/copy.cpp's tiled transpose path (an input axis other than the last is contiguous):
bit-identical to NumPy for 1/2/4/8-byte elements, ragged tiles, 3-D permutes, negative strides and
tiny shapes; the element path (1-byte elements, no contiguous axis) stays as it was."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
from pyasc_kernels import shape as shape_mod

DTYPES = ["uint8", "int16", "float16", "float32", "int32", "int64", "float64"]
SHAPES_2D = [(1, 1), (1, 7), (7, 1), (2, 3), (5, 9), (8, 8), (16, 16), (17, 33), (63, 65), (64, 64),
             (65, 130), (100, 3), (3, 100), (128, 257), (512, 512)]


@pytest.fixture(scope="module", autouse=True)
def _release_cached_blocks():
    """Hand the many blocks these tests cache back (later tests measure the allocator's reserve)."""
    yield
    pyasc.synchronize("sim")
    pyasc.memory.empty_cache("sim")


def _bits(dtype: str, shape: tuple[int, ...], seed: int = 0) -> np.ndarray:
    """Random bit patterns (NaN payloads included for floats): a copy must keep every bit."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    raw = rng.integers(0, 256, size=n * np.dtype(dtype).itemsize, dtype=np.uint8)
    return raw.view(dtype).reshape(shape)


def _same_bits(got: np.ndarray, want: np.ndarray) -> None:
    assert got.shape == want.shape and got.dtype == want.dtype
    u = f"u{want.dtype.itemsize}" if want.dtype.itemsize > 1 else "u1"
    np.testing.assert_array_equal(np.ascontiguousarray(got).view(u), np.ascontiguousarray(want).view(u))


def _sim(a: np.ndarray) -> pyasc.Tensor:
    t = pyasc.tensor(a, device="sim")
    pyasc.synchronize("sim")
    return t


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shp", SHAPES_2D)
def test_2d_transpose_is_bit_identical(dtype: str, shp: tuple[int, int]) -> None:
    a = _bits(dtype, shp)
    _same_bits(_sim(a).T.contiguous().numpy(), a.T)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shp,axes", [((3, 4, 5), (2, 1, 0)), ((3, 4, 5), (0, 2, 1)), ((3, 4, 5), (1, 2, 0)),
                                      ((3, 4, 5), (2, 0, 1)), ((7, 66, 9), (0, 2, 1)), ((2, 70, 33, 5), (3, 1, 0, 2)),
                                      ((2, 3, 4, 5), (1, 3, 2, 0)), ((130, 2, 65), (2, 1, 0))])
def test_permutes_are_bit_identical(dtype: str, shp: tuple[int, ...], axes: tuple[int, ...]) -> None:
    a = _bits(dtype, shp, seed=1)
    x = _sim(a)
    _same_bits(shape_mod.permute(x, axes).numpy(), np.transpose(a, axes))


@pytest.mark.parametrize("dtype", ["uint8", "float16", "float32", "int64"])
@pytest.mark.parametrize("key", [(slice(None, None, -1), slice(None)), (slice(None), slice(None, None, -1)),
                                 (slice(3, 60), slice(None, None, -3)), (slice(None, None, 2), slice(1, 40))])
def test_transposes_of_strided_and_reversed_views(dtype: str, key: tuple[slice, slice]) -> None:
    a = _bits(dtype, (67, 45), seed=2)
    x = _sim(a)
    _same_bits(x[key].T.contiguous().numpy(), a[key].T)


@pytest.mark.parametrize("dtype", ["int16", "float32", "int64"])
@pytest.mark.parametrize("out_shape,strides,offset", [
    ((70, 90), (1, -70), 89 * 70),          # a transpose read with the columns reversed
    ((90, 70), (-1, 90), 89),               # contiguous axis read backwards: the element path
    ((40, 30), (1, 20), 0),                 # overlapping runs (stride 20 < 40 rows): a run per row
    ((5, 33, 17), (1, 5 * 17, 5), 0),       # 3-D with the contiguous axis first
    ((4, 6, 3), (1, 0, 4), 0),              # broadcast middle axis
])
def test_strided_copies_match_as_strided(dtype: str, out_shape: tuple[int, ...], strides: tuple[int, ...],
                                         offset: int) -> None:
    base = _bits(dtype, (8000,), seed=3)
    x = _sim(base)
    item = base.dtype.itemsize
    want = np.lib.stride_tricks.as_strided(base[offset:], out_shape, [s * item for s in strides]) \
        if all(s >= 0 for s in strides) else _gather(base, out_shape, strides, offset)
    _same_bits(shape_mod.strided_copy(x, out_shape, strides, offset).numpy(), want)


def _gather(base: np.ndarray, out_shape: tuple[int, ...], strides: tuple[int, ...], offset: int) -> np.ndarray:
    idx = np.full(out_shape, offset, dtype=np.int64)
    for d, st in enumerate(strides):
        shp = [1] * len(out_shape)
        shp[d] = out_shape[d]
        idx = idx + np.arange(out_shape[d]).reshape(shp) * st
    return base[idx]


def test_tiled_path_is_chosen_for_transposes_only() -> None:
    assert shape_mod._transpose_axis([512, 512], [1, 512], 4) == 1
    assert shape_mod._transpose_axis([3, 4, 5], [20, 1, 4], 8) == 2
    assert shape_mod._transpose_axis([512, 512], [1, 512], 1) == 0   # 1-byte: element path
    assert shape_mod._transpose_axis([512, 512], [512, 1], 4) == 0   # plain rows
    assert shape_mod._transpose_axis([512, 512], [1, 0], 4) == 0     # broadcast
    assert shape_mod._transpose_axis([512, 512], [-1, 512], 4) == 0  # no contiguous axis
