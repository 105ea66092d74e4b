"""The typed mistakes of an arithmetic operation in a reference answer: a term, a factor or
a power left out, a scale by a square root changed, `/` for `//`, `+` for `-`, brackets in
the wrong place or a root written `x ** 1/2`, a matrix product transposed or reversed, an
argument changed in place. Each takes the node, its parent, the parent's field and the
scope, like every rewrite in ``expressions.REWRITES``, and gives (kind, description, the node
that replaces it)."""

from __future__ import annotations

import ast
import contextlib
from collections.abc import Iterator
from fractions import Fraction
from typing import Any, TypeGuard

from autograder.mutation.operators import (
    OPERATOR_INPLACE,
    OPERATOR_SWAPS,
    OPERATOR_VERBS,
    OPERATOR_WORDS,
    PRECEDENCE,
)
from autograder.mutation.syntax import _call_name, _code, _number, _Scope


def _is_sqrt(node: ast.AST) -> TypeGuard[ast.Call | ast.BinOp]:
    return (isinstance(node, ast.Call) and _call_name(node) == "sqrt" and len(node.args) == 1) or (
        isinstance(node, ast.BinOp)
        and isinstance(node.op, ast.Pow)
        and isinstance(node.right, ast.Constant)
        and node.right.value == 0.5
    )


def _sqrt_argument(node: ast.Call | ast.BinOp) -> ast.expr:
    return node.args[0] if isinstance(node, ast.Call) else node.left


def _fractional_power(node: ast.AST) -> tuple[str, Fraction] | None:
    """The base and exponent of a root or fractional power (`math.sqrt(d)`, `x.rsqrt()`,
    `n ** -1.5`): (`d`, 1/2), the base bracketed as `**` needs."""
    base, exponent = None, None
    if isinstance(node, ast.Call) and _call_name(node) in ("sqrt", "rsqrt") and not node.keywords:
        exponent = Fraction(1 if _call_name(node) == "sqrt" else -1, 2)
        if len(node.args) == 1:
            base = node.args[0]
        elif not node.args and isinstance(node.func, ast.Attribute):
            base = node.func.value
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
        right, sign = node.right, 1
        if isinstance(right, ast.UnaryOp) and isinstance(right.op, ast.USub):
            right, sign = right.operand, -1
        if isinstance(right, ast.Constant) and type(right.value) is float:
            fraction = Fraction(sign * right.value).limit_denominator(4)
            if fraction.denominator > 1 and float(fraction) == sign * right.value:
                base, exponent = node.left, fraction
    if base is None:
        return None
    assert exponent is not None  # found with the base
    return ast.unparse(ast.BinOp(base, ast.Pow(), ast.Name("__power__"))).replace(
        " ** __power__", ""
    ), exponent


def _unbracketed(
    node: ast.AST, base: str, exponent: Fraction, context: str
) -> tuple[str, str, ast.AST]:
    """The mutant that writes ``node`` as `base ** p/q`, without brackets, in ``context`` (its
    text with the node as `__power__`), as Python reads it: `(base ** p) / q`."""
    p, q = exponent.numerator, exponent.denominator
    new = ast.parse(context.replace("__power__", f"{base} ** {p} / {q}"), mode="eval").body
    return (
        "leaves out brackets",
        f"writes {_code(node)} as `{base} ** {p}/{q}`, which Python "
        f"reads as ({base} ** {p}) / {q}: `**` comes before `/` (operator precedence), so "
        "brackets are needed around the exponent",
        new,
    )


def _root_scales(
    node: ast.BinOp, parent: ast.AST, field: str, scope: _Scope
) -> Iterator[tuple[str, str, ast.AST]]:
    """A division by a square root made a division by its argument, or a product."""
    if isinstance(node.op, ast.Div) and _is_sqrt(node.right):
        root = _sqrt_argument(node.right)
        yield (
            "changes a scale",
            f"divides by {_code(root)} instead of its square root",
            ast.BinOp(node.left, ast.Div(), root),
        )
        yield (
            "changes a scale",
            f"multiplies by √{_code(root)} instead of dividing by it",
            ast.BinOp(node.left, ast.Mult(), node.right),
        )


def _terms_dropped(
    node: ast.BinOp, parent: ast.AST, field: str, scope: _Scope
) -> Iterator[tuple[str, str, ast.AST]]:
    """A factor, a divisor or a term left out; the parts of a joined sequence exchanged."""
    op = type(node.op)
    if op in (ast.Div, ast.Mult, ast.FloorDiv):
        yield (
            "drops a term",
            f"leaves out the {'factor' if op is ast.Mult else 'division by'} {_code(node.right)}",
            node.left,
        )
    if op is ast.Mult:
        yield ("drops a term", f"leaves out the factor {_code(node.left)}", node.right)
    if op is ast.Add and any(
        isinstance(x, (ast.List, ast.Tuple))
        or (isinstance(x, ast.Constant) and isinstance(x.value, str))
        for x in (node.left, node.right)
    ):  # a sequence joined: its parts' order counts
        yield (
            "swaps operands",
            f"joins {_code(node.right)} before {_code(node.left)}: the parts in the wrong order",
            ast.BinOp(node.right, ast.Add(), node.left),
        )
    if op in (ast.Add, ast.Sub):
        yield (
            "drops a term",
            f"leaves out {'+' if op is ast.Add else '−'} {_code(node.right)} in {_code(node)}",
            node.left,
        )
        if op is ast.Add:
            yield ("drops a term", f"leaves out {_code(node.left)} + in {_code(node)}", node.right)


def _power_rewrites(
    node: ast.BinOp, parent: ast.AST, field: str, scope: _Scope
) -> Iterator[tuple[str, str, ast.AST]]:
    """A power left out, or a negative exponent's sign."""
    if isinstance(node.op, ast.Pow):
        yield ("changes a scale", f"leaves out the power ** {ast.unparse(node.right)}", node.left)
        if isinstance(node.right, ast.UnaryOp) and isinstance(node.right.op, ast.USub):
            yield (
                "changes a scale",
                f"raises {_code(node.left)} to "
                f"{_code(node.right.operand)} instead of {_code(node.right)}",
                ast.BinOp(node.left, ast.Pow(), node.right.operand),
            )


def _division_swapped(
    node: ast.BinOp, parent: ast.AST, field: str, scope: _Scope
) -> Iterator[tuple[str, str, ast.AST]]:
    """`/` for `//` and `//` for `/`."""
    op = type(node.op)
    if op in (ast.Div, ast.FloorDiv):
        other = ast.FloorDiv if op is ast.Div else ast.Div
        yield (
            "swaps an operator",
            f"divides with `{'//' if other is ast.FloorDiv else '/'}`"
            f" where `{'/' if op is ast.Div else '//'}` belongs"
            f"{' (integer division)' if other is ast.FloorDiv else ''}",
            ast.BinOp(node.left, other(), node.right),
        )


def _bracket_rewrites(
    node: ast.BinOp, parent: ast.AST, field: str, scope: _Scope
) -> Iterator[tuple[str, str, ast.AST]]:
    """The same operation with brackets in the wrong place: around the operand's first
    part only (`10000 ** (2 * i) / d` for `10000 ** (2 * i / d)`, `x - m / s` for
    `(x - m) / s`), or left out altogether, as Python then reads it."""
    rank, op = PRECEDENCE.get(type(node.op), 0), node.op
    found: list[ast.expr] = []
    left, right = node.left, node.right
    if (
        isinstance(right, ast.BinOp)
        and PRECEDENCE.get(type(right.op), 9) <= rank
        and not isinstance(op, ast.Pow)
        or isinstance(right, ast.BinOp)
        and isinstance(op, ast.Pow)
        and PRECEDENCE.get(type(right.op), 9) < rank
    ):
        found.append(ast.BinOp(ast.BinOp(left, op, right.left), right.op, right.right))
    if isinstance(left, ast.BinOp) and PRECEDENCE.get(type(left.op), 9) < rank:
        found.append(ast.BinOp(left.left, left.op, ast.BinOp(left.right, op, right)))
    symbol = ast.unparse(ast.BinOp(ast.Name("a"), op, ast.Name("b")))[1:-1]
    for text in (
        f"({ast.unparse(left)}){symbol}{ast.unparse(right)}",
        f"{ast.unparse(left)}{symbol}({ast.unparse(right)})",
    ):
        with contextlib.suppress(SyntaxError):
            found.append(ast.parse(text, mode="eval").body)
    seen = {ast.dump(node)}
    for new in found:
        if ast.dump(new) not in seen:
            seen.add(ast.dump(new))
            yield (
                "leaves out brackets",
                f"computes {_code(new, 60)} instead of "
                f"{_code(node, 60)} (brackets in the wrong place)",
                new,
            )


def _operands_unbracketed(
    node: ast.BinOp, parent: ast.AST, field: str, scope: _Scope
) -> Iterator[tuple[str, str, ast.AST]]:
    """An operand that is a root or a fractional power written as `base ** p/q`."""
    for side in ("left", "right"):
        if written := _fractional_power(operand := getattr(node, side)):
            fields: dict[str, Any] = {
                "left": node.left,
                "op": node.op,
                "right": node.right,
                side: ast.Name("__power__"),
            }
            context = ast.unparse(ast.BinOp(**fields))
            yield _unbracketed(operand, *written, context)


def _operator_swapped(
    node: ast.BinOp, parent: ast.AST, field: str, scope: _Scope
) -> Iterator[tuple[str, str, ast.AST]]:
    """`+` for `-`, `*` for `/`, and the other way round."""
    op = type(node.op)
    if op in OPERATOR_SWAPS:
        new = OPERATOR_SWAPS[op]
        yield (
            "swaps an operator",
            f"{OPERATOR_WORDS[new]} where it should "
            f"{OPERATOR_VERBS[op]} ({_code(ast.BinOp(node.left, new(), node.right))})",
            ast.BinOp(node.left, new(), node.right),
        )


def _product_rewrites(
    node: ast.BinOp, parent: ast.AST, field: str, scope: _Scope
) -> Iterator[tuple[str, str, ast.AST]]:
    """A matrix product with an operand transposed, or its operands exchanged."""
    if isinstance(node.op, ast.MatMult):
        for side in ("left", "right"):
            operand = getattr(node, side)
            turned = ast.Call(
                ast.Attribute(operand, "transpose", ast.Load()), [_number(-2), _number(-1)], []
            )
            new = ast.BinOp(
                turned if side == "left" else node.left,
                ast.MatMult(),
                node.right if side == "left" else turned,
            )
            yield ("adds a transpose", f"transposes {_code(operand)} before the product", new)
        yield (
            "swaps operands",
            f"multiplies in the wrong order "
            f"({_code(ast.BinOp(node.right, ast.MatMult(), node.left))})",
            ast.BinOp(node.right, ast.MatMult(), node.left),
        )


def _operator_in_place(
    node: ast.BinOp, parent: ast.AST, field: str, scope: _Scope
) -> Iterator[tuple[str, str, ast.AST]]:
    """`x + y` of an argument `x` written `x.add_(y)`, which changes the caller's tensor."""
    op = type(node.op)
    if (
        op in OPERATOR_INPLACE
        and isinstance(node.left, ast.Name)
        and node.left.id in scope.parameters
    ):
        method = OPERATOR_INPLACE[op]
        yield (
            "changes an input in place",
            f"changes its input `{node.left.id}` in place "
            f"(`{node.left.id}.{method}(…)`) instead of making a new tensor",
            ast.Call(ast.Attribute(node.left, method, ast.Load()), [node.right], []),
        )


def _embedding_scale(
    node: ast.BinOp, parent: ast.AST, field: str, scope: _Scope
) -> Iterator[tuple[str, str, ast.AST]]:
    """`x = a + b`, a sum of embeddings, with `a` scaled by √d_model."""
    if (
        isinstance(node.op, ast.Add)
        and isinstance(parent, (ast.Assign, ast.Return))
        and (
            isinstance(node.left, ast.Call)
            or (isinstance(node.left, ast.Name) and node.left.id in scope.tensors)
        )
    ):
        scaled = ast.parse(
            f"({ast.unparse(node.left)}) * ({ast.unparse(node.left)}).shape[-1] ** 0.5", mode="eval"
        ).body
        yield (
            "changes a scale",
            f"multiplies {_code(node.left)} by the square root of its "
            f"width (√d_model, the original Transformer's scale for embeddings) before "
            f"adding {_code(node.right)}",
            ast.BinOp(scaled, ast.Add(), node.right),
        )


def _power_unbracketed(
    node: ast.BinOp | ast.Call, parent: ast.AST, field: str, scope: _Scope
) -> Iterator[tuple[str, str, ast.AST]]:
    """A root or a fractional power written as `base ** p/q`, on its own (in an operation,
    ``_operands_unbracketed`` writes it)."""
    if not isinstance(parent, ast.BinOp) and (written := _fractional_power(node)):
        yield _unbracketed(node, *written, "__power__")


# An operation's rewrites, in the order their mutants are made (``expressions.REWRITES``).
OPERATION_REWRITES = (
    _root_scales,
    _terms_dropped,
    _power_rewrites,
    _division_swapped,
    _bracket_rewrites,
    _operands_unbracketed,
    _operator_swapped,
    _product_rewrites,
    _operator_in_place,
    _embedding_scale,
    _power_unbracketed,
)
