"""An answer that passes its own exercise never makes a later exercise fail.

Later checks call earlier answers (a check cell's ``uses=``): they must call them only with
inputs like those the earlier exercise's own checks pass, or an honest answer written in
another correct idiom loses points twice. Each case here is such an answer, graded by the
trusted checks with every other answer the reference's.
"""

from __future__ import annotations

import json

import pytest
from conftest import solution_path

from autograder.mutation import analysis as mutation

# (notebook, {grade id: answer}, the later test cells that call it)
CASES = {
    # nanoGPT's idiom: .view needs contiguous logits and targets
    "08 bits_per_character with .view": (
        "08_language_model",
        {"ex6_bits_per_character": (
            "def bits_per_character(logits, targets):\n"
            "    B, T, V = logits.shape\n"
            "    loss = F.cross_entropy(logits.view(B * T, V), targets.view(B * T))\n"
            "    return loss / math.log(2)\n")},
        ["ex6_tests", "ex7_tests"]),
}


def _points(assignment: str) -> dict[str, float]:
    notebook = json.loads(solution_path(assignment).read_text())
    return {c["metadata"]["nbgrader"]["grade_id"]: float(c["metadata"]["nbgrader"]["points"])
            for c in notebook["cells"] if c["metadata"].get("nbgrader", {}).get("grade")}


@pytest.mark.parametrize("case", list(CASES))
def test_an_answer_in_another_idiom_keeps_every_later_point(case):
    assignment, answers, cells = CASES[case]
    reports = mutation.feedback(solution_path(assignment), answers)
    points = _points(assignment)
    for cell in cells:
        score, report = reports[cell]
        assert score == points[cell], report
