"""The typed mistakes of a reference answer that change more than one node: a step left
out or two steps in the wrong order, a test left out, dropout moved to a later value, a
reduction over the whole tensor, an intermediate used once without one of its terms, an
argument ignored, two operands of one role exchanged (or one read for all) at every use, a
slice left out wherever it is taken. Each is (kind, description, the whole new tree), made
on a fresh copy of the tree (``fresh()``)."""

from __future__ import annotations

import ast
import copy
import itertools
from collections.abc import Callable, Iterator
from typing import cast

from autograder.mutation.syntax import _call_name, _code, _functions, _Scope, _set, _sliced, _walk


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
