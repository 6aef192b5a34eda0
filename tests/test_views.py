"""One indexing rule on every backend: basic indexing (ints, slices with any step, None, Ellipsis),
``.T`` / ``transpose`` and ``reshape`` (when strides allow) return views that share memory with
their base, as NumPy and PyTorch do; advanced indexing (bool masks, integer arrays) copies."""

from __future__ import annotations

import gc

import numpy as np
import pytest

import pyasc
from pyasc_core import views

BACKENDS = ["numpy", "sim"]


@pytest.fixture(params=BACKENDS)
def dev(request: pytest.FixtureRequest) -> str:
    return request.param


def arange(dev: str, *shape: int, dtype: str = "float32") -> tuple[pyasc.Tensor, np.ndarray]:
    a = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape).astype(dtype)
    return pyasc.tensor(a, device=dev), a.copy()


# -- writes through views change the base ---------------------------------------------------------
def test_slice_assignment_writes_the_base(dev: str) -> None:
    t, a = arange(dev, 6)
    t[1:3] = 9.0
    a[1:3] = 9.0
    np.testing.assert_array_equal(t.numpy(), a)


def test_transpose_view_writes_the_base(dev: str) -> None:
    m, a = arange(dev, 2, 3)
    m.T[0, 1] = 100.0
    a.T[0, 1] = 100.0
    np.testing.assert_array_equal(m.numpy(), a)
    mt = m.transpose(1, 0)
    mt[2] = -1.0
    a.transpose(1, 0)[2] = -1.0
    np.testing.assert_array_equal(m.numpy(), a)


def test_view_of_a_slice_writes_the_base(dev: str) -> None:
    c, a = arange(dev, 6)
    c[1:3][0] = 55.0
    a[1:3][0] = 55.0
    np.testing.assert_array_equal(c.numpy(), a)
    assert c.numpy()[1] == 55.0


def test_stepped_and_reversed_slices_write_through(dev: str) -> None:
    t, a = arange(dev, 10)
    t[::2] = 0.0
    a[::2] = 0.0
    r = t[::-3]
    r[1] = 42.0
    a[::-3][1] = 42.0
    np.testing.assert_array_equal(t.numpy(), a)
    np.testing.assert_array_equal(r.numpy(), a[::-3])


def test_view_of_a_view_of_a_view(dev: str) -> None:
    t, a = arange(dev, 4, 5, 6)
    v = t[1:, ::-1][..., None, 1::2][0, :, 0]
    av = a[1:, ::-1][..., None, 1::2][0, :, 0]
    assert v.shape == av.shape
    np.testing.assert_array_equal(v.numpy(), av)
    v[2:4] = -7.0
    av[2:4] = -7.0
    np.testing.assert_array_equal(t.numpy(), a)


def test_full_integer_index_is_a_zero_d_view(dev: str) -> None:
    t, _ = arange(dev, 2, 3)
    x = t[1, 2]
    assert x.shape == ()
    t[1, 2] = 5.0
    assert x.item() == 5.0
    x[()] = 6.0
    assert t.numpy()[1, 2] == 6.0


def test_none_and_ellipsis_views(dev: str) -> None:
    t, a = arange(dev, 3, 4)
    v = t[None, ..., 1]
    av = a[None, ..., 1]
    assert v.shape == av.shape == (1, 3)
    v[0, 1] = 77.0
    av[0, 1] = 77.0
    np.testing.assert_array_equal(t.numpy(), a)


def test_reshape_is_a_view_when_strides_allow(dev: str) -> None:
    t, a = arange(dev, 2, 6)
    r = t.reshape(3, 4)
    r[0, 0] = -1.0
    assert t.numpy()[0, 0] == -1.0
    # a sliced view still reshapes without a copy when its groups stay contiguous
    s = t[:, 2:].reshape(2, 2, 2)
    s[1, 1, 1] = -2.0
    assert t.numpy()[1, 5] == -2.0
    # a transposed view cannot be flattened by strides: a copy, as in NumPy
    flat = t.T.reshape(12)
    flat[0] = 123.0
    assert t.numpy()[0, 0] == -1.0
    np.testing.assert_array_equal(flat.numpy()[1:], t.numpy().T.reshape(12)[1:])


def test_overlapping_assignment_behaves_as_numpy(dev: str) -> None:
    t, a = arange(dev, 8)
    t[1:] = t[:-1]
    a[1:] = a[:-1].copy()
    np.testing.assert_array_equal(t.numpy(), a)


def test_float16_and_int_views_write_through(dev: str) -> None:
    for dtype in ("float16", "bfloat16", "int32", "int8", "bool"):
        t = pyasc.zeros(4, 3, dtype=dtype, device=dev)
        t.T[1, ::2] = 1
        expect = np.zeros((4, 3), dtype=np.float32)
        expect.T[1, ::2] = 1
        np.testing.assert_array_equal(t.numpy().astype(np.float32), expect, err_msg=dtype)


# -- reading views --------------------------------------------------------------------------------
def test_numpy_of_views_returns_the_right_elements(dev: str) -> None:
    t, a = arange(dev, 5, 7)
    for key in [(slice(1, 4), slice(None, None, -2)), (Ellipsis, 3), (2,), (slice(None, None, 3), None),
                (slice(4, 0, -1), slice(6, None, -3)), (slice(10, 20),), (slice(None), slice(2, 2))]:
        np.testing.assert_array_equal(t[key].numpy(), a[key], err_msg=str(key))
    np.testing.assert_array_equal(t.T.numpy(), a.T)
    np.testing.assert_array_equal(t.T[::2].to("numpy").numpy(), a.T[::2])
    np.testing.assert_array_equal(t.T[1:].clone().numpy(), a.T[1:])


def test_random_basic_keys_agree_with_numpy(dev: str) -> None:
    rng = np.random.default_rng(0)
    for _ in range(60):
        shape = tuple(int(s) for s in rng.integers(1, 6, size=rng.integers(1, 4)))
        t, a = arange(dev, *shape)
        key = []
        for n in shape:
            kind = rng.integers(0, 4)
            if kind == 0:
                key.append(int(rng.integers(-n, n)))
            elif kind == 1:
                start, stop = (int(v) for v in rng.integers(-n - 1, n + 2, size=2))
                step = int(rng.choice([-3, -2, -1, 1, 2, 3]))
                key.append(slice(start, stop, step))
            elif kind == 2:
                key.append(None)
                key.append(slice(None))
            else:
                key.append(slice(None))
        key = tuple(key)
        v = t[key]
        assert v.shape == a[key].shape, key
        np.testing.assert_array_equal(v.numpy(), a[key], err_msg=str(key))
        if v.size:
            v[...] = -1.0
            a[key] = -1.0
            np.testing.assert_array_equal(t.numpy(), a, err_msg=str(key))


# -- ops on strided views ------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["float32", "float16", "int32"])
def test_ops_on_non_contiguous_views_match_numpy(dev: str, dtype: str) -> None:
    t, a = arange(dev, 6, 8, dtype=dtype)
    a32 = a.astype(np.float32)
    x, ax = t.T[::2], a32.T[::2]            # strided, transposed
    y, ay = t[1:5, 1:], a32[1:5, 1:]         # offset rows, odd byte offset
    z, az = t[::-1, ::-3], a32[::-1, ::-3]   # negative strides
    tol = {"rtol": 1e-3, "atol": 1e-3}
    np.testing.assert_allclose((x + 1).numpy().astype(np.float32), ax + 1, **tol)
    np.testing.assert_allclose((y * y).numpy().astype(np.float32), ay * ay, **tol)
    np.testing.assert_allclose((z - x[:3, :6].T).numpy().astype(np.float32), az - ax[:3, :6].T, **tol)
    np.testing.assert_allclose(x.sum(axis=0).numpy().astype(np.float32) if dtype != "int32"
                               else (x + 0).numpy().sum(axis=0), ax.sum(axis=0), **tol)
    np.testing.assert_allclose(pyasc.matmul(x, z).numpy().astype(np.float32), ax @ az, rtol=2e-2, atol=1e-1)
    np.testing.assert_array_equal((z > 3).numpy(), az > 3)
    np.testing.assert_array_equal(z.astype("float32").numpy(), az)
    if dtype != "int32":
        np.testing.assert_allclose(pyasc.softmax(x, axis=-1).numpy().astype(np.float32),
                                   np.exp(ax - ax.max(-1, keepdims=True)) / np.exp(ax - ax.max(-1, keepdims=True)).sum(-1, keepdims=True),
                                   rtol=2e-2, atol=2e-3)
    # inputs are not modified and stay views of the base
    np.testing.assert_array_equal(t.numpy(), a)


def test_contiguous(dev: str) -> None:
    t, a = arange(dev, 3, 4)
    assert t.is_contiguous() and t.contiguous() is t
    v = t.T
    assert not v.is_contiguous()
    c = v.contiguous()
    assert c.is_contiguous() and c is not v
    np.testing.assert_array_equal(c.numpy(), a.T)
    c[0, 0] = 50.0  # a copy: the base is unchanged
    assert t.numpy()[0, 0] == 0.0
    assert t[1:].is_contiguous() and not t[:, ::2].is_contiguous()


# -- lifetime --------------------------------------------------------------------------------------
def test_views_keep_the_base_alive(dev: str) -> None:
    t, a = arange(dev, 64, 64)
    v = t[3:, ::-5].T
    del t
    gc.collect()
    # reuse freed memory if the base had been freed
    junk = [pyasc.full((64, 64), 1.0e9, dtype="float32", device=dev) for _ in range(4)]
    np.testing.assert_array_equal(v.numpy(), a[3:, ::-5].T)
    v[0, 0] = 1.0
    assert v.numpy()[0, 0] == 1.0
    del junk


def test_sim_view_holds_the_block() -> None:
    base = pyasc.zeros(1024, device="sim")
    before = pyasc.memory.memory_allocated("sim")
    v = base[::2]
    assert pyasc.memory.memory_allocated("sim") == before  # no new memory: a view
    del base
    gc.collect()
    assert pyasc.memory.memory_allocated("sim") == before  # still held by the view
    del v
    gc.collect()
    assert pyasc.memory.memory_allocated("sim") <= before - 4096


# -- advanced indexing copies -------------------------------------------------------------------------
def test_advanced_indexing_returns_copies(dev: str) -> None:
    t, a = arange(dev, 4, 3)
    for key in ([0, 2], np.array([[1], [3]]), t.numpy() > 5.0, np.array(1), (slice(None), [2, 0]), True):
        got = t[key]
        np.testing.assert_array_equal(got.numpy(), a[key], err_msg=repr(key))
        if got.size:
            got[...] = -9.0
        np.testing.assert_array_equal(t.numpy(), a, err_msg=repr(key))
    # a bool-mask tensor index too
    m = t > 5.0
    got = t[m]
    got[...] = 0.0
    np.testing.assert_array_equal(t.numpy(), a)
    # assignment through an advanced key writes the base (NumPy's __setitem__)
    t[[0, 3], 1] = 8.0
    a[[0, 3], 1] = 8.0
    t.T[m.T] = 1.0
    a.T[m.numpy().T] = 1.0
    np.testing.assert_array_equal(t.numpy(), a)


def test_index_errors_are_the_same_on_every_backend(dev: str) -> None:
    t, _ = arange(dev, 2, 3)
    with pytest.raises(pyasc.IndexingError, match="out of bounds"):
        t[2]
    with pytest.raises(pyasc.IndexingError, match="too many indices"):
        t[0, 0, 0]
    with pytest.raises(pyasc.IndexingError, match="out of bounds"):
        t.T[1:][0, 5]


def test_launch_refuses_a_strided_view() -> None:
    from pyasc_acl.kernels import pack_args

    t = pyasc.zeros(4, 4, device="sim")
    with pytest.raises(pyasc.ArgumentError, match=r"strided view .* t\.contiguous\(\)"):
        pack_args([t.T], t.device)
    blob, _ = pack_args([t[1:]], t.device)  # a contiguous view: its first element's address
    assert int.from_bytes(blob, "little") == t._data.ptr + 16


# -- the view arithmetic itself ---------------------------------------------------------------------
def test_nocopy_reshape_matches_numpy() -> None:
    rng = np.random.default_rng(1)
    base = np.arange(2 * 3 * 4 * 5).reshape(2, 3, 4, 5)
    for _ in range(200):
        key = tuple(slice(None, None, int(rng.choice([1, 2, -1]))) for _ in range(4))
        v = base[key]
        if rng.integers(0, 2):
            v = v.transpose(rng.permutation(4))
        target = [(v.size,), (-1, v.shape[-1]), (v.shape[0], -1), v.shape[::-1], (1, *v.shape, 1)]
        for shape in target:
            expect = np.reshape(v, shape)
            strides = views.nocopy_reshape(v.shape, tuple(s // 8 for s in v.strides), expect.shape)
            shares = np.shares_memory(expect, base)
            assert (strides is not None) == shares, (v.shape, v.strides, shape)
            if strides is not None and expect.size > 1:
                got = np.lib.stride_tricks.as_strided(v, expect.shape, tuple(s * 8 for s in strides))
                np.testing.assert_array_equal(got, expect)


def test_sim_gathers_strided_views_on_the_device(monkeypatch: pytest.MonkeyPatch) -> None:
    from pyasc_sim.plugin import BACKEND

    assert BACKEND.gather is not None  # the copy kernel, not the host fallback
    calls = []
    real = BACKEND.gather

    def spy(storage):  # type: ignore[no-untyped-def]
        calls.append(storage.strides)
        return real(storage)

    monkeypatch.setattr(BACKEND, "gather", spy)
    t, a = arange("sim", 64, 64)
    np.testing.assert_array_equal(t[::8, ::-16].numpy(), a[::8, ::-16])  # sparse: gathered first
    np.testing.assert_array_equal((t.T + 1.0).numpy(), a.T + 1.0)        # an op's strided input
    assert calls == [(512, -16), (1, 64)]


def test_host_gather_fallback_without_a_copy_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    from pyasc_sim.plugin import BACKEND

    monkeypatch.setattr(BACKEND, "gather", None)  # as npu without kernels compiled for it
    t, a = arange("sim", 8, 16)
    c = t[::-2, 3::5].contiguous()
    assert c.is_contiguous()
    np.testing.assert_array_equal(c.numpy(), a[::-2, 3::5])
    np.testing.assert_array_equal(t[::3, ::7].numpy(), a[::3, ::7])


def test_block_copies_take_byte_offsets_and_check_bounds() -> None:
    from pyasc_acl.backend import _current_raw_stream
    from pyasc_sim.plugin import BACKEND

    t = pyasc.tensor(np.arange(8, dtype=np.int32), device="sim")
    dev = BACKEND.raw_device(t.device)
    stream = _current_raw_stream(t.device)
    out = np.zeros(3, np.int32)
    dev.copy(out.view(np.uint8), t._data.block, 12, stream, True, src_offset=16)
    np.testing.assert_array_equal(out, [4, 5, 6])
    with pytest.raises(ValueError, match="does not fit"):
        dev.copy(out.view(np.uint8), t._data.block, 12, stream, True, src_offset=24)
    with pytest.raises(ValueError, match="past the end"):
        dev.copy(out.view(np.uint8), t._data.block, 0, stream, True, src_offset=33)


def test_reshape_of_views_shares_memory_exactly_when_numpy_does(dev: str) -> None:
    rng = np.random.default_rng(2)
    for _ in range(40):
        t, a = arange(dev, 2, 3, 4)
        key = tuple(slice(None, None, int(rng.choice([1, 2, -1]))) for _ in range(3))
        v, av = t[key], a[key]
        if rng.integers(0, 2):
            perm = tuple(int(p) for p in rng.permutation(3))
            v, av = v.transpose(perm), av.transpose(perm)
        shape = [(-1,), (av.shape[0], -1), (-1, av.shape[-1]), (1, *av.shape)][int(rng.integers(0, 4))]
        r, ar = v.reshape(shape), av.reshape(shape)
        assert r.shape == ar.shape
        r[...] = -1.0
        ar[...] = -1.0  # writes a only when NumPy's reshape was a view
        np.testing.assert_array_equal(t.numpy(), a, err_msg=f"{key} {shape}")


def test_non_blocking_download_of_a_strided_view() -> None:
    t, a = arange("sim", 16, 16)
    s = pyasc.Stream(device="sim")
    with pyasc.stream(s):
        host = t[::-3, 1::2].T.to("numpy", non_blocking=True)
    s.synchronize()
    np.testing.assert_array_equal(host.numpy(), a[::-3, 1::2].T)
