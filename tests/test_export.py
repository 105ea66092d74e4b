"""`make export`: nbgrader's export of the gradebook marks who handed in and who did not
(autograder/grading/export.py, through the course's nbgrader configuration)."""

from __future__ import annotations

import csv
import subprocess

import pytest
from conftest import REPO, tool_env
from nbgrader.api import Gradebook

pytestmark = pytest.mark.slow  # runs nbgrader


def test_an_assignment_nobody_handed_in_is_marked_not_submitted(tmp_path):
    db = f"sqlite:///{tmp_path / 'gradebook.db'}"
    with Gradebook(db) as gradebook:
        for assignment in ("01_vector_attention", "02_matrix_attention"):
            gradebook.add_assignment(assignment)
        for student in ("ada", "bob"):
            gradebook.add_student(student)
        gradebook.add_submission("01_vector_attention", "ada")
    destination = tmp_path / "grades.csv"
    result = subprocess.run(
        ["nbgrader", "export", "--to", str(destination), f"--CourseDirectory.db_url={db}"],
        cwd=REPO, env=tool_env(), capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    assert "02_matrix_attention: nobody handed it in" in result.stderr
    with destination.open() as file:
        rows = {(r["assignment"], r["student_id"]): r for r in csv.DictReader(file)}
    assert len(rows) == 4
    assert rows["01_vector_attention", "ada"]["status"] == "submitted"
    for missing in [
        ("01_vector_attention", "bob"),
        ("02_matrix_attention", "ada"),
        ("02_matrix_attention", "bob"),
    ]:
        assert rows[missing]["status"] == "not submitted"
        assert float(rows[missing]["score"]) == 0.0 and rows[missing]["timestamp"] == ""
    # nbgrader's columns, in its order, come first: files read by column name still work.
    assert list(rows["01_vector_attention", "ada"])[:3] == ["assignment", "duedate", "timestamp"]
