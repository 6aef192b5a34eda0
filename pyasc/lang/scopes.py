"""Where each local of a Python kernel is declared in C++: Python locals live in the function, C++
ones in a block, so a name used outside the block of its first assignment is declared at the top."""

from __future__ import annotations

import ast


def declaration_blocks(fn: ast.FunctionDef) -> dict[str, tuple[int, ...]]:
    """{name: the innermost block path holding every use of the name} (a path is the ids of the
    enclosing statement lists, the function body being ``()``)."""
    uses: dict[str, list[tuple[int, ...]]] = {}

    def names(node: ast.AST, path: tuple[int, ...]) -> None:
        for n in ast.walk(node):
            if isinstance(n, ast.Name):
                uses.setdefault(n.id, []).append(path)

    def block(stmts: list[ast.stmt], path: tuple[int, ...]) -> None:
        for s in stmts:
            if isinstance(s, ast.For):
                body = path + (id(s.body),)
                names(s.target, body)
                names(s.iter, path)
                block(s.body, body)
                block(s.orelse, path + (id(s.orelse),))
            elif isinstance(s, (ast.If, ast.While)):
                names(s.test, path)
                block(s.body, path + (id(s.body),))
                block(s.orelse, path + (id(s.orelse),))
            else:
                names(s, path)

    block(fn.body, ())
    out = {}
    for name, paths in uses.items():
        prefix = paths[0]
        for p in paths[1:]:
            n = 0
            while n < min(len(prefix), len(p)) and prefix[n] == p[n]:
                n += 1
            prefix = prefix[:n]
        out[name] = prefix
    return out
