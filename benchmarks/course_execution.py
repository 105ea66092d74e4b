"""How long each solution notebook takes to run, against the floor every notebook pays.

The floor is a notebook that only imports torch and the course package: kernel start plus
imports, measured the same way (nbclient, headless). Each notebook runs as a student runs it
and as nbgrader grades it (with NBGRADER_EXECUTION set, which shrinks timing demos).
"""

from __future__ import annotations

import os
import statistics
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

COURSE = Path(__file__).resolve().parent.parent
FLOOR_SOURCE = "import torch\nimport course_checks.checking\nimport transformer_course.multihead"


def run_once(notebook: nbformat.NotebookNode, folder: Path) -> float:
    start = time.perf_counter()
    NotebookClient(
        notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(folder)}}
    ).execute()
    return time.perf_counter() - start


def median_seconds(path: Path | None, runs: int, grading: bool) -> float:
    """Median wall time of ``runs`` executions; ``path=None`` runs the floor notebook."""
    if grading:
        os.environ["NBGRADER_EXECUTION"] = "autograde"
    else:
        os.environ.pop("NBGRADER_EXECUTION", None)
    times = []
    for _ in range(runs):
        if path is None:
            notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(FLOOR_SOURCE)])
            folder = COURSE
        else:
            notebook, folder = nbformat.read(path, as_version=4), path.parent
        times.append(run_once(notebook, folder))
    os.environ.pop("NBGRADER_EXECUTION", None)
    return statistics.median(times)


def solution_notebooks() -> list[Path]:
    return sorted(COURSE.glob("solutions/[0-9][0-9]_*/[0-9][0-9]_*.ipynb"))
