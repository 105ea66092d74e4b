"""What grading hands the checks of one notebook: one explicit, frozen context.

In a student's notebook the checks need nothing beyond their arguments. When a notebook is
graded (``make grade``), measured (``python -m autograder.mutation.power``) or its mutants
are analysed (``make mutants``), the grader knows more, and hands it over here, the same way
on all three paths (``autograder/mutation/context.py`` makes it):

- ``variants``: exercise title -> the reference's variant answers, to name a wrong answer's
  mistake (``autograder/mutation/variants.py``);
- ``source``: exercise title -> the answer's source, read as text, never run, to prefer the
  name that looks most like it;
- ``refusals``: (exercise title, refused names) -> the messages of what the answer reaches
  that it must not (``autograder/trusted/reading.py``); an answer with any scores 0;
- ``probe``: (probe, args, kwargs) -> its report, run where grading trusts it
  (``autograder/trusted/checker.py``; ``course_checks/beside.py``).

``grading(context)`` puts it in force for one notebook, with the results of any notebook
before it forgotten, and takes it away after: nothing outlives the notebook.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from course_checks import cell_errors, selfcheck

__all__ = ["GradingContext", "current", "grading"]


@dataclass(frozen=True)
class GradingContext:
    variants: Callable[[str], list] | None = None
    source: Callable[[str], str | None] | None = None
    refusals: Callable[[str, tuple[str, ...]], list[str]] | None = None
    probe: Callable | None = None


NOTEBOOK = GradingContext()  # a student's notebook: nothing handed over
_current = NOTEBOOK


def current() -> GradingContext:
    """The context the checks run in now."""
    return _current


@contextlib.contextmanager
def grading(context: GradingContext, fresh: bool = True) -> Iterator[GradingContext]:
    """``context`` in force while one notebook is checked. ``fresh``: what the checks
    remember of a notebook (results, cells that raised) is forgotten before and after; not
    fresh, the same notebook goes on (an answer tried in a fork of its run)."""
    global _current
    previous = _current
    if fresh:
        selfcheck.forget()
        cell_errors.forget()
    _current = context
    try:
        yield context
    finally:
        _current = previous
        if fresh:
            selfcheck.forget()
            cell_errors.forget()
