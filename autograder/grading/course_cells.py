"""A notebook's cells read as the grader compares and names them, as text: a cell's lines,
its nbgrader marks, the grade id it claims, and the release's course cells by grade id with
how to name each one to a student (``CourseCells``). ``normalise.py`` puts a submission's
cells right with them; ``execute.py`` names cells in the checks' messages.

Nothing here runs code.
"""

from __future__ import annotations

from autograder.cells import grade_id, source
from course_checks.selfcheck import check_cell_exercise


def lines(text: str) -> tuple[str, ...]:
    """A cell's source as lines to compare: trailing spaces and blank edges ignored."""
    kept = [line.rstrip() for line in text.splitlines()]
    while kept and not kept[0]:
        kept.pop(0)
    while kept and not kept[-1]:
        kept.pop()
    return tuple(kept)


def marks(cell: dict) -> dict:
    metadata = cell.get("metadata")
    found = metadata.get("nbgrader") if isinstance(metadata, dict) else None
    return found if isinstance(found, dict) else {}


def claim(cell: dict) -> str | None:
    """The course cell this cell says it is (its grade id), if any."""
    found = marks(cell).get("grade_id")
    return found if isinstance(found, str) and found else None


def _text(cell: dict) -> str:
    try:
        return source(cell)
    except (KeyError, TypeError):
        return ""


class CourseCells:
    """A notebook's cells that carry a grade id (the course's cells, when it is the release),
    by grade id, in order, and how to name each one to a student. Not the course's folders:
    those are ``records.Course``."""

    def __init__(self, release: dict):
        self.cells = release["cells"]
        self.by_id = {g: c for c in self.cells if (g := grade_id(c))}
        self.order = [g for c in self.cells if (g := grade_id(c))]
        self.lines = {g: lines(source(c)) for g, c in self.by_id.items()}
        self._names: dict[str, str] = {}
        pending: list[str] = []  # answer cells wait for the check cell below them
        for cell in self.cells:
            g, meta = grade_id(cell), marks(cell)
            if not g:
                continue
            if meta.get("grade") and (found := check_cell_exercise(cell)):
                exercise = found[0].split(" · ")[0]
                self._names[g] = f"the check cell of {exercise}"
                for answer in pending:
                    self._names[answer] = f"your answer cell for {exercise}"
                pending = []
            elif meta.get("solution"):
                pending.append(g)

    def locked(self, g: str) -> bool:
        return bool(marks(self.by_id[g]).get("locked"))

    def name(self, g: str) -> str:
        if g in self._names:
            return self._names[g]
        return f"the read-only cell {first_line(source(self.by_id[g]))}"


def first_line(text: str) -> str:
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return f"“{first[:57]}…”" if len(first) > 60 else f"“{first}”"


def _describe(cell: dict) -> str:
    kind = "text" if cell.get("cell_type") == "markdown" else "code"
    return f"the {kind} cell {first_line(_text(cell))}"
