"""Sample inputs of an op for the testing toolkit: ``sample_inputs(op)`` runs the op record's
sample maker (or derives samples from its schema) for each of its dtypes, then varies each
attribute over at least three values (``attribute_variants``).

The sample types live in ``pyasc_core.samples`` (below the built-in ops, which define their
samples with them); they are re-exported here and from ``pyasc.testing``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from .. import dtypes as _dt
from ..samples import (
    BROADCAST_PAIRS,
    SHAPES,
    BenchInputs,
    Sample,
    SampleInputs,
    SampleMaker,
    accepts,
    attribute_variants,
    generic_samples,
    schema_samples,
)

__all__ = [
    "BROADCAST_PAIRS", "SHAPES", "BenchInputs", "Sample", "SampleInputs", "SampleMaker", "accepts",
    "attribute_variants", "generic_samples", "sample_inputs", "schema_samples",
]


def _stable_dtypes(op: Any, dtypes: Iterable[Any] | None, backend_dtypes: Iterable[np.dtype] | None) -> list[np.dtype]:
    allowed = op.all_dtypes
    if backend_dtypes is not None:
        allowed = allowed & frozenset(backend_dtypes)
    if dtypes is not None:
        wanted = {_dt.as_dtype(d) for d in dtypes}
        allowed = allowed & wanted
    return [d for d in _dt.ALL_DTYPES if d in allowed]


def sample_inputs(op: Any, *, dtypes: Iterable[Any] | None = None, seed: int = 0,
                  backend_dtypes: Iterable[np.dtype] | None = None) -> list[Sample]:
    """All samples of ``op`` (an OpDef, handle or name) for its dtypes, reproducible from ``seed``."""
    from ..dispatch import OpHandle
    from ..opdef import OpDef
    from ..registry import REGISTRY

    if isinstance(op, str):
        op = REGISTRY.op(op if "::" in op else f"pyasc::{op}")
    elif isinstance(op, OpHandle):
        op = op.opdef
    elif not isinstance(op, OpDef):
        REGISTRY.op(op)  # raises UnknownOpError naming the value
    maker = SampleMaker(op, seed)
    custom: SampleInputs | None = op.sample_inputs
    out: list[Sample] = []
    for dtype in _stable_dtypes(op, dtypes, backend_dtypes):
        gen = list(custom(maker, dtype) if custom is not None else generic_samples(op, maker, dtype))
        out.extend(gen)
        out.extend(attribute_variants(op, gen))
    return out
