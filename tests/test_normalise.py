"""Submissions put right before nbgrader sees them (autograder/grading/normalise.py), cell by
cell, without running anything: every course cell comes out once, with the release's marks
and type, and what was changed is said in one sentence."""

from __future__ import annotations

import copy

import honest
import pytest
from conftest import load, release_path

from autograder.grading.normalise import claim, normalise

RELEASE = load(release_path(honest.A))
IDS = [claim(c) for c in RELEASE["cells"] if claim(c)]


def put_right(change) -> tuple[dict, list[str]]:
    notebook = honest.notebook_with(change)
    return notebook, normalise(notebook, RELEASE)


def marks_are_the_release(notebook: dict) -> bool:
    course = {claim(c): c for c in RELEASE["cells"] if claim(c)}
    return [claim(c) for c in notebook["cells"] if claim(c)] == IDS and all(
        c["metadata"]["nbgrader"] == course[claim(c)]["metadata"]["nbgrader"]
        and c["cell_type"] == course[claim(c)]["cell_type"]
        for c in notebook["cells"]
        if claim(c)
    )


@pytest.mark.parametrize("student", [s for s, (_, said, _) in honest.STUDENTS.items() if said])
def test_each_honest_change_is_put_right_and_said(student):
    change, said, _ = honest.STUDENTS[student]
    notebook, notes = put_right(change)
    assert marks_are_the_release(notebook)
    assert any(said in note for note in notes), notes
    assert all("\n" not in note and note.count(";") <= 1 for note in notes), notes


def test_an_untouched_notebook_is_left_as_it_is():
    notebook = honest.notebook_with(lambda cells: None)
    before = copy.deepcopy(notebook)
    assert normalise(notebook, RELEASE) == [] and notebook == before


def cell(source: str, **nbgrader) -> dict:
    return {
        "cell_type": "code",
        "id": "own",
        "metadata": {"nbgrader": nbgrader} if nbgrader else {},
        "outputs": [],
        "execution_count": None,
        "source": source,
    }


@pytest.mark.parametrize(
    "change, said",
    [
        (
            lambda c: c.append(
                cell(
                    "1",
                    grade=True,
                    grade_id="bonus",
                    points=5,
                    solution=False,
                    locked=False,
                    schema_version=3,
                )
            ),
            "the code cell “1” carried grading marks the course does not have",
        ),
        (
            lambda c: c.__delitem__(honest.at(c, "setup")),
            "the read-only cell “# Then run this cell",
        ),
        (
            lambda c: honest.merge_with_next(c, "ex2_tests"),  # the check cell and the next answer
            "the check cell of Exercise 2 was merged with another cell",
        ),
        (
            lambda c: honest.split(c, "ex2_score", 1),
            "your answer cell for Exercise 2 was there 2 times (copied, or split)",
        ),
        (
            lambda c: c[honest.at(c, "ex2_score")]["metadata"].update(nbgrader="not a dict"),
            "your answer cell for Exercise 2 had lost its grading marks",
        ),
        (lambda c: c.insert(3, "not a cell"), "some entries in the file's list of cells were not"),
        (lambda c: c.append(cell("2") | {"metadata": {"nbgrader": ["unreadable"]}}), ""),  # dropped
    ],
)
def test_what_a_text_editor_can_do_is_put_right_too(change, said):
    notebook, notes = put_right(change)
    assert marks_are_the_release(notebook)
    assert any(said in note for note in notes) or not said and not notes, notes
    assert all(claim(c) or "nbgrader" not in c["metadata"] for c in notebook["cells"])


def test_a_merged_cell_is_cut_only_where_the_course_cell_stands_alone():
    """The course's lines inside a statement of the student's are not a merge."""

    def wrap(cells):
        check = "".join(cells[honest.at(cells, "ex1_tests")]["source"])
        cells.append(cell("if False:\n" + "\n".join("    " + line for line in check.splitlines())))

    notebook, notes = put_right(wrap)
    assert notes == [] and marks_are_the_release(notebook)
