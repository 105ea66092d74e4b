"""The kernel's scoreboard: each check cell records its exercise's result here
(``started``, then ``record``), and ``report`` prints them as the self-check table. The
results live in this module alone, one ``Result`` per exercise, in the order the check
cells ran; ``forget`` starts afresh and ``dump`` gives them as plain data.
"""

from __future__ import annotations

import os
import sys
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass

PASSED, FAILED, NOT_ATTEMPTED, ERROR, NOT_RUN = (
    "passed",
    "failed",
    "not attempted",
    "error",
    "not run",
)
MARKS = {PASSED: "✓", FAILED: "✗", NOT_ATTEMPTED: "·", ERROR: "!", NOT_RUN: "…"}

# Said wherever points are shown to a student: a check cell, this table, Validate; not while
# grading, where they are the grade.
NOT_THE_GRADE = (
    "These points count the visible checks only, so they are not your grade: "
    "grading adds hidden checks on new inputs."
)


def grading() -> bool:
    """Whether this runs as nbgrader grades (it says so to kernels; so does the course's
    grading process, where test cells run)."""
    return os.environ.get("NBGRADER_EXECUTION") == "autograde"


# checking.Checks.run words an untouched answer ("raise NotImplementedError()") this way.
_NOT_ATTEMPTED_PREFIX = "not attempted"
_STOPPED = (
    "the check cell stopped with an error before it finished: the message under that cell says"
    " where."
)
_NOT_RUN_YET = "its check cell has not run yet."


@dataclass
class Result:
    """What one exercise's check cell found."""

    exercise: str
    status: str
    earned: float
    points: float
    diagnosis: str = ""
    named: str = ""  # the mistake the checks named, completing "This matches ..."


# The kernel's results, by exercise name, in the order the check cells ran.
_RESULTS: dict[str, Result] = {}


def forget() -> None:
    """Start afresh: a new notebook (or the next student's, when grading) is checked."""
    _RESULTS.clear()


def started(exercise: str, points: float) -> None:
    """A check cell began (``Checks(...)``); until its score arrives, it counts as stopped."""
    _RESULTS.pop(exercise, None)
    _RESULTS[exercise] = Result(exercise, ERROR, 0.0, float(points), _STOPPED)


def record(
    exercise: str,
    points: float,
    earned: float,
    checks: Sequence[tuple[str, str | None]],
    named: str = "",
) -> Result:
    """Store a check cell's outcome (``checks.score()`` calls this); returns the stored result.

    ``checks`` holds ``(description, None or what went wrong)`` per check. All passing is
    *passed*; every check reporting an untouched answer is *not attempted*; anything else is
    *failed*, with the first real problem as the diagnosis; ``named`` is the mistake the
    checks named, if any.
    """
    failures = [(description, message) for description, message in checks if message]
    if not checks:
        status, diagnosis = ERROR, "the check cell ran no checks."
    elif not failures:
        status, diagnosis = PASSED, ""
    else:
        untouched = [f for f in failures if f[1].startswith(_NOT_ATTEMPTED_PREFIX)]
        if len(untouched) == len(checks):
            status, diagnosis = NOT_ATTEMPTED, ""
        else:
            description, message = next((f for f in failures if f not in untouched), failures[0])
            status, diagnosis = FAILED, f"{description}: {message}"
    result = Result(exercise, status, float(earned), float(points), diagnosis, named)
    _RESULTS.pop(exercise, None)
    _RESULTS[exercise] = result
    return result


def results(expected: Mapping[str, float] | None = None) -> list[Result]:
    """The recorded results: every ``expected`` exercise in order (``not run`` if missing),
    then any other exercise that recorded one."""
    expected = dict(expected or {})
    listed = [
        _RESULTS.get(name) or Result(name, NOT_RUN, 0.0, float(points), _NOT_RUN_YET)
        for name, points in expected.items()
    ]
    return listed + [r for name, r in _RESULTS.items() if name not in expected]


def summary(items: Sequence[Result]) -> str:
    earned = sum(r.earned for r in items)
    points = sum(r.points for r in items)
    counts = [
        f"{sum(r.status == status for r in items)} {status}"
        for status in (PASSED, FAILED, NOT_ATTEMPTED, ERROR, NOT_RUN)
        if status in (PASSED, FAILED, NOT_ATTEMPTED) or any(r.status == status for r in items)
    ]
    return f"{_number(earned)} of {_number(points)} points · " + ", ".join(counts)


def format_table(title: str, items: Sequence[Result], width: int = 104) -> str:
    """The table the notebook's last cell and the command print; diagnoses wrap at
    ``width`` characters."""
    name_width = max([len("exercise")] + [len(r.exercise) for r in items])
    status_width = max(len(f"{MARKS[s]} {s}") for s in MARKS)
    lines = [
        f"{title}: {summary(items)}" if title else summary(items),
        "",
        f"  {'exercise':<{name_width}}  {'status':<{status_width}}  points",
    ]
    for r in items:
        status = f"{MARKS[r.status]} {r.status}"
        lines.append(
            f"  {r.exercise:<{name_width}}  {status:<{status_width}}  "
            f"{_number(r.earned)} / {_number(r.points)}"
        )
        if r.diagnosis:
            lines += textwrap.wrap(
                r.diagnosis, width - 6, initial_indent=" " * 6, subsequent_indent=" " * 6
            )
    return "\n".join(lines)


def report(expected: Mapping[str, float] | None = None, title: str = "This notebook") -> None:
    """Print the table for the check cells run so far in this kernel.

    ``expected`` maps each exercise of the notebook to its points, so that an exercise whose
    check cell has not run yet is listed too. Prints to stdout only, and never raises.
    """
    items = results(expected)
    print(format_table(title, items))
    notes = [] if grading() else [NOT_THE_GRADE]
    if any(r.status == NOT_RUN for r in items):
        notes.append("To check everything at once: Run All, or Validate in the toolbar.")
    if notes:
        print("\n" + "\n".join(notes))
    sys.stdout.flush()


def _number(value: float) -> str:
    return f"{value:g}"


def dump() -> list[dict]:
    """The kernel's results as plain data, for the command to read back."""
    return [asdict(r) for r in _RESULTS.values()]
