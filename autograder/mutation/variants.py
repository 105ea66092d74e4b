"""The mutants of a notebook's reference answers as working functions, for grading.

``VariantAnswers`` runs every mutant (``autograder/mutation/mutants.py``) and builds every
family (``autograder/mutation/families.py``) of an exercise's reference answer in a namespace
holding the notebook's setup and reference answers, so that the grader can name the one a
wrong answer matches (the grading context's ``variants``, ``course_checks/context.py``); a
``Variant`` also tells how far an answer's own calls side with it. Below are the notebook's
exercises as both grading and the analysis read them: its code cells, their titles, the
answer cells.

It lives in ``mutation/``, not ``grading/``, though grading runs it: it is made from the
mutants and the families, and the measurements use it too (``measure.py``); in
``grading/`` it would make mutation import grading, against the one direction of
``autograder/__init__.py``.
"""

from __future__ import annotations

import ast
import collections
import contextlib
import functools
import io
import warnings
from collections.abc import Iterator

from autograder import cells
from autograder.mutation.families import Family, families
from autograder.mutation.mutants import defined_names, mutants
from course_checks.cells import CHECKS_TITLE


def code_cells(notebook: dict) -> Iterator[tuple[str | None, dict, str]]:
    for cell in notebook["cells"]:
        if cell.get("cell_type") == "code":
            meta = cell.get("metadata", {}).get("nbgrader", {})
            text = cells.source(cell)
            yield meta.get("grade_id"), meta, text


def title(test_source: str, fallback: str = "") -> str:
    """The exercise's name as students see it: ``Checks("Exercise 3 · attention", ...)``."""
    match = CHECKS_TITLE.search(test_source)
    return match.group(1) if match else fallback


def solution_cells(notebook: dict, marked: bool = True) -> dict[str, str]:
    """Test cell id (``exN_tests``) -> the source of exercise N's solution cells (``marked``:
    only those holding a solution; without, as a submission holds them)."""
    found: dict[str, list[str]] = {}
    for grade_id, meta, text in code_cells(notebook):
        if grade_id and meta.get("solution") and (not marked or "### BEGIN SOLUTION" in text):
            found.setdefault(grade_id.split("_")[0], []).append(text)
    return {f"{prefix}_tests": "\n\n".join(texts) for prefix, texts in found.items()}


@functools.lru_cache(maxsize=256)
def calls(source: str) -> collections.Counter | None:
    """How many times ``source`` calls each function or method, by its last name
    (``torch.softmax`` and ``F.softmax`` are both ``softmax``); None when it does not parse.
    A student's answer is read here as text, never run."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return collections.Counter(
        node.func.id if isinstance(node.func, ast.Name) else node.func.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute))
    )


class Variant(tuple):
    """(description, {name: function}) of one mutant, with what it calls and what the
    reference calls, to tell how far an answer's own calls side with it."""

    source: str
    reference: str

    def __new__(cls, description: str, functions: dict, source: str, reference: str):
        variant = super().__new__(cls, (description, functions))
        variant.source, variant.reference = source, reference
        return variant

    def agreement(self, answer: str) -> int:
        """+1 for each of the reference's calls that the mutant makes more or fewer times and
        the answer too (a step left out that the answer lacks as well), −1 for each that the
        answer makes as often as the reference (a step left out that the answer has); 0 when
        none changed, or the answer does not parse. A call the reference never makes is how
        a mutant is built (`list(blocks)[-1:]`), not what it is about: it does not count."""
        mutant, reference, own = calls(self.source), calls(self.reference), calls(answer)
        if mutant is None or reference is None or own is None:
            return 0
        return sum(
            1
            if (own[name] > reference[name]) == (mutant[name] > reference[name])
            and own[name] != reference[name]
            else -1
            for name in reference
            if mutant[name] != reference[name]
        )


def answer_sources(notebook: dict) -> dict[str, str]:
    """Exercise title -> the source of its answer cells, as ``notebook`` holds them (a
    submission's, with or without the solution markers)."""
    answers = solution_cells(notebook, marked=False)
    return {
        title(text, grade_id): answers[grade_id]
        for grade_id, _, text in code_cells(notebook)
        if grade_id in answers
    }


class VariantAnswers:
    """The mutants of a source notebook's reference answers, as working functions, for
    the grader to name the one a wrong answer matches (the context's ``variants``).

    They run in a namespace of their own holding the notebook's setup cell and every
    reference answer, so a mutant of exercise 2 calls the reference of exercise 1.
    """

    def __init__(self, notebook: dict):
        cells = list(code_cells(notebook))
        self._setup = [text for grade_id, _, text in cells if grade_id == "setup"]
        answers = solution_cells(notebook)
        self._answers = {
            title(text, grade_id): answers[grade_id]
            for grade_id, meta, text in cells
            if grade_id in answers
        }
        self._namespace: dict | None = None
        # the variants of each exercise: mutants, then the families of its free numbers
        self._built: dict[str, list[Variant | Family]] = {}

    def _reference(self) -> dict:
        if self._namespace is None:
            self._namespace = {"__name__": "__variants__"}
            for text in self._setup + list(self._answers.values()):
                self._run(text, self._namespace)
        return self._namespace

    @staticmethod
    def _run(text: str, namespace: dict) -> bool:
        try:
            with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                exec(compile(text, "<reference>", "exec"), namespace)  # noqa: S102
        except Exception:  # noqa: BLE001 - a variant that cannot be built is left out
            return False
        return True

    def reference(self, exercise: str) -> dict[str, object]:
        """The names the exercise's reference answer defines, as working objects."""
        source = self._answers.get(exercise)
        return (
            {
                name: self._reference()[name]
                for name in defined_names(source)
                if name in self._reference()
            }
            if source
            else {}
        )

    def __call__(self, exercise: str) -> list[Variant | Family]:
        if exercise not in self._built:
            source = self._answers.get(exercise)
            found: list[Variant | Family] = []
            for mutant in mutants(source) if source else []:
                assert source is not None  # its mutants are being run
                space = dict(self._reference())
                if self._run(mutant.source, space):
                    found.append(
                        Variant(
                            mutant.description,
                            {name: space[name] for name in defined_names(source)},
                            mutant.source,
                            source,
                        )
                    )
            if source:
                found += families(source, self._reference(), defined_names(source))
            self._built[exercise] = found
        return self._built[exercise]
