"""Demo cells that use a student's function, and still run while it is unfinished.

A notebook's demo cell calls ``yours_or_ours(your_function, the_course_s, "Exercise N")``
instead of the student's function: it is the student's function while that works; when it
raises (a stub's NotImplementedError, or a bug), the cell says so in one line and goes on
with the course's version, so that Run All never stops at an unanswered exercise.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["yours_or_ours"]


def yours_or_ours(yours: Callable, ours: Callable, exercise: str) -> Callable:
    """A function that calls ``yours``, or ``ours`` (once saying why) if ``yours`` raises."""
    said = False

    def call(*args, **kwargs):
        nonlocal said
        try:
            return yours(*args, **kwargs)
        except Exception as error:  # unfinished or broken: the demo goes on with ours
            if not said:
                what = (
                    "is not finished yet"
                    if isinstance(error, NotImplementedError)
                    else f"raised {type(error).__name__}: {error}"
                )
                print(f"(Your `{yours.__name__}` {what}; this cell uses the course's version. "
                      f"Finish {exercise} to see yours.)")
                said = True
            return ours(*args, **kwargs)

    return call
