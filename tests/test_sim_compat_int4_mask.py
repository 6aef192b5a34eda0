"""The mask forms of Cast with packed int4b_t (issue 8 point 6, the gap COMPAT.md listed): half ->
int4b_t with the bit-mask form (CAST_RINT, saturating to [-8, 7], two nibbles per byte, element 0
in the low nibble) and int4b_t -> half with the continuous-mask form, 128 elements per repeat (the
half side's 256 bytes; the int4b_t side strides in 32-byte blocks of 64 elements). Kernel:
backends/sim/kernel_api/tests/kernels/compat/int4_mask_idioms.cpp (ours, in the public style)."""
from __future__ import annotations

import numpy as np

import pyasc
import pyasc_acl
import pyasc_sim

from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat" / "int4_mask_idioms.cpp"
N = 256


def test_int4_mask_form_round_trip_matches_numpy():
    rng = np.random.default_rng(48)
    x = rng.uniform(-11, 11, N).astype(np.float16)
    x[:4] = [0.5, 1.5, -2.5, 7.6]  # ties to even, saturation
    packed = pyasc.zeros((N // 2,), dtype="uint8", device="sim")
    y = pyasc.zeros((N,), dtype="float16", device="sim")
    pyasc.synchronize("sim")
    fn = pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1"), device="sim").function("int4_mask_round_trip")
    pyasc_acl.launch(fn, 1, (pyasc.tensor(x, device="sim"), packed, y))
    pyasc.synchronize("sim")
    q = np.clip(np.rint(x.astype(np.float64)), -8, 7).astype(np.int8)
    assert list(q[:4]) == [0, 2, -2, 7]
    nib = (q & 0xF).astype(np.uint8)
    np.testing.assert_array_equal(packed.numpy(), nib[0::2] | (nib[1::2] << 4))
    np.testing.assert_array_equal(y.numpy(), q.astype(np.float16))
