"""WholeReduceSum / WholeReduceMax in counter mask mode (round 30, s30a; COMPAT.md "Round 30 (s30a)").

SetMaskCount page (atlasascendc_api_07_0097): after SetMaskCount, SetVectorMask sets the number of elements, the vector
call passes isSetMask = false and MASK_PLACEHOLDER, and "repeatTimes传入固定值即可，建议统一设置为1，该值不生效": the
Vector Unit infers the repeats (n / elements-per-repeat full ones, then a partial one). RecSDK's segment_sum_csr reduces
its segments this way; before this round the simulator stopped every such call (`unsupported`).

Our kernel in that idiom: backends/sim/kernel_api/tests/kernels/compat/counter_reduce_idioms.cpp."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
from ascendc_kernels import launch_synced, load, on_sim

SRC = "compat/counter_reduce_idioms.cpp"


@pytest.fixture(scope="module")
def binary():
    return load(SRC)


@pytest.mark.parametrize("n", [1, 37, 64, 200, 1000])
def test_counter_mode_whole_reduce_makes_one_result_per_inferred_repeat(binary, n):
    x = np.random.default_rng(n).uniform(-4, 4, n).astype(np.float32)
    reps = -(-n // 64)
    slots = -(-reps // 8) * 8
    sums = pyasc.full((slots,), -7.0, dtype="float32", device="sim")
    maxes = pyasc.full((slots,), -7.0, dtype="float32", device="sim")
    launch_synced(binary.function("counter_reduce"), 1, (on_sim(x), sums, maxes, n, slots))
    chunks = [x[64 * r:64 * r + 64] for r in range(reps)]
    want_sum = np.array([c.astype(np.float64).sum() for c in chunks] + [0] * (slots - reps))
    want_max = np.array([c.max() for c in chunks] + [0] * (slots - reps), dtype=np.float32)
    np.testing.assert_allclose(sums.numpy(), want_sum, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(maxes.numpy(), want_max)


@pytest.mark.parametrize("op, dst_byte, error", [
    (0, 4, None), (0, 28, None),  # ReduceSum: one float's alignment (page 07_0078)
    (1, 8, None),  # ReduceMax with its index: the 8-byte value + index pair (page 07_0075)
    (0, 2, r"ReduceSum: dst starts at \w+ offset \d+ \(0x[0-9a-f]+\), which is not 4-byte aligned"),
    (1, 4, r"ReduceMax: dst starts at \w+ offset \d+ \(0x[0-9a-f]+\), which is not 8-byte aligned"),
    (2, 4, None),  # the mask form: the same rule
    (2, 2, r"ReduceSum: dst starts at \w+ offset \d+ \(0x[0-9a-f]+\), which is not 4-byte aligned"),
])
def test_reduce_dst_needs_one_results_alignment_not_a_block(binary, op, dst_byte, error):
    # SkychenLee's moe_lora_bgmv_fused writes ReduceSum<float> results 4 bytes into a block; the sanitizer used to
    # demand 32 bytes of every count-form reduce dst (COMPAT "Round 34: totals": a false positive)
    import pyasc_acl
    x = np.random.default_rng(dst_byte).uniform(-4, 4, 48).astype(np.float32)
    out = pyasc.full((16,), -1.0, dtype="float32", device="sim")
    args = (on_sim(x), out, 48, dst_byte, op)
    if error is not None:
        with pytest.raises(pyasc_acl.AclKernelError, match=r"ub-alignment.*" + error):
            launch_synced(binary.function("reduce_dst_at"), 1, args)
        launch_synced(binary.function("reduce_dst_at"), 1, (on_sim(x), out, 48, 8, op))  # the device goes on
        dst_byte = 8
    else:
        launch_synced(binary.function("reduce_dst_at"), 1, args)
    got = out.numpy()
    k = dst_byte // 4
    if op != 1:
        np.testing.assert_allclose(got[k], x.astype(np.float64).sum(), rtol=1e-5)
    else:
        assert got[k] == x.max() and got[k + 1:k + 2].view(np.uint32)[0] == int(np.argmax(x))
    assert np.all(np.delete(got, range(k, k + 1 + (op == 1))) == -7.0)
