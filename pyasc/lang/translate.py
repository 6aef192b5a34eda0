"""Python kernel AST -> Ascend C: one C++ statement per Python statement, each after a ``#line``
directive naming the Python file and line, types inferred as the statements are read.

Integer ``//`` and ``%`` are C++'s (they truncate toward zero), as on the NPU; ``/`` is a float
division; a name keeps one kind of value (an integer variable may widen, not become a float)."""

from __future__ import annotations

import ast
import builtins
import types as _pytypes
from dataclasses import dataclass
from typing import Any, Callable

from . import dtypes as dt
from . import ktypes as kt
from .api import ApiEnum, ApiObject, EnumMember, TypeArg
from .errors import CompileError
from .scopes import declaration_blocks
from .table import METHODS, Api

_NOCONST = object()

_BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "/", ast.Mod: "%",
           ast.LShift: "<<", ast.RShift: ">>", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^"}
def _cdiv(a: Any, b: Any) -> Any:
    """C++'s integer division (toward zero): ``//`` and ``%`` are folded as the kernel computes them."""
    if isinstance(a, float) or isinstance(b, float):
        raise ZeroDivisionError if b == 0 else TypeError("// on floats")
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


#: C++ precedence of the binary operators (higher binds tighter)
_PREC = {"*": 13, "/": 13, "%": 13, "+": 12, "-": 12, "<<": 11, ">>": 11, "<": 10, "<=": 10, ">": 10, ">=": 10,
         "==": 9, "!=": 9, "&": 8, "^": 7, "|": 6, "&&": 5, "||": 4, "?:": 3}
_CMPOPS = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}
_PYOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b, ast.FloorDiv: lambda a, b: _cdiv(a, b), ast.Mod: lambda a, b: a - b * _cdiv(a, b),
    ast.LShift: lambda a, b: a << b, ast.RShift: lambda a, b: a >> b, ast.BitAnd: lambda a, b: a & b,
    ast.BitOr: lambda a, b: a | b, ast.BitXor: lambda a, b: a ^ b}

#: what an unsupported node is called in messages
_CONSTRUCTS = {
    "List": "a list literal", "Dict": "a dict literal", "Set": "a set literal", "ListComp": "a list comprehension",
    "DictComp": "a dict comprehension", "SetComp": "a set comprehension", "GeneratorExp": "a generator expression",
    "Lambda": "a lambda", "JoinedStr": "an f-string", "Starred": "a starred expression", "NamedExpr":
    "an assignment expression (:=)", "Await": "await", "Yield": "yield", "YieldFrom": "yield from",
    "Try": "try/except", "With": "a with statement", "Raise": "raise", "Assert": "assert", "Delete": "del",
    "Import": "import", "ImportFrom": "import", "Global": "global", "Nonlocal": "nonlocal",
    "FunctionDef": "a nested function", "ClassDef": "a class definition", "AsyncFunctionDef": "an async function",
    "AsyncFor": "async for", "AsyncWith": "async with", "Match": "match", "TryStar": "try/except*",
}


@dataclass
class V:
    """A value while translating: its C++ ``code``, inferred ``type`` and, for a compile-time value
    (a constant, a dtype, an enum member, an API name), ``const``."""

    code: str
    type: Any
    const: Any = _NOCONST
    prec: int = 16  # C++ precedence of the code's outermost operator (16: an atom, a call, a cast)

    @property
    def is_const(self) -> bool:
        return self.const is not _NOCONST


class Var:
    """A C++ local: its declared type may widen (scalars) or be fixed later (GlobalTensor's T)."""

    def __init__(self, name: str, type_: Any, line: int) -> None:
        self.name, self.type, self.line = name, type_, line


class Decl:
    """A declaration rendered once the function is read (types known): ``T name;``/``T name = init;``."""

    def __init__(self, var: Var, init: str | None, indent: str, fail: Callable[..., Exception]) -> None:
        self.var, self.init, self.indent, self.fail = var, init, indent, fail

    def render(self) -> str:
        t = self.var.type
        if isinstance(t, kt.GlobalTensorT) and t.dtype is None:
            raise self.fail(f"the element type of {self.var.name} is never set: call "
                            f"{self.var.name}.set_global_buffer(...) or write asc.GlobalTensor(asc.float32)",
                            self.var.line)
        return f"{self.indent}{t} {self.var.name}{'' if self.init is None else ' = ' + self.init};"


def c_string(text: str) -> str:
    """``text`` inside a C string literal (a #line file name)."""
    return text.replace("\\", "\\\\").replace('"', '\\"')


def literal(value: Any) -> V:
    if isinstance(value, bool):
        return V("true" if value else "false", kt.BOOL, value)
    if isinstance(value, int):
        t = kt.scalar_of(value)
        return V(str(value) if t is kt.INT32 else f"{value}LL", t, value)
    if isinstance(value, float):
        r = repr(value)
        if r in ("inf", "-inf", "nan"):
            raise CompileError(f"the float constant {r} has no literal in a kernel")
        if "e" not in r and "." not in r:
            r += ".0"
        return V(r + "f", kt.FLOAT, value)
    raise TypeError(value)


class Module:
    """The translation unit: helper functions (``__aicore__ inline``) and struct definitions
    emitted before the kernel; ``globals_used`` records module constants baked in."""

    def __init__(self) -> None:
        self.helpers: dict[Any, str] = {}  # key -> C++ name
        self.helper_text: list[str] = []
        self.globals_used: dict[tuple[int, str], tuple[dict[str, Any], Any]] = {}  # -> (module dict, value)
        self.in_progress: set[Any] = set()
        self.includes: set[str] = set()  # SDK headers beyond kernel_operator.h (lib/matmul_intf.h)


class FunctionTranslator:
    """Translates one function (the kernel or a helper) given its parameters' values."""

    def __init__(self, fn: Any, tree: ast.FunctionDef, filename: str, module: Module) -> None:
        self.fn, self.tree, self.filename, self.module = fn, tree, filename, module
        self.globals = fn.__globals__
        self.vars: dict[str, Var] = {}
        self.consts: dict[str, V] = {}
        self.out: list[Any] = []
        self.hoisted: list[Any] = []
        self.indent = ""
        self.blocks = declaration_blocks(tree)
        self.path: tuple[int, ...] = ()
        self.line = tree.lineno
        self.returns: list[Any] = []
        self.temp = 0

    # -- errors ------------------------------------------------------------------------------
    def error(self, message: str, line: int | None = None) -> CompileError:
        return CompileError(message, self.filename, line or self.line)

    def unsupported(self, node: ast.AST, what: str | None = None) -> CompileError:
        name = what or _CONSTRUCTS.get(type(node).__name__, f"the construct {type(node).__name__}")
        return self.error(f"{name} is not supported in a @pyasc.jit kernel (supported: assignments, arithmetic, "
                          "comparisons, for-range, while, if/elif/else, calls of asc.* and @pyasc.jit helpers, "
                          "tuple unpacking, tensor slicing x[off:])", getattr(node, "lineno", None))

    # -- emission ----------------------------------------------------------------------------
    def emit(self, text: str) -> None:
        self.out.append(self.indent + text)

    def line_directive(self, node: ast.AST) -> None:
        self.line = node.lineno
        self.out.append(f'#line {node.lineno} "{c_string(self.filename)}"')

    def body(self, stmts: list[ast.stmt], path: tuple[int, ...]) -> None:
        saved, self.path = self.path, path
        self.indent += "    "
        for s in stmts:
            self.stmt(s)
        self.indent = self.indent[:-4]
        self.path = saved

    def render(self) -> list[str]:
        return [x.render() if isinstance(x, Decl) else x for x in self.hoisted + self.out]

    # -- names -------------------------------------------------------------------------------
    def bind_param(self, name: str, value: V) -> None:
        if value.is_const:
            self.consts[name] = value
        else:
            self.vars[name] = Var(name, value.type, self.tree.lineno)

    def assign_name(self, name: str, value: V, node: ast.AST) -> None:
        if name in self.consts:
            raise self.error(f"{name} is a compile-time parameter or value; it cannot be assigned", node.lineno)
        if value.is_const and not isinstance(value.type, kt.Scalar):
            if name in self.vars:
                raise self.error(f"{name} holds a {self.vars[name].type} and cannot become {value.const!r}",
                                 node.lineno)
            self.consts[name] = value  # a dtype, an enum member, an API name: an alias
            return
        if isinstance(value.type, kt.GMAddr) and not value.type.typed:
            value = self.typed_ptr(value)
        var = self.vars.get(name)
        if var is None:
            var = self.vars[name] = Var(name, value.type, node.lineno)
            if self.blocks.get(name, ()) == self.path:
                self.out.append(Decl(var, value.code, self.indent, self.error))
            else:
                self.hoisted.append(Decl(var, None, "    ", self.error))
                self.emit(f"{name} = {value.code};")
            return
        self.check_assign(var, value, node)
        self.emit(f"{name} = {value.code};")

    def check_assign(self, var: Var, value: V, node: ast.AST) -> None:
        if isinstance(var.type, kt.Scalar) and isinstance(value.type, kt.Scalar):
            if var.type.is_float != value.type.is_float and not var.type.is_float:
                raise self.error(f"{var.name} is {var.type} (an integer) and is assigned a {value.type} value: "
                                 f"a kernel variable keeps one type; use a new name or int(...)", node.lineno)
            var.type = kt.join(var.type, value.type) if var.type.is_float == value.type.is_float else var.type
        elif var.type != value.type:
            raise self.error(f"{var.name} is {var.type} and is assigned a {value.type} value: a kernel variable "
                             "keeps one type; use a new name", node.lineno)

    def name(self, node: ast.Name) -> V:
        n = node.id
        if n in self.consts:
            return self.consts[n]
        if n in self.vars:
            return V(n, self.vars[n].type)
        if n in self.globals:
            obj = self.globals[n]
        elif hasattr(builtins, n):
            obj = getattr(builtins, n)
            if obj not in (range, int, float):
                raise self.error(f"calling {n} (a Python builtin) is not supported in a @pyasc.jit kernel; kernels "
                                 "use range, int(), float(), asc.* names and @pyasc.jit helpers", node.lineno)
        else:
            raise self.error(f"name {n!r} is not defined", node.lineno)
        if isinstance(obj, (bool, int, float)):
            self.module.globals_used[(id(self.globals), n)] = (self.globals, obj)
        return self.compile_time(obj, n, node)

    def compile_time(self, obj: Any, what: str, node: ast.AST) -> V:
        if isinstance(obj, (bool, int, float)):
            return literal(obj)
        from .jit import JitFunction
        from pyasc_core.tiling import TilingStruct
        if isinstance(obj, (_pytypes.ModuleType, ApiObject, EnumMember, dt.DType, JitFunction, TypeArg)) or obj in (
                range, int, float) or (isinstance(obj, type) and issubclass(obj, TilingStruct)):
            api = obj.api if isinstance(obj, ApiObject) else obj.enum if isinstance(obj, EnumMember) else None
            if api is not None and api.include:
                self.module.includes.add(api.include)
            return V(what, None, obj)
        raise self.error(f"{what} is a {type(obj).__name__}, which a kernel cannot use (kernels use numbers, "
                         "asc.* names, element types and @pyasc.jit helpers)", node.lineno)

    # -- statements --------------------------------------------------------------------------
    def stmt(self, s: ast.stmt) -> None:
        if isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str):
            return  # a docstring
        self.line_directive(s)
        meth = getattr(self, "s_" + type(s).__name__, None)
        if meth is None:
            raise self.unsupported(s)
        meth(s)

    def s_Pass(self, s: ast.Pass) -> None:
        self.emit(";")

    def s_Break(self, s: ast.Break) -> None:
        self.emit("break;")

    def s_Continue(self, s: ast.Continue) -> None:
        self.emit("continue;")

    def s_Expr(self, s: ast.Expr) -> None:
        v = self.expr(s.value)
        if v.is_const:
            return
        self.emit(v.code + ";")

    def s_Return(self, s: ast.Return) -> None:
        if s.value is None:
            self.emit("return;")
            return
        if isinstance(s.value, ast.Tuple):
            raise self.unsupported(s, "returning a tuple")
        v = self.expr(s.value)
        if isinstance(v.type, (kt.Obj, kt.GMAddr)) or v.type is None:
            raise self.error(f"a helper returns numbers or tensors, not {v.code}", s.lineno)
        self.returns.append(v.type)
        self.emit(f"return {v.code};")

    def s_Assign(self, s: ast.Assign) -> None:
        if len(s.targets) != 1:
            raise self.unsupported(s, "a chained assignment (a = b = ...)")
        self.assign(s.targets[0], s.value, s)

    def s_AnnAssign(self, s: ast.AnnAssign) -> None:
        if s.value is None:
            raise self.unsupported(s, "a declaration without a value")
        self.assign(s.target, s.value, s)

    def assign(self, target: ast.expr, value: ast.expr, s: ast.stmt) -> None:
        if isinstance(target, ast.Name):
            if isinstance(value, ast.Call):
                obj = self.constructed(value)
                if obj is not None:
                    return self.declare_object(target.id, obj, value, s)
            return self.assign_name(target.id, self.expr(value), s)
        if isinstance(target, ast.Tuple):
            return self.unpack(target, value, s)
        if isinstance(target, ast.Attribute):
            base = self.expr(target.value)
            if not isinstance(base.type, kt.Struct):
                raise self.unsupported(s, f"assigning to the attribute {target.attr} of {base.code}")
            v = self.expr(value)
            self.emit(f"{base.code}.{target.attr} = {v.code};")
            return
        if isinstance(target, ast.Subscript):
            raise self.unsupported(s, "assigning to a subscript (use x.set_value(i, v))")
        raise self.unsupported(s)

    def unpack(self, target: ast.Tuple, value: ast.expr, s: ast.stmt) -> None:
        if any(not isinstance(t, ast.Name) for t in target.elts):
            raise self.unsupported(s, "unpacking into something other than names")
        if isinstance(value, ast.Tuple):
            vals = [self.expr(e) for e in value.elts]
        else:
            v = self.expr(value)
            if not (v.is_const and isinstance(v.const, tuple)):
                raise self.unsupported(s, "unpacking a value that is not a tuple")
            vals = [literal(x) for x in v.const]
        if len(vals) != len(target.elts):
            raise self.error(f"cannot unpack {len(vals)} values into {len(target.elts)} names", s.lineno)
        temps = []
        for v in vals:  # evaluate every right-hand side first (a, b = b, a)
            if v.is_const or isinstance(v.type, kt.Obj):
                temps.append(v)
                continue
            self.temp += 1
            tmp = f"_t{self.temp}"
            self.emit(f"{v.type} {tmp} = {v.code};")
            temps.append(V(tmp, v.type))
        for t, v in zip(target.elts, temps):
            self.assign_name(t.id, v, s)

    def s_AugAssign(self, s: ast.AugAssign) -> None:
        if not isinstance(s.target, (ast.Name, ast.Attribute)):
            raise self.unsupported(s, "augmented assignment to a subscript")
        cur = self.expr(s.target)
        rhs = self.expr(s.value)
        op = type(s.op)
        if op not in _BINOPS:
            raise self.unsupported(s, f"the operator {type(s.op).__name__}=")
        res = self.binop(cur, rhs, s.op, s)
        if isinstance(s.target, ast.Name) and s.target.id in self.vars:
            self.check_assign(self.vars[s.target.id], res, s)
        if op is ast.Div and not cur.type.is_float:
            raise self.error(f"{cur.code} /= ... makes a float of the integer {cur.code}; use //=", s.lineno)
        self.emit(f"{cur.code} {_BINOPS[op]}= {rhs.code};")

    def s_If(self, s: ast.If, chained: bool = False) -> None:
        cond = self.expr(s.test)
        self.emit(f"{'} else if' if chained else 'if'} ({cond.code}) {{")
        self.body(s.body, self.path + (id(s.body),))
        orelse = s.orelse
        if len(orelse) == 1 and isinstance(orelse[0], ast.If):  # elif: } else if (...) {
            saved, self.path = self.path, self.path + (id(orelse),)
            self.line_directive(orelse[0])
            self.s_If(orelse[0], chained=True)
            self.path = saved
            return
        if orelse:
            self.emit("} else {")
            self.body(orelse, self.path + (id(orelse),))
        self.emit("}")

    def s_While(self, s: ast.While) -> None:
        if s.orelse:
            raise self.unsupported(s, "while ... else")
        cond = self.expr(s.test)
        self.emit(f"while ({cond.code}) {{")
        self.body(s.body, self.path + (id(s.body),))
        self.emit("}")

    def s_For(self, s: ast.For) -> None:
        if s.orelse:
            raise self.unsupported(s, "for ... else")
        it = s.iter
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and self.name(it.func).const is range):
            raise self.unsupported(s, "a for loop over something other than range(...)")
        if it.keywords or not 1 <= len(it.args) <= 3:
            raise self.error("range takes 1 to 3 positional arguments", s.lineno)
        if not isinstance(s.target, ast.Name):
            raise self.unsupported(s, "a for loop target that is not a name")
        args = [self.expr(a) for a in it.args]
        for a in args:
            if not isinstance(a.type, kt.Scalar) or a.type.is_float:
                raise self.error(f"range() takes integers, got {a.code} ({a.type})", s.lineno)
        start, stop, step = (literal(0), args[0], literal(1)) if len(args) == 1 else \
            (args[0], args[1], literal(1)) if len(args) == 2 else tuple(args)
        if step.is_const and step.const == 0:
            raise self.error("range() step must not be zero", s.lineno)
        t = kt.join(kt.join(start.type, stop.type), step.type)
        i = s.target.id
        body_path = self.path + (id(s.body),)
        if i in self.consts:
            raise self.error(f"{i} is a compile-time value; it cannot be a loop variable", s.lineno)
        if i in self.vars:
            self.check_assign(self.vars[i], V(i, t), s)
            init = f"{i} = {start.code}"
        elif self.blocks.get(i, ()) == body_path:
            self.vars[i] = Var(i, t, s.lineno)
            init = f"{t} {i} = {start.code}"
        else:
            var = self.vars[i] = Var(i, t, s.lineno)
            self.hoisted.append(Decl(var, None, "    ", self.error))
            init = f"{i} = {start.code}"
        cmp = ">" if step.is_const and step.const < 0 else "<"
        inc = f"{i}++" if step.is_const and step.const == 1 else f"{i} += {step.code}"
        self.emit(f"for ({init}; {i} {cmp} {stop.code}; {inc}) {{")
        self.body(s.body, body_path)
        self.emit("}")

    # -- objects (asc.TPipe(), asc.TQue(pos, depth), asc.GlobalTensor(), ...) ---------------
    def constructed(self, call: ast.Call) -> Api | None:
        try:
            f = self.expr(call.func)
        except CompileError:
            return None
        if f.is_const and isinstance(f.const, ApiObject) and f.const.api.kind == "class":
            return f.const.api
        return None

    def declare_object(self, name: str, api: Api, call: ast.Call, s: ast.stmt) -> None:
        if call.keywords:
            raise self.error(f"asc.{api.py}(...) takes positional arguments", s.lineno)
        args = [self.expr(a) for a in call.args]
        for a in args:
            if not a.is_const:
                raise self.error(f"asc.{api.py}'s arguments are compile-time values (positions, depths, element "
                                 f"types), got {a.code}", s.lineno)
        c = [a.const for a in args]

        def want(kinds: tuple[Any, ...], form: str) -> None:
            if len(c) != len(kinds) or not all(isinstance(x, k) for x, k in zip(c, kinds)):
                raise self.error(f"write {form}, got asc.{api.py}({', '.join(a.code for a in args)})", s.lineno)

        if api.cpp == "TPipe":
            want((), "asc.TPipe()")
            t: Any = kt.Obj("TPipe", "AscendC::TPipe")
        elif api.cpp == "TQue":
            want((EnumMember, int), "asc.TQue(asc.TPosition.VECIN, depth)")
            t = kt.Obj("TQue", f"AscendC::TQue<{c[0].cpp}, {c[1]}>")
        elif api.cpp == "TQueBind":
            want((EnumMember, EnumMember, int), "asc.TQueBind(src_position, dst_position, depth)")
            t = kt.Obj("TQueBind", f"AscendC::TQueBind<{c[0].cpp}, {c[1].cpp}, {c[2]}>")
        elif api.cpp == "TBuf":
            want((EnumMember,), "asc.TBuf(asc.TPosition.VECCALC)")
            t = kt.Obj("TBuf", f"AscendC::TBuf<{c[0].cpp}>")
        elif api.cpp == "Matmul":
            if not 3 <= len(c) <= 4 or not all(isinstance(x, TypeArg) for x in c):
                raise self.error("write asc.Matmul(a_type, b_type, c_type[, bias_type]) with asc.MatmulType(position, "
                                 "asc.CubeFormat.ND, asc.float16) arguments", s.lineno)
            t = kt.Obj("Matmul", f"AscendC::Matmul<{', '.join(x.cpp for x in c)}>")
        elif api.cpp == "MatmulType":
            raise self.error("asc.MatmulType(...) is a template argument of asc.Matmul(...), not an object", s.lineno)
        elif api.cpp == "GlobalTensor":
            if c:
                want((dt.DType,), "asc.GlobalTensor() or asc.GlobalTensor(asc.float32)")
            t = kt.GlobalTensorT(c[0] if c else None)
        else:  # LocalTensor
            want((dt.DType,), "asc.LocalTensor(asc.float32)")
            t = kt.LocalTensorT(c[0])
        if name in self.vars or name in self.consts:
            raise self.error(f"{name} is already defined; an asc.{api.py} needs a name of its own", s.lineno)
        var = self.vars[name] = Var(name, t, s.lineno)
        if self.blocks.get(name, ()) == self.path:
            self.out.append(Decl(var, None, self.indent, self.error))
        else:
            self.hoisted.append(Decl(var, None, "    ", self.error))

    # -- expressions -------------------------------------------------------------------------
    def expr(self, node: ast.expr) -> V:
        meth = getattr(self, "e_" + type(node).__name__, None)
        if meth is None:
            raise self.unsupported(node)
        return meth(node)

    def e_Constant(self, node: ast.Constant) -> V:
        if isinstance(node.value, (bool, int, float)):
            return literal(node.value)
        raise self.unsupported(node, f"the constant {node.value!r:.30}")

    def e_Name(self, node: ast.Name) -> V:
        return self.name(node)

    def e_Tuple(self, node: ast.Tuple) -> V:
        raise self.unsupported(node, "a tuple outside an unpacking assignment")

    def e_Attribute(self, node: ast.Attribute) -> V:
        base = self.expr(node.value)
        if base.is_const:
            obj = base.const
            if isinstance(obj, dt.DType):
                raise self.error(f"{base.code}.{node.attr}: element types have .sizeof()", node.lineno)
            try:
                attr = getattr(obj, node.attr)
            except AttributeError as exc:
                raise self.error(f"{base.code} has no attribute {node.attr!r} ({exc})", node.lineno) from None
            return self.compile_time(attr, f"{base.code}.{node.attr}", node)
        t = base.type
        if node.attr == "dtype" and isinstance(t, (kt.GMAddr, kt.LocalTensorT, kt.GlobalTensorT)) and t.dtype:
            return V(f"{base.code}.dtype", None, t.dtype)
        if isinstance(t, kt.Struct):
            ft = t.field(node.attr)
            if ft is None:
                raise self.error(f"{t.cpp} has no field {node.attr!r}", node.lineno)
            return V(f"{base.code}.{node.attr}", ft)
        raise self.error(f"{base.code} ({t}) has no attribute {node.attr!r} here (methods are called: "
                         f"{base.code}.{node.attr}(...))", node.lineno)

    def e_Subscript(self, node: ast.Subscript) -> V:
        base = self.expr(node.value)
        if not kt.is_tensor(base.type):
            raise self.unsupported(node, f"subscripting {base.code} ({base.type})")
        sl = node.slice
        if not isinstance(sl, ast.Slice) or sl.upper is not None or sl.step is not None or sl.lower is None:
            raise self.unsupported(node, "a tensor subscript other than x[offset:] (use x.get_value(i) for an "
                                         "element)")
        off = self.expr(sl.lower)
        if not isinstance(off.type, kt.Scalar) or off.type.is_float:
            raise self.error(f"a tensor offset is an integer, got {off.code} ({off.type})", node.lineno)
        return V(f"{base.code}[{off.code}]", base.type)

    def typed_ptr(self, v: V) -> V:
        return V(f"(__gm__ {v.type.dtype.cpp} *){v.code}", kt.GMAddr(v.type.dtype, True), prec=14)

    def binop(self, a: V, b: V, op: ast.operator, node: ast.AST) -> V:
        opt = type(op)
        if opt not in _BINOPS:
            raise self.unsupported(node, f"the operator {op.__class__.__name__}" + (" (**)" if opt is ast.Pow else ""))
        if isinstance(a.type, kt.GMAddr) and opt in (ast.Add, ast.Sub) and isinstance(b.type, kt.Scalar) \
                and not b.type.is_float:
            p = a if a.type.typed else self.typed_ptr(a)
            op_ = _BINOPS[opt]
            return V(f"{self.paren(p, 12)} {op_} {self.paren(b, 12, True)}", p.type, prec=12)
        if not (isinstance(a.type, kt.Scalar) and isinstance(b.type, kt.Scalar)):
            raise self.error(f"{a.code} {_BINOPS[opt]} {b.code}: arithmetic takes numbers (and address + offset), "
                             f"got {a.type} and {b.type}; tensors are computed with asc.add, asc.muls, ...",
                             getattr(node, "lineno", None))
        t = kt.join(a.type, b.type)
        if t.is_float and opt in (ast.FloorDiv, ast.Mod, ast.LShift, ast.RShift, ast.BitAnd, ast.BitOr, ast.BitXor):
            raise self.error(f"{a.code} {op.__class__.__name__} {b.code}: this operator takes integers here "
                             f"(got {t})", getattr(node, "lineno", None))
        if a.is_const and b.is_const:
            try:
                value = _PYOPS[opt](a.const, b.const)
            except ZeroDivisionError:
                raise self.error(f"{a.code} / {b.code} divides by zero", getattr(node, "lineno", None)) from None
            if opt is ast.Div:
                value = float(value)
            return literal(value)
        if opt is ast.Div and not t.is_float:
            return V(f"static_cast<float>({a.code}) / {self.paren(b, 13, True)}", kt.FLOAT, prec=13)
        op_ = _BINOPS[opt]
        return V(f"{self.paren(a, _PREC[op_])} {op_} {self.paren(b, _PREC[op_], True)}", t, prec=_PREC[op_])

    @staticmethod
    def paren(v: V, prec: int = 16, right: bool = False) -> str:
        """``v``'s code as an operand of an operator of precedence ``prec`` (parenthesised when it
        binds looser, or as tightly on the right: a - (b - c)); negative literals count as unary."""
        p = 14 if v.is_const and v.code.startswith("-") else v.prec
        return v.code if p > prec or (p == prec and not right) else f"({v.code})"

    def e_BinOp(self, node: ast.BinOp) -> V:
        return self.binop(self.expr(node.left), self.expr(node.right), node.op, node)

    def e_UnaryOp(self, node: ast.UnaryOp) -> V:
        v = self.expr(node.operand)
        if not isinstance(v.type, kt.Scalar):
            raise self.error(f"a unary operator on {v.code} ({v.type})", node.lineno)
        if isinstance(node.op, ast.Not):
            return V(f"!{self.paren(v, 14)}", kt.BOOL, (not v.const) if v.is_const else _NOCONST, prec=14)
        if isinstance(node.op, ast.USub):
            return literal(-v.const) if v.is_const else V(f"-{self.paren(v, 14)}", v.type, prec=14)
        if isinstance(node.op, ast.UAdd):
            return v
        if v.type.is_float:
            raise self.error(f"~ takes an integer, got {v.type}", node.lineno)
        return literal(~v.const) if v.is_const else V(f"~{self.paren(v, 14)}", v.type, prec=14)

    def e_BoolOp(self, node: ast.BoolOp) -> V:
        vals = [self.expr(v) for v in node.values]
        op = "&&" if isinstance(node.op, ast.And) else "||"
        return V(f" {op} ".join(self.paren(v, _PREC[op]) for v in vals), kt.BOOL, prec=_PREC[op])

    def e_Compare(self, node: ast.Compare) -> V:
        parts, left = [], self.expr(node.left)
        for op, right_node in zip(node.ops, node.comparators):
            if type(op) not in _CMPOPS:
                raise self.unsupported(node, f"the comparison {type(op).__name__} ('is'/'in' have no kernel meaning)")
            right = self.expr(right_node)
            for v in (left, right):
                if not isinstance(v.type, kt.Scalar):
                    raise self.error(f"comparisons take numbers, got {v.code} ({v.type})", node.lineno)
            c = _CMPOPS[type(op)]
            parts.append(f"{self.paren(left, _PREC[c])} {c} {self.paren(right, _PREC[c], True)}")
            left = right
        if len(parts) == 1:
            return V(parts[0], kt.BOOL, prec=_PREC[_CMPOPS[type(node.ops[0])]])
        return V(" && ".join(parts), kt.BOOL, prec=5)

    def e_IfExp(self, node: ast.IfExp) -> V:
        c, a, b = self.expr(node.test), self.expr(node.body), self.expr(node.orelse)
        if isinstance(a.type, kt.Scalar) and isinstance(b.type, kt.Scalar):
            t = kt.join(a.type, b.type)
        elif a.type == b.type:
            t = a.type
        else:
            raise self.error(f"both branches of a conditional expression have one type, got {a.type} and {b.type}",
                             node.lineno)
        return V(f"{self.paren(c, 3)} ? {self.paren(a, 3)} : {self.paren(b, 3, True)}", t, prec=3)

    # -- calls -------------------------------------------------------------------------------
    def e_Call(self, node: ast.Call) -> V:
        if isinstance(node.func, ast.Attribute):
            base = self.expr(node.func.value)
            if not base.is_const:
                return self.method(base, node.func.attr, node)
            if isinstance(base.const, dt.DType) and node.func.attr == "sizeof":
                if node.args or node.keywords:
                    raise self.error("sizeof() takes no arguments", node.lineno)
                return V(f"sizeof({base.const.cpp})", kt.INT32, base.const.sizeof())
        f = self.expr(node.func)
        if not f.is_const:
            raise self.unsupported(node, f"calling {f.code}")
        obj = f.const
        from .jit import JitFunction
        if isinstance(obj, JitFunction):
            return self.helper_call(obj, node)
        if obj in (int, float):
            if len(node.args) != 1 or node.keywords:
                raise self.error(f"{obj.__name__}(x) takes one argument", node.lineno)
            v = self.expr(node.args[0])
            if not isinstance(v.type, kt.Scalar):
                raise self.error(f"{obj.__name__}() takes a number, got {v.code} ({v.type})", node.lineno)
            if v.is_const:
                return literal(obj(v.const))
            t = kt.INT32 if obj is int else kt.FLOAT
            return V(f"static_cast<{t}>({v.code})", t)
        if isinstance(obj, ApiObject) and not isinstance(obj, ApiEnum):
            api = obj.api
            if api.kind == "function":
                return self.api_call(api, api.spelled, node, None)
            if api.kind == "struct":
                return self.struct(api, node)
            if api.kind == "typearg":
                return self.type_arg(api, node)
            raise self.error(f"asc.{api.py}(...) creates an object: assign it to a name (q = asc.{api.py}(...))",
                             node.lineno)
        raise self.unsupported(node, f"calling {f.code} (kernels call asc.* functions and @pyasc.jit helpers)")

    def arg(self, v: V) -> str:
        if isinstance(v.type, kt.GMAddr) and not v.type.typed:
            return self.typed_ptr(v).code
        if v.is_const and isinstance(v.const, EnumMember):
            return v.const.cpp
        if v.is_const and not isinstance(v.type, kt.Scalar):
            raise self.error(f"{v.code} ({v.const!r}) is not a value a call can take here")
        return v.code

    def template_args(self, api: Api, args: list[V], node: ast.AST) -> str:
        out = []
        for a in args[:api.tmpl]:
            if a.is_const and isinstance(a.const, dt.DType):
                out.append(a.const.cpp)
            elif a.is_const and isinstance(a.const, EnumMember):
                out.append(a.const.cpp)
            elif a.is_const and isinstance(a.type, kt.Scalar):
                out.append(a.code)
            else:
                raise self.error(f"the first argument of {api.py} is a compile-time element type or enum member "
                                 f"(it is {api.cpp}'s template argument), got {a.code}", node.lineno)
        return "<" + ", ".join(out) + ">"

    def api_call(self, api: Api, spelled: str, node: ast.Call, self_t: Any) -> V:
        if node.keywords:
            raise self.error(f"{api.py}() takes positional arguments (as Ascend C's {api.cpp})", node.lineno)
        args = [self.expr(a) for a in node.args]
        if len(args) < api.tmpl:
            raise self.error(f"{api.py} needs {api.tmpl} leading compile-time argument(s) for {api.cpp}<...>",
                             node.lineno)
        targs = self.template_args(api, args, node) if api.tmpl else ""
        rest = [("&" if i in api.by_address else "") + self.arg(a) for i, a in enumerate(args[api.tmpl:])]
        code = f"{spelled}{targs}({', '.join(rest)})"
        if api.ret is None:
            return V(code, kt.Scalar("void"))
        if api.ret == "local":
            return V(code, kt.LocalTensorT(args[0].const))
        if api.ret == "elem":
            return V(code, kt.Scalar(self_t.dtype.cpp))
        if api.ret[0] == "t" and api.ret[1:].isdigit():
            d = args[int(api.ret[1:])].const
            if not isinstance(d, dt.DType):
                raise self.error(f"{api.py}'s template argument {api.ret[1:]} is an element type, got {d!r}", node.lineno)
            return V(code, kt.Scalar(d.cpp))
        return V(code, kt.Scalar(api.ret))

    def method(self, base: V, name: str, node: ast.Call) -> V:
        t = base.type
        owner = ("GlobalTensor" if isinstance(t, kt.GlobalTensorT) else "LocalTensor" if isinstance(t, kt.LocalTensorT)
                 else t.cls if isinstance(t, kt.Obj) else None)
        api = METHODS.get((owner, name)) if owner else None
        if api is None:
            names = sorted(m for o, m in METHODS if o == owner)
            raise self.error(f"{base.code} ({t}) has no method {name!r}" +
                             (f"; its methods are {', '.join(names)}" if names else ""), node.lineno)
        if api.cpp == "SetGlobalBuffer":
            if not node.args:
                raise self.error("set_global_buffer(address[, size]) needs the address", node.lineno)
            p = self.expr(node.args[0])
            if not isinstance(p.type, kt.GMAddr):
                raise self.error(f"set_global_buffer takes a kernel's global address (x or x + offset), got "
                                 f"{p.code} ({p.type})", node.lineno)
            if t.dtype is None:
                t.dtype = p.type.dtype
            elif t.dtype is not p.type.dtype:
                raise self.error(f"{base.code} holds {t.dtype.cpp} and {p.code} points at {p.type.dtype.cpp}",
                                 node.lineno)
        return self.api_call(api, f"{base.code}.{api.cpp}", node, t)

    def type_arg(self, api: Api, node: ast.Call) -> V:
        """``asc.MatmulType(position, format, dtype[, is_trans])``: a C++ type, a template argument."""
        args = [self.expr(a) for a in node.args]
        if node.keywords or not 3 <= len(args) <= 4 or not all(a.is_const for a in args) or not (
                isinstance(args[0].const, EnumMember) and isinstance(args[1].const, EnumMember)
                and isinstance(args[2].const, dt.DType)):
            raise self.error("write asc.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16[, is_trans])",
                             node.lineno)
        parts = [args[0].const.cpp, args[1].const.cpp, args[2].const.cpp] + [a.code for a in args[3:]]
        cpp = f"{api.spelled}<{', '.join(parts)}>"
        return V(cpp, None, TypeArg(cpp))

    def struct(self, api: Api, node: ast.Call) -> V:
        args = [self.expr(a) for a in node.args]
        targs = self.template_args(api, args, node) if api.tmpl else ""
        cpp = f"{api.spelled}{targs}"
        t = kt.Struct(cpp)
        if not node.keywords:
            return V(f"{cpp}({', '.join(self.arg(a) for a in args[api.tmpl:])})", t)
        if len(args) > api.tmpl:
            raise self.error(f"asc.{api.py}: give either positional arguments or field=value keywords", node.lineno)
        # field=value keywords: a temporary filled field by field just before the statement
        values = [(k.arg, self.arg(self.expr(k.value))) for k in node.keywords]
        self.temp += 1
        tmp = f"_p{self.temp}"
        self.emit(f"{cpp} {tmp};")
        for name, value in values:
            self.emit(f"{tmp}.{name} = {value};")
        return V(tmp, t)

    def helper_call(self, fn: Any, node: ast.Call) -> V:
        if node.keywords:
            raise self.error(f"call the helper {fn.__name__} with positional arguments", node.lineno)
        args = [self.expr(a) for a in node.args]
        name, ret = fn.emit_helper(self.module, args, self.error, node.lineno)
        passed = [self.arg(a) for a in args if not (a.is_const and not isinstance(a.type, kt.Scalar))]
        return V(f"{name}({', '.join(passed)})", ret)
