"""Op-project kernels that select code in the preprocessor (issue 8 point 1): CANN's op build compiles
one binary per tiling key and dtype with ``-DTILING_KEY_VAR=<key>`` and ``-DORIG_DTYPE_X=DT_FLOAT16``,
and the DT_* names are numbers, so ``#if TILING_KEY_VAR == k`` (64-bit keys too) and
``#if ORIG_DTYPE_X == DT_BF16`` pick the instance; TILING_KEY_IS, ``if (TILING_KEY_VAR == k)`` and
DTYPE_X as a type keep working.  Our own kernel in the public style, three builds (key x dtype)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

OP = ASCENDC_DIR / "compat" / "op_project_preproc"
SRC = OP / "op_kernel" / "key_dtype_select.cpp"
HDR = OP / "op_host" / "key_dtype_select_tiling.h"
K_BIG, K_MAX, K_SMALL = 1000000000000101012, 2 ** 64 - 1, 3
BF16 = np.dtype(ml_dtypes.bfloat16)
# (tiling key, dtype, DT_* number the preprocessor sees, the preprocessor key branch)
CASES = [(K_BIG, np.float16, 1, 1), (K_MAX, BF16, 27, 2), (K_SMALL, np.float32, 0, 3)]


def reference(key: int, x: np.ndarray, scale: float, bias: float) -> np.ndarray:
    f = x.astype(np.float32)
    if key == K_MAX:
        f = np.maximum(f, np.float32(0))
    f = f * np.float32(scale)
    if key == K_BIG:
        f = f + np.float32(bias)
    elif key == K_SMALL:
        f = f - np.float32(bias)
    return f.astype(x.dtype)


@pytest.mark.parametrize("key, dtype, dt_number, branch", CASES)
def test_preprocessor_selects_the_key_and_dtype_instance(key, dtype, dt_number, branch):
    name = np.dtype(dtype).name
    binary = pyasc_sim.compile(SRC, opt="-O1", tiling_header=HDR, tiling_key=key, dtypes={"x": name, "y": name})
    n, blocks, tile = 1024, 2, 256
    x = np.random.default_rng(key % 1000).uniform(-4, 4, n).astype(dtype)
    y = pyasc.zeros((n,), dtype=name, device="sim")
    info = pyasc.zeros((4,), dtype="int32", device="sim")
    t = pyasc_sim.tiling_struct(HDR, blockLength=n // blocks, tileLength=tile, scale=1.5, bias=0.75)
    pyasc.synchronize("sim")
    fn = pyasc_acl.Binary(binary, device="sim").function("key_dtype_select")
    pyasc_acl.launch(fn, blocks, (pyasc.tensor(x, device="sim"), y, info, pyasc.zeros((8,), dtype="int32", device="sim"),
                                  pyasc.tensor(np.frombuffer(bytes(t), np.uint8).copy(), device="sim")))
    # [ORIG_DTYPE_X, preprocessor branches, TILING_KEY_IS(key), C++ `TILING_KEY_VAR == k` branch]
    assert info.numpy().tolist() == [dt_number, branch * 100 + dt_number, 1, 3 if key == K_SMALL else 1]
    np.testing.assert_array_equal(y.numpy().astype(np.float32), reference(key, x, 1.5, 0.75).astype(np.float32))


def test_build_flags_are_the_op_builds_and_without_a_key_the_var_is_the_run_time_key():
    flags, _ = pyasc_sim.build.op_project_flags(None, None, {"query": "bfloat16"}, K_MAX)
    assert {"-DDTYPE_QUERY=bfloat16_t", "-DORIG_DTYPE_QUERY=DT_BF16", "-DFORMAT_QUERY=FORMAT_ND",
            f"-DTILING_KEY_VAR={K_MAX}ull"} <= set(flags)
    assert pyasc_sim.build.tiling_key_flags(K_BIG)[1] == f"-DTILING_KEY_VAR={K_BIG}"  # as the op build spells it
    flags, _ = pyasc_sim.build.op_project_flags(None, None, None, None)
    assert not any("TILING_KEY_VAR" in f or "DT_" in f for f in flags)  # CPU-debug: ICPU_SET_TILING_KEY decides


def test_host_tiling_api_after_the_dt_numbers_still_compiles(tmp_path):
    # graph/types.h (ge::DT_FLOAT16 ...) and the tiling helpers' bodies, included after kernel_operator.h has
    # defined DT_FLOAT16 as a number for the preprocessor: they save and restore the macros around their names
    src = tmp_path / "k.cpp"
    src.write_text('#include "kernel_operator.h"\n#include "tiling/tiling_api.h"\n'
                   "#if (ORIG_DTYPE_X != DT_FLOAT16) || (DT_BF16 != 27) || (FORMAT_X != FORMAT_ND)\n"
                   '#error "the op build\'s dtype numbers"\n#endif\n'
                   "static_assert(ge::DataType(DT_BF16) == ge::DataType(27));\n"
                   'extern "C" __global__ __aicore__ void k(GM_ADDR x) { (void)x; }\n')
    assert pyasc_sim.compile(src, opt="-O0", dtypes={"x": "float16"})


def test_an_if_on_the_key_without_a_key_says_to_pass_one(tmp_path):
    src = tmp_path / "k.cpp"
    src.write_text('#include "kernel_operator.h"\n#if defined(TILING_KEY_VAR)\n#endif\n'
                   "#if TILING_KEY_VAR == 5\nconstexpr int kK = 5;\n#endif\n"
                   'extern "C" __global__ __aicore__ void k(GM_ADDR x) { (void)x; }\n')
    with pytest.raises(pyasc_sim.KernelBuildError, match=r"k\.cpp:4 tests TILING_KEY_VAR .* pass tiling_key="):
        pyasc_sim.compile(src, opt="-O0")
    assert pyasc_sim.compile(src, opt="-O0", tiling_key=5)
