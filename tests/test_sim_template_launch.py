"""Template kernels launched with <<<>>> from host code in a kernel-launch source (issue 8 point 2):
``kernel<T><<<blocks, nullptr, stream>>>(args)``, also inside a template host launcher whose own
parameter picks the instance, compiles unchanged and runs through the simulated runtime (the
binary's trampoline entry, kapi/host_launch.h). Our own kernel in public style:
backends/sim/kernel_api/tests/kernels/compat/launch_template.cpp."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat" / "launch_template.cpp"
TYPES = ["uint32", "pointer", "pointer", "pointer", "uint32", "float"]


def test_rewrite_turns_template_instances_into_instance_launches():
    text = ("template <typename T> void go(void *s) { k<T, 4><<<8, nullptr, s>>>(x); }\n"
            "void f() { ns::plain<<<1, nullptr, s>>>(y); mm<half, C<2>> <<<2, nullptr, s>>>(a); }\n")
    out, n = pyasc_sim.build.rewrite_launches(text)
    assert n == 3
    lines = out.splitlines()
    assert '::pyasc_sim::host::instance_launcher<&k<T, 4> >("k<T, 4>", 8, nullptr, s)(x);' in lines[0]
    assert '::pyasc_sim::host::launcher(&(ns::plain), "plain", 1, nullptr, s)(y);' in lines[1]
    assert '::pyasc_sim::host::instance_launcher<&mm<half, C<2>> >("mm<half, C<2>>", 2, nullptr, s)(a);' in lines[1]


@pytest.mark.parametrize("launcher,dtype", [("tscale_float", np.float32), ("tscale_half", np.float16)])
def test_template_kernel_host_launcher_runs_from_python(launcher, dtype):
    binary = pyasc_sim.compile(SRC, opt="-O1")
    launch = pyasc_sim.host_function(binary, launcher, TYPES)
    x = (np.arange(256) - 100).astype(dtype)
    y = pyasc.zeros((256,), dtype=np.dtype(dtype).name, device="sim")
    launch(4, None, pyasc.tensor(x, device="sim"), y, 256, -1.5)
    pyasc.synchronize()
    np.testing.assert_array_equal(y.numpy(), (x * dtype(-1.5)).astype(dtype))


def test_instance_entry_rejects_a_launch_not_made_by_the_binary():
    import pyasc_acl

    binary = pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1"), device="sim")
    fn = binary.function("__pyasc_sim_instance")
    stream = pyasc.current_stream("sim")
    pyasc_acl.launch(fn, 1, (12345, 0), stream=stream)  # a forged entry offset
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        stream.synchronize()
    assert "no kernel instance at entry offset 0x3039" in info.value.message
