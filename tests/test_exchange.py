"""nbgrader's exchange, end to end, with nbgrader's own commands and `make grade`'s pipeline.

On a course as a fresh clone has it (the release in notebooks/, no gradebook yet), the
instructor releases an assignment into the exchange; a student fetches it, answers it and
submits it; the instructor collects the submissions (which makes the gradebook, empty of
assignments), grades them with the course's pipeline (`python -m autograder.grading`, what
`make grade` runs) together with a student imported from a plain folder, and releases the
whole class's feedback; the student fetches theirs. Each side runs in its own folder, as on
a shared machine or a hub (tests/test_hub.py runs the same round through a real JupyterHub).
"""

from __future__ import annotations

import json
import os
import pwd
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, load, solution_sources, student_submission, tool_env

A = "01_vector_attention"
COURSE_ID = "transformer-course"


def run(cwd, *command, env):
    result = subprocess.run(
        list(command), cwd=cwd, env=env, capture_output=True, text=True, timeout=900
    )
    assert result.returncode == 0, f"{command}:\n{result.stdout[-3000:]}{result.stderr[-3000:]}"
    return result


def fresh_clone(course, assignments):
    """The parts of a fresh clone that nbgrader's commands read: the sources, the committed
    release in notebooks/ and the configuration; no grading/ folder, so no gradebook."""
    for assignment in assignments:
        for folder in ("solutions", "notebooks"):
            shutil.copytree(REPO / folder / assignment, course / folder / assignment)
    shutil.copytree(
        REPO / "autograder", course / "autograder", ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copy(REPO / "nbgrader_config.py", course)
    return course


def test_release_fetch_submit_collect_grade_and_feedback(tmp_path, bubblewrap):
    course = fresh_clone(tmp_path / "course", [A])
    exchange = tmp_path / "exchange"
    exchange.mkdir()
    instructor = {k: v for k, v in tool_env().items() if k != "JUPYTER_CONFIG_PATH"}
    nbgrader = ["nbgrader"]
    run(course, *nbgrader, "release_assignment", A, f"--Exchange.root={exchange}", env=instructor)

    # The student: a home of their own, no course configuration, only the exchange.
    home = tmp_path / "student"
    home.mkdir()
    student = tool_env(tmp_path / "no-config") | {"HOME": str(home)}
    flags = [f"--Exchange.root={exchange}", f"--course={COURSE_ID}"]
    run(home, *nbgrader, "fetch_assignment", A, *flags, env=student)
    fetched = home / A / f"{A}.ipynb"
    answered = student_submission(load(fetched), solution_sources(A))
    fetched.write_text(json.dumps(answered))
    run(home, *nbgrader, "submit", A, *flags, env=student)

    run(course, *nbgrader, "collect", A, f"--Exchange.root={exchange}", env=instructor)
    (submitted,) = (course / "grading" / "submitted").iterdir()
    # A student whose notebook came another way (a learning platform's download): no
    # hand-in time, no key from the exchange.
    imported = tmp_path / "downloads" / "carol" / "01.ipynb"
    imported.parent.mkdir(parents=True)
    imported.write_text(json.dumps(answered))
    grade = run(
        REPO,
        sys.executable,
        "-m",
        "autograder.grading",
        "--grading",
        str(course / "grading"),
        "--assignment",
        A,
        "--import",
        str(imported.parent.parent),
        env=instructor,
    )
    assert f"{A}: 2 students" in grade.stdout, grade.stdout
    for name in (submitted.name, "carol"):
        result = json.loads(
            (course / "grading" / "autograded" / name / A / "grading_result.json").read_text()
        )
        assert result["status"] == "graded" and result["score"] == result["max_score"] == 10

    released = run(
        course, *nbgrader, "release_feedback", A, f"--Exchange.root={exchange}", env=instructor
    )
    assert "Releasing feedback for student 'carol'" in released.stderr  # passed over, no stop
    run(home, *nbgrader, "fetch_feedback", A, *flags, env=student)
    (page,) = (home / A / "feedback").rglob(f"{A}.html")
    text = page.read_text()
    assert "Exercise 6 · self_attention: 4 of 4 checks passed" in text
    assert "BEGIN HIDDEN TESTS" not in text


@pytest.mark.slow
def test_collect_takes_only_hand_ins_of_their_own_and_follows_no_link(tmp_path):
    """What a student who may write into the exchange could hand in, and what the course's
    collect (autograder/grading/exchange.py) makes of it: a hand-in whose notebook is a link
    to the instructor's solutions, and one named for another student, are not collected;
    the student's own earlier hand-in is."""
    course = fresh_clone(tmp_path / "course", [A])
    me, other = pwd.getpwuid(os.getuid()).pw_name, "nobody" if os.getuid() else "daemon"
    inbound = tmp_path / "exchange" / COURSE_ID / "inbound"
    inbound.mkdir(parents=True)

    def hand_in(student: str, hour: int) -> Path:
        folder = inbound / f"{student}+{A}+2026-11-27 {hour:02d}:00:00.000000 UTC+abc{hour}"
        folder.mkdir()
        return folder / f"{A}.ipynb"

    honest = json.dumps(load(course / "notebooks" / A / f"{A}.ipynb"))
    hand_in(me, 9).write_text(honest)
    hand_in(me, 10).symlink_to(course / "solutions" / A / f"{A}.ipynb")  # newer, a link
    hand_in(other, 11).write_text(honest)  # named for someone else, handed in by me
    if os.getuid() == 0:  # nbgrader leaves hand-ins writable by all: one with another's file
        planted = hand_in(me, 12)
        planted.write_text(honest)
        os.chown(planted, pwd.getpwnam(other).pw_uid, -1)
    instructor = {k: v for k, v in tool_env().items() if k != "JUPYTER_CONFIG_PATH"}
    collected = run(
        course, "nbgrader", "collect", A, f"--Exchange.root={tmp_path / 'exchange'}", env=instructor
    )
    submitted = course / "grading" / "submitted"
    assert sorted(p.name for p in submitted.iterdir()) == [me]
    copy = submitted / me / A / f"{A}.ipynb"
    assert not copy.is_symlink() and copy.read_text() == honest
    said = collected.stderr
    assert f"Not collected: {me}+{A}+2026-11-27 10" in said and "is a link" in said, said
    assert f"Not collected: {other}+{A}+2026-11-27 11" in said, said
    assert f"handed in by {me}, not by {other}" in said, said
    if os.getuid() == 0:
        assert f"Not collected: {me}+{A}+2026-11-27 12" in said, said
        assert f"{A}.ipynb was put there by {other}" in said, said
