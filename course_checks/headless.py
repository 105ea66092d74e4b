"""The self-check command's run of one notebook: headless, as **Validate** runs it, with
each exercise's result read back from the kernel's scoreboard (``check_notebook``), and
the graded check cells a notebook holds (``check_cell_exercise``, ``expected_exercises``).
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from course_checks.cells import CHECKS_LINE, source
from course_checks.scoreboard import _NOT_RUN_YET, ERROR, NOT_RUN, PASSED, Result

_DUMP_MARK = "__transformer_course_selfcheck__"
_DUMP_CELL = (
    "import json as _selfcheck_json\n"
    "from course_checks import selfcheck as _selfcheck\n"
    f"print({_DUMP_MARK!r} + _selfcheck_json.dumps(_selfcheck.dump()))"
)


def check_cell_exercise(cell) -> tuple[str, float] | None:
    """``(exercise, points)`` of a graded check cell, from its ``Checks(...)`` line (or its
    nbgrader metadata); None for any other cell."""
    meta = cell.get("metadata", {}).get("nbgrader", {})
    if cell["cell_type"] != "code" or not meta.get("grade"):
        return None
    found = CHECKS_LINE.search(source(cell))
    if found:
        return found.group(1), float(found.group(2))
    return meta.get("grade_id", "check cell"), float(meta.get("points", 0))


def expected_exercises(notebook) -> dict[str, float]:
    """``{exercise: points}`` of a notebook's graded check cells, in notebook order."""
    return dict(found for cell in notebook["cells"] if (found := check_cell_exercise(cell)))


@dataclass
class NotebookResult:
    name: str
    results: list[Result] = field(default_factory=list)
    seconds: float = 0.0
    problem: str = ""  # set when the notebook could not be run at all
    notebook: object = field(default=None, repr=False)  # the executed copy, outputs included
    # Other cells that stopped with an error: "cell [7]: ValueError: ..." (a stub's
    # NotImplementedError is left out: its exercise already shows as not attempted).
    cell_errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return (
            not self.problem
            and not self.cell_errors
            and all(r.status == PASSED for r in self.results)
        )


def check_notebook(path: Path | str, timeout: int = 120, notebook=None) -> NotebookResult:
    """Run a notebook headless (cells may fail) and return each exercise's result.

    Runs in the notebook's folder with ``NBGRADER_EXECUTION=validate``, as nbgrader's
    Validate does, so long demos shrink; ``timeout`` seconds per cell, after which the cell
    is interrupted and the rest still runs. The notebook file is not modified; ``notebook``,
    if given, is run instead of the file's content (a copy Validate has put right).
    """
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import DeadKernelError

    path = Path(path)
    name = path.stem
    try:
        notebook = (
            copy.deepcopy(notebook) if notebook is not None else nbformat.read(path, as_version=4)
        )
    except Exception as error:  # noqa: BLE001 - not JSON, not a notebook: say so, and move on
        return NotebookResult(name, problem=f"cannot read {path}: {error}")
    expected = expected_exercises(notebook)
    notebook.cells.append(nbformat.v4.new_code_cell(_DUMP_CELL))
    client = NotebookClient(
        notebook,
        timeout=timeout,
        kernel_name="python3",
        allow_errors=True,
        interrupt_on_timeout=True,
        resources={"metadata": {"path": str(path.parent.resolve())}},
    )
    start = time.perf_counter()
    problem = ""
    try:
        # The kernel's own chatter (a warning about TCP, say) stays out of the student's table.
        client.execute(
            stderr=subprocess.DEVNULL, env={**os.environ, "NBGRADER_EXECUTION": "validate"}
        )
    except DeadKernelError as error:
        problem = f"the kernel died while running the notebook ({error})."
    except Exception as error:  # noqa: BLE001 - any failure is the notebook's
        problem = f"the notebook could not be run: {type(error).__name__}: {error}"
    seconds = time.perf_counter() - start

    recorded = _read_dump(notebook.cells[-1])
    errors = _cell_errors(notebook.cells[:-1])
    items = []
    for exercise, points in expected.items():
        data = recorded.get(exercise)
        result = Result(**data) if data else Result(exercise, NOT_RUN, 0.0, points, _NOT_RUN_YET)
        raised = errors.get(exercise)
        if raised and result.status in (ERROR, NOT_RUN):
            result = Result(exercise, ERROR, 0.0, points, f"the check cell raised {raised}")
        items.append(result)
    others = _other_errors(notebook.cells[:-1], timeout)
    return NotebookResult(name, items, seconds, problem, notebook, others)


def _read_dump(cell) -> dict[str, dict]:
    for output in cell.get("outputs", []):
        text = output.get("text", "")
        if output.get("name") == "stdout" and _DUMP_MARK in text:
            data = json.loads(text.split(_DUMP_MARK, 1)[1])
            return {item["exercise"]: item for item in data}
    return {}


def _cell_errors(cells) -> dict[str, str]:
    """``{exercise: "Error: message"}`` for graded check cells that raised."""
    errors = {}
    for cell in cells:
        if not (found := check_cell_exercise(cell)):
            continue
        name = found[0]
        for output in cell.get("outputs", []):
            if output.output_type == "error":
                errors[name] = _error_line(output)
    return errors


def _error_line(output) -> str:
    evalue = output.evalue.strip().splitlines()
    return f"{output.ename}: {evalue[0] if evalue else ''}".rstrip(": ")


def _other_errors(cells, timeout: float) -> list[str]:
    """``cell [N]: Error: message`` for each cell other than a check cell that raised; N
    counts code cells from 1, as Run All's execution counts do."""
    found = []
    code_cells = (cell for cell in cells if cell["cell_type"] == "code")
    for number, cell in enumerate(code_cells, 1):
        if check_cell_exercise(cell):
            continue
        for output in cell.get("outputs", []):
            if output.output_type != "error" or output.ename == "NotImplementedError":
                continue
            if output.ename == "KeyboardInterrupt":  # what interrupting a cell at its timeout gives
                found.append(f"cell [{number}] was stopped after {timeout:g} s")
            else:
                found.append(f"cell [{number}]: {_error_line(output)}")
    return found
