"""The student's **Validate** button, answered with the course's own diagnosis.

nbgrader's Validate runs a notebook and, for a check cell short of full marks, says only
"Partial credit; passed some but not all of the tests" under the cell's source. This Jupyter
server extension takes the same request (``POST /assignments/validate``, which nbgrader's
Validate button sends) and answers in the format that button shows, with what the notebook's
self-check finds: its per-exercise table, each failed exercise with the first problem its
checks named ("matches attention without the 1/√d_k scaling"), and any other cell that
stopped with an error or ran out of time. "Success!" only when every exercise passed and
every cell ran.

As nbgrader does, Validate first refuses a notebook whose locked or check cells were edited,
or whose cells changed type: those are listed instead, since grading restores them.

The student's lab (``make lab``) turns this extension on in place of nbgrader's own
(``autograder/student_lab/jupyter_server_config.json``).
"""

from __future__ import annotations

import asyncio
import html
import json
import textwrap
from pathlib import Path

from course_checks import selfcheck

# How long one cell may run before Validate stops it; every course notebook's cells take
# a few seconds at most under Validate (NBGRADER_EXECUTION shrinks the demos).
CELL_TIMEOUT = 60
# The dialog is about 80 characters of monospace wide.
WIDTH = 78


def edited_cells(notebook) -> dict[str, list[dict]]:
    """What nbgrader refuses before running anything: cells whose type changed
    (``type_changed``) or locked cells whose source changed (``changed``)."""
    from nbgrader import utils

    graded = [
        cell
        for cell in notebook.cells
        if utils.is_grade(cell) or utils.is_solution(cell) or utils.is_locked(cell)
    ]
    type_changed = [
        {
            "source": cell.source.strip(),
            "old_type": cell.cell_type,
            "new_type": cell.metadata.nbgrader.cell_type,
        }
        for cell in graded
        if cell.metadata.nbgrader.get("cell_type") not in (None, cell.cell_type)
    ]
    if type_changed:
        return {"type_changed": type_changed}
    changed = [
        {"source": cell.source.strip()}
        for cell in graded
        if utils.is_locked(cell)
        and "checksum" in cell.metadata.nbgrader
        and cell.metadata.nbgrader.checksum != utils.compute_checksum(cell)
    ]
    return {"changed": changed} if changed else {}


def diagnosis(checked: selfcheck.NotebookResult) -> dict[str, list[dict]]:
    """The self-check's findings in nbgrader's result format: ``{}`` (success) or one
    ``failed`` entry whose "source" is the summary and whose "error" is the table."""
    if checked.ok:
        return {}
    items = checked.results
    headline = (
        f"{checked.name}: {selfcheck.summary(items)}"
        if items
        else f"{checked.name} did not run to the end"
    )
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
    if items:
        lines += ["", *textwrap.wrap(selfcheck.NOT_THE_GRADE, WIDTH)]
    text = "\n".join(lines).strip("\n")
    return {"failed": [{"source": headline, "error": html.escape(text), "raw_error": text}]}


def validate(path: Path | str) -> dict[str, list[dict]]:
    """Validate one notebook as the button does: edited cells first, then the self-check."""
    import nbformat

    try:
        notebook = nbformat.read(path, as_version=4)
    except Exception as error:  # not a notebook: say so in the dialog
        return {"failed": [{"source": str(path), "error": html.escape(str(error))}]}
    edited = edited_cells(notebook)
    if edited:
        return edited
    return diagnosis(selfcheck.check_notebook(path, timeout=CELL_TIMEOUT))


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
