"""The typed mistakes at one node of a reference answer's syntax tree: an operand swapped
for another of its role, a literal or a count one off, a test left out, a comparison, a
subscript, a transpose or a flag changed, an update made an assignment, a returned value
dropped or the values in the wrong order. Each is (kind, description, the node that
replaces it). ``REWRITES``, at the end, gives each type of node its rewrites in order, with
those of an operation (``operations.py``) and of a call (``calls.py``)."""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Iterator

from autograder.mutation.calls import _call_rewrites
from autograder.mutation.operations import OPERATION_REWRITES, _power_unbracketed
from autograder.mutation.operators import (
    _ROLE_SUFFIX,
    AXES,
    COMPARE_SWAPS,
    COUNTED,
    INPLACE,
    OPERATOR_VERBS,
    OPERATOR_WORDS,
)
from autograder.mutation.syntax import (
    _call_name,
    _code,
    _int,
    _number,
    _Scope,
    _set,
    _sliced,
    _walk,
)


def _name_rewrites(
    node: ast.Name, parent: ast.AST, field: str, scope: _Scope
) -> Iterator[tuple[str, str, ast.AST]]:
    """A name read: another of its role, a count one off, an argument's default."""
    if not isinstance(node.ctx, ast.Load):
        return
    # where the name is read more than once, say which of its uses it is
    where = (
        f" in {_code(parent)}"
        if scope.uses.get(node.id, 0) > 1
        and isinstance(parent, (ast.Call, ast.BinOp, ast.Subscript))
        else ""
    )
    for other in scope.partners(node.id):
        yield (
            "swaps an operand",
            f"uses `{other}` where `{node.id}` belongs{where}",
            ast.Name(other, ast.Load()),
        )
    if (
        node.id in scope.parameters
        and node.id not in scope.tensors
        and isinstance(parent, ast.BinOp)
        and type(parent.op) in OPERATOR_WORDS
        and not isinstance(parent.op, (ast.MatMult, ast.Pow))
    ):
        for op, sign in ((ast.Add(), "+"), (ast.Sub(), "−")):  # a count one step off
            yield (
                "off by one",
                f"uses `{node.id}` {sign} 1 instead of `{node.id}` in {_code(parent)}",
                ast.BinOp(node, op, ast.Constant(1)),
            )
    if node.id in scope.defaults and not (isinstance(parent, ast.Compare)):
        default = scope.defaults[node.id]
        yield (
            "ignores an argument",
            f"ignores its `{node.id}` argument (as if it were {ast.unparse(default)})",
            copy.deepcopy(default),
        )


def _string_rewrites(
    node: ast.Constant, parent: ast.AST, field: str, scope: _Scope
) -> Iterator[tuple[str, str, ast.AST]]:
    """A string: a key of another role (`"w_k"` for `"w_q"`), 0 for infinity."""
    if not isinstance(node.value, str):
        return
    match = _ROLE_SUFFIX.match(node.value)
    if match and isinstance(parent, ast.Subscript):
        for letter in "qkv":
            other = node.value[:-1] + letter
            if other != node.value and node.value[-1] in "qkv":
                yield (
                    "swaps an operand",
                    f"uses `{other}` where `{node.value}` belongs",
                    ast.Constant(other),
                )
    if node.value in ("-inf", "inf"):
        yield (
            "changes a constant",
            "fills with 0 instead of −infinity"
            if node.value == "-inf"
            else "uses 0 instead of infinity",
            ast.Constant("0"),
        )


def _integer_rewrites(
    node: ast.Constant | ast.UnaryOp, parent: ast.AST, field: str, scope: _Scope
) -> Iterator[tuple[str, str, ast.AST]]:
    """An int literal (also `-1`, not the `1` in it) one off, but not a keyword's value."""
    if (
        (value := _int(node)) is None
        or isinstance(parent, ast.keyword)
        or (isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.USub))
    ):
        return
    for new in (value + 1, value - 1):
        yield ("off by one", f"uses {new} instead of {value} in {_code(parent)}", _number(new))


def _count_rewrites(
    node: ast.expr, parent: ast.AST, field: str, scope: _Scope
) -> Iterator[tuple[str, str, ast.AST]]:
    """An expression that counts or bounds (a slice's end, a range's end, a diagonal, not a
    literal: ``_integer_rewrites``) one off."""
    if not (
        isinstance(parent, ast.Slice)
        or (isinstance(parent, ast.Call) and field == "args" and _call_name(parent) in COUNTED)
    ):
        return
    where = f"the slice {_code(parent)}" if isinstance(parent, ast.Slice) else _code(parent)
    for op, sign in ((ast.Add(), "+"), (ast.Sub(), "−")):
        yield (
            "off by one",
            f"uses {_code(node)} {sign} 1 instead of {_code(node)} in {where} (off by one)",
            ast.BinOp(node, op, ast.Constant(1)),
        )


def _bool_rewrites(
    node: ast.Constant, parent: ast.AST, field: str, scope: _Scope
) -> Iterator[tuple[str, str, ast.AST]]:
    """`True` for `False` and the other way round."""
    if isinstance(node.value, bool):
        yield (
            "changes a constant",
            f"passes `{parent.arg}={not node.value}` where `{parent.arg}={node.value}` belongs"
            if isinstance(parent, ast.keyword) and parent.arg
            else f"uses {not node.value} instead of {node.value}",
            ast.Constant(not node.value),
        )


def _operator_dropped(
    node: ast.UnaryOp, parent: ast.AST, field: str, scope: _Scope
) -> Iterator[tuple[str, str, ast.AST]]:
    """A minus or a `~` left out (a negative literal is ``_integer_rewrites``')."""
    if not isinstance(node.op, ast.UAdd) and _int(node) is None:
        what = "mask's polarity inverted" if isinstance(node.op, ast.Invert) else "sign flipped"
        yield (
            "drops an operator",
            f"uses {_code(node.operand)} instead of {_code(node)} (the {what})",
            node.operand,
        )


def _test_dropped(
    node: ast.BoolOp, parent: ast.AST, field: str, scope: _Scope
) -> Iterator[tuple[str, str, ast.AST]]:
    """One of the tests of an `and` or an `or` left out."""
    for index, value in enumerate(node.values):
        rest = node.values[:index] + node.values[index + 1 :]
        kept = rest[0] if len(rest) == 1 else ast.BoolOp(node.op, rest)
        yield ("drops a test", f"tests {_code(kept)} without {_code(value)}", kept)


def _comparison_rewrites(
    node: ast.Compare, parent: ast.AST, field: str, scope: _Scope
) -> Iterator[tuple[str, str, ast.AST]]:
    """`<` for `<=`, `==` for `!=`, and an order comparison's sides exchanged."""
    if len(node.ops) != 1:
        return
    swap = COMPARE_SWAPS.get(type(node.ops[0]))
    if swap:
        new = ast.Compare(node.left, [swap()], node.comparators)
        yield ("changes a comparison", f"tests {_code(new)} instead of {_code(node)}", new)
    if not isinstance(node.ops[0], (ast.Eq, ast.NotEq, ast.Is, ast.IsNot)):
        new = ast.Compare(node.comparators[0], node.ops, [node.left])
        yield ("changes a comparison", f"tests {_code(new)} instead of {_code(node)}", new)


def _attribute_rewrites(
    node: ast.Attribute, parent: ast.AST, field: str, scope: _Scope
) -> Iterator[tuple[str, str, ast.AST]]:
    """`self.training` fixed, a transpose left out or written `.T`, an input's method made
    its in-place form."""
    if node.attr == "training" and isinstance(node.ctx, ast.Load):
        for flag in (True, False):
            yield (
                "changes a flag",
                f"uses {flag} where `{ast.unparse(node)}` belongs "
                f"({'dropout left on in eval mode' if flag else 'dropout never on'})",
                ast.Constant(flag),
            )
    if node.attr in ("T", "mT") and isinstance(node.ctx, ast.Load):
        yield (
            "removes a transpose",
            f"leaves out the transpose of {_code(node.value)}",
            node.value,
        )
    if node.attr == "mT" and isinstance(node.ctx, ast.Load):
        yield (
            "changes a layout",
            f"uses `{ast.unparse(node.value)}.T` where {_code(node)}"
            " belongs (`.T` reverses every axis of a batched tensor)",
            ast.Attribute(node.value, "T", ast.Load()),
        )
    if (
        node.attr in INPLACE
        and isinstance(parent, ast.Call)
        and field == "func"
        and isinstance(node.value, ast.Name)
        and node.value.id in scope.parameters
    ):
        yield (
            "changes an input in place",
            f"changes its input `{node.value.id}` in place "
            f"(`.{INPLACE[node.attr]}`) instead of making a new tensor",
            ast.Attribute(node.value, INPLACE[node.attr], ast.Load()),
        )


def _update_dropped(
    node: ast.AugAssign, parent: ast.AST, field: str, scope: _Scope
) -> Iterator[tuple[str, str, ast.AST]]:
    """`x += y` written `x = y`."""
    if type(node.op) in OPERATOR_VERBS:
        doing = {
            ast.Add: "adding it to",
            ast.Sub: "subtracting it from",
            ast.Mult: "multiplying",
            ast.Div: "dividing",
        }[type(node.op)]
        yield (
            "drops a term",
            f"sets `{ast.unparse(node.target)}` to {_code(node.value)} "
            f"instead of {doing} `{ast.unparse(node.target)}`"
            f"{' by it' if type(node.op) in (ast.Mult, ast.Div) else ''}",
            ast.Assign([node.target], node.value),
        )


def _return_rewrites(
    node: ast.Return, parent: ast.AST, field: str, scope: _Scope
) -> Iterator[tuple[str, str, ast.AST]]:
    """A tensor returned as a Python number, a value left out of those returned, or the
    returned values in the wrong order."""
    if isinstance(node.value, (ast.Name, ast.Call, ast.BinOp)):
        yield (
            "changes a type",
            f"returns a Python number (`.item()`) where the tensor {_code(node.value)} belongs",
            ast.Return(ast.Call(ast.Attribute(node.value, "item", ast.Load()), [], [])),
        )
    if isinstance(node.value, ast.Tuple) and len(node.value.elts) > 2:
        yield (
            "drops a value",
            f"returns one value too few (leaves out {_code(node.value.elts[-1])} at the end)",
            ast.Return(ast.Tuple(node.value.elts[:-1], ast.Load())),
        )
    if isinstance(node.value, ast.Tuple) and len(node.value.elts) > 1:
        swapped = ast.Tuple(list(reversed(node.value.elts)), ast.Load())
        yield (
            "swaps the returned values",
            f"returns {_code(swapped, 60)}: the results in the wrong order",
            ast.Return(swapped),
        )


def _size_rewrites(
    node: ast.Subscript, parent: ast.AST, field: str, scope: _Scope
) -> Iterator[tuple[str, str, ast.AST]]:
    """A size (`x.shape[-1]`) read from another axis or another tensor."""
    if (
        isinstance(node.ctx, ast.Load)
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "shape"
        and (axis := _int(node.slice)) is not None
    ):
        owner = ast.unparse(node.value.value)
        for other in sorted(scope.tensors):
            for new_axis in AXES:
                if (other, new_axis) != (owner, axis):
                    new = ast.Subscript(
                        ast.Attribute(ast.Name(other, ast.Load()), "shape", ast.Load()),
                        _number(new_axis),
                        ast.Load(),
                    )
                    yield (
                        "changes a size",
                        f"uses `{ast.unparse(new)}` where `{ast.unparse(node)}` belongs",
                        new,
                    )


def _subscript_rewrites(
    node: ast.Subscript, parent: ast.AST, field: str, scope: _Scope
) -> Iterator[tuple[str, str, ast.AST]]:
    """A pair used whole, an index, a slice or a new axis left out, a new axis on the other
    side."""
    if not isinstance(node.ctx, ast.Load):
        return
    index = node.slice
    if isinstance(node.value, ast.Call) and _int(index) == 0:
        yield (
            "uses a pair as a tensor",
            f"uses the whole result of {_code(node.value)} where its first element `[0]` belongs",
            node.value,
        )
    parts = index.elts if isinstance(index, ast.Tuple) else [index]
    if (
        len(parts) > 1
        and any(_int(p) is not None for p in parts)
        and not isinstance(node.value, ast.Attribute)
    ):  # x[:, 0]: an axis taken away
        yield (
            "drops an index",
            f"keeps the axis that {_code(node)} takes away (uses all of {_code(node.value)})",
            node.value,
        )
    if _sliced(node):
        yield (
            "drops a slice",
            f"uses all of {_code(node.value)} where {_code(node)} belongs",
            node.value,
        )
    if any(isinstance(p, ast.Constant) and p.value is None for p in parts):
        yield ("drops an axis", f"leaves out the new axis in {_code(node)}", node.value)
        if len(parts) > 1 and parts != parts[::-1]:
            new = ast.Subscript(
                node.value, ast.Tuple(list(reversed(parts)), ast.Load()), ast.Load()
            )
            yield (
                "changes an axis",
                f"puts the new axis on the other side: {_code(new)} where {_code(node)} belongs",
                new,
            )


# The rewrites of each type of node, in the order their mutants are made: where two give
# the same code, the mutant keeps the first one's description.
REWRITES: dict[type[ast.AST], tuple[Callable[..., Iterator[tuple[str, str, ast.AST]]], ...]] = {
    ast.Name: (_name_rewrites, _count_rewrites),
    ast.Constant: (_string_rewrites, _integer_rewrites, _bool_rewrites),
    ast.UnaryOp: (_integer_rewrites, _operator_dropped),
    ast.BinOp: (_count_rewrites, *OPERATION_REWRITES),
    ast.Attribute: (_count_rewrites, _attribute_rewrites),
    ast.Subscript: (_count_rewrites, _size_rewrites, _subscript_rewrites),
    ast.Call: (_count_rewrites, _power_unbracketed, _call_rewrites),
    ast.BoolOp: (_test_dropped,),
    ast.Compare: (_comparison_rewrites,),
    ast.AugAssign: (_update_dropped,),
    ast.Return: (_return_rewrites,),
}


def _rewrites(
    node: ast.AST, parent: ast.AST, field: str, scope: _Scope
) -> Iterator[tuple[str, str, ast.AST]]:
    """(kind, description, replacement) for every typed mistake at ``node``."""
    for rewrite in REWRITES.get(type(node), ()):
        yield from rewrite(node, parent, field, scope)


def _node_rewrites(
    tree: ast.AST, lines: set[int], scope: _Scope, fresh: Callable[[], ast.Module]
) -> Iterator[tuple[str, str, ast.AST]]:
    """(kind, description, the whole new tree) for every rewrite at every node on a solution
    line, made in a fresh copy of the tree at the node of the same number there."""
    for number, (parent, field, _index, node) in enumerate(_walk(tree)):
        if getattr(node, "lineno", None) not in lines:
            continue
        for kind, description, replacement in _rewrites(node, parent, field, scope):
            new_tree = fresh()
            new_parent, new_field, new_index, _ = next(
                item for n, item in enumerate(_walk(new_tree)) if n == number
            )
            _set(new_parent, new_field, new_index, copy.deepcopy(replacement))
            yield kind, description, new_tree
