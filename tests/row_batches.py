"""Run a row op (softmax, layer_norm, rms_norm ...) on sim and see the row layout its launch used.

The row kernels (kernels/softmax.cpp, kernels/norm.cpp) normalise several whole rows per batch when the
host's chunk holds them; tests of a batch layout compare it with the one-row path on the same input. Both
need the chunk the launch carried, and the one-row path needs the host's batch chunk replaced by the
plain per-row chunk (pyasc_kernels.nn._chunk)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pyasc


def launch_rows(monkeypatch, nn, tiling: str, call: Callable[[], Any], batched: bool) -> tuple[np.ndarray, int]:
    """Runs call() (one row op on sim) and synchronizes; returns its output as NumPy and the chunk of the
    one launch it made. `tiling` names the tiling class in nn.tl the op builds (e.g. "NormTiling"); with
    batched False the host gives the rows its per-row chunk (nn._chunk) instead of the batch chunk. The
    patches are undone on return; the caller's own monkeypatch settings stay."""
    seen = []
    cls = getattr(nn.tl, tiling)

    def spy(**fields):
        seen.append(fields["chunk"])
        return cls(**fields)

    # a context of its own: undoing it leaves the caller's patches (e.g. PYASC_SIM_CHECKS) in place
    with monkeypatch.context() as m:
        m.setattr(nn.tl, tiling, spy)
        if not batched:
            m.setattr(nn, "_batch_chunk", lambda cols, batch_chunk=None: nn._chunk(cols))
        out = call()
        pyasc.synchronize("sim")
    assert len(seen) == 1, f"expected one launch carrying a {tiling}, saw {len(seen)}"
    return out.numpy(), seen[0]
