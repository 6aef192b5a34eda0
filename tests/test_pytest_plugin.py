"""The pytest plugin shipped with pyasc, exercised in separate pytest processes (pytester)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestAssertRewriteWarning")


def test_backend_fixture_is_parametrized_over_chosen_backends(pytester):
    pytester.makepyfile(
        """
        import pyasc

        def test_on(backend, reference):
            t = pyasc.tensor([1.0, 2.0], device=backend)
            assert t.device.type == backend
            assert reference == "numpy"
        """
    )
    result = pytester.runpytest_subprocess("-v", "-p", "no:cacheprovider",
                                           "--pyasc-backend", "numpy", "--pyasc-backend", "meta")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*test_on?backend=numpy? PASSED*", "*test_on?backend=meta? PASSED*"])


def test_unknown_backend_option_is_a_usage_error(pytester):
    pytester.makepyfile("def test_x(backend):\n    pass\n")
    result = pytester.runpytest_subprocess("--pyasc-backend", "nosuch")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*pyasc: unknown backend 'nosuch'*Known backends:*numpy*"])


def _use_twin(pytester):
    """Make backend "twin" (numpy with a wrong mul kernel, tests/twin_backend.py) available."""
    import twin_backend

    pytester.makepyfile(twin_backend_plugin=twin_backend.SOURCE)
    pytester.makeconftest(
        "import twin_backend_plugin\n"
        "from pyasc_core import plugins\n"
        "plugins.register(twin_backend_plugin, 'twin')\n"
    )


def test_assert_matches_reference_catches_a_wrong_kernel(pytester):
    _use_twin(pytester)
    pytester.makepyfile(
        """
        import numpy as np

        def test_mul(assert_matches_reference):
            x = np.arange(1, 5, dtype=np.float32)
            out = assert_matches_reference("mul", x, 3.0)
            np.testing.assert_allclose(out.numpy(), x * 3.0)
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-v",
                                           "--pyasc-backend", "numpy", "--pyasc-backend", "twin")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines([
        "*test_mul?backend=numpy? PASSED*",
        "*test_mul?backend=twin? FAILED*",
        "*MismatchError: pyasc::mul on twin vs numpy (output 0)*",
        "*4 of 4 elements differ*",  # x + 3 instead of x * 3 for x = 1..4
    ])


def test_pyasc_ops_marker_runs_once_per_op_and_finds_the_wrong_kernel(pytester):
    _use_twin(pytester)
    pytester.makepyfile(
        """
        import pytest
        import pyasc

        @pytest.mark.pyasc_ops("add", "mul", "sub")
        def test_op(op, backend):
            pyasc.testing.check_op(op, backend, dtypes=["float32"]).raise_for_failures()
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-v", "--pyasc-backend", "twin")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines([
        "*test_op?backend=twin-pyasc::add? PASSED*",
        "*test_op?backend=twin-pyasc::mul? FAILED*",
        "*test_op?backend=twin-pyasc::sub? PASSED*",
        "*pyasc::mul on twin vs numpy:*samples pass*",
    ])


def test_marker_without_op_argument_is_a_usage_error(pytester):
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.pyasc_ops()
        def test_nothing():
            pass
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    assert result.ret != 0
    result.stdout.fnmatch_lines(["*pyasc_ops needs an `op` argument*"])


def test_plugin_works_under_xdist(pytester):
    pytester.makepyfile(
        """
        import pytest
        import pyasc

        @pytest.mark.pyasc_ops("pyasc::*")
        def test_every_op(op, backend):
            pyasc.testing.check_op(op, backend, dtypes=["float32", "int32"]).raise_for_failures()
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-n", "2",
                                           "--pyasc-backend", "numpy", "--pyasc-backend", "meta")
    from pyasc_core.registry import REGISTRY

    REGISTRY.ensure()
    n_ops = sum(1 for name in REGISTRY.ops if name.startswith("pyasc::"))
    # the meta backend has no data, so value checks there error out: only numpy passes
    result.assert_outcomes(passed=n_ops, failed=n_ops)
    result.stdout.fnmatch_lines(["*2 workers*"])


def test_hypothesis_strategies_make_tensors():
    from hypothesis import given, settings

    import pyasc
    from pyasc.testing import assert_close
    from pyasc_core.testing import strategies as pst

    @settings(max_examples=40, deadline=None)
    @given(pst.tensors(dtype=pst.dtypes(include=["float32", "bfloat16", "int16"]),
                       shape=pst.shapes(max_dims=2, max_side=5)))
    def check(t):
        assert isinstance(t, pyasc.Tensor) and t.device.type == "numpy"
        assert t.dtype in (pyasc.float32, pyasc.bfloat16, pyasc.int16)
        assert len(t.shape) <= 2 and all(s <= 5 for s in t.shape)
        assert_close(t + 0, t)

    check()
