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
import re
import sys
import time
import warnings
from collections.abc import Callable, Mapping
from typing import Any

import torch

from . import cell_errors, shortcuts
from . import selfcheck as _selfcheck

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
    return str(tuple(shape))  # (3,) for one dimension, as Python writes it


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
    want, have = _numbers(float(expected.reshape(-1)[flat]), float(got.reshape(-1)[flat]))
    return (
        f"{name} differs from the expected value{position}: expected {want}, got {have} "
        f"(largest difference {float(diff.reshape(-1)[flat]):.3g})."
    )


def _numbers(expected: float, got: float) -> tuple[str, str]:
    """Both numbers with as many significant digits as it takes to tell them apart: 4
    decimals for everyday sizes, scientific notation for tiny or huge ones (1.2e-07)."""
    for digits in range(4, 12):
        texts = tuple(f"{x:.{digits}f}" if 1e-3 <= abs(x) < 1e5 or x == 0 else f"{x:.{digits - 3}e}"
                      for x in (expected, got))
        if texts[0] != texts[1]:
            break
    return texts


def _inputs(student_code: Callable[[], Any]) -> list[tuple[str, torch.Tensor]]:
    """The tensors a check passes to student code: the names its lambda reads (and the
    tensors one container deep in them), so that changes made in place can be noticed."""
    code = getattr(student_code, "__code__", None)
    if code is None:
        return []
    values = list(_bindings(student_code).items())
    values += [(name, cell.cell_contents) for name, cell in
               zip(code.co_freevars, student_code.__closure__ or (), strict=False)
               if _has_contents(cell)]
    found = []
    for name, value in values:
        if isinstance(value, torch.Tensor):
            found.append((f"`{name}`", value))
        elif isinstance(value, (list, tuple, dict)) and len(value) <= 64:
            items = value.items() if isinstance(value, dict) else enumerate(value)
            found += [(f"`{name}[{key!r}]`", item) for key, item in items
                      if isinstance(item, torch.Tensor)]
    return found[:64]


def _bindings(student_code: Callable[[], Any]) -> dict[str, Any]:
    """The global names a check's lambda reads, with the values they have now."""
    code = getattr(student_code, "__code__", None)
    namespace = getattr(student_code, "__globals__", {})
    return {name: namespace[name] for name in (code.co_names if code else ())
            if name in namespace}


def _has_contents(cell) -> bool:
    try:
        cell.cell_contents  # noqa: B018 - an empty cell raises
    except ValueError:
        return False
    return True


def unchanged(tensor: torch.Tensor, copy: torch.Tensor) -> bool:
    """Whether ``tensor`` still equals its earlier ``copy`` (NaN where NaN was)."""
    return tensor.shape == copy.shape and tensor.dtype == copy.dtype and bool(
        ((tensor == copy) | (tensor.isnan() & copy.isnan())).all())


def _changed_in_place(inputs, copies) -> list[str]:
    """Names of the inputs that differ from their copies; each is put back as it was."""
    changed = []
    for (name, tensor), copy in zip(inputs, copies, strict=True):
        if unchanged(tensor, copy):
            continue
        changed.append(name)
        with torch.no_grad():
            tensor.data = copy  # later checks see the input they were written for
    return changed


def filled_by_answer(tensor: torch.Tensor) -> torch.Tensor:
    """Mark ``tensor`` as one the answer is meant to write into (a preallocated cache): its
    change in place is the answer, not a mistake. In the student's kernel the check simply
    sees the tensor change; the grader's checker copies the kernel's new values into it,
    as data, after each call. -> ``tensor`` itself."""
    tensor._filled_by_answer = True
    return tensor


def in_place_message(names: list[str]) -> str:
    """What a check says about inputs an answer changed in place (``names`` as written)."""
    return (f"your function changed its input {' and '.join(names)} in place. The caller still"
            " needs it: compute a new tensor (`x - m`, `masked_fill`) instead of changing the "
            "one you were given (`x -= m`, `x.sub_(m)`, `masked_fill_`).")


def passed(exercises: str) -> bool:
    """Whether every exercise that ``exercises`` names ("Exercise 3", "exercises 2 and 3")
    passed all its checks in this notebook."""
    return not _not_passing(exercises.lower())


def _not_passing(uses: str) -> bool:
    """Whether an exercise that ``uses`` names ("exercise 3", "exercises 2 and 3",
    "exercises 1 to 5") has not passed all its checks in this notebook (or not run)."""
    numbers = set()
    for first, word, last in re.findall(r"exercises? (\d+)(?: (and|to) (\d+))?", uses):
        numbers |= set(range(int(first), int(last) + 1)) if word == "to" else \
            {int(first)} | ({int(last)} if last else set())
    if not numbers:
        return True
    passed = {r.exercise for r in _selfcheck.results() if r.status == _selfcheck.PASSED}
    return any(not any(re.match(rf"Exercise {n}\b", name) for name in passed)
               for n in numbers)


# Warnings that correct answers raise: PyTorch's note on ``float(loss)`` (a loss that still
# has its graph, turned into a number: exactly what a training step returns).
_NOT_MISTAKES = ("Converting a tensor with requires_grad=True to a scalar",)


def _missing(error: NameError) -> str:
    """The name a NameError is about (one raised in the kernel arrives as its message)."""
    found = re.search(r"name '(\w+)' is not defined", str(error))
    return getattr(error, "name", None) or (found.group(1) if found else "")


def _hint_for(error: str) -> str:
    """A pointer for errors that beginners meet often; empty when none applies."""
    text = error.lower()
    if "float" in text and "double" in text:
        return (
            " (float32 and float64 tensors were mixed: work in the dtype of the inputs; a"
            " tensor or a layer you create is float32 unless you give it their dtype)"
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


# Errors whose message says everything, without "raised ...": a refused shortcut, an input
# changed in place (as the grader's checker reports it), the checks' own budget spent.
SPOKEN_ERRORS = ("ShortcutError", "ChangedInPlace", "OutOfBudget")

# Wrong answers to name when no hand-written misconception matches: a function from an
# exercise's title to ``[(description, {name: function})]``, each a one-change variant of
# the reference answer ("divides by `d` instead of its square root"). Only the trusted
# grader sets it (``autograder/mutation/mutants.py``); in a student's kernel it stays None, so the
# reference answer never travels with the course.
variant_answers: Callable[[str], list[tuple[str, dict[str, Any]]]] | None = None
cell_errors.watch()  # in a kernel: remember cells that raise, for the NameErrors they cause
VARIANT_SECONDS = 3.0  # time to spend looking for the variant a wrong answer matches

# The grader's reading of the answer's source: ``(exercise, refuses) -> [message]``, one per
# refused function the answer reaches however it is spelt (``autograder/trusted/uses.py``).
# Only the trusted grader sets it; an answer it refuses scores 0, whatever the checks found.
answer_refusals: Callable[[str, tuple[str, ...]], list[str]] | None = None


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
        self._variants: list[tuple[str, dict[str, Any]]] | None = None  # still matching
        self._passed_before: list[tuple] = []  # checks passed before the first failure
        self._variant_deadline = 0.0
        _selfcheck.started(exercise, points)  # for the notebook's self-check table
        self.refused = (answer_refusals(exercise, self.refuses)
                        if answer_refusals is not None and self.refuses else [])

    def run(self, description: str, student_code: Callable[[], Any]) -> Any:
        """Run ``student_code()``; a raised error becomes a failed check with its message.

        Warnings and stderr output of student code are shown on stdout instead, so that a
        harmless warning does not cost the points. The exercise's refused shortcuts raise
        while it runs, also under the names the notebook gave them.
        """
        captured = io.StringIO()
        namespace = getattr(student_code, "__globals__", None)
        inputs = _inputs(student_code)
        copies = [tensor.detach().clone() for _, tensor in inputs]
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
            if type(error).__name__ in SPOKEN_ERRORS:  # their message is the whole story
                message = str(error).rstrip(".") + "."
            # A name that is missing because the cell defining it raised: say that instead.
            if isinstance(error, NameError) and (cause := cell_errors.explain(_missing(error))):
                message = cause[0]
            self.results.append((description, message))
            return _NO_ANSWER
        finally:  # warnings too: a deprecation warning before an error often names the bug
            if captured.getvalue():
                print(f"(your code wrote to stderr: {captured.getvalue().strip()})")
            for warning in caught:
                if not str(warning.message).startswith(_NOT_MISTAKES):
                    print(f"(a warning from your code, which costs no points: "
                          f"{warning.category.__name__}: {warning.message})")
            changed = _changed_in_place(inputs, copies)  # and the inputs put back
        if changed:
            self.results.append((description, in_place_message(changed)))
            return _NO_ANSWER
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
        self._narrow_variants(student_code, got, message, atol, rtol)
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
        named = any(message and "This matches" in message for _, message in self.results)
        if passed < total and self._variants and not named:
            print(f"  This matches an answer that {self._variants[0][0]}.")
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
        _selfcheck.record(self.exercise, self.points, round(earned, 2), self.results)
        return float(round(earned, 2))

    def _narrow_variants(self, student_code, got, message, atol, rtol) -> None:
        """From the first failed check on, keep the variant answers that give what the
        student's answer gave on every check. Checks run the variants as they come, since
        a check's lambda reads its inputs when called and later checks rebind them; the
        checks passed before the first failure replay with the inputs they had."""
        if variant_answers is None:
            return
        this = (student_code, got, atol, rtol, _bindings(student_code))
        if self._variants is None and message is None:
            self._passed_before.append(this)
            return
        if self._variants is None:
            self._variants = variant_answers(self.exercise)
            self._variant_deadline = time.monotonic() + VARIANT_SECONDS
        for check in [*self._passed_before, this]:
            if time.monotonic() > self._variant_deadline:
                self._variants = []
            self._variants = [(description, functions)
                              for description, functions in self._variants
                              if self._same_answer(*check, functions)]
        self._passed_before = []

    @staticmethod
    def _same_answer(student_code, got, atol, rtol, bindings, functions) -> bool:
        """Whether ``student_code`` gives ``got`` again with ``functions`` in place of the
        student's, and the names it reads bound as they were (all put back afterwards)."""
        namespace = getattr(student_code, "__globals__", {})
        swapped = bindings | functions
        saved = {name: namespace.get(name, _NO_ANSWER) for name in swapped}
        namespace.update(swapped)
        inputs = _inputs(student_code)
        copies = [tensor.detach().clone() for _, tensor in inputs]
        try:
            with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                value = student_code()
        except Exception:  # noqa: BLE001 - a variant that fails matches nothing
            return False
        finally:
            for name, old in saved.items():
                if old is _NO_ANSWER:
                    namespace.pop(name, None)
                else:
                    namespace[name] = old
            _changed_in_place(inputs, copies)
        got_t, _ = _to_tensor(got, "")
        value_t, _ = _to_tensor(value, "")
        return got_t is not None and value_t is not None and _matches(got_t, value_t, atol,
                                                                      rtol)
