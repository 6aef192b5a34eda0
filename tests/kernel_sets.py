"""Helpers for tests that run the built-in kernels from another build (e.g. compiled for Ascend310P3):
lay out such a build as an installed kernel directory, and run an op with its kernels loaded from there."""

from __future__ import annotations

import pathlib
import shutil
from typing import Any, Callable, Iterable

import pyasc

#: the built-in kernel sources (kernels/<family>.cpp)
KERNELS_ROOT = pathlib.Path(__file__).resolve().parents[1] / "kernels"


def build_kernel_dir(directory: pathlib.Path, families: Iterable[str], soc: str) -> pathlib.Path:
    """kernels/<family>.cpp compiled for soc into directory, named as installed kernels are."""
    import pyasc_sim
    from pyasc_kernels import _runtime as rt

    for fam in families:
        shutil.copy(pyasc_sim.compile(KERNELS_ROOT / f"{fam}.cpp", soc=soc), directory / rt.binary_name("sim", fam))
    (directory / rt.SOC_FILE).write_text(soc + "\n")  # the set's SoC (pyasc check: dtypes it lacks)
    return directory


def run_with_kernels(kdir: pathlib.Path | None, fn: Callable[[], Any], monkeypatch) -> Any:
    """fn() (synchronised) with the built-in kernels loaded from kdir (None: the installed build)."""
    from pyasc_kernels import _runtime as rt

    with monkeypatch.context() as m:
        if kdir is not None:
            m.setattr(rt, "kernel_dir_candidates", lambda: [str(kdir)])
        rt.KERNELS.clear()
        try:
            out = fn()
            pyasc.synchronize("sim")
        finally:
            rt.KERNELS.clear()
    return out
