"""The pybind11 ACL binding (pyasc_acl._acl) on the simulator's library: every ACL call's success
path, and each documented error path surfacing as its exception class with code, name and the
runtime's message."""

from __future__ import annotations

import os
import struct
import threading

import numpy as np
import pytest

import pyasc
from pyasc_acl import _acl, errors
from pyasc_acl.errors import (
    AclDeviceError,
    AclEventError,
    AclFileError,
    AclInvalidHandleError,
    AclInvalidParameterError,
    AclKernelError,
    AclNotSupportedError,
    AclOutOfMemoryError,
)

from acl_fixtures import kernel_binary, sim_library

H2D, D2H, D2D, H2H = (_acl.ACL_MEMCPY_HOST_TO_DEVICE, _acl.ACL_MEMCPY_DEVICE_TO_HOST,
                      _acl.ACL_MEMCPY_DEVICE_TO_DEVICE, _acl.ACL_MEMCPY_HOST_TO_HOST)


@pytest.fixture(scope="module")
def lib():
    return sim_library()


@pytest.fixture(scope="module")
def dev(lib):
    return _acl.Device(lib, 0, "acltest:0")


@pytest.fixture(scope="module")
def kernels(dev):
    return dev.load_binary(kernel_binary())


def expect(exc_type, code_name, match=None):
    """pytest.raises for an ACL error that also checks code, name and the runtime message."""

    class _Check:
        def __enter__(self):
            self.ctx = pytest.raises(exc_type, match=match)
            self.info = self.ctx.__enter__()
            return self.info

        def __exit__(self, *exc):
            handled = self.ctx.__exit__(*exc)
            e = self.info.value
            assert isinstance(e, pyasc.PyascError)
            assert e.name == code_name and e.code == errors.ERROR_CODES[code_name]
            assert e.message and e.message in str(e) and code_name in str(e)
            return handled

    return _Check()


# -- library and devices ------------------------------------------------------------------------
def test_library_and_device_queries(lib, dev):
    assert lib.path.endswith("libpyasc_acl_sim.so") and lib.has_host_args_launch and lib.has_stream_query
    assert lib.soc_name() == "Ascend910B1"
    assert lib.device_count() >= 1
    assert dev.index == 0 and dev.label == "acltest:0" and dev.library is lib
    assert dev.current_device() == 0
    assert dev.device_info(_acl.ACL_DEV_ATTR_VECTOR_CORE_NUM) == 48
    assert dev.device_info(_acl.ACL_DEV_ATTR_AICORE_CORE_NUM) == 24
    free, total = dev.mem_info()
    assert 0 < free <= total == dev.device_info(_acl.ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE)
    assert dev.mem_info(_acl.ACL_DDR_MEM) == (0, 0)
    dev.synchronize()


def test_library_load_errors(tmp_path):
    with pytest.raises(RuntimeError, match="cannot load the ACL library .*nope.so"):
        _acl.Library.open(str(tmp_path / "nope.so"))
    with pytest.raises(RuntimeError, match="lacks functions pyasc needs: aclInit"):
        _acl.Library.open("libm.so.6")


def test_device_errors(lib, dev):
    with expect(AclDeviceError, "ACL_ERROR_RT_INVALID_DEVICEID", match="out of range"):
        _acl.Device(lib, 63, "bad")
    with expect(AclNotSupportedError, "ACL_ERROR_RT_FEATURE_NOT_SUPPORT"):
        dev.device_info(9999)
    with expect(AclInvalidParameterError, "ACL_ERROR_INVALID_PARAM", match="not an aclrtMemAttr"):
        dev.mem_info(999)


def test_every_thread_gets_the_device_transparently(dev):
    out = {}

    def work():
        s = dev.create_stream()
        blk = dev.allocate(64, s)
        dev.copy(blk, np.full(64, 7, np.uint8), 64, s, True)
        host = np.zeros(64, np.uint8)
        dev.copy(host, blk, 64, s, True)
        out["value"] = int(host.sum())
        out["device"] = dev.current_device()

    th = threading.Thread(target=work)
    th.start()
    th.join()
    assert out == {"value": 7 * 64, "device": 0}


# -- raw memory calls ---------------------------------------------------------------------------
def test_raw_memory_calls(dev):
    d = dev.malloc(256)
    h = dev.malloc_host(256)
    assert d.ptr and d.size == 256 and h.ptr and h.size == 256
    src = np.arange(256, dtype=np.uint8)
    dst = np.zeros(256, np.uint8)
    dev.memset(d.ptr, 256, 0, 256)
    dev.memcpy(d.ptr, 256, src.ctypes.data, 256, H2D)
    dev.memcpy(h.ptr, 256, d.ptr, 256, D2H)
    dev.memcpy(dst.ctypes.data, 256, h.ptr, 256, H2H)
    np.testing.assert_array_equal(dst, src)
    d2 = dev.malloc(256, policy=2)
    s = dev.create_stream()
    dev.memset_async(d2.ptr, 256, 5, 128, s)
    dev.memcpy_async(d.ptr, 256, d2.ptr, 256, D2D, s)
    dev.memcpy_async(h.ptr, 256, d.ptr, 256, D2H, s)
    s.synchronize()
    dev.memcpy(dst.ctypes.data, 256, h.ptr, 256, H2H)
    assert list(dst[:128]) == [5] * 128
    d.free()
    d.free()  # a second free does nothing
    h.free()


def test_raw_memory_errors(dev):
    with expect(AclInvalidParameterError, "ACL_ERROR_INVALID_PARAM", match="size cannot be 0"):
        dev.malloc(0)
    with expect(AclOutOfMemoryError, "ACL_ERROR_RT_MEMORY_ALLOCATION", match="out of device memory") as info:
        dev.malloc(1 << 60)
    assert isinstance(info.value, pyasc.OutOfMemoryError)
    with expect(AclInvalidParameterError, "ACL_ERROR_INVALID_PARAM"):
        dev.malloc_host(0)
    d = dev.malloc(64)
    host = np.zeros(128, np.uint8)
    with expect(AclInvalidParameterError, "ACL_ERROR_RT_PARAM_INVALID", match="overflows its allocation"):
        dev.memcpy(d.ptr, 128, host.ctypes.data, 128, H2D)
    with expect(AclInvalidParameterError, "ACL_ERROR_RT_PARAM_INVALID", match="kind"):
        dev.memcpy(host.ctypes.data, 64, d.ptr, 64, H2D)  # the pointers say device-to-host
    with expect(AclInvalidParameterError, "ACL_ERROR_INVALID_PARAM", match="not an aclrtMemcpyKind"):
        dev.memcpy(d.ptr, 64, host.ctypes.data, 64, 99)
    with expect(AclNotSupportedError, "ACL_ERROR_RT_FEATURE_NOT_SUPPORT", match="host-to-host"):
        dev.memcpy_async(host.ctypes.data, 64, host.ctypes.data + 64, 64, H2H, dev.default_stream)
    with expect(AclInvalidParameterError, "ACL_ERROR_INVALID_PARAM", match="larger than maxCount"):
        dev.memset(d.ptr, 64, 0, 65)
    with expect(AclInvalidParameterError, "ACL_ERROR_RT_PARAM_INVALID", match="neither device memory"):
        dev.memset_async(host.ctypes.data, 64, 0, 64, dev.default_stream)
    with expect(AclInvalidParameterError, "ACL_ERROR_INVALID_PARAM", match="NULL"):
        dev.memset(0, 64, 0, 64)


# -- streams and events -------------------------------------------------------------------------
def test_streams_and_events(dev):
    s = dev.create_stream()
    assert not s.is_default and s.handle != 0
    assert dev.default_stream.is_default and dev.default_stream.handle == 0
    e1, e2 = dev.create_event(), dev.create_event()
    e1.record(s)
    blk = dev.allocate(1 << 16, s)
    dev.fill(blk, 1, 1 << 16, s)
    e2.record(s)
    e2.synchronize()
    assert e1.query() and e2.query()
    assert s.query() is True  # nothing follows e2 on s (aclrtStreamQuery, no probe event)
    s.synchronize()
    assert s.query() is True
    dev.default_stream.synchronize()
    assert dev.default_stream.query() is True
    assert e1.elapsed_time(e2) > 0.0  # simulated device time of the fill
    other = dev.create_stream()
    other.wait_event(e2)
    other.synchronize()
    dev.default_stream.synchronize()
    del s, other  # aclrtDestroyStream


@pytest.fixture
def flag_gate(dev, kernels):
    """(launch_waiting(stream), release()): the ``wait_flag`` kernel holds a stream until released
    by a plain aclrtMemcpy of the flag, which no stream orders."""
    fn = kernels.function("wait_flag")
    flag = dev.malloc(4)

    def launch_waiting(stream):
        dev.memset(flag.ptr, 4, 0, 4)
        dev.launch(fn, 1, struct.pack("<Q", flag.ptr), stream)

    def release():
        one = np.ones(1, np.uint32)
        dev.memcpy(flag.ptr, 4, one.ctypes.data, 4, H2D)

    yield launch_waiting, release
    release()
    dev.synchronize()


@pytest.mark.parametrize("which", ["created", "default"])
def test_stream_query_while_a_kernel_blocks(dev, flag_gate, which):
    launch_waiting, release = flag_gate
    s = dev.create_stream() if which == "created" else dev.default_stream
    bystander = dev.create_stream()
    assert s.query() is True and bystander.query() is True
    launch_waiting(s)
    try:
        blk = dev.allocate(256, s)
        dev.fill(blk, 3, 256, s)  # queued behind the blocked kernel
        for _ in range(3):  # answers at once, as often as asked, while the kernel waits
            assert s.query() is False
        assert bystander.query() is True
    finally:
        release()
    s.synchronize()
    assert s.query() is True
    host = np.zeros(256, np.uint8)
    dev.copy(host, blk, 256, s, True)
    assert s.query() is True and int(host.sum()) == 3 * 256


def _library_without_stream_query(tmp_path, missing=("aclrtStreamQuery",)):
    """An ACL library like an older libascendcl.so: the simulator's functions, minus ``missing``
    (a shim that needs the simulator and defines those names as an absolute 0, so dlsym finds NULL)."""
    import shutil
    import subprocess

    import pyasc_sim

    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler")
    sim = pyasc_sim.library_path()
    src = tmp_path / "empty.c"
    src.write_text("/* no code: every other symbol comes from the simulator */\n")
    out = tmp_path / f"libacl_without_{len(missing)}_{missing[0]}.so"
    subprocess.run([cc, "-shared", "-fPIC", str(src), "-o", str(out), "-Wl,--no-as-needed", sim,
                    f"-Wl,-rpath,{os.path.dirname(sim)}", *(f"-Wl,--defsym={name}=0" for name in missing)],
                   check=True, capture_output=True)
    return _acl.Library.open(str(out))


def test_stream_query_falls_back_without_aclrtStreamQuery(tmp_path):
    old = _library_without_stream_query(tmp_path)
    assert not old.has_stream_query and old.has_host_args_launch  # optional: the library still loads
    dev = _acl.Device(old, 0, "oldacl:0")
    fn = dev.load_binary(kernel_binary()).function("wait_flag")
    flag = dev.malloc(4)
    dev.memset(flag.ptr, 4, 0, 4)
    s = dev.create_stream()
    dev.launch(fn, 1, struct.pack("<Q", flag.ptr), s)
    try:
        assert s.query() is False  # the probe event cannot complete behind the blocked kernel
    finally:
        dev.memcpy(flag.ptr, 4, np.ones(1, np.uint32).ctypes.data, 4, H2D)
    s.synchronize()
    # The probe-event fallback may answer False for an idle stream under load (why aclrtStreamQuery
    # is preferred), but it turns True once the stream reaches the probe.
    for _ in range(100_000):
        if s.query():
            break
    else:
        pytest.fail("Stream.query() never became True on an idle stream")


def test_waits_fall_back_without_the_timed_waits(tmp_path):
    old = _library_without_stream_query(tmp_path, ("aclrtSynchronizeStreamWithTimeout",
                                                   "aclrtSynchronizeEventWithTimeout",
                                                   "aclrtSynchronizeDeviceWithTimeout"))
    assert not old.has_timed_waits and old.has_stream_query  # optional: the library still loads
    assert sim_library().has_timed_waits
    dev = _acl.Device(old, 0, "oldacl-waits:0")
    fns = dev.load_binary(kernel_binary())
    s = dev.create_stream()
    dev.launch(fns.function("fail_block1"), 2, b"", s)
    e = dev.create_event()
    e.record(s)
    with pytest.raises(AclKernelError, match="block 1: injected failure"):
        e.synchronize()  # aclrtSynchronizeEvent, untimed
    with pytest.raises(AclKernelError, match="block 1: injected failure"):
        s.synchronize()  # aclrtSynchronizeStream, untimed
    s.synchronize()
    dev.synchronize()  # aclrtSynchronizeDevice, untimed


def test_event_errors(dev):
    s = dev.create_stream()
    never, done = dev.create_event(), dev.create_event()
    done.record(s)
    s.synchronize()
    with expect(AclEventError, "ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID", match="never recorded"):
        never.elapsed_time(done)
    later = dev.create_event()
    dev.fill(dev.allocate(1 << 20, s), 0, 1 << 20, s)  # advances the stream's device clock
    later.record(s)
    s.synchronize()
    with expect(AclEventError, "ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL", match="before startEvent"):
        later.elapsed_time(done)


# -- binaries and launches ----------------------------------------------------------------------
def _round_trip(dev, kernels, host_args):
    fn = kernels.function("add_scalar_i32")
    assert fn.name == "add_scalar_i32" and fn.binary is kernels
    s = dev.create_stream()
    n = 1000
    x = np.arange(n, dtype=np.int32)
    a, b = dev.allocate(4 * n, s), dev.allocate(4 * n, s)
    dev.copy(a, x, 4 * n, s)
    import struct

    dev.launch(fn, 4, struct.pack("<QQQQ", a.ptr, b.ptr, n, 5), s, [a, b], host_args)
    out = np.zeros(n, np.int32)
    dev.copy(out, b, 4 * n, s, True)
    np.testing.assert_array_equal(out, x + 5)


def test_launch_with_host_args(dev, kernels):
    _round_trip(dev, kernels, host_args=True)  # aclrtLaunchKernelWithHostArgs


def test_launch_with_device_args(dev, kernels):
    _round_trip(dev, kernels, host_args=False)  # args staged to device memory, aclrtLaunchKernel


def test_binary_errors(dev, kernels, tmp_path):
    with expect(AclFileError, "ACL_ERROR_INVALID_FILE", match="cannot load simulator kernel binary"):
        dev.load_binary(str(tmp_path / "missing.so"))
    with expect(AclInvalidParameterError, "ACL_ERROR_INVALID_PARAM", match="no_such_kernel"):
        kernels.function("no_such_kernel")
    with expect(AclInvalidParameterError, "ACL_ERROR_RT_PARAM_INVALID", match="numBlocks 0"):
        dev.launch(kernels.function("empty"), 0, b"", dev.default_stream)


def test_binary_load_reads_the_file_and_checks_its_abi_version(dev, tmp_path):
    """The simulator checks a binary from its file without loading it (kernel code runs in the device process only):
    a file that is not an ELF shared object, or one built for a newer kernel ABI, is refused with ACL_ERROR_INVALID_FILE
    naming the reason; exported symbols are found, hidden ones are not; a binary the loader refuses fails its launch."""
    import pyasc_sim

    text = tmp_path / "text.so"
    text.write_text("not a shared object\n")
    with expect(AclFileError, "ACL_ERROR_INVALID_FILE", match="cannot load simulator kernel binary .*: not an ELF file"):
        dev.load_binary(str(text))
    src = ('#include <cstdint>\n'
           'extern "C" __attribute__((visibility("default"))) const uint32_t __pyasc_sim_kernel_abi_version = ABI;\n'
           'extern "C" __attribute__((visibility("default"))) void __pyasc_sim_entry_shown(void *) {}\n'
           'extern "C" __attribute__((visibility("hidden"))) void __pyasc_sim_entry_hidden(void *) {}\n')
    with expect(AclFileError, "ACL_ERROR_INVALID_FILE", match="built for simulator kernel ABI version 999, this runtime"):
        dev.load_binary(pyasc_sim.compile_kernel(src, flags=["-DABI=999"]))
    current = dev.load_binary(pyasc_sim.compile_kernel(src, flags=["-DABI=1"]))
    current.function("shown")
    with expect(AclInvalidParameterError, "ACL_ERROR_INVALID_PARAM", match="no exported symbol __pyasc_sim_entry_hidden"):
        current.function("hidden")
    # what only loading finds (an undefined symbol) fails the launch, in the device process
    unresolved = dev.load_binary(pyasc_sim.compile_kernel(src + 'extern "C" void pyasc_missing_fn(void);\n'
                                                          'extern "C" __attribute__((visibility("default"))) void '
                                                          '__pyasc_sim_entry_calls(void *) { pyasc_missing_fn(); }\n',
                                                          flags=["-DABI=1"]))
    s = dev.create_stream()
    dev.launch(unresolved.function("calls"), 1, b"", s)
    with expect(AclKernelError, "ACL_ERROR_RT_AICORE_EXCEPTION", match="undefined symbol: pyasc_missing_fn"):
        s.synchronize()
    dev.launch(current.function("shown"), 1, b"", s)
    s.synchronize()  # the device works afterwards


def test_unloaded_binary(dev):
    b = dev.load_binary(kernel_binary())
    fn = b.function("empty")
    b.unload()
    with expect(AclInvalidHandleError, "ACL_ERROR_RT_INVALID_HANDLE", match="not a live kernel function"):
        dev.launch(fn, 1, b"", dev.default_stream)
    with pytest.raises(ValueError, match="was unloaded"):
        b.function("empty")


@pytest.mark.parametrize("kernel, pattern", [("fail_block1", "kernel fail_block1 block 1: injected failure"),
                                             ("throws", "test kernel threw")])
def test_kernel_failure_is_sticky_until_synchronize_then_device_is_usable(dev, kernels, kernel, pattern):
    s = dev.create_stream()
    dev.launch(kernels.function(kernel), 4, b"", s)
    with expect(AclKernelError, "ACL_ERROR_RT_AICORE_EXCEPTION", match=pattern) as info:
        s.synchronize()
    assert "device stays usable" in str(info.value)
    s.synchronize()  # reported once
    _round_trip(dev, kernels, host_args=True)


def test_error_families_cover_the_public_codes():
    for name, code in errors.ERROR_CODES.items():
        exc = errors._acl_error(code, "aclTest", "why")
        assert isinstance(exc, errors.AclError) and exc.name == name and exc.code == code
    assert errors.error_class(107002) is AclDeviceError
    assert errors.error_class(507035) is AclKernelError
    assert errors.error_class(123) is errors.AclError and errors.error_name(123) == "aclError 123"
