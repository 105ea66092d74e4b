"""Naming a wrong answer's mistake from what its checks saw (``checking.Checks`` keeps one
``Naming`` per test cell): a hand-written misconception that explains every check, a variant
of the reference answer (grading only) that gives what the answer gave, the answer's
randomness, a kind of number, or what two failed checks measured alike.

Variants run under a budget of this process's CPU seconds (``VARIANT_SECONDS``), so that a
busy machine names what a quiet one does; ``outcomes.py`` runs a check again with them.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

from . import context, diagnosis, outcomes, seeding
from .cpu_budget import CpuBudget
from .inputs import bindings
from .outcomes import IN_PLACE, RAISED, TRUTH, VALUE

# Wrong answers to name when no hand-written misconception matches come from the grading
# context (``course_checks/context.py``): only the trusted grader hands them over, as
# ``variants``, a function from an exercise's title to a list whose items are either
# ``(description, {name: function})``, a one-change variant of the reference answer ("divides
# by `d` instead of its square root"), or a family of them with one free parameter, which has
# ``fit(evaluate, same, out_of_time)`` -> the members that give what the student's answer
# gave, and ``fit_number(..., got)``, its number fitted (``autograder/mutation/families.py``).
# In a student's kernel there are none, so the reference answer never travels with the course.
VARIANT_SECONDS = 4.0  # time to spend looking for the variant a wrong answer matches


# What the answer is when it draws random numbers the reference does not (``_random``).
RANDOM = (
    "an answer whose result changes with PyTorch's random state on the same inputs, "
    "where the expected one does not: something random is still on, such as dropout "
    "in eval mode (F.dropout's training defaults to True: pass training=self.training) "
    "or numbers drawn from the global generator instead of the generator passed in"
)
FITTED = 3  # the rank of a family member whose number was fitted: measured, not named

# PyTorch's messages for operands whose sizes do not fit together
SIZE_ERROR = re.compile(
    r"size of tensor a|shapes cannot be multiplied|must match the size|"
    r"Sizes of tensors must match|Expected size|is invalid for input of "
    r"size|number of dimensions|Dimension out of range|to be equal size"
)


class Evidence:
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


class Naming:
    """What the checks of one exercise saw, check by check (``saw``), and the mistake that
    explains them all (``named``), or what was measured of it (``fitted``)."""

    def __init__(self, exercise: str):
        self.exercise = exercise
        self.evidence: list[Evidence] = []
        self.variants: list[tuple[str, dict[str, Any]]] | None = None  # still matching
        self.first_wrong_value: tuple | None = None  # the first check that saw a wrong value
        self._passed_before: list[tuple] = []  # checks passed before the first failure
        self._telling = False  # whether a failed check saw a value, or an error with sizes
        self._cut = False  # whether time ran out before every variant was tried
        self._truths_only = True  # whether every failed check failed a truth or raised bare
        self._truth_failed = False  # whether one failed a truth
        self._variant_time: CpuBudget | None = None

    def saw(self, evidence: Evidence, student_code, outcome: tuple) -> None:
        """One more check: ``evidence`` as naming sees it, and ``outcome``, what the answer
        gave (VALUE, RAISED, IN_PLACE or TRUTH), for the variants to match."""
        self.evidence.append(evidence)
        self._narrow_variants(student_code, evidence.passed, outcome)

    def named(self) -> str | None:
        """The mistake that explains every check, completing "This matches ...", or None."""
        for description in dict.fromkeys(
            d for e in self.evidence if not e.passed for d in e.matched
        ):
            if all(self._consistent(description, e) for e in self.evidence):
                return description
        names = _determined([v for v in self.variants or [] if getattr(v, "rank", 1) < FITTED])
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
        if any(e.kind == IN_PLACE for e in self.evidence):  # seen, not inferred
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
        if self.first_wrong_value is None or reference is None or self._variant_time is None:
            return False
        code, bindings, (_, _, atol, rtol) = self.first_wrong_value

        def run(seed: int, functions: dict) -> tuple:
            assert self._variant_time is not None  # checked above, and never unset
            if self._variant_time.over():  # the time for naming, shared with the variants
                raise TimeoutError
            with seeding.seeded(seed):
                return outcomes.evaluate((code, bindings, None), functions, VARIANT_SECONDS)

        def same(first: tuple, other: tuple) -> bool:
            return first[0] == VALUE and outcomes.same(
                (code, bindings, (*first, atol, rtol)), other
            )

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
        values = [e for e in self.evidence if e.kind == VALUE]
        kinds = {e.kind_only for e in values}
        if (
            not values
            or len(kinds) > 1
            or None in kinds
            or any(e.kind == IN_PLACE for e in self.evidence)
        ):
            return None
        return kinds.pop()

    def _measured(self) -> str | None:
        """What every failed check that returned a value measured alike, when two or more
        did and one family of the expected value explains them (axes swapped, an axis
        reduced, a factor that a size names...): "an answer whose result is the expected one
        with axes 0 and 1 swapped"."""
        failed = [e for e in self.evidence if not e.passed]
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
        measured = values[0].measured
        assert measured is not None  # forms holds no None: each value was measured
        text = measured.rstrip(".")
        return (
            f"an answer whose {text[5:]}"
            if text.startswith("your ")
            else f"an answer in which {text}"
        )

    def fitted(self) -> str | None:
        """A family member whose number was fitted to the answer: what was measured, not a
        mistake's name (a number that is no size the checks know of)."""
        fitted = [v for v in self.variants or [] if getattr(v, "rank", 1) >= FITTED]
        return fitted[0][0] if fitted else None

    @staticmethod
    def _consistent(description: str, evidence: Evidence) -> bool:
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
        if self.variants is None and passed:
            self._passed_before.append(this)
            return
        if self.variants is None:
            candidates = variant_answers(self.exercise)  # the course's work: not timed
            self._variant_time = CpuBudget(VARIANT_SECONDS)
            self.variants = self._fit(this, candidates)
            later = self._passed_before
        else:
            later = [this]
        assert self._variant_time is not None  # set with self.variants
        for check in later:
            if self._variant_time.over():
                self.variants = []  # not verified on every check: name nothing
            self.variants = [
                item
                for item in self.variants  # ranked members stay so
                if outcomes.same(check, outcomes.evaluate(check, item[1], VARIANT_SECONDS))
            ]
        self._passed_before = []

    def _fit(self, check: tuple, candidates: list) -> list[tuple[str, dict[str, Any]]]:
        """The variants (and members of families) that give what the answer gave on the
        first failed check; what time allows, ordered by the families' own ranking."""

        assert self._variant_time is not None  # set just before, by _narrow_variants

        def evaluate(functions):
            return outcomes.evaluate(check, functions, VARIANT_SECONDS)

        def same(outcome):
            return outcomes.same(check, outcome)

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
