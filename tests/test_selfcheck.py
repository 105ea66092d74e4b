"""Self-check without an instructor: the in-notebook table, the command, and `make progress`."""

from __future__ import annotations

import json
import re
import shutil

import matplotlib.image
import pytest
import torch
from conftest import load, release_path, solution_path, solution_sources, student_submission
from submissions import WRONG

from course_checks import selfcheck
from course_checks.checking import Checks

NB = "01_vector_attention"  # the quickest notebook to run (about 5 s)


@pytest.fixture(autouse=True)
def fresh_registry():
    saved = dict(selfcheck._RESULTS)
    selfcheck._RESULTS.clear()
    yield
    selfcheck._RESULTS.clear()
    selfcheck._RESULTS.update(saved)


def _stub():
    raise NotImplementedError()


def test_each_check_cell_records_passed_failed_or_not_attempted():
    right = Checks("Exercise 1 · right", points=2)
    right.close("the example", lambda: torch.ones(2), torch.ones(2))
    right.score()
    wrong = Checks("Exercise 2 · wrong", points=1)
    wrong.close("first", _stub, torch.ones(2))  # an untouched helper is not the diagnosis...
    wrong.close("second", lambda: torch.zeros(2), torch.ones(2))  # ...this real problem is
    wrong.score()
    untouched = Checks("Exercise 3 · untouched", points=3)
    untouched.close("the example", _stub, torch.ones(2))
    untouched.true("a property", _stub, hint="never shown")
    untouched.score()
    crashed = Checks("Exercise 4 · crashed", points=1)  # its cell raised before score()

    found = {r.exercise: r for r in selfcheck.results({"Exercise 5 · not run": 2})}
    assert [r.status for r in found.values()] == [
        "not run",
        "passed",
        "failed",
        "not attempted",
        "error",
    ]
    assert found["Exercise 1 · right"].earned == 2 and found["Exercise 1 · right"].diagnosis == ""
    assert found["Exercise 2 · wrong"].diagnosis.startswith("second: the result differs")
    assert found["Exercise 3 · untouched"].earned == 0
    assert found["Exercise 5 · not run"].points == 2
    assert crashed.exercise in found


def test_running_a_check_cell_again_replaces_its_result(capsys):
    for answer in (torch.zeros(2), torch.ones(2)):
        checks = Checks("Exercise 1 · retried", points=1)
        checks.close("the example", lambda answer=answer: answer, torch.ones(2))
        checks.score()
    selfcheck.report({"Exercise 1 · retried": 1, "Exercise 2 · later": 2})
    table = capsys.readouterr()
    assert table.err == ""
    assert "This notebook: 1 of 3 points · 1 passed, 0 failed, 0 not attempted, 1 not run" in (
        table.out
    )
    assert "✓ passed" in table.out and "its check cell has not run yet" in table.out
    assert "Run All" in table.out


def _self_check_output(result: selfcheck.NotebookResult) -> str:
    """What the notebook's own last cell printed (the command adds one more cell after it)."""
    cell = next(c for c in result.notebook.cells if c.get("id") == "self-check")
    assert all(o.get("name") != "stderr" and o.output_type != "error" for o in cell.outputs)
    return "".join(o.get("text", "") for o in cell.outputs)


@pytest.mark.slow
def test_a_solution_notebook_passes_every_exercise():
    result = selfcheck.check_notebook(solution_path(NB))
    print(f"{NB} (solution) checked in {result.seconds:.1f} s")
    assert result.ok and not result.problem
    assert len(result.results) == 6
    assert {r.status for r in result.results} == {"passed"}
    assert sum(r.earned for r in result.results) == sum(r.points for r in result.results)
    assert "6 passed, 0 failed, 0 not attempted" in _self_check_output(result)


@pytest.mark.slow
def test_a_blank_release_is_all_not_attempted():
    result = selfcheck.check_notebook(release_path(NB))
    assert not result.ok
    assert {r.status for r in result.results} == {"not attempted"}
    assert "0 passed, 0 failed, 6 not attempted" in _self_check_output(result)


@pytest.mark.slow
def test_a_wrong_submission_is_failed_with_its_diagnosis(tmp_path, capsys):
    answers = solution_sources(NB)
    wrong_answers, _ = WRONG[NB]["no_scaling"]
    answers.update(wrong_answers)
    del answers["ex6_self_attention"]  # left as released
    path = tmp_path / f"{NB}.ipynb"
    path.write_text(json.dumps(student_submission(load(release_path(NB)), answers)))

    assert selfcheck.main([str(path)]) == 1
    printed = capsys.readouterr().out
    assert "✗ failed" in printed and "This matches the plain dot product, without" in printed
    assert re.search(r"Exercise 6 · self_attention +· not attempted +0 / 3", printed)
    assert "Exercise 1 · project" in printed and "✓ passed" in printed
    assert json.loads(path.read_text())["cells"][2]["outputs"] == [], "the file is not modified"


@pytest.mark.slow
def test_a_check_cell_that_crashes_is_reported_as_an_error(tmp_path):
    notebook = load(release_path(NB))
    test_cell = next(c for c in notebook["cells"] if c["metadata"].get("nbgrader", {}).get("grade"))
    test_cell["source"] = "".join(test_cell["source"]).replace(
        "checks.score()", "undefined_name\nchecks.score()"
    )
    path = tmp_path / f"{NB}.ipynb"
    path.write_text(json.dumps(notebook))
    first = selfcheck.check_notebook(path).results[0]
    assert first.status == "error" and "NameError" in first.diagnosis


def test_unreadable_notebooks_are_reported_not_fatal(tmp_path):
    broken = tmp_path / "broken.ipynb"
    broken.write_text("{ not json")
    result = selfcheck.check_notebook(broken)
    assert result.problem.startswith("cannot read") and not result.ok


@pytest.mark.slow
def test_progress_over_a_folder_prints_a_table_and_saves_a_chart(tmp_path, capsys):
    for folder, source in [(NB, release_path(NB)), ("02_copy", solution_path(NB))]:
        (tmp_path / folder).mkdir()
        shutil.copy(source, tmp_path / folder / f"{folder}.ipynb")
    chart = tmp_path / "chart" / "progress.png"

    assert selfcheck.main(["--progress", "--chart", str(chart), str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    assert "Progress over all notebooks" in printed
    assert re.search(rf"{NB} +0/10 +0 +0 +6 +{'░' * 20}\n", printed)
    assert re.search(rf"02_copy +10/10 +6 +0 +0 +{'█' * 20}\n", printed)
    assert "10/20 points (50 %)" in printed
    height, width, _ = matplotlib.image.imread(chart).shape
    assert width > 500 and height > 150


def test_the_self_check_cell_lists_every_exercise_and_earns_no_points(assignment):
    for path in (solution_path(assignment), release_path(assignment)):
        notebook = load(path)
        last = notebook["cells"][-1]
        meta = last["metadata"]["nbgrader"]
        assert meta["grade_id"] == "self_check" and meta["locked"]
        assert not meta["grade"] and not meta["solution"] and "points" not in meta
        listed = json.loads(
            "{"
            + "".join(last["source"]).split("report({", 1)[1].rsplit("})", 1)[0].rstrip(",\n")
            + "}"
        )
        assert listed == selfcheck.expected_exercises(notebook)
