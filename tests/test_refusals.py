"""Every exercise refuses the package's own answer to it: derived, for every test cell of
every notebook, from the names its checks call and the package's names, not written by hand.

The package (``transformer_course``) is the answer key of earlier exercises: an exercise
whose checks call the student's ``pre_norm_block`` must refuse every
``transformer_course.<module>.pre_norm_block``, or an answer that imports it scores."""

from __future__ import annotations

import ast
import builtins
import importlib
import pkgutil

import pytest
from conftest import ASSIGNMENTS, load, nbgrader_meta, solution_path

import transformer_course
from autograder.cells import source, split_hidden
from autograder.trusted.checker import names_read_and_bound
from autograder.trusted.uses import Program, Reader
from course_checks import shortcuts


def package_names() -> dict[str, list[str]]:
    """name -> every dotted place the package defines (not imports) something by that name."""
    found: dict[str, list[str]] = {}
    for info in pkgutil.iter_modules(transformer_course.__path__):
        module = importlib.import_module(f"transformer_course.{info.name}")
        for name, value in vars(module).items():
            if not name.startswith("_") and getattr(value, "__module__", None) == module.__name__:
                found.setdefault(name, []).append(f"{module.__name__}.{name}")
    return found


def exercises():
    """(notebook, grade id, names the checks call, what the checks refuse) per test cell."""
    for assignment in ASSIGNMENTS:
        cells = load(solution_path(assignment))["cells"]
        setup_binds = set()
        for cell in cells:
            meta = nbgrader_meta(cell)
            if meta.get("grade_id") == "setup":
                setup_binds = names_read_and_bound(ast.parse(source(cell)))[1]
            if cell["cell_type"] != "code" or not meta.get("grade") or meta.get("solution"):
                continue
            code = "\n".join(piece for piece, _ in split_hidden(source(cell)))
            tree = ast.parse(code)
            loads, binds = names_read_and_bound(tree)
            entries = loads - binds - setup_binds - set(dir(builtins))
            refuses = ()
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Checks":
                    for keyword in node.keywords:
                        if keyword.arg == "refuses":
                            refuses = eval(  # noqa: S307 - course code
                                compile(ast.Expression(keyword.value), "", "eval"),
                                {"shortcuts": shortcuts},
                            )
            yield assignment, meta["grade_id"], sorted(entries), tuple(refuses)


EXERCISES = list(exercises())
NAMES = package_names()


def test_the_exercises_are_all_found():
    assert len(EXERCISES) >= 50 and all(entries for *_, entries, _ in EXERCISES)


@pytest.mark.parametrize(
    "assignment, cell, entries, refuses", EXERCISES, ids=[f"{a}:{c}" for a, c, *_ in EXERCISES]
)
def test_every_exercise_refuses_the_packages_answer_to_it(assignment, cell, entries, refuses):
    reader = Reader(Program([]), refuses)
    missing = [
        dotted
        for name in entries
        for dotted in NAMES.get(name, [])
        if not any(f.kind == "refused" for f in reader._judge_name(dotted, "here"))
    ]
    assert not missing, f"{assignment} {cell} calls {entries} and does not refuse {missing}"
