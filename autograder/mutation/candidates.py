"""The values worth trying at a free number of a reference answer: the sizes in scope where
the number is used (every axis of every tensor, every integer, a module's integer
attributes, and their square roots) and simple changes of the number itself, each said in
the student's terms with the symbols of the reference's docstring. The families that try
them are ``families.py``.
"""

from __future__ import annotations

import inspect
import math
import re
from dataclasses import dataclass
from typing import Any

import torch

from autograder.mutation.free_numbers import FILE

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
