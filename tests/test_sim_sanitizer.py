"""The simulator's sanitizer, seen from Python: deliberately wrong Ascend C kernels
(backends/sim/kernel_api/tests/kernels/sanitizer.cpp, one per check, wrong in one block only) are
compiled with pyasc_sim.compile, loaded with pyasc_acl.Binary and launched with pyasc_acl.launch on sim tensors.

Every failure must surface at synchronize as the kernel-exception AclError
(ACL_ERROR_RT_AICORE_EXCEPTION, 507015, a pyasc.PyascError) whose message names the kernel, the
block, the check, the offending address / size / values and the kernel source line (marked
``// BAD(...)`` in the source); the failing block stops at that instruction, the other blocks
finish; and the device stays usable. PYASC_SIM_CHECKS=0 (read at every launch) turns the checks off.
"""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl

from ascendc_kernels import load, marked_line, source_line

SRC = "sanitizer.cpp"
BLOCKS = 3
CHUNK = 64  # floats per block (kChunk in the kernels)
UNTOUCHED = -7.0


@pytest.fixture
def kernels():
    return load(SRC)


@pytest.fixture
def stream():
    # the current stream, where the tensors below are filled: launches see their data
    return pyasc.current_stream("sim")


@pytest.fixture
def x():
    return pyasc.tensor(np.arange(BLOCKS * CHUNK, dtype=np.float32) * 0.5 + 1.0, device="sim")


@pytest.fixture
def z():
    return pyasc.full((BLOCKS * CHUNK,), UNTOUCHED, dtype="float32", device="sim")


@pytest.fixture
def bystander():
    """A tensor no kernel is given: it must come out of every failure unchanged."""
    data = np.random.default_rng(7).standard_normal(4096).astype(np.float32)
    return data, pyasc.tensor(data, device="sim")


def chunks(t: pyasc.Tensor) -> list[np.ndarray]:
    return np.split(t.numpy(), BLOCKS)


def expect_kernel_error(stream: pyasc.Stream, kernel: str, block: int, check: str, where: str,
                        *details: str) -> str:
    """Synchronize ``stream`` and check the sanitizer error it reports; returns the message."""
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        stream.synchronize()
    err = info.value
    assert isinstance(err, pyasc.PyascError)
    assert err.code == 507015 and err.name == "ACL_ERROR_RT_AICORE_EXCEPTION"
    head = f"kernel {kernel} block {block}: sanitizer check '{check}' failed at {where}: "
    assert head in err.message, f"expected {head!r} in {err.message!r}"
    assert head in str(err)
    for detail in details:
        assert detail in err.message, f"expected {detail!r} in {err.message!r}"
    return err.message


def assert_device_usable(kernels, stream: pyasc.Stream, bystander) -> None:
    """After a failure: the stream reports nothing more, a correct kernel runs on it and gives the
    right result, and memory no kernel was given is unchanged."""
    stream.synchronize()  # the error was reported once and cleared
    data = np.linspace(-3, 3, BLOCKS * CHUNK, dtype=np.float32)
    x = pyasc.tensor(data, device="sim")
    z = pyasc.zeros(BLOCKS * CHUNK, dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function("fine"), BLOCKS, (x, z), stream=stream)
    stream.synchronize()
    np.testing.assert_array_equal(z.numpy(), data * 2 + 1)
    np.testing.assert_array_equal(bystander[1].numpy(), bystander[0])


# ---- global memory ---------------------------------------------------------------------------


def test_gm_read_past_the_global_tensor_size(kernels, stream, x, z, bystander):
    pyasc_acl.launch(kernels.function("read_past_size"), BLOCKS, (x, z, 1), stream=stream)
    chunk1 = x._data.ptr + CHUNK * 4
    msg = expect_kernel_error(
        stream, "read_past_size", 1, "gm-out-of-bounds", marked_line(SRC, "gm-out-of-bounds read"),
        "DataCopy reads elements [0, 192)", f"768 bytes at global address {chunk1:#x}",
        f"of a GlobalTensor of 64 elements (SetGlobalBuffer({chunk1:#x}, 64))", "128 elements past its end",
    )
    # the read leaves the memory x points into: an error, not the warning gm-read-past-size of a read
    # that stays inside it (tests/test_sim_compat_scalar_list.py)
    assert "stays inside" not in msg
    # blocks 0 and 2 finished; block 1 stopped at the bad DataCopy, before writing anything
    out, xs = chunks(z), chunks(x)
    np.testing.assert_array_equal(out[0], xs[0] + 1)
    np.testing.assert_array_equal(out[1], UNTOUCHED)
    np.testing.assert_array_equal(out[2], xs[2] + 1)
    assert_device_usable(kernels, stream, bystander)


def test_gm_write_past_the_global_tensor_size(kernels, stream, x, z, bystander):
    pyasc_acl.launch(kernels.function("write_past_size"), BLOCKS, (x, z, 0), stream=stream)
    expect_kernel_error(
        stream, "write_past_size", 0, "gm-out-of-bounds", marked_line(SRC, "gm-out-of-bounds write"),
        "DataCopy writes elements [0, 128)", f"512 bytes at global address {z._data.ptr:#x}",
        "of a GlobalTensor of 64 elements", "64 elements past its end",
        # block 0 wrote into block 1's chunk of the same tensor: the NPU would not notice, the message says why
        # it matters
        "the access stays inside the memory block", "not another core's slice",
    )
    # the write was stopped: block 0 wrote nothing, and block 1's chunk holds block 1's result,
    # not block 0's overrun (-5.0 filler)
    out, xs = chunks(z), chunks(x)
    np.testing.assert_array_equal(out[0], UNTOUCHED)
    np.testing.assert_array_equal(out[1], xs[1] + 1)
    np.testing.assert_array_equal(out[2], xs[2] + 1)
    assert_device_usable(kernels, stream, bystander)


@pytest.mark.parametrize("case", ["past-the-end", "freed", "never-allocated"])
def test_gm_access_outside_any_allocation(kernels, stream, x, z, bystander, case):
    raw = kernels.backend.raw_device(kernels.device)
    if case == "past-the-end":
        mem = raw.malloc(4096)  # aclrtMalloc: exactly 4096 bytes
        where, offset = mem.ptr, 1000  # 64 floats from byte 4000: 160 bytes past the end
        details = [f"DataCopy reads 256 bytes at global address {mem.ptr + 4000:#x}",
                   f"the access ends 160 bytes past the end of the 4096-byte device allocation at {mem.ptr:#x}"]
    elif case == "freed":
        mem = raw.malloc(4096)
        where, offset = mem.ptr, 0
        mem.free()  # a stale pointer
        details = [f"DataCopy reads 256 bytes at global address {where:#x}, which is not inside any live "
                   "device allocation", "freed"]
    else:
        where, offset = 0x1000, 0  # an address that was never device memory
        details = ["DataCopy reads 256 bytes at global address 0x1000, which is not inside any live device "
                   "allocation"]
    pyasc_acl.launch(kernels.function("read_elsewhere"), BLOCKS, (x, z, where, offset, 2), stream=stream)
    expect_kernel_error(stream, "read_elsewhere", 2, "gm-out-of-allocation",
                        marked_line(SRC, "gm-out-of-allocation"), *details)
    out, xs = chunks(z), chunks(x)
    np.testing.assert_array_equal(out[0], xs[0])
    np.testing.assert_array_equal(out[1], xs[1])
    np.testing.assert_array_equal(out[2], UNTOUCHED)
    assert_device_usable(kernels, stream, bystander)


def test_overlapping_writes_from_two_blocks(kernels, stream, z, bystander):
    # block b writes 64 floats at z + 56 * b: blocks 0 and 1 (and 1 and 2) share 8 floats
    pyasc_acl.launch(kernels.function("strided_store"), BLOCKS, (z, 56), stream=stream)
    base, line = z._data.ptr, marked_line(SRC, "gm-write-overlap")
    # found by the runtime after the launch, from the ranges (and lines) each block wrote
    expect_kernel_error(
        stream, "strided_store", 1, "gm-write-overlap", line,
        f"blocks 0 and 1 both wrote global memory [{base + 56 * 4:#x}, {base + 64 * 4:#x}) (32 bytes overlap) "
        f"in one launch (block 0 at {line}, block 1 at {line})",
    )
    assert_device_usable(kernels, stream, bystander)

    # the same kernel with disjoint slices is fine
    pyasc_acl.launch(kernels.function("strided_store"), BLOCKS, (z, CHUNK), stream=stream)
    stream.synchronize()
    np.testing.assert_array_equal(z.numpy(), np.repeat(np.arange(BLOCKS, dtype=np.float32), CHUNK))


def test_overlapping_writes_name_the_line_of_each_block(kernels, stream, z, bystander):
    # block 1 stores one float into block 0's chunk with GlobalTensor::SetValue
    pyasc_acl.launch(kernels.function("stray_store"), BLOCKS, (z, 10), stream=stream)
    chunk, scalar = marked_line(SRC, "gm-write-overlap chunk"), marked_line(SRC, "gm-write-overlap scalar")
    expect_kernel_error(
        stream, "stray_store", 1, "gm-write-overlap", scalar,
        f"blocks 0 and 1 both wrote global memory [{z._data.ptr + 40:#x}, {z._data.ptr + 44:#x}) (4 bytes overlap)",
        f"(block 0 at {chunk}, block 1 at {scalar})",
    )
    assert_device_usable(kernels, stream, bystander)

    pyasc_acl.launch(kernels.function("stray_store"), BLOCKS, (z, CHUNK + 10), stream=stream)  # its own chunk
    stream.synchronize()
    want = np.repeat(np.arange(BLOCKS, dtype=np.float32), CHUNK)
    want[CHUNK + 10] = 42
    np.testing.assert_array_equal(z.numpy(), want)


# ---- local buffers ---------------------------------------------------------------------------


def test_ub_capacity_exceeded_by_init_buffer(kernels, stream, x, bystander):
    pyasc_acl.launch(kernels.function("ub_overflow"), BLOCKS, (x, 1), stream=stream)
    expect_kernel_error(
        stream, "ub_overflow", 1, "buffer-capacity", marked_line(SRC, "buffer-capacity UB"),
        "InitBuffer: a VECOUT queue of 2 x 40960 bytes (81920 bytes after 32-byte rounding) does not fit",
        "131072 of the 196608-byte UB are already in use", "exceeds it by 16384 bytes",
    )
    assert_device_usable(kernels, stream, bystander)


@pytest.mark.parametrize("where, memory, position, capacity", [
    (0, "L1", "A1", 512 * 1024),
    (1, "L0A", "A2", 64 * 1024),
    (2, "L0B", "B2", 64 * 1024),
    (3, "L0C", "CO1", 128 * 1024),
])
def test_cube_buffer_capacity(kernels, stream, x, bystander, where, memory, position, capacity):
    fn = kernels.function("cube_buffer")
    pyasc_acl.launch(fn, 2, (x, where, capacity), stream=stream)  # exactly the capacity fits
    stream.synchronize()
    pyasc_acl.launch(fn, 2, (x, where, capacity + 1), stream=stream)  # one byte more does not
    expect_kernel_error(
        stream, "cube_buffer", 0, "buffer-capacity", marked_line(SRC, f"buffer-capacity {memory}"),
        f"a {position} queue of 1 x {capacity + 1} bytes ({capacity + 32} bytes after 32-byte rounding)",
        f"0 of the {capacity}-byte {memory} are already in use", "exceeds it by 32 bytes",
    )
    assert_device_usable(kernels, stream, bystander)


def test_ub_address_not_32_byte_aligned(kernels, stream, x, z, bystander):
    pyasc_acl.launch(kernels.function("ub_misaligned"), BLOCKS, (x, z, 1), stream=stream)
    expect_kernel_error(
        stream, "ub_misaligned", 1, "ub-alignment", marked_line(SRC, "ub-alignment"),
        "Muls: src starts at UB offset 20 (0x14), which is not 32-byte aligned (20 bytes past a boundary)",
    )
    out, xs = chunks(z), chunks(x)
    np.testing.assert_array_equal(out[0], xs[0] * 2)
    np.testing.assert_array_equal(out[1], UNTOUCHED)
    assert_device_usable(kernels, stream, bystander)


def test_local_access_past_the_buffer(kernels, stream, x, z, bystander):
    pyasc_acl.launch(kernels.function("local_overrun"), BLOCKS, (x, z, 1), stream=stream)
    expect_kernel_error(
        stream, "local_overrun", 1, "local-out-of-bounds", marked_line(SRC, "local-out-of-bounds"),
        "Add 512 bytes at UB offset 0, outside the 256-byte VECCALC buffer at UB offset 0 (by 256 bytes)",
    )
    np.testing.assert_array_equal(chunks(z)[0], chunks(x)[0] + 0.5)
    assert_device_usable(kernels, stream, bystander)


def test_datacopy_length_not_a_multiple_of_32_bytes(kernels, stream, x, z, bystander):
    pyasc_acl.launch(kernels.function("copy_count"), BLOCKS, (x, z, 12), stream=stream)
    expect_kernel_error(
        stream, "copy_count", 0, "datacopy-length", marked_line(SRC, "datacopy-length"),
        "DataCopy (GM -> local) of 12 elements = 48 bytes, which is not a multiple of 32 bytes",
        "the hardware silently copies only the first 32 bytes",
    )
    np.testing.assert_array_equal(z.numpy(), UNTOUCHED)  # every block stopped there
    assert_device_usable(kernels, stream, bystander)


# ---- queues ------------------------------------------------------------------------------------


def test_deque_of_an_empty_queue(kernels, stream, x, z, bystander):
    pyasc_acl.launch(kernels.function("deque_empty"), BLOCKS, (x, z, 1), stream=stream)
    expect_kernel_error(
        stream, "deque_empty", 1, "queue-deque-empty", marked_line(SRC, "queue-deque-empty"),
        "DeQue on an empty VECIN queue", "on hardware DeQue waits forever",
    )
    out, xs = chunks(z), chunks(x)
    np.testing.assert_array_equal(out[2], xs[2])
    np.testing.assert_array_equal(out[1], UNTOUCHED)
    assert_device_usable(kernels, stream, bystander)


def test_enque_past_the_queue_depth(kernels, stream, x, z, bystander):
    pyasc_acl.launch(kernels.function("enque_past_depth"), BLOCKS, (x, z, 2), stream=stream)
    expect_kernel_error(
        stream, "enque_past_depth", 2, "queue-enque-past-depth", marked_line(SRC, "queue-enque-past-depth"),
        "EnQue on a VECIN queue of depth 1 that already holds 1 tensor(s)",
    )
    out, xs = chunks(z), chunks(x)
    np.testing.assert_array_equal(out[0], xs[0])
    np.testing.assert_array_equal(out[2], UNTOUCHED)
    assert_device_usable(kernels, stream, bystander)


def test_alloc_tensor_past_the_queue_depth(kernels, stream, x, z, bystander):
    init_line = source_line(SRC, "the queue's buffers")
    pyasc_acl.launch(kernels.function("alloc_past_depth"), BLOCKS, (x, z, 1), stream=stream)
    expect_kernel_error(
        stream, "alloc_past_depth", 1, "queue-alloc-past-depth", marked_line(SRC, "queue-alloc-past-depth"),
        "AllocTensor on a VECOUT queue whose 2 buffer(s) "
        f"(InitBuffer at {init_line}) are all in use",
    )
    out, xs = chunks(z), chunks(x)
    np.testing.assert_array_equal(out[0], xs[0] * 3)
    np.testing.assert_array_equal(out[1], UNTOUCHED)
    assert_device_usable(kernels, stream, bystander)


def test_queue_tensor_not_freed_at_kernel_end_is_a_warning(kernels, stream, x, z, bystander):
    # hardware tolerates a leaked queue buffer: severity "warning", raised at synchronize, and
    # every block's work stands
    pyasc_acl.launch(kernels.function("queue_leak"), BLOCKS, (x, z, 1), stream=stream)
    with pytest.warns(pyasc.SanitizerWarning) as record:
        stream.synchronize()
    messages = [str(w.message) for w in record if issubclass(w.category, pyasc.SanitizerWarning)]
    assert len(messages) == 1, messages
    head = f"kernel queue_leak block 1: sanitizer warning 'queue-leak' at {marked_line(SRC, 'queue-leak')}: "
    assert messages[0].startswith(head), messages[0]
    assert ("a tensor of a VECOUT queue (buffer 0, allocated here) was not freed when the kernel ended "
            "(it is still allocated)") in messages[0]
    np.testing.assert_array_equal(z.numpy(), x.numpy())
    stream.synchronize()  # reported once
    assert_device_usable(kernels, stream, bystander)


def test_queue_leak_is_an_error_with_pyasc_sim_strict(kernels, stream, x, z, bystander, monkeypatch):
    monkeypatch.setenv("PYASC_SIM_STRICT", "1")  # read at every launch
    pyasc_acl.launch(kernels.function("queue_leak"), BLOCKS, (x, z, 1), stream=stream)
    expect_kernel_error(
        stream, "queue_leak", 1, "queue-leak", marked_line(SRC, "queue-leak"),
        "a tensor of a VECOUT queue (buffer 0, allocated here) was not freed when the kernel ended "
        "(it is still allocated)",
    )
    np.testing.assert_array_equal(z.numpy(), x.numpy())
    monkeypatch.setenv("PYASC_SIM_STRICT", "0")
    assert_device_usable(kernels, stream, bystander)


def test_sanitizer_warning_as_error_through_the_warnings_filter(kernels, stream, x, z):
    import warnings

    pyasc_acl.launch(kernels.function("queue_leak"), BLOCKS, (x, z, 1), stream=stream)
    with warnings.catch_warnings():
        warnings.simplefilter("error", pyasc.SanitizerWarning)
        with pytest.raises(pyasc.SanitizerWarning, match="queue-leak"):
            stream.synchronize()


# ---- flags -------------------------------------------------------------------------------------


def test_waitflag_without_setflag(kernels, stream, x, z, bystander):
    pyasc_acl.launch(kernels.function("wait_unset"), BLOCKS, (x, z, 1), stream=stream)
    expect_kernel_error(
        stream, "wait_unset", 1, "waitflag-unpaired", marked_line(SRC, "waitflag-unpaired"),
        "WaitFlag<HardEvent::MTE2_V>(2) with no matching SetFlag<HardEvent::MTE2_V>(2) before it",
    )
    out, xs = chunks(z), chunks(x)
    np.testing.assert_array_equal(out[0], np.abs(xs[0]))
    np.testing.assert_array_equal(out[1], UNTOUCHED)
    assert_device_usable(kernels, stream, bystander)


def test_setflag_never_waited_for(kernels, stream, x, z, bystander):
    pyasc_acl.launch(kernels.function("set_unwaited"), BLOCKS, (x, z, 1), stream=stream)
    expect_kernel_error(
        stream, "set_unwaited", 1, "setflag-unpaired", marked_line(SRC, "setflag-unpaired"),
        "SetFlag<HardEvent::V_MTE3>(3) (here) was never consumed by a WaitFlag before the kernel ended",
    )
    assert_device_usable(kernels, stream, bystander)


# ---- the switch --------------------------------------------------------------------------------


@pytest.mark.parametrize("off", ["0", "off", "false", "no"])
def test_checks_off_datacopy_rounds_down_like_hardware(kernels, stream, x, z, monkeypatch, off):
    fn = kernels.function("copy_count")
    monkeypatch.setenv("PYASC_SIM_CHECKS", off)  # read at launch time
    pyasc_acl.launch(fn, BLOCKS, (x, z, 12), stream=stream)
    stream.synchronize()  # no error
    # 12 floats = 48 bytes requested: the first 32 bytes (8 floats) arrive, the rest of the UB
    # buffer keeps its -1 filler
    for out, xs in zip(chunks(z), chunks(x)):
        np.testing.assert_array_equal(out[:8], xs[:8])
        np.testing.assert_array_equal(out[8:], -1.0)

    monkeypatch.setenv("PYASC_SIM_CHECKS", "1")  # the next launch checks again
    pyasc_acl.launch(fn, BLOCKS, (x, z, 12), stream=stream)
    expect_kernel_error(stream, "copy_count", 0, "datacopy-length", marked_line(SRC, "datacopy-length"))


def test_checks_off_keeps_the_queue_state_checks(kernels, stream, x, z, monkeypatch):
    # documented: DeQue of an empty queue would hang the hardware, so it stays an error
    monkeypatch.setenv("PYASC_SIM_CHECKS", "0")
    pyasc_acl.launch(kernels.function("deque_empty"), BLOCKS, (x, z, 0), stream=stream)
    expect_kernel_error(stream, "deque_empty", 0, "queue-deque-empty", marked_line(SRC, "queue-deque-empty"))


def test_correct_kernels_give_identical_results_with_checks_on_and_off(monkeypatch):
    rng = np.random.default_rng(11)
    n = 4097
    xs = rng.standard_normal(n).astype(np.float16)
    ys = rng.standard_normal(n).astype(np.float16)
    a = rng.uniform(-1, 1, (32, 48)).astype(np.float16)
    b = rng.uniform(-1, 1, (48, 32)).astype(np.float16)
    r = rng.standard_normal(1000).astype(np.float32)

    def run() -> list[np.ndarray]:
        s = pyasc.Stream("sim")
        vadd = load("vadd.cpp").function("vadd_half")
        mm = load("cube_matmul.cpp").function("matmul_rows")
        red = load("vector_api.cpp").function("reductions")
        z = pyasc.zeros(n, dtype="float16", device="sim")
        c = pyasc.zeros((32, 32), dtype="float32", device="sim")
        o = pyasc.zeros(16 + 32 + 15, dtype="float32", device="sim")
        pyasc_acl.launch(vadd, 7, (pyasc.tensor(xs, device="sim"), pyasc.tensor(ys, device="sim"), z, n, 256),
                         stream=s)
        pyasc_acl.launch(mm, 2, (pyasc.tensor(a, device="sim"), pyasc.tensor(b, device="sim"), c, 16, 32, 48),
                         stream=s)
        pyasc_acl.launch(red, 1, (pyasc.tensor(r, device="sim"), o, 1000, 15), stream=s)
        s.synchronize()
        return [z.numpy(), c.numpy(), o.numpy()]

    monkeypatch.setenv("PYASC_SIM_CHECKS", "1")
    on = run()
    monkeypatch.setenv("PYASC_SIM_CHECKS", "0")
    off = run()
    for got_on, got_off in zip(on, off):
        assert got_on.tobytes() == got_off.tobytes()
    np.testing.assert_array_equal(on[0], (xs.astype(np.float32) + ys).astype(np.float16))
