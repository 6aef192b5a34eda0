"""tiling_header= naming a directory with no tiling header is a KernelBuildError naming the directory and the fix
(it raised NameError: the check referred to a variable of another function)."""

from __future__ import annotations

import pytest

import pyasc
from pyasc_sim.build import KernelBuildError, tiling_headers


def test_directory_without_a_tiling_header(tmp_path):
    (tmp_path / "util.h").write_text("#pragma once\nconstexpr int N = 4;\n")
    with pytest.raises(KernelBuildError, match="has no header declaring a tiling struct") as info:
        tiling_headers(tmp_path)
    assert isinstance(info.value, pyasc.PyascError) and str(tmp_path) in str(info.value)


def test_directory_with_one(tmp_path):
    (tmp_path / "op_tiling.h").write_text("BEGIN_TILING_DATA_DEF(T)\nEND_TILING_DATA_DEF;\n")
    (tmp_path / "util.h").write_text("#pragma once\n")
    assert tiling_headers(tmp_path) == [str(tmp_path / "op_tiling.h")]
