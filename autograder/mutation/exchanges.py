"""The typed mistakes of a reference answer that change an operand wherever the solution
uses it: two operands of one role exchanged (or one read for all) at every use, a slice left
out wherever it is taken. Each is (kind, description, the whole new tree), made on a fresh
copy of the tree (``fresh()``)."""

from __future__ import annotations

import ast
import itertools
from collections.abc import Callable, Iterator

from autograder.mutation.syntax import _Scope, _set, _sliced, _walk


def _exchanges(
    tree: ast.AST, lines: set[int], scope: _Scope, fresh: Callable[[], ast.Module]
) -> Iterator[tuple[str, str, ast.AST]]:
    """Two operands of one role exchanged wherever the solution uses them: `norm3` after
    the cross-attention and `norm2` after the feed-forward network."""
    used = sorted(
        {
            n.id
            for n in ast.walk(tree)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.lineno in lines
        }
    )
    for a, b in itertools.combinations(used, 2):
        if b not in scope.partners(a):
            continue
        new_tree = fresh()
        for node in ast.walk(new_tree):
            if (
                isinstance(node, ast.Name)
                and isinstance(node.ctx, ast.Load)
                and getattr(node, "lineno", None) in lines
                and node.id in (a, b)
            ):
                node.id = b if node.id == a else a
        yield ("swaps operands", f"exchanges `{a}` and `{b}` wherever it uses them", new_tree)


def _one_for_all(
    tree: ast.AST, lines: set[int], scope: _Scope, fresh: Callable[[], ast.Module]
) -> Iterator[tuple[str, str, ast.AST]]:
    """One argument read wherever others of its role belong, at every use: `query` for `key`
    and `value` (self-attention where cross-attention belongs)."""
    used = sorted(
        {
            n.id
            for n in ast.walk(tree)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.lineno in lines
        }
        & scope.parameters
    )
    for a in used:
        others = [b for b in scope.partners(a) if b in used]
        for replaced in [[b] for b in others] + ([others] if len(others) > 1 else []):
            new_tree = fresh()
            for node in ast.walk(new_tree):
                if (
                    isinstance(node, ast.Name)
                    and isinstance(node.ctx, ast.Load)
                    and getattr(node, "lineno", None) in lines
                    and node.id in replaced
                ):
                    node.id = a
            names = " and ".join(f"`{b}`" for b in replaced)
            alone = " alone," if len(replaced) > 1 else ""
            yield (
                "swaps operands",
                f"uses `{a}`{alone} wherever {names} belong{'s' if len(replaced) == 1 else ''}",
                new_tree,
            )


def _slices_dropped(
    tree: ast.AST, lines: set[int], fresh: Callable[[], ast.Module]
) -> Iterator[tuple[str, str, ast.AST]]:
    """One slice left out wherever the solution takes it, from several tensors at once:
    the whole of both caches where their first `end` positions belong."""
    groups: dict[str, list[str]] = {}
    for node in ast.walk(tree):
        if _sliced(node) and node.lineno in lines:
            groups.setdefault(ast.unparse(node.slice), []).append(ast.unparse(node.value))
    for index, values in groups.items():
        if len(set(values)) < 2:
            continue
        new_tree = fresh()
        for parent, field, position, node in list(_walk(new_tree)):
            if _sliced(node) and node.lineno in lines and ast.unparse(node.slice) == index:
                _set(parent, field, position, node.value)
        names = " and ".join(f"`{v}`" for v in dict.fromkeys(values))
        yield (
            "drops a slice",
            f"uses all of {names} where `[{index.strip('()')}]` of them belongs",
            new_tree,
        )
