"""What the one-way layering moved keeps working: a Tensor is complete whichever core module is
imported first, binding lives in pyasc_core.binding (the old schema names warn), and the numpy and
meta backends share the HostBackend base."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import pyasc
from pyasc_core import binding
from pyasc_core.host_backend import HostBackend
from pyasc_core.meta_backend import BACKEND as META
from pyasc_core.reference_backend import BACKEND as NUMPY
from pyasc_core.schema import Schema


def test_a_tensor_is_complete_when_only_the_tensor_module_is_imported(tmp_path):
    # outside the checkout, so the child imports the installed build
    code = textwrap.dedent("""
        from pyasc_core.tensor import Tensor
        t = Tensor([1.0, 2.0], device="numpy")
        u = (t + 1) * 2 == Tensor([4.0, 6.0], device="numpy")
        assert u.tolist() == [True, True], u
        assert t.to("meta").shape == (2,) and t.astype("float16").dtype.name == "float16"
        import numpy as np
        assert np.from_dlpack(t).tolist() == [1.0, 2.0]
        print("complete")
    """)
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "complete" in out.stdout, out.stderr


def test_binding_has_its_own_module_and_the_old_schema_names_warn():
    s = Schema.parse("(Tensor x, *, float alpha=1.0) -> Tensor")
    x = pyasc.tensor([1.0], device="numpy")
    assert binding.bind(s, "t::op", (x,), {"alpha": 2}) == [x, 2.0]
    with pytest.raises(pyasc.ArgumentError, match="t::op argument 'x' must be a pyasc.Tensor, got list"):
        binding.bind(s, "t::op", ([1.0],), {})
    with pytest.warns(DeprecationWarning, match="pyasc_core.binding.bind"):
        assert s.bind("t::op", (x,), {}) == [x, 1.0]
    with pytest.warns(DeprecationWarning, match="pyasc_core.binding.schema_from_signature"):
        from pyasc_core.schema import schema_from_signature
    assert schema_from_signature is binding.schema_from_signature
    import pyasc_core.schema as schema_module

    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        schema_module.nothing_here


def test_numpy_and_meta_share_the_host_base():
    assert isinstance(NUMPY, HostBackend) and isinstance(META, HostBackend)
    for b in (NUMPY, META):
        with pytest.raises(pyasc.PyascError, match=f"the {b.name} backend has one device; got index 2"):
            b.device(2)
        assert b.default_stream(b.device()) is b.default_stream(b.device())
    # meta holds no data: no host bytes owned, statistics stay zero
    m = pyasc.zeros(1000, device="meta")
    assert m._owned == 0 and set(pyasc.memory.memory_stats("meta").values()) == {0}
    n = pyasc.zeros(1000, device="numpy")
    assert n._owned == 4000 and n[1:]._owned == 0  # a view owns nothing


def test_the_host_limit_is_checked_when_the_core_wraps_storage():
    pyasc.memory.set_memory_limit(1024, device="numpy")
    try:
        with pytest.raises(pyasc.OutOfMemoryError, match="would exceed the memory limit of 1024 bytes"):
            pyasc.from_numpy(np.zeros(4096, np.float32), device="numpy").clone()
    finally:
        pyasc.memory.set_memory_limit(None, device="numpy")
