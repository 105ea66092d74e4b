"""A notebook's cells as the reader's ``Program`` takes them: whose each code cell is, and
the names the course's own cells bind before a test cell (read once a process)."""

from __future__ import annotations

import functools

from autograder.cells import source
from autograder.trusted.scopes import Program


def notebook_cells(cells: list[dict], reference: list[dict]) -> list[tuple[str, str, bool]]:
    """A notebook's code cells for a :class:`Program`: (label in words, code, whether the
    student wrote it: not locked, and not a copy of a code cell of the course's ``reference``
    notebook that is not an answer)."""
    course_code = {
        source(c)
        for c in reference
        if c["cell_type"] == "code"
        and not c.get("metadata", {}).get("nbgrader", {}).get("solution")
    }
    found = []
    for number, cell in enumerate(cells, start=1):
        if cell["cell_type"] != "code":
            continue
        meta = cell.get("metadata", {}).get("nbgrader", {})
        code = source(cell)
        student = not meta.get("locked") and code not in course_code
        label = (
            f"your answer cell {meta['grade_id']}"
            if meta.get("solution") and meta.get("grade_id")
            else f"cell {number} (yours or changed)"
            if student
            else f"the course's cell {number}"
        )
        found.append((label, code, student))
    return found


def course_names(reference: list[dict], test_cell: str) -> frozenset[str]:
    """The names the course's own cells bind before the test cell ``test_cell`` (a grade id)
    of its ``reference`` notebook: the data the checks read (``vocab``, ``text``), which the
    course set up, not the answer. The same for every student: read once a process."""
    cells = []
    for cell in reference:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if meta.get("grade_id") == test_cell:
            break
        if cell["cell_type"] == "code" and not meta.get("solution"):
            cells.append(("", source(cell), False))
    return _bound_names(tuple(cells))


@functools.lru_cache(maxsize=64)
def _bound_names(cells: tuple[tuple[str, str, bool], ...]) -> frozenset[str]:
    return frozenset(Program(cells).module.bindings)
