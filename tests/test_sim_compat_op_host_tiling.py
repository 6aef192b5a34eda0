"""Op-project kernels whose host tiling header is the whole host tiling file (issue 8 point 1): it includes
``exe_graph/runtime/tiling_context.h``, ``register/op_def_registry.h``, ``tiling/platform/platform_ascendc.h``
and declares the host tiling class over ``gert::TilingContext`` / ``fe::PlatFormInfos`` /
``platform_ascendc::PlatformAscendC`` / ``ge::graphStatus``.  ``pyasc_sim.compile(tiling_header=...)`` includes
it into the kernel build for its BEGIN_TILING_DATA_DEF structs, so those host declarations must compile.
Our own op project in that style (one compile), run on sim vs NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

OP = ASCENDC_DIR / "compat" / "op_project_host"
SRC = OP / "op_kernel" / "host_tiled_axpy.cpp"
HDR = OP / "op_host" / "host_tiled_axpy_tiling.h"
TILE = 128


@pytest.fixture(scope="module")
def binary():
    # float16 build: the header's `ge::DataType inputType_{ge::DT_FLOAT16}` next to the op build's DT_* numbers
    return pyasc_sim.compile(SRC, opt="-O1", tiling_header=HDR, op_type="HostTiledAxpy",
                             dtypes={"x": "float16", "y": "float16", "z": "float16"})


def test_host_tiling_header_kernel_matches_numpy(binary):
    tiles = [3, 1, 4, 2]  # uneven split of 10 tiles over 4 cores, as a host tiling function would compute
    starts = np.concatenate([[0], np.cumsum(tiles)[:-1]]).astype(np.uint32)
    n = sum(tiles) * TILE
    rng = np.random.default_rng(8)
    x = rng.uniform(-4, 4, n).astype(np.float16)
    y = rng.uniform(-4, 4, n).astype(np.float16)
    t = pyasc_sim.tiling_struct(HDR, op_type="HostTiledAxpy", usedCoreNum=len(tiles),
                                coreTileStart=list(starts) + [0] * (8 - len(tiles)),
                                coreTileNum=tiles + [0] * (8 - len(tiles)))
    t.params.alpha, t.params.beta, t.params.tileLength = 1.5, -0.5, TILE
    z = pyasc.zeros((n,), dtype="float16", device="sim")
    pyasc.synchronize("sim")
    fn = pyasc_acl.Binary(binary, device="sim").function("host_tiled_axpy")
    pyasc_acl.launch(fn, len(tiles), (pyasc.tensor(x, device="sim"), pyasc.tensor(y, device="sim"), z,
                                      pyasc.zeros((8,), dtype="int32", device="sim"),
                                      pyasc.tensor(np.frombuffer(bytes(t), np.uint8).copy(), device="sim")))
    want = (x.astype(np.float32) * np.float32(1.5) + y.astype(np.float32) * np.float32(-0.5)).astype(np.float16)
    np.testing.assert_array_equal(z.numpy(), want)


def test_the_host_types_are_declared_as_documented(tmp_path):
    # names, signatures and documented values the stand-ins carry (compile-time checks in one small build)
    src = tmp_path / "k.cpp"
    src.write_text(
        '#include "kernel_operator.h"\n#include "register/op_def_registry.h"\n#include "tiling/tiling_api.h"\n'
        '#include "platform/platform_info.h"\n'
        "#include <type_traits>\n"
        "static_assert(std::is_class_v<fe::PlatFormInfos> && std::is_class_v<fe::OptionalInfos>);\n"
        "static_assert(std::is_same_v<ge::graphStatus, uint32_t> && ge::GRAPH_SUCCESS == 0u && "
        "ge::GRAPH_FAILED == 0xFFFFFFFFu && ge::GRAPH_PARAM_INVALID == 50331649u);\n"
        "static_assert(std::is_same_v<decltype(&gert::TilingContext::SetBlockDim), "
        "ge::graphStatus (gert::TilingContext::*)(const uint32_t)>);\n"
        "static_assert(std::is_same_v<decltype(&gert::TilingContext::GetPlatformInfo), "
        "fe::PlatFormInfos *(gert::TilingContext::*)() const>);\n"
        "static_assert(std::is_same_v<decltype(&platform_ascendc::PlatformAscendC::GetCoreMemSize), "
        "void (platform_ascendc::PlatformAscendC::*)(const platform_ascendc::CoreMemType &, uint64_t &) const>);\n"
        "static_assert(!std::is_default_constructible_v<platform_ascendc::PlatformAscendC>);\n"
        "static_assert(int(platform_ascendc::CoreMemType::UB) == 5);\n"
        "constexpr int64_t kSize = [] { return int64_t(2 * 3 * 4); }();\n"
        'extern "C" __global__ __aicore__ void k(GM_ADDR x) {\n'
        "    gert::StorageShape s({2, 3, 4}, {2, 3, 4});\n"
        "    *(__gm__ int64_t *)x = s.GetStorageShape().GetShapeSize() - kSize + s.GetOriginShape().GetDimNum();\n}\n")
    binary = pyasc_sim.compile(src, opt="-O0", dtypes={"x": "float16"})
    out = pyasc.zeros((1,), dtype="int64", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(pyasc_acl.Binary(binary, device="sim").function("k"), 1, (out,))
    assert out.numpy().tolist() == [3]
