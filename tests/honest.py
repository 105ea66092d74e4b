"""Honest students of notebook 01 who work as people do: each copies, splits, merges, re-types,
deletes and re-adds cells the way JupyterLab lets them, with every answer right (or one
known mistake). ``STUDENTS`` maps a name to (what they did to the notebook, the words the
grader must say about it, their answers). What the answers are worth is what the same
answers earn in an untouched notebook (``twin``), run top to bottom as Run All runs it.
"""

from __future__ import annotations

import copy

from conftest import load, release_path, solution_sources, student_submission

A = "01_vector_attention"
POINTS = {
    "ex1_tests": 1,
    "ex2_tests": 1,
    "ex3_tests": 2,
    "ex4_tests": 2,
    "ex5_tests": 1,
    "ex6_tests": 3,
}
FULL = sum(POINTS.values())


def grade_id(cell: dict) -> str | None:
    return cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")


def at(cells: list[dict], g: str) -> int:
    return next(n for n, c in enumerate(cells) if grade_id(c) == g)


def copy_below(cells, g, source=None):
    """Ctrl-C, Ctrl-V: the copy keeps nbgrader's marks (JupyterLab gives it a new id)."""
    n = at(cells, g)
    twin = copy.deepcopy(cells[n]) | {"id": f"copy-of-{n}"}
    if source is not None:
        twin["source"] = source
    cells.insert(n + 1, twin)


def split(cells, g, line):
    """Ctrl-Shift-minus at ``line``: both halves keep the marks."""
    n = at(cells, g)
    lines = "".join(cells[n]["source"]).split("\n")
    second = copy.deepcopy(cells[n]) | {"id": f"split-{n}", "source": "\n".join(lines[line:])}
    cells[n]["source"] = "\n".join(lines[:line])
    cells.insert(n + 1, second)


def merge_with_next(cells, g):
    """Shift-M: one cell, the first one's marks, the sources joined by a blank line."""
    n = at(cells, g)
    cells[n]["source"] = "".join(cells[n]["source"]) + "\n\n" + "".join(cells[n + 1]["source"])
    del cells[n + 1]


def retype(cells, n, kind):
    cell = cells[n]
    cell["cell_type"] = kind
    if kind == "markdown":
        cell.pop("outputs", None)
        cell.pop("execution_count", None)
    else:
        cell["outputs"], cell["execution_count"] = [], None


def readd(cells, g):
    """Delete a cell, then paste its text into a new cell: same text, no marks."""
    n = at(cells, g)
    cells[n] = {
        "cell_type": "code",
        "id": f"new-{n}",
        "metadata": {},
        "outputs": [],
        "execution_count": None,
        "source": cells[n]["source"],
    }


SOLUTION = solution_sources(A)
WRONG_SCORE = SOLUTION["ex2_score"].replace(" / math.sqrt(D)", "")  # the 1/√D left out
SYNTAX_ERROR = SOLUTION["ex5_weighted_sum"].replace(
    "zip(weights, values))", "zip(weights, values)))"
)

STUDENTS = {
    "copies_a_check_cell": (
        lambda c: copy_below(c, "ex2_tests"),
        "the check cell of Exercise 2 was copied; the copy was run as an ordinary cell of yours",
        {},
    ),
    "copies_an_answer_to_try_a_variant_after_every_check": (
        lambda c: c.insert(
            at(c, "self_check"),
            copy.deepcopy(c[at(c, "ex2_score")]) | {"id": "variant", "source": WRONG_SCORE},
        ),
        "your answer cell for Exercise 2 was there 2 times",
        {},
    ),
    # Run All runs the wrong variant after the right one: it is what every check sees.
    "copies_an_answer_and_keeps_the_wrong_variant": (
        lambda c: copy_below(c, "ex2_score", WRONG_SCORE),
        "your answer cell for Exercise 2 was there 2 times",
        {"ex2_score": WRONG_SCORE},
    ),
    "duplicates_a_text_cell": (
        lambda c: c.insert(
            at(c, "ex3_softmax") - 1,
            copy.deepcopy(c[at(c, "ex3_softmax") - 1]) | {"id": "twin-text"},
        ),
        "the course's text cell “### Exercise 3 — softmax, written by hand (2 points)” was copied",
        {},
    ),
    "turns_an_answer_cell_into_text": (
        lambda c: retype(c, at(c, "ex4_attention_weights"), "markdown"),
        "your answer cell for Exercise 4 had been turned into a text cell; it was graded as code",
        {},
    ),
    "turns_a_text_cell_into_code": (
        lambda c: retype(c, at(c, "ex4_attention_weights") - 1, "code"),
        "had been turned into a code cell; it was graded as text",
        {},
    ),
    "deletes_and_readds_a_check_cell": (
        lambda c: readd(c, "ex3_tests"),
        "the check cell of Exercise 3 had lost its grading marks",
        {},
    ),
    "deletes_and_readds_an_answer_cell": (
        lambda c: readd(c, "ex1_project"),
        "your answer cell for Exercise 1 had lost its grading marks",
        {},
    ),
    "splits_a_check_cell": (
        lambda c: split(c, "ex4_tests", 3),
        "the check cell of Exercise 4 was split into 2 cells",
        {},
    ),
    "merges_an_answer_with_its_checks": (
        lambda c: merge_with_next(c, "ex5_weighted_sum"),
        "the check cell of Exercise 5 was merged with another cell",
        {},
    ),
    "changes_a_cells_marks_and_repeats_an_id": (
        lambda c: (
            c[at(c, "ex6_tests")]["metadata"]["nbgrader"].update(points=30, locked=False),
            c[5].update(id=c[7]["id"]),
        ),
        "the grading marks of the check cell of Exercise 6 had been changed",
        {},
    ),
    "has_a_syntax_error_in_exercise_5": (lambda c: None, None, {"ex5_weighted_sum": SYNTAX_ERROR}),
}


def twin(student: str) -> str:
    """The name of the untouched notebook with the same answers as ``student``'s."""
    answers = STUDENTS[student][2]
    return "twin_" + ("_".join(sorted(answers)) or "solution")


def notebook_with(change, answers: dict[str, str] | None = None) -> dict:
    """The correct answers (some replaced by ``answers``), with ``change`` done to the list
    of cells."""
    nb = student_submission(load(release_path(A)), SOLUTION | (answers or {}))
    change(nb["cells"])
    return nb


def notebook(student: str) -> dict:
    change, _, answers = STUDENTS[student]
    return notebook_with(change, answers)


def twins() -> dict[str, dict]:
    """The untouched notebooks of the class's answers, by name."""
    return {twin(s): notebook_with(lambda cells: None, STUDENTS[s][2]) for s in STUDENTS}
