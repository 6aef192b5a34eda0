"""Errors that tell the truth (issue 16, point 7): a misconfigured simulator raises at selection
(no silent move of the default backend to numpy), `pyasc check` refuses to compare a backend with
itself (see test_check_cli.py), plugins that call sys.exit() or return values from hooks are
isolated, environment switches refuse values they do not understand, a third-party backend never
becomes the default, and every bad input below raises a PyascError subclass whose message names
the value and the fix. Cases that need a fresh simulated runtime run in a child process started
outside the checkout, so that it imports the installed build."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from pyasc_core import env as pyasc_env
from pyasc_core import plugins, selection
from pyasc_core.errors import (
    BackendConfigError,
    EnvironmentSettingError,
    InvalidDeviceError,
    PluginHookError,
    ValueRangeError,
)
from pyasc_core.registry import REGISTRY

SIM = REGISTRY.availability("sim")[0]
needs_sim = pytest.mark.skipif(not SIM, reason="the simulator is not installed")
DEVICES = ["numpy", pytest.param("sim", marks=needs_sim)]


def _raises(cls, fn, *fragments):
    """Call fn; it must raise cls (a PyascError) whose message holds every fragment."""
    with pytest.raises(cls) as info:
        fn()
    assert isinstance(info.value, pyasc.PyascError), type(info.value).__mro__
    msg = str(info.value)
    for frag in fragments:
        assert frag in msg, f"{frag!r} not in {msg!r}"
    return msg


# ---------------------------------------------------------------------------------------------
# a bad simulator setting raises at selection (child processes: aclInit runs once per process)
# ---------------------------------------------------------------------------------------------

SELECT_CHILD = r"""
import json, sys
import pyasc
out = {}
for what, fn in (("default", pyasc.get_backend), ("explicit", lambda: pyasc.zeros(2, device="sim"))):
    try:
        out[what] = ["ok", str(fn())]
    except BaseException as exc:
        out[what] = [type(exc).__name__, str(exc), isinstance(exc, pyasc.PyascError),
                     isinstance(exc, pyasc.BackendUnavailableError)]
print(json.dumps(out))
"""


def _select_in_child(tmp_path, **env_vars):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYASC_SIM_", "PYASC_BACKEND"))}
    env.update(env_vars)
    proc = subprocess.run([sys.executable, "-c", SELECT_CHILD], capture_output=True, text=True, env=env,
                          timeout=120, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


@needs_sim
@pytest.mark.parametrize(("var", "value", "valid"), [
    ("PYASC_SIM_SOC", "Ascend910X", "Ascend910B1"),                # a typo: the known SoCs are named
    ("PYASC_SIM_DEVICE_COUNT", "abc", "must be an integer in [1,"),
    ("PYASC_SIM_DEVICE_COUNT", "0", "must be an integer in [1,"),
    ("PYASC_SIM_CHECKS", "maybe", "1/true/yes/on"),              # the shared boolean parser
    ("PYASC_SIM_STRICT", "sometimes", "1/true/yes/on"),
    ("PYASC_SIM_HUGE_PAGES", "2M", "1/true/yes/on"),
    ("PYASC_SIM_DEVICE_MEMORY", "-1", "positive byte count"),     # strtoull would read 2**64 - 1
    ("PYASC_SIM_DEVICE_MEMORY", "lots", "positive byte count"),
])
def test_bad_sim_setting_raises_at_selection_instead_of_falling_back_to_numpy(tmp_path, var, value, valid):
    out = _select_in_child(tmp_path, **{var: value})
    for what in ("default", "explicit"):
        name, msg, is_pyasc, is_unavailable = out[what]
        assert name == "BackendConfigError", out
        assert is_pyasc and is_unavailable  # existing `except BackendUnavailableError` still works
        assert f"{var}='{value}'" in msg and valid in msg
        assert "PYASC_BACKEND=numpy" in msg  # the way out
    assert "does not fall back" in out["default"][1]


@needs_sim
def test_choosing_numpy_explicitly_works_with_a_bad_sim_setting(tmp_path):
    out = _select_in_child(tmp_path, PYASC_SIM_SOC="Ascend910X", PYASC_BACKEND="numpy")
    assert out["default"] == ["ok", "numpy"]
    assert out["explicit"][0] == "BackendConfigError"


@needs_sim
def test_good_sim_settings_select_sim(tmp_path):
    out = _select_in_child(tmp_path, PYASC_SIM_SOC="Ascend910B2", PYASC_SIM_CHECKS="off",
                           PYASC_SIM_DEVICE_COUNT="2")
    assert out["default"] == ["ok", "sim"]
    assert out["explicit"][0] == "ok"


def test_a_backend_that_is_not_installed_is_skipped_quietly(monkeypatch):
    """Only installed-but-misconfigured backends raise; one that is absent is passed over."""
    monkeypatch.delenv("PYASC_BACKEND", raising=False)
    monkeypatch.setattr(selection, "_global", None)
    sim = REGISTRY.backend("sim")
    monkeypatch.setattr(sim, "availability", lambda: (False, "not installed here"))
    REGISTRY.forget_availability()
    try:
        assert selection.default_backend_name() == "numpy"
    finally:
        monkeypatch.undo()
        REGISTRY.forget_availability()


# ---------------------------------------------------------------------------------------------
# the default backend is pyasc's own: a plugin's backend is used only when selected
# ---------------------------------------------------------------------------------------------

EAGER_BACKEND = """
    import pyasc
    from pyasc_core.reference_backend import ReferenceBackend

    class Eager(ReferenceBackend):
        name = "eager"
        aliases = ()
        priority = 1000   # wants to be the default

        def __init__(self):
            super().__init__()
            self._device = pyasc.Device("eager")

    @pyasc.hookimpl
    def pyasc_register_backends(register):
        register(Eager())
"""


def test_third_party_backend_never_becomes_the_default(dists, monkeypatch):
    before = selection.default_backend_name()
    dists.make("pyasc-eager", "eager_backend", EAGER_BACKEND, entry_name="eager")
    dists.reload()
    monkeypatch.setattr(selection, "_global", None)
    assert selection.default_backend_name() == before != "eager"
    assert REGISTRY.backend("eager").priority == 1000
    assert "eager" not in selection.default_candidates()
    # selected by name, it works
    assert pyasc.tensor([1.0], device="eager").device == pyasc.Device("eager")
    with pyasc.using_backend("eager"):
        assert pyasc.ones(2).device == pyasc.Device("eager")


# ---------------------------------------------------------------------------------------------
# plugins: sys.exit() / any BaseException but KeyboardInterrupt is contained; hooks must register
# ---------------------------------------------------------------------------------------------

GOOD = """
    import pyasc

    @pyasc.hookimpl
    def pyasc_register_ops(register):
        register(pyasc.OpDef("good::triple", "(Tensor x) -> Tensor", meta=lambda x: x,
                             reference=lambda x: 3 * x))
"""

EXIT_AT_IMPORT = """
    import sys
    sys.exit(3)
"""

EXIT_IN_HOOK = """
    import sys
    import pyasc

    @pyasc.hookimpl
    def pyasc_register_ops(register):
        sys.exit("plugin gave up")
"""

BASE_EXCEPTION_IN_HOOK = """
    import pyasc

    class Odd(BaseException):
        pass

    @pyasc.hookimpl
    def pyasc_register_backends(register):
        raise Odd("not an Exception")
"""

RETURNS_VALUES = """
    import pyasc

    @pyasc.hookimpl
    def pyasc_register_ops(register):
        return [pyasc.OpDef("lazy::op", "(Tensor x) -> Tensor", meta=lambda x: x, reference=lambda x: x)]
"""

CTRL_C_IN_HOOK = """
    import pyasc

    @pyasc.hookimpl
    def pyasc_register_ops(register):
        raise KeyboardInterrupt
"""


def _good_still_works():
    x = pyasc.tensor([1.0, 2.0], device="numpy")
    np.testing.assert_array_equal(pyasc.ops.good.triple(x).numpy(), [3.0, 6.0])
    np.testing.assert_array_equal(pyasc.add(x, 1.0).numpy(), [2.0, 3.0])


@pytest.mark.parametrize(("source", "stage", "detail"), [
    (EXIT_AT_IMPORT, "import", "SystemExit: 3"),
    (EXIT_IN_HOOK, "register", "SystemExit: plugin gave up"),
    (BASE_EXCEPTION_IN_HOOK, "register", "Odd: not an Exception"),
    (RETURNS_VALUES, "register", "call register(...)"),
], ids=["sys.exit at import", "sys.exit in hook", "BaseException in hook", "hook returns values"])
def test_misbehaving_plugin_is_isolated(dists, source, stage, detail):
    dists.make("pyasc-bad-pack", "bad_pack", source, entry_name="bad")
    dists.make("pyasc-good-pack", "good_pack", GOOD, entry_name="good")
    dists.reload()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        recs = {r.name: r for r in plugins.list_plugins()}
    assert recs["bad"].status == "failed" and recs["bad"].error.startswith(f"{stage} failed:")
    assert detail in recs["bad"].error
    assert recs["good"].status == "loaded"
    text = " ".join(str(w.message) for w in caught if issubclass(w.category, pyasc.PyascPluginWarning))
    assert "'bad' (pyasc-bad-pack)" in text and detail in text
    _good_still_works()


def test_hook_returning_values_names_the_fix(dists):
    dists.make("pyasc-lazy", "lazy_pack", RETURNS_VALUES, entry_name="lazy")
    dists.reload()
    with pytest.warns(pyasc.PyascPluginWarning) as caught:
        rec = {r.name: r for r in plugins.list_plugins()}["lazy"]
    assert rec.status == "failed" and "PluginHookError" in rec.error
    msg = " ".join(str(w.message) for w in caught)
    assert "pyasc_register_ops returned list" in msg and "call register(...)" in msg
    with pytest.raises(pyasc.UnknownOpError):
        pyasc.get_op("lazy::op")


def test_keyboard_interrupt_in_a_plugin_still_stops_the_program(dists):
    dists.make("pyasc-ctrl-c", "ctrl_c_pack", CTRL_C_IN_HOOK, entry_name="ctrlc")
    dists.reload()
    with pytest.raises(KeyboardInterrupt):
        REGISTRY.ensure()


def test_run_time_plugin_calling_sys_exit_is_isolated():
    class Quitter:
        @pyasc.hookimpl
        def pyasc_register_kernels(self, register):
            raise SystemExit(1)

    plugins.register(Quitter(), "quitter")
    try:
        with pytest.warns(pyasc.PyascPluginWarning, match="'quitter'.*SystemExit"):
            np.testing.assert_array_equal(pyasc.add(pyasc.tensor([1.0], device="numpy"), 1.0).numpy(), [2.0])
        rec = {r.name: r for r in plugins.list_plugins()}["quitter"]
        assert rec.status == "failed"
    finally:
        plugins.reset_for_tests()


def test_command_hook_calling_sys_exit_does_not_end_the_cli():
    from pyasc_core import cli

    class Quitter:
        @pyasc.hookimpl
        def pyasc_register_commands(self, register):
            raise SystemExit(4)

    plugins.register(Quitter(), "cli-quitter")
    try:
        with pytest.warns(pyasc.PyascPluginWarning, match="failed to register its commands.*SystemExit"):
            commands = cli.plugin_commands()
        assert "compile" in commands or not SIM  # the others still load
    finally:
        plugins.reset_for_tests()


# ---------------------------------------------------------------------------------------------
# environment switches: one parser
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "value"), [
    ("1", True), ("true", True), ("YES", True), (" on ", True),
    ("0", False), ("False", False), ("no", False), ("OFF", False), ("", False), (None, False),
])
def test_boolean_switch_values(text, value):
    assert pyasc_env.parse_flag("PYASC_X", text) is value


@pytest.mark.parametrize("text", ["2", "enable", "y", "-1"])
def test_boolean_switch_refuses_what_it_does_not_understand(text):
    _raises(EnvironmentSettingError, lambda: pyasc_env.parse_flag("PYASC_X", text),
            f"PYASC_X={text!r}", "1/true/yes/on", "0/false/no/off")


def test_disable_autoload_with_a_bad_value_raises(dists):
    dists.make("pyasc-good-pack", "good_pack", GOOD, entry_name="good")
    dists.reload(PYASC_DISABLE_PLUGIN_AUTOLOAD="2")
    msg = _raises(EnvironmentSettingError, plugins.get_plugin_manager, "PYASC_DISABLE_PLUGIN_AUTOLOAD='2'",
                  "1/true/yes/on")
    assert isinstance(EnvironmentSettingError(msg), ValueError)


def test_pyasc_backend_bogus_raises(monkeypatch):
    monkeypatch.setenv("PYASC_BACKEND", "bogus")
    monkeypatch.setattr(selection, "_global", None)
    _raises(pyasc.UnknownBackendError, pyasc.get_backend, "PYASC_BACKEND='bogus'", "Known backends")


# ---------------------------------------------------------------------------------------------
# shapes, devices, op names
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("make", [pyasc.empty, pyasc.zeros, pyasc.ones])
def test_shape_no_device_can_address(device, make):
    _raises(pyasc.ShapeError, lambda: make((2**62, 2**62), device=device),
            "(4611686018427387904, 4611686018427387904)", "float32", "smaller shape")


def test_meta_tensors_may_be_huge():
    assert pyasc.empty((2**62, 2**62), device="meta").shape == (2**62, 2**62)


@pytest.mark.parametrize(("shape", "cls", "fragment"), [
    ((-1, 2), pyasc.ShapeError, "negative"),
    ((2.5, 2), pyasc.ArgumentError, "(2.5, 2)"),
    ("ab", pyasc.ArgumentError, "'ab'"),
])
def test_bad_dims(shape, cls, fragment):
    _raises(cls, lambda: pyasc.empty(shape, device="numpy"), fragment)


@pytest.mark.parametrize(("device", "fragments"), [
    ("numpy:1", ("'numpy:1' does not exist", "0..0")),
    (pytest.param("sim:7", ("sim:7", "does not exist", "'sim:0'"), marks=needs_sim)),
    ("sim:-1", ("-1", "'sim:0'")),
    ("sim:x", ("'x'", "'sim:0'")),
])
def test_bad_device_strings(device, fragments):
    msg = _raises(InvalidDeviceError, lambda: pyasc.tensor([1.0], device=device), *fragments)
    assert msg


@pytest.mark.parametrize(("args", "fragment"), [
    (("sim", -1), "-1"), (("sim", "x"), "'x'"), ((3,), "3"), (("sim", True), "True"),
])
def test_bad_device_objects(args, fragment):
    _raises(InvalidDeviceError, lambda: pyasc.Device(*args), fragment, "e.g.")
    assert issubclass(InvalidDeviceError, ValueError)


@needs_sim
def test_device_object_index_is_checked():
    _raises(InvalidDeviceError, lambda: pyasc.tensor([1.0], device=pyasc.Device("sim", 7)),
            "'sim:7' does not exist", "'sim:0'")
    _raises(InvalidDeviceError, lambda: pyasc.memory.memory_stats("sim:7"), "'sim:7'")


def _meta(x):
    return x


@pytest.mark.parametrize(("call", "cls", "fragment"), [
    (lambda: pyasc.library.define(123, "(Tensor x) -> Tensor", meta=_meta, reference=_meta),
     pyasc.OpRegistrationError, "op name 123"),
    (lambda: pyasc.library.define("et::a", "(Tensor x) -> Tensor", meta=5, reference=_meta),
     pyasc.OpRegistrationError, "meta must be a function"),
    (lambda: pyasc.library.define("et::b", "(Tensor x) -> Tensor", meta=_meta, reference=_meta, mutates=5),
     pyasc.OpRegistrationError, "mutates=('out',)"),
    (lambda: pyasc.library.impl("pyasc::add", 123, _meta), pyasc.OpRegistrationError, "got int 123"),
    (lambda: pyasc.library.impl("pyasc::add", "numpy", 5), pyasc.OpRegistrationError, "must be a function"),
    (lambda: pyasc.library.op(123), pyasc.OpRegistrationError, "got int 123"),
    (lambda: pyasc.get_op(123), pyasc.UnknownOpError, "got int 123"),
    (lambda: pyasc.get_op(None), pyasc.UnknownOpError, "got NoneType None"),
    (lambda: pyasc.handle(123)(pyasc.ones(2, device="numpy")), pyasc.UnknownOpError, "got int 123"),
    (lambda: REGISTRY.op(["add"]), pyasc.UnknownOpError, "must be a string"),
    (lambda: REGISTRY.backend(123), pyasc.UnknownBackendError, "got int 123"),
    (lambda: pyasc.set_backend(3), pyasc.UnknownBackendError, "got int 3"),
], ids=["define-123", "define-meta", "define-mutates", "impl-backend", "impl-fn", "op-123", "get_op-123",
        "get_op-None", "handle-call", "registry-op", "registry-backend", "set_backend"])
def test_non_string_op_and_backend_names(call, cls, fragment):
    _raises(cls, call, fragment)
    # nothing half-registered breaks later rebuilds
    np.testing.assert_array_equal(pyasc.add(pyasc.ones(2, device="numpy"), 1.0).numpy(), [2.0, 2.0])


def test_dtype_none_is_refused():
    _raises(pyasc.DtypeError, lambda: pyasc.dtype(None), "got None", "float32")


# ---------------------------------------------------------------------------------------------
# DLPack
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("call", "fragment"), [
    (lambda t: pyasc.from_dlpack(object()), "got object"),
    (lambda t: t.__dlpack__(stream="x"), "stream='x'"),
    (lambda t: t.__dlpack__(max_version="x"), "max_version='x'"),
    (lambda t: t.__dlpack__(max_version=(1,)), "(major, minor)"),
    (lambda t: t.__dlpack__(copy="x"), "copy='x'"),
    (lambda t: t.__dlpack__(dl_device=5), "dl_device=5"),
    (lambda t: pyasc.from_dlpack(np.ones(2), copy="x"), "copy='x'"),
])
def test_bad_dlpack_arguments(call, fragment):
    t = pyasc.ones(2, device="numpy")
    _raises(pyasc.ArgumentError, lambda: call(t), fragment)


def test_from_dlpack_copy_keyword():
    a = np.ones(3, np.float32)
    shared = pyasc.from_dlpack(a)
    copied = pyasc.from_dlpack(a, copy=True)
    a[0] = 7
    assert shared.numpy()[0] == 7 and copied.numpy()[0] == 1
    assert pyasc.from_dlpack(a, copy=False).numpy()[0] == 7
    if SIM:
        _raises(pyasc.PyascError, lambda: pyasc.from_dlpack(a, device="sim", copy=False), "copy=False")


# ---------------------------------------------------------------------------------------------
# pyasc_acl.Binary misuse
# ---------------------------------------------------------------------------------------------

KERNEL = r"""
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void nothing(GM_ADDR x, uint32_t n) {}
"""


@pytest.fixture(scope="module")
def kernel_path():
    if not SIM:
        pytest.skip("the simulator is not installed")
    return pyasc_sim.compile(KERNEL)


@needs_sim
def test_binary_paths(tmp_path):
    _raises(pyasc.ArgumentError, lambda: pyasc_acl.Binary(5, device="sim"), "got int 5", "Binary(")
    _raises(pyasc.ArgumentError, lambda: pyasc_acl.Binary(None, device="sim"), "got NoneType")
    missing = tmp_path / "missing.so"
    _raises(pyasc_acl.AclFileError, lambda: pyasc_acl.Binary(missing, device="sim"), str(missing))
    _raises(pyasc_acl.AclFileError, lambda: pyasc_acl.Binary(tmp_path, device="sim"), str(tmp_path))
    text = tmp_path / "notes.so"
    text.write_text("not a kernel")
    _raises(pyasc_acl.AclFileError, lambda: pyasc_acl.Binary(text, device="sim"), str(text))
    _raises(pyasc.PyascError, lambda: pyasc_acl.Binary(text, device="numpy"), "not an ACL device")


def test_binary_function_and_launch_misuse(kernel_path):
    b = pyasc_acl.Binary(kernel_path, device="sim")
    _raises(pyasc.ArgumentError, lambda: b.function(123), "got int 123")
    _raises(pyasc_acl.AclInvalidParameterError, lambda: b.function("nope"), "'nope'")
    fn = b.function("nothing")
    x = pyasc.zeros(4, device="sim")
    _raises(pyasc.ArgumentError, lambda: fn(1, x, 4, stream="x"), "stream must be", "'x'")
    _raises(pyasc.ArgumentError, lambda: fn(2**40, x, 4), "num_blocks", str(2**40))
    _raises(pyasc.ArgumentError, lambda: fn(1, x, "4"), "kernel 'nothing': argument 1 'n' (uint32_t, 4 bytes)",
            "takes an integer, got str '4'")
    _raises(pyasc.ArgumentError, lambda: fn(1, x), "kernel 'nothing' takes 2 arguments", "got 1")
    _raises(pyasc.ArgumentError, lambda: pyasc_acl.launch("nothing", 1), "Binary.function")
    fn(1, x, 4)
    pyasc.synchronize("sim")
    b.unload()
    b.unload()  # a second unload does nothing
    _raises(pyasc_acl.BinaryUnloadedError, lambda: b.function("nothing"), "was unloaded", "load it again")
    _raises(pyasc_acl.BinaryUnloadedError, lambda: fn(1, x, 4), "was unloaded")


# ---------------------------------------------------------------------------------------------
# values that an integer tensor cannot hold
# ---------------------------------------------------------------------------------------------

NAN, INF = float("nan"), float("inf")


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize(("make", "value", "dtype"), [
    (lambda v, dt, d: pyasc.full((2,), v, dtype=dt, device=d), NAN, "int32"),
    (lambda v, dt, d: pyasc.full((2,), v, dtype=dt, device=d), -INF, "int64"),
    (lambda v, dt, d: pyasc.full((2,), v, dtype=dt, device=d), 1e20, "int32"),
    (lambda v, dt, d: pyasc.full((2,), v, dtype=dt, device=d), 300, "uint8"),
    (lambda v, dt, d: pyasc.tensor([1.0, v], dtype=dt, device=d), 1e20, "int32"),
    (lambda v, dt, d: pyasc.tensor([v], dtype=dt, device=d), 300, "uint8"),
    (lambda v, dt, d: pyasc.tensor([v], dtype=dt, device=d), -1, "uint8"),
    (lambda v, dt, d: pyasc.tensor(np.array([v]), dtype=dt, device=d), NAN, "int16"),
    (lambda v, dt, d: pyasc.arange(250, v, dtype=dt, device=d), 300, "uint8"),
    (lambda v, dt, d: pyasc.arange(0, v, 1e19, dtype=dt, device=d), 1e20, "int32"),
], ids=["full-nan", "full-inf", "full-1e20", "full-300", "tensor-1e20", "tensor-300", "tensor--1",
        "tensor-ndarray-nan", "arange-uint8", "arange-int32"])
def test_values_an_integer_dtype_cannot_hold(device, make, value, dtype):
    with pytest.raises(ValueRangeError) as info:
        make(value, dtype, device)
    msg = str(info.value)
    assert f"does not fit in dtype {dtype}" in msg and ".astype(" in msg
    assert isinstance(info.value, (ValueError, OverflowError, pyasc.ArgumentError))


@pytest.mark.parametrize("device", DEVICES)
def test_the_named_fix_works(device):
    """The message's way out: make a floating tensor, then astype (the saturating cast)."""
    with pytest.raises(ValueRangeError, match="saturates"):
        pyasc.tensor([NAN, 1e20, -INF], dtype="int32", device=device)
    out = pyasc.tensor([NAN, 1e20, -INF], device=device).astype("int32")
    assert out.tolist() == [0, 2**31 - 1, -(2**31)]


@pytest.mark.parametrize("bound", [NAN, INF])
def test_arange_with_non_finite_bounds(bound):
    _raises(pyasc.ArgumentError, lambda: pyasc.arange(0, bound, device="numpy"), "finite")


@pytest.mark.parametrize("device", DEVICES)
def test_values_that_fit_are_kept_and_fractions_truncate(device):
    assert pyasc.full((2,), 255, dtype="uint8", device=device).tolist() == [255, 255]
    assert pyasc.full((2,), -1.9, dtype="int32", device=device).tolist() == [-1, -1]  # toward zero
    assert pyasc.tensor([2.0**31 - 1, -(2.0**31)], dtype="int32", device=device).tolist() == [2**31 - 1, -(2**31)]
    assert pyasc.tensor([255.9], dtype="uint8", device=device).tolist() == [255]
    assert pyasc.arange(250, 256, dtype="uint8", device=device).tolist() == [250, 251, 252, 253, 254, 255]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize(("value", "dtype", "cls", "fragment"), [
    (NAN, "int32", ValueRangeError, "nan"),
    (INF, "int32", ValueRangeError, "inf"),
    (1e20, "int32", ValueRangeError, "1e+20"),
    (300, "uint8", ValueRangeError, "300"),
    (np.float32("nan"), "int32", ValueRangeError, "nan"),
    ([1e20, 1.0], "int32", ValueRangeError, "1e+20"),
    (np.array([-5]), "uint8", ValueRangeError, "-5"),
    (None, "int32", pyasc.DtypeError, "NoneType None"),
    (None, "float32", pyasc.DtypeError, "NoneType None"),
    (1 + 2j, "float32", pyasc.DtypeError, "value.real"),
    (np.complex64(1j), "int32", pyasc.DtypeError, "value.real"),
    ("a", "int32", pyasc.DtypeError, "str 'a'"),
    ([None, 1], "float32", pyasc.DtypeError, "object"),
], ids=["nan", "inf", "1e20", "300-uint8", "np-nan", "list", "array", "None-int", "None-float",
        "complex", "np-complex", "str", "list-None"])
def test_setitem_refuses_what_the_tensor_cannot_hold(device, value, dtype, cls, fragment):
    t = pyasc.zeros((3,), dtype=dtype, device=device)
    key = slice(0, 2) if isinstance(value, list) else 0
    _raises(cls, lambda: t.__setitem__(key, value), fragment, dtype)
    assert t.tolist() == [0, 0, 0]  # unchanged


@pytest.mark.parametrize("device", DEVICES)
def test_setitem_from_a_float_tensor_into_an_int_tensor(device):
    t = pyasc.zeros((3,), dtype="int32", device=device)
    _raises(ValueRangeError, lambda: t.__setitem__(slice(0, 1), pyasc.tensor([NAN], device=device)), "nan")
    t[0:2] = pyasc.tensor([1.5, -2.5], device=device)
    assert t.tolist() == [1, -2, 0]
    t[2] = 7.9
    assert t.tolist() == [1, -2, 7]


def test_int_of_a_non_finite_tensor_and_0d_len_iter():
    _raises(ValueRangeError, lambda: int(pyasc.tensor(NAN, device="numpy")), "nan", "isfinite")
    _raises(pyasc.ArgumentError, lambda: len(pyasc.tensor(1.0, device="numpy")), "len() of a 0-d", "item()")
    _raises(pyasc.ArgumentError, lambda: list(pyasc.tensor(1.0, device="numpy")), "0-d", "item()")


# ---------------------------------------------------------------------------------------------
# testing toolkit and run-time plugin registration
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("call", "cls", "fragments"), [
    (lambda: pyasc.testing.check_op(123, "numpy"), pyasc.UnknownOpError, ("got int 123",)),
    (lambda: pyasc.testing.sample_inputs(123), pyasc.UnknownOpError, ("got int 123",)),
    (lambda: pyasc.testing.assert_close("a", "b"), pyasc.ArgumentError, ("str 'a'", "NumPy arrays or numbers")),
    (lambda: plugins.register(5), pyasc.PluginError, ("int 5", "none of pyasc's hooks", "@pyasc.hookimpl")),
    (lambda: plugins.register(object(), name=5), pyasc.PluginError, ("got int 5",)),
    (lambda: plugins.unregister(name="nope"), pyasc.PluginError, ("no plugin 'nope' is registered", "registered: ")),
], ids=["check_op", "sample_inputs", "assert_close", "register-int", "register-name", "unregister"])
def test_toolkit_and_registration_misuse(call, cls, fragments):
    _raises(cls, call, *fragments)
    assert "5" not in {r.name for r in plugins.list_plugins()}


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize(("call", "fragment"), [
    (lambda s, e: s.wait_event("x"), "Stream.wait_event takes a pyasc.Event, got str 'x'"),
    (lambda s, e: s.wait_stream(5), "Stream.wait_stream takes a pyasc.Stream, got int 5"),
    (lambda s, e: s.record_event("x"), "Stream.record_event takes a pyasc.Event or None"),
    (lambda s, e: e.record("x"), "Event.record takes a pyasc.Stream or None, got str"),
    (lambda s, e: e.wait(3), "Event.wait takes a pyasc.Stream or None, got int 3"),
    (lambda s, e: e.elapsed_time(None), "Event.elapsed_time takes a pyasc.Event, got NoneType"),
], ids=["wait_event", "wait_stream", "record_event", "record", "wait", "elapsed_time"])
def test_stream_and_event_arguments(device, call, fragment):
    s, e = pyasc.Stream(device=device), pyasc.Event(enable_timing=True, device=device)
    _raises(pyasc.ArgumentError, lambda: call(s, e), fragment)
