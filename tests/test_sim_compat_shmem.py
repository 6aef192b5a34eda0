"""The SHMEM device layer (kernel_api/include/pyasc_sim/kapi/shmem.h, entry headers shmem_api.h / shmem.h)
and its host side (pyasc_sim.shmem.Team): kernels written against the SHMEM SDK run on 2-4 PEs with
symmetric heaps on one simulated device -- PE identity, shmem_ptr translation, MTE put / get through a
UB buffer (with SetAtomicAdd), typed UB / GM puts and gets, signals, barriers -- and match NumPy with
the checks on; a transfer outside the peer's heap is `shmem-out-of-heap` naming PE and offset.
Kernels: backends/sim/kernel_api/tests/kernels/compat/shmem_rma_idioms.cpp."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
from ascendc_kernels import load, marked_line, on_sim

from pyasc_core.errors import ArgumentError

SRC = "compat/shmem_rma_idioms.cpp"
SYNC = 16  # int32 per signal word (kSyncInterval)


@pytest.fixture(scope="module")
def binary():
    return load(SRC)


def team(n_pes: int, heap: int = 1 << 16):
    from pyasc_sim.shmem import Team

    return Team(n_pes, heap_size=heap)


@pytest.mark.parametrize("n_pes,blocks", [(2, 1), (3, 2), (4, 3)])
def test_pe_identity_and_block_numbers_are_per_pe(binary, n_pes, blocks):
    t = team(n_pes)
    ids = [pyasc.zeros((blocks * 16,), dtype="int32", device="sim") for _ in range(n_pes)]
    t.launch(binary.function("shmem_identity"), blocks, lambda pe: (ids[pe],))
    t.synchronize()
    for pe in range(n_pes):
        got = ids[pe].numpy().reshape(blocks, 16)[:, :5]
        np.testing.assert_array_equal(got, [[pe, n_pes, b, blocks, 32] for b in range(blocks)])


@pytest.mark.parametrize("n_pes,blocks,n", [(2, 1, 64), (3, 2, 1000), (4, 4, 77), (2, 1, 6000)])  # 6000: chunks of the UB buffer
def test_allgather_matches_numpy(binary, n_pes, blocks, n):
    t = team(n_pes)
    rng = np.random.default_rng(n)
    xs = [rng.standard_normal(n).astype(np.float32) for _ in range(n_pes)]
    gva = t.zeros((n_pes * n,), "float32")
    ys = [pyasc.zeros((n_pes * n,), dtype="float32", device="sim") for _ in range(n_pes)]
    xd = [on_sim(x) for x in xs]
    t.launch(binary.function("shmem_allgather"), blocks, lambda pe: (xd[pe], gva, ys[pe], n))
    t.synchronize()
    want = np.concatenate(xs)
    for pe in range(n_pes):
        np.testing.assert_array_equal(ys[pe].numpy(), want)
        np.testing.assert_array_equal(gva.numpy(pe), want)  # every PE's symmetric copy


@pytest.mark.parametrize("n_pes,blocks", [(2, 2), (4, 3)])
def test_put_signal_wait_ring_matches_numpy(binary, n_pes, blocks):
    n = 300
    t = team(n_pes)
    xs = [np.arange(n, dtype=np.float32) + 1000 * pe for pe in range(n_pes)]
    xd = [on_sim(x) for x in xs]
    gva = t.malloc(blocks * SYNC * 4 + n * 4)
    ys = [pyasc.zeros((n,), dtype="float32", device="sim") for _ in range(n_pes)]
    for magic in (5, 6):  # a second launch waits for the next value
        t.launch(binary.function("shmem_ring"), blocks, lambda pe: (xd[pe], gva, ys[pe], n, magic))
        t.synchronize()
        for pe in range(n_pes):
            np.testing.assert_array_equal(ys[pe].numpy(), xs[(pe - 1) % n_pes])
            sig = gva.numpy(pe)[:blocks * SYNC * 4].view(np.int32).reshape(blocks, SYNC)[:, 0]
            np.testing.assert_array_equal(sig, magic)


@pytest.mark.parametrize("n_pes,blocks,chunk", [(2, 1, 64), (3, 2, 250), (4, 2, 33)])
def test_reduce_scatter_with_atomic_add_gets_matches_numpy(binary, n_pes, blocks, chunk):
    t = team(n_pes)
    rng = np.random.default_rng(chunk)
    xs = [rng.integers(-50, 50, n_pes * chunk).astype(np.float32) for _ in range(n_pes)]
    xd = [on_sim(x) for x in xs]
    gva = t.malloc(blocks * SYNC * 4 + n_pes * chunk * 4)
    ys = [pyasc.zeros((chunk,), dtype="float32", device="sim") for _ in range(n_pes)]
    t.launch(binary.function("shmem_reduce_scatter"), blocks, lambda pe: (xd[pe], gva, ys[pe], chunk, 9))
    t.synchronize()
    total = np.sum(xs, axis=0).reshape(n_pes, chunk)
    for pe in range(n_pes):
        np.testing.assert_array_equal(ys[pe].numpy(), total[pe])


def test_typed_ub_and_gm_puts_and_gets_match_numpy(binary):
    n_pes, n = 3, 40
    t = team(n_pes)
    xs = [np.arange(n, dtype=np.int32) * (pe + 1) - pe for pe in range(n_pes)]
    xd = [on_sim(x) for x in xs]
    gva = t.zeros((n_pes * n,), "int32")
    ys = [pyasc.zeros((n_pes * n,), dtype="int32", device="sim") for _ in range(n_pes)]
    t.launch(binary.function("shmem_gather_to_root"), 2, [(xd[pe], gva, ys[pe], n) for pe in range(n_pes)])
    t.synchronize()
    for pe in range(n_pes):
        np.testing.assert_array_equal(ys[pe].numpy(), np.concatenate(xs))
    np.testing.assert_array_equal(gva.numpy(1), 0)  # only PE 0's copy was written


def test_symmetric_array_write_reaches_only_that_pe():
    t = team(2)
    a = t.zeros((8,), "float32")
    a.write(1, np.arange(8))
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(a.numpy(0), 0)
    np.testing.assert_array_equal(a.numpy(1), np.arange(8))
    assert a.address(1) - a.address(0) == t.heap_address(1) - t.heap_address(0)


def bad_launch(binary, kernel, mode):
    """Runs `kernel(gva, y, heap, mode)` on 2 PEs whose gva is the whole 64 KiB heap; the kernel error's message."""
    heap = 1 << 16
    t = team(2, heap)
    gva = t.malloc(heap)  # the whole heap: gva is its base on every PE
    ys = [pyasc.zeros((64,), dtype="float32", device="sim") for _ in range(2)]
    pyasc.synchronize("sim")
    t.launch(binary.function(kernel), 1, lambda pe: (gva, ys[pe], heap, mode))
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        t.synchronize()
    return info.value.message


@pytest.mark.parametrize("mode,marker,what", [
    (0, "past-end", "256 bytes at offset 65504 of the symmetric heap"),
    (1, "not-heap", "are not inside the 65536-byte heap of PE 0"),
    (2, "bad-pe", "PE 2 does not exist (the team has PEs 0 .. 1)"),
    (3, "before-heap", "at offset -64 of the symmetric heap"),
])
def test_a_transfer_outside_the_heap_names_pe_and_offset(binary, mode, marker, what):
    msg = bad_launch(binary, "shmem_bad", mode)
    check = "shmem-bad-pe" if mode == 2 else "shmem-out-of-heap"
    assert f"sanitizer check '{check}' failed at {marked_line(SRC, marker)}" in msg, msg
    assert what in msg, msg
    assert "on PE 0" in msg or "on PE 1" in msg, msg


def test_a_shmem_call_outside_a_team_launch_is_named(binary):
    ids = pyasc.zeros((16,), dtype="int32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("shmem_identity"), 1, (ids,))
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        pyasc.synchronize("sim")
    assert "sanitizer check 'shmem-not-initialised' failed" in info.value.message
    assert "pyasc_sim.shmem.Team.launch" in info.value.message


def test_bad_team_arguments_are_pyasc_errors(binary):
    with pytest.raises(ArgumentError, match="n_pes must be an int in 1..16"):
        team(0)
    with pytest.raises(ArgumentError, match="heap_size must be a positive multiple of 512"):
        team(2, 1000)
    t = team(2, 1024)
    with pytest.raises(ArgumentError, match="do not fit"):
        t.zeros((2048,), "uint8")
    with pytest.raises(ArgumentError, match="2 argument tuples for ... PEs|1 argument tuples for 2 PEs"):
        t.launch(binary.function("shmem_identity"), 1, [(0,)])
    with pytest.raises(ArgumentError, match="blocks must be an int in 1..64"):
        t.launch(binary.function("shmem_identity"), 65, lambda pe: (0,))
    with pytest.raises(ArgumentError, match=r"PE 2 does not exist: the team has PEs 0\.\.1"):
        t.heap_address(2)
    sym = t.zeros((4,), "float32")
    with pytest.raises(ArgumentError, match=r"value has shape \(3,\), the array \(4,\)"):
        sym.write(0, np.zeros(3, dtype=np.float32))
    np.testing.assert_array_equal(sym.numpy(1), np.zeros(4, dtype=np.float32))  # nothing written


def test_a_wait_nothing_can_satisfy_is_a_deadlock_not_a_hang(binary):
    t = team(2)
    gva = t.malloc(2 * SYNC * 4)
    pyasc.synchronize("sim")
    t.launch(binary.function("shmem_wait_forever"), 2, lambda pe: (gva, 7))
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        t.synchronize()
    msg = info.value.message
    assert f"sanitizer check 'cross-core-deadlock' failed at {marked_line(SRC, 'wait-forever')}" in msg, msg
    assert "shmem_signal_wait_until" in msg, msg


@pytest.mark.parametrize("n_pes", [2, 3])
def test_a_flag_polled_through_a_one_word_get_orders_the_data(binary, n_pes):
    # zccl's big-data reduce-scatter polls its peer's flag with shmem_get_int32_mem_nbi(ub, flag, 1, pe): a poll,
    # so gm-cross-core-race sees the data read after it as ordered (before: a race on the flag word)
    n = 200
    t = team(n_pes)
    xs = [np.arange(n, dtype=np.float32) * (pe + 2) for pe in range(n_pes)]
    xd = [on_sim(x) for x in xs]
    gva = t.malloc(SYNC * 4 + n * 4)
    ys = [pyasc.zeros((n,), dtype="float32", device="sim") for _ in range(n_pes)]
    t.launch(binary.function("shmem_ring_polled"), 1, lambda pe: (xd[pe], gva, ys[pe], n, 3))
    t.synchronize()
    for pe in range(n_pes):
        np.testing.assert_array_equal(ys[pe].numpy(), xs[(pe - 1) % n_pes])


# ---- round 32 (s32b): strided puts / gets (non_contiguous_copy_param, counted in elements) ----

@pytest.mark.parametrize("n_pes,rows,cols,half", [(2, 4, 24, 8), (2, 50, 40, 16), (3, 6, 16, 8)])
def test_strided_puts_and_gets_match_numpy(binary, n_pes, rows, cols, half):
    # (2, 50, 40, 16): the GM -> GM forms stage 50 rows of 24 floats through 4 KiB / 16 KiB of UB in several rounds
    t = team(n_pes)
    rng = np.random.default_rng(rows * cols)
    xs = [rng.standard_normal((rows, cols)).astype(np.float32) for _ in range(n_pes)]
    xd = [on_sim(x) for x in xs]
    gva = t.zeros((rows * half + rows * cols,), "float32")
    y1 = [pyasc.zeros((rows * cols,), dtype="float32", device="sim") for _ in range(n_pes)]
    y2 = [pyasc.zeros((rows * (cols - half),), dtype="float32", device="sim") for _ in range(n_pes)]
    y3 = [pyasc.zeros((rows * half,), dtype="float32", device="sim") for _ in range(n_pes)]
    t.launch(binary.function("shmem_strided"), 2, lambda pe: (xd[pe], gva, y1[pe], y2[pe], y3[pe], rows, cols, half))
    t.synchronize()
    for pe in range(n_pes):
        prev = xs[(pe - 1) % n_pes]
        want1 = np.zeros((rows, cols), np.float32)
        want1[:, :half] = prev[:, :half]
        np.testing.assert_array_equal(y1[pe].numpy().reshape(rows, cols), want1)
        np.testing.assert_array_equal(y2[pe].numpy().reshape(rows, cols - half), prev[:, half:])
        np.testing.assert_array_equal(y3[pe].numpy().reshape(rows, half), prev[:, :half])
        sym = gva.numpy(pe)
        np.testing.assert_array_equal(sym[:rows * half].reshape(rows, half), prev[:, :half])  # packed by dst_ld
        b = sym[rows * half:].reshape(rows, cols)
        np.testing.assert_array_equal(b[:, :cols - half], prev[:, half:])
        np.testing.assert_array_equal(b[:, cols - half:], 0)  # the gaps of dst_ld are not written


@pytest.mark.parametrize("mode,marker,check,what", [
    (0, "strided-past-end", "shmem-out-of-heap", "288 bytes at offset 65280 of the symmetric heap"),
    (1, "short-ld", "shmem-bad-copy-param",
     "non_contiguous_copy_param{repeat 2, length 16, src_ld 8, dst_ld 16}: a leading dimension is shorter than a row"),
    (2, "too-many-rows", "shmem-bad-copy-param", "5000 rows in one DMA between UB and GM, more than its 4095 bursts"),
    (3, "get-past-end", "shmem-out-of-heap", "98336 bytes at offset 0 of the symmetric heap"),
])
def test_a_bad_strided_copy_is_named(binary, mode, marker, check, what):
    msg = bad_launch(binary, "shmem_strided_bad", mode)
    assert f"sanitizer check '{check}' failed at {marked_line(SRC, marker)}" in msg, msg
    assert what in msg, msg
