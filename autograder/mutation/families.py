"""One-parameter families of a reference answer, fitted to a wrong answer.

A mutant is one fixed mistake. A family frees one number of the reference answer (the
divisor of the scores, an exponent, a constant, a term added) and asks which value of it
reproduces what the student's answer returned. Candidates come first from the sizes in
scope where that number is used (every axis of every tensor, every integer, a module's
integer attributes, and their square roots), then from simple changes of the number itself
(twice, half, ten times, the sign), and, if none fits, from a one-dimensional fit of the
number. The member that fits is said in the student's terms, with the symbols of the
reference's docstring: "divides by √`Q.shape[-2]` (√T, the number of queries: √5 ≈ 2.236
here) where `math.sqrt(Q.shape[-1])` (2 here) belongs".

Families are made from the solutions, so, like the mutants, they name mistakes only in
grading (the grading context's ``variants``, ``course_checks/context.py``); what needs no
reference code, a factor or a shift of the whole result, is measured everywhere
(``course_checks.diagnosis``).
"""

from __future__ import annotations

import ast
import contextlib
import copy
import inspect
import io
import math
import re
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch

FILE = "<family>"  # the instrumented cell's file name, how ``__free__`` knows its frames

# What the symbols of the course's docstrings stand for.
SYMBOLS = {
    "T": "the number of queries (tokens)",
    "S": "the number of keys",
    "N": "the number of tokens",
    "B": "the batch size",
    "H": "the number of heads",
    "d_k": "the size of a query and a key",
    "d_v": "the size of a value",
    "d_model": "the model width",
    "d_head": "a head's width",
    "D": "the length of a vector",
    "D_in": "the input size",
    "D_out": "the output size",
    "V": "the vocabulary size",
    "d_ff": "the feed-forward width",
    "d": "the size of a head's vectors",
    "n": "the number of new positions",
    "p": "the number of cached positions",
    "L": "the generated length",
    "M": "the number of rows",
    "seq_len": "the sequence length",
    "m": "the number of entries",
}


class Member(tuple):
    """(description, {name: function}) of one fitted member, with its rank: size-named
    members come before the mutants (rank 1), simple changes after, fitted numbers last."""

    rank: int
    key: tuple | None

    def __new__(cls, description: str, functions: dict, rank: int, key: tuple | None = None):
        member = super().__new__(cls, (description, functions))
        member.rank = rank
        member.key = key  # (its family, its number): a family that several numbers fit names none
        return member


# --- where the free numbers are -------------------------------------------------------------


def _solution_lines(source: str) -> set[int]:
    """The numbers of a cell's lines between ``### BEGIN SOLUTION`` and ``### END SOLUTION``."""
    lines, inside = set(), False
    for number, line in enumerate(source.splitlines(), start=1):
        if "### BEGIN SOLUTION" in line:
            inside = True
        elif "### END SOLUTION" in line:
            inside = False
        elif inside:
            lines.add(number)
    return lines


def _scalar(node: ast.AST) -> bool:
    """Whether ``node`` looks like a number: a literal, a name, a size, a root of one."""
    if isinstance(node, ast.Constant):
        return type(node.value) in (int, float)
    if isinstance(node, (ast.Name, ast.Attribute)):
        return not (isinstance(node, ast.Attribute) and node.attr in ("T", "mT", "weight"))
    if isinstance(node, ast.Subscript):
        return isinstance(node.value, ast.Attribute) and node.value.attr == "shape"
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return _scalar(node.operand)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
        return _scalar(node.left) and isinstance(node.right, ast.Constant)
    if isinstance(node, ast.Call):
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        return name in ("sqrt", "len", "size", "float", "int", "log") and len(node.args) <= 1
    return False


# (operator, side) -> what the student's answer does with the number there.
VERBS = {
    (ast.Div, "right"): "divides by",
    (ast.FloorDiv, "right"): "divides by",
    (ast.Mult, "right"): "multiplies by",
    (ast.Mult, "left"): "multiplies by",
    (ast.Pow, "right"): "raises to the power",
    (ast.Pow, "left"): "takes the power of",
    (ast.Add, "right"): "adds",
    (ast.Add, "left"): "adds",
    (ast.Sub, "right"): "subtracts",
}


@dataclass
class Site:
    """A number of the reference answer that a family frees."""

    index: int
    verb: str
    code: str  # the reference's expression there, "`math.sqrt(Q.shape[-1])`"
    exponent: bool  # an exponent or a term: other simple changes apply


def instrument(source: str) -> tuple[str, list[Site]]:
    """The cell with every free number ``E`` of its solution written ``__free__(i, E)``."""
    tree = ast.parse(source)
    lines = _solution_lines(source)
    sites: list[Site] = []

    class Freer(ast.NodeTransformer):
        def visit_BinOp(self, node):
            self.generic_visit(node)
            if node.lineno not in lines:
                return node
            for side in ("left", "right"):
                operand, verb = getattr(node, side), VERBS.get((type(node.op), side))
                additive = isinstance(node.op, (ast.Add, ast.Sub))
                if (
                    verb is None
                    or not _scalar(operand)
                    or (additive and not isinstance(operand, ast.Constant))
                    or (
                        isinstance(node.op, ast.Pow)
                        and side == "left"
                        and not isinstance(operand, ast.Constant)
                    )
                ):
                    continue
                text = ast.unparse(operand)
                sites.append(
                    Site(
                        len(sites),
                        verb,
                        f"`{text}`",
                        isinstance(node.op, (ast.Pow, ast.Add, ast.Sub)),
                    )
                )
                setattr(
                    node,
                    side,
                    ast.Call(
                        ast.Name("__free__", ast.Load()),
                        [ast.Constant(len(sites) - 1), operand],
                        [],
                    ),
                )
            return node

    tree = ast.fix_missing_locations(Freer().visit(tree))
    return ast.unparse(tree), sites


# --- the sizes in scope ---------------------------------------------------------------------


def docstring_symbols(namespace: dict, names: list[str]) -> dict[tuple[str, int], str]:
    """(argument, axis) -> symbol, from docstrings such as "Q: (..., T, d_k)": axes counted
    from the end when the shape starts with "...", from the front otherwise (as negative
    axes, for shapes of that many axes)."""
    found: dict[tuple[str, int], str] = {}
    for name in names:
        text = inspect.getdoc(namespace.get(name)) or ""
        for group, dims in re.findall(r"((?:\w+\*?,\s*)*\w+\*?)\s*:?\s*\(([^()]*)\)", text):
            parts = [p.strip() for p in dims.split(",") if p.strip()]
            if not parts or any(not re.fullmatch(r"\.\.\.|\w+(·\w+)?", p) for p in parts):
                continue
            symbols = (
                [p for p in parts if p != "..." and not p.isdigit()]
                if parts[0] == "..."
                else [p for p in parts]
            )
            for argument in re.split(r",\s*", group):
                for axis, symbol in enumerate(reversed(symbols), start=1):
                    if not symbol.isdigit():
                        found.setdefault((argument.rstrip("*"), -axis), symbol)
    return found


def _scope(frame) -> dict[str, Any]:
    """The names in scope at a free number: the frame's, its enclosing frames' in the same
    cell (a comprehension inside a function), and a module's integer attributes."""
    scope: dict[str, Any] = {}
    while frame is not None and frame.f_code.co_filename == FILE:
        for name, value in frame.f_locals.items():
            scope.setdefault(name, value)
        frame = frame.f_back
    owner = scope.get("self")
    if owner is not None:
        for name, value in vars(owner).items():
            if type(value) is int:
                scope.setdefault(f"self.{name}", value)
    return scope


@dataclass(frozen=True)
class Candidate:
    """A value for a free number: a size in scope (or its root), or the reference's own
    value changed simply; ``value`` computes it afresh for every call."""

    kind: str  # "size", "int", "times", "plus", "power", "fitted"
    name: str = ""
    axis: int = 0
    root: bool = False
    number: float = 0.0

    def size(self, scope: dict) -> float | None:
        value = scope.get(self.name)
        if self.kind == "size":
            if not isinstance(value, torch.Tensor) or value.dim() < -self.axis:
                return None
            value = value.shape[self.axis]
        if type(value) is not int or value < 1:
            return None
        return math.sqrt(value) if self.root else value

    def value(self, scope: dict, reference: float) -> float | None:
        if self.kind in ("size", "int"):
            return self.size(scope)
        if self.kind == "times":
            return reference * self.number
        if self.kind == "plus":
            return reference + self.number
        if self.kind == "power":
            return math.copysign(abs(reference) ** self.number, reference)
        return self.number  # fitted

    def code(self) -> str:
        if self.kind == "size":
            return f"{self.name}.shape[{self.axis}]"
        return self.name

    def words(self, scope: dict, reference: float, symbols: dict) -> str:
        """The candidate in the student's terms, with its value on this check."""
        value = self.value(scope, reference)
        shown = f"{value:.4g}"
        if self.kind in ("size", "int"):
            symbol = symbols.get((self.name, self.axis)) if self.kind == "size" else self.name
            meaning = SYMBOLS.get(symbol or "", "")
            raw = scope[self.name].shape[self.axis] if self.kind == "size" else scope[self.name]
            root = "√" if self.root else ""
            told = f"{root}{symbol}" if symbol and symbol != self.name else ""
            about = ", ".join(x for x in (told, meaning) if x)
            here = f"√{raw} ≈ {shown}" if self.root else f"{raw}"
            return f"{root}`{self.code()}` ({about + ': ' if about else ''}{here} here)"
        if self.kind == "times":
            factor = {0.5: "half", 2.0: "twice", -1.0: "minus"}.get(
                self.number, f"{self.number:g} times"
            )
            return f"{shown} ({factor} the reference's {reference:.4g})"
        if self.kind == "plus":
            return f"{shown} (the reference's {reference:.4g} {self.number:+g})"
        if self.kind == "power":
            told = {
                2.0: f"the reference's {reference:.4g} squared",
                0.5: f"the square root of the reference's {reference:.4g}",
            }.get(self.number, f"the reference's {reference:.4g} to the power {self.number:g}")
            return f"{shown} ({told})"
        return shown


def candidates(scope: dict, reference: float, exponent: bool) -> list[Candidate]:
    """Every value worth trying at a free number, sizes first."""
    found = []
    for name, value in scope.items():
        if isinstance(value, torch.Tensor) and value.dim() <= 6:
            for axis in range(-value.dim(), 0):
                found += [Candidate("size", name, axis), Candidate("size", name, axis, True)]
        elif type(value) is int and not name.startswith("_"):
            found += [Candidate("int", name), Candidate("int", name, root=True)]
    found += [Candidate("times", number=k) for k in (2.0, 0.5, -1.0, 10.0, 0.1)]
    found += [Candidate("power", number=p) for p in (2.0, 0.5)]
    if exponent:
        found += [Candidate("plus", number=k) for k in (1.0, -1.0, 0.5, -0.5)]
    return found


# --- a family ---------------------------------------------------------------------------------


class _State:
    """Which free number is freed, and how: shared by the instrumented cell's functions."""

    def __init__(self):
        self.site: int | None = None
        self.candidate: Candidate | None = None
        self.discovered: dict[int, tuple[dict, float]] = {}  # site -> (scope, reference)

    def free(self, index: int, value):
        if index != self.site:
            return value
        number = (
            float(value)
            if isinstance(value, (int, float))
            or (isinstance(value, torch.Tensor) and value.dim() == 0)
            else None
        )
        if number is None or isinstance(value, bool):
            return value
        scope = _scope(sys._getframe(1))  # the cell's code that uses it
        if self.candidate is None:  # discovering: remember the first call's scope
            self.discovered.setdefault(index, (scope, number))
            return value
        new = self.candidate.value(scope, number)
        if new is None:
            raise ValueError("this candidate does not apply here")
        if isinstance(value, int) and float(new).is_integer():
            return int(new)
        return new


@dataclass
class Family:
    """The members of one free number of an exercise's reference answer."""

    site: Site
    state: _State
    functions: dict[str, Any]  # the instrumented cell's functions and classes
    symbols: dict

    def _bound(self, candidate: Candidate | None) -> dict[str, Any]:
        """The cell's functions, each freeing this number with ``candidate`` when called."""
        state, index = self.state, self.site.index

        def activating(function):
            def call(*args, **kwargs):
                state.site, state.candidate = index, candidate
                return function(*args, **kwargs)

            return call

        bound = {}
        for name, obj in self.functions.items():
            if isinstance(obj, type):
                methods = {
                    key: activating(value)
                    for key, value in vars(obj).items()
                    if inspect.isfunction(value)
                }
                bound[name] = type(obj.__name__, (obj,), methods)
            elif callable(obj):
                bound[name] = activating(obj)
        return bound

    def _discover(self, evaluate: Callable) -> tuple[dict, float] | None:
        """The scope and the reference's value of the free number on this check, or None
        when the check does not reach it with a number."""
        self.state.discovered.pop(self.site.index, None)
        evaluate(self._bound(None))
        return self.state.discovered.get(self.site.index)

    def fit(
        self, evaluate: Callable, same: Callable, out_of_time: Callable[[], bool]
    ) -> list[Member]:
        """The members with a size or a simple change that give what the student's answer
        gave on this check (``evaluate(functions)`` runs it, ``same(outcome)`` compares)."""
        found = self._discover(evaluate)
        if found is None:
            return []
        scope, reference = found
        by_value: dict[float, list[Candidate]] = {}
        # 1 where a factor, a divisor, an exponent or a base belongs is that number left
        # out (a size of 1 only happens to give it): the mutants name that in its words.
        trivial = None if self.site.verb in ("adds", "subtracts") else 1.0
        for candidate in candidates(scope, reference, self.site.exponent):
            value = candidate.value(scope, reference)
            if (
                value is not None
                and not math.isclose(value, reference, rel_tol=1e-9)
                and value != trivial
            ):
                by_value.setdefault(round(value, 9), []).append(candidate)
        members = []
        for group in by_value.values():
            if out_of_time():
                break
            if same(evaluate(self._bound(group[0]))):
                members += [self._member(c, scope, reference) for c in group]
        return members

    def fit_number(
        self, evaluate: Callable, same: Callable, out_of_time: Callable[[], bool], got
    ) -> list[Member]:
        """The member whose number, fitted, gives ``got``: the last resort, when no size
        and no simple change did."""
        found = self._discover(evaluate)
        if found is None or found[1] == 0:
            return []
        scope, reference = found
        fitted = self._fitted(evaluate, got, reference, out_of_time)
        if fitted is None or not same(evaluate(self._bound(fitted))):
            return []
        return [self._member(fitted, scope, reference)]

    def _member(self, candidate: Candidate, scope: dict, reference: float) -> Member:
        words = candidate.words(scope, reference, self.symbols)
        description = (
            f"{self.site.verb} {words} where {self.site.code} ({reference:.4g} here) belongs"
        )
        rank = 0 if candidate.kind in ("size", "int") else 2 if candidate.kind != "fitted" else 3
        value = candidate.value(scope, reference)
        return Member(
            description,
            self._bound(candidate),
            rank,
            (id(self), None if value is None else round(value, 9)),
        )

    def _fitted(self, evaluate, got, reference, out_of_time) -> Candidate | None:
        """The number that brings the reference's result closest to ``got``: a scan over
        powers of two around the reference's value, then a golden-section search of the
        exponent between the best one's neighbours (about 40 runs in all)."""

        def distance(log_ratio: float) -> float:
            if out_of_time():
                raise TimeoutError
            candidate = Candidate("fitted", number=reference * 2**log_ratio)
            return _distance(evaluate(self._bound(candidate)), got)

        try:
            grid: list[float] = list(range(-8, 9))
            scores = [distance(x) for x in grid]
            best = min(range(len(grid)), key=scores.__getitem__)
            if not math.isfinite(scores[best]):
                return None
            low, high = grid[max(best - 1, 0)], grid[min(best + 1, len(grid) - 1)]
            ratio = (math.sqrt(5) - 1) / 2
            a, b = high - ratio * (high - low), low + ratio * (high - low)
            fa, fb = distance(a), distance(b)
            for _ in range(24):
                if fa < fb:
                    high, b, fb = b, a, fa
                    a = high - ratio * (high - low)
                    fa = distance(a)
                else:
                    low, a, fa = a, b, fb
                    b = low + ratio * (high - low)
                    fb = distance(b)
        except TimeoutError:
            return None
        return Candidate("fitted", number=reference * 2 ** ((low + high) / 2))


def _distance(outcome: tuple, got) -> float:
    if outcome[0] != "value":
        return math.inf
    try:
        a = torch.as_tensor(outcome[1], dtype=torch.float64)
        b = torch.as_tensor(got, dtype=torch.float64)
    except (TypeError, ValueError, RuntimeError):
        return math.inf
    if a.shape != b.shape:
        return math.inf
    difference = (a - b).abs()
    return float(difference.nan_to_num(nan=math.inf).max()) if difference.numel() else 0.0


def families(source: str, namespace: dict, names: list[str]) -> list[Family]:
    """The families of a solution cell's free numbers, built in a copy of ``namespace``
    (the notebook's setup and reference answers); ``names`` are what the cell defines."""
    text, sites = instrument(source)
    if not sites:
        return []
    space = dict(namespace)
    state = _State()
    space["__free__"] = state.free
    try:
        with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(compile(text, FILE, "exec"), space)  # noqa: S102 - the course's own answer
    except Exception:  # noqa: BLE001 - a cell that cannot be instrumented has no families
        return []
    functions = {name: space[name] for name in names if name in space}
    symbols = docstring_symbols(space, names)
    return [Family(copy.copy(site), state, functions, symbols) for site in sites]
