"""Check your own work without an instructor: one line per exercise, passed or not, and why.

Inside a notebook, every check cell records its result here when it ends with
``checks.score()``, and the notebook's last cell prints the table with :func:`report`.
From a terminal, the same table for a whole notebook, run headless as **Validate** would
run it (heavy demos shrink, nothing is graded, your file is not changed)::

    python -m course_checks.selfcheck notebooks/01_vector_attention/01_vector_attention.ipynb
    python -m course_checks.selfcheck --progress notebooks   # every notebook, with a chart

The command exits with status 0 when every exercise passes and 1 otherwise.

Its parts: the kernel's results and their table (``scoreboard.py``), the headless run of
a notebook (``headless.py``) and ``--progress`` (``progress.py``); this module is the
command, and every name is still importable from here.

Importing this module is cheap (no Jupyter, no plotting): the kernel imports it with the
checking helpers. The command's imports (nbclient, matplotlib) happen only when it runs.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from course_checks.headless import (
    NotebookResult,
    check_cell_exercise,
    check_notebook,
    expected_exercises,
)
from course_checks.progress import progress_chart, progress_table
from course_checks.scoreboard import _RESULTS as _RESULTS  # the one store, scoreboard's
from course_checks.scoreboard import (
    ERROR,
    FAILED,
    MARKS,
    NOT_ATTEMPTED,
    NOT_RUN,
    NOT_THE_GRADE,
    PASSED,
    Result,
    dump,
    forget,
    format_table,
    grading,
    record,
    report,
    results,
    started,
    summary,
)

__all__ = [
    "ERROR",
    "FAILED",
    "MARKS",
    "NOT_ATTEMPTED",
    "NOT_RUN",
    "NOT_THE_GRADE",
    "PASSED",
    "NotebookResult",
    "Result",
    "check_cell_exercise",
    "check_notebook",
    "dump",
    "expected_exercises",
    "forget",
    "format_table",
    "grading",
    "main",
    "notebooks_in",
    "progress_chart",
    "progress_table",
    "record",
    "report",
    "results",
    "started",
    "summary",
]


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
