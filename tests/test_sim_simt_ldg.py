"""Cache-hinted SIMT loads and stores of the Atlas 350 / Ascend 950 (soc="Ascend950PR_9599"):
__ldg<LD_L2CacheType, L1CacheType> / __stg<ST_L2CacheType, L1CacheType>, asc_ldcg / asc_stcg, the CUDA
spellings atomicCAS / atomicAdd / atomicMax, Simt::Ffs and __ffs, in a hash-table kernel of the style
public SIMT code uses (compat/ascend950_simt_ldg.cpp). A hint changes no value: the table matches a
Python dict, and each hinted access is checked like any GM access by the sanitizer."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR, launch_synced

SOC = "Ascend950PR_9599"
SRC = ASCENDC_DIR / "compat" / "ascend950_simt_ldg.cpp"


@pytest.fixture(scope="module")
def kernels():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1", soc=SOC), device="sim")


def ffs(v: int) -> int:
    v &= 0xFFFFFFFF
    return (v & -v).bit_length()


@pytest.mark.parametrize("blocks", [1, 6])
def test_hash_table_through_hinted_loads_and_stores_matches_a_dict(kernels, blocks):
    rng = np.random.default_rng(12 + blocks)
    cap, n = 4096, 3000  # 73% full: long probe chains, many slots claimed by several blocks at once
    keys = rng.permutation(np.unique(rng.integers(1 << 34, 1 << 40, 2 * n, dtype=np.uint64))[:n])
    keys[:8] = [1, 2, 3, 4, 8, 1 << 20, 3 << 31, 1 << 33]  # low words with known lowest set bits (0 for 1 << 33)
    assert len(np.unique(keys)) == n
    vals = rng.integers(0, 1 << 30, n).astype(np.int64)
    t_keys = pyasc.zeros(cap, dtype="int64", device="sim")  # uint64 keys, moved as their int64 bits
    t_vals = pyasc.zeros(cap, dtype="int64", device="sim")
    inserted = pyasc.zeros(1, dtype="int32", device="sim")  # a uint32 counter
    launch_synced(kernels.function("simt_ldg_insert"), blocks,
                  (pyasc.tensor(keys.view(np.int64), device="sim"), pyasc.tensor(vals, device="sim"), t_keys, t_vals, inserted, n,
                   cap - 1))
    assert inserted.numpy()[0] == n
    table = t_keys.numpy().view(np.uint64)
    assert set(table[table != 0].tolist()) == set(keys.tolist())
    stored = dict(zip(table.tolist(), t_vals.numpy().tolist()))
    assert all(stored[k] == v for k, v in zip(keys.tolist(), vals.tolist()))

    absent = np.unique(rng.integers(1 << 40, 1 << 41, 500, dtype=np.uint64))
    queries = np.concatenate([keys[::-1], absent])
    m = len(queries)
    out = pyasc.zeros(2 * m, dtype="int64", device="sim")
    stats = pyasc.tensor(np.array([0, -1], np.int32), device="sim")
    launch_synced(kernels.function("simt_ldg_find"), blocks,
                  (pyasc.tensor(queries.view(np.int64), device="sim"), t_keys, t_vals, out, stats, m, cap - 1))
    got = out.numpy()
    expect = np.concatenate([vals[::-1], np.full(len(absent), -1, np.int64)])
    np.testing.assert_array_equal(got[:m], expect)
    np.testing.assert_array_equal(got[m:], [ffs(int(q)) for q in queries])
    assert stats.numpy().tolist() == [n, int(vals.max())]


def test_hinted_load_and_store_change_no_value(kernels):
    x = pyasc.tensor(np.arange(64, dtype=np.float32), device="sim")
    y = pyasc.zeros(64, dtype="float32", device="sim")
    launch_synced(kernels.function("simt_ldg_probe"), 1, (x, y, 37))
    expect = np.zeros(64, np.float32)
    expect[37] = 38.0
    np.testing.assert_array_equal(y.numpy(), expect)


def expect_error(stream, check: str, *details: str) -> str:
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        stream.synchronize()
    msg = info.value.message
    assert isinstance(info.value, pyasc.PyascError)
    assert f"sanitizer check '{check}' failed" in msg, msg
    for d in details:
        assert d in msg, f"expected {d!r} in {msg!r}"
    return msg


def test_a_hinted_load_past_the_tensor_is_a_sanitizer_error(kernels):
    x = pyasc.zeros(64, dtype="float32", device="sim")
    y = pyasc.zeros(64, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    stream = pyasc.current_stream("sim")
    far = 1 << 26  # 256 MiB past x: no live allocation there
    pyasc_acl.launch(kernels.function("simt_ldg_probe"), 1, (x, y, far), stream=stream)
    expect_error(stream, "gm-out-of-allocation", "__ldg reads 4 bytes at global address",
                 f"{x._data.ptr + 4 * far:#x}")
    np.testing.assert_array_equal(y.numpy(), np.zeros(64, np.float32))


def test_a_hinted_load_of_a_freed_tensor_is_use_after_free(kernels):
    x = pyasc.zeros(64, dtype="float32", device="sim")
    y = pyasc.zeros(64, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    stream = pyasc.current_stream("sim")
    ptr = x._data.ptr
    del x  # back to the cache: the pointer is stale
    pyasc_acl.launch(kernels.function("simt_ldg_probe"), 1, (ptr, y, 3), stream=stream)
    expect_error(stream, "gm-use-after-free", "__ldg reads 4 bytes")


def test_a_hinted_load_of_an_empty_tensor_is_an_uninitialised_read(kernels):
    x = pyasc.empty(64, dtype="float32", device="sim")
    y = pyasc.zeros(64, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    stream = pyasc.current_stream("sim")
    pyasc_acl.launch(kernels.function("simt_ldg_probe"), 1, (x, y, 5), stream=stream)
    expect_error(stream, "gm-uninit-read", "__ldg reads 4 bytes")


@pytest.mark.parametrize("blocks", [1, 3])
def test_a_spin_lock_and_shuffles_after_fences_work_with_threads_as_fibers(kernels, blocks):
    # a thread spinning on a lock another thread of its VF call holds lets it run (fence / failed atomicCAS), and a
    # warp shuffle waits for the lanes that yielded at a fence
    lock = pyasc.zeros(1, dtype="int32", device="sim")
    counter = pyasc.zeros(1, dtype="int64", device="sim")
    sums = pyasc.zeros(blocks * 128, dtype="int32", device="sim")
    launch_synced(kernels.function("simt_ldg_lock"), blocks, (lock, counter, sums))
    assert counter.numpy()[0] == blocks * sum(range(1, 129))
    assert lock.numpy()[0] == 0
    lanes = np.arange(128)
    warp_sums = np.repeat(lanes.reshape(4, 32).sum(axis=1), 32)
    np.testing.assert_array_equal(sums.numpy(), np.tile(warp_sums, blocks))
