"""Blind attack set G, read as grading reads it: every notebook that breached the grader is now
refused (a refused function reached) or flagged for a look (what the reader cannot prove),
on the exercise it attacked, with its line. (tests/blind/attacks_g.py; no kernel runs.)"""

from __future__ import annotations

import importlib.util

import pytest
from conftest import REPO, load, release_path, solution_path, student_submission
from test_refusals import EXERCISES

from autograder.trusted import uses
from autograder.trusted.vocabulary import Vocabulary

SPEC = importlib.util.spec_from_file_location("attacks_g", REPO / "tests/blind/attacks_g.py")
MODULE = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(MODULE)
ATTACKS = {attack["name"]: attack for attack in MODULE.ATTACKS}
NOT_READABLE = {"a18_hardcode_visible"}  # values, not code: the hidden checks' work


def verdicts(attack: dict) -> list[str]:
    notebook = attack["notebook"]
    submission = student_submission(load(release_path(notebook)), attack["answers"])
    reference = load(solution_path(notebook))["cells"]
    program = uses.Program(uses.notebook_cells(submission["cells"], reference))
    said = [f.message() for f in uses.Reader(program, ()).anywhere()]
    places = [
        c["metadata"].get("nbgrader", {}).get("grade_id")
        for c in submission["cells"]
        if c["cell_type"] == "code"
    ]
    for assignment, cell, entries, refuses in EXERCISES:
        if assignment == notebook and refuses:
            reader = uses.Reader(
                program, refuses, places.index(cell), Vocabulary(REPO / "solutions", notebook, cell)
            )
            said += [
                f.message()
                for f in reader.findings(entries, uses.course_names(reference, cell))
                if f.kind != "opaque"
            ]
    return said


def test_the_set_is_whole():
    assert len(ATTACKS) == 18  # the breaches, of 48 attacks


@pytest.mark.parametrize("name", sorted(set(ATTACKS) - NOT_READABLE))
def test_a_breach_of_the_blind_attacker_is_refused_or_flagged_with_its_line(name):
    said = verdicts(ATTACKS[name])
    assert said and all("line" in s or "an import" in s for s in said), said
