"""Sanitizer warning 'gm-cache-line-share': a scalar store (GlobalTensor::SetValue, through the
core's own data cache) of one core into a 64-byte global memory line that another core of the launch
also writes, on every SoC (Atlas A2 and the Atlas inference series: each AIC / AIV core has its own
data cache). The cache writes the line back whole, so on hardware one core's bytes can be lost; the
reference asks cores to stay a cache line apart. Unless ordered: the store written back
(DataCacheCleanAndInvalid) before a SyncAll the other core's write follows, or the other core's write
before a SyncAll the store follows. A warning (hardware runs it), an error with PYASC_SIM_STRICT=1."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

import pyasc

pyasc_sim = pytest.importorskip("pyasc_sim")
pyasc_acl = pytest.importorskip("pyasc_acl")

SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;

// every block stores one float at out[block * stride] through the data cache
extern "C" __global__ __aicore__ void store_own(GM_ADDR out, uint32_t stride) {
    GlobalTensor<float> o;
    o.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(out));
    o.SetValue(GetBlockIdx() * stride, static_cast<float>(GetBlockIdx() + 1));
    DataCacheCleanAndInvalid<float, CacheLine::ENTIRE_DATA_CACHE>(o);
}

// a mixed kernel (Atlas A2): each core of a block (AIC, AIV 0, AIV 1: each its own data cache) stores
// one float at out[(block * 3 + core) * stride]
extern "C" __global__ __aicore__ void mix_store(GM_ADDR out, uint32_t stride) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GlobalTensor<float> o;
    o.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(out));
    uint32_t core = 0;
    if ASCEND_IS_AIV {
        core = 1 + GetSubBlockIdx();
    }
    const uint32_t group = ASCEND_IS_AIV ? GetBlockIdx() / 2 : GetBlockIdx();
    o.SetValue((group * 3 + core) * stride, static_cast<float>(core + 1));
}

// block 0 moves 8 floats to out[from, from + 8) with DataCopy; block 1 stores out[at] through the data cache
extern "C" __global__ __aicore__ void dma_then_store(GM_ADDR out, uint32_t from, uint32_t at) {
    GlobalTensor<float> o;
    o.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(out));
    if (GetBlockIdx() == 0) {
        TPipe pipe;
        TBuf<QuePosition::VECCALC> buf;
        pipe.InitBuffer(buf, 32);
        LocalTensor<float> t = buf.Get<float>();
        Duplicate(t, 1.0f, 8);
        SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
        DataCopy(o[from], t, 8);
    } else {
        o.SetValue(at, 2.0f);
        DataCacheCleanAndInvalid<float, CacheLine::ENTIRE_DATA_CACHE>(o);
    }
}

// block 0 stores out[at] through the data cache (then, by `flush`: 0 nothing, 1 DataCacheCleanAndInvalid
// before the SyncAll, 2 after it), every block meets in a soft SyncAll, then block 1 moves 8 floats
// to out[at + 8, at + 16) by DMA: the same 64-byte line when out[at] starts one
extern "C" __global__ __aicore__ void store_sync_dma(GM_ADDR out, GM_ADDR ws, uint32_t at, uint32_t flush) {
    TPipe pipe;
    TBuf<QuePosition::VECCALC> wbuf, dbuf;
    pipe.InitBuffer(wbuf, 256);
    pipe.InitBuffer(dbuf, 32);
    GlobalTensor<float> o;
    o.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(out));
    GlobalTensor<int32_t> w;
    w.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(ws), 64);
    if (GetBlockIdx() == 0) {
        o.SetValue(at, 1.0f);
        if (flush == 1) DataCacheCleanAndInvalid<float, CacheLine::ENTIRE_DATA_CACHE>(o);
    }
    SyncAll(w, wbuf.Get<int32_t>());
    if (GetBlockIdx() == 0 && flush == 2) DataCacheCleanAndInvalid<float, CacheLine::ENTIRE_DATA_CACHE>(o);
    if (GetBlockIdx() == 1) {
        LocalTensor<float> t = dbuf.Get<float>();
        Duplicate(t, 2.0f, 8);
        SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
        DataCopy(o[at + 8], t, 8);
    }
}
"""


def _binary(soc: str):
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, soc=soc, opt="-O1"), device="sim")


def _launch(soc: str, name: str, blocks: int, arg: int, out_len: int = 64) -> tuple[np.ndarray, list[str], int]:
    """(the output, the sanitizer warnings, the output's device address)"""
    out = pyasc.zeros(out_len, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        pyasc_acl.launch(_binary(soc).function(name), blocks, (out, arg))
        pyasc.synchronize("sim")
    return (out.numpy(), [str(w.message) for w in seen if issubclass(w.category, pyasc.SanitizerWarning)],
            out._data._ptr)


@pytest.mark.parametrize("soc", ["Ascend310P3", "Ascend910B1"])
def test_two_blocks_storing_into_one_line_warn(monkeypatch, soc):
    monkeypatch.delenv("PYASC_SIM_STRICT", raising=False)
    out, seen, ptr = _launch(soc, "store_own", 2, 1)  # out[0] and out[1]: 4 bytes apart
    np.testing.assert_array_equal(out[:2], [1.0, 2.0])  # the simulator keeps both; hardware may not
    hits = [w for w in seen if "gm-cache-line-share" in w]
    assert len(hits) == 1, seen
    text = hits[0]
    line = ptr // 64 * 64  # the output's first line holds out[0] and out[1]
    for piece in ("sanitizer warning 'gm-cache-line-share'", "block 1 stored through its data cache",
                  f"64-byte global memory line [{line:#x}, {line + 64:#x})", "which block 0", "SetValue",
                  "start every block's share on a line"):
        assert piece in text, (piece, text)


def test_the_cores_of_one_mixed_block_have_their_own_caches(monkeypatch):
    # Atlas A2's AIC and its two AIV each store through their own data cache: one line between them is
    # shared as much as between blocks; a line apart each is clean
    monkeypatch.delenv("PYASC_SIM_STRICT", raising=False)
    out, seen, _ = _launch("Ascend910B1", "mix_store", 1, 1)
    np.testing.assert_array_equal(out[:3], [1.0, 2.0, 3.0])
    hits = [w for w in seen if "gm-cache-line-share" in w]
    assert len(hits) == 1, seen
    m = re.search(r"(block 0's (?:AIC|AIV [01])) stored through its data cache .* which (block 0's (?:AIC|AIV [01]))",
                  hits[0])
    assert m and m.group(1) != m.group(2), hits[0]
    out, seen, _ = _launch("Ascend910B1", "mix_store", 2, 16, out_len=96)
    np.testing.assert_array_equal(out[::16], [1.0, 2.0, 3.0] * 2)
    assert not any("gm-cache-line-share" in w for w in seen), seen


def test_a_scalar_store_into_a_line_another_block_moved_data_to_warns(monkeypatch):
    monkeypatch.delenv("PYASC_SIM_STRICT", raising=False)
    fn = _binary("Ascend310P3").function("dma_then_store")
    for same_line in (True, False):
        out = pyasc.zeros(64, dtype="float32", device="sim")
        pyasc.synchronize("sim")
        # out[8, 16) by DMA (32 bytes of one 64-byte line); a store into the other half of that line,
        # or far away (the output's first byte is 32-byte aligned)
        ptr = out._data._ptr
        line = (ptr + 32) // 64
        at = next(i for i in (*range(8), *range(16, 24)) if (ptr + 4 * i) // 64 == line) if same_line else 40
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            pyasc_acl.launch(fn, 2, (out, 8, at))
            pyasc.synchronize("sim")
        hits = [str(w.message) for w in seen if "gm-cache-line-share" in str(w.message)]
        lines = {(out._data._ptr + 4 * i) // 64 for i in range(8, 16)}
        assert bool(hits) == ((out._data._ptr + 4 * at) // 64 in lines), (at, hits)
        assert out.numpy()[at] == 2.0


def test_blocks_a_line_apart_are_clean(monkeypatch):
    monkeypatch.delenv("PYASC_SIM_STRICT", raising=False)
    for soc in ("Ascend310P3", "Ascend910B1"):
        _, seen, _ = _launch(soc, "store_own", 4, 16)  # 64 bytes apart: one line each
        assert not any("gm-cache-line-share" in w for w in seen), (soc, seen)




def _store_sync_dma(soc: str, flush: int) -> tuple[np.ndarray, list[str], int]:
    fn = _binary(soc).function("store_sync_dma")
    out = pyasc.zeros(64, dtype="float32", device="sim")
    ws = pyasc.zeros(64, dtype="int32", device="sim")  # >= 2 cores x 32 bytes, zeroed
    pyasc.synchronize("sim")
    at = (-out._data._ptr % 64) // 4  # out[at] starts a 64-byte line
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        pyasc_acl.launch(fn, 2, (out, ws, at, flush))
        pyasc.synchronize("sim")
    return out.numpy(), [str(w.message) for w in seen if issubclass(w.category, pyasc.SanitizerWarning)], at


@pytest.mark.parametrize("soc", ["Ascend310P3", "Ascend910B1"])
def test_syncall_orders_a_store_only_after_a_write_back(monkeypatch, soc):
    # SyncAll does not clean the data cache (its reference page says nothing of it; SetValue's says the
    # dirty line is written back later, whole, unless DataCacheCleanAndInvalid writes it back now): a
    # store, SyncAll, another block's DMA into the line can lose the DMA's bytes; with the store
    # written back before the SyncAll it cannot
    monkeypatch.delenv("PYASC_SIM_STRICT", raising=False)
    for flush, reported in ((0, True), (1, False), (2, True)):
        out, seen, at = _store_sync_dma(soc, flush)
        np.testing.assert_array_equal(out[at:at + 16], [1.0] + [0.0] * 7 + [2.0] * 8)
        hits = [w for w in seen if "gm-cache-line-share" in w]
        assert bool(hits) == reported, (flush, seen)
        if reported:
            assert "block 0 stored through its data cache" in hits[0] and "which block 1" in hits[0], hits[0]
            assert "SyncAll alone does not" in hits[0] and "DataCacheCleanAndInvalid before a SyncAll" in hits[0]


@pytest.mark.parametrize("soc", ["Ascend310P3", "Ascend910B1"])
def test_strict_makes_it_an_error(monkeypatch, soc):
    monkeypatch.setenv("PYASC_SIM_STRICT", "1")
    out = pyasc.zeros(64, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    line = out._data._ptr // 64 * 64
    pyasc_acl.launch(_binary(soc).function("store_own"), 2, (out, 1))
    with pytest.raises(pyasc_acl.AclKernelError, match="sanitizer check 'gm-cache-line-share' failed") as err:
        pyasc.synchronize("sim")
    text = str(err.value)
    for piece in ("block 1 stored through its data cache", f"line [{line:#x}, {line + 64:#x})", "which block 0"):
        assert piece in text, (piece, text)
    monkeypatch.delenv("PYASC_SIM_STRICT")
    pyasc.synchronize("sim")  # the device is usable after
