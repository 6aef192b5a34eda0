"""Ahead-of-time kernel builds for op packs: compile a pack's Ascend C sources at its install.

A pack's ``pyproject.toml`` uses the setuptools command below::

    [build-system]
    requires = ["setuptools>=61", "pyasc-runtime"]

    [tool.setuptools.cmdclass]
    build_py = "pyasc_sim.pack_build.build_py"

Every ``*.cpp`` under a ``kernels/`` directory of the pack's packages is then compiled for the
simulator next to itself as ``<name>.sim.so``; ``pyasc.Kernel`` takes that binary instead of
compiling on first use when it is newer than the source (``KernelSource`` finds it). Without
the command the source ships and compiles on first use into the per-user cache."""

from __future__ import annotations

import os
from pathlib import Path

from setuptools.command.build_py import build_py as _build_py


def build_kernels(root: str | os.PathLike) -> list[str]:
    """Compile every ``kernels/*.cpp`` under ``root`` to ``<name>.sim.so`` next to it; their paths."""
    from .build import compile as compile_sim

    out = []
    for src in sorted(Path(root).rglob("kernels/*.cpp")):
        out.append(compile_sim(str(src), output=src.with_suffix(".sim.so")))
    return out


class build_py(_build_py):
    """setuptools' build_py, then :func:`build_kernels` over the built packages."""

    def run(self) -> None:
        super().run()
        for path in build_kernels(self.build_lib):
            self.announce(f"pyasc: compiled {path}", level=2)
