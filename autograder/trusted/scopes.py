"""A notebook's code as Python reads it: every name bound in its scope, and every reference
resolved as Python resolves it (function locals, closures, class bodies, the notebook's
globals, builtins), never across unrelated functions.

``Program(cells)`` parses the cells (one module: they share their globals), gives every scope
its bindings and every ``ast.Name`` its scope, and answers ``dotted(node)``: the dotted names
a reference may stand for (``F.softmax`` -> ``torch.nn.functional.softmax``), through imports
and plain aliases, ``builtins.<name>`` for a builtin no cell rebinds before it is read.
``autograder/trusted/uses.py`` judges what an answer reaches with it.

Names bound several times in one scope are followed through every binding (a reader cannot
tell which one ran last), so a name is judged by everything it was ever bound to there.

The scopes and their bindings are ``bindings.py``'s, the walk that records them
``binder.py``'s, what is noted on ast's nodes ``notes.py``'s, and IPython's magics made
Python ``magics.py``'s.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Iterable

from autograder.trusted.binder import _Binder
from autograder.trusted.bindings import Binding, Scope
from autograder.trusted.magics import HARMLESS_MAGICS, clean
from autograder.trusted.notes import call_of, note, parent_of, scope_of

# What other modules import from here (the scopes, the binder and the notes live apart).
__all__ = [
    "HARMLESS_MAGICS",
    "MAX_ALIASES",
    "Binding",
    "Program",
    "TooDeep",
    "call_of",
    "parent_of",
]

MAX_ALIASES = 100  # names followed through plain aliases (``a = b``); no answer needs more
MAX_STEPS = 1_000_000  # steps of following names, for a whole notebook (honest ones: < 10,000)
NO_CUT = MAX_ALIASES + 1  # deeper than any name on the way: no cycle was cut
BUILTINS = frozenset(dir(builtins)) | {"get_ipython", "display"}  # and IPython's kernel's
# Nodes that ast.parse makes once for every tree (``Load``, ``Add``, ``Not``...): given a
# parent, one would keep the last notebook read alive, and every deepcopy of an unrelated tree
# in the same process (the mutants that name mistakes) would copy that notebook too.
SHARED_NODES = (ast.expr_context, ast.boolop, ast.operator, ast.unaryop, ast.cmpop)


class TooDeep(Exception):
    """Code the reader cannot follow to its end (aliases or nesting beyond any honest
    answer's): the exercise is refused rather than read halfway."""


class Program:
    """The notebook's code cells as one program.

    ``cells`` are ``(label, source, student)``: a label in words ("your answer cell
    ex3_softmax", "a cell you added"), the code, and whether the student wrote it.
    """

    def __init__(self, cells: Iterable[tuple[str, str, bool]]):
        self.module = Scope("module")
        self.star: list[tuple[str, str, int]] = []  # (module, cell, index) imported with *
        self.stored: list[tuple[Scope, str, Binding]] = []  # values put into objects
        self.raised: list[Binding] = []  # every raise's exception, for ``except as``
        self.unreadable: list[str] = []  # student cells that do not parse
        self.cells: list[tuple[str, ast.AST, bool]] = []
        self._known: dict[tuple, tuple[str, ...]] = {}
        self._steps = 0
        for index, (label, source, student) in enumerate(cells):
            try:
                tree = ast.parse(clean(source))
            except (SyntaxError, ValueError):
                if student:
                    self.unreadable.append(label)
                continue
            for node in ast.walk(tree):  # parents, for what a call sits in
                for child in ast.iter_child_nodes(node):
                    if not isinstance(child, SHARED_NODES):
                        note(child, "parent", node)
                if isinstance(node, ast.Call):
                    note(node.func, "call", node)
            _Binder(self, label, student, index).visit(tree)
            self.cells.append((label, tree, student))
        for scope, name, binding in self.stored:  # once every binding is known
            scope.owner(name).bindings.setdefault(name, []).append(binding)

    def global_name(self, name: str) -> ast.Name:
        """A reference to the notebook's global ``name`` (what a test cell calls)."""
        node = ast.Name(name, ast.Load())
        note(node, "scope", self.module)
        return node

    def resolve(self, node: ast.Name, before: int | None = None) -> tuple[Scope, list[Binding]]:
        """The scope whose ``node.id`` the reference reads, and its bindings there; only those
        of the cells before the ``before``-th when given (the checks of a test cell run
        after those, and before any cell below it)."""
        owner = (scope_of(node) or self.module).owner(node.id)
        bindings = owner.bindings.get(node.id, [])
        if any(b.imported for b in bindings):  # a module's own calls are not put into it
            bindings = [b for b in bindings if not b.stored]
        bindings = [
            r
            for b in bindings
            for r in (self.raised if isinstance(b.node, ast.ExceptHandler) else [b])
        ]
        if before is not None:
            bindings = [b for b in bindings if b.index < before]
        return owner, bindings

    def stars(self, before: int | None = None) -> list[tuple[str, str]]:
        """(module, cell) of every ``from module import *`` (before the ``before``-th cell)."""
        return [(m, cell) for m, cell, index in self.star if before is None or index < before]

    def dotted(self, node: ast.AST, before: int | None = None) -> list[str]:
        """The dotted names ``node`` may stand for, through imports and plain aliases:
        ``torch.nn.functional.softmax`` for ``F.softmax``, ``builtins.eval`` for ``eval``
        (also where a cell rebinds it: before that line runs, the name is the builtin's);
        [] when it is no such reference. ``before``: as in ``resolve``."""
        return self._dotted(node, {}, before)[0]

    def _dotted(self, node: ast.AST, seen: dict, before: int | None) -> tuple[list[str], int]:
        """``dotted``, following names not in ``seen`` ((scope, name) -> depth on the way);
        and the lowest depth where one already on the way was met (a cycle cut short).

        A name's answer is kept, and later questions answered from memory, when no cycle
        through it was cut above it: 180 names that each alias two others cost 360 steps, not
        2^90. Every step counts against ``MAX_STEPS``."""
        self._step()
        if isinstance(node, ast.Attribute):
            bases, cut = self._dotted(node.value, seen, before)
            return [f"{base}.{node.attr}" for base in bases], cut
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and self.dotted(node.func, before) == ["builtins.getattr"]
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
        ):
            bases, cut = self._dotted(node.args[0], seen, before)
            return [f"{base}.{node.args[1].value}" for base in bases], cut
        if not isinstance(node, ast.Name):
            return [], NO_CUT
        owner, bindings = self.resolve(node, before)
        key = (id(owner), node.id, before)
        if key in seen:
            return [], seen[key]
        if key in self._known:
            return list(self._known[key]), NO_CUT
        depth = len(seen)
        if depth >= MAX_ALIASES:
            raise TooDeep(f"names aliased more than {MAX_ALIASES} deep")
        found, cut = [], NO_CUT
        for binding in bindings:
            if binding.imported:
                found.append(binding.imported)
            elif (
                isinstance(binding.node, (ast.Name, ast.Attribute, ast.Call)) and not binding.stored
            ):  # held inside the object, not the name's meaning
                more, below = self._dotted(binding.node, {**seen, key: depth}, before)
                found += more
                cut = min(cut, below)
        if owner.parent is None:  # a global: perhaps never bound, or a builtin's name
            if node.id in BUILTINS:
                found.append(f"builtins.{node.id}")
            elif not bindings:
                found += [f"{module}.{node.id}" for module, _ in self.stars(before)]
        found = list(dict.fromkeys(found))
        self._step(len(found))
        if cut >= depth:  # nothing above this name was cut from its answer
            self._known[key] = tuple(found)
        return found, cut

    def _step(self, count: int = 1) -> None:
        self._steps += count
        if self._steps > MAX_STEPS:
            raise TooDeep(f"names aliased in more than {MAX_STEPS:,} ways")
