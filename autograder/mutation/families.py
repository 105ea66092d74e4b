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

Where the free numbers are is ``free_numbers.py``; the values tried at one, and how each is
said, ``candidates.py``. Here: a family of one number, fitted, and its members.
"""

from __future__ import annotations

import contextlib
import copy
import inspect
import io
import math
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch

from autograder.mutation.candidates import Candidate, _scope, candidates, docstring_symbols
from autograder.mutation.free_numbers import FILE, Site, instrument

__all__ = ["Family", "Member", "families"]


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
