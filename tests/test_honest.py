"""Honest students on real machines (tests/honest.py): a class of notebook 01 whose students
copied, split, merged, re-typed, deleted and re-added cells, graded with real nbgrader.

Each earns exactly what its answers are worth (what the same answers earn in an untouched
notebook, graded in the same class), none has the status `error`, what the grader
put right is one plain sentence in the report and in the student's feedback, and no
traceback reaches grades.csv, the report or a feedback page.
"""

from __future__ import annotations

import html
import json
import re

import honest
import pytest
from conftest import REPO

from autograder.grading import grade as pipeline
from autograder.grading import records
from autograder.grading.executors import LocalPool
from autograder.grading.limits import Limits

A = honest.A
LIMITS = Limits(cell_timeout=20, notebook_timeout=120, memory_bytes=3 << 30)
TRACEBACK = re.compile(r"Traceback \(most recent call last\)|File \".*\", line \d+")


@pytest.fixture(scope="module")
def graded(tmp_path_factory, bubblewrap):
    grading = tmp_path_factory.mktemp("honest") / "grading"
    notebooks = {s: honest.notebook(s) for s in honest.STUDENTS} | honest.twins()
    for student, notebook in notebooks.items():
        path = grading / "submitted" / student / A / f"{A}.ipynb"
        path.parent.mkdir(parents=True)
        path.write_text(json.dumps(notebook))
    course = pipeline.Course(REPO, grading)
    summary = pipeline.grade_class(course, LocalPool(2), [A], LIMITS, progress=False)
    results = {
        p.parent.parent.name: json.loads(p.read_text())
        for p in grading.glob(f"autograded/*/{A}/{records.RESULT}")
    }
    return {"course": course, "summary": summary, "results": results}


def page(graded, student: str) -> str:
    """The student's feedback page as text."""
    text = (graded["course"].feedback / student / A / f"{A}.html").read_text()
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())


@pytest.mark.parametrize("student", honest.STUDENTS)
def test_each_earns_what_its_answers_are_worth(graded, student):
    result, twin = graded["results"][student], graded["results"][honest.twin(student)]
    assert result["status"] == "graded", result["reason"]
    assert result["exercises"] == twin["exercises"], result["events"]
    if not honest.STUDENTS[student][2]:  # every answer right
        assert result["score"] == honest.FULL


@pytest.mark.parametrize("student", [s for s, (_, said, _) in honest.STUDENTS.items() if said])
def test_what_was_put_right_is_one_sentence_in_the_report_and_the_feedback(graded, student):
    said = honest.STUDENTS[student][1]
    sentences = [e["message"] for e in graded["results"][student]["events"] if e["kind"] == "cells"]
    assert any(said in sentence for sentence in sentences), sentences
    assert said in " ".join(graded["summary"].split())
    text = page(graded, student)
    assert "Notes from grading. Before grading, these cells were put right:" in text
    assert said[1:] in text  # its first letter is a capital there


def test_an_answer_cell_that_raised_explains_the_checks_that_follow(graded):
    lost = {
        cell: score
        for cell, (score, _) in graded["results"]["has_a_syntax_error_in_exercise_5"][
            "exercises"
        ].items()
        if score < honest.POINTS[cell]
    }
    assert lost == {"ex5_tests": 0, "ex6_tests": 0}  # exercise 6 calls weighted_sum
    text = page(graded, "has_a_syntax_error_in_exercise_5")
    cause = (
        "your answer cell for Exercise 5 raised SyntaxError on line 6, so `weighted_sum` "
        "was never defined"
    )
    assert text.count(cause) >= 2, text  # exercise 5's checks, and exercise 6's
    assert "is not defined" not in text


def test_no_traceback_reaches_a_grade_the_report_or_a_feedback_page(graded):
    grading = graded["course"].grading
    assert not TRACEBACK.search((grading / "grades.csv").read_text())
    assert not TRACEBACK.search((grading / "report.md").read_text())
    for student in honest.STUDENTS:
        assert not TRACEBACK.search(page(graded, student)), student
    assert ",error," not in (grading / "grades.csv").read_text()
