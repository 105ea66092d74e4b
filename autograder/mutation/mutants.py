"""Mutants of a reference answer: small typed rewrites of its syntax tree.

A mutant is the reference answer with one plausible mistake in it: an operand swapped for
another of the same role (``K`` for ``V``), a scale dropped or changed, a reduction over
the wrong axis, a transpose added or removed, ``max`` for ``min``, an off-by-one, a term
left out, two steps in the wrong order, an argument ignored, an input changed in place,
``sin`` for ``cos``, a pair returned the wrong way round. Only the code between
``### BEGIN SOLUTION`` and ``### END SOLUTION`` is rewritten. The rewrites live by what
they change: one node (``expressions.py``, with ``operations.py`` and ``calls.py``), several
steps (``steps.py``), an operand at every use (``exchanges.py``), what a value is made of
(``statements.py``), what repeats (``repeats.py``); ``mutants()`` makes them all, in a
fixed order, and keeps each new cell once.

Each mutant carries a description in plain words, generated from the rewrite, that
completes the sentence "an answer that ...": "divides by `d` instead of its square root",
"uses `K` where `V` belongs". ``autograder/mutation/analysis.py`` measures how many of them
an exercise's checks catch; the grader names the one a wrong answer matches
(``autograder/mutation/variants.py``).
"""

from __future__ import annotations

import ast
import functools
import itertools
from dataclasses import dataclass

from autograder.mutation.exchanges import _exchanges, _one_for_all, _slices_dropped
from autograder.mutation.expressions import _node_rewrites
from autograder.mutation.free_numbers import _solution_lines
from autograder.mutation.repeats import _first_only, _into_loops, _loop_orders
from autograder.mutation.statements import (
    _arguments_ignored,
    _inlined_without_term,
    _inputs_transformed,
    _whole_reductions,
)
from autograder.mutation.steps import _dropout_moved, _steps_dropped, _steps_swapped, _tests_dropped
from autograder.mutation.syntax import _Scope

# Kinds whose mutants may never count as equivalent to the reference: an argument the
# checks never set, or an input changed in place, is a hole in the checks, not a harmless
# rewrite.
NEVER_EQUIVALENT = frozenset({"ignores an argument", "changes an input in place"})


@dataclass(frozen=True)
class Mutant:
    """One rewrite of a solution cell: its kind, its description, the whole new cell."""

    kind: str
    description: str
    source: str


def mutants(source: str) -> list[Mutant]:
    """Every mutant of the solution in a cell's ``source``; duplicates and mutants that
    do not compile are left out."""
    return list(_mutants(source))


@functools.cache  # a grading worker names mistakes in the same answers for every student
def _mutants(source: str) -> tuple[Mutant, ...]:
    tree = ast.parse(source)
    lines = _solution_lines(source)
    scope = _Scope(tree)
    reference = ast.unparse(tree)
    found: dict[str, Mutant] = {}

    def fresh() -> ast.Module:  # a copy of the tree to rewrite (parsing is 3x deepcopy's speed)
        return ast.parse(source)

    def keep(kind: str, description: str, new_tree: ast.AST) -> None:
        try:
            text = ast.unparse(ast.fix_missing_locations(new_tree))
            compile(text, "<mutant>", "exec")
        except (SyntaxError, ValueError, TypeError, AttributeError):
            return
        if text != reference and text not in found:
            found[text] = Mutant(kind, description, text)

    # in this order: where two rewrites give the same code, the first one's description stays
    for kind, description, new_tree in itertools.chain(
        _node_rewrites(tree, lines, scope, fresh),
        _steps_swapped(tree, lines, fresh),
        _steps_dropped(tree, lines, fresh),
        _first_only(tree, lines, fresh),
        _loop_orders(tree, lines, fresh),
        _into_loops(tree, lines, fresh),
        _exchanges(tree, lines, scope, fresh),
        _one_for_all(tree, lines, scope, fresh),
        _slices_dropped(tree, lines, fresh),
        _dropout_moved(tree, lines, fresh),
        _whole_reductions(tree, lines, fresh),
        _inputs_transformed(tree, lines, fresh),
        _inlined_without_term(tree, lines, fresh),
        _arguments_ignored(tree, lines, fresh, scope),
        _tests_dropped(tree, lines, fresh),
    ):
        keep(kind, description, new_tree)
    return tuple(found.values())


def defined_names(source: str) -> list[str]:
    """The functions and classes a solution cell defines (what its checks call)."""
    return [
        node.name
        for node in ast.parse(source).body
        if isinstance(node, (ast.FunctionDef, ast.ClassDef))
    ]
