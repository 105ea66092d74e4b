"""A notebook cell as the checks, the course's tools and the grader read it: its text, and a
check cell's title.

A notebook file stores a cell's source as one string or as a list of lines; ``source``
gives the text either way. A check cell names its exercise on its ``Checks(...)`` line,
``Checks("Exercise 3 · softmax", points=2, ...)``: ``CHECKS_TITLE`` finds the title,
``CHECKS_LINE`` the title and the points (one pattern grown from the other).

The student's own tools (``selfcheck``, ``student_copy``) need these, so they live here, in
the package students receive; the grader (``autograder.cells``, the releases, the mutation
analysis) uses these same ones rather than copies (``course_checks`` never imports
``autograder``).
"""

from __future__ import annotations

import re

__all__ = ["CHECKS_LINE", "CHECKS_TITLE", "source"]

CHECKS_TITLE = re.compile(r"Checks\(\s*[\"']([^\"']+)[\"']")
CHECKS_LINE = re.compile(CHECKS_TITLE.pattern + r"\s*,\s*points\s*=\s*(\d+(?:\.\d+)?)")


def source(cell: dict) -> str:
    """The cell's text, whether the file holds it as one string or as a list of lines."""
    return cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
