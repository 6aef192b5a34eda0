"""Severity of the simulator's sanitizer checks (issue 8 point 11, issue 10 point 7): what hardware
tolerates is a warning (pyasc.SanitizerWarning, raised at synchronize) that `pyasc check` counts
per row instead of failing; PYASC_SIM_STRICT=1 turns warnings into kernel errors. The kernels behind
the warnings themselves are tested in test_sim_sanitizer.py (queue-leak)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import pyasc
from pyasc_core.testing.check import check_op


def test_sanitizer_warning_is_public_and_not_an_error():
    assert issubclass(pyasc.SanitizerWarning, UserWarning)
    assert not issubclass(pyasc.SanitizerWarning, pyasc.PyascError)


def _warning_backend():
    """A backend (the reference with one noisy kernel) whose kernel raises a sanitizer warning
    the way the sim backend does at synchronize."""
    from pyasc_core.reference_backend import ReferenceBackend

    pyasc.library.define("t11::noisy", "(Tensor x) -> Tensor", dtypes=["float32"], meta=lambda x: x,
                         reference=lambda x: x + 1)

    class Noisy(ReferenceBackend):
        name = "noisy"
        aliases = ()
        priority = -5

        def __init__(self):
            super().__init__()
            self._device = pyasc.Device("noisy")

        def default_kernel(self, op):
            kernel = super().default_kernel(op)
            if kernel is None or op.name != "t11::noisy":
                return kernel

            def warn_then_run(*args, **kwargs):
                warnings.warn("kernel noisy block 0: sanitizer warning 'queue-leak' at k.cpp:3: leaked",
                              pyasc.SanitizerWarning, stacklevel=2)
                return kernel(*args, **kwargs)

            return warn_then_run

    class P:
        @pyasc.hookimpl
        def pyasc_register_backends(self, register):
            register(Noisy())

    return P()


def test_check_counts_sanitizer_warnings_without_failing():
    from pyasc_core import plugins

    plugin = _warning_backend()
    plugins.register(plugin, "noisy-plugin")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", pyasc.SanitizerWarning)  # recorded, never raised by check_op
            report = check_op("t11::noisy", backend="noisy", dtypes=["float32"])
        assert report.ok, report.summary()
        assert report.results and all(len(r.warnings) == 1 for r in report.results)
        assert "sanitizer warning 'queue-leak'" in report.results[0].warnings[0]
        rows = report.by_dtype()
        assert rows[0]["warnings"] == len(report.results) and rows[0]["status"] == "pass"
        assert report.as_dict()["results"][0]["warnings"] == list(report.results[0].warnings)
        # an op without warnings records none
        clean = check_op("add", backend="numpy", dtypes=["float32"])
        assert all(r.warnings == () for r in clean.results)
        assert np.all([row["warnings"] == 0 for row in clean.by_dtype()])
    finally:
        plugins.unregister(plugin)
