"""Launch plans of the row ops (pyasc_kernels/nn.py): a repeated softmax / log_softmax over the last axis
of a contiguous tensor, or layer_norm / rms_norm whose operands the kernel takes as they are, of the
same dtypes, shapes, eps and device, launches from its plan (the tiling decided, packed and uploaded
once; no kernel lookup), with the same results as the first call; other axes, non-contiguous inputs,
operands that need a cast and replaced glue functions take the full path every time."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc

nn = pytest.importorskip("pyasc_kernels.nn")


def _ref(x: np.ndarray, axis: int, log: bool) -> np.ndarray:
    x64 = x.astype(np.float64)
    s = x64 - x64.max(axis=axis, keepdims=True)
    if log:
        return s - np.log(np.exp(s).sum(axis=axis, keepdims=True))
    e = np.exp(s)
    return e / e.sum(axis=axis, keepdims=True)


def _lookups(monkeypatch) -> list[str]:
    """The kernel lookups (rt.KERNELS.function) the glue makes from now on: the full path looks its
    kernel up, a plan does not."""
    seen: list[str] = []
    real = nn.rt.KERNELS.function

    def spy(family, name, device):
        seen.append(name)
        return real(family, name, device)

    monkeypatch.setattr(nn.rt.KERNELS, "function", spy)
    return seen


@pytest.mark.parametrize("name,dtype,shape", [("softmax", np.float32, (37, 64)), ("log_softmax", np.float32, (5, 48)),
                                              ("softmax", np.float16, (9, 32)), ("softmax", np.float32, (3, 1000))])
def test_repeated_call_launches_from_its_plan(monkeypatch, name, dtype, shape):
    rng = np.random.default_rng(sum(shape))
    hosts = [(rng.standard_normal(shape) * 3).astype(dtype) for _ in range(3)]
    hosts[2][1, 2] = np.nan  # a NaN row: the plan launches the same kernel
    seen = _lookups(monkeypatch)
    outs = []
    for h in hosts:
        outs.append(getattr(pyasc, name)(pyasc.tensor(h, device="sim"), -1).numpy())
    assert len(seen) >= 1 and all(s.startswith(f"{name}_") for s in seen)
    first = len(seen)
    again = getattr(pyasc, name)(pyasc.tensor(hosts[0], device="sim"), axis=-1).numpy()
    assert len(seen) == first  # the plan: no lookup
    assert again.tobytes() == outs[0].tobytes()
    tol = 2e-3 if dtype == np.float16 else 1e-5
    for h, o in zip(hosts[:2], outs[:2]):  # new contents each call, not the first call's result
        np.testing.assert_allclose(o.astype(np.float64), _ref(h, -1, name == "log_softmax"), rtol=tol, atol=tol)
    assert np.isnan(outs[2][1]).all() and np.isfinite(outs[2][0]).all()


def test_other_axes_and_views_take_the_full_path(monkeypatch):
    host = np.random.default_rng(3).standard_normal((16, 24)).astype(np.float32)
    x = pyasc.tensor(host, device="sim")
    seen = _lookups(monkeypatch)
    for _ in range(2):
        got = pyasc.softmax(x, 0).numpy()  # axis 0: moved last by a copy, then back
        np.testing.assert_allclose(got, _ref(host, 0, False), rtol=1e-5, atol=1e-6)
    assert seen.count("softmax_float32") == 2
    view = x.T  # not contiguous
    for _ in range(2):
        got = pyasc.softmax(view, -1).numpy()
        np.testing.assert_allclose(got, _ref(host.T, -1, False), rtol=1e-5, atol=1e-6)
    assert seen.count("softmax_float32") == 4


def test_a_replaced_chunk_choice_is_not_bypassed(monkeypatch):
    """A plan holds only while the glue's decisions are its own: a replaced _batch_chunk decides the
    next launch (tests and measurements replace it)."""
    x = pyasc.tensor(np.ones((8, 1024), dtype=np.float32), device="sim")
    pyasc.softmax(x, -1)
    pyasc.softmax(x, -1)  # planned
    chunks = []
    real = nn.tl.SoftmaxTiling

    def spy(**fields):
        chunks.append(fields["chunk"])
        return real(**fields)

    monkeypatch.setattr(nn.tl, "SoftmaxTiling", spy)
    monkeypatch.setattr(nn, "_batch_chunk", lambda cols, batch_chunk=None: nn._chunk(cols))
    got = pyasc.softmax(x, -1).numpy()
    assert chunks == [1024]
    np.testing.assert_allclose(got, np.full((8, 1024), 1 / 1024, dtype=np.float32), rtol=1e-6)


def _ln_ref(x, w, b, eps, layer):
    x64 = x.astype(np.float64)
    if layer:
        x64 = x64 - x64.mean(axis=-1, keepdims=True)
    y = x64 / np.sqrt((x64 * x64).mean(axis=-1, keepdims=True) + eps)
    if w is not None:
        y = y * w
    if b is not None:
        y = y + b
    return y


@pytest.mark.parametrize("layer,with_w,with_b", [(True, True, True), (True, False, False), (True, True, False),
                                                 (False, True, False), (False, False, False)])
def test_norm_repeated_call_launches_from_its_plan(monkeypatch, layer, with_w, with_b):
    rng = np.random.default_rng(7)
    shape = (19, 96)
    hosts = [rng.standard_normal(shape).astype(np.float32) for _ in range(2)]
    w = rng.standard_normal(shape[1]).astype(np.float32) if with_w else None
    b = rng.standard_normal(shape[1]).astype(np.float32) if with_b and layer else None
    dw = None if w is None else pyasc.tensor(w, device="sim")
    db = None if b is None else pyasc.tensor(b, device="sim")

    def call(h, eps=1e-5):
        x = pyasc.tensor(h, device="sim")
        if layer:
            return pyasc.layer_norm(x, dw, db, eps=eps).numpy()
        return pyasc.rms_norm(x, dw, eps=eps).numpy()

    seen = _lookups(monkeypatch)
    outs = [call(h) for h in hosts]
    first = len(seen)
    assert first >= 1
    again = call(hosts[0])
    assert len(seen) == first  # the plan: no lookup
    assert again.tobytes() == outs[0].tobytes()
    for h, o in zip(hosts, outs):
        np.testing.assert_allclose(o.astype(np.float64), _ln_ref(h, w, b, 1e-5, layer), rtol=1e-4, atol=1e-4)
    other = call(hosts[0], eps=0.5)  # another eps: its own launch (and plan), its own result
    assert len(seen) > first
    planned = len(seen)
    assert call(hosts[0], eps=0.5).tobytes() == other.tobytes() and len(seen) == planned
    np.testing.assert_allclose(other.astype(np.float64), _ln_ref(hosts[0], w, b, 0.5, layer), rtol=1e-4, atol=1e-4)


def test_norm_operands_needing_a_cast_take_the_full_path(monkeypatch):
    rng = np.random.default_rng(8)
    h = rng.standard_normal((6, 64)).astype(np.float16)
    w = rng.standard_normal(64).astype(np.float32)  # float32 weight: x is cast to the result dtype
    x, dw = pyasc.tensor(h, device="sim"), pyasc.tensor(w, device="sim")
    seen = _lookups(monkeypatch)
    for _ in range(2):
        got = pyasc.layer_norm(x, dw, None, eps=1e-5).numpy()
        np.testing.assert_allclose(got.astype(np.float64), _ln_ref(h.astype(np.float32), w, None, 1e-5, True),
                                   rtol=1e-3, atol=1e-3)
    assert seen.count("layer_norm_float32") == 2


def test_a_full_tiling_cache_unpins_only_its_own_tilings(monkeypatch):
    """When one glue cache (nn's tilings) fills and clears, it forgets its own pinned uploads only:
    the elementwise cache's pinned tilings stay pinned, and both ops still compute right."""
    from pyasc_kernels import elementwise

    rt = nn.rt
    a = np.arange(40, dtype=np.float32)
    pyasc.add(pyasc.tensor(a, device="sim"), pyasc.tensor(a, device="sim")).numpy()
    ew = [t for t in elementwise._TILINGS.values() if id(t) in rt._PINNED]
    assert ew, "the elementwise glue pins its tilings"
    x = np.linspace(-3, 3, 4 * 64, dtype=np.float32).reshape(4, 64)
    pyasc.softmax(pyasc.tensor(x, device="sim"), -1).numpy()
    mine = [t for t in nn._TILINGS.values() if id(t) in rt._PINNED]
    assert mine
    monkeypatch.setattr(nn, "_TILINGS_LIMIT", len(nn._TILINGS))
    y = pyasc.softmax(pyasc.tensor(x[:2], device="sim"), -1).numpy()  # a new shape: nn's cache is full, cleared
    assert all(id(t) not in rt._PINNED for t in mine)  # nn's old pins dropped (no leak) ...
    assert all(id(t) in rt._PINNED and rt._PINNED[id(t)][0] is t for t in ew)  # ... the others' kept
    np.testing.assert_allclose(y, _ref(x[:2], -1, False), rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(pyasc.add(pyasc.tensor(a, device="sim"), pyasc.tensor(a, device="sim")).numpy(), 2 * a)
