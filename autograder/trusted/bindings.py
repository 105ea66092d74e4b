"""Python's scopes over the notebook's code: a module, function, lambda, comprehension or
class body with the names bound in it (``Binding``), and which scope a reference reads
(``Scope.owner``, Python's LEGB rule)."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field


@dataclass
class Binding:
    node: ast.AST  # a definition, an import, or the expression a name was assigned
    cell: str  # where it is, in words
    student: bool  # whether the student wrote it (a cell not the course's, or changed)
    imported: str = ""  # for an import: the module or dotted object the name stands for
    index: int = 0  # the cell's place among the program's cells
    stored: bool = False  # a value put into the object (``x.append(v)``, ``x.f = v``)


@dataclass(eq=False)
class Scope:
    """A module, function, lambda, comprehension or class body, and the names bound in it."""

    kind: str  # "module", "function", "class"
    parent: Scope | None = None
    bindings: dict[str, list[Binding]] = field(default_factory=dict)
    globals: set[str] = field(default_factory=set)  # declared ``global`` here
    nonlocals: set[str] = field(default_factory=set)  # declared ``nonlocal`` here

    def module(self) -> Scope:
        scope = self
        while scope.parent is not None:
            scope = scope.parent
        return scope

    def owner(self, name: str) -> Scope:
        """The scope whose binding of ``name`` a reference in this one reads (Python's LEGB:
        class bodies are skipped by the functions inside them)."""
        if name in self.globals:
            return self.module()
        if name in self.bindings and name not in self.nonlocals or self.parent is None:
            return self
        scope = self.parent
        while scope.parent is not None:
            if scope.kind != "class" and name in scope.bindings and name not in scope.globals:
                return scope
            scope = scope.parent
        return scope

    def where_bound(self, name: str) -> Scope:
        """The scope a binding of ``name`` made here goes to (``global``, ``nonlocal``)."""
        if name in self.globals:
            return self.module()
        if name in self.nonlocals and self.parent is not None:
            return self.parent.owner(name)
        return self
