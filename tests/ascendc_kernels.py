"""Helpers for the tests that run Ascend C kernels on the simulator the way a pyasc user does:
the sources under backends/sim/kernel_api/tests/kernels/ (written as for a real NPU; the one home of
the Ascend C test kernels, which the kernel API's C++ tests build with CMake too) are compiled with
``pyasc_sim.compile`` (once per session; the binaries are cached on disk by content hash),
loaded with ``pyasc_acl.Binary(path, device="sim")`` and launched with ``pyasc_acl.launch``."""

from __future__ import annotations

import functools
import re
import struct
import subprocess
import sys
import textwrap
from pathlib import Path

ASCENDC_DIR = Path(__file__).resolve().parent.parent / "backends" / "sim" / "kernel_api" / "tests" / "kernels"


@functools.lru_cache(maxsize=None)
def kernel_path(source: str, extra_flags: tuple[str, ...] = ()) -> str:
    """The compiled simulator binary of <ASCENDC_DIR>/<source> (-O1: compiles faster than
    the default -O2; these kernels are small), with ``extra_flags`` (e.g. ``("--cce-auto-sync=off",)``).
    A lock file makes parallel test workers (pytest -n) wait for one compile and share its cached
    result instead of compiling the same source twice."""
    import fcntl

    import pyasc_sim

    lock_name = "tests-ascendc-" + source.replace("/", "-") + ".lock"  # sources in subfolders (compat/...) too
    with open(Path(pyasc_sim.cache_dir()) / lock_name, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return pyasc_sim.compile(ASCENDC_DIR / source, opt="-O1", extra_flags=list(extra_flags))


def load(source: str, extra_flags: tuple[str, ...] = ()):
    """A ``pyasc_acl.Binary`` of <ASCENDC_DIR>/<source> on the sim device (built with ``extra_flags``)."""
    import pyasc_acl

    return pyasc_acl.Binary(kernel_path(source, tuple(extra_flags)), device="sim")


def marked_line(source: str, marker: str) -> str:
    """``<absolute path>:<line>`` of the line of <ASCENDC_DIR>/<source> that carries the
    comment ``// BAD(<marker>)`` (exactly one must)."""
    path = ASCENDC_DIR / source
    lines = [i for i, text in enumerate(path.read_text().splitlines(), 1)
             if re.search(rf"//\s*BAD\({re.escape(marker)}\)", text)]
    assert len(lines) == 1, f"{path} must mark exactly one line with BAD({marker}), found {lines}"
    return f"{path}:{lines[0]}"


def source_line(source: str, text: str) -> str:
    """``<absolute path>:<line>`` of the only line of <ASCENDC_DIR>/<source> containing ``text``."""
    path = ASCENDC_DIR / source
    lines = [i for i, t in enumerate(path.read_text().splitlines(), 1) if text in t]
    assert len(lines) == 1, f"{path} must have exactly one line containing {text!r}, found {lines}"
    return f"{path}:{lines[0]}"


def f32_arg(value: float) -> int:
    """A ``float`` kernel parameter as an int for ``pyasc_acl.launch``, which takes an int as the
    parameter's bits: its IEEE bits (a Python float is converted by the signature as well)."""
    return struct.unpack("<I", struct.pack("<f", value))[0]


def timed_launch(function, num_blocks: int, args, stream) -> float:
    """Simulated device milliseconds of one launch, from timing events recorded around it."""
    import pyasc
    import pyasc_acl

    start = pyasc.Event(enable_timing=True, device="sim")
    end = pyasc.Event(enable_timing=True, device="sim")
    start.record(stream)
    pyasc_acl.launch(function, num_blocks, args, stream=stream)
    end.record(stream)
    return start.elapsed_time(end)


def launch_synced(function, num_blocks: int, args) -> None:
    """One launch on the current stream, with the device synchronised before (the inputs' fills)
    and after (the results)."""
    import pyasc
    import pyasc_acl

    pyasc.synchronize("sim")
    pyasc_acl.launch(function, num_blocks, args)
    pyasc.synchronize("sim")


def launch_failing(function, num_blocks: int, args) -> str:
    """One launch on the current stream that must fail when synchronised: the message of its
    AclKernelError (the device synchronised before, for the inputs' fills)."""
    import pyasc
    import pyasc_acl
    import pytest

    pyasc.synchronize("sim")
    stream = pyasc.current_stream("sim")
    pyasc_acl.launch(function, num_blocks, args, stream=stream)
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        stream.synchronize()
    return info.value.message


def on_sim(array):
    """A sim-device copy of a NumPy array (made contiguous first), as a kernel argument."""
    import numpy as np
    import pyasc

    return pyasc.tensor(np.ascontiguousarray(array), device="sim")


def expect_pipe_race(stream, source: str, kernel: str, tag: str, kind: str, this_pipe: str, other_pipe: str,
                     *details: str) -> str:
    """Synchronizes ``stream`` expecting block 0 of ``kernel`` to stop on a ``pipe-race`` report at the line of
    <ASCENDC_DIR>/<source> marked ``BAD(<tag>)``, naming the ``FIRST(<tag>)`` line, the kind, both pipes, their
    flag pair and each of ``details``; returns the message."""
    import pytest

    import pyasc
    import pyasc_acl

    with pytest.raises(pyasc_acl.AclKernelError) as info:
        stream.synchronize()
    msg = info.value.message
    assert isinstance(info.value, pyasc.PyascError) and info.value.code == 507015
    head = f"kernel {kernel} block 0: sanitizer check 'pipe-race' failed at {marked_line(source, tag)}: "
    assert head in msg, f"expected {head!r} in {msg!r}"
    first = source_line(source, f"FIRST({tag})")
    for d in (f"{kind} between pipes: this {this_pipe} instruction", f"the {other_pipe} instruction at {first} ",
              f"SetFlag<HardEvent::{other_pipe}_{this_pipe}>", *details):
        assert d in msg, f"expected {d!r} in {msg!r}"
    return msg


def run_child(tmp_path, code: str) -> subprocess.CompletedProcess:
    """Runs code in a child Python in tmp_path (outside the checkout: it imports the installed build) with this
    folder on its path. Block output reaches the device process's standard output, which a child captures whole
    (pytest's fd capture misses it when the worker's device started in an earlier test)."""
    prelude = f"import sys; sys.path.insert(0, {str(Path(__file__).resolve().parent)!r})\n"
    return subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(code)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=600)


def host_syntax(tmp_path, text: str, before: tuple[str, ...] | list[str] = (),
                after: tuple[str, ...] | list[str] = ()) -> subprocess.CompletedProcess:
    """``g++ -fsyntax-only -Wall -Wextra -Werror`` of the host program ``text`` (written in a directory of its own under
    tmp_path) against the installed kernel API, which is on the path as a kernel build puts it (``-iquote`` and
    ``-I``), with the flags ``before`` and ``after`` it: header tests without a kernel build."""
    import pyasc_sim

    inc = pyasc_sim.get_include()
    src = tmp_path / "src" / "host.cpp"
    src.parent.mkdir(exist_ok=True)
    src.write_text(text)
    return subprocess.run(["g++", "-std=c++17", "-fsyntax-only", "-Wall", "-Wextra", "-Werror", *before,
                           "-iquote", inc, "-I", inc, *after, str(src)], capture_output=True, text=True)
