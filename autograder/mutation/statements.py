"""The typed mistakes of a reference answer that change more than one node in what a value
is made of: a reduction over the whole tensor, the transformed input carried on the residual
path, an intermediate used once without one of its terms, an argument ignored. Each is
(kind, description, the whole new tree), made on a fresh copy of the tree (``fresh()``).

The other rewrites of several nodes live by what they change: the steps (a step left out or
two in the wrong order, a test left out, dropout moved) in ``steps.py``, operands exchanged
at every use (and a slice left out wherever it is taken) in ``exchanges.py``."""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Iterator
from typing import cast

from autograder.mutation.syntax import _call_name, _code, _functions, _Scope, _set, _walk


def _reads(root: ast.AST, name: str, lines: set[int]) -> list[tuple[ast.AST, str, int | None]]:
    """(parent, field, index) of every read of ``name`` under ``root`` on solution lines."""
    return [
        (parent, field, index)
        for parent, field, index, node in _walk(root)
        if isinstance(node, ast.Name)
        and isinstance(node.ctx, ast.Load)
        and node.id == name
        and getattr(node, "lineno", None) in lines
    ]


def _whole_reductions(
    tree: ast.AST, lines: set[int], fresh: Callable[[], ast.Module]
) -> Iterator[tuple[str, str, ast.AST]]:
    """Every reduction of a function (a mean, a variance) taken over the whole tensor at once
    instead of over its axis: one number for all tokens where each token needs its own."""

    def reductions(function):
        return [
            n
            for n in ast.walk(function)
            if isinstance(n, ast.Call)
            and getattr(n, "lineno", None) in lines
            and _call_name(n) in ("mean", "var", "std", "sum", "amax", "logsumexp")
            and (
                any(k.arg in ("dim", "axis") for k in n.keywords)
                or (isinstance(n.func, ast.Attribute) and n.args)
            )
        ]

    for number, function in enumerate(_functions(tree)):
        calls = reductions(function)
        if not calls:
            continue
        new_tree = fresh()
        for call in reductions(_functions(new_tree)[number]):
            method = isinstance(call.func, ast.Attribute) and ast.unparse(call.func.value) not in (
                "torch",
                "F",
            )
            call.args = [] if method else call.args[:1]
            call.keywords = [k for k in call.keywords if k.arg not in ("dim", "axis", "keepdim")]
        names = " and ".join(dict.fromkeys(f"`{_call_name(c)}`" for c in calls))
        yield (
            "changes an axis",
            f"takes {names} over the whole tensor at once instead of "
            "over one axis (one number for every token)",
            new_tree,
        )


def _inputs_transformed(
    tree: ast.AST, lines: set[int], fresh: Callable[[], ast.Module]
) -> Iterator[tuple[str, str, ast.AST]]:
    """A residual that adds the transformed input (`norm1(x)`) where the input itself
    (`x`) belongs: `x + attention(norm1(x))` written as `norm1(x) + attention(norm1(x))`."""
    found = []
    for function in _functions(tree):
        calls = [
            n
            for n in ast.walk(function)
            if isinstance(n, ast.Call)
            and getattr(n, "lineno", None) in lines
            and isinstance(n.func, ast.Name)
            and len(n.args) == 1
            and isinstance(n.args[0], ast.Name)
        ]
        found += [
            (call, parent, field)
            for call in calls
            for parent, field, _ in _reads(function, cast(ast.Name, call.args[0]).id, lines)
            if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Add)
        ]
    for call, parent, field in found:
        assert isinstance(call.args[0], ast.Name)  # as calls above were chosen
        new_tree = fresh()
        new_parent = next(
            n
            for n in ast.walk(new_tree)
            if isinstance(n, ast.BinOp) and ast.dump(n) == ast.dump(parent)
        )
        setattr(new_parent, field, copy.deepcopy(call))
        yield (
            "swaps an operand",
            f"adds {_code(call)} where `{call.args[0].id}` belongs in "
            f"{_code(parent)} (the residual path carries the transformed input)",
            new_tree,
        )


def _inlined_without_term(
    tree: ast.AST, lines: set[int], fresh: Callable[[], ast.Module]
) -> Iterator[tuple[str, str, ast.AST]]:
    """One use of an intermediate made again without one of its terms: a softmax whose
    numerator is shifted by the maximum and whose denominator is not."""
    places = []
    index: int | None  # a statement's place in its block, then a use's in its field
    for owner in ast.walk(tree):
        block = getattr(owner, "body", None)
        for index, statement in enumerate(block if isinstance(block, list) else []):
            if (
                isinstance(statement, ast.Assign)
                and statement.lineno in lines
                and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Name)
            ):
                name = statement.targets[0].id
                assert isinstance(block, list)  # enumerated above
                uses = [u for later in block[index + 1 :] for u in _reads(later, name, lines)]
                terms = [
                    n
                    for n in ast.walk(statement.value)
                    if isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Add, ast.Sub))
                ]
                if len(uses) > 1:
                    places += [
                        (statement, use, term)
                        for use in range(len(uses))
                        for term in range(len(terms))
                    ]
    for statement, use, term in places:
        new_tree = fresh()
        new_statement = [
            n
            for n in ast.walk(new_tree)
            if isinstance(n, ast.Assign) and ast.dump(n) == ast.dump(statement)
        ][0]
        block = next(
            b
            for n in ast.walk(new_tree)
            if isinstance(b := getattr(n, "body", None), list) and new_statement in b
        )
        name = cast(ast.Name, statement.targets[0]).id  # places holds assignments to a name
        parent, field, index = [
            u
            for later in block[block.index(new_statement) + 1 :]
            for u in _reads(later, name, lines)
        ][use]
        value = copy.deepcopy(statement.value)
        binop = [
            n
            for n in ast.walk(value)
            if isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Add, ast.Sub))
        ][term]
        dropped = f"{'+' if isinstance(binop.op, ast.Add) else '−'} {_code(binop.right)}"
        for p, f, i, n in _walk(value):
            if n is binop:
                _set(p, f, i, binop.left)
                break
        else:
            value = binop.left
        use_node = getattr(parent, field) if index is None else getattr(parent, field)[index]
        context = next(
            (
                f"the {side} {_code(d)}"
                for d in ast.walk(new_tree)
                if isinstance(d, ast.BinOp) and isinstance(d.op, ast.Div)
                for side, part in (("denominator of", d.right), ("numerator of", d.left))
                if any(n is use_node for n in ast.walk(part))
            ),
            _code(parent),
        )
        _set(parent, field, index, value)
        yield (
            "drops a term",
            f"leaves out {dropped} from `{name}` in {context} (the other uses keep it)",
            new_tree,
        )


def _arguments_ignored(
    tree: ast.AST, lines: set[int], fresh: Callable[[], ast.Module], scope: _Scope
) -> Iterator[tuple[str, str, ast.AST]]:
    """An argument indexed by the answer (positions, steps) ignored for the ordinary case
    0 … n − 1: right only when it starts at 0, as it does before a cache holds anything."""
    for number, function in enumerate(_functions(tree)):
        first = next((i for i, s in enumerate(function.body) if s.lineno in lines), None)
        indexed = {
            n.value.id
            for n in ast.walk(function)
            if isinstance(n, ast.Subscript)
            and isinstance(n.value, ast.Name)
            and getattr(n, "lineno", None) in lines
        }
        for argument in function.args.args:
            name = argument.arg
            if (
                first is None
                or name not in indexed
                or name in scope.tensors
                or name in scope.defaults
            ):
                continue
            new_tree = fresh()
            _functions(new_tree)[number].body.insert(
                first, ast.parse(f"{name} = torch.arange(len({name}))").body[0]
            )
            yield (
                "treats an argument as a count",
                f"ignores the values of `{name}`, as if they were always 0, 1, 2, …",
                new_tree,
            )
