"""The built-in kernels' tilings are pyasc.TilingStructs (pyasc_kernels.tilings), dogfooding the
public API: each matches its C++ struct in kernels/<family>.cpp field for field, and the bytes
uploaded are exactly those of the private 32-bit packer it replaced (kept below as the reference),
for every family, as the ops really launch them on sim."""

from __future__ import annotations

import re
import struct
from pathlib import Path

import numpy as np
import pytest

import pyasc

pytest.importorskip("pyasc_sim")
from pyasc_kernels import _runtime as rt  # noqa: E402
from pyasc_kernels import tilings as tl  # noqa: E402

KERNELS = Path(__file__).resolve().parent.parent / "kernels"
FAMILIES = sorted(p.stem for p in KERNELS.glob("*.cpp"))


def old_pack(*fields):
    """The private packer the structs replaced (pyasc_kernels._runtime.pack before): 32-bit fields,
    ints as uint32 (negative ones two's complement), floats as float32, padded to whole 32 bytes."""
    out = bytearray()
    for f in fields:
        out += struct.pack("<f", f) if isinstance(f, float) else struct.pack("<I", int(f) & 0xFFFFFFFF)
    out += b"\0" * (-len(out) % 32)
    return bytes(out)


def values(t):
    """The struct's field values in declaration order, arrays flattened."""
    out = []
    for f in type(t).layout():
        v = getattr(t, f.name)
        out += list(v) if isinstance(v, (tuple, list)) else [v]
    return out


def cpp_fields(family):
    """[(name, type, count)] of the *Tiling struct in kernels/<family>.cpp."""
    text = (KERNELS / f"{family}.cpp").read_text()
    m = re.search(r"struct (\w+Tiling) \{(.*?)\n\};", text, re.S)
    assert m, family
    consts = {"COPY_MAX_DIMS": tl.COPY_MAX_DIMS}
    fields = []
    for line in m.group(2).splitlines():
        line = line.split("//")[0].strip()
        if not line:
            continue
        fm = re.fullmatch(r"(\w+)\s+(\w+)(?:\[(\w+)\])?;", line)
        assert fm, (family, line)
        count = fm.group(3)
        fields.append((fm.group(2), fm.group(1), int(consts.get(count, count)) if count else 1))
    return m.group(1), fields


def test_every_family_has_its_struct():
    assert sorted(tl.BY_FAMILY) == FAMILIES == sorted(rt.KERNEL_FAMILIES)


@pytest.mark.parametrize("family", FAMILIES)
def test_struct_matches_the_cpp_struct(family):
    cpp_name, fields = cpp_fields(family)
    cls = tl.BY_FAMILY[family]
    assert cls.__name__ == cpp_name
    py = []
    for f in cls.layout():
        t = f.type
        count = getattr(t, "length", 1)
        item = getattr(t, "item", t)
        py.append((f.name, item.name, count))
    assert py == fields
    assert cls.sizeof == 4 * sum(c for _, _, c in fields)


@pytest.mark.parametrize("family", FAMILIES)
def test_bytes_equal_the_old_packers(family):
    cls = tl.BY_FAMILY[family]
    layout = cls.layout()
    # distinct values per field, the largest uint32 and (for int32 fields) negative ones
    kwargs = {}
    i = 1
    for f in layout:
        if f.name == "reserved":
            continue
        count = getattr(f.type, "length", None)
        item = getattr(f.type, "item", f.type)
        if count is None:
            kwargs[f.name] = 2**32 - 1 if i == 2 else i * 1000 + 7
            i += 1
        else:
            kwargs[f.name] = tuple((-(j + 1) if item.kind == "int" else j * 3 + 1) for j in range(count))
    t = cls(**kwargs)
    assert tl.device_bytes(t) == old_pack(*values(t))
    assert len(tl.device_bytes(t)) % 32 == 0


def test_ops_launch_their_family_s_struct_with_the_old_bytes(monkeypatch):
    """Every family as the ops launch it on sim: the tiling is that family's struct, its uploaded
    bytes those the old packer gave for the same values, and the results stay right."""
    seen = {}
    real = rt.launch

    def launch(device, family, name, blocks, args, tiling):
        assert isinstance(tiling, tl.BY_FAMILY[family]), (family, type(tiling))
        assert tl.device_bytes(tiling) == old_pack(*values(tiling))
        seen.setdefault(family, tiling)
        return real(device, family, name, blocks, args, tiling)

    monkeypatch.setattr(rt, "launch", launch)
    a = np.arange(1, 13, dtype=np.float32).reshape(3, 4)
    x = pyasc.tensor(a, device="sim")
    i = pyasc.tensor(np.arange(12, dtype=np.int32).reshape(3, 4), device="sim")
    checks = [
        (pyasc.add(x, 2.5), a + 2.5),
        (pyasc.add(i, -3), np.arange(12, dtype=np.int32).reshape(3, 4) - 3),
        (pyasc.pow(x, 2.0), a ** 2),
        (pyasc.neg(x), -a),
        (pyasc.lt(x, 5.0), a < 5),
        (pyasc.where(pyasc.lt(x, 5.0), x, 0.0), np.where(a < 5, a, 0)),
        (x.astype("float16"), a.astype(np.float16)),
        (x.T.contiguous(), a.T),
        (pyasc.matmul(x, pyasc.tensor(a.T.copy(), device="sim")), a @ a.T),
        (pyasc.sum(x, axis=1), a.sum(axis=1)),
        (pyasc.softmax(x, axis=-1), np.exp(a) / np.exp(a).sum(-1, keepdims=True)),
        (pyasc.layer_norm(x, eps=1e-5), (a - a.mean(-1, keepdims=True)) / np.sqrt(a.var(-1, keepdims=True) + 1e-5)),
    ]
    for got, want in checks:
        np.testing.assert_allclose(got.numpy().astype(np.float64), np.asarray(want, np.float64), rtol=2e-3,
                                   atol=2e-3)
    assert sorted(seen) == FAMILIES


def tiles_launched(monkeypatch, family: str) -> dict:
    """{kernel name: tileLength} of every launch of ``family`` from now on (rt.launch spied)."""
    tiles = {}
    real = rt.launch

    def launch(device, fam, name, blocks, args, tiling):
        if fam == family:
            tiles[name] = tiling.tileLength
        return real(device, fam, name, blocks, args, tiling)

    monkeypatch.setattr(rt, "launch", launch)
    return tiles


def test_float32_unary_ops_without_calc_space_take_the_long_tile(monkeypatch):
    """float32 neg / abs / exp / log / sqrt / rsqrt / relu launch with LONG_TILE elements per tile
    (their kernel keeps no calc buffer: twice the tile fits UB), the ops that need calc space and other
    dtypes with TILE; a long tile gives the bits of the short one, across tile ends and a tail."""
    from pyasc_kernels import elementwise as ew

    tiles = tiles_launched(monkeypatch, "unary")
    n = 48 * 2 * ew.LONG_TILE + 5  # every vector core: two long tiles, and a tail
    rng = np.random.default_rng(36)
    a = (rng.standard_normal(n) * 4).astype(np.float32)
    x, xp = pyasc.tensor(a, device="sim"), pyasc.tensor(np.abs(a) + 1e-3, device="sim")
    ops = {"exp": (pyasc.exp, x), "log": (pyasc.log, xp), "relu": (pyasc.relu, x), "sqrt": (pyasc.sqrt, xp)}
    long = {k: f(t).numpy() for k, (f, t) in ops.items()}
    pyasc.sigmoid(x)
    pyasc.exp(x.astype("float16"))
    assert tiles["unary_exp_float32"] == tiles["unary_relu_float32"] == ew.LONG_TILE == 8192
    assert tiles["unary_sigmoid_float32"] == tiles["unary_exp_float16"] == ew.TILE
    monkeypatch.setattr(ew, "LONG_TILE", ew.TILE)
    for k, (f, t) in ops.items():  # the same op at TILE (a new shape: no launch plan of the first calls)
        short = f(pyasc.tensor(np.concatenate([t.numpy(), [1.0]]).astype(np.float32), device="sim")).numpy()[:n]
        np.testing.assert_array_equal(long[k].view(np.uint32), short.view(np.uint32), err_msg=k)
    assert tiles["unary_exp_float32"] == ew.TILE


def test_direct_float_casts_take_the_long_tile(monkeypatch):
    """float32 <-> float16 / bfloat16 casts (one Cast from the input tile into the output tile, no scratch)
    launch with LONG_TILE, other pairs with their own tile; the long tile gives the short one's bits."""
    from pyasc_kernels import elementwise as ew

    tiles = tiles_launched(monkeypatch, "cast")
    n = 48 * 2 * ew.LONG_TILE + 7
    a = (np.random.default_rng(37).standard_normal(n) * 1e3).astype(np.float32)
    x = pyasc.tensor(a, device="sim")
    long = {d: x.astype(d).numpy() for d in ("float16", "bfloat16")}
    back = pyasc.tensor(long["float16"], device="sim").astype("float32").numpy()
    x.astype("int32")
    assert tiles["cast_float32_float16"] == tiles["cast_float32_bfloat16"] == tiles["cast_float16_float32"] == ew.LONG_TILE
    assert tiles["cast_float32_int32"] == ew.TILE
    monkeypatch.setattr(ew, "CAST_LONG_TILE_PAIRS", frozenset())
    y = pyasc.tensor(np.concatenate([a, [1.0]]).astype(np.float32), device="sim")  # a new shape: no launch plan
    for d in ("float16", "bfloat16"):
        np.testing.assert_array_equal(long[d].view(np.uint16), y.astype(d).numpy()[:n].view(np.uint16), err_msg=d)
    np.testing.assert_array_equal(back, pyasc.tensor(np.concatenate([long["float16"], [1]]), device="sim")
                                  .astype("float32").numpy()[:n])
    assert tiles["cast_float32_float16"] == ew.TILE
