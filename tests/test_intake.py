"""Submissions are read as data (autograder/grading/intake.py): links, pipes, hard links and
huge files are refused with one sentence, never followed or copied; names are made safe."""

from __future__ import annotations

import csv
import json
import os

import pytest
from conftest import REPO, load, release_path, solution_path, student_submission

from autograder.grading import grade as pipeline
from autograder.grading import intake
from autograder.grading.executors import LocalPool

A = "01_vector_attention"
NOT_A_NOTEBOOK = "{}"  # rejected before any kernel starts: these tests need none


@pytest.fixture
def class_folder(tmp_path):
    """A platform's export of a class, with every kind of file a hostile student can hand in."""
    folder = tmp_path / "export"
    for student in (
        "bob",
        "hard",
        "fifo",
        "huge",
        "rel",
        "abs",
        '=HYPERLINK("x","y")',
        "<img src=x onerror=alert(1)>",
    ):
        (folder / student).mkdir(parents=True)
    (folder / "bob" / f"{A}.ipynb").write_text(NOT_A_NOTEBOOK)
    (folder / "rel" / "01.ipynb").symlink_to(f"../bob/{A}.ipynb")
    (folder / "abs" / "01.ipynb").symlink_to(solution_path(A))
    copy = tmp_path / "solution_copy.ipynb"
    copy.write_bytes(solution_path(A).read_bytes())
    os.link(copy, folder / "hard" / "01.ipynb")
    os.mkfifo(folder / "fifo" / "01.ipynb")
    with open(folder / "huge" / "01.ipynb", "wb") as big:
        big.truncate(intake.MAX_BYTES + 1)
    (folder / "mallory").symlink_to(folder / "bob")  # a student folder that is a link
    for name in ('=HYPERLINK("x","y")', "<img src=x onerror=alert(1)>"):
        (folder / name / "01.ipynb").write_text(NOT_A_NOTEBOOK)
    return folder


def test_an_import_refuses_what_is_not_a_notebook_of_its_own(class_folder, tmp_path):
    course = pipeline.Course(REPO, tmp_path / "grading")
    notes, refused = pipeline.import_folder(course, class_folder)
    reasons = {student: reason for student, _, reason in refused}
    assert "link to another file" in reasons["rel"] and "link" in reasons["abs"]
    assert "hard link" in reasons["hard"]
    assert "not a regular file" in reasons["fifo"]
    assert "larger than 50 MB" in reasons["huge"]
    assert any("'mallory' is a link" in note for note in notes)
    # Nothing the links point at was copied into the grading folder.
    solution = solution_path(A).read_bytes()
    for path in course.grading.rglob("*"):
        assert not path.is_symlink()
        assert not path.is_file() or path.read_bytes() != solution
    students = {p.name.split("~")[0] for p in course.submitted.iterdir()}
    assert students == {"bob", "_HYPERLINK__x___y__", "_img_src_x_onerror_alert_1__"}


def test_two_folders_never_become_one_student(tmp_path):
    """Names that make the same safe id ("ann lee" and "ann_lee", a look-alike Cyrillic
    letter) stay apart: nobody's notebook replaces a classmate's."""
    folder = tmp_path / "export"
    names = ["ann lee", "ann_lee", "ann\u00a0lee", "honest", "hon\u0435st", "x\x1b[2Jy"]
    for n, name in enumerate(names):
        (folder / name).mkdir(parents=True)
        (folder / name / "01.ipynb").write_text(NOT_A_NOTEBOOK + " " * n)
    course = pipeline.Course(REPO, tmp_path / "grading")
    pipeline.import_folder(course, folder)
    students = sorted(p.name for p in course.submitted.iterdir())
    assert len(students) == len(names) and {"ann_lee", "honest"} <= set(students)
    assert all(s.isascii() and s.isprintable() for s in students)
    assert [intake.safe_name(n) for n in names] == [intake.safe_name(n) for n in names]


def test_refused_files_score_0_with_their_sentence_and_names_are_safe_everywhere(
    class_folder, tmp_path, bubblewrap
):
    course = pipeline.Course(REPO, tmp_path / "grading")
    notes, refused = pipeline.import_folder(course, class_folder)
    summary = pipeline.grade_class(course, LocalPool(1), [A], progress=False, refused=refused)
    rows = list(csv.DictReader((course.grading / "grades.csv").open()))
    assert len(rows) == 8 and all(float(r["score"]) == 0 for r in rows)
    assert all(r["status"] == "rejected" for r in rows)
    assert not [r for r in rows if r["student"][:1] in "=+-@" or "<" in r["student"]]
    assert "<img" not in summary and "<img" not in (course.grading / "report.md").read_text()
    assert "the file is a link to another file" in summary


def test_links_inside_nbgraders_own_folders_are_refused_too(tmp_path):
    """nbgrader's collect, or anyone with write access, may leave links in submitted/."""
    course = pipeline.Course(REPO, tmp_path / "grading")
    honest = student_submission(load(release_path(A)), {})
    (course.submitted / "bob" / A).mkdir(parents=True)
    (course.submitted / "bob" / A / f"{A}.ipynb").write_text(json.dumps(honest))
    (course.submitted / "eve" / A).mkdir(parents=True)
    (course.submitted / "eve" / A / f"{A}.ipynb").symlink_to(solution_path(A))
    (course.submitted / "eve" / A / "timestamp.txt").symlink_to(REPO / "README.md")
    (course.submitted / "trudy").symlink_to(course.submitted / "bob")
    jobs, _ = pipeline.find_jobs(course, [A], pipeline.Limits(), regrade=True)
    refusals = {job.student: job.refused for job in jobs}
    assert refusals["bob"] == ""
    assert "link" in refusals["eve"] and "through a link" in refusals["trudy"]
