"""The class report from hand-made results: diagnoses, exercise titles, rounded scores."""

from __future__ import annotations

import csv
import re

import torch

from autograder.grading import report
from course_checks import selfcheck
from course_checks.checking import Checks

A = "02_matrix_attention"
DOTTED = "scores divided by 0.5 instead of √d_k, e.g. a factor of 4 too large for d_k = 4"


def outcome(exercise: str, status: str = "failed", named: str = "") -> dict:
    """A test cell's outcome as the checker records it (selfcheck.Result)."""
    return {
        "exercise": exercise,
        "status": status,
        "earned": 0.0,
        "points": 3.0,
        "diagnosis": "",
        "named": named,
    }


def row(student: str, score: float, ex1: float, ex3: float, **extra) -> dict:
    return {
        "student": student,
        "assignment": A,
        "status": "graded",
        "reason": "",
        "events": [],
        "score": score,
        "max_score": 5.0,
        "exercises": {"ex1_tests": [ex1, 2.0], "ex3_tests": [ex3, 3.0]},
        **extra,
    }


TITLES = {"ex1_tests": "Exercise 1 · softmax_cols", "ex3_tests": "Exercise 3 · attention"}
RESULTS = [
    row(
        "ada",
        3.4299999999999997,
        1.4299999999999997,
        2.0000000000000004,
        outcomes={
            "ex1_tests": outcome(TITLES["ex1_tests"], "passed"),
            "ex3_tests": outcome(TITLES["ex3_tests"], named=DOTTED),
        },
    ),
    row("bo", 5.0, 2.0, 3.0, outcomes={cell: outcome(t, "passed") for cell, t in TITLES.items()}),
    row("cy", 1.0, 1.0, 0.0),  # graded before outcomes were recorded
]


def test_the_checks_record_the_whole_named_mistake_as_data(capsys):
    right = torch.ones(2, 3)
    selfcheck.forget()
    checks = Checks("Exercise 3 · attention", points=3)
    checks.close("the output", lambda: 2 * right, right, misconceptions={DOTTED: 2 * right})
    checks.close("no misconceptions offered", lambda: 3 * right, right)
    checks.score()
    assert f"This matches {DOTTED}." in capsys.readouterr().out
    [result] = selfcheck.results()
    assert (result.exercise, result.status, result.named) == (
        "Exercise 3 · attention",
        selfcheck.FAILED,
        DOTTED,
    )


def test_what_a_student_prints_never_becomes_the_report():
    """A diagnosis, a title or a name that holds Markdown or HTML stays one table cell of text
    (the report reads the checker's records, never the notebook's printed output)."""
    hostile = "<img src=x onerror=alert(1)> | **fake column** | [x](javascript:alert(1))"
    text = report.summary(
        [
            row(
                hostile,
                1.0,
                1.0,
                0.0,
                reason="",
                outcomes={"ex3_tests": outcome(hostile, named=hostile)},
            )
        ]
    )
    [line] = [line for line in text.splitlines() if line.startswith("| ex3_tests")]
    assert len(re.findall(r"(?<!\\)\|", line)) == 5, line  # four cells, whatever they hold
    assert not re.search(r"(?<!\\)[\[*]", text) and "<img" not in text
    assert report.diagnoses({"outcomes": {"ex3_tests": outcome("t")}}) == {}


def test_the_csv_names_exercises_as_students_see_them_and_rounds_scores(tmp_path):
    report.write_csv(tmp_path / "grades.csv", RESULTS)
    header, *rows = list(csv.reader((tmp_path / "grades.csv").open()))
    assert header == [
        "student",
        "assignment",
        "score",
        "max_score",
        "status",
        "notes",
        f"{A}:ex1_tests (Exercise 1 · softmax_cols)",
        f"{A}:ex3_tests (Exercise 3 · attention)",
    ]
    ada = rows[0]
    assert ada[:4] == ["ada", A, "3.43", "5.0"] and ada[6:] == ["1.43", "2.0"]


def test_the_csv_keeps_plain_ids_when_no_title_is_known(tmp_path):
    report.write_csv(tmp_path / "grades.csv", RESULTS[2:])
    header = next(csv.reader((tmp_path / "grades.csv").open()))
    assert header[6:] == [f"{A}:ex1_tests", f"{A}:ex3_tests"]


def test_the_summary_shows_titles_whole_diagnoses_and_rounded_numbers():
    text = report.summary(RESULTS + [row("di", 3.4299999999999997, 1.43, 2.0)])
    assert "| ex3_tests | Exercise 3 · attention | 25% | " in text
    assert f"| {DOTTED} (1) |" in text
    assert "(median 3.43)" in text and "mean 3.21 of 5 " in text
    assert "99999" not in text and "00000" not in text


def test_untouched_submissions_are_listed_and_the_terminal_gets_plain_text():
    blank = row(
        "dee",
        0.0,
        0.0,
        0.0,
        outcomes={cell: outcome(t, selfcheck.NOT_ATTEMPTED) for cell, t in TITLES.items()},
    )
    tried = row(
        "eve",
        0.0,
        0.0,
        0.0,
        outcomes={
            "ex1_tests": outcome(TITLES["ex1_tests"], selfcheck.NOT_ATTEMPTED),
            "ex3_tests": outcome(TITLES["ex3_tests"]),
        },
    )
    assert report.untouched(blank) and not report.untouched(tried)
    assert not report.untouched(RESULTS[2])  # nothing recorded: not known to be untouched
    text = report.summary([blank, *RESULTS])
    assert "Untouched submissions, every answer still the stub (1): dee" in text
    terminal = report.plain(text)
    assert "```" not in terminal and "## " not in terminal and "**" not in terminal
    assert "02_matrix_attention: 4 students" in terminal
