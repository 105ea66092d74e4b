"""Real nbgrader, end to end, on a temporary copy of the course.

For every assignment a small class submits: the untouched release, correct answers written
in another style than the reference, and a student with one classic mistake (notebook 01:
the reference too, and more mistakes; tests/submissions.py). nbgrader releases, autogrades
and writes feedback exactly as an instructor's run would; the tests then read the gradebook
and the feedback pages.
"""

from __future__ import annotations

import csv
import html
import json
import os
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from conftest import (
    ASSIGNMENTS,
    load,
    nbgrader,
    plain_course,
    solution_sources,
    student_submission,
    tool_env,
)
from submissions import OTHER_STYLE, WRONG

MAX_SCORES = {
    "01_vector_attention": 10,
    "02_matrix_attention": 11,
    "03_multihead_attention": 11,
    "04_positional_encoding": 8,
    "05_encoder": 10,
    "06_decoder": 12,
    "07_warmup_scheduler": 10,
    "08_language_model": 24,
    "09_modern_decoder": 16,
    "10_attention_at_scale": 14,
}


# Each real nbgrader run costs a kernel; every sample mistake is graded, with the same
# checks, in tests/test_grading_power.py. Here one a notebook goes through nbgrader end to
# end, with the ones the tests below read.
REAL_MISTAKES = 1
READ_BELOW = {"01_vector_attention": ["no_max_shift", "hard_coded"]}
CLASS_MISTAKES = {
    a: list(students)[:REAL_MISTAKES] + READ_BELOW.get(a, []) for a, students in WRONG.items()
}


# The reference answers themselves go through nbgrader in test_grading.py and
# test_notebooks.py; here one assignment's, for the export below, and everywhere another style.
SOLUTION_HERE = ["01_vector_attention"]
TRAIN_LONGEST = ("07_warmup_scheduler", "08_language_model")


def class_submissions(assignment: str) -> dict[str, dict[str, str]]:
    correct = solution_sources(assignment)
    submissions: dict[str, dict[str, str]] = {"blank": {}, "other_style": OTHER_STYLE[assignment]}
    if assignment in SOLUTION_HERE:
        submissions["solution"] = correct
    for student in CLASS_MISTAKES.get(assignment, []):
        submissions[student] = correct | WRONG[assignment][student][0]
    return submissions


def grade_assignment(course: Path, assignment: str) -> dict:
    """Release, submit, autograde and write feedback for one assignment in its own course."""
    from nbgrader.api import Gradebook

    plain_course(course, [assignment])
    released = load(course / "notebooks" / assignment / f"{assignment}.ipynb")
    submissions = class_submissions(assignment)
    for student, answers in submissions.items():
        folder = course / "grading" / "submitted" / student / assignment
        folder.mkdir(parents=True)
        notebook = student_submission(released, answers)
        (folder / f"{assignment}.ipynb").write_text(json.dumps(notebook, indent=1))
    for step in ("autograde", "generate_feedback"):
        result = nbgrader(course, step, assignment, "--force")
        assert result.returncode == 0, f"nbgrader {step} failed:\n{result.stderr[-4000:]}"

    scores, feedback = {}, {}
    with Gradebook(f"sqlite:///{course / 'grading' / 'gradebook.db'}") as gradebook:
        max_score = gradebook.find_assignment(assignment).max_score
        for student in submissions:
            submission = gradebook.find_submission(assignment, student)
            scores[student] = {g.name: g.score for g in submission.notebooks[0].grades}
            scores[student]["total"] = submission.score
            page = course / "grading" / "feedback" / student / assignment / f"{assignment}.html"
            feedback[student] = page.read_text()
    return {"scores": scores, "feedback": feedback, "max_score": max_score, "course": course}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """Every assignment graded once; assignments run side by side, one per core, the two
    that train longest first, so that both threads end together."""
    order = sorted(ASSIGNMENTS, key=lambda a: a not in TRAIN_LONGEST)
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        futures = {a: pool.submit(grade_assignment, tmp_path_factory.mktemp(a), a) for a in order}
        return {a: future.result() for a, future in futures.items()}


CORRECT = [(a, "other_style") for a in ASSIGNMENTS] + [(a, "solution") for a in SOLUTION_HERE]
MISTAKES = [
    (a, student, cell, diagnosis)
    for a in ASSIGNMENTS
    for student in CLASS_MISTAKES.get(a, [])
    for cell, diagnosis in WRONG[a][student][1]
]


def test_every_assignment_has_sample_mistakes_and_answers_in_another_style():
    assert set(WRONG) == set(OTHER_STYLE) == set(ASSIGNMENTS) == set(MAX_SCORES)


@pytest.mark.parametrize("assignment, student", CORRECT)
def test_a_correct_submission_scores_full_marks(graded, assignment, student):
    result = graded[assignment]
    assert result["max_score"] == MAX_SCORES[assignment]
    assert result["scores"][student]["total"] == result["max_score"], result["feedback"][student]


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_the_untouched_release_scores_zero(graded, assignment):
    assert graded[assignment]["scores"]["blank"]["total"] == 0
    assert "not attempted yet" in graded[assignment]["feedback"]["blank"]


@pytest.mark.parametrize("assignment, student, cell, diagnosis", MISTAKES)
def test_a_misconception_scores_in_between_and_is_named(
    graded, assignment, student, cell, diagnosis
):
    result = graded[assignment]
    scores = result["scores"][student]
    assert 0 < scores["total"] < result["max_score"]
    assert scores[cell] < result["scores"]["other_style"][cell]
    assert diagnosis in html.unescape(result["feedback"][student])  # the page's text


def test_partial_credit_counts_the_checks_passed(graded):
    # Without the max shift, softmax fails the three overflow checks and passes the other five.
    assert graded["01_vector_attention"]["scores"]["no_max_shift"]["ex3_tests"] == pytest.approx(
        2 * 5 / 8, abs=0.01
    )


def test_a_hard_coded_answer_passes_the_example_but_not_the_hidden_tests(graded):
    scores = graded["01_vector_attention"]["scores"]["hard_coded"]
    assert scores["ex6_tests"] == pytest.approx(3 * 1 / 4, abs=0.01)
    assert scores["total"] == pytest.approx(10 - 3 + 0.75, abs=0.01)


def test_nbgrader_export_from_the_root_lists_the_class(graded):
    """The root nbgrader_config.py: no JUPYTER_CONFIG_PATH needed, no empty gradebook made."""
    course = graded["01_vector_attention"]["course"]
    env = {k: v for k, v in tool_env().items() if k != "JUPYTER_CONFIG_PATH"}
    result = subprocess.run(
        ["nbgrader", "export", "--to", "export.csv"],
        cwd=course,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    with (course / "export.csv").open() as rows:
        exported = {
            (r["assignment"], r["student_id"]): float(r["raw_score"]) for r in csv.DictReader(rows)
        }
    scores = graded["01_vector_attention"]["scores"]
    assert {s for a, s in exported if a == "01_vector_attention"} == set(scores)
    assert exported["01_vector_attention", "solution"] == scores["solution"]["total"]
    assert not (course / "gradebook.db").exists()
