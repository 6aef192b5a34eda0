"""Tiling template programming through the installed SDK spelling of its header: public op projects
(vllm-ascend's gumbel_sample) include "tiling/template_argument.h" where the reference pages write
"ascendc/host_api/tiling/template_argument.h"; both must declare the ASCENDC_TPL_* macros.  Our own op:
kernels/compat/op_project_tpl_sdk_path (scaled_relu.cpp, a template kernel over RELU in {0, 1} with a
macro-declared host tiling struct), each instance built by tiling key and compared with NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

OP = ASCENDC_DIR / "compat" / "op_project_tpl_sdk_path"
SRC = OP / "op_kernel" / "scaled_relu.cpp"
HDR = OP / "op_host" / "scaled_relu_tiling.h"
N, BLOCKS = 512, 2


def test_declaration_is_read_through_the_sdk_spelling():
    decl = pyasc_sim.template_arguments(SRC)
    assert decl.names == ["RELU"]
    assert [p.values for p in decl.args] == [(0, 1)]
    assert decl.encode({"RELU": 1}) == 1


@pytest.mark.parametrize("key", [0, 1])
def test_instance_of_each_key_matches_numpy(key):
    path = pyasc_sim.compile(SRC, opt="-O1", tiling_header=HDR, tiling_key=key)
    fn = pyasc_acl.Binary(path, device="sim").function(f"scaled_relu<{key}>")
    x_np = np.random.default_rng(7 + key).standard_normal(N).astype(np.float32)
    t = pyasc_sim.tiling_struct(HDR, totalLength=N, scale=-1.75)
    y = pyasc.zeros((N,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(fn, BLOCKS, (pyasc.tensor(x_np, device="sim"), y, pyasc.zeros((32,), dtype="uint8", device="sim"),
                                  pyasc.tensor(np.frombuffer(bytes(t), np.uint8).copy(), device="sim")))
    pyasc.synchronize("sim")
    want = x_np * np.float32(-1.75)
    if key == 1:
        want = np.maximum(want, 0)
    np.testing.assert_array_equal(y.numpy(), want)
