"""The line of a student's own code that raised an error: "in `attention`: `scores = Q @ K / d`".

A check that catches an error says where it came from. The traceback runs through the
check, PyTorch and Python; the innermost frame whose file is a notebook cell, not PyTorch,
Python or the course, is the student's. It needs nothing but the error, so it runs in the
student's kernel and in grading's agent alike (``autograder/trusted/agent.py``).
"""

from __future__ import annotations

import linecache
import os
import sys
from pathlib import Path

__all__ = ["student_line"]

_COURSE = tuple(
    str(Path(__file__).resolve().parents[1] / part) + os.sep
    for part in ("course_checks", "transformer_course", "autograder")
)
_PYTHON = tuple(
    {os.path.realpath(p) + os.sep for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)}
)


def _is_student(filename: str) -> bool:
    """Code the student wrote: a notebook cell, not PyTorch, Python or the course."""
    if filename.startswith("<") and not filename.startswith("<ipython-input"):
        return False
    path = os.path.realpath(filename)
    return (
        not path.startswith(_COURSE)
        and not path.startswith(_PYTHON)
        and "site-packages" not in path
    )


def student_line(error: BaseException, checks_file: str = "") -> str:
    """ "in `attention`: `scores = Q @ K / d`", the innermost line of student code in the
    error's traceback; empty when none is found. ``checks_file`` is the file of the check
    cell's own code (in a kernel, a cell like the student's), which is not the student's."""
    found = ""
    traceback = error.__traceback__
    while traceback is not None:
        code = traceback.tb_frame.f_code
        if _is_student(code.co_filename) and code.co_filename != checks_file:
            line = linecache.getline(
                code.co_filename, traceback.tb_lineno, traceback.tb_frame.f_globals
            ).strip()
            if line and code.co_name != "<lambda>":
                where = f"in `{code.co_name}`: " if code.co_name != "<module>" else ""
                found = f"{where}`{line if len(line) <= 100 else line[:99] + '…'}`"
        traceback = traceback.tb_next
    return found
