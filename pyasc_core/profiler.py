"""The simulator's profiler: per-core, per-pipe timelines of every launch, as a Chrome trace and a table.

``with pyasc.profiler.profile() as p:`` turns the simulated NPU's span recording on
(PYASC_SIM_PROFILE_DIR, read by the sim runtime at every launch); on exit it loads the spans the
device process wrote, the host-side records (launches, copies, event waits per stream) and
offers ``p.export_chrome_trace(path)`` (opens in Perfetto / chrome://tracing) and
``p.key_averages()`` (a rich table per kernel with a one-line diagnosis).
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from pyasc_core.errors import ArgumentError, EnvironmentSettingError, PyascError

__all__ = ["Profile", "ProfilerError", "KernelSummary", "profile", "PIPES"]

PIPES = ("S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX")
DEFAULT_SPAN_CAP = 1_000_000
_DIR_ENV = "PYASC_SIM_PROFILE_DIR"
_CAP_ENV = "PYASC_SIM_PROFILE_SPANS"

# One span as the device process writes it (runtime/block_runner.h SpanRecord, 48 bytes).
SPAN_DTYPE = np.dtype([
    ("start", "<f8"), ("end", "<f8"), ("bytes", "<u8"), ("block", "<u4"), ("count", "<u4"),
    ("line", "<u4"), ("file", "<u4"), ("core", "<u2"), ("pipe", "<u2"), ("kind", "<u2"), ("reserved", "<u2"),
])
assert SPAN_DTYPE.itemsize == 48
KIND_INSTR, KIND_WAIT = 0, 1


class ProfilerError(PyascError, RuntimeError):
    """The profiler was used wrongly (nested sessions, a trace asked for before the session ended)."""


@dataclass
class Launch:
    """One kernel launch: its host record and, when the device wrote them, its spans."""

    device: int
    stream: int
    kernel: str
    blocks: int
    start_ns: float
    end_ns: float
    overhead_ns: float
    clock_ghz: float
    vector_cores: int
    cube_cores: int
    hbm_gbps: float
    status: int
    block_cycles: list[int] = field(default_factory=list)
    cores_per_block: int = 1
    startup_cycles: float = 0.0
    files: list[str] = field(default_factory=list)
    spans: np.ndarray = field(default_factory=lambda: np.zeros(0, SPAN_DTYPE))
    dropped: int = 0

    @property
    def elapsed_ms(self) -> float:
        """Simulated time of the launch in ms: what Event.elapsed_time reports around it."""
        return (self.end_ns - self.start_ns) / 1e6

    def block_offsets_cycles(self) -> np.ndarray:
        """Cycle at which each block starts after the launch overhead: blocks run in waves of cores."""
        cores = max(1, self.cube_cores if self.cores_per_block > 1 else self.vector_cores)
        cyc = np.asarray(self.block_cycles, dtype=np.float64)
        out = np.zeros(len(cyc))
        t = 0.0
        for w in range(0, len(cyc), cores):
            out[w:w + cores] = t
            t += float(cyc[w:w + cores].max())
        return out


@dataclass
class KernelSummary:
    """key_averages() row: a kernel's launches folded together."""

    kernel: str
    calls: int
    sim_ms: float
    slowest_block: int
    slowest_block_cycles: int
    busy: dict[str, float]      # pipe -> fraction of the blocks' time the pipe was busy
    blocked: float              # share of the used pipes' time spent waiting on flags/queues/barriers
    bytes_moved: int
    achieved_gbps: float
    profile_gbps: float
    diagnosis: str


def _host_records(d: Path) -> list[dict[str, Any]]:
    path = d / "host.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


class Profile:
    """The result of one profiling session (``with profile() as p``)."""

    def __init__(self, span_cap: int = DEFAULT_SPAN_CAP) -> None:
        self.span_cap = span_cap
        self.launches: list[Launch] = []
        self.tasks: list[dict[str, Any]] = []
        self.dropped_spans = 0
        self._done = False

    # ---- loading -------------------------------------------------------------------------------
    def _load(self, d: Path) -> None:
        kept = 0
        for rec in _host_records(d):
            if rec.get("type") == "task":
                self.tasks.append(rec)
                continue
            if rec.get("type") != "launch":
                continue
            prefix = rec.pop("prefix", "")
            rec.pop("type")
            launch = Launch(**rec)
            head = Path(prefix + ".json")
            if prefix and head.exists():
                meta = json.loads(head.read_text())
                launch.block_cycles = list(meta["block_cycles"])
                launch.cores_per_block = int(meta["cores_per_block"])
                launch.startup_cycles = float(meta.get("startup_cycles", 0.0))
                launch.files = list(meta["files"])
                launch.dropped = int(meta["dropped"])
                spans = np.fromfile(prefix + ".spans", dtype=SPAN_DTYPE)
                room = max(0, self.span_cap - kept)
                if len(spans) > room:
                    launch.dropped += len(spans) - room
                    spans = spans[:room]
                kept += len(spans)
                launch.spans = spans
            self.dropped_spans += launch.dropped
            self.launches.append(launch)
        self._done = True

    def _require_done(self, what: str) -> None:
        if not self._done:
            raise ProfilerError(f"{what}: the profiling session is still open; call it after the `with "
                                "pyasc.profiler.profile() as p:` block ends")

    # ---- queries -------------------------------------------------------------------------------
    def kernels(self) -> list[str]:
        """Kernel names in launch order (each once)."""
        return list(dict.fromkeys(ln.kernel for ln in self.launches))

    def _launches_of(self, kernel: str | None) -> list[Launch]:
        if kernel is None:
            return self.launches
        found = [ln for ln in self.launches if ln.kernel == kernel]
        if not found:
            raise ArgumentError(f"no launch of kernel {kernel!r} was profiled; profiled kernels: "
                                f"{self.kernels() or 'none'}")
        return found

    def overlap_cycles(self, pipe_a: str, pipe_b: str, kernel: str | None = None) -> float:
        """Cycles during which pipes a and b both ran instructions on one core (summed over cores)."""
        self._require_done("overlap_cycles")
        a, b = _pipe_index(pipe_a), _pipe_index(pipe_b)
        total = 0.0
        for ln in self._launches_of(kernel):
            s = ln.spans[ln.spans["kind"] == KIND_INSTR]
            for key in np.unique(s[["block", "core"]]):
                core = s[(s["block"] == key["block"]) & (s["core"] == key["core"])]
                total += _intersect(core[core["pipe"] == a], core[core["pipe"] == b])
        return total

    # ---- export --------------------------------------------------------------------------------
    def chrome_trace(self) -> dict[str, Any]:
        """The session as a Chrome trace event format object (JSON Object Format)."""
        self._require_done("chrome_trace")
        events: list[dict[str, Any]] = []
        named: set[tuple[int, int]] = set()
        pids: set[int] = set()
        source = _SourceLines()

        def thread(pid: int, tid: int, name: str, order: int) -> None:
            if (pid, tid) in named:
                return
            named.add((pid, tid))
            events.append({"ph": "M", "name": "thread_name", "pid": pid, "tid": tid, "args": {"name": name}})
            events.append({"ph": "M", "name": "thread_sort_index", "pid": pid, "tid": tid, "args": {"sort_index": order}})

        def process(dev: int) -> int:
            pid = dev + 1
            if pid not in pids:
                pids.add(pid)
                events.append({"ph": "M", "name": "process_name", "pid": pid, "args": {"name": f"sim:{dev}"}})
            return pid

        streams: dict[tuple[int, int], int] = {}

        def stream_tid(dev: int, stream: int) -> int:
            key = (dev, stream)
            if key not in streams:
                streams[key] = len([k for k in streams if k[0] == dev])
                thread(process(dev), streams[key], "default stream" if stream == 0 else f"stream {stream:#x}",
                       streams[key])
            return streams[key]

        for t in self.tasks:
            tid = stream_tid(t["device"], t["stream"])
            ev = {"name": t["name"], "cat": "host", "pid": process(t["device"]), "tid": tid, "ts": t["start_ns"] / 1e3}
            if t["end_ns"] > t["start_ns"]:
                ev.update(ph="X", dur=(t["end_ns"] - t["start_ns"]) / 1e3, args={"bytes": t["bytes"]})
            else:  # an event record, a host synchronize: a point on the stream's clock
                ev.update(ph="i", s="t")
            events.append(ev)
        for ln in self.launches:
            pid = process(ln.device)
            events.append({"ph": "X", "name": ln.kernel, "cat": "launch", "pid": pid,
                           "tid": stream_tid(ln.device, ln.stream), "ts": ln.start_ns / 1e3,
                           "dur": (ln.end_ns - ln.start_ns) / 1e3,
                           "args": {"blocks": ln.blocks, "status": ln.status,
                                    "slowest block cycles": max(ln.block_cycles, default=0)}})
            if ln.spans.size == 0:
                continue
            offs = ln.block_offsets_cycles()
            base_ns = ln.start_ns + ln.overhead_ns
            ghz = ln.clock_ghz
            for x in ln.spans:
                blk, core, pipe = int(x["block"]), int(x["core"]), int(x["pipe"])
                tid = 1000 + (blk * 4 + core) * 8 + pipe
                kind = ("AIC" if core == 0 else f"AIV{core - 1}") if ln.cores_per_block > 1 else "AIV"
                thread(pid, tid, f"block {blk} {kind} {PIPES[pipe]}", tid)
                t0 = base_ns + (offs[blk] + ln.startup_cycles + float(x["start"])) / ghz
                dur = (float(x["end"]) - float(x["start"])) / ghz
                file = ln.files[int(x["file"])] if int(x["file"]) < len(ln.files) else ""
                where = f"{file}:{int(x['line'])}" if file else "?"
                wait = int(x["kind"]) == KIND_WAIT
                name = ("wait " if wait else "") + (source.text(file, int(x["line"])) or PIPES[pipe])
                args: dict[str, Any] = {"source": where, "count": int(x["count"]),
                                        "cycles": [float(x["start"]), float(x["end"])]}
                if int(x["bytes"]):
                    args["bytes"] = int(x["bytes"])
                events.append({"ph": "X", "name": name, "cat": "wait" if wait else PIPES[pipe], "pid": pid,
                               "tid": tid, "ts": t0 / 1e3, "dur": dur / 1e3, "args": args})
            if ln.dropped:
                events.append({"ph": "i", "s": "p", "name": f"span cap reached: {ln.dropped} spans of {ln.kernel} "
                               f"dropped (raise span_cap / PYASC_SIM_PROFILE_SPANS)", "pid": pid, "tid": 0,
                               "ts": ln.end_ns / 1e3, "cat": "note"})
        other: dict[str, Any] = {"generator": "pyasc.profiler", "time": "simulated device time",
                                 "span_cap": self.span_cap, "dropped_spans": self.dropped_spans}
        if self.dropped_spans:
            other["note"] = (f"span cap of {self.span_cap} reached: {self.dropped_spans} spans were dropped; "
                             "raise span_cap (PYASC_SIM_PROFILE_SPANS) to keep them")
        return {"traceEvents": events, "displayTimeUnit": "ns", "otherData": other}

    def export_chrome_trace(self, path: str | os.PathLike[str]) -> Path:
        """Writes the Chrome trace (JSON) to path; open it in https://ui.perfetto.dev or chrome://tracing."""
        out = Path(path)
        out.write_text(json.dumps(self.chrome_trace()))
        return out

    # ---- summary -------------------------------------------------------------------------------
    def key_averages(self) -> KernelTable:
        """Per kernel: simulated time, slowest block, pipe busy fractions, blocked time, bandwidth, diagnosis."""
        self._require_done("key_averages")
        return KernelTable([_summarize(k, self._launches_of(k)) for k in self.kernels()])


class KernelTable(list):
    """key_averages() rows; str() and table() render them with rich."""

    def table(self) -> Any:
        from rich.table import Table

        t = Table(title="pyasc profile (simulated time)")
        for col in ("kernel", "calls", "sim ms", "slowest block", *PIPES, "blocked", "MB moved", "GB/s (of HBM)",
                    "diagnosis"):
            t.add_column(col, overflow="fold")
        for r in self:
            t.add_row(r.kernel, str(r.calls), f"{r.sim_ms:.4f}", f"{r.slowest_block} ({r.slowest_block_cycles} cyc)",
                      *(f"{100 * r.busy[p]:.0f}%" for p in PIPES), f"{100 * r.blocked:.0f}%",
                      f"{r.bytes_moved / 1e6:.2f}", f"{r.achieved_gbps:.0f} ({r.profile_gbps:.0f})", r.diagnosis)
        return t

    def __str__(self) -> str:
        from rich.console import Console

        con = Console(width=200, record=True, file=open(os.devnull, "w"))
        con.print(self.table())
        return con.export_text()


def _pipe_index(name: str) -> int:
    if name not in PIPES:
        raise ArgumentError(f"unknown pipe {name!r}; pipes are {', '.join(PIPES)}")
    return PIPES.index(name)


def _intersect(a: np.ndarray, b: np.ndarray) -> float:
    """Total length of the intersection of two sets of intervals, each non-overlapping within itself."""
    i = j = 0
    total = 0.0
    a = np.sort(a, order="start")
    b = np.sort(b, order="start")
    while i < len(a) and j < len(b):
        lo = max(a["start"][i], b["start"][j])
        hi = min(a["end"][i], b["end"][j])
        if hi > lo:
            total += hi - lo
        if a["end"][i] < b["end"][j]:
            i += 1
        else:
            j += 1
    return float(total)


def _summarize(kernel: str, launches: list[Launch]) -> KernelSummary:
    busy = np.zeros(len(PIPES))
    waited = 0.0
    block_total = 0.0
    nbytes = 0
    slow_b, slow_c = 0, -1
    sim_ns = 0.0
    profile_gbps = launches[0].hbm_gbps
    overlap_mte2_v = 0.0
    have_spans = False
    for ln in launches:
        sim_ns += ln.end_ns - ln.start_ns
        if ln.block_cycles:
            b = int(np.argmax(ln.block_cycles))
            if ln.block_cycles[b] > slow_c:
                slow_b, slow_c = b, int(ln.block_cycles[b])
            block_total += float(np.sum(ln.block_cycles)) * max(1, ln.cores_per_block)
        s = ln.spans
        if s.size:
            have_spans = True
            d = s["end"] - s["start"]
            ins = s["kind"] == KIND_INSTR
            busy += np.bincount(s["pipe"][ins], weights=d[ins], minlength=len(PIPES))[:len(PIPES)]
            waited += float(d[~ins].sum())
            nbytes += int(s["bytes"].sum())
    frac = {p: (float(busy[i]) / block_total if block_total else 0.0) for i, p in enumerate(PIPES)}
    active = max(1, int(np.count_nonzero(busy)))  # blocked: a share of the time of the pipes in use
    blocked = min(1.0, waited / (block_total * active)) if block_total else 0.0
    achieved = nbytes / sim_ns if sim_ns else 0.0  # bytes/ns == GB/s
    if have_spans:
        for ln in launches:
            s = ln.spans[ln.spans["kind"] == KIND_INSTR]
            for key in np.unique(s[["block", "core"]]):
                core = s[(s["block"] == key["block"]) & (s["core"] == key["core"])]
                overlap_mte2_v += _intersect(core[core["pipe"] == 4], core[core["pipe"] == 1])
    diag = _diagnose(frac, blocked, overlap_mte2_v, achieved, profile_gbps, launches, have_spans)
    return KernelSummary(kernel, len(launches), sim_ns / 1e6, slow_b, slow_c, frac, blocked, nbytes, achieved,
                         profile_gbps, diag)


def _diagnose(frac: dict[str, float], blocked: float, overlap: float, achieved: float, hbm: float,
              launches: list[Launch], have_spans: bool) -> str:
    if not have_spans:
        return "no spans recorded (the span cap was reached before this kernel)"
    bound = max(PIPES, key=lambda p: frac[p])
    v_idle = 100 * (1 - frac["V"])
    cyc = [c for ln in launches for c in ln.block_cycles]
    if cyc and len(cyc) > 1 and max(cyc) > 1.25 * (sum(cyc) / len(cyc)):
        imbalance = f"; load imbalance: the slowest block takes {max(cyc) / (sum(cyc) / len(cyc)):.1f}x the mean"
    else:
        imbalance = ""
    if bound in ("MTE2", "MTE3"):
        if overlap <= 0.05 * sum(float(x["end"] - x["start"]) for ln in launches
                                 for x in ln.spans[(ln.spans["pipe"] == 1) & (ln.spans["kind"] == KIND_INSTR)]):
            return (f"{bound}-bound: V idle {v_idle:.0f}%, MTE2 and V never overlap: double-buffer the input queue "
                    f"(InitBuffer(queue, 2, ...)){imbalance}")
        if hbm and achieved >= 0.8 * hbm:
            return f"{bound}-bound at {100 * achieved / hbm:.0f}% of HBM bandwidth: memory-bound as it should be{imbalance}"
        return (f"{bound}-bound: V idle {v_idle:.0f}%, {100 * achieved / hbm if hbm else 0:.0f}% of HBM bandwidth: "
                f"move larger tiles per DataCopy (fewer issues) or use more blocks{imbalance}")
    if blocked > 0.3:
        return f"{bound}-bound, pipes blocked {100 * blocked:.0f}% of the time on flags/queues: deepen the queues{imbalance}"
    if bound == "V":
        return f"V-bound: the vector unit is busy {100 * frac['V']:.0f}%: fewer or fused vector instructions{imbalance}"
    if bound == "M":
        return f"M-bound: the cube unit is busy {100 * frac['M']:.0f}%: compute-bound{imbalance}"
    return f"{bound}-bound ({100 * frac[bound]:.0f}% busy){imbalance}"


class _SourceLines:
    """A kernel source line's text (the span's name), read once per file."""

    def __init__(self) -> None:
        self._files: dict[str, list[str]] = {}

    def text(self, file: str, line: int) -> str:
        if not file:
            return ""
        if file not in self._files:
            try:
                self._files[file] = Path(file).read_text(errors="replace").splitlines()
            except OSError:
                self._files[file] = []
        lines = self._files[file]
        if 0 < line <= len(lines):
            t = lines[line - 1].strip()
            return t if len(t) <= 80 else t[:77] + "..."
        return ""


_active: list[Profile] = []


class profile:  # noqa: N801 - used like torch.profiler.profile
    """Context manager: profiles the simulated device's launches, copies and event waits in its body.

    span_cap bounds the spans kept (instruction runs merged; default one million); a trace notes
    when it was reached.
    """

    def __init__(self, span_cap: int = DEFAULT_SPAN_CAP, device: Any = "sim") -> None:
        if isinstance(span_cap, bool) or not isinstance(span_cap, int) or span_cap < 0:
            raise ArgumentError(f"profile(span_cap={span_cap!r}): span_cap is the number of spans kept, an int >= 0 "
                                f"(default {DEFAULT_SPAN_CAP})")
        self._cap = span_cap
        self._device = device
        self._dir: Path | None = None
        self._saved: dict[str, str | None] = {}
        self.result = Profile(span_cap)

    def __enter__(self) -> Profile:
        if _active:
            raise ProfilerError("pyasc.profiler.profile() is already active; profiling sessions do not nest")
        from pyasc_core.streams import synchronize

        synchronize(self._device)  # work queued before the session is not in it
        self._dir = Path(tempfile.mkdtemp(prefix="pyasc-profile-"))
        for k, v in ((_DIR_ENV, str(self._dir)), (_CAP_ENV, str(self._cap))):
            self._saved[k] = os.environ.get(k)
            os.environ[k] = v
        _active.append(self.result)
        return self.result

    def __exit__(self, *exc: Any) -> None:
        from pyasc_core.streams import synchronize

        try:
            synchronize(self._device)
        finally:
            for k, v in self._saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
            _active.remove(self.result)
            assert self._dir is not None
            try:
                self.result._load(self._dir)
            finally:
                shutil.rmtree(self._dir, ignore_errors=True)


def profile_from_env() -> None:
    """PYASC_SIM_PROFILE=path: profile the whole program and write the Chrome trace there at exit."""
    path = os.environ.get("PYASC_SIM_PROFILE", "")
    if not path or _active:
        return
    target = Path(path)
    if target.is_dir() or not target.parent.exists():
        raise EnvironmentSettingError(f"PYASC_SIM_PROFILE={path!r}: name a trace file in an existing directory "
                                      "(e.g. PYASC_SIM_PROFILE=trace.json)")
    cap = os.environ.get(_CAP_ENV, "")
    if cap and not cap.isdigit():
        raise EnvironmentSettingError(f"{_CAP_ENV}={cap!r}: the span cap is a whole number (default "
                                      f"{DEFAULT_SPAN_CAP})")
    session = profile(int(cap) if cap else DEFAULT_SPAN_CAP)
    session.__enter__()

    def finish() -> None:
        try:
            session.__exit__(None, None, None)
        except PyascError:
            return
        session.result.export_chrome_trace(target)

    atexit.register(finish)
