"""What a check saw of an answer, and the same check run again with other functions.

A check's outcome is a tuple: ``(VALUE, value, atol, rtol)``, ``(RAISED, type, message)``,
``(IN_PLACE,)`` when the answer changed an input, or ``(TRUTH, bool)``. Naming a mistake
(``naming.py``) runs the check again with a variant answer's functions in place of the
student's (``evaluate``) and asks whether it gives what the student's answer gave (``same``).
"""

from __future__ import annotations

import contextlib
import io
import warnings
from typing import Any

from .comparing import kind_of, matches, to_tensor
from .cpu_budget import OutOfCpu, cpu_limit
from .inputs import changed_in_place, has_contents, inputs_read

VALUE, RAISED, IN_PLACE, TRUTH = "value", "raised", "in place", "truth"
_MISSING = object()  # a name the namespace did not have before a variant was put there


def evaluate(check: tuple, functions: dict[str, Any], seconds: float) -> tuple:
    """What ``student_code`` gives with ``functions`` in place of the student's, and
    the names it reads bound as they were (all put back afterwards), in at most ``seconds``
    of CPU: (VALUE, value),
    (RAISED, type, message), or (IN_PLACE,) when it changed an input."""
    student_code, bindings, _ = check
    namespace = getattr(student_code, "__globals__", {})
    # The student's objects stand in for the variant's wherever the check holds them:
    # under their names, or passed to a helper whose argument the lambda closes over
    # (`check_function(AttentionFunction)` runs `lambda: gradients(function, ...)`).
    standing_in = {id(namespace[name]): new for name, new in functions.items() if name in namespace}
    swapped = {
        name: standing_in.get(id(value), value) for name, value in bindings.items()
    } | functions
    cells = (
        [
            (cell, cell.cell_contents)
            for cell in student_code.__closure__ or ()
            if has_contents(cell) and id(cell.cell_contents) in standing_in
        ]
        if hasattr(student_code, "__closure__")
        else []
    )
    saved = {name: namespace.get(name, _MISSING) for name in swapped}
    namespace.update(swapped)
    for cell, old in cells:
        cell.cell_contents = standing_in[id(old)]
    inputs = inputs_read(student_code)
    copies = [tensor.detach().clone() for _, tensor in inputs]
    try:
        with (
            contextlib.redirect_stdout(io.StringIO()),
            warnings.catch_warnings(),
            cpu_limit(seconds),
        ):
            warnings.simplefilter("ignore")
            value = student_code()
    except OutOfCpu:  # names nothing: no answer that ends gives what it gives
        return (RAISED, "TimeoutError", "the variant ran out of time")
    except Exception as error:  # noqa: BLE001 - a variant may fail where the answer fails
        return (RAISED, type(error).__name__, str(error))
    finally:
        for name, old in saved.items():
            if old is _MISSING:
                namespace.pop(name, None)
            else:
                namespace[name] = old
        for cell, old in cells:
            cell.cell_contents = old
        changed = changed_in_place(inputs, copies)
    return (IN_PLACE,) if changed else (VALUE, value)


def same(check: tuple, outcome: tuple) -> bool:
    """Whether a variant's ``outcome`` is what the student's answer gave on ``check``."""
    wanted = check[2]
    if wanted[0] in (RAISED, IN_PLACE):  # the same error: its type and message
        return outcome == wanted
    if outcome[0] != VALUE:
        return False
    if wanted[0] == TRUTH:
        try:
            return bool(outcome[1]) == wanted[1]
        except Exception:  # noqa: BLE001 - a truth value that cannot be taken is no match
            return False
    _, got, atol, rtol = wanted
    if got is None or outcome[1] is None:  # nothing returned: the same only as nothing
        return got is outcome[1]
    if kind_of(got) != kind_of(outcome[1]):  # the same numbers as floats are not the ids
        return False
    got_t, _ = to_tensor(got, "")
    value_t, _ = to_tensor(outcome[1], "")
    return got_t is not None and value_t is not None and matches(got_t, value_t, atol, rtol)
