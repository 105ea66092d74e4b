"""The class report from hand-made results: diagnoses, exercise titles, rounded scores."""

from __future__ import annotations

import csv

import torch

from autograder.grading import report
from course_checks.checking import Checks

A = "02_matrix_attention"
DOTTED = "scores divided by 0.5 instead of √d_k, e.g. a factor of 4 too large for d_k = 4"


def graded_cell(grade_id: str, source: str, printed: str = "") -> dict:
    return {
        "cell_type": "code",
        "metadata": {"nbgrader": {"grade": True, "grade_id": grade_id, "locked": True,
                                  "points": 3, "solution": False}},
        "source": source.splitlines(keepends=True),
        "outputs": [{"output_type": "stream", "name": "stdout", "text": printed}],
    }


def row(student: str, score: float, ex1: float, ex3: float, **extra) -> dict:
    return {"student": student, "assignment": A, "status": "graded", "reason": "", "events": [],
            "score": score, "max_score": 5.0,
            "exercises": {"ex1_tests": [ex1, 2.0], "ex3_tests": [ex3, 3.0]}, **extra}


TITLES = {"ex1_tests": "Exercise 1 · softmax_cols", "ex3_tests": "Exercise 3 · attention"}
RESULTS = [
    row("ada", 3.4299999999999997, 1.4299999999999997, 2.0000000000000004, titles=TITLES,
        diagnoses={"ex3_tests": [DOTTED]}),
    row("bo", 5.0, 2.0, 3.0, titles=TITLES),
    row("cy", 1.0, 1.0, 0.0, diagnoses={"ex3_tests": [DOTTED]}),  # graded before titles existed
]


def test_the_whole_description_is_diagnosed_even_with_dots_inside(capsys):
    right = torch.ones(2, 3)
    checks = Checks("Exercise 3 · attention", points=3)
    checks.close("the output", lambda: 2 * right, right, misconceptions={DOTTED: 2 * right})
    checks.close("no misconceptions offered", lambda: 3 * right, right)
    checks.score()
    printed = capsys.readouterr().out
    assert f"This matches {DOTTED}." in printed
    notebook = {"cells": [graded_cell("ex3_tests", 'checks = Checks("x", points=3)', printed)]}
    assert report.diagnoses(notebook) == {"ex3_tests": [DOTTED]}


def test_titles_come_from_the_test_cells_checks():
    answer = graded_cell("ex3_attention", 'Checks("a title in an answer cell")')
    answer["metadata"]["nbgrader"].update(grade=False, solution=True)
    notebook = {"cells": [
        graded_cell("ex1_tests", 'checks = Checks("Exercise 1 · softmax_cols", points=2)\n'),
        answer,
        graded_cell("ex3_tests", 'checks = Checks(\n    "Exercise 3 · attention", points=3,\n'
                               '    refuses=shortcuts.ATTENTION)\nchecks.score()\n'),
        graded_cell("ex4_tests", "print('no Checks here')"),
    ]}
    assert report.titles(notebook) == TITLES


def test_the_csv_names_exercises_as_students_see_them_and_rounds_scores(tmp_path):
    report.write_csv(tmp_path / "grades.csv", RESULTS)
    header, *rows = list(csv.reader((tmp_path / "grades.csv").open()))
    assert header == ["student", "assignment", "score", "max_score", "status", "notes",
                      f"{A}:ex1_tests (Exercise 1 · softmax_cols)",
                      f"{A}:ex3_tests (Exercise 3 · attention)"]
    ada = rows[0]
    assert ada[:4] == ["ada", A, "3.43", "5.0"] and ada[6:] == ["1.43", "2.0"]


def test_the_csv_keeps_plain_ids_when_no_title_is_known(tmp_path):
    report.write_csv(tmp_path / "grades.csv", RESULTS[2:])
    header = next(csv.reader((tmp_path / "grades.csv").open()))
    assert header[6:] == [f"{A}:ex1_tests", f"{A}:ex3_tests"]


def test_the_summary_shows_titles_whole_diagnoses_and_rounded_numbers():
    text = report.summary(RESULTS + [row("di", 3.4299999999999997, 1.43, 2.0)])
    assert "| ex3_tests | Exercise 3 · attention | 25% | " in text
    assert f"| {DOTTED} (2) |" in text
    assert "(median 3.43)" in text and "mean 3.21 of 5 " in text
    assert "99999" not in text and "00000" not in text


def test_untouched_submissions_are_listed_and_the_terminal_gets_plain_text():
    stub = "Exercise 1: 0 of 2 checks passed\n  ✗ a\n      not attempted yet (the answer cell...)"
    blank = {"cells": [graded_cell("ex1_tests", "", stub), graded_cell("ex3_tests", "", stub)]}
    tried = {"cells": [graded_cell("ex1_tests", "", stub),
                       graded_cell("ex3_tests", "", "Exercise 3: 1 of 2 checks passed\n  ✓ a")]}
    assert report.untouched(blank) and not report.untouched(tried)
    text = report.summary([row("dee", 0.0, 0.0, 0.0, untouched=True), *RESULTS])
    assert "Untouched submissions, every answer still the stub (1): dee" in text
    terminal = report.plain(text)
    assert "```" not in terminal and "## " not in terminal and "**" not in terminal
    assert "02_matrix_attention: 4 students" in terminal
