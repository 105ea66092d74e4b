"""A notebook cell's text, read one way by the checks, the course's tools and the grader.

A notebook file stores a cell's source as one string or as a list of lines; ``source``
gives the text either way. The student's own tools (``selfcheck``, ``student_copy``) need
it, so it lives here, in the package students receive; the grader's ``autograder.cells``
hands on this same function rather than keeping a copy of its own (``course_checks`` never
imports ``autograder``).
"""

from __future__ import annotations

__all__ = ["source"]


def source(cell: dict) -> str:
    """The cell's text, whether the file holds it as one string or as a list of lines."""
    return cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
