"""Tiling template programming on the simulator (reference pages "Tiling Template Programming",
"Template Argument Declaration", GET_TPL_TILING_KEY): an op whose tiling key header declares
template arguments with ASCENDC_TPL_ARGS_DECL / ASCENDC_TPL_SEL and whose kernel is a template over
them; compile(tpl_args=... or tiling_key=...) builds the selected instance. Our own op:
kernels/compat/op_project_tpl (tpl_scale.cpp, tpl_scale_tiling_key.h)."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR
from pyasc_sim import tpl

OP = ASCENDC_DIR / "compat" / "op_project_tpl" / "op_kernel"
SRC = OP / "tpl_scale.cpp"
N, BLOCKS = 2048, 2


@pytest.fixture(scope="module")
def decl():
    return pyasc_sim.template_arguments(SRC)


def test_declaration_is_read_with_ranges_expanded(decl):
    assert decl.names == ["D_T_X", "TILE_NUM", "RELU"]
    assert [p.values for p in decl.args] == [(0, 1), (1, 2, 4, 8), (0, 1)]
    assert [p.bit_width for p in decl.args] == [8, 4, 1]
    assert len(decl.selections) == 2


def test_encoding_packs_positions_first_argument_lowest(decl):
    # D_T_X fp16 is position 1 (bits 0-7), TILE_NUM 8 position 3 (bits 8-11), RELU 1 (bit 12)
    assert decl.encode({"D_T_X": 1, "TILE_NUM": 8, "RELU": 1}) == 1 | 3 << 8 | 1 << 12
    assert decl.encode([0, 2, 0]) == 1 << 8
    assert decl.decode(1 | 3 << 8 | 1 << 12) == {"D_T_X": 1, "TILE_NUM": 8, "RELU": 1}


def _tiling(scale: float, bias: float):
    blob = np.zeros(3, dtype=np.uint32)
    blob[0] = N
    blob[1:] = np.array([scale, bias], dtype=np.float32).view(np.uint32)
    return pyasc.tensor(blob.view(np.uint8), device="sim")


@pytest.mark.parametrize("args", [
    {"D_T_X": 0, "TILE_NUM": 1, "RELU": 0},
    {"D_T_X": 0, "TILE_NUM": 2, "RELU": 1},
    {"D_T_X": 1, "TILE_NUM": 8, "RELU": 1},
])
@pytest.mark.parametrize("by_key", [False, True])
def test_selected_instance_runs_and_matches_numpy(decl, args, by_key):
    key = decl.encode(args)
    if by_key:
        path = pyasc_sim.compile(SRC, opt="-O1", tiling_key=key)
    else:
        path = pyasc_sim.compile(SRC, opt="-O1", tpl_args=args)
    fn = pyasc_acl.Binary(path, device="sim").function(decl.instance("tpl_scale", args))
    dtype = np.float16 if args["D_T_X"] == 1 else np.float32
    x_np = np.random.default_rng(key).standard_normal(N).astype(dtype)
    x = pyasc.tensor(x_np, device="sim")
    y = pyasc.zeros((N,), dtype=np.dtype(dtype).name, device="sim")
    meta = pyasc.zeros((4,), dtype="int32", device="sim")
    work = pyasc.zeros((32,), dtype="uint8", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(fn, BLOCKS, (x, y, meta, work, _tiling(1.5, -0.25)))
    pyasc.synchronize("sim")
    want = x_np.astype(np.float32) * 1.5 - 0.25
    if args["RELU"]:
        want = np.maximum(want, 0)
    tol = 2e-3 if dtype == np.float16 else 1e-6
    np.testing.assert_allclose(y.numpy().astype(np.float32), want, rtol=tol, atol=tol)
    assert list(meta.numpy()) == [key, args["D_T_X"], args["TILE_NUM"], args["RELU"]]


def test_values_outside_the_declaration_are_errors(decl):
    with pytest.raises(pyasc.PyascError, match=r"TILE_NUM = 3 is not declared.*\[1, 2, 4, 8\]"):
        pyasc_sim.compile(SRC, opt="-O1", tpl_args={"D_T_X": 0, "TILE_NUM": 3, "RELU": 0})
    with pytest.raises(pyasc.PyascError, match="unknown: MODE"):
        decl.encode({"D_T_X": 0, "TILE_NUM": 1, "RELU": 0, "MODE": 1})


def test_unselected_combination_is_an_error(decl):
    # fp16 is built only with TILE_NUM 4 / 8 and RELU on
    with pytest.raises(tpl.TemplateArgumentError, match="no ASCENDC_TPL_ARGS_SEL selects"):
        decl.encode({"D_T_X": 1, "TILE_NUM": 1, "RELU": 1})
    with pytest.raises(pyasc.PyascError, match="no ASCENDC_TPL_ARGS_SEL selects"):
        pyasc_sim.compile(SRC, opt="-O1", tiling_key=1 | 3 << 8)  # fp16, 8 tiles, no ReLU


def test_bad_tiling_key_is_an_error(decl):
    with pytest.raises(pyasc.PyascError, match="bits above"):
        decl.decode(1 << 20)
    with pytest.raises(pyasc.PyascError, match="only 2 value"):
        decl.decode(5)


def test_tpl_args_need_a_declaration(tmp_path):
    src = tmp_path / "plain.cpp"
    src.write_text('#include "kernel_operator.h"\nextern "C" __global__ __aicore__ void k(GM_ADDR x) {}\n')
    with pytest.raises(pyasc.PyascError, match="declares no template arguments"):
        pyasc_sim.compile(src, opt="-O0", tpl_args={"A": 1})


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++ for the host program")
def test_get_tpl_tiling_key_in_host_code_matches_python(decl, tmp_path):
    main = tmp_path / "host.cpp"
    main.write_text(
        '#include <cstdio>\n#include "tpl_scale_tiling_key.h"\n'
        "int main() {\n"
        '  std::printf("%llu %llu %llu\\n", (unsigned long long)GET_TPL_TILING_KEY(0, 2, 1),\n'
        "              (unsigned long long)GET_TPL_TILING_KEY(1, 8, 1),\n"
        "              (unsigned long long)GET_TPL_TILING_KEY(1, 1, 1));\n}\n")
    exe = tmp_path / "host"
    subprocess.run(["g++", "-std=c++17", "-I", pyasc_sim.get_include(), "-I", str(OP), str(main), "-o", str(exe)],
                   check=True)
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True)
    assert out.stdout.split() == [str(decl.encode([0, 2, 1])), str(decl.encode([1, 8, 1])), str(2 ** 64 - 1)]
    assert "no ASCENDC_TPL_ARGS_SEL selects" in out.stderr


def test_cli_builds_the_instance_of_tpl_args(tmp_path, capsys):
    from pyasc_core.cli import main

    out = tmp_path / "tpl.so"
    assert main(["compile", str(SRC), "--opt=-O1", "-o", str(out), "--tpl-arg", "D_T_X=1", "--tpl-arg", "TILE_NUM=4",
                 "--tpl-arg", "RELU=1"]) == 0
    assert "tpl_scale<1, 4, true>" in capsys.readouterr().out
    pyasc_acl.Binary(str(out), device="sim").function("tpl_scale<1, 4, true>")
    assert main(["compile", str(SRC), "-o", str(out), "--tpl-arg", "TILE_NUM"]) == 2
