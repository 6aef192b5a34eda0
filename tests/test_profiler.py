"""pyasc.profiler on the simulator: per-core, per-pipe timelines of launches.

The trace is checked against a JSON schema of the Chrome trace event format (written here from the
format's documentation: JSON Object Format, "X" complete, "i" instant and "M" metadata events), the
summary's simulated time against Event.elapsed_time, and the picture itself: a double-buffered
vector add overlaps its MTE2 (copy in) and V (vector) spans on a core, a single-buffered one never does.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import pyasc
from pyasc_core.errors import ArgumentError, EnvironmentSettingError

jsonschema = pytest.importorskip("jsonschema")
pyasc_acl = pytest.importorskip("pyasc_acl")
pyasc_sim = pytest.importorskip("pyasc_sim")

VADD = r"""
#include "kernel_operator.h"
using namespace AscendC;
constexpr uint32_t TILE = 2048;
extern "C" __global__ __aicore__ void vadd_buf(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n)
{
    const uint32_t per = n / GetBlockNum(), base = per * GetBlockIdx();
    TPipe pipe;
    TQue<TPosition::VECIN, BUFS> qx, qy;
    TQue<TPosition::VECOUT, BUFS> qz;
    pipe.InitBuffer(qx, BUFS, TILE * sizeof(float));
    pipe.InitBuffer(qy, BUFS, TILE * sizeof(float));
    pipe.InitBuffer(qz, BUFS, TILE * sizeof(float));
    GlobalTensor<float> gx, gy, gz;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x) + base, per);
    gy.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y) + base, per);
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z) + base, per);
    for (uint32_t i = 0; i < per; i += TILE) {
        LocalTensor<float> a = qx.AllocTensor<float>(), b = qy.AllocTensor<float>();
        DataCopy(a, gx[i], TILE);
        DataCopy(b, gy[i], TILE);
        qx.EnQue(a);
        qy.EnQue(b);
        LocalTensor<float> u = qx.DeQue<float>(), v = qy.DeQue<float>(), w = qz.AllocTensor<float>();
        Add(w, u, v, TILE);
        qz.EnQue(w);
        qx.FreeTensor(u);
        qy.FreeTensor(v);
        LocalTensor<float> o = qz.DeQue<float>();
        DataCopy(gz[i], o, TILE);
        qz.FreeTensor(o);
    }
}
"""
BLOCKS, N = 4, 4 * 2048 * 8

# The Chrome trace event format, JSON Object Format, as far as pyasc writes it.
TRACE_SCHEMA = {
    "type": "object",
    "required": ["traceEvents"],
    "properties": {
        "traceEvents": {"type": "array", "items": {"$ref": "#/$defs/event"}},
        "displayTimeUnit": {"enum": ["ms", "ns"]},
        "otherData": {"type": "object"},
    },
    "$defs": {
        "event": {
            "type": "object",
            "required": ["ph", "name", "pid"],
            "properties": {
                "name": {"type": "string"},
                "cat": {"type": "string"},
                "ph": {"enum": ["X", "B", "E", "i", "I", "M", "C"]},
                "ts": {"type": "number"},
                "dur": {"type": "number", "minimum": 0},
                "pid": {"type": "integer"},
                "tid": {"type": "integer"},
                "s": {"enum": ["g", "p", "t"]},
                "args": {"type": "object"},
            },
            "allOf": [
                {"if": {"properties": {"ph": {"const": "X"}}},
                 "then": {"required": ["ts", "dur", "tid"]}},
                {"if": {"properties": {"ph": {"const": "i"}}}, "then": {"required": ["ts"]}},
                {"if": {"properties": {"ph": {"const": "M"}}},
                 "then": {"properties": {"name": {"enum": ["process_name", "thread_name", "process_sort_index",
                                                           "thread_sort_index", "process_labels"]}},
                          "required": ["args"]}},
            ],
        }
    },
}


@pytest.fixture(scope="module")
def kernels():
    return {b: pyasc_acl.Binary(pyasc_sim.compile(VADD, extra_flags=[f"-DBUFS={b}"]), device="sim").function("vadd_buf")
            for b in (1, 2)}


@pytest.fixture(scope="module")
def buffers():
    x = pyasc.tensor(np.arange(N, dtype=np.float32), device="sim")
    y = pyasc.tensor(np.ones(N, dtype=np.float32), device="sim")
    z = pyasc.zeros(N, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    return x, y, z


def _profiled(fn, buffers):
    x, y, z = buffers
    stream = pyasc.current_stream("sim")
    with pyasc.profiler.profile() as p:
        start = pyasc.Event(enable_timing=True, device="sim")
        end = pyasc.Event(enable_timing=True, device="sim")
        start.record(stream)
        pyasc_acl.launch(fn, BLOCKS, (x, y, z, N), stream=stream)
        end.record(stream)
        elapsed = start.elapsed_time(end)
    np.testing.assert_array_equal(z.numpy(), np.arange(N, dtype=np.float32) + 1)
    return p, elapsed


@pytest.mark.parametrize("bufs", [1, 2])
def test_trace_matches_the_trace_event_format_and_names_the_source(kernels, buffers, tmp_path, bufs):
    p, _ = _profiled(kernels[bufs], buffers)
    path = p.export_chrome_trace(tmp_path / "trace.json")
    trace = json.loads(path.read_text())
    jsonschema.validate(trace, TRACE_SCHEMA)
    spans = [e for e in trace["traceEvents"] if e["ph"] == "X" and e.get("cat") in ("MTE2", "V", "MTE3")]
    assert spans, "no pipe spans in the trace"
    # one process per device, one thread per block and pipe, the instruction's source line in args
    names = {e["args"]["name"] for e in trace["traceEvents"] if e["ph"] == "M" and e["name"] == "thread_name"}
    assert {f"block {b} AIV {pipe}" for b in range(BLOCKS) for pipe in ("MTE2", "V", "MTE3")} <= names
    assert all(":" in e["args"]["source"] and e["args"]["source"].split(":")[-1].isdigit() for e in spans)
    assert any("Add(w, u, v, TILE)" in e["name"] for e in spans if e["cat"] == "V")
    launches = [e for e in trace["traceEvents"] if e.get("cat") == "launch"]
    assert [e["name"] for e in launches] == ["vadd_buf"]


@pytest.mark.parametrize("bufs", [1, 2])
def test_summary_time_equals_event_elapsed_time(kernels, buffers, bufs):
    p, elapsed = _profiled(kernels[bufs], buffers)
    (row,) = p.key_averages()
    assert row.kernel == "vadd_buf" and row.calls == 1
    # equal up to aclrtEventElapsedTime's float (single precision) result
    assert row.sim_ms == pytest.approx(elapsed, rel=1e-6)
    assert p.launches[0].elapsed_ms == pytest.approx(elapsed, rel=1e-6)
    # the blocks' timelines are the cost: every block's makespan is what it reported
    ln = p.launches[0]
    for b in range(BLOCKS):
        ends = ln.spans["end"][ln.spans["block"] == b]
        assert ln.startup_cycles + ends.max() == pytest.approx(ln.block_cycles[b], abs=1.0)
    assert row.bytes_moved == 3 * N * 4  # x and y in, z out
    assert 0 < row.busy["MTE2"] <= 1 and 0 < row.busy["V"] <= 1
    assert row.diagnosis and "MTE2" in row.diagnosis
    assert "vadd_buf" in str(p.key_averages())


def test_double_buffering_overlaps_copy_in_and_vector_single_buffering_does_not(kernels, buffers):
    single, t1 = _profiled(kernels[1], buffers)
    double, t2 = _profiled(kernels[2], buffers)
    assert single.overlap_cycles("MTE2", "V") == 0.0
    assert double.overlap_cycles("MTE2", "V") > 0.0
    assert t2 < t1  # the overlap is what double buffering buys
    assert "double-buffer" in single.key_averages()[0].diagnosis


def test_span_cap_bounds_the_spans_and_the_trace_says_so(kernels, buffers, tmp_path):
    x, y, z = buffers
    with pyasc.profiler.profile(span_cap=5) as p:
        pyasc_acl.launch(kernels[1], BLOCKS, (x, y, z, N))
    assert len(p.launches[0].spans) <= 5 and p.dropped_spans > 0
    trace = p.chrome_trace()
    jsonschema.validate(trace, TRACE_SCHEMA)
    assert "span cap" in trace["otherData"]["note"]
    assert any(e["ph"] == "i" and "span cap reached" in e["name"] for e in trace["traceEvents"])


def test_host_side_spans_for_copies(buffers):
    with pyasc.profiler.profile() as p:
        t = pyasc.tensor(np.ones(1 << 16, dtype=np.float32), device="sim")
        t.numpy()
    names = {t["name"] for t in p.tasks}
    assert any(n.startswith("memcpy") for n in names), names
    assert all(t["end_ns"] >= t["start_ns"] for t in p.tasks)


def test_bad_inputs_raise_pyasc_errors(kernels, buffers):
    with pytest.raises(ArgumentError, match="span_cap"):
        pyasc.profiler.profile(span_cap=-1)
    with pyasc.profiler.profile() as p:
        with pytest.raises(pyasc.profiler.ProfilerError, match="still open"):
            p.key_averages()
        with pytest.raises(pyasc.profiler.ProfilerError, match="do not nest"):
            with pyasc.profiler.profile():
                pass
    with pytest.raises(ArgumentError, match="pipes are"):
        p.overlap_cycles("MTE9", "V")
    with pytest.raises(ArgumentError, match="no launch of kernel"):
        p.overlap_cycles("MTE2", "V", kernel="nope")


def test_env_profile_path_must_name_a_file(tmp_path, monkeypatch):
    from pyasc_core.profiler import profile_from_env

    monkeypatch.setenv("PYASC_SIM_PROFILE", str(tmp_path))
    with pytest.raises(EnvironmentSettingError, match="PYASC_SIM_PROFILE"):
        profile_from_env()


def test_cli_profile_writes_trace_and_summary(tmp_path):
    script = tmp_path / "run.py"
    script.write_text("import numpy as np, pyasc\n"
                      "a = pyasc.tensor(np.ones(4096, np.float32), device='sim')\n"
                      "(a + a).numpy()\n")
    trace, summary = tmp_path / "t.json", tmp_path / "s.txt"
    r = subprocess.run([sys.executable, "-m", "pyasc_core.cli", "profile", "--trace", str(trace), "--summary",
                        str(summary), str(script)], capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert r.returncode == 0, r.stderr
    jsonschema.validate(json.loads(trace.read_text()), TRACE_SCHEMA)
    assert "pyasc profile" in summary.read_text()


FLAGS = r"""
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void flag_add(GM_ADDR x, GM_ADDR z)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * 4096 * sizeof(float));
    LocalTensor<float> a = buf.Get<float>();
    LocalTensor<float> b = a[4096];
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), 4096);
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z), 4096);
    DataCopy(a, gx, 4096);
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    Add(b, a, a, 4096);
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(gz, b, 4096);
}
"""


def test_flags_order_the_pipes_on_the_timeline():
    fn = pyasc_acl.Binary(pyasc_sim.compile(FLAGS), device="sim").function("flag_add")
    x = pyasc.tensor(np.arange(4096, dtype=np.float32), device="sim")
    z = pyasc.zeros(4096, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    with pyasc.profiler.profile() as p:
        pyasc_acl.launch(fn, 1, (x, z))
    np.testing.assert_array_equal(z.numpy(), 2 * np.arange(4096, dtype=np.float32))
    ln = p.launches[0]
    s = ln.spans[ln.spans["kind"] == 0]
    mte2, v, mte3 = (s[s["pipe"] == pyasc.profiler.PIPES.index(k)] for k in ("MTE2", "V", "MTE3"))
    assert len(mte2) == len(v) == len(mte3) == 1
    # the WaitFlag side starts when the SetFlag side finished, plus the flag's sync cost
    assert v["start"][0] >= mte2["end"][0] and mte3["start"][0] >= v["end"][0]
    assert ln.block_cycles[0] == pytest.approx(ln.startup_cycles + mte3["end"][0], abs=1.0)
    waits = ln.spans[ln.spans["kind"] == 1]
    assert {pyasc.profiler.PIPES[w] for w in waits["pipe"]} == {"V", "MTE3"}


def test_env_profile_writes_the_trace_at_exit(tmp_path):
    script = tmp_path / "run.py"
    script.write_text("import numpy as np, pyasc\n"
                      "a = pyasc.tensor(np.ones(4096, np.float32), device='sim')\n"
                      "(a + a).numpy()\n")
    trace = tmp_path / "env.json"
    env = dict(os.environ, PYASC_SIM_PROFILE=str(trace))
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stderr
    data = json.loads(trace.read_text())
    jsonschema.validate(data, TRACE_SCHEMA)
    assert any(e.get("cat") == "launch" for e in data["traceEvents"])


def test_the_vadd_tutorial_overlaps_copy_in_and_vector_only_when_double_buffered():
    # the README's example: examples/profile_vadd.py profiles examples/01_vadd.py (a @pyasc.jit kernel)
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "examples" / "profile_vadd.py"
    spec = importlib.util.spec_from_file_location("pyasc_example_profile_vadd", path)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    profiles = example.profile_each(example.load_tutorial())
    single, double = profiles[1], profiles[2]
    assert single.overlap_cycles("MTE2", "V") == 0.0
    assert double.overlap_cycles("MTE2", "V") > 0.0
    t1, t2 = single.key_averages()[0], double.key_averages()[0]
    assert t2.sim_ms < t1.sim_ms
    assert "double-buffer" in t1.diagnosis and "double-buffer" not in t2.diagnosis
