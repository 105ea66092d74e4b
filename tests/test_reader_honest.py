"""The reader of student code on honest answers: every correct answer the course holds (the
solutions, the other styles of tests/submissions.py, the correct answers of the blind sets
A–F) is neither refused nor flagged, in any exercise of its notebook, read as grading reads
it (autograder/trusted/uses.py). No kernel runs: this is the reader alone, on real notebooks.
"""

from __future__ import annotations

import functools

import pytest
from conftest import (
    ASSIGNMENTS,
    REPO,
    load,
    release_path,
    solution_path,
    solution_sources,
    student_submission,
)
from submissions import OTHER_STYLE
from test_blind_set import ANSWERS as BLIND
from test_refusals import EXERCISES

from autograder.trusted import uses
from autograder.trusted.vocabulary import Vocabulary


def correct_answers() -> list[tuple[str, str, dict[str, str]]]:
    """(where it comes from, notebook, the answers that replace the solution's)."""
    found = [(f"solution {a}", a, {}) for a in ASSIGNMENTS]
    for notebook, cells in OTHER_STYLE.items():
        found += [
            (f"other style {notebook}:{cell}", notebook, {cell: code})
            for cell, code in cells.items()
        ]
    for name, entries in BLIND.items():
        found += [
            (f"{name} #{n} {e['notebook']}:{e['cell']}", e["notebook"], {e["cell"]: e["code"]})
            for n, e in enumerate(entries)
            if e["correct"]
        ]
    return found


CORRECT = correct_answers()


def read(notebook: str, answers: dict[str, str]) -> list[str]:
    """What the reader says about a submission: refusals per exercise, and flags."""
    submission = student_submission(
        load(release_path(notebook)), solution_sources(notebook) | answers
    )
    reference = load(solution_path(notebook))["cells"]
    cells = uses.notebook_cells(submission["cells"], reference)
    program = uses.Program(cells)
    said = [f"flagged: {f.message()}" for f in uses.Reader(program, ()).anywhere()]
    tests = [
        c["metadata"].get("nbgrader", {}).get("grade_id")
        for c in submission["cells"]
        if c["cell_type"] == "code"
    ]  # a code cell's place is its index here
    for assignment, cell, entries, refuses in EXERCISES:
        if assignment == notebook and refuses:
            reader = uses.Reader(
                program,
                refuses,
                before=tests.index(cell),
                vocabulary=Vocabulary(REPO / "solutions", notebook, cell),
            )
            said += [
                f"{cell} {f.kind}: {f.message()}"
                for f in reader.findings(entries, course_names(notebook, cell))
                if f.kind in ("refused", "untaught")
            ]
    return said


@functools.cache
def course_names(notebook: str, cell: str) -> frozenset[str]:
    return uses.course_names(load(solution_path(notebook))["cells"], cell)


def test_the_honest_set_is_large():
    assert len(CORRECT) >= 250, len(CORRECT)


@pytest.mark.parametrize("where, notebook, answers", CORRECT, ids=[c[0] for c in CORRECT])
def test_a_correct_answer_is_neither_refused_nor_flagged(where, notebook, answers):
    assert read(notebook, answers) == []
