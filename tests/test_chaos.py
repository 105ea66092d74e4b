"""Grading on a busy machine gives the grades of a quiet one.

A small class of notebook 01, honest students (tests/honest.py) and hostile ones (an endless
loop, a kernel that exits, a cell that sleeps), is graded twice: on the machine as it is, and
while a busy process for each core keeps every core busy (tests/load.py; they stop by
themselves), beside the grader's two workers and whatever else the machine runs. The
limits count CPU time, so the two runs give every student the same points, exercise by
exercise, and no student the status `error`.
"""

from __future__ import annotations

import json
import os

import honest
from conftest import REPO
from load import busy, load_average

from autograder.grading import grade as pipeline
from autograder.grading import records
from autograder.grading.executors import LocalPool
from autograder.grading.limits import Limits

A = honest.A
LIMITS = Limits(cell_timeout=4, notebook_timeout=60, memory_bytes=3 << 30, cell_wall=20)
HOSTILE = {
    "loops": ("ex3_softmax", "\nwhile True:\n    pass"),
    "exits": ("ex4_attention_weights", "\nimport os\nos._exit(1)"),
    "sleeps": ("ex2_score", "\nimport time\ntime.sleep(60)"),
}
# Two honest accidents: one that earns part of the points, one whose cell does not parse
# (the others of tests/honest.py are graded in test_honest.py).
HONEST = ["copies_an_answer_and_keeps_the_wrong_variant", "has_a_syntax_error_in_exercise_5"]


def write_class(grading) -> None:
    for student in HONEST:
        write(grading, student, honest.notebook(student))
    for student, (cell, code) in HOSTILE.items():

        def change(cells, cell=cell, code=code):
            answer = cells[honest.at(cells, cell)]
            answer["source"] = "".join(answer["source"]) + code

        write(grading, student, honest.notebook_with(change))


def write(grading, student: str, notebook: dict) -> None:
    path = grading / "submitted" / student / A / f"{A}.ipynb"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(notebook))


def grade(grading) -> dict[str, dict]:
    write_class(grading)
    pipeline.grade_class(pipeline.Course(REPO, grading), LocalPool(2), [A], LIMITS, progress=False)
    return {
        p.parent.parent.name: json.loads(p.read_text())
        for p in grading.glob(f"autograded/*/{A}/{records.RESULT}")
    }


def test_a_busy_machine_gives_the_grades_of_a_quiet_one(tmp_path, bubblewrap):
    quiet = grade(tmp_path / "quiet")
    with busy(os.cpu_count() or 1, seconds=600):
        loaded = grade(tmp_path / "loaded")
        print(f"load average under the synthetic load: {load_average()}")
    assert set(quiet) == set(loaded) == set(HONEST) | set(HOSTILE)
    for student in quiet:
        assert loaded[student]["status"] == quiet[student]["status"] == "graded", student
        assert loaded[student]["exercises"] == quiet[student]["exercises"], (
            student,
            quiet[student]["events"],
            loaded[student]["events"],
        )


class FailsFirst:
    """A pool whose first grading of every notebook fails as a kernel that would not start
    under load fails; grading again, alone, works."""

    def __init__(self):
        self.pool = LocalPool(1)

    def run(self, function, jobs, *_):
        for job in jobs:
            yield {
                "student": job.student,
                "assignment": job.assignment,
                "status": "error",
                "reason": "the grader failed (RuntimeError); the full log is in logs/",
                "log": "RuntimeError: Kernel didn't respond in 60 seconds\n",
                "grades": {},
                "comments": {},
                "events": [],
                "notebook": None,
                "feedback": None,
                "sha256": "",
                "timestamp": None,
            }

    def alone(self, function, jobs, *limits):
        return self.pool.alone(function, jobs, *limits)


def test_a_notebook_the_grader_failed_on_is_graded_again_alone(tmp_path, bubblewrap):
    grading = tmp_path / "grading"
    write(grading, "copies_a_check_cell", honest.notebook("copies_a_check_cell"))
    pipeline.grade_class(pipeline.Course(REPO, grading), FailsFirst(), [A], LIMITS, progress=False)
    result = json.loads(
        (grading / "autograded" / "copies_a_check_cell" / A / records.RESULT).read_text()
    )
    assert result["status"] == "graded" and result["score"] == honest.FULL
    assert result["events"][0]["message"].startswith(
        "graded again, alone, after the first grading stopped (the grader failed"
    )
    log = grading / "logs" / "copies_a_check_cell" / f"{A}.log"
    assert "Kernel didn't respond" in log.read_text()
    assert "Traceback" not in (grading / "grades.csv").read_text()
