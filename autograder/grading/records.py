"""What grading keeps of each student's result in the grading folder, and reads back.

``merge`` records one worker's result: the gradebook's rows, the autograded notebook (for the
instructor), the feedback page, what nbgrader's exchange reads beside them, then the marker
``grading_result.json`` that says the job is done. A failure of the grader is recorded apart
(``grading_failure.json``): it changes no grade, page or row, and the student is graded again
on the next run. ``outcomes`` reads every student's standing result for the report;
``Course`` names the folders.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import time
import warnings
from datetime import UTC, datetime
from pathlib import Path

from autograder.grading import intake
from autograder.releases import release

COURSE = Path(__file__).resolve().parents[2]
RESULT = "grading_result.json"  # next to each autograded notebook: the marker of a finished job
FAILURE = "grading_failure.json"  # beside it: the newest try failed (graded again next run)


def log_name(student: str, assignment: str) -> str:
    """Where a failed job's full log goes, relative to the grading folder (the worker's
    sentence names it; ``merge`` writes it)."""
    return f"logs/{student}/{assignment}.log"


class Course:
    """The course's folders, as the grading pipeline uses them."""

    def __init__(self, root: Path = COURSE, grading: Path | None = None):
        self.root = root
        self.grading = grading or root / "grading"
        self.submitted = self.grading / "submitted"
        self.autograded = self.grading / "autograded"
        self.feedback = self.grading / "feedback"
        self.gradebook = self.grading / "gradebook.db"
        self.template = self.grading / "template.db"

    def assignments(self) -> list[str]:
        return release.assignments(self.root)

    def result_path(self, student: str, assignment: str) -> Path:
        return self.autograded / student / assignment / RESULT

    def failure_path(self, student: str, assignment: str) -> Path:
        return self.autograded / student / assignment / FAILURE

    def secret(self, student: str, assignment: str, submission: str = "") -> str:
        """The seed secret of one student's hidden checks: derived from the course's secret
        in ``grading/secret`` (made on first use, git-ignored, never shown to a kernel) and
        the submission's SHA-256, so a regrade of the same file draws the same inputs and a
        changed file new ones (inputs seen once cannot be hard-coded into a resubmission)."""
        path = self.grading / "secret"
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(secrets.token_hex(32))
            path.chmod(0o600)
        key = path.read_text().strip().encode()
        message = f"{student}/{assignment}/{submission}".encode()
        return hmac.new(key, message, hashlib.sha256).hexdigest()


EXCHANGE_FILES = ("timestamp.txt", "submission_secret.txt")  # beside a collected submission


def _write(path: Path, data: str | bytes) -> None:
    """Replace ``path`` whole, whatever its mode (nbgrader leaves its files read-only, which
    stops a plain write by anyone but root), and never half-written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}")
    temporary.write_bytes(data.encode() if isinstance(data, str) else data)
    os.replace(temporary, path)


def _exchange_files(
    course: Course, student: str, assignment: str, timestamp: str | None
) -> dict[str, bytes]:
    """What `nbgrader release_feedback` reads beside each feedback page: the hand-in time and
    the key the page is released under. A submission collected from the exchange has both; an
    imported one has neither, and gets a time and a key of its own, so that releasing the
    class's feedback passes over it (nobody holds that key) instead of stopping."""
    files = {}
    for name in EXCHANGE_FILES:
        try:
            files[name] = intake.read(course.submitted / student / assignment / name, limit=4096)
        except intake.Refused:  # missing, or not a plain file of its own
            pass
    if "timestamp.txt" not in files:  # when the file came in: imported, or copied by hand
        notebook = course.submitted / student / assignment / f"{assignment}.ipynb"
        when = datetime.fromtimestamp(
            notebook.stat().st_mtime if notebook.exists() else time.time(), UTC
        )
        files["timestamp.txt"] = (timestamp or f"{when:%Y-%m-%d %H:%M:%S.%f} UTC").encode()
    files.setdefault("submission_secret.txt", secrets.token_hex(64).encode())
    return files


def merge(course: Course, result: dict) -> None:
    """Record one result: gradebook rows, autograded notebook, feedback, then the marker. A
    grader failure changes none of them: it is recorded beside them, an earlier grade is
    kept, and the next run grades the student again."""
    from nbgrader.api import Gradebook
    from nbgrader.utils import parse_utc
    from sqlalchemy.exc import SAWarning

    student, assignment = result["student"], result["assignment"]
    folder = course.autograded / student / assignment
    if result.get("log"):  # a grader failure: the sentence is in the report, the log here
        _write(course.grading / log_name(student, assignment), result["log"])
    if result["status"] == "error":
        summary = {k: v for k, v in result.items() if k not in ("notebook", "feedback", "log")}
        _write(folder / FAILURE, json.dumps(summary, indent=1))
        return
    with Gradebook(f"sqlite:///{course.gradebook}") as gradebook, warnings.catch_warnings():
        warnings.simplefilter("ignore", SAWarning)  # nbgrader's own ORM chatter
        gradebook.update_or_create_student(student)
        extra = {"timestamp": parse_utc(result["timestamp"])} if result["timestamp"] else {}
        gradebook.update_or_create_submission(assignment, student, **extra)
        notebook = gradebook.find_submission_notebook(assignment, assignment, student)
        grades = result["grades"]
        for row in notebook.grades:
            row.auto_score = grades[row.name]["score"] if row.name in grades else 0.0
            row.needs_manual_grade = grades.get(row.name, {}).get("needs_manual_grade", False)
        for row in notebook.comments:
            row.auto_comment = result["comments"].get(row.name)
        gradebook.db.commit()
        result["score"] = notebook.score
        result["max_score"] = notebook.max_score
        result["exercises"] = {row.name: [row.score, row.max_score] for row in notebook.grades}
    folder.mkdir(parents=True, exist_ok=True)
    if result["notebook"]:
        _write(folder / f"{assignment}.ipynb", result["notebook"])
    feedback = course.feedback / student / assignment
    if result["feedback"]:
        _write(feedback / f"{assignment}.html", result["feedback"])
    # What nbgrader's own steps carry along, and `nbgrader release_feedback` reads.
    for name, data in _exchange_files(course, student, assignment, result["timestamp"]).items():
        for where in (folder, feedback):
            if where.exists():
                _write(where / name, data)
    summary = {k: v for k, v in result.items() if k not in ("notebook", "feedback", "log")}
    _write(folder / RESULT, json.dumps(summary, indent=1))  # last: marks the job done
    course.failure_path(student, assignment).unlink(missing_ok=True)


def outcomes(course: Course) -> list[dict]:
    """Every student's standing result, for the report: the newest grade, or, where the grader
    failed on the newest try, that failure, with the grade it keeps from before if any."""
    found = []
    for folder in sorted(p for p in course.autograded.glob("*/*") if p.is_dir()):
        graded, failed = folder / RESULT, folder / FAILURE
        result = json.loads(graded.read_text()) if graded.exists() else None
        if failed.exists():
            failure = json.loads(failed.read_text())
            if result is None:
                result = failure
            else:
                result.update(
                    status="error",
                    reason=f"{failure['reason']}; the grade shown is the earlier one, kept",
                )
        if result is not None:
            found.append(result)
    return found
