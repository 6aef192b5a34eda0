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


# A tiling header that uses the host names its op_host/<op>.cpp brings before including it (NPUKernelBench's
# ReverseSequence, COMPAT.md "Round 19 (study19c)"): only register/tilingdata_base.h is included, yet gert::Shape,
# std::array and std::min are used -- the host source includes register/op_def_registry.h first. Both the
# kernel build and pyasc_sim.tiling_struct compile it in that host context.
CTX_HEADER = """#include "register/tilingdata_base.h"
namespace ops {
using QuickVector = gert::Shape;
struct SliceSpec {
  QuickVector begin;
  QuickVector strides;
};
static inline int64_t ClampDim(int64_t x, int64_t dim) {
  const std::array<int64_t, 2> range = {{0, dim}};
  return x < range[0] ? range[0] : std::min(x, range[1]);
}
static inline void Canonical(SliceSpec &spec, const gert::Shape &shape) {
  for (size_t i = 0; i < shape.GetDimNum(); ++i) {
    auto &b = spec.begin[i];
    b = ClampDim(b, shape.GetDim(i));
    spec.strides[i] = spec.strides[i] == 0 ? 1 : spec.strides[i];
  }
}
}  // namespace ops
namespace optiling {
BEGIN_TILING_DATA_DEF(ShapeCtxTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF
REGISTER_TILING_DATA_CLASS(ShapeCtx, ShapeCtxTilingData)
}  // namespace optiling
"""

CTX_KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void shape_ctx(GM_ADDR x, GM_ADDR y, GM_ADDR shape_out, GM_ADDR workspace,
                                                GM_ADDR tiling) {
    GET_TILING_DATA(t, tiling);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, t.n * sizeof(float));
    LocalTensor<float> v = buf.Get<float>();
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, t.n);
    yGm.SetGlobalBuffer((__gm__ float *)y, t.n);
    DataCopy(v, xGm, t.n);
    PipeBarrier<PIPE_ALL>();
    Muls(v, v, t.scale, t.n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, v, t.n);
    // gert::Shape as documented: operator[] is a reference, AppendDim, SetDimNum, SetScalar / IsScalar
    gert::Shape s({3, 256, 256});
    s[1] = 7;
    s.AppendDim(2);
    ops::SliceSpec spec{gert::Shape({-4, 9, 300, 1}), gert::Shape({0, 2, 1, 1})};
    ops::Canonical(spec, s);
    __gm__ int64_t *o = (__gm__ int64_t *)shape_out;
    o[0] = s.GetShapeSize();
    o[1] = static_cast<int64_t>(s.GetDimNum());
    o[2] = spec.begin[0] * 1000000 + spec.begin[1] * 10000 + spec.begin[2] * 10 + spec.strides[0];
    s.SetScalar();
    o[3] = s.IsScalar() ? 1 : 0;
}
"""


def _op_project(tmp_path, name: str, header: str, kernel: str):
    """(build of kernel ``name`` with its host tiling header, the header's path): the op-project layout."""
    hdr = tmp_path / "op_host" / f"{name}_tiling.h"
    hdr.parent.mkdir()
    hdr.write_text(header)
    src = tmp_path / f"{name}.cpp"
    src.write_text(kernel)
    return pyasc_sim.compile(src, opt="-O1", tiling_header=hdr), hdr


def _launch_op(binary, name: str, tiling, *args) -> None:
    """Launch ``name`` on one block with ``args`` + (workspace, the tiling struct's bytes)."""
    pyasc.synchronize("sim")
    fn = pyasc_acl.Binary(binary, device="sim").function(name)
    pyasc_acl.launch(fn, 1, (*args, pyasc.zeros((8,), dtype="int32", device="sim"),
                             pyasc.tensor(np.frombuffer(bytes(tiling), np.uint8).copy(), device="sim")))


def test_tiling_header_compiles_in_its_host_context(tmp_path):
    binary, hdr = _op_project(tmp_path, "shape_ctx", CTX_HEADER, CTX_KERNEL)
    n = 64
    t = pyasc_sim.tiling_struct(hdr, n=n, scale=2.5)
    x = np.linspace(-3, 3, n).astype(np.float32)
    y = pyasc.zeros((n,), dtype="float32", device="sim")
    shape_out = pyasc.zeros((4,), dtype="int64", device="sim")
    _launch_op(binary, "shape_ctx", t, pyasc.tensor(x, device="sim"), y, shape_out)
    np.testing.assert_array_equal(y.numpy(), x * np.float32(2.5))
    # 3 * 7 * 256 * 2 dims product, 4 dims, begin clamped to (0, 7, 256), strides[0] 0 -> 1, then a scalar
    assert shape_out.numpy().tolist() == [3 * 7 * 256 * 2, 4, 0 * 1000000 + 7 * 10000 + 256 * 10 + 1, 1]


# Only the tiling structs' names reach the kernel, as in CANN's kernel build (which sees the generated structs):
# NPUKernelBench's StridedSliceAssignV2 declares `constexpr uint32_t MAX_DIM_NUM` in its kernel while its tiling
# header declares `optiling::MAX_DIM_NUM` for its TILING_DATA_FIELD_DEF_ARR lengths (COMPAT.md, study19c).
SCOPE_HEADER = """#include "register/tilingdata_base.h"
namespace optiling {
constexpr size_t MAX_DIM_NUM = 8;
constexpr int32_t kUnused = 3;
BEGIN_TILING_DATA_DEF(ScopeInner)
    TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(ScopeTilingData)
    TILING_DATA_FIELD_DEF(int64_t, dimNum);
    TILING_DATA_FIELD_DEF_ARR(int64_t, MAX_DIM_NUM, dims);
    TILING_DATA_FIELD_DEF_STRUCT(ScopeInner, inner);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ScopeOp, ScopeTilingData)
}  // namespace optiling
"""

SCOPE_KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
constexpr uint32_t MAX_DIM_NUM = 8;   // the kernel's own, next to optiling::MAX_DIM_NUM
constexpr int32_t kUnused = 5;        // likewise
__aicore__ inline float Scale(const ScopeInner &in) { return in.scale; }   // a nested struct named unqualified
extern "C" __global__ __aicore__ void scope_op(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA(t, tiling);
    int64_t dims[MAX_DIM_NUM];
    int64_t n = 1;
    for (int64_t i = 0; i < t.dimNum; ++i) {
        dims[i] = t.dims[i];
        n *= dims[i];
    }
    __gm__ float *out = (__gm__ float *)y;
    out[0] = static_cast<float>(n) * Scale(t.inner) + kUnused;
}
"""


def test_only_the_tiling_structs_names_reach_the_kernel(tmp_path):
    binary, hdr = _op_project(tmp_path, "scope_op", SCOPE_HEADER, SCOPE_KERNEL)
    t = pyasc_sim.tiling_struct(hdr, dimNum=3, dims=[2, 3, 4, 0, 0, 0, 0, 0])
    t.inner.scale = 0.5
    y = pyasc.zeros((8,), dtype="float32", device="sim")
    _launch_op(binary, "scope_op", t, y)
    assert y.numpy()[0] == 2 * 3 * 4 * 0.5 + 5


def test_tiling_scoped_names_reads_namespaces_and_falls_back(tmp_path):
    from pyasc_sim.build import tiling_scoped_names
    a = tmp_path / "a.h"
    a.write_text(SCOPE_HEADER)
    assert tiling_scoped_names([a]) == ["::optiling::ScopeInner", "::optiling::ScopeTilingData",
                                        "::optiling::__pyasc_tiling_type_ScopeOp"]
    g = tmp_path / "g.h"   # a struct at file scope needs no name brought in
    g.write_text('#include "register/tilingdata_base.h"\nBEGIN_TILING_DATA_DEF(G)\n'
                 "TILING_DATA_FIELD_DEF(int32_t, x);\nEND_TILING_DATA_DEF;\nREGISTER_TILING_DATA_CLASS(GOp, G)\n")
    assert tiling_scoped_names([g]) == []
    own = tmp_path / "own.h"   # a header with its own macro definitions under #ifdef / #else: not read
    own.write_text("#ifdef __CCE_KT_TEST__\n#define BEGIN_TILING_DATA_DEF(name) struct name {\n#else\n"
                   '#include "register/tilingdata_base.h"\n#endif\nnamespace optiling {\nBEGIN_TILING_DATA_DEF(T)\n'
                   "TILING_DATA_FIELD_DEF(int32_t, x);\nEND_TILING_DATA_DEF;\n}\n")
    assert tiling_scoped_names([own]) is None


def test_sdk_struct_members_are_set_whole_by_name(tmp_path):
    """A host tiling struct embedding SDK tiling structs (TILING_DATA_FIELD_DEF_STRUCT(UnPadTiling, ...), as
    DrivingSDK assign_score_withk_grad does, or TCubeTiling) takes them by name from the pyasc_sim.hl_tiling
    record or from exactly their bytes; the fields around them stay where they are; a wrong size or type is a
    clear error and changes nothing."""
    import struct as _struct

    from pyasc_core.errors import ArgumentError, ShapeError
    from pyasc_sim import hl_tiling

    header = tmp_path / "sdk_member_tiling.h"
    header.write_text('#include "register/tilingdata_base.h"\n#include "tiling/tiling_api.h"\n'
                      "namespace optiling {\nBEGIN_TILING_DATA_DEF(SdkMemberTiling)\n"
                      "TILING_DATA_FIELD_DEF(uint32_t, n);\nTILING_DATA_FIELD_DEF_STRUCT(UnPadTiling, unpad);\n"
                      "TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cube);\nTILING_DATA_FIELD_DEF(uint32_t, after);\n"
                      "END_TILING_DATA_DEF;\nREGISTER_TILING_DATA_CLASS(SdkMemberOp, SdkMemberTiling)\n}\n")
    unpad = hl_tiling.unpad_tiling(4, 8, "float32")
    cube = hl_tiling.matmul_tiling(64, 32, 16, core_num=1)
    t = pyasc_sim.tiling_struct(str(header), n=3, unpad=unpad, cube=cube, after=7)
    lay = {f.name: (f.offset, f.size) for f in t.layout.fields}
    assert lay["unpad"] == (4, 32) and lay["cube"][1] == 200
    raw = bytes(t)
    assert _struct.unpack_from("<I", raw, 0)[0] == 3
    assert raw[4:36] == unpad.to_bytes() and t.unpad == unpad.to_bytes()
    at = lay["cube"][0]
    assert raw[at:at + 200] == cube.to_bytes() and t.cube == cube.to_bytes()
    assert _struct.unpack_from("<I", raw, lay["after"][0])[0] == 7
    # from bytes too
    t.unpad = hl_tiling.unpad_tiling(2, 16, "float32").to_bytes()
    assert _struct.unpack_from("<2I", bytes(t), 4) == (2, 16)
    before = bytes(t)
    with pytest.raises(ShapeError, match=r"SdkMemberTiling.unpad \(UnPadTiling\) is 32 bytes, got 4 bytes"):
        t.unpad = b"\0" * 4
    with pytest.raises(ArgumentError, match=r"SDK struct type UnPadTiling: set it whole .* got dict"):
        t.unpad = {"srcHeight": 1}
    assert bytes(t) == before


# A kernel header with the same include guard as the op's host tiling header (RecSDK's invert_permute spells
# `Invert_Permute_H` in both, COMPAT.md round 30 s30a): CANN's kernel build never compiles the host header, so
# the kernel's own header must still be read; the build restores the guard after the host header.
GUARD_HEADER = """#ifndef SHARED_GUARD_H
#define SHARED_GUARD_H
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(GuardTilingData)
    TILING_DATA_FIELD_DEF(int32_t, n);
    TILING_DATA_FIELD_DEF(float, bias);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(GuardOp, GuardTilingData)
}
#endif  // SHARED_GUARD_H
"""

GUARD_KERNEL_HEADER = """#ifndef SHARED_GUARD_H
#define SHARED_GUARD_H
#include "kernel_operator.h"
namespace GuardOp {
__aicore__ inline float Shift(float v, float bias) { return v * 2.0f + bias; }
}
#endif  // SHARED_GUARD_H
"""

GUARD_KERNEL = """#include "guard_op_kernel.h"
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void guard_op(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA(t, tiling);
    __gm__ float *out = (__gm__ float *)y;
    for (int32_t i = 0; i < t.n; ++i) {
        out[i] = GuardOp::Shift(static_cast<float>(i), t.bias);
    }
}
"""


def test_a_kernel_header_sharing_the_host_headers_include_guard_is_read(tmp_path):
    (tmp_path / "guard_op_kernel.h").write_text(GUARD_KERNEL_HEADER)
    binary, hdr = _op_project(tmp_path, "guard_op", GUARD_HEADER, GUARD_KERNEL)
    t = pyasc_sim.tiling_struct(hdr, n=5, bias=0.25)
    y = pyasc.zeros((8,), dtype="float32", device="sim")
    _launch_op(binary, "guard_op", t, y)
    assert y.numpy()[:5].tolist() == [0.25, 2.25, 4.25, 6.25, 8.25]


def test_host_header_guards_reads_the_leading_guard_only(tmp_path):
    from pyasc_sim.build import host_header_guards
    a = tmp_path / "a.h"
    a.write_text("/* licence */\r\n#ifndef A_TILING_H\r\n#define A_TILING_H\r\nint x;\r\n#endif\r\n")
    b = tmp_path / "b.h"   # #pragma once, then a later #ifndef that is no guard
    b.write_text("#pragma once\n#ifndef B_OPTION\n#define B_OPTION 1\n#endif\n")
    c = tmp_path / "c.h"   # a guard name the next line does not define is no guard
    c.write_text("// c\n#ifndef C_H\n#define OTHER_H\n#endif\n")
    assert host_header_guards([a, b, c, a]) == ["A_TILING_H"]
