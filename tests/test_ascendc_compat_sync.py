"""Cross-core synchronisation and atomics on the simulator (issue 8 point 7): Ascend C kernels in
the style of public code (backends/sim/kernel_api/tests/kernels/xcore.cpp) use SyncAll (hard and
soft), IBSet / IBWait, CrossCoreSetFlag / CrossCoreWaitFlag and SetAtomicAdd / Max / Min; the
results are compared with NumPy. Blocks really run concurrently: launches with many more blocks than
the host has threads must meet without deadlocking. The hangs hardware would show (a SyncAll launch
with more blocks than cores, a block that never reaches the meeting) are reported as errors — those
run in a child process with a timeout, so a regression cannot hang the suite."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import pyasc
import pyasc_acl

from ascendc_kernels import ASCENDC_DIR, kernel_path, load, marked_line

SRC = "xcore.cpp"
TILE = 64
INFO_ROW = 16  # int32 per mix_pipeline info row: one 64-byte data-cache line per core
VECTOR_CORES = 48  # Ascend910B1


@pytest.fixture
def kernels():
    return load(SRC)


def neighbour_expected(x: np.ndarray, blocks: int) -> np.ndarray:
    work = (2 * x).reshape(blocks, TILE)
    return (work + np.roll(work, -1, axis=0)).reshape(-1)


def run_neighbour(kernels, stream, name: str, blocks: int, *extra):
    x_np = np.random.default_rng(blocks).standard_normal(blocks * TILE).astype(np.float32)
    x = pyasc.tensor(x_np, device="sim")
    y = pyasc.zeros(blocks * TILE, dtype="float32", device="sim")
    work = pyasc.zeros(blocks * TILE, dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function(name), blocks, (x, y, work, *extra), stream=stream)
    stream.synchronize()
    return x_np, y.numpy()


@pytest.mark.parametrize("blocks", [1, 2, 8, VECTOR_CORES])
def test_syncall_meets_every_block(kernels, stream, blocks):
    # 48 blocks on a 2-thread host: waiting blocks must not starve the ones not started yet
    x, y = run_neighbour(kernels, stream, "syncall_neighbour", blocks)
    np.testing.assert_allclose(y, neighbour_expected(x, blocks), rtol=1e-6)


def test_syncall_twice(kernels, stream):
    x, y = run_neighbour(kernels, stream, "syncall_twice", 16)
    np.testing.assert_allclose(y, neighbour_expected(x, 16), rtol=1e-6)


def test_crosscore_flag_mode0_is_a_barrier(kernels, stream):
    x, y = run_neighbour(kernels, stream, "flag_barrier_neighbour", 12)
    np.testing.assert_allclose(y, neighbour_expected(x, 12), rtol=1e-6)


def test_soft_syncall_with_zeroed_workspace(kernels, stream):
    blocks = 6
    ws = pyasc.zeros(blocks * 8, dtype="int32", device="sim")  # cores x 32 bytes
    x_np = np.random.default_rng(3).standard_normal(blocks * TILE).astype(np.float32)
    x = pyasc.tensor(x_np, device="sim")
    y = pyasc.zeros(blocks * TILE, dtype="float32", device="sim")
    work = pyasc.zeros(blocks * TILE, dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function("syncall_soft"), blocks, (x, y, work, ws, blocks * 8), stream=stream)
    stream.synchronize()
    np.testing.assert_allclose(y.numpy(), neighbour_expected(x_np, blocks), rtol=1e-6)
    np.testing.assert_array_equal(ws.numpy(), 0)


def expect_error(stream, kernel: str, check: str, where: str, *details: str) -> str:
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        stream.synchronize()
    msg = info.value.message
    assert f"kernel {kernel} block " in msg, msg
    assert f"sanitizer check '{check}' failed at {where}: " in msg, msg
    for d in details:
        assert d in msg, f"expected {d!r} in {msg!r}"
    return msg


def test_soft_syncall_workspace_too_small(kernels, stream):
    blocks = 4
    ws = pyasc.zeros(blocks * 8 - 1, dtype="int32", device="sim")
    x = pyasc.zeros(blocks * TILE, dtype="float32", device="sim")
    y = pyasc.zeros(blocks * TILE, dtype="float32", device="sim")
    work = pyasc.zeros(blocks * TILE, dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function("syncall_soft"), blocks, (x, y, work, ws, blocks * 8 - 1), stream=stream)
    expect_error(stream, "syncall_soft", "cross-core-workspace", marked_line(SRC, "cross-core-workspace"),
                 "gmWorkspace holds 124 bytes (31 int32_t), but 4 cores need at least 128 bytes")


def test_soft_syncall_workspace_not_zeroed(kernels, stream):
    blocks = 4
    ws_np = np.zeros(blocks * 8, dtype=np.int32)
    ws_np[9] = 5
    ws = pyasc.tensor(ws_np, device="sim")
    x = pyasc.zeros(blocks * TILE, dtype="float32", device="sim")
    y = pyasc.zeros(blocks * TILE, dtype="float32", device="sim")
    work = pyasc.zeros(blocks * TILE, dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function("syncall_soft"), blocks, (x, y, work, ws, blocks * 8), stream=stream)
    expect_error(stream, "syncall_soft", "cross-core-workspace", marked_line(SRC, "cross-core-workspace"),
                 "gmWorkspace[9] is 5 when first used; the workspace must be zeroed")


@pytest.mark.parametrize("blocks", [2, 9, 40])
def test_ibset_ibwait_chain(kernels, stream, blocks):
    x_np = np.random.default_rng(blocks).standard_normal(blocks * TILE).astype(np.float32)
    x = pyasc.tensor(x_np, device="sim")
    y = pyasc.zeros(blocks * TILE, dtype="float32", device="sim")
    ints = blocks * 8  # one event id: cores x 32 bytes
    ws = pyasc.zeros(ints, dtype="int32", device="sim")
    pyasc_acl.launch(kernels.function("ib_prefix_sum"), blocks, (x, y, ws, ints), stream=stream)
    stream.synchronize()
    expected = np.cumsum(x_np.reshape(blocks, TILE).astype(np.float64), axis=0).reshape(-1)
    np.testing.assert_allclose(y.numpy(), expected, rtol=1e-5, atol=1e-5)
    # every IBWait consumed its IBSet except the last block's, which nobody waits for
    flags = ws.numpy().reshape(blocks, 8)[:, 0]
    np.testing.assert_array_equal(flags, [0] * (blocks - 1) + [1])


# ---- atomics -------------------------------------------------------------------------------------

ATOMIC_CASES = [
    ("atomic_add_f32", "float32", "add"),
    ("atomic_add_f16", "float16", "add"),
    ("atomic_add_bf16", "bfloat16", "add"),
    ("atomic_add_i32", "int32", "add"),
    ("atomic_add_i16", "int16", "add"),
    ("atomic_max_f32", "float32", "max"),
    ("atomic_min_f32", "float32", "min"),
    ("atomic_max_i32", "int32", "max"),
    ("atomic_min_f16", "float16", "min"),
]


def _np_dtype(name: str):
    if name == "bfloat16":
        import ml_dtypes

        return ml_dtypes.bfloat16
    return np.dtype(name)


@pytest.mark.parametrize("kernel,dtype,op", ATOMIC_CASES, ids=[c[0] for c in ATOMIC_CASES])
def test_atomic_reduction_across_blocks(kernels, stream, kernel, dtype, op):
    if dtype == "bfloat16":
        pytest.importorskip("ml_dtypes")
    blocks = 24
    rng = np.random.default_rng(11)
    npdt = _np_dtype(dtype)
    if np.dtype(npdt).kind == "i":
        x_np = rng.integers(-50, 50, size=blocks * TILE).astype(npdt)
        init = rng.integers(-50, 50, size=TILE).astype(npdt)
    else:
        # small integers: every order of the additions gives the same exact result
        x_np = rng.integers(-8, 8, size=blocks * TILE).astype(np.float32).astype(npdt)
        init = rng.integers(-8, 8, size=TILE).astype(np.float32).astype(npdt)
    x = pyasc.tensor(x_np, device="sim")
    y = pyasc.tensor(init, device="sim")
    pyasc_acl.launch(kernels.function(kernel), blocks, (x, y), stream=stream)
    stream.synchronize()
    parts = np.concatenate([init[None, :], x_np.reshape(blocks, TILE)]).astype(np.float64)
    expected = {"add": parts.sum(axis=0), "max": parts.max(axis=0), "min": parts.min(axis=0)}[op]
    np.testing.assert_array_equal(y.numpy().astype(np.float64), expected)


def test_plain_writes_of_many_blocks_to_the_same_bytes_are_an_overlap(kernels, stream):
    x = pyasc.zeros(4 * TILE, dtype="float32", device="sim")
    y = pyasc.zeros(TILE, dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function("plain_overlap_f32"), 4, (x, y), stream=stream)
    with pytest.raises(pyasc_acl.AclKernelError, match="gm-write-overlap"):
        stream.synchronize()


# ---- mixed cube/vector kernels (issue 8 point 8) -------------------------------------------------


@pytest.mark.parametrize("groups", [1, 3, 24])
def test_mixed_kernel_runs_one_aic_and_two_aiv_per_block(kernels, stream, groups):
    x_np = np.random.default_rng(groups).standard_normal(2 * TILE * groups).astype(np.float32)
    x = pyasc.tensor(x_np, device="sim")
    y = pyasc.zeros(2 * TILE * groups, dtype="float32", device="sim")
    work = pyasc.zeros(2 * TILE * groups, dtype="float32", device="sim")
    # one 64-byte info row (16 int32) per core: each core stores its row through its own data cache
    info = pyasc.full((3 * groups * INFO_ROW,), -1, dtype="int32", device="sim")
    pyasc_acl.launch(kernels.function("mix_pipeline"), groups, (x, y, work, info), stream=stream)
    stream.synchronize()
    np.testing.assert_allclose(y.numpy(), 3 * x_np + 1, rtol=1e-6)
    rows = info.numpy().reshape(3 * groups, INFO_ROW)
    for tile in range(2 * groups):  # the AIV: GetBlockIdx = group * 2 + sub, ratio 2
        assert list(rows[tile, :4]) == [tile, 2, groups, tile % 2]
    for g in range(groups):  # the AIC: GetBlockIdx = group, ratio 1, both AIV signalled back
        assert list(rows[2 * groups + g, :4]) == [g, 1, groups, 1]
    assert (rows[:, 4:] == -1).all()  # nothing else written


def test_mixed_launch_is_costed_in_waves_of_ai_cores(kernels, stream):
    # 24 AI Cores on 910B1: 25 mixed blocks need a second wave, 24 do not
    from ascendc_kernels import timed_launch

    def cost(groups):
        x = pyasc.zeros(2 * TILE * groups, dtype="float32", device="sim")
        y = pyasc.zeros(2 * TILE * groups, dtype="float32", device="sim")
        work = pyasc.zeros(2 * TILE * groups, dtype="float32", device="sim")
        info = pyasc.zeros(3 * groups * INFO_ROW, dtype="int32", device="sim")
        return timed_launch(kernels.function("mix_pipeline"), groups, (x, y, work, info), stream)

    one_wave, two_waves = cost(24), cost(25)
    assert two_waves > 1.5 * one_wave, (one_wave, two_waves)


# ---- planted hangs, in a child process with a timeout ---------------------------------------------

CHILD = textwrap.dedent("""
    import sys
    import numpy as np
    import pyasc, pyasc_acl
    binary = pyasc_acl.Binary(sys.argv[1], device="sim")
    name, blocks = sys.argv[2], int(sys.argv[3])
    extra = [pyasc.zeros(int(a[3:]), dtype="int32", device="sim") if a.startswith("ws:") else int(a)
             for a in sys.argv[4:]]
    x = pyasc.zeros(blocks * 64, dtype="float32", device="sim")
    y = pyasc.zeros(blocks * 64, dtype="float32", device="sim")
    w = pyasc.zeros(blocks * 64, dtype="float32", device="sim")
    s = pyasc.current_stream("sim")
    pyasc_acl.launch(binary.function(name), blocks, (x, y, w, *extra), stream=s)
    try:
        s.synchronize()
    except pyasc_acl.AclKernelError as e:
        print("ERROR", e.message)
        sys.exit(0)
    print("OK")
""")


def run_child(tmp_path, *args: str) -> str:
    env = dict(os.environ, PYASC_SIM_OP_TIMEOUT="60")
    proc = subprocess.run([sys.executable, "-c", CHILD, kernel_path(SRC), *args], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path, env=env)  # outside the checkout: the installed build
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_syncall_with_more_blocks_than_cores_is_an_error(tmp_path):
    out = run_child(tmp_path, "syncall_neighbour", str(VECTOR_CORES + 1))
    assert out.startswith("ERROR"), out
    assert "sanitizer check 'cross-core-too-many-blocks' failed" in out
    assert f"SyncAll() in a launch of {VECTOR_CORES + 1} blocks, but the SoC (Ascend910B1) has {VECTOR_CORES}" in out


def test_mixed_syncall_with_more_blocks_than_ai_cores_is_an_error(tmp_path):
    out = run_child(tmp_path, "mix_syncall", "25")
    assert out.startswith("ERROR"), out
    assert "sanitizer check 'cross-core-too-many-blocks' failed" in out
    assert "SyncAll() in a launch of 25 blocks, but the SoC (Ascend910B1) has 24 AI Cores" in out


def test_mixed_syncall_meets_every_core(tmp_path):
    assert run_child(tmp_path, "mix_syncall", "24").startswith("OK")


def test_block_that_skips_syncall_is_a_deadlock_error(tmp_path):
    out = run_child(tmp_path, "syncall_skipped", "6", "2")
    assert out.startswith("ERROR"), out
    assert f"sanitizer check 'cross-core-deadlock' failed at {marked_line(SRC, 'cross-core-deadlock')}" in out
    assert "waits in SyncAll(), and every other block of the launch has ended or waits too" in out
    assert "on hardware the cores hang" in out


def test_ibwait_for_an_event_never_set_is_a_deadlock_error(tmp_path):
    out = run_child(tmp_path, "ib_wait_unset", "3", "ws:48")
    assert out.startswith("ERROR"), out
    assert f"sanitizer check 'cross-core-deadlock' failed at {marked_line(SRC, 'ib-wait-unset')}" in out
    assert "block 0 waits in IBWait(blockIdx = 1, eventID = 1)" in out


def test_strict_compile_option_makes_warnings_errors(stream):
    import pyasc_sim

    from ascendc_kernels import ASCENDC_DIR as KDIR

    path = pyasc_sim.compile(KDIR / "sanitizer.cpp", opt="-O1", extra_flags=["-DPYASC_SIM_STRICT=1"])
    fn = pyasc_acl.Binary(path, device="sim").function("queue_leak")
    x = pyasc.zeros(3 * 64, dtype="float32", device="sim")
    z = pyasc.zeros(3 * 64, dtype="float32", device="sim")
    pyasc_acl.launch(fn, 3, (x, z, 1), stream=stream)
    with pytest.raises(pyasc_acl.AclKernelError, match="sanitizer check 'queue-leak' failed"):
        stream.synchronize()
