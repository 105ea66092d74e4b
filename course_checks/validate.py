"""The student's **Validate** button, answered with the course's own diagnosis.

nbgrader's Validate runs a notebook and, for a check cell short of full marks, says only
"Partial credit; passed some but not all of the tests" under the cell's source. This Jupyter
server extension takes the same request (``POST /assignments/validate``, which nbgrader's
Validate button sends) and answers in the format that button shows, with what the notebook's
self-check finds: its per-exercise table, each failed exercise with the first problem its
checks named ("matches attention without the 1/√d_k scaling"), and any other cell that
stopped with an error or ran out of time. "Success!" only when every exercise passed and
every cell ran.

As nbgrader does, Validate first refuses a notebook whose locked or check cells were edited:
those are listed instead, since grading restores them. Cells copied, split, merged or turned
into another type are not refused: grading puts them right (and says so in the feedback), and
Validate warns in words before the student hands in (:func:`cell_warnings`), then runs the
notebook as grading will (types restored, split cells joined) for its table.

The student's lab (``make lab``) turns this extension on in place of nbgrader's own
(``autograder/student_lab/jupyter_server_config.json``).
"""

from __future__ import annotations

import asyncio
import copy
import html
import json
import textwrap
from pathlib import Path

from course_checks import selfcheck
from course_checks.cells import CHECKS_LINE

# How long one cell may run before Validate stops it; every course notebook's cells take
# a few seconds at most under Validate (NBGRADER_EXECUTION shrinks the demos).
CELL_TIMEOUT = 60
# The dialog is about 80 characters of monospace wide.
WIDTH = 78
# nbgrader's dialog heads each "failed" entry with "The following cell failed:"; the course's
# table is about the whole notebook, and often holds no failure at all, so that line is
# hidden (the rule sits inside the dialog and goes when it closes).
NO_CELL_HEADING = "<style>#validation-message > div:first-child > p { display: none; }</style>"


def edited_cells(notebook) -> dict[str, list[dict]]:
    """What nbgrader refuses before running anything: locked cells whose source changed
    (``changed``)."""
    from nbgrader import utils

    changed = [
        {"source": cell.source.strip()}
        for cell in notebook.cells
        if utils.is_locked(cell)
        and "checksum" in cell.metadata.nbgrader
        and cell.metadata.nbgrader.checksum != utils.compute_checksum(cell)
    ]
    return {"changed": changed} if changed else {}


def _marks(cell) -> dict:
    return cell.get("metadata", {}).get("nbgrader", {}) or {}


def _names(notebook) -> dict[str, str]:
    """How to name each marked cell to the student, by grade id: "the check cell of
    Exercise 2", "your answer cell for Exercise 2", "the read-only cell [4]"."""
    names: dict[str, str] = {}
    pending: list[str] = []
    number = 0
    for cell in notebook.cells:
        number += cell.cell_type == "code"
        meta = _marks(cell)
        grade_id = meta.get("grade_id")
        if not grade_id or grade_id in names:
            continue
        if found := selfcheck.check_cell_exercise(cell):
            exercise = found[0].split(" · ")[0]
            names[grade_id] = f"the check cell of {exercise}"
            names.update({answer: f"your answer cell for {exercise}" for answer in pending})
            pending = []
        elif meta.get("solution"):
            pending.append(grade_id)
        else:
            names[grade_id] = f"the read-only cell [{number}]"
    return names | {answer: "an answer cell of yours" for answer in pending}


def _whole(parts) -> str | None:
    """The source of a read-only cell split into ``parts``, if they are its pieces (the
    checksum nbgrader keeps in the first part says so)."""
    from nbgrader import utils

    whole = copy.deepcopy(parts[0])
    for joiner in ("\n", "\n\n", ""):
        whole.source = joiner.join(cell.source.strip("\n") for cell in parts)
        if utils.compute_checksum(whole) == _marks(parts[0]).get("checksum"):
            return whole.source
    return None


def cell_warnings(notebook) -> list[str]:
    """What grading will put right in this notebook, in words, and puts it right here too
    (types back, split read-only cells joined) so that the self-check runs it as grading
    will. Copies stay: they run in order, as in Run All."""
    names, warnings, seen = _names(notebook), [], set()
    numbers = {
        id(c): n for n, c in enumerate((c for c in notebook.cells if c.cell_type == "code"), 1)
    }
    for cell in list(notebook.cells):
        grade_id = _marks(cell).get("grade_id")
        if not grade_id or grade_id in seen:
            continue
        seen.add(grade_id)
        parts = [c for c in notebook.cells if _marks(c).get("grade_id") == grade_id]
        name = names.get(grade_id, "a course cell")
        where = " and ".join(f"[{numbers[id(c)]}]" for c in parts if id(c) in numbers)
        if len(parts) > 1 and _marks(cell).get("locked"):
            joined = _whole(parts)
            if joined is not None:
                parts[0].source = joined
                notebook.cells = [c for c in notebook.cells if not any(c is p for p in parts[1:])]
                warnings.append(
                    f"You split {name} into cells {where}. Grading "
                    "joins them again; you can too (select them, then Shift+M)."
                )
            else:
                warnings.append(
                    f"You copied {name} (cells {where}). Grading runs the first as "
                    "the check cell and the copy as an ordinary cell of yours: "
                    "nothing is lost, but you may delete the copy."
                )
        elif len(parts) > 1:
            warnings.append(
                f"{name[0].upper()}{name[1:]} is there {len(parts)} times (cells "
                f"{where}). All of them run, in order, as in Run All: the checks "
                "see what the last one before them defines."
            )
        wanted = _marks(cell).get("cell_type")
        if wanted in ("code", "markdown") and wanted != cell.cell_type:
            _retype(cell, wanted)
            was = "text" if wanted == "code" else "code"
            warnings.append(
                f"You turned {name} into a {was} cell. Grading turns it back; do "
                f"the same here (Esc, then {'Y' if wanted == 'code' else 'M'})."
            )
    for cell in notebook.cells:
        if (
            cell.cell_type == "code"
            and not _marks(cell).get("grade")
            and CHECKS_LINE.search(cell.source)
        ):
            warnings.append(
                f"Cell [{numbers.get(id(cell), '?')}] holds the code of a check cell "
                "(merged with one, or copied without its marks). Grading runs the "
                "course's check cell itself; keep your own code in cells of its own."
            )
    return warnings


def _retype(cell, kind: str) -> None:
    cell.cell_type = kind
    if kind == "code":
        cell.outputs, cell.execution_count = [], None
    else:
        cell.pop("outputs", None)
        cell.pop("execution_count", None)


def diagnosis(
    checked: selfcheck.NotebookResult, warnings: list[str] | None = None
) -> dict[str, list[dict]]:
    """The self-check's findings in nbgrader's result format: ``{}`` (success, and nothing
    to warn about) or one ``failed`` entry whose "source" is the summary and whose "error" is
    the table, followed by the warnings about cells."""
    warnings = warnings or []
    if checked.ok and not warnings:
        return {}
    items = checked.results
    headline = (
        f"{checked.name}: {selfcheck.summary(items)}"
        if items
        else f"{checked.name} did not run to the end"
    )
    if checked.ok:
        headline = f"{checked.name}: every exercise passes; before you hand in, read the notes"
    lines = selfcheck.format_table("", items, width=WIDTH).splitlines()[2:] if items else []
    if checked.problem:
        lines += ["", f"Problem: {checked.problem}"]
    if checked.cell_errors:
        lines += ["", "Other cells that stopped with an error:"]
        lines += [f"  {error}" for error in checked.cell_errors[:5]]
        if len(checked.cell_errors) > 5:
            lines.append(f"  ... and {len(checked.cell_errors) - 5} more")
    if any(r.status != selfcheck.PASSED for r in items):
        lines += ["", "Each check cell's own output, in the notebook, lists all its checks."]
    if warnings:
        lines += ["", "Cells that are not as the course made them (nothing is lost):"]
        for warning in warnings:
            lines += textwrap.wrap(warning, WIDTH, initial_indent="- ", subsequent_indent="  ")
    if items:
        lines += ["", *textwrap.wrap(selfcheck.NOT_THE_GRADE, WIDTH)]
    text = "\n".join(lines).strip("\n")
    return {
        "failed": [
            {"source": headline, "error": NO_CELL_HEADING + html.escape(text), "raw_error": text}
        ]
    }


def validate(path: Path | str) -> dict[str, list[dict]]:
    """Validate one notebook as the button does: edited cells first, then the self-check."""
    import nbformat

    try:
        notebook = nbformat.read(path, as_version=4)
    except Exception as error:  # noqa: BLE001 - not a notebook: say so in the dialog
        return {"failed": [{"source": str(path), "error": html.escape(str(error))}]}
    warnings = cell_warnings(notebook)  # puts right what grading will, in this copy
    edited = edited_cells(notebook)
    if edited:
        return edited
    return diagnosis(
        selfcheck.check_notebook(path, timeout=CELL_TIMEOUT, notebook=notebook), warnings
    )


def _handlers(root_dir: str):
    from jupyter_server.base.handlers import JupyterHandler
    from nbgrader.server_extensions.validate_assignment.handlers import NbGraderVersionHandler
    from tornado import web

    root = Path(root_dir).resolve()

    class ValidateHandler(JupyterHandler):
        @web.authenticated
        async def post(self):
            try:
                relative = self.get_argument("path")
            except web.MissingArgumentError:
                relative = self.get_json_body()["path"]
            target = (root / relative).resolve()
            if not target.is_relative_to(root):
                raise web.HTTPError(403, "Access denied: path outside the served folder")
            self.log.info("Validating %s with the course's checks", target)
            # The notebook runs in its own kernel; the server keeps answering meanwhile.
            result = await asyncio.to_thread(validate, target)
            self.finish(json.dumps({"success": True, "value": result}))

    return [
        ("/assignments/validate", ValidateHandler),
        ("/nbgrader_version", NbGraderVersionHandler),
    ]


def _jupyter_server_extension_points():
    return [{"module": "course_checks.validate"}]


def _load_jupyter_server_extension(server_app):
    from jupyter_server.utils import url_path_join

    web_app = server_app.web_app
    base_url = web_app.settings["base_url"]
    web_app.add_handlers(
        ".*$",
        [
            (url_path_join(base_url, pattern), handler)
            for pattern, handler in _handlers(server_app.root_dir)
        ],
    )
    server_app.log.info("Validate answers with the course's self-check (course_checks.validate)")
