"""pyasc.testing: compare backends with the golden model.

``assert_close`` (per-dtype tolerances, error statistics), ``sample_inputs`` (an op record's
samples, or ones derived from its schema; Sample and SampleMaker live in pyasc_core.samples), ``check_op`` (differential run with a structured report; missing kernels fail unless allowed
or listed in an expected-missing list, ``missing.py``) and ``opcheck``
(registration consistency). The pytest plugin and hypothesis strategies live beside them.
"""

from .check import CheckReport, OpcheckError, SampleResult, check_op, opcheck, run_sample
from .compare import Comparison, MismatchError, assert_close, compare, ulp_distance
from .missing import ExpectedMissing, ExpectedMissingListError, load_expected_missing
from .samples import SHAPES, Sample, SampleMaker, generic_samples, sample_inputs, schema_samples
from .tolerances import DEFAULT_TOLERANCES, reset_tolerances, set_tolerance, tolerance, tolerances

__all__ = [
    "CheckReport", "Comparison", "DEFAULT_TOLERANCES", "ExpectedMissing",
    "ExpectedMissingListError", "MismatchError", "OpcheckError", "SHAPES",
    "Sample", "SampleMaker", "SampleResult", "assert_close", "check_op", "compare",
    "generic_samples", "load_expected_missing", "opcheck", "reset_tolerances", "run_sample", "sample_inputs",
    "schema_samples", "set_tolerance", "tolerance", "tolerances", "ulp_distance",
]
