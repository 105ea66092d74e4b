"""nbgrader's cells, as every part of the grader reads them: ids, sources, hidden checks.

Plain functions on notebook JSON (dicts), shared by grading, the trusted checker, the report
and the releases, so that none of them has to import another for these. ``source`` (a cell's
text) is ``course_checks.cells.source``, handed on: the student's tools need it too.
"""

from __future__ import annotations

from course_checks.cells import source

__all__ = [
    "HIDDEN",
    "HIDDEN_NOTE",
    "grade_id",
    "grade_ids",
    "source",
    "split_hidden",
    "strip_hidden_tests",
]

HIDDEN = ("### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS")
HIDDEN_NOTE = "# (hidden tests ran here: their report is below)"


def grade_id(cell: dict) -> str | None:
    """The nbgrader id of a cell, None for a cell of the student's own."""
    return cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")


def grade_ids(notebook: dict) -> list[str]:
    return [g for c in notebook.get("cells", []) if isinstance(c, dict) and (g := grade_id(c))]


def split_hidden(source: str) -> list[tuple[str, bool]]:
    """A test cell's code in pieces, in order: (code, hidden?)."""
    pieces: list[tuple[str, bool]] = []
    current: list[str] = []
    hidden = False
    for line in source.splitlines():
        if line.strip() in HIDDEN:
            pieces.append(("\n".join(current), hidden))
            current, hidden = [], line.strip() == HIDDEN[0]
        else:
            current.append(line)
    pieces.append(("\n".join(current), hidden))
    return [(code, hidden) for code, hidden in pieces if code.strip()]


def strip_hidden_tests(notebook: dict) -> dict:
    """The notebook a student may see: test cells keep their visible checks only."""
    for cell in notebook["cells"]:
        if HIDDEN[0] in source(cell):
            cell["source"] = "\n".join(
                HIDDEN_NOTE if hidden else code for code, hidden in split_hidden(source(cell))
            )
    return notebook
