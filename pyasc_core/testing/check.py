"""Differential checking of an op: run every sample on a backend and on the reference, compare.

``check_op`` returns a structured report; ``opcheck`` validates an op's registration the way
torch.library.opcheck does (meta agrees with real outputs, dtype rules hold, no hidden mutation).

A report cannot pass by accident: a sample with no kernel on the backend fails ("no kernel")
unless ``allow_missing`` or an expected-missing list (``missing.py``, an op pack's) names its
(op, dtype, backend), and a listed entry whose kernel now exists fails too (delete it). A sample
the backend ran by its host fallback is "host-fallback": right, but never a kernel pass. A sample
that raises (a sanitizer error, a kernel crash, a wrong shape) is a failing row with the message;
the device's pending error is drained so the next samples run. Every pass says why it passed.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs
import numpy as np

from .. import dtypes as _dt
from .. import placement
from ..binding import bind
from ..errors import DtypeError, KernelNotFoundError, NotOnSocError, PyascError, ReferenceMismatchError
from .compare import Comparison, compare, to_host
from .missing import ExpectedMissing, as_expected_missing
from .samples import Sample, sample_inputs

#: statuses that fail a report; "missing-allowed" (no kernel, tolerated), "soc-unsupported" (the
#: dtype does not exist on the SoC the backend's kernels are built for) and "pass" do not
FAILING = ("fail", "error", "no-kernel", "listed-but-present")


class OpcheckError(ReferenceMismatchError):
    """An op's registration is inconsistent (meta vs kernel, dtype rules, mutation)."""


@attrs.frozen
class SampleResult:
    """The outcome of one sample: pass, fail (values differ), error (raised), no-kernel (fails),
    soc-unsupported (the dtype does not exist on the SoC of the backend's kernels, e.g. bfloat16 on
    the Atlas inference series: no kernel can exist; neither a failure nor a pass, the message says why),
    host-fallback (right, but run by the host fallback: not a kernel pass, does not fail),
    missing-allowed (no kernel, tolerated by allow_missing or the expected-missing list), or
    listed-but-present (a dtype-level row: listed as missing, but its kernel ran)."""

    dtype: str
    desc: str
    status: str
    message: str = ""
    comparison: Comparison | None = None
    #: why a passing sample passed (exact, within which tolerance, nan/inf positions)
    why: str = ""
    #: sanitizer warnings (pyasc.SanitizerWarning) the backend raised while running this sample
    warnings: tuple[str, ...] = ()
    #: where the backend ran it: "AI Core", "AI CPU", "host fallback" (several joined by " + "),
    #: "" when unknown (a backend that does not say, or the sample did not run)
    runs_on: str = ""

    @property
    def failed(self) -> bool:
        return self.status in FAILING

    def as_dict(self) -> dict[str, Any]:
        return {
            "dtype": self.dtype, "desc": self.desc, "status": self.status, "message": self.message,
            "why": self.why,
            "comparison": self.comparison.as_dict() if self.comparison is not None else None,
            "warnings": list(self.warnings), "runs_on": self.runs_on,
        }


@attrs.define
class CheckReport:
    """Everything check_op found for one op on one backend."""

    op: str
    backend: str
    reference: str
    results: list[SampleResult] = attrs.Factory(list)

    @property
    def ok(self) -> bool:
        return not self.failures

    @property
    def failures(self) -> list[SampleResult]:
        return [r for r in self.results if r.failed]

    def by_dtype(self) -> list[dict[str, Any]]:
        """One summary row per dtype: samples, passed, failed, no kernel (failing or tolerated),
        status, the worst errors over the samples that ran (None when none ran) and why the
        passes passed."""
        rows: dict[str, dict[str, Any]] = {}
        whys: dict[str, list[str]] = {}
        for r in self.results:
            row = rows.setdefault(r.dtype, {
                "op": self.op, "dtype": r.dtype, "samples": 0, "passed": 0, "failed": 0,
                "no_kernel": 0, "missing_allowed": 0, "soc_unsupported": 0, "listed_but_present": False,
                "max_abs": None, "max_rel": None, "max_ulp": None, "warnings": 0,
                "host_fallback": 0, "runs_on": [],
            })
            if r.status == "listed-but-present":
                row["listed_but_present"] = True
                continue
            row["samples"] += 1
            row["warnings"] += len(r.warnings)
            for place in r.runs_on.split(" + ") if r.runs_on else ():
                if place not in row["runs_on"]:
                    row["runs_on"].append(place)
            if r.status == "host-fallback":  # right, but no kernel ran: never a kernel pass
                row["host_fallback"] += 1
            elif r.status == "pass":
                row["passed"] += 1
                row["_ran"] = row.get("_ran", 0) + bool(r.runs_on)  # passes that launched something
                if r.why and r.why not in whys.setdefault(r.dtype, []):
                    whys[r.dtype].append(r.why)
            elif r.status == "no-kernel":
                row["no_kernel"] += 1
            elif r.status == "missing-allowed":
                row["missing_allowed"] += 1
            elif r.status == "soc-unsupported":
                row["soc_unsupported"] += 1
                if r.message and r.message not in whys.setdefault(r.dtype, []):
                    whys[r.dtype].append(r.message)
            else:
                row["failed"] += 1
            c = r.comparison
            if c is not None and c.shape_ok:
                row["max_abs"] = max(row["max_abs"] or 0.0, c.max_abs)
                row["max_rel"] = max(row["max_rel"] or 0.0, c.max_rel)
                row["max_ulp"] = max(row["max_ulp"] or 0, c.max_ulp)
        for dtype, row in rows.items():
            if row["failed"]:
                row["status"] = "fail"
            elif row["listed_but_present"]:
                row["status"] = "listed but present"
            elif row["no_kernel"]:
                row["status"] = "no kernel"
            elif row["missing_allowed"]:
                row["status"] = "missing (allowed)"
            elif row["soc_unsupported"]:  # passes that ran nothing (empty samples) do not count
                row["status"] = "pass, partly not supported by the SoC" if row.get("_ran") else "not supported by the SoC"
            elif row["host_fallback"]:
                row["status"] = "host fallback"
            else:
                row["status"] = "pass"
            row["why"] = _merge_whys(whys.get(dtype, []))
            row.pop("_ran", None)
        return list(rows.values())

    def summary(self, limit: int = 5) -> str:
        lines = [f"{self.op} on {self.backend} vs {self.reference}: "
                 f"{sum(r.status == 'pass' for r in self.results)} of "
                 f"{sum(r.status != 'listed-but-present' for r in self.results)} samples pass"]
        for r in self.failures[:limit]:
            lines.append(f"- [{r.dtype}] {r.desc}: {r.status}")
            text = r.comparison.report() if r.comparison is not None and r.status == "fail" else r.message
            lines.extend("    " + ln for ln in text.splitlines())
        if len(self.failures) > limit:
            lines.append(f"... and {len(self.failures) - limit} more failing samples")
        return "\n".join(lines)

    def raise_for_failures(self) -> CheckReport:
        if not self.ok:
            from .compare import MismatchError

            raise MismatchError(self.summary())
        return self

    def as_dict(self) -> dict[str, Any]:
        return {"op": self.op, "backend": self.backend, "reference": self.reference, "ok": self.ok,
                "summary": self.by_dtype(), "results": [r.as_dict() for r in self.results]}


def _merge_whys(whys: list[str]) -> str:
    """One line saying why a dtype's passes passed: the distinct reasons, exact ones last."""
    if not whys:
        return ""
    parts: list[str] = []
    for w in whys:
        for part in w.split("; "):
            if part.startswith("nan/inf positions match"):
                part = "nan/inf positions match"
            if part not in parts:
                parts.append(part)
    within = [p for p in parts if p.startswith("within")]
    if within:  # the tolerance is the weaker claim (exact samples are within it): keep the fullest
        parts = [max(within, key=len)] + [p for p in parts if p != "exact" and not p.startswith("within")]
    if len(parts) > 1 and "empty" in parts:
        parts.remove("empty")
    return "; ".join(parts)


def resolve_op(op: Any) -> Any:
    """An OpDef from an OpDef, a handle (pyasc.add) or a name ('add', 'mypack::gelu')."""
    from ..dispatch import OpHandle
    from ..registry import REGISTRY

    if isinstance(op, OpHandle):
        return op.opdef
    if isinstance(op, str):
        return REGISTRY.op(op if "::" in op else f"pyasc::{op}")
    from ..opdef import OpDef

    if not isinstance(op, OpDef):
        REGISTRY.op(op)  # raises UnknownOpError naming the value
    return op


def _call(op: Any, sample: Sample, device: Any) -> Any:
    from ..dispatch import handle

    args, kwargs = sample.materialize(device)
    with np.errstate(all="ignore"):  # special values make NumPy warn; results are compared instead
        return handle(op.name)(*args, **kwargs)


def _outputs(value: Any) -> tuple[Any, ...]:
    return value if isinstance(value, tuple) else (value,)


def _drain(backend: str) -> str | None:
    """Synchronize ``backend``'s device so an error still pending from a kernel (sticky on the
    stream, as on hardware) surfaces now, and is cleared; returns its message."""
    from ..registry import REGISTRY

    try:
        b = REGISTRY.backends[backend]
        b.synchronize(b.device(None))
    except Exception as exc:  # the pending error of the sample just run: report it, go on
        return f"{type(exc).__name__}: {exc}"
    return None


def run_sample(op: Any, sample: Sample, backend: str, reference: str,
               rtol: float | None = None, atol: float | None = None) -> SampleResult:
    """Run one sample on both backends and compare every output (and the meta prediction).

    Never raises for what the sample does: a raising reference or kernel, an error the device
    reports at the next synchronize (sanitizer, crash), outputs of the wrong number, shape or
    dtype all become a failing result with the message; the device's pending error is cleared.
    The sanitizer warnings raised meanwhile are recorded on the result (and not shown again).
    """
    import warnings

    from ..errors import SanitizerWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", SanitizerWarning)
        result = _run_sample(op, sample, backend, reference, rtol, atol)
    found = []
    for w in caught:
        if issubclass(w.category, SanitizerWarning):
            found.append(str(w.message))
        else:  # not ours: let the caller's filters see it
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno, source=w.source)
    return attrs.evolve(result, warnings=tuple(found)) if found else result


def _run_sample(op: Any, sample: Sample, backend: str, reference: str,
                rtol: float | None, atol: float | None) -> SampleResult:
    """_run_sample_on, labelled with where the backend ran it (a host fallback is no kernel pass)."""
    before = placement.snapshot()
    r = _run_sample_on(op, sample, backend, reference, rtol, atol)
    after = placement.COUNTS
    places = [p for p in (placement.AICORE, placement.AICPU, placement.HOST) if after[p] > before[p]]
    if not places:
        return r
    status = "host-fallback" if r.status == "pass" and placement.HOST in places else r.status
    return attrs.evolve(r, status=status, runs_on=" + ".join(places))


def _run_sample_on(op: Any, sample: Sample, backend: str, reference: str,
                   rtol: float | None, atol: float | None) -> SampleResult:
    try:
        expected = _outputs(_call(op, sample, reference))
    except Exception as exc:
        return SampleResult(sample.dtype, sample.desc, "error", f"the reference raised {type(exc).__name__}: {exc}")
    try:
        actual = _outputs(_call(op, sample, backend))
    except NotOnSocError as exc:
        return SampleResult(sample.dtype, sample.desc, "soc-unsupported",
                            f"not supported by {exc.soc}: {exc.reason}" if exc.soc else str(exc))
    except KernelNotFoundError as exc:
        return SampleResult(sample.dtype, sample.desc, "no-kernel", str(exc))
    except Exception as exc:  # a kernel crash is a finding, not a crash of the checker
        pending = _drain(backend)
        msg = f"{type(exc).__name__}: {exc}" + (f"\nthen, at synchronize: {pending}" if pending else "")
        return SampleResult(sample.dtype, sample.desc, "error", msg)
    try:
        pending = _drain(backend)
        if pending:
            return SampleResult(sample.dtype, sample.desc, "error", f"the device reported {pending}")
        if len(actual) != len(expected):
            return SampleResult(sample.dtype, sample.desc, "fail",
                                f"{len(actual)} outputs, the reference gave {len(expected)}")
        worst: Comparison | None = None
        comps: list[Comparison] = []
        for a, e in zip(actual, expected):
            c = compare(a, e, rtol=rtol, atol=atol)
            if not c.ok:
                return SampleResult(sample.dtype, sample.desc, "fail", c.report(), c)
            comps.append(c)
            if worst is None or c.max_abs > worst.max_abs:
                worst = c
    except Exception as exc:  # e.g. reading the output back raised the kernel's error
        pending = _drain(backend)
        msg = f"{type(exc).__name__}: {exc}" + (f"\nthen, at synchronize: {pending}" if pending else "")
        return SampleResult(sample.dtype, sample.desc, "error", msg)
    return SampleResult(sample.dtype, sample.desc, "pass", "", worst, _merge_whys([c.why() for c in comps]))


def refuse_self_comparison(backend: str, reference: str, backend_given: str | None,
                           reference_given: str) -> None:
    """Raise when ``backend`` and ``reference`` (canonical names) are one backend: comparing a
    backend with itself passes whatever its kernels do, so a "passed" would not be true."""
    if backend != reference:
        return
    from ..errors import ArgumentError
    from ..registry import REGISTRY

    how = f"given as --backend {backend_given}" if backend_given else "the current backend: no --backend given"
    ref = reference_given if reference_given == reference else f"{reference_given} (an alias of {reference})"
    others = sorted(b for b in REGISTRY.backends if b not in (reference, "meta") and REGISTRY.availability(b)[0])
    suggestion = f"pass --backend {others[0]}" if others else "pass --backend NAME of another backend"
    raise ArgumentError(
        f"the backend to check, {backend} ({how}), is the reference {ref} itself: comparing a backend "
        f"with itself proves nothing. Check another backend: {suggestion} (or select one with "
        f"PYASC_BACKEND), or compare against another golden backend with --reference NAME"
    )


def check_op(op: Any, backend: str | None = None, reference: str = "numpy", *,
             dtypes: Iterable[Any] | None = None, seed: int = 0, samples: Iterable[Sample] | None = None,
             rtol: float | None = None, atol: float | None = None, allow_missing: bool = False,
             expected_missing: Any = None) -> CheckReport:
    """Run all samples of ``op`` on ``backend`` (default: the current one) and on ``reference``.

    A sample with no kernel on ``backend`` fails the report ("no-kernel") unless ``allow_missing``
    or ``expected_missing`` lists its (op, dtype, backend) ("missing-allowed"); a listed dtype
    whose samples all found a kernel fails ("listed-but-present": delete the entry).
    ``expected_missing``: None for no list (no kernel may be missing), a path to a list (an op
    pack's), or (op, dtype, backend) triples.
    """
    from ..registry import REGISTRY
    from ..selection import get_backend

    opdef = resolve_op(op)
    bname = REGISTRY.available_backend(backend or get_backend()).name
    rname = REGISTRY.available_backend(reference).name
    expected = as_expected_missing(expected_missing)
    report = CheckReport(opdef.name, bname, rname)
    wanted: set[str] | None = None
    if samples is None:
        if dtypes is not None:
            wanted = {_dt.dtype_name(_dt.as_dtype(d)) for d in dtypes}
        try:
            samples = sample_inputs(opdef, dtypes=dtypes, seed=seed,
                                    backend_dtypes=REGISTRY.backends[bname].dtypes)
        except Exception as exc:  # a broken sample maker is a failing row, not a crash of the run
            report.results.append(SampleResult("*", "making the samples", "error",
                                               f"the op's sample maker raised {type(exc).__name__}: {exc}"))
            return report
    else:
        samples = list(samples)
        wanted = {s.dtype for s in samples}
    for s in samples:
        r = run_sample(opdef, s, bname, rname, rtol, atol)
        if r.status == "no-kernel" and (allow_missing or expected.listed(opdef.name, s.dtype, bname)):
            why = ("--allow-missing" if allow_missing else f"listed as expected missing in {expected.source}")
            r = attrs.evolve(r, status="missing-allowed", message=f"{r.message} (tolerated: {why})")
        report.results.append(r)
    if not allow_missing:
        _check_listing(report, expected, wanted)
    return report


def _check_listing(report: CheckReport, expected: ExpectedMissing, wanted: set[str] | None) -> None:
    """Fail each listed dtype of this op whose kernel exists: the list only shrinks."""
    ran: dict[str, list[str]] = {}
    for r in report.results:
        ran.setdefault(r.dtype, []).append(r.status)
    for dtype in sorted(expected.for_op(report.op, report.backend)):
        if wanted is not None and dtype not in wanted:
            continue  # not checked in this run
        statuses = ran.get(dtype)
        if statuses is None:
            why = f"but {report.op} has no {dtype} sample on {report.backend} (the op or backend does not take {dtype})"
        elif "missing-allowed" in statuses or "soc-unsupported" in statuses:
            continue
        else:
            why = f"but all {len(statuses)} {dtype} samples found a kernel"
        report.results.append(SampleResult(
            dtype, "expected-missing list", "listed-but-present",
            f"{expected.source} lists ({report.op}, {dtype}, {report.backend}) as having no kernel, "
            f"{why}: delete the entry (the list only shrinks)"))


def opcheck(op: Any, backend: str | None = None, *, samples: Iterable[Sample] | None = None,
            seed: int = 0) -> dict[str, str]:
    """Validate an op's registration on ``backend``; raise OpcheckError listing every problem.

    Checks: the meta function predicts each output's shape and dtype; every dtype an input does
    not allow is rejected with DtypeError; inputs not declared in ``mutates`` are left unchanged;
    outputs live on the inputs' device.
    """
    from ..registry import REGISTRY
    from ..selection import get_backend

    with np.errstate(all="ignore"):  # special values make NumPy warn; results are checked instead
        return _opcheck(resolve_op(op), REGISTRY.available_backend(backend or get_backend()).name,
                        samples, seed)


def _opcheck(opdef: Any, bname: str, samples: Iterable[Sample] | None, seed: int) -> dict[str, str]:
    from ..dispatch import handle
    from ..registry import REGISTRY
    from ..tensor import Tensor

    device = REGISTRY.backends[bname].device(None)
    if samples is None:
        samples = sample_inputs(opdef, seed=seed, backend_dtypes=REGISTRY.backends[bname].dtypes)
    samples = list(samples)
    problems: dict[str, list[str]] = {"meta": [], "dtype_rules": [], "no_mutation": [], "device": []}
    call = handle(opdef.name)
    for s in samples:
        args, kwargs = s.materialize(device)
        names = [p.name for p in opdef.schema.params]
        bound = dict(zip(names, args)) | kwargs
        try:
            before = {k: to_host(v).copy() for k, v in bound.items() if isinstance(v, Tensor)}
        except PyascError:  # a device without data (meta): nothing to compare
            before = {}
        try:
            outs = _outputs(call(*args, **kwargs))
        except KernelNotFoundError:
            continue
        except PyascError as exc:
            problems["meta"].append(f"[{s.dtype}] {s.desc}: raised {type(exc).__name__}: {exc}")
            continue
        if opdef.meta is not None:
            margs, mkwargs = s.metas()
            predicted = _outputs(opdef.caller(opdef.meta)(*bind(opdef.schema, opdef.name, margs, mkwargs, meta=True)))
            for i, (o, m) in enumerate(zip(outs, predicted)):
                if o.shape != m.shape or o.dtype != m.dtype:
                    problems["meta"].append(
                        f"[{s.dtype}] {s.desc}: output {i} is {o.shape} {_dt.dtype_name(o.dtype)} but the "
                        f"meta function predicted {m.shape} {_dt.dtype_name(m.dtype)}")
        for name, old in before.items():
            if name in opdef.mutates:
                continue
            new = to_host(bound[name])
            if old.shape != new.shape or not np.array_equal(old, new, equal_nan=old.dtype in _dt.FLOATING):
                problems["no_mutation"].append(f"[{s.dtype}] {s.desc}: input {name!r} was modified")
        for i, o in enumerate(outs):
            if o.device is not device:
                problems["device"].append(f"[{s.dtype}] {s.desc}: output {i} is on {o.device}, not {device}")
    # dtype rules: each tensor input rejects the dtypes it does not allow, before any kernel runs
    for p in opdef.schema.inputs:
        allowed = opdef.allowed_dtypes(p.name)
        for bad in _dt.ALL_DTYPES:
            if bad in allowed or bad not in REGISTRY.backends[bname].dtypes:
                continue
            proto = next((s for s in samples if _has_tensor(s, opdef, p.name)), None)
            if proto is None:
                break
            args, kwargs = _with_dtype(proto, opdef, p.name, bad)
            bad_args, bad_kwargs = Sample(tuple(args), kwargs).materialize(device)
            try:
                call(*bad_args, **bad_kwargs)
            except DtypeError:
                continue
            except PyascError as exc:
                problems["dtype_rules"].append(f"{p.name} as {_dt.dtype_name(bad)}: raised {type(exc).__name__}, not DtypeError: {exc}")
                continue
            problems["dtype_rules"].append(f"{p.name} as {_dt.dtype_name(bad)} was accepted, but the op does not allow it")
    found = {k: v for k, v in problems.items() if v}
    if found:
        lines = [f"opcheck of {opdef.name} on {bname} failed:"]
        for k, v in found.items():
            lines.append(f"{k}:")
            lines.extend(f"  {msg}" for msg in v[:5])
            if len(v) > 5:
                lines.append(f"  ... and {len(v) - 5} more")
        raise OpcheckError("\n".join(lines))
    return {k: "SUCCESS" for k in problems}


def _has_tensor(s: Sample, op: Any, name: str) -> bool:
    names = [p.name for p in op.schema.params]
    bound = dict(zip(names, s.args)) | s.kwargs
    return isinstance(bound.get(name), np.ndarray)


def _with_dtype(s: Sample, op: Any, name: str, dtype: np.dtype) -> tuple[list[Any], dict[str, Any]]:
    names = [p.name for p in op.schema.params]
    args = list(s.args)
    kwargs = dict(s.kwargs)
    if name in kwargs:
        kwargs[name] = kwargs[name].astype(dtype)
    else:
        i = names.index(name)
        args[i] = args[i].astype(dtype)
    return args, kwargs

