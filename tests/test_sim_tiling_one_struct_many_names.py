"""A host tiling header that registers one tiling struct under several names -- one per tiling key, as
public op projects do (`REGISTER_TILING_DATA_CLASS(LayerNormFwd_100, LayerNormFwdTilingData)`,
`(LayerNormFwd_120, ...)`, ...) -- is unambiguous: `pyasc_sim.tiling_struct` / `tiling.layout` and
`pyasc_sim.compile` take that struct without `name=` / `op_type=`. Two different structs still need
the choice, and the error counts structs, not registrations."""
from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim

_ONE = """#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(KeyedTiling)
TILING_DATA_FIELD_DEF(uint32_t, count);
TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Keyed_1, KeyedTiling)
REGISTER_TILING_DATA_CLASS(Keyed_2, KeyedTiling)
REGISTER_TILING_DATA_CLASS(Keyed_3, KeyedTiling)
}
"""

_TWO = _ONE.replace("REGISTER_TILING_DATA_CLASS(Keyed_3, KeyedTiling)", """BEGIN_TILING_DATA_DEF(OtherTiling)
TILING_DATA_FIELD_DEF(uint64_t, big);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Other, OtherTiling)""")

_KERNEL = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void keyed(GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    AscendC::GlobalTensor<float> o;
    o.SetGlobalBuffer((__gm__ float *)out, 8);
    if (TILING_KEY_IS(2)) {
        o.SetValue(0, t.count * t.scale);
    } else {
        o.SetValue(0, -1.0f);
    }
}
"""


def test_one_struct_registered_under_several_names_needs_no_name(tmp_path):
    hdr = tmp_path / "op_host" / "keyed_tiling.h"
    hdr.parent.mkdir()
    hdr.write_text(_ONE)
    t = pyasc_sim.tiling_struct(hdr, count=6, scale=1.5)
    assert len(bytes(t)) == pyasc_sim.tiling.layout(hdr).size == 8
    src = tmp_path / "keyed.cpp"
    src.write_text(_KERNEL)
    out = pyasc.zeros((8,), dtype="float32", device="sim")
    binary = pyasc_sim.compile(src, opt="-O1", tiling_header=hdr, tiling_key=2)
    tiling = pyasc.tensor(np.frombuffer(bytes(t), np.uint8).copy(), device="sim")
    work = pyasc.zeros((8,), dtype="int32", device="sim")
    pyasc_acl.launch(pyasc_acl.Binary(binary, device="sim").function("keyed"), 1, (out, work, tiling))
    pyasc.synchronize("sim")
    assert out.numpy()[0] == 9.0


def test_two_structs_still_need_a_choice(tmp_path):
    hdr = tmp_path / "two_tiling.h"
    hdr.write_text(_TWO)
    with pytest.raises(pyasc_sim.KernelBuildError, match=r"registers 2 tiling structs \(KeyedTiling, OtherTiling\)"):
        pyasc_sim.tiling_struct(hdr, count=1)
    assert pyasc_sim.tiling.layout(hdr, op_type="Other").size == 8
    src = tmp_path / "keyed.cpp"
    src.write_text(_KERNEL)
    with pytest.raises(pyasc_sim.KernelBuildError, match="registers several ops"):
        pyasc_sim.compile(src, tiling_header=hdr, tiling_key=2)
