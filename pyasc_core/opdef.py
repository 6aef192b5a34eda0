"""OpDef and KernelDef: the records an op pack registers.

An OpDef is the one home of an op's facts (as torch's OpInfo): schema, dtypes, meta, reference,
sample inputs, benchmark inputs and the torch equivalent; every other table (the testing
toolkit's samples, ``pyasc bench``'s cases and torch column, the public op names) reads them here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from typing import Any

import attrs
import numpy as np

from . import dtypes as _dt
from .errors import DtypeError, OpRegistrationError, PyascError
from .schema import Schema, check_value

_NAME_RE = re.compile(r"^[A-Za-z_]\w*::[A-Za-z_]\w*$")


def _to_schema(value: Schema | str) -> Schema:
    return value if isinstance(value, Schema) else Schema.parse(value)


def check_op_name(name: str) -> str:
    if not isinstance(name, str) or not _NAME_RE.match(name):
        raise OpRegistrationError(
            f"op name {name!r} must be namespaced as 'namespace::name', e.g. 'mypack::gelu'"
        )
    return name


@attrs.define(eq=False)
class OpDef:
    """An op: namespaced name, schema, allowed dtypes, meta function, NumPy reference, composite.

    ``dtypes`` is either one collection (for every tensor input) or a mapping from input name to
    a collection, with ``"*"`` as the fallback. ``meta(*args)`` receives TensorMeta objects for
    tensors (and plain values otherwise) in schema order and returns TensorMeta(s); it touches no
    data; it may depend on the *types* of Tensor|Scalar arguments but not on their values (results
    are cached per argument signature). ``reference(*args)`` receives NumPy arrays and returns
    NumPy array(s). A composite op
    gives ``composite`` (a Python function built from other ops) instead of meta/reference.

    The testing facts travel on the same record: ``sample_inputs`` and ``special_values`` (what
    ``pyasc check`` runs), ``bench_inputs`` and ``flops`` (what ``pyasc bench`` times and how it
    counts work) and ``torch`` (the torch equivalent ``pyasc bench`` times beside it). Sample,
    SampleMaker and the schema-derived samples are in ``pyasc_core.samples`` (``pyasc.testing``).
    """

    name: str = attrs.field(validator=lambda _s, _a, v: check_op_name(v))
    schema: Schema = attrs.field(converter=_to_schema)
    dtypes: Any = _dt.ANY
    meta: Callable[..., Any] | None = None
    reference: Callable[..., Any] | None = None
    composite: Callable[..., Any] | None = None
    doc: str = ""
    mutates: tuple[str, ...] = ()
    #: who defined it: a distribution name, or 'module:<name>' for code outside any plugin
    source: str | None = None
    #: ``sample_inputs(maker, dtype)`` yields pyasc.testing Samples; None derives them from the schema
    sample_inputs: Callable[..., Any] | None = None
    #: whether samples with +-0, +-inf, NaN, denormals and huge values make sense for this op
    special_values: bool = True
    #: ``bench_inputs(maker, dtype, size)`` returns the benchmark call (a Sample) with about ``size``
    #: elements per tensor, or None for no benchmark in that dtype; None derives it from the schema
    #: (every tensor input of shape (size,), attributes at their defaults)
    bench_inputs: Callable[..., Any] | None = None
    #: ``flops(sample)``: the floating-point operations of a benchmark call, for ops timed in
    #: GFLOP/s (e.g. matmul); None times the op in GB/s (bytes moved)
    flops: Callable[..., Any] | None = None
    #: the same computation in torch (timed by ``pyasc bench`` when torch is installed): the name of
    #: a function in the torch namespace ("add", "nn.functional.silu") called with the sample's
    #: arguments (the ones that are None left out), or a function taking the sample's arguments
    #: with arrays as torch tensors; None when torch has no equivalent
    torch: str | Callable[..., Any] | None = None
    #: values of attributes worth checking, by attribute name (e.g. ``{"eps": (0.5, 4.0)}``):
    #: ``pyasc check`` samples every attribute over at least three values (its default, these,
    #: then values from its type), so a kernel that ignores an attribute somewhere is caught;
    #: declare values inside the op's domain where the type's own values would leave it
    attr_values: Mapping[str, Any] = attrs.field(factory=dict)
    #: the op's backward for its torch op (pyasc.torch.register): ``(backward, setup_context)`` in
    #: ``torch.library.register_autograd``'s form, written with pyasc ops; None: not differentiable
    autograd: tuple[Callable[..., Any], Callable[..., Any] | None] | None = None
    _allowed: dict[str, frozenset[np.dtype]] = attrs.field(init=False, factory=dict)

    def __attrs_post_init__(self) -> None:
        if self.composite is None and (self.meta is None or self.reference is None):
            raise OpRegistrationError(
                f"op {self.name} needs a meta function and a NumPy reference (or a composite body)"
            )
        for what in ("meta", "reference", "composite", "sample_inputs", "bench_inputs", "flops"):
            fn = getattr(self, what)
            if fn is not None and not callable(fn):
                raise OpRegistrationError(
                    f"op {self.name}: {what} must be a function, got {type(fn).__name__} {fn!r:.60}"
                )
        if self.torch is not None and not (callable(self.torch) or (isinstance(self.torch, str) and self.torch)):
            raise OpRegistrationError(
                f"op {self.name}: torch must name a torch function (e.g. 'add' or "
                f"'nn.functional.silu'), be a function, or be None; got {type(self.torch).__name__} "
                f"{self.torch!r:.60}"
            )
        if self.autograd is not None and not (
            isinstance(self.autograd, tuple) and len(self.autograd) == 2 and callable(self.autograd[0])
            and (self.autograd[1] is None or callable(self.autograd[1]))
        ):
            raise OpRegistrationError(
                f"op {self.name}: autograd must be (backward, setup_context) with callables (setup_context may "
                f"be None), got {self.autograd!r:.80}"
            )
        if not isinstance(self.doc, str):
            raise OpRegistrationError(f"op {self.name}: doc must be a string, got {type(self.doc).__name__}")
        if isinstance(self.mutates, str):
            self.mutates = (self.mutates,)
        if not isinstance(self.mutates, (tuple, list)) or not all(isinstance(m, str) for m in self.mutates):
            raise OpRegistrationError(
                f"op {self.name}: mutates must be a tuple of input names, got {self.mutates!r}; "
                "e.g. mutates=('out',)"
            )
        self.mutates = tuple(self.mutates)
        self.attr_values = self._check_attr_values(self.attr_values)
        spec: Mapping[str, Collection[Any]]
        if isinstance(self.dtypes, Mapping):
            spec = self.dtypes
        else:
            spec = {"*": self.dtypes}
        names = {p.name for p in self.schema.inputs}
        for key in spec:
            if key != "*" and key not in names:
                raise OpRegistrationError(
                    f"op {self.name}: dtypes names {key!r}, which is not a tensor input of {self.schema}"
                )
        fallback = self._dtype_set("*", spec.get("*", _dt.ANY))
        for p in self.schema.inputs:
            allowed = spec.get(p.name)
            self._allowed[p.name] = fallback if allowed is None else self._dtype_set(p.name, allowed)

    def _check_attr_values(self, given: Any) -> dict[str, tuple[Any, ...]]:
        if not isinstance(given, Mapping):
            raise OpRegistrationError(
                f"op {self.name}: attr_values must map attribute names to values, e.g. "
                f"{{'eps': (0.5, 4.0)}}, got {type(given).__name__} {given!r:.60}")
        attrs_by_name = {p.name: p for p in self.schema.params if not p.is_input}
        out: dict[str, tuple[Any, ...]] = {}
        for key, values in given.items():
            if key not in attrs_by_name:
                raise OpRegistrationError(
                    f"op {self.name}: attr_values names {key!r}, which is not an attribute of "
                    f"{self.schema} (attributes: {', '.join(attrs_by_name) or 'none'})")
            if isinstance(values, (str, bytes)) or not isinstance(values, Collection):
                values = (values,)
            try:
                out[key] = tuple(check_value(self.name, attrs_by_name[key], v) for v in values)
            except PyascError as exc:
                raise OpRegistrationError(f"op {self.name}: attr_values[{key!r}]: {exc}") from None
        return out

    def _dtype_set(self, key: str, values: Any) -> frozenset[np.dtype]:
        what = "dtypes" if key == "*" else f"dtypes[{key!r}]"
        if isinstance(values, (str, np.dtype, type)):
            values = (values,)  # one dtype given where a collection was expected
        try:
            return frozenset(_dt.as_dtype(d) for d in values)
        except (DtypeError, TypeError) as exc:
            raise OpRegistrationError(
                f"op {self.name}: {what} must be dtypes (e.g. [pyasc.float32, 'float16']), "
                f"got {values!r}: {exc}"
            ) from None

    @property
    def namespace(self) -> str:
        return self.name.split("::", 1)[0]

    @property
    def short_name(self) -> str:
        return self.name.split("::", 1)[1]

    @property
    def is_composite(self) -> bool:
        return self.composite is not None

    def allowed_dtypes(self, input_name: str) -> frozenset[np.dtype]:
        return self._allowed[input_name]

    def caller(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        """Adapt ``fn`` (written with the schema's signature) to take every argument positionally."""
        kw = tuple(p.name for p in self.schema.params if p.kw_only)
        if not kw:
            return fn
        npos = len(self.schema.params) - len(kw)

        def call(*args: Any) -> Any:
            return fn(*args[:npos], **dict(zip(kw, args[npos:])))

        return call

    @property
    def all_dtypes(self) -> frozenset[np.dtype]:
        """Every dtype some tensor input accepts."""
        out: frozenset[np.dtype] = frozenset()
        for v in self._allowed.values():
            out |= v
        return out


@attrs.define(eq=False)
class KernelDef:
    """A kernel of an op on one backend, as registered by a plugin."""

    op: str = attrs.field(validator=lambda _s, _a, v: check_op_name(v))
    backend: str = attrs.field(validator=lambda _s, _a, v: _check_backend_name(v))
    fn: Callable[..., Any] = attrs.field(validator=lambda s, _a, v: _check_kernel_fn(s, v))
    source: str | None = None


def _check_backend_name(name: Any) -> None:
    if not isinstance(name, str) or not name:
        raise OpRegistrationError(
            f"a kernel's backend must be a backend name such as 'numpy' or 'sim', got "
            f"{type(name).__name__} {name!r}"
        )


def _check_kernel_fn(k: Any, fn: Any) -> None:
    if not callable(fn):
        raise OpRegistrationError(
            f"the kernel of {k.op} on {k.backend!r} must be a function fn(out_meta, *args), got "
            f"{type(fn).__name__} {fn!r:.60}"
        )
