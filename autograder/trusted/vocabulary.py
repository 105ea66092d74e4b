"""What an exercise's answer may use without a look: the vocabulary the course teaches with.

An exercise that refuses shortcuts asks the student to build something from smaller parts.
Its answer is read (``autograder/trusted/uses.py``) and every PyTorch object it reaches must
be in this vocabulary, or it is flagged for the instructor ("needs a look", no points lost):

- PyTorch's elementary operations: a function of the ``torch`` namespace itself that
  ``torch.nn.functional`` does not also offer (arithmetic, reductions, shapes, creation,
  ``einsum``, ``where`` ...), every ``torch.Tensor`` method, dtypes and constants;
- everything the course has shown by that exercise, derived from ``solutions/``: the code
  of every earlier notebook and of this one above the exercise's checks (``nn.Linear`` from
  03, ``F.cross_entropy`` from 07), and what earlier checks refused, since the student built
  it (``softmax`` after notebook 01); PyTorch's other spellings of those operations
  (``F.relu`` for ``torch.relu``) too.

So a softmax of notebook 01 built from ``F.scaled_dot_product_attention``, the gradient of
``F.cross_entropy``, ``torch.jit``, ``torch.overrides`` or ``torch.serialization`` is listed
with its line, whatever its name, while the parts a later notebook has taught are not.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import torch
import torch.nn.functional as F

from autograder.cells import source
from autograder.trusted.scopes import Program

# PyTorch's namespaces of plain mathematics and of initialisers, elementary like ``torch``.
ELEMENTARY_NAMESPACES = (
    "torch.Tensor.",
    "torch.linalg.",
    "torch.special.",
    "torch.fft.",
    "torch.nn.init.",
)


def elementary(dotted: str) -> bool:
    """Whether a ``torch`` reference is one of PyTorch's elementary operations."""
    parts = dotted.split(".")
    if parts[0] != "torch":
        return True  # not PyTorch's: judged elsewhere (readable modules, the package)
    if len(parts) == 1 or dotted.startswith(ELEMENTARY_NAMESPACES):
        return True
    if len(parts) > 2:
        return False  # in a submodule: nn, functional, jit, overrides, serialization ...
    value = getattr(torch, parts[1], None)
    if value is None or isinstance(value, type(torch)):
        return False  # not PyTorch's, or a submodule itself
    if not callable(value):
        return True  # a dtype, a constant
    if isinstance(value, type):
        return not issubclass(value, torch.nn.Module)  # Tensor, Size, Generator ...
    return not hasattr(F, parts[1])  # torch.exp, torch.einsum; not torch.layer_norm


def spelled(name: str) -> str:
    """The operation a library name spells, without PyTorch's marks of another spelling of
    it: ``_softmax``, ``softmax_``, ``native_layer_norm`` are ``softmax`` and ``layer_norm``."""
    return name.strip("_").removeprefix("native_")


def operation(dotted: str) -> str:
    """The operation a PyTorch name spells, whatever the spelling: ``F.cross_entropy``,
    ``nn.CrossEntropyLoss``, ``torch._C._nn.cross_entropy_loss`` are all ``crossentropy``."""
    name = spelled(dotted.rsplit(".", 1)[-1]).replace("_", "").lower()
    return name.removesuffix("loss") or name


def _shown(cells: list[dict], refusals) -> set[str]:
    """Every library reference in ``cells`` (code the course shows, answers included, and
    names its text quotes), and what their checks refuse: the parts students built."""
    import ast

    code = []
    for cell in cells:  # the code, and what the text names in `code spans` ("use `F.silu`")
        if cell["cell_type"] == "code":
            code.append(source(cell))
        elif cell["cell_type"] == "markdown":
            code += re.findall(r"`([A-Za-z_][\w.]*)`", source(cell))
    program = Program([("", text, True) for text in code])
    found: set[str] = set()
    for _, tree, _ in program.cells:
        for node in ast.walk(tree):
            if isinstance(node, (ast.Name, ast.Attribute)):
                found.update(d for d in program.dotted(node) if not d.startswith("builtins."))
    for cell in cells:
        found.update(refusals(source(cell)))
    return found


def _refusals(code: str) -> list[str]:
    """The names a test cell's ``Checks(..., refuses=...)`` refuses."""
    import ast

    from course_checks import shortcuts

    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Checks":
            for keyword in node.keywords:
                if keyword.arg == "refuses":
                    try:
                        return list(
                            eval(  # noqa: S307 - course code
                                compile(ast.Expression(keyword.value), "", "eval"),
                                {"shortcuts": shortcuts},
                            )
                        )
                    except Exception:  # noqa: BLE001
                        return []
    return []


@functools.cache
def _notebook(path: Path, until: str = "") -> frozenset[str]:
    """What a notebook of the course shows, all of it or above the cell ``until``."""
    cells = []
    for cell in json.loads(path.read_text())["cells"]:
        if until and cell.get("metadata", {}).get("nbgrader", {}).get("grade_id") == until:
            break
        cells.append(cell)
    return frozenset(_shown(cells, _refusals))


@functools.cache
def taught(solutions: Path, notebook: str, test_cell: str) -> frozenset[str]:
    """What the course has shown by the test cell ``test_cell`` of ``notebook``: the code of
    every notebook before it and of this one above that cell, and what their checks refused
    (built by the student, so known)."""
    found = set(_notebook(solutions / notebook / f"{notebook}.ipynb", test_cell))
    for path in sorted(solutions.glob("*/*.ipynb")):
        if path.parent.name < notebook:
            found |= _notebook(path)
    return frozenset(found)


class Vocabulary:
    """The vocabulary of the exercise whose test cell is ``test_cell`` in ``notebook``."""

    def __init__(self, solutions: Path, notebook: str, test_cell: str):
        self.names = taught(Path(solutions), notebook, test_cell)
        self.operations = {operation(n) for n in self.names if n.startswith("torch")}

    def applies(self, refuses) -> bool:
        """Whether the vocabulary is asked of an exercise that refuses ``refuses``: one that
        refuses some of PyTorch's parts, which PyTorch may also offer in other words."""
        return any(name.startswith("torch") for name in refuses)

    def allows(self, dotted: str) -> bool:
        return (
            elementary(dotted)
            or dotted in self.names
            or (dotted.startswith("torch") and operation(dotted) in self.operations)
        )
