"""Comparing an answer's value with the expected one, and saying what differs.

``compare(got, expected)`` is None when they are equal (``torch.allclose`` in float64 on the
CPU, so float32 and float64, CPU and CUDA answers pass alike), else a message that names the
first problem: not a tensor, the shape (axis by axis), NaN or inf, the largest difference
and where it is, and what a family of the expected value measures it to be
(``course_checks/diagnosis.py``). The rest are its parts, which ``checking.Checks`` uses too.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, cast

import torch

from . import diagnosis

__all__ = ["compare"]

# References taken when the module is imported, so that a notebook which rebinds
# torch.allclose does not fool the student's own checks by accident. (Grades never rely on
# this: when grading, these checks run in the trusted checker, not in the kernel.)
_allclose = torch.allclose
_as_tensor = torch.as_tensor
_isfinite = torch.isfinite
_float64 = torch.float64


def describe_shape(shape: torch.Size) -> str:
    return str(tuple(shape))  # (3,) for one dimension, as Python writes it


def to_tensor(value: Any, name: str) -> tuple[torch.Tensor | None, str | None]:
    if isinstance(value, torch.Tensor):
        return value.detach().to("cpu", _float64), None
    if isinstance(value, bool) or value is None:
        hint = " Did the function forget to `return` its result?" if value is None else ""
        return None, f"{name} is {value!r}, not a tensor.{hint}"
    if isinstance(value, (int, float)):
        return _as_tensor(value, dtype=_float64), None
    return None, f"{name} should be a torch.Tensor but is a {type(value).__name__}."


def matches(got: torch.Tensor, expected: torch.Tensor, atol: float, rtol: float) -> bool:
    return got.shape == expected.shape and bool(
        _allclose(got, expected, atol=atol, rtol=rtol, equal_nan=True)
    )


def compare(
    got: Any,
    expected: torch.Tensor,
    name: str = "your answer",
    *,
    misconceptions: Mapping[str, torch.Tensor] | None = None,
    atol: float = 1e-4,
    rtol: float = 1e-4,
    squeeze: bool = False,
    sizes: diagnosis.Sizes | None = None,
) -> str | None:
    """None when ``got`` equals ``expected``; otherwise a message that says what differs.

    The message names the first problem found: not a tensor, shape (explained axis by
    axis), NaN or inf, then the largest difference with its position, and what a family of
    the expected value measures it to be (``course_checks.diagnosis``: a factor, a shift,
    axes swapped...; ``sizes`` says where the check's sizes come from). If ``got`` equals
    one of ``misconceptions`` (``{description: tensor}``), the message ends with "This
    matches <description>." ``squeeze`` ignores dimensions of size 1 (a score may be
    ``(1, 1)`` or a 0-d tensor).
    """
    got_t, problem = to_tensor(got, name)
    if problem:
        return problem
    assert got_t is not None  # to_tensor gives a tensor or a problem
    expected_t = expected.detach().to("cpu", _float64)
    if squeeze:
        got_t, expected_t = got_t.squeeze(), expected_t.squeeze()
    message = difference(got_t, expected_t, name, atol, rtol, sizes=sizes, dtype=dtype_of(got))
    if message is None and floats_for_integers(got, expected):
        return (
            f"{name} has the right numbers, but as floats ({got.dtype}) where integers "
            f"({expected.dtype}) are expected: ids, positions and counts stay integers "
            "(an embedding or an index needs them so)."
        )
    if message is None:
        return None
    for description in matching(got_t, misconceptions, atol, rtol, squeeze):
        # The named mistake replaces generic advice such as "a reshape may be all it needs".
        plain = difference(got_t, expected_t, name, atol, rtol, shape_hints=False)
        return f"{plain} This matches {description}."
    return message


def floats_for_integers(got: Any, expected: torch.Tensor) -> bool:
    """Whether ``got`` holds floats where ``expected`` holds integers (token ids, say)."""
    return (
        isinstance(got, torch.Tensor)
        and got.is_floating_point()
        and not (
            expected.is_floating_point() or expected.is_complex() or expected.dtype == torch.bool
        )
    )


def _number_kind(value: Any) -> str | None:
    """``kind_of`` of a tensor, or of a Python number: "float", "complex", "bool" or "int"."""
    if isinstance(value, torch.Tensor):
        return kind_of(value)
    return {bool: "bool", int: "int", float: "float", complex: "complex"}.get(type(value))


def other_kind(got: Any, expected: torch.Tensor) -> str | None:
    """ "torch.int64 where torch.bool is expected" when ``got`` holds another kind of number
    (boolean, integer, floating point, complex) than ``expected``; precision is no kind."""
    mine, wanted = _number_kind(got), kind_of(expected)
    if mine is None or wanted is None or mine == wanted:
        return None
    said = str(got.dtype) if isinstance(got, torch.Tensor) else f"a Python {type(got).__name__}"
    return f"{said} where {expected.dtype} is expected"


def dtype_of(value: Any) -> torch.dtype | None:
    return value.dtype if isinstance(value, torch.Tensor) else None


def kind_of(value: Any) -> str | None:
    """A tensor's kind of number: "float", "complex", "bool" or "int" (None for others)."""
    if not isinstance(value, torch.Tensor):
        return None
    return (
        "float"
        if value.is_floating_point()
        else "complex"
        if value.is_complex()
        else "bool"
        if value.dtype == torch.bool
        else "int"
    )


def matching(got_t: torch.Tensor, misconceptions, atol, rtol, squeeze) -> list[str]:
    """The descriptions of the ``misconceptions`` whose value ``got_t`` equals."""
    found = []
    for description, wrong in (misconceptions or {}).items():
        wrong_t = wrong.detach().to("cpu", _float64)
        if matches(got_t, wrong_t.squeeze() if squeeze else wrong_t, atol, rtol):
            found.append(description)
    return found


def difference(
    got: torch.Tensor,
    expected: torch.Tensor,
    name: str,
    atol,
    rtol,
    shape_hints: bool = True,
    sizes: diagnosis.Sizes | None = None,
    dtype: torch.dtype | None = None,
) -> str | None:
    if got.shape != expected.shape:
        message = (
            f"{name} has shape {describe_shape(got.shape)} but should have shape "
            f"{describe_shape(expected.shape)}."
        )
        if not shape_hints:
            return message
        if got.dim() == 2 and got.T.shape == expected.shape:
            message += (
                " It has the right size turned on its side: rows and columns are swapped"
                " (a missing or an extra .T?)."
            )
        elif explained := diagnosis.explain_shape(got.shape, expected.shape, sizes):
            message += f" {explained}"
        if measured := diagnosis.measure(got, expected, sizes, atol=atol, rtol=rtol):
            message += f" Measured: {measured}"
        return message
    bad = ~_isfinite(got) & _isfinite(expected)
    if bool(bad.any()):
        kind = "NaN" if bool(torch.isnan(got[bad]).any()) else "inf"
        return f"{name} contains {kind} in {int(bad.sum())} of {got.numel()} entries."
    if _allclose(got, expected, atol=atol, rtol=rtol, equal_nan=True):
        return None
    diff = (got - expected).abs().nan_to_num(nan=math.inf)
    flat = int(diff.reshape(-1).argmax())
    where = (
        [int(i) for i in torch.unravel_index(torch.tensor(flat), got.shape)] if got.dim() else []
    )
    position = f" at index {where}" if where else ""
    want, have = _numbers(float(expected.reshape(-1)[flat]), float(got.reshape(-1)[flat]))
    message = (
        f"{name} differs from the expected value{position}: expected {want}, got {have} "
        f"(largest difference {float(diff.reshape(-1)[flat]):.3g})."
    )
    if shape_hints and (
        measured := diagnosis.measure(got, expected, sizes, atol=atol, rtol=rtol, dtype=dtype)
    ):
        message += f" Measured: {measured}"
    return message


def _numbers(expected: float, got: float) -> tuple[str, str]:
    """Both numbers with as many significant digits as it takes to tell them apart: 4
    decimals for everyday sizes, scientific notation for tiny or huge ones (1.2e-07);
    whole numbers (a count, an index) as they are."""
    if all(x.is_integer() and abs(x) < 1e9 for x in (expected, got)):
        return f"{expected:.0f}", f"{got:.0f}"
    for digits in range(4, 12):
        texts = tuple(
            f"{x:.{digits}f}" if 1e-3 <= abs(x) < 1e5 or x == 0 else f"{x:.{digits - 3}e}"
            for x in (expected, got)
        )
        if texts[0] != texts[1]:
            break
    return cast(tuple[str, str], texts)  # one for each of the two numbers
