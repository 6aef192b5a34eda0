"""Tiling template programming with ASCENDC_TPL_TILING_STRUCT_SEL: newer CANN releases let each
ASCENDC_TPL_ARGS_SEL name the tiling struct its instances read (vllm-ascend's causal_conv1d_v2 key header
does).  It is no template argument and no part of the tiling key.  Our own op:
kernels/compat/op_project_tpl_tiling_struct (shifted_abs.cpp, MODE in {0, 1, 2}, the op selecting 0 and
2, each selection naming the plain struct ShiftedAbsTilingData), each selected instance built and compared
with NumPy; the unselected value stays rejected (the selections are still read)."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR
from pyasc_sim import tpl

SRC = ASCENDC_DIR / "compat" / "op_project_tpl_tiling_struct" / "op_kernel" / "shifted_abs.cpp"
N, BLOCKS = 256, 2
SHIFT = np.float32(-0.625)


def test_struct_selection_adds_no_template_argument():
    decl = pyasc_sim.template_arguments(SRC)
    assert decl.names == ["MODE"]
    assert [p.values for p in decl.args] == [(0, 1, 2)]
    assert decl.encode({"MODE": 2}) == 2
    with pytest.raises(tpl.TemplateArgumentError, match="no ASCENDC_TPL_ARGS_SEL selects"):
        decl.encode({"MODE": 1})


@pytest.mark.parametrize("mode", [0, 2])
def test_each_selected_instance_matches_numpy(mode):
    path = pyasc_sim.compile(SRC, opt="-O1", tpl_args={"MODE": mode})
    fn = pyasc_acl.Binary(path, device="sim").function(f"shifted_abs<{mode}>")
    x_np = np.random.default_rng(11 + mode).standard_normal(N).astype(np.float32)
    tiling = np.zeros(2, np.int64)
    tiling[0] = N
    tiling.view(np.float32)[2] = SHIFT
    y = pyasc.zeros((N,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(fn, BLOCKS, (pyasc.tensor(x_np, device="sim"), y, pyasc.zeros((32,), dtype="uint8", device="sim"),
                                  pyasc.tensor(tiling.view(np.uint8).copy(), device="sim")))
    pyasc.synchronize("sim")
    want = x_np + SHIFT
    if mode == 2:
        want = np.abs(want)
    np.testing.assert_array_equal(y.numpy(), want)
