"""One home per op: every fact of an op (schema, dtypes, meta, reference, sample inputs, benchmark
inputs, FLOP count, torch equivalent) lives on its record (OpDef), and every other table — the
public op names, the registry, ``pyasc bench``'s cases and torch column, the sim's dtype table —
is derived from the records."""

from __future__ import annotations

import subprocess
import sys
import types

import numpy as np
import pytest

import pyasc
from pyasc_core import builtin_ops
from pyasc_core import dtypes as dt
from pyasc_core import library
from pyasc_core.opdef import OpDef
from pyasc_core.registry import REGISTRY
from pyasc_core.samples import Sample, SampleMaker
from pyasc_core.testing import sample_inputs
from pyasc_core.testing.bench import bench_case, torch_callable

#: the names ``import pyasc`` exported before the records were the home of the op list
EXPORTED_BEFORE = {
    "add", "sub", "mul", "div", "maximum", "minimum", "pow", "eq", "ne", "lt", "le", "gt", "ge",
    "neg", "abs", "exp", "log", "sqrt", "rsqrt", "relu", "sigmoid", "tanh", "gelu", "silu",
    "cast", "where", "sum", "max", "min", "mean", "softmax", "log_softmax", "layer_norm",
    "rms_norm", "matmul", "transpose", "reshape",
}
#: built-in ops whose record says explicitly that torch has no equivalent (torch=None)
NO_TORCH = {"pyasc::cast", "pyasc::where", "pyasc::rms_norm", "pyasc::reshape"}
#: the sim's dtype table as it was kept by hand before it was derived
SIM_BEFORE = {
    # int16: the vector unit's Add/Sub/Mul/Max/Min, Muls/Maxs and Select take it; 8-bit integers
    # compute in int16 (pow, matmul: int32) and wrap back through the cast kernel (issue 11)
    **{f"pyasc::{n}": {"float16", "bfloat16", "float32", "uint8", "int8", "int16", "int32"}
       for n in ("add", "sub", "mul", "maximum", "minimum", "abs", "relu", "pow", "matmul")},
    "pyasc::neg": {"float16", "bfloat16", "float32", "int8", "int16", "int32"},
    "pyasc::where": {"bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32"},
    "pyasc::div": {"uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32"},
    # int64 == / != compare the two 32-bit halves of each element
    **{f"pyasc::{n}": {"bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32"}
       for n in ("eq", "ne")},
    "pyasc::cast": {"bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32"},
    **{f"pyasc::{n}": {"uint8", "int8", "int16", "int32", "float16", "bfloat16", "float32"}
       for n in ("lt", "le", "gt", "ge")},
    **{f"pyasc::{n}": {"float16", "bfloat16", "float32"}
       for n in ("exp", "log", "sqrt", "rsqrt", "sigmoid", "tanh", "gelu", "silu", "sum", "mean",
                 "softmax", "log_softmax", "layer_norm", "rms_norm")},
    # max / min of bool and 8/16-bit integers reduce in float32 (exact) and cast back
    **{f"pyasc::{n}": {"bool", "uint8", "int8", "int16", "float16", "bfloat16", "float32"} for n in ("max", "min")},
    **{f"pyasc::{n}": {"bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32",
                       "float64"}  # float64: stored on sim since issue 11, copied by copy_b64
       for n in ("transpose", "reshape")},
}
RECORDS = builtin_ops.all_ops()


def test_public_op_names_are_derived_from_the_records_and_unchanged() -> None:
    names = [op.short_name for op in RECORDS]
    assert tuple(names) == pyasc._BUILTIN_OPS == builtin_ops.public_names()
    assert set(names) == EXPORTED_BEFORE and len(names) == len(EXPORTED_BEFORE)
    for name in names:
        assert name in pyasc.__all__
        assert getattr(pyasc, name).name == f"pyasc::{name}"


def test_the_registry_holds_the_records_themselves() -> None:
    REGISTRY.ensure()
    for op in RECORDS:
        assert REGISTRY.ops[op.name] is op
    # loading the records again changes none of them (no module patches them after definition)
    again = {op.name: (op.sample_inputs, op.bench_inputs, op.torch, op.reference) for op in builtin_ops.all_ops()}
    assert again == {op.name: (op.sample_inputs, op.bench_inputs, op.torch, op.reference) for op in RECORDS}


@pytest.mark.parametrize("op", RECORDS, ids=[op.short_name for op in RECORDS])
def test_every_builtin_record_has_samples_bench_inputs_and_a_torch_answer(op: OpDef) -> None:
    for d in op.all_dtypes:
        samples = sample_inputs(op, dtypes=[d])
        assert samples, f"{op.name} has no samples for {dt.dtype_name(d)}"
        assert all(isinstance(s, Sample) for s in samples)
        if op.sample_inputs is not None:  # the record's own maker is what sample_inputs runs,
            # then its attributes are varied on the largest sample ("<desc> [eps=0.5]")
            own = [s.desc for s in op.sample_inputs(SampleMaker(op, 0), d)]
            assert [s.desc for s in samples][:len(own)] == own
            assert all(s.desc.endswith("]") for s in samples[len(own):])
    case = bench_case(op, "float32", size=4096)
    assert case is not None and case.op == op.name and case.bytes_moved > 0
    if op.bench_inputs is not None:
        assert case.desc == op.bench_inputs(SampleMaker(op, 0), dt.float32, 4096).desc
    assert (case.flops > 0) == (op.flops is not None)
    assert op.torch is None or isinstance(op.torch, str) or callable(op.torch)
    assert (op.torch is None) == (op.name in NO_TORCH)


def test_builtin_ops_do_not_import_the_testing_toolkit(tmp_path) -> None:
    code = ("import sys, pyasc_core.builtin_ops as b; b.all_ops(); "
            "bad = sorted(m for m in sys.modules if m.startswith('pyasc_core.testing')); "
            "assert not bad, bad")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)  # outside the checkout: the installed build
    assert done.returncode == 0, done.stderr


def test_the_testing_toolkit_re_exports_the_sample_types() -> None:
    import pyasc_core.samples as core

    for name in ("Sample", "SampleMaker", "SHAPES", "generic_samples", "schema_samples"):
        assert getattr(pyasc.testing, name) is getattr(core, name)
    assert pyasc.testing.sample_inputs is sample_inputs


def test_the_sim_dtype_table_is_derived_and_unchanged() -> None:
    ops = pytest.importorskip("pyasc_kernels")
    table = ops.supported()
    assert {k: set(v) for k, v in table.items()} == SIM_BEFORE
    assert ops.SUPPORTED == table
    assert set(table) == set(ops.all_kernels())


def test_the_sim_dtype_table_is_computed_once(monkeypatch) -> None:
    """Placement lookups (every dtype-error hint, ``pyasc ops``) reuse the table: deriving it calls
    every op's meta function, and recomputing it per lookup was half of ``pyasc check``'s CPU."""
    ops = pytest.importorskip("pyasc_kernels")
    ops.SUPPORTED  # noqa: B018 -- computed on first use
    calls = []
    real = ops.supported
    monkeypatch.setattr(ops, "supported", lambda: calls.append(1) or real())
    for _ in range(3):
        where = ops.placement_of("pyasc::add", "sim")
    assert where["float32"] == "AI Core"
    assert calls == []
    monkeypatch.delitem(vars(ops), "SUPPORTED")  # a fresh import: computed once, then kept
    ops.placement_of("pyasc::add", "sim")
    ops.placement_of("pyasc::exp", "sim")
    assert calls == [1]


def _fake_torch(calls: list) -> types.ModuleType:
    """A stand-in for torch that records what bench's torch column would call."""
    torch = types.ModuleType("torch")
    torch.bfloat16 = "bfloat16"
    torch.from_numpy = lambda a: types.SimpleNamespace(shape=a.shape)
    torch.add = lambda *args, **kw: calls.append(("add", args, kw))
    torch.nn = types.ModuleType("torch.nn")
    torch.nn.functional = types.ModuleType("torch.nn.functional")
    torch.nn.functional.silu = lambda *args: calls.append(("silu", args, {}))
    return torch


def test_bench_torch_column_reads_the_record(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list = []
    monkeypatch.setitem(sys.modules, "torch", _fake_torch(calls))
    torch_callable(bench_case("add", "float32", size=64))()
    torch_callable(bench_case("silu", "float32", size=64))()
    t64 = types.SimpleNamespace(shape=(64,))
    assert calls == [("add", (t64, t64), {}), ("silu", (t64,), {})]
    assert torch_callable(bench_case("cast", "float32", size=64)) is None  # torch=None on its record


@pytest.fixture
def recs_op():
    """An op defined with every optional fact through pyasc.library.define."""
    seen: list = []

    def samples(maker, dtype):
        rng = maker.rng(dtype)
        yield Sample((maker.array((5,), dtype, rng),), {"s": 3.0}, "five, s=3", dt.dtype_name(dtype))

    def bench(maker, dtype, size):
        return Sample((maker.array((size, 2), dtype, maker.rng(dtype, "bench")),), {}, f"({size}, 2)",
                      dt.dtype_name(dtype))

    def torch_equivalent(x, s=2.0):
        seen.append((x, s))

    handle = library.define(
        "recs::scale", "(Tensor x, *, float s=2.0) -> Tensor", dtypes=["float32"],
        meta=lambda x, s: x, reference=lambda x, s: x * s, sample_inputs=samples,
        bench_inputs=bench, flops=lambda sample: 7, torch=torch_equivalent)
    yield handle, seen
    library.PLUGIN.remove("recs::scale")


def test_define_puts_the_facts_on_the_record(recs_op, monkeypatch: pytest.MonkeyPatch) -> None:
    handle, seen = recs_op
    rec = REGISTRY.op("recs::scale")
    assert rec.sample_inputs is not None and rec.bench_inputs is not None and rec.flops is not None
    # the record's sample, then its attribute varied to three values (default, then the type's)
    assert [s.desc for s in sample_inputs("recs::scale")] == ["five, s=3", "five, s=3 [s=2.0]", "five, s=3 [s=0.5]"]
    case = bench_case("recs::scale", "float32", size=16)
    assert (case.desc, case.flops, case.metric) == ("(16, 2)", 7, "GFLOP/s")
    assert case.bytes_moved == 2 * 16 * 2 * 4
    monkeypatch.setitem(sys.modules, "torch", _fake_torch([]))
    torch_callable(case)()
    assert seen == [(types.SimpleNamespace(shape=(16, 2)), 2.0)]
    out = handle(pyasc.tensor(np.ones(2, np.float32), device="numpy"), s=3.0)
    np.testing.assert_array_equal(out.numpy(), [3.0, 3.0])  # the old parameters still work


def test_define_keeps_working_without_the_new_facts() -> None:
    library.define("recs::plain", "(Tensor x) -> Tensor", meta=lambda x: x, reference=lambda x: x + 1)
    try:
        rec = REGISTRY.op("recs::plain")
        assert (rec.sample_inputs, rec.bench_inputs, rec.flops, rec.torch) == (None, None, None, None)
        assert bench_case("recs::plain", "float32", size=8).desc == "(8,)"  # derived from the schema
    finally:
        library.PLUGIN.remove("recs::plain")


@pytest.mark.parametrize("field,value,words", [
    ("torch", 123, ("torch must name a torch function", "int 123")),
    ("torch", "", ("torch must name a torch function",)),
    ("bench_inputs", "big", ("bench_inputs must be a function", "str 'big'")),
    ("flops", 5, ("flops must be a function", "int 5")),
])
def test_bad_record_facts_are_refused(field: str, value: object, words: tuple[str, ...]) -> None:
    with pytest.raises(pyasc.OpRegistrationError) as info:
        OpDef("recs::bad", "(Tensor x) -> Tensor", meta=lambda x: x, reference=lambda x: x, **{field: value})
    for w in ("recs::bad", *words):
        assert w in str(info.value)


def test_bench_inputs_returning_a_non_sample_is_a_clear_error() -> None:
    library.define("recs::odd", "(Tensor x) -> Tensor", meta=lambda x: x, reference=lambda x: x,
                   bench_inputs=lambda maker, dtype, size: np.zeros(size))
    try:
        with pytest.raises(pyasc.OpRegistrationError, match=r"recs::odd: bench_inputs.*must return.*Sample.*ndarray"):
            bench_case("recs::odd", "float32", size=8)
    finally:
        library.PLUGIN.remove("recs::odd")


def test_the_example_pack_gives_its_facts_on_its_records(example_pack) -> None:
    REGISTRY.ensure()
    descs = [s.desc for s in sample_inputs("example::leaky_relu", dtypes=["float32"])]
    assert "negative_slope 0.2" in descs and "shape (33,)" in descs
    case = bench_case("example::scaled_add", "float32", size=64)
    assert case.desc == "(8, 8) + 0.5 * (8,)" and case.sample.kwargs == {"alpha": 0.5}
    assert REGISTRY.op("example::hardswish").torch == "nn.functional.hardswish"


def test_torch_equivalents_match_the_references() -> None:
    torch = pytest.importorskip("torch")
    for op in RECORDS:
        if op.torch is None:
            continue
        case = bench_case(op, "float32", size=256)
        got = torch_callable(case)()
        ref = op.caller(op.reference)(*[{**dict(zip([p.name for p in op.schema.params], case.sample.args)),
                                           **case.sample.kwargs}[p.name] for p in op.schema.params])
        got = (got.numpy() if isinstance(got, torch.Tensor) else np.asarray(got)).astype(np.float64)
        np.testing.assert_allclose(got, np.asarray(ref, dtype=np.float64), rtol=1e-4, atol=1e-4, err_msg=op.name)
