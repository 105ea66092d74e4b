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
import os
import re
import signal
import sys
import threading
import time
import warnings
from collections.abc import Callable, Mapping
from typing import Any

import torch

from . import cell_errors, context, diagnosis, errors, seeding, shortcuts
from . import selfcheck as _selfcheck
from .comparing import compare, dtype_of, kind_of, matches, matching, other_kind, to_tensor
from .inputs import (
    bindings,
    changed_in_place,
    filled_by_answer,
    has_contents,
    in_place_message,
    inputs_read,
    unchanged,
)
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
    return errors.student_line(error, code.co_filename if code else "") or None


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

# Wrong answers to name when no hand-written misconception matches come from the grading
# context (``course_checks/context.py``): only the trusted grader hands them over, as
# ``variants``, a function from an exercise's title to a list whose items are either
# ``(description, {name: function})``, a one-change variant of the reference answer ("divides
# by `d` instead of its square root"), or a family of them with one free parameter, which has
# ``fit(evaluate, same, out_of_time)`` -> the members that give what the student's answer
# gave, and ``fit_number(..., got)``, its number fitted (``autograder/mutation/families.py``).
# In a student's kernel there are none, so the reference answer never travels with the course.
VARIANT_SECONDS = 4.0  # time to spend looking for the variant a wrong answer matches


class _TimeBudget:
    """Time to look for a variant, counted in this process's CPU seconds, so that a busy
    machine names what a quiet one does; the clock stops it at four times as long, for
    checks that wait on a kernel, less the time this process spent waiting for a CPU (on a
    busy machine that is most of the clock's time, and not the checks' doing)."""

    def __init__(self, seconds: float):
        self._cpu = time.process_time() + seconds
        self._wall = time.monotonic() + 4 * seconds
        self._waited = _waited_for_cpu()  # read again only once the clock has run out

    def over(self) -> bool:
        if time.process_time() > self._cpu:
            return True
        if time.monotonic() <= self._wall:
            return False
        waited = _waited_for_cpu() - self._waited
        self._wall += waited
        self._waited += waited
        return time.monotonic() > self._wall


class _VariantOutOfTime(BaseException):
    """A variant answer ran past its time: a mutant of a loop that never ends (a `while` whose
    step was rewritten). Not an Exception, so that no `except Exception` inside swallows it."""


@contextlib.contextmanager
def _cpu_limit(seconds: float):
    """Stop the code inside with ``_VariantOutOfTime`` after ``seconds`` of this process's CPU
    time, where a signal can stop it (the main thread, a system with interval timers)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(
        signal, "setitimer"
    ):
        yield
        return

    def stop(signum, frame):
        raise _VariantOutOfTime()

    previous = signal.signal(signal.SIGPROF, stop)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def _waited_for_cpu() -> float:
    """Seconds this process's threads have spent runnable but waiting for a CPU (Linux's
    schedstat); 0 where there is no /proc."""
    total = 0
    with contextlib.suppress(OSError, IndexError, ValueError):
        for task in os.scandir("/proc/self/task"):
            with open(os.path.join(task.path, "schedstat")) as stat:
                total += int(stat.read().split()[1])
    return total / 1e9


# What the answer is when it draws random numbers the reference does not (``_random``).
RANDOM = (
    "an answer whose result changes with PyTorch's random state on the same inputs, "
    "where the expected one does not: something random is still on, such as dropout "
    "in eval mode (F.dropout's training defaults to True: pass training=self.training) "
    "or numbers drawn from the global generator instead of the generator passed in"
)
FITTED = 3  # the rank of a family member whose number was fitted: measured, not named

# What a check saw of the student's answer, for naming its mistake at the end: a value
# (with its tolerances), an error raised, an input changed in place, or a truth value.
VALUE, RAISED, IN_PLACE, TRUTH = "value", "raised", "in place", "truth"
# PyTorch's messages for operands whose sizes do not fit together
SIZE_ERROR = re.compile(
    r"size of tensor a|shapes cannot be multiplied|must match the size|"
    r"Sizes of tensors must match|Expected size|is invalid for input of "
    r"size|number of dimensions|Dimension out of range|to be equal size"
)


class _Evidence:
    """One check, as the naming of a mistake sees it."""

    def __init__(
        self,
        passed: bool,
        kind: str,
        offered: dict[str, bool] | None = None,
        matched: list[str] | None = None,
        measured: str | None = None,
        shapes: bool = False,
        kind_only: str | None = None,
    ):
        self.passed = passed
        self.kind = kind
        self.offered = offered or {}  # misconception -> whether its value passes this check
        self.matched = matched or []  # misconceptions whose value the answer's equals
        self.measured = measured  # what a wrong value is, measured against the expected one
        # a value of the wrong shape, or an error that PyTorch raised on mismatched sizes
        self.shapes = shapes
        # the right numbers, but of another kind: "torch.int64 where torch.bool is expected"
        self.kind_only = kind_only


def _determined(variants: list) -> list:
    """The variants less the members of any family that more than one number of fits: the
    checks do not pin its number down (any large exponent gives the same rate when a `min`
    picks the other term), so none of them is the mistake."""
    numbers: dict[int, set] = {}
    for variant in variants:
        if (key := getattr(variant, "key", None)) is not None:
            numbers.setdefault(key[0], set()).add(key[1])
    return [v for v in variants if getattr(v, "key", None) is None or len(numbers[v.key[0]]) == 1]


def _likeness(variant, source: str | None) -> tuple[int, int]:
    """How a variant ranks among those that give what the answer gave, best first: by how
    far the answer's own calls side with it (a step left out that the answer has is less
    likely than one it lacks; ``agreement``), then by its rank."""
    agreement = getattr(variant, "agreement", None)
    return (
        -(agreement(source) if agreement is not None and source else 0),
        getattr(variant, "rank", 1),
    )


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
        self._evidence: list[_Evidence] = []
        self._last = VALUE  # how the last run of student code ended
        self._raised_by_answer = False  # and, if it raised, whether the answer's code did
        self._outcome: tuple = (VALUE,)  # the error raised or the input changed, for variants
        self._variants: list[tuple[str, dict[str, Any]]] | None = None  # still matching
        self._passed_before: list[tuple] = []  # checks passed before the first failure
        self._telling = False  # whether a failed check saw a value, or an error with sizes
        self._cut = False  # whether time ran out before every variant was tried
        self._truths_only = True  # whether every failed check failed a truth or raised bare
        self._truth_failed = False  # whether one failed a truth
        self._variant_time: _TimeBudget | None = None
        self._first_wrong_value: tuple | None = None  # the first check that saw a wrong value
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
            self._evidence.append(
                _Evidence(False, self._failure(), offered, shapes=self._size_error())
            )
            self._narrow_variants(student_code, False, self._outcome)
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
        if message is not None and self._first_wrong_value is None:
            self._first_wrong_value = (
                student_code,
                bindings(student_code),
                (VALUE, got, atol, rtol),
            )
        self._evidence.append(
            _Evidence(
                message is None,
                VALUE,
                offered,
                matched,
                measured,
                reshaped,
                other_kind(got, expected) if right_numbers else None,
            )
        )
        self._narrow_variants(student_code, message is None, (VALUE, got, atol, rtol))
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
            self._evidence.append(_Evidence(False, self._failure(), shapes=self._size_error()))
            self._narrow_variants(student_code, False, self._outcome)
            return False
        ok = bool(got)
        self.results.append((description, None if ok else hint))
        self._evidence.append(_Evidence(ok, TRUTH))
        self._narrow_variants(student_code, ok, (TRUTH, ok))
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
        name = self.named() if passed < total else None
        if name:
            print(f"  This matches {name}.")
        elif passed < total and (fitted := self._fitted()):
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

    def named(self) -> str | None:
        """The mistake that explains every check, completing "This matches ...", or None."""
        for description in dict.fromkeys(
            d for e in self._evidence if not e.passed for d in e.matched
        ):
            if all(self._consistent(description, e) for e in self._evidence):
                return description
        names = _determined([v for v in self._variants or [] if getattr(v, "rank", 1) < FITTED])
        # the answer's own source, read as text, never run: of the variants that give what
        # it gave, the one whose calls side with the answer's is named first
        answer_source = context.current().source
        source = answer_source(self.exercise) if answer_source is not None else None
        names.sort(key=lambda v: _likeness(v, source))
        # Two mistakes that give the same on every check are both named: the checks cannot
        # tell them apart (a scheduler never stepped, or made anew at each pass).
        rank = _likeness(names[0], source) if names else None
        alike = list(dict.fromkeys(v[0] for v in names if _likeness(v, source) == rank))
        # Without a wrong value (or an error quoting sizes or types) to match, only the one
        # or two variants left, among all the variants tried, are named, and only when a
        # failed check was a property the answer lacks (a bare IndexError alone is what many
        # mistakes give).
        if names and (
            self._telling
            or (
                self._truths_only
                and self._truth_failed
                and not self._cut
                and len({getattr(v, "key", None) or v[0] for v in names}) <= 2
            )
        ):
            if len(alike) == 2:
                return f"an answer that {alike[0]}, or one that {alike[1]}"
            return f"an answer that {names[0][0]}"
        if self._random():
            return RANDOM
        if kind := self._kind_only():
            return f"an answer whose numbers are right, but come as {kind}"
        if measured := self._measured():
            return measured
        if any(e.kind == IN_PLACE for e in self._evidence):  # seen, not inferred
            return "an answer that changes its input in place instead of making a new tensor"
        return None

    def _random(self) -> bool:
        """Whether the answer draws random numbers that the reference does not: on the first
        check that saw a wrong value, run again with its inputs as they were, its result is
        the same under one seed twice and another under a second seed, while the reference's
        is the same under both. (A result that changes under one seed comes from a state,
        such as a cache, not from chance.) Grading only: the reference is the grader's; the
        runs take no more than the time left for naming (``VARIANT_SECONDS``)."""
        reference = getattr(context.current().variants, "reference", None)
        if self._first_wrong_value is None or reference is None or self._variant_time is None:
            return False
        code, bindings, (_, _, atol, rtol) = self._first_wrong_value

        def run(seed: int, functions: dict) -> tuple:
            if self._variant_time.over():  # the time for naming, shared with the variants
                raise TimeoutError
            with seeding.seeded(seed):
                return self._evaluate((code, bindings, None), functions)

        def same(first: tuple, other: tuple) -> bool:
            return first[0] == VALUE and self._same((code, bindings, (*first, atol, rtol)), other)

        try:  # most answers give the same under both seeds: two runs tell them
            first = run(0, {})
            if same(first, run(1, {})) or not same(first, run(0, {})):
                return False
            expected = reference(self.exercise)
            return bool(expected) and same(run(0, expected), run(1, expected))
        except Exception:  # noqa: BLE001 - out of time, or a kernel lost: nothing to name
            return False

    def _kind_only(self) -> str | None:
        """What every check that saw a value saw alike, when each saw the right numbers of
        another kind ("torch.int64 where torch.bool is expected") and the answer changed no
        input: the failed checks are then properties of that kind, or errors it causes."""
        values = [e for e in self._evidence if e.kind == VALUE]
        kinds = {e.kind_only for e in values}
        if (
            not values
            or len(kinds) > 1
            or None in kinds
            or any(e.kind == IN_PLACE for e in self._evidence)
        ):
            return None
        return kinds.pop()

    def _measured(self) -> str | None:
        """What every failed check that returned a value measured alike, when two or more
        did and one family of the expected value explains them (axes swapped, an axis
        reduced, a factor that a size names...): "an answer whose result is the expected one
        with axes 0 and 1 swapped"."""
        failed = [e for e in self._evidence if not e.passed]
        values = [e for e in failed if e.kind == VALUE]
        forms = {diagnosis.identity(e.measured) for e in values}
        # Truths it fails may follow from it, and so may errors on mismatched sizes when
        # the values measured have the wrong shape: a later step received them.
        reshaped = all(e.shapes for e in values)
        if (
            len(values) < 2
            or None in forms
            or len(forms) > 1
            or any(  # seen on other inputs
                e.kind == IN_PLACE or (e.kind == RAISED and not (reshaped and e.shapes))
                for e in failed
            )
        ):
            return None
        text = values[0].measured.rstrip(".")
        return (
            f"an answer whose {text[5:]}"
            if text.startswith("your ")
            else f"an answer in which {text}"
        )

    def _fitted(self) -> str | None:
        """A family member whose number was fitted to the answer: what was measured, not a
        mistake's name (a number that is no size the checks know of)."""
        fitted = [v for v in self._variants or [] if getattr(v, "rank", 1) >= FITTED]
        return fitted[0][0] if fitted else None

    @staticmethod
    def _consistent(description: str, evidence: _Evidence) -> bool:
        """Whether a misconception agrees with what one check saw: where the check offered
        it, it fails with the answer's value when the answer failed and passes when the
        answer passed; an error or an input changed in place is no value it could match.
        A check that did not offer it says nothing about it."""
        if not evidence.passed and evidence.kind in (RAISED, IN_PLACE):
            return False
        if description not in evidence.offered:
            return True
        return evidence.offered[description] if evidence.passed else description in evidence.matched

    def _narrow_variants(self, student_code, passed: bool, outcome: tuple) -> None:
        """From the first failed check on, keep the variant answers that give what the
        student's answer gave on every check: the same value, an error where it raised, the
        same truth. Checks run the variants as they come, since a check's lambda reads its
        inputs when called and later checks rebind them; the checks passed before the first
        failure replay with the inputs they had."""
        variant_answers = context.current().variants
        if variant_answers is None:
            return
        this = (student_code, bindings(student_code), outcome)
        # Only a wrong value, or an error that quotes sizes or types ("'Tensor' and
        # 'tuple'"), tells variants apart: a failed truth or a bare "list index out of
        # range" is what many different mistakes give.
        bare = outcome[0] == RAISED and not re.search(r"\d|'", outcome[2])
        self._telling |= not passed and (outcome[0] == VALUE or (outcome[0] == RAISED and not bare))
        # A bare error beside a failed truth is what that property lacking gives next (a
        # list one map short, then "list index out of range" at its third map).
        self._truths_only &= passed or outcome[0] == TRUTH or bare
        self._truth_failed |= not passed and outcome[0] == TRUTH
        if self._variants is None and passed:
            self._passed_before.append(this)
            return
        if self._variants is None:
            candidates = variant_answers(self.exercise)  # the course's work: not timed
            self._variant_time = _TimeBudget(VARIANT_SECONDS)
            self._variants = self._fit(this, candidates)
            later = self._passed_before
        else:
            later = [this]
        for check in later:
            if self._variant_time.over():
                self._variants = []  # not verified on every check: name nothing
            self._variants = [
                item
                for item in self._variants  # ranked members stay so
                if self._same(check, self._evaluate(check, item[1]))
            ]
        self._passed_before = []

    def _fit(self, check: tuple, candidates: list) -> list[tuple[str, dict[str, Any]]]:
        """The variants (and members of families) that give what the answer gave on the
        first failed check; what time allows, ordered by the families' own ranking."""

        def evaluate(functions):
            return self._evaluate(check, functions)

        def same(outcome):
            return self._same(check, outcome)

        found = []
        for item in candidates:
            if self._variant_time.over():
                self._cut = True
                break
            if hasattr(item, "fit"):
                with contextlib.suppress(Exception):  # a family that cannot fit names nothing
                    found += item.fit(evaluate, same, self._variant_time.over)
            elif same(evaluate(item[1])):
                found.append(item)
        if not found and check[2][0] == VALUE:  # the last resort: a number fitted
            for item in candidates:
                if hasattr(item, "fit_number") and not self._variant_time.over():
                    with contextlib.suppress(Exception):
                        found += item.fit_number(
                            evaluate, same, self._variant_time.over, check[2][1]
                        )
        return sorted(found, key=lambda item: getattr(item, "rank", 1))

    @staticmethod
    def _evaluate(check: tuple, functions: dict[str, Any]) -> tuple:
        """What ``student_code`` gives with ``functions`` in place of the student's, and
        the names it reads bound as they were (all put back afterwards): (VALUE, value),
        (RAISED, type, message), or (IN_PLACE,) when it changed an input."""
        student_code, bindings, _ = check
        namespace = getattr(student_code, "__globals__", {})
        # The student's objects stand in for the variant's wherever the check holds them:
        # under their names, or passed to a helper whose argument the lambda closes over
        # (`check_function(AttentionFunction)` runs `lambda: gradients(function, ...)`).
        standing_in = {
            id(namespace[name]): new for name, new in functions.items() if name in namespace
        }
        swapped = {
            name: standing_in.get(id(value), value) for name, value in bindings.items()
        } | functions
        cells = (
            [
                (cell, cell.cell_contents)
                for cell in student_code.__closure__ or ()
                if has_contents(cell) and id(cell.cell_contents) in standing_in
            ]
            if hasattr(student_code, "__closure__")
            else []
        )
        saved = {name: namespace.get(name, _NO_ANSWER) for name in swapped}
        namespace.update(swapped)
        for cell, old in cells:
            cell.cell_contents = standing_in[id(old)]
        inputs = inputs_read(student_code)
        copies = [tensor.detach().clone() for _, tensor in inputs]
        try:
            with (
                contextlib.redirect_stdout(io.StringIO()),
                warnings.catch_warnings(),
                _cpu_limit(VARIANT_SECONDS),
            ):
                warnings.simplefilter("ignore")
                value = student_code()
        except _VariantOutOfTime:  # names nothing: no answer that ends gives what it gives
            return (RAISED, "TimeoutError", "the variant ran out of time")
        except Exception as error:  # noqa: BLE001 - a variant may fail where the answer fails
            return (RAISED, type(error).__name__, str(error))
        finally:
            for name, old in saved.items():
                if old is _NO_ANSWER:
                    namespace.pop(name, None)
                else:
                    namespace[name] = old
            for cell, old in cells:
                cell.cell_contents = old
            changed = changed_in_place(inputs, copies)
        return (IN_PLACE,) if changed else (VALUE, value)

    @staticmethod
    def _same(check: tuple, outcome: tuple) -> bool:
        """Whether a variant's ``outcome`` is what the student's answer gave on ``check``."""
        wanted = check[2]
        if wanted[0] in (RAISED, IN_PLACE):  # the same error: its type and message
            return outcome == wanted
        if outcome[0] != VALUE:
            return False
        if wanted[0] == TRUTH:
            try:
                return bool(outcome[1]) == wanted[1]
            except Exception:  # noqa: BLE001 - a truth value that cannot be taken is no match
                return False
        _, got, atol, rtol = wanted
        if got is None or outcome[1] is None:  # nothing returned: the same only as nothing
            return got is outcome[1]
        if kind_of(got) != kind_of(outcome[1]):  # the same numbers as floats are not the ids
            return False
        got_t, _ = to_tensor(got, "")
        value_t, _ = to_tensor(outcome[1], "")
        return got_t is not None and value_t is not None and matches(got_t, value_t, atol, rtol)
