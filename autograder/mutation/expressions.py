"""The typed mistakes at one node of a reference answer's syntax tree: an operand swapped
for another of its role, a literal or a count one off, a term or a factor left out, an
operator or a comparison changed, brackets in the wrong place, a subscript, a transpose or
a flag changed, a returned value dropped or the values in the wrong order; a call's own
mistakes are in ``calls.py``. Each is (kind, description, the node that replaces it)."""

from __future__ import annotations

import ast
import contextlib
import copy
from collections.abc import Iterator
from fractions import Fraction

from autograder.mutation.calls import _call_rewrites
from autograder.mutation.operators import (
    _ROLE_SUFFIX,
    AXES,
    COMPARE_SWAPS,
    COUNTED,
    INPLACE,
    OPERATOR_INPLACE,
    OPERATOR_SWAPS,
    OPERATOR_VERBS,
    OPERATOR_WORDS,
    PRECEDENCE,
)
from autograder.mutation.syntax import _call_name, _code, _int, _number, _Scope, _sliced


def _is_sqrt(node: ast.AST) -> bool:
    return (isinstance(node, ast.Call) and _call_name(node) == "sqrt" and len(node.args) == 1) \
        or (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow)
            and isinstance(node.right, ast.Constant) and node.right.value == 0.5)


def _sqrt_argument(node: ast.AST) -> ast.AST:
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
    return ast.unparse(ast.BinOp(base, ast.Pow(), ast.Name("__power__"))).replace(
        " ** __power__", ""), exponent


def _unbracketed(node: ast.AST, base: str, exponent: Fraction, context: str
                 ) -> tuple[str, str, ast.AST]:
    """The mutant that writes ``node`` as `base ** p/q`, without brackets, in ``context`` (its
    text with the node as `__power__`), as Python reads it: `(base ** p) / q`."""
    p, q = exponent.numerator, exponent.denominator
    new = ast.parse(context.replace("__power__", f"{base} ** {p} / {q}"), mode="eval").body
    return ("leaves out brackets", f"writes {_code(node)} as `{base} ** {p}/{q}`, which Python "
            f"reads as ({base} ** {p}) / {q}: `**` comes before `/` (operator precedence), so "
            "brackets are needed around the exponent", new)


def _name_rewrites(node: ast.Name, parent: ast.AST, field: str, scope: _Scope
                   ) -> Iterator[tuple[str, str, ast.AST]]:
    """A name read: another of its role, a count one off, an argument's default."""
    if not isinstance(node.ctx, ast.Load):
        return
    # where the name is read more than once, say which of its uses it is
    where = f" in {_code(parent)}" if scope.uses.get(node.id, 0) > 1 and isinstance(
        parent, (ast.Call, ast.BinOp, ast.Subscript)) else ""
    for other in scope.partners(node.id):
        yield ("swaps an operand", f"uses `{other}` where `{node.id}` belongs{where}",
               ast.Name(other, ast.Load()))
    if node.id in scope.parameters and node.id not in scope.tensors \
            and isinstance(parent, ast.BinOp) and type(parent.op) in OPERATOR_WORDS \
            and not isinstance(parent.op, (ast.MatMult, ast.Pow)):
        for op, sign in ((ast.Add(), "+"), (ast.Sub(), "−")):  # a count one step off
            yield ("off by one", f"uses `{node.id}` {sign} 1 instead of `{node.id}` in "
                   f"{_code(parent)}", ast.BinOp(node, op, ast.Constant(1)))
    if node.id in scope.defaults and not (isinstance(parent, ast.Compare)):
        default = scope.defaults[node.id]
        yield ("ignores an argument",
               f"ignores its `{node.id}` argument (as if it were {ast.unparse(default)})",
               copy.deepcopy(default))


def _string_rewrites(node: ast.Constant, parent: ast.AST, field: str, scope: _Scope
                     ) -> Iterator[tuple[str, str, ast.AST]]:
    """A string: a key of another role (`"w_k"` for `"w_q"`), 0 for infinity."""
    if not isinstance(node.value, str):
        return
    match = _ROLE_SUFFIX.match(node.value)
    if match and isinstance(parent, ast.Subscript):
        for letter in "qkv":
            other = node.value[: -1] + letter
            if other != node.value and node.value[-1] in "qkv":
                yield ("swaps an operand", f"uses `{other}` where `{node.value}` belongs",
                       ast.Constant(other))
    if node.value in ("-inf", "inf"):
        yield ("changes a constant", "fills with 0 instead of −infinity"
               if node.value == "-inf" else "uses 0 instead of infinity", ast.Constant("0"))


def _integer_rewrites(node: ast.Constant | ast.UnaryOp, parent: ast.AST, field: str,
                      scope: _Scope) -> Iterator[tuple[str, str, ast.AST]]:
    """An int literal (also `-1`, not the `1` in it) one off, but not a keyword's value."""
    if (value := _int(node)) is None or isinstance(parent, ast.keyword) or (
            isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.USub)):
        return
    for new in (value + 1, value - 1):
        yield ("off by one", f"uses {new} instead of {value} in {_code(parent)}",
               _number(new))


def _count_rewrites(node: ast.expr, parent: ast.AST, field: str, scope: _Scope
                    ) -> Iterator[tuple[str, str, ast.AST]]:
    """An expression that counts or bounds (a slice's end, a range's end, a diagonal, not a
    literal: ``_integer_rewrites``) one off."""
    if not (isinstance(parent, ast.Slice) or (isinstance(parent, ast.Call) and field == "args"
                                              and _call_name(parent) in COUNTED)):
        return
    where = f"the slice {_code(parent)}" if isinstance(parent, ast.Slice) else _code(parent)
    for op, sign in ((ast.Add(), "+"), (ast.Sub(), "−")):
        yield ("off by one", f"uses {_code(node)} {sign} 1 instead of {_code(node)} "
               f"in {where} (off by one)", ast.BinOp(node, op, ast.Constant(1)))


def _bool_rewrites(node: ast.Constant, parent: ast.AST, field: str, scope: _Scope
                   ) -> Iterator[tuple[str, str, ast.AST]]:
    """`True` for `False` and the other way round."""
    if isinstance(node.value, bool):
        yield ("changes a constant", f"passes `{parent.arg}={not node.value}` where "
               f"`{parent.arg}={node.value}` belongs" if isinstance(parent, ast.keyword)
               and parent.arg else f"uses {not node.value} instead of {node.value}",
               ast.Constant(not node.value))


def _embedding_scale(node: ast.BinOp, parent: ast.AST, field: str, scope: _Scope
                     ) -> Iterator[tuple[str, str, ast.AST]]:
    """`x = a + b`, a sum of embeddings, with `a` scaled by √d_model."""
    if isinstance(node.op, ast.Add) and isinstance(parent, (ast.Assign, ast.Return)) \
            and (isinstance(node.left, ast.Call) or (
                isinstance(node.left, ast.Name) and node.left.id in scope.tensors)):
        scaled = ast.parse(f"({ast.unparse(node.left)}) * ({ast.unparse(node.left)})"
                           ".shape[-1] ** 0.5", mode="eval").body
        yield ("changes a scale", f"multiplies {_code(node.left)} by the square root of its "
               f"width (√d_model, the original Transformer's scale for embeddings) before "
               f"adding {_code(node.right)}", ast.BinOp(scaled, ast.Add(), node.right))


def _power_unbracketed(node: ast.BinOp | ast.Call, parent: ast.AST, field: str, scope: _Scope
                       ) -> Iterator[tuple[str, str, ast.AST]]:
    """A root or a fractional power written as `base ** p/q`, on its own (in an operation,
    ``_operands_unbracketed`` writes it)."""
    if not isinstance(parent, ast.BinOp) and (written := _fractional_power(node)):
        yield _unbracketed(node, *written, "__power__")


def _operator_dropped(node: ast.UnaryOp, parent: ast.AST, field: str, scope: _Scope
                      ) -> Iterator[tuple[str, str, ast.AST]]:
    """A minus or a `~` left out (a negative literal is ``_integer_rewrites``')."""
    if not isinstance(node.op, ast.UAdd) and _int(node) is None:
        what = "mask's polarity inverted" if isinstance(node.op, ast.Invert) else "sign flipped"
        yield ("drops an operator", f"uses {_code(node.operand)} instead of {_code(node)} "
               f"(the {what})", node.operand)


def _test_dropped(node: ast.BoolOp, parent: ast.AST, field: str, scope: _Scope
                  ) -> Iterator[tuple[str, str, ast.AST]]:
    """One of the tests of an `and` or an `or` left out."""
    for index, value in enumerate(node.values):
        rest = node.values[:index] + node.values[index + 1:]
        kept = rest[0] if len(rest) == 1 else ast.BoolOp(node.op, rest)
        yield ("drops a test", f"tests {_code(kept)} without {_code(value)}", kept)


def _comparison_rewrites(node: ast.Compare, parent: ast.AST, field: str, scope: _Scope
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


def _attribute_rewrites(node: ast.Attribute, parent: ast.AST, field: str, scope: _Scope
                        ) -> Iterator[tuple[str, str, ast.AST]]:
    """`self.training` fixed, a transpose left out or written `.T`, an input's method made
    its in-place form."""
    if node.attr == "training" and isinstance(node.ctx, ast.Load):
        for flag in (True, False):
            yield ("changes a flag", f"uses {flag} where `{ast.unparse(node)}` belongs "
                   f"({'dropout left on in eval mode' if flag else 'dropout never on'})",
                   ast.Constant(flag))
    if node.attr in ("T", "mT") and isinstance(node.ctx, ast.Load):
        yield ("removes a transpose", f"leaves out the transpose of {_code(node.value)}",
               node.value)
    if node.attr == "mT" and isinstance(node.ctx, ast.Load):
        yield ("changes a layout", f"uses `{ast.unparse(node.value)}.T` where {_code(node)}"
               " belongs (`.T` reverses every axis of a batched tensor)",
               ast.Attribute(node.value, "T", ast.Load()))
    if node.attr in INPLACE and isinstance(parent, ast.Call) and field == "func" \
            and isinstance(node.value, ast.Name) and node.value.id in scope.parameters:
        yield ("changes an input in place", f"changes its input `{node.value.id}` in place "
               f"(`.{INPLACE[node.attr]}`) instead of making a new tensor",
               ast.Attribute(node.value, INPLACE[node.attr], ast.Load()))


def _update_dropped(node: ast.AugAssign, parent: ast.AST, field: str, scope: _Scope
                    ) -> Iterator[tuple[str, str, ast.AST]]:
    """`x += y` written `x = y`."""
    if type(node.op) in OPERATOR_VERBS:
        doing = {ast.Add: "adding it to", ast.Sub: "subtracting it from",
                 ast.Mult: "multiplying", ast.Div: "dividing"}[type(node.op)]
        yield ("drops a term", f"sets `{ast.unparse(node.target)}` to {_code(node.value)} "
               f"instead of {doing} `{ast.unparse(node.target)}`"
               f"{' by it' if type(node.op) in (ast.Mult, ast.Div) else ''}",
               ast.Assign([node.target], node.value))


def _return_rewrites(node: ast.Return, parent: ast.AST, field: str, scope: _Scope
                     ) -> Iterator[tuple[str, str, ast.AST]]:
    """A tensor returned as a Python number, a value left out of those returned, or the
    returned values in the wrong order."""
    if isinstance(node.value, (ast.Name, ast.Call, ast.BinOp)):
        yield ("changes a type", f"returns a Python number (`.item()`) where the tensor "
               f"{_code(node.value)} belongs",
               ast.Return(ast.Call(ast.Attribute(node.value, "item", ast.Load()), [], [])))
    if isinstance(node.value, ast.Tuple) and len(node.value.elts) > 2:
        yield ("drops a value", f"returns one value too few (leaves out "
               f"{_code(node.value.elts[-1])} at the end)",
               ast.Return(ast.Tuple(node.value.elts[:-1], ast.Load())))
    if isinstance(node.value, ast.Tuple) and len(node.value.elts) > 1:
        swapped = ast.Tuple(list(reversed(node.value.elts)), ast.Load())
        yield ("swaps the returned values", f"returns {_code(swapped, 60)}: the results in the "
               "wrong order", ast.Return(swapped))


def _root_scales(node: ast.BinOp, parent: ast.AST, field: str, scope: _Scope
                 ) -> Iterator[tuple[str, str, ast.AST]]:
    """A division by a square root made a division by its argument, or a product."""
    if isinstance(node.op, ast.Div) and _is_sqrt(node.right):
        root = _sqrt_argument(node.right)
        yield ("changes a scale", f"divides by {_code(root)} instead of its square root",
               ast.BinOp(node.left, ast.Div(), root))
        yield ("changes a scale", f"multiplies by √{_code(root)} instead of dividing by it",
               ast.BinOp(node.left, ast.Mult(), node.right))


def _terms_dropped(node: ast.BinOp, parent: ast.AST, field: str, scope: _Scope
                   ) -> Iterator[tuple[str, str, ast.AST]]:
    """A factor, a divisor or a term left out; the parts of a joined sequence exchanged."""
    op = type(node.op)
    if op in (ast.Div, ast.Mult, ast.FloorDiv):
        yield ("drops a term", f"leaves out the {'factor' if op is ast.Mult else 'division by'}"
               f" {_code(node.right)}", node.left)
    if op is ast.Mult:
        yield ("drops a term", f"leaves out the factor {_code(node.left)}", node.right)
    if op is ast.Add and any(isinstance(x, (ast.List, ast.Tuple)) or (
            isinstance(x, ast.Constant) and isinstance(x.value, str))
            for x in (node.left, node.right)):  # a sequence joined: its parts' order counts
        yield ("swaps operands", f"joins {_code(node.right)} before {_code(node.left)}: the "
               "parts in the wrong order", ast.BinOp(node.right, ast.Add(), node.left))
    if op in (ast.Add, ast.Sub):
        yield ("drops a term", f"leaves out {'+' if op is ast.Add else '−'} "
               f"{_code(node.right)} in {_code(node)}", node.left)
        if op is ast.Add:
            yield ("drops a term", f"leaves out {_code(node.left)} + in {_code(node)}",
                   node.right)


def _power_rewrites(node: ast.BinOp, parent: ast.AST, field: str, scope: _Scope
                    ) -> Iterator[tuple[str, str, ast.AST]]:
    """A power left out, or a negative exponent's sign."""
    if isinstance(node.op, ast.Pow):
        yield ("changes a scale", f"leaves out the power ** {ast.unparse(node.right)}",
               node.left)
        if (isinstance(node.right, ast.UnaryOp) and isinstance(node.right.op, ast.USub)):
            yield ("changes a scale", f"raises {_code(node.left)} to "
                   f"{_code(node.right.operand)} instead of {_code(node.right)}",
                   ast.BinOp(node.left, ast.Pow(), node.right.operand))


def _division_swapped(node: ast.BinOp, parent: ast.AST, field: str, scope: _Scope
                      ) -> Iterator[tuple[str, str, ast.AST]]:
    """`/` for `//` and `//` for `/`."""
    op = type(node.op)
    if op in (ast.Div, ast.FloorDiv):
        other = ast.FloorDiv if op is ast.Div else ast.Div
        yield ("swaps an operator", f"divides with `{'//' if other is ast.FloorDiv else '/'}`"
               f" where `{'/' if op is ast.Div else '//'}` belongs"
               f"{' (integer division)' if other is ast.FloorDiv else ''}",
               ast.BinOp(node.left, other(), node.right))


def _operands_unbracketed(node: ast.BinOp, parent: ast.AST, field: str, scope: _Scope
                          ) -> Iterator[tuple[str, str, ast.AST]]:
    """An operand that is a root or a fractional power written as `base ** p/q`."""
    for side in ("left", "right"):
        if written := _fractional_power(operand := getattr(node, side)):
            context = ast.unparse(ast.BinOp(**{"left": node.left, "op": node.op,
                                               "right": node.right, side: ast.Name("__power__")}))
            yield _unbracketed(operand, *written, context)


def _operator_swapped(node: ast.BinOp, parent: ast.AST, field: str, scope: _Scope
                      ) -> Iterator[tuple[str, str, ast.AST]]:
    """`+` for `-`, `*` for `/`, and the other way round."""
    op = type(node.op)
    if op in OPERATOR_SWAPS:
        new = OPERATOR_SWAPS[op]
        yield ("swaps an operator", f"{OPERATOR_WORDS[new]} where it should "
               f"{OPERATOR_VERBS[op]} ({_code(ast.BinOp(node.left, new(), node.right))})",
               ast.BinOp(node.left, new(), node.right))


def _product_rewrites(node: ast.BinOp, parent: ast.AST, field: str, scope: _Scope
                      ) -> Iterator[tuple[str, str, ast.AST]]:
    """A matrix product with an operand transposed, or its operands exchanged."""
    if isinstance(node.op, ast.MatMult):
        for side in ("left", "right"):
            operand = getattr(node, side)
            turned = ast.Call(ast.Attribute(operand, "transpose", ast.Load()),
                              [_number(-2), _number(-1)], [])
            new = ast.BinOp(turned if side == "left" else node.left, ast.MatMult(),
                            node.right if side == "left" else turned)
            yield ("adds a transpose", f"transposes {_code(operand)} before the product", new)
        yield ("swaps operands", f"multiplies in the wrong order "
               f"({_code(ast.BinOp(node.right, ast.MatMult(), node.left))})",
               ast.BinOp(node.right, ast.MatMult(), node.left))


def _operator_in_place(node: ast.BinOp, parent: ast.AST, field: str, scope: _Scope
                       ) -> Iterator[tuple[str, str, ast.AST]]:
    """`x + y` of an argument `x` written `x.add_(y)`, which changes the caller's tensor."""
    op = type(node.op)
    if op in OPERATOR_INPLACE and isinstance(node.left, ast.Name) \
            and node.left.id in scope.parameters:
        method = OPERATOR_INPLACE[op]
        yield ("changes an input in place", f"changes its input `{node.left.id}` in place "
               f"(`{node.left.id}.{method}(…)`) instead of making a new tensor",
               ast.Call(ast.Attribute(node.left, method, ast.Load()), [node.right], []))


def _bracket_rewrites(node: ast.BinOp, parent: ast.AST, field: str, scope: _Scope
                      ) -> Iterator[tuple[str, str, ast.AST]]:
    """The same operation with brackets in the wrong place: around the operand's first
    part only (`10000 ** (2 * i) / d` for `10000 ** (2 * i / d)`, `x - m / s` for
    `(x - m) / s`), or left out altogether, as Python then reads it."""
    rank, op = PRECEDENCE.get(type(node.op), 0), node.op
    found = []
    left, right = node.left, node.right
    if isinstance(right, ast.BinOp) and PRECEDENCE.get(type(right.op), 9) <= rank \
            and not isinstance(op, ast.Pow) or isinstance(right, ast.BinOp) \
            and isinstance(op, ast.Pow) and PRECEDENCE.get(type(right.op), 9) < rank:
        found.append(ast.BinOp(ast.BinOp(left, op, right.left), right.op, right.right))
    if isinstance(left, ast.BinOp) and PRECEDENCE.get(type(left.op), 9) < rank:
        found.append(ast.BinOp(left.left, left.op, ast.BinOp(left.right, op, right)))
    symbol = ast.unparse(ast.BinOp(ast.Name("a"), op, ast.Name("b")))[1:-1]
    for text in (f"({ast.unparse(left)}){symbol}{ast.unparse(right)}",
                 f"{ast.unparse(left)}{symbol}({ast.unparse(right)})"):
        with contextlib.suppress(SyntaxError):
            found.append(ast.parse(text, mode="eval").body)
    seen = {ast.dump(node)}
    for new in found:
        if ast.dump(new) not in seen:
            seen.add(ast.dump(new))
            yield ("leaves out brackets", f"computes {_code(new, 60)} instead of "
                   f"{_code(node, 60)} (brackets in the wrong place)", new)


def _subscript_rewrites(node: ast.Subscript, parent: ast.AST, field: str, scope: _Scope
                        ) -> Iterator[tuple[str, str, ast.AST]]:
    """A size read from another axis or tensor, a pair used whole, an index, a slice or a
    new axis left out, a new axis on the other side."""
    if not isinstance(node.ctx, ast.Load):
        return
    index = node.slice
    if isinstance(node.value, ast.Attribute) and node.value.attr == "shape" \
            and (axis := _int(index)) is not None:
        owner = ast.unparse(node.value.value)
        for other in sorted(scope.tensors):
            for new_axis in AXES:
                if (other, new_axis) != (owner, axis):
                    new = ast.Subscript(ast.Attribute(ast.Name(other, ast.Load()), "shape",
                                                      ast.Load()), _number(new_axis),
                                        ast.Load())
                    yield ("changes a size", f"uses `{ast.unparse(new)}` where "
                           f"`{ast.unparse(node)}` belongs", new)
    if isinstance(node.value, ast.Call) and _int(index) == 0:
        yield ("uses a pair as a tensor", f"uses the whole result of {_code(node.value)} where "
               "its first element `[0]` belongs", node.value)
    parts = index.elts if isinstance(index, ast.Tuple) else [index]
    if len(parts) > 1 and any(_int(p) is not None for p in parts) and not isinstance(
            node.value, ast.Attribute):  # x[:, 0]: an axis taken away
        yield ("drops an index", f"keeps the axis that {_code(node)} takes away (uses all "
               f"of {_code(node.value)})", node.value)
    if _sliced(node):
        yield ("drops a slice", f"uses all of {_code(node.value)} where {_code(node)} belongs",
               node.value)
    if any(isinstance(p, ast.Constant) and p.value is None for p in parts):
        yield ("drops an axis", f"leaves out the new axis in {_code(node)}", node.value)
        if len(parts) > 1 and parts != parts[::-1]:
            new = ast.Subscript(node.value, ast.Tuple(list(reversed(parts)), ast.Load()),
                                ast.Load())
            yield ("changes an axis", f"puts the new axis on the other side: {_code(new)} "
                   f"where {_code(node)} belongs", new)


# The rewrites of each type of node, in the order their mutants are made: where two give
# the same code, the mutant keeps the first one's description.
REWRITES = {
    ast.Name: (_name_rewrites, _count_rewrites),
    ast.Constant: (_string_rewrites, _integer_rewrites, _bool_rewrites),
    ast.UnaryOp: (_integer_rewrites, _operator_dropped),
    ast.BinOp: (_count_rewrites, _root_scales, _terms_dropped, _power_rewrites,
                _division_swapped, _bracket_rewrites, _operands_unbracketed, _operator_swapped,
                _product_rewrites, _operator_in_place, _embedding_scale, _power_unbracketed),
    ast.Attribute: (_count_rewrites, _attribute_rewrites),
    ast.Subscript: (_count_rewrites, _subscript_rewrites),
    ast.Call: (_count_rewrites, _power_unbracketed, _call_rewrites),
    ast.BoolOp: (_test_dropped,),
    ast.Compare: (_comparison_rewrites,),
    ast.AugAssign: (_update_dropped,),
    ast.Return: (_return_rewrites,),
}


def _rewrites(node: ast.AST, parent: ast.AST, field: str, scope: _Scope
              ) -> Iterator[tuple[str, str, ast.AST]]:
    """(kind, description, replacement) for every typed mistake at ``node``."""
    for rewrite in REWRITES.get(type(node), ()):
        yield from rewrite(node, parent, field, scope)
