"""Real nbgrader, end to end, on a temporary copy of the course.

A small class submits notebook 01: the full solution, the untouched release, three students
with one classic mistake each, and one who hard-coded the example's printed answer. nbgrader
releases, autogrades and writes feedback exactly as an instructor's run would; the tests
then read the gradebook and the feedback pages.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import REPO, load, solution_sources, student_submission, tool_env

ASSIGNMENT = "01_vector_attention"

# Correct, but written differently from the reference: einsum, Python floats, float64,
# vectorised instead of looped. Every one must earn full marks.
OTHER_CORRECT_ANSWERS = {
    "ex1_project": "def project(W, b, x):\n    return torch.einsum('ij,jk->ik', W, x) + b",
    "ex2_score": "def score(q, k):\n    return float((q * k).sum()) / len(q) ** 0.5",
    "ex3_softmax": (
        "def softmax(z):\n    z = z.double()\n    e = (z - z.max()).exp()\n    return e / e.sum()\n"
    ),
    "ex4_attention_weights": (
        "def attention_weights(queries, keys):\n"
        "    Q, K = torch.cat(queries, dim=1).T, torch.cat(keys, dim=1).T\n"
        "    S = Q @ K.T / math.sqrt(Q.shape[1])\n"
        "    return torch.stack([softmax(row) for row in S])\n"
    ),
    "ex5_weighted_sum": (
        "def weighted_sum(weights, values):\n"
        "    return (torch.stack(values) * weights.reshape(-1, 1, 1)).sum(dim=0)\n"
    ),
    "ex6_self_attention": (
        "def self_attention(xs, W_q, b_q, W_k, b_k, W_v, b_v):\n"
        "    out = []\n"
        "    for x in xs:\n"
        "        q = project(W_q, b_q, x)\n"
        "        w = softmax(torch.tensor([score(q, project(W_k, b_k, y)) for y in xs]))\n"
        "        out.append(weighted_sum(w, [project(W_v, b_v, y) for y in xs]))\n"
        "    return out\n"
    ),
}

WRONG_ANSWERS = {
    "no_scaling": {
        "ex2_score": "def score(q, k):\n    return (q.T @ k).squeeze()",
    },
    "wrong_axis": {
        "ex4_attention_weights": (
            "def attention_weights(queries, keys):\n"
            "    rows = [torch.stack([score(q, k) for k in keys]) for q in queries]\n"
            "    scores = torch.stack(rows)\n"
            "    return torch.stack([softmax(column) for column in scores.T]).T\n"
        ),
    },
    "no_max_shift": {
        "ex3_softmax": "def softmax(z):\n    return torch.exp(z) / torch.exp(z).sum()",
    },
    "hard_coded": {
        "ex6_self_attention": (
            "def self_attention(xs, W_q, b_q, W_k, b_k, W_v, b_v):\n"
            "    printed = [[0.2117, 1.0697, -3.3355, -4.9260],\n"
            "               [0.6486, 0.9883, -2.4109, -3.0185],\n"
            "               [0.6463, 0.8405, -1.6421, -0.0805]]\n"
            "    return [torch.tensor(row)[:, None] for row in printed]\n"
        ),
    },
}


def nbgrader(course: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["nbgrader", *args],
        cwd=course,
        env=tool_env(course / "autograder"),
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """Release, submit, autograde and write feedback once; return scores and feedback."""
    from nbgrader.api import Gradebook

    course = tmp_path_factory.mktemp("course")
    shutil.copytree(REPO / "solutions", course / "solutions")
    shutil.copytree(
        REPO / "autograder", course / "autograder", ignore=shutil.ignore_patterns("__pycache__")
    )
    result = nbgrader(course, "generate_assignment", ASSIGNMENT, "--force")
    assert result.returncode == 0, result.stderr

    released = load(course / "notebooks" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb")
    correct = solution_sources(ASSIGNMENT)
    submissions = {"solution": correct, "blank": {}, "other_style": OTHER_CORRECT_ANSWERS}
    submissions |= {student: correct | wrong for student, wrong in WRONG_ANSWERS.items()}
    for student, answers in submissions.items():
        folder = course / "grading" / "submitted" / student / ASSIGNMENT
        folder.mkdir(parents=True)
        notebook = student_submission(released, answers)
        (folder / f"{ASSIGNMENT}.ipynb").write_text(json.dumps(notebook, indent=1))

    for step in ("autograde", "generate_feedback"):
        result = nbgrader(course, step, ASSIGNMENT, "--force")
        assert result.returncode == 0, f"nbgrader {step} failed:\n{result.stderr[-4000:]}"

    scores, feedback = {}, {}
    with Gradebook(f"sqlite:///{course / 'grading' / 'gradebook.db'}") as gradebook:
        max_score = gradebook.find_assignment(ASSIGNMENT).max_score
        for student in submissions:
            submission = gradebook.find_submission(ASSIGNMENT, student)
            notebook = submission.notebooks[0]
            scores[student] = {grade.name: grade.score for grade in notebook.grades}
            scores[student]["total"] = submission.score
            page = course / "grading" / "feedback" / student / ASSIGNMENT / f"{ASSIGNMENT}.html"
            feedback[student] = page.read_text()
    return {"scores": scores, "feedback": feedback, "max_score": max_score}


@pytest.mark.parametrize("student", ["solution", "other_style"])
def test_a_correct_submission_scores_full_marks(graded, student):
    assert graded["max_score"] == 10
    assert graded["scores"][student]["total"] == graded["max_score"], graded["feedback"][student]


def test_the_untouched_release_scores_zero(graded):
    assert graded["scores"]["blank"]["total"] == 0
    assert "not attempted yet" in graded["feedback"]["blank"]


@pytest.mark.parametrize(
    "student, failed_cell, diagnosis",
    [
        ("no_scaling", "ex2_tests", "This matches the plain dot product, without the 1/√D scaling"),
        ("no_scaling", "ex4_tests", "This matches attention without the 1/√d_k scaling"),
        (
            "wrong_axis",
            "ex4_tests",
            "a softmax over the queries (columns) instead of over the keys",
        ),
        ("no_max_shift", "ex3_tests", "without subtracting the maximum first"),
    ],
)
def test_a_misconception_scores_in_between_and_is_named(graded, student, failed_cell, diagnosis):
    scores = graded["scores"][student]
    assert 0 < scores["total"] < graded["max_score"]
    assert scores[failed_cell] < scores_of(graded, "solution")[failed_cell]
    assert diagnosis in graded["feedback"][student]


def test_partial_credit_counts_the_checks_passed(graded):
    # Without the max shift, softmax fails the two overflow checks and passes the other five.
    assert graded["scores"]["no_max_shift"]["ex3_tests"] == pytest.approx(2 * 5 / 7, abs=0.01)


def test_a_hard_coded_answer_passes_the_example_but_not_the_hidden_tests(graded):
    scores = graded["scores"]["hard_coded"]
    assert scores["ex6_tests"] == pytest.approx(3 * 1 / 4, abs=0.01)
    assert scores["total"] == pytest.approx(10 - 3 + 0.75, abs=0.01)


def scores_of(graded, student):
    return graded["scores"][student]
