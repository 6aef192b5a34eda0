"""Cast on the simulator for every source/destination pair of the documented conversion table
(Atlas A2) and every RoundMode, against NumPy models of the documented rules: to an integer type
round by the mode, then saturate; to another float type take the representable neighbour the mode
selects; from a float type to the same type round to an integral value, kept in the float format
(0.5: CAST_RINT 0, CAST_FLOOR 0, CAST_CEIL 1, CAST_ROUND 1, CAST_TRUNC 0)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import pyasc
import pyasc_acl

from ascendc_kernels import load

BF16 = np.dtype(ml_dtypes.bfloat16)
MODES = {"none": 0, "rint": 1, "floor": 2, "ceil": 3, "round": 4, "trunc": 5, "odd": 6}
ROUNDING = ["none", "rint", "floor", "ceil", "round", "trunc"]
N = 256
TYPES = {"f32": np.dtype(np.float32), "f16": np.dtype(np.float16), "bf16": BF16, "s64": np.dtype(np.int64),
         "s32": np.dtype(np.int32), "s16": np.dtype(np.int16), "s8": np.dtype(np.int8), "u8": np.dtype(np.uint8)}
# (src, dst) pairs of the documented table the kernels in cast_pairs.cpp cover.
PAIRS = [("f32", "f32"), ("f32", "f16"), ("f32", "bf16"), ("f32", "s64"), ("f32", "s32"), ("f32", "s16"),
         ("f16", "f32"), ("f16", "s32"), ("f16", "s16"), ("f16", "s8"), ("f16", "u8"), ("f16", "f16"),
         ("bf16", "f32"), ("bf16", "s32"), ("bf16", "bf16"),
         ("s32", "f32"), ("s32", "s64"), ("s32", "s16"), ("s32", "f16"),
         ("s16", "f16"), ("s16", "f32"), ("s8", "f16"), ("u8", "f16"), ("s64", "s32"), ("s64", "f32")]


# The RoundModes the Cast reference lists per pair for Atlas A2 (asc-devkit docs/api/SIMD-API/基础API/Memory矢量计算/
# 类型转换/Cast.md, 数据类型): another mode is an error `dtype-table` when the call runs (kapi/dtype_tables.h).
# s32 -> f16 takes any mode (the scale comes from SetDeqScale); f16 -> f16 and bf16 -> bf16 are not in that table.
_R = {"rint", "floor", "ceil", "round", "trunc"}
A2_MODES = {("s8", "f16"): {"none"}, ("u8", "f16"): {"none"}, ("s16", "f16"): _R | {"none"}, ("s16", "f32"): {"none"},
            ("f16", "s8"): _R | {"none"}, ("f16", "u8"): _R | {"none"}, ("f16", "s16"): _R, ("f16", "s32"): _R,
            ("f16", "f32"): {"none"}, ("bf16", "s32"): _R, ("bf16", "f32"): {"none"}, ("s32", "s16"): {"none"},
            ("s32", "f32"): _R | {"none"}, ("s32", "s64"): {"none"}, ("f32", "s16"): _R,
            ("f32", "f16"): _R | {"odd", "none"}, ("f32", "bf16"): _R, ("f32", "s32"): _R, ("f32", "f32"): _R,
            ("f32", "s64"): _R, ("s64", "s32"): {"none"}, ("s64", "f32"): _R}


def mode_listed(src: str, dst: str, mode: str) -> bool:
    return (src, dst) not in A2_MODES or mode in A2_MODES[(src, dst)]


def is_float(t: np.dtype) -> bool:
    return t.kind == "f" or t == BF16


def integral(v: np.ndarray, mode: str) -> np.ndarray:
    """v rounded to an integral value by the mode (CAST_NONE and CAST_RINT: ties to even)."""
    if mode in ("none", "rint"):
        return np.rint(v)
    if mode == "round":  # ties away from zero
        return np.copysign(np.floor(np.abs(v) + 0.5), v)
    return {"floor": np.floor, "ceil": np.ceil, "trunc": np.trunc}[mode](v)


def step(a: np.ndarray, up: bool) -> np.ndarray:
    """The next representable value of a's float type above (up) or below a."""
    bits = {2: np.uint16, 4: np.uint32}[a.dtype.itemsize]
    u = a.view(bits).copy()
    sign = np.array(1, bits) << (8 * a.dtype.itemsize - 1)
    neg = (u & sign) != 0
    zero = (u & ~sign) == 0
    away = up != neg  # moving away from zero increases the magnitude bits
    u = np.where(zero, np.where(up, 1, sign | 1), np.where(away, u + 1, u - 1)).astype(bits)
    return u.view(a.dtype)


def to_float(v: np.ndarray, dst: np.dtype, mode: str) -> np.ndarray:
    """v (exact float64 values) to the float type dst by the mode: the neighbour it selects."""
    near = v.astype(np.float32).astype(dst) if dst == BF16 else v.astype(dst)
    back = near.astype(np.float64)
    exact = back == v
    lo = np.where(back < v, near, step(near, False))
    hi = np.where(back < v, step(near, True), near)
    if mode in ("none", "rint"):
        out = near
    elif mode == "floor":
        out = lo
    elif mode == "ceil":
        out = hi
    elif mode == "trunc":
        out = np.where(v > 0, lo, hi)
    elif mode == "round":
        dl, dh = v - lo.astype(np.float64), hi.astype(np.float64) - v
        out = np.where(dl < dh, lo, np.where(dh < dl, hi, np.where(v > 0, hi, lo)))
    else:  # odd
        out = np.where(lo.view(np.uint16 if dst.itemsize == 2 else np.uint32) & 1, lo, hi)
    return np.where(exact, near, out).astype(dst)


def model(x: np.ndarray, dst: np.dtype, mode: str) -> np.ndarray:
    v = x.astype(np.float64)
    if not is_float(dst):
        info = np.iinfo(dst)
        r = np.nan_to_num(integral(v, mode), nan=0.0)
        return np.clip(r, info.min, info.max).astype(dst)
    if x.dtype == dst:  # same float type: an integral value in the same format
        return v.astype(dst) if mode == "none" else integral(v, mode).astype(dst)
    return to_float(v, dst, mode)


def inputs(src: str, dst: str) -> np.ndarray:
    """N values of src: ties at .5, near-ties, negatives, values the destination saturates or
    rounds (large integers to float), random values in the destination's range."""
    rng = np.random.default_rng(hash((src, dst)) % 2**32)
    s, d = TYPES[src], TYPES[dst]
    if is_float(s):
        hi = 60000.0 if d == np.float16 or s == np.float16 else 1e6
        if d.kind in "iu":
            hi = min(hi, float(np.iinfo(d).max) * 1.5) if d.itemsize < 4 else hi
        special = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.25, -0.75, 3.5, -3.5, 0.0, 1.0, -1.0, 7.49, -7.51, 100.5]
        if d.kind in "iu":
            special += [float(np.iinfo(d).max) + 10, float(np.iinfo(d).min) - 10] if d.itemsize <= 2 else []
            if d.kind == "u":
                special = [abs(t) for t in special] + [-3.0, -0.5]
        if s == np.float32 and is_float(d) and d != s:
            special += [1 + 2.0 ** -11, 1 + 3 * 2.0 ** -11, -(1 + 2.0 ** -11), 0.1, -0.1, 1 + 2.0 ** -8]
        if s == d:
            special += [1e10, -1e10, 1e-30, 2.0 ** 23 + 0.5, -(2.0 ** 22) - 0.5] if s == np.float32 else [1023.5, -1022.5]
        rest = rng.uniform(-hi, hi, N - len(special))
        rest[: len(rest) // 2] /= 1000
        x = np.concatenate([special, rest])
        if d.kind == "u":
            x = np.abs(x)
        return x.astype(np.float32).astype(s) if s == BF16 else x.astype(s)
    info = np.iinfo(s)
    lo, hi = info.min, info.max
    if d.kind in "iu" and d.itemsize < s.itemsize:
        lo, hi = max(lo, np.iinfo(d).min), min(hi, np.iinfo(d).max)
    if d == np.float16:
        lo, hi = max(lo, -60000), min(hi, 60000)
    if s == np.int64:
        lo, hi = -(2 ** 53), 2 ** 53
    special = [v for v in (0, 1, -1, 2049, -2049, 2 ** 24 + 1, -(2 ** 24) - 3, 2 ** 31 - 1, 33554435) if lo <= v <= hi]
    return np.concatenate([special, rng.integers(lo, hi, N - len(special), endpoint=True)]).astype(s)


@pytest.fixture(scope="module")
def kernels():
    return load("cast_pairs.cpp")


def run(kernels, src: str, dst: str, x: np.ndarray, mode: str) -> np.ndarray:
    z = pyasc.zeros(N, dtype=str(TYPES[dst]), device="sim")
    pyasc_acl.launch(kernels.function(f"cast_{src}_{dst}"), 1, (pyasc.tensor(x, device="sim"), z, N, MODES[mode]))
    return z.numpy()


@pytest.mark.parametrize("mode", ROUNDING)
@pytest.mark.parametrize("pair", PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
def test_cast_pair_and_mode(kernels, pair, mode):
    src, dst = pair
    x = inputs(src, dst)
    if not mode_listed(src, dst, mode):
        z = pyasc.zeros(N, dtype=str(TYPES[dst]), device="sim")
        pyasc_acl.launch(kernels.function(f"cast_{src}_{dst}"), 1,
                         (pyasc.tensor(x, device="sim"), z, N, MODES[mode]))
        with pytest.raises(pyasc_acl.AclKernelError) as info:
            pyasc.synchronize("sim")
        msg = info.value.message
        assert "sanitizer check 'dtype-table'" in msg and f"does not take CAST_{mode.upper()}" in msg, msg
        return
    got = run(kernels, src, dst, x, mode)
    want = model(x, TYPES[dst], mode)
    bits = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[TYPES[dst].itemsize]
    np.testing.assert_array_equal(got.view(bits), want.view(bits), err_msg=f"{src}->{dst} {mode}")


def test_cast_float_to_half_odd(kernels):
    x = inputs("f32", "f16")
    np.testing.assert_array_equal(run(kernels, "f32", "f16", x, "odd").view(np.uint16),
                                  to_float(x.astype(np.float64), np.dtype(np.float16), "odd").view(np.uint16))


@pytest.mark.parametrize("src", ["f32", "f16", "bf16"])
def test_same_float_type_rounds_to_integral_values_as_documented(kernels, src):
    # the documented example, 0.5 -> RINT 0, FLOOR 0, CEIL 1, ROUND 1, TRUNC 0; and 2.5 / -2.5
    x = np.array([0.5, 2.5, -2.5, 1.75] * (N // 4), dtype=np.float32).astype(TYPES[src])
    want = {"rint": [0, 2, -2, 2], "floor": [0, 2, -3, 1], "ceil": [1, 3, -2, 2], "round": [1, 3, -3, 2],
            "trunc": [0, 2, -2, 1], "none": [0.5, 2.5, -2.5, 1.75]}
    for mode, first in want.items():
        if not mode_listed(src, src, mode):  # float -> float CAST_NONE is not in the Atlas A2 table
            continue
        got = run(kernels, src, src, x, mode).astype(np.float64)
        np.testing.assert_array_equal(got[:4], first, err_msg=mode)
        assert got.dtype == np.float64 and (got.reshape(-1, 4) == got[:4]).all()


def test_same_float_type_with_cast_odd_is_reported(kernels):
    """CAST_ODD has no meaning for a float -> same-type cast: the error names the API and the modes (half -> half:
    float -> float CAST_ODD is refused earlier by the Atlas A2 mode table)."""
    stream = pyasc.current_stream("sim")
    x = pyasc.tensor(np.ones(N, np.float16), device="sim")
    z = pyasc.zeros(N, dtype="float16", device="sim")
    pyasc_acl.launch(kernels.function("cast_f16_f16"), 1, (x, z, N, MODES["odd"]), stream=stream)
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        stream.synchronize()
    msg = info.value.message
    assert "sanitizer check 'unsupported'" in msg and "Cast from a float type to the same type" in msg, msg
    assert "not mode 6" in msg, msg
