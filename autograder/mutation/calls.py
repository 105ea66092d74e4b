"""The typed mistakes of one call in a reference answer: an axis changed, arguments
exchanged or left out, a layout or a dtype changed, a function swapped for its counterpart
(``max`` for ``min``, ``F.gelu`` for ``torch.relu``) wherever PyTorch keeps it, a step
left out. Each is (kind, description, the expression that replaces the call)."""

from __future__ import annotations

import ast
import copy
import itertools
from collections.abc import Iterator
from typing import NamedTuple, cast

import torch

from autograder.mutation.operators import (
    AXES,
    AXIS_ARGUMENT,
    AXIS_WORDS,
    CAST_SWAPS,
    CONVERSIONS,
    DTYPE_SWAPS,
    ELEMENTWISE,
    MODULES,
    SWAPS,
)
from autograder.mutation.syntax import _call_name, _code, _int, _number, _Scope


def _dim(axis: int) -> str:
    """An axis as the student writes it and in words: "`dim=-1` (the last axis)"."""
    return f"`dim={axis}`" + (f" ({AXIS_WORDS[axis]})" if axis in AXIS_WORDS else "")


def _swapped_call(node: ast.Call, other: str) -> ast.Call | None:
    """``node`` calling ``other`` instead, in the same form where that exists (``torch.relu``
    to ``torch.log_softmax``, ``x.sum()`` to ``x.mean()``), else as ``F.other``
    (``torch.relu(x)`` to ``F.gelu(x)``, ``x.relu()`` to ``F.gelu(x)``); None where neither
    exists."""
    func, args = node.func, list(node.args)
    functional = ast.parse("torch.nn.functional", mode="eval").body
    if isinstance(func, ast.Name):
        return ast.Call(ast.Name(other, ast.Load()), args, node.keywords)
    if not isinstance(func, ast.Attribute):
        return None
    module = MODULES.get(ast.unparse(func.value))
    tensor_only = (
        module is None and hasattr(torch.Tensor, func.attr) and not hasattr(torch.Tensor, other)
    )  # `x.relu()`: no `x.gelu()`
    if (module is None and not tensor_only) or (module is not None and hasattr(module, other)):
        return ast.Call(ast.Attribute(func.value, other, ast.Load()), args, node.keywords)
    if hasattr(torch.nn.functional, other) and (tensor_only or module is torch):
        subject = [func.value] if tensor_only else []
        return ast.Call(ast.Attribute(functional, other, ast.Load()), subject + args, node.keywords)
    return None


class _Call(NamedTuple):
    """A call, with what its rewrites ask of it."""

    node: ast.Call
    name: str | None  # the function's or the method's own name: `softmax` in `F.softmax`
    func: str  # the function as a description quotes it
    method: bool  # a method of a tensor (`x.sum(1)`), not a module's function (`torch.sum`)


def _axis_changed(call: _Call, scope: _Scope) -> Iterator[tuple[str, str, ast.AST]]:
    """A reduction, a softmax or a join over another axis, given as a positional argument."""
    node, name, func, method = call
    if name in AXIS_ARGUMENT:
        position = AXIS_ARGUMENT[name][0 if method else 1]
        if (
            position is not None
            and len(node.args) > position
            and (axis := _int(node.args[position])) is not None
        ):
            for other in AXES:
                if other != axis:
                    args = list(node.args)
                    args[position] = _number(other)
                    yield (
                        "changes an axis",
                        f"takes {func} over {_dim(other)} instead of {_dim(axis)}",
                        ast.Call(node.func, args, node.keywords),
                    )


def _arguments_exchanged(call: _Call, scope: _Scope) -> Iterator[tuple[str, str, ast.AST]]:
    """Two neighbouring arguments (not literals) in the wrong order."""
    node, name, func, method = call
    for i, (first, second) in enumerate(itertools.pairwise(node.args)):
        if not any(
            isinstance(a, (ast.Constant, ast.Starred)) or _int(a) is not None
            for a in (first, second)
        ) and ast.unparse(first) != ast.unparse(second):
            args = [*node.args[:i], second, first, *node.args[i + 2 :]]
            yield (
                "swaps operands",
                f"calls {func} with {_code(first)} and {_code(second)} "
                "exchanged (arguments in the wrong order)",
                ast.Call(node.func, args, node.keywords),
            )


def _parts_reversed(call: _Call, scope: _Scope) -> Iterator[tuple[str, str, ast.AST]]:
    """The parts of `torch.cat` or `torch.stack` joined in the reverse order."""
    node, name, func, method = call
    if (
        name in ("cat", "stack")
        and node.args
        and isinstance(node.args[0], (ast.List, ast.Tuple))
        and len(node.args[0].elts) > 1
    ):
        turned = type(node.args[0])(list(reversed(node.args[0].elts)), ast.Load())
        yield (
            "swaps operands",
            f"joins {_code(turned)} in {func}: the parts in the wrong order",
            ast.Call(node.func, [turned, *node.args[1:]], node.keywords),
        )


def _hard_attention(call: _Call, scope: _Scope) -> Iterator[tuple[str, str, ast.AST]]:
    """A softmax over the last axis made a one-hot argmax."""
    node, name, func, method = call
    if (
        name == "softmax"
        and not method
        and len(node.args) == 1
        and any(k.arg == "dim" and _int(k.value) == -1 for k in node.keywords)
    ):
        x = f"({ast.unparse(node.args[0])})"
        hard = ast.parse(
            f"torch.nn.functional.one_hot({x}.argmax(dim=-1), {x}.shape[-1]).to({x}.dtype)",
            mode="eval",
        ).body
        yield ("swaps a function", f"takes the argmax (hard attention) where {func} belongs", hard)


def _weight_layouts(call: _Call, scope: _Scope) -> Iterator[tuple[str, str, ast.AST]]:
    """A weight used as (in, out) in `F.linear`, an `nn.Linear` built with its sizes swapped."""
    node, name, func, method = call
    if name == "linear" and len(node.args) >= 2:
        turned = ast.Attribute(node.args[1], "T", ast.Load())
        yield (
            "changes a layout",
            f"uses {_code(node.args[1])} as (in, out) in {func}, where "
            "PyTorch stores a weight as (out, in)",
            ast.Call(node.func, [node.args[0], turned, *node.args[2:]], node.keywords),
        )
    if name == "Linear" and len(node.args) >= 2:
        yield (
            "changes a layout",
            f"builds {func} with its sizes swapped ({_code(node.args[1])}, {_code(node.args[0])})",
            ast.Call(node.func, [node.args[1], node.args[0], *node.args[2:]], node.keywords),
        )


def _keywords_changed(call: _Call, scope: _Scope) -> Iterator[tuple[str, str, ast.AST]]:
    """Each keyword argument left out; a `dim=` keyword given another axis."""
    node, name, func, method = call
    for index, keyword in enumerate(node.keywords):
        if keyword.arg is None:
            continue
        rest = node.keywords[:index] + node.keywords[index + 1 :]
        yield (
            "drops an argument",
            f"calls {func} without `{keyword.arg}=`",
            ast.Call(node.func, node.args, rest),
        )
        if keyword.arg in ("dim", "axis") and (axis := _int(keyword.value)) is not None:
            for other in AXES:
                if other != axis:
                    new = copy.copy(keyword)
                    new.value = _number(other)
                    yield (
                        "changes an axis",
                        f"takes {func} over {_dim(other)} instead of {_dim(axis)}",
                        ast.Call(
                            node.func, node.args, node.keywords[:index] + [new] + rest[index:]
                        ),
                    )


def _buffer_rewrites(call: _Call, scope: _Scope) -> Iterator[tuple[str, str, ast.AST]]:
    """A registered buffer stored as a trained parameter or as a plain attribute."""
    node, name, func, method = call
    if (
        name == "register_buffer"
        and method
        and len(node.args) >= 2
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ):
        assert isinstance(node.func, ast.Attribute)  # a method's call
        owner, attr, value = node.func.value, node.args[0], node.args[1]
        assert isinstance(attr.value, str)  # as checked above
        parameter = cast(ast.Call, ast.parse("torch.nn.Parameter(_)", mode="eval").body)
        parameter.args = [value]
        for stored, words in (
            (parameter, "an `nn.Parameter` (a weight the optimiser trains)"),
            (value, "a plain attribute"),
        ):
            yield (
                "changes a state",
                f"stores `{attr.value}` as {words} instead of a registered buffer",
                ast.Call(ast.Name("setattr", ast.Load()), [owner, attr, stored], []),
            )


def _dtype_rewrites(call: _Call, scope: _Scope) -> Iterator[tuple[str, str, ast.AST]]:
    """A `dtype=` or a conversion (`.long()`) of another width."""
    node, name, func, method = call
    for index, keyword in enumerate(node.keywords):
        if keyword.arg == "dtype" and (other := DTYPE_SWAPS.get(ast.unparse(keyword.value))):
            new = ast.keyword("dtype", ast.parse(other, mode="eval").body)
            yield (
                "changes a dtype",
                f"makes {func}'s result `{other}` where `{ast.unparse(keyword.value)}` belongs",
                ast.Call(
                    node.func, node.args, node.keywords[:index] + [new] + node.keywords[index + 1 :]
                ),
            )
    if method and name in CAST_SWAPS and not node.args and not node.keywords:
        assert isinstance(node.func, ast.Attribute)  # a method's call
        yield (
            "changes a dtype",
            f"converts with `.{CAST_SWAPS[name]}()` where `.{name}()` belongs",
            ast.Call(ast.Attribute(node.func.value, CAST_SWAPS[name], ast.Load()), [], []),
        )


def _diagonal_rewrites(call: _Call, scope: _Scope) -> Iterator[tuple[str, str, ast.AST]]:
    """A triangle (`tril`, `triu`) without its offset, or off the main diagonal by one."""
    node, name, func, method = call
    if name in ("tril", "triu"):
        offsets = [a for a in node.args[0 if method else 1 :]] + [
            k.value for k in node.keywords if k.arg == "diagonal"
        ]
        if offsets and _int(offsets[0]) is None:
            yield (
                "drops an argument",
                f"calls `{name}` without its offset {_code(offsets[0])} "
                "(the main diagonal instead)",
                ast.Call(
                    node.func,
                    node.args[: 0 if method else 1],
                    [k for k in node.keywords if k.arg != "diagonal"],
                ),
            )
    if name in ("tril", "triu") and not node.keywords and len(node.args) == (0 if method else 1):
        for diagonal in (1, -1):
            yield (
                "off by one",
                f"keeps diagonal {diagonal} in {func} instead of the main one",
                ast.Call(node.func, node.args + [_number(diagonal)], node.keywords),
            )


def _transpose_rewrites(call: _Call, scope: _Scope) -> Iterator[tuple[str, str, ast.AST]]:
    """A `.transpose(...)` left out, or its last two axes written `.T`."""
    node, name, func, method = call
    if name == "transpose" and isinstance(node.func, ast.Attribute):
        yield (
            "removes a transpose",
            f"leaves out the transpose of {_code(node.func.value)}",
            node.func.value,
        )
        if [_int(a) for a in node.args] in ([-2, -1], [-1, -2]):
            yield (
                "changes a layout",
                f"uses `{ast.unparse(node.func.value)}.T` where "
                f"{_code(node)} belongs (`.T` reverses every axis of a batched tensor)",
                ast.Attribute(node.func.value, "T", ast.Load()),
            )


def _function_swapped(call: _Call, scope: _Scope) -> Iterator[tuple[str, str, ast.AST]]:
    """The function's typed counterparts (``SWAPS``), where PyTorch has them."""
    node, name, func, method = call
    if name is None:  # a call of no name (``f()()``, ``x[0]()``): nothing to swap
        return
    for other in SWAPS.get(name, ()):
        if (swapped := _swapped_call(node, other)) is not None:
            yield ("swaps a function", f"uses `{other}` where `{name}` belongs", swapped)


def _step_dropped(call: _Call, scope: _Scope) -> Iterator[tuple[str, str, ast.AST]]:
    """An elementwise step, a conversion or an argument function's call left out."""
    node, name, func, method = call
    if (
        len(node.args) == 1
        and not node.keywords
        and (
            name in ELEMENTWISE
            or (isinstance(node.func, ast.Name) and node.func.id in scope.parameters)
        )
    ):
        yield ("drops a step", f"leaves out the call to {func}", node.args[0])
    if method and not node.args and not node.keywords and name in ELEMENTWISE | CONVERSIONS:
        assert isinstance(node.func, ast.Attribute)  # a method's call
        yield (
            "drops a step",
            f"leaves out `.{name}()` after {_code(node.func.value)}",
            node.func.value,
        )


def _residual_order(call: _Call, scope: _Scope) -> Iterator[tuple[str, str, ast.AST]]:
    """`norm(x + sublayer(x))` written `norm(sublayer(x)) + x`."""
    node, name, func, method = call
    if (
        len(node.args) == 1
        and isinstance(node.args[0], ast.BinOp)
        and isinstance(node.args[0].op, ast.Add)
        and isinstance(node.func, ast.Name)
    ):
        inner = node.args[0]  # norm(x + sublayer(x)) -> norm(sublayer(x)) + x
        yield (
            "swaps two steps",
            f"adds {_code(inner.left)} after {func} instead of before "
            "(the residual and the normalisation in the wrong order)",
            ast.BinOp(ast.Call(node.func, [inner.right], []), ast.Add(), inner.left),
        )


# A call's rewrites, in the order their mutants are made.
CALL_REWRITES = (
    _axis_changed,
    _arguments_exchanged,
    _parts_reversed,
    _hard_attention,
    _weight_layouts,
    _keywords_changed,
    _buffer_rewrites,
    _dtype_rewrites,
    _diagonal_rewrites,
    _transpose_rewrites,
    _function_swapped,
    _step_dropped,
    _residual_order,
)


def _call_rewrites(
    node: ast.Call, parent: ast.AST, field: str, scope: _Scope
) -> Iterator[tuple[str, str, ast.AST]]:
    """(kind, description, replacement) for every typed mistake of the call ``node``."""
    method = isinstance(node.func, ast.Attribute) and ast.unparse(node.func.value) not in (
        "torch",
        "F",
        "torch.nn.functional",
        "nn",
    )
    call = _Call(node, _call_name(node), _code(node.func), method)
    for rewrite in CALL_REWRITES:
        yield from rewrite(call, scope)
