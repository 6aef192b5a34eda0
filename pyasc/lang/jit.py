"""``@pyasc.jit``: a Python kernel becomes Ascend C source, one ``pyasc.Kernel`` per specialisation.

A launch ``vadd[8](x, y, z, n, tile)`` specialises on the tensors' dtypes, the scalars' C++ types,
the values of ``asc.constexpr`` parameters and of the module constants the kernel reads
(``BUFFER_NUM``); each specialisation is translated once (cached by source hash + specialisation)
and launched through the same ``pyasc.Kernel`` path as C++ kernels."""

from __future__ import annotations

import ast
import hashlib
import inspect
import os
import textwrap
import threading
from typing import Any

import numpy as np

from pyasc_core.errors import ArgumentError, PyascError
from pyasc_core.kernel import Kernel, _Launcher
from pyasc_core.tensor import Tensor
from pyasc_core.tiling import Array, CType, TilingStruct

from . import dtypes as dt
from . import ktypes as kt
from .api import ApiObject
from .documented import DOCUMENTED_ONLY_FLAGS, check_documented, hidden_name_error
from .errors import CompileError
from .table import STRUCT_FIELDS
from .translate import FunctionTranslator, Module, V, c_string, literal

#: k[blocks, stream] checked as C++ kernels check it (a Kernel object never compiled)
_CHECK = Kernel("/* pyasc.jit launch checks */\n", "check")

#: every specialisation translated in this process: (source hash, specialisation) -> Kernel
_CACHE: dict[Any, Kernel] = {}
_LOCK = threading.Lock()


def _struct_def(cls: type, seen: dict[str, str]) -> None:
    """C++ definition of a TilingStruct (nested structs first) into ``seen``."""
    if cls.cpp_name in seen:
        return
    lines = []
    for f in cls.layout():
        t = f.type
        if isinstance(t, Array):
            item = t.item
            if not isinstance(item, CType):
                _struct_def(item, seen)
            lines.append(f"    {item.name if isinstance(item, CType) else item.cpp_name} {f.name}[{t.length}];")
        elif isinstance(t, CType):
            lines.append(f"    {t.name} {f.name};")
        else:
            _struct_def(t, seen)
            lines.append(f"    {t.cpp_name} {f.name};")
    seen[cls.cpp_name] = f"struct {cls.cpp_name} {{\n" + "\n".join(lines) + "\n};"


def _struct_type(cls: type) -> kt.Struct:
    fields = tuple((f.name, kt.Scalar(f.type.name)) for f in cls.layout() if isinstance(f.type, CType))
    return kt.Struct(cls.cpp_name, fields)


class JitFunction:
    """A ``@pyasc.jit`` function: a kernel (``k[blocks](...)``) or, called from a kernel, a helper
    emitted as an ``__aicore__ inline`` function."""

    def __init__(self, fn: Any, *, documented_only: bool | None = None) -> None:
        if not inspect.isfunction(fn):
            raise ArgumentError(f"@pyasc.jit decorates a Python function, got {type(fn).__name__} {fn!r:.60}")
        self.fn = fn
        self.__name__ = fn.__name__
        self.__doc__ = fn.__doc__
        self.__wrapped__ = fn
        self.documented_only = documented_only
        self._tree: ast.FunctionDef | None = None
        self._kernels: dict[Any, list[tuple[tuple[tuple[dict[str, Any], str, Any], ...], Kernel]]] = {}
        self._lock = threading.Lock()
        self._launchers: dict[Any, _JitLauncher] = {}

    def __repr__(self) -> str:
        return f"<pyasc.jit {self.__name__} of {self.filename}>"

    # -- the source ---------------------------------------------------------------------------
    @property
    def filename(self) -> str:
        return os.path.abspath(inspect.getsourcefile(self.fn) or "<unknown>")

    def tree(self) -> ast.FunctionDef:
        if self._tree is None:
            try:
                lines, first = inspect.getsourcelines(self.fn)
            except OSError as exc:
                raise CompileError(f"cannot read the source of {self.__name__} ({exc}); define kernels in a file") \
                    from None
            text = textwrap.dedent("".join(lines))
            tree = ast.parse(text)
            ast.increment_lineno(tree, first - 1)
            fn = tree.body[0]
            if not isinstance(fn, ast.FunctionDef):
                raise CompileError(f"{self.__name__} is not a plain function", self.filename, first)
            a = fn.args
            if a.vararg or a.kwarg or a.kwonlyargs or a.defaults or a.posonlyargs:
                raise CompileError(f"a kernel's parameters are plain positional names (no *args, **kwargs, "
                                   f"defaults or keyword-only ones): {self.__name__}", self.filename, fn.lineno)
            self.source_hash = hashlib.sha256(text.encode()).hexdigest()[:16]
            self._tree = fn
        return self._tree

    @property
    def params(self) -> list[str]:
        return [a.arg for a in self.tree().args.args]

    def annotations(self) -> dict[str, Any]:
        out = {}
        for k, v in getattr(self.fn, "__annotations__", {}).items():
            if isinstance(v, str):
                try:
                    v = eval(v, self.fn.__globals__)  # noqa: S307  (the kernel's own annotation)
                except Exception:
                    continue
            out[k] = v
        return out

    # -- specialisation ------------------------------------------------------------------------
    def _param_value(self, name: str, ann: Any, arg: Any, module: Module) -> V:
        """The kernel parameter ``name`` for the launch argument ``arg``: a runtime V or a constant."""
        if ann is dt.constexpr:
            if isinstance(arg, (bool, int, float)):
                return literal(arg)
            if isinstance(arg, dt.DType):
                return V(repr(arg), None, arg)
            raise ArgumentError(f"{self.__name__}: the constexpr parameter {name} takes a number or an asc element "
                                f"type, got {type(arg).__name__} {arg!r:.60}")
        if isinstance(arg, dt.DType) or isinstance(arg, Tensor) or hasattr(arg, "__dlpack__"):
            d = arg if isinstance(arg, dt.DType) else _dtype_of(arg)
            if ann not in (None, dt.GlobalAddress):
                raise ArgumentError(f"{self.__name__}: {name} is annotated {ann!r} and got a tensor")
            return V(name, kt.GMAddr(d))
        if isinstance(arg, TilingStruct) or (isinstance(arg, type) and issubclass(arg, TilingStruct)):
            cls = arg if isinstance(arg, type) else type(arg)
            return V(name, _struct_type(cls))
        if isinstance(ann, ApiObject) and ann.api.kind == "struct":  # a kernel API struct (TCubeTiling) by value
            if not isinstance(arg, (bytes, bytearray)) and not hasattr(arg, "__pyasc_struct__"):
                raise ArgumentError(f"{self.__name__}: {name} is an {ann.api.cpp} passed by value: pass its bytes "
                                    f"(e.g. pyasc_sim.hl_tiling.matmul_tiling(...).to_bytes()), got {type(arg).__name__}")
            fields = tuple((f, kt.INT32) for f in STRUCT_FIELDS.get(ann.api.cpp, ()))
            if ann.api.include:
                module.includes.add(ann.api.include)
            return V(name, kt.Struct(ann.api.spelled, fields))
        if ann is dt.GlobalAddress:
            raise ArgumentError(f"{self.__name__}: {name} is an asc.GlobalAddress: pass a tensor, got "
                                f"{type(arg).__name__} {arg!r:.60}")
        if arg in (int, float, bool):
            arg = arg()
        if isinstance(arg, (bool, int, float, np.generic)):
            try:
                t = kt.scalar_of(arg)
            except KeyError:
                raise ArgumentError(f"{self.__name__}: {name} = {arg!r}: a scalar kernel argument is a bool, int, "
                                    "float or NumPy number") from None
            if ann is int and t.is_float or ann is float and not t.is_float:
                raise ArgumentError(f"{self.__name__}: {name} is annotated {ann.__name__} and got {arg!r:.60}")
            if ann is float:
                t = kt.FLOAT
            return V(name, t)
        raise ArgumentError(f"{self.__name__}: {name} got {type(arg).__name__} {arg!r:.60}; kernel arguments are "
                            "tensors, numbers, asc.constexpr values and pyasc.TilingStruct instances")

    def _key(self, args: tuple[Any, ...]) -> tuple[Any, ...]:
        """The specialisation of a launch: dtypes of tensors, C++ types of scalars, constexpr values
        (the common types first: this runs at every launch)."""
        ce = self._ce
        if ce is None:
            ce = self._ce = frozenset(self._constexprs())
        if ce:
            return tuple(self._key_item(i, a, ce) for i, a in enumerate(args))
        out = []
        for a in args:
            t = type(a)
            if t is Tensor:
                out.append(a.dtype)
            elif t is int:
                out.append(int if -2147483648 <= a <= 2147483647 else "int64")
            elif t is float:
                out.append(float)
            else:
                out.append(self._key_item(-1, a, ce))
        return tuple(out)

    @staticmethod
    def _key_item(i: int, a: Any, ce: frozenset[int]) -> Any:
        if i in ce:
            return ("constexpr", type(a), a)
        if isinstance(a, Tensor):
            return a.dtype
        if isinstance(a, bool):
            return bool
        if isinstance(a, int):
            return int if -2**31 <= a < 2**31 else "int64"
        if isinstance(a, float):
            return float
        if isinstance(a, dt.DType):
            return a
        if hasattr(a, "__dlpack__"):  # another framework's tensor: launched through pyasc.from_dlpack
            return ("dlpack", _dtype_of(a))
        return (type(a), getattr(a, "dtype", None))

    _ce: frozenset[int] | None = None

    def _constexprs(self) -> list[int]:
        ann = self.annotations()
        return [i for i, p in enumerate(self.params) if ann.get(p) is dt.constexpr]

    def translate(self, args: tuple[Any, ...]) -> tuple[str, Module, list[type]]:
        """The generated source for these launch arguments (tensors or asc element types, numbers)."""
        tree = self.tree()
        params = self.params
        if len(args) != len(params):
            raise ArgumentError(f"{self.__name__} takes {len(params)} arguments ({', '.join(params)}), got "
                                f"{len(args)}")
        ann = self.annotations()
        module = Module()
        tr = FunctionTranslator(self.fn, tree, self.filename, module)
        plist, structs = [], []
        for p, a in zip(params, args):
            v = self._param_value(p, ann.get(p), a, module)
            tr.bind_param(p, v)
            if not v.is_const:
                if isinstance(v.type, kt.Struct):
                    cls = a if isinstance(a, type) else type(a)
                    if issubclass(cls, TilingStruct):  # defined by the generated source (kernel API structs are not)
                        structs.append(cls)
                plist.append(f"{v.type} {p}")
        tr.body(tree.body, ())
        seen: dict[str, str] = {}
        for cls in structs:
            _struct_def(cls, seen)
        head = [f"// Generated by @pyasc.jit from {self.filename} ({self.__name__}); Ascend C that the simulator "
                "and CANN compile.", '#include "kernel_operator.h"', *(f'#include "{h}"' for h in sorted(module.includes)), ""]
        head += [*seen.values(), ""] if seen else []
        head += module.helper_text
        text = "\n".join(head + [f'#line {tree.lineno} "{c_string(self.filename)}"',
                                 f'extern "C" __global__ __aicore__ void {self.__name__}({", ".join(plist)})', "{",
                                 *tr.render(), "}", ""])
        return text, module, structs

    def source(self, *args: Any) -> str:
        """The Ascend C source generated for these arguments (tensors, or asc element types for
        ``asc.GlobalAddress`` parameters; numbers or ``int``/``float`` for scalars)."""
        return self.translate(tuple(args))[0]

    def specialize(self, *args: Any) -> Kernel:
        """The ``pyasc.Kernel`` of this function for these launch arguments (translated once)."""
        key = self._key(args)
        entries = self._kernels.get(key)
        if entries is not None:
            for snapshot, kernel in entries:  # the module constants the translation read, unchanged
                if not snapshot or all(g.get(n) == v for g, n, v in snapshot):
                    return kernel
        return self._compile(args, key)

    def _compile(self, args: tuple[Any, ...], key: tuple[Any, ...]) -> Kernel:
        with self._lock:
            text, module, structs = self.translate(tuple(args))
            documented_only = self.documented_only
            if documented_only is None:
                documented_only = os.environ.get("PYASC_JIT_DOCUMENTED_ONLY", "") not in ("", "0")
            if documented_only:
                check_documented(text, self.__name__)  # the first undocumented name, at its Python line
            snapshot = tuple((g, n, v) for (_, n), (g, v) in module.globals_used.items())
            ck = (self.source_hash, self.__name__, text, bool(documented_only))
            with _LOCK:
                kernel = _CACHE.get(ck)
                if kernel is None:
                    flags = DOCUMENTED_ONLY_FLAGS if documented_only else ()
                    kernel = _CACHE[ck] = Kernel(text, self.__name__, structs=tuple(structs), extra_flags=flags)
            if documented_only:  # compiled now against the headers with every undocumented name hidden
                try:
                    kernel.compile("sim")
                except PyascError as exc:
                    err = hidden_name_error(exc, self.__name__)
                    if err is None:
                        raise
                    raise err from exc
            self._kernels.setdefault(key, []).append((snapshot, kernel))
        return kernel

    def runtime_args(self, args: tuple[Any, ...]) -> tuple[Any, ...]:
        ce = self._ce
        return tuple(a for i, a in enumerate(args) if i not in ce) if ce else args

    def __getitem__(self, key: Any) -> _JitLauncher:
        try:
            hit = self._launchers.get(key)
        except TypeError:  # unhashable: let Kernel's checks say what is wrong
            hit = None
        if hit is None:
            launcher = _CHECK[key]  # Kernel's own checks of blocks and stream (the same messages)
            hit = _JitLauncher(self, launcher.blocks, launcher.stream)
            if len(self._launchers) < 64:
                self._launchers[key] = hit
        return hit

    def __call__(self, *args: Any) -> Any:
        raise CompileError(f"{self.__name__} is a @pyasc.jit kernel: launch it as {self.__name__}[blocks](...) "
                           "(or call it from another @pyasc.jit function)")

    # -- as a helper -----------------------------------------------------------------------------
    def emit_helper(self, module: Module, args: list[V], error: Any, line: int) -> tuple[str, Any]:
        """Emit this function as an ``__aicore__ inline`` helper for these argument values; returns
        (its C++ name, its return type)."""
        tree = self.tree()
        params = self.params
        if len(args) != len(params):
            raise error(f"{self.__name__} takes {len(params)} arguments, got {len(args)}", line)
        key = (id(self), tuple((a.const if a.is_const and not isinstance(a.type, kt.Scalar) else str(a.type))
                               for a in args))
        if key in module.in_progress:
            raise error(f"{self.__name__} calls itself: recursion is not supported in a kernel", line)
        if key in module.helpers:
            return module.helpers[key]
        module.in_progress.add(key)
        tr = FunctionTranslator(self.fn, tree, self.filename, module)
        plist = []
        for p, a in zip(params, args):
            if a.is_const and not isinstance(a.type, kt.Scalar):
                tr.bind_param(p, a)
                continue
            t = a.type
            if isinstance(t, kt.GMAddr) and not t.typed:
                t = kt.GMAddr(t.dtype, True)
            tr.bind_param(p, V(p, t))
            plist.append(f"{t} &{p}" if isinstance(t, kt.Obj) else f"{t} {p}")
        tr.body(tree.body, ())
        ret = tr.returns[0] if tr.returns else kt.Scalar("void")
        for r in tr.returns[1:]:
            ret = kt.join(ret, r) if isinstance(ret, kt.Scalar) and isinstance(r, kt.Scalar) else ret
        taken = {n for n, _ in module.helpers.values()}
        name, n = self.__name__, 0
        while name in taken:  # another specialisation, or another helper of the same name
            n += 1
            name = f"{self.__name__}_{n}"
        module.helper_text += [f'#line {tree.lineno} "{c_string(self.filename)}"',
                               f"__aicore__ inline {ret} {name}({', '.join(plist)})", "{", *tr.render(), "}", ""]
        module.in_progress.discard(key)
        module.helpers[key] = (name, ret)
        return name, ret


def _dtype_of(arg: Any) -> dt.DType:
    try:
        if not isinstance(arg, Tensor) and hasattr(arg, "__dlpack__"):
            from pyasc_core.interop import from_dlpack
            arg = from_dlpack(arg)
        return dt.from_numpy(arg.dtype)
    except (KeyError, TypeError, AttributeError):
        raise ArgumentError(f"a kernel tensor argument has an element type kernels take ({', '.join(d.name for d in dt.ALL)}), "
                            f"got {getattr(arg, 'dtype', None)!r}") from None


class _JitLauncher:
    """``fn[blocks, stream]``: finds the launch's specialisation, then launches it as C++ kernels
    launch (``pyasc.Kernel``'s launcher, kept for the last kernel launched)."""

    __slots__ = ("fn", "blocks", "stream", "_last")

    def __init__(self, fn: JitFunction, blocks: Any, stream: Any) -> None:
        self.fn, self.blocks, self.stream = fn, blocks, stream
        self._last: tuple[Any, Any] = (None, None)  # (kernel, its launcher): one attribute, replaced whole

    def __call__(self, *args: Any) -> None:
        fn = self.fn
        kernel = fn.specialize(*args)
        last = self._last
        if last[0] is not kernel:
            last = self._last = (kernel, _Launcher(kernel, self.blocks, self.stream))
        last[1](*(fn.runtime_args(args) if fn._ce else args))


def jit(fn: Any = None, *, documented_only: bool | None = None) -> Any:
    """Decorate a Python kernel (``@pyasc.jit``) or helper; ``documented_only=True`` refuses generated
    source using Ascend C names the public reference does not document -- a token scan, then a
    simulator compile with ``-DPYASC_SIM_DOCUMENTED_ONLY=1`` (headers hiding every undocumented name)
    at specialisation (default: the ``PYASC_JIT_DOCUMENTED_ONLY`` environment variable)."""
    if fn is None:
        return lambda f: JitFunction(f, documented_only=documented_only)
    return JitFunction(fn, documented_only=documented_only)
