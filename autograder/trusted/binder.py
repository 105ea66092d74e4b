"""The binder: walks one cell of the notebook and records every binding in the scope
Python gives it (``bindings.py``), and each name's scope on the name."""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import Protocol

from autograder.trusted.bindings import Binding, Scope
from autograder.trusted.notes import note

FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


class Recorder(Protocol):
    """What the binder fills in as it walks: ``scopes.Program``'s module scope and lists."""

    module: Scope
    star: list[tuple[str, str, int]]
    stored: list[tuple[Scope, str, Binding]]
    raised: list[Binding]


class _Binder(ast.NodeVisitor):
    """Walks one cell: records bindings in their scopes, and each name's scope on it."""

    def __init__(self, program: Recorder, cell: str, student: bool, index: int):
        self.program, self.cell, self.student, self.index = program, cell, student, index
        self.scope = program.module

    def bind(self, name: str, node: ast.AST, imported: str = "") -> None:
        scope = self.scope
        if isinstance(node, ast.NamedExpr):  # := in a comprehension binds outside it
            while scope.kind == "comprehension":
                assert scope.parent is not None  # a comprehension is always inside a scope
                scope = scope.parent
        target = scope.where_bound(name)
        target.bindings.setdefault(name, []).append(
            Binding(node, self.cell, self.student, imported, self.index)
        )

    def bind_targets(self, target: ast.AST, value: ast.AST) -> None:
        for name in ast.walk(target):
            if isinstance(name, ast.Name) and isinstance(name.ctx, (ast.Store, ast.Del)):
                self.bind(name.id, value)

    def enter(
        self,
        kind: str,
        node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef,
        body: Sequence[ast.AST],
    ) -> None:
        outer, self.scope = self.scope, Scope(kind, self.scope)
        note(node, "own_scope", self.scope)
        # Declarations first, and every name bound anywhere in the body is local to it from
        # its first line (as Python decides it when it compiles the function).
        local = set()
        for statement in body:
            for inner in _own_nodes(statement):
                if isinstance(inner, ast.Global):
                    self.scope.globals.update(inner.names)
                elif isinstance(inner, ast.Nonlocal):
                    self.scope.nonlocals.update(inner.names)
                elif isinstance(inner, ast.Name) and not isinstance(inner.ctx, ast.Load):
                    local.add(inner.id)
                elif isinstance(inner, (*FUNCTIONS[:2], ast.ClassDef)):
                    local.add(inner.name)
                elif isinstance(inner, (ast.Import, ast.ImportFrom)):
                    local.update((a.asname or a.name.split(".")[0]) for a in inner.names)
                elif isinstance(inner, ast.ExceptHandler) and inner.name:
                    local.add(inner.name)
        for name in local - self.scope.globals - self.scope.nonlocals:
            self.scope.bindings.setdefault(name, [])
        if not isinstance(node, (ast.ClassDef, *COMPREHENSIONS)):
            arguments = node.args
            defaults = dict(
                zip(
                    reversed(arguments.posonlyargs + arguments.args),
                    reversed(arguments.defaults),
                    strict=False,
                )
            )
            defaults.update(
                (a, d)
                for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True)
                if d is not None
            )
            for arg in [
                *arguments.posonlyargs,
                *arguments.args,
                *arguments.kwonlyargs,
                arguments.vararg,
                arguments.kwarg,
            ]:
                if arg is not None:  # a default is what a parameter holds unless given
                    self.bind(arg.arg, defaults.get(arg, arg))
        for statement in body:
            self.visit(statement)
        self.scope = outer

    # --- what binds, and where its parts are evaluated ----------------------------------

    def visit_Name(self, node: ast.Name) -> None:
        note(node, "scope", self.scope)

    def visit_FunctionDef(self, node) -> None:
        for part in [
            *node.decorator_list,
            *node.args.defaults,
            *[d for d in node.args.kw_defaults if d is not None],
        ]:
            self.visit(part)
        self.bind(node.name, node)
        self.enter("function", node, node.body)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node: ast.Lambda) -> None:
        for part in [*node.args.defaults, *[d for d in node.args.kw_defaults if d is not None]]:
            self.visit(part)
        self.enter("function", node, [node.body])

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for part in [*node.decorator_list, *node.bases, *node.keywords]:
            self.visit(part)
        self.bind(node.name, node)
        self.enter("class", node, node.body)

    def visit_comprehension_scope(self, node) -> None:
        first, *rest = node.generators
        self.visit(first.iter)  # evaluated outside, as Python does
        outer, self.scope = self.scope, Scope("comprehension", self.scope)
        note(node, "own_scope", self.scope)
        for number, generator in enumerate(node.generators):
            if number:
                self.visit(generator.iter)
            self.bind_targets(generator.target, generator.iter)
            self.visit(generator.target)
            for condition in generator.ifs:
                self.visit(condition)
        for part in ("elt", "key", "value"):
            if (value := getattr(node, part, None)) is not None:
                self.visit(value)
        self.scope = outer

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = visit_comprehension_scope

    def visit_Import(self, node) -> None:
        for alias in node.names:
            if isinstance(node, ast.ImportFrom):
                if not node.module or node.level:
                    continue  # a relative import: nothing a notebook has
                if alias.name == "*":
                    self.program.star.append((node.module, self.cell, self.index))
                    continue
                self.bind(alias.asname or alias.name, node, f"{node.module}.{alias.name}")
            else:
                name = alias.asname or alias.name.split(".")[0]
                self.bind(name, node, alias.name if alias.asname else name)

    visit_ImportFrom = visit_Import

    def store(self, target: ast.AST, value: ast.AST) -> None:
        """``value`` put into the object a name holds (``x.f = v``, ``x[k] = v``,
        ``x.append(v)``, ``setattr(x, "f", v)``): from then on the name may give it back."""
        while isinstance(target, (ast.Attribute, ast.Subscript, ast.Call)):
            target = target.func if isinstance(target, ast.Call) else target.value
        if isinstance(target, ast.Name):
            self.program.stored.append(
                (
                    self.scope,
                    target.id,
                    Binding(value, self.cell, self.student, "", self.index, stored=True),
                )
            )

    def visit_Assign(self, node) -> None:
        self.generic_visit(node)
        if node.value is not None:
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                self.bind_targets(target, node.value)
                for inner in ast.walk(target):
                    if isinstance(inner, (ast.Attribute, ast.Subscript)) and isinstance(
                        inner.ctx, ast.Store
                    ):
                        self.store(inner, node.value)

    def visit_Call(self, node: ast.Call) -> None:
        self.generic_visit(node)
        values = [*node.args, *(k.value for k in node.keywords)]
        if isinstance(node.func, ast.Attribute):  # x.append(v), x.update(k=v), g.send(v)
            for value in values:
                self.store(node.func.value, value)
        elif (
            isinstance(node.func, ast.Name) and node.func.id in ("setattr", "setitem") and node.args
        ):
            for value in values[1:]:
                self.store(node.args[0], value)

    def visit_Raise(self, node: ast.Raise) -> None:
        self.generic_visit(node)
        if node.exc is not None:  # what an ``except ... as error`` may hold
            self.program.raised.append(Binding(node.exc, self.cell, self.student, "", self.index))

    def visit_match_case(self, node: ast.match_case) -> None:
        for name in ast.walk(node.pattern):  # a capture holds (part of) the subject
            for capture in (getattr(name, "name", None), getattr(name, "rest", None)):
                if isinstance(capture, str):
                    self.bind(capture, self.subject)
        self.generic_visit(node)

    def visit_Match(self, node: ast.Match) -> None:
        self.visit(node.subject)
        self.subject = node.subject
        for case in node.cases:
            self.visit(case)

    visit_AnnAssign = visit_AugAssign = visit_Assign

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:
        self.visit(node.value)
        note(node.target, "scope", self.scope)
        self.bind(node.target.id, node)

    def visit_For(self, node) -> None:
        self.generic_visit(node)
        self.bind_targets(node.target, node.iter)

    visit_AsyncFor = visit_For

    def visit_withitem(self, node: ast.withitem) -> None:
        self.generic_visit(node)
        if node.optional_vars is not None:
            self.bind_targets(node.optional_vars, node.context_expr)

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        self.generic_visit(node)
        if node.name:
            self.bind(node.name, node)


def _own_nodes(node: ast.AST):
    """``node`` and what is inside it in the same scope: a nested function or class is
    yielded (its name is bound here), not gone into; of a comprehension, only := is here."""
    yield node
    if isinstance(node, (*FUNCTIONS, ast.ClassDef)):
        return
    for child in ast.iter_child_nodes(node):
        if isinstance(child, COMPREHENSIONS):
            yield from (n for n in ast.walk(child) if isinstance(n, ast.NamedExpr))
            yield from (n.target for n in ast.walk(child) if isinstance(n, ast.NamedExpr))
        else:
            yield from _own_nodes(child)
