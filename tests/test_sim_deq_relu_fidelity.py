"""Fidelity of two documented in-line conversions (backends/sim/kernel_api/README.md, changes):

* Cast int32_t -> half (s322f16) multiplies by the DEQSCALE register's half scale, set with
  SetDeqScale(half) ("for AddDeqRelu / Cast s322f16", SetDeqScale page): dst = Cast(src * scale) by
  the round mode; a kernel that reads the register before SetDeqScale(half) is an error.
* DataCopy with DataCopyEnhancedParams applies isRelu on the Atlas inference series AI Core's
  CO1 -> CO2 path only (enhanced DataCopy page: elsewhere the call is a plain copy); isRelu on another
  local -> local path is ignored, as on hardware, with the warning 'enhanced-params-ignored'.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import pyasc

pyasc_sim = pytest.importorskip("pyasc_sim")
pyasc_acl = pytest.importorskip("pyasc_acl")

SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;

// z = Cast<half>(x) of n int32 (n a multiple of 16); how = 0: no SetDeqScale, 1: SetDeqScale(half
// with bits `bits`), 2: SetDeqScale(float, offset, signMode) (CastDeq's form) before the Cast
extern "C" __global__ __aicore__ void cast_s32_f16(GM_ADDR x, GM_ADDR z, uint32_t n, uint32_t mode, uint32_t how,
                                                  uint32_t bits) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qin;
    TQue<TPosition::VECOUT, 1> qout;
    pipe.InitBuffer(qin, 1, n * sizeof(int32_t));
    pipe.InitBuffer(qout, 1, n * sizeof(half));
    GlobalTensor<int32_t> gx;
    GlobalTensor<half> gz;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(x), n);
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(z), n);
    LocalTensor<int32_t> xl = qin.AllocTensor<int32_t>();
    DataCopy(xl, gx, n);
    qin.EnQue(xl);
    xl = qin.DeQue<int32_t>();
    LocalTensor<half> zl = qout.AllocTensor<half>();
    if (how == 1) {
        const uint16_t b = static_cast<uint16_t>(bits);
        half s;
        memcpy(&s, &b, 2);
        SetDeqScale(s);
    } else if (how == 2) {
        SetDeqScale(1.0f, static_cast<int16_t>(0), true);
    }
    Cast(zl, xl, static_cast<RoundMode>(mode), n);
    qout.EnQue(zl);
    qin.FreeTensor(xl);
    zl = qout.DeQue<half>();
    DataCopy(gz, zl, n);
    qout.FreeTensor(zl);
}

// y = x (n floats, a multiple of 8) through a VECIN -> VECOUT DataCopy with isRelu = true
extern "C" __global__ __aicore__ void relu_copy_ub(GM_ADDR x, GM_ADDR y, uint32_t n) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qin;
    TQue<TPosition::VECOUT, 1> qout;
    pipe.InitBuffer(qin, 1, n * sizeof(float));
    pipe.InitBuffer(qout, 1, n * sizeof(float));
    GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), n);
    gy.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), n);
    LocalTensor<float> a = qin.AllocTensor<float>();
    DataCopy(a, gx, n);
    qin.EnQue(a);
    a = qin.DeQue<float>();
    LocalTensor<float> b = qout.AllocTensor<float>();
    DataCopyEnhancedParams ep;
    ep.isRelu = true;
    DataCopy(b, a, DataCopyParams{1, static_cast<uint16_t>(n / 8), 0, 0}, ep);
    qout.EnQue(b);
    qin.FreeTensor(a);
    b = qout.DeQue<float>();
    DataCopy(gy, b, n);
    qout.FreeTensor(b);
}

// c = x @ I (16 x 16, half in, float out) on the cube, CO1 -> CO2 by a matrix-mode DataCopy with
// isRelu = relu; one 16 x 16 fractal is row-major in every buffer
extern "C" __global__ __aicore__ void mmad_relu(GM_ADDR x, GM_ADDR eye, GM_ADDR c, uint32_t relu) {
    TPipe pipe;
    TQue<TPosition::A1, 1> qA1;
    TQue<TPosition::A2, 1> qA2;
    TQue<TPosition::B1, 1> qB1;
    TQue<TPosition::B2, 1> qB2;
    TQue<TPosition::CO1, 1> qC1;
    TQue<TPosition::CO2, 1> qC2;
    pipe.InitBuffer(qA1, 1, 512);
    pipe.InitBuffer(qA2, 1, 512);
    pipe.InitBuffer(qB1, 1, 512);
    pipe.InitBuffer(qB2, 1, 512);
    pipe.InitBuffer(qC1, 1, 1024);
    pipe.InitBuffer(qC2, 1, 1024);
    GlobalTensor<half> gx, ge;
    GlobalTensor<float> gc;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(x), 256);
    ge.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(eye), 256);
    gc.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), 256);
    LocalTensor<half> a1 = qA1.AllocTensor<half>();
    LocalTensor<half> b1 = qB1.AllocTensor<half>();
    DataCopy(a1, gx, 256);
    DataCopy(b1, ge, 256);
    qA1.EnQue(a1);
    qB1.EnQue(b1);
    a1 = qA1.DeQue<half>();
    b1 = qB1.DeQue<half>();
    LocalTensor<half> a2 = qA2.AllocTensor<half>();
    LocalTensor<half> b2 = qB2.AllocTensor<half>();
    LoadData2DParams pa;
    pa.repeatTimes = 1;
    pa.srcStride = 1;
    pa.ifTranspose = false;
    LoadData(a2, a1, pa);
    LoadData2DParams pb;
    pb.repeatTimes = 1;
    pb.srcStride = 1;
    pb.ifTranspose = true;
    LoadData(b2, b1, pb);
    qA2.EnQue(a2);
    qB2.EnQue(b2);
    qA1.FreeTensor(a1);
    qB1.FreeTensor(b1);
    a2 = qA2.DeQue<half>();
    b2 = qB2.DeQue<half>();
    LocalTensor<float> c1 = qC1.AllocTensor<float>();
    Mmad(c1, a2, b2, {16, 16, 16, false, 0, false, false, false});
    qC1.EnQue(c1);
    qA2.FreeTensor(a2);
    qB2.FreeTensor(b2);
    c1 = qC1.DeQue<float>();
    LocalTensor<float> c2 = qC2.AllocTensor<float>();
    DataCopyEnhancedParams ep;
    ep.blockMode = BlockMode::BLOCK_MODE_MATRIX;
    ep.isRelu = relu != 0;
    DataCopy(c2, c1, DataCopyParams{1, 1, 0, 0}, ep);
    qC2.EnQue(c2);
    qC1.FreeTensor(c1);
    c2 = qC2.DeQue<float>();
    DataCopy(gc, c2, 256);
    qC2.FreeTensor(c2);
}
"""

_BIN: dict[str, object] = {}


def _fn(soc: str, name: str):
    if soc not in _BIN:
        _BIN[soc] = pyasc_acl.Binary(pyasc_sim.compile(SRC, soc=soc, opt="-O1"), device="sim")
    return _BIN[soc].function(name)


def _dev(a: np.ndarray):
    t = pyasc.tensor(a, device="sim")
    pyasc.synchronize("sim")
    return t


def _run(fn, blocks, args) -> list[str]:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        pyasc_acl.launch(fn, blocks, args)
        pyasc.synchronize("sim")
    return [str(w.message) for w in seen if issubclass(w.category, pyasc.SanitizerWarning)]


def _half_bits(v: float) -> int:
    return int(np.array(v, dtype=np.float16).view(np.uint16))


# RoundMode values: CAST_NONE 0, CAST_RINT 1, CAST_FLOOR 2, CAST_CEIL 3, CAST_ROUND 4, CAST_TRUNC 5
@pytest.mark.parametrize("soc", ["Ascend910B1", "Ascend310P3"])
@pytest.mark.parametrize("scale", [1.0, 0.5, 0.0078125, -3.0])
def test_s32_to_f16_multiplies_by_the_deq_scale(soc, scale):
    n = 256
    x = np.random.default_rng(5).integers(-40000, 40000, n).astype(np.int32)
    x[:6] = [0, 1, -1, 3, 2047, 2049]
    xd = _dev(x)
    for mode, rnd in ((0, np.rint), (1, np.rint), (2, np.floor), (3, np.ceil), (5, np.trunc)):
        z = pyasc.zeros(n, dtype="float16", device="sim")
        pyasc.synchronize("sim")
        assert not _run(_fn(soc, "cast_s32_f16"), 1, (xd, z, n, mode, 1, _half_bits(scale)))
        exact = x.astype(np.float64) * scale  # exact: 31 x 11 bits
        got = z.numpy().astype(np.float64)
        with np.errstate(over="ignore"):  # products beyond half's range are left out below
            want = _rounded(exact, mode, rnd)
        fin = np.isfinite(want) & (np.abs(exact) <= 65504)
        np.testing.assert_array_equal(got[fin], want[fin], err_msg=f"mode {mode} scale {scale}")


def _rounded(exact: np.ndarray, mode: int, rnd) -> np.ndarray:
    """exact rounded to half by the mode (NumPy's float64 -> float16 is one correct rounding)."""
    near = exact.astype(np.float16)
    if mode in (0, 1):  # to nearest even
        return near.astype(np.float64)
    up = np.nextafter(near, np.float16(np.inf)).astype(np.float64)  # directed: the neighbour on the mode's side
    down = np.nextafter(near, np.float16(-np.inf)).astype(np.float64)
    nd = near.astype(np.float64)
    if rnd is np.floor:
        return np.where(nd > exact, down, nd)
    if rnd is np.ceil:
        return np.where(nd < exact, up, nd)
    return np.where(np.abs(nd) > np.abs(exact), np.where(exact > 0, down, up), nd)  # trunc


@pytest.mark.parametrize("how, words", [(0, "no SetDeqScale set it"), (2, "another SetDeqScale overload")])
def test_s32_to_f16_without_the_half_scale_is_an_error(how, words):
    x = _dev(np.arange(16, dtype=np.int32))
    z = pyasc.zeros(16, dtype="float16", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(_fn("Ascend910B1", "cast_s32_f16"), 1, (x, z, 16, 0, how, 0))
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        pyasc.synchronize("sim")
    msg = info.value.message
    assert "sanitizer check 'deq-scale' failed" in msg and words in msg, msg
    assert "call SetDeqScale(half scale) first" in msg, msg
    pyasc.synchronize("sim")


@pytest.mark.parametrize("soc", ["Ascend910B1", "Ascend310P3"])
def test_is_relu_on_a_ub_copy_is_ignored_with_a_warning(monkeypatch, soc):
    monkeypatch.delenv("PYASC_SIM_STRICT", raising=False)
    x = np.linspace(-4, 4, 64, dtype=np.float32)
    y = pyasc.zeros(64, dtype="float32", device="sim")
    seen = _run(_fn(soc, "relu_copy_ub"), 1, (_dev(x), y, 64))
    np.testing.assert_array_equal(y.numpy(), x)  # a plain copy: no ReLU off the CO1 -> CO2 path
    hits = [w for w in seen if "enhanced-params-ignored" in w]
    assert hits and "from VECIN to VECOUT" in hits[0] and "no ReLU is applied" in hits[0], seen


@pytest.mark.parametrize("soc, relu_applies", [("Ascend310P3", True), ("Ascend910B1", False)])
def test_is_relu_on_co1_to_co2(monkeypatch, soc, relu_applies):
    monkeypatch.delenv("PYASC_SIM_STRICT", raising=False)
    x = np.random.default_rng(7).standard_normal((16, 16)).astype(np.float16)
    eye = np.eye(16, dtype=np.float16)
    for relu in (0, 1):
        c = pyasc.zeros(256, dtype="float32", device="sim")
        seen = _run(_fn(soc, "mmad_relu"), 1, (_dev(x), _dev(eye), c, relu))
        want = x.astype(np.float32)
        if relu and relu_applies:
            want = np.maximum(want, 0)
        np.testing.assert_array_equal(c.numpy().reshape(16, 16), want, err_msg=f"{soc} relu={relu}")
        assert bool([w for w in seen if "enhanced-params-ignored" in w]) == bool(relu and not relu_applies), seen
