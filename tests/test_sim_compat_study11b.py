"""Fixes from the eleventh public-kernel study, helper study11b (backends/sim/kernel_api/COMPAT.md,
"Round 11 (study11b)"): the SDK functions behind DataCopyPad, ``DataCopyPadGm2UBImpl`` /
``DataCopyPadUB2GMImpl``, called on raw ``__ubuf__`` / ``__gm__`` pointers as public kernels do (int64
indices moved as uint32 words), in both prototypes, with DataCopyPad's checks; and ``float16_t``, the
toolchain's name for half. The kernels are our own,
in the style of the public kernels studied (kernels/compat/study11b_idioms.cpp)."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat" / "study11b_idioms.cpp"


# the default build (the compiler's automatic synchronisation on) and one with it off, where the kernel's own
# MTE2_S pair before its GetValue loop orders the reads: clean and the same values in both
@pytest.fixture(scope="module", params=[(), ("--cce-auto-sync=off",)], ids=["auto-sync", "auto-sync-off"])
def kernels(request):
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1", extra_flags=list(request.param)), device="sim")


pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.mark.parametrize("n", [4, 5, 13])
def test_int64_moved_as_uint32_words_matches_numpy(kernels, n):
    x = np.random.default_rng(n).integers(-(2**40), 2**40, n).astype(np.int64)
    xd = pyasc.tensor(x, device="sim")
    out = pyasc.zeros((n,), dtype="int64", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("int64_words_plus_one"), 1, (xd, out, n))
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(out.numpy(), x + 1)


@pytest.mark.parametrize(("n", "right"), [(5, 3), (8, 8), (1, 7)])
def test_older_prototypes_pad_the_row_on_the_right(kernels, n, right):
    x = np.random.default_rng(n).standard_normal(n).astype(np.float32)
    xd = pyasc.tensor(x, device="sim")
    out = pyasc.tensor(np.full(n + right, -1.0, np.float32), device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("float_row_right_pad"), 1, (xd, out, n, right))
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(out.numpy(), np.concatenate([x, np.zeros(right, np.float32)]))


def test_misaligned_ub_pointer_is_reported(kernels):
    xd = pyasc.tensor(np.zeros(8, np.float32), device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("misaligned_ub_copy"), 1, (xd, 8))
    with pytest.raises(pyasc_acl.AclKernelError,
                       match=r"'ub-alignment' failed at .*study11b_idioms\.cpp:\d+: DataCopyPad: dst starts at UB offset 4"):
        pyasc.synchronize("sim")


def test_float16_t_is_half(kernels):
    n = 48
    x = np.random.default_rng(16).uniform(-8, 8, n).astype(np.float16)
    xd = pyasc.tensor(x, device="sim")
    y = pyasc.zeros((n,), dtype="float16", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("float16_t_axpb"), 1, (xd, y, n))
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(y.numpy(), (x * np.float16(2)) + np.float16(0.5))
