"""Mutants of a reference answer: small typed rewrites of its syntax tree.

A mutant is the reference answer with one plausible mistake in it: an operand swapped for
another of the same role (``K`` for ``V``), a scale dropped or changed, a reduction over
the wrong axis, a transpose added or removed, ``max`` for ``min``, an off-by-one, a term
left out, two steps in the wrong order, an argument ignored, an input changed in place,
``sin`` for ``cos``, a pair returned the wrong way round. Only the code between
``### BEGIN SOLUTION`` and ``### END SOLUTION`` is rewritten.

Each mutant carries a description in plain words, generated from the rewrite, that
completes the sentence "an answer that ...": "divides by `d` instead of its square root",
"uses `K` where `V` belongs". ``autograder/mutation/analysis.py`` measures how many of them
an exercise's checks catch; the grader names the one a wrong answer matches.
"""

from __future__ import annotations

import ast
import collections
import contextlib
import copy
import functools
import io
import itertools
import math
import re
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction

import torch

from autograder import cells
from autograder.mutation.families import _solution_lines, families
from course_checks.cells import CHECKS_TITLE

# Kinds whose mutants may never count as equivalent to the reference: an argument the
# checks never set, or an input changed in place, is a hole in the checks, not a harmless
# rewrite.
NEVER_EQUIVALENT = frozenset({"ignores an argument", "changes an input in place"})

# Operands of one role: swapping one for another is a typed mistake, not noise.
ROLE_FAMILIES = [
    {"Q", "K", "V"}, {"q", "k", "v"}, {"queries", "keys", "values"}, {"x", "memory"},
    {"gamma", "beta"}, {"generated", "target"}, {"seq_len", "d_model"}, {"pos", "i"},
    {"start_token", "end_token"}, {"c", "s"}, {"step", "warmup", "max_iters"}, {"T", "S"},
    {"B", "T", "H", "d_head", "d_model", "n_heads"}, {"W", "b", "x"}, {"W1", "W2"},
    {"b1", "b2"}, {"weights", "values"}, {"h", "x"}, {"query", "key", "value"},
]
_ROLE_SUFFIX = re.compile(r"^(.+?)_?([qkv]|\d)$")

SWAPS = {  # function or method names with their typed counterparts
    "max": ("min",), "min": ("max",), "amax": ("amin",), "amin": ("amax",),
    "argmax": ("argmin",), "argmin": ("argmax",), "sin": ("cos",), "cos": ("sin",),
    "tril": ("triu",), "triu": ("tril",), "sum": ("mean",), "mean": ("sum",),
    "relu": ("gelu", "silu"), "gelu": ("relu",), "silu": ("gelu", "relu"),
    "ReLU": ("GELU",), "GELU": ("ReLU",), "softmax": ("log_softmax",),
    "log_softmax": ("softmax",), "cross_entropy": ("nll_loss",),
    "clip_grad_norm_": ("clip_grad_value_",), "clip_grad_value_": ("clip_grad_norm_",),
    "cat": ("stack",), "stack": ("cat",), "train": ("eval",), "eval": ("train",),
    "log": ("log2", "log10"), "any": ("all",), "all": ("any",), "var": ("std",),
    "std": ("var",), "xavier_uniform_": ("normal_", "uniform_"),
    "kaiming_uniform_": ("normal_",),
}
# What a module's short name in an answer stands for, to tell whether a swapped-in
# function exists there (`torch.gelu` does not: it is `F.gelu`).
MODULES = {"torch": torch, "F": torch.nn.functional, "torch.nn.functional": torch.nn.functional,
           "nn": torch.nn, "torch.nn": torch.nn, "math": math}
# Functions whose positional argument at this index (method form, torch.* form) is an axis.
AXIS_ARGUMENT = {name: (0, 1) for name in (
    "sum", "mean", "softmax", "log_softmax", "amax", "amin", "argmax", "argmin", "cumsum",
    "unsqueeze", "var", "std", "logsumexp", "all", "any")} | {"cat": (None, 1),
                                                               "stack": (None, 1)}
# Functions whose last positional argument is a count or an offset an answer may get off by
# one even when it is not a literal (a range's end, a triangle's diagonal, top-k's k).
COUNTED = {"range", "arange", "tril", "triu", "topk", "narrow"}
PRECEDENCE = {ast.Add: 1, ast.Sub: 1, ast.Mult: 2, ast.Div: 2, ast.FloorDiv: 2, ast.Mod: 2,
              ast.MatMult: 2, ast.Pow: 3}
INPLACE = {"masked_fill": "masked_fill_", "add": "add_", "sub": "sub_", "mul": "mul_",
           "div": "div_", "exp": "exp_", "clamp": "clamp_", "fill_diagonal": "fill_diagonal_"}
OPERATOR_INPLACE = {ast.Add: "add_", ast.Sub: "sub_", ast.Mult: "mul_", ast.Div: "div_"}
ELEMENTWISE = {"relu", "gelu", "exp", "sqrt", "sin", "cos", "tanh", "sigmoid", "softmax",
               "log", "abs", "float", "squeeze", "contiguous", "detach", "clone", "sorted"}
# A dtype and the one of the same kind an answer may write instead (another width).
DTYPE_SWAPS = {"torch.long": "torch.int32", "torch.int64": "torch.int32",
               "torch.int32": "torch.long", "torch.int": "torch.long",
               "torch.float32": "torch.float64", "torch.float": "torch.float64",
               "torch.float64": "torch.float32", "torch.double": "torch.float32"}
CAST_SWAPS = {"long": "int", "int": "long", "float": "double", "double": "float"}
# Methods that turn a tensor into another form of the same numbers.
CONVERSIONS = {"item", "tolist", "long", "int", "bool", "double", "numpy"}
OPERATOR_WORDS = {ast.Add: "adds", ast.Sub: "subtracts", ast.Mult: "multiplies",
                  ast.Div: "divides", ast.MatMult: "multiplies matrices",
                  ast.FloorDiv: "divides", ast.Pow: "raises to a power"}
OPERATOR_VERBS = {ast.Add: "add", ast.Sub: "subtract", ast.Mult: "multiply", ast.Div: "divide"}
OPERATOR_SWAPS = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult}
COMPARE_SWAPS = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
                 ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Is: ast.IsNot, ast.IsNot: ast.Is}
AXES = (-1, -2, 0, 1)


@dataclass(frozen=True)
class Mutant:
    """One rewrite of a solution cell: its kind, its description, the whole new cell."""

    kind: str
    description: str
    source: str


AXIS_WORDS = {-1: "the last axis", -2: "the second-to-last axis", 0: "the first axis",
              1: "the second axis"}


def _dim(axis: int) -> str:
    """An axis as the student writes it and in words: "`dim=-1` (the last axis)"."""
    return f"`dim={axis}`" + (f" ({AXIS_WORDS[axis]})" if axis in AXIS_WORDS else "")


def _code(node: ast.AST, limit: int = 48) -> str:
    """``node`` as code, cut to ``limit`` characters; a method call keeps its end, where
    the method is (`….squeeze(-1)`)."""
    text = ast.unparse(node)
    if len(text) <= limit:
        return f"`{text}`"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        end = f".{node.func.attr}({', '.join(ast.unparse(a) for a in node.args)})"
        if len(end) < limit // 2:
            return f"`{text[: limit - len(end) - 1]}…{end}`"
    return f"`{text[: limit - 1]}…`"


def _children(node: ast.AST) -> Iterator[tuple[ast.AST, str, int | None, ast.AST]]:
    """(parent, field, index in a list field or None, child) for every child node."""
    for field, value in ast.iter_fields(node):
        if isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, ast.AST):
                    yield node, field, index, item
        elif isinstance(value, ast.AST):
            yield node, field, None, value


def _walk(tree: ast.AST) -> Iterator[tuple[ast.AST, str, int | None, ast.AST]]:
    """Depth-first, in a fixed order, so the n-th node of a copy is the same node."""
    for parent, field, index, child in _children(tree):
        yield parent, field, index, child
        yield from _walk(child)


def _set(parent: ast.AST, field: str, index: int | None, new) -> None:
    if index is None:
        setattr(parent, field, new)
    else:
        getattr(parent, field)[index] = new


def _call_name(call: ast.Call) -> str | None:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)


def _int(node: ast.AST) -> int | None:
    """The value of an int literal (also ``-1``), else None."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _int(node.operand)
        return None if inner is None else -inner
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    return None


def _number(value: int) -> ast.AST:
    return ast.UnaryOp(ast.USub(), ast.Constant(-value)) if value < 0 else ast.Constant(value)


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


class _Scope:
    """What the rewrites need to know about the functions in the cell."""

    def __init__(self, tree: ast.AST):
        self.parameters: set[str] = set()
        self.defaults: dict[str, ast.AST] = {}
        self.bound: set[str] = set()
        self.tensors: set[str] = set()
        self.uses: dict[str, int] = {}  # how often each name is read
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                self.uses[node.id] = self.uses.get(node.id, 0) + 1
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                args = node.args.posonlyargs + node.args.args
                self.parameters.update(a.arg for a in args + node.args.kwonlyargs)
                for arg, default in zip(args[len(args) - len(node.args.defaults):],
                                        node.args.defaults, strict=True):
                    self.defaults[arg.arg] = default
                for arg, default in zip(node.args.kwonlyargs, node.args.kw_defaults,
                                        strict=True):
                    if default is not None:
                        self.defaults[arg.arg] = default
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                self.bound.add(node.id)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.attr in ("shape", "size", "dim", "T", "mT", "transpose"):
                self.tensors.add(node.value.id)  # a name used as a tensor
        self.bound |= self.parameters
        self.parameters.discard("self")

    def partners(self, name: str) -> list[str]:
        """Other names in scope with the same role as ``name``."""
        found = set()
        for family in ROLE_FAMILIES:
            if name in family:
                found |= family
        if match := _ROLE_SUFFIX.match(name):
            stem = match.group(1)
            found |= {other for other in self.bound
                      if (m := _ROLE_SUFFIX.match(other)) and m.group(1) == stem}
        return sorted((found & self.bound) - {name})


def _rewrites(node: ast.AST, parent: ast.AST, field: str, scope: _Scope
              ) -> Iterator[tuple[str, str, ast.AST]]:
    """(kind, description, replacement) for every typed mistake at ``node``."""
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
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
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
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
    if (value := _int(node)) is not None and not isinstance(parent, ast.keyword) and not (
            isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.USub)):
        for new in (value + 1, value - 1):
            yield ("off by one", f"uses {new} instead of {value} in {_code(parent)}",
                   _number(new))
    if isinstance(parent, ast.Slice) or (isinstance(parent, ast.Call) and field == "args"
                                         and _call_name(parent) in COUNTED):
        if _int(node) is None and isinstance(node, (ast.Name, ast.Attribute, ast.Subscript,
                                                    ast.Call, ast.BinOp)):
            where = f"the slice {_code(parent)}" if isinstance(parent, ast.Slice) \
                else _code(parent)
            for op, sign in ((ast.Add(), "+"), (ast.Sub(), "−")):
                yield ("off by one", f"uses {_code(node)} {sign} 1 instead of {_code(node)} "
                       f"in {where} (off by one)", ast.BinOp(node, op, ast.Constant(1)))
    if isinstance(node, ast.Constant) and isinstance(node.value, bool):
        yield ("changes a constant", f"passes `{parent.arg}={not node.value}` where "
               f"`{parent.arg}={node.value}` belongs" if isinstance(parent, ast.keyword)
               and parent.arg else f"uses {not node.value} instead of {node.value}",
               ast.Constant(not node.value))
    if isinstance(node, ast.BinOp):
        yield from _binop_rewrites(node, scope)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) \
            and isinstance(parent, (ast.Assign, ast.Return)) \
            and (isinstance(node.left, ast.Call) or (  # x = a + b: a sum of embeddings
                isinstance(node.left, ast.Name) and node.left.id in scope.tensors)):
        scaled = ast.parse(f"({ast.unparse(node.left)}) * ({ast.unparse(node.left)})"
                           ".shape[-1] ** 0.5", mode="eval").body
        yield ("changes a scale", f"multiplies {_code(node.left)} by the square root of its "
               f"width (√d_model, the original Transformer's scale for embeddings) before "
               f"adding {_code(node.right)}", ast.BinOp(scaled, ast.Add(), node.right))
    if not isinstance(parent, ast.BinOp) and (written := _fractional_power(node)):
        yield _unbracketed(node, *written, "__power__")
    if isinstance(node, ast.UnaryOp) and not isinstance(node.op, ast.UAdd) \
            and _int(node) is None:
        what = "mask's polarity inverted" if isinstance(node.op, ast.Invert) else "sign flipped"
        yield ("drops an operator", f"uses {_code(node.operand)} instead of {_code(node)} "
               f"(the {what})", node.operand)
    if isinstance(node, ast.BoolOp):
        for index, value in enumerate(node.values):
            rest = node.values[:index] + node.values[index + 1:]
            kept = rest[0] if len(rest) == 1 else ast.BoolOp(node.op, rest)
            yield ("drops a test", f"tests {_code(kept)} without {_code(value)}", kept)
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        swap = COMPARE_SWAPS.get(type(node.ops[0]))
        if swap:
            new = ast.Compare(node.left, [swap()], node.comparators)
            yield ("changes a comparison", f"tests {_code(new)} instead of {_code(node)}", new)
        if not isinstance(node.ops[0], (ast.Eq, ast.NotEq, ast.Is, ast.IsNot)):
            new = ast.Compare(node.comparators[0], node.ops, [node.left])
            yield ("changes a comparison", f"tests {_code(new)} instead of {_code(node)}", new)
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
        yield from _subscript_rewrites(node, scope)
    if isinstance(node, ast.Attribute) and node.attr == "training" \
            and isinstance(node.ctx, ast.Load):
        for flag in (True, False):
            yield ("changes a flag", f"uses {flag} where `{ast.unparse(node)}` belongs "
                   f"({'dropout left on in eval mode' if flag else 'dropout never on'})",
                   ast.Constant(flag))
    if isinstance(node, ast.Attribute):
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
    if isinstance(node, ast.Call):
        yield from _call_rewrites(node, scope)
    if isinstance(node, ast.AugAssign) and type(node.op) in OPERATOR_VERBS:
        doing = {ast.Add: "adding it to", ast.Sub: "subtracting it from",
                 ast.Mult: "multiplying", ast.Div: "dividing"}[type(node.op)]
        yield ("drops a term", f"sets `{ast.unparse(node.target)}` to {_code(node.value)} "
               f"instead of {doing} `{ast.unparse(node.target)}`"
               f"{' by it' if type(node.op) in (ast.Mult, ast.Div) else ''}",
               ast.Assign([node.target], node.value))
    if isinstance(node, ast.Return) and isinstance(node.value, (ast.Name, ast.Call, ast.BinOp)):
        yield ("changes a type", f"returns a Python number (`.item()`) where the tensor "
               f"{_code(node.value)} belongs",
               ast.Return(ast.Call(ast.Attribute(node.value, "item", ast.Load()), [], [])))
    if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple) \
            and len(node.value.elts) > 2:
        yield ("drops a value", f"returns one value too few (leaves out "
               f"{_code(node.value.elts[-1])} at the end)",
               ast.Return(ast.Tuple(node.value.elts[:-1], ast.Load())))
    if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple) \
            and len(node.value.elts) > 1:
        swapped = ast.Tuple(list(reversed(node.value.elts)), ast.Load())
        yield ("swaps the returned values", f"returns {_code(swapped, 60)}: the results in the "
               "wrong order", ast.Return(swapped))


def _binop_rewrites(node: ast.BinOp, scope: _Scope) -> Iterator[tuple[str, str, ast.AST]]:
    op = type(node.op)
    if op is ast.Div and _is_sqrt(node.right):
        root = _sqrt_argument(node.right)
        yield ("changes a scale", f"divides by {_code(root)} instead of its square root",
               ast.BinOp(node.left, ast.Div(), root))
        yield ("changes a scale", f"multiplies by √{_code(root)} instead of dividing by it",
               ast.BinOp(node.left, ast.Mult(), node.right))
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
    if op is ast.Pow:
        yield ("changes a scale", f"leaves out the power ** {ast.unparse(node.right)}",
               node.left)
        if (isinstance(node.right, ast.UnaryOp) and isinstance(node.right.op, ast.USub)):
            yield ("changes a scale", f"raises {_code(node.left)} to "
                   f"{_code(node.right.operand)} instead of {_code(node.right)}",
                   ast.BinOp(node.left, ast.Pow(), node.right.operand))
    if op in (ast.Div, ast.FloorDiv):
        other = ast.FloorDiv if op is ast.Div else ast.Div
        yield ("swaps an operator", f"divides with `{'//' if other is ast.FloorDiv else '/'}`"
               f" where `{'/' if op is ast.Div else '//'}` belongs"
               f"{' (integer division)' if other is ast.FloorDiv else ''}",
               ast.BinOp(node.left, other(), node.right))
    yield from _bracket_rewrites(node)
    for side in ("left", "right"):  # a root or power operand written without brackets
        if written := _fractional_power(operand := getattr(node, side)):
            context = ast.unparse(ast.BinOp(**{"left": node.left, "op": node.op,
                                               "right": node.right, side: ast.Name("__power__")}))
            yield _unbracketed(operand, *written, context)
    if op in OPERATOR_SWAPS:
        new = OPERATOR_SWAPS[op]
        yield ("swaps an operator", f"{OPERATOR_WORDS[new]} where it should "
               f"{OPERATOR_VERBS[op]} ({_code(ast.BinOp(node.left, new(), node.right))})",
               ast.BinOp(node.left, new(), node.right))
    if op is ast.MatMult:
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
    if op in OPERATOR_INPLACE and isinstance(node.left, ast.Name) \
            and node.left.id in scope.parameters:
        method = OPERATOR_INPLACE[op]
        yield ("changes an input in place", f"changes its input `{node.left.id}` in place "
               f"(`{node.left.id}.{method}(…)`) instead of making a new tensor",
               ast.Call(ast.Attribute(node.left, method, ast.Load()), [node.right], []))


def _bracket_rewrites(node: ast.BinOp) -> Iterator[tuple[str, str, ast.AST]]:
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


def _subscript_rewrites(node: ast.Subscript, scope: _Scope
                        ) -> Iterator[tuple[str, str, ast.AST]]:
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


def _call_rewrites(node: ast.Call, scope: _Scope) -> Iterator[tuple[str, str, ast.AST]]:
    name = _call_name(node)
    func = _code(node.func)
    method = isinstance(node.func, ast.Attribute) and ast.unparse(node.func.value) not in (
        "torch", "F", "torch.nn.functional", "nn")
    if name in AXIS_ARGUMENT:
        position = AXIS_ARGUMENT[name][0 if method else 1]
        if position is not None and len(node.args) > position \
                and (axis := _int(node.args[position])) is not None:
            for other in AXES:
                if other != axis:
                    args = list(node.args)
                    args[position] = _number(other)
                    yield ("changes an axis", f"takes {func} over {_dim(other)} instead of "
                           f"{_dim(axis)}", ast.Call(node.func, args, node.keywords))
    for i, (first, second) in enumerate(itertools.pairwise(node.args)):
        if not any(isinstance(a, (ast.Constant, ast.Starred)) or _int(a) is not None
                   for a in (first, second)) \
                and ast.unparse(first) != ast.unparse(second):
            args = [*node.args[:i], second, first, *node.args[i + 2:]]
            yield ("swaps operands", f"calls {func} with {_code(first)} and {_code(second)} "
                   "exchanged (arguments in the wrong order)",
                   ast.Call(node.func, args, node.keywords))
    if name in ("cat", "stack") and node.args and isinstance(node.args[0], (ast.List, ast.Tuple)) \
            and len(node.args[0].elts) > 1:
        turned = type(node.args[0])(list(reversed(node.args[0].elts)), ast.Load())
        yield ("swaps operands", f"joins {_code(turned)} in {func}: the parts in the wrong "
               "order", ast.Call(node.func, [turned, *node.args[1:]], node.keywords))
    if name == "softmax" and not method and len(node.args) == 1 and any(
            k.arg == "dim" and _int(k.value) == -1 for k in node.keywords):
        x = f"({ast.unparse(node.args[0])})"
        hard = ast.parse(f"torch.nn.functional.one_hot({x}.argmax(dim=-1), {x}.shape[-1])"
                         f".to({x}.dtype)", mode="eval").body
        yield ("swaps a function", f"takes the argmax (hard attention) where {func} belongs",
               hard)
    if name == "linear" and len(node.args) >= 2:
        turned = ast.Attribute(node.args[1], "T", ast.Load())
        yield ("changes a layout", f"uses {_code(node.args[1])} as (in, out) in {func}, where "
               "PyTorch stores a weight as (out, in)",
               ast.Call(node.func, [node.args[0], turned, *node.args[2:]], node.keywords))
    if name == "Linear" and len(node.args) >= 2:
        yield ("changes a layout", f"builds {func} with its sizes swapped "
               f"({_code(node.args[1])}, {_code(node.args[0])})",
               ast.Call(node.func, [node.args[1], node.args[0], *node.args[2:]], node.keywords))
    for index, keyword in enumerate(node.keywords):
        if keyword.arg is None:
            continue
        rest = node.keywords[:index] + node.keywords[index + 1:]
        yield ("drops an argument", f"calls {func} without `{keyword.arg}=`",
               ast.Call(node.func, node.args, rest))
        if keyword.arg in ("dim", "axis") and (axis := _int(keyword.value)) is not None:
            for other in AXES:
                if other != axis:
                    new = copy.copy(keyword)
                    new.value = _number(other)
                    yield ("changes an axis", f"takes {func} over {_dim(other)} instead of "
                           f"{_dim(axis)}", ast.Call(node.func, node.args,
                                               node.keywords[:index] + [new] + rest[index:]))
    if name == "register_buffer" and method and len(node.args) >= 2 \
            and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
        owner, attr, value = node.func.value, node.args[0], node.args[1]
        parameter = ast.parse("torch.nn.Parameter(_)", mode="eval").body
        parameter.args = [value]
        for stored, words in ((parameter, "an `nn.Parameter` (a weight the optimiser trains)"),
                              (value, "a plain attribute")):
            yield ("changes a state", f"stores `{attr.value}` as {words} instead of a "
                   "registered buffer", ast.Call(ast.Name("setattr", ast.Load()),
                                                 [owner, attr, stored], []))
    for index, keyword in enumerate(node.keywords):
        if keyword.arg == "dtype" and (other := DTYPE_SWAPS.get(ast.unparse(keyword.value))):
            new = ast.keyword("dtype", ast.parse(other, mode="eval").body)
            yield ("changes a dtype", f"makes {func}'s result `{other}` where "
                   f"`{ast.unparse(keyword.value)}` belongs",
                   ast.Call(node.func, node.args,
                            node.keywords[:index] + [new] + node.keywords[index + 1:]))
    if method and name in CAST_SWAPS and not node.args and not node.keywords:
        yield ("changes a dtype", f"converts with `.{CAST_SWAPS[name]}()` where `.{name}()` "
               "belongs", ast.Call(ast.Attribute(node.func.value, CAST_SWAPS[name], ast.Load()),
                                   [], []))
    if name in ("tril", "triu"):
        offsets = [a for a in node.args[0 if method else 1:]] + [
            k.value for k in node.keywords if k.arg == "diagonal"]
        if offsets and _int(offsets[0]) is None:
            yield ("drops an argument", f"calls `{name}` without its offset {_code(offsets[0])} "
                   "(the main diagonal instead)", ast.Call(
                       node.func, node.args[:0 if method else 1],
                       [k for k in node.keywords if k.arg != "diagonal"]))
    if name in ("tril", "triu") and not node.keywords and len(node.args) == (0 if method else 1):
        for diagonal in (1, -1):
            yield ("off by one", f"keeps diagonal {diagonal} in {func} instead of the main one",
                   ast.Call(node.func, node.args + [_number(diagonal)], node.keywords))
    if name == "transpose" and isinstance(node.func, ast.Attribute):
        yield ("removes a transpose", f"leaves out the transpose of {_code(node.func.value)}",
               node.func.value)
        if [_int(a) for a in node.args] in ([-2, -1], [-1, -2]):
            yield ("changes a layout", f"uses `{ast.unparse(node.func.value)}.T` where "
                   f"{_code(node)} belongs (`.T` reverses every axis of a batched tensor)",
                   ast.Attribute(node.func.value, "T", ast.Load()))
    for other in SWAPS.get(name, ()):
        if (swapped := _swapped_call(node, other)) is not None:
            yield ("swaps a function", f"uses `{other}` where `{name}` belongs", swapped)
    if len(node.args) == 1 and not node.keywords and (
            name in ELEMENTWISE or (isinstance(node.func, ast.Name)
                                    and node.func.id in scope.parameters)):
        yield ("drops a step", f"leaves out the call to {func}", node.args[0])
    if method and not node.args and not node.keywords and name in ELEMENTWISE | CONVERSIONS:
        yield ("drops a step", f"leaves out `.{name}()` after {_code(node.func.value)}",
               node.func.value)
    if len(node.args) == 1 and isinstance(node.args[0], ast.BinOp) \
            and isinstance(node.args[0].op, ast.Add) and isinstance(node.func, ast.Name):
        inner = node.args[0]  # norm(x + sublayer(x)) -> norm(sublayer(x)) + x
        yield ("swaps two steps", f"adds {_code(inner.left)} after {func} instead of before "
               "(the residual and the normalisation in the wrong order)",
               ast.BinOp(ast.Call(node.func, [inner.right], []), ast.Add(), inner.left))


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
    tensor_only = module is None and hasattr(torch.Tensor, func.attr) \
        and not hasattr(torch.Tensor, other)  # `x.relu()`: no `x.gelu()`
    if (module is None and not tensor_only) or (module is not None and hasattr(module, other)):
        return ast.Call(ast.Attribute(func.value, other, ast.Load()), args, node.keywords)
    if hasattr(torch.nn.functional, other) and (tensor_only or module is torch):
        subject = [func.value] if tensor_only else []
        return ast.Call(ast.Attribute(functional, other, ast.Load()), subject + args,
                        node.keywords)
    return None


def _exchanges(tree: ast.AST, lines: set[int], scope: _Scope, fresh: Callable[[], ast.AST]
               ) -> Iterator[tuple[str, str, ast.AST]]:
    """Two operands of one role exchanged wherever the solution uses them: `norm3` after
    the cross-attention and `norm2` after the feed-forward network."""
    used = sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name)
                   and isinstance(n.ctx, ast.Load) and n.lineno in lines})
    for a, b in itertools.combinations(used, 2):
        if b not in scope.partners(a):
            continue
        new_tree = fresh()
        for node in ast.walk(new_tree):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) \
                    and getattr(node, "lineno", None) in lines and node.id in (a, b):
                node.id = b if node.id == a else a
        yield ("swaps operands", f"exchanges `{a}` and `{b}` wherever it uses them", new_tree)


def _one_for_all(tree: ast.AST, lines: set[int], scope: _Scope, fresh: Callable[[], ast.AST]
                 ) -> Iterator[tuple[str, str, ast.AST]]:
    """One argument read wherever others of its role belong, at every use: `query` for `key`
    and `value` (self-attention where cross-attention belongs)."""
    used = sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name)
                   and isinstance(n.ctx, ast.Load) and n.lineno in lines} & scope.parameters)
    for a in used:
        others = [b for b in scope.partners(a) if b in used]
        for replaced in [[b] for b in others] + ([others] if len(others) > 1 else []):
            new_tree = fresh()
            for node in ast.walk(new_tree):
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) \
                        and getattr(node, "lineno", None) in lines and node.id in replaced:
                    node.id = a
            names = " and ".join(f"`{b}`" for b in replaced)
            alone = " alone," if len(replaced) > 1 else ""
            yield ("swaps operands", f"uses `{a}`{alone} wherever {names} "
                   f"belong{'s' if len(replaced) == 1 else ''}", new_tree)


def _sliced(node: ast.AST) -> bool:
    """Whether ``node`` takes a slice with a bound: `cache[..., :end, :]`."""
    index = getattr(node, "slice", None)
    return isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and any(
        isinstance(p, ast.Slice) and (p.lower or p.upper)
        for p in (index.elts if isinstance(index, ast.Tuple) else [index]))


def _slices_dropped(tree: ast.AST, lines: set[int], fresh: Callable[[], ast.AST]
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
        yield ("drops a slice", f"uses all of {names} where `[{index.strip('()')}]` of them "
               "belongs",
               new_tree)


def _functions(tree: ast.AST) -> list[ast.FunctionDef]:
    return [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]


def _reads(root: ast.AST, name: str, lines: set[int]) -> list[tuple[ast.AST, str, int | None]]:
    """(parent, field, index) of every read of ``name`` under ``root`` on solution lines."""
    return [(parent, field, index) for parent, field, index, node in _walk(root)
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
            and node.id == name and getattr(node, "lineno", None) in lines]


def _dropout_moved(tree: ast.AST, lines: set[int], fresh: Callable[[], ast.AST]
                   ) -> Iterator[tuple[str, str, ast.AST]]:
    """Dropout applied to a later value (the output) instead of the one it belongs to (the
    attention weights)."""
    def places(root):
        for node in ast.walk(root):
            block = getattr(node, "body", None)
            for index, statement in enumerate(block if isinstance(block, list) else []):
                if isinstance(statement, ast.Assign) and statement.lineno in lines \
                        and isinstance(statement.value, ast.Call) \
                        and _call_name(statement.value) == "dropout" and statement.value.args:
                    for later in block[index + 1:]:
                        if isinstance(later, ast.Assign) and len(later.targets) == 1 \
                                and isinstance(later.targets[0], ast.Name):
                            yield statement, later
    for number, (statement, later) in enumerate(places(tree)):
        new_tree = fresh()
        new_statement, new_later = list(places(new_tree))[number]
        call = new_statement.value
        new_statement.value = call.args[0]
        new_later.value = ast.Call(call.func, [new_later.value, *call.args[1:]], call.keywords)
        yield ("moves a step", f"applies {_code(statement.value.func)} to "
               f"`{later.targets[0].id}` instead of to "
               f"{_code(statement.targets[0])}", new_tree)


def _whole_reductions(tree: ast.AST, lines: set[int], fresh: Callable[[], ast.AST]
                      ) -> Iterator[tuple[str, str, ast.AST]]:
    """Every reduction of a function (a mean, a variance) taken over the whole tensor at once
    instead of over its axis: one number for all tokens where each token needs its own."""
    def reductions(function):
        return [n for n in ast.walk(function) if isinstance(n, ast.Call)
                and getattr(n, "lineno", None) in lines
                and _call_name(n) in ("mean", "var", "std", "sum", "amax", "logsumexp")
                and (any(k.arg in ("dim", "axis") for k in n.keywords) or (
                    isinstance(n.func, ast.Attribute) and n.args))]
    for number, function in enumerate(_functions(tree)):
        calls = reductions(function)
        if not calls:
            continue
        new_tree = fresh()
        for call in reductions(_functions(new_tree)[number]):
            method = isinstance(call.func, ast.Attribute) and ast.unparse(
                call.func.value) not in ("torch", "F")
            call.args = [] if method else call.args[:1]
            call.keywords = [k for k in call.keywords if k.arg not in ("dim", "axis",
                                                                        "keepdim")]
        names = " and ".join(dict.fromkeys(f"`{_call_name(c)}`" for c in calls))
        yield ("changes an axis", f"takes {names} over the whole tensor at once instead of "
               "over one axis (one number for every token)", new_tree)


def _inputs_transformed(tree: ast.AST, lines: set[int], fresh: Callable[[], ast.AST]
                        ) -> Iterator[tuple[str, str, ast.AST]]:
    """A residual that adds the transformed input (`norm1(x)`) where the input itself
    (`x`) belongs: `x + attention(norm1(x))` written as `norm1(x) + attention(norm1(x))`."""
    found = []
    for function in _functions(tree):
        calls = [n for n in ast.walk(function) if isinstance(n, ast.Call)
                 and getattr(n, "lineno", None) in lines and isinstance(n.func, ast.Name)
                 and len(n.args) == 1 and isinstance(n.args[0], ast.Name)]
        found += [(call, parent, field) for call in calls
                  for parent, field, _ in _reads(function, call.args[0].id, lines)
                  if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Add)]
    for call, parent, field in found:
        new_tree = fresh()
        new_parent = next(n for n in ast.walk(new_tree) if isinstance(n, ast.BinOp)
                          and ast.dump(n) == ast.dump(parent))
        setattr(new_parent, field, copy.deepcopy(call))
        yield ("swaps an operand", f"adds {_code(call)} where `{call.args[0].id}` belongs in "
               f"{_code(parent)} (the residual path carries the transformed input)", new_tree)


def _inlined_without_term(tree: ast.AST, lines: set[int], fresh: Callable[[], ast.AST]
                          ) -> Iterator[tuple[str, str, ast.AST]]:
    """One use of an intermediate made again without one of its terms: a softmax whose
    numerator is shifted by the maximum and whose denominator is not."""
    places = []
    for owner in ast.walk(tree):
        block = getattr(owner, "body", None)
        for index, statement in enumerate(block if isinstance(block, list) else []):
            if isinstance(statement, ast.Assign) and statement.lineno in lines \
                    and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name):
                name = statement.targets[0].id
                uses = [u for later in block[index + 1:] for u in _reads(later, name, lines)]
                terms = [n for n in ast.walk(statement.value) if isinstance(n, ast.BinOp)
                         and isinstance(n.op, (ast.Add, ast.Sub))]
                if len(uses) > 1:
                    places += [(statement, use, term) for use in range(len(uses))
                               for term in range(len(terms))]
    for statement, use, term in places:
        new_tree = fresh()
        new_statement = [n for n in ast.walk(new_tree) if isinstance(n, ast.Assign)
                         and ast.dump(n) == ast.dump(statement)][0]
        block = next(b for n in ast.walk(new_tree) if isinstance(b := getattr(n, "body", None),
                                                                   list) and new_statement in b)
        name = statement.targets[0].id
        parent, field, index = [u for later in block[block.index(new_statement) + 1:]
                                for u in _reads(later, name, lines)][use]
        value = copy.deepcopy(statement.value)
        binop = [n for n in ast.walk(value) if isinstance(n, ast.BinOp)
                 and isinstance(n.op, (ast.Add, ast.Sub))][term]
        dropped = f"{'+' if isinstance(binop.op, ast.Add) else '−'} {_code(binop.right)}"
        for p, f, i, n in _walk(value):
            if n is binop:
                _set(p, f, i, binop.left)
                break
        else:
            value = binop.left
        use_node = getattr(parent, field) if index is None else getattr(parent, field)[index]
        context = next((f"the {side} {_code(d)}" for d in ast.walk(new_tree)
                        if isinstance(d, ast.BinOp) and isinstance(d.op, ast.Div)
                        for side, part in (("denominator of", d.right), ("numerator of", d.left))
                        if any(n is use_node for n in ast.walk(part))), _code(parent))
        _set(parent, field, index, value)
        yield ("drops a term", f"leaves out {dropped} from `{name}` in {context} (the other "
               "uses keep it)", new_tree)


def _arguments_ignored(tree: ast.AST, lines: set[int], fresh: Callable[[], ast.AST],
                       scope: _Scope) -> Iterator[tuple[str, str, ast.AST]]:
    """An argument indexed by the answer (positions, steps) ignored for the ordinary case
    0 … n − 1: right only when it starts at 0, as it does before a cache holds anything."""
    for number, function in enumerate(_functions(tree)):
        first = next((i for i, s in enumerate(function.body) if s.lineno in lines), None)
        indexed = {n.value.id for n in ast.walk(function) if isinstance(n, ast.Subscript)
                   and isinstance(n.value, ast.Name) and getattr(n, "lineno", None) in lines}
        for argument in function.args.args:
            name = argument.arg
            if first is None or name not in indexed or name in scope.tensors \
                    or name in scope.defaults:
                continue
            new_tree = fresh()
            _functions(new_tree)[number].body.insert(first, ast.parse(
                f"{name} = torch.arange(len({name}))").body[0])
            yield ("treats an argument as a count", f"ignores the values of `{name}`, as if "
                   "they were always 0, 1, 2, …", new_tree)


def _tests_dropped(tree: ast.AST, lines: set[int], fresh: Callable[[], ast.AST]
                   ) -> Iterator[tuple[str, str, ast.AST]]:
    """An `if` without `else` whose body runs whatever its test says: `evaluate(model)`
    called even when no `evaluate` was given."""
    def tests(root):
        return [(block, index) for node in ast.walk(root) for field in ("body", "orelse")
                if isinstance(block := getattr(node, field, None), list)
                for index, statement in enumerate(block) if isinstance(statement, ast.If)
                and not statement.orelse and statement.lineno in lines]
    for number, (block, index) in enumerate(tests(tree)):
        test = block[index].test
        new_tree = fresh()
        new_block, new_index = tests(new_tree)[number]
        new_block[new_index:new_index + 1] = new_block[new_index].body
        yield ("drops a test", f"runs what `if {ast.unparse(test)[:40]}` guards even when the "
               "test is false (leaves out the test)", new_tree)


def _statements(tree: ast.AST, lines: set[int]) -> Iterator[tuple[list, int]]:
    """(block, index) of every statement in the solution that a block can do without: not
    a `return`, and not the block's only statement."""
    for node in ast.walk(tree):
        for field in ("body", "orelse"):
            block = getattr(node, field, None)
            if isinstance(block, list) and len(block) > 1:
                yield from ((block, index) for index, statement in enumerate(block)
                            if statement.lineno in lines and not isinstance(statement, ast.Return))


def _neighbours(tree: ast.AST, lines: set[int]) -> Iterator[tuple[list, int]]:
    """(block, index) of every statement in the solution followed by another one there."""
    for node in ast.walk(tree):
        for field in ("body", "orelse"):
            block = getattr(node, field, None)
            if not isinstance(block, list):
                continue
            for index, (first, second) in enumerate(zip(block, block[1:], strict=False)):
                if first.lineno in lines and second.lineno in lines \
                        and not isinstance(second, ast.Return):
                    yield block, index


def _swap(block: list, index: int) -> None:
    block[index], block[index + 1] = block[index + 1], block[index]


def _drop(block: list, index: int) -> None:
    del block[index]


def _updates(body: list, bound: set[str], lines: set[int]) -> Iterator[int]:
    """Indices of the statements in ``body`` (on solution lines) that change what is already
    there: a call, an `if`, `x += ...`, or `x = ...` of a name bound before."""
    bound = set(bound)
    for index, statement in enumerate(body):
        targets = [t.id for t in getattr(statement, "targets", []) if isinstance(t, ast.Name)]
        if statement.lineno in lines and (
                isinstance(statement, (ast.Expr, ast.If, ast.AugAssign))
                or (isinstance(statement, ast.Assign) and targets
                    and set(targets) <= bound)):
            yield index
        bound |= set(targets)


FIRST_ITEM = ast.parse(
    "def _mutant_first_item(new, old):\n"
    "    if isinstance(new, torch.Tensor) and isinstance(old, torch.Tensor) \\\n"
    "            and new.shape == old.shape and new.dim() > 0:\n"
    "        return torch.cat([new[:1], old[1:]])\n"
    "    return new\n").body[0]


def _first_only(tree: ast.AST, lines: set[int], fresh: Callable[[], ast.AST]
                ) -> Iterator[tuple[str, str, ast.AST]]:
    """Mutants that apply one step only on a function's first call, only to a loop's first
    item, or only to the first item of a batch: the kind that passes checks which call once
    or pass a batch of one."""
    functions = _functions(tree)
    for number, function in enumerate(functions):
        parameters = {a.arg for a in function.args.args + function.args.kwonlyargs}
        for index in _updates(function.body, parameters, lines):
            statement = function.body[index]
            new_tree = fresh()
            target = _functions(new_tree)[number]
            key = f"{function.name}:{number}"
            counter = ast.parse(f"_mutant_calls[{key!r}] = _mutant_calls.get({key!r}, 0) + 1"
                                ).body[0]
            guarded = ast.If(ast.parse(f"_mutant_calls[{key!r}] == 1", mode="eval").body,
                             [target.body[index]], [])
            target.body[index] = guarded
            target.body.insert(0, counter)
            new_tree.body.insert(0, ast.parse("_mutant_calls = {}").body[0])
            yield ("first call only", f"applies {_code(statement)} only on the first call",
                   new_tree)
        updates = [n for n in ast.walk(function) if isinstance(n, ast.Assign)
                   and n.lineno in lines and len(n.targets) == 1
                   and isinstance(n.targets[0], ast.Name)
                   and any(isinstance(x, ast.Name) and x.id == n.targets[0].id
                           for x in ast.walk(n.value))]  # x = f(x): a step applied to x
        for statement in updates:
            new_tree = fresh()
            target = _functions(new_tree)[number]
            assign = [n for n in ast.walk(target) if isinstance(n, ast.Assign)
                      and n.lineno in lines and ast.dump(n) == ast.dump(statement)][0]
            assign.value = ast.Call(ast.Name("_mutant_first_item", ast.Load()),
                                    [assign.value, ast.Name(statement.targets[0].id,
                                                            ast.Load())], [])
            new_tree.body.insert(0, copy.deepcopy(FIRST_ITEM))
            yield ("first item only", f"applies {_code(statement, 60)} only to the first item "
                   "of the batch", new_tree)
    loops = [n for n in ast.walk(tree) if isinstance(n, ast.For) and n.lineno in lines]
    for number, loop in enumerate(loops):
        for index in _updates(loop.body, {n.id for n in ast.walk(loop.target)
                                          if isinstance(n, ast.Name)} | _names_before(tree, loop),
                              lines):
            new_tree = fresh()
            target = [n for n in ast.walk(new_tree) if isinstance(n, ast.For)
                      and n.lineno in lines][number]
            statement = target.body[index]
            target.body[index] = ast.If(ast.Name("_mutant_first", ast.Load()), [statement], [])
            target.body.append(ast.parse("_mutant_first = False").body[0])
            _insert_before(new_tree, target, ast.parse("_mutant_first = True").body[0])
            yield ("first item only", f"applies {_code(statement)} only to the loop's first "
                   "item", new_tree)


def _loop_orders(tree: ast.AST, lines: set[int], fresh: Callable[[], ast.AST]
                 ) -> Iterator[tuple[str, str, ast.AST]]:
    """A loop over a sequence (blocks, heads, steps) run backwards, or over its last item
    only: what a stack gives when every pass starts again from the loop's input, so that
    only the last pass counts."""
    def stack_loops(root: ast.AST) -> list[ast.For]:  # loops over a name, not a range
        return [n for n in ast.walk(root) if isinstance(n, ast.For) and n.lineno in lines
                and isinstance(n.iter, (ast.Name, ast.Attribute))]

    for number, loop in enumerate(stack_loops(tree)):
        items = ast.unparse(loop.iter)
        for order, description in (
                (f"list({items})[::-1]", f"runs the loop over `{items}` in reverse order "
                                         "(the last item first)"),
                (f"list({items})[-1:]", f"runs the loop over only the last item of "
                                        f"`{items}`, as if every pass started again from the "
                                        "loop's input (so only the last one counts)")):
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
                changed |= {_root(t) for t in ast.walk(target)
                            if isinstance(t, (ast.Name, ast.Attribute, ast.Subscript))}
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            changed.add(_root(node.func.value))
    return changed - {None}


def _into_loops(tree: ast.AST, lines: set[int], fresh: Callable[[], ast.AST]
                ) -> Iterator[tuple[str, str, ast.AST]]:
    """A state made once before a loop that changes it (a list appended to, a scheduler
    stepped, a running maximum) made inside the loop instead, anew at every pass."""
    places = []
    for owner_number, owner in enumerate(ast.walk(tree)):
        block = getattr(owner, "body", None)
        for index, loop in enumerate(block if isinstance(block, list) else []):
            if isinstance(loop, ast.For) and loop.lineno in lines:
                changed = _changed_in(loop.body)
                places += [(owner_number, index, before) for before, statement
                           in enumerate(block[:index])
                           if isinstance(statement, ast.Assign) and statement.lineno in lines
                           and len(statement.targets) == 1
                           and isinstance(statement.targets[0], ast.Name)
                           and statement.targets[0].id in changed]
    for owner_number, index, before in places:
        new_tree = fresh()
        block = list(ast.walk(new_tree))[owner_number].body
        statement, loop = block[before], block[index]
        loop.body.insert(0, statement)
        del block[before]
        yield ("makes a state in a loop", f"makes {_code(statement)} inside the loop, anew at "
               "every pass, instead of once before it", new_tree)


def _names_before(tree: ast.AST, loop: ast.For) -> set[str]:
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)
            and isinstance(n.ctx, ast.Store) and n.lineno < loop.lineno} | \
        {a.arg for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) for a in n.args.args}


def _insert_before(tree: ast.AST, statement: ast.stmt, new: ast.stmt) -> None:
    for node in ast.walk(tree):
        for field in ("body", "orelse"):
            block = getattr(node, field, None)
            if isinstance(block, list) and any(item is statement for item in block):
                block.insert(next(i for i, item in enumerate(block) if item is statement), new)
                return


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

    def fresh() -> ast.AST:  # a copy of the tree to rewrite (parsing is 3x deepcopy's speed)
        return ast.parse(source)

    def keep(kind: str, description: str, new_tree: ast.AST) -> None:
        try:
            text = ast.unparse(ast.fix_missing_locations(new_tree))
            compile(text, "<mutant>", "exec")
        except (SyntaxError, ValueError, TypeError, AttributeError):
            return
        if text != reference and text not in found:
            found[text] = Mutant(kind, description, text)

    for number, (parent, field, _index, node) in enumerate(_walk(tree)):
        if getattr(node, "lineno", None) not in lines:
            continue
        for kind, description, replacement in _rewrites(node, parent, field, scope):
            new_tree = fresh()
            new_parent, new_field, new_index, _ = next(
                item for n, item in enumerate(_walk(new_tree)) if n == number)
            _set(new_parent, new_field, new_index, copy.deepcopy(replacement))
            keep(kind, description, new_tree)
    for number, (block, index) in enumerate(_neighbours(tree, lines)):
        new_tree = fresh()
        _swap(*list(_neighbours(new_tree, lines))[number])
        keep("swaps two steps", f"runs {_code(block[index + 1])} before {_code(block[index])}",
             new_tree)
    for number, (block, index) in enumerate(_statements(tree, lines)):
        new_tree = fresh()
        _drop(*list(_statements(new_tree, lines))[number])
        keep("drops a step", f"leaves out the step {_code(block[index])}", new_tree)
    for kind, description, new_tree in (*_first_only(tree, lines, fresh),
                                        *_loop_orders(tree, lines, fresh),
                                        *_into_loops(tree, lines, fresh),
                                        *_exchanges(tree, lines, scope, fresh),
                                        *_one_for_all(tree, lines, scope, fresh),
                                        *_slices_dropped(tree, lines, fresh),
                                        *_dropout_moved(tree, lines, fresh),
                                        *_whole_reductions(tree, lines, fresh),
                                        *_inputs_transformed(tree, lines, fresh),
                                        *_inlined_without_term(tree, lines, fresh),
                                        *_arguments_ignored(tree, lines, fresh, scope),
                                        *_tests_dropped(tree, lines, fresh)):
        keep(kind, description, new_tree)
    return tuple(found.values())


def defined_names(source: str) -> list[str]:
    """The functions and classes a solution cell defines (what its checks call)."""
    return [node.name for node in ast.parse(source).body
            if isinstance(node, (ast.FunctionDef, ast.ClassDef))]


# --- the exercises of a notebook ------------------------------------------------------------


def code_cells(notebook: dict) -> Iterator[tuple[str | None, dict, str]]:
    for cell in notebook["cells"]:
        if cell.get("cell_type") == "code":
            meta = cell.get("metadata", {}).get("nbgrader", {})
            text = cells.source(cell)
            yield meta.get("grade_id"), meta, text


def title(test_source: str, fallback: str = "") -> str:
    """The exercise's name as students see it: ``Checks("Exercise 3 · attention", ...)``."""
    match = CHECKS_TITLE.search(test_source)
    return match.group(1) if match else fallback


def solution_cells(notebook: dict, marked: bool = True) -> dict[str, str]:
    """Test cell id (``exN_tests``) -> the source of exercise N's solution cells (``marked``:
    only those holding a solution; without, as a submission holds them)."""
    found: dict[str, list[str]] = {}
    for grade_id, meta, text in code_cells(notebook):
        if grade_id and meta.get("solution") and (not marked or "### BEGIN SOLUTION" in text):
            found.setdefault(grade_id.split("_")[0], []).append(text)
    return {f"{prefix}_tests": "\n\n".join(texts) for prefix, texts in found.items()}


@functools.lru_cache(maxsize=256)
def calls(source: str) -> collections.Counter | None:
    """How many times ``source`` calls each function or method, by its last name
    (``torch.softmax`` and ``F.softmax`` are both ``softmax``); None when it does not parse.
    A student's answer is read here as text, never run."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return collections.Counter(
        node.func.id if isinstance(node.func, ast.Name) else node.func.attr
        for node in ast.walk(tree) if isinstance(node, ast.Call)
        and isinstance(node.func, (ast.Name, ast.Attribute)))


class Variant(tuple):
    """(description, {name: function}) of one mutant, with what it calls and what the
    reference calls, to tell how far an answer's own calls side with it."""

    def __new__(cls, description: str, functions: dict, source: str, reference: str):
        variant = super().__new__(cls, (description, functions))
        variant.source, variant.reference = source, reference
        return variant

    def agreement(self, answer: str) -> int:
        """+1 for each of the reference's calls that the mutant makes more or fewer times and
        the answer too (a step left out that the answer lacks as well), −1 for each that the
        answer makes as often as the reference (a step left out that the answer has); 0 when
        none changed, or the answer does not parse. A call the reference never makes is how
        a mutant is built (`list(blocks)[-1:]`), not what it is about: it does not count."""
        mutant, reference, own = calls(self.source), calls(self.reference), calls(answer)
        if mutant is None or reference is None or own is None:
            return 0
        return sum(1 if (own[name] > reference[name]) == (mutant[name] > reference[name])
                   and own[name] != reference[name] else -1
                   for name in reference if mutant[name] != reference[name])


def answer_sources(notebook: dict) -> dict[str, str]:
    """Exercise title -> the source of its answer cells, as ``notebook`` holds them (a
    submission's, with or without the solution markers)."""
    answers = solution_cells(notebook, marked=False)
    return {title(text, grade_id): answers[grade_id]
            for grade_id, _, text in code_cells(notebook) if grade_id in answers}


class VariantAnswers:
    """The mutants of a source notebook's reference answers, as working functions, for
    the grader to name the one a wrong answer matches (``checking.variant_answers``).

    They run in a namespace of their own holding the notebook's setup cell and every
    reference answer, so a mutant of exercise 2 calls the reference of exercise 1.
    """

    def __init__(self, notebook: dict):
        cells = list(code_cells(notebook))
        self._setup = [text for grade_id, _, text in cells if grade_id == "setup"]
        answers = solution_cells(notebook)
        self._answers = {title(text, grade_id): answers[grade_id]
                         for grade_id, meta, text in cells if grade_id in answers}
        self._namespace: dict | None = None
        self._built: dict[str, list[tuple[str, dict]]] = {}

    def _reference(self) -> dict:
        if self._namespace is None:
            self._namespace = {"__name__": "__variants__"}
            for text in self._setup + list(self._answers.values()):
                self._run(text, self._namespace)
        return self._namespace

    @staticmethod
    def _run(text: str, namespace: dict) -> bool:
        try:
            with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                exec(compile(text, "<reference>", "exec"), namespace)  # noqa: S102
        except Exception:  # noqa: BLE001 - a variant that cannot be built is left out
            return False
        return True

    def reference(self, exercise: str) -> dict[str, object]:
        """The names the exercise's reference answer defines, as working objects."""
        source = self._answers.get(exercise)
        return {name: self._reference()[name] for name in defined_names(source)
                if name in self._reference()} if source else {}

    def __call__(self, exercise: str) -> list[tuple[str, dict]]:
        if exercise not in self._built:
            source = self._answers.get(exercise)
            found = []
            for mutant in mutants(source) if source else []:
                space = dict(self._reference())
                if self._run(mutant.source, space):
                    found.append(Variant(mutant.description,
                                         {name: space[name] for name in defined_names(source)},
                                         mutant.source, source))
            if source:
                found += families(source, self._reference(), defined_names(source))
            self._built[exercise] = found
        return self._built[exercise]
