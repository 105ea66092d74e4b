"""A student's notebook read as data, once, for the checks' refusals: the same reading when
grading (``grading/execute.py``) and when measuring (``mutation/context.py``).

``uses.py``'s ``Reader`` over ``scopes.py``'s ``Program`` follows what each answer reaches.
``NotebookReading(cells, reference_cells, solution, flag)`` reads every code cell and calls
``flag(message)``, when given, for what the reader cannot see through (flagged for the
instructor, no points lost); ``refusals(...)`` gives the messages of the refused functions
one exercise's answer reaches, however spelt. Code nested or aliased beyond any honest
answer's is refused, not read halfway (a refusal that failed open would let it through);
any other failure of the reader is its own bug: flagged, and it costs no point.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from autograder.trusted import uses
from autograder.trusted.vocabulary import Vocabulary

TOO_DEEP = "the grader cannot follow your code to its end ({}): write it plainly"


class NotebookReading:
    """The notebook's code cells (``cells``: nbformat cells, ``reference_cells``: the
    solution notebook's, ``solution``: its path, or None outside the course) read once;
    ``flag(message)`` hears of what the reader cannot see through."""

    def __init__(
        self,
        cells: list,
        reference_cells: list,
        solution: str | None,
        flag: Callable[[str], None] | None = None,
    ):
        self.reference_cells = reference_cells
        self.solution = Path(solution) if solution else None
        self.flag = flag or (lambda message: None)
        self.program, self.unreadable = None, ""
        try:
            self.program = uses.Program(uses.notebook_cells(cells, reference_cells))
            if flag is not None:  # what is flagged anywhere: read only for someone to hear
                for finding in uses.Reader(self.program, ()).anywhere():
                    flag(finding.message())
        except (uses.TooDeep, RecursionError) as error:
            self.unreadable = TOO_DEEP.format(str(error) or "nested too deeply")
            self.flag(self.unreadable)
        except Exception as error:  # noqa: BLE001
            self.flag(f"the grader could not read the notebook's code ({error})")

    def refusals(
        self,
        exercise: str,
        refuses: tuple[str, ...],
        place: int | None,
        test_cell: str,
        entries: list[str],
    ) -> list[str]:
        """What ``exercise``'s answer reaches of ``refuses``, one message each; its test
        cell ``test_cell`` is code cell number ``place`` and reads ``entries`` from the
        answer. What it uses that the course has not taught is flagged."""
        if self.program is None:
            return [self.unreadable] if self.unreadable else []
        vocabulary = (
            None if self.solution is None else exercise_vocabulary(self.solution, test_cell)
        )
        try:
            found = uses.Reader(self.program, refuses, place, vocabulary).findings(
                entries, uses.course_names(self.reference_cells, test_cell)
            )
        except (uses.TooDeep, RecursionError) as error:
            return [TOO_DEEP.format(str(error) or "nested too deeply")]
        except Exception as error:  # noqa: BLE001
            self.flag(f"the grader could not read the answer to {exercise} ({error})")
            return []
        for finding in found:
            if finding.kind == "untaught":
                self.flag(finding.message())
        return [f.message() for f in found if f.kind == "refused"]


def exercise_vocabulary(solution: Path, test_cell: str) -> Vocabulary:
    """The vocabulary of the exercise whose test cell is ``test_cell`` in the solution
    notebook at ``solution``. What it reads of the course is cached (``vocabulary.taught``):
    a process that forks to try answers reads it once, before forking."""
    return Vocabulary(solution.parent.parent, solution.parent.name, test_cell)
