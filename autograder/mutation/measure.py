"""Answers graded in this process as ``make grade`` grades them: the trusted checks, in the
grading context grading makes (``mutation/context.py``), the mutants' naming included, without
nbgrader. ``feedback`` grades one submission; ``graded_answers`` many answers to one notebook
at once (``power.py``). Each test cell's result is a ``Graded`` record: the names come from
what the checks recorded (``course_checks/scoreboard.py``), never from the printed report.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import NamedTuple, cast

from autograder.mutation.context import MeasuredNotebook
from autograder.mutation.running import SECRET, TIME_LIMIT, as_graded, cell_file, in_fork, quiet
from autograder.mutation.variants import VariantAnswers, code_cells, title
from autograder.trusted import uses
from autograder.trusted.checker import Checker
from autograder.trusted.reading import exercise_vocabulary
from course_checks import context, selfcheck
from course_checks.context import GradingContext


class Graded(NamedTuple):
    """One test cell's result for one answer: the score (None when the cell crashed), the
    report as printed, and the mistakes its checks named, as the checks recorded them
    (``course_checks/scoreboard.py``), never read back from the report."""

    score: float | None
    report: str
    names: tuple[str, ...] = ()


def run_checks(
    checker: Checker, test: str
) -> tuple[str, object, BaseException | None, tuple[str, ...]]:
    """``checker.run(test)``, and the mistakes its checks named, from their records."""
    before = {id(result) for result in selfcheck.results()}
    report, value, failure = checker.run(test)
    names = tuple(r.named for r in selfcheck.results() if id(r) not in before and r.named)
    return report, value, failure, names


def feedback(
    path: Path, answers: dict[str, str], variants: bool = True, secret: str = SECRET
) -> dict[str, Graded]:
    """What a submission gets from the trusted checks, in the grading context ``make grade``
    gives them (mutation/context.py: mutants naming included with ``variants``; without, what
    the student's own checks say), without nbgrader: ``answers`` replace solution cells by
    grade id; the hidden inputs drawn with ``secret``."""
    reference = json.loads(path.read_text())
    notebook = _with_answers(json.loads(json.dumps(reference)), answers)
    measured = MeasuredNotebook(notebook, path, VariantAnswers(reference) if variants else None)
    checker = Checker(None, secret)
    reports: dict[str, Graded] = {}
    with as_graded(path.parent), context.grading(measured.context):
        for grade_id, meta, text in code_cells(notebook):
            if meta.get("grade"):
                assert grade_id is not None  # nbgrader gives every graded cell an id
                measured.at(text)
                report, value, failure, names = run_checks(checker, text)
                score = cast(float | None, None if failure else value)  # the cell's last value
                reports[grade_id] = Graded(score, report, names)
                continue
            with quiet(), contextlib.suppress(Exception):  # a broken answer shows in its checks
                exec(  # noqa: S102 - a notebook's own cell
                    compile(text, cell_file(grade_id, text), "exec"),
                    checker.namespace,
                )
    return reports


def _with_answers(notebook: dict, answers: dict[str, str]) -> dict:
    """``notebook`` with ``answers`` in place of the solution cells of the same grade id."""
    for cell in notebook["cells"]:
        grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        if grade_id in answers:
            cell["source"] = answers[grade_id]
    return notebook


def graded_answers(
    path: Path,
    answers: list[tuple[dict[str, str], set[str]]],
    variants: bool = True,
    secret: str = SECRET,
) -> list[dict[str, Graded]]:
    """Like ``feedback`` for many answers to one notebook at once: each answer (its cells
    by grade id) is graded on the test cells named with it. The notebook runs once, and at
    each of those test cells the answer runs in a fork, its cells and every cell after them
    replayed (as the mutants run), so an answer costs its own checks, not the notebook."""
    notebook = json.loads(path.read_text())
    variant_answers = VariantAnswers(notebook) if variants else None
    checker = Checker(None, secret)
    results: list[dict] = [{} for _ in answers]
    passing: list[dict[str, bool]] = [{} for _ in answers]  # exercise -> passed, per answer
    ran: list[tuple[str | None, str]] = []  # the cells run so far, but the test cells
    with as_graded(path.parent), context.grading(GradingContext(variant_answers)):
        for grade_id, meta, text in code_cells(notebook):
            if not meta.get("grade"):
                ran.append((grade_id, text))
                with quiet(), contextlib.suppress(Exception):
                    exec(  # noqa: S102 - a notebook's own cell
                        compile(text, cell_file(grade_id, text), "exec"),
                        checker.namespace,
                    )
                continue
            assert grade_id is not None  # nbgrader gives every graded cell an id
            if variant_answers is not None:
                variant_answers(title(text, grade_id))  # built once, not per fork
            if any(grade_id in tests for _, tests in answers):  # read once, not per fork
                exercise_vocabulary(path, text)
                uses.course_names(notebook["cells"], grade_id)
            for index, (answer, tests) in enumerate(answers):
                starts = [i for i, (cell, _) in enumerate(ran) if cell in answer]
                if grade_id in tests and starts:
                    measured = MeasuredNotebook(
                        _with_answers(json.loads(json.dumps(notebook)), answer),
                        path,
                        variant_answers,
                    )
                    graded = in_fork(
                        lambda a=answer, c=ran[starts[0] :], t=text, i=index, m=measured: _graded(
                            checker, m, c, a, t, passing[i]
                        ),
                        TIME_LIMIT * 4,
                    )
                    results[index][grade_id] = Graded(
                        graded.get("score"),
                        graded.get("report", str(graded)),
                        tuple(graded.get("names", ())),
                    )
                    passing[index][title(text, grade_id)] = graded.get("passed", False)
            checker.run(text)  # the reference's own checks: later notes see them pass
    return results


def _graded(
    checker: Checker,
    measured: MeasuredNotebook,
    cells: list,
    answer: dict[str, str],
    test: str,
    passing: dict[str, bool],
) -> dict:
    """In a fork: ``answer``'s cells in place of the reference's, the cells after them run
    again, then the test cell, in the answer's grading context, with the answer's earlier
    exercises ``passing`` or not (as its own notebook's self-check knows them); the score
    (None when it crashed), the report, what it named, and whether every check passed."""
    with context.grading(measured.context, fresh=False):
        for exercise, passed in passing.items():
            selfcheck.record(exercise, 1.0, float(passed), [("", None if passed else "failed")])
        for grade_id, text in cells:
            source = answer.get(grade_id, text)
            with quiet(), contextlib.suppress(Exception):
                exec(  # noqa: S102 - a notebook's own cell
                    compile(source, cell_file(grade_id, source), "exec"),
                    checker.namespace,
                )
        measured.at(test)
        report, value, failure, names = run_checks(checker, test)
        result = selfcheck.results()[-1] if selfcheck.results() else None
    return {
        "score": None if failure else value,
        "report": report,
        "names": names,
        "passed": bool(result and result.status == selfcheck.PASSED),
    }
