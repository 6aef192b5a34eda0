"""The supported Python subset computes what Python computes: a scalar kernel with while, if/elif/
else, a helper, tuple unpacking, static and dynamic ranges, run on the simulator against Python."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc.lang as asc

STEPS = 3


@pyasc.jit
def classify(v, lo: int, hi: int):
    if v > hi:
        return v * 2
    elif v > lo:
        return v + 100
    else:
        return -v


@pyasc.jit
def scalar_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, lo: int, hi: int):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, n)
    z_gm.set_global_buffer(z, n)
    a, b = lo, hi
    a, b = b, a                      # swap: a = hi, b = lo
    for i in range(n):
        v = x_gm.get_value(i)
        r = classify(v, b, a)
        k = 0
        while k < STEPS:             # a static bound (module constant)
            r += k
            k += 1
        for j in range(i % 4, 0, -1):
            r = r - j
        z_gm.set_value(i, r)


def python_reference(xs, lo, hi):
    out = []
    for i, v in enumerate(xs):
        r = v * 2 if v > hi else v + 100 if v > lo else -v
        r += sum(range(STEPS))
        for j in range(i % 4, 0, -1):
            r -= j
        out.append(r)
    return np.array(out, np.int32)


@pytest.mark.parametrize("dtype", ["int32", "float32"])
def test_scalar_kernel_matches_python(dtype):
    xs = np.arange(-20, 44).astype(dtype)
    x, z = pyasc.tensor(xs), pyasc.empty(len(xs), dtype=dtype)
    scalar_kernel[1](x, z, len(xs), 3, 30)
    np.testing.assert_array_equal(z.numpy(), python_reference(xs.tolist(), 3, 30).astype(dtype))
