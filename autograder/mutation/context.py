"""The grading context (``course_checks/context.py``) of a notebook checked in this process
(``power``'s answers, ``make mutants``' mutants, ``measure.feedback``), made as ``make grade``
makes it (``grading/execute.py``), so that what is measured is what grading does: the
reference's variant answers to name mistakes, the answers' sources, and the refusals read
from the notebook's cells as data (``trusted/reading.py``). Probes run where they are
called: the answers here are the course's own or its testers', not a student's kernel.
"""

from __future__ import annotations

import ast
import builtins
import json
from pathlib import Path

from nbformat import from_dict

from autograder.mutation.variants import VariantAnswers, answer_sources, code_cells
from autograder.trusted.checker import names_read_and_bound
from autograder.trusted.reading import NotebookReading
from course_checks.context import GradingContext


class MeasuredNotebook:
    """``notebook`` (the solution notebook at ``solution``, its answer cells perhaps replaced)
    checked here: ``context`` to enter, ``at(test_cell)`` before each test cell's checks."""

    def __init__(self, notebook: dict, solution: Path, variants: VariantAnswers | None):
        self.notebook, self.solution = notebook, solution
        self.place: int | None = None
        self.test = ""
        self._reading: NotebookReading | None = None  # read when an exercise first refuses
        self._answers = {
            name
            for grade_id, meta, text in code_cells(notebook)
            if meta.get("solution")
            for name in _top_level_names(text)
        }
        self.context = GradingContext(variants, answer_sources(notebook).get, self._refusals)

    def at(self, test_cell: str) -> None:
        """The checks of ``test_cell`` run next (the checks of a cell read what is above)."""
        sources = [text for _, _, text in code_cells(self.notebook)]
        self.place = sources.index(test_cell) if test_cell in sources else None
        self.test = test_cell

    def _refusals(self, exercise: str, refuses: tuple[str, ...]) -> list[str]:
        if self._reading is None:
            reference = json.loads(self.solution.read_text())
            self._reading = NotebookReading(
                from_dict(self.notebook)["cells"], reference["cells"], str(self.solution)
            )
        # the names the test cell reads from the answers, as the checker looks them up
        loads, binds = names_read_and_bound(ast.parse(self.test)) if self.test else (set(), set())
        entries = sorted((loads - binds - set(dir(builtins))) & self._answers)
        return self._reading.refusals(exercise, refuses, self.place, self.test, entries)


def _top_level_names(source: str) -> set[str]:
    try:
        return names_read_and_bound(ast.parse(source))[1]
    except SyntaxError:
        return set()
