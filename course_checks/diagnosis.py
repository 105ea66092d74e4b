"""What a wrong value is, measured against the expected one.

A check knows the value it expected and the inputs it passed. That is enough to say, of
a wrong answer, more than "differs at index [2, 1]":

- its shape, axis by axis: "one extra axis of size 1 at position 1", "axes 1 and 2
  swapped", "axis 1 (size 4, `x.shape[1]`) is missing: averaged over it";
- the one-parameter family of the expected value it fits: a factor ("0.894 times the
  expected value: 2/√5, where 2 = √`Q.shape[-1]` and 5 = `K.shape[-2]`"), an offset, a
  shift of k positions along an axis, an axis reversed, two axes swapped, every entry of
  a mask inverted, integers off by one;
- where the difference lies: "only at index 0 of axis 0", "everywhere except index 0 of
  axis 0", "only above the diagonal".

These are measurements, not names: they need no reference code, only the expected value
and the sizes of the check's inputs, so they run wherever a check runs (the student's own
check cells, Validate, the self-check and grading alike). Naming the mistake behind them
is the misconceptions' and the grader's business (``course_checks.checking``).
"""

from __future__ import annotations

import itertools
import math
import re
from typing import Any

import torch

__all__ = ["explain_shape", "identity", "measure", "sizes_of"]

Sizes = dict[int, str]  # a size -> where it comes from in the check's inputs, "`K.shape[-2]`"


def sizes_of(inputs: list[tuple[str, Any]]) -> Sizes:
    """The sizes a check's inputs have, each with the first place it was seen: the axes of
    its tensors (``Q.shape[-1]``), its integers, the lengths of its lists."""
    found: Sizes = {}
    for name, value in inputs:
        name = name.strip("`")
        if isinstance(value, torch.Tensor):
            n = value.dim()
            for axis, size in enumerate(value.shape):
                index = axis if axis < n - 2 else axis - n
                found.setdefault(int(size), f"`{name}.shape[{index}]`")
        elif isinstance(value, int) and not isinstance(value, bool):
            found.setdefault(value, f"`{name}`")
        elif isinstance(value, (list, tuple)) and value and not isinstance(value[0], (int, float)):
            found.setdefault(len(value), f"`len({name})`")
    return {size: label for size, label in found.items() if size >= 2}


def _size(size: int, sizes: Sizes) -> str:
    return f"{size}, {sizes[size]}" if size in sizes else str(size)


# --- shapes -------------------------------------------------------------------------------


def explain_shape(
    got: tuple[int, ...], expected: tuple[int, ...], sizes: Sizes | None = None
) -> str:
    """Why ``got`` is not ``expected``, axis by axis; empty when nothing simple explains it."""
    got, expected, sizes = tuple(got), tuple(expected), sizes or {}
    if len(got) == len(expected) + 1:
        for axis in range(len(got)):
            if got[:axis] + got[axis + 1 :] == expected:
                if got[axis] == 1:
                    return (
                        f"It has one extra axis of size 1 at position {axis} (an extra "
                        "`[:, None]` or `unsqueeze`, or `keepdim=True` where none belongs?)."
                    )
                return (
                    f"It has an extra axis of size {_size(got[axis], sizes)} at position "
                    f"{axis}: was something not summed or averaged over it?"
                )
    if len(got) + 1 == len(expected):
        for axis in range(len(expected)):
            if expected[:axis] + expected[axis + 1 :] == got:
                if expected[axis] == 1:
                    return (
                        f"The axis of size 1 at position {axis} is missing (squeezed away, "
                        "or a reduction without `keepdim=True`?)."
                    )
                return (
                    f"Axis {axis} (size {_size(expected[axis], sizes)}) is missing: "
                    "summed, averaged or indexed away?"
                )
    if len(got) == len(expected) and got != expected and sorted(got) == sorted(expected):
        swapped = [a for a in range(len(got)) if got[a] != expected[a]]
        if len(swapped) == 2:
            a, b = swapped
            return (
                f"Axes {a} and {b} are swapped (a missing or extra `.transpose({a}, {b})`"
                f"{' or `.T`' if len(got) == 2 else ''}?)."
            )
        return "It has the right axes in another order (a missing or extra `.permute`?)."
    if len(got) == len(expected):
        wrong = [
            f"axis {a} has size {_size(g, sizes)} where {_size(e, sizes)} belongs"
            for a, (g, e) in enumerate(zip(got, expected, strict=True))
            if g != e
        ]
        text = "; ".join(wrong)
        text = text[0].upper() + text[1:] + "."
        if math.prod(got) == math.prod(expected):
            text += " Same number of entries: a reshape in the wrong order of axes?"
        return text
    if math.prod(got) == math.prod(expected):
        return (
            f"It has {len(got)} axes instead of {len(expected)}, with the same number of "
            "entries: a reshape, `.flatten` or `.squeeze` too many or too few?"
        )
    return f"It has {len(got)} axes instead of {len(expected)}."


# --- values -------------------------------------------------------------------------------


def _close(a: torch.Tensor, b: torch.Tensor, atol: float, rtol: float) -> bool:
    return a.shape == b.shape and bool(torch.allclose(a, b, atol=atol, rtol=rtol, equal_nan=True))


def _varies(t: torch.Tensor) -> bool:
    """Whether ``t`` holds more than one distinct finite value (a family fit to a constant
    tensor proves nothing)."""
    finite = t[torch.isfinite(t)]
    return finite.numel() > 1 and float(finite.max() - finite.min()) > 1e-6


def factor_name(c: float, sizes: Sizes) -> str:
    """``c`` as a simple expression of the check's sizes, when one fits: "√5, where 5 is
    `K.shape[-2]`", "1/8 = 1/`d_model`"; else empty."""
    names = {s: label for s, label in sizes.items() if s <= 10_000}
    # A size's powers, then ratios of two sizes (their square roots too).
    simple: list[tuple[float, str, list[int]]] = []
    for s in names:
        simple += [
            (s, f"{s}", [s]),
            (math.sqrt(s), f"√{s}", [s]),
            (1 / s, f"1/{s}", [s]),
            (1 / math.sqrt(s), f"1/√{s}", [s]),
            (s * s, f"{s}²", [s]),
        ]
    for s, t in itertools.permutations(names, 2):
        simple += [(s / t, f"{s}/{t}", [s, t]), (math.sqrt(s / t), f"√{s}/√{t}", [s, t])]
    for value, text, used in simple:
        if math.isclose(abs(c), value, rel_tol=2e-3):
            where = ", ".join(f"{s} is {names[s]}" for s in used)
            return f"{'−' if c < 0 else ''}{text}, where {where}"
    for k in (2, 3, 4, 10, 100, 1000):
        for value, text in ((k, f"{k}"), (1 / k, f"1/{k}")):
            if math.isclose(abs(c), value, rel_tol=2e-3):
                return f"{'−' if c < 0 else ''}{text}"
    return ""


def _scale(got: torch.Tensor, expected: torch.Tensor, sizes: Sizes, atol, rtol) -> str | None:
    finite = torch.isfinite(expected) & torch.isfinite(got)
    e, g = expected[finite], got[finite]
    norm = float((e * e).sum())
    if norm < 1e-12 or not _varies(e):
        return None
    c = float((g * e).sum()) / norm
    if abs(c) < 1e-6 or math.isclose(c, 1.0, rel_tol=1e-3) or not _close(g, c * e, atol, rtol):
        return None
    if math.isclose(c, -1.0, rel_tol=1e-3):
        return "your result is the expected one with every sign flipped (a factor −1)."
    name = factor_name(c, sizes)
    if re.match(r"1/\d+,", name):  # divided by a count: a mean where a sum belongs
        reading = (
            "divided by that size, as an average (a mean) divides a sum: a mean where "
            "a sum belongs, or a division too many?"
        )
    elif re.match(r"\d+,", name):
        reading = (
            "multiplied by that size: a sum where an average (a mean) belongs, or a "
            "division left out?"
        )
    else:
        reading = "a scale or a normalisation off by that factor."
    return (
        f"your result is the expected one times {c:.4g}"
        + (f" ({name})" if name else "")
        + f": {reading}"
    )


def _offset(got: torch.Tensor, expected: torch.Tensor, atol, rtol) -> str | None:
    difference = got - expected
    finite = difference[torch.isfinite(difference)]
    if finite.numel() < 2:
        return None
    b = float(finite.mean())
    if abs(b) <= atol or not _close(got, expected + b, atol, rtol):
        return None
    return f"your result is the expected one plus {b:.4g} everywhere (a term added or missing)."


def _swapped(a: int, b: int) -> str:
    return (
        f"your result is the expected one with axes {a} and {b} swapped (a transpose too "
        "many or too few, or keys and queries exchanged?)."
    )


def _axis(axis: int, n: int) -> str:
    """An axis of an n-axis result; the last one named so, the same in a row and in the
    table it comes from (a table's features and one position's)."""
    return "the last axis" if axis == n - 1 else f"axis {axis}"


def _moved(got: torch.Tensor, expected: torch.Tensor, atol, rtol) -> str | None:
    """Two axes swapped, an axis reversed, or the entries moved k positions along an axis."""
    n = got.dim()
    for a, b in itertools.combinations(range(n), 2):
        if got.shape[a] == got.shape[b] > 1 and _close(got, expected.transpose(a, b), atol, rtol):
            return _swapped(a, b)
    for axis in range(n):
        if got.shape[axis] > 1 and _close(got, expected.flip(axis), atol, rtol):
            return f"your result is the expected one in reverse order along {_axis(axis, n)}."
    for axis in range(n):
        size = got.shape[axis]
        for k in (1, -1, 2, -2, 3, -3):
            if size - abs(k) < 2:
                continue
            moved = got.narrow(axis, max(k, 0), size - abs(k))
            source = expected.narrow(axis, max(-k, 0), size - abs(k))
            if _varies(source) and _close(moved, source, atol, rtol):
                direction = "later" if k > 0 else "earlier"
                return (
                    f"your result is the expected one moved {abs(k)} position"
                    f"{'s' if abs(k) > 1 else ''} {direction} along {_axis(axis, n)}: entry "
                    f"t holds what belongs at t {'−' if k > 0 else '+'} {abs(k)} (a shift, "
                    f"a range or an index off by {abs(k)}?)."
                )
    return None


def _where(got: torch.Tensor, expected: torch.Tensor, atol, rtol) -> str | None:
    """Where the differences lie, when that is simpler than "everywhere"."""
    differs = ~torch.isclose(got, expected, atol=atol, rtol=rtol, equal_nan=True)
    count, total = int(differs.sum()), differs.numel()
    if count == 0 or count == total or got.dim() == 0:
        return None
    if got.dim() >= 2 and got.shape[-1] > 1 and got.shape[-2] > 1:
        rows, cols = got.shape[-2:]
        i, j = torch.arange(rows)[:, None], torch.arange(cols)[None, :]
        for region, words in (
            (j > i, "above the diagonal (where j > i)"),
            (j < i, "below the diagonal (where j < i)"),
            (j == i, "on the diagonal"),
        ):
            if not bool((differs & ~region).any()):
                return f"the entries differ only {words} of the last two axes."
    for axis in range(got.dim()):
        if got.shape[axis] < 2:
            continue
        touched = differs.transpose(0, axis).reshape(got.shape[axis], -1).any(dim=1)
        which = [int(x) for x in touched.nonzero().flatten()]
        if len(which) == got.shape[axis]:
            continue
        right = [x for x in range(got.shape[axis]) if x not in which]
        if len(which) <= 3 and right != [0]:
            return (
                f"the entries differ only at index {', '.join(map(str, which))} of axis "
                f"{axis} (of {got.shape[axis]})."
            )
        if len(right) <= 3:
            return (
                f"the entries are right only at index {', '.join(map(str, right))} of "
                f"axis {axis} (of {got.shape[axis]})."
            )
    return None


def _discrete(got: torch.Tensor, expected: torch.Tensor, dtype: torch.dtype) -> str | None:
    if dtype == torch.bool and bool((got == 1 - expected).all()):
        return "every entry is inverted: True where False belongs (the polarity reversed)."
    if not dtype.is_floating_point and dtype != torch.bool:
        for k in (1, -1):
            if bool((got == expected + k).all()):
                return f"every entry is {'one more' if k > 0 else 'one less'} than expected."
    return None


def _reduced(got: torch.Tensor, expected: torch.Tensor, sizes: Sizes, atol, rtol) -> str | None:
    """A result with one axis fewer or more than expected, that the expected value reduced
    or repeated along that axis explains."""
    if got.dim() + 1 == expected.dim():
        for axis in range(expected.dim()):
            if expected.shape[axis] == 1 and _close(got, expected.squeeze(axis), atol, rtol):
                return (
                    f"your result is the expected one without its axis of size 1 at "
                    f"position {axis} (squeezed away, or a reduction without `keepdim`?)."
                )
            size = _size(expected.shape[axis], sizes)
            for how, reduced in (
                ("averaged over", lambda t, a=axis: t.mean(a)),
                ("summed over", lambda t, a=axis: t.sum(a)),
                ("only the first entry along", lambda t, a=axis: t.select(a, 0)),
                ("only the last entry along", lambda t, a=axis: t.select(a, -1)),
            ):
                if expected.shape[axis] > 1 and _close(got, reduced(expected), atol, rtol):
                    return f"your result is the expected one {how} axis {axis} (size {size})."
    if got.dim() == expected.dim() + 1:
        for axis in range(got.dim()):
            if got.shape[axis] == 1 and _close(got.squeeze(axis), expected, atol, rtol):
                return (
                    f"your result is the expected one with an extra axis of size 1 at "
                    f"position {axis} (an extra `unsqueeze`, `[:, None]` or `keepdim`?)."
                )
            if got.shape[axis] > 1 and all(
                _close(got.select(axis, i), expected, atol, rtol) for i in range(got.shape[axis])
            ):
                return (
                    f"your result is the expected one repeated {got.shape[axis]} times "
                    f"along a new axis {axis}."
                )
    if got.dim() == expected.dim() and got.shape != expected.shape:
        for order in itertools.permutations(range(got.dim())):
            if tuple(expected.shape[a] for a in order) == tuple(got.shape) and _close(
                got, expected.permute(order), atol, rtol
            ):
                moved = [a for a in range(got.dim()) if order[a] != a]
                if len(moved) == 2:  # said as for a square result, where no shape shows it
                    return _swapped(*moved)
                return f"your result holds the expected values with the axes in the order {order}."
    if (
        got.numel() == expected.numel()
        and got.shape != expected.shape
        and _close(got.reshape(expected.shape), expected, atol, rtol)
    ):
        return "your result holds the expected values in the expected order, in another shape."
    return None


def measure(
    got: torch.Tensor,
    expected: torch.Tensor,
    sizes: Sizes | None = None,
    *,
    atol: float = 1e-4,
    rtol: float = 1e-4,
    dtype: torch.dtype | None = None,
    located: bool = True,
) -> str | None:
    """What a wrong ``got`` is relative to ``expected`` (both float64), when a family of
    the expected value fits it: a sentence to append to the difference, or None. Without
    ``located``, only what identifies the value, not where it differs."""
    sizes = sizes or {}
    try:  # a measurement that cannot be taken is left out: it must never fail a check
        if got.shape != expected.shape:
            return _reduced(got, expected, sizes, atol, rtol)
        if got.numel() < 2:
            return None
        return (
            _discrete(got, expected, dtype or got.dtype)
            or _scale(got, expected, sizes, atol, rtol)
            or _offset(got, expected, atol, rtol)
            or _moved(got, expected, atol, rtol)
            or (_where(got, expected, atol, rtol) if located else None)
        )
    except (RuntimeError, ValueError, TypeError, IndexError, OverflowError):
        return None


def identity(measured: str | None) -> str | None:
    """A measurement that says what the value is (axes swapped, a named factor, an axis
    reduced...), with its numbers left out: the same on every check of one mistake, whatever
    the check's sizes. None for a measurement that names no mistake (a factor or an offset
    that no size explains)."""
    if (
        not measured
        or "plus" in measured.split(":")[0]
        or (" times " in measured and "(" not in measured.split(":")[0])
    ):
        return None
    return re.sub(r"\d+(\.\d+)?", "#", re.sub(r", where [^)]*", "", measured))
