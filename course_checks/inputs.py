"""What a check passes to the answer: the tensors its lambda reads, so that a change made in
place can be noticed (and put back), and the tensors a check marks as the answer's to fill.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch

__all__ = ["filled_by_answer", "in_place_message", "unchanged"]


def inputs_read(student_code: Callable[[], Any]) -> list[tuple[str, torch.Tensor]]:
    """The tensors a check passes to student code: the names its lambda reads (and the
    tensors one container deep in them), so that changes made in place can be noticed."""
    code = getattr(student_code, "__code__", None)
    if code is None:
        return []
    values = list(bindings(student_code).items())
    values += [
        (name, cell.cell_contents)
        for name, cell in zip(code.co_freevars, student_code.__closure__ or (), strict=False)
        if has_contents(cell)
    ]
    found = []
    for name, value in values:
        if isinstance(value, torch.Tensor):
            found.append((f"`{name}`", value))
        elif isinstance(value, (list, tuple, dict)) and len(value) <= 64:
            items = value.items() if isinstance(value, dict) else enumerate(value)
            found += [
                (f"`{name}[{key!r}]`", item)
                for key, item in items
                if isinstance(item, torch.Tensor)
            ]
    return found[:64]


def _names_read(code) -> list[str]:
    """The global names a code object reads, the lambdas inside it included."""
    return [
        *code.co_names,
        *(
            name
            for inner in code.co_consts
            if hasattr(inner, "co_names")
            for name in _names_read(inner)
        ),
    ]


def bindings(student_code: Callable[[], Any]) -> dict[str, Any]:
    """The global names a check's lambda reads (also in a lambda it calls, as in
    `lambda: (lambda r: r[1] is None)(f(x))`), with the values they have now."""
    code = getattr(student_code, "__code__", None)
    namespace = getattr(student_code, "__globals__", {})
    return {
        name: namespace[name] for name in (_names_read(code) if code else ()) if name in namespace
    }


def has_contents(cell) -> bool:
    try:
        cell.cell_contents  # noqa: B018 - an empty cell raises
    except ValueError:
        return False
    return True


def unchanged(tensor: torch.Tensor, copy: torch.Tensor) -> bool:
    """Whether ``tensor`` still equals its earlier ``copy`` (NaN where NaN was)."""
    return (
        tensor.shape == copy.shape
        and tensor.dtype == copy.dtype
        and bool(((tensor == copy) | (tensor.isnan() & copy.isnan())).all())
    )


def changed_in_place(inputs, copies) -> list[str]:
    """Names of the inputs that differ from their copies; each is put back as it was."""
    changed = []
    for (name, tensor), copy in zip(inputs, copies, strict=True):
        if unchanged(tensor, copy):
            continue
        changed.append(name)
        with torch.no_grad():
            tensor.data = copy  # later checks see the input they were written for
    return changed


def filled_by_answer(tensor: torch.Tensor) -> torch.Tensor:
    """Mark ``tensor`` as one the answer is meant to write into (a preallocated cache): its
    change in place is the answer, not a mistake. In the student's kernel the check simply
    sees the tensor change; the grader's checker copies the kernel's new values into it,
    as data, after each call. -> ``tensor`` itself."""
    # a mark on the tensor itself, read by autograder/trusted/link.py
    tensor._filled_by_answer = True  # type: ignore[attr-defined]
    return tensor


def in_place_message(names: list[str]) -> str:
    """What a check says about inputs an answer changed in place (``names`` as written)."""
    return (
        f"your function changed its input {' and '.join(names)} in place. The caller still"
        " needs it: compute a new tensor (`x - m`, `masked_fill`) instead of changing the "
        "one you were given (`x -= m`, `x.sub_(m)`, `masked_fill_`)."
    )
