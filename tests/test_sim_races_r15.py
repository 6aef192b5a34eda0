"""Planted pipe races for the two flag pairs our kernels use that tests/test_sim_races.py does not
plant (issue 10 acceptance "missing flag between each pipe pair that kernels use", round 15 audit):
MTE2 -> MTE3 and MTE2 -> S. With the flag the kernels run clean and compute the right values; without
it the second instruction is reported, naming the first one's line, the bytes and the flag to add.
Kernels: backends/sim/kernel_api/tests/kernels/races_r15.cpp."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl

from ascendc_kernels import load, marked_line, source_line

pytest.importorskip("pyasc_sim")

SRC = "races_r15.cpp"
TILE = 256


@pytest.fixture(scope="module")
def kernels():
    # built with the compiler's automatic synchronisation off: the MTE2 -> S pair is then the kernel's to write
    # (with it on, the default, the compiler inserts it: tests/test_sim_auto_sync.py)
    return load(SRC, ("--cce-auto-sync=off",))


def launch(kernels, stream, name, flags):
    x = pyasc.tensor(np.arange(TILE, dtype=np.float32) + 0.5, device="sim")
    z = pyasc.zeros(TILE, dtype="float32", device="sim")
    pyasc.synchronize("sim")  # the uploads before the launch on this stream
    pyasc_acl.launch(kernels.function(name), 1, (x, z, flags), stream=stream)
    return z


@pytest.mark.parametrize("name, tag, this_pipe, other_pipe", [
    ("copy_through_ub", "raw-mte2-mte3", "MTE3", "MTE2"),
    ("scalar_after_load", "raw-mte2-s", "S", "MTE2"),
])
def test_a_missing_flag_is_a_pipe_race_naming_both_lines(kernels, stream, name, tag, this_pipe, other_pipe):
    launch(kernels, stream, name, 0)
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        stream.synchronize()
    msg = info.value.message
    assert info.value.code == 507015
    head = f"kernel {name} block 0: sanitizer check 'pipe-race' failed at {marked_line(SRC, tag)}: "
    assert head in msg, msg
    for d in (f"read-after-write between pipes: this {this_pipe} instruction",
              f"the {other_pipe} instruction at {source_line(SRC, f'FIRST({tag})')} ",
              f"SetFlag<HardEvent::{other_pipe}_{this_pipe}>", "reads UB bytes ["):
        assert d in msg, (d, msg)


def test_with_the_flags_the_kernels_are_clean_and_right(kernels, stream):
    z = launch(kernels, stream, "copy_through_ub", 1)
    stream.synchronize()
    np.testing.assert_array_equal(z.numpy(), np.arange(TILE, dtype=np.float32) + 0.5)
    z = launch(kernels, stream, "scalar_after_load", 1)
    stream.synchronize()
    assert z.numpy()[0] == 3.5 and not z.numpy()[1:].any()
