"""The typed mistakes of what an answer repeats: a step applied only on a function's first
call, only to a loop's first item or only to a batch's first item, a loop run backwards or
over its last item only, a state made anew at every pass of a loop instead of once before
it: the kind that passes checks which call once, loop once or pass a batch of one. Each is
(kind, description, the whole new tree), made on a fresh copy of the tree (``fresh()``)."""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Iterator
from typing import cast

from autograder.mutation.syntax import _code, _functions


def _updates(body: list, bound: set[str], lines: set[int]) -> Iterator[int]:
    """Indices of the statements in ``body`` (on solution lines) that change what is already
    there: a call, an `if`, `x += ...`, or `x = ...` of a name bound before."""
    bound = set(bound)
    for index, statement in enumerate(body):
        targets = [t.id for t in getattr(statement, "targets", []) if isinstance(t, ast.Name)]
        if statement.lineno in lines and (
            isinstance(statement, (ast.Expr, ast.If, ast.AugAssign))
            or (isinstance(statement, ast.Assign) and targets and set(targets) <= bound)
        ):
            yield index
        bound |= set(targets)


FIRST_ITEM = ast.parse(
    "def _mutant_first_item(new, old):\n"
    "    if isinstance(new, torch.Tensor) and isinstance(old, torch.Tensor) \\\n"
    "            and new.shape == old.shape and new.dim() > 0:\n"
    "        return torch.cat([new[:1], old[1:]])\n"
    "    return new\n"
).body[0]


def _first_only(
    tree: ast.AST, lines: set[int], fresh: Callable[[], ast.Module]
) -> Iterator[tuple[str, str, ast.AST]]:
    """Mutants that apply one step only on a function's first call, only to a loop's first
    item, or only to the first item of a batch: the kind that passes checks which call once
    or pass a batch of one."""
    functions = _functions(tree)
    target: ast.FunctionDef | ast.AsyncFunctionDef | ast.For  # the node rewritten, in new_tree
    for number, function in enumerate(functions):
        parameters = {a.arg for a in function.args.args + function.args.kwonlyargs}
        for index in _updates(function.body, parameters, lines):
            statement = function.body[index]
            new_tree = fresh()
            target = _functions(new_tree)[number]
            key = f"{function.name}:{number}"
            counter = ast.parse(f"_mutant_calls[{key!r}] = _mutant_calls.get({key!r}, 0) + 1").body[
                0
            ]
            guarded = ast.If(
                ast.parse(f"_mutant_calls[{key!r}] == 1", mode="eval").body,
                [target.body[index]],
                [],
            )
            target.body[index] = guarded
            target.body.insert(0, counter)
            new_tree.body.insert(0, ast.parse("_mutant_calls = {}").body[0])
            yield (
                "first call only",
                f"applies {_code(statement)} only on the first call",
                new_tree,
            )
        updates = [
            n
            for n in ast.walk(function)
            if isinstance(n, ast.Assign)
            and n.lineno in lines
            and len(n.targets) == 1
            and isinstance(n.targets[0], ast.Name)
            and any(isinstance(x, ast.Name) and x.id == n.targets[0].id for x in ast.walk(n.value))
        ]  # x = f(x): a step applied to x
        for statement in updates:
            assert isinstance(statement.targets[0], ast.Name)  # as updates above were chosen
            new_tree = fresh()
            target = _functions(new_tree)[number]
            assign = [
                n
                for n in ast.walk(target)
                if isinstance(n, ast.Assign)
                and n.lineno in lines
                and ast.dump(n) == ast.dump(statement)
            ][0]
            assign.value = ast.Call(
                ast.Name("_mutant_first_item", ast.Load()),
                [assign.value, ast.Name(statement.targets[0].id, ast.Load())],
                [],
            )
            new_tree.body.insert(0, copy.deepcopy(FIRST_ITEM))
            yield (
                "first item only",
                f"applies {_code(statement, 60)} only to the first item of the batch",
                new_tree,
            )
    loops = [n for n in ast.walk(tree) if isinstance(n, ast.For) and n.lineno in lines]
    for number, loop in enumerate(loops):
        for index in _updates(
            loop.body,
            {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}
            | _names_before(tree, loop),
            lines,
        ):
            new_tree = fresh()
            target = [
                n for n in ast.walk(new_tree) if isinstance(n, ast.For) and n.lineno in lines
            ][number]
            statement = target.body[index]
            target.body[index] = ast.If(ast.Name("_mutant_first", ast.Load()), [statement], [])
            target.body.append(ast.parse("_mutant_first = False").body[0])
            _insert_before(new_tree, target, ast.parse("_mutant_first = True").body[0])
            yield (
                "first item only",
                f"applies {_code(statement)} only to the loop's first item",
                new_tree,
            )


def _loop_orders(
    tree: ast.AST, lines: set[int], fresh: Callable[[], ast.Module]
) -> Iterator[tuple[str, str, ast.AST]]:
    """A loop over a sequence (blocks, heads, steps) run backwards, or over its last item
    only: what a stack gives when every pass starts again from the loop's input, so that
    only the last pass counts."""

    def stack_loops(root: ast.AST) -> list[ast.For]:  # loops over a name, not a range
        return [
            n
            for n in ast.walk(root)
            if isinstance(n, ast.For)
            and n.lineno in lines
            and isinstance(n.iter, (ast.Name, ast.Attribute))
        ]

    for number, loop in enumerate(stack_loops(tree)):
        items = ast.unparse(loop.iter)
        for order, description in (
            (
                f"list({items})[::-1]",
                f"runs the loop over `{items}` in reverse order (the last item first)",
            ),
            (
                f"list({items})[-1:]",
                f"runs the loop over only the last item of "
                f"`{items}`, as if every pass started again from the "
                "loop's input (so only the last one counts)",
            ),
        ):
            new_tree = fresh()
            stack_loops(new_tree)[number].iter = ast.parse(order, mode="eval").body
            yield ("changes a loop's order", description, new_tree)


def _root(node: ast.AST) -> str | None:
    """The name an expression starts from: `history` in `history["bits"].append`."""
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _changed_in(body: list) -> set[str]:
    """The names a loop's body changes: assigns to, adds to, or calls a method of."""
    changed = set()
    for node in (n for statement in body for n in ast.walk(statement)):
        if isinstance(node, (ast.Assign, ast.AugAssign)):
            for target in getattr(node, "targets", [getattr(node, "target", None)]):
                changed |= {
                    _root(t)
                    for t in ast.walk(target)
                    if isinstance(t, (ast.Name, ast.Attribute, ast.Subscript))
                }
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            changed.add(_root(node.func.value))
    return cast(set[str], changed - {None})


def _into_loops(
    tree: ast.AST, lines: set[int], fresh: Callable[[], ast.Module]
) -> Iterator[tuple[str, str, ast.AST]]:
    """A state made once before a loop that changes it (a list appended to, a scheduler
    stepped, a running maximum) made inside the loop instead, anew at every pass."""
    places = []
    for owner_number, owner in enumerate(ast.walk(tree)):
        block = getattr(owner, "body", None)
        for index, loop in enumerate(block if isinstance(block, list) else []):
            if isinstance(loop, ast.For) and loop.lineno in lines:
                assert isinstance(block, list)  # enumerated above
                changed = _changed_in(loop.body)
                places += [
                    (owner_number, index, before)
                    for before, statement in enumerate(block[:index])
                    if isinstance(statement, ast.Assign)
                    and statement.lineno in lines
                    and len(statement.targets) == 1
                    and isinstance(statement.targets[0], ast.Name)
                    and statement.targets[0].id in changed
                ]
    for owner_number, index, before in places:
        new_tree = fresh()
        block = getattr(list(ast.walk(new_tree))[owner_number], "body", None)
        assert isinstance(block, list)  # the copy's node of that number: an owner, as above
        statement, loop = block[before], block[index]
        loop.body.insert(0, statement)
        del block[before]
        yield (
            "makes a state in a loop",
            f"makes {_code(statement)} inside the loop, anew at "
            "every pass, instead of once before it",
            new_tree,
        )


def _names_before(tree: ast.AST, loop: ast.For) -> set[str]:
    return {
        n.id
        for n in ast.walk(tree)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.lineno < loop.lineno
    } | {a.arg for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) for a in n.args.args}


def _insert_before(tree: ast.AST, statement: ast.stmt, new: ast.stmt) -> None:
    for node in ast.walk(tree):
        for field in ("body", "orelse"):
            block = getattr(node, field, None)
            if isinstance(block, list) and any(item is statement for item in block):
                block.insert(next(i for i, item in enumerate(block) if item is statement), new)
                return
