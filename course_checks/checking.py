"""The checks behind every test cell: compare, explain, diagnose, award points.

A test cell builds a ``Checks`` for its exercise, runs a few checks, and ends with
``checks.score()``. The score is the cell's last expression, so nbgrader awards that many
points ("k of n checks passed" gives partial credit), and the report printed above it tells
the student what went wrong. Nothing here raises on a wrong answer, and nothing reaches
stderr: nbgrader gives a cell that writes to stderr zero points, so student code runs with
warnings and stderr captured and shown on stdout.

Comparisons use ``torch.allclose`` in float64 on the CPU, so float32 and float64 answers,
CPU and CUDA answers, loops and vectorised code all pass alike.
"""

from __future__ import annotations

import contextlib
import io
import math
import sys
import warnings
from collections.abc import Callable, Mapping
from typing import Any

import torch

from . import selfcheck as _selfcheck
from . import shortcuts

__all__ = ["Checks", "compare"]

# References taken when the module is imported, so that a notebook which rebinds
# torch.allclose does not fool the student's own checks by accident. (Grades never rely on
# this: when grading, these checks run in the trusted checker, not in the kernel.)
_allclose = torch.allclose
_as_tensor = torch.as_tensor
_isfinite = torch.isfinite
_float64 = torch.float64


class _NoAnswer:
    """Stands in for the result of student code that raised."""


_NO_ANSWER = _NoAnswer()


def _describe_shape(shape: torch.Size) -> str:
    return "(" + ", ".join(str(s) for s in shape) + ")"


def _to_tensor(value: Any, name: str) -> tuple[torch.Tensor | None, str | None]:
    if isinstance(value, torch.Tensor):
        return value.detach().to("cpu", _float64), None
    if isinstance(value, bool) or value is None:
        hint = " Did the function forget to `return` its result?" if value is None else ""
        return None, f"{name} is {value!r}, not a tensor.{hint}"
    if isinstance(value, (int, float)):
        return _as_tensor(value, dtype=_float64), None
    return None, f"{name} should be a torch.Tensor but is a {type(value).__name__}."


def _matches(got: torch.Tensor, expected: torch.Tensor, atol: float, rtol: float) -> bool:
    return got.shape == expected.shape and bool(
        _allclose(got, expected, atol=atol, rtol=rtol, equal_nan=True)
    )


def compare(
    got: Any,
    expected: torch.Tensor,
    name: str = "your answer",
    *,
    misconceptions: Mapping[str, torch.Tensor] | None = None,
    atol: float = 1e-4,
    rtol: float = 1e-4,
    squeeze: bool = False,
) -> str | None:
    """None when ``got`` equals ``expected``; otherwise a message that says what differs.

    The message names the first problem found: not a tensor, shape, NaN or inf, then the
    largest difference with its position. If ``got`` equals one of ``misconceptions``
    (``{description: tensor}``), the message ends with "This matches <description>."
    ``squeeze`` ignores dimensions of size 1 (a score may be ``(1, 1)`` or a 0-d tensor).
    """
    got_t, problem = _to_tensor(got, name)
    if problem:
        return problem
    expected_t = expected.detach().to("cpu", _float64)
    if squeeze:
        got_t, expected_t = got_t.squeeze(), expected_t.squeeze()
    message = _difference(got_t, expected_t, name, atol, rtol)
    if message is None:
        return None
    for description, wrong in (misconceptions or {}).items():
        wrong_t = wrong.detach().to("cpu", _float64)
        if squeeze:
            wrong_t = wrong_t.squeeze()
        if _matches(got_t, wrong_t, atol, rtol):
            # The named mistake replaces generic advice such as "a reshape may be all it needs".
            plain = _difference(got_t, expected_t, name, atol, rtol, shape_hints=False)
            return f"{plain} This matches {description}."
    return message


def _difference(
    got: torch.Tensor, expected: torch.Tensor, name: str, atol, rtol, shape_hints: bool = True
) -> str | None:
    if got.shape != expected.shape:
        message = (
            f"{name} has shape {_describe_shape(got.shape)} but should have shape "
            f"{_describe_shape(expected.shape)}."
        )
        if not shape_hints:
            return message
        if got.dim() == 2 and got.T.shape == expected.shape:
            message += (
                " It has the right size turned on its side: rows and columns are swapped"
                " (a missing or an extra .T?)."
            )
        elif got.numel() == expected.numel():
            message += " Same number of entries: .reshape() or .squeeze() may be all it needs."
        return message
    bad = ~_isfinite(got) & _isfinite(expected)
    if bool(bad.any()):
        kind = "NaN" if bool(torch.isnan(got[bad]).any()) else "inf"
        return f"{name} contains {kind} in {int(bad.sum())} of {got.numel()} entries."
    if _allclose(got, expected, atol=atol, rtol=rtol, equal_nan=True):
        return None
    diff = (got - expected).abs().nan_to_num(nan=math.inf)
    flat = int(diff.reshape(-1).argmax())
    where = (
        [int(i) for i in torch.unravel_index(torch.tensor(flat), got.shape)] if got.dim() else []
    )
    position = f" at index {where}" if where else ""
    return (
        f"{name} differs from the expected value{position}: expected "
        f"{float(expected.reshape(-1)[flat]):.4f}, got {float(got.reshape(-1)[flat]):.4f} "
        f"(largest difference {float(diff.reshape(-1)[flat]):.3g})."
    )


def _hint_for(error: str) -> str:
    """A pointer for errors that beginners meet often; empty when none applies."""
    text = error.lower()
    if "float" in text and "double" in text:
        return (
            " (float32 and float64 tensors were mixed: keep the dtype of the inputs,"
            " for example by not calling .double())"
        )
    if "division by zero" in text or "raised to a negative power" in text:
        return (
            " (a division by zero: LambdaLR's first step is step 0, so a formula that divides by"
            " the step, or raises it to a negative power, needs the step counted from 1)"
        )
    if "bool" in text and "float" in text:
        return (
            " (a boolean mask arrived where numbers were expected: pass it by keyword, mask=mask)"
        )
    if "cannot be multiplied" in text or "must match the size" in text:
        return (
            " (two shapes do not fit together: printing each tensor's .shape usually shows which)"
        )
    return ""


class Checks:
    """The checks of one test cell, and the points they earn.

    >>> checks = Checks("Exercise 3 (softmax)", points=2)
    >>> checks.close("softmax([1, 2, 3])", lambda: softmax(z), torch.softmax(z, 0))
    >>> checks.score()  # last line of the cell: printed report, then the points
    """

    def __init__(self, exercise: str, points: float, uses: str = "",
                 refuses: tuple[str, ...] = ()):
        """``uses`` names earlier answers the checks call, e.g. "your `score` (exercise 2)";
        ``refuses`` the functions the answer may not call (``course_checks.shortcuts``)."""
        self.exercise = exercise
        self.points = points
        self.uses = uses
        self.refuses = tuple(refuses)
        self.results: list[tuple[str, str | None]] = []
        _selfcheck.started(exercise, points)  # for the notebook's self-check table

    def run(self, description: str, student_code: Callable[[], Any]) -> Any:
        """Run ``student_code()``; a raised error becomes a failed check with its message.

        Warnings and stderr output of student code are shown on stdout instead, so that a
        harmless warning does not cost the points. The exercise's refused shortcuts raise
        while it runs, also under the names the notebook gave them.
        """
        captured = io.StringIO()
        namespace = getattr(student_code, "__globals__", None)
        try:
            with (
                warnings.catch_warnings(record=True) as caught,
                contextlib.redirect_stderr(captured),
                shortcuts.refused(self.refuses, [namespace] if namespace is not None else []),
            ):
                warnings.simplefilter("always")
                result = student_code()
        except NotImplementedError:
            self.results.append(
                (
                    description,
                    "not attempted yet (the answer cell still raises NotImplementedError).",
                )
            )
            return _NO_ANSWER
        except Exception as error:  # any student error becomes feedback, never a crash
            message = f"raised {type(error).__name__}: {error}" + _hint_for(str(error))
            if type(error).__name__ == "ShortcutError":  # raised here or in the kernel
                message = f"{error}."
            self.results.append((description, message))
            return _NO_ANSWER
        finally:
            if captured.getvalue():
                print(f"(your code wrote to stderr: {captured.getvalue().strip()})")
        for warning in caught:
            print(f"(warning from your code: {warning.category.__name__}: {warning.message})")
        return result

    def close(
        self,
        description: str,
        student_code: Callable[[], Any],
        expected: torch.Tensor,
        *,
        misconceptions: Mapping[str, torch.Tensor] | None = None,
        atol: float = 1e-4,
        rtol: float = 1e-4,
        squeeze: bool = False,
    ) -> bool:
        """Check that ``student_code()`` returns a tensor equal to ``expected``."""
        got = self.run(description, student_code)
        if got is _NO_ANSWER:
            return False
        message = compare(
            got,
            expected,
            "the result",
            misconceptions=misconceptions,
            atol=atol,
            rtol=rtol,
            squeeze=squeeze,
        )
        self.results.append((description, message))
        return message is None

    def true(self, description: str, student_code: Callable[[], Any], hint: str) -> bool:
        """Check that ``student_code()`` returns something true; ``hint`` says why not."""
        got = self.run(description, student_code)
        if got is _NO_ANSWER:
            return False
        ok = bool(got)
        self.results.append((description, None if ok else hint))
        return ok

    def score(self) -> float:
        """Print the report and return the points earned: points × passed / total."""
        passed = sum(message is None for _, message in self.results)
        total = len(self.results)
        print(f"{self.exercise}: {passed} of {total} checks passed")
        for description, message in self.results:
            mark = "✓" if message is None else "✗"
            print(f"  {mark} {description}" + ("" if message is None else f"\n      {message}"))
        if self.uses and passed < total:
            print(
                f"  Note: these checks call {self.uses}. If an earlier exercise is not passing yet,"
                " fix it first."
            )
        sys.stdout.flush()
        earned = self.points * passed / total if total else 0.0
        _selfcheck.record(self.exercise, self.points, round(earned, 2), self.results)
        return float(round(earned, 2))

