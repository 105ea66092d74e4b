"""Cells that stopped with an error, so that the checks below them can say so.

When an answer cell raises (a SyntaxError, an IndentationError, any exception), nothing after
the error is defined, and the checks would only say "name 'weighted_sum' is not defined".
Cells that raised are remembered here, and :func:`explain` turns that NameError into its
cause: "your answer cell for Exercise 5 raised SyntaxError on line 6, so `weighted_sum` was
never defined".

Who remembers them: in the student's kernel, an IPython hook that importing the checks
installs (:func:`watch`); when grading, the grader, which sees each cell's outputs
(``autograder/grading/execute.py``), since the checks run in its trusted process.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["explain", "forget", "record", "watch"]

# Names a cell binds at its top level, read line by line: a cell that does not parse still
# says what it meant to define.
_BINDS = re.compile(
    r"^(?:async\s+)?(?:def|class)\s+(\w+)|^(\w+)\s*(?::[^=]*)?=(?!=)"
    r"|^(?:from\s+\S+\s+)?import\s+(.+)$"
)
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_CELL_LINE = re.compile(r"(?:Cell In\s*\[\d*\]|<ipython-input-[^>]*>), line (\d+)")


@dataclass
class Failure:
    where: str  # "your answer cell for Exercise 5", "your cell [7]"
    error: str  # "SyntaxError"
    line: int | None
    names: frozenset[str]


_failures: dict[str, Failure] = {}  # by cell (its id, or its source)


def forget() -> None:
    _failures.clear()


def defined_names(source: str) -> frozenset[str]:
    names = set()
    for line in source.splitlines():
        if found := _BINDS.match(line):
            defined, assigned, imported = found.groups()
            names |= {defined or assigned} - {None}
            if imported:
                names |= {
                    part.split(" as ")[-1].strip().split(".")[0]
                    for part in imported.strip("() ").split(",")
                }
    return frozenset(n for n in names if n.isidentifier())


def record(cell: str, source: str, where: str, error: str | None, line: int | None = None) -> None:
    """A cell ran: ``error`` is the name of what it raised, or None if it ran through."""
    if error is None:
        _failures.pop(cell, None)
    else:
        _failures[cell] = Failure(where, error, line, defined_names(source))


def line_of(traceback: list[str]) -> int | None:
    """The cell's line that raised, from an error output's traceback (IPython's text)."""
    found = _CELL_LINE.search(_ANSI.sub("", "\n".join(traceback)))
    return int(found.group(1)) if found else None


def explain(name: str) -> tuple[str, bool] | None:
    """Why ``name`` is not defined, if a cell that meant to define it raised: (the sentence,
    whether that cell was still the untouched stub)."""
    for failure in reversed(list(_failures.values())):
        if name in failure.names:
            if failure.error == "NotImplementedError":
                return (
                    f"not attempted yet ({failure.where} still raises NotImplementedError).",
                    True,
                )
            line = f" on line {failure.line}" if failure.line else ""
            return (
                f"{failure.where} raised {failure.error}{line}, so `{name}` was never "
                "defined: fix that cell and run it again (its own output shows the "
                "error).",
                False,
            )
    return None


def _after_cell(result) -> None:
    """IPython's post_run_cell hook: remember whether the cell raised, and where."""
    try:
        info = result.info
        key = getattr(info, "cell_id", None) or info.raw_cell
        error = result.error_before_exec or result.error_in_exec
        line = None
        if isinstance(error, SyntaxError):
            line = error.lineno
        elif error is not None:
            traceback = error.__traceback__
            while traceback is not None and line is None:  # the cell's own frame comes first
                if traceback.tb_frame.f_code.co_name == "<module>":
                    line = traceback.tb_lineno
                traceback = traceback.tb_next
        count = result.execution_count
        where = f"your cell [{count}]" if count else "one of your cells"
        record(key, info.raw_cell, where, type(error).__name__ if error else None, line)
    except Exception:  # noqa: BLE001 - a hook must never disturb the student's notebook
        pass


def watch() -> None:
    """In an IPython kernel, remember the cells that raise (once per kernel)."""
    try:
        from IPython import get_ipython
    except ImportError:
        return
    shell = get_ipython()
    if shell is None or getattr(shell, "_course_cell_errors", False):
        return
    shell.events.register("post_run_cell", _after_cell)
    shell._course_cell_errors = True
