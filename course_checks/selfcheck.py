"""Check your own work without an instructor: one line per exercise, passed or not, and why.

Inside a notebook, every check cell records its result here when it ends with
``checks.score()``, and the notebook's last cell prints the table with :func:`report`.
From a terminal, the same table for a whole notebook, run headless as **Validate** would
run it (heavy demos shrink, nothing is graded, your file is not changed)::

    python -m course_checks.selfcheck notebooks/01_vector_attention/01_vector_attention.ipynb
    python -m course_checks.selfcheck --progress notebooks   # every notebook, with a chart

The command exits with status 0 when every exercise passes and 1 otherwise.

Importing this module is cheap (no Jupyter, no plotting): the kernel imports it with the
checking helpers. The command's imports (nbclient, matplotlib) happen only when it runs.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from course_checks.cells import CHECKS_LINE, source

__all__ = ["Result", "check_notebook", "format_table", "record", "report", "started"]

PASSED, FAILED, NOT_ATTEMPTED, ERROR, NOT_RUN = (
    "passed",
    "failed",
    "not attempted",
    "error",
    "not run",
)
MARKS = {PASSED: "✓", FAILED: "✗", NOT_ATTEMPTED: "·", ERROR: "!", NOT_RUN: "…"}

# Said wherever points are shown to a student: a check cell, this table, Validate; not while
# grading, where they are the grade.
NOT_THE_GRADE = (
    "These points count the visible checks only, so they are not your grade: "
    "grading adds hidden checks on new inputs."
)


def grading() -> bool:
    """Whether this runs as nbgrader grades (it says so to kernels; so does the course's
    grading process, where test cells run)."""
    return os.environ.get("NBGRADER_EXECUTION") == "autograde"


# checking.Checks.run words an untouched answer ("raise NotImplementedError()") this way.
_NOT_ATTEMPTED_PREFIX = "not attempted"
_STOPPED = (
    "the check cell stopped with an error before it finished: the message under that cell says"
    " where."
)
_NOT_RUN_YET = "its check cell has not run yet."


@dataclass
class Result:
    """What one exercise's check cell found."""

    exercise: str
    status: str
    earned: float
    points: float
    diagnosis: str = ""
    named: str = ""  # the mistake the checks named, completing "This matches ..."


# The kernel's results, by exercise name, in the order the check cells ran.
_RESULTS: dict[str, Result] = {}


def forget() -> None:
    """Start afresh: a new notebook (or the next student's, when grading) is checked."""
    _RESULTS.clear()


def started(exercise: str, points: float) -> None:
    """A check cell began (``Checks(...)``); until its score arrives, it counts as stopped."""
    _RESULTS.pop(exercise, None)
    _RESULTS[exercise] = Result(exercise, ERROR, 0.0, float(points), _STOPPED)


def record(
    exercise: str,
    points: float,
    earned: float,
    checks: Sequence[tuple[str, str | None]],
    named: str = "",
) -> Result:
    """Store a check cell's outcome (``checks.score()`` calls this); returns the stored result.

    ``checks`` holds ``(description, None or what went wrong)`` per check. All passing is
    *passed*; every check reporting an untouched answer is *not attempted*; anything else is
    *failed*, with the first real problem as the diagnosis; ``named`` is the mistake the
    checks named, if any.
    """
    failures = [(description, message) for description, message in checks if message]
    if not checks:
        status, diagnosis = ERROR, "the check cell ran no checks."
    elif not failures:
        status, diagnosis = PASSED, ""
    else:
        untouched = [f for f in failures if f[1].startswith(_NOT_ATTEMPTED_PREFIX)]
        if len(untouched) == len(checks):
            status, diagnosis = NOT_ATTEMPTED, ""
        else:
            description, message = next((f for f in failures if f not in untouched), failures[0])
            status, diagnosis = FAILED, f"{description}: {message}"
    result = Result(exercise, status, float(earned), float(points), diagnosis, named)
    _RESULTS.pop(exercise, None)
    _RESULTS[exercise] = result
    return result


def results(expected: Mapping[str, float] | None = None) -> list[Result]:
    """The recorded results: every ``expected`` exercise in order (``not run`` if missing),
    then any other exercise that recorded one."""
    expected = dict(expected or {})
    listed = [
        _RESULTS.get(name) or Result(name, NOT_RUN, 0.0, float(points), _NOT_RUN_YET)
        for name, points in expected.items()
    ]
    return listed + [r for name, r in _RESULTS.items() if name not in expected]


def summary(items: Sequence[Result]) -> str:
    earned = sum(r.earned for r in items)
    points = sum(r.points for r in items)
    counts = [
        f"{sum(r.status == status for r in items)} {status}"
        for status in (PASSED, FAILED, NOT_ATTEMPTED, ERROR, NOT_RUN)
        if status in (PASSED, FAILED, NOT_ATTEMPTED) or any(r.status == status for r in items)
    ]
    return f"{_number(earned)} of {_number(points)} points · " + ", ".join(counts)


def format_table(title: str, items: Sequence[Result], width: int = 104) -> str:
    """The table the notebook's last cell and the command print; diagnoses wrap at
    ``width`` characters."""
    name_width = max([len("exercise")] + [len(r.exercise) for r in items])
    status_width = max(len(f"{MARKS[s]} {s}") for s in MARKS)
    lines = [
        f"{title}: {summary(items)}" if title else summary(items),
        "",
        f"  {'exercise':<{name_width}}  {'status':<{status_width}}  points",
    ]
    for r in items:
        status = f"{MARKS[r.status]} {r.status}"
        lines.append(
            f"  {r.exercise:<{name_width}}  {status:<{status_width}}  "
            f"{_number(r.earned)} / {_number(r.points)}"
        )
        if r.diagnosis:
            lines += textwrap.wrap(
                r.diagnosis, width - 6, initial_indent=" " * 6, subsequent_indent=" " * 6
            )
    return "\n".join(lines)


def report(expected: Mapping[str, float] | None = None, title: str = "This notebook") -> None:
    """Print the table for the check cells run so far in this kernel.

    ``expected`` maps each exercise of the notebook to its points, so that an exercise whose
    check cell has not run yet is listed too. Prints to stdout only, and never raises.
    """
    items = results(expected)
    print(format_table(title, items))
    notes = [] if grading() else [NOT_THE_GRADE]
    if any(r.status == NOT_RUN for r in items):
        notes.append("To check everything at once: Run All, or Validate in the toolbar.")
    if notes:
        print("\n" + "\n".join(notes))
    sys.stdout.flush()


def _number(value: float) -> str:
    return f"{value:g}"


# ----------------------------------------------------------------------------------------
# The command: run a notebook headless and read the results back from its kernel.

_DUMP_MARK = "__transformer_course_selfcheck__"
_DUMP_CELL = (
    "import json as _selfcheck_json\n"
    "from course_checks import selfcheck as _selfcheck\n"
    f"print({_DUMP_MARK!r} + _selfcheck_json.dumps(_selfcheck.dump()))"
)


def dump() -> list[dict]:
    """The kernel's results as plain data, for the command to read back."""
    return [asdict(r) for r in _RESULTS.values()]


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


def notebooks_in(paths: Iterable[Path | str]) -> list[Path]:
    """Notebook files: each path itself, or the course notebooks found in a folder."""
    found = []
    for path in map(Path, paths):
        if path.is_dir():
            found += sorted(
                p
                for p in path.glob("[0-9][0-9]_*/[0-9][0-9]_*.ipynb")
                if ".ipynb_checkpoints" not in p.parts
            )
        else:
            found.append(path)
    return found


def progress_table(checked: Sequence[NotebookResult]) -> str:
    """One line per notebook, with a bar of its points: █ earned, ░ still to earn."""
    width = max([len("notebook")] + [len(nb.name) for nb in checked])
    lines = [f"  {'notebook':<{width}}  points   passed  failed  to do   progress"]
    total_earned = total_points = 0.0
    for nb in checked:
        earned = sum(r.earned for r in nb.results)
        points = sum(r.points for r in nb.results)
        total_earned, total_points = total_earned + earned, total_points + points
        passed = sum(r.status == PASSED for r in nb.results)
        failed = sum(r.status in (FAILED, ERROR) for r in nb.results)
        todo = len(nb.results) - passed - failed
        filled = round(20 * earned / points) if points else 0
        bar = "█" * filled + "░" * (20 - filled)
        score = f"{_number(earned)}/{_number(points)}"
        note = f"  ({nb.problem})" if nb.problem else ""
        lines.append(
            f"  {nb.name:<{width}}  {score:<7}  {passed:>6}  {failed:>6}  {todo:>5}   {bar}{note}"
        )
    share = f"{100 * total_earned / total_points:.0f} %" if total_points else "—"
    lines.append(
        f"  {'all':<{width}}  {_number(total_earned)}/{_number(total_points)} points ({share})"
    )
    return "\n".join(lines)


def progress_chart(checked: Sequence[NotebookResult], path: Path) -> Path:
    """Save a bar chart of points per notebook: passed, failed, not yet attempted."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [nb.name for nb in checked][::-1]
    rows = checked[::-1]

    def points_where(nb: NotebookResult, statuses: tuple[str, ...]) -> float:
        return sum(r.points for r in nb.results if r.status in statuses)

    passed = [points_where(nb, (PASSED,)) for nb in rows]
    # Points of a failed exercise are split: what it earned, and what it still misses.
    partial = [sum(r.earned for r in nb.results if r.status == FAILED) for nb in rows]
    failed = [points_where(nb, (FAILED, ERROR)) - p for nb, p in zip(rows, partial, strict=True)]
    todo = [points_where(nb, (NOT_ATTEMPTED, NOT_RUN)) for nb in rows]

    fig, ax = plt.subplots(figsize=(8, 0.45 * len(rows) + 1.4))
    left = [0.0] * len(rows)
    for values, label, colour in [
        (passed, "passed", "#2e9e4f"),
        (partial, "partly earned (failed exercise)", "#9bd3a8"),
        (failed, "failed", "#d9534f"),
        (todo, "not attempted", "#d0d0d0"),
    ]:
        ax.barh(names, values, left=left, color=colour, label=label, height=0.6)
        left = [a + b for a, b in zip(left, values, strict=True)]
    ax.set_xlabel("points")
    earned = sum(r.earned for nb in checked for r in nb.results)
    total = sum(r.points for nb in checked for r in nb.results)
    ax.set_title(f"Your progress: {_number(earned)} of {_number(total)} points", pad=26)
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=4, fontsize=8, frameon=False)
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m course_checks.selfcheck",
        description="Run notebooks headless and list each exercise: passed, failed (and why), "
        "or not attempted. Exit status 0 when every exercise passes.",
    )
    parser.add_argument("paths", nargs="+", help="notebooks, or folders of NN_topic notebooks")
    parser.add_argument(
        "--progress",
        action="store_true",
        help="also print a progress table and save a chart (exit status 0 unless it cannot run)",
    )
    parser.add_argument(
        "--chart", default="progress.png", help="where --progress saves its chart (PNG)"
    )
    parser.add_argument("--timeout", type=int, default=120, help="seconds allowed per cell")
    parser.add_argument(
        "--report-only",
        action="store_true",
        help="exit status 0 unless it cannot run (`make check`: an unfinished notebook is no "
        "error)",
    )
    args = parser.parse_args(argv)

    paths = notebooks_in(args.paths)
    if not paths:
        parser.error("no notebooks found")
    checked = []
    for path in paths:
        print(f"Checking {path} ...", flush=True)
        nb = check_notebook(path, timeout=args.timeout)
        checked.append(nb)
        print(format_table(f"{nb.name} ({nb.seconds:.0f} s)", nb.results))
        if nb.problem:
            print(f"  Problem: {nb.problem}")
        for error in nb.cell_errors:
            print(f"  Also stopped with an error: {error}")
        print(flush=True)
    print(NOT_THE_GRADE)
    if args.progress:
        print("\nProgress over all notebooks\n")
        print(progress_table(checked))
        chart = progress_chart(checked, Path(args.chart))
        print(f"\nChart saved to {chart}")
        return 0  # a progress report is information, not a verdict
    return 0 if args.report_only or all(nb.ok for nb in checked) else 1


if __name__ == "__main__":
    sys.exit(main())
