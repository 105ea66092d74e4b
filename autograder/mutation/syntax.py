"""Reading a reference answer's syntax tree, for the rewrites: its nodes in a fixed order
(so that the n-th node of a fresh copy is the same node), literals, code as a description
quotes it, and what the functions of the cell have in scope (``_Scope``)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import TypeGuard

from autograder.mutation.operators import _ROLE_SUFFIX, ROLE_FAMILIES


def _code(node: ast.AST, limit: int = 48) -> str:
    """``node`` as code, cut to ``limit`` characters; a method call keeps its end, where
    the method is (`….squeeze(-1)`)."""
    text = ast.unparse(node)
    if len(text) <= limit:
        return f"`{text}`"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        end = f".{node.func.attr}({', '.join(ast.unparse(a) for a in node.args)})"
        if len(end) < limit // 2:
            return f"`{text[: limit - len(end) - 1]}…{end}`"
    return f"`{text[: limit - 1]}…`"


def _children(node: ast.AST) -> Iterator[tuple[ast.AST, str, int | None, ast.AST]]:
    """(parent, field, index in a list field or None, child) for every child node."""
    for field, value in ast.iter_fields(node):
        if isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, ast.AST):
                    yield node, field, index, item
        elif isinstance(value, ast.AST):
            yield node, field, None, value


def _walk(tree: ast.AST) -> Iterator[tuple[ast.AST, str, int | None, ast.AST]]:
    """Depth-first, in a fixed order, so the n-th node of a copy is the same node."""
    for parent, field, index, child in _children(tree):
        yield parent, field, index, child
        yield from _walk(child)


def _set(parent: ast.AST, field: str, index: int | None, new) -> None:
    if index is None:
        setattr(parent, field, new)
    else:
        getattr(parent, field)[index] = new


def _call_name(call: ast.Call) -> str | None:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)


def _int(node: ast.AST) -> int | None:
    """The value of an int literal (also ``-1``), else None."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _int(node.operand)
        return None if inner is None else -inner
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    return None


def _number(value: int) -> ast.expr:
    return ast.UnaryOp(ast.USub(), ast.Constant(-value)) if value < 0 else ast.Constant(value)


class _Scope:
    """What the rewrites need to know about the functions in the cell."""

    def __init__(self, tree: ast.AST):
        self.parameters: set[str] = set()
        self.defaults: dict[str, ast.AST] = {}
        self.bound: set[str] = set()
        self.tensors: set[str] = set()
        self.uses: dict[str, int] = {}  # how often each name is read
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                self.uses[node.id] = self.uses.get(node.id, 0) + 1
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                args = node.args.posonlyargs + node.args.args
                default: ast.expr | None  # a keyword-only argument may have none
                self.parameters.update(a.arg for a in args + node.args.kwonlyargs)
                for arg, default in zip(
                    args[len(args) - len(node.args.defaults) :], node.args.defaults, strict=True
                ):
                    self.defaults[arg.arg] = default
                for arg, default in zip(node.args.kwonlyargs, node.args.kw_defaults, strict=True):
                    if default is not None:
                        self.defaults[arg.arg] = default
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                self.bound.add(node.id)
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.attr in ("shape", "size", "dim", "T", "mT", "transpose")
            ):
                self.tensors.add(node.value.id)  # a name used as a tensor
        self.bound |= self.parameters
        self.parameters.discard("self")

    def partners(self, name: str) -> list[str]:
        """Other names in scope with the same role as ``name``."""
        found = set()
        for family in ROLE_FAMILIES:
            if name in family:
                found |= family
        if match := _ROLE_SUFFIX.match(name):
            stem = match.group(1)
            found |= {
                other
                for other in self.bound
                if (m := _ROLE_SUFFIX.match(other)) and m.group(1) == stem
            }
        return sorted((found & self.bound) - {name})


def _sliced(node: ast.AST) -> TypeGuard[ast.Subscript]:
    """Whether ``node`` takes a slice with a bound: `cache[..., :end, :]`."""
    index = getattr(node, "slice", None)
    return (
        isinstance(node, ast.Subscript)
        and isinstance(node.ctx, ast.Load)
        and any(
            isinstance(p, ast.Slice) and (p.lower or p.upper)
            for p in (index.elts if isinstance(index, ast.Tuple) else [index])
        )
    )


def _functions(tree: ast.AST) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
