"""What happened while one notebook was graded, as JSON lines: the grading executor
(``execute.py``) appends, the job (``job.py``) reads them back for the report.

Two kinds of line: an event (a kernel replaced, a cell stopped, output cut: ``kind``,
``cell``, ``message``) and a test cell's outcome (``kind`` is ``OUTCOME``, with the fields of
``course_checks.selfcheck.Result``), recorded by the checker itself and never read back
from the cell's printed output, where the student's own prints sit beside the checks'.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from autograder.cells import grade_id
from course_checks import selfcheck

OUTCOME = "outcome"  # the kind of line that holds a test cell's outcome


class EventLog:
    """Appends to ``path``; an empty path keeps nothing (a run outside the pipeline)."""

    def __init__(self, path: str):
        self.path = path

    def event(self, kind: str, message: str, cell=None) -> None:
        self._append({"kind": kind, "cell": grade_id(cell) if cell else None, "message": message})

    def outcome(self, cell, result: selfcheck.Result) -> None:
        self._append({"kind": OUTCOME, "cell": grade_id(cell), **dataclasses.asdict(result)})

    def _append(self, line: dict) -> None:
        if self.path:
            with open(self.path, "a") as log:
                log.write(json.dumps(line) + "\n")


def read(path: Path) -> tuple[list[dict], dict[str, dict]]:
    """The events, in order, and each test cell's outcome by grade id."""
    events, outcomes = [], {}
    for line in map(json.loads, path.read_text().splitlines()):
        if line["kind"] == OUTCOME:
            outcomes[line["cell"]] = {k: v for k, v in line.items() if k not in ("kind", "cell")}
        else:
            events.append(line)
    return events, outcomes
