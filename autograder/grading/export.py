"""``make export`` (nbgrader's ``export``): the gradebook as CSV, saying who handed in.

nbgrader's own CSV export lists every student for every assignment in the gradebook, and a
missing submission as a score of 0.0 with nothing else to tell it from a submission that
earned nothing. The course's configuration (``autograder/nbgrader_config.py``) makes
``nbgrader export`` use :class:`CsvExport` instead: the same columns, in nbgrader's order,
then ``status``: "submitted" or "not submitted". The score of a missing submission stays 0.0,
as nbgrader writes it, so that a spreadsheet or a learning platform reads the file as before.
"""

from __future__ import annotations

import csv

from nbgrader.api import Gradebook, MissingEntry
from nbgrader.plugins import CsvExportPlugin

COLUMNS = [
    "assignment",
    "duedate",
    "timestamp",
    "student_id",
    "last_name",
    "first_name",
    "email",
    "raw_score",
    "late_submission_penalty",
    "score",
    "max_score",
    "status",
]


class CsvExport(CsvExportPlugin):
    """nbgrader's CSV export with a ``status`` column: submitted, or not submitted."""

    def export(self, gradebook: Gradebook) -> None:
        destination = self.to or "grades.csv"
        students = [str(s) for s in self.student]
        assignments = [str(a) for a in self.assignment]
        self.log.info("Exporting grades to %s", destination)
        with open(destination, "w", newline="") as file:
            writer = csv.DictWriter(file, COLUMNS, lineterminator="\n")
            writer.writeheader()
            for assignment in gradebook.assignments:
                if assignments and assignment.name not in assignments:
                    continue
                handed_in = 0
                for student in gradebook.students:
                    if students and student.id not in students:
                        continue
                    row = row_of(gradebook, assignment, student)
                    handed_in += row["status"] == "submitted"
                    writer.writerow({k: "" if v is None else str(v) for k, v in row.items()})
                if not handed_in:
                    self.log.info(
                        "%s: nobody handed it in (status: not submitted)", assignment.name
                    )


def row_of(gradebook: Gradebook, assignment, student) -> dict:
    """One student's row for one assignment, as nbgrader writes it, and its status."""
    row = {
        "assignment": assignment.name,
        "duedate": assignment.duedate,
        "student_id": student.id,
        "last_name": student.last_name,
        "first_name": student.first_name,
        "email": student.email,
        "max_score": assignment.max_score,
    }
    try:
        submission = gradebook.find_submission(assignment.name, student.id)
    except MissingEntry:
        return row | {
            "timestamp": "",
            "raw_score": 0.0,
            "late_submission_penalty": 0.0,
            "score": 0.0,
            "status": "not submitted",
        }
    penalty = submission.late_submission_penalty
    return row | {
        "timestamp": submission.timestamp,
        "raw_score": submission.score,
        "late_submission_penalty": penalty,
        "score": max(0.0, submission.score - penalty),
        "status": "submitted",
    }
