"""SoC profiles of the simulator, selected by name with PYASC_SIM_SOC (read at aclInit, so each
case runs in a child process, started outside the checkout so that it imports the installed
build): `pyasc info` reports the chosen SoC, the device reports its core counts, the core count
decides how many blocks run per wave, and an unknown name is a clear error naming the known
profiles."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from ascendc_kernels import kernel_path

CHILD = r"""
import contextlib, io, json, sys

import pyasc
import pyasc_acl
from pyasc_core import cli

out = io.StringIO()
with contextlib.redirect_stdout(out):
    code = cli.main(["info", "--json"])
info = {row["name"]: row for row in json.loads(out.getvalue())["backends"]}["sim"]
result = {"info_exit": code, "sim": info}
if info["available"]:
    binary = pyasc_acl.Binary(sys.argv[1], device="sim")
    raw = binary.backend.raw_device(binary.device)
    result["vector_cores"] = raw.device_info(201)  # ACL_DEV_ATTR_VECTOR_CORE_NUM
    result["cube_cores"] = raw.device_info(102)    # ACL_DEV_ATTR_CUBE_CORE_NUM
    spin = binary.function("spin")
    tile, rounds = 2048, 200
    x = pyasc.full((tile * 64,), 1.0, dtype="float32", device="sim")
    z = pyasc.zeros(tile * 64, dtype="float32", device="sim")
    stream = pyasc.current_stream("sim")
    times = {}
    for blocks in (1, 40, 41, 48, 49):
        start = pyasc.Event(enable_timing=True, device="sim")
        end = pyasc.Event(enable_timing=True, device="sim")
        start.record(stream)
        pyasc_acl.launch(spin, blocks, (x, z, tile, rounds), stream=stream)
        end.record(stream)
        times[blocks] = start.elapsed_time(end)
    result["times"] = times
else:
    try:
        pyasc.zeros(4, device="sim")
    except pyasc.PyascError as exc:
        result["error"] = f"{type(exc).__name__}: {exc}"
print(json.dumps(result))
"""


def run_child(tmp_path, soc: str | None) -> dict:
    env = dict(os.environ)
    env.pop("PYASC_SIM_SOC", None)
    env.pop("PYASC_SIM_CHECKS", None)
    if soc is not None:
        env["PYASC_SIM_SOC"] = soc
    done = subprocess.run([sys.executable, "-c", CHILD, kernel_path("cost.cpp")], env=env, capture_output=True,
                          text=True, timeout=120, cwd=tmp_path)  # not the checkout
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_default_profile_is_ascend910b1(tmp_path):
    r = run_child(tmp_path, None)
    assert r["info_exit"] == 0 and r["sim"]["available"]
    assert r["sim"]["info"]["soc"] == "Ascend910B1"
    assert (r["vector_cores"], r["cube_cores"]) == (48, 24)
    t = {int(k): v for k, v in r["times"].items()}
    assert t[1] == t[40] == t[41] == t[48]  # 48 cores: up to 48 blocks in one wave
    assert 1.9 < t[49] / t[48] < 2.0


def test_profile_selected_by_name_changes_the_core_count_and_the_waves(tmp_path):
    r = run_child(tmp_path, "Ascend910B4")
    assert r["info_exit"] == 0 and r["sim"]["available"]
    assert r["sim"]["info"]["soc"] == "Ascend910B4"
    assert (r["vector_cores"], r["cube_cores"]) == (40, 20)
    t = {int(k): v for k, v in r["times"].items()}
    assert t[1] == t[40]  # 40 cores: one wave
    assert 1.9 < t[41] / t[40] < 2.0  # the 41st block starts a second wave
    assert t[48] == t[41] and t[49] == t[41]  # which holds up to 40 more


def test_unknown_profile_is_a_clear_error_naming_the_known_ones(tmp_path):
    r = run_child(tmp_path, "Ascend310X")
    assert r["info_exit"] == 0  # pyasc info still works and explains why sim is unavailable
    assert not r["sim"]["available"]
    for text in (r["sim"]["reason"], r["error"]):
        assert "PYASC_SIM_SOC='Ascend310X' is not a simulated SoC" in text
        assert "known: Ascend910B1, Ascend910B2, Ascend910B3, Ascend910B4" in text
        assert "set PYASC_SIM_SOC to one of the known SoC profiles" in text  # the hint of 507008
        assert "Check the device index" not in text  # not the generic device-error hint
    # installed but misconfigured: BackendConfigError (a BackendUnavailableError), never a silent numpy
    assert r["error"].startswith("BackendConfigError")



def test_soc_version_error_hints_at_pyasc_sim_soc_and_other_device_errors_keep_theirs():
    from pyasc_acl.errors import AclDeviceError, error_class

    soc = error_class(507008)(507008, "aclInit", "PYASC_SIM_SOC='X' is not a simulated SoC")
    assert isinstance(soc, AclDeviceError) and soc.name == "ACL_ERROR_RT_SOC_VERSION"
    assert str(soc).endswith("is not a simulated SoC. On the simulator, set PYASC_SIM_SOC to one of the known SoC "
                             "profiles (the message names them) or unset it for the default Ascend910B1; on an NPU, "
                             "use a CANN and kernels built for this SoC")
    bad_device = error_class(107001)(107001, "aclrtSetDevice", "device 7 does not exist")
    assert isinstance(bad_device, AclDeviceError)
    assert str(bad_device).endswith("Check the device index (pyasc info lists the devices)")
