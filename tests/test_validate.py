"""The student's Validate button (course_checks/validate.py): the course's diagnosis in
nbgrader's dialog format. The browser test presses the real button; these tests call what
the button's request runs, on real notebooks."""

from __future__ import annotations

import copy
import json
import re

import nbformat
import pytest
from conftest import REPO, load, release_path, solution_sources, student_submission

from course_checks import validate

NB = "01_vector_attention"  # the quickest notebook to run (about 5 s)


def write(tmp_path, notebook: dict):
    path = tmp_path / NB / f"{NB}.ipynb"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(notebook))
    return path


@pytest.mark.slow
def test_a_partly_wrong_notebook_gets_the_table_and_each_mistake_named(tmp_path):
    answers = solution_sources(NB)
    answers["ex1_project"] = "def project(W, b, x):\n    return W @ x\n"  # the bias forgotten
    del answers["ex6_self_attention"]  # still the stub
    result = validate.validate(write(tmp_path, student_submission(load(release_path(NB)), answers)))

    [failed] = result["failed"]
    assert failed["source"] == (f"{NB}: 6 of 10 points · 4 passed, 1 failed, 1 not attempted"), (
        failed["source"]
    )
    table = failed["raw_error"]
    assert "Exercise 1 · project" in table and "✗ failed" in table
    assert "without the bias" in table, table  # the course's diagnosis, not "Partial credit"
    assert re.search(r"Exercise 6 · self_attention +· not attempted", table), table
    assert "Partial credit" not in table
    assert max(map(len, table.splitlines())) <= validate.WIDTH
    assert "&lt;" not in failed["source"] and failed["error"].count("\n") == table.count("\n")


@pytest.mark.slow
def test_the_solution_passes_and_a_cell_that_runs_out_of_time_does_not(tmp_path, monkeypatch):
    solved = student_submission(load(release_path(NB)), solution_sources(NB))
    assert validate.validate(write(tmp_path, solved)) == {}

    # An endless cell in the middle of a solved notebook: stopped, and named.
    monkeypatch.setattr(validate, "CELL_TIMEOUT", 3)
    solved["cells"].insert(3, nbformat.v4.new_code_cell("import time\ntime.sleep(60)"))
    number = sum(cell["cell_type"] == "code" for cell in solved["cells"][:4])
    result = validate.validate(write(tmp_path, solved))
    [failed] = result["failed"]
    assert f"cell [{number}] was stopped after 3 s" in failed["raw_error"], failed


def test_edited_check_cells_are_refused_before_anything_runs(tmp_path):
    notebook = load(release_path(NB))
    check = next(c for c in notebook["cells"] if c["metadata"].get("nbgrader", {}).get("grade"))
    check["source"] = "print('all good')"
    assert validate.validate(write(tmp_path, notebook)) == {
        "changed": [{"source": "print('all good')"}]
    }


def grade_id(cell: dict) -> str | None:
    return cell["metadata"].get("nbgrader", {}).get("grade_id")


@pytest.mark.slow
def test_copied_split_and_retyped_cells_are_warned_about_in_words_and_graded_as_grading_will(
    tmp_path,
):
    """A student who copied a check cell, split another, and turned an answer cell into text
    by accident: Validate runs the notebook as grading will (nothing lost) and says, in
    words, what grading will put right."""
    notebook = student_submission(load(release_path(NB)), solution_sources(NB))
    cells = notebook["cells"]
    at = {grade_id(c): n for n, c in enumerate(cells)}
    answer = cells[at["ex3_softmax"]]
    answer["cell_type"] = "markdown"  # Esc, M
    del answer["outputs"], answer["execution_count"]
    split = cells[at["ex2_tests"]]
    first, second = copy.deepcopy(split), copy.deepcopy(split)
    source = "".join(split["source"]).split("\n")
    first["source"], second["source"] = "\n".join(source[:4]), "\n".join(source[4:])
    second["id"] = "split-part"
    copied = copy.deepcopy(cells[at["ex5_tests"]]) | {"id": "copied"}
    notebook["cells"] = (
        cells[: at["ex2_tests"]]
        + [first, second]
        + cells[at["ex2_tests"] + 1 : at["ex5_tests"] + 1]
        + [copied]
        + cells[at["ex5_tests"] + 1 :]
    )
    [failed] = validate.validate(write(tmp_path, notebook))["failed"]
    assert failed["source"] == f"{NB}: every exercise passes; before you hand in, read the notes"
    text = " ".join(failed["raw_error"].split())
    assert re.search(
        r"You split the check cell of Exercise 2 into cells \[\d+\] and \[\d+\]", text
    ), text
    assert "You copied the check cell of Exercise 5 (cells" in text, text
    assert (
        "You turned your answer cell for Exercise 3 into a text cell. Grading turns it back" in text
    ), text
    assert "Traceback" not in failed["raw_error"]


def test_a_file_that_is_not_a_notebook_is_reported_not_raised(tmp_path):
    path = tmp_path / "broken.ipynb"
    path.write_text("{ not json")
    [failed] = validate.validate(path)["failed"]
    assert failed["source"] == str(path)


def test_the_student_lab_answers_validate_with_the_course_extension():
    config = json.loads((REPO / "autograder/student_lab/jupyter_server_config.json").read_text())
    extensions = config["ServerApp"]["jpserver_extensions"]
    assert extensions["course_checks.validate"] is True
    assert extensions["nbgrader.server_extensions.validate_assignment"] is False
