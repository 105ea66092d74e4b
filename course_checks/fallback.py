"""Demo cells that use a student's function, and still run while it is unfinished.

A notebook's demo cell calls ``yours_or_ours(your_function, the_course_s, "Exercise N")``
instead of the student's function: it is the student's function while that works; when it
raises (a stub's NotImplementedError, or a bug), the cell says so in one line and goes on
with the course's version, so that Run All never stops at an unanswered exercise.

Later demos that build on an exercise call ``yours_if_passed(your_function, the_course_s,
"Exercise N")``: the student's function once that exercise's checks have passed, the
course's otherwise, and the cell says which it uses.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from course_checks import cell_errors
from course_checks.plain import printable

__all__ = ["yours_if_passed", "yours_or_ours"]


def yours_or_ours(yours: Callable, ours: Callable, exercise: str) -> Callable:
    """A function that calls ``yours``, or ``ours`` (once saying why) if ``yours`` raises;
    its ``used_ours`` tells a later cell whose results it gave."""
    said = False

    def call(*args, **kwargs):
        nonlocal said
        try:
            return yours(*args, **kwargs)
        except Exception as error:  # noqa: BLE001 - unfinished or broken: the demo goes on with ours
            call.used_ours = True
            if not said:
                what = (
                    "is not finished yet"
                    if isinstance(error, NotImplementedError)
                    else f"raised {type(error).__name__}: {printable(str(error), 500)}"
                )
                # A name missing because the cell that defines it raised: say that instead.
                if isinstance(error, NameError) and (cause := cell_errors.explain(error.name)):
                    what = f"cannot run yet: {cause[0].rstrip('.')}"
                print(
                    f"(Your `{yours.__name__}` {what}; this cell uses the course's version. "
                    f"Finish {exercise} to see yours.)"
                )
                said = True
            return ours(*args, **kwargs)

    call.used_ours = False  # type: ignore[attr-defined]  # an attribute of the function
    return call


def yours_if_passed(yours: Callable, ours: Callable, exercise: str) -> Callable:
    """``yours`` if every check of ``exercise`` ("Exercise 3") passed in this notebook, else
    ``ours``; prints one line saying which the demo uses, and why."""
    from course_checks.checking import passed  # imports torch: only where a demo runs

    name = getattr(yours, "__name__", "answer")
    if os.environ.get("NBGRADER_EXECUTION") == "autograde":  # checks ran in the grader
        print(f"(While grading, this cell uses the course's `{name}`.)")
        return ours
    if passed(exercise):
        print(f"(This cell uses your `{name}`: {exercise} passed its checks.)")
        return yours
    print(f"(This cell uses the course's `{name}`: your {exercise} has not passed its checks yet.)")
    return ours
