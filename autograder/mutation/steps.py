"""The typed mistakes of a reference answer in its steps: a step left out or two steps in
the wrong order, a test left out, dropout moved to a later value. Each is (kind,
description, the whole new tree), made on a fresh copy of the tree (``fresh()``)."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator

from autograder.mutation.syntax import _call_name, _code


def _dropout_moved(
    tree: ast.AST, lines: set[int], fresh: Callable[[], ast.Module]
) -> Iterator[tuple[str, str, ast.AST]]:
    """Dropout applied to a later value (the output) instead of the one it belongs to (the
    attention weights)."""

    def places(root):
        for node in ast.walk(root):
            block = getattr(node, "body", None)
            for index, statement in enumerate(block if isinstance(block, list) else []):
                if (
                    isinstance(statement, ast.Assign)
                    and statement.lineno in lines
                    and isinstance(statement.value, ast.Call)
                    and _call_name(statement.value) == "dropout"
                    and statement.value.args
                ):
                    for later in block[index + 1 :]:
                        if (
                            isinstance(later, ast.Assign)
                            and len(later.targets) == 1
                            and isinstance(later.targets[0], ast.Name)
                        ):
                            yield statement, later

    for number, (statement, later) in enumerate(places(tree)):
        new_tree = fresh()
        new_statement, new_later = list(places(new_tree))[number]
        call = new_statement.value
        new_statement.value = call.args[0]
        new_later.value = ast.Call(call.func, [new_later.value, *call.args[1:]], call.keywords)
        yield (
            "moves a step",
            f"applies {_code(statement.value.func)} to "
            f"`{later.targets[0].id}` instead of to "
            f"{_code(statement.targets[0])}",
            new_tree,
        )


def _tests_dropped(
    tree: ast.AST, lines: set[int], fresh: Callable[[], ast.Module]
) -> Iterator[tuple[str, str, ast.AST]]:
    """An `if` without `else` whose body runs whatever its test says: `evaluate(model)`
    called even when no `evaluate` was given."""

    def tests(root):
        return [
            (block, index)
            for node in ast.walk(root)
            for field in ("body", "orelse")
            if isinstance(block := getattr(node, field, None), list)
            for index, statement in enumerate(block)
            if isinstance(statement, ast.If) and not statement.orelse and statement.lineno in lines
        ]

    for number, (block, index) in enumerate(tests(tree)):
        test = block[index].test
        new_tree = fresh()
        new_block, new_index = tests(new_tree)[number]
        new_block[new_index : new_index + 1] = new_block[new_index].body
        yield (
            "drops a test",
            f"runs what `if {ast.unparse(test)[:40]}` guards even when the "
            "test is false (leaves out the test)",
            new_tree,
        )


def _statements(tree: ast.AST, lines: set[int]) -> Iterator[tuple[list, int]]:
    """(block, index) of every statement in the solution that a block can do without: not
    a `return`, and not the block's only statement."""
    for node in ast.walk(tree):
        for field in ("body", "orelse"):
            block = getattr(node, field, None)
            if isinstance(block, list) and len(block) > 1:
                yield from (
                    (block, index)
                    for index, statement in enumerate(block)
                    if statement.lineno in lines and not isinstance(statement, ast.Return)
                )


def _neighbours(tree: ast.AST, lines: set[int]) -> Iterator[tuple[list, int]]:
    """(block, index) of every statement in the solution followed by another one there."""
    for node in ast.walk(tree):
        for field in ("body", "orelse"):
            block = getattr(node, field, None)
            if not isinstance(block, list):
                continue
            for index, (first, second) in enumerate(zip(block, block[1:], strict=False)):
                if (
                    first.lineno in lines
                    and second.lineno in lines
                    and not isinstance(second, ast.Return)
                ):
                    yield block, index


def _steps_swapped(
    tree: ast.AST, lines: set[int], fresh: Callable[[], ast.Module]
) -> Iterator[tuple[str, str, ast.AST]]:
    """Two neighbouring steps in the wrong order."""
    for number, (block, index) in enumerate(_neighbours(tree, lines)):
        new_tree = fresh()
        _swap(*list(_neighbours(new_tree, lines))[number])
        yield (
            "swaps two steps",
            f"runs {_code(block[index + 1])} before {_code(block[index])}",
            new_tree,
        )


def _steps_dropped(
    tree: ast.AST, lines: set[int], fresh: Callable[[], ast.Module]
) -> Iterator[tuple[str, str, ast.AST]]:
    """A step left out."""
    for number, (block, index) in enumerate(_statements(tree, lines)):
        new_tree = fresh()
        _drop(*list(_statements(new_tree, lines))[number])
        yield "drops a step", f"leaves out the step {_code(block[index])}", new_tree


def _swap(block: list, index: int) -> None:
    block[index], block[index + 1] = block[index + 1], block[index]


def _drop(block: list, index: int) -> None:
    del block[index]
