"""A submitted file, checked and put right before nbgrader sees it.

``read`` takes the file's bytes (already read by ``intake.read``, which refuses links, pipes
and oversized files) and returns the notebook, or raises ``Rejected`` with one sentence when
there is nothing to grade: an empty file, malformed JSON, JSON that is not a notebook, or
another assignment's notebook. ``put_right`` then prepares an accepted notebook for grading,
in place: its cells made the release's again (``normalise.py``), text a page cannot show
noted (``safe_pages.renderable``), the course's cells back in the release's order with the
student's own cells beside them, the changes said at the top of the notebook, code that
reaches into the test machinery noted (``tampering.py``), and a notebook that bends the
format noted. Everything it finds becomes an event for the report. Nothing here runs code.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from autograder.cells import grade_id, grade_ids
from autograder.grading import intake, tampering
from autograder.grading.normalise import normalise, note_cell
from autograder.grading.safe_pages import renderable
from autograder.releases.release import assignments as course_assignments


class Rejected(Exception):
    """A submission that cannot be graded at all (it scores 0, with this reason)."""


def released(course: Path) -> dict[str, dict]:
    """The release notebook of every assignment: name -> notebook JSON."""
    return {
        a: json.loads((course / "notebooks" / a / f"{a}.ipynb").read_text())
        for a in course_assignments(course)
    }


def read(data: bytes, assignment: str, releases: dict[str, dict]) -> dict:
    """The notebook in ``data``, handed in for ``assignment``; ``Rejected`` if there is none
    to grade. ``releases``: every assignment's release notebook (``released``)."""
    text = data.decode("utf-8", errors="replace")
    if not text.strip():
        raise Rejected("the file is empty")
    try:
        notebook = json.loads(text)
    except json.JSONDecodeError as error:
        raise Rejected(f"the file is not a notebook (malformed JSON: {error})") from None
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        raise Rejected("the file is JSON but not a notebook (it has no list of cells)")
    # Ids such as "setup" or "ex1_tests" occur in several notebooks: the closest match tells.
    ids = set(grade_ids(notebook))
    if ids:
        overlap = {
            a: len(ids & set(grade_ids(nb))) / len(ids | set(grade_ids(nb)))
            for a, nb in releases.items()
        }
        best = max(overlap, key=overlap.__getitem__)
        if overlap[best] > overlap[assignment]:
            raise Rejected(f"this is not the notebook of {assignment} (it is {best})")
    return notebook


def timestamp(path: Path) -> str | None:
    """When nbgrader's collect says it was handed in (its timestamp.txt), if it is one."""
    try:
        text = intake.read(path, limit=100).decode("ascii").strip()
    except (intake.Refused, UnicodeDecodeError):
        return None
    return text if re.fullmatch(r"[\d :.+\-TUCZ]+", text) else None


def format_problem(notebook: dict) -> str | None:
    """What is wrong with the notebook's format, if anything (nbgrader copes with most)."""
    import nbformat

    try:
        nbformat.validate(nbformat.from_dict(notebook))
    except Exception as error:  # noqa: BLE001 - what the validator says is the problem
        return str(error).splitlines()[0]
    return None


def restore_order(notebook: dict, release: dict) -> bool:
    """Put the course's cells back in the release's order; a student's own cells travel with
    the course cell above them. True if anything moved."""
    order = grade_ids(release)
    groups: dict[str | None, list] = {None: []}
    current = None
    for cell in notebook["cells"]:
        if grade_id(cell) in order and grade_id(cell) not in groups:
            current = grade_id(cell)
            groups[current] = []
        groups[current].append(cell)
    cells = groups[None] + [c for g in order if g in groups for c in groups[g]]
    moved = [id(c) for c in cells] != [id(c) for c in notebook["cells"]]
    notebook["cells"] = cells
    return moved


def put_right(notebook: dict, release: dict, events: list[dict]) -> None:
    """Make ``notebook`` ready for nbgrader, in place; what was found or changed is appended
    to ``events`` as it is found."""
    notes = normalise(notebook, release) + renderable(notebook)
    events += [{"kind": "cells", "cell": None, "message": note} for note in notes]
    if restore_order(notebook, release):
        events.append(
            {
                "kind": "order",
                "cell": None,
                "message": "cells were out of order; graded in the course's order",
            }
        )
    if notes:  # at the top of the graded notebook, so of the feedback page too
        notebook["cells"].insert(0, note_cell(notes, notebook))
    events += tampering.events(notebook, release)
    if problem := format_problem(notebook):
        events.append(
            {
                "kind": "format",
                "cell": None,
                "message": f"the file bends the notebook format ({problem}); graded anyway",
            }
        )
