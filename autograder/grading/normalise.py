"""Submissions put right before nbgrader sees them: copied, split, merged and re-typed cells.

Students copy cells to experiment (JupyterLab's copy keeps nbgrader's marks), split and
merge them, turn a code cell into text by accident, delete a cell and type it in again.
nbgrader takes a notebook with two cells of one grade id, or marks it does not know, for a
corrupted one and stops with a traceback. ``normalise(notebook, release)`` makes the
course's cells the release's again — one cell per grade id, with the release's marks and
type, none missing — and keeps everything else the student wrote as cells of their own, in
the order Run All runs them, so the notebook is graded on what its answers are worth. Each
change comes back as one plain sentence for the student's feedback and the report.

Nothing here runs code: cells are compared as lines of text (read and named as
``course_cells.py`` reads and names them).
"""

from __future__ import annotations

import ast
import copy
import re
import secrets

from autograder.cells import grade_id, source

# How a cell is read and named; CourseCells, first_line and claim are importable here too
# (the tests take claim from here, and execute.py took the other two before the split).
from autograder.grading.course_cells import (
    CourseCells,
    _describe,
    _text,
    claim,
    first_line,
    lines,
    marks,
)
from course_checks.plain import printable

CELL_ID = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
MARKS = ("grade", "solution", "locked", "points", "cell_type")  # what a student may not change
SHORTEST_BLOCK = 20  # characters: a course cell shorter than this is never cut out of another


class Notes(list):
    """Sentences for the student, each said once, in order; ``pieces`` remembers the cells
    cut out of merged ones (by ``id``)."""

    pieces: set[int]

    def add(self, sentence: str) -> None:
        if sentence not in self:
            self.append(sentence)


def normalise(notebook: dict, release: dict) -> list[str]:
    """Put the course's cells of ``notebook`` right, in place; the sentences saying what was
    changed (empty when nothing was)."""
    course, notes = CourseCells(release), Notes()
    notes.pieces = set()
    cells = [c for c in notebook["cells"] if isinstance(c, dict)]
    if len(cells) < len(notebook["cells"]):
        notes.add("some entries in the file's list of cells were not cells; they were left out")
    for cell in cells:
        if not isinstance(cell.get("metadata"), dict):
            cell["metadata"] = {}
        if "nbgrader" in cell["metadata"] and not marks(cell):  # not a dict, or empty
            del cell["metadata"]["nbgrader"]
        if not isinstance(cell.get("source"), (str, list)):
            cell["source"] = ""
    repeated_ids = _unique_ids(notebook, cells)
    _forget_unknown_marks(cells, course, notes)
    cells = _split_merged(cells, course, notes)
    cells = _join_split(cells, course, notes)
    _one_cell_per_id(cells, course, notes)
    _restore_types(cells, course, notes)
    cells = _restore_missing(cells, course, notes)
    _restore_marks(cells, course, notes)
    _copied_text(cells, course, notes)
    if repeated_ids and not any("copied" in note or "times" in note for note in notes):
        notes.add(
            f"{repeated_ids} cell{'s' if repeated_ids > 1 else ''} had the same id as "
            "another (a copy made outside JupyterLab?); each got an id of its own"
        )
    notebook["cells"] = cells
    return list(notes)


def _unique_ids(notebook: dict, cells: list[dict]) -> int:
    """Cell ids (nbformat 4.5) must be unique: a copy made in a text editor repeats one.
    Returns how many were repeated (each now has a new one)."""
    if (notebook.get("nbformat"), notebook.get("nbformat_minor", 0)) < (4, 5):
        return 0
    seen, repeated = set(), 0
    for cell in cells:
        ident = cell.get("id")
        if not isinstance(ident, str) or not CELL_ID.match(ident) or ident in seen:
            repeated += isinstance(ident, str) and ident in seen
            ident = secrets.token_hex(4)
            cell["id"] = ident
        seen.add(ident)
    return repeated


def _forget_unknown_marks(cells: list[dict], course: CourseCells, notes: Notes) -> None:
    """Marks of a cell the course does not have: the cell is the student's own."""
    for cell in cells:
        meta = marks(cell)
        if not meta or claim(cell) in course.by_id:
            continue
        if any(meta.get(flag) for flag in ("grade", "solution", "locked")):
            notes.add(
                f"{_describe(cell)} carried grading marks the course does not have; "
                "it was graded as an ordinary cell of yours"
            )
        del cell["metadata"]["nbgrader"]


def _split_merged(cells: list[dict], course: CourseCells, notes: Notes) -> list[dict]:
    """A read-only course cell merged with other cells is cut out again, so that it is
    graded and the rest runs as before, in the same order."""
    blocks = [
        (g, course.lines[g])
        for g in course.order
        if course.locked(g)
        and course.by_id[g].get("cell_type") == "code"
        and len("\n".join(course.lines[g])) >= SHORTEST_BLOCK
    ]
    result = []
    for cell in cells:
        pieces = [cell]
        if cell.get("cell_type") == "code" and lines(_text(cell)) not in {b for _, b in blocks}:
            for g, block in blocks:
                pieces = [p for piece in pieces for p in _cut(piece, g, block, course, notes)]
        result += pieces
    return result


def _cut(
    cell: dict, g: str, block: tuple[str, ...], course: CourseCells, notes: Notes
) -> list[dict]:
    text = lines(_text(cell))
    if text == block or len(text) <= len(block):
        return [cell]
    at = next(
        (i for i in range(len(text) - len(block) + 1) if text[i : i + len(block)] == block), None
    )
    if at is None:
        return [cell]
    parts = [text[:at], block, text[at + len(block) :]]
    if _parses("\n".join(text)) and not all(_parses("\n".join(p)) for p in parts):
        return [cell]  # the block is inside a statement of the student's: not a merge
    pieces = []
    for part in parts:
        if not lines("\n".join(part)):
            continue
        piece = copy.deepcopy(cell)
        piece["source"] = "\n".join(part)
        piece["outputs"], piece["execution_count"] = [], None
        piece["metadata"].pop("nbgrader", None)
        if part is block:
            piece["metadata"]["nbgrader"] = copy.deepcopy(marks(course.by_id[g]))
        elif claim(cell) != g and claim(cell):
            piece["metadata"]["nbgrader"] = copy.deepcopy(marks(cell))
        pieces.append(piece)
    for piece in pieces[1:]:
        if "id" in piece:
            piece["id"] = secrets.token_hex(4)
    notes.pieces |= {id(piece) for piece in pieces}
    notes.add(f"{course.name(g)} was merged with another cell; they were graded as separate cells")
    return pieces


def _parses(text: str) -> bool:
    try:
        ast.parse(text)
    except (SyntaxError, ValueError):
        return False
    return True


def _join_split(cells: list[dict], course: CourseCells, notes: Notes) -> list[dict]:
    """A read-only course cell split in two (or more) parts is graded whole."""
    for g in course.order:
        if not course.locked(g):
            continue
        parts = [c for c in cells if claim(c) == g]
        if len(parts) < 2 or any(lines(_text(p)) == course.lines[g] for p in parts):
            continue
        joined = "\n".join(_text(p) for p in parts)
        if [line for line in lines(joined) if line] != [line for line in course.lines[g] if line]:
            continue  # blank lines at the cut may differ
        parts[0]["source"] = source(course.by_id[g])
        cells = [c for c in cells if not any(c is p for p in parts[1:])]
        notes.add(
            f"{course.name(g)} was split into {len(parts)} cells; it was graded whole, "
            "as the course wrote it"
        )
    return cells


def _one_cell_per_id(cells: list[dict], course: CourseCells, notes: Notes) -> None:
    """One cell per grade id: the course's is the first that still holds its text (else the
    first); every other copy loses its marks and runs as an ordinary cell of the student's."""
    for g in course.order:
        copies = [c for c in cells if claim(c) == g]
        if len(copies) < 2:
            continue
        keep = next((c for c in copies if lines(_text(c)) == course.lines[g]), copies[0])
        for cell in copies:
            if cell is not keep:
                del cell["metadata"]["nbgrader"]
        if course.locked(g):
            notes.add(f"{course.name(g)} was copied; the copy was run as an ordinary cell of yours")
        else:
            notes.add(
                f"{course.name(g)} was there {len(copies)} times (copied, or split); "
                "all of them ran, in order, as Run All runs them"
            )


def _restore_types(cells: list[dict], course: CourseCells, notes: Notes) -> None:
    """A course cell turned into text (or text turned into code) gets its type back."""
    unmarked: dict[tuple[str, ...], str | None] = {}
    for cell in course.cells:
        if not grade_id(cell) and len("\n".join(found := lines(source(cell)))) >= SHORTEST_BLOCK:
            unmarked.setdefault(found, cell.get("cell_type"))
    for cell in cells:
        g = claim(cell)
        if g:
            wanted = course.by_id[g].get("cell_type")
            what = course.name(g)
        else:
            wanted = unmarked.get(lines(_text(cell)), cell.get("cell_type"))
            what = (
                f"the course's {'text' if wanted == 'markdown' else 'code'} cell "
                f"{first_line(_text(cell))}"
            )
        if wanted == cell.get("cell_type") or wanted not in ("code", "markdown"):
            continue
        _set_type(cell, wanted)
        notes.add(
            f"{what} had been turned into a {'text' if wanted == 'code' else 'code'} "
            f"cell; it was graded as {'code' if wanted == 'code' else 'text'}"
        )


def _set_type(cell: dict, kind: str) -> None:
    cell["cell_type"] = kind
    if kind == "code":
        cell["outputs"], cell["execution_count"] = [], None
        cell.pop("attachments", None)
    else:
        cell.pop("outputs", None)
        cell.pop("execution_count", None)


def _restore_missing(cells: list[dict], course: CourseCells, notes: Notes) -> list[dict]:
    """Every read-only course cell is there: one typed in again (same text, no marks) takes
    its marks back, a deleted one is put back from the release."""
    present = {claim(c) for c in cells}
    for g in course.order:
        if g in present:
            continue
        if not course.locked(g):
            _adopt_answer(cells, course, g, notes)
            continue
        again = next(
            (
                c
                for c in cells
                if not claim(c)
                and lines(_text(c)) == course.lines[g]
                and c.get("cell_type") == course.by_id[g].get("cell_type")
            ),
            None,
        )
        if again is not None:
            again["metadata"]["nbgrader"] = copy.deepcopy(marks(course.by_id[g]))
            notes.add(
                f"{course.name(g)} had lost its grading marks (deleted and added again?); "
                "it was graded as the course's"
            )
        else:
            cells.insert(_place(cells, course, g), copy.deepcopy(course.by_id[g]))
            notes.add(f"{course.name(g)} was missing; the course's was put back and run")
        present.add(g)
    return cells


def _adopt_answer(cells: list[dict], course: CourseCells, g: str, notes: Notes) -> None:
    """An answer cell without its marks: the first code cell of the student's in its place
    (between the course cells around it) is taken as the answer."""
    before, after = course.order[: course.order.index(g)], course.order[course.order.index(g) :]
    start = max((i + 1 for i, c in enumerate(cells) if claim(c) in before), default=0)
    end = min((i for i, c in enumerate(cells) if claim(c) in after), default=len(cells))
    found = next(
        (c for c in cells[start:end] if not claim(c) and c.get("cell_type") == "code"), None
    )
    if found is None:
        notes.add(
            f"{course.name(g)} was not in the notebook (deleted?); the checks used what "
            "your other cells define"
        )
        return
    found["metadata"]["nbgrader"] = copy.deepcopy(marks(course.by_id[g]))
    if id(found) not in notes.pieces:
        notes.add(
            f"{course.name(g)} had lost its grading marks (deleted and written again?); "
            "the code cell in its place was graded as your answer"
        )


def _place(cells: list[dict], course: CourseCells, g: str) -> int:
    """Where a course cell goes back: after the course cell before it in the release."""
    earlier = course.order[: course.order.index(g)]
    for previous in reversed(earlier):
        for index, cell in enumerate(cells):
            if claim(cell) == previous:
                return index + 1
    return 0


def _restore_marks(cells: list[dict], course: CourseCells, notes: Notes) -> None:
    """The release's marks on every course cell; an edited read-only cell is named (nbgrader
    puts the course's text back)."""
    for cell in cells:
        g = claim(cell)
        if not g:
            continue
        wanted = marks(course.by_id[g])
        if any(marks(cell).get(key) != wanted.get(key) for key in MARKS):
            notes.add(
                f"the grading marks of {course.name(g)} had been changed; the course's "
                "were put back"
            )
        cell["metadata"]["nbgrader"] = copy.deepcopy(wanted)
        if course.locked(g) and lines(_text(cell)) != course.lines[g]:
            notes.add(f"{course.name(g)} had been edited; the course's version was run")


def _copied_text(cells: list[dict], course: CourseCells, notes: Notes) -> None:
    """Copies of the course's unmarked cells (its text, its demos) are harmless: named."""
    unmarked = {lines(source(c)) for c in course.cells if not grade_id(c)}
    counts: dict[tuple, list[dict]] = {}
    for cell in cells:
        text = lines(_text(cell))
        if text in unmarked and len("\n".join(text)) >= SHORTEST_BLOCK:
            counts.setdefault(text, []).append(cell)
    for copies in counts.values():
        if len(copies) > 1:
            notes.add(
                f"the course's {_describe(copies[0]).removeprefix('the ')} was copied; "
                "the copy was kept as a cell of yours"
            )


def _markdown_text(sentence: str) -> str:
    """A sentence quoting the student's cells as plain text in Markdown: no HTML, no
    emphasis or headings they wrote, no control characters."""
    return re.sub(r"([\\`*_{}\[\]()#+!|<>~-])", r"\\\1", printable(sentence))


def note_cell(notes: list[str], notebook: dict) -> dict:
    """A text cell for the top of the graded notebook (and so of the feedback page)."""
    text = "**Notes from grading.** Before grading, these cells were put right:\n\n"
    cell = {
        "cell_type": "markdown",
        "metadata": {"course_grading_note": True},
        "source": text
        + "\n".join(
            f"- {_markdown_text(sentence[0].upper() + sentence[1:])}." for sentence in notes
        ),
    }
    if (notebook.get("nbformat"), notebook.get("nbformat_minor", 0)) >= (4, 5):
        cell["id"] = f"grading-notes-{secrets.token_hex(4)}"
    return cell
