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
import re
import sys
import warnings
from collections.abc import Callable, Mapping
from typing import Any

import torch

from . import cell_errors, context, diagnosis, errors, raising_line, shortcuts
from . import selfcheck as _selfcheck
from .comparing import compare, dtype_of, matches, matching, other_kind, to_tensor
from .inputs import (
    bindings,
    changed_in_place,
    filled_by_answer,
    has_contents,
    in_place_message,
    inputs_read,
    unchanged,
)
from .naming import SIZE_ERROR, Evidence, Naming
from .outcomes import IN_PLACE, RAISED, TRUTH, VALUE
from .plain import printable

__all__ = ["Checks", "compare", "filled_by_answer", "in_place_message", "passed", "unchanged"]

_float64 = torch.float64  # taken at import, like comparing.py's references


class _NoAnswer:
    """Stands in for the result of student code that raised."""


_NO_ANSWER = _NoAnswer()


def passed(exercises: str) -> bool:
    """Whether every exercise that ``exercises`` names ("Exercise 3", "exercises 2 and 3")
    passed all its checks in this notebook."""
    return not _not_passing(exercises.lower())


def _not_passing(uses: str) -> bool:
    """Whether an exercise that ``uses`` names ("exercise 3", "exercises 2 and 3",
    "exercises 1 to 5") has not passed all its checks in this notebook (or not run)."""
    numbers = set()
    for first, word, last in re.findall(r"exercises? (\d+)(?: (and|to) (\d+))?", uses):
        numbers |= (
            set(range(int(first), int(last) + 1))
            if word == "to"
            else {int(first)} | ({int(last)} if last else set())
        )
    if not numbers:
        return True
    passed = {r.exercise for r in _selfcheck.results() if r.status == _selfcheck.PASSED}
    return any(not any(re.match(rf"Exercise {n}\b", name) for name in passed) for n in numbers)


# Warnings that correct answers raise: PyTorch's note on ``float(loss)`` (a loss that still
# has its graph, turned into a number: exactly what a training step returns).
_NOT_MISTAKES = ("Converting a tensor with requires_grad=True to a scalar",)


def _missing(error: NameError) -> str:
    """The name a NameError is about (one raised in the kernel arrives as its message)."""
    found = re.search(r"name '(\w+)' is not defined", str(error))
    return getattr(error, "name", None) or (found.group(1) if found else "")


def _student_line(error: BaseException, student_code) -> str | None:
    """The line of student code that raised ``error``: reported by the kernel when grading,
    found in the traceback otherwise; None when the check's own code raised (on a wrong
    value the answer returned)."""
    if hasattr(error, "student_line"):
        return error.student_line
    code = getattr(student_code, "__code__", None)
    return raising_line.student_line(error, code.co_filename if code else "") or None


def _explain_error(error: BaseException, line: str | None, sizes: diagnosis.Sizes) -> str:
    """ "raised RuntimeError: … (in `attention`: `scores = …`). Usual cause: …": the error,
    the line of student code that raised it, and what usually leads to it."""
    # The student's text (their message, their line) on one line, with escapes inert.
    message = f"raised {printable(type(error).__name__, 100)}: {printable(str(error), 1000)}"
    if line:
        message += f" ({printable(line, 300)})"
    if cause := errors.explain(type(error).__name__, str(error), sizes):
        message += f". Usual cause: {cause}"
    return message


# Errors whose message says everything, without "raised ...": a refused shortcut, an input
# changed in place (as the grader's checker reports it), the checks' own budget spent.
SPOKEN_ERRORS = ("ShortcutError", "ChangedInPlace", "OutOfBudget")
cell_errors.watch()  # in a kernel: remember cells that raise, for the NameErrors they cause


class Checks:
    """The checks of one test cell, and the points they earn.

    >>> checks = Checks("Exercise 3 (softmax)", points=2)
    >>> checks.close("softmax([1, 2, 3])", lambda: softmax(z), torch.softmax(z, 0))
    >>> checks.score()  # last line of the cell: printed report, then the points

    A mistake is named only when it explains every check: a hand-written misconception
    (``course_checks/misconceptions/``) when, on every check that offered it, its value
    equals the answer's where the answer failed and passes where the answer passed, and the
    answer raised no error; a variant of the reference answer (grading only) when it gives
    what the answer gave on every check, errors and truth values included, and that tells it
    from other mistakes (``named``); what two or more failed checks measured alike
    (``course_checks.diagnosis``). Otherwise the report says what was measured, and names
    nothing.
    """

    def __init__(self, exercise: str, points: float, uses: str = "", refuses: tuple[str, ...] = ()):
        """``uses`` names earlier answers the checks call, e.g. "your `score` (exercise 2)";
        ``refuses`` the functions the answer may not call (``course_checks.shortcuts``)."""
        self.exercise = exercise
        self.points = points
        self.uses = uses
        self.refuses = tuple(refuses)
        self.results: list[tuple[str, str | None]] = []
        self._last = VALUE  # how the last run of student code ended
        self._raised_by_answer = False  # and, if it raised, whether the answer's code did
        self._outcome: tuple = (VALUE,)  # the error raised or the input changed, for variants
        self._naming = Naming(exercise)
        _selfcheck.started(exercise, points)  # for the notebook's self-check table
        # The grader's reading of the answer's source: a message per refused function it
        # reaches, however spelt (autograder/trusted/reading.py); any such scores 0.
        refusals = context.current().refusals
        self.refused = refusals(exercise, self.refuses) if refusals and self.refuses else []

    def run(self, description: str, student_code: Callable[[], Any]) -> Any:
        """Run ``student_code()``; a raised error becomes a failed check with its message.

        Warnings and stderr output of student code are shown on stdout instead, so that a
        harmless warning does not cost the points. The exercise's refused shortcuts raise
        while it runs, also under the names the notebook gave them.
        """
        captured = io.StringIO()
        namespace = getattr(student_code, "__globals__", None)
        inputs = inputs_read(student_code)
        copies = [tensor.detach().clone() for _, tensor in inputs]
        self._last, self._raised_by_answer = RAISED, False
        try:
            with (
                warnings.catch_warnings(record=True) as caught,
                contextlib.redirect_stderr(captured),
                shortcuts.refused(self.refuses, [namespace] if namespace is not None else []),
            ):
                warnings.simplefilter("always")
                result = student_code()
        except NotImplementedError:
            self._outcome = (RAISED, "NotImplementedError", "")
            self.results.append(
                (
                    description,
                    "not attempted yet (the answer cell still raises NotImplementedError).",
                )
            )
            return _NO_ANSWER
        except Exception as error:  # noqa: BLE001 - any student error becomes feedback, never a crash
            said = printable(str(error), 1000)  # the student's text: one line, no escapes
            self._outcome = (RAISED, type(error).__name__, str(error))
            line = _student_line(error, student_code)
            self._raised_by_answer = line is not None
            message = _explain_error(
                error, line, diagnosis.sizes_of(self._named_inputs(student_code))
            )
            if type(error).__name__ in SPOKEN_ERRORS:  # their message is the whole story
                message = said.rstrip(".") + "."
            # A name that is missing because the cell defining it raised: say that instead.
            if isinstance(error, NameError) and (cause := cell_errors.explain(_missing(error))):
                message = cause[0]
            self.results.append((description, message))
            return _NO_ANSWER
        finally:  # warnings too: a deprecation warning before an error often names the bug
            if captured.getvalue():
                print(f"(your code wrote to stderr: {printable(captured.getvalue().strip())})")
            for warning in caught:
                if not str(warning.message).startswith(_NOT_MISTAKES):
                    print(
                        f"(a warning from your code, which costs no points: "
                        f"{warning.category.__name__}: {printable(str(warning.message))})"
                    )
            changed = changed_in_place(inputs, copies)  # and the inputs put back
        if changed:
            self._last, self._outcome = IN_PLACE, (IN_PLACE,)
            self.results.append((description, in_place_message(changed)))
            return _NO_ANSWER
        self._last = VALUE
        return result

    @staticmethod
    def _named_inputs(student_code) -> list[tuple[str, Any]]:
        """The check's inputs with their names: tensors, integers and lists the lambda reads."""
        values = list(bindings(student_code).items())
        code = getattr(student_code, "__code__", None)
        if code is not None:
            values += [
                (name, cell.cell_contents)
                for name, cell in zip(
                    code.co_freevars, student_code.__closure__ or (), strict=False
                )
                if has_contents(cell)
            ]
        return values

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
        offered = self._offered(expected, misconceptions, atol, rtol, squeeze)
        if got is _NO_ANSWER:
            evidence = Evidence(False, self._failure(), offered, shapes=self._size_error())
            self._naming.saw(evidence, student_code, self._outcome)
            return False
        sizes = diagnosis.sizes_of(self._named_inputs(student_code))
        message = compare(
            got, expected, "the result", atol=atol, rtol=rtol, squeeze=squeeze, sizes=sizes
        )
        matched, measured, reshaped, right_numbers = [], None, False, message is None
        if message is not None and (got_t := to_tensor(got, "")[0]) is not None:
            got_t = got_t.squeeze() if squeeze else got_t
            reshaped = got_t.shape != (expected.squeeze() if squeeze else expected).shape
            matched = matching(got_t, misconceptions, atol, rtol, squeeze)
            expected_t = expected.detach().to("cpu", _float64)
            expected_t = expected_t.squeeze() if squeeze else expected_t
            measured = diagnosis.measure(
                got_t, expected_t, sizes, atol=atol, rtol=rtol, dtype=dtype_of(got), located=False
            )
            right_numbers = matches(got_t, expected_t, atol, rtol)
        self.results.append((description, message))
        if message is not None and self._naming.first_wrong_value is None:
            self._naming.first_wrong_value = (
                student_code,
                bindings(student_code),
                (VALUE, got, atol, rtol),
            )
        evidence = Evidence(
            message is None,
            VALUE,
            offered,
            matched,
            measured,
            reshaped,
            other_kind(got, expected) if right_numbers else None,
        )
        self._naming.saw(evidence, student_code, (VALUE, got, atol, rtol))
        return message is None

    @staticmethod
    def _offered(expected, misconceptions, atol, rtol, squeeze) -> dict[str, bool]:
        """Each misconception this check offers -> whether its value would pass the check."""
        expected_t = expected.detach().to("cpu", _float64)
        if squeeze:
            expected_t = expected_t.squeeze()
        return {
            description: description
            in matching(expected_t, {description: wrong}, atol, rtol, squeeze)
            for description, wrong in (misconceptions or {}).items()
        }

    def true(self, description: str, student_code: Callable[[], Any], hint: str) -> bool:
        """Check that ``student_code()`` returns something true; ``hint`` says why not."""
        got = self.run(description, student_code)
        if got is _NO_ANSWER:
            evidence = Evidence(False, self._failure(), shapes=self._size_error())
            self._naming.saw(evidence, student_code, self._outcome)
            return False
        ok = bool(got)
        self.results.append((description, None if ok else hint))
        self._naming.saw(Evidence(ok, TRUTH), student_code, (TRUTH, ok))
        return ok

    def _failure(self) -> str:
        """How the last check failed without a value: the answer raised or changed an input
        (IN_PLACE, RAISED), or the check's own code raised on what the answer returned."""
        return (
            RAISED
            if self._last == RAISED and self._raised_by_answer
            else IN_PLACE
            if self._last == IN_PLACE
            else TRUTH
        )

    def _size_error(self) -> bool:
        """Whether the last check failed on an error PyTorch raised about mismatched sizes."""
        return self._outcome[0] == RAISED and bool(SIZE_ERROR.search(self._outcome[2]))

    def score(self) -> float:
        """Print the report and return the points earned: points × passed / total."""
        passed = sum(message is None for _, message in self.results)
        total = len(self.results)
        print(f"{self.exercise}: {passed} of {total} checks passed")
        shown: dict[str, str] = {}
        for description, message in self.results:
            mark = "✓" if message is None else "✗"
            if message is not None and message in shown and len(message) > 80:
                message = f"the same as in “{shown[message]}”."
            elif message is not None:
                shown.setdefault(message, description)
            print(f"  {mark} {description}" + ("" if message is None else f"\n      {message}"))
        name = self._naming.named() if passed < total else None
        if name:
            print(f"  This matches {name}.")
        elif passed < total and (fitted := self._naming.fitted()):
            print(f"  Measured: your results are those of an answer that {fitted}.")
        if self.uses and passed < total and _not_passing(self.uses):
            print(
                f"  Note: these checks call {self.uses}. If an earlier exercise is not passing yet,"
                " fix it first."
            )
        earned = self.points * passed / total if total else 0.0
        if self.refused:  # read from the answer's source by the grader: no points
            for message in self.refused:
                print(f"  ✗ {message}.")
            print("  This exercise scores 0: the answer must not use these functions.")
            earned = 0.0
            self.results.append(("the answer's source", "; ".join(self.refused)))
        if not _selfcheck.grading():
            print(f"  {_selfcheck.NOT_THE_GRADE}")
        sys.stdout.flush()
        results = list(self.results)
        if name:  # the self-check table shows the first problem, and what it matches
            first = next(i for i, (_, message) in enumerate(results) if message)
            results[first] = (results[first][0], f"{results[first][1]} This matches {name}.")
        _selfcheck.record(self.exercise, self.points, round(earned, 2), results, name or "")
        return float(round(earned, 2))
