"""The device packages (issue 12): pyasc_acl is the ACL binding + ACL backend that npu and sim both
use, pyasc_kernels registers the built-in kernels for both through the kernel hook, launches are
sized by the core counts the device reports (aclrtGetDeviceInfo), and the old names (pyasc_npu,
pyasc_sim.ops) still import for a release, warning. Import-time behaviour runs in child processes
started outside the checkout (so they import the installed build and start with no module loaded)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import pyasc
import pyasc_acl
import pyasc_kernels
from pyasc_acl import _acl
from pyasc_core.errors import ArgumentError, PyascError


def run_child(tmp_path, code: str, *args: str, env: dict[str, str] | None = None) -> dict:
    child_env = dict(os.environ)
    child_env.pop("PYASC_SIM_SOC", None)
    child_env.update(env or {})
    done = subprocess.run([sys.executable, *args, "-c", code], env=child_env, capture_output=True, text=True,
                          timeout=180, cwd=tmp_path)  # not the checkout
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


SHIMS = r"""
import json, sys, warnings

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    import pyasc_npu
    import pyasc_npu.backend
    from pyasc_npu.loader import locate_acl_library
    from pyasc_npu import _acl
    import pyasc_sim.ops
    import pyasc_sim.ops.elementwise
    from pyasc_sim.ops import _runtime, SUPPORTED

import pyasc, pyasc_acl, pyasc_kernels, pyasc_sim

same = {
    "pyasc_npu": pyasc_npu is pyasc_acl,
    "backend": pyasc_npu.backend is pyasc_acl.backend is sys.modules["pyasc_npu.backend"],
    "loader": locate_acl_library is pyasc_acl.loader.locate_acl_library,
    "_acl": _acl is pyasc_acl._acl,
    "ops": pyasc_sim.ops is pyasc_kernels,
    "elementwise": pyasc_sim.ops.elementwise is pyasc_kernels.elementwise,
    "_runtime": _runtime is pyasc_kernels._runtime,
    "SUPPORTED": SUPPORTED is pyasc_kernels.SUPPORTED,
}
# the old names still work: a kernel launch through them, the device facts
x = pyasc.arange(8, dtype="float32", device="sim")
total = float((x + x).sum().numpy())
warned = [(w.category.__name__, str(w.message), w.filename) for w in caught]
print(json.dumps({"same": same, "warned": warned, "total": total,
                  "cores": pyasc_npu.device_facts("sim").vector_cores}))
"""


def test_old_names_warn_and_are_the_new_modules(tmp_path):
    r = run_child(tmp_path, SHIMS)
    assert all(r["same"].values()), r["same"]
    assert r["total"] == 56.0 and r["cores"] == 48
    deprecations = [w for w in r["warned"] if w[0] == "DeprecationWarning"]
    assert len(deprecations) == 2, r["warned"]  # once per old package, not per submodule
    (_, npu_msg, npu_file), (_, ops_msg, ops_file) = deprecations
    assert "pyasc_npu is deprecated" in npu_msg and "import pyasc_acl instead" in npu_msg
    assert "pyasc_sim.ops is deprecated" in ops_msg and "import pyasc_kernels instead" in ops_msg
    assert npu_file == ops_file == "<string>"  # points at the importing code, not at importlib


def test_new_names_and_ops_on_the_devices_do_not_touch_the_old_ones(tmp_path):
    code = r"""
import json, sys
import pyasc, pyasc_acl, pyasc_kernels, pyasc_sim
from pyasc_core import cli
x = pyasc.ones((3, 5), dtype="float16", device="sim")
y = (x * 2.0).softmax(-1).sum()
cli.main(["plugins", "--json"])
print(json.dumps({"old": sorted(m for m in sys.modules if m.startswith(("pyasc_npu", "pyasc_sim.ops")))}))
"""
    r = run_child(tmp_path, code, "-W", "error::DeprecationWarning")
    assert r["old"] == []


def test_sim_and_npu_are_the_one_acl_backend():
    from pyasc_acl.backend import AclBackend
    from pyasc_acl.plugin import BACKEND as NPU
    from pyasc_sim.plugin import BACKEND as SIM
    from pyasc_sim.plugin import SimBackend

    assert type(NPU) is AclBackend and NPU.name == "npu"
    assert isinstance(SIM, SimBackend) and isinstance(SIM, AclBackend) and SIM.name == "sim"
    # SimBackend holds only what differs: no method of its own
    assert {k for k, v in vars(SimBackend).items() if callable(v)} == {"__init__"}


def test_builtin_kernels_register_for_sim_through_the_kernel_hook():
    import pyasc_sim.plugin
    from pyasc_kernels import all_kernels, plugin

    assert not hasattr(pyasc_sim.plugin, "pyasc_register_kernels")  # the glue registers, not the device
    seen: list[tuple[str, str]] = []
    plugin.pyasc_register_kernels(lambda op, backend, fn: seen.append((op, backend)))
    sim_ops = {op for op, backend in seen if backend == "sim"}
    assert sim_ops == set(all_kernels()) and "pyasc::add" in sim_ops
    assert {backend for _, backend in seen} <= {"sim", "npu"}


def test_device_facts_come_from_aclrtGetDeviceInfo():
    facts = pyasc_acl.device_facts("sim")
    assert facts == (48, 24)  # the default SoC profile, Ascend910B1
    assert facts.vector_cores == pyasc_acl.device_info(pyasc_acl.ACL_DEV_ATTR_VECTOR_CORE_NUM, "sim")
    assert facts.cube_cores == pyasc_acl.device_info(pyasc_acl.ACL_DEV_ATTR_CUBE_CORE_NUM, "sim")
    assert pyasc_acl.device_info(pyasc_acl.ACL_DEV_ATTR_AICORE_CORE_NUM, "sim") == 24
    _, total = pyasc.memory.mem_get_info("sim")
    assert pyasc_acl.device_info(pyasc_acl.ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, "sim") == total
    # the Python constants are the binding's (the public aclrtDevAttr values)
    for name in ("ACL_DEV_ATTR_AICPU_CORE_NUM", "ACL_DEV_ATTR_AICORE_CORE_NUM", "ACL_DEV_ATTR_CUBE_CORE_NUM",
                 "ACL_DEV_ATTR_VECTOR_CORE_NUM", "ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE", "ACL_DEV_ATTR_L2_CACHE_SIZE"):
        assert getattr(pyasc_acl, name) == getattr(_acl, name), name


def test_device_info_bad_input_is_a_clear_error():
    with pytest.raises(ArgumentError, match="aclrtDevAttr value.*got str 'cores'"):
        pyasc_acl.device_info("cores", "sim")
    with pytest.raises(ArgumentError, match="got bool"):
        pyasc_acl.device_info(True, "sim")
    with pytest.raises(pyasc_acl.AclError, match="attribute 202 is not modelled"):
        pyasc_acl.device_info(202, "sim")  # ACL_DEV_ATTR_WARP_SIZE
    with pytest.raises(PyascError, match="not an ACL device"):
        pyasc_acl.device_facts("numpy")


def test_cube_cores_fall_back_to_ai_cores_on_acl_versions_without_the_attribute(monkeypatch):
    from pyasc_acl import facts as di
    from pyasc_acl.errors import error_class

    class OldDevice:  # an ACL library that predates ACL_DEV_ATTR_CUBE_CORE_NUM
        def device_info(self, attr: int) -> int:
            if attr == di.ACL_DEV_ATTR_CUBE_CORE_NUM:
                raise error_class(100000)(100000, "aclrtGetDeviceInfo", "invalid attr")
            return {di.ACL_DEV_ATTR_VECTOR_CORE_NUM: 40, di.ACL_DEV_ATTR_AICORE_CORE_NUM: 20}[attr]

    backend, device = pyasc_acl.backend.acl_backend_of("sim")
    old = OldDevice()
    monkeypatch.setattr(type(backend), "raw_device", lambda self, dev: old)
    monkeypatch.setattr(di, "_facts", {})  # not what the real device said earlier
    assert pyasc_acl.device_facts("sim") == (40, 20)


LAUNCHES = r"""
import json
import pyasc, pyasc_acl
from pyasc_kernels import _runtime as rt

blocks = {}
launch = rt.launch
def record(device, family, name, num_blocks, args, tiling):
    blocks.setdefault(family, []).append(num_blocks)
    launch(device, family, name, num_blocks, args, tiling)
rt.launch = record

n = 64 * 16384 * 2  # enough work for every vector core
x = pyasc.ones(n, dtype="float32", device="sim")
assert float((x + x).numpy()[-1]) == 2.0
a = pyasc.ones((120, 16, 16), dtype="float16", device="sim")  # 120 tiles: 5 or 6 per cube core
assert float((a @ a).numpy()[0, 0, 0]) == 16.0
facts = pyasc_acl.device_facts("sim")
print(json.dumps({"blocks": blocks, "facts": list(facts)}))
"""


@pytest.mark.parametrize("soc, vector, cube", [("Ascend910B1", 48, 24), ("Ascend910B3", 40, 20)])
def test_launches_use_the_core_counts_the_device_reports(tmp_path, soc, vector, cube):
    r = run_child(tmp_path, LAUNCHES, env={"PYASC_SIM_SOC": soc})
    assert r["facts"] == [vector, cube]
    assert r["blocks"]["binary"] == [vector]
    assert r["blocks"]["matmul"] == [cube]
